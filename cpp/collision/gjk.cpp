#include <algorithm>
#include <cmath>

#include "collision/gjk_epa.hpp"
#include "geometry/support.hpp"

namespace torsion {

namespace {

struct Simplex {
  int n = 0;
  Vec3 w[4], a[4], b[4];
  void keep(const int* idx, int m) {
    Vec3 w2[4], a2[4], b2[4];
    for (int i = 0; i < m; ++i) w2[i] = w[idx[i]], a2[i] = a[idx[i]], b2[i] = b[idx[i]];
    for (int i = 0; i < m; ++i) w[i] = w2[i], a[i] = a2[i], b[i] = b2[i];
    n = m;
  }
};

// closest point to the origin on the current simplex; reduces the simplex to the vertices that
// support it and returns their barycentric weights in lambda. Returns false if the origin is
// inside the tetrahedron.
bool closest_on_simplex(Simplex& s, Vec3& v, double lambda[4]);

// segment [p, q]: weights and the support set
void closest_segment(Simplex& s, Vec3& v, double lambda[4]) {
  const Vec3 &p = s.w[0], &q = s.w[1];
  const Vec3 d = q - p;
  const double dd = d.squaredNorm();
  const double t = dd > 0.0 ? -p.dot(d) / dd : 0.0;
  if (t <= 0.0) {
    const int k[1] = {0};
    s.keep(k, 1);
    lambda[0] = 1.0;
    v = s.w[0];
  } else if (t >= 1.0) {
    const int k[1] = {1};
    s.keep(k, 1);
    lambda[0] = 1.0;
    v = s.w[0];
  } else {
    lambda[0] = 1.0 - t;
    lambda[1] = t;
    v = p + t * d;
  }
}

// triangle (Ericson 5.1.5, ClosestPtPointTriangle with the point at the origin)
void closest_triangle(Simplex& s, Vec3& v, double lambda[4]) {
  const Vec3 a = s.w[0], b = s.w[1], c = s.w[2];
  const Vec3 ab = b - a, ac = c - a, ap = -a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    const int k[1] = {0};
    s.keep(k, 1), lambda[0] = 1.0, v = a;
    return;
  }
  const Vec3 bp = -b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) {
    const int k[1] = {1};
    s.keep(k, 1), lambda[0] = 1.0, v = b;
    return;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double t = d1 / (d1 - d3);
    const int k[2] = {0, 1};
    s.keep(k, 2), lambda[0] = 1.0 - t, lambda[1] = t, v = a + t * ab;
    return;
  }
  const Vec3 cp = -c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) {
    const int k[1] = {2};
    s.keep(k, 1), lambda[0] = 1.0, v = c;
    return;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double t = d2 / (d2 - d6);
    const int k[2] = {0, 2};
    s.keep(k, 2), lambda[0] = 1.0 - t, lambda[1] = t, v = a + t * ac;
    return;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    const int k[2] = {1, 2};
    s.keep(k, 2), lambda[0] = 1.0 - t, lambda[1] = t, v = b + t * (c - b);
    return;
  }
  const double denom = 1.0 / (va + vb + vc);
  const double lb = vb * denom, lc = vc * denom;
  lambda[0] = 1.0 - lb - lc, lambda[1] = lb, lambda[2] = lc;
  v = a + ab * lb + ac * lc;
}

bool closest_on_simplex(Simplex& s, Vec3& v, double lambda[4]) {
  if (s.n == 1) {
    lambda[0] = 1.0;
    v = s.w[0];
    return true;
  }
  if (s.n == 2) {
    closest_segment(s, v, lambda);
    return true;
  }
  if (s.n == 3) {
    closest_triangle(s, v, lambda);
    return true;
  }
  // tetrahedron: the origin is inside unless some face plane separates it from the opposite
  // vertex; then the answer is the closest of those faces. A flat tetrahedron (four support
  // points on one flat face of A - B, its height round-off) holds no volume: every face plane
  // goes through the other vertex and "separates" nothing, which called apart shapes
  // overlapping (a box 1 mm from a cylinder). The answer is then its closest face.
  static constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  const double size = (s.w[1] - s.w[0]).norm() + (s.w[2] - s.w[0]).norm() +
                      (s.w[3] - s.w[0]).norm();
  bool inside = true;
  double best = INFINITY;
  Simplex best_s;
  Vec3 best_v = Vec3::Zero();
  double best_l[4] = {};
  for (const auto& f : kFaces) {
    const Vec3 &p0 = s.w[f[0]], &p1 = s.w[f[1]], &p2 = s.w[f[2]], &opp = s.w[f[3]];
    const Vec3 nrm = (p1 - p0).cross(p2 - p0);
    const double side_origin = -p0.dot(nrm), side_opp = (opp - p0).dot(nrm);
    const bool flat = std::abs(side_opp) <= 1e-10 * size * nrm.norm();
    if (!flat && side_origin * side_opp >= 0.0) continue;  // origin on the inner side
    inside = false;
    Simplex t;
    const int k[3] = {f[0], f[1], f[2]};
    t.n = 4;
    for (int i = 0; i < 4; ++i) t.w[i] = s.w[i], t.a[i] = s.a[i], t.b[i] = s.b[i];
    t.keep(k, 3);
    Vec3 tv;
    double tl[4] = {};  // closest_triangle writes the first t.n only; the rest are copied below
    closest_triangle(t, tv, tl);
    const double d = tv.squaredNorm();
    if (d < best) {
      best = d, best_s = t, best_v = tv;
      for (int i = 0; i < 4; ++i) best_l[i] = tl[i];
    }
  }
  if (inside) return false;
  s = best_s;
  v = best_v;
  for (int i = 0; i < 4; ++i) lambda[i] = best_l[i];
  return true;
}

}  // namespace

GjkResult gjk_distance(const ConvexQuery& q, int max_iterations) {
  GjkResult r;
  Simplex s;
  auto support = [&](const Vec3& d, Vec3& pa, Vec3& pb) {
    pa = support_core(*q.shape_a, *q.pose_a, d);
    pb = support_core(*q.shape_b, *q.pose_b, -d);
    return Vec3(pa - pb);
  };
  // start from the direction between the centres
  Vec3 d = q.pose_a->position - q.pose_b->position;
  if (d.squaredNorm() < 1e-24) d = Vec3::UnitX();
  s.n = 1;
  s.w[0] = support(-d, s.a[0], s.b[0]);
  Vec3 v = s.w[0];
  double lambda[4] = {1.0, 0.0, 0.0, 0.0};
  const double scale = 1.0 + s.w[0].norm();
  const double kTinySq = 1e-24 * scale * scale;
  bool overlap = false;
  int it = 0;
  for (; it < max_iterations; ++it) {
    const double vv = v.squaredNorm();
    if (vv <= kTinySq) {
      overlap = true;
      break;
    }
    Vec3 pa, pb;
    const Vec3 w = support(-v, pa, pb);
    // the support plane through w bounds the distance from below
    r.lower_bound = std::max(r.lower_bound, v.dot(w) / std::sqrt(vv));
    // no progress towards the origin: v is the closest point (relative tolerance)
    if (vv - v.dot(w) <= 1e-12 * vv) break;
    // a repeated vertex also means convergence
    bool repeated = false;
    for (int i = 0; i < s.n; ++i) repeated |= (s.w[i] - w).squaredNorm() <= 1e-30 * scale;
    if (repeated) break;
    // keep the current simplex: if round-off makes the new one worse, it is the answer
    const Simplex prev = s;
    const Vec3 prev_v = v;
    double prev_lambda[4];
    for (int i = 0; i < 4; ++i) prev_lambda[i] = lambda[i];
    s.w[s.n] = w, s.a[s.n] = pa, s.b[s.n] = pb, ++s.n;
    if (!closest_on_simplex(s, v, lambda)) {
      overlap = true;
      break;
    }
    if (v.squaredNorm() >= vv) {  // no longer decreasing: the round-off floor is reached
      s = prev;
      v = prev_v;
      for (int i = 0; i < 4; ++i) lambda[i] = prev_lambda[i];
      break;
    }
  }
  r.iterations = it;
  r.overlap = overlap;
  r.point_a.setZero();
  r.point_b.setZero();
  for (int i = 0; i < s.n && !overlap; ++i) {
    r.point_a += lambda[i] * s.a[i];
    r.point_b += lambda[i] * s.b[i];
  }
  r.distance = overlap ? 0.0 : v.norm();
  r.simplex_size = s.n;
  for (int i = 0; i < s.n; ++i) r.simplex_w[i] = s.w[i], r.simplex_a[i] = s.a[i], r.simplex_b[i] = s.b[i];
  return r;
}

}  // namespace torsion
