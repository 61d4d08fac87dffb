// Rotations: skew matrices, the exponential map and quaternion conversions.
#pragma once

#include "math/types.hpp"

namespace torsion {

// [v]x such that skew(a) * b == a.cross(b)
inline Mat3 skew(const Vec3& v) {
  Mat3 m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

// unit quaternion of the rotation vector `rotvec` (axis * angle, rad); exact for any angle
Quat quat_from_rotvec(const Vec3& rotvec);

// (w, x, y, z) <-> Eigen quaternion; no normalisation
inline Quat quat_from_wxyz(const Vec4& q) { return Quat(q[0], q[1], q[2], q[3]); }
inline Vec4 quat_to_wxyz(const Quat& q) { return Vec4(q.w(), q.x(), q.y(), q.z()); }

}  // namespace torsion
