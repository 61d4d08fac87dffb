// Closest points between points and line segments (Ericson, Real-Time Collision Detection, 5.1).
#pragma once

#include "math/types.hpp"

namespace torsion {

// parameter t in [0, 1] of the point of segment p + t (q - p) closest to x
double closest_on_segment(const Vec3& p, const Vec3& q, const Vec3& x);

// closest points c1 = p1 + s d1 and c2 = p2 + t d2 (s, t in [0, 1]) between segments
// [p1, q1] and [p2, q2]; degenerate (zero-length) segments are handled
void closest_segment_segment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2,
                             double& s, double& t);

// a unit vector perpendicular to v (v need not be unit, must be non-zero); deterministic
Vec3 any_perpendicular(const Vec3& v);

// the segment of a capsule (axis along body z, half length h/2) in the world
inline void capsule_segment(double height, const Mat3& r, const Vec3& c, Vec3& p, Vec3& q) {
  const Vec3 half = r.col(2) * (0.5 * height);
  p = c - half;
  q = c + half;
}

}  // namespace torsion
