// Joint-limit stops and Coulomb joint friction, solved at the velocity level after the free
// velocity update. This is a stand-in for the contact solver's joint-limit rows: when the solver
// exists, it will take these rows over (same semantics: hard, inelastic stops).
//
// Given the free velocity u (computed with the matrix A factorised by factorize(), the "damped"
// mass matrix of the step) and the position q at the start of the step, find joint impulses
// lambda (N s or N m s, one per row) with u+ = u + A^-1 lambda such that, per limited dof k,
//   lower: q_k + dt u+_k >= lower_k  (or u+_k >= 0 if already below), lambda >= 0, complementary
//   upper: q_k + dt u+_k <= upper_k  (or u+_k <= 0 if already above), lambda <= 0, complementary
//   friction: |lambda| <= dt friction_k, and u+_k = 0 unless |lambda| = dt friction_k (opposing).
// The rows couple through A^-1; they are solved by projected Gauss-Seidel to round-off, so the
// stops are exact: the joint ends the step exactly at its limit, with no bounce.
#pragma once

#include <vector>

#include "dynamics/articulated/model.hpp"

namespace torsion {

struct JointConstraintWork {  // scratch, reused step to step
  std::vector<int> dof;
  std::vector<int> kind;  // 0 lower, 1 upper, 2 friction
  std::vector<double> bound, lambda;
  MatX minv_cols;         // A^-1 e_dof per row (nv x rows)
  VecX lambda_per_dof;    // total impulse per dof of the last solve (nv)
  VecX u_free;            // the velocity before the joint impulses (nv)
};

// Applies the stops and friction to u; returns the number of active rows (0: nothing to do).
// needs factorize() of the step's matrix.
int solve_joint_constraints(const ArticulatedModel& model, const ArticulatedData& data,
                            const VecX& q, double dt, VecX& u, JointConstraintWork& work);

}  // namespace torsion
