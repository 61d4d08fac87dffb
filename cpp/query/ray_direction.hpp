// The unit direction of a ray, inline for batches: the common case (a direction of ordinary
// length) is one square root and one division, and a batch that normalises several rays in a row
// overlaps them instead of waiting on each behind a call. normalized_ray_direction
// (query/ray_scene.hpp) is this plus the rare cases, so both give the same bits.
#pragma once

#include <cmath>

#include "math/types.hpp"

namespace torsion {

// false (out untouched) when |direction|^2 is outside (1e-200, 1e200): tiny, huge or zero
// directions, which normalized_ray_direction scales first
inline bool unit_ray_direction_common(const Vec3& direction, Vec3& out) {
  const double n2 = direction.squaredNorm();
  if (!(n2 > 1e-200 && n2 < 1e200)) return false;
  out = direction * (1.0 / std::sqrt(n2));
  return true;
}

}  // namespace torsion
