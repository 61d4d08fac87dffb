#include "geometry/support.hpp"

#include <cmath>

#include "geometry/convex_hull.hpp"

namespace torsion {

Vec3 support_core(const Shape& shape, const Pose& pose, const Vec3& d) {
  const Vec3 dl = pose.rotation.transpose() * d;  // direction in the body frame
  Vec3 p = Vec3::Zero();
  switch (shape.type) {
    case ShapeType::kSphere: break;
    case ShapeType::kBox:
      for (int k = 0; k < 3; ++k) p[k] = dl[k] >= 0.0 ? shape.half_extents[k] : -shape.half_extents[k];
      break;
    case ShapeType::kCapsule: p.z() = dl.z() >= 0.0 ? 0.5 * shape.height : -0.5 * shape.height; break;
    case ShapeType::kCylinder: {
      const double rho = std::hypot(dl.x(), dl.y());
      if (rho > 0.0) p.x() = shape.radius * dl.x() / rho, p.y() = shape.radius * dl.y() / rho;
      p.z() = dl.z() >= 0.0 ? 0.5 * shape.height : -0.5 * shape.height;
      break;
    }
    case ShapeType::kConvexMesh: p = shape.hull->vertices[shape.hull->support_index(dl)]; break;
    case ShapeType::kGround:
    case ShapeType::kHeightMap:
    case ShapeType::kTriangleMesh: break;  // not convex: never asked
  }
  return pose.to_world(p);
}

}  // namespace torsion
