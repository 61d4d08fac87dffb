// The contact-space solve of an island made of one articulated system and immovable sides.
//
// The bisection solver (bisection_solver.hpp) sweeps contacts with the generalized velocities u
// kept current: every update reads J_i u and writes u += A^-1 J_i^T dlambda_i, two products over
// all nv dofs, and needs A^-1 J^T of every row (one solve through the factor per column). For an
// island whose rows all act on one articulated system (the other side of each row static,
// kinematic or absent: a robot standing on the ground, self-contacts, joint limit and friction
// rows), the same iteration runs in contact space instead. With the damped mass matrix factorised
// as A = L^T D L (dynamics.hpp),
//     W = J A^-1 J^T = Y^T D^-1 Y,   Y = L^-T J^T,
// and Y of a row is non-zero only on the dofs of the paths from its bodies to the root (a foot
// of a quadruped: 6 base + 3 leg dofs of 18). Y is stored by dof (row q of Y: the island's m
// impulse components at dof q) with the range of columns that may be non-zero (a leg's dofs:
// its feet's; the base's: all), so the L^T solve and W = sum_q dinv_q Y_q^T Y_q are contiguous
// loops over those ranges. The velocity of every row is kept current:
//     v_i = J_i u_free + v_fixed_i + sum_j W_ij lambda_j,
// starting from the warm-start impulses (which are NOT applied to u beforehand for such
// islands), and after an update of row i every row's velocity moves by W_ji dlambda_i. Each
// update is the solver's own (solve_single_contact for contacts, the clamped 1-D update for
// rows), with the same relaxation, error measure, quiet-contact skipping, termination, sweep
// direction, Anderson acceleration and diagnostics, so in exact arithmetic it is the same
// iteration as the u-based sweep; the results agree to round-off (tests/articulated/
// test_contact_space.py). At the end, u_free += A^-1 sum_i J_i^T lambda_i = L^-1 D^-1 sum_i Y_i
// lambda_i: one half-solve for the whole island.
//
// The contact stage registers the world's articulated systems (add_system) and, once the
// contact and rolling rows exist, select() marks the systems none of whose rows has a second
// movable side. For those systems the stage skips A^-1 J^T, the u-based Delassus blocks and the
// application of warm starts to u; the bisection solver hands their islands to solve_island().
#pragma once

#include <cstdint>
#include <vector>

#include "contact/anderson.hpp"
#include "contact/bisection_solver.hpp"
#include "contact/contact_problem.hpp"
#include "core/cpu_dispatch.hpp"
#include "dynamics/articulated/model.hpp"

namespace torsion {

// One island's solve as ContactSpaceSolver::solve_island received it, with its system (the parts
// of the solve, each built twice, take it whole)
struct ContactSpaceIsland {
  const ArticulatedModel& model;
  const ArticulatedData& data;
  ContactProblems& problems;
  const std::uint32_t* contacts;
  std::size_t nc;
  const std::uint32_t* rows;
  std::size_t nr;
  std::int32_t d;  // the system's first dof in u
  double* u;
  const ContactSolverParams& params;
  bool forward_first;
  ContactSolverDiagnostics& diag;
  std::vector<std::uint8_t>& quiet;
};

class ContactSpaceSolver {
 public:
  // false: every island takes the u-based path (for tests comparing the two); not saved in
  // checkpoints: the two paths agree to round-off, not bitwise
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  // the u path for every system at the next selection only (add_system .. select), whatever
  // enabled() says: for a step whose rows act through a mass the contact-space path cannot read
  // (a tendon's armature, tendons.cpp); the user's setting is left alone
  void set_suspended_for_next_selection(bool on) { suspended_ = on; }
  // asked between sweeps (nullptr: never); see solve_interrupt.hpp
  void set_interrupt(SolveInterrupt* interrupt) { scratch_.interrupt = interrupt; }

  // forget the systems of the last step
  void clear() { systems_.clear(); }
  // an articulated system whose gv slice starts at u[dof_begin]; model and data must outlive the
  // solve and data must hold the step's factorisation
  void add_system(std::int32_t dof_begin, const ArticulatedModel& model,
                  const ArticulatedData& data);
  // mark the systems whose every contact row and 1-D row has no movable side on anything else
  // (joint rows, added later, only ever touch their own system)
  void select(const ContactProblems& problems);
  // true when u[dof_begin] starts a selected system: rows on it take the contact-space path
  bool owns(std::int32_t dof_begin) const { return find(dof_begin) >= 0; }

  // Solve one island of the bisection solver (its contact rows contacts[0..nc), its 1-D rows
  // rows[0..nr), in sweep order) in contact space if it belongs to a selected system; returns
  // false, changing nothing, otherwise. Sets the rows' g (and g_inv), lambda, u of the system,
  // and accumulates into diag as BisectionContactSolver::solve does per island.
  bool solve_island(ContactProblems& problems, const std::uint32_t* contacts, std::size_t nc,
                    const std::uint32_t* rows, std::size_t nr, double* u,
                    const ContactSolverParams& params, bool forward_first,
                    ContactSolverDiagnostics& diag, std::vector<std::uint8_t>& quiet);

 private:
  struct System {
    std::int32_t dof_begin = 0;
    const ArticulatedModel* model = nullptr;
    const ArticulatedData* data = nullptr;
    bool selected = false;
  };
  int find(std::int32_t dof_begin) const;  // index of a selected system, -1 if none
  // solve_island after the island's build: its sweeps and u's update, built twice
  // (core/cpu_dispatch.hpp; the body always inlined into the two)
  TORSION_ALWAYS_INLINE void sweep_island_body(const ContactSpaceIsland& is);
  void sweep_island_baseline(const ContactSpaceIsland& is);
#if TORSION_AVX2_BUILD
  TORSION_AVX2_TARGET void sweep_island_avx2(const ContactSpaceIsland& is);
#endif

  bool enabled_ = true;
  bool suspended_ = false;
  std::vector<System> systems_;
  // scratch of the island being solved, reused from step to step
  MatX y_;   // Y = L^-T J^T by dof: column q of y_ (m values) is row q of Y (m x nv)
  MatX w_;   // W = Y^T D^-1 Y (m x m)
  VecX v_;   // current velocity of every impulse component (m)
  VecX v_after_;  // per contact: its velocity right after its last update (3 per contact)
  VecX x_;   // nv: the summed generalized impulse Y lambda, then the velocity change
  // per dof q: the columns [row_lo_[q], row_hi_[q]) of Y's row q that may be non-zero
  std::vector<Eigen::Index> row_lo_, row_hi_;
  SweepScratch scratch_;  // Anderson state of the sweeps (island_sweeps.hpp)
};

}  // namespace torsion
