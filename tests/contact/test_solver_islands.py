"""The contact solver's island split and quiet-contact skipping (bisection_solver.hpp).

Checked against references no one here tuned: a body's motion must not depend on an unrelated
body elsewhere in the world (the same world without it is the reference, bitwise), islands must
match the connected components of the contact graph counted by hand, and a converged solve must
satisfy the Coulomb conditions of every contact (cone, non-negative normal impulse)."""

import numpy as np
import pytest

import torsion


def world(dt=1e-3):
    w = torsion.World()
    w.set_time_step(dt)
    w.add_ground(0.0)
    w.set_default_material(0.8, 0.0, 0.0)
    w.set_erp(0.2, 0.0)
    w.set_contact_solver_iteration_order(True)
    return w


def add_stack(w, x, n):
    boxes = []
    for k in range(n):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position([x, 0.0, 0.05 + 0.1 * k + 1e-4 * k])
        boxes.append(b)
    return boxes


def state(bodies):
    return np.concatenate([np.concatenate([b.get_position(), b.get_quaternion(),
                                           b.get_linear_velocity(), b.get_angular_velocity()])
                           for b in bodies])


def test_islands_are_the_connected_components():
    w = world()
    add_stack(w, 0.0, 3)   # one island: the stack (the ground is immovable, it joins nothing)
    add_stack(w, 1.0, 2)   # a second one
    single = w.add_box(0.1, 0.1, 0.1, 1.0)
    single.set_position([2.0, 0.0, 0.05])  # a third
    w.integrate(5)
    d = w.get_contact_solver_diagnostics()
    assert d["contacts"] > 0
    assert d["islands"] == 3


def test_a_pile_does_not_depend_on_an_unrelated_tumbling_body():
    # reference: the stack alone; the same stack next to a box thrown far away, which tumbles
    # and slides, must follow bitwise the same trajectory (its island is solved on its own)
    def run(with_tumbler):
        w = world()
        stack = add_stack(w, 0.0, 4)
        if with_tumbler:
            t = w.add_box(0.1, 0.2, 0.05, 2.0)
            t.set_position([3.0, 0.0, 0.2])
            t.set_orientation([0.9, 0.3, 0.2, 0.1] / np.linalg.norm([0.9, 0.3, 0.2, 0.1]))
            t.set_velocity([2.0, 0.5, 0.0], [3.0, -5.0, 8.0])
        out = []
        for _ in range(30):
            w.integrate(10)
            out.append(state(stack))
        return np.array(out), w.get_contact_solver_diagnostics()

    alone, d_alone = run(False)
    with_tumbler, d_both = run(True)
    assert d_both["islands"] == d_alone["islands"] + 1
    assert np.array_equal(alone, with_tumbler)


def test_converged_pile_satisfies_coulomb_at_every_contact():
    w = world()
    stacks = add_stack(w, 0.0, 3) + add_stack(w, 0.5, 2)
    w.set_contact_solver_param(1.0, 1.0, 1.0, 2000, 1e-7)
    w.integrate(200)
    d = w.get_contact_solver_diagnostics()
    assert d["converged"] and d["error"] < 1e-7 and d["islands"] == 2
    ground_force = 0.0
    for b in stacks:
        cs = b.get_contacts()
        assert len(cs) > 0
        lam = cs["impulse"]
        assert np.all(lam[:, 2] >= 0.0)
        assert np.all(np.hypot(lam[:, 0], lam[:, 1]) <= 0.8 * lam[:, 2] * (1 + 1e-9) + 1e-15)
        ground_force += cs["force"][cs["pair_object_index"] == 0][:, 2].sum()
    # the ground carries the weight of the five boxes
    assert ground_force == pytest.approx(5 * 1.0 * 9.81, rel=1e-3)


def test_skipping_quiet_contacts_still_ends_only_below_the_threshold():
    # a scattered set of resting boxes converges; the reported error is of a full sweep
    w = world()
    for k in range(6):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position([0.3 * k, 0.0, 0.05])
    w.integrate(100)
    d = w.get_contact_solver_diagnostics()
    assert d["converged"] and d["error"] < 1e-8
    assert d["islands"] == 6
    assert d["sticking"] + d["sliding"] + d["opening"] == d["contacts"]
