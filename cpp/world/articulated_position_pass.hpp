// The position pass for robots: the penetration of an articulated system's contacts with
// immovable bodies (a foot on the ground, a dropped linkage) removed by moving its configuration,
// without touching its velocities (split impulse, as position_correction.hpp does for single
// bodies).
//
// For the system's contact rows whose other side is immovable (or absent: self-contacts, whose
// Jacobian is the difference of the two links'), the normal velocity at the end of the solve is
// v_n = J_n u + v_fixed_n, so a contact would end the step at d_end = depth - dt v_n. The pass
// finds normal pseudo-impulses mu >= 0 and the pseudo-velocity p = A^-1 J_n^T mu with
//     J_n p >= b,   mu (J_n p - b) = 0,   b = min(fraction (d_end - slop) / dt, max_velocity)
// (projected Gauss-Seidel on W = J_n A^-1 J_n^T, no friction), then q <- q (+) dt p. A is the
// step's damped mass matrix (M + dt diag(kd + damping) + dt^2 diag(kp), already factorised for
// the velocity solve): a joint held by a stiff PD resists the move as it resists an impulse, so a
// standing robot is lifted mostly by its base rather than bent at the knees. The velocities stay
// those of the velocity solve: no kinetic energy is added, a bouncing link (v_n carries it out)
// is not pushed. The same target, slop, dead band (the pass runs only when some contact would end
// deeper than kPositionCorrectionTrigger) and sweep limits as the single bodies' pass.
// Contacts with a movable body or another system on their other side are left alone (the rigid
// pass leaves them too).
#pragma once

#include <cstdint>
#include <vector>

#include "contact/contact_problem.hpp"

namespace torsion {

class ArticulatedSystem;

// Moves system `a` (its gv slice starts at u[dof_begin]; `index` is its world index) out of its
// contacts as above; returns true if its configuration changed. Needs the step's factorisation
// of A in a.data() and the step's contact rows. u: the solved generalized velocities.
bool correct_articulated_positions(ArticulatedSystem& a, std::int32_t index,
                                   std::int32_t dof_begin, const ContactProblems& problems,
                                   const std::vector<double>& u, double dt, double fraction,
                                   double max_velocity);

}  // namespace torsion
