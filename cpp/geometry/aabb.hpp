// Axis-aligned bounding boxes of shapes in the world frame.
#pragma once

#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

struct Aabb {
  Vec3 min = Vec3::Zero();  // world (m)
  Vec3 max = Vec3::Zero();  // world (m)

  bool overlaps(const Aabb& o) const {
    return min.x() <= o.max.x() && o.min.x() <= max.x() && min.y() <= o.max.y() &&
           o.min.y() <= max.y() && min.z() <= o.max.z() && o.min.z() <= max.z();
  }
};

// false for shapes without a finite bound (the ground half space); those are handled by the
// broad phase as "unbounded" bodies that pair with every bounded body
bool shape_is_bounded(const Shape& shape);

// the tight world AABB of a bounded shape at `pose`, grown by `margin` (m) on every side
Aabb shape_aabb(const Shape& shape, const Pose& pose, double margin);

}  // namespace torsion
