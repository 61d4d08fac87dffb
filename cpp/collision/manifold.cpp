#include "collision/manifold.hpp"

#include <algorithm>
#include <cmath>

namespace torsion {

void cull_manifold(Manifold& m, double margin) {
  int n = 0;
  for (int i = 0; i < m.count; ++i)
    if (m.points[i].depth >= -margin) m.points[n++] = m.points[i];
  m.count = n;
}

void reduce_manifold(Manifold& m, int max_points) {
  if (m.count <= max_points) return;
  if (max_points < 1) max_points = 1;
  bool taken[kMaxManifoldPoints] = {};
  int picked[kMaxManifoldPoints];
  int np = 0;
  // 1. the deepest point
  int best = 0;
  for (int i = 1; i < m.count; ++i)
    if (m.points[i].depth > m.points[best].depth) best = i;
  picked[np++] = best;
  taken[best] = true;
  const Vec3 n = m.points[best].normal;
  // 2. the farthest from it (in the contact plane)
  if (np < max_points) {
    int far = -1;
    double far_d = -1.0;
    for (int i = 0; i < m.count; ++i) {
      if (taken[i]) continue;
      Vec3 d = m.points[i].position - m.points[best].position;
      d -= d.dot(n) * n;
      const double dd = d.squaredNorm();
      if (dd > far_d) far_d = dd, far = i;
    }
    picked[np++] = far;
    taken[far] = true;
  }
  // 3. the rest: the third point spans the largest triangle with the first two; later points
  // are the farthest from every picked point (in the contact plane)
  while (np < max_points) {
    int pick = -1;
    double pick_score = -1.0;
    for (int i = 0; i < m.count; ++i) {
      if (taken[i]) continue;
      double score;
      if (np == 2) {
        const Vec3 pa = m.points[picked[0]].position, pb = m.points[picked[1]].position;
        score = std::abs((pb - pa).cross(m.points[i].position - pa).dot(n));
      } else {
        // distance to the nearest picked point, squared: spreads the points
        double dmin = INFINITY;
        for (int a = 0; a < np; ++a) {
          Vec3 d = m.points[i].position - m.points[picked[a]].position;
          d -= d.dot(n) * n;
          dmin = std::min(dmin, d.squaredNorm());
        }
        score = dmin;
      }
      if (score > pick_score) pick_score = score, pick = i;
    }
    if (pick < 0) break;
    picked[np++] = pick;
    taken[pick] = true;
  }
  ManifoldPoint kept[kMaxManifoldPoints];
  for (int i = 0; i < np; ++i) kept[i] = m.points[picked[i]];
  for (int i = 0; i < np; ++i) m.points[i] = kept[i];
  m.count = np;
}

}  // namespace torsion
