// The contact stages of a step (see step.cpp), over a World's contacts and ContactState.
#pragma once

namespace torsion {

class World;

// integrate1, after collision detection: one contact problem per contact of world.contacts():
// frame, material, depth, approach speed at the start of the step, Jacobians of both sides, and
// the warm-start impulse from the last step when one matches; and for a pair with rolling or
// spinning friction, its 1-D rows (scalar_row.hpp).
void stage_build_contact_problems(World& world);

// integrate2, after the free velocities: Delassus blocks, normal targets, the bisection solver,
// corrected body velocities, and each contact's impulse (contact frame, on A); records the
// impulses for the next step's warm start.
// Before that, with the free velocities in ContactState::u: the joint-limit and joint-friction
// rows of every articulated system (joint_rows.hpp), warm-started from the last step
// (joint_limit_stage.cpp).
void stage_solve_contacts(World& world);
void stage_build_joint_rows(World& world);
// integrate2, after the position update: coordinates past a joint limit move back by a fraction
// of the violation (contact/joint_rows.hpp)
void stage_correct_joint_limit_violations(World& world);

}  // namespace torsion
