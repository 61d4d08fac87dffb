// Wavefront OBJ reading and writing (io/mesh_io.hpp).
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <locale>
#include <sstream>

#include "core/check.hpp"
#include "io/mesh_io.hpp"

namespace torsion {

namespace {

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& what) {
  throw_invalid("mesh file '" + path + "' line " + std::to_string(line) + ": " + what);
}

double parse_number(const std::string& tok, const std::string& path, std::size_t line) {
  char* end = nullptr;
  const double v = std::strtod(tok.c_str(), &end);
  if (end == tok.c_str() || *end != '\0') fail(path, line, "expected a number, got '" + tok + "'");
  if (!std::isfinite(v)) fail(path, line, "vertex coordinate must be finite, got '" + tok + "'");
  return v;
}

}  // namespace

TriangleMeshData load_obj(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_invalid("cannot open mesh file '" + path + "'");
  TriangleMeshData mesh;
  std::string text;
  std::size_t line_no = 0;
  std::vector<int> corners;
  while (std::getline(in, text)) {
    ++line_no;
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    std::istringstream ls(text);
    ls.imbue(std::locale::classic());  // as write_obj: independent of the global locale
    std::string kind;
    if (!(ls >> kind)) continue;
    if (kind == "v") {
      std::string tok;
      double c[3];
      for (int k = 0; k < 3; ++k) {
        if (!(ls >> tok)) fail(path, line_no, "a vertex needs 3 coordinates");
        c[k] = parse_number(tok, path, line_no);
      }
      mesh.vertices.emplace_back(c[0], c[1], c[2]);
    } else if (kind == "f") {
      corners.clear();
      std::string tok;
      while (ls >> tok) {
        const std::string idx = tok.substr(0, tok.find('/'));
        char* end = nullptr;
        const long i = std::strtol(idx.c_str(), &end, 10);
        if (idx.empty() || *end != '\0' || i == 0)
          fail(path, line_no, "bad face corner '" + tok + "' (expected a non-zero vertex index)");
        const long n = static_cast<long>(mesh.vertices.size());
        const long resolved = i > 0 ? i - 1 : n + i;
        if (resolved < 0 || resolved >= n)
          fail(path, line_no, "face corner " + std::to_string(i) + " refers to a vertex not (yet) defined; " +
                                  std::to_string(n) + " vertices so far");
        corners.push_back(static_cast<int>(resolved));
      }
      if (corners.size() < 3) fail(path, line_no, "a face needs at least 3 corners");
      for (std::size_t k = 1; k + 1 < corners.size(); ++k)
        mesh.triangles.push_back({corners[0], corners[k], corners[k + 1]});
    }
  }
  if (in.bad()) throw_invalid("error reading mesh file '" + path + "'");
  validate_mesh(mesh, "mesh file '" + path + "'");
  return mesh;
}

std::vector<Vec3> load_obj_finite_vertices(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_invalid("cannot open mesh file '" + path + "'");
  std::vector<Vec3> out;
  std::string text;
  while (std::getline(in, text)) {
    std::istringstream ls(text);
    std::string kind, tok;
    if (!(ls >> kind) || kind != "v") continue;
    double c[3];
    int k = 0;
    for (; k < 3 && (ls >> tok); ++k) {
      char* end = nullptr;
      c[k] = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0' || !std::isfinite(c[k])) break;
    }
    if (k == 3) out.emplace_back(c[0], c[1], c[2]);
  }
  return out;
}

void write_obj(const TriangleMeshData& mesh, const std::string& path, const std::string& comment) {
  std::ofstream out(path);
  if (!out) throw_invalid("cannot write mesh file '" + path + "'");
  // the classic "C" locale whatever the process's global C++ locale is: a library may set it
  // (importing coacd did, and every number written then failed the stream)
  out.imbue(std::locale::classic());
  out.precision(17);
  out << "# " << comment << "\n";
  for (const Vec3& v : mesh.vertices) out << "v " << v.x() << ' ' << v.y() << ' ' << v.z() << "\n";
  for (const auto& t : mesh.triangles) out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << "\n";
  if (!out) throw_invalid("error writing mesh file '" + path + "'");
}

}  // namespace torsion
