"""The contact solver's stopping rule (bisection_solver.hpp): a full sweep ends the solve when every
contact's update changed its velocity by less than the threshold (RaiSim's per-row test) or when
no contact's velocity drifted by more than the threshold since its own update in that sweep (the
velocity residual), so the final velocities satisfy every contact's Coulomb law up to the
threshold.

References no one here tuned: the statics of a resting stack, the solution of the same step solved
to a far tighter tolerance (20000 sweeps, threshold 1e-13), and the Coulomb conditions checked from
the bodies' final velocities at every contact point."""

import numpy as np
import pytest

import torsion

from .conftest import box_stack, drop_tumbling_boxes

G = 9.81
DT = 1e-3


def stack(n, erp=0.0):
    return box_stack(n, erp=erp, dt=DT)


def velocities(boxes):
    return np.array([np.r_[b.get_linear_velocity(), b.get_angular_velocity()] for b in boxes])


def solve_once(w, cp, max_iter, threshold):
    w.restore_checkpoint(cp)
    w.set_contact_solver_param(1.0, 1.0, 1.0, max_iter, threshold)
    w.integrate()
    return w.get_contact_solver_diagnostics()


def interface_loads(pr, n):
    z = pr["position"][:, 2]
    return np.array([pr["impulse"][np.abs(z - 0.1 * k) < 0.01, 2].sum() for k in range(n)])


@pytest.mark.parametrize("settle", [100, 1000])
def test_a_stack_solved_to_the_default_threshold_matches_the_tight_solution(settle):
    # a 6-box stack still settling (100 steps after release) and at rest (1000): the solve that
    # stops at the default threshold must give the motion and statics of the same step solved
    # to 1e-13 (the coplanar contacts of a face may split their load differently: statics leaves
    # that open, so each interface's total is compared)
    n = 6
    w, boxes = stack(n)
    w.integrate(settle)
    cp = w.capture_checkpoint()
    d = solve_once(w, cp, 5000, 1e-8)
    v = velocities(boxes)
    pr = w.get_contact_problem()
    assert d["converged"] and d["error"] < 1e-8
    ref = solve_once(w, cp, 20000, 1e-13)
    v_ref = velocities(boxes)
    pr_ref = w.get_contact_problem()
    assert ref["converged"] and ref["iterations"] > 10 * d["iterations"]
    assert np.abs(v - v_ref).max() < 1e-6  # m/s
    expected = G * DT * np.arange(n, 0, -1)  # interface k carries the n - k boxes above it
    assert interface_loads(pr, n) == pytest.approx(expected, rel=1e-5)
    assert interface_loads(pr_ref, n) == pytest.approx(expected, rel=1e-5)


def coulomb_violations(w, boxes, mu):
    """From the bodies' final velocities and the contacts' impulses: the largest normal velocity
    of a pushing contact (|v_n|, m/s) and the largest slip of a sticking one (|v_t|, m/s).
    Contacts with the ground only need the box's velocity; contact points are world positions."""
    index = {w_index: b for w_index, b in enumerate([None] + boxes)}
    pr = w.get_contact_problem()
    vn_max = vt_max = 0.0
    for c in pr:
        if c["depth"] < 0.0 or c["impulse"][2] <= 0.0:
            continue  # speculative gaps aim at a non-zero velocity; opening contacts push nothing
        v = np.zeros(3)
        for sign, k in ((1.0, c["object_a_index"]), (-1.0, c["object_b_index"])):
            b = index[int(k)]
            if b is None:
                continue
            r = c["position"] - b.get_position()
            v += sign * (b.get_linear_velocity() + np.cross(b.get_angular_velocity(), r))
        n = c["normal"]
        vn = n @ v
        vn_max = max(vn_max, abs(vn))
        lam = c["impulse"]
        if np.hypot(lam[0], lam[1]) < mu * lam[2] * (1 - 1e-6):
            vt_max = max(vt_max, np.linalg.norm(v - vn * n))
    return vn_max, vt_max


def test_stopped_solves_satisfy_coulomb_within_the_threshold():
    # a small pile, ERP off (targets are then zero for penetrating contacts): after every step the
    # final velocities must satisfy each contact's law to the threshold (plus the small motion of
    # the lever arms over the step, v dt, for the bodies still moving)
    w = torsion.World()
    w.set_time_step(DT)
    w.add_ground(0.0)
    w.set_default_material(0.8, 0.0, 0.0)
    w.set_contact_solver_iteration_order(True)
    boxes = drop_tumbling_boxes(w, count=8)
    w.integrate(1500)
    checked = 0
    for _ in range(20):
        w.integrate()
        d = w.get_contact_solver_diagnostics()
        if not d["converged"]:
            continue
        vn, vt = coulomb_violations(w, boxes, 0.8)
        speed = max(np.abs(velocities(boxes)).max(), 1e-12)
        slack = 1e-9 + 10 * speed * speed * DT
        assert vn < 1e-8 + slack and vt < 1.5e-8 + slack
        checked += 1
    assert checked >= 15


def test_the_stopping_rule_keeps_determinism_and_a_resting_pile():
    def run():
        w = torsion.World()
        w.set_time_step(DT)
        w.add_ground(0.0)
        w.set_erp(0.2, 0.0)
        w.set_contact_solver_iteration_order(True)
        boxes = drop_tumbling_boxes(w, count=10)
        w.integrate(2500)
        return w, boxes

    (w1, b1), (w2, b2) = run(), run()
    s1 = np.concatenate([np.r_[b.get_position(), b.get_quaternion()] for b in b1])
    s2 = np.concatenate([np.r_[b.get_position(), b.get_quaternion()] for b in b2])
    assert np.array_equal(s1, s2)
    # at rest, with the penetration ERP leaves (under 0.1 mm)
    assert np.abs(velocities(b1)).max() < 1e-3
    pr = w1.get_contact_problem()
    assert pr["depth"].max() < 1e-4


def test_a_threshold_of_zero_stops_once_nothing_changes():
    # threshold 0 asks for an exact solve: a sweep that changed nothing at all is one. It ran on
    # to max_iter (150 sweeps a step for a resting ball) and reported converged=False, error 0
    w = torsion.World()
    w.set_time_step(0.002)
    w.add_ground()
    ball = w.add_sphere(0.1, 1.0)
    ball.set_position([0.0, 0.0, 0.1])
    w.set_contact_solver_param(1.0, 1.0, 1.0, 150, 0.0)
    w.integrate(2)
    d = w.get_contact_solver_diagnostics()
    assert d["error"] == 0.0 and d["converged"]
    assert d["iterations"] <= 2
