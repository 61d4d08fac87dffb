// Copies of a World (WorldBatch.from_world): a fresh World made equal to another one.
#pragma once

namespace torsion {

class World;

// Makes `dst`, a World without objects, a copy of `src`: every object (same ids, world indices,
// names, shapes, shared immutable geometry and robot models, state), every setting a checkpoint
// holds (time step, time, gravity, materials, solver, warm starts, sleeping, sensor noise stream)
// and what a checkpoint leaves out (the robots' sources for export, the config file name, the
// articulated contact-space switch, collision counters on or off). Steps of the copy are then
// bitwise those of the source: its state hash is the source's. std::invalid_argument if dst has
// objects; std::logic_error if either world is mid-step.
void copy_world(World& src, World& dst);

}  // namespace torsion
