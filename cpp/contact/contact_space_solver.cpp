#include "contact/contact_space_solver.hpp"

#include <algorithm>
#include <cmath>

#include "contact/island_sweeps.hpp"
#include "core/cpu_dispatch.hpp"
#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

namespace {

// the side of a row on the system whose slice starts at dof_begin
template <class Row>
const ContactSide& side_on(const Row& row, std::int32_t dof_begin) {
  return row.side[0].dof_begin == dof_begin ? row.side[0] : row.side[1];
}

// dst -= a src over [lo, hi): two distinct rows of Y (never overlapping), which lets the
// compiler vectorise the loop without run-time overlap checks
inline void sub_scaled(double* __restrict dst, const double* __restrict src, double a,
                       Eigen::Index lo, Eigen::Index hi) {
  for (Eigen::Index i = lo; i < hi; ++i) dst[i] -= a * src[i];
}

// v += w0 l0 + w1 l1 + w2 l2 over n entries (v: the rows' velocities, w: columns of W)
template <Eigen::Index N>
inline void add_scaled3_n(double* __restrict v, const double* __restrict w0,
                          const double* __restrict w1, const double* __restrict w2, double l0,
                          double l1, double l2) {
  for (Eigen::Index i = 0; i < N; ++i) v[i] += w0[i] * l0 + w1[i] * l1 + w2[i] * l2;
}
inline void add_scaled3(double* __restrict v, const double* __restrict w0,
                        const double* __restrict w1, const double* __restrict w2, double l0,
                        double l1, double l2, Eigen::Index n) {
  // a robot's island of one to four feet (the sweeps' innermost loop): a fixed length, which
  // the compiler unrolls without the run-time loop's set-up and remainder (the same arithmetic
  // per entry: the same results)
  switch (n) {
    case 3: return add_scaled3_n<3>(v, w0, w1, w2, l0, l1, l2);
    case 6: return add_scaled3_n<6>(v, w0, w1, w2, l0, l1, l2);
    case 9: return add_scaled3_n<9>(v, w0, w1, w2, l0, l1, l2);
    case 12: return add_scaled3_n<12>(v, w0, w1, w2, l0, l1, l2);
    default: break;
  }
  for (Eigen::Index i = 0; i < n; ++i) v[i] += w0[i] * l0 + w1[i] * l1 + w2[i] * l2;
}

inline void add_scaled(double* __restrict v, const double* __restrict w, double l,
                       Eigen::Index n) {
  for (Eigen::Index i = 0; i < n; ++i) v[i] += w[i] * l;
}

// the sum of x[i] y[i] over N entries, left to right from 0
template <Eigen::Index N>
inline double dot_n(const double* x, const double* y) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < N; ++i) sum += x[i] * y[i];
  return sum;
}

// The scratch of one island's solve, handed to its build (ContactSpaceSolver's members)
struct IslandBuffers {
  MatX& y;
  MatX& w;
  VecX& v;
  std::vector<Eigen::Index>& row_lo;
  std::vector<Eigen::Index>& row_hi;
};

// The first part of ContactSpaceSolver::solve_island: Y = L^-T J^T, W = Y^T D^-1 Y, the rows'
// Delassus blocks, and the rows' velocities at the free u plus W times the warm-start impulses.
TORSION_ALWAYS_INLINE void build_island_body(const ContactSpaceIsland& is, IslandBuffers& buf) {
  const ArticulatedModel& model = is.model;
  const ArticulatedData& data = is.data;
  ContactProblems& problems = is.problems;
  const std::uint32_t* contacts = is.contacts;
  const std::uint32_t* rows = is.rows;
  const std::size_t nc = is.nc, nr = is.nr;
  const std::int32_t d = is.d;
  const double* u = is.u;
  MatX& y_ = buf.y;
  MatX& w_ = buf.w;
  VecX& v_ = buf.v;
  std::vector<Eigen::Index>& row_lo_ = buf.row_lo;
  std::vector<Eigen::Index>& row_hi_ = buf.row_hi;
  const int nv = model.nv;
  const auto ei = [](std::size_t k) { return static_cast<Eigen::Index>(k); };
  const std::size_t blocks = nc + nr;
  const Eigen::Index m = ei(3 * nc + nr);
  // block b: contact b (columns 3b .. 3b + 2) or 1-D row b - nc (column 3 nc + b - nc)
  auto col_of = [nc](std::size_t b) { return b < nc ? 3 * b : 2 * nc + b; };
  auto width_of = [nc](std::size_t b) { return b < nc ? std::size_t{3} : std::size_t{1}; };

  // Y = L^-T J^T, stored by dof: row q of Y (the m impulse components' entries at dof q) is
  // the m contiguous values y + q m. Row q is non-zero only in the columns [lo_q, hi_q) (a leg's
  // dofs: its feet's columns; the base's: everything), empty when hi_q <= lo_q.
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  const double* lf = data.factor_l.data();
  const double* dinv = data.factor_dinv.data();
  y_.setZero(m, nv);
  double* y = y_.data();
  row_lo_.assign(static_cast<std::size_t>(nv), m);
  row_hi_.assign(static_cast<std::size_t>(nv), 0);
  // the same pass reads J u: the velocities at the free u, v = J u + v_fixed (plus W lambda for
  // the warm starts, below)
  const double* us = u + d;
  v_.resize(m);
  double* vv = v_.data();
  for (std::size_t b = 0; b < blocks; ++b) {
    const Eigen::Index c0 = ei(col_of(b)), w = ei(width_of(b));
    const ContactSide& side = b < nc ? side_on(problems.rows[contacts[b]], d)
                                     : side_on(problems.scalar_rows[rows[b - nc]], d);
    const double* j = b < nc ? problems.jac.data() + side.jac_begin
                             : problems.row_jac.data() + side.jac_begin;
    double sum[3] = {0.0, 0.0, 0.0};
    if (b < nc) {
      const Vec3& v_fixed = problems.rows[contacts[b]].v_fixed;
      sum[0] = v_fixed[0], sum[1] = v_fixed[1], sum[2] = v_fixed[2];
    }
    // dof q of a contact (J is 3 x nv, column-major) into Y and its J u terms into sum
    auto copy_contact_dof = [&](int q) {
      const double v0 = j[3 * q], v1 = j[3 * q + 1], v2 = j[3 * q + 2];
      double* yq = y + q * m + c0;
      yq[0] = v0;
      yq[1] = v1;
      yq[2] = v2;
      sum[0] += v0 * us[q];
      sum[1] += v1 * us[q];
      sum[2] += v2 * us[q];
    };
    // the row's column range grown to cover this block at dof q
    auto cover = [&](int q) {
      const auto qs = static_cast<std::size_t>(q);
      row_lo_[qs] = std::min(row_lo_[qs], c0);
      row_hi_[qs] = std::max(row_hi_[qs], c0 + w);
    };
    if (w == 3 && side.path_only) {
      // J is zero off the path of dof path_last: visit that path only, root first (increasing
      // q, the order of the full loop below, whose other terms are zeros). Every dof of the path
      // is covered, zero or not (an exact zero of J there only adds zeros to Y and W): path_last
      // here, its ancestors (the dof parents up to the root) by the L^T pass below, which hands
      // every row's range to its parent before the parent is used.
      const int last = side.path_last;
      if (last >= 0) {
        for (int e = start[last + 1] - 1; e >= start[last]; --e) copy_contact_dof(anc[e]);
        copy_contact_dof(last);
        cover(last);
      }
    } else if (w == 3) {
      for (int q = 0; q < nv; ++q) {
        copy_contact_dof(q);
        if (j[3 * q] != 0.0 || j[3 * q + 1] != 0.0 || j[3 * q + 2] != 0.0) cover(q);
      }
    } else {  // a 1-D row: J is 1 x nv
      for (int q = 0; q < nv; ++q) {
        y[q * m + c0] = j[q];
        sum[0] += j[q] * us[q];
        if (j[q] != 0.0) cover(q);
      }
    }
    for (Eigen::Index r = 0; r < w; ++r) vv[c0 + r] = sum[r];
  }
  // L^T Y = J^T from the leaves up; a row only reaches the rows of its ancestors, so Y stays on
  // the rows' paths to the root. The ancestors of k are k's parent and the parent's ancestors,
  // and every row is reached after all its descendants, so handing k's column range to its
  // parent alone makes each row's range cover those of all its descendants before it is used.
  const int* parent = model.dof_parent.data();
  const int n_unit = model.floating_base && nv >= 6 ? 6 : 0;
  for (int k = nv - 1; k >= 0; --k) {
    const Eigen::Index lo = row_lo_[static_cast<std::size_t>(k)];
    const Eigen::Index hi = row_hi_[static_cast<std::size_t>(k)];
    if (hi <= lo) continue;
    if (parent[k] >= 0) {
      const auto p = static_cast<std::size_t>(parent[k]);
      row_lo_[p] = std::min(row_lo_[p], lo);
      row_hi_[p] = std::max(row_hi_[p], hi);
    }
    const double* yk = y + k * m;
    if (hi - lo == 3) {
      // three columns (a leg's dof under one foot: its contact's): three multiply-adds per
      // ancestor instead of a loop of run-time length
      const double y0 = yk[lo], y1 = yk[lo + 1], y2 = yk[lo + 2];
      auto update = [&](double* yi, double l) {
        yi[0] -= l * y0;
        yi[1] -= l * y1;
        yi[2] -= l * y2;
      };
      int e = start[k];
      const int end = start[k + 1];
      // the joints' dofs among the ancestors, nearest first; then a floating base's six dofs,
      // always the last six entries in the order 5, 4, ..., 0 (model.hpp): rows at fixed
      // offsets, without reading their indices
      for (; e < end && anc[e] >= n_unit; ++e) update(y + anc[e] * m + lo, lf[e]);
      if (end - e == 6) {
        double* yb = y + lo;
        update(yb + 5 * m, lf[e]);
        update(yb + 4 * m, lf[e + 1]);
        update(yb + 3 * m, lf[e + 2]);
        update(yb + 2 * m, lf[e + 3]);
        update(yb + m, lf[e + 4]);
        update(yb, lf[e + 5]);
        continue;
      }
      for (; e < end; ++e) update(y + anc[e] * m + lo, lf[e]);
      continue;
    }
    for (int e = start[k]; e < start[k + 1]; ++e) sub_scaled(y + anc[e] * m, yk, lf[e], lo, hi);
  }

  // W = Y^T D^-1 Y = sum over the rows q of dinv_q Y_q^T Y_q, each outer product over the row's
  // column range only. Each entry of the upper triangle (b >= a) is computed once and written to
  // both triangles: the sums of W(a, b) and W(b, a) take the same terms in the same order.
  w_.setZero(m, m);
  double* wm = w_.data();
  int q_begin = 0;
  if (model.floating_base && nv >= 6) {
    // the base's six rows as one 6-row panel, before any other row (W is still zero, so each
    // entry is the same left-to-right sum over q = 0 .. 5 as the row-by-row loop's): the union
    // of the six column ranges (a row's entries outside its own range are zero in Y)
    Eigen::Index lo = m, hi = 0;
    for (std::size_t q = 0; q < 6; ++q) {
      if (row_hi_[q] <= row_lo_[q]) continue;
      lo = std::min(lo, row_lo_[q]);
      hi = std::max(hi, row_hi_[q]);
    }
    const double* y0 = y;
    const double* y1 = y0 + m;
    const double* y2 = y1 + m;
    const double* y3 = y2 + m;
    const double* y4 = y3 + m;
    const double* y5 = y4 + m;
    for (Eigen::Index a = lo; a < hi; ++a) {
      const double s0 = dinv[0] * y0[a], s1 = dinv[1] * y1[a], s2 = dinv[2] * y2[a];
      const double s3 = dinv[3] * y3[a], s4 = dinv[4] * y4[a], s5 = dinv[5] * y5[a];
      double* wa = wm + a * m;  // column a, rows a .. hi - 1
      for (Eigen::Index b = a; b < hi; ++b) {
        double t = s0 * y0[b];
        t += s1 * y1[b];
        t += s2 * y2[b];
        t += s3 * y3[b];
        t += s4 * y4[b];
        t += s5 * y5[b];
        wa[b] = t;
        wm[b * m + a] = t;
      }
    }
    q_begin = 6;
  }
  for (int q = q_begin; q < nv; ++q) {
    const Eigen::Index lo = row_lo_[static_cast<std::size_t>(q)];
    const Eigen::Index hi = row_hi_[static_cast<std::size_t>(q)];
    const double* yq = y + q * m;
    if (hi - lo == 3) {  // three columns (one contact's, typically): the 3 x 3 upper triangle
      const double dq = dinv[q], y0 = yq[lo], y1 = yq[lo + 1], y2 = yq[lo + 2];
      const double s0 = dq * y0, s1 = dq * y1, s2 = dq * y2;
      double* w0 = wm + lo * m + lo;  // column lo, row lo
      double* w1 = w0 + m;
      double* w2 = w1 + m;
      w0[0] += s0 * y0;
      w0[1] += s0 * y1;
      w0[2] += s0 * y2;
      w1[1] += s1 * y1;
      w1[2] += s1 * y2;
      w2[2] += s2 * y2;
      w1[0] = w0[1];  // the lower triangle: the same sums
      w2[0] = w0[2];
      w2[1] = w1[2];
      continue;
    }
    for (Eigen::Index a = lo; a < hi; ++a) {
      if (yq[a] == 0.0) continue;
      const double s = dinv[q] * yq[a];
      double* wa = wm + a * m;  // column a, rows a .. hi - 1
      for (Eigen::Index b = a; b < hi; ++b) wa[b] += s * yq[b];
      for (Eigen::Index b = a + 1; b < hi; ++b) wm[b * m + a] = wa[b];
    }
  }

  // Delassus blocks and scalars: the diagonal of W
  for (std::size_t k = 0; k < nc; ++k) {
    ContactProblem& row = problems.rows[contacts[k]];
    row.g = w_.block<3, 3>(ei(3 * k), ei(3 * k));  // symmetric
    finish_delassus_block(row);
  }
  for (std::size_t k = 0; k < nr; ++k) {
    ScalarRow& row = problems.scalar_rows[rows[k]];
    const double g = w_(ei(3 * nc + k), ei(3 * nc + k));
    row.g = g > 0.0 && std::isfinite(g) ? g : 0.0;
  }

  // the warm-start impulses' velocity change, v += W lambda
  auto add_column = [&](Eigen::Index c, double l) { add_scaled(vv, wm + c * m, l, m); };
  // v += W[:, c0 .. c0 + 2] dlambda
  auto add_columns3 = [&](Eigen::Index c0, const Vec3& l) {
    const double* w0 = wm + c0 * m;
    add_scaled3(vv, w0, w0 + m, w0 + 2 * m, l[0], l[1], l[2], m);
  };
  for (std::size_t k = 0; k < nc; ++k) {
    const Vec3& l = problems.rows[contacts[k]].lambda;
    if (!l.isZero(0.0)) add_columns3(ei(3 * k), l);
  }
  for (std::size_t k = 0; k < nr; ++k) {
    const double l = problems.scalar_rows[rows[k]].lambda;
    if (l != 0.0) add_column(ei(3 * nc + k), l);
  }
}

void build_island_baseline(const ContactSpaceIsland& is, IslandBuffers& buf) {
  build_island_body(is, buf);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET void build_island_avx2(const ContactSpaceIsland& is, IslandBuffers& buf) {
  build_island_body(is, buf);
}
#endif

}  // namespace

void ContactSpaceSolver::add_system(std::int32_t dof_begin, const ArticulatedModel& model,
                                    const ArticulatedData& data) {
  // a system without dofs has no slice of u (its dof_begin is that of the next movable body)
  if (model.nv == 0) return;
  System& s = systems_.emplace_back();
  s.dof_begin = dof_begin;
  s.model = &model;
  s.data = &data;
  s.selected = enabled_ && !suspended_;
}

int ContactSpaceSolver::find(std::int32_t dof_begin) const {
  if (dof_begin < 0) return -1;
  for (std::size_t k = 0; k < systems_.size(); ++k)
    if (systems_[k].dof_begin == dof_begin) return systems_[k].selected ? static_cast<int>(k) : -1;
  return -1;
}

void ContactSpaceSolver::select(const ContactProblems& problems) {
  // a row with two movable sides ties its systems to another slice of u: both keep the u path
  auto check = [&](const ContactSide* side) {
    if (side[0].dof_begin < 0 || side[1].dof_begin < 0) return;
    for (System& s : systems_)
      if (s.dof_begin == side[0].dof_begin || s.dof_begin == side[1].dof_begin) s.selected = false;
  };
  for (const ContactProblem& row : problems.rows) check(row.side);
  for (const ScalarRow& row : problems.scalar_rows) check(row.side);
  suspended_ = false;
}

bool ContactSpaceSolver::solve_island(ContactProblems& problems, const std::uint32_t* contacts,
                                      std::size_t nc, const std::uint32_t* rows, std::size_t nr,
                                      double* u, const ContactSolverParams& params,
                                      bool forward_first, ContactSolverDiagnostics& diag,
                                      std::vector<std::uint8_t>& quiet) {
  const std::int32_t d = nc > 0 ? problems.rows[contacts[0]].side[0].dof_begin
                                : problems.scalar_rows[rows[0]].side[0].dof_begin;
  const int which = find(d);
  if (which < 0) return false;
  const ArticulatedModel& model = *systems_[static_cast<std::size_t>(which)].model;
  const ArticulatedData& data = *systems_[static_cast<std::size_t>(which)].data;
  // the build (Y, W, the rows' Delassus blocks and the starting velocities v), then the sweeps
  // and u's update, each built twice (core/cpu_dispatch.hpp)
  const ContactSpaceIsland is{model, data, problems, contacts, nc, rows, nr,
                              d, u, params, forward_first, diag, quiet};
  IslandBuffers buffers{y_, w_, v_, row_lo_, row_hi_};
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) {
    build_island_avx2(is, buffers);
    sweep_island_avx2(is);
    return true;
  }
#endif
  build_island_baseline(is, buffers);
  sweep_island_baseline(is);
  return true;
}

void ContactSpaceSolver::sweep_island_baseline(const ContactSpaceIsland& is) {
  sweep_island_body(is);
}
#if TORSION_AVX2_BUILD
// flatten: the body's lambdas and the sweeps (island_sweeps.hpp, single_contact.hpp) inlined
// here, so that they too are compiled for AVX2 (the same operations in the same order)
TORSION_AVX2_TARGET __attribute__((flatten)) void ContactSpaceSolver::sweep_island_avx2(
    const ContactSpaceIsland& is) {
  sweep_island_body(is);
}
#endif

// The second part of solve_island: the Gauss-Seidel sweeps on the island's velocities v, then
// u += A^-1 J^T lambda
TORSION_ALWAYS_INLINE void ContactSpaceSolver::sweep_island_body(const ContactSpaceIsland& is) {
  const ArticulatedModel& model = is.model;
  const ArticulatedData& data = is.data;
  ContactProblems& problems = is.problems;
  const std::uint32_t* contacts = is.contacts;
  const std::uint32_t* rows = is.rows;
  const std::size_t nc = is.nc, nr = is.nr;
  const std::int32_t d = is.d;
  double* u = is.u;
  const ContactSolverParams& params = is.params;
  const bool forward_first = is.forward_first;
  ContactSolverDiagnostics& diag = is.diag;
  std::vector<std::uint8_t>& quiet = is.quiet;
  const int nv = model.nv;
  const auto ei = [](std::size_t k) { return static_cast<Eigen::Index>(k); };
  const Eigen::Index m = ei(3 * nc + nr);
  const double* y = y_.data();
  const double* dinv = data.factor_dinv.data();
  double* wm = w_.data();
  double* vv = v_.data();
  auto add_column = [&](Eigen::Index c, double l) { add_scaled(vv, wm + c * m, l, m); };
  // v += W[:, c0 .. c0 + 2] dlambda
  auto add_columns3 = [&](Eigen::Index c0, const Vec3& l) {
    const double* w0 = wm + c0 * m;
    add_scaled3(vv, w0, w0 + m, w0 + 2 * m, l[0], l[1], l[2], m);
  };

  // the sweeps (island_sweeps.hpp) with J u replaced by v and u += A^-1 J^T dlambda by
  // v += W dlambda
  auto update_contact = [&](std::size_t k, double alpha, SweepModes& modes) -> double {
    ContactProblem& row = problems.rows[contacts[k]];
    if (row.g_inv(2, 2) == 0.0) return 0.0;  // both sides immovable
    const Eigen::Index c0 = ei(3 * k);
    Vec3 c = v_.segment<3>(c0) - row.g * row.lambda;
    c.z() -= row.target_vz;
    const Vec3 next = next_contact_impulse(row, c, alpha, modes, diag);
    const Vec3 dlambda = next - row.lambda;
    if (dlambda.isZero(0.0)) {
      v_after_.segment<3>(c0) = v_.segment<3>(c0);
      return 0.0;
    }
    row.lambda = next;
    add_columns3(c0, dlambda);
    v_after_.segment<3>(c0) = v_.segment<3>(c0);
    return (row.g * dlambda).cwiseAbs().maxCoeff();
  };
  auto update_row = [&](std::size_t k, double alpha) -> double {
    ScalarRow& row = problems.scalar_rows[rows[k]];
    if (row.g == 0.0) return 0.0;
    const Eigen::Index c0 = ei(3 * nc + k);
    const double next = next_row_impulse(problems, row, v_[c0], alpha, diag);
    const double dlambda = next - row.lambda;
    if (dlambda == 0.0) return 0.0;
    row.lambda = next;
    add_column(c0, dlambda);
    return std::abs(row.g * dlambda);
  };
  // the island's impulses in sweep order into x, or x into the rows with v updated by the change
  auto gather = [&](VecX& x) {
    x.resize(m);
    for (std::size_t k = 0; k < nc; ++k)
      x.segment<3>(ei(3 * k)) = problems.rows[contacts[k]].lambda;
    for (std::size_t k = 0; k < nr; ++k) x[ei(3 * nc + k)] = problems.scalar_rows[rows[k]].lambda;
  };
  auto scatter = [&](const VecX& x) {
    for (std::size_t k = 0; k < nc; ++k) {
      ContactProblem& row = problems.rows[contacts[k]];
      const Vec3 next = x.segment<3>(ei(3 * k));
      const Vec3 dl = next - row.lambda;
      if (dl.isZero(0.0)) continue;
      row.lambda = next;
      add_columns3(ei(3 * k), dl);
    }
    for (std::size_t k = 0; k < nr; ++k) {
      ScalarRow& row = problems.scalar_rows[rows[k]];
      const double next = x[ei(3 * nc + k)];
      const double dl = next - row.lambda;
      if (dl == 0.0) continue;
      row.lambda = next;
      add_column(ei(3 * nc + k), dl);
    }
  };
  // the velocity residual of a full sweep: the largest drift of a contact's velocity since its
  // own update in the sweep, and of a 1-D row's exact update from the final velocities
  v_after_.resize(ei(3 * nc));
  auto velocity_residual = [&]() {
    double residual = 0.0;
    for (std::size_t k = 0; k < nc; ++k) {
      if (problems.rows[contacts[k]].g_inv(2, 2) == 0.0) continue;  // never updated
      const Eigen::Index c0 = ei(3 * k);
      residual = std::max(residual,
                          (v_.segment<3>(c0) - v_after_.segment<3>(c0)).cwiseAbs().maxCoeff());
    }
    for (std::size_t k = 0; k < nr; ++k) {
      const ScalarRow& row = problems.scalar_rows[rows[k]];
      if (row.g == 0.0) continue;
      residual = std::max(residual, row_residual(problems, row, v_[ei(3 * nc + k)]));
    }
    return residual;
  };
  // a robot's island keeps the absolute threshold (island_tolerance: no relative tolerance)
  const IslandSweeps r = sweep_island(params, IslandTolerance{params.threshold, 0.0},
                                      forward_first, contacts, nc, nr, quiet, scratch_, diag,
                                      update_contact, update_row, velocity_residual, gather,
                                      scatter);
  ++diag.contact_space_islands;
  diag.iterations = std::max(diag.iterations, r.iterations);
  diag.error = std::max(diag.error, r.error);
  diag.converged = diag.converged && (r.error < r.tolerance || r.error == 0.0);
  diag.sticking += r.modes.sticking;
  diag.sliding += r.modes.sliding;
  diag.opening += r.modes.opening;

  // u += A^-1 J^T lambda = L^-1 D^-1 (Y lambda)
  gather(scratch_.result);
  const double* lam = scratch_.result.data();
  x_.resize(nv);
  for (int q = 0; q < nv; ++q) {
    double sum = 0.0;
    const double* yq = y + q * m;
    const Eigen::Index hi = row_hi_[static_cast<std::size_t>(q)];
    const Eigen::Index lo = row_lo_[static_cast<std::size_t>(q)];
    // a leg's row (3 columns) and the base's under four feet (12): fixed lengths, the same sum
    // in the same order
    if (hi - lo == 3) sum = dot_n<3>(yq + lo, lam + lo);
    else if (hi - lo == 12) sum = dot_n<12>(yq + lo, lam + lo);
    else
      for (Eigen::Index a = lo; a < hi; ++a) sum += yq[a] * lam[a];
    x_[q] = sum;
  }
  for (int q = 0; q < nv; ++q) x_[q] *= dinv[q];
  factor_solve_lower(model, data, x_.data());
  for (int q = 0; q < nv; ++q) u[d + q] += x_[q];
}

}  // namespace torsion
