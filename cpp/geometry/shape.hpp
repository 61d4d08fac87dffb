// Collision shapes of single bodies, in their body frame (centred at the centre of mass).
#pragma once

#include <cstdint>
#include <memory>

#include "math/types.hpp"

namespace torsion {

struct ConvexHull;    // geometry/convex_hull.hpp
struct TriangleMesh;  // geometry/triangle_mesh.hpp

enum class ShapeType : std::uint8_t {
  kSphere = 0,
  kBox = 1,
  kCylinder = 2,  // axis along body z
  kCapsule = 3,   // axis along body z
  kGround = 4,    // half space z <= height, static
  kHeightMap = 5,  // a grid of height samples (geometry/height_map.hpp), static
  kConvexMesh = 6,    // a convex polyhedron (`hull`), vertices in the body frame
  kTriangleMesh = 7,  // a triangle surface with a BVH (`mesh`), vertices in the body frame
};

const char* shape_type_name(ShapeType type);

class HeightMapData;

struct Shape {
  ShapeType type = ShapeType::kSphere;
  double radius = 0.0;             // sphere, cylinder, capsule (m)
  double height = 0.0;             // cylinder: full height; capsule: distance between the
                                   // hemisphere centres; ground: plane height (m)
  Vec3 half_extents = Vec3::Zero();  // box (m)
  std::shared_ptr<const HeightMapData> height_map;  // heightmap: the immutable samples
  // shared, immutable geometry of the mesh kinds (several bodies may share one)
  std::shared_ptr<const ConvexHull> hull;    // kConvexMesh
  std::shared_ptr<const TriangleMesh> mesh;  // kTriangleMesh

  static Shape sphere(double radius);
  static Shape box(double x_length, double y_length, double z_length);
  static Shape cylinder(double radius, double height);
  static Shape capsule(double radius, double height);
  static Shape ground(double z_height);
  static Shape height_map_shape(std::shared_ptr<const HeightMapData> data);  // non-null
  static Shape convex_mesh(std::shared_ptr<const ConvexHull> hull);  // non-null
  static Shape triangle_mesh(std::shared_ptr<const TriangleMesh> mesh);  // non-null
};

}  // namespace torsion
