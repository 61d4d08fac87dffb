// The contact stages of a step (see step.cpp for the order), over a World's contacts and
// ContactState. Each integrate2 stage takes exactly what it reads (const) and what it writes
// (non-const references); the comment above each says which. Objects are passed as the world's
// object list in world-index order (`objects`); a stage that writes into objects says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "collision/contact.hpp"
#include "contact/contact_state.hpp"
#include "world/collision_shapes.hpp"
#include "world/object.hpp"

namespace torsion {

using ObjectList = std::vector<std::unique_ptr<Object>>;

// integrate1, after collision detection: one contact problem per contact: frame, material,
// depth, approach speed at the start of the step, Jacobians of both sides, and the warm-start
// impulse from the last step when one matches; and for a pair with rolling or spinning friction,
// its 1-D rows (scalar_row.hpp).
// reads: the objects (velocities, kinematics), the collision shapes (materials), contacts,
// configuration_number (when the material index must be rebuilt), cs.materials, cs.solver's params, cs.warm_start.
// writes: cs.problems (rows, Jacobians), cs.dof_begin, cs.u (sized), the material index, the
// warm start's lookup state.
void stage_build_contact_problems(const ObjectList& objects, const CollisionShapeList& shapes,
                                  const std::vector<Contact>& contacts,
                                  std::uint64_t configuration_number, ContactState& cs);

// --- integrate2: the contact pipeline, in step order (step.cpp) ---

// Effort clamping can make a solve start again (stage_update_effort_saturations): at most this
// many solves per step. A lone dof's held set settles within three (its demand falls as its
// torque rises: held on the wrong side, released, then held on the other), but coupled dofs and
// contacts can make the set cycle (a quadruped landing hard). The last re-solve only adds held
// dofs (see ArticulatedSystem::step_update_saturations), and after the last solve, the set that
// the end-of-step demand wants is where the next step starts (step_integrate_position). In a fuzz
// of clamped quadrupeds landing hard (random gains and limits), 4 solves left 1 step in 230 off
// the clamped demand and 6 left 1 in 8000; about 1 step in 600 of that fuzz needed a fifth solve.
constexpr int kMaxSaturationSolves = 6;

// reads: every movable object's velocity (single bodies: v, w; systems: gv), dof_begin.
// writes: u (the free velocities, 6 per dynamic body, nv per system, at dof_begin).
void stage_gather_free_velocities(const ObjectList& objects,
                                  const std::vector<std::int32_t>& dof_begin,
                                  std::vector<double>& u);

// reads: the articulated systems (model, data: the step's factorised damped mass matrix),
// dof_begin, problems. writes: space (registers every system, selects those whose rows touch
// no other movable body: their islands are solved in contact space).
void stage_select_contact_space(const ObjectList& objects,
                                const std::vector<std::int32_t>& dof_begin,
                                const ContactProblems& problems, ContactSpaceSolver& space);

// reads: the awake articulated systems, dof_begin, the free velocities u, space, dt.
// writes: problems.scalar_rows from first_joint_row on (last solve's joint rows dropped, then
// the joint-limit and joint-friction rows of every awake system, contact/joint_rows.hpp).
void stage_build_joint_rows(const ObjectList& objects, const std::vector<std::int32_t>& dof_begin,
                            const std::vector<double>& u, const ContactSpaceSolver& space,
                            double dt, std::size_t first_joint_row, ContactProblems& problems);

// reads: the articulated systems (A^-1 of this step), space (its rows need no blocks here).
// writes: the Delassus block of every contact row and g of every rolling row (rows before
// first_joint_row) not owned by space, and their articulated sides' A^-1 J^T.
void stage_delassus_blocks(const ObjectList& objects, const ContactSpaceSolver& space,
                           std::size_t first_joint_row, ContactProblems& problems);

// reads: space, warm_start (joint rows' impulses of the last step), warm_start_enabled.
// writes: u (each row's starting impulse applied to the free velocities: warm-started contacts,
// and on a restart every contact and rolling row from its last solution), the joint rows'
// starting lambda. Returns how many contacts were warm-started (the solver's diagnostic).
std::size_t stage_apply_starting_impulses(const ObjectList& objects,
                                          const ContactSpaceSolver& space,
                                          const WarmStartCache& warm_start,
                                          bool warm_start_enabled, std::size_t first_joint_row,
                                          bool restart, ContactProblems& problems,
                                          std::vector<double>& u);

// reads: dt, warm_started (the count for the diagnostics).
// writes: problems (normal targets, every row's impulse), u (the corrected velocities), solver
// (its diagnostics), space (its islands' solves). With no rows it only resets the diagnostics.
void stage_solve(double dt, std::size_t warm_started, ContactProblems& problems,
                 std::vector<double>& u, BisectionContactSolver& solver,
                 ContactSpaceSolver& space);

// reads: the solved velocities u, dof_begin, dt, may_release (false on the last re-solve).
// writes: every awake effort-clamped system (its gv = the solved velocity, its held dofs, then
// if they changed its new free velocity), u_free at those systems. Returns true if any system's
// held set changed: the step must be solved again from u_free.
bool stage_update_effort_saturations(const ObjectList& objects,
                                     const std::vector<std::int32_t>& dof_begin,
                                     const std::vector<double>& u, double dt, bool may_release,
                                     std::vector<double>& u_free);

// reads: u, dof_begin. writes: every movable object's velocity (the inverse of
// stage_gather_free_velocities).
void stage_write_back_velocities(const ObjectList& objects,
                                 const std::vector<std::int32_t>& dof_begin,
                                 const std::vector<double>& u);

// reads: objects (ids), problems (every row's impulse). writes: each contact's impulse
// (contact frame, on A) in contacts, and warm_start: a new record of the contact impulses (world
// frame) and of the joint rows' (from first_joint_row on), for the next step.
void stage_store_warm_start(const ObjectList& objects, const ContactProblems& problems,
                            std::size_t first_joint_row, std::vector<Contact>& contacts,
                            WarmStartCache& warm_start);

// integrate2, after the position update: the position pass (contact/position_correction.hpp for
// single bodies, world/articulated_position_pass.hpp for robots).
// reads: dof_begin, problems (the contact rows of the step), u (the solved velocities), dt,
// params (position_correction, max_depenetration_velocity), the systems' factorisations.
// writes: the positions of the awake single bodies the pass moves (translation only) and the
// configurations of the awake systems it moves (velocities untouched), the pass's scratch
// (u_position, position_impulse, position_target).
void stage_correct_positions(const ObjectList& objects, const std::vector<std::int32_t>& dof_begin,
                             const ContactProblems& problems, const std::vector<double>& u,
                             double dt, const ContactSolverParams& params,
                             std::vector<double>& u_position,
                             std::vector<double>& position_impulse,
                             std::vector<double>& position_target);

// integrate2, after the position update. reads: the awake articulated systems' models.
// writes: their coordinates past a joint limit, moved back by a fraction of the violation
// (contact/joint_rows.hpp).
void stage_correct_joint_limit_violations(const ObjectList& objects);

}  // namespace torsion
