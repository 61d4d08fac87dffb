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
                   bool contact_space = false);

// the dofs of a model with a finite position limit or Coulomb friction, in increasing order: the
// only ones add_joint_rows can give a row
std::vector<int> joint_row_dofs(const ArticulatedModel& model);

// q_k += kJointLimitErp (limit - q_k) for every coordinate past its limit; returns how many.
int correct_joint_limit_violations(const ArticulatedModel& model, VecX& q);

}  // namespace torsion
