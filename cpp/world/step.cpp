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

// the single rigid bodies (other object kinds have their own stages)
template <class F>
void for_each_body(World& world, F&& f) {
  for (const auto& obj : world.objects()) {
    if (auto* sb = dynamic_cast<SingleBodyObject*>(obj.get())) f(*sb);
  }
}

template <class F>
void for_each_articulated(World& world, F&& f) {
  for (const auto& obj : world.objects()) {
    if (obj->type() == ObjectType::kArticulatedSystem) f(static_cast<ArticulatedSystem&>(*obj));
  }
}

bool body_state_finite(const RigidBody& b) {
  return b.position.allFinite() && b.orientation.coeffs().allFinite() &&
         b.linear_velocity.allFinite() && b.angular_velocity.allFinite();
}

// --- integrate1 stages ---

void stage_update_kinematics(World& world) {
  for_each_body(world, [](SingleBodyObject& o) { update_body_kinematics(o.body()); });
}

// the collision bodies of every object: single bodies have one (local index 0); an articulated
// system has every collision shape of its links, local index = the link's body index, posed by
// the kinematics of stage_articulated_dynamics_terms
void stage_gather_collision_bodies(World& world) {
  CollisionData& cd = world.collision_data();
  const auto& objects = world.objects();
  cd.bodies.clear();
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i]->type() == ObjectType::kArticulatedSystem) {
      const auto& a = static_cast<const ArticulatedSystem&>(*objects[i]);
      const ArticulatedModel& m = a.model();
      for (std::size_t k = 0; k < m.collisions.size(); ++k) {
        const int body = m.collisions[k].body;
        const CollisionProps& props = a.body_collision[static_cast<std::size_t>(body)];
        CollisionBody& cb = cd.bodies.emplace_back();
        cb.shape = &m.collisions[k].shape;
        cb.pose = a.collision_pose(k);
        cb.object_index = static_cast<std::uint32_t>(i);
        cb.local_index = static_cast<std::uint32_t>(body);
        cb.group = props.group;
        cb.mask = props.mask;
        cb.is_static = false;
        cb.self_collision = a.self_collision;
        cb.excluded_local = a.do_not_collide_with_parent ? m.bodies[body].parent : -1;
      }
      continue;
    }
    const auto* sb = dynamic_cast<const SingleBodyObject*>(objects[i].get());
    if (sb == nullptr) continue;
    const SingleBodyObject& o = *sb;
    // one collision body per shape: the body's own, or each child's (compounds, convex
    // decompositions; local index = child index, pose = body pose * child pose)
    const std::size_t n = o.shape_count();
    for (std::size_t k = 0; k < n; ++k) {
      CollisionBody& cb = cd.bodies.emplace_back();
      if (o.children().empty()) {
        cb.shape = &o.shape();
        cb.pose.position = o.body().position;
        cb.pose.rotation = o.body().rotation;
      } else {
        const ChildShape& c = o.children()[k];
        cb.shape = &c.shape;
        cb.pose.position = o.body().position + o.body().rotation * c.pose.position;
        cb.pose.rotation = o.body().rotation * c.pose.rotation;
      }
      cb.object_index = static_cast<std::uint32_t>(i);
      cb.local_index = static_cast<std::uint32_t>(k);
      cb.group = o.collision().group;
      cb.mask = o.collision().mask;
      cb.is_static = o.body().type == BodyType::kStatic || o.is_sleeping();
    }
  }
}

void stage_collision_detection(World& world, bool detect) {
  CollisionData& cd = world.collision_data();
  if (!detect) {
    cd.contacts.clear();
    cd.counters = CollisionCounters();
    return;
  }
  stage_gather_collision_bodies(world);
  detect_collisions(cd);
}

void stage_articulated_dynamics_terms(World& world) {
  const Vec3 g = world.gravity();
  for_each_articulated(world, [&](ArticulatedSystem& a) { a.step_dynamics_terms(g); });
}

// --- integrate2 stages ---

void stage_free_velocities(World& world) {
  const Vec3 g = world.gravity();
  const double dt = world.time_step();
  for_each_body(world, [&](SingleBodyObject& o) {
    if (!o.is_sleeping()) integrate_body_velocity(o.body(), g, dt);
  });
  for_each_articulated(world, [&](ArticulatedSystem& a) {
    if (!a.is_sleeping()) a.step_free_velocity(dt);
  });
}

void stage_integrate_positions(World& world) {
  const double dt = world.time_step();
  for_each_body(world, [&](SingleBodyObject& o) {
    if (!o.is_sleeping()) integrate_body_position(o.body(), dt);
  });
  for_each_articulated(world, [&](ArticulatedSystem& a) {
    if (!a.is_sleeping()) a.step_integrate_position(dt);
  });
}

void stage_clear_external_forces(World& world) {
  for_each_body(world, [](SingleBodyObject& o) {
    o.body().external_force.setZero();
    o.body().external_torque.setZero();
  });
}

}  // namespace

void step_integrate1(World& world) {
  // remember every pose, so a body whose state goes non-finite can be put back
  world.step_start_pose_.resize(world.objects_.size());
  for (std::size_t i = 0; i < world.objects_.size(); ++i) {
    const auto* sb = dynamic_cast<const SingleBodyObject*>(world.objects_[i].get());
    if (sb) world.step_start_pose_[i] = {sb->body().position, sb->body().orientation};
  }
  stage_sleep_wake_requests(world);
  stage_update_kinematics(world);
  stage_articulated_dynamics_terms(world);
  stage_collision_detection(world, world.detect_contacts_);
  // an awake body touched a sleeping island: it woke, so its own pairs must be found too
  while (stage_wake_on_contact(world)) stage_collision_detection(world, world.detect_contacts_);
  stage_build_contact_problems(world);
}

void step_integrate2(World& world) {
  stage_free_velocities(world);
  stage_solve_contacts(world);
  stage_integrate_positions(world);
  stage_correct_joint_limit_violations(world);
  stage_clear_external_forces(world);
  stage_update_sleeping(world);

  // recovery: a body whose state is no longer finite is reset to its pose at the start of the
  // step, at rest, and the event is counted in the world's warnings
  for (std::size_t i = 0; i < world.objects_.size(); ++i) {
    if (world.objects_[i]->type() == ObjectType::kArticulatedSystem) {
      // an articulated system goes back to its configuration at the start of the step, at rest
      if (static_cast<ArticulatedSystem&>(*world.objects_[i]).step_recover_if_non_finite()) {
        ++world.warnings_.non_finite_state;
        world.warnings_.last_object = world.objects_[i]->id();
        world.warnings_.last_time = world.time_;
      }
      continue;
    }
    auto* sb = dynamic_cast<SingleBodyObject*>(world.objects_[i].get());
    if (!sb) continue;
    RigidBody& b = sb->body();
    if (body_state_finite(b)) continue;
    b.position = world.step_start_pose_[i].position;
    b.orientation = world.step_start_pose_[i].orientation;
    b.linear_velocity.setZero();
    b.angular_velocity.setZero();
    update_body_kinematics(b);
    ++world.warnings_.non_finite_state;
    world.warnings_.last_object = world.objects_[i]->id();
    world.warnings_.last_time = world.time_;
  }
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

void World::integrate() {
  require_not_mid_step("integrate()");
  step_integrate1(*this);
  step_integrate2(*this);
}

void World::integrate(std::int64_t steps) {
  require_not_mid_step("integrate()");
  for (std::int64_t k = 0; k < steps; ++k) {
    step_integrate1(*this);
    step_integrate2(*this);
  }
}

}  // namespace torsion
