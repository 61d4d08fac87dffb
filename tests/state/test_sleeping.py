"""Sleeping islands: off by default; a settled pile falls asleep and stays bitwise still; a ball
dropped on it wakes it and comes to rest on top; setters, forces, removal, wake_object/wake_all
wake it; the resting pile agrees with the same pile simulated without sleeping."""

from __future__ import annotations

import importlib.util
import math
import pathlib

import numpy as np
import pytest

import torsion

_spec = importlib.util.spec_from_file_location(
    "state_scenes", pathlib.Path(__file__).with_name("scenes.py"))
scenes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scenes)


def sleeping(w):
    return [w.is_object_sleeping(i) for i in range(w.get_object_count())]


def asleep_pile(n=100):
    w = scenes.cube_pile(n)
    w.set_sleeping_enabled(True)
    w.integrate(600)
    assert all(sleeping(w)[1:]), "the settled pile should be asleep"
    return w


def test_off_by_default():
    w = scenes.cube_pile(25)
    assert not w.is_sleeping_enabled()
    w.integrate(800)
    assert not any(sleeping(w))
    assert len(w.get_contact_problem()) > 0


def test_parameters_are_clamped_and_reported():
    w = torsion.World()
    w.set_sleeping_parameters(-1.0, 0.5, 0)
    assert w.get_sleeping_parameters() == {
        "linear_vel_threshold": 0.0, "angular_vel_threshold": 0.5, "quiet_steps": 1}
    w.set_sleeping_velocity_thresholds(0.02, -3.0)
    p = w.get_sleeping_parameters()
    assert (p["linear_vel_threshold"], p["angular_vel_threshold"], p["quiet_steps"]) == (0.02, 0.0, 1)
    with pytest.raises(ValueError):
        w.set_sleeping_velocity_thresholds(float("nan"), 0.1)


def test_settled_pile_sleeps_and_is_bitwise_still():
    w = asleep_pile()
    assert not w.is_object_sleeping(0)  # the ground is static: never "sleeping"
    before = scenes.full_state(w)[1:]
    w.integrate(200)
    assert scenes.bitwise_equal(scenes.full_state(w)[1:], before)
    # sleeping pairs reach neither the narrow phase nor the solver
    assert len(w.get_contact_problem()) == 0
    for o in w.get_object_list()[1:]:
        assert np.all(o.get_linear_velocity() == 0.0)


def test_sleeping_pile_rests_where_the_awake_pile_rests():
    a = asleep_pile(50)
    b = scenes.cube_pile(50)
    b.integrate(600)
    for oa, ob in zip(a.get_object_list()[1:], b.get_object_list()[1:]):
        assert np.allclose(oa.get_position(), ob.get_position(), atol=1e-4)


def test_ball_dropped_on_sleeping_pile_wakes_it_and_rests_on_top():
    w = asleep_pile()
    top = max(o.get_position()[2] for o in w.get_object_list()[1:]) + 0.05
    x, y = w.get_object(1).get_position()[:2]
    ball = w.add_sphere(0.04, 0.3)
    ball.set_position([x, y, top + 0.3])
    fall = np.sqrt(2 * 0.3 / 9.81)
    w.integrate(int(fall / 1e-3) - 20)
    assert all(sleeping(w)[1:-1])  # not touched yet
    woke = False
    for _ in range(100):
        w.integrate(1)
        if not all(sleeping(w)[1:-1]):
            woke = True
            break
    assert woke, "the ball's contact must wake the island it hits"
    w.integrate(1500)
    # the ball rests on the top cube of its column instead of passing through the sleeping pile
    assert ball.get_position()[2] == pytest.approx(top + 0.04, abs=2e-3)
    assert np.linalg.norm(ball.get_linear_velocity()) < 1e-2


def test_user_modification_wakes_the_island_at_the_next_step():
    w = asleep_pile(50)
    cube = w.get_object(1)
    cube.set_external_force([0.0, 0.0, 0.0])  # any setter counts as a modification
    assert not w.is_object_sleeping(cube)
    w.integrate(1)
    n_awake = sum(not s for s in sleeping(w)[1:])
    assert n_awake >= 2  # the cube and at least the cube resting on it (its island)


def test_removal_wakes_the_island_and_the_cube_above_falls():
    w = asleep_pile(50)
    bottom = w.get_object(1)
    # the cube resting on it: same x, y, one layer up
    above = min((o for o in w.get_object_list()[2:]
                 if np.linalg.norm(o.get_position()[:2] - bottom.get_position()[:2]) < 0.01),
                key=lambda o: o.get_position()[2])
    z0 = above.get_position()[2]
    assert w.is_object_sleeping(above)
    w.remove_object(bottom)
    assert not w.is_object_sleeping(above)
    w.integrate(300)
    assert above.get_position()[2] < z0 - 0.08


def test_wake_object_wake_all_and_disable():
    w = asleep_pile(50)
    w.wake_object(w.get_object(1))
    assert not w.is_object_sleeping(1)
    assert sum(not s for s in sleeping(w)[1:]) >= 2  # its island, right away
    w.wake_all()
    assert not any(sleeping(w))
    w.integrate(400)
    assert all(sleeping(w)[1:])
    w.set_sleeping_enabled(False)
    assert not any(sleeping(w))
    with pytest.raises(IndexError):
        w.is_object_sleeping(999)


def test_sleeping_state_is_in_checkpoints():
    w = scenes.cube_pile(50)
    w.set_sleeping_enabled(True)
    w.integrate(150)  # quiet counters running, nothing asleep yet
    cp = w.capture_checkpoint()
    w.integrate(400)
    ref_sleep, ref = sleeping(w), w.state_hash()
    assert all(ref_sleep[1:])
    w.restore_checkpoint(cp)
    assert not any(sleeping(w))
    w.integrate(400)
    assert sleeping(w) == ref_sleep and w.state_hash() == ref


def test_robot_sleeps_as_one_node_and_wakes_on_pd_target_change():
    w, robot = scenes.mixed_scene()
    w.set_sleeping_enabled(True)
    w.set_sleeping_parameters(0.01, 0.05, 100)
    w.integrate(3000)
    assert w.is_object_sleeping(robot)
    gc = robot.get_generalized_coordinate()
    target = gc.copy()
    target[7] += 0.3
    robot.set_pd_target(target, np.zeros(18))
    assert not w.is_object_sleeping(robot)
    w.integrate(5)
    assert not w.is_object_sleeping(robot)
    assert not np.array_equal(robot.get_generalized_coordinate(), gc)


WEAK_MOTORS = np.r_[np.full(6, np.inf), np.full(12, 0.1)]
# (set before it stands, the change made while it sleeps): motors off (torque mode with no
# torque), or clamped to 0.1 N m by setting the limits, or by turning clamping on
MOTOR_CHANGES = {
    "mode": (None, lambda q: q.set_control_mode(torsion.ControlMode.FORCE_AND_TORQUE)),
    "limits": (lambda q: q.set_clamp_to_effort_limits(True),
               lambda q: q.set_effort_limits(WEAK_MOTORS)),
    "clamp": (lambda q: (q.set_clamp_to_effort_limits(False), q.set_effort_limits(WEAK_MOTORS)),
              lambda q: q.set_clamp_to_effort_limits(True)),
}


@pytest.mark.parametrize("how", sorted(MOTOR_CHANGES))
def test_robot_asleep_wakes_when_its_motors_are_turned_off_or_limited(how):
    # A quadruped asleep standing under its PD, whose motors are then switched off or clamped
    # to 0.1 N m, must collapse as one with sleeping off does. set_control_mode,
    # set_effort_limits and set_clamp_to_effort_limits did not wake it: switched to torque mode,
    # it kept standing asleep with no torque (base at 0.31 m against 0.10 m awake).
    prepare, change = MOTOR_CHANGES[how]
    heights = {}
    for sleeping_on in (False, True):
        w = torsion.World()
        w.add_ground()
        w.set_sleeping_enabled(sleeping_on)
        q = scenes.standing_quadruped(w)
        if prepare is not None:
            prepare(q)
        w.integrate(3000)
        assert w.is_object_sleeping(q) == sleeping_on
        assert q.get_generalized_coordinate()[2] > 0.3  # standing
        change(q)
        assert not w.is_object_sleeping(q)  # woken by the setter, before any step
        w.integrate(1000)
        heights[sleeping_on] = q.get_generalized_coordinate()[2]
    assert heights[False] < 0.2  # collapsed
    assert heights[True] == pytest.approx(heights[False], abs=0.02)


def box_on_support(body_type):
    """A 0.2 m box resting on a 1 x 1 x 0.1 m platform of `body_type` at z = 0.5 (its top at
    0.55), above the ground, after 1.5 s with sleeping on."""
    w = torsion.World()
    w.set_sleeping_enabled(True)
    w.add_ground(0.0)
    p = w.add_box(1.0, 1.0, 0.1, 10.0)
    p.set_body_type(body_type)
    p.set_position([0.0, 0.0, 0.5])
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_position([0.0, 0.0, 0.65])
    w.integrate(1500)
    return w, p, b


def test_a_box_on_a_kinematic_platform_moved_away_falls():
    # it never sleeps while it touches the (awake) platform; its quiet count used to run on
    # all the same, so on the first step of its fall (speed g dt, under 0.01 m/s) it fell asleep
    # in the air and floated there
    w, p, b = box_on_support(torsion.BodyType.KINEMATIC)
    assert not w.is_object_sleeping(b)
    p.set_position([3.0, 0.0, 0.5])
    w.integrate(500)
    assert b.get_position()[2] == pytest.approx(0.1, abs=3e-3)  # on the ground


@pytest.mark.parametrize("change", ["move", "remove", "gravity", "filter"])
def test_a_box_asleep_on_a_static_support_moves_when_the_support_changes(change):
    w, p, b = box_on_support(torsion.BodyType.STATIC)
    assert w.is_object_sleeping(b)
    if change == "move":
        p.set_position([3.0, 0.0, 0.5])
    elif change == "remove":
        w.remove_object(p)
    elif change == "filter":
        w.set_object_collision_filter(p, 1, 0)  # the table no longer collides with anything
    else:
        w.set_gravity([9.81, 0.0, 0.0])
    w.integrate(500)
    if change == "gravity":
        # pushed along +x off the platform's edge: it must have left its resting place
        assert b.get_position()[0] > 0.5
    else:
        assert b.get_position()[2] == pytest.approx(0.1, abs=3e-3)


def test_an_unchanged_static_world_still_sleeps_and_replays_bitwise():
    # the waking above costs nothing when nothing static changes: the box sleeps, and a moved
    # static body wakes the same islands in a replay from a checkpoint
    w, p, b = box_on_support(torsion.BodyType.STATIC)
    assert w.is_object_sleeping(b)
    p.set_position([0.0, 0.0, 0.45])  # lowered 5 cm: the box falls onto it again
    cp = w.capture_checkpoint()
    w.integrate(300)
    first = b.get_position()
    w.restore_checkpoint(cp)
    w.integrate(300)
    assert np.array_equal(first, b.get_position())
    assert first[2] == pytest.approx(0.6, abs=3e-3)


@pytest.mark.parametrize("how", ["pair", "default", "manager"])
def test_a_material_change_wakes_a_box_resting_on_a_slope(how):
    # 17 degree slope (tan = 0.31) in the slope's frame, friction 0.8 holds the box; with
    # friction 0 it must slide down
    a = math.radians(17.0)
    w = torsion.World()
    w.set_sleeping_enabled(True)
    w.set_gravity([9.81 * math.sin(a), 0.0, -9.81 * math.cos(a)])
    w.add_ground(0.0, "slope")
    b = w.add_box(0.2, 0.2, 0.2, 1.0, "block")
    b.set_position([0.0, 0.0, 0.1])
    w.set_material_pair_prop("slope", "block", 0.8, 0.0, 0.0)
    w.integrate(1500)
    assert w.is_object_sleeping(b)
    if how == "pair":
        w.set_material_pair_prop("slope", "block", 0.0, 0.0, 0.0)
    elif how == "default":
        w.set_default_material(0.0, 0.0, 0.0)
        w.set_object_material(b, "other")
    else:
        m = torsion._core.MaterialManager()
        m.set_material_pair_prop("slope", "block", 0.0, 0.0, 0.0)
        w.update_material_prop(m)
    w.integrate(500)
    # frictionless for 0.5 s: x = g sin(a) t^2 / 2 = 0.36 m
    assert b.get_position()[0] == pytest.approx(0.5 * 9.81 * math.sin(a) * 0.25, rel=1e-2)


def _robot_with_box_on_its_back():
    w = torsion.World()
    w.set_time_step(2e-3)
    w.set_sleeping_enabled(True)
    w.set_sleeping_parameters(0.05, 0.1, 20)
    w.add_ground()
    r = scenes.standing_quadruped(w)
    b = w.add_box(0.1, 0.1, 0.05, 0.5)
    b.set_position([0.0, 0.0, 0.45])
    return w, r, b


def test_a_sleeping_robot_island_replays_bitwise_in_a_fresh_world():
    # A sleeping robot counts as static for the collision filter, like a sleeping body: its
    # pairs with the ground and with the sleeping box on its back are not solved. They used to
    # be, with the factorisation of the robot's last awake step, which a world restored from a
    # checkpoint does not have: the replay's impulses, state hash and (once woken) trajectory
    # differed from the uninterrupted run's.
    w, r, b = _robot_with_box_on_its_back()
    while not (w.is_object_sleeping(r) and w.is_object_sleeping(b)):
        w.integrate()
    cp = w.capture_checkpoint()
    w.integrate(50)
    assert len(w.get_contact_problem()) == 0
    h_ref = w.state_hash()
    w2, r2, b2 = _robot_with_box_on_its_back()
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    w2.integrate(50)
    assert w2.state_hash() == h_ref
    for ww, bb in ((w, b), (w2, b2)):
        bb.set_external_force([0.0, 20.0, 0.0])  # wakes the island
        ww.integrate(300)
    assert b.get_position().tobytes() == b2.get_position().tobytes()
    assert r.get_generalized_coordinate().tobytes() == r2.get_generalized_coordinate().tobytes()
    assert w.state_hash() == w2.state_hash()
