// Joint limits and Coulomb joint friction of an articulated system as 1-D rows of the contact
// solver (scalar_row.hpp), swept together with the contacts.
//
// For every dof k of a revolute or prismatic joint with limits, with q_k its coordinate at the
// start of the step and u_k its free velocity (after PD, torques and gravity), a row is made for
// a limit that is closer than kJointLimitMargin, now or after a free step:
//   lower: lambda >= 0 and u+_k >= -(q_k - lower) / dt  (approach by at most the gap), or, when
//          the joint is already past the limit, u+_k >= 0 (it goes no further);
//   upper: the mirror image, lambda <= 0.
// A violation (a state set past a limit, or drift) is removed at the position level, after the
// position update: correct_joint_limit_violations moves the coordinate back by kJointLimitErp of
// the violation per step. Unlike a velocity target (Baumgarte), this adds no velocity that would
// carry the joint away from its stop once it is back inside.
// The row's Jacobian is e_k, so its Delassus scalar is (A^-1)_kk and its M^-1 J^T the column
// A^-1 e_k, from the step's factorisation of the damped mass matrix A. At a converged solve the
// joint ends the step exactly at its limit, without bounce: the stops are inelastic.
// A soft limit (model.limit_softness[k].soft: MJCF's solreflimit / solimplimit) is MuJoCo's
// instead: a row only while the joint is past the limit at the step's start (r = q_k - lower < 0,
// or upper - q_k), no position correction, and the target
//   (1 - d) u_k + d (v_k + dt a_ref),   a_ref = -b v_k - k d r
// with v_k the velocity at the step's start, d = d(|r|) MuJoCo's impedance (solimp), k and b from
// solref (timeconst, dampratio: k = 1 / (dmax timeconst dampratio)^2, b = 2 / (dmax timeconst),
// timeconst at least 2 dt as MuJoCo's default; negative solref: k = -solref[0] / dmax^2,
// b = -solref[1] / dmax). This is MuJoCo's constrained acceleration (1 - d) a_free + d a_ref of
// a limit that is the only active constraint of its dof: the joint springs back from a
// violation (a reset pose outside the range) with MuJoCo's time constant and may overshoot into
// the range, where the stop releases (lambda >= 0 as before).
// For every dof with Coulomb friction f_c > 0 (URDF <dynamics friction>): a row with target
// u+_k = 0 and |lambda| <= dt f_c.
#pragma once

#include <cstdint>
#include <vector>

#include "contact/contact_problem.hpp"
#include "dynamics/articulated/model.hpp"

namespace torsion {

constexpr double kJointLimitMargin = 0.02;  // rad (or m): a limit closer than this gets a row
constexpr double kJointLimitErp = 0.2;      // fraction of a violation removed per step

// Append the rows of one articulated system (world index `object`) whose generalized velocities
// are u[dof_begin .. dof_begin + nv) (its free velocity). Needs the step's factorize().
// Returns the number of rows added. contact_space: the system's rows take the contact-space
// solve (contact_space_solver.hpp), which needs neither A^-1 e_k nor g (it reads g off W): the
// rows' row_minv_jt stay zero and g is left 0 until that solve sets it. row_dofs: the dofs that
// can have a row at all (joint_row_dofs(model)), in increasing order.
int add_joint_rows(ContactProblems& problems, const ArticulatedModel& model,
                   const ArticulatedData& data, std::int32_t object, std::int32_t dof_begin,
                   const double* u, double dt, const std::vector<int>& row_dofs,
                   bool contact_space = false, const double* u_start = nullptr);

// MuJoCo's impedance d(x) of solimp (dmin, dmax, width, midpoint, power) at violation x >= 0
double limit_impedance(const double solimp[5], double x);

// the dofs of a model with a finite position limit or Coulomb friction, in increasing order: the
// only ones add_joint_rows can give a row
std::vector<int> joint_row_dofs(const ArticulatedModel& model);

// q_k += kJointLimitErp (limit - q_k) for every coordinate past its hard limit; returns how
// many. Soft limits (model.limit_softness) are left to their rows.
int correct_joint_limit_violations(const ArticulatedModel& model, VecX& q);

}  // namespace torsion
