// STL reading (ASCII and binary) and the file-type dispatch (io/mesh_io.hpp).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "core/check.hpp"
#include "io/mesh_io.hpp"

namespace torsion {

namespace {

// merges corners with identical coordinates (exact comparison) into one vertex
struct VertexWelder {
  std::map<std::array<double, 3>, int> index;
  TriangleMeshData& mesh;
  int add(const Vec3& p) {
    const auto [it, fresh] = index.insert({{p.x(), p.y(), p.z()}, static_cast<int>(mesh.vertices.size())});
    if (fresh) mesh.vertices.push_back(p);
    return it->second;
  }
};

void check_corner(const Vec3& p, const std::string& path, std::size_t triangle) {
  if (!p.allFinite())
    throw_invalid("mesh file '" + path + "': triangle " + std::to_string(triangle) +
                  " has a non-finite vertex");
}

TriangleMeshData parse_binary(const std::string& bytes, const std::string& path) {
  TriangleMeshData mesh;
  VertexWelder weld{{}, mesh};
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 80, 4);
  for (std::uint32_t t = 0; t < n; ++t) {
    const char* rec = bytes.data() + 84 + 50 * static_cast<std::size_t>(t);
    std::array<int, 3> tri;
    for (int k = 0; k < 3; ++k) {
      float c[3];
      std::memcpy(c, rec + 12 + 12 * k, 12);  // skip the stored normal
      const Vec3 p(c[0], c[1], c[2]);
      check_corner(p, path, t);
      tri[k] = weld.add(p);
    }
    mesh.triangles.push_back(tri);
  }
  return mesh;
}

TriangleMeshData parse_ascii(const std::string& text, const std::string& path) {
  TriangleMeshData mesh;
  VertexWelder weld{{}, mesh};
  std::istringstream in(text);
  std::string tok;
  std::array<int, 3> tri;
  int corner = 0;
  std::size_t facets = 0;
  while (in >> tok) {
    if (tok == "vertex") {
      double c[3];
      for (double& x : c) {
        std::string num;
        if (!(in >> num)) throw_invalid("mesh file '" + path + "': truncated vertex");
        char* end = nullptr;
        x = std::strtod(num.c_str(), &end);
        if (end == num.c_str() || *end != '\0')
          throw_invalid("mesh file '" + path + "': expected a number after 'vertex', got '" + num + "'");
      }
      if (corner >= 3)
        throw_invalid("mesh file '" + path + "': facet " + std::to_string(facets) +
                      " has more than 3 vertices");
      const Vec3 p(c[0], c[1], c[2]);
      check_corner(p, path, facets);
      tri[corner++] = weld.add(p);
    } else if (tok == "endloop") {
      if (corner != 3)
        throw_invalid("mesh file '" + path + "': facet " + std::to_string(facets) + " has " +
                      std::to_string(corner) + " vertices, expected 3");
      mesh.triangles.push_back(tri);
      corner = 0;
      ++facets;
    }
  }
  return mesh;
}

std::string lower_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of("/\\");
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

TriangleMeshData load_stl(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_invalid("cannot open mesh file '" + path + "'");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TriangleMeshData mesh;
  bool binary = false;
  if (bytes.size() >= 84) {
    std::uint32_t n = 0;
    std::memcpy(&n, bytes.data() + 80, 4);
    binary = bytes.size() == 84 + 50 * static_cast<std::uint64_t>(n);
  }
  if (binary) {
    mesh = parse_binary(bytes, path);
  } else {
    const auto start = bytes.find_first_not_of(" \t\r\n");
    if (start == std::string::npos || bytes.compare(start, 5, "solid") != 0)
      throw_invalid("mesh file '" + path + "' is not an STL file (neither binary of size 84 + 50 n "
                    "bytes nor ASCII starting with 'solid')");
    mesh = parse_ascii(bytes, path);
  }
  validate_mesh(mesh, "mesh file '" + path + "'");
  return mesh;
}

bool mesh_file_supported(const std::string& path) {
  const std::string ext = lower_extension(path);
  return ext == "obj" || ext == "stl";
}

TriangleMeshData load_mesh_file(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == "obj") return load_obj(path);
  if (ext == "stl") return load_stl(path);
  throw_invalid("mesh file '" + path + "': unsupported format '." + ext +
                "' (torsion reads .obj and .stl; other formats load through trimesh in Python)");
}

}  // namespace torsion
