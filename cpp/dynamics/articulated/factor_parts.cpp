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
  // L x = z from the root down
  for (int i = 0; i < n; ++i) {
    double xi = x[i];
    for (int t = start[i]; t < start[i + 1]; ++t) xi -= l[t] * x[anc[t]];
    x[i] = xi;
  }
}

}  // namespace torsion
