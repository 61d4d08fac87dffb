// Exact sphere-cylinder: the closest point of the solid cylinder to the sphere centre.
#include <algorithm>
#include <cmath>

#include "collision/narrow_phase.hpp"

namespace torsion {

void collide_sphere_cylinder(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                             const ContactSettings&, Manifold& out) {
  const double r = b.radius, hh = 0.5 * b.height;
  const Vec3 c = pb.to_body(pa.position);  // sphere centre in the cylinder frame (axis z)
  const double rho = std::hypot(c.x(), c.y());
  const bool inside = rho <= r && std::abs(c.z()) <= hh;
  if (!inside) {
    Vec3 q = c;
    if (rho > r) q.x() *= r / rho, q.y() *= r / rho;
    q.z() = std::clamp(c.z(), -hh, hh);
    const Vec3 d = c - q;
    const double dist = d.norm();
    out.add_from_b(pb.to_world(q), pb.rotation * (d / dist), a.radius - dist, 0);
    return;
  }
  // centre inside: leave through the side or the nearer cap, whichever is closer
  const double side_gap = r - rho, cap_gap = hh - std::abs(c.z());
  if (side_gap < cap_gap) {
    const Vec3 radial = rho > 1e-12 ? Vec3(c.x() / rho, c.y() / rho, 0.0) : Vec3::UnitX();
    const Vec3 on_b(radial.x() * r, radial.y() * r, c.z());
    out.add_from_b(pb.to_world(on_b), pb.rotation * radial, a.radius + side_gap, 1);
  } else {
    const double s = c.z() >= 0.0 ? 1.0 : -1.0;
    out.add_from_b(pb.to_world(Vec3(c.x(), c.y(), s * hh)), pb.rotation.col(2) * s,
                   a.radius + cap_gap, 2);
  }
}

}  // namespace torsion
