#include "contact/bisection_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "contact/contact_space_solver.hpp"
#include "contact/rigid_kernel.hpp"
#include "contact/single_contact.hpp"
#include "core/check.hpp"

namespace torsion {

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
  in_unit(p.erp, "erp", true);
  check_non_negative(p.erp2, "erp2");
  if (p.acceleration_depth < 0 || p.acceleration_depth > kMaxAccelerationDepth)
    throw_invalid("acceleration_depth must be in [0, " + std::to_string(kMaxAccelerationDepth) +
                  "], got " + std::to_string(p.acceleration_depth));
}

void BisectionContactSolver::set_normal_targets(ContactProblems& problems, double dt) const {
  for (ContactProblem& row : problems.rows) {
    const double approach = row.impact_velocity;  // > 0 when closing
    const bool bounces = row.restitution > 0.0 && approach > row.restitution_threshold;
    if (row.depth < 0.0 && approach * dt < -row.depth) {
      // a gap this step's approach does not close: only forbid overshooting it
      row.target_vz = row.depth / dt;
      continue;
    }
    double target = bounces ? row.restitution * approach : 0.0;
    if (row.depth > kErpSlop && (params_.erp > 0.0 || params_.erp2 > 0.0)) {
      const double correction = params_.erp * (row.depth - kErpSlop) / dt + params_.erp2 * approach;
      target = std::max(target, correction);
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
    double lo = 0.0, hi = 0.0;
    scalar_row_bounds(problems, row, lo, hi);
    const double v = row_velocity(problems, row, u);
    const double exact = std::clamp(row.lambda + (row.target - v) / row.g, lo, hi);
    residual = std::max(residual, std::abs(row.g * (exact - row.lambda)));
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
  diag_.accelerated = diag_.acceleration_restarts = 0;
  for (const ScalarRow& row : problems.scalar_rows) {
    switch (row.kind) {
      case RowKind::kJointLower:
      case RowKind::kJointUpper: ++diag_.joint_limit_rows; break;
      case RowKind::kJointFriction: ++diag_.joint_friction_rows; break;
      default: ++diag_.rolling_rows; break;
    }
  }
  if (n == 0 && m == 0) return;

  const bool forward_first = params_.fixed_order ? true : forward_;
  if (!params_.fixed_order) forward_ = !forward_;

  double alpha = params_.alpha_init;
  std::size_t sticking = 0, sliding = 0, opening = 0;
  // one Gauss-Seidel update of contact i; returns its largest velocity change
  auto update_contact = [&](ContactProblem& row, Vec3& v_after) -> double {
    if (row.g_inv(2, 2) == 0.0) return 0.0;  // both sides immovable
    const Vec3 v = contact_velocity(problems, row, u);
    v_after = v;
    Vec3 c = v - row.g * row.lambda;
    c.z() -= row.target_vz;

    const SingleContactResult r = solve_single_contact(row.g, row.g_inv, c, row.mu, &row.lambda);
    if (r.fallback) ++diag_.sliding_fallbacks;
    switch (r.mode) {
      case ContactMode::kOpening: ++opening; break;
      case ContactMode::kSticking: ++sticking; break;
      case ContactMode::kSliding: ++sliding; break;
    }
    Vec3 next = alpha == 1.0 ? r.lambda : Vec3((1.0 - alpha) * row.lambda + alpha * r.lambda);
    if (!next.allFinite()) {
      ++diag_.non_finite;
      next.setZero();
    }
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
  auto update_rigid = [&](ContactProblem& row, Vec3& v_after) -> double {
    if (row.g_inv(2, 2) == 0.0) return 0.0;
    Vec3 v = rigid_contact_velocity(row, u);
    v_after = v;
    v.z() -= row.target_vz;  // the velocity the law sees (v_z >= 0 is the constraint)
    // opening needs only the normal part of c = v - G lambda
    Vec3 next;
    bool stuck = false;
    if (v.z() - row.g.row(2).dot(row.lambda) >= 0.0) {
      next.setZero();
      ++opening;
    } else {
      // sticking: lambda0 = -G^-1 c = lambda - G^-1 v (one product instead of G lambda and
      // G^-1 c); it brings the contact's velocity to exactly (0, 0, target_vz)
      const Vec3 lambda0 = row.lambda - row.g_inv * v;
      if (row.mu > 0.0 && row.mu * lambda0.z() >= lambda0.head<2>().norm()) {
        next = lambda0;
        stuck = true;
        ++sticking;
      } else {
        const Vec3 c = v - row.g * row.lambda;
        const SingleContactResult r =
            solve_single_contact(row.g, row.g_inv, c, row.mu, &row.lambda);
        if (r.fallback) ++diag_.sliding_fallbacks;
        next = r.lambda;
        ++sliding;
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
  auto update_row = [&](ScalarRow& row) -> double {
    if (row.g == 0.0) return 0.0;
    double lo = 0.0, hi = 0.0;
    scalar_row_bounds(problems, row, lo, hi);
    const double v = row_velocity(problems, row, u);
    const double exact = std::clamp(row.lambda + (row.target - v) / row.g, lo, hi);
    double next = alpha == 1.0 ? exact : (1.0 - alpha) * row.lambda + alpha * exact;
    if (!std::isfinite(next)) {
      ++diag_.non_finite;
      next = 0.0;
    }
    const double dlambda = next - row.lambda;
    if (dlambda == 0.0) return 0.0;
    row.lambda = next;
    apply_row_impulse(problems, row, dlambda, u);
    return std::abs(row.g * dlambda);
  };

  build_islands(problems);
  quiet_.assign(n, 0);
  v_after_.resize(n);
  rigid_.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    rigid_[k] = params_.compact_kernel && is_rigid_contact(problems.rows[k]);
  const bool constant_alpha =
      params_.alpha_init == params_.alpha_min || params_.alpha_decay == 1.0;
  for (std::size_t island = 0; island < diag_.islands; ++island) {
    const std::uint32_t* contacts = island_rows_.data() + contact_begin_[island];
    const std::size_t nc = contact_begin_[island + 1] - contact_begin_[island];
    const std::uint32_t* rows = island_scalar_rows_.data() + scalar_begin_[island];
    const std::size_t nr = scalar_begin_[island + 1] - scalar_begin_[island];
    // an island of one articulated system: solved in contact space (contact_space_solver.hpp)
    if (space != nullptr && space->solve_island(problems, contacts, nc, rows, nr, u, params_,
                                                forward_first, diag_, quiet_))
      continue;
    alpha = params_.alpha_init;
    double error = 0.0;
    int it = 0;
    bool full = true;  // the first sweep visits every row
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
    const bool accelerate = params_.acceleration_depth > 0 && constant_alpha &&
                            nc >= kAcceleratedMinContacts &&
                            params_.max_iter > kAcceleratedFirstSweep;
    if (accelerate) {
      gather(sweep_start_);
      mixer_.begin(static_cast<std::size_t>(sweep_start_.size()), params_.acceleration_depth);
    }
    // a contact row: skipped on a partial sweep while quiet, else updated and re-marked
    auto visit = [&](std::uint32_t k) {
      if (!full && quiet_[k]) return;
      const double e = rigid_[k] ? update_rigid(problems.rows[k], v_after_[k])
                                 : update_contact(problems.rows[k], v_after_[k]);
      quiet_[k] = e < params_.threshold;
      error = std::max(error, e);
      ++diag_.updates;
    };
    std::size_t last_modes[3] = {0, 0, 0};
    while (it < params_.max_iter) {
      error = 0.0;
      sticking = sliding = opening = 0;
      // forward: the contacts, then the 1-D rows; reverse: the same sequence backwards
      if (forward_first) {
        for (std::size_t k = 0; k < nc; ++k) visit(contacts[k]);
        for (std::size_t k = 0; k < nr; ++k)
          error = std::max(error, update_row(problems.scalar_rows[rows[k]]));
      } else {
        for (std::size_t k = nr; k-- > 0;)
          error = std::max(error, update_row(problems.scalar_rows[rows[k]]));
        for (std::size_t k = nc; k-- > 0;) visit(contacts[k]);
      }
      diag_.updates += nr;
      ++it;
      // the solve only ends on a full sweep: every update's change below the threshold, or
      // (below) its velocity residual
      const bool below = error < params_.threshold;
      // the velocity residual (see the header) when the per-row test failed but not by far
      // (it was at most kResidualWindow times smaller on the piles measured: no use otherwise)
      double residual = -1.0;
      if (full && !below && alpha == 1.0 && error < kResidualWindow * params_.threshold)
        residual = velocity_residual(problems, contacts, nc, rows, nr, u);
      if (full && below) break;
      if (residual >= 0.0) {
        // the sweep's error is the smaller of its two measures (both are sound upper bounds
        // of how far the contacts' velocities are from their laws, see the header)
        error = std::min(error, residual);
        if (residual < params_.threshold) break;
      }
      // next sweep: full when this partial one found nothing left to do, every
      // kFullSweepPeriod-th sweep (so a quiet contact its neighbours disturbed is revisited),
      // and as the last one (its modes are the ones reported)
      full = accelerate || below || it % kFullSweepPeriod == 0 || it + 1 == params_.max_iter;
      alpha = (1.0 - params_.alpha_decay) * params_.alpha_min + params_.alpha_decay * alpha;
      if (accelerate && it < params_.max_iter) {
        // the next sweep starts from Anderson's combination (the last one from a plain result)
        gather(sweep_result_);
        const bool modes_held =
            sticking == last_modes[0] && sliding == last_modes[1] && opening == last_modes[2];
        last_modes[0] = sticking;
        last_modes[1] = sliding;
        last_modes[2] = opening;
        if (!modes_held) mixer_.forget();
        if (it >= kAcceleratedFirstSweep && it + 1 < params_.max_iter &&
            mixer_.mix(sweep_start_, sweep_result_)) {
          scatter(sweep_result_);
          ++diag_.accelerated;
        }
        sweep_start_.swap(sweep_result_);
      }
    }
    if (accelerate) diag_.acceleration_restarts += static_cast<std::size_t>(mixer_.restarts());
    diag_.iterations = std::max(diag_.iterations, it);
    diag_.error = std::max(diag_.error, error);
    diag_.sticking += sticking;
    diag_.sliding += sliding;
    diag_.opening += opening;
  }
  diag_.converged = diag_.error < params_.threshold;
}

}  // namespace torsion
