#include "dynamics/articulated/joint_constraints.hpp"

#include <algorithm>
#include <cmath>

#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

namespace {

constexpr int kLower = 0, kUpper = 1, kFriction = 2;
constexpr int kMaxSweeps = 500;
constexpr int kMaxRounds = 4;  // re-check for newly violated limits after a solve

void add_row(JointConstraintWork& w, int dof, int kind, double bound) {
  for (std::size_t r = 0; r < w.dof.size(); ++r)
    if (w.dof[r] == dof && w.kind[r] == kind) {
      w.bound[r] = bound;
      return;
    }
  w.dof.push_back(dof);
  w.kind.push_back(kind);
  w.bound.push_back(bound);
  w.lambda.push_back(0.0);
}

}  // namespace

int solve_joint_constraints(const ArticulatedModel& model, const ArticulatedData& data,
                            const VecX& q, double dt, VecX& u, JointConstraintWork& w) {
  w.dof.clear();
  w.kind.clear();
  w.bound.clear();
  w.lambda.clear();
  const int nv = model.nv;
  // friction rows: every dof with friction
  for (int k = 0; k < nv; ++k)
    if (model.friction[k] > 0.0) add_row(w, k, kFriction, dt * model.friction[k]);

  // position of each dof's coordinate (limits only exist on 1-dof joints: gc index of the dof)
  auto coord = [&](int k) { return q[model.bodies[model.dof_body[k]].gc_index]; };

  bool copied = false;
  for (int round = 0; round < kMaxRounds; ++round) {
    // limit rows: dofs whose predicted position leaves [lower, upper]
    bool added = false;
    for (int k = 0; k < nv; ++k) {
      if (!std::isfinite(model.lower[k]) && !std::isfinite(model.upper[k])) continue;
      const double qk = coord(k);
      const double next = qk + dt * u[k];
      if (next < model.lower[k]) {
        const std::size_t before = w.dof.size();
        add_row(w, k, kLower, std::min(0.0, (model.lower[k] - qk) / dt));
        added |= w.dof.size() != before;
      }
      if (next > model.upper[k]) {
        const std::size_t before = w.dof.size();
        add_row(w, k, kUpper, std::max(0.0, (model.upper[k] - qk) / dt));
        added |= w.dof.size() != before;
      }
    }
    if (w.dof.empty()) return 0;
    if (round > 0 && !added) break;
    if (!copied) {
      w.u_free = u;  // the free velocity, before any joint impulse
      copied = true;
    }

    // columns of A^-1 for every row
    const int rows = static_cast<int>(w.dof.size());
    w.minv_cols.setZero(nv, rows);
    for (int r = 0; r < rows; ++r) w.minv_cols(w.dof[r], r) = 1.0;
    factor_solve_columns(model, data, w.minv_cols);

    // projected Gauss-Seidel from the free velocity, warm-started with the impulses so far
    u = w.u_free;
    for (int r = 0; r < rows; ++r) u += w.minv_cols.col(r) * w.lambda[r];
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      double change = 0.0, scale = 0.0;
      for (int r = 0; r < rows; ++r) {
        const int k = w.dof[r];
        const double g = w.minv_cols(k, r);
        const double old = w.lambda[r];
        double lam = 0.0;
        switch (w.kind[r]) {
          case kLower: lam = std::max(0.0, old + (w.bound[r] - u[k]) / g); break;
          case kUpper: lam = std::min(0.0, old + (w.bound[r] - u[k]) / g); break;
          default: lam = std::clamp(old - u[k] / g, -w.bound[r], w.bound[r]); break;
        }
        if (lam != old) {
          u += w.minv_cols.col(r) * (lam - old);
          w.lambda[r] = lam;
        }
        change = std::max(change, std::abs(lam - old));
        scale = std::max(scale, std::abs(lam));
      }
      if (change <= 1e-15 * (1.0 + scale)) break;
    }
  }
  w.lambda_per_dof.setZero(nv);
  for (std::size_t r = 0; r < w.dof.size(); ++r) w.lambda_per_dof[w.dof[r]] += w.lambda[r];
  return static_cast<int>(w.dof.size());
}

}  // namespace torsion
