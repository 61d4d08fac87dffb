// A lean state for resets (torsion.WorldState): what a world's motion carries from one step to
// the next, beside the full checkpoint (world/checkpoint.hpp), and an order of magnitude cheaper
// to capture and restore. RL environments reset worlds thousands of times a second.
//
// It holds: the world time, the step warnings, the sensor noise stream; the contact solver's
// warm-start records and next sweep direction; every object's sleeping flags; every movable single
// body's pose, velocities, pending external force and torque and the step's derived rotation,
// world inverse inertia and start angular velocity; every robot's gc, gv, PD targets,
// feedforward and last applied forces, held efforts and pending external forces; every granular
// system's full state (its particles, materials, container and contact histories).
//
// It does not hold the configuration: time step, gravity, materials, contact and solver
// settings, names, masses and inertias, damping, body types, collision filters, PD gains,
// control mode and effort limits. A world whose configuration is the one it had at capture
// continues after a restore bitwise as it did after the capture (then state_hash() is equal too);
// one whose configuration changed since (e.g. randomised masses) keeps its new configuration and
// takes the motion. Like a portable checkpoint, it restores into any world of the same topology
// (fingerprint). Values are copied as they were, not validated: a state comes from a world.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace torsion {

class World;

struct LeanStateData;  // lean_state.cpp

class LeanState {
 public:
  bool empty() const;
  std::uint64_t topology_fingerprint() const;
  double world_time() const;
  std::size_t byte_size() const;  // of the data it holds

 private:
  friend void capture_lean_state(World& world, LeanState& out);
  friend std::string restore_lean_state(World& world, const LeanState& state);
  std::shared_ptr<LeanStateData> data_;  // copies share it (capture writes into it)
};

// Captures into `out`, reusing its buffers (no allocation once they have the size).
// std::logic_error mid-step.
void capture_lean_state(World& world, LeanState& out);
// "" when restored; otherwise why not (mid-step, an empty state, another topology), the world
// unchanged.
std::string restore_lean_state(World& world, const LeanState& state);

}  // namespace torsion
