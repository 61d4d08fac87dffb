// The per-contact law of the bisection solver (Hwangbo, Lee, Hutter, RA-L 2018; semantics.md A1).
//
// One contact, seen alone: its velocity in the contact frame (x, y tangential, z = normal) is
//     v = G lambda + c
// where G is the 3x3 Delassus block (SPD) and c the velocity the contact would have without its
// own impulse lambda (c_z is already shifted by the normal velocity the solver aims at, so the
// constraint reads v_z >= 0). The exact Coulomb law with a circular cone of coefficient mu picks
// one of three cases:
//   opening:  c_z >= 0                     -> lambda = 0
//   sticking: lambda0 = -G^-1 c lies in the cone (mu lambda0_z >= |lambda0_t|) -> lambda = lambda0
//   sliding:  lambda on the cone's surface, v_z = 0, and the slip velocity v_t anti-parallel to
//             lambda_t (maximal dissipation). The cone surface cut by the plane v_z = 0 is an
//             ellipse; it is parametrised by the direction t of lambda_t and the root of
//             g(t) = t x v_t(t) (slip perpendicular to the friction direction vanishes) is
//             bracketed by growing steps from the direction of a hint (the previous sweep's
//             impulse) or of lambda0, then the bracket is shrunk by bisection accelerated with
//             Illinois false-position steps, to 1e-11 rad. Near the start direction, g's sign is
//             that of a quartic polynomial in tan(turn / 2) whose coefficients are computed once
//             per solve, so a bracketing or bisection step costs a few multiplications; far
//             from it (rare), the search runs on the angle itself.
#pragma once

#include <cstdint>

#include "math/types.hpp"

namespace torsion {

enum class ContactMode : std::uint8_t { kOpening = 0, kSticking = 1, kSliding = 2 };

struct SingleContactResult {
  Vec3 lambda = Vec3::Zero();   // impulse in the contact frame (N s)
  ContactMode mode = ContactMode::kOpening;
  int bisection_iterations = 0; // sliding only: bracketing plus bisection steps
  bool fallback = false;        // sliding only: the local bracket search failed and the global
                                // scan of the ellipse found the root (rare; counted by the solver)
};

// The sticking test: lambda lies in the cone of coefficient mu, mu lambda_z >= |lambda_t|.
// Compared squared: the square root sat on the solver's critical path (the sweep waits for the
// test's branch), and skipping it made the moving 100-cube pile's steps about 4 % faster.
inline bool inside_cone(double mu, const Vec3& lambda) {
  const double bound = mu * lambda.z();
  return bound >= 0.0 && bound * bound >= lambda.head<2>().squaredNorm();
}

// Solve one contact. `g_inv` must be the inverse of `g`. mu >= 0; mu == 0 is frictionless.
// `hint` (optional): an impulse near the expected one (the previous sweep's); the sliding search
// starts from its angle. The result does not depend on it beyond round-off when the root is unique.
SingleContactResult solve_single_contact(const Mat3& g, const Mat3& g_inv, const Vec3& c,
                                         double mu, const Vec3* hint = nullptr);

// The sliding case of solve_single_contact alone, for a caller that has already found that the
// contact is neither opening (c_z < 0) nor sticking: mu > 0, lambda0 = -G^-1 c (outside the cone;
// its angle is the start when there is no hint). The same result as solve_single_contact.
SingleContactResult solve_sliding_contact(const Mat3& g, const Vec3& c, double mu,
                                          const Vec3& lambda0, const Vec3* hint = nullptr);

}  // namespace torsion
