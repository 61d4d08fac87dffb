// A triangle surface for collision (ShapeType::kTriangleMesh): vertices, triangles, the edge
// adjacency (so contact code can tell internal edges from boundary edges) and a bounding-volume
// hierarchy over the triangles (median splits along the longest axis, built once; immutable
// afterwards, so bodies may share one mesh and rays may traverse it from many threads).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "geometry/convex_hull.hpp"
#include "geometry/mesh.hpp"

namespace torsion {

class TriangleMesh {
 public:
  struct Node {
    Vec3 min, max;            // bounds of the triangles below (body frame)
    std::uint32_t first = 0;  // leaf: first entry of leaf_triangles(); inner: right child
    std::uint32_t count = 0;  // leaf: number of triangles (> 0); inner: 0, left child = next
  };

  // validated (validate_mesh); degenerate (zero-area) triangles are dropped
  explicit TriangleMesh(const TriangleMeshData& data);

  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::vector<std::array<int, 3>>& triangles() const { return triangles_; }
  // the triangle across edge k (vertices k, k+1) of triangle t, -1 on a boundary edge or where
  // more than two triangles meet
  int neighbour(int t, int k) const { return neighbours_[t][k]; }
  const Vec3& triangle_normal(int t) const { return normals_[t]; }  // unit, right-hand rule
  // the lowest-index triangle using vertex v (-1 for a vertex no triangle uses): the one triangle
  // that reports v's vertex region, so each vertex is tested once
  int vertex_owner(int v) const { return vertex_owner_[v]; }
  // the one-ring of vertex v: the vertices joined to it by an edge, and the triangles around it
  // (entries [ring_begin(v), ring_begin(v + 1)) of ring_vertices(), and likewise for the faces)
  int ring_begin(int v) const { return ring_offsets_[v]; }
  const std::vector<int>& ring_vertices() const { return ring_vertices_; }
  int faces_begin(int v) const { return face_offsets_[v]; }
  const std::vector<int>& ring_faces() const { return ring_faces_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<std::uint32_t>& leaf_triangles() const { return leaf_triangles_; }
  const Vec3& local_min() const { return nodes_[0].min; }
  const Vec3& local_max() const { return nodes_[0].max; }
  void translate(const Vec3& offset);  // move every vertex (the tree and the hull follow)
  // the convex hull of the vertices (same frame), through which a moving triangle mesh meets
  // heightmaps (pair_triangle_mesh.cpp); null when the vertices span no volume (a flat sheet)
  std::shared_ptr<const ConvexHull> hull() const { return hull_; }

 private:
  void build_node(std::uint32_t begin, std::uint32_t end, const std::vector<Vec3>& centres);

  std::vector<Vec3> vertices_;
  std::vector<std::array<int, 3>> triangles_;
  std::vector<std::array<int, 3>> neighbours_;
  std::vector<Vec3> normals_;
  std::vector<int> vertex_owner_;
  std::vector<int> ring_offsets_, ring_vertices_;  // CSR, vertices + 1 offsets
  std::vector<int> face_offsets_, ring_faces_;     // CSR, vertices + 1 offsets
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> leaf_triangles_;
  std::shared_ptr<ConvexHull> hull_;
};

}  // namespace torsion
