// Dynamics of an articulated system: the equations of motion M(q) du/dt + h(q, u) = tau, with
// M from the composite-rigid-body algorithm, h from the recursive Newton-Euler algorithm and the
// forward dynamics by a tree-sparse L^T D L factorisation of M (Featherstone, Rigid Body Dynamics
// Algorithms, ch. 6). All functions need update_kinematics() first; none allocates.
#pragma once

#include <vector>

#include "dynamics/articulated/kinematics.hpp"

namespace torsion {

// M(q) into data.mass_matrix (nv x nv, symmetric; both triangles filled)
void crba(const ArticulatedModel& model, ArticulatedData& data);

// Inverse dynamics: tau = M(q) udot + h(q, u) - sum_b J_b^T f_ext_b, with the body velocities of
// data.u (updated here). gravity is the world gravity (m/s^2). f_ext (optional, one per body)
// are world spatial forces (moment about data.ref, force). tau has size nv.
void rnea(const ArticulatedModel& model, ArticulatedData& data, const VecX& udot,
          const Vec3& gravity, const std::vector<Vec6>* f_ext, Eigen::Ref<VecX> tau);

// h(q, u) = Coriolis, centrifugal and gravity terms into data.nonlinear
void nonlinear_effects(const ArticulatedModel& model, ArticulatedData& data, const Vec3& gravity);

// Factorise A = data.mass_matrix + diag(diag_add) (diag_add: nv values, or nullptr for none)
// as L^T D L into data.factor_l/factor_d, exploiting the tree sparsity: the fill-in stays on the dof
// ancestor chains, so the cost is O(nv d^2) for a tree of depth d. A must be positive definite
// (it is for any physical model with positive link masses and inertias).
void factorize(const ArticulatedModel& model, ArticulatedData& data, const double* diag_add);
// factorize(), then b = A^-1 b in place (b: nv values), with the first triangular solve done
// during the elimination (the same values as factorize() then factor_solve())
void factorize_solve(const ArticulatedModel& model, ArticulatedData& data, const double* diag_add,
                     Eigen::Ref<VecX> b);

// x = A^-1 b in place, with A factorised by factorize(); b has size nv. Several columns at once:
// pass an nv x k block to factor_solve_columns.
void factor_solve(const ArticulatedModel& model, const ArticulatedData& data, Eigen::Ref<VecX> b);
void factor_solve_columns(const ArticulatedModel& model, const ArticulatedData& data,
                          Eigen::Ref<MatX> b);

// The last half of factor_solve (A^-1 = L^-1 D^-1 L^-T), for the contact-space solver
// (contact/contact_space_solver.hpp, which runs the L^-T half itself over its rows' paths):
// x = L^-1 x for one column of nv values.
void factor_solve_lower(const ArticulatedModel& model, const ArticulatedData& data, double* x);

// Forward dynamics: udot = M^-1 (tau - h) with the factorised mass matrix (computes crba,
// nonlinear_effects and factorize on the way).
void forward_dynamics(const ArticulatedModel& model, ArticulatedData& data, const VecX& tau,
                      const Vec3& gravity, Eigen::Ref<VecX> udot);

}  // namespace torsion
