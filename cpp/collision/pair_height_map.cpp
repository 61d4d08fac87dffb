// Convex shapes against a heightmap (always B): the cells under the shape's bounding box are
// split into their two triangles (geometry/height_map.hpp), and each existing triangle is tested
// by collide_convex_triangle with its neighbours' normals, so that flat and concave edges have
// no edge contacts and every shared edge is reported once. Missing triangles (holes) and the
// outside of the grid have no surface: their edges are free edges.
//
// The heightmap is static and never rotated: its pose only translates the grid.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "collision/narrow_phase.hpp"
#include "collision/segment.hpp"
#include "collision/triangle_contact.hpp"
#include "geometry/aabb.hpp"
#include "geometry/height_map.hpp"
#include "geometry/support.hpp"

namespace torsion {

namespace {

// One flag per grid vertex of the window [i0, i0 + nx) x [j0, j0 + ny), in a fixed buffer (no
// allocation); a window too large for it keeps no flags (every vertex is then tested).
class VertexMarks {
 public:
  VertexMarks(int i0, int j0, int nx, int ny)
      : i0_(i0), j0_(j0), nx_(nx), ny_(ny), on_(nx > 0 && ny > 0 && nx * ny <= kMax) {
    if (on_) std::fill(flags_, flags_ + nx * ny, false);
  }
  void set(int i, int j) {
    if (on_) flags_[(j - j0_) * nx_ + (i - i0_)] = true;
  }
  bool get(int i, int j) const { return on_ && flags_[(j - j0_) * nx_ + (i - i0_)]; }

 private:
  static constexpr int kMax = 4096;
  int i0_, j0_, nx_, ny_;
  bool on_;
  bool flags_[kMax];
};

// grid corners (i, j) of triangle t of cell (ci, cj), in the order of HeightMapData::triangle
void triangle_corners(int ci, int cj, int t, int ij[3][2]) {
  ij[0][0] = ci, ij[0][1] = cj;
  ij[1][0] = ci + 1, ij[1][1] = t == 0 ? cj : cj + 1;
  ij[2][0] = t == 0 ? ci + 1 : ci, ij[2][1] = cj + 1;
}

// unit normal of triangle t of cell (ci, cj), or false if the cell is outside or a hole
bool neighbour_normal(const HeightMapData& h, int ci, int cj, int t, Vec3& n) {
  if (ci < 0 || cj < 0 || ci > h.x_samples() - 2 || cj > h.y_samples() - 2) return false;
  return h.triangle_normal(ci, cj, t, n);
}

// The normals of the cells [ci0, ci0 + w) x [cj0, cj0 + h) (the window grown by one cell), each
// computed once per call however many triangles ask for it (a triangle's own normal, and the
// normal across each of its edges for up to three neighbours). The buffer is a fixed array on
// the stack (no allocation, no thread-local lookup); a window too large for it computes every
// normal on demand. The values are exactly those of neighbour_normal either way.
class NormalCache {
 public:
  NormalCache(const HeightMapData& h, int ci0, int cj0, int w, int ht)
      : h_(h), ci0_(ci0), cj0_(cj0), w_(w), ht_(ht), on_(w > 0 && ht > 0 && 2 * w * ht <= kMax) {
    if (on_) std::fill(state_, state_ + 2 * w * ht, kUnknown);
  }
  bool get(int ci, int cj, int t, Vec3& n) {
    const int li = ci - ci0_, lj = cj - cj0_;
    if (!on_ || li < 0 || lj < 0 || li >= w_ || lj >= ht_)
      return neighbour_normal(h_, ci, cj, t, n);
    const int k = 2 * (lj * w_ + li) + t;
    if (state_[k] == kUnknown)
      state_[k] = neighbour_normal(h_, ci, cj, t, normals_[k]) ? kPresent : kMissing;
    if (state_[k] == kMissing) return false;
    n = normals_[k];
    return true;
  }

 private:
  static constexpr int kMax = 256;  // triangles: a window of up to 128 cells (a foot: 16)
  static constexpr std::uint8_t kUnknown = 0, kPresent = 1, kMissing = 2;
  const HeightMapData& h_;
  int ci0_, cj0_, w_, ht_;
  bool on_;
  std::uint8_t state_[kMax];
  Vec3 normals_[kMax];
};

// Vertex regions (the triangle routine covers faces and edges): a grid vertex v is the point of
// the surface closest to the shape when the direction u from v to the shape's closest core point
// makes an obtuse angle with every surface edge leaving v (Ericson's vertex-region test over
// the one-ring). Then the contact normal is u (pointing up: the solid is below), the depth
// radius - |u|. Each grid vertex is tested once, so it has a single owner.
//
// Two exact shortcuts skip most vertices before the closest-point query: a vertex outside the
// shape's bounding box (grown by the margin) is farther than the margin from the shape, and so
// is a vertex of a triangle the face pass proved separated (`far`, see below): the shape lies
// beyond the margin in front of a plane through the vertex.
void vertex_contacts(const Shape& a, const Pose& pa, const HeightMapData& h, const Vec3& origin,
                     const Aabb& box, int i0, int i1, int j0, int j1, const VertexMarks& far,
                     double margin, Manifold& out) {
  const double r = core_radius(a);
  const int nx = h.x_samples(), ny = h.y_samples();
  static constexpr int kRing[6][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {-1, -1}, {0, -1}};
  for (int j = j0; j <= j1; ++j) {
    for (int i = i0; i <= i1; ++i) {
      if (!std::isfinite(h.sample(i, j)) || far.get(i, j)) continue;
      const Vec3 v = h.vertex(i, j) + origin;
      if ((v.array() < box.min.array()).any() || (v.array() > box.max.array()).any()) continue;
      const Vec3 q = closest_core_point(a, pa, v);
      const Vec3 u = q - v;
      const double dist = u.norm();
      const bool inside = !(dist > 1e-12);  // v inside a box, cylinder or hull: no direction
      if (dist > r + margin || (!inside && u.z() <= 0.0)) continue;
      // the one-ring: ring neighbours k and k + 1 span a triangle around the vertex (when both
      // samples exist); an edge to neighbour k is on the surface only if one of the triangles on
      // its sides (k - 1, k) exists, and a vertex with no triangle is not on the surface at all
      bool present[6];
      Vec3 ring[6];
      for (int k = 0; k < 6; ++k) {
        const int wi = i + kRing[k][0], wj = j + kRing[k][1];
        present[k] = wi >= 0 && wj >= 0 && wi < nx && wj < ny && std::isfinite(h.sample(wi, wj));
        if (present[k]) ring[k] = h.vertex(wi, wj) + origin - v;
      }
      Vec3 edges[6];
      int edge_count = 0;
      // the one-ring's triangles (k, k + 1), their area-weighted normals and their sum
      bool fan[6];
      Vec3 fan_normal[6];
      Vec3 vertex_normal = Vec3::Zero();
      for (int k = 0; k < 6; ++k) {
        fan[k] = present[k] && present[(k + 1) % 6];
        if (fan[k]) vertex_normal += fan_normal[k] = ring[k].cross(ring[(k + 1) % 6]);
      }
      for (int k = 0; k < 6; ++k)
        if (present[k] && (fan[k] || fan[(k + 5) % 6])) edges[edge_count++] = ring[k];
      if (edge_count == 0) continue;
      Vec3 n;
      double depth;
      if (inside) {
        if (!inside_vertex_contact(a, pa, v, edges, edge_count, vertex_normal, n, depth)) continue;
      } else {
        bool in_region = true;
        for (int k = 0; k < edge_count && in_region; ++k)  // round-off tolerance: never lose one
          in_region = u.dot(edges[k]) <= 1e-9 * dist * edges[k].norm();
        if (!in_region) continue;
        n = u / dist;
        depth = r - dist;
      }
      // the surface is one-sided: the normal must face the front of a triangle around the
      // vertex (at a concave vertex, such as the foot of a slope, a direction pointing into the
      // terrain can pass the cone test; the triangle-mesh pass checks the same)
      bool in_front = false;
      for (int k = 0; k < 6 && !in_front; ++k) in_front = fan[k] && n.dot(fan_normal[k]) > 0.0;
      if (!in_front) continue;
      make_room(out, 1);
      out.add_from_b(v, n, depth,
                     (static_cast<std::uint32_t>(j * nx + i) * 2654435761u) ^ 0x5BD1E995u);
    }
  }
}

}  // namespace

void collide_convex_height_map(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                               const ContactSettings& settings, Manifold& out) {
  const HeightMapData& h = *b.height_map;
  const double margin = settings.margin;
  const Aabb box = shape_aabb(a, pa, margin);
  // the bounding box in the grid's frame, in cell units
  const Vec3 lo = box.min - pb.position, hi = box.max - pb.position;
  if (!h.has_finite_sample() || lo.z() > h.max_height()) return;  // above every sample
  const double u0 = (lo.x() + 0.5 * h.x_size()) / h.dx(), u1 = (hi.x() + 0.5 * h.x_size()) / h.dx();
  const double v0 = (lo.y() + 0.5 * h.y_size()) / h.dy(), v1 = (hi.y() + 0.5 * h.y_size()) / h.dy();
  const int last_i = h.x_samples() - 2, last_j = h.y_samples() - 2;
  if (!(u1 >= 0.0 && v1 >= 0.0 && u0 <= last_i + 1 && v0 <= last_j + 1)) return;
  const int i0 = std::max(0, static_cast<int>(std::floor(u0)));
  const int i1 = std::min(last_i, static_cast<int>(std::floor(u1)));
  const int j0 = std::max(0, static_cast<int>(std::floor(v0)));
  const int j1 = std::min(last_j, static_cast<int>(std::floor(v1)));
  const std::uint32_t cells_x = static_cast<std::uint32_t>(last_i + 1);
  // grid vertices proved farther than the margin from the shape (see vertex_contacts)
  VertexMarks far(i0, j0, i1 - i0 + 2, j1 - j0 + 2);
  NormalCache normals(h, i0 - 1, j0 - 1, i1 - i0 + 3, j1 - j0 + 3);
  auto mark_far = [&](int ci, int cj, int t) {
    int ij[3][2];
    triangle_corners(ci, cj, t, ij);
    for (const auto& c : ij) far.set(c[0], c[1]);
  };
  // the shape's box above every sample of the window: nothing to touch (the common case of a
  // leg above the ground; NaN samples compare false and are skipped)
  double window_top = -INFINITY;
  for (int j = j0; j <= j1 + 1; ++j)
    for (int i = i0; i <= i1 + 1; ++i) window_top = std::max(window_top, h.sample(i, j));
  if (!(lo.z() <= window_top)) return;
  for (int cj = j0; cj <= j1; ++cj) {
    for (int ci = i0; ci <= i1; ++ci) {
      // the corner samples of the cell, in the order of height_map.hpp (00, 10, 11, 01)
      const double s00 = h.sample(ci, cj), s10 = h.sample(ci + 1, cj);
      const double s11 = h.sample(ci + 1, cj + 1), s01 = h.sample(ci, cj + 1);
      for (int t = 0; t < 2; ++t) {
        // cheap cull from the samples alone: the shape's box wholly above the triangle's
        // highest corner (a hole's NaN fails the test and goes on to h.triangle, which drops it)
        const double top = std::max({s00, t == 0 ? s10 : s01, s11});
        if (lo.z() > top) {
          mark_far(ci, cj, t);
          continue;
        }
        ContactTriangle tri;
        if (!h.triangle(ci, cj, t, tri.v)) continue;
        for (Vec3& v : tri.v) v += pb.position;
        // the shape wholly in front of the triangle's plane (beyond the margin): skip before
        // gathering the neighbours (the triangle routine would reject it on the same test). The
        // normal comes from the cache (the grid frame; the heightmap only translates), shared
        // with the neighbours that ask for it
        Vec3 n_tri;
        if (!normals.get(ci, cj, t, n_tri)) continue;
        tri.normal = n_tri;
        if (n_tri.dot(support_core(a, pa, -n_tri) - tri.v[0]) - core_radius(a) > margin) {
          mark_far(ci, cj, t);
          continue;
        }
        // neighbours across edges 0, 1, 2 (see height_map.hpp for the corner order); triangle 0
        // owns its three edges, triangle 1 only the free ones, so every shared edge has one owner
        struct Across {
          int ci, cj, t;
        };
        const Across across[2][3] = {
            {{ci, cj - 1, 1}, {ci + 1, cj, 1}, {ci, cj, 1}},
            {{ci, cj, 0}, {ci, cj + 1, 0}, {ci - 1, cj, 0}},
        };
        for (int e = 0; e < 3; ++e) {
          const Across& n = across[t][e];
          TriangleEdge& edge = tri.edges[e];
          edge.has_neighbour = normals.get(n.ci, n.cj, n.t, edge.neighbour_normal);
          edge.owned = t == 0 || !edge.has_neighbour;
        }
        tri.vertex_regions = false;  // vertex_contacts below tests every grid vertex once
        tri.id = (static_cast<std::uint32_t>(cj) * cells_x + static_cast<std::uint32_t>(ci)) * 2u +
                 static_cast<std::uint32_t>(t);
        collide_convex_triangle(a, pa, tri, settings, out);
      }
    }
  }
  vertex_contacts(a, pa, h, pb.position, box, i0, i1 + 1, j0, j1 + 1, far, margin, out);
}

}  // namespace torsion
