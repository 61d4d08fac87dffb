// Composite-rigid-body algorithm and the tree-sparse L^T D L factorisation of the mass matrix.
// Matrices are column-major: a(i, j) = a[i + j n].
#include "dynamics/articulated/dynamics.hpp"

#include <algorithm>

#include "core/cpu_dispatch.hpp"

namespace torsion {

namespace {

// With mimic joints: M = G^T M_full G, accumulated column pair by column pair. M_full(c, a) =
// S_a . (Ic_body(c) S_c) for every column a on c's path to the root (c included); each such
// unordered pair {c, a} adds w_c w_a M_full(c, a) to M(dof c, dof a) and, for c != a, to
// M(dof a, dof c) (twice to a diagonal entry when both columns move the same dof).
void crba_reduce_columns(const ArticulatedModel& model, ArticulatedData& data) {
  const int n = model.nv;
  data.mass_matrix.setZero();
  double* m = data.mass_matrix.data();
  for (int c = 0; c < model.ncol; ++c) {
    const Vec6 f = data.composite[model.col_body[c]].apply(data.S.col(c));
    const int dc = model.col_dof[c];
    const double wc = model.col_weight[c];
    for (int a = c; a >= 0; a = model.col_parent[a]) {
      const double v = wc * model.col_weight[a] * data.S.col(a).dot(f);
      const int da = model.col_dof[a];
      m[dc + da * n] += v;
      if (a != c) m[da + dc * n] += v;
    }
  }
}

}  // namespace

// MJCF's armature: a rotor inertia on each dof's diagonal, as MuJoCo adds it (mj_crb)
inline void add_armature(const ArticulatedModel& model, double* m) {
  if (!model.has_armature) return;
  const int n = model.nv;
  for (int k = 0; k < n; ++k) m[k + k * n] += model.armature[k];
}

namespace {

// (The body of crba, after the inertias, built twice: core/cpu_dispatch.hpp.)
TORSION_ALWAYS_INLINE void crba_body(const ArticulatedModel& model, ArticulatedData& data) {
  const int nb = static_cast<int>(model.bodies.size());
  // composite inertias: each body plus its whole subtree (world frame, so they add directly)
  for (int i = 0; i < nb; ++i) data.composite[i] = data.inertia[i];
  for (int i = nb - 1; i > 0; --i) {
    const int p = model.bodies[i].parent;
    if (p >= 0) data.composite[p] += data.composite[i];
  }
  const int n = model.nv;
  double* m = data.mass_matrix.data();
  double* packed = data.mass_packed.data();
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  if (model.has_mimic) {
    crba_reduce_columns(model, data);
    for (int k = 0; k < n; ++k)
      for (int t = start[k]; t < start[k + 1]; ++t) packed[t] = m[k + anc[t] * n];
    add_armature(model, m);
    return;
  }
  // M(k, l) = S_l . (Ic_body(k) S_k) for every dof l on k's path to the root
  const double* s = data.S.data();
  auto dot6 = [](const double* f, const double* c) {
    return f[0] * c[0] + f[1] * c[1] + f[2] * c[2] + f[3] * c[3] + f[4] * c[4] + f[5] * c[5];
  };
  // f = Ic S_k, the values of SpatialInertia::apply, read straight from S's column: apply takes
  // a Vec6, and the column copied into one on the stack was read back by wider loads than the
  // copy's stores (a failed store-to-load forward per call, most of apply's time)
  auto apply_column = [](const SpatialInertia& in, const double* c, double* f) {
    const Vec3 w(c[0], c[1], c[2]), v(c[3], c[4], c[5]);
    const Vec3 nm = in.i_o * w + in.h.cross(v);
    const Vec3 p = in.m * v - in.h.cross(w);
    f[0] = nm[0], f[1] = nm[1], f[2] = nm[2], f[3] = p[0], f[4] = p[1], f[5] = p[2];
  };
  // a floating base's columns are unit vectors: (0, e_l) for l < 3, (e_{l-3}, 0) for l < 6
  const int n_unit = model.floating_base ? 6 : 0;
  if (model.floating_base) {
    // the base's own 6 x 6 block in closed form: the whole robot's composite inertia C (body 0)
    // applied to those unit columns gives C (0, e_l) = ([h]x e_l, m e_l) and
    // C (e_j, 0) = (I_O e_j, -[h]x e_j); these are the values the loop below would read off
    const SpatialInertia& c = data.composite[0];
    const Mat3 hx = skew(c.h);
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        m[a + b * n] = a == b ? c.m : 0.0;                  // linear-linear: m 1
        m[(a + 3) + (b + 3) * n] = c.i_o(a, b);             // angular-angular: I_O
        m[a + (b + 3) * n] = -hx(a, b);                     // linear row, angular column
        m[(b + 3) + a * n] = -hx(a, b);
      }
    for (int k = 1; k < n_unit; ++k)
      for (int t = start[k]; t < start[k + 1]; ++t) packed[t] = m[k + anc[t] * n];
  }
  for (int k = n_unit; k < n; ++k) {
    double f[6];
    apply_column(data.composite[model.dof_body[k]], s + 6 * k, f);
    m[k + k * n] = dot6(f, s + 6 * k);
    // the ancestors, nearest first: the other joints' dofs, then (a floating base) the base's
    // dofs, which are the smallest indices and so the last entries
    int t = start[k];
    const int end = start[k + 1];
    for (; t < end && anc[t] >= n_unit; ++t) {
      const int l = anc[t];
      const double v = dot6(f, s + 6 * l);
      m[k + l * n] = v;
      m[l + k * n] = v;
      packed[t] = v;
    }
    if (end - t == 6) {
      // all six base dofs, in the order 5, 4, ..., 0: the unit columns read f's entries
      // (column l < 3 is (0, e_l): f[l + 3]; column l >= 3 is (e_{l-3}, 0): f[l - 3])
      const double v[6] = {f[2], f[1], f[0], f[5], f[4], f[3]};
      for (int e = 0; e < 6; ++e) {
        const int l = 5 - e;
        m[k + l * n] = v[e];
        m[l + k * n] = v[e];
        packed[t + e] = v[e];
      }
      continue;
    }
    for (; t < end; ++t) {
      const int l = anc[t];
      const double v = f[l < 3 ? l + 3 : l - 3];
      m[k + l * n] = v;
      m[l + k * n] = v;
      packed[t] = v;
    }
  }
  add_armature(model, m);
}

void crba_baseline(const ArticulatedModel& model, ArticulatedData& data) {
  crba_body(model, data);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET void crba_avx2(const ArticulatedModel& model, ArticulatedData& data) {
  crba_body(model, data);
}
#endif

}  // namespace

void crba(const ArticulatedModel& model, ArticulatedData& data) {
  if (!data.inertias_valid) update_inertias(model, data);
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return crba_avx2(model, data);
#endif
  crba_baseline(model, data);
}

namespace {

// dst -= a src over n values; dst and src are distinct rows of the packed factor (never
// overlapping), which lets the compiler drop the run-time overlap checks of a short loop
inline void sub_scaled(double* __restrict dst, const double* __restrict src, double a, int n) {
  // rows are short (a leg's dof: at most its ancestors' count, 8 on a quadruped): pairs, then
  // the odd one, without the set-up of a general vectorised loop
  int u = 0;
  for (; u + 2 <= n; u += 2) {
    dst[u] -= a * src[u];
    dst[u + 1] -= a * src[u + 1];
  }
  if (u < n) dst[u] -= a * src[u];
}

// Factorise (factorize()); with kSolve, also run the first half of the solve of A x = b on
// the way (L^T y = b, from the leaves up): eliminating dof k subtracts l_ki b_k from b_i for
// each ancestor i, with b_k final by then, the very updates and order of solve_column's first
// loop.
template <bool kSolve>
TORSION_ALWAYS_INLINE void factorize_body(const ArticulatedModel& model, ArticulatedData& data,
                                          const double* diag_add, double* b) {
  const int n = model.nv;
  double* l = data.factor_l.data();
  double* d = data.factor_d.data();
  const double* mm = data.mass_matrix.data();  // column-major
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  // the entries on the ancestor chains, row k holding A(k, anc) for k's ancestors: crba()'s
  // packed copy of M (off the diagonal, A = M)
  for (int k = 0; k < n; ++k) d[k] = mm[k + k * n] + (diag_add ? diag_add[k] : 0.0);
  std::copy(data.mass_packed.data(), data.mass_packed.data() + data.mass_packed.size(), l);
  // Featherstone's LTDL, eliminating from the leaves towards the root. For dof k with
  // ancestors i_0 (nearest), i_1, ..., the ancestors of i_t are i_{t+1}, i_{t+2}, ...: row i_t
  // is aligned with the tail of row k, so each update is a contiguous axpy.
  double* dinv = data.factor_dinv.data();
  // a floating base's dofs 0 .. 5 are the last six ancestors of every other dof, in the order
  // 5, 4, ..., 0 (model.hpp), and dof i < 6 has the i ancestors i - 1, ..., 0
  const int n_unit = model.floating_base ? 6 : 0;
  for (int k = n - 1; k >= 0; --k) {
    const double inv_d = 1.0 / d[k];
    dinv[k] = inv_d;
    double* row_k = l + start[k];
    const int nk = start[k + 1] - start[k];
    const double bk = kSolve ? b[k] : 0.0;
    // eliminating ancestor t of k: row t of the chain, then the tail of row k after it
    auto eliminate = [&](int t, int i) {
      const double a_ki = row_k[t];
      const double l_ki = a_ki * inv_d;
      d[i] -= l_ki * a_ki;
      double* row_i = l + start[i];  // nk - t - 1 entries
      sub_scaled(row_i, row_k + t + 1, l_ki, nk - t - 1);
      row_k[t] = l_ki;
      if (kSolve) b[i] -= l_ki * bk;
    };
    int t = 0;
    for (; t < nk && anc[start[k] + t] >= n_unit; ++t) eliminate(t, anc[start[k] + t]);
    if (nk - t == 6) {
      // the base's six, i = 5, 4, ..., 0: the same updates as eliminate(), written out (row i
      // has the i entries of the tail after i's own, all still A's values when read)
      double* tail = row_k + t;
      const double a5 = tail[0], a4 = tail[1], a3 = tail[2], a2 = tail[3], a1 = tail[4],
                   a0 = tail[5];
      const double l5 = a5 * inv_d, l4 = a4 * inv_d, l3 = a3 * inv_d, l2 = a2 * inv_d,
                   l1 = a1 * inv_d, l0 = a0 * inv_d;
      d[5] -= l5 * a5;
      d[4] -= l4 * a4;
      d[3] -= l3 * a3;
      d[2] -= l2 * a2;
      d[1] -= l1 * a1;
      d[0] -= l0 * a0;
      double* r5 = l + start[5];
      double* r4 = l + start[4];
      double* r3 = l + start[3];
      double* r2 = l + start[2];
      double* r1 = l + start[1];
      r5[0] -= l5 * a4, r5[1] -= l5 * a3, r5[2] -= l5 * a2, r5[3] -= l5 * a1, r5[4] -= l5 * a0;
      r4[0] -= l4 * a3, r4[1] -= l4 * a2, r4[2] -= l4 * a1, r4[3] -= l4 * a0;
      r3[0] -= l3 * a2, r3[1] -= l3 * a1, r3[2] -= l3 * a0;
      r2[0] -= l2 * a1, r2[1] -= l2 * a0;
      r1[0] -= l1 * a0;
      tail[0] = l5, tail[1] = l4, tail[2] = l3, tail[3] = l2, tail[4] = l1, tail[5] = l0;
      if (kSolve) {
        b[5] -= l5 * bk;
        b[4] -= l4 * bk;
        b[3] -= l3 * bk;
        b[2] -= l2 * bk;
        b[1] -= l1 * bk;
        b[0] -= l0 * bk;
      }
      continue;
    }
    for (; t < nk; ++t) eliminate(t, anc[start[k] + t]);
  }
}

// (factorize_body built twice: core/cpu_dispatch.hpp)
template <bool kSolve>
void factorize_baseline(const ArticulatedModel& model, ArticulatedData& data,
                        const double* diag_add, double* b) {
  factorize_body<kSolve>(model, data, diag_add, b);
}
#if TORSION_AVX2_BUILD
template <bool kSolve>
TORSION_AVX2_TARGET void factorize_avx2(const ArticulatedModel& model, ArticulatedData& data,
                                        const double* diag_add, double* b) {
  factorize_body<kSolve>(model, data, diag_add, b);
}
#endif

template <bool kSolve>
void factorize_impl(const ArticulatedModel& model, ArticulatedData& data, const double* diag_add,
                    double* b) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) factorize_avx2<kSolve>(model, data, diag_add, b);
  else factorize_baseline<kSolve>(model, data, diag_add, b);
#else
  factorize_baseline<kSolve>(model, data, diag_add, b);
#endif
  data.factor_valid = true;
}

}  // namespace

void factorize(const ArticulatedModel& model, ArticulatedData& data, const double* diag_add) {
  factorize_impl<false>(model, data, diag_add, nullptr);
}

void factorize_solve(const ArticulatedModel& model, ArticulatedData& data, const double* diag_add,
                     Eigen::Ref<VecX> b) {
  factorize_impl<true>(model, data, diag_add, b.data());
  const double* dinv = data.factor_dinv.data();
  for (int i = 0; i < model.nv; ++i) b[i] *= dinv[i];
  factor_solve_lower(model, data, b.data());
}

namespace {

// x = A^-1 x for one contiguous column x of n values
void solve_column(const ArticulatedModel& model, const ArticulatedData& data, double* x) {
  const int n = model.nv;
  const double* l = data.factor_l.data();
  const double* dinv = data.factor_dinv.data();
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  // a floating base's dofs: the last six ancestors of every other dof, 5, 4, ..., 0
  const int n_unit = model.floating_base ? 6 : 0;
  // L^T y = b, from the leaves up
  for (int i = n - 1; i >= 0; --i) {
    const double xi = x[i];
    if (xi == 0.0) continue;  // rows off the right-hand side's support add nothing
    int t = start[i];
    const int end = start[i + 1];
    for (; t < end && anc[t] >= n_unit; ++t) x[anc[t]] -= l[t] * xi;
    if (end - t == 6) {
      for (int e = 0; e < 6; ++e) x[5 - e] -= l[t + e] * xi;
      continue;
    }
    for (; t < end; ++t) x[anc[t]] -= l[t] * xi;
  }
  for (int i = 0; i < n; ++i) x[i] *= dinv[i];
  factor_solve_lower(model, data, x);  // L x = z, from the root down
}

}  // namespace

void factor_solve(const ArticulatedModel& model, const ArticulatedData& data, Eigen::Ref<VecX> b) {
  solve_column(model, data, b.data());
}

void factor_solve_columns(const ArticulatedModel& model, const ArticulatedData& data,
                          Eigen::Ref<MatX> b) {
  if (b.cols() != 3 || b.outerStride() != model.nv) {
    for (Eigen::Index c = 0; c < b.cols(); ++c) solve_column(model, data, b.col(c).data());
    return;
  }
  // three columns at once (a contact's M^-1 J^T): one pass over the factor, and rows that are
  // zero in all three (dofs off the contact's path) skipped in the first sweep
  const int n = model.nv;
  const double* l = data.factor_l.data();
  const double* dinv = data.factor_dinv.data();
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  double* x0 = b.data();
  double* x1 = x0 + n;
  double* x2 = x1 + n;
  for (int i = n - 1; i >= 0; --i) {
    const double a0 = x0[i], a1 = x1[i], a2 = x2[i];
    if (a0 == 0.0 && a1 == 0.0 && a2 == 0.0) continue;
    for (int t = start[i]; t < start[i + 1]; ++t) {
      const int k = anc[t];
      x0[k] -= l[t] * a0;
      x1[k] -= l[t] * a1;
      x2[k] -= l[t] * a2;
    }
  }
  for (int i = 0; i < n; ++i) {
    x0[i] *= dinv[i];
    x1[i] *= dinv[i];
    x2[i] *= dinv[i];
  }
  for (int i = 0; i < n; ++i) {
    double a0 = x0[i], a1 = x1[i], a2 = x2[i];
    for (int t = start[i]; t < start[i + 1]; ++t) {
      const int k = anc[t];
      a0 -= l[t] * x0[k];
      a1 -= l[t] * x1[k];
      a2 -= l[t] * x2[k];
    }
    x0[i] = a0;
    x1[i] = a1;
    x2[i] = a2;
  }
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
