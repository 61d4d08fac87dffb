// Contacts between one convex shape (sphere, box, cylinder, capsule) and one triangle of a
// surface (a heightmap cell half, a triangle mesh face). Shared by heightmaps and triangle meshes.
//
// A triangle is one-sided: its front is the side of the normal (v1 - v0) x (v2 - v0) (vertices
// counter-clockwise seen from the front), and the solid is behind it. Contact normals point from
// the triangle to the shape (the triangle is B) and are restricted to the triangle's Voronoi
// normal cone, so that a surface made of many triangles acts as one smooth surface:
//
// - face region: the normal is the face normal and the points are the shape's lowest feature
//   (a box face or edge, a cylinder cap or side line, a capsule side, or a single point) clipped
//   to the triangle's prism, each with its own depth below the triangle's plane;
// - edge region: only across a convex edge (the neighbour bends away) or a free edge (no
//   neighbour: a border or a hole), the normal turns from the face normal towards the neighbour's
//   normal (free edge: towards the in-plane outward edge normal); the best direction of that arc
//   (the one that separates most, found by golden-section search) is the normal, and the shape's
//   lowest feature along it is clipped to the edge. Flat and concave edges have no edge region:
//   this is what removes the "internal edge" bumps of a box sliding over a tessellated plane.
//   A shared edge is reported by exactly one of its two triangles (the one that owns it).
// - vertex regions are not searched separately: an edge arc reaching the vertex stands in for
//   them (exact for faces and edges; at a convex vertex the depth can be overestimated by
//   |c - v| (1 - cos b), b the angle between the true direction and the nearest edge arc).
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
  std::uint32_t id = 0;    // mixed into the feature ids of the points (keep it stable per triangle)
};

// unit front normal of triangle (a, b, c); zero for a degenerate triangle
Vec3 triangle_normal(const Vec3& a, const Vec3& b, const Vec3& c);

// Contacts of shape A (sphere, box, cylinder or capsule) at pose_a against the triangle (B):
// appends points with depth >= -settings.margin (normals from the triangle to A) to out, at most
// 8 per triangle (clipped features are reduced deterministically). Returns the number added.
// Degenerate triangles and unsupported shapes add nothing.
int collide_convex_triangle(const Shape& a, const Pose& pose_a, const ContactTriangle& tri,
                            const ContactSettings& settings, Manifold& out);

}  // namespace torsion
