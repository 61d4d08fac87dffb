"""The contact-space solve of islands made of one articulated system (and static sides)
against the u-based sweep every other island uses.

In exact arithmetic the two are the same Gauss-Seidel iteration (contact_space_solver.hpp), so a
step re-solved from the same checkpoint with either must give the same state, impulses and
solver diagnostics (the same counts of updates, sweeps and modes) to round-off: 1e-12 relative.
Scenes: the standing quadruped (touch-down and rest), a joint-limit row active together with
contacts, joint-friction and limit rows alone, a self-contact, rolling and spinning friction
rows, and an island big enough for Anderson acceleration. A robot touching a free body keeps
the u-based path (nothing to compare there but that it still works: test_contacts.py)."""

from __future__ import annotations

import numpy as np
import pytest

import torsion

from .test_contacts import (box_link, box_on_standing_quadruped, run_sliders, sliders_urdf,
                            standing_quadruped)
from .test_joint_rows import rotor

RTOL = 1e-12
COUNTS = ("iterations", "islands", "updates", "sticking", "sliding", "opening", "contacts",
          "warm_started", "joint_limit_rows", "joint_friction_rows", "rolling_rows", "accelerated")


def close(a, b, what):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, what
    scale = max(1.0, float(np.max(np.abs(b)))) if b.size else 1.0
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    assert err <= RTOL * scale, f"{what}: max abs error {err:.3e} (scale {scale:.3e})"


def one_step(w, systems, contact_space):
    w.set_articulated_contact_space_solve(contact_space)
    w.integrate()
    out = {"diag": w.get_contact_solver_diagnostics(),
           "error history": w.get_contact_solver().get_error_history()}
    for k, s in enumerate(systems):
        c = s.get_contacts()
        out[f"gc{k}"] = s.get_generalized_coordinate()
        out[f"gv{k}"] = s.get_generalized_velocity()
        out[f"tau{k}"] = s.get_generalized_force()
        out[f"impulse{k}"] = c["impulse"]
    return out


def compare_paths(w, systems, steps, every=1, expect=None):
    """Step `steps` times; at every `every`-th step, re-solve the step from a checkpoint with the
    u-based path and compare. Returns the number of compared steps. `expect(diag)` must hold on
    at least one compared step (the scene exercises what it is meant to)."""
    compared = seen = 0
    for n in range(steps):
        if n % every:
            w.integrate()
            continue
        cp = w.capture_checkpoint()
        b = one_step(w, systems, False)
        w.restore_checkpoint(cp)
        a = one_step(w, systems, True)
        for key in COUNTS:
            assert a["diag"][key] == b["diag"][key], f"step {n}: {key}"
        close(a["diag"]["error"], b["diag"]["error"], f"step {n}: error")
        for key in a:
            if key != "diag":
                close(a[key], b[key], f"step {n}: {key}")
        # every island (of one robot here) took the contact-space path, none of the reference's
        assert a["diag"]["contact_space_islands"] == a["diag"]["islands"]
        assert b["diag"]["contact_space_islands"] == 0
        compared += 1
        seen += a["diag"]["islands"] > 0 and (expect is None or bool(expect(a["diag"])))
    assert seen > 0, "the scene never exercised what it was meant to"
    w.set_articulated_contact_space_solve(True)
    return compared


def test_the_switch_defaults_to_on():
    w = torsion.World()
    assert w.get_articulated_contact_space_solve()
    w.set_articulated_contact_space_solve(False)
    assert not w.get_articulated_contact_space_solve()


def test_standing_quadruped_touch_down_and_rest():
    w, q = standing_quadruped()
    # touch-down (impacts, sliding while the feet settle), then standing with warm starts
    compare_paths(w, [q], 120, every=3, expect=lambda d: d["contacts"] == 4)
    w.integrate(500)
    compare_paths(w, [q], 20, every=5, expect=lambda d: d["warm_started"] == 4)


def test_joint_limit_row_together_with_foot_contacts():
    w, q = standing_quadruped()
    w.integrate(500)
    tau = np.zeros(18)
    tau[6 + 2] = 150.0  # straightens the FR knee into its upper limit (test_contacts.py)
    q.set_generalized_force(tau)
    compare_paths(w, [q], 150, every=5,
                  expect=lambda d: d["joint_limit_rows"] > 0 and d["contacts"] > 0)


def test_joint_limit_and_friction_rows_alone():
    w = torsion.World()
    w.set_time_step(1e-3)
    s = w.add_articulated_system(rotor(friction=0.05))
    s.set_state([0.9], [4.0])
    compare_paths(w, [s], 80, every=2,
                  expect=lambda d: d["joint_limit_rows"] == 1 and d["joint_friction_rows"] == 1)


def test_self_contact():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    r = w.add_articulated_system(sliders_urdf(1.0), fixed_base=True)
    r.set_self_collision(True)
    r.set_generalized_velocity([1.0, -1.0])
    w.integrate(380)  # the blocks meet after 0.4 s
    compare_paths(w, [r], 100, every=2, expect=lambda d: d["contacts"] > 0)
    # and the contact space solve itself still does what test_contacts.py asks
    r2, n = run_sliders(True)
    qa, qb = r2.get_generalized_coordinate()
    assert n > 0 and (0.5 + qb) - (-0.5 + qa) >= 0.2 - 1e-3


def test_rolling_and_spinning_friction_rows():
    w, q = standing_quadruped()
    w.set_default_material(0.8, 0.0, 0.0, 0.8, 1e-3, 0.01, 0.005)
    w.integrate(100)  # touch-down
    compare_paths(w, [q], 60, every=3, expect=lambda d: d["rolling_rows"] > 0)


def two_slabs_urdf():
    # a floating slab (no world link: a floating base) with a second slab on a hinge, both lying
    # on the ground: eight box-ground contacts in one island
    return (
        '<robot name="slabs">' + box_link("a", 2.0, (0.4, 0.3, 0.05))
        + box_link("b", 1.5, (0.4, 0.3, 0.05), "0.21 0 0")
        + '<joint name="hinge" type="revolute"><parent link="a"/><child link="b"/>'
        '<origin xyz="0.21 0 0"/><axis xyz="0 1 0"/>'
        '<limit lower="-1" upper="1" effort="10" velocity="10"/></joint></robot>'
    )


def test_anderson_accelerated_island():
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    w.set_contact_solver_acceleration(5)
    r = w.add_articulated_system(two_slabs_urdf())
    gc = r.get_generalized_coordinate()
    gc[2] = 0.0245
    r.set_generalized_coordinate(gc)
    compare_paths(w, [r], 60, every=3, expect=lambda d: d["accelerated"] > 0)


def test_a_robot_touching_a_free_body_keeps_the_u_path():
    # the box's velocities join the robot's island, which the contact-space switch then leaves
    # alone: the same step bit for bit either way
    w, q, box = box_on_standing_quadruped()
    w.integrate(300)
    assert len(box.get_contacts()) > 0
    cp = w.capture_checkpoint()
    w.set_articulated_contact_space_solve(False)
    w.integrate(5)
    b = (q.get_generalized_coordinate(), q.get_generalized_velocity(), box.get_position())
    w.restore_checkpoint(cp)
    w.set_articulated_contact_space_solve(True)
    w.integrate(5)
    a = (q.get_generalized_coordinate(), q.get_generalized_velocity(), box.get_position())
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert w.get_contact_solver_diagnostics()["contact_space_islands"] == 0


def test_a_robot_without_dofs_claims_no_rows():
    # a fixed robot of one link owns no velocities: its dof offset is that of the sphere added
    # after it, whose ground contact must still take the u-based path and rest on the ground
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    w.add_articulated_system('<robot name="post"><link name="world"/>'
                             + box_link("p", 1.0, (0.1, 0.1, 0.1), "3 0 0.05")
                             + '<joint name="f" type="fixed"><parent link="world"/><child link="p"/>'
                             '</joint></robot>')
    ball = w.add_sphere(0.1, 1.0)
    ball.set_position([0.0, 0.0, 0.1])
    w.integrate(200)
    assert w.get_contact_solver_diagnostics()["contact_space_islands"] == 0
    assert ball.get_position()[2] == pytest.approx(0.1, abs=1e-3)
