#include "geometry/triangle_mesh.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/check.hpp"

namespace torsion {

namespace {
constexpr std::uint32_t kLeafSize = 4;
}

TriangleMesh::TriangleMesh(const TriangleMeshData& data) {
  validate_mesh(data, "triangle mesh");
  vertices_ = data.vertices;
  for (const auto& t : data.triangles) {
    const Vec3 n = (vertices_[t[1]] - vertices_[t[0]]).cross(vertices_[t[2]] - vertices_[t[0]]);
    if (!(n.norm() > 0.0)) continue;
    triangles_.push_back(t);
    normals_.push_back(n.normalized());
  }
  if (triangles_.empty()) throw_invalid("triangle mesh: every triangle has zero area");
  // edge adjacency: an undirected edge shared by exactly two triangles links them
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> edges;
  for (int t = 0; t < static_cast<int>(triangles_.size()); ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = triangles_[t][k], b = triangles_[t][(k + 1) % 3];
      edges[{std::min(a, b), std::max(a, b)}].push_back({t, k});
    }
  neighbours_.assign(triangles_.size(), {-1, -1, -1});
  for (const auto& [e, users] : edges) {
    if (users.size() != 2) continue;
    neighbours_[users[0].first][users[0].second] = users[1].first;
    neighbours_[users[1].first][users[1].second] = users[0].first;
  }
  // one-rings (in increasing order: deterministic) and owners, for the vertex regions
  const int nv = static_cast<int>(vertices_.size());
  const int nt = static_cast<int>(triangles_.size());
  vertex_owner_.assign(nv, -1);
  face_offsets_.assign(nv + 1, 0);
  for (int t = nt - 1; t >= 0; --t) {
    for (int k = 0; k < 3; ++k) {
      vertex_owner_[triangles_[t][k]] = t;
      ++face_offsets_[triangles_[t][k] + 1];
    }
  }
  for (int v = 0; v < nv; ++v) face_offsets_[v + 1] += face_offsets_[v];
  ring_faces_.resize(face_offsets_[nv]);
  std::vector<int> fill(face_offsets_.begin(), face_offsets_.end() - 1);
  for (int t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) ring_faces_[fill[triangles_[t][k]]++] = t;
  ring_offsets_.assign(nv + 1, 0);
  for (const auto& [e, users] : edges) ++ring_offsets_[e.first + 1], ++ring_offsets_[e.second + 1];
  for (int v = 0; v < nv; ++v) ring_offsets_[v + 1] += ring_offsets_[v];
  ring_vertices_.resize(ring_offsets_[nv]);
  fill.assign(ring_offsets_.begin(), ring_offsets_.end() - 1);
  for (const auto& [e, users] : edges) {
    ring_vertices_[fill[e.first]++] = e.second;
    ring_vertices_[fill[e.second]++] = e.first;
  }
  std::vector<Vec3> centres(triangles_.size());
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    centres[t] = (vertices_[triangles_[t][0]] + vertices_[triangles_[t][1]] +
                  vertices_[triangles_[t][2]]) / 3.0;
  leaf_triangles_.resize(triangles_.size());
  for (std::uint32_t t = 0; t < leaf_triangles_.size(); ++t) leaf_triangles_[t] = t;
  try {
    hull_ = std::make_shared<ConvexHull>(convex_hull(vertices_, "triangle mesh vertices"));
  } catch (const std::invalid_argument&) {
    hull_.reset();  // coplanar or collinear vertices: no solid hull
  }
  nodes_.reserve(2 * triangles_.size());
  build_node(0, static_cast<std::uint32_t>(triangles_.size()), centres);
}

void TriangleMesh::build_node(std::uint32_t begin, std::uint32_t end,
                              const std::vector<Vec3>& centres) {
  const std::uint32_t self = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  Vec3 clo = lo, chi = hi;
  for (std::uint32_t i = begin; i < end; ++i) {
    const auto& t = triangles_[leaf_triangles_[i]];
    for (int k = 0; k < 3; ++k) lo = lo.cwiseMin(vertices_[t[k]]), hi = hi.cwiseMax(vertices_[t[k]]);
    clo = clo.cwiseMin(centres[leaf_triangles_[i]]), chi = chi.cwiseMax(centres[leaf_triangles_[i]]);
  }
  nodes_[self].min = lo, nodes_[self].max = hi;
  if (end - begin <= kLeafSize) {
    nodes_[self].first = begin, nodes_[self].count = end - begin;
    return;
  }
  int axis = 0;
  const Vec3 span = chi - clo;
  for (int k = 1; k < 3; ++k)
    if (span[k] > span[axis]) axis = k;
  const std::uint32_t mid = begin + (end - begin) / 2;
  // median split; ties broken by triangle index, so the tree is deterministic
  std::nth_element(leaf_triangles_.begin() + begin, leaf_triangles_.begin() + mid,
                   leaf_triangles_.begin() + end, [&](std::uint32_t a, std::uint32_t b) {
                     if (centres[a][axis] != centres[b][axis]) return centres[a][axis] < centres[b][axis];
                     return a < b;
                   });
  build_node(begin, mid, centres);
  nodes_[self].first = static_cast<std::uint32_t>(nodes_.size());
  nodes_[self].count = 0;
  build_node(mid, end, centres);
}

void TriangleMesh::translate(const Vec3& offset) {
  for (Vec3& v : vertices_) v += offset;
  for (Node& n : nodes_) n.min += offset, n.max += offset;
  if (hull_) hull_->translate(offset);
}

}  // namespace torsion
