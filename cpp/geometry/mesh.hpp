// Triangle meshes as loaded from files (io/mesh_io.hpp), their validation and their exact mass
// properties.
//
// Mass properties of a closed mesh come from the divergence theorem: the solid is a signed sum of
// tetrahedra (origin, a, b, c), one per triangle, whose volume, first and second moments have
// closed forms (the canonical tetrahedron's covariance, as in Blow and Binstock, "How to find the
// inertia tensor (or other mass properties) of a 3D solid body represented by a triangle mesh",
// 2004). The result is exact for any closed, consistently oriented mesh, convex or not.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "math/types.hpp"

namespace torsion {

struct TriangleMeshData {
  std::vector<Vec3> vertices;                 // m
  std::vector<std::array<int, 3>> triangles;  // vertex indices, counter-clockwise from outside
};

// std::invalid_argument (naming `what`, e.g. the file) for: no vertices, no triangles, non-finite
// vertices, indices out of range
void validate_mesh(const TriangleMeshData& mesh, const std::string& what);

// true if every edge is shared by exactly two triangles that traverse it in opposite directions
// (a closed, consistently oriented surface); vertices at the same position count as one, and
// triangles without area (a repeated vertex, or three on a line) are ignored
bool mesh_is_closed(const TriangleMeshData& mesh);

// mass properties of a uniform solid of density 1
struct SolidMassProperties {
  double volume = 0.0;           // m^3 (> 0 for an outward-oriented mesh)
  Vec3 com = Vec3::Zero();       // centre of mass (m), mesh frame
  Mat3 inertia = Mat3::Zero();   // about the centre of mass, mesh axes, per unit density
};

// exact for closed meshes; an inward-oriented mesh gives the same result as the outward one
// (the signs are flipped). std::invalid_argument if the enclosed volume is ~0.
SolidMassProperties polyhedron_mass_properties(const std::vector<Vec3>& vertices,
                                               const std::vector<std::array<int, 3>>& triangles);

// inertia about the centre of a uniform box of full lengths `size` and `mass` (diagonal)
Mat3 box_inertia(const Vec3& size, double mass);

}  // namespace torsion
