// Wrapping a spatial tendon around a sphere or a cylinder (world/tendon_path.hpp).
#include "world/tendon_path.hpp"

#include <algorithm>
#include <cmath>

namespace torsion {

namespace {

using V2 = Eigen::Vector2d;

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kTiny = 1e-15;  // lengths (and squared lengths) treated as zero, as MuJoCo's

double cross2(const V2& a, const V2& b) { return a.x() * b.y() - a.y() * b.x(); }
V2 perp(const V2& a) { return V2(-a.y(), a.x()); }  // a turned a quarter counter-clockwise

// do the closed segments a0-a1 and b0-b1 meet (parallel ones: no)
bool segments_cross(const V2& a0, const V2& a1, const V2& b0, const V2& b1) {
  const V2 da = a1 - a0, db = b1 - b0, w = a0 - b0;
  const double det = cross2(da, db);
  if (std::abs(det) < kTiny) return false;
  const double s = cross2(db, w) / det, t = cross2(da, w) / det;
  return s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0;
}

// The 2-D wrap around the circle of radius r at the origin from q0 to q1 (module comment of
// tendon_path.hpp): true with the tangent points t0, t1 and the arc's angle, or false (straight).
bool wrap_circle(const V2& q0, const V2& q1, double r, const V2* side, V2& t0, V2& t1,
                 double& angle) {
  const double sq0 = q0.squaredNorm(), sq1 = q1.squaredNorm(), rr = r * r;
  if (sq0 < rr || sq1 < rr || r < kTiny) return false;  // an end inside the circle
  const V2 dq = q1 - q0;
  const double dd = dq.squaredNorm();
  if (dd < kTiny) return false;  // the ends (nearly) meet
  // a segment through the circle (its point nearest the centre inside) is wrapped; one clear of
  // it only with a side point, when it passes behind the obstacle as seen from the side point:
  // it crosses the ray from the centre away from the side point (q0 + u dq = -v side, u in
  // [0, 1], v > 0). (MuJoCo 4's rule, found against its results: its 3.x sources test
  // side . nearest < 0 instead, which also wraps segments passing beside the obstacle.)
  const double t = std::clamp(-q0.dot(dq) / dd, 0.0, 1.0);
  const V2 nearest = q0 + t * dq;
  if (nearest.squaredNorm() > rr) {
    if (side == nullptr) return false;
    const double det = cross2(*side, dq);  // q0 + u dq + v side = 0
    if (std::abs(det) < kTiny) return false;
    const double u = cross2(q0, *side) / det, v = cross2(dq, q0) / det;
    if (!(u >= 0.0 && u <= 1.0 && v > 0.0)) return false;
  }
  // the two ways around: way 0 clockwise (the tangent from q0 a quarter turn clockwise of it,
  // the one to q1 counter-clockwise of q1), way 1 the mirror
  const double s0 = std::sqrt(sq0 - rr), s1 = std::sqrt(sq1 - rr);
  V2 a[2], b[2];
  double score[2];
  for (int way = 0; way < 2; ++way) {
    const double sg = way == 0 ? 1.0 : -1.0;
    a[way] = (rr * q0 - sg * r * s0 * perp(q0)) / sq0;
    b[way] = (rr * q1 + sg * r * s1 * perp(q1)) / sq1;
    if (side != nullptr) {  // the way whose arc's middle direction is nearer the side point's
      const V2 mid = a[way] + b[way];
      const double n = mid.norm();
      score[way] = n > 0.0 ? mid.dot(*side) / n : 0.0;
    } else {  // the tangent points nearer each other
      score[way] = -(a[way] - b[way]).squaredNorm();
    }
    // a way whose two straight pieces cross each other is not a path around the obstacle
    if (segments_cross(q0, a[way], q1, b[way])) score[way] = -1e4;
  }
  const int way = score[0] > score[1] ? 0 : 1;
  if (segments_cross(q0, a[way], q1, b[way])) return false;
  t0 = a[way];
  t1 = b[way];
  // the arc from t0 to t1 in the way's direction (clockwise for way 0), in [0, 2 pi)
  const double c = cross2(t0, t1);
  angle = std::atan2(std::abs(c), t0.dot(t1));
  if ((way == 0 && c > 0.0) || (way == 1 && c < 0.0)) angle = kTwoPi - angle;
  return true;
}

// The wrap with the side point inside the obstacle (MuJoCo's inside wrap): the path from q0 to q1
// through one point of the circle, the point where the two pieces meet the radius at equal
// angles (a reflection). With b the angle of both pieces to the outward radius and z = sin(b),
// the sine rule in the triangles (centre, q_i, point) gives the angle at the centre from q_i to
// the point, asin(z) - asin(r z / |q_i|); their sum is the angle G between q0 and q1:
//   f(z) = asin(A z) + asin(B z) - 2 asin(z) + G = 0,  A = r / |q0|, B = r / |q1|,
// solved by Newton's method from just below z = 1, as MuJoCo does (and with its tolerance and
// fallbacks: the point halfway between the ends' directions when the iteration cannot start or
// fails). false: no wrap (an end inside, or the segment through the circle).
bool wrap_inside(const V2& q0, const V2& q1, double r, V2& point) {
  const double l0 = q0.norm(), l1 = q1.norm();
  const V2 dq = q1 - q0;
  const double dd = dq.squaredNorm();
  if (l0 <= r || l1 <= r || r < kTiny || l0 < kTiny || l1 < kTiny) return false;
  if (dd > kTiny) {
    const double t = -q0.dot(dq) / dd;
    if (t > 0.0 && t < 1.0 && (q0 + t * dq).norm() <= r) return false;
  }
  point = (0.5 * (q0 + q1)).normalized() * r;
  const double A = r / l0, B = r / l1;
  const double cos_g = (l0 * l0 + l1 * l1 - dd) / (2.0 * l0 * l1);
  if (cos_g < -1.0 + kTiny) return false;
  if (cos_g > 1.0 - kTiny) return true;
  const double G = std::acos(cos_g);
  auto f = [&](double z) { return std::asin(A * z) + std::asin(B * z) - 2.0 * std::asin(z) + G; };
  double z = 1.0 - 1e-7, fz = f(z);
  if (fz > 0.0) return true;
  constexpr int kMaxIter = 20;
  constexpr double kTol = 1e-6;
  int iter = 0;
  for (; iter < kMaxIter && std::abs(fz) > kTol; ++iter) {
    const double df = A / std::max(kTiny, std::sqrt(1.0 - z * z * A * A)) +
                      B / std::max(kTiny, std::sqrt(1.0 - z * z * B * B)) -
                      2.0 / std::max(kTiny, std::sqrt(1.0 - z * z));
    if (df > -kTiny) return true;
    const double next = z - fz / df;
    if (next > z) return true;
    z = next;
    fz = f(z);
    if (fz > kTol) return true;
  }
  if (iter >= kMaxIter) return true;
  // turn from the end whose direction leads counter-clockwise towards the other
  const bool from0 = cross2(q0, q1) > 0.0;
  const V2 dir = (from0 ? q0 : q1).normalized();
  const double ang = std::asin(z) - std::asin((from0 ? A : B) * z);
  point = r * V2(std::cos(ang) * dir.x() - std::sin(ang) * dir.y(),
                 std::sin(ang) * dir.x() + std::cos(ang) * dir.y());
  return true;
}

}  // namespace

WrapResult wrap_obstacle(const Vec3& p0, const Vec3& p1, const Vec3& center, double radius,
                         const Vec3* axis, const Vec3* side) {
  WrapResult out;
  if (!(radius > 0.0)) return out;
  const Vec3 r0 = p0 - center, r1 = p1 - center;
  if (r0.norm() < kTiny || r1.norm() < kTiny) return out;
  // the plane of the 2-D wrap, spanned by e0, e1 (e0 x e1 = its normal)
  Vec3 e0, e1;
  if (axis != nullptr) {  // cylinder: normal to the axis
    e0 = axis->unitOrthogonal();
    e1 = axis->cross(e0);
  } else {  // sphere: through the centre and both ends
    e0 = r0.normalized();
    Vec3 n = r0.cross(r1);
    if (n.norm() < kTiny) {  // ends in line with the centre: a fixed choice of plane
      Eigen::Index big = 0;
      e0.cwiseAbs().maxCoeff(&big);
      Vec3 other = Vec3::Ones();
      other[big] = 0.0;
      n = e0.cross(other);
    }
    e1 = n.normalized().cross(e0).normalized();
  }
  const V2 q0(r0.dot(e0), r0.dot(e1)), q1(r1.dot(e0), r1.dot(e1));
  V2 t0, t1;
  double angle = 0.0;
  bool wrapped;
  if (side != nullptr && (*side - center).norm() < radius) {  // a side point inside: inside wrap
    wrapped = wrap_inside(q0, q1, radius, t0);
    t1 = t0;
  } else {
    V2 s2;
    if (side != nullptr) {
      const Vec3 s = *side - center;
      s2 = V2(s.dot(e0), s.dot(e1));
      s2 = s2.norm() > kTiny ? V2(s2.normalized() * radius) : V2(radius, 0.0);
    }
    wrapped = wrap_circle(q0, q1, radius, side != nullptr ? &s2 : nullptr, t0, t1, angle);
  }
  if (!wrapped) return out;
  out.wrapped = true;
  out.t0 = center + t0.x() * e0 + t0.y() * e1;
  out.t1 = center + t1.x() * e0 + t1.y() * e1;
  const double arc2d = radius * angle;
  if (axis != nullptr) {  // the axial rise in proportion to the projected length
    const double h0 = r0.dot(*axis), h1 = r1.dot(*axis);
    const double l0 = (q0 - t0).norm(), l1 = (q1 - t1).norm();
    const double total = l0 + arc2d + l1, dh = h1 - h0;
    const double a0 = total > 0.0 ? h0 + dh * l0 / total : h0;
    const double a1 = total > 0.0 ? h0 + dh * (l0 + arc2d) / total : h1;
    out.t0 += *axis * a0;
    out.t1 += *axis * a1;
    out.arc = std::sqrt(arc2d * arc2d + (a1 - a0) * (a1 - a0));
  } else {
    out.arc = arc2d;
  }
  return out;
}

}  // namespace torsion
