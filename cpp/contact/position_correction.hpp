// The position pass: penetration removed by moving bodies, without touching their velocities
// (split impulse: Catto's "pseudo velocities", Bullet's splitImpulse).
//
// After the velocity solve, a contact between single rigid bodies (or one and an immovable body)
// would end the step at the depth d_end = depth - dt * v_n, its depth at the start of the step
// less what its solved normal velocity v_n (separating > 0) takes off. The pass looks for
// pseudo-velocities p (translations: 3 of the 6 entries per body in the solver's u layout) and
// normal impulses mu >= 0 with
//     p_s = sign_s n mu / m_s,   n . (p_A - p_B) >= b,   mu (n . (p_A - p_B) - b) = 0,
//     b = min(fraction * (d_end - kErpSlop) / dt, max_depenetration_velocity)
// (projected Gauss-Seidel over the normal rows, no friction: the exact cone of the velocity solve
// is not involved), and each body is then moved by dt * p_s. The velocities stay those of the
// velocity solve, so the pass adds no kinetic energy and no momentum: a resting body goes to the
// surface and stays at rest, a bouncing one (its v_n carries it out: d_end < 0, b < 0) is not
// pushed at all, and ERP's spring (the velocity target, off by default) is not needed to hold a
// body on top. A contact shallower than the slop (b < 0) may close by up to its margin but is
// never pulled.
// Dead band: the pass runs only when some contact would end deeper than kPositionCorrectionTrigger
// (twice the slop); a body resting between the two is left where it is. Moving every step by the
// little an unconverged solve leaves made a stack of cylinders at dt = 0.02 creep sideways for
// ever (1.5 mm in 10 s; it comes to rest without the pass, and with the band).
// Translation only: turning the bodies too (p_w = I^-1 (r x n) mu, Box2D's position solver) let
// contacts that disagree in depth rock them: a stack of cylinders, whose cap rims are sampled at
// 8 points, walked sideways 0.64 mm in 3 s at dt = 0.02 (0.26 mm without the pass, 0.09 mm with
// translations only). Tilts are the velocity solve's business (the contacts' torques).
// Moving the two bodies of a contact apart changes their angular momentum about any point by
// dt mu n x (v_A - v_B): zero for a pair moving as one (resting or sticking), large for two
// bodies that fly past each other. A body-body contact with |n x (v_A - v_B)| above
// kPositionCorrectionMaxSlip is left alone for the step, so the pass keeps the angular momentum
// where the real impulses do (the SimBenchmark momentum check of tests/contact/
// test_contact_physics.py saw a 2e-3 relative drift without).
// Contacts with an articulated side are left to the velocity solve (ERP), as before.
#pragma once

#include <cstddef>
#include <vector>

#include "contact/contact_problem.hpp"

namespace torsion {

// the most position-pass sweeps per step; it usually ends long before (kPositionCorrectionTolerance)
constexpr int kPositionCorrectionMaxSweeps = 16;
// the pass ends after a sweep that moved no contact by more than this (m)
constexpr double kPositionCorrectionTolerance = 1e-8;
// m: the pass runs when a contact would end the step deeper than this (see the dead band above)
constexpr double kPositionCorrectionTrigger = 4e-5;
// m/s: |n x (v_A - v_B)| above which a body-body contact is not corrected (above)
constexpr double kPositionCorrectionMaxSlip = 1e-2;

struct PositionCorrectionResult {
  int sweeps = 0;           // 0: no contact needed correcting (p left at zero)
  std::size_t contacts = 0;  // rigid contacts that took part
};

// Computes p (resized to u.size(), zero where nothing moves) for the rows of `problems` after the
// velocity solve gave u. fraction in (0, 1]; mu: scratch (one normal impulse per row).
PositionCorrectionResult solve_position_correction(const ContactProblems& problems,
                                                   const std::vector<double>& u, double dt,
                                                   double fraction, double max_velocity,
                                                   std::vector<double>& mu,
                                                   std::vector<double>& target,
                                                   std::vector<double>& p);

}  // namespace torsion
