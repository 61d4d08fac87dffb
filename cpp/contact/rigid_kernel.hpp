// The contact solver's compact kernel for the common case: a contact between two single rigid
// bodies, or between one and an immovable body.
//
// The generic path (contact_problem.hpp) reads a contact's velocity as sum_s J_s u_s and applies
// an impulse as u_s += M^-1 J_s^T dlambda with the 3x6 and 6x3 blocks stored per side: 72 numbers
// per contact read twice per update, in arrays apart from the problem. For a single rigid body
// both blocks follow from three things the solver already has or shares:
//     J_s u_s          = sign_s F (v_s + w_s x r_s)
//     M^-1 J_s^T dl    = sign_s [ p / m_s ; I_s^-1 (r_s x p) ],   p = F^T dl (world impulse)
// with F the contact frame (rows), r_s the lever arm (point - COM), m_s and I_s^-1 (world) the
// body's inverse mass, stored once per body (ContactProblems::rigid_bodies) however many contacts
// it has. So an update reads the problem itself, the bodies' 6-velocities (contiguous in u) and
// two small per-body records, with fixed-size arithmetic and no loop over sides. It is the same
// linear algebra as the generic path; only the rounding differs (tests/contact/
// test_rigid_kernel.py compares them).
#pragma once

#include "contact/contact_problem.hpp"

// The kernel's functions sit in the solver's innermost loop; the warm start and Anderson's
// scatter call them too, and with those extra callers GCC stops inlining apply_rigid_impulse into
// the sweep (a call per update). Inlining is forced where the compiler allows it.
#if defined(__GNUC__) || defined(__clang__)
#define TORSION_KERNEL_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define TORSION_KERNEL_INLINE __forceinline
#else
#define TORSION_KERNEL_INLINE inline
#endif

namespace torsion {

// true when every side of `row` is a single rigid body (the compact kernel applies)
inline bool is_rigid_contact(const ContactProblem& row) {
  return row.rigid[0] >= 0 && (row.side[1].dof_begin < 0 || row.rigid[1] >= 0);
}

// velocity of the material point at lever arm r of a body whose 6 velocities (v, w) are at u
TORSION_KERNEL_INLINE Vec3 lever_velocity(const double* u, const Vec3& r) {
  return Vec3(u[0] + (u[4] * r.z() - u[5] * r.y()), u[1] + (u[5] * r.x() - u[3] * r.z()),
              u[2] + (u[3] * r.y() - u[4] * r.x()));
}

// contact-frame velocity of a rigid contact (equals contact_velocity() up to rounding)
TORSION_KERNEL_INLINE Vec3 rigid_contact_velocity(const ContactProblem& row, const double* u) {
  Vec3 rel = row.side_sign[0] * lever_velocity(u + row.side[0].dof_begin, row.lever[0]);
  if (row.side[1].dof_begin >= 0) rel -= lever_velocity(u + row.side[1].dof_begin, row.lever[1]);
  return row.v_fixed + row.frame * rel;
}

// u += M^-1 J^T dlambda of a rigid contact (equals apply_contact_impulse() up to rounding)
TORSION_KERNEL_INLINE void apply_rigid_impulse(const ContactProblems& problems,
                                               const ContactProblem& row, const Vec3& dlambda,
                                               double* u) {
  const Vec3 p = row.frame.transpose() * dlambda;  // world impulse on A
  auto push = [&](int s, const Vec3& impulse) {
    const RigidInverseMass& m = problems.rigid_bodies[static_cast<std::size_t>(row.rigid[s])];
    double* us = u + row.side[s].dof_begin;
    const Vec3& r = row.lever[s];
    const Vec3 torque(r.y() * impulse.z() - r.z() * impulse.y(),
                      r.z() * impulse.x() - r.x() * impulse.z(),
                      r.x() * impulse.y() - r.y() * impulse.x());
    const Vec3 dw = m.inv_inertia_w * torque;
    us[0] += m.inv_mass * impulse.x();
    us[1] += m.inv_mass * impulse.y();
    us[2] += m.inv_mass * impulse.z();
    us[3] += dw.x();
    us[4] += dw.y();
    us[5] += dw.z();
  };
  push(0, row.side_sign[0] * p);
  if (row.side[1].dof_begin >= 0) push(1, -p);
}

}  // namespace torsion
