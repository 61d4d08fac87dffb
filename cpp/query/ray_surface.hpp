// A ray target made of a triangle soup that changes every step: a deformable's surface (its
// cloth triangles, or a solid's boundary faces) at the particles' current positions. Built per
// snapshot with a bounding-volume hierarchy over the triangles (median splits), then cast
// against like a triangle mesh shape; a hit names the triangle (its index in `triangles`).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/ids.hpp"
#include "geometry/aabb.hpp"
#include "math/types.hpp"

namespace torsion {

struct RaySurface {
  std::vector<Vec3> vertices;                            // world frame (m)
  std::vector<std::array<std::uint32_t, 3>> triangles;   // indices into vertices
  // true (a cloth): the reported normal faces the ray's start; false (a solid's boundary,
  // triangles ordered outward): the outward normal, as for rigid shapes
  bool two_sided = true;
  CollisionGroup group = 1;
  CollisionGroup mask = kAllGroups;
  ObjectId deformable_id = 0;

  // the hierarchy over the triangles (after the vertices and triangles are set)
  void build();
  const Aabb& bounds() const { return bounds_; }
  // the closest crossing of start + t dir (|dir| = 1) with 0 <= t <= length: its t, unit normal
  // and triangle index
  bool cast(const Vec3& start, const Vec3& dir, double length, double& t, Vec3& normal,
            std::uint32_t& triangle) const;

 private:
  struct Node {
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();
    std::uint32_t first = 0;  // leaf: first entry of order_; inner: the right child
    std::uint32_t count = 0;  // leaf: triangles (> 0); inner: 0 (left child = next node)
  };
  void build_node(std::uint32_t begin, std::uint32_t end, const std::vector<Vec3>& centres,
                  const std::vector<Aabb>& boxes);
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;
  Aabb bounds_;
};

}  // namespace torsion
