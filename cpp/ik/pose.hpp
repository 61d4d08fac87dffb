// A rigid transformation as (unit quaternion, position): Coppelia's C7Vector. `a * b` composes
// (apply b, then a); every pose in torsion::ik maps a child frame into its reference frame.
#pragma once

#include "math/rotation.hpp"  // rotvec_from_quat, quat_angle, wrap_angle
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

}  // namespace torsion::ik
