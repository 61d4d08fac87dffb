#include "contact/single_contact.hpp"

#include <algorithm>
#include <cmath>

#include "core/assert.hpp"
#include "core/cpu_dispatch.hpp"
#include "math/constants.hpp"

namespace torsion {

namespace {

constexpr double kInitialStep = 0.01;   // rad, first bracketing step (semantics.md A1)
constexpr double kHintedStep = 1e-3;   // rad, first step from a hint
constexpr double kStepGrowth = 1.3;     // growth of the step while g keeps its sign
constexpr double kStepShrink = 0.5;     // on stepping into the infeasible part of the circle
constexpr int kMaxBracketSteps = 200;
constexpr double kThetaTolerance = 1e-11;  // rad: bisection ends when the bracket is this narrow
constexpr int kMaxBisections = 80;
constexpr int kScanSamples = 128;       // fallback: samples of the whole circle
// local search (parameter t = tan(phi / 2) of the turn phi from the start direction)
constexpr double kLocalReach = 0.9512492197250393;  // tan(atan(20) / 2): phi up to +-87 degrees
constexpr double kLocalFirstStep = 0.5 * kHintedStep;  // t of a turn of kHintedStep (to 1e-10)
constexpr double kLocalGrowth = 2.0;
// the bracket in t is shrunk to half the angle tolerance: a turn dphi = 2 dt / (1 + t^2) <= 2 dt
constexpr double kLocalTolerance = 0.5 * kThetaTolerance;

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

// A residual sample of the bracketing: `feasible` (the parameter is on the ellipse) and the
// residual's value (or any positive multiple of it)
struct Sample {
  bool feasible = false;
  double residual = 0.0;
};

// Shrink the bracket [a, b] (residuals ga, gb of opposite signs, both feasible) around the root
// until it is narrower than `tolerance`, and return the parameter of the last sample (the root;
// a bracket narrower than `tolerance` from the start: its secant point).
// Each step is a false-position (secant) step inside the bracket with the Illinois modification
// (the retained end's residual is halved when the same end is kept twice), which converges
// superlinearly and never leaves the bracket; every fourth step is a plain bisection so the
// bracket also shrinks geometrically. `eval(x)` returns a Sample.
template <class Eval>
double shrink(const Eval& eval, double a, double ga, double b, double gb, double tolerance,
              int& iterations) {
  int side = 0;
  const auto secant = [&] {
    const double x = ga == gb ? 0.5 * (a + b) : (a * gb - b * ga) / (gb - ga);
    return x > std::min(a, b) && x < std::max(a, b) ? x : 0.5 * (a + b);
  };
  // a bracket already this narrow: its secant point (no sample needed)
  if (std::abs(b - a) < tolerance) return secant();
  double m = b;
  for (int k = 0; k < kMaxBisections; ++k) {
    m = k % 4 == 3 ? 0.5 * (a + b) : secant();
    // a step at least tolerance / 2 inside either end (Dekker): a secant point that close to an
    // end tells little, one that far puts the root in a bracket of that width when it is there
    const double margin = 0.5 * tolerance, lo = std::min(a, b), hi = std::max(a, b);
    m = std::min(std::max(m, lo + margin), hi - margin);
    const Sample mid = eval(m);
    ++iterations;
    if (!mid.feasible) {  // cannot happen between two feasible points of the arc; be safe
      b = m;
      gb = 0.5 * gb;
      continue;
    }
    if (mid.residual == 0.0) return m;
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
    if (std::abs(b - a) < tolerance) break;
  }
  return m;
}

// the angle-based bisection of [a, b] (theta) on the ellipse: the point at the root
EllipsePoint bisect(const Ellipse& e, double a, double ga, double b, int& iterations) {
  const auto eval = [&e](double theta) {
    const EllipsePoint p = e.at(theta);
    return Sample{p.feasible, p.residual};
  };
  return e.at(shrink(eval, a, ga, b, e.at(b).residual, kThetaTolerance, iterations));
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

// The local search, without trigonometry, square roots or divisions per evaluation. Directions
// near the start direction t0 (unit, tangential) are parametrised by t = tan(phi / 2), phi the
// turn from t0 (counter-clockwise, towards n0 = t0 turned by +90 degrees):
//     d(t) = (1 - t^2) t0 + 2 t n0,   |d(t)| = 1 + t^2   (exactly: no normalisation needed)
// and the cone's ray along d is w(t) = (d, |d| / mu), a quadratic in t. On the plane v_z = 0 the
// impulse is lambda = -c_z w / D with D = G_2. w (> 0 where the plane cuts the ray), so with
// q = G_t w (the tangential rows) the slip is v_t = G_t lambda + c_t = P / D, P = c_t D - c_z q,
// and the residual of Ellipse::at_direction (t x v_t) and its `along` (t . v_t) are
//     residual = R(t) / (|d| D),  R = d x P,     along = A(t) / (|d| D),  A = d . P
// R and A are quartics in t (products of quadratics), D a quadratic: their coefficients are
// computed once per solve, and the bracketing and bisection below evaluate R by Horner's rule (4
// multiplications). R has the sign of the residual wherever D > 0, so the root and the bracket
// are those of the residual.
struct LocalEllipse {
  double t0x, t0y;  // the start direction
  double inv_mu;
  double cz;
  double r[5];      // R(t) = r0 + r1 t + ... + r4 t^4
  double a[5];      // A(t)
  double dn[3];     // D(t)

  LocalEllipse(const Mat3& g, const Vec3& c, double inv_mu_, double tx, double ty)
      : t0x(tx), t0y(ty), inv_mu(inv_mu_), cz(c.z()) {
    // rotated tangential coordinates: a along t0, b along n0 = (-t0y, t0x)
    const double nx = -ty, ny = tx;
    // G's tangential rows applied to t0 and n0, and the normal row
    const double g0t = g(0, 0) * tx + g(0, 1) * ty, g1t = g(1, 0) * tx + g(1, 1) * ty;
    const double g0n = g(0, 0) * nx + g(0, 1) * ny, g1n = g(1, 0) * nx + g(1, 1) * ny;
    const double gaa = tx * g0t + ty * g1t, gba = nx * g0t + ny * g1t;  // t0' G t0, n0' G t0
    const double gab = tx * g0n + ty * g1n, gbb = nx * g0n + ny * g1n;  // t0' G n0, n0' G n0
    const double gaz = inv_mu * (tx * g(0, 2) + ty * g(1, 2));          // (t0' G_tz) / mu
    const double gbz = inv_mu * (nx * g(0, 2) + ny * g(1, 2));
    const double gzt = g(2, 0) * tx + g(2, 1) * ty, gzn = g(2, 0) * nx + g(2, 1) * ny;
    const double gzz = inv_mu * g(2, 2);
    // w(t) in (a, b, z): (1 - t^2, 2 t, (1 + t^2) / mu); q_a = t0' G_t w, q_b = n0' G_t w, D
    const double qa[3] = {gaa + gaz, 2.0 * gab, gaz - gaa};
    const double qb[3] = {gba + gbz, 2.0 * gbb, gbz - gba};
    dn[0] = gzt + gzz;
    dn[1] = 2.0 * gzn;
    dn[2] = gzz - gzt;
    const double ca = c.x() * tx + c.y() * ty, cb = c.x() * nx + c.y() * ny;
    double pa[3], pb[3];  // P in (a, b)
    for (int k = 0; k < 3; ++k) {
      pa[k] = ca * dn[k] - cz * qa[k];
      pb[k] = cb * dn[k] - cz * qb[k];
    }
    // d = (1 - t^2, 2 t) in (a, b): R = (1 - t^2) P_b - 2 t P_a, A = (1 - t^2) P_a + 2 t P_b
    r[0] = pb[0];
    r[1] = pb[1] - 2.0 * pa[0];
    r[2] = pb[2] - pb[0] - 2.0 * pa[1];
    r[3] = -pb[1] - 2.0 * pa[2];
    r[4] = -pb[2];
    a[0] = pa[0];
    a[1] = pa[1] + 2.0 * pb[0];
    a[2] = pa[2] - pa[0] + 2.0 * pb[1];
    a[3] = 2.0 * pb[2] - pa[1];
    a[4] = -pa[2];
  }
  double denominator(double t) const { return dn[0] + t * (dn[1] + t * dn[2]); }
  double residual(double t) const {
    return r[0] + t * (r[1] + t * (r[2] + t * (r[3] + t * r[4])));
  }
  // the point at t, with the residual and `along` of Ellipse::at_direction (up to rounding)
  EllipsePoint point(double t) const {
    EllipsePoint p;
    const double den = denominator(t);
    if (!(den > 1e-300)) return p;
    const double s = 1.0 + t * t;
    const double scale = 1.0 / (s * den);
    const double k = -cz / den;  // lambda = k w(t)
    const double da = 1.0 - t * t, db = 2.0 * t;
    p.feasible = true;
    p.lambda = Vec3(k * (da * t0x - db * t0y), k * (da * t0y + db * t0x), k * s * inv_mu);
    p.residual = residual(t) * scale;
    p.along = (a[0] + t * (a[1] + t * (a[2] + t * (a[3] + t * a[4])))) * scale;
    return p;
  }
};

// The common case: search the root near the start direction t0 (unit) on LocalEllipse's
// parameter t, first stepping away from t = 0 (towards decreasing residual) by growing steps
// until the residual changes sign, then shrinking that bracket; within kLocalReach of t0 (a turn
// of up to +-87 degrees). Returns false when the physical root is not found there (the
// angle-based search takes over).
bool local_search(const Mat3& g, const Vec3& c, double inv_mu, double t0x, double t0y,
                  double scale, Vec3& lambda, int& iterations) {
  const LocalEllipse e(g, c, inv_mu, t0x, t0y);
  const auto eval = [&e](double t) {
    return Sample{e.denominator(t) > 1e-300, e.residual(t)};
  };
  const Sample p0 = eval(0.0);
  ++iterations;
  if (!p0.feasible) return false;
  if (p0.residual == 0.0) {
    const EllipsePoint root = e.point(0.0);
    if (is_physical(root, scale)) {
      lambda = root.lambda;
      return true;
    }
  }
  // A shrunk bracket's root, if physical, is the solution.
  const auto accept = [&](double a, double ga, double b, double gb) {
    const EllipsePoint root = e.point(shrink(eval, a, ga, b, gb, kLocalTolerance, iterations));
    if (!is_physical(root, scale)) return false;
    lambda = root.lambda;
    return true;
  };
  // The walk below steps away from t = 0 towards decreasing residual, first this way.
  const double first = p0.residual > 0.0 ? -kLocalFirstStep : kLocalFirstStep;
  double walk_from = 0.0, walk_step = first;
  Sample walk_start = p0;
  // First bracket: around the root that a Newton step from t = 0 predicts (R'(0) = r1), as wide
  // as that prediction's expected error (its quadratic term, times 4) and at least 0.4 times the
  // tolerance. When the start direction is near the root (the previous sweep's impulse in a pile
  // that moves little), it brackets the root at once and the bracket needs few or no bisection
  // steps; otherwise its samples still shorten the walk.
  if (e.r[1] != 0.0) {
    const double tn = -e.r[0] / e.r[1];
    const double h = std::max(0.4 * kLocalTolerance, 4.0 * std::abs(e.r[2] / e.r[1]) * tn * tn);
    if (h < 0.25 * std::abs(tn) + kLocalTolerance && std::abs(tn) + h <= kLocalReach) {
      const double lo = tn - h, hi = tn + h;
      const Sample a = eval(lo), b = eval(hi);
      iterations += 2;
      if (a.feasible && b.feasible) {
        if ((a.residual > 0.0) != (b.residual > 0.0)) {
          if (accept(lo, a.residual, hi, b.residual)) return true;
        } else {
          // not bracketed: the root is between 0 and the nearer sample, or beyond the farther
          const bool up = tn > 0.0;
          const double near = up ? lo : hi, far = up ? hi : lo;
          const Sample& near_p = up ? a : b;
          const Sample& far_p = up ? b : a;
          if ((near_p.residual > 0.0) != (p0.residual > 0.0)) {
            if ((near > 0.0) == up && accept(0.0, p0.residual, near, near_p.residual))
              return true;
          } else if ((far > 0.0) == (first > 0.0)) {
            walk_from = far;  // the walk this way goes on from the farther sample
            walk_start = far_p;
            walk_step = std::max(std::abs(tn), kLocalFirstStep) * (up ? 1.0 : -1.0);
          }
        }
      }
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    double step = pass == 0 ? walk_step : -first, t = pass == 0 ? walk_from : 0.0;
    Sample p = pass == 0 ? walk_start : p0;
    while (std::abs(t + step) <= kLocalReach) {
      const double next = t + step;
      const Sample q = eval(next);
      ++iterations;
      if (!q.feasible) {
        step *= kStepShrink;
        if (std::abs(step) < 1e-12) break;
        continue;
      }
      if ((q.residual > 0.0) != (p.residual > 0.0) && accept(t, p.residual, next, q.residual))
        return true;
      t = next;
      p = q;
      step *= kLocalGrowth;
    }
  }
  return false;
}

}  // namespace

SingleContactResult solve_single_contact(const Mat3& g, const Mat3& g_inv, const Vec3& c,
                                         double mu, const Vec3* hint) {
  TORSION_ASSERT(mu >= 0.0);  // mu == 0 is frictionless; a negative mu has no meaning
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
  if (inside_cone(mu, lambda0)) {
    out.mode = ContactMode::kSticking;
    out.lambda = lambda0;
    return out;
  }
  return solve_sliding_contact(g, c, mu, lambda0, hint);
}

namespace {

// solve_sliding_contact's body, built twice (core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE SingleContactResult sliding_body(const Mat3& g, const Vec3& c, double mu,
                                                       const Vec3& lambda0, const Vec3* hint) {
  // bracket the root of the residual around the angle of the hint (or lambda0), then bisect
  SingleContactResult out;
  if (!(c.z() < 0.0)) return out;  // opening (a caller's test may round the other way)
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
  if (h > 0.0 && local_search(g, c, e.inv_mu, start.x() / h, start.y() / h, scale, out.lambda,
                              iters))
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

SingleContactResult sliding_baseline(const Mat3& g, const Vec3& c, double mu, const Vec3& lambda0,
                                     const Vec3* hint) {
  return sliding_body(g, c, mu, lambda0, hint);
}

#if TORSION_AVX2_BUILD
// flatten: the local search and its evaluations inlined here, so that they too are built for
// AVX2 (the same operations in the same order)
TORSION_AVX2_TARGET __attribute__((flatten)) SingleContactResult sliding_avx2(
    const Mat3& g, const Vec3& c, double mu, const Vec3& lambda0, const Vec3* hint) {
  return sliding_body(g, c, mu, lambda0, hint);
}
#endif

}  // namespace

SingleContactResult solve_sliding_contact(const Mat3& g, const Vec3& c, double mu,
                                          const Vec3& lambda0, const Vec3* hint) {
  TORSION_ASSERT(mu >= 0.0);
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return sliding_avx2(g, c, mu, lambda0, hint);
#endif
  return sliding_baseline(g, c, mu, lambda0, hint);
}

}  // namespace torsion
