#include "contact/single_contact.hpp"

#include <cmath>

namespace torsion {

namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr double kInitialStep = 0.01;   // rad, first bracketing step (semantics.md A1)
constexpr double kStepGrowth = 1.3;     // growth of the step while g keeps its sign
constexpr double kStepShrink = 0.5;     // on stepping into the infeasible part of the circle
constexpr int kMaxBracketSteps = 200;
constexpr double kThetaTolerance = 1e-11;  // rad: bisection ends when the bracket is this narrow
constexpr int kMaxBisections = 64;
constexpr int kScanSamples = 128;       // fallback: samples of the whole circle

// Point of the cone-plane ellipse at angle theta, its slip velocity and the residual.
struct EllipsePoint {
  bool feasible = false;  // r(theta) > 0: theta is on the ellipse (the plane cuts this ray)
  Vec3 lambda;
  double residual = 0.0;  // t x v_t: zero where the slip is (anti-)parallel to lambda_t
  double along = 0.0;     // t . v_t: < 0 where the slip opposes lambda_t (the physical root)
};

struct Ellipse {
  const Mat3& g;
  const Vec3& c;
  double inv_mu;

  // lambda(theta) = r (cos, sin, 1/mu): on the cone's surface; r makes v_z = G_2. lambda + c_z = 0
  EllipsePoint at(double theta) const {
    EllipsePoint p;
    const double ct = std::cos(theta), st = std::sin(theta);
    const double denom = g(2, 0) * ct + g(2, 1) * st + g(2, 2) * inv_mu;
    // c_z < 0 here, so r = -c_z / denom > 0 needs denom > 0
    if (!(denom > 1e-300)) return p;
    const double r = -c.z() / denom;
    p.feasible = true;
    p.lambda = Vec3(r * ct, r * st, r * inv_mu);
    const double vx = g.row(0).dot(p.lambda) + c.x();
    const double vy = g.row(1).dot(p.lambda) + c.y();
    p.residual = ct * vy - st * vx;
    p.along = ct * vx + st * vy;
    return p;
  }
};

// bisect g on [a, b] (g(a), g(b) of opposite signs, both feasible); the point at the root
EllipsePoint bisect(const Ellipse& e, double a, double ga, double b, int& iterations) {
  EllipsePoint mid;
  for (int k = 0; k < kMaxBisections; ++k) {
    const double m = 0.5 * (a + b);
    mid = e.at(m);
    ++iterations;
    if (!mid.feasible) {  // cannot happen between two feasible points of an ellipse; be safe
      b = m;
      continue;
    }
    if ((mid.residual > 0.0) == (ga > 0.0)) {
      a = m;
      ga = mid.residual;
    } else {
      b = m;
    }
    if (std::abs(b - a) < kThetaTolerance) break;
  }
  return e.at(0.5 * (a + b));
}

// the root found is the physical one: the slip opposes the friction (or vanishes)
bool is_physical(const EllipsePoint& p, double scale) { return p.along <= 1e-12 * scale; }

// Fallback: scan the whole circle for sign changes of the residual on the physical branch
// (slip opposing friction) and bisect the one closest to theta0.
bool scan_and_bisect(const Ellipse& e, double theta0, double scale, Vec3& lambda,
                     int& iterations) {
  double best_distance = 1e300;
  EllipsePoint prev = e.at(theta0);
  double prev_theta = theta0;
  for (int k = 1; k <= kScanSamples; ++k) {
    const double theta = theta0 + kTwoPi * k / kScanSamples;
    const EllipsePoint p = e.at(theta);
    ++iterations;
    if (p.feasible && prev.feasible && (p.residual > 0.0) != (prev.residual > 0.0)) {
      const EllipsePoint root = bisect(e, prev_theta, prev.residual, theta, iterations);
      const double distance = std::min(prev_theta - theta0, kTwoPi - (theta - theta0));
      if (is_physical(root, scale) && distance < best_distance) {
        best_distance = distance;
        lambda = root.lambda;
      }
    }
    prev = p;
    prev_theta = theta;
  }
  return best_distance != 1e300;
}

}  // namespace

SingleContactResult solve_single_contact(const Mat3& g, const Mat3& g_inv, const Vec3& c,
                                         double mu) {
  SingleContactResult out;
  // opening: the contact separates (or keeps its target normal velocity) without any impulse
  if (c.z() >= 0.0) return out;

  // frictionless: only the normal row acts
  if (mu <= 0.0) {
    out.mode = ContactMode::kSliding;
    out.lambda = Vec3(0.0, 0.0, -c.z() / g(2, 2));
    return out;
  }

  // sticking: the impulse that brings the contact velocity to zero lies in the cone
  const Vec3 lambda0 = -(g_inv * c);
  if (mu * lambda0.z() >= lambda0.head<2>().norm()) {
    out.mode = ContactMode::kSticking;
    out.lambda = lambda0;
    return out;
  }

  // sliding: bracket the root of the residual around the angle of lambda0, then bisect
  out.mode = ContactMode::kSliding;
  const Ellipse e{g, c, 1.0 / mu};
  double theta0 = std::atan2(lambda0.y(), lambda0.x());
  // The ellipse is the arc of angles where G_2. (cos, sin, 1/mu) > 0, centred on the angle of
  // (G_20, G_21). Start inside it: at lambda0's angle if that is on the arc, else at the centre.
  if (!e.at(theta0).feasible) theta0 = std::atan2(g(2, 1), g(2, 0));
  const EllipsePoint p0 = e.at(theta0);
  int& iters = out.bisection_iterations;
  const double scale = c.cwiseAbs().maxCoeff();
  if (p0.feasible) {
    if (p0.residual == 0.0 && p0.along <= 0.0) {
      out.lambda = p0.lambda;
      return out;
    }
    // residual > 0 means the slip points counter-clockwise of -t: turning lambda_t clockwise
    // (decreasing theta) moves it towards the slip's opposite. If that walk runs into an end of
    // the arc without a sign change, walk the other way.
    const double first = p0.residual > 0.0 ? -kInitialStep : kInitialStep;
    for (double direction : {first, -first}) {
      double step = direction;
      double theta = theta0;
      EllipsePoint p = p0;
      double turned = 0.0;
      for (int k = 0; k < kMaxBracketSteps && turned < kTwoPi; ++k) {
        const double next = theta + step;
        const EllipsePoint q = e.at(next);
        ++iters;
        if (!q.feasible) {  // stepped off the arc: retry with a shorter step
          step *= kStepShrink;
          if (std::abs(step) < 1e-12) break;
          continue;
        }
        if ((q.residual > 0.0) != (p.residual > 0.0)) {
          const EllipsePoint root = bisect(e, theta, p.residual, next, iters);
          if (is_physical(root, scale)) {
            out.lambda = root.lambda;
            return out;
          }
          // the unphysical root (friction along the slip): keep walking past it
        }
        turned += std::abs(step);
        theta = next;
        p = q;
        step *= kStepGrowth;
      }
    }
  }
  out.fallback = true;
  if (scan_and_bisect(e, theta0, scale, out.lambda, iters)) return out;
  // No root on the ellipse at all (degenerate G): push along the normal only, which is feasible.
  out.lambda = Vec3(0.0, 0.0, -c.z() / g(2, 2));
  return out;
}

}  // namespace torsion
