// Composite-rigid-body algorithm and the tree-sparse L^T D L factorisation of the mass matrix.
#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

void crba(const ArticulatedModel& model, ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  // composite inertias: each body plus its whole subtree (world frame, so they add directly)
  for (int i = 0; i < nb; ++i) data.composite[i] = data.inertia[i];
  for (int i = nb - 1; i > 0; --i) {
    const int p = model.bodies[i].parent;
    if (p >= 0) data.composite[p] += data.composite[i];
  }
  // M(k, l) = S_l . (Ic_body(k) S_k) for every dof l on k's path to the root
  MatX& m = data.mass_matrix;
  for (int k = 0; k < model.nv; ++k) {
    const Vec6 f = data.composite[model.dof_body[k]].apply(data.S.col(k));
    for (int l = k; l >= 0; l = model.dof_parent[l]) {
      const double v = data.S.col(l).dot(f);
      m(k, l) = v;
      m(l, k) = v;
    }
  }
}

void factorize(const ArticulatedModel& model, ArticulatedData& data, const double* diag_add) {
  MatX& a = data.factor;
  const int n = model.nv;
  // only the entries on the ancestor chains are read or written, so copy just those
  for (int k = 0; k < n; ++k) {
    for (int l = k; l >= 0; l = model.dof_parent[l]) a(k, l) = data.mass_matrix(k, l);
    if (diag_add) a(k, k) += diag_add[k];
  }
  // Featherstone's LTDL: eliminate from the leaves towards the root
  for (int k = n - 1; k >= 0; --k) {
    const double d = a(k, k);
    for (int i = model.dof_parent[k]; i >= 0; i = model.dof_parent[i]) {
      const double l_ki = a(k, i) / d;
      for (int j = i; j >= 0; j = model.dof_parent[j]) a(i, j) -= l_ki * a(k, j);
      a(k, i) = l_ki;
    }
  }
  data.factor_valid = true;
}

namespace {

template <class B>
void solve_columns(const ArticulatedModel& model, const MatX& a, B& b) {
  const int n = model.nv;
  for (Eigen::Index c = 0; c < b.cols(); ++c) {
    // L^T y = b, from the leaves up
    for (int i = n - 1; i >= 0; --i) {
      const double bi = b(i, c);
      for (int j = model.dof_parent[i]; j >= 0; j = model.dof_parent[j]) b(j, c) -= a(i, j) * bi;
    }
    for (int i = 0; i < n; ++i) b(i, c) /= a(i, i);
    // L x = z, from the root down
    for (int i = 0; i < n; ++i) {
      double bi = b(i, c);
      for (int j = model.dof_parent[i]; j >= 0; j = model.dof_parent[j]) bi -= a(i, j) * b(j, c);
      b(i, c) = bi;
    }
  }
}

}  // namespace

void factor_solve(const ArticulatedModel& model, const ArticulatedData& data, Eigen::Ref<VecX> b) {
  solve_columns(model, data.factor, b);
}

void factor_solve_columns(const ArticulatedModel& model, const ArticulatedData& data,
                          Eigen::Ref<MatX> b) {
  solve_columns(model, data.factor, b);
}

void forward_dynamics(const ArticulatedModel& model, ArticulatedData& data, const VecX& tau,
                      const Vec3& gravity, Eigen::Ref<VecX> udot) {
  crba(model, data);
  nonlinear_effects(model, data, gravity);
  factorize(model, data, nullptr);
  udot = tau - data.nonlinear;
  factor_solve(model, data, udot);
}

}  // namespace torsion
