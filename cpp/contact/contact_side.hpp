// One side of a solver row (a contact or a 1-D row): the slice of the generalized velocities u it
// acts on and where its Jacobian blocks are stored (see contact_problem.hpp and scalar_row.hpp).
#pragma once

#include <cstdint>

namespace torsion {

struct ContactSide {
  std::int32_t dof_begin = -1;  // first entry of this side's slice of u; -1: no side
  std::int32_t dof_count = 0;   // n, the slice's length
  std::int32_t jac_begin = 0;   // offset of J_s and M^-1 J_s^T in the problems' storage
  // world index of the articulated system this side is on, whose M^-1 J_s^T is filled in
  // integrate2 from the step's factorisation; -1 for a single body (filled with J_s)
  std::int32_t articulated = -1;
  // path_only: J_s (3 x n) is zero off the path of dof path_last to the root (a point of one body
  // of a tree without mimic joints; path_last = -1: no movable dof, J_s = 0); otherwise any
  // column may be non-zero
  bool path_only = false;
  std::int32_t path_last = -1;
};

}  // namespace torsion
