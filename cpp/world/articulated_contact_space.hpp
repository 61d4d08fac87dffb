// The contact-space solve of articulated systems (contact/contact_space_solver.hpp) in the step.
#pragma once

namespace torsion {

class World;

// integrate2, in stage_solve_contacts once the contact and rolling rows exist and the systems'
// damped mass matrices are factorised: register every articulated system with
// ContactState::contact_space and select those whose rows touch no other movable body
void stage_select_contact_space(World& world);

}  // namespace torsion
