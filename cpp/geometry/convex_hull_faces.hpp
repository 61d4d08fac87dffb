// A convex hull rebuilt from a description of itself (vertices, triangulation and polygonal
// faces, as a ConvexHull stores them), without running quickhull again: the world XML reader
// uses it so that an exported Mesh comes back bit for bit (quickhull on the hull's own
// vertices gives the same vertices but may triangulate and merge faces differently).
#pragma once

#include <array>
#include <vector>

#include "geometry/convex_hull.hpp"

namespace torsion {

// The plane of polygon face f of `h` (its vertex loop already in h.face_vertices): Newell's
// normal about the loop's vertex mean, and the offset of the plane through that mean. Returns
// false when the polygon has no area (the normal is then left unset).
bool hull_face_plane(const ConvexHull& h, int f, Vec3& normal, double& offset);

// vertices, triangles (outward) and face loops (counter-clockwise from outside) of a hull; the
// planes and bounds are computed as convex_hull() computes them. std::invalid_argument naming
// `what` for indices out of range, a face without area, or fewer than 4 vertices.
ConvexHull convex_hull_from_faces(const std::vector<Vec3>& vertices,
                                  const std::vector<std::array<int, 3>>& triangles,
                                  const std::vector<std::vector<int>>& faces, const char* what);

}  // namespace torsion
