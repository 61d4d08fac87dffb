// A rigid transform: x_parent = position + rotation * x_child. The one rigid-transform type of
// the core: shapes in the world, a robot's joint placements and frames (a child frame in its
// parent's), a shape in its body. The IK keeps its own quaternion form (ik/pose.hpp, Coppelia's
// C7Vector), as every pose it is given and returns is a quaternion and a position.
#pragma once

#include "math/types.hpp"

namespace torsion {

struct Pose {
  Vec3 position = Vec3::Zero();      // world (m)
  Mat3 rotation = Mat3::Identity();  // body to world

  Vec3 to_world(const Vec3& x_b) const { return position + rotation * x_b; }
  Vec3 to_body(const Vec3& x_w) const { return rotation.transpose() * (x_w - position); }
};

// a * b: the transform that applies b, then a
inline Pose compose(const Pose& a, const Pose& b) {
  Pose out;
  out.rotation = a.rotation * b.rotation;
  out.position = a.position + a.rotation * b.position;
  return out;
}

}  // namespace torsion
