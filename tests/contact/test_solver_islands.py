"""The contact solver's island split and quiet-contact skipping (bisection_solver.hpp).

Checked against references no one here tuned: a body's motion must not depend on an unrelated
body elsewhere in the world (the same world without it is the reference, bitwise), islands must
match the connected components of the contact graph counted by hand, a converged solve must
satisfy the Coulomb conditions of every contact (cone, non-negative normal impulse), and a solve
cut short by max_iter must be as close to the tight solution (thousands of exhaustive sweeps)
with skipping as without it."""

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


def settling_block_pile():
    """48 cubes dropped as a 4 x 4 x 3 block with small gaps and tilts, 200 steps later: one big
    island still settling (sticking, sliding and opening contacts), and its boxes."""
    w = world()
    rng = np.random.default_rng(1)
    boxes = []
    for i in range(4):
        for j in range(4):
            for k in range(3):
                b = w.add_box(0.1, 0.1, 0.1, 1.0)
                b.set_position([0.104 * i + rng.uniform(-0.002, 0.002),
                                0.104 * j + rng.uniform(-0.002, 0.002), 0.051 + 0.104 * k])
                q = np.r_[1.0, rng.uniform(-0.03, 0.03, 3)]
                b.set_orientation(q / np.linalg.norm(q))
                boxes.append(b)
    w.integrate(200)
    return w, boxes


def largest_island_contacts(pr):
    """Contacts of the largest island of the contact graph (the ground joins nothing)."""
    parent = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in zip(pr["object_a_index"], pr["object_b_index"]):
        if a != 0 and b != 0:
            parent[root(max(a, b))] = root(min(a, b))
    owner = [root(b if a == 0 else a) for a, b in zip(pr["object_a_index"], pr["object_b_index"])]
    return max(owner.count(o) for o in set(owner))


@pytest.mark.parametrize("sweeps", [20, 40])
def test_skipping_small_changes_keeps_a_cut_short_solve_as_accurate(sweeps):
    # one step of a settling pile re-solved from a checkpoint: tight (4000 exhaustive sweeps),
    # `sweeps` exhaustive sweeps (threshold 0: every row every sweep), and `sweeps` sweeps with
    # the default skipping (threshold 1e-8; in an island of 64 contacts or more, a contact whose
    # last change was below a hundredth of the island's largest sits out seven sweeps in eight).
    # Far from converged, the skipping must save work and cost little accuracy: 5 % at most
    # here before speculative contacts aimed at their gap instead of zero, 27 % since at 20
    # sweeps (0.0186 vs 0.0146 m/s) and none at 40.
    w, boxes = settling_block_pile()
    cp = w.capture_checkpoint()

    def solve(max_iter, threshold):
        w.restore_checkpoint(cp)
        w.set_contact_solver_param(1.0, 1.0, 1.0, max_iter, threshold)
        # exact sweep and update counts of the absolute rule (no relative tolerance)
        w.set_contact_solver_relative_threshold(0.0)
        w.integrate()
        v = np.array([np.r_[b.get_linear_velocity(), b.get_angular_velocity()] for b in boxes])
        return v, w.get_contact_solver_diagnostics()

    v_tight, d_tight = solve(4000, 0.0)
    assert largest_island_contacts(w.get_contact_problem()) >= 64
    assert d_tight["sticking"] > 0 and d_tight["sliding"] > 0 and d_tight["opening"] > 0
    v_all, d_all = solve(sweeps, 0.0)
    v_skip, d_skip = solve(sweeps, 1e-8)
    # threshold 0: no skipping, every contact updated on every sweep
    assert d_all["iterations"] == sweeps and d_all["updates"] == sweeps * d_all["contacts"]
    assert d_skip["iterations"] == sweeps and not d_skip["converged"]
    assert d_skip["updates"] < 0.7 * d_all["updates"]
    err_all = np.abs(v_all - v_tight).max()
    err_skip = np.abs(v_skip - v_tight).max()
    assert err_all > 1e-4  # cut short: far from the tight solution
    assert err_skip <= 1.3 * err_all
