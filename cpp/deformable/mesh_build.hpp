// Meshes for deformables built from a triangle surface (the seed's addDeformableObject with
// DeformableObject::MeshBuildOptions):
//   filled_tetrahedra: a closed surface filled with tetrahedra. A lattice of cubes of edge about
//     `spacing` over the surface's bounding box (the box divided into whole cells), each cube
//     cut into six tetrahedra along its main diagonal (Kuhn's subdivision: neighbouring cubes
//     share their faces); the tetrahedra whose centroid is inside (generalized winding number
//     > 1/2) are kept; the vertices of their boundary faces are moved to the closest point of
//     the surface, and moved back halfway (then all the way) wherever that leaves a tetrahedron
//     flatter than 5 % of its lattice volume or inverted. A box the lattice fits is filled
//     exactly; a curved surface loses the chordal gap of the boundary faces (a sphere of radius
//     R at spacing R / 5: about 1 % of its volume; docs/deformables.md).
//   surface_struts: pairs of surface vertices across the inside, for a shell that keeps its
//     shape: from each vertex along its inward normal (the mean of its faces' normals) to where
//     that ray leaves the surface, the nearest vertex of the face it leaves through.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "geometry/mesh.hpp"
#include "math/types.hpp"

namespace torsion {

struct FilledMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::int64_t, 4>> tetrahedra;  // positive volume
};

// the enclosed volume of a closed surface (triangles counter-clockwise from outside), m^3
double surface_volume(const TriangleMeshData& mesh);

// std::invalid_argument: an open surface (mesh_is_closed), spacing not finite and > 0, more than
// 2e6 lattice cells, or no tetrahedron inside
FilledMesh filled_tetrahedra(const TriangleMeshData& mesh, double spacing);

std::vector<std::array<std::int64_t, 2>> surface_struts(const TriangleMeshData& mesh);

}  // namespace torsion
