// The Gauss-Seidel sweeps of one island, written once for the two places that sweep: the u-based
// solve (bisection_solver.cpp: velocities read from the generalized velocities u) and the
// contact-space solve of a robot's island (contact_space_solver.cpp: velocities kept per row).
// They differ only in how a row's velocity is read and how an impulse change is applied, which
// the callers pass in; everything that decides the iteration is here: the per-row laws with
// relaxation, quiet-contact skipping, the two stopping tests, the relaxation schedule, the sweep
// direction and Anderson acceleration. So the two solves are the same iteration by construction
// (tests/articulated/test_contact_space.py checks them against each other to 1e-12 with equal
// sweep counts).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "contact/anderson.hpp"
#include "contact/bisection_solver.hpp"
#include "contact/rigid_kernel.hpp"
#include "contact/single_contact.hpp"

namespace torsion {

// contact modes found by the updates of one sweep
struct SweepModes {
  std::size_t sticking = 0, sliding = 0, opening = 0;
  bool operator==(const SweepModes& o) const {
    return sticking == o.sticking && sliding == o.sliding && opening == o.opening;
  }
};

// The next impulse of a contact from c = v - G lambda - (0, 0, target_vz): its law (opening,
// sticking, or sliding by bisection; single_contact.hpp), relaxed by alpha; a non-finite result
// is reset to zero and counted.
inline Vec3 next_contact_impulse(const ContactProblem& row, const Vec3& c, double alpha,
                                 SweepModes& modes, ContactSolverDiagnostics& diag) {
  const SingleContactResult r = solve_single_contact(row.g, row.g_inv, c, row.mu, &row.lambda);
  if (r.fallback) ++diag.sliding_fallbacks;
  switch (r.mode) {
    case ContactMode::kOpening: ++modes.opening; break;
    case ContactMode::kSticking: ++modes.sticking; break;
    case ContactMode::kSliding: ++modes.sliding; break;
  }
  Vec3 next = alpha == 1.0 ? r.lambda : Vec3((1.0 - alpha) * row.lambda + alpha * r.lambda);
  if (!next.allFinite()) {
    ++diag.non_finite;
    next.setZero();
  }
  return next;
}

// The next impulse of a 1-D row whose velocity is v: the exact update clamped to its bounds,
// relaxed by alpha; non-finite -> zero, counted.
inline double next_row_impulse(const ContactProblems& problems, const ScalarRow& row, double v,
                               double alpha, ContactSolverDiagnostics& diag) {
  double lo = 0.0, hi = 0.0;
  scalar_row_bounds(problems, row, lo, hi);
  const double exact = std::clamp(row.lambda + (row.target - v) / row.g, lo, hi);
  double next = alpha == 1.0 ? exact : (1.0 - alpha) * row.lambda + alpha * exact;
  if (!std::isfinite(next)) {
    ++diag.non_finite;
    next = 0.0;
  }
  return next;
}

// the part of the velocity residual of a 1-D row (see sweep_island): its exact update's velocity
// change from the final velocity v
inline double row_residual(const ContactProblems& problems, const ScalarRow& row, double v) {
  double lo = 0.0, hi = 0.0;
  scalar_row_bounds(problems, row, lo, hi);
  const double exact = std::clamp(row.lambda + (row.target - v) / row.g, lo, hi);
  return std::abs(row.g * (exact - row.lambda));
}

// the error of an island's sweep number `sweep` (from 1) into the solve's history: the largest
// of the islands that ran that sweep
inline void record_sweep_error(std::vector<double>& history, int sweep, double error) {
  const auto k = static_cast<std::size_t>(sweep - 1);
  if (k < history.size())
    history[k] = std::max(history[k], error);
  else
    history.push_back(error);  // islands run one after another: k == history.size()
}

// How an island's sweeps may stop (island_tolerance): at `tolerance`, or, when stall_band > 0,
// on a full sweep whose error is below stall_band but no longer falling (see sweep_island).
struct IslandTolerance {
  double tolerance = 0.0;   // m/s
  double stall_band = 0.0;  // m/s; 0: no stall stop
};

struct IslandSweeps {
  int iterations = 0;
  double error = 0.0;  // of the last sweep (the smaller of its two measures when both ran)
  double tolerance = 0.0;  // the island's stopping tolerance (island_tolerance)
  SweepModes modes;    // of the last sweep
};

// The stopping tolerance of an island (m/s): the absolute threshold, or, when larger,
// params.relative_threshold times the island's contact speed, the fastest relative motion of
// any of its contact points at the start of the step (approach or separation, and slip). Only
// islands of contacts between single rigid bodies (or one and static geometry: is_rigid_contact)
// and no 1-D rows get the relative tolerance: an articulated system, a joint limit, a wire or a
// rolling-friction row keeps the absolute threshold (a joint limit under contact held to 2.7e-6
// instead of 1e-9 with it), and so does every island when the threshold is 0. A loosely solved
// island then gets a finishing pass (bisection_solver.cpp). Such an island with at least
// kQuietRelativeMinContacts contacts also gets the stall band, kStallBandFactor times the
// threshold. See bisection_solver.hpp (Relative tolerance, Stall stop).
inline IslandTolerance island_tolerance(const ContactSolverParams& params,
                                        const ContactProblems& problems,
                                        const std::uint32_t* contacts, std::size_t nc,
                                        std::size_t nr) {
  IslandTolerance out;
  out.tolerance = params.threshold;
  // (threshold 0 asks for max_iter exhaustive sweeps: no tolerance of any kind)
  if (!(params.relative_threshold > 0.0) || !(params.threshold > 0.0) || nr > 0) return out;
  double speed = 0.0;
  for (std::size_t k = 0; k < nc; ++k) {
    const ContactProblem& row = problems.rows[contacts[k]];
    if (!is_rigid_contact(row)) return out;
    speed = std::max(speed, std::max(std::abs(row.impact_velocity), row.slip_velocity));
  }
  const double relative = params.relative_threshold * speed;
  if (std::isfinite(relative)) out.tolerance = std::max(params.threshold, relative);
  if (nc >= kQuietRelativeMinContacts) out.stall_band = kStallBandFactor * params.threshold;
  return out;
}

// Sweep one island until a full sweep passes a stopping test or params.max_iter sweeps ran.
//   contacts[0..nc): the island's contact rows (indices into quiet)
//   update_contact(k, alpha, modes) -> double: update the k-th contact of the island (law from
//     next_contact_impulse), apply the change, remember its velocity right after, return the
//     largest component of G dlambda
//   update_row(k, alpha) -> double: the same for the k-th 1-D row (next_row_impulse)
//   velocity_residual() -> double: after a full sweep, the largest drift of a contact's velocity
//     since its own update in the sweep, and row_residual of every 1-D row
//   gather(VecX&) / scatter(const VecX&): the island's impulses in sweep order (3 per contact,
//     then the 1-D rows) out of / into the rows, scatter applying the changes
// Stopping: the per-row test (every update's change below the tolerance) or, on a full sweep
// with relaxation 1 whose per-row error is within kResidualWindow of the tolerance, the velocity
// residual below the tolerance. Each update solves its row's law exactly and its impulse does not
// change again in that sweep, so a residual below the tolerance means the final velocities
// satisfy every law to the tolerance. With a stall band (tol.stall_band > 0), also a full sweep
// whose error is below the band and above kStallRatio times the error of the full sweep
// kStallWindow or more sweeps before it (not the first: its error is the warm start's).
template <class UpdateContact, class UpdateRow, class Residual, class Gather, class Scatter>
IslandSweeps sweep_island(const ContactSolverParams& params, const IslandTolerance& tol,
                          bool forward_first, const std::uint32_t* contacts, std::size_t nc,
                          std::size_t nr, std::vector<std::uint8_t>& quiet, SweepScratch& scratch,
                          ContactSolverDiagnostics& diag, UpdateContact&& update_contact,
                          UpdateRow&& update_row, Residual&& velocity_residual, Gather&& gather,
                          Scatter&& scatter) {
  const bool constant_alpha = params.alpha_init == params.alpha_min || params.alpha_decay == 1.0;
  // dropped after the kAcceleratedModeCheckSweep-th sweep when the modes changed (see below)
  bool accelerate = params.acceleration_depth > 0 && constant_alpha &&
                    nc >= kAcceleratedMinContacts && params.max_iter > kAcceleratedFirstSweep;
  if (accelerate) {
    gather(scratch.start);
    scratch.mixer.begin(static_cast<std::size_t>(scratch.start.size()),
                        params.acceleration_depth);
  }
  double alpha = params.alpha_init;
  const double threshold = tol.tolerance;
  IslandSweeps out;
  out.tolerance = threshold;
  double& error = out.error;
  SweepModes& modes = out.modes;
  SweepModes last_modes;
  int it = 0;
  bool full = true;  // the first sweep visits every row
  // a contact whose update changed less than this is quiet (kQuietFraction in islands of at
  // least kQuietRelativeMinContacts contacts; threshold 0: never)
  const bool relative_quiet = threshold > 0.0 && nc >= kQuietRelativeMinContacts;
  const int full_period = relative_quiet ? kRelativeFullSweepPeriod : kFullSweepPeriod;
  double quiet_level = threshold;
  // the last full sweeps (sweep number, error), for the stall stop
  std::array<std::pair<int, double>, kStallHistory> fulls{};
  std::size_t nfull = 0;
  // true when the full sweep just run (number it, error e) is within the band and has not
  // halved the error of the latest full sweep at least kStallWindow sweeps before it; never
  // against the first sweep, whose error measures the warm start rather than the iteration
  auto stalled = [&](double e) {
    if (!(e < tol.stall_band)) return false;
    for (std::size_t j = nfull; j-- > 0 && j + kStallHistory >= nfull;) {
      const auto& [at, then] = fulls[j % kStallHistory];
      if (at <= 1) return false;
      if (it - at >= kStallWindow) return e > kStallRatio * then;
    }
    return false;
  };
  // a contact: skipped on a partial sweep while quiet, else updated and re-marked
  auto visit = [&](std::size_t k) {
    const std::uint32_t r = contacts[k];
    if (!full && quiet[r]) return;
    const double e = update_contact(k, alpha, modes);
    quiet[r] = e < quiet_level;
    error = std::max(error, e);
    ++diag.updates;
  };
  while (it < params.max_iter) {
    error = 0.0;
    modes = SweepModes{};
    // forward: the contacts, then the 1-D rows; reverse: the same sequence backwards
    if (forward_first) {
      for (std::size_t k = 0; k < nc; ++k) visit(k);
      for (std::size_t k = 0; k < nr; ++k) error = std::max(error, update_row(k, alpha));
    } else {
      for (std::size_t k = nr; k-- > 0;) error = std::max(error, update_row(k, alpha));
      for (std::size_t k = nc; k-- > 0;) visit(k);
    }
    diag.updates += nr;
    ++it;
    // the solve only ends on a full sweep: every update's change below the threshold, or its
    // velocity residual (only worth computing when the per-row test failed but not by far)
    // (an error of exactly 0 passes a threshold of 0: nothing changed, nothing will)
    const bool below = error < threshold || error == 0.0;
    double residual = -1.0;
    if (full && !below && alpha == 1.0 && error < kResidualWindow * threshold)
      residual = velocity_residual();
    // both measures bound how far the contacts' velocities are from their laws
    if (residual >= 0.0) error = std::min(error, residual);
    record_sweep_error(diag.error_history, it, error);
    if (full && below) break;
    if (residual >= 0.0 && residual < threshold) break;
    if (full && tol.stall_band > 0.0) {
      if (stalled(error)) break;
      fulls[nfull++ % kStallHistory] = {it, error};
    }
    // the caller abandons the solve (Ctrl-C): end as if max_iter had been reached
    if (scratch.interrupt && scratch.interrupt->after_sweep(nc + nr)) break;
    // next sweep: full when this partial one found nothing left to do, every full_period-th
    // sweep (so a quiet contact its neighbours disturbed is revisited), and as the last one
    // (its modes are the ones reported)
    full = accelerate || below || it % full_period == 0 || it + 1 == params.max_iter;
    if (relative_quiet) quiet_level = std::max(threshold, kQuietFraction * error);
    alpha = (1.0 - params.alpha_decay) * params.alpha_min + params.alpha_decay * alpha;
    if (accelerate && it < params.max_iter) {
      // the next sweep starts from Anderson's combination (the last one from a plain result)
      gather(scratch.result);
      const bool modes_held = modes == last_modes;
      last_modes = modes;
      if (it == kAcceleratedModeCheckSweep && !modes_held) {
        // a pile still moving: plain sweeps, with quiet skipping, for the rest of the solve
        accelerate = false;
        ++diag.acceleration_declined;
        continue;
      }
      if (!modes_held) scratch.mixer.forget();
      if (it >= kAcceleratedFirstSweep && it + 1 < params.max_iter &&
          scratch.mixer.mix(scratch.start, scratch.result)) {
        scatter(scratch.result);
        ++diag.accelerated;
      }
      scratch.start.swap(scratch.result);
    }
  }
  if (accelerate)
    diag.acceleration_restarts += static_cast<std::size_t>(scratch.mixer.restarts());
  out.iterations = it;
  return out;
}

}  // namespace torsion
