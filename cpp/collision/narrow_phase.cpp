#include "collision/narrow_phase.hpp"

#include <algorithm>
#include <utility>

namespace torsion {

namespace {

struct TableEntry {
  PairRoutine routine = nullptr;
  bool swap = false;  // the routine expects (B, A): call it swapped and flip the normals
};

using Table = TableEntry[kNumShapeTypes][kNumShapeTypes];

// the dispatch table, built once from the canonical (A type <= B type) routines
struct DispatchTable {
  Table t;
  constexpr DispatchTable() : t() {
    set(ShapeType::kSphere, ShapeType::kSphere, collide_sphere_sphere);
    set(ShapeType::kSphere, ShapeType::kBox, collide_sphere_box);
    set(ShapeType::kSphere, ShapeType::kCylinder, collide_sphere_cylinder);
    set(ShapeType::kSphere, ShapeType::kCapsule, collide_sphere_capsule);
    set(ShapeType::kSphere, ShapeType::kGround, collide_sphere_ground);
    set(ShapeType::kBox, ShapeType::kBox, collide_box_box);
    set(ShapeType::kBox, ShapeType::kCylinder, collide_convex_convex);
    set(ShapeType::kBox, ShapeType::kCapsule, collide_convex_convex);
    set(ShapeType::kBox, ShapeType::kGround, collide_box_ground);
    set(ShapeType::kCylinder, ShapeType::kCylinder, collide_convex_convex);
    set(ShapeType::kCylinder, ShapeType::kCapsule, collide_convex_convex);
    set(ShapeType::kCylinder, ShapeType::kGround, collide_cylinder_ground);
    set(ShapeType::kCapsule, ShapeType::kCapsule, collide_capsule_capsule);
    set(ShapeType::kCapsule, ShapeType::kGround, collide_capsule_ground);
    set(ShapeType::kSphere, ShapeType::kHeightMap, collide_convex_height_map);
    set(ShapeType::kBox, ShapeType::kHeightMap, collide_convex_height_map);
    set(ShapeType::kCylinder, ShapeType::kHeightMap, collide_convex_height_map);
    set(ShapeType::kCapsule, ShapeType::kHeightMap, collide_convex_height_map);
    // convex meshes: GJK/EPA with face clipping against every convex shape; vertices vs ground
    set(ShapeType::kSphere, ShapeType::kConvexMesh, collide_convex_convex);
    set(ShapeType::kBox, ShapeType::kConvexMesh, collide_convex_convex);
    set(ShapeType::kCylinder, ShapeType::kConvexMesh, collide_convex_convex);
    set(ShapeType::kCapsule, ShapeType::kConvexMesh, collide_convex_convex);
    set(ShapeType::kConvexMesh, ShapeType::kConvexMesh, collide_convex_convex);
    set(ShapeType::kConvexMesh, ShapeType::kGround, collide_convex_ground);
    set(ShapeType::kConvexMesh, ShapeType::kHeightMap, collide_convex_height_map);
    // triangle meshes: every convex shape through the triangle routine; vertices vs ground;
    // not yet against heightmaps or other triangle meshes
    set(ShapeType::kSphere, ShapeType::kTriangleMesh, collide_convex_triangle_mesh);
    set(ShapeType::kBox, ShapeType::kTriangleMesh, collide_convex_triangle_mesh);
    set(ShapeType::kCylinder, ShapeType::kTriangleMesh, collide_convex_triangle_mesh);
    set(ShapeType::kCapsule, ShapeType::kTriangleMesh, collide_convex_triangle_mesh);
    set(ShapeType::kConvexMesh, ShapeType::kTriangleMesh, collide_convex_triangle_mesh);
    set(ShapeType::kTriangleMesh, ShapeType::kGround, collide_triangle_mesh_ground);
    set(ShapeType::kTriangleMesh, ShapeType::kHeightMap, collide_triangle_mesh_height_map);
    // ground-ground, ground-heightmap, heightmap-heightmap: none (static bodies never collide
    // with each other); triangle mesh against triangle mesh: none (no contact: documented on
    // MeshCollisionMode.ORIGINAL_MESH)
  }
  constexpr void set(ShapeType a, ShapeType b, PairRoutine f) {
    const int i = static_cast<int>(a), j = static_cast<int>(b);
    t[i][j] = {f, false};
    if (i != j) t[j][i] = {f, true};
  }
};

constexpr DispatchTable kTable{};

}  // namespace

bool shapes_can_collide(ShapeType a, ShapeType b) {
  return kTable.t[static_cast<int>(a)][static_cast<int>(b)].routine != nullptr;
}

int collide_shapes(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b,
                   const ContactSettings& settings, Manifold& out, const PairMotion* motion) {
  out.clear();
  const TableEntry& e = kTable.t[static_cast<int>(a.type)][static_cast<int>(b.type)];
  if (!e.routine) return 0;
  ContactSettings s = settings;  // every gap test and the cull allow for round-off
  s.margin += kMarginRoundOff;
  if (e.swap) {
    e.routine(b, pose_b, a, pose_a, s, out);
    out.flip();
  } else {
    e.routine(a, pose_a, b, pose_b, s, out);
  }
  cull_manifold(out, s.margin);
  // (a manifold within its limit stays as it is: most are)
  if (motion == nullptr) {
    if (out.count > settings.max_points_per_pair) reduce_manifold(out, settings.max_points_per_pair);
    return out.count;
  }
  const int limit = std::max(settings.max_points_per_pair, settings.moving_points_per_pair);
  if (out.count <= limit) return out.count;
  double after_step[kMaxManifoldPoints];
  for (int i = 0; i < out.count; ++i) {
    const ManifoldPoint& p = out.points[i];
    const Vec3 move_a = motion->linear_a + motion->angular_a.cross(p.position - motion->com_a);
    const Vec3 move_b = motion->linear_b + motion->angular_b.cross(p.position - motion->com_b);
    after_step[i] = p.depth + (move_b - move_a).dot(p.normal);
  }
  reduce_manifold(out, limit, after_step, settings.max_points_per_pair);
  return out.count;
}

}  // namespace torsion
