// A rigid placement of a shape in the world: x_world = position + rotation * x_body.
#pragma once

#include "math/types.hpp"

namespace torsion {

struct Pose {
  Vec3 position = Vec3::Zero();      // world (m)
  Mat3 rotation = Mat3::Identity();  // body to world

  Vec3 to_world(const Vec3& x_b) const { return position + rotation * x_b; }
  Vec3 to_body(const Vec3& x_w) const { return rotation.transpose() * (x_w - position); }
};

}  // namespace torsion
