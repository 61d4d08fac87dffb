"""Anderson acceleration of the contact solver's sweeps (anderson.hpp, bisection_solver.hpp).

References no one here tuned: the statics of a resting stack (every interface carries the weight
of the boxes above it, nothing moves), the plain Gauss-Seidel sweeps' own fixed point (the
acceleration only changes where each sweep starts, not the problem), bitwise determinism, and the
checkpoint restoring the setting."""

import numpy as np
import pytest

import torsion

from .conftest import box_stack, boxes_state, drop_tumbling_boxes

G = 9.81
DT = 1e-3


def stack_world(n, depth):
    return box_stack(n, acceleration=depth, dt=DT)


def solve_once(w, cp, depth, max_iter, threshold=1e-8):
    """Restore `cp`, solve one step with the given settings, return the diagnostics and the
    contacts' impulses (contact frame) and the bodies' velocities."""
    w.restore_checkpoint(cp)
    w.set_contact_solver_acceleration(depth)
    w.set_contact_solver_param(1.0, 1.0, 1.0, max_iter, threshold)
    # the sweeps themselves are compared (counts, fixed points): absolute threshold only
    w.set_contact_solver_relative_threshold(0.0)
    w.integrate()
    pr = w.get_contact_problem()
    return w.get_contact_solver_diagnostics(), pr


def interface_loads(pr, n):
    """Normal impulse (N s) through each interface: ground-box 0, box 0-1, ..."""
    z = pr["position"][:, 2]
    loads = np.zeros(n)
    for k in range(n):
        on = np.abs(z - 0.1 * k) < 0.01
        loads[k] = pr["impulse"][on, 2].sum()
    return loads


def settling_stack(n, margin=None):
    """A stack of n boxes 50 steps after its release (still settling: plain sweeps need
    hundreds of sweeps per step there), and its checkpoint; built with plain sweeps. `margin`:
    the contact margin (None: the default)."""
    w, boxes = stack_world(n, 0)
    w.set_contact_solver_relative_threshold(0.0)  # the states these tests were measured on
    if margin is not None:
        w.set_contact_settings(torsion.ContactSettings(margin=margin))
    w.integrate(50)
    return w, boxes, w.capture_checkpoint()


def test_accelerated_stack_converges_to_the_statics():
    n = 6
    w, boxes, cp = settling_stack(n)
    d, pr = solve_once(w, cp, 5, 150)
    assert d["converged"] and d["error"] < 1e-8
    assert d["accelerated"] > 0
    # statics: interface k carries the weight of the n - k boxes above it over one step
    expected = G * DT * np.arange(n, 0, -1)
    assert interface_loads(pr, n) == pytest.approx(expected, rel=1e-3)
    for b in boxes:
        assert np.linalg.norm(b.get_linear_velocity()) < 1e-5


def test_accelerated_stack_needs_fewer_sweeps_than_plain_and_finds_their_fixed_point():
    w, boxes, cp = settling_stack(6)
    velocities = lambda: np.array([np.r_[b.get_linear_velocity(), b.get_angular_velocity()]
                                   for b in boxes])
    acc, pr_acc = solve_once(w, cp, 5, 150)
    v_acc = velocities()
    plain, _ = solve_once(w, cp, 0, 150)
    assert acc["converged"] and acc["accelerated"] > 0
    assert not plain["converged"]  # 150 plain sweeps are not enough here
    plain, _ = solve_once(w, cp, 0, 5000)
    assert plain["converged"] and plain["iterations"] > 10 * acc["iterations"]
    v_plain = velocities()
    # the fixed point, far below the threshold: plain sweeps and accelerated ones must find the
    # same one (velocities and each interface's load; the four contacts of a face may split
    # their load differently, statics leaves that open)
    ref, pr_ref = solve_once(w, cp, 0, 20000, threshold=1e-12)
    v_ref = velocities()
    fine, pr_fine = solve_once(w, cp, 5, 20000, threshold=1e-12)
    assert ref["converged"] and fine["converged"]
    assert fine["iterations"] < ref["iterations"] / 10
    assert np.abs(velocities() - v_ref).max() < 1e-9
    assert np.abs(interface_loads(pr_fine, 6) - interface_loads(pr_ref, 6)).max() < 1e-9
    # and at the default threshold the accelerated solve is as close to it as plain (both stop
    # at the same threshold: the same order of distance, not a fixed ranking)
    assert np.abs(v_acc - v_ref).max() <= 2.0 * np.abs(v_plain - v_ref).max()


def pile_state(depth):
    """A settling 6-box stack (its island is accelerated) beside 12 boxes tumbling into a pile
    (islands declined while their modes change): the sweeps accelerated and the islands
    declined over 600 steps, and the final state of every box."""
    w, stack = box_stack(6, erp=0.2, acceleration=depth, dt=DT)
    for b in stack:
        b.set_position(b.get_position() + np.array([1.0, 0.0, 0.0]))
    boxes = drop_tumbling_boxes(w)
    used = declined = 0
    for _ in range(600):
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        used += d["accelerated"]
        declined += d["acceleration_declined"]
    return used, declined, boxes_state(boxes + stack)


def test_accelerated_pile_is_bitwise_deterministic_and_physical():
    used_a, declined_a, a = pile_state(5)
    used_b, declined_b, b = pile_state(5)
    assert used_a > 0 and used_a == used_b
    assert declined_a > 0 and declined_a == declined_b
    assert a.tobytes() == b.tobytes()
    # the pile came down and stays above the ground; the stack stands where it was put
    state = a.reshape(18, 10)
    z = state[:12, 2]
    assert np.all(z > 0.04) and np.all(z < 0.6)
    np.testing.assert_allclose(state[12:, 2], 0.05 + 0.1 * np.arange(6), atol=1e-3)
    np.testing.assert_allclose(state[12:, 0], 1.0, atol=1e-3)


def test_an_island_whose_modes_change_is_swept_plainly():
    # the settling stack with its top box pushed sideways: in the first sweep the top contacts
    # start to slide, so the counts of sticking and sliding contacts differ from the first sweep
    # to the second and the island is declined (a pile still moving gains nothing from
    # Anderson and would lose the skipping of quiet contacts). Margin 0: with the default 0.1 mm
    # the counts happen to be the same after both sweeps (5 sliding, 11 sticking, 8 opening)
    w, boxes, _ = settling_stack(6, margin=0.0)
    # four points on the pushed pair as on the others: a moving pair's two extra speculative
    # points (moving_points_per_pair) stay open in the first sweep, and the plain solve then
    # skips them in its second
    w.set_contact_settings(torsion.ContactSettings(margin=0.0, moving_points_per_pair=4))
    boxes[-1].set_velocity([1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    cp = w.capture_checkpoint()
    velocities = lambda: np.array([np.r_[b.get_linear_velocity(), b.get_angular_velocity()]
                                   for b in boxes])
    acc, _ = solve_once(w, cp, 5, 150)
    v_acc = velocities()
    assert acc["acceleration_declined"] == 1 and acc["accelerated"] == 0
    plain, _ = solve_once(w, cp, 0, 150)
    assert plain["acceleration_declined"] == 0
    # the same plain sweeps (every contact changed in the first sweep, so the plain solve's
    # second sweep visits every row too, as the declined one does)
    assert acc["updates"] == plain["updates"] and acc["iterations"] == plain["iterations"]
    np.testing.assert_array_equal(v_acc, velocities())
    # a settling stack is not declined
    w.restore_checkpoint(cp)
    boxes[-1].set_velocity([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    settle, _ = solve_once(w, w.capture_checkpoint(), 5, 150)
    assert settle["acceleration_declined"] == 0 and settle["accelerated"] > 0


def test_acceleration_depth_is_checked_and_kept_by_checkpoints():
    w, _ = stack_world(2, 0)
    for bad in (-1, 17):
        with pytest.raises(ValueError, match="acceleration_depth"):
            w.set_contact_solver_acceleration(bad)
    assert w.get_contact_solver_params()["acceleration_depth"] == 0
    w.set_contact_solver_acceleration(7)
    cp = w.capture_checkpoint()
    w.set_contact_solver_acceleration(0)
    w.restore_checkpoint(cp)
    assert w.get_contact_solver_params()["acceleration_depth"] == 7


def test_acceleration_depth_round_trips_through_the_world_xml(tmp_path):
    w, _ = stack_world(2, 9)
    path = tmp_path / "world.xml"
    w.export_to_xml(str(path))
    assert torsion.World(path).get_contact_solver_params()["acceleration_depth"] == 9
    path.write_text(path.read_text().replace('acceleration_depth="9"', 'acceleration_depth="40"'))
    with pytest.raises(ValueError, match="acceleration_depth"):
        torsion.World(path)
