// One-dimensional solver rows: constraints with a single impulse, swept by the contact solver in
// the same Gauss-Seidel loop as the contacts (bisection_solver.hpp).
//
// A row has, like a contact, up to two sides over slices of the generalized velocities u, each
// with its Jacobian J_s (1 x n) and M^-1 J_s^T (n x 1) stored contiguously in
// ContactProblems::row_jac / row_minv_jt. Its velocity is v = sum_s J_s u_s, its Delassus scalar
// g = sum_s J_s M^-1 J_s^T, and one update is the exact 1-D solve
//     lambda <- clamp(lambda + (target - v) / g, lower, upper),   u += M^-1 J^T dlambda.
// The kinds:
//   joint limit (lower / upper): J = e_k on an articulated system's dof k, a unilateral stop
//     (lambda >= 0 at a lower limit, <= 0 at an upper one) that lets the joint approach its
//     limit by at most gap / dt, or pushes it back by an ERP-like fraction of a violation;
//   joint friction: J = e_k, |lambda| <= dt * f_c (Coulomb joint friction, N m or N), target 0;
//   rolling (two per contact, about the contact's tangent axes) and spinning (one, about the
//     normal): J = the relative angular velocity of A with respect to B about the axis, target
//     0, |lambda| <= coefficient * lambda_n of the parent contact (the coefficient is a length in
//     m, as in MuJoCo, Bullet and Chrono: the resisting torque is at most coefficient * normal
//     force). The bound follows the parent's normal impulse as the sweeps change it.
#pragma once

#include <cstdint>
#include <limits>

#include "contact/contact_side.hpp"

namespace torsion {

enum class RowKind : std::uint8_t {
  kJointLower = 0,
  kJointUpper = 1,
  kJointFriction = 2,
  kRolling = 3,
  kSpinning = 4,
  kWire = 5,  // a stiff wire (world/wires.hpp): lambda >= 0, the tension's impulse
};

struct ScalarRow {
  ContactSide side[2];  // jac_begin: offset in ContactProblems::row_jac / row_minv_jt
  double g = 0.0;       // J M^-1 J^T (velocity per unit impulse); 0: the row is skipped
  double lambda = 0.0;  // impulse (N s, or N m s for angular rows); warm start, then solution
  double lower = -std::numeric_limits<double>::infinity();  // fixed bounds of lambda
  double upper = std::numeric_limits<double>::infinity();
  double target = 0.0;     // the row's velocity aimed at (m/s or rad/s)
  double friction = 0.0;   // rolling/spinning: |lambda| <= friction * lambda_n(parent)
  std::int32_t parent = -1;  // rolling/spinning: index of the contact row in ContactProblems::rows
  std::int32_t object = -1;  // joint rows: world index of the articulated system
  std::int32_t dof = -1;     // joint rows: the dof (within the system); wire rows: the wire index
  RowKind kind = RowKind::kJointLower;
  bool warm_started = false;
};

}  // namespace torsion
