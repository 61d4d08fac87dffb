// One step of the world, as a script of named stages (DESIGN.md, "One step").
//
//   integrate1: kinematics (rotation matrices, world inertias)
//               articulated systems: kinematics, mass matrix, nonlinear terms
//               collision detection: drop last step's contacts; gather the collision bodies;
//               world AABBs, broad phase, filters, narrow phase -> world.contacts()
//               contact problems: frames, materials, Jacobians, warm start (contact_stages.cpp)
//   integrate2: free velocities (gravity, external forces, gyroscopic term; articulated systems:
//               PD and joint torques through the factorised damped mass matrix)
//               the contact solver: joint-limit and joint-friction rows of the articulated
//               systems (from the free velocities), Delassus blocks (articulated sides: A^-1 J^T
//               from that factorisation), bisection solver over contacts and 1-D rows together,
//               corrected velocities
//               semi-implicit position update; joint coordinates past a limit moved back by a
//               fraction of the violation; recovery of non-finite bodies; time += dt
//
// Sleeping islands (sleeping.hpp, off by default) add three stages: wake requests before
// collision detection, waking on contact after it, and falling asleep at the end of integrate2.
// Sleeping objects count as static for the collision filter and skip the velocity and position
// updates.
//
// Every stage is a free function over the world's data; none allocates in steady state.
#include <cmath>
#include <stdexcept>

#include "world/contact_stages.hpp"
#include "world/sleeping.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"

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

void stage_classify_objects(World& world, const StepObjects& so) {
  so.bodies.clear();
  so.body_index.clear();
  so.systems.clear();
  so.system_index.clear();
  const auto& objects = world.objects();
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

void stage_update_kinematics(const StepObjects& so) {
  for_each_body(so, [](SingleBodyObject& o) { update_body_kinematics(o.body()); });
}

// the collision bodies of every object: single bodies have one (local index 0); an articulated
// system has every collision shape of its links, local index = the link's body index, posed by
// the kinematics of stage_articulated_dynamics_terms. Bodies whose group or mask is zero are
// left out (no pair could pass the filter), which keeps scenes of non-colliding bodies free of
// any broad-phase cost. The list is in world-index order, as the pair order requires.
void stage_gather_collision_bodies(World& world, const StepObjects& so) {
  CollisionData& cd = world.collision_data();
  // last step's entries are overwritten in place (every field), not cleared and rebuilt
  std::size_t count = 0;
  auto next_body = [&]() -> CollisionBody& {
    if (count == cd.bodies.size()) cd.bodies.emplace_back();
    return cd.bodies[count++];
  };
  std::size_t next_system = 0;
  auto gather_system = [&](std::size_t s) {
    const ArticulatedSystem& a = *so.systems[s];
    const std::uint32_t index = so.system_index[s];
    const ArticulatedModel& m = a.model();
    for (std::size_t k = 0; k < m.collisions.size(); ++k) {
      const int body = m.collisions[k].body;
      const CollisionProps& props = a.body_collision[static_cast<std::size_t>(body)];
      if (!can_collide(props.group, props.mask)) continue;
      CollisionBody& cb = next_body();
      cb.shape = &m.collisions[k].shape;
      a.collision_pose(k, cb.pose);
      cb.object_index = index;
      cb.local_index = static_cast<std::uint32_t>(body);
      cb.group = props.group;
      cb.mask = props.mask;
      // a sleeping robot is as still as a static body, like a sleeping single body below: its
      // pairs with static or sleeping bodies (and its self-pairs) are left out; one with an awake
      // body is still found, and wakes it (stage_wake_on_contact)
      cb.is_static = a.is_sleeping();
      cb.self_collision = a.self_collision;
      cb.excluded_local = a.do_not_collide_with_parent ? m.bodies[body].parent : -1;
    }
  };
  for (std::size_t k = 0; k < so.bodies.size(); ++k) {
    const std::uint32_t index = so.body_index[k];
    while (next_system < so.systems.size() && so.system_index[next_system] < index)
      gather_system(next_system++);
    const SingleBodyObject& o = *so.bodies[k];
    if (!can_collide(o.collision().group, o.collision().mask)) continue;
    // one collision body per shape: the body's own, or each child's (compounds, convex
    // decompositions; local index = child index, pose = body pose * child pose)
    const std::size_t n = o.shape_count();
    for (std::size_t c = 0; c < n; ++c) {
      CollisionBody& cb = next_body();
      if (o.children().empty()) {
        cb.shape = &o.shape();
        cb.pose.position = o.body().position;
        cb.pose.rotation = o.body().rotation;
      } else {
        const ChildShape& child = o.children()[c];
        cb.shape = &child.shape;
        cb.pose.position = o.body().position + o.body().rotation * child.pose.position;
        cb.pose.rotation = o.body().rotation * child.pose.rotation;
      }
      cb.object_index = index;
      cb.local_index = static_cast<std::uint32_t>(c);
      cb.group = o.collision().group;
      cb.mask = o.collision().mask;
      cb.is_static = o.body().type == BodyType::kStatic || o.is_sleeping();
      cb.self_collision = false;
      cb.excluded_local = -1;
    }
  }
  while (next_system < so.systems.size()) gather_system(next_system++);
  cd.bodies.resize(count);  // only ever shrinks here
}

void stage_collision_detection(World& world, const StepObjects& so, bool detect) {
  CollisionData& cd = world.collision_data();
  if (!detect) {
    cd.contacts.clear();
    cd.counters = CollisionCounters();
    return;
  }
  stage_gather_collision_bodies(world, so);
  detect_collisions(cd);
}

void stage_articulated_dynamics_terms(World& world, const StepObjects& so) {
  const Vec3 g = world.gravity();
  for_each_articulated(so, [&](ArticulatedSystem& a) { a.step_dynamics_terms(g); });
}

// --- integrate2 stages ---

void stage_free_velocities(World& world, const StepObjects& so) {
  const Vec3 g = world.gravity();
  const double dt = world.time_step();
  for_each_body(so, [&](SingleBodyObject& o) {
    if (!o.is_sleeping()) integrate_body_velocity(o.body(), g, dt);
  });
  for_each_articulated(so, [&](ArticulatedSystem& a) {
    if (!a.is_sleeping()) a.step_free_velocity(dt);
  });
}

void stage_integrate_positions(World& world, const StepObjects& so) {
  const double dt = world.time_step();
  for_each_body(so, [&](SingleBodyObject& o) {
    if (!o.is_sleeping()) integrate_body_position(o.body(), dt);
  });
  for_each_articulated(so, [&](ArticulatedSystem& a) {
    if (!a.is_sleeping()) a.step_integrate_position(dt);
  });
}

void stage_clear_external_forces(const StepObjects& so) {
  for_each_body(so, [](SingleBodyObject& o) {
    o.body().external_force.setZero();
    o.body().external_torque.setZero();
  });
}

}  // namespace

// the largest free velocity component (m/s or rad/s) a single body may take into the contact
// solve: far beyond anything physical, and far below where the solver's products (velocity
// squared times masses) overflow double range (a free velocity near 1e150 did)
constexpr double kMaxFreeSpeed = 1e100;

void step_integrate1(World& world) {
  const StepObjects so{world.step_single_bodies_, world.step_single_index_,
                       world.step_articulated_, world.step_articulated_index_};
  stage_classify_objects(world, so);
  // remember every pose, so a body whose state goes non-finite can be put back
  world.step_start_pose_.resize(world.objects_.size());
  for (std::size_t k = 0; k < so.bodies.size(); ++k) {
    const RigidBody& b = so.bodies[k]->body();
    world.step_start_pose_[so.body_index[k]] = {b.position, b.orientation};
  }
  stage_sleep_wake_requests(world);
  stage_update_kinematics(so);
  stage_articulated_dynamics_terms(world, so);
  stage_collision_detection(world, so, world.detect_contacts_);
  // an awake body touched a sleeping island: it woke, so its own pairs must be found too
  while (stage_wake_on_contact(world)) stage_collision_detection(world, so, world.detect_contacts_);
  stage_build_contact_problems(world);
}

void step_integrate2(World& world) {
  const StepObjects so{world.step_single_bodies_, world.step_single_index_,
                       world.step_articulated_, world.step_articulated_index_};
  stage_free_velocities(world, so);
  // a body whose free velocity is not finite or beyond kMaxFreeSpeed (a force of 1e200 N on a
  // 1 kg box) would carry inf and NaN through the contact solve into every body it touches, and
  // the recovery below would then reset them all (a stack's neighbours with its top box). It has
  // not moved yet this step: it is put at rest now, before the solve, and counted like the
  // recovery's resets; the bodies it touches meet a body at rest
  for (std::size_t k = 0; k < so.bodies.size(); ++k) {
    RigidBody& b = so.bodies[k]->body();
    if (!b.is_dynamic() || so.bodies[k]->is_sleeping()) continue;
    const double v = b.linear_velocity.cwiseAbs().maxCoeff();
    const double w = b.angular_velocity.cwiseAbs().maxCoeff();
    if (v <= kMaxFreeSpeed && w <= kMaxFreeSpeed) continue;  // false for NaN too
    b.linear_velocity.setZero();
    b.angular_velocity.setZero();
    b.start_angular_velocity_b.setZero();
    const ObjectId id = world.objects_[so.body_index[k]]->id();
    world.contact_.warm_start.forget(id);
    ++world.warnings_.non_finite_state;
    world.warnings_.last_object = id;
    world.warnings_.last_time = world.time_;
  }
  stage_solve_contacts(world);
  stage_integrate_positions(world, so);
  stage_correct_joint_limit_violations(world);
  stage_clear_external_forces(so);
  stage_update_sleeping(world);

  // recovery: a body whose state is no longer finite is reset to its pose at the start of the
  // step, at rest, its warm-start impulses are forgotten (the solve that broke it made them; kept,
  // they would break it again next step), and the event is counted in the world's warnings
  auto warn = [&](std::uint32_t index) {
    world.contact_.warm_start.forget(world.objects_[index]->id());
    ++world.warnings_.non_finite_state;
    world.warnings_.last_object = world.objects_[index]->id();
    world.warnings_.last_time = world.time_;
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
    b.position = world.step_start_pose_[index].position;
    b.orientation = world.step_start_pose_[index].orientation;
    b.linear_velocity.setZero();
    b.angular_velocity.setZero();
    update_body_kinematics(b);
    warn(index);
  }
  recover_systems_before(static_cast<std::uint32_t>(world.objects_.size()));
  world.time_ += world.dt_;
  ++world.state_version_;
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
