// The narrow phase: one shape-pair dispatch table (kNumShapeTypes x kNumShapeTypes) of exact
// pair routines. Every routine writes a Manifold whose normals point from B to A.
//
// Adding a shape (heightmap, mesh, compound, articulated-body collision shapes): add its
// ShapeType, its AABB (geometry/aabb.cpp), its support function (geometry/support.cpp) if it is
// convex, and fill its row of the table in narrow_phase.cpp; the broad phase and the world need
// no change.
#pragma once

#include <vector>

#include "collision/manifold.hpp"
#include "collision/settings.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

constexpr int kNumShapeTypes = 8;

// a pair routine: shapes A and B at their poses -> candidate points (not yet culled by margin
// nor reduced). Routines may emit points down to depth -margin and beyond; the caller culls.
using PairRoutine = void (*)(const Shape& a, const Pose& pose_a, const Shape& b,
                             const Pose& pose_b, const ContactSettings& settings, Manifold& out);

// true if the table has a routine for this pair (every pair but ground-ground)
bool shapes_can_collide(ShapeType a, ShapeType b);

// How far a pair's two bodies move in the coming step if nothing changes their velocities: each
// body's centre of mass by `linear` (m) and its orientation by `angular` (rad, axis times angle)
// about `com`. A candidate point p of normal n (B to A) is then deeper after the step by
// (step_b(p) - step_a(p)) . n, step(p) = linear + angular x (p - com).
struct PairMotion {
  Vec3 linear_a, angular_a, com_a;
  Vec3 linear_b, angular_b, com_b;
};

// Contacts between shape A at pose_a and shape B at pose_b: points with depth >= -margin, normals
// from B to A. Returns out.count. Without `motion` (bodies at rest) at most
// settings.max_points_per_pair points; with it at most settings.moving_points_per_pair (or
// max_points_per_pair if larger), chosen by the depth each point will have after the step
// (reduce_manifold's rank_depth): a speculative point that the bodies close on fast ranks as the
// touching point it is about to be, not as the gap it is now.
int collide_shapes(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b,
                   const ContactSettings& settings, Manifold& out,
                   const PairMotion* motion = nullptr);

// --- the pair routines, in canonical order (A's type <= B's type) ---
void collide_sphere_sphere(const Shape&, const Pose&, const Shape&, const Pose&,
                           const ContactSettings&, Manifold&);
void collide_sphere_box(const Shape&, const Pose&, const Shape&, const Pose&,
                        const ContactSettings&, Manifold&);
void collide_sphere_cylinder(const Shape&, const Pose&, const Shape&, const Pose&,
                             const ContactSettings&, Manifold&);
void collide_sphere_capsule(const Shape&, const Pose&, const Shape&, const Pose&,
                            const ContactSettings&, Manifold&);
void collide_sphere_ground(const Shape&, const Pose&, const Shape&, const Pose&,
                           const ContactSettings&, Manifold&);
void collide_box_box(const Shape&, const Pose&, const Shape&, const Pose&,
                     const ContactSettings&, Manifold&);
void collide_box_ground(const Shape&, const Pose&, const Shape&, const Pose&,
                        const ContactSettings&, Manifold&);
void collide_cylinder_ground(const Shape&, const Pose&, const Shape&, const Pose&,
                             const ContactSettings&, Manifold&);
void collide_capsule_capsule(const Shape&, const Pose&, const Shape&, const Pose&,
                             const ContactSettings&, Manifold&);
void collide_capsule_ground(const Shape&, const Pose&, const Shape&, const Pose&,
                            const ContactSettings&, Manifold&);
// sphere, box, cylinder, capsule or convex mesh against a heightmap (pair_height_map.cpp)
void collide_convex_height_map(const Shape&, const Pose&, const Shape&, const Pose&,
                               const ContactSettings&, Manifold&);
// convex pairs without a closed form (box-cylinder, box-capsule, cylinder-cylinder,
// cylinder-capsule): GJK/EPA for the normal and depth, then clipping of the supporting
// features for a multi-point manifold (convex_pair.cpp)
void collide_convex_convex(const Shape&, const Pose&, const Shape&, const Pose&,
                           const ContactSettings&, Manifold&);
// sphere, box, cylinder, capsule or convex mesh against a triangle mesh: its BVH, then the
// convex-vs-triangle routine per triangle with the mesh's edge adjacency (pair_triangle_mesh.cpp)
void collide_convex_triangle_mesh(const Shape&, const Pose&, const Shape&, const Pose&,
                                  const ContactSettings&, Manifold&);
// convex mesh against the ground: every vertex within the margin (pair_convex.cpp)
void collide_convex_ground(const Shape&, const Pose&, const Shape&, const Pose&,
                           const ContactSettings&, Manifold&);
// a (kinematic or dynamic) triangle mesh against a heightmap, through the mesh's convex hull
// (TriangleMesh::hull; none for a flat mesh) (pair_triangle_mesh.cpp)
void collide_triangle_mesh_height_map(const Shape&, const Pose&, const Shape&, const Pose&,
                                      const ContactSettings&, Manifold&);
// a (kinematic or dynamic) triangle mesh against the ground: every mesh vertex within the margin
// of the plane, as for convex meshes (pair_triangle_mesh.cpp)
void collide_triangle_mesh_ground(const Shape&, const Pose&, const Shape&, const Pose&,
                                  const ContactSettings&, Manifold&);
// the shared body of the two above: the vertices (body frame of pose_a) against the ground
// plane of pose_g; more than a manifold's worth keep the deepest and the outline (pair_convex.cpp)
void collide_vertices_ground(const std::vector<Vec3>& vertices, const Pose& pose_a,
                             const Pose& pose_g, const ContactSettings& settings, Manifold& out);

}  // namespace torsion
