// Convex polyhedra: the hull of a point set (quickhull) and the data the collision and ray code
// needs (vertices, planar faces, a triangulation).
//
// The hull is computed by quickhull (Barber, Dobkin and Huhdanpaa, "The quickhull algorithm for
// convex hulls", ACM TOMS 1996): start from a tetrahedron of extreme points, then repeatedly take
// the point farthest outside some face, remove the faces it sees and close the hole with a fan of
// new faces from the horizon to that point. A point counts as outside a face only when it is more
// than a tolerance above it (round-off times the point set's size), so duplicate and coplanar
// points are absorbed instead of making slivers. Coplanar neighbouring triangles are then merged
// into polygonal faces. Every loop runs in index order, so the result is deterministic.
#pragma once

#include <array>
#include <vector>

#include "math/types.hpp"

namespace torsion {

struct ConvexHull {
  std::vector<Vec3> vertices;  // hull vertices only (body frame, m)
  // planar faces as polygons, counter-clockwise seen from outside: the vertex indices of face f
  // are face_vertices[face_begin[f] .. face_begin[f + 1])
  std::vector<int> face_begin;
  std::vector<int> face_vertices;
  std::vector<Vec3> face_normals;    // unit, outward
  std::vector<double> face_offsets;  // n . x = offset on the face's plane
  std::vector<std::array<int, 3>> triangles;  // a triangulation of the surface (outward)
  Vec3 local_min = Vec3::Zero();  // bounds of the vertices (body frame)
  Vec3 local_max = Vec3::Zero();

  int face_count() const { return static_cast<int>(face_normals.size()); }
  int face_size(int f) const { return face_begin[f + 1] - face_begin[f]; }
  const int* face(int f) const { return face_vertices.data() + face_begin[f]; }
  // index of the vertex farthest along the body-frame direction d (first on ties)
  int support_index(const Vec3& d) const;
  // move every vertex by `offset` (planes and bounds follow)
  void translate(const Vec3& offset);
};

// The convex hull of `points` (at least 4, not all coplanar; finite). std::invalid_argument
// otherwise, naming `what`.
ConvexHull convex_hull(const std::vector<Vec3>& points, const char* what = "points");

}  // namespace torsion
