// Internal: the resolution step shared by handle_group and solve (semantics.md §B4).
#pragma once

#include "ik/environment.hpp"

namespace torsion::ik {

// dq for one evaluated system: rows weighted, optional limit-avoidance rows, weighted DLS /
// pseudo-inverse (complete orthogonal decomposition, so singular-safe) or Jacobian transpose.
// Returns false when the result is not finite (kCalcCannotInvert).
// When jinv / j_used are given they receive J# (columns x rows) and the J it inverted (with
// the limit rows), for the null-space projector I - J# J of several groups.
bool compute_dq(const Environment& env, GroupSystem& sys, int method, double damping,
                bool avoid_limits, VecX& dq, MatX* jinv = nullptr, MatX* j_used = nullptr);

// applies dq column by column (spherical columns as one rotation), with limits and dependents
void apply_dq(Environment& env, const GroupSystem& sys, const VecX& dq);

}  // namespace torsion::ik
