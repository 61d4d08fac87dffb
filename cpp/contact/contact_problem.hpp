// Contact problems: what the bisection solver needs to know about each contact.
//
// The solver works on one vector u of generalized velocities: every movable body (or, later,
// articulated system) owns a slice of it. For a single rigid body the slice is its 6 velocities
// [v (world, m/s), w (world, rad/s)]. A contact has up to two *sides*; each side stores, over its
// body's slice,
//     J_s        (3 x n): contact-frame velocity of the contact point per unit of u_s, negated for
//                         side B (so the relative velocity of A with respect to B is sum_s J_s u_s)
//     M^-1 J_s^T (n x 3): the change of u_s per unit impulse on A (contact frame)
// so the solver only ever reads a contact's velocity (sum_s J_s u_s) and applies an impulse
// (u_s += M^-1 J_s^T dlambda): it never needs to know what kind of body it touches. An articulated
// system plugs in by filling J_s and M^-1 J_s^T from its factorised mass matrix over its own gv
// slice; a self-contact is one side with J = J_A - J_B. The 3x3 Delassus block of a contact is
// G_ii = sum_s J_s M^-1 J_s^T.
//
// Velocities of immovable sides (static or kinematic bodies) do not change during the solve: their
// contribution to the contact velocity is the constant v_fixed.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "collision/contact.hpp"
#include "contact/contact_side.hpp"
#include "contact/scalar_row.hpp"
#include "dynamics/rigid_body.hpp"
#include "math/types.hpp"

namespace torsion {

struct ContactProblem {
  Mat3 frame = Mat3::Identity();  // rows: contact x, y, z (normal, from B to A) in world
  Mat3 g = Mat3::Zero();          // Delassus block G_ii (contact frame, m/s per N s)
  Mat3 g_inv = Mat3::Zero();      // its inverse (N s per m/s)
  Vec3 lambda = Vec3::Zero();     // impulse on A, contact frame (N s); warm start, then solution
  Vec3 v_fixed = Vec3::Zero();    // contact-frame velocity from immovable sides (m/s)
  // Single rigid-body sides (set_single_body_side), for the solver's compact kernel
  // (rigid_kernel.hpp): the lever arm r = point - COM (world, m), the side's sign (+1 for A, -1
  // for B) and the index of the body's inverse mass in ContactProblems::rigid_bodies (-1: the
  // side is absent or not a single rigid body)
  Vec3 lever[2] = {Vec3::Zero(), Vec3::Zero()};
  double side_sign[2] = {1.0, -1.0};
  std::int32_t rigid[2] = {-1, -1};

  // material of the pair
  double mu = 0.8;                // friction coefficient of this step (see effective_friction)
  double restitution = 0.0;
  double restitution_threshold = 0.0;

  double depth = 0.0;             // penetration (m); < 0 for a gap (speculative contact)
  double impact_velocity = 0.0;   // approach speed at the start of the step (m/s, > 0 closing)
  double slip_velocity = 0.0;     // tangential speed at the start of the step (m/s)
  double target_vz = 0.0;         // normal velocity the solver aims at (bounce, ERP, gap), m/s

  ContactSide side[2];
  std::uint32_t contact = 0;      // index of the Contact this problem was built from
  bool warm_started = false;
};

// The inverse mass of a single rigid body in the world frame, shared by all its contacts.
struct RigidInverseMass {
  Mat3 inv_inertia_w = Mat3::Zero();  // 1/(kg m^2)
  double inv_mass = 0.0;              // 1/kg
};

// Every contact problem of a step and the per-side Jacobian storage (contiguous, reused from step
// to step: no allocation once the number of contacts stops growing).
struct ContactProblems {
  std::vector<ContactProblem> rows;
  // the single rigid bodies the contacts touch (one entry per body, in order of first contact)
  // and, per first velocity index of a body's slice of u, its entry (-1: none yet)
  std::vector<RigidInverseMass> rigid_bodies;
  std::vector<std::int32_t> rigid_body_of_dof;
  // per side, J_s column-major (3 x n) and M^-1 J_s^T column-major (n x 3): the first
  // side_storage_used entries of each are this step's; the vectors keep their size from step to
  // step and are not zeroed again (every writer sets all 3 n entries of J_s, zeros included, and
  // M^-1 J_s^T is written whole before it is read)
  std::vector<double> jac;
  std::vector<double> minv_jt;
  std::size_t side_storage_used = 0;
  // the 1-D rows (joint limits, joint friction, rolling and spinning friction) and their sides'
  // storage: J_s (1 x n) and M^-1 J_s^T (n x 1)
  std::vector<ScalarRow> scalar_rows;
  std::vector<double> row_jac, row_minv_jt;

  void clear() {
    rows.clear();
    rigid_bodies.clear();
    rigid_body_of_dof.clear();
    side_storage_used = 0;
    scalar_rows.clear();
    row_jac.clear();
    row_minv_jt.clear();
  }
  // reserve storage for a 1-D row's side of n velocities (zeroed) and return its offset
  std::int32_t add_row_side_storage(int n) {
    const auto at = static_cast<std::int32_t>(row_jac.size());
    row_jac.resize(row_jac.size() + static_cast<std::size_t>(n), 0.0);
    row_minv_jt.resize(row_minv_jt.size() + static_cast<std::size_t>(n), 0.0);
    return at;
  }
  // reserve storage for a side of n velocities and return its offset; its entries hold whatever
  // an earlier step left there (the caller writes all of J_s)
  std::int32_t add_side_storage(int n) {
    const auto at = static_cast<std::int32_t>(side_storage_used);
    side_storage_used += 3 * static_cast<std::size_t>(n);
    if (jac.size() < side_storage_used) {
      jac.resize(side_storage_used);
      minv_jt.resize(side_storage_used);
    }
    return at;
  }
};

// Static friction: the coefficient for a contact that slipped at `slip` (m/s) at the start of the
// step falls linearly from the static one (at rest) to the dynamic one (at threshold_velocity and
// faster). It is fixed for the whole solve, so a body at rest sticks whenever the static cone can
// hold it, and one that breaks away slides with the dynamic coefficient from the next steps on.
inline double effective_friction(double dynamic, double static_mu, double threshold_velocity,
                                 double slip) {
  if (static_mu == dynamic || !(threshold_velocity > 0.0) || slip >= threshold_velocity)
    return dynamic;
  return static_mu + (dynamic - static_mu) * (slip / threshold_velocity);
}

// Fill side `s` of `row` for a single rigid body whose 6 velocities start at u[dof_begin]:
// J = sign * frame * [I, -[r]x] with r = point - COM; M^-1 J^T = [J_v^T / m; I_w^-1 J_w^T].
// sign is +1 for body A, -1 for body B. Requires update_body_kinematics() to have run.
// The compact form of the solver's rigid kernel (lever arm, sign, shared inverse mass) is always
// set; `with_jacobian` false leaves J and M^-1 J^T out (jac_begin = -1, no storage): for a
// contact that only the compact kernel will read and write (has_jacobian() below).
void set_single_body_side(ContactProblems& problems, ContactProblem& row, int s,
                          const RigidBody& body, std::int32_t dof_begin, const Vec3& point,
                          double sign, bool with_jacobian = true);

// false for a contact whose sides were set without J and M^-1 J^T: its velocity, impulses and
// Delassus block go through the compact rigid kernel only (rigid_kernel.hpp)
inline bool has_jacobian(const ContactProblem& row) { return row.side[0].jac_begin >= 0; }

// Side `s` of a 1-D angular row (rolling, spinning) on a single rigid body: J = sign [0, axis^T],
// M^-1 J^T = [0; sign I_w^-1 axis], axis a world unit vector. sign +1 for body A, -1 for body B.
void set_single_body_angular_side(ContactProblems& problems, ScalarRow& row, int s,
                                  const RigidBody& body, std::int32_t dof_begin, const Vec3& axis,
                                  double sign);

// velocity (world) of the material point at `point` of a body moving with its current velocity
inline Vec3 body_point_velocity(const RigidBody& body, const Vec3& point) {
  return body.linear_velocity + body.angular_velocity.cross(point - body.position);
}

// A Delassus block whose determinant is below kDelassusRankTolerance * (largest diagonal)^3 is
// treated as rank-deficient and gets kDelassusRegularization * (largest diagonal) added to its
// diagonal (see compute_delassus_block).
constexpr double kDelassusRankTolerance = 1e-10;
constexpr double kDelassusRegularization = 1e-8;

// G_ii from the sides' Jacobians (a side without them: from its lever arm and inverse mass,
// G_s = F (I / m - [r]x I_w^-1 [r]x) F^T), and its inverse. A block that is not positive definite
// (both sides immovable) gets g_inv = 0 and is skipped by the solver.
void compute_delassus_block(const ContactProblems& problems, ContactProblem& row);

// g_inv from a symmetric G_ii already in row.g, with the regularisation of a rank-deficient block
// above (compute_delassus_block ends with it; the contact-space solve calls it on its blocks of W)
void finish_delassus_block(ContactProblem& row);

// contact-frame velocity of a contact for the generalized velocities u (including v_fixed)
inline Vec3 contact_velocity(const ContactProblems& problems, const ContactProblem& row,
                             const double* u) {
  using Mat36 = Eigen::Matrix<double, 3, 6>;
  Vec3 v = row.v_fixed;
  for (const ContactSide& side : row.side) {
    if (side.dof_begin < 0) continue;
    if (side.dof_count == 6) {  // single rigid body: fixed-size kernel
      Eigen::Map<const Mat36> j(problems.jac.data() + side.jac_begin);
      v.noalias() += j * Eigen::Map<const Eigen::Matrix<double, 6, 1>>(u + side.dof_begin);
    } else {
      Eigen::Map<const Eigen::Matrix<double, 3, Eigen::Dynamic>> j(
          problems.jac.data() + side.jac_begin, 3, side.dof_count);
      v.noalias() += j.lazyProduct(Eigen::Map<const VecX>(u + side.dof_begin, side.dof_count));
    }
  }
  return v;
}

// u += M^-1 J^T dlambda over both sides
inline void apply_contact_impulse(const ContactProblems& problems, const ContactProblem& row,
                                  const Vec3& dlambda, double* u) {
  using Mat63 = Eigen::Matrix<double, 6, 3>;
  for (const ContactSide& side : row.side) {
    if (side.dof_begin < 0) continue;
    if (side.dof_count == 6) {
      Eigen::Map<const Mat63> mj(problems.minv_jt.data() + side.jac_begin);
      Eigen::Map<Eigen::Matrix<double, 6, 1>>(u + side.dof_begin).noalias() += mj * dlambda;
    } else {
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3>> mj(
          problems.minv_jt.data() + side.jac_begin, side.dof_count, 3);
      // (lazyProduct: plain loops; Eigen's GEMV call costs more than these 3 x dof products)
      Eigen::Map<VecX>(u + side.dof_begin, side.dof_count).noalias() += mj.lazyProduct(dlambda);
    }
  }
}

// velocity of a 1-D row for the generalized velocities u: sum_s J_s u_s
inline double row_velocity(const ContactProblems& problems, const ScalarRow& row,
                           const double* u) {
  double v = 0.0;
  for (const ContactSide& side : row.side) {
    if (side.dof_begin < 0) continue;
    const double* j = problems.row_jac.data() + side.jac_begin;
    const double* us = u + side.dof_begin;
    for (int k = 0; k < side.dof_count; ++k) v += j[k] * us[k];
  }
  return v;
}

// u += M^-1 J^T dlambda over both sides of a 1-D row
inline void apply_row_impulse(const ContactProblems& problems, const ScalarRow& row,
                              double dlambda, double* u) {
  for (const ContactSide& side : row.side) {
    if (side.dof_begin < 0) continue;
    const double* mj = problems.row_minv_jt.data() + side.jac_begin;
    double* us = u + side.dof_begin;
    for (int k = 0; k < side.dof_count; ++k) us[k] += mj[k] * dlambda;
  }
}

// g = sum_s J_s M^-1 J_s^T of a 1-D row (0 when no side can move)
inline double row_delassus(const ContactProblems& problems, const ScalarRow& row) {
  double g = 0.0;
  for (const ContactSide& side : row.side) {
    if (side.dof_begin < 0) continue;
    const double* j = problems.row_jac.data() + side.jac_begin;
    const double* mj = problems.row_minv_jt.data() + side.jac_begin;
    for (int k = 0; k < side.dof_count; ++k) g += j[k] * mj[k];
  }
  return g > 0.0 && std::isfinite(g) ? g : 0.0;
}

}  // namespace torsion
