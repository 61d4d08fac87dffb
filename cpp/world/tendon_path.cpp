// Wrapping a spatial tendon around a sphere or a cylinder (world/tendon_path.hpp).
#include "world/tendon_path.hpp"

#include <cmath>

namespace torsion {

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// The 2-D wrap around a circle of radius r at the origin from q0 to q1 (both outside it): the
// tangent angles th0 (from q0) and th1 (to q1) and the arc's angle. false: the straight segment.
bool wrap_circle(const Eigen::Vector2d& q0, const Eigen::Vector2d& q1, double r,
                 const Eigen::Vector2d* side, double& th0, double& th1, double& angle) {
  const double d0 = q0.norm(), d1 = q1.norm();
  if (!(d0 > r) || !(d1 > r)) return false;  // an end inside (or on) the obstacle
  // the segment's point nearest the centre: the segment passes through the disc if it is inside
  const Eigen::Vector2d dq = q1 - q0;
  const double len2 = dq.squaredNorm();
  double t = len2 > 0.0 ? -q0.dot(dq) / len2 : 0.0;
  t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
  const Eigen::Vector2d nearest = q0 + t * dq;
  const bool crosses = nearest.norm() < r;
  if (!crosses) return false;  // passes clear: the straight segment
  const double phi0 = std::atan2(q0.y(), q0.x()), phi1 = std::atan2(q1.y(), q1.x());
  const double a0 = std::acos(r / d0), a1 = std::acos(r / d1);
  auto wrap_angle = [](double x) {
    x = std::fmod(x, kTwoPi);
    return x < 0.0 ? x + kTwoPi : x;
  };
  // clockwise (decreasing angle from th0 to th1) and counter-clockwise
  const double cw0 = phi0 - a0, cw1 = phi1 + a1, cw = wrap_angle(cw0 - cw1);
  const double ccw0 = phi0 + a0, ccw1 = phi1 - a1, ccw = wrap_angle(ccw1 - ccw0);
  bool use_cw;
  if (side != nullptr) {  // the way whose tangent points are nearer the side point
    auto at = [r](double th) { return Eigen::Vector2d(r * std::cos(th), r * std::sin(th)); };
    const double dcw = (at(cw0) - *side).norm() + (at(cw1) - *side).norm();
    const double dccw = (at(ccw0) - *side).norm() + (at(ccw1) - *side).norm();
    use_cw = dcw <= dccw;
  } else {
    use_cw = cw <= ccw;
  }
  th0 = use_cw ? cw0 : ccw0;
  th1 = use_cw ? cw1 : ccw1;
  angle = use_cw ? cw : ccw;
  return true;
}

}  // namespace

WrapResult wrap_obstacle(const Vec3& p0, const Vec3& p1, const Vec3& center, double radius,
                         const Vec3* axis, const Vec3* side) {
  WrapResult out;
  if (!(radius > 0.0)) return out;
  const Vec3 r0 = p0 - center, r1 = p1 - center;
  Vec3 e0, e1;
  double h0 = 0.0, h1 = 0.0;
  if (axis != nullptr) {  // cylinder: the plane normal to the axis
    const Vec3 a = *axis;
    h0 = r0.dot(a);
    h1 = r1.dot(a);
    const Vec3 radial = r0 - h0 * a;
    if (!(radial.norm() > radius)) return out;
    e0 = radial.normalized();
    e1 = a.cross(e0);
  } else {  // sphere: the plane through the centre and both ends
    const double n0 = r0.norm();
    if (!(n0 > radius) || !(r1.norm() > radius)) return out;
    e0 = r0 / n0;
    Vec3 n = r0.cross(r1);
    if (!(n.norm() > 1e-12 * n0 * r1.norm())) {  // ends in line with the centre
      if (side == nullptr) return out;
      n = r0.cross(*side - center);
      if (!(n.norm() > 1e-12)) return out;
    }
    e1 = n.cross(e0).normalized();
  }
  const Eigen::Vector2d q0(r0.dot(e0), r0.dot(e1)), q1(r1.dot(e0), r1.dot(e1));
  Eigen::Vector2d s2;
  if (side != nullptr) s2 = Eigen::Vector2d((*side - center).dot(e0), (*side - center).dot(e1));
  double th0 = 0.0, th1 = 0.0, angle = 0.0;
  if (!wrap_circle(q0, q1, radius, side != nullptr ? &s2 : nullptr, th0, th1, angle)) return out;
  out.wrapped = true;
  out.t0 = center + radius * (std::cos(th0) * e0 + std::sin(th0) * e1);
  out.t1 = center + radius * (std::cos(th1) * e0 + std::sin(th1) * e1);
  const double arc2d = radius * angle;
  if (axis != nullptr) {  // the axial rise in proportion to the projected length
    const double l0 = std::sqrt(q0.squaredNorm() - radius * radius);
    const double l1 = std::sqrt(q1.squaredNorm() - radius * radius);
    const double total = l0 + arc2d + l1, dh = h1 - h0;
    out.t0 += *axis * (h0 + dh * l0 / total);
    out.t1 += *axis * (h0 + dh * (l0 + arc2d) / total);
    out.arc = std::sqrt(arc2d * arc2d + (dh * arc2d / total) * (dh * arc2d / total));
  } else {
    out.arc = arc2d;
  }
  return out;
}

}  // namespace torsion
