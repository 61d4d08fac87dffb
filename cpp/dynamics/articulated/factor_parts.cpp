// The two triangular halves of the L^T D L solve (dynamics.hpp), for the contact-space solver:
// A^-1 = L^-1 D^-1 L^-T, so J A^-1 J^T = Y^T D^-1 Y with Y = L^-T J^T, and the velocity change of
// a summed generalized impulse J^T lambda is L^-1 (D^-1 sum Y lambda).
#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

void factor_solve_upper_columns(const ArticulatedModel& model, const ArticulatedData& data,
                                double* x, int cols) {
  const int n = model.nv;
  const double* l = data.factor_l.data();
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  // L^T y = b from the leaves up: only the ancestors of a non-zero row receive anything, so a
  // column that is non-zero on one body's path stays on that path
  for (int c = 0; c < cols; ++c) {
    double* xc = x + static_cast<std::ptrdiff_t>(c) * n;
    for (int i = n - 1; i >= 0; --i) {
      const double xi = xc[i];
      if (xi == 0.0) continue;
      for (int t = start[i]; t < start[i + 1]; ++t) xc[anc[t]] -= l[t] * xi;
    }
  }
}

void factor_solve_lower(const ArticulatedModel& model, const ArticulatedData& data, double* x) {
  const int n = model.nv;
  const double* l = data.factor_l.data();
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  // L x = z from the root down
  for (int i = 0; i < n; ++i) {
    double xi = x[i];
    for (int t = start[i]; t < start[i + 1]; ++t) xi -= l[t] * x[anc[t]];
    x[i] = xi;
  }
}

}  // namespace torsion
