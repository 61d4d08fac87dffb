// Single-body snapshots and clones (World seed: captureSingleBodySnapshot,
// restoreSingleBodySnapshot, cloneSingleBodyObject).
#pragma once

#include <string>

#include "world/world.hpp"

namespace torsion {

// the runtime state of one single body and its collision properties
struct SingleBodySnapshot {
  ObjectType type = ObjectType::kSphere;
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 linear_velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  Vec3 external_force = Vec3::Zero();   // pending for the next step
  Vec3 external_torque = Vec3::Zero();
  CollisionProps collision;
};

SingleBodySnapshot capture_single_body_snapshot(const SingleBodyObject& obj);
// std::invalid_argument when obj's type differs from the snapshot's; std::logic_error mid-step.
// Counts as a user modification (wakes the object's sleeping island).
void restore_single_body_snapshot(World& world, SingleBodyObject& obj,
                                  const SingleBodySnapshot& snapshot,
                                  bool restore_collision_properties);
// a new object of the same primitive shape with the source's pose, velocity, mass and inertia,
// body type, damping, material and collision filter; std::invalid_argument for the ground (only
// sphere, box, cylinder and capsule can be cloned)
SingleBodyObject& clone_single_body_object(World& world, const SingleBodyObject& source,
                                           const std::string& name);

}  // namespace torsion
