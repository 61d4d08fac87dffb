// Ray against one primitive shape, exactly.
//
// A ray is start + t * dir with |dir| = 1 and 0 <= t <= length. The hit is the first crossing of
// the shape's surface at t >= 0: the entry point for a ray starting outside, the exit point for a
// ray starting inside (the surface it sees), as MuJoCo's mj_ray does. The normal is the shape's
// outward surface normal at the hit (world frame). A ray tangent to a curved surface (a grazing
// ray) hits at the point of tangency.
#pragma once

#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

struct ShapeRayHit {
  double t = 0.0;                // distance along the ray (m)
  Vec3 normal = Vec3::UnitZ();   // outward surface normal at the hit, world frame
};

// true and `hit` filled when the ray meets the shape within [0, length]
bool ray_shape(const Shape& shape, const Pose& pose, const Vec3& start, const Vec3& dir,
               double length, ShapeRayHit& hit);

// a ray against a heightmap (ray_height_map.cpp): walks the grid cells under the ray (2-D DDA)
// and intersects their triangles from either side; holes and the outside of the grid let it pass.
// The normal is the hit triangle's upward normal.
bool ray_height_map(const Shape& shape, const Pose& pose, const Vec3& start, const Vec3& dir,
                    double length, ShapeRayHit& hit);

}  // namespace torsion
