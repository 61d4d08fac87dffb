// Sleeping islands (World seed: setSleepingEnabled, setSleepingParameters, wakeObject, ...).
//
// Off by default. The nodes are the dynamic single bodies and the articulated systems (a robot is
// one node); static and kinematic bodies never sleep and do not join islands. Every step, after
// the position update, each awake node counts its consecutive "quiet" steps: steps whose linear
// speed is below the linear threshold and whose angular speed is below the angular threshold
// (articulated systems: base linear speed and the largest of base angular speed and joint rates).
// Nodes touching each other in this step's contacts form islands; an island whose every member
// has been quiet for quiet_steps steps goes to sleep: its velocities are zeroed, it is skipped by
// the velocity and position updates, and its pairs with other sleeping or static bodies are
// skipped by the narrow phase (so they reach neither the contact list nor the solver). An island
// touching an awake kinematic body stays awake.
//
// An island wakes when a member is modified through any setter or given an external force (woken
// at the start of the next step), by wake_object()/wake_all(), when a member is removed, or when
// an awake non-static body touches it: then collision detection runs again for that step, so the
// woken island's own contacts are in the same solve.
#pragma once

namespace torsion {

class World;

// integrate1, before collision detection: islands of objects modified since the last step wake
void stage_sleep_wake_requests(World& world);
// integrate1, after collision detection: wakes islands touched by awake bodies; true if any
// woke (collision detection must then run again)
bool stage_wake_on_contact(World& world);
// integrate2, after the position update: quiet counters, islands, falling asleep
void stage_update_sleeping(World& world);

}  // namespace torsion
