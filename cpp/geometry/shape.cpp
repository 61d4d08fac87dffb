#include "geometry/shape.hpp"

#include "core/check.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/triangle_mesh.hpp"

namespace torsion {

const char* shape_type_name(ShapeType type) {
  switch (type) {
    case ShapeType::kSphere: return "sphere";
    case ShapeType::kBox: return "box";
    case ShapeType::kCylinder: return "cylinder";
    case ShapeType::kCapsule: return "capsule";
    case ShapeType::kGround: return "ground";
    case ShapeType::kHeightMap: return "height_map";
    case ShapeType::kConvexMesh: return "convex_mesh";
    case ShapeType::kTriangleMesh: return "triangle_mesh";
  }
  return "unknown";
}

Shape Shape::sphere(double radius) {
  check_positive(radius, "radius");
  Shape s;
  s.type = ShapeType::kSphere;
  s.radius = radius;
  return s;
}

Shape Shape::box(double x_length, double y_length, double z_length) {
  check_positive(x_length, "x_length");
  check_positive(y_length, "y_length");
  check_positive(z_length, "z_length");
  Shape s;
  s.type = ShapeType::kBox;
  s.half_extents = 0.5 * Vec3(x_length, y_length, z_length);
  return s;
}

Shape Shape::cylinder(double radius, double height) {
  check_positive(radius, "radius");
  check_positive(height, "height");
  Shape s;
  s.type = ShapeType::kCylinder;
  s.radius = radius;
  s.height = height;
  return s;
}

Shape Shape::capsule(double radius, double height) {
  check_positive(radius, "radius");
  // a capsule of height 0 is a sphere; allowed
  check_non_negative(height, "height");
  Shape s;
  s.type = ShapeType::kCapsule;
  s.radius = radius;
  s.height = height;
  return s;
}

Shape Shape::ground(double z_height) {
  check_finite(z_height, "z_height");
  Shape s;
  s.type = ShapeType::kGround;
  s.height = z_height;
  return s;
}

Shape Shape::height_map_shape(std::shared_ptr<const HeightMapData> data) {
  if (!data) throw_invalid("height map data must not be null");
  Shape s;
  s.type = ShapeType::kHeightMap;
  s.height_map = std::move(data);
  return s;
}

Shape Shape::convex_mesh(std::shared_ptr<const ConvexHull> hull) {
  if (!hull || hull->vertices.empty()) throw_invalid("convex mesh: hull must not be empty");
  Shape s;
  s.type = ShapeType::kConvexMesh;
  s.hull = std::move(hull);
  return s;
}

Shape Shape::triangle_mesh(std::shared_ptr<const TriangleMesh> mesh) {
  if (!mesh || mesh->triangles().empty()) throw_invalid("triangle mesh: mesh must not be empty");
  Shape s;
  s.type = ShapeType::kTriangleMesh;
  s.mesh = std::move(mesh);
  return s;
}

}  // namespace torsion
