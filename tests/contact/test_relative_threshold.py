"""The contact solver's relative stopping tolerance (World.set_contact_solver_relative_threshold):
an island stops sweeping once no update changes a contact's velocity by more than the larger of
the absolute threshold and `fraction` times the island's contact speed (the fastest approach,
separation or slip of its contact points at the start of the step).

Checked against what the rule implies, not against tuned numbers: at rest the tolerance is the
absolute threshold, so a resting stack steps bitwise as without it; a tumbling pile's solves stop
within the tolerance its own motion sets (bounded from the bodies' velocities at the start of the
step), with fewer updates than the absolute rule, and the pile still comes to rest."""

import re

import numpy as np
import pytest

import torsion

from .conftest import box_stack, boxes_state, drop_tumbling_boxes

DT = 1e-3
HALF_DIAGONAL = 0.05 * np.sqrt(3.0)  # of a 0.1 m cube: the farthest a contact point can be


def test_default_is_one_percent_and_bad_values_are_refused():
    w = torsion.World()
    assert w.get_contact_solver_params()["relative_threshold"] == 0.01
    for bad in (-1e-3, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="relative_threshold"):
            w.set_contact_solver_relative_threshold(bad)
    assert w.get_contact_solver_params()["relative_threshold"] == 0.01
    w.set_contact_solver_relative_threshold(0.0)
    assert w.get_contact_solver_params()["relative_threshold"] == 0.0


def test_kept_by_checkpoints_and_the_world_xml(tmp_path):
    w = torsion.World()
    w.set_contact_solver_relative_threshold(0.03)
    cp = w.capture_checkpoint()
    w.set_contact_solver_relative_threshold(0.0)
    w.restore_checkpoint(cp)
    assert w.get_contact_solver_params()["relative_threshold"] == 0.03
    restored = torsion.World()
    restored.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    assert restored.get_contact_solver_params()["relative_threshold"] == 0.03
    path = tmp_path / "w.xml"
    w.export_to_xml(path)
    assert torsion.World(path).get_contact_solver_params()["relative_threshold"] == 0.03
    text = re.sub(r'relative_threshold="[^"]*"', 'relative_threshold="-1"', path.read_text())
    assert 'relative_threshold="-1"' in text
    path.write_text(text)
    with pytest.raises(ValueError, match="relative_threshold"):
        torsion.World(path)


def test_a_resting_stack_steps_bitwise_as_with_the_absolute_rule():
    # at rest the contact speeds are ~0, so the tolerance is the threshold itself
    w, boxes = box_stack(6, dt=DT)
    w.integrate(1000)
    cp = w.capture_checkpoint()
    states = []
    for fraction in (0.0, 0.01):
        w.restore_checkpoint(cp)
        w.set_contact_solver_relative_threshold(fraction)
        w.integrate(200)
        states.append(boxes_state(boxes))
        assert w.get_contact_solver_diagnostics()["converged"]
    assert np.array_equal(states[0], states[1])


def pile(fraction):
    w = torsion.World()
    w.set_time_step(DT)
    w.add_ground(0.0)
    w.set_default_material(0.8, 0.0, 0.0)
    w.set_contact_solver_iteration_order(True)
    w.set_contact_solver_relative_threshold(fraction)
    return w, drop_tumbling_boxes(w, count=10)


def test_a_tumbling_pile_stops_within_its_own_tolerance_and_comes_to_rest():
    fraction = 0.01
    (w, boxes), (w_abs, _) = pile(fraction), pile(0.0)
    updates = updates_abs = 0
    loose = 0
    for step in range(2500):
        # a bound on every contact speed of this step: two bodies' point velocities
        speed = max(np.linalg.norm(b.get_linear_velocity()) +
                    HALF_DIAGONAL * np.linalg.norm(b.get_angular_velocity()) for b in boxes)
        w.integrate()
        w_abs.integrate()
        d = w.get_contact_solver_diagnostics()
        updates += d["updates"]
        updates_abs += w_abs.get_contact_solver_diagnostics()["updates"]
        if d["contacts"] == 0:
            continue
        tolerance = max(1e-8, fraction * 2.0 * speed)
        if d["converged"]:
            assert d["error"] < tolerance * (1 + 1e-12), (step, d["error"], tolerance)
        if d["error"] > 1e-8:
            loose += 1
    assert loose > 100  # the relative tolerance did act while the pile moved
    assert updates < 0.7 * updates_abs
    # at rest, on its surfaces
    v = np.array([np.r_[b.get_linear_velocity(), b.get_angular_velocity()] for b in boxes])
    assert np.abs(v).max() < 1e-3
    assert w.get_contact_problem()["depth"].max() < 1e-4


def tumbling_boxes(fraction, rolling=0.0, steps=400):
    """10 boxes tumbling into a pile (rolling friction `rolling` on every pair: one 1-D row per
    contact), stepped `steps` times at relative tolerance `fraction`: their final state and the
    number of steps whose solve stopped above the absolute threshold."""
    w, boxes = pile(fraction)
    w.set_default_material(0.8, 0.0, 0.0, 0.8, 1e-3, rolling, 0.0)
    loose = 0
    for _ in range(steps):
        w.integrate()
        loose += w.get_contact_solver_diagnostics()["error"] > 1e-8
    return boxes_state(boxes), loose


def test_islands_with_1d_rows_keep_the_absolute_threshold():
    # an island with any 1-D row (here rolling friction; joint limits, joint friction, wires)
    # is solved to the absolute threshold: the same steps bitwise as without the relative rule
    exact, loose_exact = tumbling_boxes(0.0, rolling=0.01)
    relative, loose = tumbling_boxes(0.01, rolling=0.01)
    assert np.array_equal(exact, relative) and loose == loose_exact
    # the same pile without 1-D rows: the relative tolerance acts
    exact, _ = tumbling_boxes(0.0)
    relative, loose = tumbling_boxes(0.01)
    assert loose > 50 and not np.array_equal(exact, relative)


def test_threshold_zero_runs_every_sweep_whatever_the_relative_tolerance():
    # threshold 0 asks for max_iter exhaustive sweeps; a relative tolerance does not cut them
    w, _ = pile(0.01)
    w.integrate(300)  # tumbling
    w.set_contact_solver_param(1.0, 1.0, 1.0, 12, 0.0)
    w.integrate()
    d = w.get_contact_solver_diagnostics()
    assert d["contacts"] > 0 and d["iterations"] == 12 and not d["converged"]
