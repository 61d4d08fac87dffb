// Operations on generalized coordinates that are not plain vector arithmetic (quaternions).
#pragma once

#include "dynamics/articulated/model.hpp"

namespace torsion {

// q <- q (+) dt u: positions and joint angles by Euler, the floating base quaternion by the
// exponential map of the world-frame angular velocity (q <- exp(dt omega) q), a spherical joint's
// by that of the child-frame relative velocity (q <- q exp(dt omega)). Quaternions renormalised.
void integrate_configuration(const ArticulatedModel& model, VecX& q, const VecX& u, double dt);

// the gv-sized difference q_target (-) q: joint differences, and for quaternions the rotation
// vector taking q to q_target (world frame for the floating base, child frame for spherical)
void configuration_difference(const ArticulatedModel& model, const VecX& q, const VecX& q_target,
                              Eigen::Ref<VecX> out);

// std::invalid_argument naming `what` if a quaternion of q is zero (any finite non-zero norm,
// 1e200 or 1e-300 alike, is accepted; the floating base's is not checked when skip_floating_base)
void check_quaternions(const ArticulatedModel& model, const Eigen::Ref<const VecX>& q,
                       const char* what, bool skip_floating_base = false);
// every quaternion of q scaled to unit norm (they must pass check_quaternions)
void normalize_quaternions(const ArticulatedModel& model, VecX& q);

}  // namespace torsion
