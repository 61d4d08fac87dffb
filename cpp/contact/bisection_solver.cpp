#include "contact/bisection_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/contact_space_solver.hpp"
#include "contact/island_sweeps.hpp"
#include "contact/rigid_kernel.hpp"
#include "contact/single_contact.hpp"
#include "core/check.hpp"

namespace torsion {

// sweeps of the finishing pass after a relative stop (see solve). 5 closes the wall gap and
// keeps the rolling ball of tests/contact/test_contact_physics.py (so did 20; 3 was slower on the
// drop, finishing passes at 1e-5 or 1e-4 m/s instead of the threshold left 4-10 um of the gap).
// On the 100-cube drop's 2 s it makes 1.6M of the 3.7M updates (3.3M without the pass) and runs
// at about the speed without it; 20 sweeps made 5.2M of 7.4M.
constexpr int kFinishSweeps = 5;
// In an island of kQuietRelativeMinContacts contacts or more, the finishing pass also ends after
// a sweep whose error is above kFinishStall times the previous sweep's: it has stopped
// converging, and its remaining sweeps would end above the threshold too. A big pile after its
// relative stop has nearly every contact off its normal target by more than the threshold, and
// the pass would otherwise update nearly all of them on every sweep, every step. Smaller islands
// (a gap to close, a body resting on a sliding one) keep all kFinishSweeps sweeps.
constexpr double kFinishStall = 0.5;

void validate_contact_solver_params(const ContactSolverParams& p) {
  auto in_unit = [](double v, const char* name, bool zero_ok) {
    if (!std::isfinite(v) || v > 1.0 || v < 0.0 || (!zero_ok && v == 0.0))
      throw_invalid(std::string(name) + (zero_ok ? " must be in [0, 1], got " :
                                                   " must be in (0, 1], got ") + fmt(v));
  };
  in_unit(p.alpha_init, "alpha_init", false);
  in_unit(p.alpha_min, "alpha_min", false);
  in_unit(p.alpha_decay, "alpha_decay", true);
  if (p.max_iter < 1)
    throw_invalid("max_iter must be >= 1, got " + std::to_string(p.max_iter));
  check_non_negative(p.threshold, "threshold");
  check_non_negative(p.relative_threshold, "relative_threshold");
  in_unit(p.erp, "erp", true);
  check_non_negative(p.erp2, "erp2");
  in_unit(p.position_correction, "position_correction", true);
  if (!(p.max_depenetration_velocity > 0.0))  // NaN fails too; inf is no cap
    throw_invalid("max_depenetration_velocity must be > 0 (inf: no cap), got " +
                  fmt(p.max_depenetration_velocity));
  if (p.acceleration_depth < 0 || p.acceleration_depth > kMaxAccelerationDepth)
    throw_invalid("acceleration_depth must be in [0, " + std::to_string(kMaxAccelerationDepth) +
                  "], got " + std::to_string(p.acceleration_depth));
}

void BisectionContactSolver::set_normal_targets(ContactProblems& problems, double dt) const {
  for (ContactProblem& row : problems.rows) {
    const double approach = row.impact_velocity;  // > 0 when closing
    const bool bounces = row.restitution > 0.0 && approach > row.restitution_threshold;
    if (row.depth < 0.0 && !(bounces && approach * dt >= -row.depth)) {
      // a gap (speculative contact): the pair may close it this step but not overshoot it. Aiming
      // at 0 instead, as when the approach would close it, held a body still at the gap (0.1 mm
      // above the ground in zero gravity, 0.8 mm short of a wall at a 5 mm margin). A bounce
      // that this step's approach reaches starts from the gap.
      row.target_vz = row.depth / dt;
      continue;
    }
    double target = bounces ? row.restitution * approach : 0.0;
    if (row.depth > kErpSlop && (params_.erp > 0.0 || params_.erp2 > 0.0)) {
      const double correction = params_.erp * (row.depth - kErpSlop) / dt + params_.erp2 * approach;
      target = std::max(target, std::min(correction, params_.max_depenetration_velocity));
    }
    row.target_vz = target;
  }
}


namespace {


std::int32_t find_root(std::vector<std::int32_t>& parent, std::int32_t x) {
  while (parent[static_cast<std::size_t>(x)] != x) {
    const std::int32_t up = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    parent[static_cast<std::size_t>(x)] = up;  // path halving
    x = up;
  }
  return x;
}

}  // namespace

void BisectionContactSolver::build_islands(const ContactProblems& problems) {
  const std::size_t n = problems.rows.size();
  const std::size_t m = problems.scalar_rows.size();
  // nodes: the distinct slices of u the rows touch, numbered by first appearance
  std::int32_t max_dof = -1;
  for (const ContactProblem& row : problems.rows)
    for (const ContactSide& s : row.side) max_dof = std::max(max_dof, s.dof_begin);
  for (const ScalarRow& row : problems.scalar_rows)
    for (const ContactSide& s : row.side) max_dof = std::max(max_dof, s.dof_begin);
  node_of_dof_.assign(static_cast<std::size_t>(max_dof + 1), -1);
  parent_.clear();
  auto node = [&](std::int32_t dof) -> std::int32_t {
    if (dof < 0) return -1;
    std::int32_t& id = node_of_dof_[static_cast<std::size_t>(dof)];
    if (id < 0) {
      id = static_cast<std::int32_t>(parent_.size());
      parent_.push_back(id);
    }
    return id;
  };
  // union of a row's sides; returns one of its nodes (-1: no movable side)
  auto join = [&](const ContactSide* side) -> std::int32_t {
    const std::int32_t a = node(side[0].dof_begin), b = node(side[1].dof_begin);
    if (a < 0 || b < 0) return a < 0 ? b : a;
    const std::int32_t ra = find_root(parent_, a), rb = find_root(parent_, b);
    if (ra != rb) parent_[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
    return a;
  };
  contact_island_.resize(n);
  scalar_island_.resize(m);
  for (std::size_t k = 0; k < n; ++k) contact_island_[k] = join(problems.rows[k].side);
  for (std::size_t k = 0; k < m; ++k) scalar_island_[k] = join(problems.scalar_rows[k].side);
  // islands numbered by the first row that touches them (contacts, then 1-D rows)
  island_of_root_.assign(parent_.size(), -1);
  std::int32_t islands = 0;
  auto island = [&](std::int32_t& slot) {
    if (slot < 0) return;  // a row without movable sides does nothing: left out
    std::int32_t& id = island_of_root_[static_cast<std::size_t>(find_root(parent_, slot))];
    if (id < 0) id = islands++;
    slot = id;
  };
  for (std::int32_t& slot : contact_island_) island(slot);
  for (std::int32_t& slot : scalar_island_) island(slot);
  // the rows of each island, in increasing row index (counting sort)
  auto bucket = [islands](const std::vector<std::int32_t>& of, std::vector<std::uint32_t>& begin,
                          std::vector<std::uint32_t>& rows) {
    begin.assign(static_cast<std::size_t>(islands) + 1, 0);
    for (std::int32_t k : of)
      if (k >= 0) ++begin[static_cast<std::size_t>(k) + 1];
    for (std::size_t k = 1; k < begin.size(); ++k) begin[k] += begin[k - 1];
    rows.resize(begin.back());
    std::vector<std::uint32_t>& next = begin;  // filled front to back, then shifted back
    for (std::size_t r = 0; r < of.size(); ++r)
      if (of[r] >= 0) rows[next[static_cast<std::size_t>(of[r])]++] = static_cast<std::uint32_t>(r);
    for (std::size_t k = begin.size() - 1; k > 0; --k) begin[k] = begin[k - 1];
    begin[0] = 0;
  };
  bucket(contact_island_, contact_begin_, island_rows_);
  bucket(scalar_island_, scalar_begin_, island_scalar_rows_);
  diag_.islands = static_cast<std::size_t>(islands);
}

double BisectionContactSolver::velocity_residual(const ContactProblems& problems,
                                                 const std::uint32_t* contacts, std::size_t nc,
                                                 const std::uint32_t* rows, std::size_t nr,
                                                 const double* u) const {
  double residual = 0.0;
  for (std::size_t k = 0; k < nc; ++k) {
    const ContactProblem& row = problems.rows[contacts[k]];
    if (row.g_inv(2, 2) == 0.0) continue;  // never updated
    const Vec3 v = rigid_[contacts[k]] ? rigid_contact_velocity(row, u)
                                       : contact_velocity(problems, row, u);
    const Vec3 drift = v - v_after_[contacts[k]];
    residual = std::max(residual, drift.cwiseAbs().maxCoeff());
  }
  for (std::size_t k = 0; k < nr; ++k) {
    const ScalarRow& row = problems.scalar_rows[rows[k]];
    if (row.g == 0.0) continue;
    residual = std::max(residual, row_residual(problems, row, row_velocity(problems, row, u)));
  }
  return residual;
}

void BisectionContactSolver::solve(ContactProblems& problems, double* u,
                                   ContactSpaceSolver* space) {
  const std::size_t n = problems.rows.size();
  const std::size_t m = problems.scalar_rows.size();
  diag_.contacts = n;
  diag_.iterations = 0;
  diag_.error = 0.0;
  diag_.converged = true;
  diag_.sticking = diag_.sliding = diag_.opening = 0;
  diag_.joint_limit_rows = diag_.joint_friction_rows = diag_.rolling_rows = 0;
  diag_.islands = 0;
  diag_.contact_space_islands = 0;
  diag_.updates = 0;
  diag_.error_history.clear();
  diag_.accelerated = diag_.acceleration_restarts = diag_.acceleration_declined = 0;
  for (const ScalarRow& row : problems.scalar_rows) {
    switch (row.kind) {
      case RowKind::kJointLower:
      case RowKind::kJointUpper: ++diag_.joint_limit_rows; break;
      case RowKind::kJointFriction: ++diag_.joint_friction_rows; break;
      case RowKind::kWire: break;  // (wires report their own tension)
      default: ++diag_.rolling_rows; break;
    }
  }
  if (n == 0 && m == 0) return;

  const bool forward_first = params_.fixed_order ? true : forward_;
  if (!params_.fixed_order) forward_ = !forward_;

  build_islands(problems);
  quiet_.assign(n, 0);
  v_after_.resize(n);
  rigid_.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    rigid_[k] = is_rigid_contact(problems.rows[k]) &&
                (params_.compact_kernel || !has_jacobian(problems.rows[k]));
  // the islands' sweeps, built twice (core/cpu_dispatch.hpp)
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) {
    solve_islands_avx2(problems, u, space, forward_first);
    return;
  }
#endif
  solve_islands_baseline(problems, u, space, forward_first);
}

void BisectionContactSolver::solve_islands_baseline(ContactProblems& problems, double* u,
                                                    ContactSpaceSolver* space,
                                                    bool forward_first) {
  solve_islands_body(problems, u, space, forward_first);
}

#if TORSION_AVX2_BUILD
// flatten: the body's lambdas and the sweeps (island_sweeps.hpp, rigid_kernel.hpp) inlined here,
// so that they too are built for AVX2 (the same operations in the same order)
TORSION_AVX2_TARGET __attribute__((flatten)) void BisectionContactSolver::solve_islands_avx2(
    ContactProblems& problems, double* u, ContactSpaceSolver* space, bool forward_first) {
  solve_islands_body(problems, u, space, forward_first);
}
#endif

// The sweeps of every island of the last build_islands (solve)
TORSION_ALWAYS_INLINE void BisectionContactSolver::solve_islands_body(ContactProblems& problems,
                                                                      double* u,
                                                                      ContactSpaceSolver* space,
                                                                      bool forward_first) {
  // one Gauss-Seidel update of a contact; returns its largest velocity change
  // (v_now: the contact's velocity for the current u when the caller has just read it; nullptr:
  // read here)
  auto update_contact = [&](ContactProblem& row, Vec3& v_after, double alpha, SweepModes& modes,
                            const Vec3* v_now) -> double {
    if (row.g_inv(2, 2) == 0.0) return 0.0;  // both sides immovable
    const Vec3 v = v_now ? *v_now : contact_velocity(problems, row, u);
    v_after = v;
    Vec3 c = v - row.g * row.lambda;
    c.z() -= row.target_vz;
    const Vec3 next = next_contact_impulse(row, c, alpha, modes, diag_);
    const Vec3 dlambda = next - row.lambda;
    if (dlambda.isZero(0.0)) return 0.0;
    row.lambda = next;
    apply_contact_impulse(problems, row, dlambda, u);
    const Vec3 dv = row.g * dlambda;
    v_after += dv;
    return dv.cwiseAbs().maxCoeff();
  };
  // the same update through the compact kernel (rigid_kernel.hpp): both sides single rigid
  // bodies; the opening and sticking cases are decided here, only sliding calls the bisection
  auto update_rigid = [&](ContactProblem& row, Vec3& v_after, double alpha, SweepModes& modes,
                          const Vec3* v_now) -> double {
    if (row.g_inv(2, 2) == 0.0) return 0.0;
    Vec3 v = v_now ? *v_now : rigid_contact_velocity(row, u);
    v_after = v;
    v.z() -= row.target_vz;  // the velocity the law sees (v_z >= 0 is the constraint)
    // opening needs only the normal part of c = v - G lambda
    Vec3 next;
    bool stuck = false;
    if (v.z() - row.g.row(2).dot(row.lambda) >= 0.0) {
      next.setZero();
      ++modes.opening;
    } else {
      // sticking: lambda0 = -G^-1 c = lambda - G^-1 v (one product instead of G lambda and
      // G^-1 c); it brings the contact's velocity to exactly (0, 0, target_vz)
      const Vec3 lambda0 = row.lambda - row.g_inv * v;
      if (row.mu > 0.0 && inside_cone(row.mu, lambda0)) {
        next = lambda0;
        stuck = true;
        ++modes.sticking;
      } else {
        const Vec3 c = v - row.g * row.lambda;
        const SingleContactResult r =
            row.mu > 0.0 ? solve_sliding_contact(row.g, c, row.mu, lambda0, &row.lambda)
                         : solve_single_contact(row.g, row.g_inv, c, row.mu, &row.lambda);
        if (r.fallback) ++diag_.sliding_fallbacks;
        next = r.lambda;
        ++modes.sliding;
      }
    }
    if (alpha != 1.0) {
      next = (1.0 - alpha) * row.lambda + alpha * next;
      stuck = false;
    }
    if (!next.allFinite()) {
      ++diag_.non_finite;
      next.setZero();
      stuck = false;
    }
    const Vec3 dlambda = next - row.lambda;
    if (dlambda.isZero(0.0)) return 0.0;
    row.lambda = next;
    apply_rigid_impulse(problems, row, dlambda, u);
    // the velocity change G dlambda: for a sticking contact, from v to (0, 0, target_vz)
    const Vec3 dv = stuck ? Vec3(-v) : Vec3(row.g * dlambda);
    v_after += dv;
    return dv.cwiseAbs().maxCoeff();
  };
  // one exact 1-D update of a scalar row (relaxed like the contacts)
  auto update_row = [&](ScalarRow& row, double alpha) -> double {
    if (row.g == 0.0) return 0.0;
    const double next = next_row_impulse(problems, row, row_velocity(problems, row, u), alpha,
                                         diag_);
    const double dlambda = next - row.lambda;
    if (dlambda == 0.0) return 0.0;
    row.lambda = next;
    apply_row_impulse(problems, row, dlambda, u);
    return std::abs(row.g * dlambda);
  };

  auto update_any = [&](std::uint32_t i, double alpha, SweepModes& modes,
                        const Vec3* v_now = nullptr) {
    return rigid_[i] ? update_rigid(problems.rows[i], v_after_[i], alpha, modes, v_now)
                     : update_contact(problems.rows[i], v_after_[i], alpha, modes, v_now);
  };

  // The finishing pass of an island that stopped at its relative tolerance (island_tolerance):
  // at most kFinishSweeps sweeps, in the island's order, over the contacts the loose stop can
  // leave wrong in position, each updated by its exact law until no update changes a velocity by
  // the absolute threshold. Those are the speculative contacts (a gap: one that stopped with too
  // much impulse leaves a gap that nothing closes once the bodies rest; a box sliding into a wall
  // stopped 0.12 mm short without this pass) and the contacts whose normal velocity is off its
  // target by more than the threshold (pushing with the wrong speed or approaching: a ball at
  // rest on a box sliding at 1 m/s left it at 2.2 mm/s). The other contacts keep their impulses,
  // so the pass reads one velocity per contact and updates only the few that need it.
  auto finish = [&](const std::uint32_t* contacts, std::size_t nc) {
    const double tol = params_.threshold;
    SweepModes modes;  // (the main sweeps' modes are the ones reported)
    const bool big = nc >= kQuietRelativeMinContacts;
    double last_error = 0.0;
    for (int sweep = 0; sweep < kFinishSweeps; ++sweep) {
      double error = 0.0;
      auto visit = [&](std::size_t k) {
        const std::uint32_t i = contacts[k];
        const ContactProblem& row = problems.rows[i];
        if (row.g_inv(2, 2) == 0.0) return;
        // (read once: the test below and the update both need it)
        const Vec3 v =
            rigid_[i] ? rigid_contact_velocity(row, u) : contact_velocity(problems, row, u);
        if (!(row.depth < 0.0)) {
          const double ez = v.z() - row.target_vz;
          if (row.lambda.z() > 0.0 ? !(std::abs(ez) > tol) : !(ez < -tol)) return;
        }
        error = std::max(error, update_any(i, params_.alpha_min, modes, &v));
        ++diag_.updates;
      };
      if (forward_first)
        for (std::size_t k = 0; k < nc; ++k) visit(k);
      else
        for (std::size_t k = nc; k-- > 0;) visit(k);
      if (error < tol) break;
      if (big && sweep > 0 && error > kFinishStall * last_error) break;
      last_error = error;
    }
  };

  for (std::size_t island = 0; island < diag_.islands; ++island) {
    const std::uint32_t* contacts = island_rows_.data() + contact_begin_[island];
    const std::size_t nc = contact_begin_[island + 1] - contact_begin_[island];
    const std::uint32_t* rows = island_scalar_rows_.data() + scalar_begin_[island];
    const std::size_t nr = scalar_begin_[island + 1] - scalar_begin_[island];
    // an island of one articulated system: solved in contact space (contact_space_solver.hpp)
    if (space != nullptr && space->solve_island(problems, contacts, nc, rows, nr, u, params_,
                                                forward_first, diag_, quiet_))
      continue;
    // the island's impulses in sweep order (3 per contact, then the 1-D rows) into x, or x into
    // the rows with u updated by the change
    auto gather = [&](VecX& x) {
      x.resize(static_cast<Eigen::Index>(3 * nc + nr));
      for (std::size_t k = 0; k < nc; ++k)
        x.segment<3>(static_cast<Eigen::Index>(3 * k)) = problems.rows[contacts[k]].lambda;
      for (std::size_t k = 0; k < nr; ++k)
        x[static_cast<Eigen::Index>(3 * nc + k)] = problems.scalar_rows[rows[k]].lambda;
    };
    auto scatter = [&](const VecX& x) {
      for (std::size_t k = 0; k < nc; ++k) {
        ContactProblem& row = problems.rows[contacts[k]];
        const Vec3 next = x.segment<3>(static_cast<Eigen::Index>(3 * k));
        const Vec3 d = next - row.lambda;
        if (d.isZero(0.0)) continue;
        row.lambda = next;
        if (rigid_[contacts[k]])
          apply_rigid_impulse(problems, row, d, u);
        else
          apply_contact_impulse(problems, row, d, u);
      }
      for (std::size_t k = 0; k < nr; ++k) {
        ScalarRow& row = problems.scalar_rows[rows[k]];
        const double next = x[static_cast<Eigen::Index>(3 * nc + k)];
        const double d = next - row.lambda;
        if (d == 0.0) continue;
        row.lambda = next;
        apply_row_impulse(problems, row, d, u);
      }
    };
    const IslandSweeps r = sweep_island(
        params_, island_tolerance(params_, problems, contacts, nc, nr), forward_first, contacts,
        nc, nr, quiet_, scratch_, diag_,
        [&](std::size_t k, double alpha, SweepModes& modes) {
          return update_any(contacts[k], alpha, modes);
        },
        [&](std::size_t k, double alpha) {
          return update_row(problems.scalar_rows[rows[k]], alpha);
        },
        [&] { return velocity_residual(problems, contacts, nc, rows, nr, u); }, gather, scatter);
    if (r.tolerance > params_.threshold && !(r.error < params_.threshold))
      finish(contacts, nc);
    diag_.iterations = std::max(diag_.iterations, r.iterations);
    diag_.error = std::max(diag_.error, r.error);
    diag_.converged = diag_.converged && (r.error < r.tolerance || r.error == 0.0);
    diag_.sticking += r.modes.sticking;
    diag_.sliding += r.modes.sliding;
    diag_.opening += r.modes.opening;
  }
}

}  // namespace torsion
