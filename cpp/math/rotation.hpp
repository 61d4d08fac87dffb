// Rotations: skew matrices, the exponential and log maps, quaternion conversions, angles. The
// one place for these helpers: the IK layer, the articulated configuration and the bindings use
// them from here.
#pragma once

#include <cmath>

#include "math/constants.hpp"
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

// The log map: the rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion; the
// inverse of quat_from_rotvec. q and -q give the same vector (the shortest rotation is taken).
// Below |vec| = 1e-9 it returns 2 vec / w: angle/|vec| = 2 atan(s/w)/s = (2/w)(1 - s^2/(3w^2) + ...),
// so the dropped term is under 3.4e-19 relative, far below round-off (1.1e-16), and dividing by w
// keeps the result right for a quaternion a few ulps off unit length. Above it, the exact
// atan2 form. (The articulated configuration used a 1e-12 cutoff returning 2 vec; both are exact
// to round-off, and this one is the IK's, which its tests were written against.)
inline Vec3 rotvec_from_quat(Quat q) {
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // shortest rotation
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s < 1e-9) return 2.0 * v / q.w();
  const double angle = 2.0 * std::atan2(s, q.w());
  return v * (angle / s);
}

// rotation angle in [0, pi] of a unit quaternion
inline double quat_angle(const Quat& q) {
  const double s = q.vec().norm();
  return 2.0 * std::atan2(s, std::abs(q.w()));
}

// an angle wrapped to [-pi, pi); returned unchanged (bitwise) when already in range
inline double wrap_angle(double a) {
  if (a >= -kPi && a < kPi) return a;
  a = std::fmod(a + kPi, kTwoPi);
  if (a < 0.0) a += kTwoPi;
  return a - kPi;
}

// (w, x, y, z) <-> Eigen quaternion; no normalisation
inline Quat quat_from_wxyz(const Vec4& q) { return Quat(q[0], q[1], q[2], q[3]); }
inline Vec4 quat_to_wxyz(const Quat& q) { return Vec4(q.w(), q.x(), q.y(), q.z()); }

}  // namespace torsion
