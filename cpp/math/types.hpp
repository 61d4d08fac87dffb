// Eigen aliases used across the core. Quaternions follow Eigen's Quaterniond internally; at
// every API boundary they are (w, x, y, z).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace torsion {

using Vec3 = Eigen::Vector3d;
using Vec4 = Eigen::Vector4d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

}  // namespace torsion
