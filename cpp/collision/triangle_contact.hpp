// Contacts between one convex shape (sphere, box, cylinder, capsule, convex mesh) and one
// triangle of a surface (a heightmap cell half, a triangle mesh face). Shared by heightmaps and
// triangle meshes.
//
// A triangle is one-sided: its front is the side of the normal (v1 - v0) x (v2 - v0) (vertices
// counter-clockwise seen from the front), and the solid is behind it. Contact normals point from
// the triangle to the shape (the triangle is B) and are restricted to the triangle's Voronoi
// normal cone, so that a surface made of many triangles acts as one smooth surface:
//
// - face region: the normal is the face normal and the points are the shape's lowest feature
//   (a box or hull face or edge, a cylinder cap or side line, a capsule side, or a single point)
//   clipped to the triangle's prism, each with its own depth below the triangle's plane;
// - edge region: only across a convex edge (the neighbour bends away) or a free edge (no
//   neighbour: a border or a hole), the normal turns from the face normal towards the neighbour's
//   normal (free edge: towards the in-plane outward edge normal); the best direction of that arc
//   (the one that separates most: in closed form for spheres, capsules and boxes, whose gap
//   along the arc is piecewise one sinusoid; by golden-section search for cylinders and hulls)
//   is the normal, and the shape's lowest feature along it is cut by the edge SEGMENT (the
//   part that projects onto the edge's line, between its ends: a point beside the line or past
//   an end is farther from the edge than its height along the normal, so it is not measured
//   here; past an end the vertex regions below report the shape). At the end of a free edge's
//   arc (the outward in-plane normal) the part behind the triangle's plane is measured against
//   the edge's wall instead, as directions past it are not searched. Flat and
//   concave edges have no edge region: this is what removes the "internal edge" bumps of a box
//   sliding over a tessellated plane.
//   A shared edge is reported by exactly one of its two triangles (the one that owns it).
// - vertex regions: only for a vertex whose two edges are both free (a lone corner), when
//   vertex_regions is set: the normal is the direction from the vertex to the shape's closest
//   core point, when that direction is past both edges (Ericson's vertex-region test). A vertex
//   shared with neighbours needs its whole one-ring, which the caller has and this routine does
//   not: the caller tests it (pair_height_map.cpp once per grid vertex, pair_triangle_mesh.cpp
//   once per mesh vertex, each over its one-ring); without that, a shape resting on a convex
//   peak vertex, or beyond the end of a free edge at a border or hole, would find no contact.
//
// Every direction tried is also a separating-axis test: if the shape is farther than the margin
// along any of them, the pair makes no contact at all.
#pragma once

#include <cstdint>

#include "collision/manifold.hpp"
#include "collision/settings.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

// what lies across one edge of a triangle
struct TriangleEdge {
  // unit front normal of the triangle across the edge; ignored when !has_neighbour
  Vec3 neighbour_normal = Vec3::UnitZ();
  bool has_neighbour = false;  // false: a free edge (surface border, hole, lone triangle)
  bool owned = true;           // this triangle reports the edge's contacts (shared edges: one side)
};

struct ContactTriangle {
  Vec3 v[3];               // world (m), counter-clockwise seen from the front
  TriangleEdge edges[3];   // edge i joins v[i] and v[(i + 1) % 3]
  // the unit front normal when the caller has it (it must be the normal of v), else zero: the
  // routine computes it
  Vec3 normal = Vec3::Zero();
  std::uint32_t id = 0;    // mixed into the feature ids of the points (keep it stable per triangle)
  bool vertex_regions = true;  // test the vertex regions of lone corners (see above)
};

// the point of the shape's core (sphere: centre, capsule: segment, box, cylinder and convex mesh:
// the solid; hulls by GJK) closest to x; x itself when x is inside a box, cylinder or hull
Vec3 closest_core_point(const Shape& s, const Pose& p, const Vec3& x);

// The vertex-region contact of a surface vertex v that lies inside the solid core of a box,
// cylinder or convex mesh, where closest_core_point returns v itself and the vertex-region test
// has no direction (with no contact margin this is the only way such a shape meets a vertex: a
// box resting on a terrain peak). The normal n (from the surface to the shape) is the direction,
// among the shape's face directions (minus the outward normals of the box's six faces, the
// cylinder's caps and its side at v, the hull's faces) and the vertex's own normal
// `vertex_normal`, that lies in the vertex's normal cone (n . e <= 0 for every surface edge e
// leaving v, within round-off) and needs the least depth: how far v is from leaving the solid
// along -n. A direction square to every edge (the normal of a flat patch around v, also at a
// border or hole vertex of flat ground) competes too: when it needs the least depth the face
// contacts carry the shape along it, and v reports nothing. Returns false then, when no
// direction qualifies, or for shapes with a radius (spheres and capsules: v is inside their core
// only on their centre or axis).
bool inside_vertex_contact(const Shape& s, const Pose& p, const Vec3& v, const Vec3* edges,
                           int edge_count, const Vec3& vertex_normal, Vec3& normal,
                           double& depth);

// unit front normal of triangle (a, b, c); zero for a degenerate triangle
Vec3 triangle_normal(const Vec3& a, const Vec3& b, const Vec3& c);

// Contacts of shape A (sphere, box, cylinder, capsule or convex mesh) at pose_a against the
// triangle (B):
// appends points with depth >= -settings.margin (normals from the triangle to A) to out, at most
// 8 per triangle (clipped features are reduced deterministically). Returns the number added.
// Degenerate triangles and unsupported shapes add nothing.
int collide_convex_triangle(const Shape& a, const Pose& pose_a, const ContactTriangle& tri,
                            const ContactSettings& settings, Manifold& out);

}  // namespace torsion
