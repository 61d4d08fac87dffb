#include "geometry/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <map>
#include <string>
#include <utility>

#include "core/check.hpp"

namespace torsion {

void validate_mesh(const TriangleMeshData& mesh, const std::string& what) {
  if (mesh.vertices.empty()) throw_invalid(what + ": the mesh has no vertices");
  if (mesh.triangles.empty()) throw_invalid(what + ": the mesh has no faces");
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    if (!mesh.vertices[i].allFinite())
      throw_invalid(what + ": vertex " + std::to_string(i) + " is not finite (" +
                    fmt(mesh.vertices[i].x()) + ", " + fmt(mesh.vertices[i].y()) + ", " +
                    fmt(mesh.vertices[i].z()) + ")");
  }
  const int n = static_cast<int>(mesh.vertices.size());
  bool any_proper = false;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& f = mesh.triangles[t];
    for (int k = 0; k < 3; ++k)
      if (f[k] < 0 || f[k] >= n)
        throw_invalid(what + ": face " + std::to_string(t) + " refers to vertex " +
                      std::to_string(f[k]) + ", expected an index in [0, " + std::to_string(n) +
                      ")");
    any_proper = any_proper || (f[0] != f[1] && f[1] != f[2] && f[2] != f[0]);
  }
  if (!any_proper)
    throw_invalid(what + ": every face is degenerate (repeats a vertex): the mesh is empty");
}

bool mesh_is_closed(const TriangleMeshData& mesh) {
  // Vertices at the same position are one vertex: files that repeat each triangle's corners
  // instead of sharing them (OBJ from some exporters) describe the same closed surface, and were
  // called open (their mass properties then fell back to the bounding box's).
  std::map<std::array<double, 3>, int> at;
  std::vector<int> same(mesh.vertices.size());
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& p = mesh.vertices[i];
    same[i] = at.insert({{p.x(), p.y(), p.z()}, static_cast<int>(i)}).first->second;
  }
  // directed edge -> count; a closed oriented surface has every directed edge once and its
  // reverse once. Faces without area (a repeated corner, or three corners on a line) enclose
  // nothing and are left out: one such face made a closed tetrahedron "open".
  std::map<std::pair<int, int>, int> directed;
  for (const auto& f : mesh.triangles) {
    const int t[3] = {same[static_cast<std::size_t>(f[0])], same[static_cast<std::size_t>(f[1])],
                      same[static_cast<std::size_t>(f[2])]};
    if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) continue;
    const Vec3& a = mesh.vertices[static_cast<std::size_t>(f[0])];
    if ((mesh.vertices[static_cast<std::size_t>(f[1])] - a)
            .cross(mesh.vertices[static_cast<std::size_t>(f[2])] - a)
            .isZero(0.0))
      continue;
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  }
  if (directed.empty()) return false;
  for (const auto& [e, c] : directed) {
    if (c != 1) return false;
    const auto it = directed.find({e.second, e.first});
    if (it == directed.end() || it->second != 1) return false;
  }
  return true;
}

SolidMassProperties polyhedron_mass_properties(const std::vector<Vec3>& v,
                                               const std::vector<std::array<int, 3>>& tris) {
  // canonical tetrahedron (0, e1, e2, e3): integral of x x^T over it
  Mat3 canonical;
  canonical << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  canonical /= 120.0;
  // reference point: the vertex mean keeps the sums well conditioned far from the origin
  Vec3 ref = Vec3::Zero();
  for (const Vec3& p : v) ref += p;
  ref /= static_cast<double>(v.size());
  double vol6 = 0.0;  // 6 x signed volume
  Vec3 first = Vec3::Zero();  // integral of x (times 24 / 4 bookkeeping below)
  Mat3 cov = Mat3::Zero();    // integral of x x^T
  for (const auto& t : tris) {
    Mat3 a;
    a.col(0) = v[t[0]] - ref;
    a.col(1) = v[t[1]] - ref;
    a.col(2) = v[t[2]] - ref;
    const double det = a.determinant();
    vol6 += det;
    first += det * (a.col(0) + a.col(1) + a.col(2));  // x 1/24
    cov += det * (a * canonical * a.transpose());
  }
  double volume = vol6 / 6.0;
  double sign = 1.0;
  if (volume < 0.0) sign = -1.0, volume = -volume;
  double scale = 0.0;
  for (const Vec3& p : v) scale = std::max(scale, (p - ref).norm());
  if (!(volume > 1e-12 * scale * scale * scale) || !(volume > 0.0))
    throw_invalid("the mesh encloses no volume (flat or open surface): mass properties need a "
                  "closed mesh");
  SolidMassProperties out;
  out.volume = volume;
  const Vec3 c = sign * first / 24.0 / volume;  // relative to ref
  out.com = ref + c;
  const Mat3 cov_com = sign * cov - volume * c * c.transpose();
  out.inertia = cov_com.trace() * Mat3::Identity() - cov_com;
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose());
  return out;
}

Mat3 box_inertia(const Vec3& size, double mass) {
  const Vec3 l2 = size.cwiseAbs2();
  return (mass / 12.0 * Vec3(l2.y() + l2.z(), l2.x() + l2.z(), l2.x() + l2.y())).asDiagonal();
}

}  // namespace torsion
