// The last triangular half of the L^T D L solve (dynamics.hpp), for the contact-space solver:
// A^-1 = L^-1 D^-1 L^-T, so J A^-1 J^T = Y^T D^-1 Y with Y = L^-T J^T, and the velocity change of
// a summed generalized impulse J^T lambda is L^-1 (D^-1 sum Y lambda).
#include "dynamics/articulated/dynamics.hpp"

namespace torsion {

void factor_solve_lower(const ArticulatedModel& model, const ArticulatedData& data, double* x) {
  const int n = model.nv;
  const double* l = data.factor_l.data();
  const int* anc = model.dof_ancestors.data();
  const int* start = model.dof_ancestor_start.data();
  // a floating base's dofs 0 .. 5 are the last six ancestors of every other dof, in the order
  // 5, 4, ..., 0 (model.hpp): read at fixed places, in the same order
  const int n_unit = model.floating_base ? 6 : 0;
  // L x = z from the root down
  for (int i = 0; i < n; ++i) {
    double xi = x[i];
    int t = start[i];
    const int end = start[i + 1];
    for (; t < end && anc[t] >= n_unit; ++t) xi -= l[t] * x[anc[t]];
    if (end - t == 6) {
      xi -= l[t] * x[5];
      xi -= l[t + 1] * x[4];
      xi -= l[t + 2] * x[3];
      xi -= l[t + 3] * x[2];
      xi -= l[t + 4] * x[1];
      xi -= l[t + 5] * x[0];
    } else {
      for (; t < end; ++t) xi -= l[t] * x[anc[t]];
    }
    x[i] = xi;
  }
}

}  // namespace torsion
