// The contact stages of a step (see step.cpp), over a World's contacts and ContactState.
#pragma once

namespace torsion {

class World;

// integrate1, after collision detection: one contact problem per contact of world.contacts():
// frame, material, depth, approach speed at the start of the step, Jacobians of both sides, and
// the warm-start impulse from the last step when one matches.
void stage_build_contact_problems(World& world);

// integrate2, after the free velocities: Delassus blocks, normal targets, the bisection solver,
// corrected body velocities, and each contact's impulse (contact frame, on A); records the
// impulses for the next step's warm start.
void stage_solve_contacts(World& world);

}  // namespace torsion
