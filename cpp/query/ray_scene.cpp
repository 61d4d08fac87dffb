#include "query/ray_scene.hpp"

#include <algorithm>
#include <cmath>

#include "query/ray_shapes.hpp"
#include "query/slab.hpp"

namespace torsion {

namespace {

constexpr std::uint32_t kLeafSize = 2;

}  // namespace

Vec3 normalized_ray_direction(const Vec3& direction) {
  // the common case, a direction of ordinary length: one square root and one division (a batch
  // of 10k rays spent 7 % of its time here with the scaled form below, which divides six times)
  const double n2 = direction.squaredNorm();
  if (n2 > 1e-200 && n2 < 1e200) return direction * (1.0 / std::sqrt(n2));
  // scaled first: the squared norm of (1e-200, 0, 0) underflows to 0 and that of (1e160, 0, 0)
  // overflows, and both rays went up (+z, the zero vector's direction)
  const double scale = direction.cwiseAbs().maxCoeff();
  if (!(scale > 0.0) || !std::isfinite(scale)) return Vec3::UnitZ();
  const Vec3 d = direction / scale;
  return d / d.norm();
}

void RayScene::build(const std::vector<RayCastBody>& bodies, std::vector<RaySurface>&& surfaces) {
  build(bodies);
  surfaces_ = std::move(surfaces);
  for (RaySurface& s : surfaces_) s.build();
}

void RayScene::build(const std::vector<RayCastBody>& bodies) {
  bodies_ = bodies;
  surfaces_.clear();
  const auto n = static_cast<std::uint32_t>(bodies_.size());
  boxes_.resize(n);
  centres_.resize(n);
  unbounded_.clear();
  leaf_bodies_.clear();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!shape_is_bounded(bodies_[i].shape)) {
      unbounded_.push_back(i);
      continue;
    }
    boxes_[i] = shape_aabb(bodies_[i].shape, bodies_[i].pose, 0.0);
    centres_[i] = 0.5 * (boxes_[i].min + boxes_[i].max);
    leaf_bodies_.push_back(i);
  }
  nodes_.clear();
  if (!leaf_bodies_.empty()) build_node(0, static_cast<std::uint32_t>(leaf_bodies_.size()));
}

// top-down median split along the widest spread of the centres; the order is a total order on
// (centre, body index), so the tree is the same on every run
void RayScene::build_node(std::uint32_t begin, std::uint32_t end) {
  const auto self = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({});
  Vec3 lo = boxes_[leaf_bodies_[begin]].min, hi = boxes_[leaf_bodies_[begin]].max;
  Vec3 c_lo = centres_[leaf_bodies_[begin]], c_hi = c_lo;
  for (std::uint32_t k = begin + 1; k < end; ++k) {
    const std::uint32_t b = leaf_bodies_[k];
    lo = lo.cwiseMin(boxes_[b].min);
    hi = hi.cwiseMax(boxes_[b].max);
    c_lo = c_lo.cwiseMin(centres_[b]);
    c_hi = c_hi.cwiseMax(centres_[b]);
  }
  nodes_[self].min = lo;
  nodes_[self].max = hi;
  if (end - begin <= kLeafSize) {
    nodes_[self].first = begin;
    nodes_[self].count = end - begin;
    return;
  }
  int axis = 0;
  (c_hi - c_lo).maxCoeff(&axis);
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(leaf_bodies_.begin() + begin, leaf_bodies_.begin() + mid,
                   leaf_bodies_.begin() + end, [&](std::uint32_t a, std::uint32_t b) {
                     const double ca = centres_[a][axis], cb = centres_[b][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  build_node(begin, mid);  // the left child is the next node
  nodes_[self].first = static_cast<std::uint32_t>(nodes_.size());
  nodes_[self].count = 0;
  build_node(mid, end);
}

bool RayScene::cast(const Vec3& start, const Vec3& dir, double length, const RayFilter& filter,
                    RayHit& hit) const {
  if (!(length > 0.0)) return false;
  double best = length;
  bool found = false;
  hit.surface = -1;
  hit.triangle = -1;
  // the deformables' surfaces first (a few, each behind its box), then the bodies: a body hit
  // replaces a surface hit only when strictly closer
  for (std::size_t k = 0; k < surfaces_.size(); ++k) {
    const RaySurface& s = surfaces_[k];
    if (filter.skips(s) || s.triangles.empty()) continue;
    const Vec3 inv_d(1.0 / dir.x(), 1.0 / dir.y(), 1.0 / dir.z());
    if (slab_entry(s.bounds().min, s.bounds().max, start, inv_d, best) > best) continue;
    double t = 0.0;
    Vec3 n;
    std::uint32_t tri = 0;
    if (s.cast(start, dir, best, t, n, tri) && (!found || t < best)) {
      best = t;
      found = true;
      hit.distance = t;
      hit.normal = n;
      hit.body = 0;
      hit.surface = static_cast<std::int32_t>(k);
      hit.triangle = tri;
    }
  }
  auto test = [&](std::uint32_t b) {
    const RayCastBody& body = bodies_[b];
    if (filter.skips(body)) return;
    ShapeRayHit h;
    if (ray_shape(body.shape, body.pose, start, dir, best, h) && (!found || h.t < best)) {
      best = h.t;
      found = true;
      hit.distance = h.t;
      hit.normal = h.normal;
      hit.body = b;
      hit.surface = -1;
      hit.triangle = -1;
    }
  };
  for (const std::uint32_t b : unbounded_) test(b);

  if (!nodes_.empty()) {
    // a zero direction component gives an infinite inverse; slab_entry's comparisons ignore the
    // NaN of 0 * inf, which makes a face the ray runs along count as touched (boundary inclusive)
    const Vec3 inv_d(1.0 / dir.x(), 1.0 / dir.y(), 1.0 / dir.z());
    // (node, entry distance) pairs: a popped node is skipped without a second slab test when a
    // closer hit has been found since it was pushed
    std::uint32_t stack[64];
    double stack_t[64];
    int top = 0;
    const double t_root = slab_entry(nodes_[0].min, nodes_[0].max, start, inv_d, best);
    if (t_root <= best) {
      stack[top] = 0;
      stack_t[top++] = t_root;
    }
    while (top > 0) {
      --top;
      if (stack_t[top] > best) continue;  // a closer hit came
      const std::uint32_t index = stack[top];
      const Node& node = nodes_[index];
      if (node.count > 0) {
        for (std::uint32_t k = 0; k < node.count; ++k) test(leaf_bodies_[node.first + k]);
        continue;
      }
      const std::uint32_t left = index + 1;
      const std::uint32_t right = node.first;
      const double tl = slab_entry(nodes_[left].min, nodes_[left].max, start, inv_d, best);
      const double tr = slab_entry(nodes_[right].min, nodes_[right].max, start, inv_d, best);
      // push the farther child first, so the nearer one is visited first
      const bool left_first = tl <= tr;
      const std::uint32_t near_node = left_first ? left : right, far_node = left_first ? right : left;
      const double t_near = left_first ? tl : tr, t_far = left_first ? tr : tl;
      if (t_far <= best) {
        stack[top] = far_node;
        stack_t[top++] = t_far;
      }
      if (t_near <= best) {
        stack[top] = near_node;
        stack_t[top++] = t_near;
      }
    }
  }
  if (found) hit.position = start + hit.distance * dir;
  return found;
}

}  // namespace torsion
