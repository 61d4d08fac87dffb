// Mesh files: Wavefront OBJ and STL (ASCII and binary), read by small parsers written for
// torsion, and OBJ writing. Other formats are read in Python through trimesh
// (python/torsion/mesh.py).
//
// Every error is a std::invalid_argument naming the file (and the line for text formats).
#pragma once

#include <string>

#include "geometry/mesh.hpp"

namespace torsion {

// OBJ: `v x y z [w]` vertices and `f` faces of 3 or more corners (`i`, `i/t`, `i//n`, `i/t/n`,
// negative indices relative to the end); polygons are triangulated as fans. Other statements
// (vt, vn, o, g, s, usemtl, mtllib, l, p) are ignored.
TriangleMeshData load_obj(const std::string& path);
// the finite vertices of the `v` statements of an OBJ file, whatever the rest holds (a lenient
// read for files load_obj refuses, e.g. with NaN vertices or 2-corner faces; URDF collision
// hulls of files PyBullet loads). std::invalid_argument if the file cannot be opened.
std::vector<Vec3> load_obj_finite_vertices(const std::string& path);
// STL: binary when the size matches 84 + 50 n bytes for its triangle count n, else ASCII
// (`solid` ... `facet` ... `vertex x y z` ...). Corners at identical coordinates are merged into
// one vertex (STL stores each triangle separately), so the mesh can be closed.
TriangleMeshData load_stl(const std::string& path);
// by extension (case-insensitive): .obj or .stl; std::invalid_argument for any other
TriangleMeshData load_mesh_file(const std::string& path);
// true if load_mesh_file reads this extension
bool mesh_file_supported(const std::string& path);

// write `mesh` as OBJ (vertices with 17 significant digits, so it reloads bit for bit)
void write_obj(const TriangleMeshData& mesh, const std::string& path, const std::string& comment);

}  // namespace torsion
