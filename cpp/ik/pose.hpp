// A rigid transformation as (unit quaternion, position): Coppelia's C7Vector. `a * b` composes
// (apply b, then a); every pose in torsion::ik maps a child frame into its reference frame.
#pragma once

#include <cmath>

#include "math/types.hpp"

namespace torsion::ik {

struct Pose {
  Quat q = Quat::Identity();
  Vec3 p = Vec3::Zero();

  Pose() = default;
  Pose(const Quat& q_, const Vec3& p_) : q(q_), p(p_) {}

  Pose operator*(const Pose& b) const { return Pose(q * b.q, p + q * b.p); }
  Vec3 apply(const Vec3& x) const { return p + q * x; }
  Pose inverse() const {
    const Quat qi = q.conjugate();
    return Pose(qi, -(qi * p));
  }
};

// the rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion: the log map
inline Vec3 rotvec_from_quat(Quat q) {
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // shortest rotation
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s < 1e-9) return 2.0 * v / q.w();  // angle ~ 2 s; exact to O(s^3)
  const double angle = 2.0 * std::atan2(s, q.w());
  return v * (angle / s);
}

// rotation angle in [0, pi] of a unit quaternion
inline double quat_angle(const Quat& q) {
  const double s = q.vec().norm();
  return 2.0 * std::atan2(s, std::abs(q.w()));
}

// wrap an angle to [-pi, pi)
inline double wrap_angle(double a) {
  constexpr double kTwoPi = 6.28318530717958647692;
  if (a >= -3.14159265358979323846 && a < 3.14159265358979323846) return a;  // exact when in range
  a = std::fmod(a + 3.14159265358979323846, kTwoPi);
  if (a < 0.0) a += kTwoPi;
  return a - 3.14159265358979323846;
}

}  // namespace torsion::ik
