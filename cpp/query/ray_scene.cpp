#include "query/ray_scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#endif

#include "query/ray_direction.hpp"
#include "query/ray_shapes.hpp"
#include "query/slab.hpp"

namespace torsion {

namespace {

constexpr std::uint32_t kLeafSize = 1;
// levels built with the surface-area heuristic; below, median splits halve the bodies, so a tree
// of 2**32 bodies is at most kSahDepth + 32 levels deep (the traversal's stack)
constexpr int kSahDepth = 32;
// the 4-wide tree is no deeper than the binary one it is made from, and a node pushes 3 children
// at most
constexpr int kStackSize = 3 * (kSahDepth + 33) + 1;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Two doubles at once: the traversal tests both children of a node together. SSE2 on x86-64 (every
// x86-64 CPU has it); elsewhere the same operations one lane at a time. max_keep / min_keep return
// `acc` where `a` is NaN (maxpd / minpd return their second operand then), which is how a slab
// test ignores the NaN of a ray lying in the plane of a face.
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
struct D2 {
  __m128d v;
};
inline D2 load2(const double* p) { return {_mm_load_pd(p)}; }
inline D2 splat2(double x) { return {_mm_set1_pd(x)}; }
inline D2 operator-(D2 a, D2 b) { return {_mm_sub_pd(a.v, b.v)}; }
inline D2 operator*(D2 a, D2 b) { return {_mm_mul_pd(a.v, b.v)}; }
inline D2 max_keep(D2 a, D2 acc) { return {_mm_max_pd(a.v, acc.v)}; }
inline D2 min_keep(D2 a, D2 acc) { return {_mm_min_pd(a.v, acc.v)}; }
inline int le_mask(D2 a, D2 b) { return _mm_movemask_pd(_mm_cmple_pd(a.v, b.v)); }
inline void store2(double* p, D2 a) { _mm_storeu_pd(p, a.v); }
#else
struct D2 {
  double x0, x1;
};
inline D2 load2(const double* p) { return {p[0], p[1]}; }
inline D2 splat2(double x) { return {x, x}; }
inline D2 operator-(D2 a, D2 b) { return {a.x0 - b.x0, a.x1 - b.x1}; }
inline D2 operator*(D2 a, D2 b) { return {a.x0 * b.x0, a.x1 * b.x1}; }
inline D2 max_keep(D2 a, D2 acc) {
  return {a.x0 > acc.x0 ? a.x0 : acc.x0, a.x1 > acc.x1 ? a.x1 : acc.x1};
}
inline D2 min_keep(D2 a, D2 acc) {
  return {a.x0 < acc.x0 ? a.x0 : acc.x0, a.x1 < acc.x1 ? a.x1 : acc.x1};
}
inline int le_mask(D2 a, D2 b) { return (a.x0 <= b.x0 ? 1 : 0) | (a.x1 <= b.x1 ? 2 : 0); }
inline void store2(double* p, D2 a) { p[0] = a.x0, p[1] = a.x1; }
#endif

// the set slots of a node's 4-bit child mask ordered by key, nearest first (ties by slot: a
// stable insertion sort); returns how many
inline int order_slots(int mask, const double key[4], int order[4]) {
  int m = 0;
  for (int k = 0; k < 4; ++k) {
    if ((mask & (1 << k)) == 0) continue;
    int j = m++;
    for (; j > 0 && key[order[j - 1]] > key[k]; --j) order[j] = order[j - 1];
    order[j] = k;
  }
  return m;
}

// cast2's slab tests of a 4-wide node's children for both rays: per ray, cast()'s entry (the
// latest near crossing, from 0) and exit (the earliest far one, up to best) of each child, the
// entries stored to t[r] and the children whose entry is not past their exit in mask[r]. With
// kSharedStart (the rays start at the same point) each bound's offset from the start is taken
// once for both rays: the same values, half the subtractions.
template <bool kSharedStart, class Node4>
inline void slabs2(const Node4& node, const int near_side[3], const int far_side[3],
                   const D2 o[2][3], const D2 iv[2][3], const double best[2], double t[2][4],
                   int mask[2]) {
  const D2 zero = splat2(0.0);
  D2 in_a[2], in_b[2], out_a[2], out_b[2];
  for (int r = 0; r < 2; ++r) {
    in_a[r] = zero, in_b[r] = zero;
    out_a[r] = splat2(best[r]), out_b[r] = splat2(best[r]);
  }
  for (int a = 0; a < 3; ++a) {
    const D2 n_a = load2(node.b[near_side[a]]), n_b = load2(node.b[near_side[a]] + 2);
    const D2 f_a = load2(node.b[far_side[a]]), f_b = load2(node.b[far_side[a]] + 2);
    D2 dn_a = n_a - o[0][a], dn_b = n_b - o[0][a], df_a = f_a - o[0][a], df_b = f_b - o[0][a];
    for (int r = 0; r < 2; ++r) {
      if (!kSharedStart && r == 1)
        dn_a = n_a - o[1][a], dn_b = n_b - o[1][a], df_a = f_a - o[1][a], df_b = f_b - o[1][a];
      in_a[r] = max_keep(dn_a * iv[r][a], in_a[r]);
      in_b[r] = max_keep(dn_b * iv[r][a], in_b[r]);
      out_a[r] = min_keep(df_a * iv[r][a], out_a[r]);
      out_b[r] = min_keep(df_b * iv[r][a], out_b[r]);
    }
  }
  for (int r = 0; r < 2; ++r) {
    mask[r] = le_mask(in_a[r], out_a[r]) | (le_mask(in_b[r], out_b[r]) << 2);
    store2(t[r], in_a[r]);
    store2(t[r] + 2, in_b[r]);
  }
}

// half the surface area of a box: the chance that a ray crossing its parent crosses it
double half_area(const Vec3& lo, const Vec3& hi) {
  const Vec3 e = (hi - lo).cwiseMax(0.0);
  return e.x() * e.y() + e.y() * e.z() + e.z() * e.x();
}

}  // namespace

// The hierarchy is built binary (nodes holding the boxes of their two children side by side),
// then collapsed into a 4-wide one that the traversal walks: a node holds the boxes of up to four
// children, tested at once (two pairs), so a ray visits about half as many nodes (the bench's
// 10k rays: 7.6 binary nodes per ray). A child is an inner node (count 0, ref = node index) or a
// leaf (count > 0 bodies at leaf_bodies[ref...]); an unused slot has an empty box (+inf lower,
// -inf upper bounds), which every ray misses.
struct RayScene::Tree {
  struct alignas(16) Node {
    double b[6][2];  // b[2 axis + 0]: the children's lower bounds along axis, b[2 axis + 1]: upper
    std::uint32_t ref[2];
    std::uint32_t count[2];
  };
  struct alignas(16) Node4 {
    double b[6][4];  // as Node's, for four children
    std::uint32_t ref[4];
    std::uint32_t count[4];
  };
  struct Child {
    std::uint32_t ref = 0, count = 0;
  };

  std::vector<Aabb> boxes;               // per body; unbounded bodies excluded from the tree
  std::vector<std::uint32_t> unbounded;  // bodies tested by every ray (the ground)
  std::vector<std::uint32_t> leaf_bodies;
  std::vector<Vec3> centres;             // per body, for the splits
  std::vector<Node> nodes;               // the binary tree, while it is built
  std::vector<Node4> nodes4;             // nodes4[0] is the root (when any body is bounded)

  Child build_range(std::uint32_t begin, std::uint32_t end, int depth, Aabb& box);
  std::uint32_t collapse(std::uint32_t binary_node);
  std::uint32_t sah_split(std::uint32_t begin, std::uint32_t end, const Vec3& c_lo,
                          const Vec3& c_hi);
  static Node4 empty_node4() {
    Node4 n{};
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 4; ++c) n.b[2 * a][c] = kInf, n.b[2 * a + 1][c] = -kInf;
    for (int c = 0; c < 4; ++c) n.ref[c] = 0, n.count[c] = 1;
    return n;
  }
  static void set_child(Node& n, int k, const Child& c, const Aabb& box) {
    for (int a = 0; a < 3; ++a) {
      n.b[2 * a][k] = box.min[a];
      n.b[2 * a + 1][k] = box.max[a];
    }
    n.ref[k] = c.ref;
    n.count[k] = c.count;
  }
};

RayScene::RayScene() : tree_(std::make_unique<Tree>()) {}
RayScene::~RayScene() = default;

Vec3 normalized_ray_direction(const Vec3& direction) {
  // the common case, a direction of ordinary length: one square root and one division (a batch
  // of 10k rays spent 7 % of its time here with the scaled form below, which divides six times)
  Vec3 unit;
  if (unit_ray_direction_common(direction, unit)) return unit;
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
  Tree& t = *tree_;
  const auto n = static_cast<std::uint32_t>(bodies_.size());
  t.boxes.resize(n);
  t.centres.resize(n);
  t.unbounded.clear();
  t.leaf_bodies.clear();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!shape_is_bounded(bodies_[i].shape)) {
      t.unbounded.push_back(i);
      continue;
    }
    t.boxes[i] = shape_aabb(bodies_[i].shape, bodies_[i].pose, 0.0);
    t.centres[i] = 0.5 * (t.boxes[i].min + t.boxes[i].max);
    t.leaf_bodies.push_back(i);
  }
  t.nodes.clear();
  t.nodes4.clear();
  t.nodes.reserve(t.leaf_bodies.size());
  if (t.leaf_bodies.empty()) return;
  Aabb box;
  const auto count = static_cast<std::uint32_t>(t.leaf_bodies.size());
  const Tree::Child top = t.build_range(0, count, 0, box);
  t.nodes4.reserve(t.nodes.size() / 2 + 1);
  if (top.count > 0) {
    // a single leaf: a root whose other slots are empty
    Tree::Node4 root = Tree::empty_node4();
    for (int a = 0; a < 3; ++a) root.b[2 * a][0] = box.min[a], root.b[2 * a + 1][0] = box.max[a];
    root.ref[0] = top.ref;
    root.count[0] = top.count;
    t.nodes4.push_back(root);
  } else {
    t.collapse(top.ref);
  }
}

// The 4-wide node of binary node `k` (appended to nodes4; returns its index): k's children, each
// inner one replaced by its own two children. Depth first, so a subtree's nodes are contiguous.
std::uint32_t RayScene::Tree::collapse(std::uint32_t k) {
  const auto self = static_cast<std::uint32_t>(nodes4.size());
  nodes4.push_back(empty_node4());
  int slot = 0;
  std::uint32_t inner[4];
  int inner_slot[4], n_inner = 0;
  auto put = [&](const Node& from, int c) {
    Node4& n = nodes4[self];
    for (int r = 0; r < 6; ++r) n.b[r][slot] = from.b[r][c];
    n.ref[slot] = from.ref[c];
    n.count[slot] = from.count[c];
    if (from.count[c] == 0) inner[n_inner] = from.ref[c], inner_slot[n_inner++] = slot;
    ++slot;
  };
  const Node node = nodes[k];
  for (int c = 0; c < 2; ++c) {
    if (node.count[c] > 0) {
      put(node, c);
    } else {
      const Node child = nodes[node.ref[c]];
      put(child, 0);
      put(child, 1);
    }
  }
  for (int j = 0; j < n_inner; ++j) {
    const std::uint32_t sub = collapse(inner[j]);
    nodes4[self].ref[inner_slot[j]] = sub;  // (nodes4 may have moved: indexed again)
  }
  return self;
}

// The split of leaf_bodies[begin, end) that the surface-area heuristic prefers: the bodies binned
// by centre along each axis, the cut between bins that minimises area(left) * count(left) +
// area(right) * count(right). Reorders the range (left part first) and returns where the right
// part starts, or `begin` when no cut separates anything (all centres in one bin).
std::uint32_t RayScene::Tree::sah_split(std::uint32_t begin, std::uint32_t end, const Vec3& c_lo,
                                        const Vec3& c_hi) {
  constexpr int kBins = 8;
  double best_cost = kInf;
  int best_axis = -1, best_cut = 0;
  // along the widest spread of the centres only: a third of the work of trying every axis, for
  // trees a ray crosses as fast on the benchmark's scene
  int widest = 0;
  (c_hi - c_lo).maxCoeff(&widest);
  for (int axis = widest; axis == widest; ++axis) {
    const double extent = c_hi[axis] - c_lo[axis];
    if (!(extent > 0.0)) continue;
    const double scale = kBins / extent;
    Vec3 lo[kBins], hi[kBins];
    std::uint32_t count[kBins] = {};
    for (int k = 0; k < kBins; ++k) lo[k] = Vec3::Constant(kInf), hi[k] = Vec3::Constant(-kInf);
    for (std::uint32_t i = begin; i < end; ++i) {
      const std::uint32_t b = leaf_bodies[i];
      const int k = std::min(kBins - 1, static_cast<int>((centres[b][axis] - c_lo[axis]) * scale));
      ++count[k];
      lo[k] = lo[k].cwiseMin(boxes[b].min);
      hi[k] = hi[k].cwiseMax(boxes[b].max);
    }
    // areas and counts to the right of each cut, then a sweep from the left
    double right_cost[kBins];
    Vec3 r_lo = Vec3::Constant(kInf), r_hi = Vec3::Constant(-kInf);
    std::uint32_t r_n = 0;
    for (int k = kBins - 1; k > 0; --k) {
      r_lo = r_lo.cwiseMin(lo[k]), r_hi = r_hi.cwiseMax(hi[k]), r_n += count[k];
      right_cost[k] = r_n > 0 ? half_area(r_lo, r_hi) * r_n : 0.0;
    }
    Vec3 l_lo = Vec3::Constant(kInf), l_hi = Vec3::Constant(-kInf);
    std::uint32_t l_n = 0;
    for (int cut = 1; cut < kBins; ++cut) {  // bins [0, cut) go left
      l_lo = l_lo.cwiseMin(lo[cut - 1]), l_hi = l_hi.cwiseMax(hi[cut - 1]), l_n += count[cut - 1];
      if (l_n == 0 || l_n == end - begin) continue;
      const double cost = half_area(l_lo, l_hi) * l_n + right_cost[cut];
      if (cost < best_cost) best_cost = cost, best_axis = axis, best_cut = cut;
    }
  }
  if (best_axis < 0) return begin;
  const double scale = kBins / (c_hi[best_axis] - c_lo[best_axis]);
  auto goes_left = [&](std::uint32_t b) {
    const double x = (centres[b][best_axis] - c_lo[best_axis]) * scale;
    return std::min(kBins - 1, static_cast<int>(x)) < best_cut;
  };
  const auto mid =
      std::partition(leaf_bodies.begin() + begin, leaf_bodies.begin() + end, goes_left);
  return static_cast<std::uint32_t>(mid - leaf_bodies.begin());
}

// Top-down: the surface-area heuristic's cut while the tree is shallow and it separates
// something, else the median split along the widest spread of the centres (a total order on
// (centre, body index)), which bounds the depth. The same bodies give the same tree on every run.
// Returns the subtree as a child (a leaf, or the index of its node) and its box.
RayScene::Tree::Child RayScene::Tree::build_range(std::uint32_t begin, std::uint32_t end,
                                                   int depth, Aabb& box) {
  Vec3 lo = boxes[leaf_bodies[begin]].min, hi = boxes[leaf_bodies[begin]].max;
  Vec3 c_lo = centres[leaf_bodies[begin]], c_hi = c_lo;
  for (std::uint32_t k = begin + 1; k < end; ++k) {
    const std::uint32_t b = leaf_bodies[k];
    lo = lo.cwiseMin(boxes[b].min);
    hi = hi.cwiseMax(boxes[b].max);
    c_lo = c_lo.cwiseMin(centres[b]);
    c_hi = c_hi.cwiseMax(centres[b]);
  }
  box.min = lo;
  box.max = hi;
  if (end - begin <= kLeafSize) return Child{begin, end - begin};
  // (a few bodies are split at the median: their order matters little, and binning them costs)
  const bool sah = depth < kSahDepth && end - begin > 4;
  std::uint32_t mid = sah ? sah_split(begin, end, c_lo, c_hi) : begin;
  if (mid == begin || mid == end) {
    int axis = 0;
    (c_hi - c_lo).maxCoeff(&axis);
    mid = begin + (end - begin) / 2;
    std::nth_element(leaf_bodies.begin() + begin, leaf_bodies.begin() + mid,
                     leaf_bodies.begin() + end, [&](std::uint32_t a, std::uint32_t b) {
                       const double ca = centres[a][axis], cb = centres[b][axis];
                       return ca < cb || (ca == cb && a < b);
                     });
  }
  const auto self = static_cast<std::uint32_t>(nodes.size());
  nodes.emplace_back();
  Aabb left_box, right_box;
  const Child left = build_range(begin, mid, depth + 1, left_box);
  const Child right = build_range(mid, end, depth + 1, right_box);
  set_child(nodes[self], 0, left, left_box);
  set_child(nodes[self], 1, right, right_box);
  return Child{self, 0};
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
  // The shape tests write into one of two slots: the winner's slot is kept and the next test
  // writes into the other, so nothing is copied per hit. (Copying the hit's normal right after
  // ray_shape had stored it cost a failed store-to-load forward: a third of cast()'s samples sat
  // on that load in the bench.) The winner goes into `hit` once, at the end.
  ShapeRayHit slots[2];
  int next = 0;  // the slot the next test writes into
  bool body_won = false;
  std::uint32_t won_body = 0;
  auto test = [&](std::uint32_t b) {
    const RayCastBody& body = bodies_[b];
    if (filter.skips(body)) return;
    ShapeRayHit& h = slots[next];
    // the ground (every ray tests it) here, as ray_shape does it: z <= height crossed once at
    // most, at t in [0, best]
    bool met;
    if (body.shape.type == ShapeType::kGround) {
      h.t = (body.shape.height - start.z()) / dir.z();
      h.normal = Vec3::UnitZ();
      met = dir.z() != 0.0 && h.t >= 0.0 && h.t < kInf && h.t <= best;
    } else {
      met = ray_shape(body.shape, body.pose, start, dir, best, h);
    }
    // equal distances: the body of the lower index (a surface hit stays), whatever the order
    // the hierarchy visits them in
    if (met &&
        (!found || h.t < best || (h.t == best && body_won && b < won_body))) {
      best = h.t;
      found = true;
      body_won = true;
      won_body = b;
      next ^= 1;
    }
  };
  const Tree& tree = *tree_;
  for (const std::uint32_t b : tree.unbounded) test(b);

  if (!tree.nodes4.empty()) {
    // a zero direction component gives an infinite inverse; the slab tests drop the NaN of
    // 0 * inf, which makes a face the ray runs along count as touched (boundary inclusive)
    const Vec3 inv_d(1.0 / dir.x(), 1.0 / dir.y(), 1.0 / dir.z());
    // per axis, the bound the ray meets first (the lower one when it runs towards +axis)
    int near_side[3], far_side[3];
    for (int a = 0; a < 3; ++a) {
      near_side[a] = 2 * a + (std::signbit(inv_d[a]) ? 1 : 0);
      far_side[a] = 2 * a + (std::signbit(inv_d[a]) ? 0 : 1);
    }
    const D2 ox = splat2(start.x()), oy = splat2(start.y()), oz = splat2(start.z());
    const D2 ix = splat2(inv_d.x()), iy = splat2(inv_d.y()), iz = splat2(inv_d.z());
    const D2 zero = splat2(0.0);
    // children waiting with their entry distance: one popped is skipped without a second test
    // when a closer hit has been found since it was pushed. Three entries per level at most.
    struct Entry {
      std::uint32_t ref, count;
      double t;
    };
    Entry stack[kStackSize];
    int top = 0;
    // read once: the shape tests write through `hit`, which the compiler cannot tell apart
    const Tree::Node4* const nodes = tree.nodes4.data();
    const std::uint32_t* const leaf_bodies = tree.leaf_bodies.data();
    Entry cur{0, 0, 0.0};  // the root
    for (;;) {
      if (cur.count == 0) {
        const Tree::Node4& node = nodes[cur.ref];
        // the four children's slabs, two pairs: entry = the latest near crossing, exit = the
        // earliest far one
        const D2 far = splat2(best);
        D2 in_a = max_keep((load2(node.b[near_side[0]]) - ox) * ix, zero);
        D2 in_b = max_keep((load2(node.b[near_side[0]] + 2) - ox) * ix, zero);
        D2 out_a = min_keep((load2(node.b[far_side[0]]) - ox) * ix, far);
        D2 out_b = min_keep((load2(node.b[far_side[0]] + 2) - ox) * ix, far);
        in_a = max_keep((load2(node.b[near_side[1]]) - oy) * iy, in_a);
        in_b = max_keep((load2(node.b[near_side[1]] + 2) - oy) * iy, in_b);
        out_a = min_keep((load2(node.b[far_side[1]]) - oy) * iy, out_a);
        out_b = min_keep((load2(node.b[far_side[1]] + 2) - oy) * iy, out_b);
        in_a = max_keep((load2(node.b[near_side[2]]) - oz) * iz, in_a);
        in_b = max_keep((load2(node.b[near_side[2]] + 2) - oz) * iz, in_b);
        out_a = min_keep((load2(node.b[far_side[2]]) - oz) * iz, out_a);
        out_b = min_keep((load2(node.b[far_side[2]] + 2) - oz) * iz, out_b);
        const int mask = le_mask(in_a, out_a) | (le_mask(in_b, out_b) << 2);
        if (mask != 0) {
          double t[4];
          store2(t, in_a);
          store2(t + 2, in_b);
          if ((mask & (mask - 1)) == 0) {  // one child
            const int k = mask == 1 ? 0 : mask == 2 ? 1 : mask == 4 ? 2 : 3;
            cur = Entry{node.ref[k], node.count[k], t[k]};
            continue;
          }
          // two or more: nearest first (ties by slot), the others pushed farthest first
          int order[4];
          const int m = order_slots(mask, t, order);
          for (int j = m - 1; j > 0; --j) {
            const int k = order[j];
            stack[top++] = Entry{node.ref[k], node.count[k], t[k]};
          }
          const int k = order[0];
          cur = Entry{node.ref[k], node.count[k], t[k]};
          continue;
        }
      } else {
        for (std::uint32_t k = 0; k < cur.count; ++k) test(leaf_bodies[cur.ref + k]);
      }
      // the next waiting child that may still hold a closer hit
      while (top > 0 && stack[top - 1].t > best) --top;
      if (top == 0) break;
      cur = stack[--top];
    }
  }
  if (body_won) {
    const ShapeRayHit& h = slots[next ^ 1];
    hit.distance = h.t;
    hit.normal = h.normal;
    hit.body = won_body;
    hit.surface = -1;
    hit.triangle = -1;
  }
  if (found) hit.position = start + hit.distance * dir;
  return found;
}

void RayScene::cast2(const Vec3 start[2], const Vec3 dir[2], const double length[2],
                     const RayFilter& filter, RayHit hit[2], bool found[2]) const {
  const Tree& tree = *tree_;
  const Vec3 inv_d[2] = {Vec3(1.0 / dir[0].x(), 1.0 / dir[0].y(), 1.0 / dir[0].z()),
                         Vec3(1.0 / dir[1].x(), 1.0 / dir[1].y(), 1.0 / dir[1].z())};
  bool together = surfaces_.empty() && length[0] > 0.0 && length[1] > 0.0;
  for (int a = 0; a < 3 && together; ++a)
    together = std::signbit(inv_d[0][a]) == std::signbit(inv_d[1][a]);
  if (!together) {
    for (int r = 0; r < 2; ++r) found[r] = cast(start[r], dir[r], length[r], filter, hit[r]);
    return;
  }
  // per ray, as cast(): the closest hit so far, the two hit slots and the winner
  double best[2] = {length[0], length[1]};
  ShapeRayHit slots[2][2];
  int next[2] = {0, 0};
  bool won[2] = {false, false};
  std::uint32_t won_body[2] = {0, 0};
  auto test = [&](int r, std::uint32_t b) {
    const RayCastBody& body = bodies_[b];
    if (filter.skips(body)) return;
    ShapeRayHit& h = slots[r][next[r]];
    bool met;
    if (body.shape.type == ShapeType::kGround) {
      h.t = (body.shape.height - start[r].z()) / dir[r].z();
      h.normal = Vec3::UnitZ();
      met = dir[r].z() != 0.0 && h.t >= 0.0 && h.t < kInf && h.t <= best[r];
    } else {
      met = ray_shape(body.shape, body.pose, start[r], dir[r], best[r], h);
    }
    if (met && (!won[r] || h.t < best[r] || (h.t == best[r] && b < won_body[r]))) {
      best[r] = h.t;
      won[r] = true;
      won_body[r] = b;
      next[r] ^= 1;
    }
  };
  for (const std::uint32_t b : tree.unbounded) test(0, b), test(1, b);

  if (!tree.nodes4.empty()) {
    int near_side[3], far_side[3];  // shared: the rays' directions agree in sign
    for (int a = 0; a < 3; ++a) {
      near_side[a] = 2 * a + (std::signbit(inv_d[0][a]) ? 1 : 0);
      far_side[a] = 2 * a + (std::signbit(inv_d[0][a]) ? 0 : 1);
    }
    D2 o[2][3], iv[2][3];
    for (int r = 0; r < 2; ++r)
      for (int a = 0; a < 3; ++a) o[r][a] = splat2(start[r][a]), iv[r][a] = splat2(inv_d[r][a]);
    // rays from one point (a sensor's): each bound's offset from the start serves both rays
    const bool shared_start = start[0] == start[1];
    // a waiting child with each ray's entry distance (+inf for a ray that misses its box)
    struct Entry {
      std::uint32_t ref, count;
      double t[2];
    };
    Entry stack[kStackSize];
    int top = 0;
    const Tree::Node4* const nodes = tree.nodes4.data();
    const std::uint32_t* const leaf_bodies = tree.leaf_bodies.data();
    Entry cur{0, 0, {0.0, 0.0}};  // the root
    for (;;) {
      if (cur.count == 0) {
        const Tree::Node4& node = nodes[cur.ref];
        // cast()'s slab tests of the four children, for each ray
        double t[2][4];
        int mask[2];
        if (shared_start)
          slabs2<true>(node, near_side, far_side, o, iv, best, t, mask);
        else
          slabs2<false>(node, near_side, far_side, o, iv, best, t, mask);
        const int any = mask[0] | mask[1];
        if (any != 0) {
          // each ray's entry, +inf where it misses; the children ordered by the nearer of the two
          double key[4];
          for (int k = 0; k < 4; ++k) {
            for (int r = 0; r < 2; ++r)
              if ((mask[r] & (1 << k)) == 0) t[r][k] = kInf;
            key[k] = t[0][k] < t[1][k] ? t[0][k] : t[1][k];
          }
          int order[4];
          const int m = order_slots(any, key, order);
          for (int j = m - 1; j > 0; --j) {
            const int k = order[j];
            stack[top++] = Entry{node.ref[k], node.count[k], {t[0][k], t[1][k]}};
          }
          const int k = order[0];
          cur = Entry{node.ref[k], node.count[k], {t[0][k], t[1][k]}};
          continue;
        }
      } else {
        // the bodies, for each ray whose entry into the leaf's box is not beyond its best hit
        for (std::uint32_t k = 0; k < cur.count; ++k) {
          const std::uint32_t b = leaf_bodies[cur.ref + k];
          if (cur.t[0] <= best[0]) test(0, b);
          if (cur.t[1] <= best[1]) test(1, b);
        }
      }
      while (top > 0 && stack[top - 1].t[0] > best[0] && stack[top - 1].t[1] > best[1]) --top;
      if (top == 0) break;
      cur = stack[--top];
    }
  }
  for (int r = 0; r < 2; ++r) {
    found[r] = won[r];
    hit[r].surface = -1;
    hit[r].triangle = -1;
    if (!won[r]) continue;
    const ShapeRayHit& h = slots[r][next[r] ^ 1];
    hit[r].distance = h.t;
    hit[r].normal = h.normal;
    hit[r].body = won_body[r];
    hit[r].position = start[r] + h.t * dir[r];
  }
}

}  // namespace torsion
