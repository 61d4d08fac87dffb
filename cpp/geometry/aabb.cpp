#include "geometry/aabb.hpp"

#include <cmath>

#include "geometry/height_map.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/triangle_mesh.hpp"

namespace torsion {

bool shape_is_bounded(const Shape& shape) { return shape.type != ShapeType::kGround; }

Aabb shape_aabb(const Shape& shape, const Pose& pose, double margin) {
  Vec3 half;  // half extent of the AABB along the world axes
  const Mat3& r = pose.rotation;
  switch (shape.type) {
    case ShapeType::kSphere: half.setConstant(shape.radius); break;
    case ShapeType::kBox: half = r.cwiseAbs() * shape.half_extents; break;
    case ShapeType::kCapsule:
      // segment along body z of half length h/2, swept by the radius
      half = r.col(2).cwiseAbs() * (0.5 * shape.height) + Vec3::Constant(shape.radius);
      break;
    case ShapeType::kCylinder:
      // the two cap discs: a disc of radius r with unit normal a spans r * sqrt(1 - a_k^2)
      // along world axis k
      for (int k = 0; k < 3; ++k) {
        const double a = r(k, 2);
        half[k] = std::abs(a) * 0.5 * shape.height +
                  shape.radius * std::sqrt(std::max(0.0, 1.0 - a * a));
      }
      break;
    case ShapeType::kHeightMap: {
      // static, never rotated: the grid's extent around its centre, over its finite heights
      const HeightMapData& h = *shape.height_map;
      const double lo = h.min_height(), hi = h.max_height();
      const Vec3 c = pose.position + Vec3(0.0, 0.0, 0.5 * (lo + hi));
      half = Vec3(0.5 * h.x_size(), 0.5 * h.y_size(), 0.5 * (hi - lo));
      half.array() += margin;
      return {c - half, c + half};
    }
    case ShapeType::kConvexMesh: {
      // exact: the extreme vertices along the world axes
      Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
      for (const Vec3& v : shape.hull->vertices) {
        const Vec3 w = r * v;
        lo = lo.cwiseMin(w), hi = hi.cwiseMax(w);
      }
      return {pose.position + lo - Vec3::Constant(margin), pose.position + hi + Vec3::Constant(margin)};
    }
    case ShapeType::kTriangleMesh: {
      // the rotated box of the local bounds (not tight, O(1))
      const Vec3 c = 0.5 * (shape.mesh->local_min() + shape.mesh->local_max());
      const Vec3 e = 0.5 * (shape.mesh->local_max() - shape.mesh->local_min());
      half = r.cwiseAbs() * e + Vec3::Constant(margin);
      const Vec3 wc = pose.to_world(c);
      return {wc - half, wc + half};
    }
    case ShapeType::kGround:
    default: half.setConstant(INFINITY); break;
  }
  half.array() += margin;
  return {pose.position - half, pose.position + half};
}

}  // namespace torsion
