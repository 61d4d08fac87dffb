#include "collision/manifold.hpp"

#include <algorithm>
#include <cmath>

#include "collision/segment.hpp"  // any_perpendicular
#include "core/cpu_dispatch.hpp"

namespace torsion {

void cull_manifold(Manifold& m, double margin) {
  int n = 0;
  for (int i = 0; i < m.count; ++i) {
    if (!(m.points[i].depth >= -margin)) continue;
    if (n != i) m.points[n] = m.points[i];  // (a kept point before the first dropped one stays)
    ++n;
  }
  m.count = n;
}

namespace {

// a point of the contact plane
struct Point2 {
  double x, y;
};

double cross(const Point2& o, const Point2& a, const Point2& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// How much the area of the convex polygon h[0..k) (counter-clockwise; k = 1: a point, k = 2: a
// segment, both ways round) grows when q joins it: the triangles q makes with the edges it sees
double area_gain(const Point2* h, int k, const Point2& q) {
  if (k < 2) return 0.0;
  if (k == 2) return 0.5 * std::abs(cross(h[0], h[1], q));
  double gain = 0.0;
  for (int i = 0; i < k; ++i) gain += std::max(0.0, -cross(h[i], h[(i + 1) % k], q));
  return 0.5 * gain;
}

// the convex hull of p[0..n) (n <= kMaxManifoldPoints), counter-clockwise, into h; returns its
// size (monotone chain; collinear points dropped)
int convex_hull(Point2* p, int n, Point2* h) {
  std::sort(p, p + n, [](const Point2& a, const Point2& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  if (n < 3) {
    for (int i = 0; i < n; ++i) h[i] = p[i];
    return n;
  }
  Point2 chain[2 * kMaxManifoldPoints];
  int k = 0;
  for (int i = 0; i < n; ++i) {  // lower
    while (k >= 2 && cross(chain[k - 2], chain[k - 1], p[i]) <= 0.0) --k;
    chain[k++] = p[i];
  }
  for (int i = n - 2, lower = k + 1; i >= 0; --i) {  // upper
    while (k >= lower && cross(chain[k - 2], chain[k - 1], p[i]) <= 0.0) --k;
    chain[k++] = p[i];
  }
  --k;  // the last point is the first
  for (int i = 0; i < k; ++i) h[i] = chain[i];
  return k;
}

// How much a point counts in the reduction, from its gap (-depth): 1 for a point that touches or
// penetrates, falling off over kTouchGap to exp(-kMaxGapPenalty) (4.5e-5) beyond
// kMaxGapPenalty * kTouchGap = 50 um. A point tens of micrometres above the surface carries no
// load this step, while a touching one may carry the body: picked by spread alone, a tilted face
// resting on two corners would keep the speculative corners on the far side instead of a touching
// point near the deepest one, and the support polygon would change whenever another point
// became the deepest by a nanometre (a box in a pile rocked for over 12 s that way). Among points
// that all touch, or all hover, the factor is equal and spread alone decides.
constexpr double kTouchGap = 5e-6;  // m
constexpr double kMaxGapPenalty = 10.0;

double touch_weight(double depth) {
  return std::exp(-std::min(std::max(-depth, 0.0) / kTouchGap, kMaxGapPenalty));
}

}  // namespace

namespace {

// (the body of reduce_manifold, built twice: core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE void reduce_manifold_body(Manifold& m, int max_points,
                                                const double* rank_depth, int growing_beyond) {
  if (m.count <= max_points) return;
  if (max_points < 1) max_points = 1;
  bool taken[kMaxManifoldPoints] = {};
  int picked[kMaxManifoldPoints] = {};
  int np = 0;
  double depth[kMaxManifoldPoints];
  for (int i = 0; i < m.count; ++i) depth[i] = rank_depth ? rank_depth[i] : m.points[i].depth;
  // 1. the deepest point
  int best = 0;
  for (int i = 1; i < m.count; ++i)
    if (depth[i] > depth[best]) best = i;
  picked[np++] = best;
  taken[best] = true;
  // the contact plane's coordinates of every point
  const Vec3 n = m.points[best].normal;
  const Vec3 t1 = any_perpendicular(n), t2 = n.cross(t1);
  Point2 q[kMaxManifoldPoints] = {};
  for (int i = 0; i < m.count; ++i)
    q[i] = {m.points[i].position.dot(t1), m.points[i].position.dot(t2)};
  auto dist2 = [&q](int i, int j) {
    const double dx = q[i].x - q[j].x, dy = q[i].y - q[j].y;
    return dx * dx + dy * dy;
  };
  double weight[kMaxManifoldPoints];
  for (int i = 0; i < m.count; ++i) weight[i] = touch_weight(depth[i]);
  // 2. the farthest from it (distance squared times the touch weight)
  if (np < max_points) {
    int far = -1;
    double far_d = -1.0;
    for (int i = 0; i < m.count; ++i) {
      if (taken[i]) continue;
      const double dd = dist2(i, best) * weight[i];
      if (dd > far_d) far_d = dd, far = i;
    }
    picked[np++] = far;
    taken[far] = true;
  }
  // 3. the rest: each the point that grows the polygon of the points picked so far the most
  // (the largest triangle with the first two, then the largest area added to the hull; times
  // the touch weight), so a face keeps its corners and drops the points inside it (a terrain's
  // grid vertices under a box, a clipped polygon's points along an edge); once no point adds
  // area (all inside, or on a line), the one farthest from every picked point
  Point2 hull[kMaxManifoldPoints] = {}, scratch[kMaxManifoldPoints];
  int nh = np;  // the first two (one if only one is kept)
  for (int i = 0; i < np; ++i) hull[i] = q[picked[i]];
  // areas below this (m^2, a 0.1 um sliver along 10 cm) are round-off: such a point adds nothing
  constexpr double kNoArea = 1e-14;
  while (np < max_points) {
    int pick = -1;
    double pick_score = 0.0;
    for (int i = 0; i < m.count; ++i) {
      if (taken[i]) continue;
      const double gain = area_gain(hull, nh, q[i]);
      if (gain > kNoArea && gain * weight[i] > pick_score) pick_score = gain * weight[i], pick = i;
    }
    const bool grows = pick >= 0;
    if (!grows && np >= growing_beyond) break;
    if (!grows) {
      pick_score = -1.0;
      for (int i = 0; i < m.count; ++i) {
        if (taken[i]) continue;
        double dmin = INFINITY;  // distance to the nearest picked point, squared
        for (int a = 0; a < np; ++a) dmin = std::min(dmin, dist2(i, picked[a]));
        if (dmin > pick_score) pick_score = dmin, pick = i;
      }
    }
    if (pick < 0) break;
    picked[np++] = pick;
    taken[pick] = true;
    if (grows) {
      for (int i = 0; i < nh; ++i) scratch[i] = hull[i];
      scratch[nh] = q[pick];
      nh = convex_hull(scratch, nh + 1, hull);
    }
  }
  ManifoldPoint kept[kMaxManifoldPoints];
  for (int i = 0; i < np; ++i) kept[i] = m.points[picked[i]];
  for (int i = 0; i < np; ++i) m.points[i] = kept[i];
  m.count = np;
}

void reduce_manifold_baseline(Manifold& m, int max_points, const double* rank_depth,
                              int growing_beyond) {
  reduce_manifold_body(m, max_points, rank_depth, growing_beyond);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void reduce_manifold_avx2(Manifold& m, int max_points,
                                                                      const double* rank_depth,
                                                                      int growing_beyond) {
  reduce_manifold_body(m, max_points, rank_depth, growing_beyond);
}
#endif

}  // namespace

void reduce_manifold(Manifold& m, int max_points, const double* rank_depth,
                     int growing_beyond) {
  if (m.count <= max_points) return;  // (most calls: the body's first test, before the dispatch)
  if (growing_beyond < 0) growing_beyond = max_points;
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return reduce_manifold_avx2(m, max_points, rank_depth, growing_beyond);
#endif
  reduce_manifold_baseline(m, max_points, rank_depth, growing_beyond);
}

void make_room(Manifold& m, int incoming) {
  if (m.count + incoming <= kMaxManifoldPoints) return;
  reduce_manifold(m, std::min(kMaxManifoldPoints / 2, kMaxManifoldPoints - incoming));
}

}  // namespace torsion
