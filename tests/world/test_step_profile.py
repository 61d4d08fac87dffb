"""World.get_step_profile(): every stage of the step timed, the stages adding up to the step."""

import math

import numpy as np
import pytest

import torsion

# The stages of a step in the order step.cpp runs them (docs/architecture.md, "One step").
STAGES = [
    "classify_objects", "remember_start_poses", "wake_requests", "kinematics",
    "articulated_dynamics_terms", "collision_detection", "wake_on_contact",
    "build_contact_problems", "wire_rows", "wire_forces", "granular", "deformable_terrain",
    "free_velocities",
    "gather_free_velocities", "select_contact_space", "joint_rows", "delassus_blocks",
    "starting_impulses", "wire_starting_impulses", "wire_presolve", "solve", "effort_saturations",
    "write_back_velocities", "store_warm_start", "wire_tensions", "integrate_positions",
    "correct_positions", "correct_joint_limits", "clear_external_forces", "deformables", "update_sleeping",
    "recover_non_finite",
    "advance_time",
]


def scene():
    """Boxes falling onto the ground beside the quadruped standing under clamped PD: contacts,
    joint rows, effort saturations."""
    w = torsion.World()
    w.add_ground()
    for k in range(8):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position([1.0 + 0.12 * (k % 4), 0.0, 0.06 + 0.11 * (k // 4)])
    robot = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = robot.get_generalized_coordinate()
    gc[2] = 0.33
    gc[7:] = torsion.robots.QUADRUPED_STAND
    robot.set_generalized_coordinate(gc)
    robot.set_pd_gains(np.full(18, 200.0), np.full(18, 4.0))
    robot.set_pd_target(gc, np.zeros(18))
    robot.set_effort_limits(np.r_[np.full(6, np.inf), np.full(12, 10.0)])
    robot.set_clamp_to_effort_limits(True)
    return w


def check_adds_up(p):
    # every stage's time is non-negative, and they add up to the step: each is a difference of
    # consecutive readings of one clock, in whole nanoseconds (1e-9 s per stage is the slack of
    # converting each to seconds on its own)
    assert all(t >= 0.0 for t in p["last"].values())
    assert all(t >= 0.0 for t in p["total"].values())
    assert math.fsum(p["last"].values()) == pytest.approx(p["step"], rel=0, abs=1e-9 * len(STAGES))
    assert math.fsum(p["total"].values()) == pytest.approx(p["step_total"], rel=0,
                                                          abs=1e-9 * len(STAGES))


def test_stages_are_the_documented_ones_in_step_order():
    p = torsion.World().get_step_profile()
    assert list(p["last"]) == STAGES
    assert list(p["total"]) == STAGES
    assert set(p) == {"enabled", "steps", "step", "step_total", "last", "total"}


def test_off_by_default_and_then_all_zero():
    w = scene()
    w.integrate(5)
    p = w.get_step_profile()
    assert p["enabled"] is False and p["steps"] == 0
    assert p["step"] == 0.0 and p["step_total"] == 0.0
    assert set(p["last"].values()) == {0.0} and set(p["total"].values()) == {0.0}


def test_stage_times_add_up_to_the_step_and_the_sums_to_their_total():
    w = scene()
    w.set_step_profile_enabled(True)
    for n in range(1, 31):
        w.integrate()
        p = w.get_step_profile()
        check_adds_up(p)
        assert p["enabled"] is True and p["steps"] == n
    assert p["step_total"] > 0.0
    assert p["step_total"] >= p["step"]
    # the running sums hold every step's time: at least the last one's, stage by stage
    assert all(p["total"][s] >= p["last"][s] for s in STAGES)
    w.integrate(20)  # integrate(n) profiles every one of its steps
    p = w.get_step_profile()
    check_adds_up(p)
    assert p["steps"] == 50


def test_split_step_counts_once_and_mid_step_enabling_is_refused():
    w = scene()
    w.set_step_profile_enabled(True)
    w.integrate1()
    with pytest.raises(RuntimeError, match="integrate1"):
        w.set_step_profile_enabled(False)
    assert w.get_step_profile()["steps"] == 0
    w.integrate2()
    p = w.get_step_profile()
    assert p["steps"] == 1
    check_adds_up(p)
    w.integrate_no_contact_detection()
    w.integrate2()
    p = w.get_step_profile()
    assert p["steps"] == 2
    check_adds_up(p)


def test_reset_and_disable():
    w = scene()
    w.set_step_profile_enabled(True)
    w.integrate(10)
    last = w.get_step_profile()["last"]
    w.reset_step_profile()
    p = w.get_step_profile()
    assert p["steps"] == 0 and p["step_total"] == 0.0 and set(p["total"].values()) == {0.0}
    assert p["last"] == last  # the last step's times stay readable
    w.integrate(3)
    p = w.get_step_profile()
    assert p["steps"] == 3
    check_adds_up(p)
    w.set_step_profile_enabled(False)
    w.integrate(3)
    p = w.get_step_profile()
    assert p["enabled"] is False and p["steps"] == 0 and p["step_total"] == 0.0


def test_profiling_does_not_change_the_results():
    a, b = scene(), scene()
    b.set_step_profile_enabled(True)
    a.integrate(200)
    b.integrate(200)
    assert a.state_hash() == b.state_hash()
