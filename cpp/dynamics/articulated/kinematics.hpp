// Forward kinematics, velocities and Jacobians of an articulated system (world frame).
#pragma once

#include "dynamics/articulated/model.hpp"

namespace torsion {

using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic>;

// Body poses and joint motion columns S (6 x nv) from data.q. The reference point data.ref
// becomes the root body's origin. Marks the spatial inertias stale.
void update_kinematics(const ArticulatedModel& model, ArticulatedData& data);

// World spatial inertias of the bodies about data.ref (needs update_kinematics(); crba and rnea
// call it when the inertias are stale)
void update_inertias(const ArticulatedModel& model, ArticulatedData& data);

// Body spatial velocities (omega, v_ref) from data.u; needs update_kinematics().
void update_velocities(const ArticulatedModel& model, ArticulatedData& data);

// world pose of a frame (needs update_kinematics())
Pose frame_placement(const ArticulatedModel& model, const ArticulatedData& data, int frame);

// World velocity (m/s) of the body point at `point` (world, m) and the body's angular velocity
// (rad/s); need update_velocities().
Vec3 body_point_velocity(const ArticulatedData& data, int body, const Vec3& point);
Vec3 body_angular_velocity(const ArticulatedData& data, int body);

// Jacobians of the body point at `point` (world, m): v_point = jp u and omega_body = jr u.
// They write only the columns of the dofs on the body's path to the root (with mimic joints, a
// master's column is S_master + multiplier * S_mimic, each term where that joint is on the path,
// accumulated); callers zero the matrices first (3 x nv, world frame). Need update_kinematics().
void point_jacobian(const ArticulatedModel& model, const ArticulatedData& data, int body,
                    const Vec3& point, Eigen::Ref<Mat3X> jp);
void rotational_jacobian(const ArticulatedModel& model, const ArticulatedData& data, int body,
                         Eigen::Ref<Mat3X> jr);

}  // namespace torsion
