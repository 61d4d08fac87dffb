// Rays against a deformable's surface (ray_surface.hpp).
#include "query/ray_surface.hpp"

#include <algorithm>
#include <cmath>

#include "query/ray_mesh.hpp"
#include "query/slab.hpp"

namespace torsion {

namespace {
constexpr std::uint32_t kLeafTriangles = 4;
}  // namespace

void RaySurface::build() {
  const auto m = static_cast<std::uint32_t>(triangles.size());
  nodes_.clear();
  order_.resize(m);
  std::vector<Vec3> centres(m);
  std::vector<Aabb> boxes(m);
  for (std::uint32_t k = 0; k < m; ++k) {
    const auto& t = triangles[k];
    boxes[k].min = vertices[t[0]].cwiseMin(vertices[t[1]]).cwiseMin(vertices[t[2]]);
    boxes[k].max = vertices[t[0]].cwiseMax(vertices[t[1]]).cwiseMax(vertices[t[2]]);
    centres[k] = 0.5 * (boxes[k].min + boxes[k].max);
    order_[k] = k;
  }
  if (m == 0) {
    bounds_.min = bounds_.max = Vec3::Zero();
    return;
  }
  nodes_.reserve(2 * m / kLeafTriangles + 2);
  build_node(0, m, centres, boxes);
  bounds_.min = nodes_[0].min;
  bounds_.max = nodes_[0].max;
}

// top-down median split along the widest spread of the centres, a total order on (centre,
// triangle index): the same tree on every run
void RaySurface::build_node(std::uint32_t begin, std::uint32_t end,
                            const std::vector<Vec3>& centres, const std::vector<Aabb>& boxes) {
  const auto self = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({});
  Vec3 lo = boxes[order_[begin]].min, hi = boxes[order_[begin]].max;
  Vec3 c_lo = centres[order_[begin]], c_hi = c_lo;
  for (std::uint32_t k = begin + 1; k < end; ++k) {
    const std::uint32_t t = order_[k];
    lo = lo.cwiseMin(boxes[t].min);
    hi = hi.cwiseMax(boxes[t].max);
    c_lo = c_lo.cwiseMin(centres[t]);
    c_hi = c_hi.cwiseMax(centres[t]);
  }
  nodes_[self].min = lo;
  nodes_[self].max = hi;
  if (end - begin <= kLeafTriangles) {
    nodes_[self].first = begin;
    nodes_[self].count = end - begin;
    return;
  }
  int axis = 0;
  (c_hi - c_lo).maxCoeff(&axis);
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) {
                     const double ca = centres[a][axis], cb = centres[b][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  build_node(begin, mid, centres, boxes);
  nodes_[self].first = static_cast<std::uint32_t>(nodes_.size());
  nodes_[self].count = 0;
  build_node(mid, end, centres, boxes);
}

bool RaySurface::cast(const Vec3& start, const Vec3& dir, double length, double& t_hit,
                      Vec3& normal, std::uint32_t& triangle) const {
  if (nodes_.empty() || !(length >= 0.0)) return false;
  const Vec3 inv_d(1.0 / dir.x(), 1.0 / dir.y(), 1.0 / dir.z());
  double best = length;
  bool found = false;
  std::uint32_t best_tri = 0;
  // the tree's depth is about log2(m / 4) + 1 (median splits): 64 entries hold any mesh that
  // fits in memory
  std::uint32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (slab_entry(n.min, n.max, start, inv_d, best) > best) continue;
    if (n.count > 0) {
      for (std::uint32_t k = 0; k < n.count; ++k) {
        const std::uint32_t tri = order_[n.first + k];
        const auto& f = triangles[tri];
        double t = 0.0;
        if (!ray_triangle(start, dir, vertices[f[0]], vertices[f[1]], vertices[f[2]], t)) continue;
        if (t < 0.0 || t > best || (found && t == best && tri > best_tri)) continue;
        best = t;
        best_tri = tri;
        found = true;
      }
      continue;
    }
    stack[top++] = n.first;
    stack[top++] = static_cast<std::uint32_t>(&n - nodes_.data()) + 1;
  }
  if (!found) return false;
  const auto& f = triangles[best_tri];
  Vec3 nrm = (vertices[f[1]] - vertices[f[0]]).cross(vertices[f[2]] - vertices[f[0]]);
  const double len = nrm.norm();
  nrm = len > 0.0 ? Vec3(nrm / len) : Vec3(-dir);
  if (two_sided && nrm.dot(dir) > 0.0) nrm = -nrm;
  t_hit = best;
  normal = nrm;
  triangle = best_tri;
  return true;
}

}  // namespace torsion
