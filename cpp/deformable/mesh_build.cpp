// Tetrahedra filling a closed surface, and struts across a shell (mesh_build.hpp).
#include "deformable/mesh_build.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/check.hpp"
#include "math/constants.hpp"
#include "query/ray_mesh.hpp"

namespace torsion {

namespace {

// the generalized winding number of the closed surface around p (1 inside, 0 outside): the sum
// of its triangles' solid angles (Van Oosterom and Strackee) over 4 pi
double winding_number(const TriangleMeshData& m, const Vec3& p) {
  double sum = 0.0;
  for (const auto& t : m.triangles) {
    const Vec3 a = m.vertices[t[0]] - p, b = m.vertices[t[1]] - p, c = m.vertices[t[2]] - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double det = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    sum += 2.0 * std::atan2(det, den);
  }
  return sum / (4.0 * kPi);
}

// the point of triangle (a, b, c) closest to p (Ericson, Real-Time Collision Detection 5.1.5)
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

Vec3 closest_on_surface(const TriangleMeshData& m, const Vec3& p) {
  double best = std::numeric_limits<double>::infinity();
  Vec3 out = p;
  for (const auto& t : m.triangles) {
    const Vec3 q = closest_on_triangle(p, m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]);
    const double d = (q - p).squaredNorm();
    if (d < best) {
      best = d;
      out = q;
    }
  }
  return out;
}

double tet_volume(const std::vector<Vec3>& x, const std::array<std::int64_t, 4>& t) {
  const Vec3 a = x[t[0]];
  return (x[t[1]] - a).dot((x[t[2]] - a).cross(x[t[3]] - a)) / 6.0;
}

}  // namespace

double surface_volume(const TriangleMeshData& m) {
  double v = 0.0;
  for (const auto& t : m.triangles)
    v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]]));
  return v / 6.0;
}

FilledMesh filled_tetrahedra(const TriangleMeshData& mesh, double spacing) {
  validate_mesh(mesh, "mesh");
  if (!mesh_is_closed(mesh))
    throw_invalid("mesh: a filled deformable needs a closed surface (every edge shared by two "
                  "triangles); use mode 'surface' for an open one");
  if (!std::isfinite(spacing) || !(spacing > 0.0))
    throw_invalid("spacing must be finite and > 0, got " + fmt(spacing));
  Vec3 lo = mesh.vertices[0], hi = lo;
  for (const Vec3& p : mesh.vertices) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const Vec3 extent = hi - lo;
  std::int64_t n[3];
  double cells = 1.0;
  for (int a = 0; a < 3; ++a) {
    n[a] = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(extent[a] / spacing - 1e-9)));
    cells *= static_cast<double>(n[a]);
  }
  if (!(extent.minCoeff() > 0.0)) throw_invalid("mesh: the surface is flat (it encloses no volume)");
  if (cells > 2e6)
    throw_invalid("spacing " + fmt(spacing) + " makes " + fmt(cells) +
                  " lattice cells over the mesh (at most 2e6): use a larger spacing");
  const Vec3 step(extent.x() / n[0], extent.y() / n[1], extent.z() / n[2]);
  auto index = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return (k * (n[1] + 1) + j) * (n[0] + 1) + i;
  };
  std::vector<Vec3> lattice;
  lattice.reserve(static_cast<std::size_t>((n[0] + 1) * (n[1] + 1) * (n[2] + 1)));
  for (std::int64_t k = 0; k <= n[2]; ++k)
    for (std::int64_t j = 0; j <= n[1]; ++j)
      for (std::int64_t i = 0; i <= n[0]; ++i)
        lattice.push_back(lo + Vec3(step.x() * static_cast<double>(i), step.y() * static_cast<double>(j),
                                    step.z() * static_cast<double>(k)));
  // Kuhn's six tetrahedra of each cube: the paths from corner (0,0,0) to (1,1,1) along the axes
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<std::array<std::int64_t, 4>> tets;
  for (std::int64_t k = 0; k < n[2]; ++k)
    for (std::int64_t j = 0; j < n[1]; ++j)
      for (std::int64_t i = 0; i < n[0]; ++i)
        for (const auto& perm : kPerm) {
          std::int64_t c[3] = {i, j, k};
          std::array<std::int64_t, 4> t;
          t[0] = index(c[0], c[1], c[2]);
          for (int s = 0; s < 3; ++s) {
            ++c[perm[s]];
            t[static_cast<std::size_t>(s + 1)] = index(c[0], c[1], c[2]);
          }
          const Vec3 centre = 0.25 * (lattice[t[0]] + lattice[t[1]] + lattice[t[2]] + lattice[t[3]]);
          if (!(winding_number(mesh, centre) > 0.5)) continue;
          if (tet_volume(lattice, t) < 0.0) std::swap(t[2], t[3]);
          tets.push_back(t);
        }
  if (tets.empty())
    throw_invalid("spacing " + fmt(spacing) + " is too coarse: no lattice tetrahedron has its "
                  "centre inside the mesh");
  // the vertices in use, renumbered in lattice order
  std::vector<std::int64_t> renumber(lattice.size(), -1);
  for (const auto& t : tets)
    for (std::int64_t v : t) renumber[static_cast<std::size_t>(v)] = 0;
  FilledMesh out;
  std::vector<Vec3> rest;
  for (std::size_t v = 0; v < lattice.size(); ++v)
    if (renumber[v] == 0) {
      renumber[v] = static_cast<std::int64_t>(rest.size());
      rest.push_back(lattice[v]);
    }
  for (auto& t : tets)
    for (std::int64_t& v : t) v = renumber[static_cast<std::size_t>(v)];
  // the boundary: faces of exactly one tetrahedron
  std::vector<std::array<std::int64_t, 3>> faces;
  faces.reserve(4 * tets.size());
  static constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  for (const auto& t : tets)
    for (const auto& f : kFaces) {
      std::array<std::int64_t, 3> key = {t[f[0]], t[f[1]], t[f[2]]};
      std::sort(key.begin(), key.end());
      faces.push_back(key);
    }
  std::sort(faces.begin(), faces.end());
  std::vector<std::uint8_t> on_boundary(rest.size(), 0);
  for (std::size_t a = 0; a < faces.size();) {
    std::size_t b = a + 1;
    while (b < faces.size() && faces[b] == faces[a]) ++b;
    if (b - a == 1)
      for (std::int64_t v : faces[a]) on_boundary[static_cast<std::size_t>(v)] = 1;
    a = b;
  }
  // the boundary vertices onto the surface
  std::vector<Vec3> x = rest;
  for (std::size_t v = 0; v < x.size(); ++v)
    if (on_boundary[v]) x[v] = closest_on_surface(mesh, rest[v]);
  // a tetrahedron whose four vertices are all on the boundary lies along the surface once they
  // are on it: when that leaves it flat (but not inverted) it is dropped (its faces become
  // boundary, all of whose vertices already are: nothing else moves)
  const double min_volume = 0.05 * step.x() * step.y() * step.z() / 6.0;
  tets.erase(std::remove_if(tets.begin(), tets.end(),
                            [&](const std::array<std::int64_t, 4>& t) {
                              const double vol = tet_volume(x, t);
                              if (vol >= min_volume || vol <= -min_volume) return false;
                              for (std::int64_t v : t)
                                if (!on_boundary[static_cast<std::size_t>(v)]) return false;
                              return true;
                            }),
             tets.end());
  // then, while a tetrahedron is too flat or inverted, its vertices back halfway (ten times),
  // then all the way (the lattice is always valid)
  for (int round = 0; round < 12; ++round) {
    bool any = false;
    for (const auto& t : tets) {
      if (tet_volume(x, t) >= min_volume) continue;
      any = true;
      for (std::int64_t v : t) {
        const auto u = static_cast<std::size_t>(v);
        x[u] = round < 10 ? Vec3(0.5 * (x[u] + rest[u])) : rest[u];
      }
    }
    if (!any) break;
  }
  if (tets.empty())
    throw_invalid("spacing " + fmt(spacing) + " is too coarse for this mesh: every tetrahedron "
                  "was flat on its surface");
  // the vertices still in use, renumbered in order
  std::vector<std::int64_t> used(x.size(), -1);
  for (const auto& t : tets)
    for (std::int64_t v : t) used[static_cast<std::size_t>(v)] = 0;
  for (std::size_t v = 0; v < x.size(); ++v)
    if (used[v] == 0) {
      used[v] = static_cast<std::int64_t>(out.vertices.size());
      out.vertices.push_back(x[v]);
    }
  for (auto& t : tets)
    for (std::int64_t& v : t) v = used[static_cast<std::size_t>(v)];
  out.tetrahedra = std::move(tets);
  return out;
}

std::vector<std::array<std::int64_t, 2>> surface_struts(const TriangleMeshData& mesh) {
  validate_mesh(mesh, "mesh");
  const std::size_t nv = mesh.vertices.size();
  std::vector<Vec3> normal(nv, Vec3::Zero());
  for (const auto& t : mesh.triangles) {
    const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a);  // area-weighted, outward
    for (int k = 0; k < 3; ++k) normal[static_cast<std::size_t>(t[k])] += n;
  }
  std::vector<std::array<std::int64_t, 2>> out;
  for (std::size_t i = 0; i < nv; ++i) {
    const double len = normal[i].norm();
    if (!(len > 0.0)) continue;
    const Vec3 d = -normal[i] / len;
    const Vec3 o = mesh.vertices[i];
    // the farthest-reaching crossing is not wanted: the first face ahead not touching vertex i
    double best = std::numeric_limits<double>::infinity();
    int face = -1;
    for (std::size_t f = 0; f < mesh.triangles.size(); ++f) {
      const auto& t = mesh.triangles[f];
      if (t[0] == static_cast<int>(i) || t[1] == static_cast<int>(i) || t[2] == static_cast<int>(i)) continue;
      double s = 0.0;
      if (!ray_triangle(o, d, mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]], s)) continue;
      if (s > 1e-12 && s < best) {
        best = s;
        face = static_cast<int>(f);
      }
    }
    if (face < 0) continue;
    const Vec3 hit = o + best * d;
    const auto& t = mesh.triangles[static_cast<std::size_t>(face)];
    int j = t[0];
    for (int k = 1; k < 3; ++k)
      if ((mesh.vertices[t[k]] - hit).squaredNorm() < (mesh.vertices[j] - hit).squaredNorm()) j = t[k];
    const auto a = static_cast<std::int64_t>(std::min<std::size_t>(i, static_cast<std::size_t>(j)));
    const auto b = static_cast<std::int64_t>(std::max<std::size_t>(i, static_cast<std::size_t>(j)));
    if (a != b) out.push_back({a, b});
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace torsion
