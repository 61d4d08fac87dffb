// One step of the world, as a flat list of named stages (DESIGN.md, "One step";
// docs/architecture.md has the picture). step_integrate1 and step_integrate2 below are the list:
// each line is one stage, a free function whose parameters say what it reads (const) and writes.
//
//   integrate1: classify objects; remember start poses; sleep: wake requests; kinematics
//               (rotation matrices, world inertias); articulated dynamics terms (kinematics, mass
//               matrix, nonlinear terms); collision detection (gather the collision bodies, world
//               AABBs, broad phase, filters, narrow phase -> world.contacts()), again while a
//               sleeping island wakes on contact; contact problems (frames, materials,
//               Jacobians, warm start: contact_stages.cpp); stiff wires' rows (wires.cpp)
//   integrate2: compliant and custom wires' forces; granular systems and deformable terrain
//               (their forces into the bodies' external forces); free velocities (gravity,
//               external forces, gyroscopic term; articulated systems:
//               PD and joint torques through the factorised damped mass matrix);
//               the contact pipeline (contact_stages.hpp): gather the free velocities into u;
//               then for each solve: select contact-space islands, joint-limit and joint-friction
//               rows, Delassus blocks (articulated sides: A^-1 J^T from that factorisation),
//               starting impulses (warm start; wire rows' too), the bisection solve over contacts and 1-D rows
//               together, effort saturations (a changed held set solves again, at most
//               kMaxSaturationSolves); write the velocities back; store the warm start; wire tensions;
//               semi-implicit position update; the position pass (penetration removed by
//               moving single bodies, velocities untouched); joint-limit violations corrected;
//               external forces cleared; deformables (XPBD substeps of the cloth and solids,
//               their particles against the collision shape list; their reactions into the
//               bodies' external forces of the next step); sleep: islands fall asleep; recovery of non-finite bodies;
//               time += dt
//
// Sleeping islands (sleeping.hpp, off by default) add three stages: wake requests before
// collision detection, waking on contact after it, and falling asleep at the end of integrate2.
// Sleeping objects count as static for the collision filter and skip the velocity and position
// updates.
//
// No stage allocates in steady state.
#include <cmath>
#include <stdexcept>

#include "core/assert.hpp"
#include "granular/granular_world.hpp"
#include "terrain/deformable_terrain.hpp"
#include "world/contact_stages.hpp"
#include "world/sleeping.hpp"
#include "world/articulated_system.hpp"
#include "world/collision_shapes.hpp"
#include "world/step_profile.hpp"
#include "world/tendons.hpp"
#include "world/wire_stages.hpp"
#include "world/world.hpp"
#include "world/world_deformable.hpp"

namespace torsion {

namespace {

// The objects of a step, classified once by integrate1 (objects cannot be added or removed
// between integrate1 and integrate2): the single rigid bodies and the articulated systems, each
// in world-index order with their world indices.
struct StepObjects {
  std::vector<SingleBodyObject*>& bodies;
  std::vector<std::uint32_t>& body_index;
  std::vector<ArticulatedSystem*>& systems;
  std::vector<std::uint32_t>& system_index;
};

template <class F>
void for_each_body(const StepObjects& so, F&& f) {
  for (SingleBodyObject* b : so.bodies) f(*b);
}

template <class F>
void for_each_articulated(const StepObjects& so, F&& f) {
  for (ArticulatedSystem* a : so.systems) f(*a);
}

bool body_state_finite(const RigidBody& b) {
  return b.position.allFinite() && b.orientation.coeffs().allFinite() &&
         b.linear_velocity.allFinite() && b.angular_velocity.allFinite();
}

// a collision body whose group or mask is zero passes no filter: it can touch nothing
bool can_collide(CollisionGroup group, CollisionGroup mask) { return group != 0 && mask != 0; }

// --- integrate1 stages ---

// reads: the object list. writes: so (the single bodies and the systems, with their indices).
void stage_classify_objects(const ObjectList& objects, const StepObjects& so) {
  so.bodies.clear();
  so.body_index.clear();
  so.systems.clear();
  so.system_index.clear();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    Object* obj = objects[i].get();
    if (obj->type() == ObjectType::kArticulatedSystem) {
      so.systems.push_back(static_cast<ArticulatedSystem*>(obj));
      so.system_index.push_back(static_cast<std::uint32_t>(i));
    } else {  // every other object type is a SingleBodyObject (or derives from it)
      so.bodies.push_back(static_cast<SingleBodyObject*>(obj));
      so.body_index.push_back(static_cast<std::uint32_t>(i));
    }
  }
}

// reads: each single body's pose. writes: its rotation matrix and world inverse inertia.
void stage_update_kinematics(const StepObjects& so) {
  for_each_body(so, [](SingleBodyObject& o) { update_body_kinematics(o.body()); });
}

// The collision bodies of the step: one per entry of the world's collision shape list
// (collision_shapes.hpp), posed by the entry's pose function (single bodies from their rotation
// matrices of stage_update_kinematics, robot links from stage_articulated_dynamics_terms). Shapes
// whose group or mask is zero are left out (no pair could pass the filter), which keeps scenes of
// non-colliding bodies free of any broad-phase cost. The list is in world-index order, as the
// pair order requires.
// A single body's shapes carry how far the body may move in the step (speculative contacts,
// CollisionBody::move_linear): its speed times dt, and its turn rate times dt. Gravity's share
// (g dt^2) is left out: a resting body would get that much margin every step (3.9 mm at
// dt = 0.02, where the rims of a resting stack of cylinders then gave extra points and the
// stack drifted 0.8 mm in 3 s), and the base margin covers a body that starts to fall.
// reads: the collision shapes (their objects' poses, velocities, filters, sleeping), dt.
// writes: cd.bodies.
void stage_gather_collision_bodies(const CollisionShapeList& shapes, double dt,
                                   CollisionData& cd) {
  // last step's entries are overwritten in place (every field), not cleared and rebuilt
  std::size_t count = 0;
  for (const CollisionShapeEntry& e : shapes.entries()) {
    if (!can_collide(e.filter->group, e.filter->mask)) continue;
    // a deformable terrain meets bodies through its own soil law (stage_deformable_terrain),
    // never through the contact solver
    if (e.shape->type == ShapeType::kHeightMap && as_deformable_terrain(*e.object)) continue;
    if (count == cd.bodies.size()) cd.bodies.emplace_back();
    CollisionBody& cb = cd.bodies[count++];
    cb.shape = e.shape;
    e.world_pose(cb.pose);
    cb.object_index = e.object_index;
    cb.local_index = e.local_index;
    cb.group = e.filter->group;
    cb.mask = e.filter->mask;
    // a sleeping object is as still as a static body: its pairs with static or sleeping bodies
    // (and a sleeping robot's self-pairs) are left out; one with an awake body is still found,
    // and wakes it (stage_wake_on_contact)
    cb.is_static =
        e.object->is_sleeping() || (e.body != nullptr && e.body->type == BodyType::kStatic);
    if (e.body != nullptr && !cb.is_static) {
      cb.step_linear = dt * e.body->linear_velocity;
      cb.step_angular = dt * e.body->angular_velocity;
      cb.move_linear = cb.step_linear.norm();
      cb.move_angular = cb.step_angular.norm();
      cb.com = e.body->position;
    } else {
      cb.move_linear = cb.move_angular = 0.0;
      cb.step_linear.setZero();
      cb.step_angular.setZero();
    }
    if (e.system != nullptr) {  // a robot's link: self-collision as the robot says
      cb.self_collision = e.system->self_collision;
      // the body a link does not touch: its parent, or the body MuJoCo's parent filter names
      // (mjcf: past the massless chain of a multi-joint body)
      const ArticulatedModel& m = e.system->model();
      const auto link = static_cast<std::size_t>(e.link);
      cb.excluded_local = !e.system->do_not_collide_with_parent ? -1
                          : m.collision_parent.empty()          ? m.bodies[link].parent
                                                                : m.collision_parent[link];
    } else {
      cb.self_collision = false;
      cb.excluded_local = -1;
    }
  }
  cd.bodies.resize(count);  // only ever shrinks here
}

// reads: the collision shapes, detect (false: integrate_no_contact_detection), dt.
// writes: cd (its bodies, broad-phase state, contacts, counters).
void stage_collision_detection(const CollisionShapeList& shapes, bool detect, double dt,
                               CollisionData& cd) {
  if (!detect) {
    cd.contacts.clear();
    cd.counters = CollisionCounters();
    return;
  }
  stage_gather_collision_bodies(shapes, dt, cd);
  detect_collisions(cd);
}

// reads: gravity, each system's state. writes: its kinematics, mass matrix and nonlinear terms.
void stage_articulated_dynamics_terms(const StepObjects& so, const Vec3& g) {
  for_each_articulated(so, [&](ArticulatedSystem& a) { a.step_dynamics_terms(g); });
}

// --- integrate2 stages ---

// reads: gravity, dt, the awake objects' state, forces and controls. writes: their velocities
// (systems: gv, through the factorised damped mass matrix, and their held efforts).
void stage_free_velocities(const StepObjects& so, const Vec3& g, double dt) {
  for_each_body(so, [&](SingleBodyObject& o) {
    if (!o.is_sleeping()) integrate_body_velocity(o.body(), g, dt);
  });
  for_each_articulated(so, [&](ArticulatedSystem& a) {
    if (!a.is_sleeping()) a.step_free_velocity(dt);
  });
}

// reads: dt, the awake objects' velocities. writes: their positions (systems: gc).
void stage_integrate_positions(const StepObjects& so, double dt) {
  for_each_body(so, [&](SingleBodyObject& o) {
    if (!o.is_sleeping()) integrate_body_position(o.body(), dt);
  });
  for_each_articulated(so, [&](ArticulatedSystem& a) {
    if (!a.is_sleeping()) a.step_integrate_position(dt);
  });
}

// writes: every single body's external force and torque (they act for one step).
void stage_clear_external_forces(const StepObjects& so) {
  for_each_body(so, [](SingleBodyObject& o) {
    o.body().external_force.setZero();
    o.body().external_torque.setZero();
  });
}

// reads: every single body's state (position, orientation, velocities). writes: start_pose (per
// world index), the pose each body is put back at if its state goes non-finite in this step.
template <class PoseVector>
void stage_remember_start_poses(const StepObjects& so, std::size_t object_count,
                                PoseVector& start_pose) {
  start_pose.resize(object_count);
  for (std::size_t k = 0; k < so.bodies.size(); ++k) {
    const RigidBody& b = so.bodies[k]->body();
    start_pose[so.body_index[k]] = {b.position, b.orientation};
  }
}

// the largest free velocity component (m/s or rad/s) a single body may take into the contact
// solve: far beyond anything physical, and far below where the solver's products (velocity
// squared times masses) overflow double range (a free velocity near 1e150 did)
constexpr double kMaxFreeSpeed = 1e100;

// A body whose free velocity is not finite or beyond kMaxFreeSpeed (a force of 1e200 N on a 1 kg
// box) would carry inf and NaN through the contact solve into every body it touches, and the
// recovery would then reset them all (a stack's neighbours with its top box). It has not moved
// yet this step: it is put at rest before the solve, and counted like the recovery's resets; the
// bodies it touches meet a body at rest.
// reads: every awake dynamic body's free velocities, time (for the warning). writes: those of a
// runaway body (zeroed), warm_start (its impulses forgotten), warnings.
void stage_stop_runaway_bodies(const StepObjects& so, const ObjectList& objects, double time,
                               WarmStartCache& warm_start, StepWarnings& warnings) {
  for (std::size_t k = 0; k < so.bodies.size(); ++k) {
    RigidBody& b = so.bodies[k]->body();
    if (!b.is_dynamic() || so.bodies[k]->is_sleeping()) continue;
    const double v = b.linear_velocity.cwiseAbs().maxCoeff();
    const double w = b.angular_velocity.cwiseAbs().maxCoeff();
    if (v <= kMaxFreeSpeed && w <= kMaxFreeSpeed) continue;  // false for NaN too
    b.linear_velocity.setZero();
    b.angular_velocity.setZero();
    b.start_angular_velocity_b.setZero();
    const ObjectId id = objects[so.body_index[k]]->id();
    warm_start.forget(id);
    ++warnings.non_finite_state;
    warnings.last_object = id;
    warnings.last_time = time;
  }
}

// Recovery: a body whose state is no longer finite is reset to its pose at the start of the
// step, at rest, its warm-start impulses are forgotten (the solve that broke it made them; kept,
// they would break it again next step), and the event is counted in the world's warnings.
// reads: every object's state, start_pose, time (for the warning). writes: the reset bodies and
// systems, warm_start (their impulses forgotten), warnings.
template <class PoseVector>
void stage_recover_non_finite(const StepObjects& so, const ObjectList& objects,
                              const PoseVector& start_pose, double time,
                              WarmStartCache& warm_start, StepWarnings& warnings) {
  auto warn = [&](std::uint32_t index) {
    warm_start.forget(objects[index]->id());
    ++warnings.non_finite_state;
    warnings.last_object = objects[index]->id();
    warnings.last_time = time;
  };
  // (in world-index order: the last warning names the last such object)
  std::size_t next_system = 0;
  auto recover_systems_before = [&](std::uint32_t index) {
    for (; next_system < so.systems.size() && so.system_index[next_system] < index; ++next_system) {
      // an articulated system goes back to its configuration at the start of the step, at rest
      if (so.systems[next_system]->step_recover_if_non_finite())
        warn(so.system_index[next_system]);
    }
  };
  for (std::size_t k = 0; k < so.bodies.size(); ++k) {
    const std::uint32_t index = so.body_index[k];
    recover_systems_before(index);
    RigidBody& b = so.bodies[k]->body();
    if (body_state_finite(b)) continue;
    b.position = start_pose[index].position;
    b.orientation = start_pose[index].orientation;
    b.linear_velocity.setZero();
    b.angular_velocity.setZero();
    update_body_kinematics(b);
    warn(index);
  }
  recover_systems_before(static_cast<std::uint32_t>(objects.size()));
}

// The stage clock of an unprofiled step (StageClock, step_profile.hpp, times a profiled one):
// step_integrate1 and step_integrate2 run their stages with one or the other, so a step without
// the profile has no clock and no branch at its stage boundaries.
struct NoStageClock {
  void lap(StepStage) {}
  void finish(bool) {}
};

// --- invariants checked at stage boundaries (TORSION_ASSERT: debug builds only) ---

// every contact names two objects of the world
[[maybe_unused]] bool contacts_index_objects(const std::vector<Contact>& contacts,
                                             std::size_t object_count) {
  for (const Contact& ct : contacts)
    if (ct.object_a >= object_count || ct.object_b >= object_count) return false;
  return true;
}

// every contact row names a contact of the step
[[maybe_unused]] bool rows_index_contacts(const ContactProblems& problems,
                                          std::size_t contact_count) {
  for (const ContactProblem& row : problems.rows)
    if (row.contact >= contact_count) return false;
  return true;
}

// every single body's and articulated system's state is finite
[[maybe_unused]] bool all_states_finite(const StepObjects& so) {
  for (const SingleBodyObject* b : so.bodies)
    if (!body_state_finite(b->body())) return false;
  for (const ArticulatedSystem* a : so.systems)
    if (!a->data().q.allFinite() || !a->data().u.allFinite()) return false;
  return true;
}

}  // namespace



void step_integrate1(World& world) {
  // the stages, with `clock` timing them (StageClock) or not (NoStageClock: no cost)
  auto run = [&world](auto& clock) {
    const StepObjects so{world.step_single_bodies_, world.step_single_index_,
                         world.step_articulated_, world.step_articulated_index_};
    const ObjectList& objects = world.objects_;

    stage_classify_objects(objects, so);
    TORSION_ASSERT(so.bodies.size() + so.systems.size() == objects.size());
    clock.lap(StepStage::kClassifyObjects);
    // remember every pose, so a body whose state goes non-finite can be put back
    stage_remember_start_poses(so, objects.size(), world.step_start_pose_);
    clock.lap(StepStage::kRememberStartPoses);
    stage_sleep_wake_requests(world);
    clock.lap(StepStage::kWakeRequests);
    stage_update_kinematics(so);
    clock.lap(StepStage::kKinematics);
    stage_articulated_dynamics_terms(so, world.gravity_);
    clock.lap(StepStage::kArticulatedDynamicsTerms);
    stage_collision_detection(world.shapes_, world.detect_contacts_, world.dt_,
                              world.collision_);
    clock.lap(StepStage::kCollisionDetection);
    // an awake body touched a sleeping island: it woke, so its own pairs must be found too
    for (;;) {
      const bool woke = stage_wake_on_contact(world);
      clock.lap(StepStage::kWakeOnContact);
      if (!woke) break;
      stage_collision_detection(world.shapes_, world.detect_contacts_, world.dt_,
                              world.collision_);
      clock.lap(StepStage::kCollisionDetection);
    }
    TORSION_ASSERT(contacts_index_objects(world.contacts(), objects.size()));
    stage_build_contact_problems(objects, world.shapes_, world.contacts(),
                                 world.configuration_number_, world.contact_);
    TORSION_ASSERT(world.contact_.dof_begin.size() == objects.size());
    TORSION_ASSERT(rows_index_contacts(world.contact_.problems, world.contacts().size()));
    clock.lap(StepStage::kBuildContactProblems);
    stage_build_wire_rows(world, world.contact_);
    stage_build_tendon_rows(world, world.contact_);  // (timed with the wires' rows)
    clock.lap(StepStage::kWireRows);
  };
  if (world.profile_.enabled) {
    StageClock clock(world.profile_, /*begin_step=*/true);
    run(clock);
  } else {
    NoStageClock clock;
    run(clock);
  }
}

void step_integrate2(World& world) {
  // the stages, with `clock` timing them (StageClock) or not (NoStageClock: no cost)
  auto run = [&world](auto& clock) {
    const StepObjects so{world.step_single_bodies_, world.step_single_index_,
                         world.step_articulated_, world.step_articulated_index_};
    const ObjectList& objects = world.objects_;
    ContactState& cs = world.contact_;
    ContactProblems& problems = cs.problems;
    const double dt = world.dt_;
    // integrate1 classified these objects and built the problems over them (no object can be
    // added or removed mid-step)
    TORSION_ASSERT(so.bodies.size() + so.systems.size() == objects.size());
    TORSION_ASSERT(cs.dof_begin.size() == objects.size());

    stage_wire_forces(world);
    clock.lap(StepStage::kWireForces);
    // particles, their reactions into the bodies' and links' external forces of this step
    if (world.granular_ && !world.granular_->systems.empty())
      stage_granular(world, dt, world.gravity_);
    clock.lap(StepStage::kGranular);
    // deformable terrain: the soil's forces into the bodies' and links' external forces of this
    // step, its heights sunk under them and under the particles' loads of the granular stage
    // (terrain/deformable_terrain.hpp)
    stage_deformable_terrain(world, dt);
    clock.lap(StepStage::kDeformableTerrain);
    stage_free_velocities(so, world.gravity_, dt);
    stage_stop_runaway_bodies(so, objects, world.time_, cs.warm_start, world.warnings_);
    clock.lap(StepStage::kFreeVelocities);
    // the contact solver (contact_stages.hpp), over the generalized velocities u of every movable
    // object (6 per dynamic body, nv per system, at cs.dof_begin)
    stage_gather_free_velocities(objects, cs.dof_begin, cs.u);
    stage_tendon_forces(world, cs);  // tendons' springs: implicit impulses on u (tendons.hpp)
    clock.lap(StepStage::kGatherFreeVelocities);
    // rows before first_joint_row (contacts' rolling and spinning rows) were built by integrate1;
    // the joint rows need the free velocities, so they are built for every solve
    const std::size_t first_joint_row = problems.scalar_rows.size();
    cs.u_free = cs.u;
    // one solve, and again (from the new free velocities, every row from its last impulse) while
    // an effort-clamped system's held dofs change, at most kMaxSaturationSolves times
    for (int solve = 1;; ++solve) {
      stage_select_contact_space(objects, cs.dof_begin, problems, cs.contact_space);
      clock.lap(StepStage::kSelectContactSpace);
      stage_build_joint_rows(objects, cs.dof_begin, cs.u, cs.contact_space, dt, first_joint_row,
                             problems);
      TORSION_ASSERT(problems.scalar_rows.size() >= first_joint_row);
      clock.lap(StepStage::kJointRows);
      // (no rows: no blocks and no impulses; the solve only resets its diagnostics)
      const bool has_rows = !problems.rows.empty() || !problems.scalar_rows.empty();
      if (has_rows) stage_delassus_blocks(objects, cs.contact_space, first_joint_row, problems);
      // the rows' A^-1 J^T with the tendons' armature and implicit terms (tendons.hpp)
      if (has_rows) stage_tendon_constraint_mass(world, cs);
      clock.lap(StepStage::kDelassusBlocks);
      const std::size_t warm =
          has_rows ? stage_apply_starting_impulses(objects, cs.contact_space, cs.warm_start,
                                                   cs.warm_start_enabled, first_joint_row,
                                                   solve > 1, problems, cs.u)
                   : 0;
      TORSION_ASSERT(warm <= problems.rows.size());
      clock.lap(StepStage::kStartingImpulses);
      if (solve == 1 && has_rows) stage_wire_starting_impulses(world, cs);
      clock.lap(StepStage::kWireStartingImpulses);
      if (has_rows) stage_wire_presolve(world, cs);
      clock.lap(StepStage::kWirePresolve);
      stage_solve(dt, warm, problems, cs.u, cs.solver, cs.contact_space);
      TORSION_ASSERT(cs.u.size() == cs.u_free.size());
      clock.lap(StepStage::kSolve);
      if (solve == kMaxSaturationSolves) break;
      const bool changed = stage_update_effort_saturations(objects, cs.dof_begin, cs.u, dt,
                                                           solve + 1 < kMaxSaturationSolves,
                                                           cs.u_free);
      clock.lap(StepStage::kEffortSaturations);
      if (!changed) break;
      cs.u = cs.u_free;
    }
    stage_write_back_velocities(objects, cs.dof_begin, cs.u);
    clock.lap(StepStage::kWriteBackVelocities);
    stage_store_warm_start(objects, problems, first_joint_row, world.contacts(), cs.warm_start);
    clock.lap(StepStage::kStoreWarmStart);
    stage_wire_tensions(world, cs);
    stage_tendon_results(world, cs);
    clock.lap(StepStage::kWireTensions);

    stage_integrate_positions(so, dt);
    clock.lap(StepStage::kIntegratePositions);
    // the position pass: penetration left by the velocity solve removed by moving single bodies
    // (velocities untouched: no energy added)
    stage_correct_positions(objects, cs.dof_begin, problems, cs.u, dt, cs.solver.params(),
                            cs.u_position, cs.position_impulse, cs.position_target);
    clock.lap(StepStage::kCorrectPositions);
    stage_correct_joint_limit_violations(objects);
    clock.lap(StepStage::kCorrectJointLimits);
    stage_clear_external_forces(so);
    clock.lap(StepStage::kClearExternalForces);
    // after the clear: the deformables' reactions go into the bodies' external forces of the
    // next step (world_deformable.hpp)
    stage_deformables(world, true);
    clock.lap(StepStage::kDeformables);
    stage_update_sleeping(world);
    clock.lap(StepStage::kUpdateSleeping);
    stage_recover_non_finite(so, objects, world.step_start_pose_, world.time_, cs.warm_start,
                             world.warnings_);
    // every state is finite at the end of a step: what the recovery is for
    TORSION_ASSERT(all_states_finite(so));
    clock.lap(StepStage::kRecoverNonFinite);
    world.time_ += world.dt_;
    ++world.state_version_;
    clock.lap(StepStage::kAdvanceTime);
    clock.finish(/*end_step=*/true);
  };
  if (world.profile_.enabled) {
    StageClock clock(world.profile_, /*begin_step=*/false);
    run(clock);
  } else {
    NoStageClock clock;
    run(clock);
  }
}

void World::set_step_profile_enabled(bool on) {
  if (mid_step_)
    throw std::logic_error("set_step_profile_enabled() is not allowed between integrate1() and "
                           "integrate2()");
  profile_ = StepProfile();
  profile_.enabled = on;
}

void World::integrate1() {
  if (mid_step_) throw std::logic_error("integrate1() called twice without integrate2()");
  step_integrate1(*this);
  mid_step_ = true;
}

void World::integrate_no_contact_detection() {
  if (mid_step_)
    throw std::logic_error("integrate_no_contact_detection() called twice without integrate2()");
  detect_contacts_ = false;
  step_integrate1(*this);
  detect_contacts_ = true;
  mid_step_ = true;
}

void World::integrate2() {
  if (!mid_step_) throw std::logic_error("integrate2() called without a preceding integrate1()");
  step_integrate2(*this);
  mid_step_ = false;
}

namespace {
constexpr const char* kIntegrateMidStep =
    "integrate() is not allowed between integrate1() and integrate2()";
}  // namespace

// (integrate checks mid_step_ only: the bindings run it inside an ExclusiveWorldUse)
void World::integrate() {
  if (mid_step_) throw std::logic_error(kIntegrateMidStep);
  step_integrate1(*this);
  step_integrate2(*this);
}

void World::integrate(std::int64_t steps) {
  if (mid_step_) throw std::logic_error(kIntegrateMidStep);
  for (std::int64_t k = 0; k < steps; ++k) {
    step_integrate1(*this);
    step_integrate2(*this);
  }
}

}  // namespace torsion
