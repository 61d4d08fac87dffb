// The slab test of a ray against an axis-aligned box, shared by the ray scene's BVH and the HAL's
// sonar bundles.
#pragma once

#include <algorithm>
#include <limits>

#include "math/types.hpp"

namespace torsion {

// Entry distance of the ray o + t d (inv_d = 1 / d per component) into the box [lo, hi], or +inf
// when it misses the box within [0, t_max]. Written so that a NaN (a ray in the plane of a face)
// leaves the interval unchanged.
inline double slab_entry(const Vec3& lo, const Vec3& hi, const Vec3& o, const Vec3& inv_d,
                         double t_max) {
  double t0 = 0.0, t1 = t_max;
  for (int i = 0; i < 3; ++i) {
    double a = (lo[i] - o[i]) * inv_d[i];
    double b = (hi[i] - o[i]) * inv_d[i];
    if (a > b) std::swap(a, b);
    t0 = a > t0 ? a : t0;
    t1 = b < t1 ? b : t1;
  }
  return t0 <= t1 ? t0 : std::numeric_limits<double>::infinity();
}

}  // namespace torsion
