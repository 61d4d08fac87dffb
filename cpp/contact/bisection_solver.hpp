// The contact solver: RaiSim's per-contact iteration (Hwangbo, Lee, Hutter, RA-L 2018).
//
// Gauss-Seidel over contacts with the generalized velocities u kept current: for contact i,
//   1. read its velocity v_i = sum_s J_s u_s + v_fixed and remove its own impulse's share,
//      c_i = v_i - G_ii lambda_i, shifted by the normal velocity it aims at (target_vz);
//   2. solve the single-contact Coulomb problem exactly (single_contact.hpp);
//   3. relax, lambda_i <- (1 - alpha) lambda_i + alpha lambda*, and apply the change to u.
// The 1-D rows (scalar_row.hpp: joint limits, joint friction, rolling and spinning friction) are
// swept in the same loop, after the contacts (before them in a reverse sweep), each by its exact
// clamped 1-D update.
// The rows are first split into islands: the connected components of the graph whose nodes are
// the movable bodies (slices of u) and whose edges are the rows (union-find over the sides). No
// impulse of one island changes a velocity of another, so each island is swept on its own, in the
// fixed row order restricted to it, until the largest velocity change a sweep causes at any of its
// contacts, max_i |G_ii dlambda_i|_inf (m/s), is below the threshold, or max_iter sweeps have run:
// a settled pile does not pay for the sweeps a tumbling body elsewhere needs. The result does not
// depend on the order of the islands (each only reads and writes its own slices of u).
// Within an island, a contact whose last update changed its velocity by less than the threshold
// (in an island of 64 contacts or more: or than a hundredth of the island's largest change in
// the previous sweep) is skipped by the next sweeps except every 4th (8th in such an island),
// which visits every row (see kQuietFraction below); the solve still ends only on such a full
// sweep below the threshold.
// Relative tolerance (params.relative_threshold, 0.01 by default): an island of rigid-body contacts
// only (no robot, no 1-D row; threshold > 0) stops at relative_threshold times its contact speed,
// the fastest approach, separation or slip of its contact points at the start of the step
// (island_tolerance, island_sweeps.hpp), then a finishing pass of at most kFinishSweeps sweeps
// solves its speculative contacts and those off their normal target to the threshold
// (bisection_solver.cpp). Without that pass a ball resting on a box sliding at 1 m/s ended at
// 2 mm/s vertical (tests/contact/test_contact_physics.py rolling) and a box sliding into a wall
// stopped 0.12 mm short of it; with it the 100-cube drop of bench_contact.py runs about 2x MuJoCo
// Newton with issue 30's quality criteria met (the absolute rule about 0.45x). An island of 64
// contacts or more also stops when its error is within the stall band and no longer falling
// (kStallBandFactor below).
// Stopping: a full sweep also ends the solve (relaxation 1 only) when its velocity residual is
// below the threshold: the largest drift, over the island's contacts, of a contact's velocity
// between its own update in the sweep and the end of the sweep (|v_i(u_end) - v_i^after|_inf;
// for a 1-D row, its exact update from the final u). Each update solves its contact's law
// exactly for the velocity it saw and its impulse does not change afterwards in the sweep, so the
// final (u, lambda) satisfy every contact's law exactly for velocities off by less than the
// threshold: a sound test of the result, where the per-row test (RaiSim's) bounds only what each
// update changed. Impulse traded between the coplanar contacts of a face (a null space of the
// Delassus matrix) changes the per-row measure but not the residual. Measured on the benchmark
// piles, it rarely ends a solve much earlier: there the contacts' velocities themselves keep
// changing (slow Gauss-Seidel convergence, sliding contacts), so it is only evaluated when the
// per-row error is within 4x of the threshold. The reported error is the smaller of the two.
// Contacts whose sides are single rigid bodies are updated by the compact kernel
// (rigid_kernel.hpp: shared per-body inverse masses, lever arms, opening and sticking decided
// before any bisection work) unless params.compact_kernel is false. Such contacts are built
// without the generic J and M^-1 J^T when the kernel is on (has_jacobian(): false); they then go
// through the kernel whatever the parameter says by the time of the solve.
// Sweep direction alternates forward/reverse from one solve to the next, unless pinned.
// Acceleration (anderson.hpp): in an island of at least kAcceleratedMinContacts contacts, from
// its kAcceleratedFirstSweep-th sweep on, each sweep starts from Anderson's combination of the
// last `acceleration_depth` sweeps instead of the last one (0: off). Such an island visits every
// row on every sweep (no quiet skipping: the map must be the same from sweep to sweep), and its
// relaxation must be constant (alpha_init == alpha_min or alpha_decay == 1; otherwise plain
// sweeps). A sweep after which the counts of sticking, sliding and opening contacts changed
// starts the history afresh (the map is only affine while the modes hold), and the last sweep
// always starts from a plain result. An island whose counts changed from its first sweep to its
// second (kAcceleratedModeCheckSweep) is declined: it is swept plainly, with quiet skipping, for
// the rest of that solve. On a pile that is still moving the modes keep changing, Anderson saves
// few sweeps and the full sweeps it needs cost more than it saves (the 100-cube drop of
// benchmarks/bench_contact.py ran at half the plain speed before islands were declined, at the
// plain speed since); on a resting stack it reaches the threshold where plain sweeps do not.
// Off by default: on a settled pile that plain sweeps finish in a few sweeps, or a robot's
// island (contact space, where applying a combination costs a dense product), it costs more
// than it saves.
//
// Normal targets (set_normal_targets): a contact whose approach speed at the start of the step
// exceeds the pair's restitution threshold aims at bouncing with e times that speed; a penetrating
// contact aims at erp * (depth - kErpSlop) / dt + erp2 * (penetration rate) when ERP is on, at
// most max_depenetration_velocity (the larger of the two wins; the cap keeps a body that starts
// deep in another, such as a robot reset a few centimetres into the ground, from being launched
// at erp * depth / dt: 4 m/s for 2 cm at ERP 0.2 and dt 1 ms; the slop lets the contacts of a
// resting body settle at slightly different depths without their correction targets fighting
// each other in the sweeps); a contact still separated by a gap (depth < 0, speculative) may
// approach by at most gap / dt, so the pair touches at the end of the step instead of
// overshooting; one that bounces and whose approach reaches the gap this step bounces from there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "contact/anderson.hpp"
#include "contact/contact_problem.hpp"
#include "contact/solve_interrupt.hpp"
#include "core/cpu_dispatch.hpp"

namespace torsion {

class ContactSpaceSolver;  // contact_space_solver.hpp

constexpr double kErpSlop = 2e-5;  // m of penetration that ERP leaves alone
constexpr int kMaxAccelerationDepth = 16;
constexpr std::size_t kAcceleratedMinContacts = 8;  // smaller islands converge in a few sweeps
constexpr int kAcceleratedFirstSweep = 3;  // the first sweeps settle the modes: plain
constexpr int kAcceleratedModeCheckSweep = 2;  // modes changed since the first sweep: declined

// Sweep rules shared by the u-based sweep (bisection_solver.cpp) and the contact-space sweep
// (contact_space_solver.cpp), which must follow them exactly to stay the same iteration.
// Quiet contacts: a contact whose last update changed its velocity by less than the quiet level
// is left out of the following sweeps, except every kFullSweepPeriod-th sweep, which visits every
// row; the solve ends only on a full sweep below the threshold, so the termination test is the
// same as without skipping. In a pile most speculative (opening) contacts and many settled ones
// are quiet after a few sweeps. The quiet level is the threshold. In an island of at least
// kQuietRelativeMinContacts contacts it is also relative, kQuietFraction of the island's largest
// change in the previous sweep when that is larger, and the full sweeps come every
// kRelativeFullSweepPeriod-th sweep: while a big island is far from converged, the partial
// sweeps spend their updates where the velocities still change by more than a hundredth of the
// largest change. On the settled 1000-cube pile, which runs into max_iter, that cuts the updates
// per step by more than half (437k to 202k) at about the same distance to a tight solve
// (docs/architecture.md).
// Small islands converge in a few sweeps or are held up by their sliding contacts, where
// skipping saves nothing; they keep the absolute level. Threshold 0 disables skipping: every
// sweep visits every row.
constexpr double kQuietFraction = 1e-2;
constexpr std::size_t kQuietRelativeMinContacts = 64;
constexpr int kRelativeFullSweepPeriod = 8;
constexpr int kFullSweepPeriod = 4;
// The velocity residual of a full sweep is evaluated only when its per-row error is within this
// factor of the threshold (it was at most this many times smaller on the piles measured).
constexpr double kResidualWindow = 4.0;
// Stall stop of a big rigid island with the relative tolerance (island_tolerance): its sweeps
// also end on a full sweep whose error is below kStallBandFactor times the threshold (1e-5 m/s
// by default, a thousandth of the speed gravity gives in a 1 ms step) and above kStallRatio
// times the error of the full sweep kStallWindow or more sweeps before it. A pile coming to rest
// sits there: its Gauss-Seidel error falls to about twice the threshold in 20 sweeps, then
// wanders between one and two times it for the rest of max_iter (the 100-cube drop, step 1881:
// 2e-8 at sweep 24, 1.1e-8 at sweep 150). The next step starts from these impulses, so stopping
// hands the remaining error to the next step's sweeps instead of spending max_iter on it. The
// band keeps the rule away from islands still settling (errors of 1e-4 m/s and more), where a
// stall stop left bodies moving at 3 s. Islands below kQuietRelativeMinContacts contacts (a
// stack), robots and islands with 1-D rows keep running to their tolerance.
constexpr double kStallBandFactor = 1e3;
constexpr double kStallRatio = 0.5;
constexpr int kStallWindow = 24;
// full sweeps remembered: kStallWindow back even when every sweep is full (Anderson)
constexpr std::size_t kStallHistory = kStallWindow + 1;

// the impulse bounds of a 1-D row: fixed, or (rolling, spinning) following the normal impulse of
// its contact
inline void scalar_row_bounds(const ContactProblems& problems, const ScalarRow& row, double& lo,
                              double& hi) {
  if (row.parent < 0) {
    lo = row.lower;
    hi = row.upper;
    return;
  }
  const double ln = problems.rows[static_cast<std::size_t>(row.parent)].lambda.z();
  hi = row.friction * std::max(0.0, ln);
  lo = -hi;
}

// Anderson state of a sweeping solver (island_sweeps.hpp), reused from island to island
struct SweepScratch {
  AndersonMixer mixer;
  VecX start, result;  // an island's impulses at the start and the end of a sweep (sweep order)
  SolveInterrupt* interrupt = nullptr;  // asked between sweeps (solve_interrupt.hpp); optional
};

struct ContactSolverParams {
  double alpha_init = 1.0;   // relaxation of the first sweep
  double alpha_min = 1.0;    // relaxation reached after many sweeps
  double alpha_decay = 1.0;  // alpha_{k+1} = (1 - alpha_decay) alpha_min + alpha_decay alpha_k
  int max_iter = 150;        // sweeps per solve
  double threshold = 1e-8;   // m/s: the solve ends when no contact's velocity changes more
  // dimensionless: a rigid island's tolerance is also this fraction of its contact speed, when
  // larger than `threshold` (Relative tolerance, above; 0: the absolute threshold only)
  double relative_threshold = 0.01;
  double erp = 0.0;          // fraction of the penetration removed per step (0: off)
  double erp2 = 0.0;         // damping of the penetration rate (dimensionless, 0: off)
  double max_depenetration_velocity = 1.0;  // m/s: cap of ERP's push-out (inf: none)
  // fraction of the end-of-step penetration the position pass (position_correction.hpp) removes
  // per step by moving the bodies, velocities untouched (0: off)
  double position_correction = 0.2;
  bool fixed_order = false;  // true: always sweep forward; false: alternate every solve
  int acceleration_depth = 0;  // Anderson history of big islands (see above); 0: plain sweeps
  // true: contacts whose sides are single rigid bodies go through the compact kernel
  // (rigid_kernel.hpp); false: every contact through the generic path. Both solve the same
  // problem and differ by rounding only (kept in checkpoints for bitwise replays).
  bool compact_kernel = true;
};

// std::invalid_argument naming the field unless: alphas in (0, 1] (alpha_decay in [0, 1]),
// max_iter >= 1, threshold finite and >= 0, erp in [0, 1], erp2 finite and >= 0,
// position_correction in [0, 1],
// max_depenetration_velocity > 0 (inf allowed),
// acceleration_depth in [0, kMaxAccelerationDepth]
void validate_contact_solver_params(const ContactSolverParams& p);

struct ContactSolverDiagnostics {
  int iterations = 0;          // the most sweeps any island used in the last solve
  double error = 0.0;          // the largest last-sweep velocity change of any island (m/s)
  bool converged = true;       // every island's error < threshold (or 0) within max_iter
  std::size_t contacts = 0;    // contact problems of the last solve
  std::size_t warm_started = 0;  // of which started from the previous step's impulse
  std::size_t sticking = 0, sliding = 0, opening = 0;  // final modes of the last solve
  std::size_t islands = 0;     // independent groups of rows solved separately (see above)
  std::size_t contact_space_islands = 0;  // of which solved in contact space (one robot)
  std::size_t updates = 0;     // row updates (contacts and 1-D rows) of the last solve: the work
  std::size_t accelerated = 0;  // sweeps of the last solve started from an Anderson combination
  std::size_t acceleration_restarts = 0;  // of the last solve: histories dropped (safeguard)
  std::size_t acceleration_declined = 0;  // of the last solve: islands whose modes changed
                                          // between their first two sweeps (swept plainly)
  std::size_t joint_limit_rows = 0;     // 1-D rows of the last solve: joint limits,
  std::size_t joint_friction_rows = 0;  // Coulomb joint friction,
  std::size_t rolling_rows = 0;         // rolling and spinning friction
  std::uint64_t sliding_fallbacks = 0;  // since creation: sliding solves that needed the scan
  std::uint64_t non_finite = 0;         // since creation: contact updates reset for NaN/inf
  // of the last solve, one entry per sweep: the largest error (m/s, as `error`) of any island
  // that ran that sweep (RaiSim's getErrorHistory; its size is `iterations`)
  std::vector<double> error_history;
};

class BisectionContactSolver {
 public:
  ContactSolverParams& params() { return params_; }
  const ContactSolverParams& params() const { return params_; }
  const ContactSolverDiagnostics& diagnostics() const { return diag_; }
  // direction of the next sweep when alternating (part of the state a checkpoint must keep)
  bool next_forward() const { return forward_; }
  void set_next_forward(bool f) { forward_ = f; }
  // recorded by the caller that applied the warm start (see ContactSolverDiagnostics)
  void set_warm_started_count(std::size_t n) { diag_.warm_started = n; }
  // asked between sweeps (nullptr: never); see solve_interrupt.hpp
  void set_interrupt(SolveInterrupt* interrupt) { scratch_.interrupt = interrupt; }

  // target_vz of every problem from its depth, impact velocity and material (see above)
  void set_normal_targets(ContactProblems& problems, double dt) const;

  // Solve in place: rows' lambda hold the initial guess (warm start; zero otherwise) whose effect
  // must already be in u; on return they hold the solution and u the corrected velocities.
  // `space` (optional): islands of one articulated system it selected are solved by it in
  // contact space (their warm starts must NOT be in u; see contact_space_solver.hpp).
  void solve(ContactProblems& problems, double* u, ContactSpaceSolver* space = nullptr);

 private:
  // the islands of `problems` into island_rows_ / island_scalar_rows_ (see above)
  void build_islands(const ContactProblems& problems);
  // after a full sweep of an island: the largest drift of a contact's velocity since its update
  // in the sweep (|v_i(u) - v_after_i|_inf) and of a 1-D row's exact update (see solve)
  double velocity_residual(const ContactProblems& problems, const std::uint32_t* contacts,
                           std::size_t nc, const std::uint32_t* rows, std::size_t nr,
                           const double* u) const;
  // the sweeps of every island (solve, after build_islands), built twice
  // (core/cpu_dispatch.hpp): the same operations in the same order
  TORSION_ALWAYS_INLINE void solve_islands_body(ContactProblems& problems, double* u,
                                                ContactSpaceSolver* space, bool forward_first);
  void solve_islands_baseline(ContactProblems& problems, double* u, ContactSpaceSolver* space,
                              bool forward_first);
#if TORSION_AVX2_BUILD
  TORSION_AVX2_TARGET void solve_islands_avx2(ContactProblems& problems, double* u,
                                              ContactSpaceSolver* space, bool forward_first);
#endif

  ContactSolverParams params_;
  ContactSolverDiagnostics diag_;
  bool forward_ = true;
  // scratch of the island split, reused from solve to solve: island k owns the contact rows
  // island_rows_[contact_begin_[k], contact_begin_[k + 1]) and likewise the 1-D rows, each list
  // in increasing row index (the fixed sweep order)
  std::vector<std::int32_t> node_of_dof_, parent_, island_of_root_;
  std::vector<std::int32_t> contact_island_, scalar_island_;
  std::vector<std::uint32_t> island_rows_, island_scalar_rows_;
  std::vector<std::uint32_t> contact_begin_, scalar_begin_;
  std::vector<std::uint8_t> quiet_;  // per contact row: its last update changed nothing
  std::vector<Vec3> v_after_;         // per contact row: its velocity right after its last update
  std::vector<std::uint8_t> rigid_;   // per contact row: updated by the compact kernel
  SweepScratch scratch_;              // Anderson acceleration of the current island
};

}  // namespace torsion
