#include "contact/bisection_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>

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
    if (row.depth > 0.0 && (params_.erp > 0.0 || params_.erp2 > 0.0)) {
      const double correction = params_.erp * row.depth / dt + params_.erp2 * approach;
      target = std::max(target, correction);
    }
    row.target_vz = target;
  }
}

void BisectionContactSolver::solve(ContactProblems& problems, double* u) {
  const std::size_t n = problems.rows.size();
  diag_.contacts = n;
  diag_.iterations = 0;
  diag_.error = 0.0;
  diag_.converged = true;
  diag_.sticking = diag_.sliding = diag_.opening = 0;
  if (n == 0) return;

  const bool forward_first = params_.fixed_order ? true : forward_;
  if (!params_.fixed_order) forward_ = !forward_;

  double alpha = params_.alpha_init;
  std::size_t sticking = 0, sliding = 0, opening = 0;
  for (int it = 0; it < params_.max_iter; ++it) {
    double error = 0.0;
    sticking = sliding = opening = 0;
    for (std::size_t k = 0; k < n; ++k) {
      ContactProblem& row = problems.rows[forward_first ? k : n - 1 - k];
      if (row.g_inv(2, 2) == 0.0) continue;  // both sides immovable
      const Vec3 v = contact_velocity(problems, row, u);
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
      row.lambda = next;
      apply_contact_impulse(problems, row, dlambda, u);
      error = std::max(error, (row.g * dlambda).cwiseAbs().maxCoeff());
    }
    diag_.iterations = it + 1;
    diag_.error = error;
    if (error < params_.threshold) break;
    alpha = (1.0 - params_.alpha_decay) * params_.alpha_min + params_.alpha_decay * alpha;
  }
  diag_.converged = diag_.error < params_.threshold;
  diag_.sticking = sticking;
  diag_.sliding = sliding;
  diag_.opening = opening;
}

}  // namespace torsion
