#include "collision/segment.hpp"

#include <algorithm>
#include <cmath>

#include "core/assert.hpp"

namespace torsion {

double closest_on_segment(const Vec3& p, const Vec3& q, const Vec3& x) {
  const Vec3 d = q - p;
  const double dd = d.squaredNorm();
  if (dd <= 0.0) return 0.0;
  return std::clamp((x - p).dot(d) / dd, 0.0, 1.0);
}

void closest_segment_segment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2,
                             double& s, double& t) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  constexpr double kEps = 1e-300;
  if (a <= kEps && e <= kEps) {
    s = t = 0.0;
    return;
  }
  if (a <= kEps) {
    s = 0.0;
    t = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = d1.dot(r);
  if (e <= kEps) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = d1.dot(d2);
  const double denom = a * e - b * b;  // >= 0, 0 when parallel
  // parallel segments: any s works; pick 0 and let the clamping below find t
  s = denom > 1e-14 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
}

Vec3 any_perpendicular(const Vec3& v) {
  TORSION_ASSERT(v.squaredNorm() > 0.0);  // segment.hpp: v must be non-zero
  // cross with the world axis least aligned with v
  const Vec3 a = v.cwiseAbs();
  Vec3 axis = Vec3::UnitX();
  if (a.y() < a.x() && a.y() <= a.z()) axis = Vec3::UnitY();
  else if (a.z() < a.x() && a.z() < a.y()) axis = Vec3::UnitZ();
  return v.cross(axis).normalized();
}

}  // namespace torsion
