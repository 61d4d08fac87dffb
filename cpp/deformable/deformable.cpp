// XPBD deformables: mesh checks, masses, constraints and the substep loop (deformable.hpp).
#include "deformable/deformable.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "collision/manifold.hpp"
#include "collision/narrow_phase.hpp"
#include "collision/settings.hpp"
#include "core/check.hpp"
#include "deformable/lanes.hpp"

namespace torsion {

namespace {

std::string vtx(std::int64_t i) { return std::to_string(i); }

void check_vertices(const std::vector<Vec3>& vertices, std::size_t min_count, const char* what) {
  if (vertices.size() < min_count)
    throw_invalid(std::string("vertices: a ") + what + " needs at least " +
                  std::to_string(min_count) + " vertices, got " + std::to_string(vertices.size()));
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!vertices[i].allFinite())
      throw_invalid("vertices[" + std::to_string(i) + "] must be finite, got (" +
                    fmt(vertices[i].x()) + ", " + fmt(vertices[i].y()) + ", " +
                    fmt(vertices[i].z()) + ")");
}

std::uint32_t check_index(std::int64_t v, std::size_t n, const char* array, std::size_t row) {
  if (v < 0 || static_cast<std::size_t>(v) >= n)
    throw std::out_of_range(std::string(array) + "[" + std::to_string(row) + "] has vertex index " +
                            vtx(v) + ", expected 0 <= index < " + std::to_string(n) +
                            " (the number of vertices)");
  return static_cast<std::uint32_t>(v);
}

std::vector<std::uint8_t> check_pinned(const std::vector<std::int64_t>& pinned, std::size_t n) {
  std::vector<std::uint8_t> out(n, 0);
  for (std::size_t k = 0; k < pinned.size(); ++k) {
    if (pinned[k] < 0 || static_cast<std::size_t>(pinned[k]) >= n)
      throw std::out_of_range("pinned_vertices[" + std::to_string(k) + "] = " + vtx(pinned[k]) +
                              " is not a vertex index (expected 0 <= index < " +
                              std::to_string(n) + ")");
    out[static_cast<std::size_t>(pinned[k])] = 1;
  }
  return out;
}

double scene_scale(const std::vector<Vec3>& x) {
  Vec3 lo = x[0], hi = x[0];
  for (const Vec3& p : x) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  return std::max((hi - lo).norm(), 1e-300);
}

// Lame parameters of the neo-Hookean constraints (header): mu, and lam = lambda_L + mu_L
void neo_hookean_parameters(const DeformableMaterial& m, double& mu, double& lam) {
  const double E = m.youngs_modulus, nu = m.poisson_ratio;
  mu = E / (2.0 * (1.0 + nu));
  const double lambda_l = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  lam = lambda_l + mu;
}

Mat3 edge_matrix(const std::vector<Vec3>& x, const std::array<std::uint32_t, 4>& t) {
  Mat3 d;
  d.col(0) = x[t[1]] - x[t[0]];
  d.col(1) = x[t[2]] - x[t[0]];
  d.col(2) = x[t[3]] - x[t[0]];
  return d;
}

// C and its gradients for one constraint at positions x; returns the number of vertices (2 or 4)
// or 0 when the gradient is undefined (coincident points)
int evaluate(const XpbdConstraint& c, const std::vector<Vec3>& x, const std::vector<Mat3>& dm_inv,
             double& C, Vec3 g[4]) {
  switch (c.kind) {
    case XpbdKind::kDistance: {
      const Vec3 d = x[c.v[0]] - x[c.v[1]];
      const double len = d.norm();
      if (!(len > 1e-15)) return 0;
      C = len - c.rest;
      g[0] = d / len;
      g[1] = -g[0];
      return 2;
    }
    case XpbdKind::kVolume: {
      const Vec3 e1 = x[c.v[1]] - x[c.v[0]], e2 = x[c.v[2]] - x[c.v[0]],
                 e3 = x[c.v[3]] - x[c.v[0]];
      C = e1.dot(e2.cross(e3)) / 6.0 - c.rest;
      g[1] = e2.cross(e3) / 6.0;
      g[2] = e3.cross(e1) / 6.0;
      g[3] = e1.cross(e2) / 6.0;
      g[0] = -(g[1] + g[2] + g[3]);
      return 4;
    }
    case XpbdKind::kNeoDeviatoric:
    case XpbdKind::kNeoHydro: {
      const std::array<std::uint32_t, 4> t = {c.v[0], c.v[1], c.v[2], c.v[3]};
      const Mat3& dmi = dm_inv[c.tet];
      const Mat3 F = edge_matrix(x, t) * dmi;
      Mat3 P;
      if (c.kind == XpbdKind::kNeoDeviatoric) {
        const double r = F.norm();
        if (!(r > 1e-15)) return 0;
        C = r;
        P = F / r;
      } else {
        C = F.determinant() - c.rest;
        P.col(0) = F.col(1).cross(F.col(2));
        P.col(1) = F.col(2).cross(F.col(0));
        P.col(2) = F.col(0).cross(F.col(1));
      }
      const Mat3 G = P * dmi.transpose();
      g[1] = G.col(0);
      g[2] = G.col(1);
      g[3] = G.col(2);
      g[0] = -(g[1] + g[2] + g[3]);
      return 4;
    }
  }
  return 0;
}

// the energy of a constraint at its rest shape, subtracted so that elastic_energy() is 0 at rest
double rest_value(const XpbdConstraint& c) {
  if (c.kind == XpbdKind::kNeoDeviatoric) return std::sqrt(3.0);
  if (c.kind == XpbdKind::kNeoHydro) return 1.0 - c.rest;
  return 0.0;
}

}  // namespace

void validate_deformable_material(const DeformableMaterial& m) {
  check_positive(m.density, "material.density");
  check_positive(m.areal_density, "material.areal_density");
  auto non_negative = [](double v, const char* name) {
    if (!std::isfinite(v) || v < 0.0)
      throw_invalid(std::string(name) + " must be finite and >= 0, got " + fmt(v));
  };
  non_negative(m.stretch_compliance, "material.stretch_compliance");
  non_negative(m.bending_compliance, "material.bending_compliance");
  non_negative(m.youngs_modulus, "material.youngs_modulus");
  non_negative(m.volume_compliance, "material.volume_compliance");
  non_negative(m.damping, "material.damping");
  non_negative(m.proxy_radius, "material.proxy_radius");
  if (!std::isfinite(m.poisson_ratio) || m.poisson_ratio < 0.0 || m.poisson_ratio >= 0.5)
    throw_invalid("material.poisson_ratio must be in [0, 0.5), got " + fmt(m.poisson_ratio));
  if (m.substeps < 1 || m.substeps > 10000)
    throw_invalid("material.substeps must be in [1, 10000], got " + std::to_string(m.substeps));
  if (m.iterations < 1 || m.iterations > 100000)
    throw_invalid("material.iterations must be in [1, 100000], got " +
                  std::to_string(m.iterations));
  if (m.solver != DeformableSolver::kXpbd && m.solver != DeformableSolver::kNewton)
    throw_invalid("material.solver must be 'xpbd' or 'newton'");
  if (m.element_order != 1 && m.element_order != 2)
    throw_invalid("material.element_order must be 1 (linear tetrahedra) or 2 (quadratic), got " +
                  std::to_string(m.element_order));
  if (m.element_order == 2 && m.solver != DeformableSolver::kNewton)
    throw_invalid("material.element_order = 2 (quadratic tetrahedra) needs solver = 'newton'");
}

DeformableObject DeformableObject::cloth(ObjectId id, const std::vector<Vec3>& vertices,
                                         const std::vector<std::array<std::int64_t, 3>>& triangles,
                                         const std::vector<std::int64_t>& pinned,
                                         const DeformableMaterial& material) {
  validate_deformable_material(material);
  check_vertices(vertices, 3, "cloth");
  if (triangles.empty()) throw_invalid("triangles: a cloth needs at least one triangle, got 0");
  const std::size_t n = vertices.size();
  const double scale = scene_scale(vertices);
  DeformableObject d;
  d.id_ = id;
  d.kind_ = DeformableKind::kCloth;
  d.material_ = material;
  d.x0_ = vertices;
  d.pinned_ = check_pinned(pinned, n);
  d.tris_.reserve(triangles.size());
  std::vector<std::uint8_t> used(n, 0);
  for (std::size_t k = 0; k < triangles.size(); ++k) {
    std::array<std::uint32_t, 3> t;
    for (int j = 0; j < 3; ++j) t[j] = check_index(triangles[k][j], n, "triangles", k);
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
      throw_invalid("triangles[" + std::to_string(k) + "] repeats a vertex (" +
                    std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " +
                    std::to_string(t[2]) + ")");
    const double area2 =
        (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]).norm();
    if (!(area2 > 1e-12 * scale * scale))
      throw_invalid("triangles[" + std::to_string(k) + "] is degenerate (zero area)");
    for (int j = 0; j < 3; ++j) used[t[j]] = 1;
    d.tris_.push_back(t);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!used[i])
      throw_invalid("vertices[" + std::to_string(i) +
                    "] belongs to no triangle (it would have no mass)");
  d.surface_ = d.tris_;
  d.build_masses_and_constraints();
  d.x_ = d.x0_;
  d.v_.assign(n, Vec3::Zero());
  return d;
}

DeformableObject DeformableObject::volume(ObjectId id, const std::vector<Vec3>& vertices,
                                          const std::vector<std::array<std::int64_t, 4>>& tetrahedra,
                                          const std::vector<std::int64_t>& pinned,
                                          const DeformableMaterial& material) {
  validate_deformable_material(material);
  check_vertices(vertices, 4, "volume");
  if (tetrahedra.empty()) throw_invalid("tetrahedra: a volume needs at least one, got 0");
  const std::size_t n = vertices.size();
  DeformableObject d;
  d.id_ = id;
  d.kind_ = DeformableKind::kVolume;
  d.material_ = material;
  d.x0_ = vertices;
  d.pinned_ = check_pinned(pinned, n);
  std::vector<std::uint8_t> used(n, 0);
  for (std::size_t k = 0; k < tetrahedra.size(); ++k) {
    std::array<std::uint32_t, 4> t;
    for (int j = 0; j < 4; ++j) t[j] = check_index(tetrahedra[k][j], n, "tetrahedra", k);
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (t[a] == t[b])
          throw_invalid("tetrahedra[" + std::to_string(k) + "] repeats vertex " +
                        std::to_string(t[a]));
    const Mat3 D = edge_matrix(vertices, t);
    const double six_v = D.determinant();
    double longest = 0.0;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        longest = std::max(longest, (vertices[t[a]] - vertices[t[b]]).norm());
    if (!(std::abs(six_v) > 1e-9 * longest * longest * longest))
      throw_invalid("tetrahedra[" + std::to_string(k) +
                    "] is degenerate (zero volume: its four vertices are coplanar)");
    if (six_v < 0.0)
      throw_invalid("tetrahedra[" + std::to_string(k) + "] is inverted (volume " +
                    fmt(six_v / 6.0) +
                    " m^3 < 0); order each tetrahedron (a, b, c, d) so that (b-a) x (c-a) . (d-a) > 0");
    for (int j = 0; j < 4; ++j) used[t[j]] = 1;
    d.tets_.push_back(t);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!used[i])
      throw_invalid("vertices[" + std::to_string(i) +
                    "] belongs to no tetrahedron (it would have no mass)");
  // the boundary: faces of exactly one tetrahedron, oriented away from its fourth vertex
  {
    static constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
    std::vector<std::tuple<std::array<std::uint32_t, 3>, std::array<std::uint32_t, 3>>> faces;
    faces.reserve(4 * d.tets_.size());
    for (const auto& t : d.tets_)
      for (const auto& f : kFaces) {
        std::array<std::uint32_t, 3> oriented = {t[f[0]], t[f[1]], t[f[2]]};
        std::array<std::uint32_t, 3> key = oriented;
        std::sort(key.begin(), key.end());
        faces.emplace_back(key, oriented);
      }
    std::sort(faces.begin(), faces.end());
    for (std::size_t a = 0; a < faces.size();) {
      std::size_t b = a + 1;
      while (b < faces.size() && std::get<0>(faces[b]) == std::get<0>(faces[a])) ++b;
      if (b - a > 2)
        throw_invalid("tetrahedra: the face (" + std::to_string(std::get<0>(faces[a])[0]) + ", " +
                      std::to_string(std::get<0>(faces[a])[1]) + ", " +
                      std::to_string(std::get<0>(faces[a])[2]) + ") is shared by " +
                      std::to_string(b - a) + " tetrahedra (at most 2 may share a face)");
      if (b - a == 1) d.surface_.push_back(std::get<1>(faces[a]));
      a = b;
    }
  }
  d.build_masses_and_constraints();
  d.x_ = d.x0_;
  d.v_.assign(n, Vec3::Zero());
  return d;
}

void DeformableObject::build_masses_and_constraints() {
  const std::size_t n = x0_.size();
  mass_.assign(n, 0.0);
  constraints_.clear();
  dm_inv_.clear();
  neo_.clear();
  if (newton()) {
    if (kind_ != DeformableKind::kVolume || !(material_.youngs_modulus > 0.0))
      throw_invalid("material.solver = 'newton' is for elastic solids: a volume with "
                    "youngs_modulus > 0");
    double mu = 0.0, lam = 0.0;
    neo_hookean_parameters(material_, mu, lam);
    fem_.build(x0_, tets_, material_.element_order, mu, lam, material_.density);
    length_scale_ = scene_scale(x0_);
    const std::vector<double>& nm = fem_.node_masses();
    std::copy(nm.begin(), nm.begin() + static_cast<std::ptrdiff_t>(n), mass_.begin());
    // edge nodes start at the midpoints of their edges (of the current shape, once there is one)
    const std::vector<Vec3>& base = x_.size() == n ? x_ : x0_;
    const std::vector<Vec3>& vbase = v_.size() == n ? v_ : std::vector<Vec3>(n, Vec3::Zero());
    const auto& edges = fem_.edges();
    if (xe_.size() != edges.size()) {
      xe_.resize(edges.size());
      ve_.resize(edges.size());
      for (std::size_t k = 0; k < edges.size(); ++k) {
        xe_[k] = 0.5 * (base[edges[k][0]] + base[edges[k][1]]);
        ve_[k] = 0.5 * (vbase[edges[k][0]] + vbase[edges[k][1]]);
      }
    }
    refresh_inverse_masses();
    force_.clear();
    lambda_.clear();
    return;
  }
  fem_ = FemSolid();
  xe_.clear();
  ve_.clear();
  // unique edges (sorted: deterministic), with the vertices opposite them (cloth bending)
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> edges;  // a < b, opposite
  if (kind_ == DeformableKind::kCloth) {
    for (const auto& t : tris_) {
      const double area = 0.5 * (x0_[t[1]] - x0_[t[0]]).cross(x0_[t[2]] - x0_[t[0]]).norm();
      for (int j = 0; j < 3; ++j) mass_[t[j]] += material_.areal_density * area / 3.0;
      for (int j = 0; j < 3; ++j) {
        const std::uint32_t a = t[j], b = t[(j + 1) % 3], o = t[(j + 2) % 3];
        edges.emplace_back(std::min(a, b), std::max(a, b), o);
      }
    }
  } else {
    for (const auto& t : tets_) {
      const double vol = edge_matrix(x0_, t).determinant() / 6.0;
      for (int j = 0; j < 4; ++j) mass_[t[j]] += material_.density * vol / 4.0;
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
          edges.emplace_back(std::min(t[a], t[b]), std::max(t[a], t[b]), 0u);
    }
  }
  std::sort(edges.begin(), edges.end());
  const bool elastic = kind_ == DeformableKind::kVolume && material_.youngs_modulus > 0.0;
  std::vector<XpbdConstraint> bending;
  for (std::size_t a = 0; a < edges.size();) {
    std::size_t b = a + 1;
    const auto [ea, eb, eo] = edges[a];
    while (b < edges.size() && std::get<0>(edges[b]) == ea && std::get<1>(edges[b]) == eb) ++b;
    if (kind_ == DeformableKind::kCloth && b - a > 2)
      throw_invalid("triangles: the edge (" + std::to_string(ea) + ", " + std::to_string(eb) +
                    ") is shared by " + std::to_string(b - a) +
                    " triangles; a cloth must be a manifold surface (at most 2 per edge)");
    if (!elastic) {
      XpbdConstraint c;
      c.kind = XpbdKind::kDistance;
      c.v[0] = ea;
      c.v[1] = eb;
      c.rest = (x0_[ea] - x0_[eb]).norm();
      c.compliance = material_.stretch_compliance;
      constraints_.push_back(c);
    }
    if (kind_ == DeformableKind::kCloth && b - a == 2) {
      const std::uint32_t o1 = std::get<2>(edges[a]), o2 = std::get<2>(edges[a + 1]);
      if (o1 != o2) {
        XpbdConstraint c;
        c.kind = XpbdKind::kDistance;
        c.v[0] = std::min(o1, o2);
        c.v[1] = std::max(o1, o2);
        c.rest = (x0_[o1] - x0_[o2]).norm();
        c.compliance = material_.bending_compliance;
        bending.push_back(c);
      }
    }
    a = b;
  }
  constraints_.insert(constraints_.end(), bending.begin(), bending.end());
  for (const auto& st : struts_) {
    XpbdConstraint c;
    c.kind = XpbdKind::kDistance;
    c.v[0] = st[0];
    c.v[1] = st[1];
    c.rest = (x0_[st[0]] - x0_[st[1]]).norm();
    c.compliance = material_.stretch_compliance;
    constraints_.push_back(c);
  }
  neo_.clear();
  neo_begin_ = constraints_.size();
  if (kind_ == DeformableKind::kVolume) {
    double mu = 0.0, lam = 0.0;
    if (elastic) neo_hookean_parameters(material_, mu, lam);
    for (std::size_t k = 0; k < tets_.size(); ++k) {
      const auto& t = tets_[k];
      const Mat3 D = edge_matrix(x0_, t);
      const double vol = D.determinant() / 6.0;
      XpbdConstraint c;
      for (int j = 0; j < 4; ++j) c.v[j] = t[j];
      c.tet = static_cast<std::uint32_t>(k);
      if (elastic) {
        dm_inv_.push_back(D.inverse());
        c.kind = XpbdKind::kNeoDeviatoric;
        c.compliance = 1.0 / (mu * vol);
        c.rest = 0.0;
        constraints_.push_back(c);
        c.kind = XpbdKind::kNeoHydro;
        c.compliance = 1.0 / (lam * vol);
        c.rest = 1.0 + mu / lam;
        constraints_.push_back(c);
        NeoTet nt;
        for (int j = 0; j < 4; ++j) nt.v[j] = t[j];
        nt.dmi = dm_inv_.back();
        nt.dmi_t = nt.dmi.transpose();
        nt.alpha_d = 1.0 / (mu * vol);
        {
          // at the rest shape F = I: dC_D/dF = I / sqrt 3, dC_H/dF = I; corner gradients are the
          // columns of Dm^-T and minus their sum
          const Mat3 G = nt.dmi_t;
          const Vec3 g0 = -(G.col(0) + G.col(1) + G.col(2));
          double s = g0.squaredNorm() / mass_[t[0]];
          for (int j = 1; j < 4; ++j) s += G.col(j - 1).squaredNorm() / mass_[t[j]];
          nt.wg_h = s;
          nt.wg_d = s / 3.0;
        }
        nt.alpha_h = c.compliance;
        nt.gamma = c.rest;
        neo_.push_back(nt);
      } else {
        c.kind = XpbdKind::kVolume;
        c.rest = vol;
        c.compliance = material_.volume_compliance;
        constraints_.push_back(c);
      }
    }
  }
  refresh_inverse_masses();
  force_.assign(constraints_.size(), 0.0);
  lambda_.assign(constraints_.size(), 0.0);
  // an elastic solid starts with the forces its rest shape carries (C + alpha f = 0 at F = I, or
  // any rotation): C_D = sqrt 3 and C_H = 1 - gamma, whose pulls cancel on every corner; the
  // warm start (warm_start_neo) then needs no substeps to build that balance up
  for (std::size_t k = 0; k < neo_.size(); ++k) {
    force_[neo_begin_ + 2 * k] = -std::sqrt(3.0) / neo_[k].alpha_d;
    force_[neo_begin_ + 2 * k + 1] = (neo_[k].gamma - 1.0) / neo_[k].alpha_h;
  }
  build_neo_groups();
}

// Greedy graph colouring of the tetrahedra (in index order, each takes the lowest colour none of
// its corners' earlier tetrahedra has), then each colour in index order cut into groups of four.
// Deterministic: it depends on the mesh only.
void DeformableObject::build_neo_groups() {
  neo_groups_.clear();
  if (neo_.empty()) return;
  const std::size_t n = x0_.size();
  std::vector<std::vector<std::uint64_t>> used(n);  // per vertex: bit c set once colour c is taken
  std::vector<std::uint32_t> colour(neo_.size());
  std::uint32_t colours = 0;
  for (std::size_t k = 0; k < neo_.size(); ++k) {
    std::uint32_t c = 0;
    for (;; ++c) {
      bool free = true;
      for (int j = 0; j < 4 && free; ++j) {
        const auto& u = used[neo_[k].v[j]];
        free = c / 64 >= u.size() || !((u[c / 64] >> (c % 64)) & 1u);
      }
      if (free) break;
    }
    colour[k] = c;
    colours = std::max(colours, c + 1);
    for (int j = 0; j < 4; ++j) {
      auto& u = used[neo_[k].v[j]];
      if (u.size() <= c / 64) u.resize(c / 64 + 1, 0);
      u[c / 64] |= std::uint64_t(1) << (c % 64);
    }
  }
  std::vector<std::vector<std::uint32_t>> members(colours);
  for (std::size_t k = 0; k < neo_.size(); ++k)
    members[colour[k]].push_back(static_cast<std::uint32_t>(k));
  for (const auto& m : members)
    for (std::size_t a = 0; a < m.size(); a += 4) {
      NeoGroup g{};
      g.count = static_cast<std::uint32_t>(std::min<std::size_t>(4, m.size() - a));
      for (int l = 0; l < 4; ++l) {
        // unused lanes repeat lane 0 (finite data, never written back)
        const std::uint32_t k = m[a + (static_cast<std::uint32_t>(l) < g.count ? l : 0)];
        const NeoTet& t = neo_[k];
        g.tet[l] = k;
        for (int j = 0; j < 4; ++j) g.v[j][l] = t.v[j];
        const Mat3 B = t.dmi * t.dmi_t;
        g.b[0][l] = B(0, 0);
        g.b[1][l] = B(0, 1);
        g.b[2][l] = B(0, 2);
        g.b[3][l] = B(1, 1);
        g.b[4][l] = B(1, 2);
        g.b[5][l] = B(2, 2);
        g.s[l] = t.dmi.determinant();
        g.alpha_d[l] = t.alpha_d;
        g.alpha_h[l] = t.alpha_h;
        g.gamma[l] = t.gamma;
        g.wg_d[l] = t.wg_d;
        g.wg_h[l] = t.wg_h;
      }
      // the lanes are written back one after the other: they must not share a vertex
      for (std::uint32_t l = 0; l < g.count; ++l)
        for (std::uint32_t m2 = l + 1; m2 < g.count; ++m2)
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
              if (g.v[i][l] == g.v[j][m2])
                throw std::logic_error("deformable: tetrahedra " + std::to_string(g.tet[l]) +
                                       " and " + std::to_string(g.tet[m2]) +
                                       " share a vertex in one sweep group");
      neo_groups_.push_back(g);
    }
}

void DeformableObject::refresh_inverse_masses() {
  const std::size_t n = mass_.size();
  inv_mass_.resize(n);
  for (std::size_t i = 0; i < n; ++i) inv_mass_[i] = pinned_[i] ? 0.0 : 1.0 / mass_[i];
  for (const DeformableAttachment& a : attachments_) inv_mass_[a.vertex] = 0.0;
}

void DeformableObject::set_struts(const std::vector<std::array<std::int64_t, 2>>& pairs) {
  std::vector<std::array<std::uint32_t, 2>> out;
  out.reserve(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const std::uint32_t a = check_index(pairs[k][0], x0_.size(), "struts", k);
    const std::uint32_t b = check_index(pairs[k][1], x0_.size(), "struts", k);
    if (a == b) throw_invalid("struts[" + std::to_string(k) + "] joins vertex " + vtx(a) + " to itself");
    out.push_back({std::min(a, b), std::max(a, b)});
  }
  struts_ = std::move(out);
  build_masses_and_constraints();
}

void DeformableObject::set_material(const DeformableMaterial& m) {
  validate_deformable_material(m);
  material_ = m;
  build_masses_and_constraints();
}

void DeformableObject::set_positions(const std::vector<Vec3>& x) {
  if (x.size() != x_.size())
    throw_invalid("positions must have shape (" + std::to_string(x_.size()) + ", 3), got (" +
                  std::to_string(x.size()) + ", 3)");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!x[i].allFinite()) throw_invalid("positions[" + std::to_string(i) + "] must be finite");
  x_ = x;
  // quadratic elements: their edge nodes go to the midpoints of the new edges
  const auto& edges = fem_.edges();
  for (std::size_t k = 0; k < xe_.size(); ++k) xe_[k] = 0.5 * (x_[edges[k][0]] + x_[edges[k][1]]);
}

void DeformableObject::set_velocities(const std::vector<Vec3>& v) {
  if (v.size() != v_.size())
    throw_invalid("velocities must have shape (" + std::to_string(v_.size()) + ", 3), got (" +
                  std::to_string(v.size()) + ", 3)");
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!v[i].allFinite()) throw_invalid("velocities[" + std::to_string(i) + "] must be finite");
  v_ = v;
  const auto& edges = fem_.edges();
  for (std::size_t k = 0; k < ve_.size(); ++k) ve_[k] = 0.5 * (v_[edges[k][0]] + v_[edges[k][1]]);
}

void DeformableObject::set_constraint_forces(const std::vector<double>& f) {
  if (f.size() != force_.size())
    throw_invalid("constraint_forces must have " + std::to_string(force_.size()) +
                  " entries, got " + std::to_string(f.size()));
  for (std::size_t i = 0; i < f.size(); ++i) check_finite(f[i], "constraint_forces");
  force_ = f;
}

void DeformableObject::set_pinned(std::int64_t vertex, bool pinned) {
  const std::uint32_t i = check_index(vertex, x_.size(), "vertex", 0);
  pinned_[i] = pinned ? 1 : 0;
  bool attached = false;
  for (const auto& a : attachments_) attached = attached || a.vertex == i;
  inv_mass_[i] = (pinned || attached) ? 0.0 : 1.0 / mass_[i];
  if (pinned) v_[i].setZero();
}

void DeformableObject::add_attachment(const DeformableAttachment& a) {
  check_index(a.vertex, x_.size(), "vertex", 0);
  if (!a.offset.allFinite()) throw_invalid("offset must be finite");
  for (const auto& b : attachments_)
    if (b.vertex == a.vertex)
      throw_invalid("vertex " + std::to_string(a.vertex) + " is already attached");
  attachments_.push_back(a);
  inv_mass_[a.vertex] = 0.0;
}

void DeformableObject::remove_attachment(std::size_t k) {
  if (k >= attachments_.size())
    throw std::out_of_range("attachment index " + std::to_string(k) + " out of range (" +
                            std::to_string(attachments_.size()) + " attachments)");
  const std::uint32_t i = attachments_[k].vertex;
  attachments_.erase(attachments_.begin() + static_cast<std::ptrdiff_t>(k));
  inv_mass_[i] = pinned_[i] ? 0.0 : 1.0 / mass_[i];
}

double DeformableObject::total_mass() const {
  double m = 0.0;
  for (double v : mass_) m += v;
  const std::vector<double>& nm = fem_.node_masses();
  for (std::size_t k = 0; k < xe_.size(); ++k) m += nm[x_.size() + k];
  return m;
}

double DeformableObject::kinetic_energy() const {
  double e = 0.0;
  for (std::size_t i = 0; i < x_.size(); ++i)
    if (inv_mass_[i] > 0.0) e += 0.5 * mass_[i] * v_[i].squaredNorm();
  const std::vector<double>& nm = fem_.node_masses();
  for (std::size_t k = 0; k < ve_.size(); ++k) e += 0.5 * nm[x_.size() + k] * ve_[k].squaredNorm();
  return e;
}

double DeformableObject::gravity_potential(const Vec3& g) const {
  double e = 0.0;
  for (std::size_t i = 0; i < x_.size(); ++i) e -= mass_[i] * g.dot(x_[i]);
  const std::vector<double>& nm = fem_.node_masses();
  for (std::size_t k = 0; k < xe_.size(); ++k) e -= nm[x_.size() + k] * g.dot(xe_[k]);
  return e;
}

double DeformableObject::elastic_energy() const {
  if (newton()) {
    std::vector<Vec3> x(x_);
    x.insert(x.end(), xe_.begin(), xe_.end());
    return fem_.energy(x);
  }
  double e = 0.0;
  Vec3 g[4];
  for (const XpbdConstraint& c : constraints_) {
    if (!(c.compliance > 0.0)) continue;
    double C = 0.0;
    if (evaluate(c, x_, dm_inv_, C, g) == 0) continue;
    const double r = rest_value(c);
    e += (C * C - r * r) / (2.0 * c.compliance);
  }
  return e;
}

Aabb DeformableObject::bounds(double margin) const {
  Aabb b;
  b.min = x_[0];
  b.max = x_[0];
  for (const Vec3& p : x_) {
    b.min = b.min.cwiseMin(p);
    b.max = b.max.cwiseMax(p);
  }
  const Vec3 grow = Vec3::Constant(material_.proxy_radius + margin);
  b.min -= grow;
  b.max += grow;
  return b;
}

namespace {

using lanes::D4;
using lanes::M4;

// the corners of four tetrahedra (lane l: group.v[j][l]) and their inverse masses
template <class Group>
TORSION_LANES_INLINE void gather(const Group& g, const Vec3* x, D4 p[4][3]) {
  for (int j = 0; j < 4; ++j) {
    const double* q[4] = {x[g.v[j][0]].data(), x[g.v[j][1]].data(), x[g.v[j][2]].data(),
                          x[g.v[j][3]].data()};
    for (int r = 0; r < 3; ++r) p[j][r] = lanes::make(q[0][r], q[1][r], q[2][r], q[3][r]);
  }
}

template <class Group>
TORSION_LANES_INLINE void gather(const Group& g, const Vec3* x, const double* inv_mass,
                                 D4 p[4][3], D4 w[4]) {
  gather(g, x, p);
  for (int j = 0; j < 4; ++j)
    w[j] = lanes::make(inv_mass[g.v[j][0]], inv_mass[g.v[j][1]], inv_mass[g.v[j][2]],
                       inv_mass[g.v[j][3]]);
}

// The two constraints in terms of the edge matrix D (columns e0, e1, e2 = p1 - p0, p2 - p0,
// p3 - p0) and the rest shape's B = Dm^-1 Dm^-T (symmetric) and s = det Dm^-1 = 1 / (6 V0), with
// F = D Dm^-1 and corner gradients g1..g3 the columns of (dC/dF) Dm^-T, g0 = -(g1 + g2 + g3):
//   deviatoric   |F|^2 = sum_ab (e_a . e_b) B_ab      gradients: the columns of D B / |F|
//   hydrostatic  det F = s det D                      gradients: s cof D = s (e1 x e2, e2 x e0,
//                                                     e0 x e1), since cof(D Dm^-1) Dm^-T = s cof D
// No F is formed: about half the arithmetic of F, cof F and (dC/dF) Dm^-T.
struct Rest {
  D4 b[6];  // B_00, B_01, B_02, B_11, B_12, B_22
  D4 s;
  D4 B(int k, int c) const {
    static constexpr int kIdx[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};
    return b[kIdx[k][c]];
  }
};

template <class Group>
TORSION_LANES_INLINE Rest load_rest(const Group& g) {
  Rest r;
  for (int i = 0; i < 6; ++i) r.b[i] = lanes::load(g.b[i]);
  r.s = lanes::load(g.s);
  return r;
}

// e[c][r]: component r of edge c
TORSION_LANES_INLINE void edges(const D4 p[4][3], D4 e[3][3]) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) e[c][r] = p[c + 1][r] - p[0][r];
}

TORSION_LANES_INLINE D4 dot3(const D4 a[3], const D4 b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// |F|^2 = tr(D^T D B)
TORSION_LANES_INLINE D4 frobenius2(const D4 e[3][3], const Rest& rest) {
  const D4 two = lanes::splat(2.0);
  return dot3(e[0], e[0]) * rest.b[0] + dot3(e[1], e[1]) * rest.b[3] +
         dot3(e[2], e[2]) * rest.b[5] +
         two * (dot3(e[0], e[1]) * rest.b[1] + dot3(e[0], e[2]) * rest.b[2] +
                dot3(e[1], e[2]) * rest.b[4]);
}

// (D B)(r, c), the deviatoric gradient of corner c + 1 times |F|
TORSION_LANES_INLINE D4 db(const D4 e[3][3], const Rest& rest, int r, int c) {
  return e[0][r] * rest.B(0, c) + e[1][r] * rest.B(1, c) + e[2][r] * rest.B(2, c);
}

// cof D: k[c][r], column c = e_a x e_b (a, b = c + 1, c + 2 mod 3)
TORSION_LANES_INLINE void cofactor(const D4 e[3][3], D4 k[3][3]) {
  for (int c = 0; c < 3; ++c) {
    const D4* a = e[(c + 1) % 3];
    const D4* b = e[(c + 2) % 3];
    k[c][0] = a[1] * b[2] - a[2] * b[1];
    k[c][1] = a[2] * b[0] - a[0] * b[2];
    k[c][2] = a[0] * b[1] - a[1] * b[0];
  }
}

TORSION_LANES_INLINE void corner_zero(D4 g[4][3]) {
  for (int r = 0; r < 3; ++r) g[0][r] = -(g[1][r] + g[2][r] + g[3][r]);
}

// one XPBD update of a constraint of value C with corner gradients sc g (lanes where `ok` is
// clear are left alone); a corner of zero inverse mass (pinned, attached) never moves. The
// common factor sc (1 / |F|, or s) is applied to the sums, not to the twelve components.
TORSION_LANES_INLINE void project(D4 p[4][3], const D4 w[4], const D4 g[4][3], D4 sc, D4 C,
                                  D4 alpha, D4& lambda, M4 ok, D4& max_dx2) {
  const D4 zero = lanes::splat(0.0);
  D4 wsum = zero;
  for (int j = 0; j < 4; ++j) wsum += w[j] * dot3(g[j], g[j]);
  const D4 denom = wsum * (sc * sc) + alpha;
  ok = lanes::both(ok, lanes::gt(denom, zero));
  const D4 safe = lanes::select(ok, denom, lanes::splat(1.0));
  const D4 dl = lanes::select(ok, (-C - alpha * lambda) / safe, zero);
  lambda += dl;
  const D4 dls = dl * sc;
  for (int j = 0; j < 4; ++j) {
    const D4 s = lanes::select(lanes::gt(w[j], zero), w[j] * dls, zero);
    D4 d2 = zero;
    for (int r = 0; r < 3; ++r) {
      const D4 dx = s * g[j][r];
      p[j][r] += dx;
      d2 += dx * dx;
    }
    max_dx2 = lanes::max(max_dx2, d2);
  }
}

// The neo-Hookean pairs of the group's four tetrahedra (no shared corner), each projected in turn
// (deviatoric C = |F|_F with dC/dF = F / |F|, then hydrostatic C = det F - gamma with dC/dF =
// cof F) on corners gathered once.
template <class Group>
TORSION_LANES_INLINE void project_neo_group(Group& g, Vec3* x, const double* inv_mass,
                                            double inv_h2, D4& max_dx2) {
  D4 p[4][3], w[4];
  gather(g, x, inv_mass, p, w);
  const Rest rest = load_rest(g);
  const D4 h2i = lanes::splat(inv_h2);
  D4 e[3][3], grad[4][3];
  // deviatoric
  {
    edges(p, e);
    const D4 r = lanes::sqrt(frobenius2(e, rest));
    const M4 ok = lanes::gt(r, lanes::splat(1e-15));
    const D4 inv_r = lanes::splat(1.0) / lanes::select(ok, r, lanes::splat(1.0));
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < 3; ++i) grad[c + 1][i] = db(e, rest, i, c);
    corner_zero(grad);
    D4 ld = lanes::load(g.ld);
    project(p, w, grad, inv_r, r, lanes::load(g.alpha_d) * h2i, ld, ok, max_dx2);
    lanes::store(g.ld, ld);
  }
  // hydrostatic, at the corners the deviatoric update left
  {
    edges(p, e);
    cofactor(e, &grad[1]);
    const D4 det = rest.s * dot3(e[0], grad[1]);
    corner_zero(grad);
    D4 lh = lanes::load(g.lh);
    project(p, w, grad, rest.s, det - lanes::load(g.gamma), lanes::load(g.alpha_h) * h2i, lh,
            lanes::all_lanes(), max_dx2);
    lanes::store(g.lh, lh);
  }
  for (std::uint32_t l = 0; l < g.count; ++l)
    for (int j = 0; j < 4; ++j) {
      double* q = x[g.v[j][l]].data();
      q[0] = p[j][0][l];
      q[1] = p[j][1][l];
      q[2] = p[j][2][l];
    }
}

// The warm start's part of the group's four tetrahedra (warm_start_neo): their multipliers from
// the last substep's forces (`force`: deviatoric, hydrostatic per tetrahedron; zero where the
// compliance does not dominate), and sum grad C^T lambda added to warm_dx at each corner
template <class Group>
TORSION_LANES_INLINE void warm_neo_group(Group& g, const Vec3* x, const double* force, double h2,
                                         Vec3* warm_dx) {
  const D4 zero = lanes::splat(0.0), h2v = lanes::splat(h2);
  const D4 fd = lanes::make(force[2 * g.tet[0]], force[2 * g.tet[1]], force[2 * g.tet[2]],
                            force[2 * g.tet[3]]);
  const D4 fh = lanes::make(force[2 * g.tet[0] + 1], force[2 * g.tet[1] + 1],
                            force[2 * g.tet[2] + 1], force[2 * g.tet[3] + 1]);
  const M4 warm = lanes::both(lanes::ge(lanes::load(g.alpha_d), lanes::load(g.wg_d) * h2v),
                              lanes::ge(lanes::load(g.alpha_h), lanes::load(g.wg_h) * h2v));
  const D4 ld = lanes::select(warm, fd * h2v, zero), lh = lanes::select(warm, fh * h2v, zero);
  lanes::store(g.ld, ld);
  lanes::store(g.lh, lh);
  D4 p[4][3];
  gather(g, x, p);
  const Rest rest = load_rest(g);
  D4 e[3][3], k[3][3], grad[4][3];
  edges(p, e);
  const D4 r = lanes::sqrt(frobenius2(e, rest));
  const M4 ok = lanes::gt(r, lanes::splat(1e-15));
  const D4 sd = lanes::select(ok, ld / lanes::select(ok, r, lanes::splat(1.0)), zero);
  const D4 sh = lh * rest.s;
  cofactor(e, k);
  // sum over the pair of grad C lambda
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < 3; ++i) grad[c + 1][i] = k[c][i] * sh + db(e, rest, i, c) * sd;
  corner_zero(grad);
  for (std::uint32_t l = 0; l < g.count; ++l)
    for (int j = 0; j < 4; ++j) {
      double* q = warm_dx[g.v[j][l]].data();
      q[0] += grad[j][0][l];
      q[1] += grad[j][1][l];
      q[2] += grad[j][2][l];
    }
}

// The sweep and the warm start over all groups in order: built twice, for the baseline target
// and for AVX2 (same operations in the same order: the same bits), the second picked at run time
template <class Group>
TORSION_LANES_INLINE double sweep_groups_impl(Group* g, std::size_t count, Vec3* x,
                                              const double* inv_mass, double inv_h2) {
  D4 max_dx2 = lanes::splat(0.0);
  for (std::size_t i = 0; i < count; ++i) project_neo_group(g[i], x, inv_mass, inv_h2, max_dx2);
  double out = 0.0;
  for (int l = 0; l < 4; ++l) out = std::max(out, max_dx2[l]);
  return out;
}

template <class Group>
TORSION_LANES_INLINE void warm_groups_impl(Group* g, std::size_t count, const Vec3* x,
                                           const double* force, double h2, Vec3* warm_dx) {
  for (std::size_t i = 0; i < count; ++i) warm_neo_group(g[i], x, force, h2, warm_dx);
}

template <class Group>
double sweep_groups_base(Group* g, std::size_t count, Vec3* x, const double* inv_mass,
                         double inv_h2) {
  return sweep_groups_impl(g, count, x, inv_mass, inv_h2);
}

template <class Group>
void warm_groups_base(Group* g, std::size_t count, const Vec3* x, const double* force,
                      double h2, Vec3* warm_dx) {
  warm_groups_impl(g, count, x, force, h2, warm_dx);
}

#if TORSION_LANES_AVX2
template <class Group>
TORSION_LANES_AVX2_TARGET double sweep_groups_avx2(Group* g, std::size_t count, Vec3* x,
                                                   const double* inv_mass, double inv_h2) {
  return sweep_groups_impl(g, count, x, inv_mass, inv_h2);
}

template <class Group>
TORSION_LANES_AVX2_TARGET void warm_groups_avx2(Group* g, std::size_t count, const Vec3* x,
                                                const double* force, double h2, Vec3* warm_dx) {
  warm_groups_impl(g, count, x, force, h2, warm_dx);
}
#endif

template <class Group>
double sweep_groups(Group* g, std::size_t count, Vec3* x, const double* inv_mass, double inv_h2) {
#if TORSION_LANES_AVX2
  if (lanes::use_avx2()) return sweep_groups_avx2(g, count, x, inv_mass, inv_h2);
#endif
  return sweep_groups_base(g, count, x, inv_mass, inv_h2);
}

template <class Group>
void warm_groups(Group* g, std::size_t count, const Vec3* x, const double* force, double h2,
                 Vec3* warm_dx) {
#if TORSION_LANES_AVX2
  if (lanes::use_avx2()) return warm_groups_avx2(g, count, x, force, h2, warm_dx);
#endif
  warm_groups_base(g, count, x, force, h2, warm_dx);
}

}  // namespace

// One Gauss-Seidel sweep over the constraints (XPBD's update with the accumulated lambda_), each
// constraint projected at the positions the previous one left. Returns the sweep's largest
// squared particle move (the convergence test of step()).
double DeformableObject::project_constraints(double h) {
  const double inv_h2 = 1.0 / (h * h);
  Vec3 g[4];
  sweep_max_ = 0.0;
  // the distance and volume constraints (and struts): evaluate() per constraint
  const std::size_t nc = neo_.empty() ? constraints_.size() : neo_begin_;
  for (std::size_t k = 0; k < nc; ++k) {
    const XpbdConstraint& c = constraints_[k];
    double C = 0.0;
    const int nv = evaluate(c, x_, dm_inv_, C, g);
    if (nv == 0) continue;
    double wsum = 0.0;
    for (int j = 0; j < nv; ++j) wsum += inv_mass_[c.v[j]] * g[j].squaredNorm();
    const double alpha = c.compliance * inv_h2;
    const double denom = wsum + alpha;
    if (!(denom > 0.0)) continue;
    const double dl = (-C - alpha * lambda_[k]) / denom;
    lambda_[k] += dl;
    for (int j = 0; j < nv; ++j) {
      const double w = inv_mass_[c.v[j]];
      if (w > 0.0) {
        const Vec3 dx = (w * dl) * g[j];
        x_[c.v[j]] += dx;
        sweep_max_ = std::max(sweep_max_, dx.squaredNorm());
      }
    }
  }
  // the elastic solid's tetrahedra, four at a time, each pair in turn (deviatoric, then
  // hydrostatic)
  if (!neo_groups_.empty())
    sweep_max_ = std::max(sweep_max_, sweep_groups(neo_groups_.data(), neo_groups_.size(),
                                                   x_.data(), inv_mass_.data(), inv_h2));
  return sweep_max_;
}

// Warm start of an elastic solid's sweeps: every neo-Hookean constraint starts the substep with
// the multiplier of the force it carried at the end of the last one (lambda = f h^2), and the
// particles start where those multipliers put them, x~ + M^-1 sum grad C^T lambda (gradients at
// the predicted positions, summed Jacobi-wise): XPBD's invariant between positions and
// multipliers holds, so the sweeps converge to the same implicit step as from lambda = 0.
// Why: at rest the two constraints of a tetrahedron carry large opposite forces (|F| pulls the
// rest shape in, det F - (1 + mu/lam) pushes it out); started from zero, the sweeps spent 5-6
// passes rebuilding that balance every substep, from a first pass that moved the corners by
// ~25 times gravity's h^2 g. Warm, a body at rest or in free fall converges in one or two.
// Only where the compliance dominates (alpha / h^2 >= sum w |grad C|^2 at rest): there the warm
// start moves a corner by no more than the constraint's own correction; on flattened or stiff
// tetrahedra a stale multiplier overshoots (a filled ball's boundary slivers exploded), so those
// start from zero.
void DeformableObject::warm_start_neo(double h) {
  const double h2 = h * h;
  warm_dx_.assign(x_.size(), Vec3::Zero());
  warm_groups(neo_groups_.data(), neo_groups_.size(), x_.data(), force_.data() + neo_begin_, h2,
              warm_dx_.data());
  for (std::size_t i = 0; i < x_.size(); ++i) x_[i] += inv_mass_[i] * warm_dx_[i];
}

// the multipliers of the sweeps back in constraint order (lambda_: the attachments' pull reads
// them) and the substep's forces lambda / h^2 (force_)
void DeformableObject::store_neo_multipliers(double h) {
  const double inv_h2 = 1.0 / (h * h);
  for (const NeoGroup& g : neo_groups_)
    for (std::uint32_t l = 0; l < g.count; ++l) {
      const std::size_t c = neo_begin_ + 2 * g.tet[l];
      lambda_[c] = g.ld[l];
      lambda_[c + 1] = g.lh[l];
      force_[c] = g.ld[l] * inv_h2;
      force_[c + 1] = g.lh[l] * inv_h2;
    }
}

// Each free particle's sphere against every collider whose box it overlaps: pushed out along the
// deepest contact's normal, then Coulomb friction on its slip of this substep relative to the
// body's surface (static within static_friction * depth, else reduced by friction * depth). The
// particle's displacement dx is an impulse m dx / h; its opposite goes to the collider, at the
// contact point (the sphere's point on the normal).
void DeformableObject::collide(std::vector<DeformableCollider>& colliders,
                               const ContactSettings& settings, double h) {
  if (colliders.empty()) return;
  const double r = material_.proxy_radius;
  const Shape sphere = Shape::sphere(std::max(r, 1e-9));
  Pose pose;
  Manifold m;
  const double inv_h = 1.0 / h;
  // the push of particle i out of collider c along n by depth, its friction and the reaction
  auto respond = [&](std::size_t i, DeformableCollider& c, const Vec3& n, double depth) {
    const Vec3 before = x_[i];
    x_[i] += depth * n;
    // the slip: the particle's displacement of this substep less the surface's under it
    const Vec3 surface = c.velocity + c.angular_velocity.cross(x_[i] - c.origin);
    const Vec3 dx = x_[i] - x_prev_[i] - h * surface;
    const Vec3 dt = dx - dx.dot(n) * n;
    const double slip = dt.norm();
    if (slip <= c.static_friction * depth) {
      x_[i] -= dt;
    } else if (slip > 0.0) {
      x_[i] -= dt * std::min(1.0, c.friction * depth / slip);
    }
    const Vec3 impulse = (mass_[i] * inv_h) * (x_[i] - before);  // on the particle
    c.impulse -= impulse;
    c.moment -= (x_[i] - r * n).cross(impulse);
  };
  for (std::size_t i = 0; i < x_.size(); ++i) {
    if (!(inv_mass_[i] > 0.0)) continue;
    for (DeformableCollider& c : colliders) {
      if (c.shape->type == ShapeType::kGround) {
        // the ground half space (below the plane through the pose's position, normal its z
        // axis): a plane test, what collide_sphere_ground computes, without the manifold
        const Vec3 n = c.pose.rotation.col(2);
        const double depth = n.dot(c.pose.position - x_[i]) + std::max(r, 1e-9);
        if (depth > 0.0) respond(i, c, n, depth);
        continue;
      }
      Aabb box;
      box.min = x_[i] - Vec3::Constant(r);
      box.max = x_[i] + Vec3::Constant(r);
      if (!box.overlaps(c.aabb)) continue;
      pose.position = x_[i];
      m.clear();
      collide_shapes(sphere, pose, *c.shape, c.pose, settings, m);
      int best = -1;
      for (int p = 0; p < m.count; ++p)
        if (m.points[p].depth > 0.0 && (best < 0 || m.points[p].depth > m.points[best].depth))
          best = p;
      if (best < 0) continue;
      // the normal points from the collider to the particle
      respond(i, c, m.points[best].normal, m.points[best].depth);
    }
  }
}

// Particle-particle contact within the object: spheres of radius proxy_radius on a uniform grid
// (cell 2r, particles sorted by cell key); pairs closer than 2r at rest are neighbours in the
// mesh and never collide.
void DeformableObject::self_collide() {
  const double r = material_.proxy_radius;
  if (!(r > 0.0)) return;
  const double cell = 2.0 * r;
  const std::size_t n = x_.size();
  auto key_of = [&](const Vec3& p, int dx, int dy, int dz) {
    const auto q = [&](double v, int d) {
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(std::floor(v / cell)) + d +
                                        (std::int64_t(1) << 20)) &
             0x1FFFFFu;
    };
    return (q(p.x(), dx) << 42) | (q(p.y(), dy) << 21) | q(p.z(), dz);
  };
  cell_key_.resize(n);
  cell_order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    cell_key_[i] = key_of(x_[i], 0, 0, 0);
    cell_order_[i] = static_cast<std::uint32_t>(i);
  }
  std::sort(cell_order_.begin(), cell_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return cell_key_[a] != cell_key_[b] ? cell_key_[a] < cell_key_[b] : a < b;
  });
  const double min_d = 2.0 * r;
  for (std::size_t i = 0; i < n; ++i) {
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const std::uint64_t key = key_of(x_[i], dx, dy, dz);
          auto it = std::lower_bound(cell_order_.begin(), cell_order_.end(), key,
                                     [&](std::uint32_t a, std::uint64_t k) {
                                       return cell_key_[a] < k;
                                     });
          for (; it != cell_order_.end() && cell_key_[*it] == key; ++it) {
            const std::size_t j = *it;
            if (j <= i) continue;
            if ((x0_[i] - x0_[j]).norm() < min_d * 1.5) continue;
            const Vec3 d = x_[i] - x_[j];
            const double dist = d.norm();
            if (!(dist < min_d) || !(dist > 1e-15)) continue;
            const double wi = inv_mass_[i], wj = inv_mass_[j];
            if (wi + wj <= 0.0) continue;
            const Vec3 push = (min_d - dist) / (wi + wj) * (d / dist);
            x_[i] += wi * push;
            x_[j] -= wj * push;
          }
        }
  }
}

// The pull of the constraints on each attached vertex (the force lambda / h^2 along the
// constraint's gradient at the vertex, with the gradient at the end of the sweeps: the impulse
// lambda g / h of this substep), and the vertex's weight m g h: what the vertex hands its body.
void DeformableObject::accumulate_attachment_impulses(double h, const Vec3& gravity) {
  const double inv_h = 1.0 / h;
  Vec3 g[4];
  for (const auto& row : attach_rows_) {
    double C = 0.0;
    const XpbdConstraint& c = constraints_[row[0]];
    if (evaluate(c, x_, dm_inv_, C, g) == 0) continue;
    attach_impulse_[row[1]] += (lambda_[row[0]] * inv_h) * g[row[2]];
  }
  for (std::size_t a = 0; a < attachments_.size(); ++a)
    attach_impulse_[a] += (mass_[attachments_[a].vertex] * h) * gravity;
}

bool DeformableObject::step(const Vec3& gravity, double dt,
                            std::vector<DeformableCollider>& colliders,
                            const std::vector<Vec3>& attach_targets,
                            const ContactSettings& settings) {
  for (DeformableCollider& c : colliders) {
    c.impulse.setZero();
    c.moment.setZero();
  }
  // the constraints that pull on attached vertices (this step's attachments)
  attach_impulse_.assign(attachments_.size(), Vec3::Zero());
  attach_rows_.clear();
  if (!attachments_.empty()) {
    attach_of_vertex_.assign(x_.size(), -1);
    for (std::size_t a = 0; a < attachments_.size(); ++a)
      attach_of_vertex_[attachments_[a].vertex] = static_cast<std::int32_t>(a);
    for (std::size_t k = 0; k < constraints_.size(); ++k) {
      const XpbdConstraint& c = constraints_[k];
      const int nv = c.kind == XpbdKind::kDistance ? 2 : 4;
      for (int j = 0; j < nv; ++j)
        if (attach_of_vertex_[c.v[j]] >= 0)
          attach_rows_.push_back({static_cast<std::uint32_t>(k),
                                  static_cast<std::uint32_t>(attach_of_vertex_[c.v[j]]),
                                  static_cast<std::uint32_t>(j)});
    }
  }
  if (newton()) return step_newton(gravity, dt, colliders, attach_targets, settings);
  const int substeps = material_.substeps;
  const double h = dt / substeps;
  const double decay = std::exp(-material_.damping * h);
  const std::size_t n = x_.size();
  x_begin_ = x_;  // same size every step: no allocation after the first
  x_prev_.resize(n);
  x_start_.resize(attachments_.size());
  for (std::size_t a = 0; a < attachments_.size(); ++a) x_start_[a] = x_[attachments_[a].vertex];
  for (int s = 0; s < substeps; ++s) {
    // predict: free particles fall; pinned ones stay; attached ones move toward their target
    for (std::size_t i = 0; i < n; ++i) {
      x_prev_[i] = x_[i];
      if (inv_mass_[i] > 0.0) {
        v_[i] = v_[i] * decay + h * gravity;
        x_[i] += h * v_[i];
      }
    }
    const double f = static_cast<double>(s + 1) / substeps;
    for (std::size_t a = 0; a < attachments_.size(); ++a)
      x_[attachments_[a].vertex] = x_start_[a] + f * (attach_targets[a] - x_start_[a]);
    const double h2 = h * h;
    // (an elastic solid's multipliers start in its groups: warm_start_neo)
    const std::size_t n_generic = neo_groups_.empty() ? lambda_.size() : neo_begin_;
    std::fill(lambda_.begin(), lambda_.begin() + static_cast<std::ptrdiff_t>(n_generic), 0.0);
    if (!neo_.empty()) warm_start_neo(h);
    // sweeps until one moves no particle by more than 1 % of what gravity moves it in a
    // substep (converged: more sweeps change nothing that matters), at most `iterations`
    const double tol = 1e-2 * h2 * gravity.norm();
    for (int it = 0; it < material_.iterations; ++it)
      if (project_constraints(h) <= tol * tol) break;
    if (!neo_groups_.empty()) store_neo_multipliers(h);
    if (!attachments_.empty()) accumulate_attachment_impulses(h, gravity);
    collide(colliders, settings, h);
    if (material_.self_collision) self_collide();
    const double inv_h = 1.0 / h;
    for (std::size_t i = 0; i < n; ++i) v_[i] = (x_[i] - x_prev_[i]) * inv_h;
    for (std::size_t k = 0; k < n_generic; ++k) force_[k] = lambda_[k] / h2;
  }
  bool finite = true;
  for (std::size_t i = 0; i < n && finite; ++i) finite = x_[i].allFinite() && v_[i].allFinite();
  if (finite) return true;
  x_ = x_begin_;
  for (Vec3& v : v_) v.setZero();
  std::fill(force_.begin(), force_.end(), 0.0);
  // a reset step hands no reactions to the bodies
  for (DeformableCollider& c : colliders) {
    c.impulse.setZero();
    c.moment.setZero();
  }
  std::fill(attach_impulse_.begin(), attach_impulse_.end(), Vec3::Zero());
  return false;
}

// The finite-element solid (solver kNewton): each substep predicts every free node (damping,
// gravity), moves the fixed ones (pins stay, attached vertices go toward their targets, an edge
// node both of whose ends are fixed stays at their midpoint), solves the implicit-Euler step by
// Newton's method (fem_solid.hpp), pushes the vertices out of the colliders as the XPBD path does,
// and takes v = (x - x_prev) / h.
bool DeformableObject::step_newton(const Vec3& gravity, double dt,
                                   std::vector<DeformableCollider>& colliders,
                                   const std::vector<Vec3>& attach_targets,
                                   const ContactSettings& settings) {
  const int substeps = material_.substeps;
  const double h = dt / substeps;
  const double decay = std::exp(-material_.damping * h);
  const std::size_t n = x_.size(), ne = xe_.size(), nn = n + ne;
  const auto& edges = fem_.edges();
  x_begin_ = x_;
  xe_begin_ = xe_;
  x_prev_.resize(n);
  xn_.resize(nn);
  vn_.resize(nn);
  xp_.resize(nn);
  fixed_.resize(nn);
  for (std::size_t i = 0; i < n; ++i) {
    xn_[i] = x_[i];
    vn_[i] = v_[i];
    fixed_[i] = inv_mass_[i] > 0.0 ? 0 : 1;
  }
  for (std::size_t k = 0; k < ne; ++k) {
    xn_[n + k] = xe_[k];
    vn_[n + k] = ve_[k];
    fixed_[n + k] = fixed_[edges[k][0]] && fixed_[edges[k][1]] ? 1 : 0;
  }
  x_start_.resize(attachments_.size());
  for (std::size_t a = 0; a < attachments_.size(); ++a) x_start_[a] = x_[attachments_[a].vertex];
  const double tol = 1e-10 * length_scale_;
  for (int s = 0; s < substeps; ++s) {
    for (std::size_t i = 0; i < nn; ++i) {
      xp_[i] = xn_[i];
      if (!fixed_[i]) {
        vn_[i] = vn_[i] * decay + h * gravity;
        xn_[i] += h * vn_[i];
      }
    }
    const double f = static_cast<double>(s + 1) / substeps;
    for (std::size_t a = 0; a < attachments_.size(); ++a)
      xn_[attachments_[a].vertex] = x_start_[a] + f * (attach_targets[a] - x_start_[a]);
    for (std::size_t k = 0; k < ne; ++k)
      if (fixed_[n + k]) xn_[n + k] = 0.5 * (xn_[edges[k][0]] + xn_[edges[k][1]]);
    xt_ = xn_;
    fem_.solve(xn_, xt_, fixed_, h, material_.iterations, tol);
    // contact on the vertices' proxies (collide() works on x_ and x_prev_)
    for (std::size_t i = 0; i < n; ++i) {
      x_[i] = xn_[i];
      x_prev_[i] = xp_[i];
    }
    collide(colliders, settings, h);
    if (material_.self_collision) self_collide();
    for (std::size_t i = 0; i < n; ++i) xn_[i] = x_[i];
    const double inv_h = 1.0 / h;
    for (std::size_t i = 0; i < nn; ++i) vn_[i] = (xn_[i] - xp_[i]) * inv_h;
  }
  for (std::size_t i = 0; i < n; ++i) v_[i] = vn_[i];
  for (std::size_t k = 0; k < ne; ++k) {
    xe_[k] = xn_[n + k];
    ve_[k] = vn_[n + k];
  }
  bool finite = true;
  for (std::size_t i = 0; i < nn && finite; ++i) finite = xn_[i].allFinite() && vn_[i].allFinite();
  if (finite) return true;
  x_ = x_begin_;
  xe_ = xe_begin_;
  for (Vec3& v : v_) v.setZero();
  for (Vec3& v : ve_) v.setZero();
  for (DeformableCollider& c : colliders) {  // a reset step hands no reactions to the bodies
    c.impulse.setZero();
    c.moment.setZero();
  }
  return false;
}

}  // namespace torsion
