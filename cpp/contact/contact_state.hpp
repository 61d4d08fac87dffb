// Everything about contacts a World keeps from step to step: the materials, the solver with its
// parameters and diagnostics, the contact problems of the current step, the warm-start record of
// the previous one, and the solver's scratch (generalized velocities of the movable bodies).
#pragma once

#include <cstdint>
#include <vector>

#include "contact/bisection_solver.hpp"
#include "contact/contact_problem.hpp"
#include "contact/contact_space_solver.hpp"
#include "contact/material.hpp"
#include "contact/warm_start.hpp"

namespace torsion {

struct ContactState {
  MaterialManager materials;
  BisectionContactSolver solver;
  ContactSpaceSolver contact_space;  // islands of one articulated system (contact_space_solver.hpp)
  ContactProblems problems;           // built by integrate1, solved by integrate2
  WarmStartCache warm_start;          // impulses of the last solve
  bool warm_start_enabled = true;

  // scratch of the step
  std::vector<double> u;                // generalized velocities of the movable bodies
  std::vector<double> u_free;           // their free velocities (a solve that starts again)
  // the position pass (position_correction.hpp): pseudo-velocities (as u), per contact row its
  // normal pseudo-impulse and target
  std::vector<double> u_position, position_impulse, position_target;
  std::vector<std::int32_t> dof_begin;  // per object (world index): offset in u; -1 immovable
  // MaterialManager index of the material of body `local` of object i:
  // material_index[material_begin[i] + local] (single bodies have one, local 0). Built by
  // stage_build_contact_problems and kept while valid: the materials' revision and the world's
  // configuration are those it was built under, and no object's material was reassigned (the
  // world's set_object_material and checkpoint restore clear material_index_valid)
  std::vector<std::int32_t> material_begin;
  std::vector<int> material_index;
  bool material_index_valid = false;
  std::uint64_t material_index_revision = 0, material_index_configuration = 0;
  Eigen::Matrix<double, 3, Eigen::Dynamic> point_jac_a, point_jac_b;  // articulated sides
};

}  // namespace torsion
