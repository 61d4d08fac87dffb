#include "contact/single_contact.hpp"

#include <cmath>

namespace torsion {

namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr double kInitialStep = 0.01;   // rad, first bracketing step (semantics.md A1)
constexpr double kHintedStep = 1e-3;   // rad, first step from a hint
constexpr double kStepGrowth = 1.3;     // growth of the step while g keeps its sign
constexpr double kStepShrink = 0.5;     // on stepping into the infeasible part of the circle
constexpr int kMaxBracketSteps = 200;
constexpr double kThetaTolerance = 1e-11;  // rad: bisection ends when the bracket is this narrow
constexpr int kMaxBisections = 80;
constexpr int kScanSamples = 128;       // fallback: samples of the whole circle
constexpr double kLocalReach = 20.0;    // local search: |u| up to 20, i.e. +-87 degrees
constexpr double kLocalGrowth = 2.0;

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
  EllipsePoint at(double theta) const { return at_direction(std::cos(theta), std::sin(theta)); }

  // the same for the unit tangential direction (ct, st)
  EllipsePoint at_direction(double ct, double st) const {
    EllipsePoint p;
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

// Shrink the bracket [a, b] (residuals of opposite signs, both feasible) around the root and
// return the point there. Each step is a false-position (secant) step inside the bracket with the
// Illinois modification (the retained end's residual is halved when the same end is kept twice),
// which converges superlinearly and never leaves the bracket; every fourth step is a plain
// bisection so the bracket also shrinks geometrically.
template <class Eval>
EllipsePoint shrink(const Eval& eval, double a, double ga, double b, double gb, int& iterations) {
  int side = 0;
  EllipsePoint mid = eval(a);
  for (int k = 0; k < kMaxBisections; ++k) {
    double m = (k % 4 == 3 || ga == gb) ? 0.5 * (a + b) : (a * gb - b * ga) / (gb - ga);
    if (!(m > std::min(a, b) && m < std::max(a, b))) m = 0.5 * (a + b);
    mid = eval(m);
    ++iterations;
    if (!mid.feasible) {  // cannot happen between two feasible points of the arc; be safe
      b = m;
      gb = 0.5 * gb;
      continue;
    }
    if (mid.residual == 0.0) return mid;
    if ((mid.residual > 0.0) == (ga > 0.0)) {
      a = m;
      ga = mid.residual;
      if (side == -1) gb *= 0.5;
      side = -1;
    } else {
      b = m;
      gb = mid.residual;
      if (side == 1) ga *= 0.5;
      side = 1;
    }
    if (std::abs(b - a) < kThetaTolerance) break;
  }
  return mid;
}

EllipsePoint bisect(const Ellipse& e, double a, double ga, double b, int& iterations) {
  return shrink([&e](double t) { return e.at(t); }, a, ga, b, e.at(b).residual, iterations);
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

// The common case, without trigonometry: search the root along t(u) = (t0 + u n0) / |t0 + u n0|,
// n0 = t0 turned by +90 degrees, i.e. the angle atan(u) from t0, within kLocalReach of it.
// Returns false when the root is not found there (the angle-based search takes over).
bool local_search(const Ellipse& e, double t0x, double t0y, double scale, Vec3& lambda,
                  int& iterations) {
  const auto eval = [&](double u) {
    const double inv = 1.0 / std::sqrt(1.0 + u * u);
    return e.at_direction((t0x - u * t0y) * inv, (t0y + u * t0x) * inv);
  };
  const EllipsePoint p0 = eval(0.0);
  ++iterations;
  if (!p0.feasible) return false;
  if (p0.residual == 0.0 && is_physical(p0, scale)) {
    lambda = p0.lambda;
    return true;
  }
  const double first = p0.residual > 0.0 ? -kHintedStep : kHintedStep;
  for (double direction : {first, -first}) {
    double step = direction, u = 0.0;
    EllipsePoint p = p0;
    while (std::abs(u + step) <= kLocalReach) {
      const double next = u + step;
      const EllipsePoint q = eval(next);
      ++iterations;
      if (!q.feasible) {
        step *= kStepShrink;
        if (std::abs(step) < 1e-12) break;
        continue;
      }
      if ((q.residual > 0.0) != (p.residual > 0.0)) {
        const EllipsePoint root = shrink(eval, u, p.residual, next, q.residual, iterations);
        if (is_physical(root, scale)) {
          lambda = root.lambda;
          return true;
        }
      }
      u = next;
      p = q;
      step *= kLocalGrowth;
    }
  }
  return false;
}

}  // namespace

SingleContactResult solve_single_contact(const Mat3& g, const Mat3& g_inv, const Vec3& c,
                                         double mu, const Vec3* hint) {
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
  // start from the hint's angle (the previous sweep's impulse) when it has a tangential part, it
  // is usually within a fraction of a degree of the root; else from lambda0's angle
  const bool hinted = hint && hint->head<2>().squaredNorm() > 0.0;
  int& iters = out.bisection_iterations;
  const double scale = c.cwiseAbs().maxCoeff();
  // first the trigonometry-free local search around the hint's (or lambda0's) direction
  const Vec3& start = hinted ? *hint : lambda0;
  const double h = start.head<2>().norm();
  if (h > 0.0 && local_search(e, start.x() / h, start.y() / h, scale, out.lambda, iters))
    return out;
  double theta0 = hinted ? std::atan2(hint->y(), hint->x()) : std::atan2(lambda0.y(), lambda0.x());
  // The ellipse is the arc of angles where G_2. (cos, sin, 1/mu) > 0, centred on the angle of
  // (G_20, G_21). Start inside it: at lambda0's angle if that is on the arc, else at the centre.
  if (!e.at(theta0).feasible) theta0 = std::atan2(g(2, 1), g(2, 0));
  const EllipsePoint p0 = e.at(theta0);
  if (p0.feasible) {
    if (p0.residual == 0.0 && p0.along <= 0.0) {
      out.lambda = p0.lambda;
      return out;
    }
    // residual > 0 means the slip points counter-clockwise of -t: turning lambda_t clockwise
    // (decreasing theta) moves it towards the slip's opposite. If that walk runs into an end of
    // the arc without a sign change, walk the other way.
    const double initial = hinted ? kHintedStep : kInitialStep;
    const double first = p0.residual > 0.0 ? -initial : initial;
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
