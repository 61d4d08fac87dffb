#include "world/articulated_position_pass.hpp"

#include <algorithm>
#include <cmath>

#include "contact/bisection_solver.hpp"
#include "contact/position_correction.hpp"
#include "dynamics/articulated/configuration.hpp"
#include "dynamics/articulated/dynamics.hpp"
#include "world/articulated_system.hpp"

namespace torsion {

namespace {

// Scratch of the pass, reused from step to step and per thread (a WorldBatch steps worlds on
// several threads): the rows taken, their targets and pseudo-impulses, A^-1 J_n^T (one column
// per row), W, the pseudo-velocity and the configuration it moves. Nothing in it outlives a call.
struct PassScratch {
  std::vector<std::uint32_t> rows;
  std::vector<double> target, mu;
  MatX x;  // nv x rows: A^-1 J_n^T
  MatX w;  // rows x rows: J_n A^-1 J_n^T
  VecX p;  // nv: the pseudo-velocity
  VecX q_before;  // the configuration before the move (the joint-limit check)
};

// the normal row of side s of a contact row (the contact frame's z row of J_s: the sign of the
// side is in J_s), entry k at j[3 k + 2]
const double* side_jacobian(const ContactProblems& problems, const ContactProblem& row, int s) {
  return problems.jac.data() + row.side[s].jac_begin;
}

}  // namespace

bool correct_articulated_positions(ArticulatedSystem& a, std::int32_t index,
                                   std::int32_t dof_begin, const ContactProblems& problems,
                                   const std::vector<double>& u, double dt, double fraction,
                                   double max_velocity) {
  const ArticulatedModel& model = a.model();
  ArticulatedData& data = a.data();
  const int nv = model.nv;
  if (!(fraction > 0.0) || nv == 0 || !data.factor_valid) return false;
  // the rows on this system alone, and the target of each: what it needs (row_target)
  auto on_system = [&](const ContactProblem& row) {
    return row.side[0].articulated == index && row.side[0].dof_begin == dof_begin &&
           row.side[1].dof_begin < 0;
  };
  auto row_target = [&](const ContactProblem& row) {
    const double* j = side_jacobian(problems, row, 0);
    double v_n = row.v_fixed.z();
    for (int q = 0; q < nv; ++q) v_n += j[3 * q + 2] * u[static_cast<std::size_t>(dof_begin + q)];
    const double d_end = row.depth - dt * v_n;
    const double b = std::min(fraction * (d_end - kErpSlop) / dt, max_velocity);
    // (a contact between the slop and the trigger asks for nothing but does not close further)
    return !std::isfinite(b) ? 0.0 : d_end > kPositionCorrectionTrigger ? b : std::min(b, 0.0);
  };
  // most steps of a robot at rest need nothing: found without touching the scratch
  bool any = false;
  for (const ContactProblem& row : problems.rows)
    if (on_system(row) && row_target(row) > 0.0) {
      any = true;
      break;
    }
  if (!any) return false;
  thread_local PassScratch s;
  s.rows.clear();
  s.target.clear();
  for (std::size_t k = 0; k < problems.rows.size(); ++k) {
    const ContactProblem& row = problems.rows[k];
    if (!on_system(row)) continue;
    s.rows.push_back(static_cast<std::uint32_t>(k));
    s.target.push_back(row_target(row));
  }
  const auto n = static_cast<Eigen::Index>(s.rows.size());
  // X = A^-1 J_n^T through the step's factorisation, W = J_n X
  s.x.resize(nv, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    const double* j = side_jacobian(problems, problems.rows[s.rows[static_cast<std::size_t>(c)]], 0);
    for (int q = 0; q < nv; ++q) s.x(q, c) = j[3 * q + 2];
  }
  factor_solve_columns(model, data, s.x);
  s.w.resize(n, n);
  for (Eigen::Index r = 0; r < n; ++r) {
    const double* j = side_jacobian(problems, problems.rows[s.rows[static_cast<std::size_t>(r)]], 0);
    for (Eigen::Index c = 0; c < n; ++c) {
      double sum = 0.0;
      for (int q = 0; q < nv; ++q) sum += j[3 * q + 2] * s.x(q, c);
      s.w(r, c) = sum;
    }
  }
  // projected Gauss-Seidel over the normal rows, in row order (deterministic)
  s.mu.assign(static_cast<std::size_t>(n), 0.0);
  for (int sweep = 1; sweep <= kPositionCorrectionMaxSweeps; ++sweep) {
    double largest = 0.0;  // m: the largest move of a contact's separation in this sweep
    for (Eigen::Index r = 0; r < n; ++r) {
      const double g = s.w(r, r);
      if (!(g > 0.0) || !std::isfinite(g)) continue;  // a contact no dof can move
      double w_r = 0.0;
      for (Eigen::Index c = 0; c < n; ++c) w_r += s.w(r, c) * s.mu[static_cast<std::size_t>(c)];
      double& mu = s.mu[static_cast<std::size_t>(r)];
      const double next = std::max(0.0, mu + (s.target[static_cast<std::size_t>(r)] - w_r) / g);
      const double d = next - mu;
      if (d == 0.0) continue;
      mu = next;
      largest = std::max(largest, dt * std::abs(g * d));
    }
    if (largest < kPositionCorrectionTolerance) break;
  }
  // p = X mu, and the configuration moved by dt p
  s.p.setZero(nv);
  bool moved = false;
  for (Eigen::Index c = 0; c < n; ++c) {
    const double mu = s.mu[static_cast<std::size_t>(c)];
    if (mu == 0.0) continue;
    s.p += mu * s.x.col(c);
    moved = true;
  }
  if (!moved || !s.p.allFinite()) return false;
  s.q_before = data.q;
  integrate_configuration(model, data.q, s.p, dt);
  // The pass knows no joint limits: it never carries a coordinate past a limit, nor one already
  // past (by the velocity step) further past; the limit stage brings such a one back
  for (int k = 0; k < nv; ++k) {
    const double lo = model.lower[k], hi = model.upper[k];
    if (!std::isfinite(lo) && !std::isfinite(hi)) continue;
    // limits exist only on 1-dof joints: the dof's coordinate is its body's gc entry
    const int g = model.bodies[static_cast<std::size_t>(model.dof_body[k])].gc_index;
    const double before = s.q_before[g];
    data.q[g] = std::clamp(data.q[g], std::min(before, lo), std::max(before, hi));
  }
  data.kinematics_valid = false;
  return true;
}

}  // namespace torsion
