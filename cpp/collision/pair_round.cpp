// Exact routines for the round shapes: sphere-sphere, sphere-capsule, capsule-capsule. A capsule
// is a segment swept by a sphere, so each reduces to the closest points of a point or segment.
#include <cmath>

#include "collision/narrow_phase.hpp"
#include "collision/segment.hpp"

namespace torsion {

namespace {

// contact between two spheres of radii ra (centre ca, on A) and rb (centre cb, on B).
// Concentric spheres get the normal `fallback`.
void sphere_pair(const Vec3& ca, double ra, const Vec3& cb, double rb, const Vec3& fallback,
                 std::uint32_t feature, Manifold& out) {
  const Vec3 d = ca - cb;
  const double dist = d.norm();
  const Vec3 n = dist > 1e-12 ? Vec3(d / dist) : fallback;
  out.add_from_b(cb + rb * n, n, ra + rb - dist, feature);
}

}  // namespace

void collide_sphere_sphere(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                           const ContactSettings&, Manifold& out) {
  sphere_pair(pa.position, a.radius, pb.position, b.radius, Vec3::UnitZ(), 0, out);
}

void collide_sphere_capsule(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                            const ContactSettings&, Manifold& out) {
  Vec3 p, q;
  capsule_segment(b.height, pb.rotation, pb.position, p, q);
  const double t = closest_on_segment(p, q, pa.position);
  // a sphere centre on the capsule's axis: push it out sideways (capsule's body x)
  sphere_pair(pa.position, a.radius, p + t * (q - p), b.radius, pb.rotation.col(0), 0, out);
}

void collide_capsule_capsule(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                             const ContactSettings& settings, Manifold& out) {
  Vec3 p1, q1, p2, q2;
  capsule_segment(a.height, pa.rotation, pa.position, p1, q1);
  capsule_segment(b.height, pb.rotation, pb.position, p2, q2);
  const Vec3 d1 = q1 - p1, d2 = q2 - p2;
  const double l1 = d1.norm(), l2 = d2.norm();
  // nearly parallel axes whose projections overlap: a line contact, reported by its two ends
  if (l1 > 1e-9 && l2 > 1e-9) {
    const Vec3 u1 = d1 / l1, u2 = d2 / l2;
    const double sin_angle = u1.cross(u2).norm();
    if (sin_angle < std::sin(settings.flat_tolerance)) {
      // overlap of segment 1 with segment 2's extent, measured along u2
      const double s_p = (p1 - p2).dot(u2), s_q = (q1 - p2).dot(u2);
      const double lo = std::max(std::min(s_p, s_q), 0.0), hi = std::min(std::max(s_p, s_q), l2);
      if (hi - lo > 1e-9 * l2) {
        // the overlap's ends on B's axis and the closest points to them on A's axis
        const double ends[2] = {lo, hi};
        const Vec3 perp_fallback = any_perpendicular(u2);
        for (int k = 0; k < 2; ++k) {
          const Vec3 on_b = p2 + ends[k] * u2;
          const double s = closest_on_segment(p1, q1, on_b);
          sphere_pair(p1 + s * d1, a.radius, on_b, b.radius, perp_fallback,
                      static_cast<std::uint32_t>(1 + k), out);
        }
        return;
      }
    }
  }
  double s, t;
  closest_segment_segment(p1, q1, p2, q2, s, t);
  Vec3 fallback = d1.cross(d2);
  fallback = fallback.norm() > 1e-12 ? Vec3(fallback.normalized()) : Vec3::UnitZ();
  sphere_pair(p1 + s * d1, a.radius, p2 + t * d2, b.radius, fallback, 0, out);
}

}  // namespace torsion
