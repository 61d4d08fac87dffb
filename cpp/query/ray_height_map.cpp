// Ray against a heightmap: clip the ray to the grid's rectangle, then visit the cells it crosses
// in order (Amanatides and Woo's 2-D DDA) and intersect each cell's two triangles (Moller and
// Trumbore). Cells are visited front to back and a hit lies inside its cell's stretch of the ray,
// so the first cell with a hit holds the closest one.
#include <algorithm>
#include <cmath>

#include "geometry/height_map.hpp"
#include "query/ray_mesh.hpp"
#include "query/ray_shapes.hpp"

namespace torsion {

bool ray_height_map(const Shape& shape, const Pose& pose, const Vec3& start, const Vec3& dir,
                    double length, ShapeRayHit& hit) {
  const HeightMapData& h = *shape.height_map;
  if (!h.has_finite_sample()) return false;
  const Vec3 o = start - pose.position;  // never rotated
  // clip [0, length] to the rectangle |x| <= xs/2, |y| <= ys/2 and the band of heights
  double t0 = 0.0, t1 = length;
  const double lo[3] = {-0.5 * h.x_size(), -0.5 * h.y_size(), h.min_height()};
  const double hi[3] = {0.5 * h.x_size(), 0.5 * h.y_size(), h.max_height()};
  for (int k = 0; k < 3; ++k) {
    if (dir[k] == 0.0) {
      if (o[k] < lo[k] || o[k] > hi[k]) return false;
      continue;
    }
    double a = (lo[k] - o[k]) / dir[k], b = (hi[k] - o[k]) / dir[k];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a), t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  // DDA in cell units
  const double inv_dx = 1.0 / h.dx(), inv_dy = 1.0 / h.dy();
  const Vec3 p0 = o + t0 * dir;
  const int last_i = h.x_samples() - 2, last_j = h.y_samples() - 2;
  int ci = std::clamp(static_cast<int>(std::floor((p0.x() - lo[0]) * inv_dx)), 0, last_i);
  int cj = std::clamp(static_cast<int>(std::floor((p0.y() - lo[1]) * inv_dy)), 0, last_j);
  const int step_i = dir.x() > 0.0 ? 1 : -1, step_j = dir.y() > 0.0 ? 1 : -1;
  // ray parameter at the next cell boundary along x and y, and the parameter per cell
  auto next_t = [&](int c, int step, double origin, double lo_k, double cell, double dk) -> double {
    if (dk == 0.0) return INFINITY;
    const double boundary = lo_k + (c + (step > 0 ? 1 : 0)) * cell;
    return (boundary - origin) / dk;
  };
  double tx = next_t(ci, step_i, o.x(), lo[0], h.dx(), dir.x());
  double ty = next_t(cj, step_j, o.y(), lo[1], h.dy(), dir.y());
  const double dtx = dir.x() == 0.0 ? INFINITY : h.dx() / std::abs(dir.x());
  const double dty = dir.y() == 0.0 ? INFINITY : h.dy() / std::abs(dir.y());
  // round-off of a hit at the start (a ray starting on the surface), relative to the clipped
  // segment and the start: with the requested length (inf, or 1e9) it accepted triangles behind
  // the start and reported them as a hit at 0
  const double tol = 1e-9 * (1.0 + o.cwiseAbs().maxCoeff() + t1);
  // The band clip's far end is where the ray reaches the lowest height (a downward ray): a hit on
  // terrain at that height, the whole of a flat map, lies there up to round-off, and was dropped
  // when it rounded past it (a quarter of the vertical rays onto a flat 41 x 41 map missed). The
  // same tolerance as at the start, within the requested length.
  const double t_end = std::min(t1 + tol, length);
  // A ray along a grid line (a height scan's vertical rays on a regular grid) lies on the edge
  // two cells share, and one of them is never visited when the ray does not cross it: rounding
  // of the line's position or of the edge test then put the ray a hair outside the visited
  // cell's triangles, and it missed the terrain (10 of 7800 such rays). The visited cell's
  // triangles accept a ray this far (in barycentric units) outside their edges.
  constexpr double kEdgeSlack = 1e-9;
  while (true) {
    double best = INFINITY;
    Vec3 best_n = Vec3::UnitZ();
    for (int t = 0; t < 2; ++t) {
      Vec3 c[3];
      double th;
      if (!h.triangle(ci, cj, t, c)) continue;  // a hole: the ray passes
      if (ray_triangle(o, dir, c[0], c[1], c[2], th, kEdgeSlack) && th >= t0 - tol && th <= t_end &&
          th < best) {
        best = th;
        best_n = (c[1] - c[0]).cross(c[2] - c[0]).normalized();
      }
    }
    if (best < INFINITY) {
      hit.t = std::max(best, 0.0);
      hit.normal = best_n;
      return true;
    }
    // step to the neighbouring cell the ray enters next
    if (tx <= ty) {
      if (tx > t1) return false;
      ci += step_i, tx += dtx;
      if (ci < 0 || ci > last_i) return false;
    } else {
      if (ty > t1) return false;
      cj += step_j, ty += dty;
      if (cj < 0 || cj > last_j) return false;
    }
  }
}

}  // namespace torsion
