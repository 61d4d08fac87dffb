// The wire stages of a step (world/wires.hpp has the model; step.cpp the order).
#pragma once

#include <cstddef>

#include "contact/contact_state.hpp"

namespace torsion {

class World;

// integrate1, after the contact problems: one RowKind::kWire row per stiff wire with two distinct
// ends and a movable side, appended to cs.problems.scalar_rows (so before the joint rows: the
// Delassus stage fills its articulated sides' A^-1 J^T and its g), its lambda the wire's impulse
// of the last step.
// reads: the wires, the objects' poses (kinematics of this step) and velocities, cs.dof_begin, dt.
// writes: cs.problems (rows and their storage), the wire set's row scratch.
void stage_build_wire_rows(World& world, ContactState& cs);

// integrate2, before the free velocities: the tension of every compliant wire (stiffness *
// stretch, >= 0) and custom wire (the user's) as a pair of forces on the two ends.
// reads: the wires, the objects' poses. writes: the ends' external forces (single bodies:
// force and torque at the COM; robots: on the link at the point), compliant wires' tension.
void stage_wire_forces(World& world);

// integrate2, after the starting impulses of the first solve: every wire row not solved in
// contact space starts from its warm-start impulse, applied to the free velocities u (a restart
// re-applies it with the other rows: stage_apply_starting_impulses).
// reads: the wire rows (lambda), cs.contact_space. writes: cs.u.
void stage_wire_starting_impulses(World& world, ContactState& cs);

// integrate2, after the wire rows' starting impulses, before the solve: a direct solve of the
// stiff wires alone (the other rows' impulses held at their starting values), by an active set
// over a banded Cholesky factorisation of their Delassus matrix W (rows in creation order: a
// rope or chain made link by link has W tridiagonal). It gives the sweeps that follow a start at
// the wires' exact impulses: Gauss-Seidel alone needs hundreds of sweeps on a 100-link rope.
// Skipped when the band is wider than kWireBandLimit (the sweeps alone then).
// reads: the wire rows, cs.contact_space. writes: their lambda, cs.u.
void stage_wire_presolve(World& world, ContactState& cs);

// integrate2, after the solve: each stiff wire's impulse (the next step's warm start) and
// tension (impulse / dt); a wire without a row has neither.
// reads: the wire rows. writes: the wires' impulse and tension.
void stage_wire_tensions(World& world, const ContactState& cs);

}  // namespace torsion
