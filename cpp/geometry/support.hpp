// Support functions of the convex shapes, for GJK/EPA and manifold building. A shape is split
// into a "core" and a radius: a sphere is a point swept by its radius, a capsule a segment swept
// by its radius; boxes and cylinders have radius 0. Working on cores keeps GJK exact for the
// round shapes and away from the curved surfaces.
#pragma once

#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

// the point of the shape's core farthest along the world direction d (need not be unit);
// deterministic choice on ties
Vec3 support_core(const Shape& shape, const Pose& pose, const Vec3& d);

// the radius that sweeps the core into the shape
inline double core_radius(const Shape& shape) {
  return (shape.type == ShapeType::kSphere || shape.type == ShapeType::kCapsule) ? shape.radius
                                                                                 : 0.0;
}

// true for the shapes that support_core handles (everything but the ground and triangle meshes)
inline bool shape_is_convex_bounded(const Shape& shape) {
  return shape.type != ShapeType::kGround && shape.type != ShapeType::kHeightMap &&
         shape.type != ShapeType::kTriangleMesh;
}

}  // namespace torsion
