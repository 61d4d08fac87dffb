"""The cap on ERP's push-out (World.set_max_depenetration_velocity, 1 m/s by default).

ERP aims a penetrating contact at erp * (depth - 2e-5 m) / dt. A body that starts deep in
another, as after an RL reset at a slightly wrong height, used to leave it at that speed: 4 m/s
for 2 cm at ERP 0.2 and dt 1 ms, a flight of 0.8 m. References: a box lying flat in the ground
has no rotation to share its contacts' targets, so its velocity after a step is exactly the
target, and after leaving the ground it flies ballistically (v^2 / 2g)."""

import math

import numpy as np
import pytest

import torsion

G, DT = 9.81, 1e-3


def sunk_box(depth, erp=0.2, cap=None):
    w = torsion.World()
    w.set_time_step(DT)
    w.set_gravity([0.0, 0.0, -G])
    w.add_ground(0.0)
    w.set_erp(erp, 0.0)
    if cap is not None:
        w.set_max_depenetration_velocity(cap)
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_position([0.0, 0.0, 0.1 - depth])
    return w, b


@pytest.mark.parametrize("cap", [1.0, 0.3])
def test_a_box_deep_in_the_ground_is_pushed_out_at_the_cap_and_hops_only_its_height(cap):
    w, b = sunk_box(0.02, cap=None if cap == 1.0 else cap)
    assert w.get_contact_solver_params()["max_depenetration_velocity"] == cap
    w.integrate()
    assert b.get_linear_velocity()[2] == pytest.approx(cap, abs=1e-9)
    top = 0.0
    for _ in range(1000):
        w.integrate()
        top = max(top, b.get_position()[2] - 0.1)
    # it leaves the ground no faster than the cap: it rises at most cap^2 / 2g above it
    assert 0.0 < top <= cap * cap / (2 * G) + 1e-3


def test_an_infinite_cap_is_the_plain_erp_target():
    w, b = sunk_box(0.02, cap=math.inf)
    w.integrate()
    assert b.get_linear_velocity()[2] == pytest.approx(0.2 * (0.02 - 2e-5) / DT, rel=1e-9)


def test_a_shallow_contact_is_below_the_cap_and_unchanged():
    # 1 mm deep: ERP's 0.2 m/s target is under the cap, for both settings the same step
    a, ba = sunk_box(0.001)
    b, bb = sunk_box(0.001, cap=math.inf)
    a.integrate()
    assert ba.get_linear_velocity()[2] == pytest.approx(0.2 * (0.001 - 2e-5) / DT, rel=1e-9)
    a.integrate(49)
    b.integrate(50)
    assert np.array_equal(ba.get_position(), bb.get_position())


def test_restitution_is_not_capped():
    w = torsion.World()
    w.set_time_step(DT)
    w.add_ground(0.0)
    w.set_default_material(0.0, 1.0, 0.0)
    w.set_erp(0.2, 0.0)
    s = w.add_sphere(0.1, 1.0)
    s.set_position([0.0, 0.0, 0.1])
    s.set_velocity([0.0, 0.0, -5.0], [0.0, 0.0, 0.0])
    w.integrate()
    # e = 1: it leaves at its approach speed at the start of the step, five times the cap
    assert s.get_linear_velocity()[2] == pytest.approx(5.0, rel=1e-12)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan])
def test_the_cap_must_be_positive(bad):
    w = torsion.World()
    with pytest.raises(ValueError, match="max_depenetration_velocity must be > 0"):
        w.set_max_depenetration_velocity(bad)
    assert w.get_contact_solver_params()["max_depenetration_velocity"] == 1.0


def test_checkpoints_keep_the_cap():
    w, _ = sunk_box(0.02, cap=0.5)
    cp = w.capture_checkpoint()
    w.set_max_depenetration_velocity(2.0)
    w.restore_checkpoint(cp)
    assert w.get_contact_solver_params()["max_depenetration_velocity"] == 0.5
    other, _ = sunk_box(0.02)
    other.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    assert other.get_contact_solver_params()["max_depenetration_velocity"] == 0.5
