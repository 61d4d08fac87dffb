"""The stall stop of a big rigid island (bisection_solver.hpp: kStallBandFactor): a pile of at
least 64 contacts whose Gauss-Seidel error is already within a thousand times the threshold
(1e-5 m/s by default) and no longer halving over 24 sweeps stops there instead of running to
max_iter; the next step continues from its impulses.

Checked on issue 30's 100-cube drop (torsion.bench.bench_contact, default settings): the stop
acts while the piles come to rest, each stopped solve leaves the bodies' velocities within 2 % of
the speed gravity gives in one step of a tight solve of the same step (5000 exhaustive sweeps),
and a pile at rest at 3 s does not creep afterwards. Small islands (a stack) and the
exact mode (relative tolerance 0) are left as they were."""

import numpy as np

import torsion
from torsion.bench import bench_contact as bc

from .conftest import box_stack

MAX_ITER = 150  # the default
BAND = 1e3 * 1e-8  # kStallBandFactor times the default threshold (m/s)


def pile(seed):
    w = torsion.World()
    w.set_time_step(bc.DT)
    w.add_ground(0.0)
    w.set_default_material(bc.FRICTION, 0.0, 0.0)
    pos, quat = bc.initial_poses(100, seed)
    bodies = []
    for p, q in zip(pos, quat):
        b = w.add_box(bc.SIZE, bc.SIZE, bc.SIZE, bc.MASS)
        b.set_position(p)
        b.set_orientation(q)
        bodies.append(b)
    return w, bodies


def velocities(bodies):
    """Every body's linear velocity and its angular velocity times the half size (m/s)."""
    return np.array([np.r_[b.get_linear_velocity(),
                           0.5 * bc.SIZE * np.asarray(b.get_angular_velocity())]
                     for b in bodies])


def early_stops(w, steps):
    """Run `steps` steps; the checkpoints before the steps one of whose islands ended its sweeps
    before max_iter above its tolerance (only the stall stop does that) while no island's error
    was above the band (the other islands of such a step solved to within it as well), and
    their diagnostics."""
    found = []
    for _ in range(steps):
        cp = w.capture_checkpoint()
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        if d["iterations"] < MAX_ITER and not d["converged"] and d["error"] < BAND:
            found.append((cp, d))
    return found


def test_a_pile_coming_to_rest_stops_its_stalled_sweeps_near_the_tight_solution():
    stops = []
    for seed in range(4):
        w, bodies = pile(seed)
        w.integrate(1400)
        stops += [(w, bodies, cp, d) for cp, d in early_stops(w, 600)]
    assert len(stops) > 20  # the rule acted on the piles' last phase
    g_dt = 9.81 * bc.DT
    for w, bodies, cp, d in stops[:: len(stops) // 8]:
        assert d["updates"] > 0 and d["error"] > 0.0
        w.restore_checkpoint(cp)
        w.integrate()
        assert w.get_contact_solver_diagnostics()["updates"] == d["updates"]  # the same solve
        stopped = velocities(bodies)
        w.restore_checkpoint(cp)
        w.set_contact_solver_relative_threshold(0.0)
        w.set_contact_solver_param(1.0, 1.0, 1.0, 5000, 1e-8)
        w.integrate()
        tight = velocities(bodies)
        # measured: 4e-8 to 8e-5 m/s (Gauss-Seidel's slow modes: 150 sweeps of the absolute rule
        # left 3e-5 at such a step); bound: 2 % of g dt, a fifth of issue 30's at-rest speed
        assert np.abs(stopped - tight).max() < 2e-2 * g_dt, d


def test_a_pile_at_rest_does_not_creep_after_stall_stops():
    w, bodies = pile(0)
    w.integrate(3000)
    v = velocities(bodies)
    assert np.abs(v).max() < 1e-3  # at rest at 3 s (issue 30)
    p0 = np.array([b.get_position() for b in bodies])
    stops = early_stops(w, 1000)
    p1 = np.array([b.get_position() for b in bodies])
    assert np.abs(p1 - p0).max() < 1e-6, len(stops)
    assert np.abs(velocities(bodies)).max() < 1e-6


def test_the_exact_mode_and_small_islands_run_to_their_tolerance():
    # relative tolerance 0: no stall stop, max_iter sweeps or the threshold
    w, bodies = pile(0)
    w.set_contact_solver_relative_threshold(0.0)
    w.integrate(1400)
    for _ in range(300):
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        assert d["converged"] or d["iterations"] == MAX_ITER, d
    # a resting 6-box stack (24 contacts): its sweeps end at the threshold, never stalled
    w, _ = box_stack(6, dt=bc.DT)
    for _ in range(1500):
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        assert d["converged"] or d["iterations"] == MAX_ITER, d
