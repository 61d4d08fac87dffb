// Granular systems in a World: the world owns them, steps them in its "granular" stage (step.cpp,
// at the start of integrate2, before the free velocities) and couples them to its rigid shapes.
//
// Coupling (explicit, one way per substep, action-reaction per step): during the DEM substeps of
// one world step, every rigid shape is held at its start-of-step pose and velocity (the shapes'
// poses from the collision-shape list, the bodies' velocities as integrate1 left them). Each
// particle meets the shapes whose bounds its cell of the DEM grid touches; per shape the deepest
// point of the narrow phase (collide_shapes with a sphere) is one Hertz-Mindlin contact with
// the wall law (the particle's compliance, the system's wall material). The reactions, averaged
// over the substeps, are added to the bodies' external force and torque and to the robots' links
// (ArticulatedSystem::add_external_force) before the free velocities of the same step, so the
// momentum the particles gain the bodies lose, over a world step, to round-off.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "granular/granular_system.hpp"
#include "math/types.hpp"

namespace torsion {

class World;

struct GranularWorld {
  struct Entry {
    std::uint64_t id = 0;  // stable, never reused in this world
    std::unique_ptr<GranularSystem> system;
  };
  std::vector<Entry> systems;  // in the order they were added
  std::uint64_t next_id = 1;

  GranularSystem* find(std::uint64_t id);
  // the new system's id
  std::uint64_t add(std::unique_ptr<GranularSystem> system);
  // false if no such system
  bool remove(std::uint64_t id);
};

// add or remove a system of the world: refused (std::logic_error) mid-step; either counts as a
// change of the world's configuration (configuration_number, topology fingerprint)
std::uint64_t add_granular_system(World& world, std::unique_ptr<GranularSystem> system);
bool remove_granular_system(World& world, std::uint64_t id);

// The seed's BoxOptions: particles of one radius on a regular grid inside [lower, upper]
struct GranularBoxOptions {
  Vec3 lower = Vec3::Zero();
  Vec3 upper = Vec3::Zero();
  double particle_radius = 0.01;
  double spacing = 0.0;  // centre distance; 0: one diameter
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  std::uint32_t material_id = 0;
  bool fixed = false;
};

// the positions of a box of particles (std::invalid_argument naming a bad option)
std::vector<Vec3> granular_box_positions(const GranularBoxOptions& options);

// the world's "granular" stage: every system, one world step of dt, coupled to the shapes
void stage_granular(World& world, double dt, const Vec3& gravity);

}  // namespace torsion
