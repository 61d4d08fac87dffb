"""Spherical joint limits (Coppelia's rule): the interval range is a cone half-angle about the
joint's own z axis; a rotation tilting z further is pulled back onto the cone by the smallest
extra rotation. Checked against closed-form rotations."""

from __future__ import annotations

import numpy as np
import pytest

import torsion.ik as ik
from torsion.ik import _rotations as rot


def axis_quat(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def same_rotation(a, b, atol=1e-12):
    return np.allclose(rot.quat_to_matrix(a), rot.quat_to_matrix(b), atol=atol)


def tilt(q):
    z = rot.quat_to_matrix(q)[:, 2]
    return np.arctan2(np.hypot(z[0], z[1]), z[2])


def spherical(range_rad):
    env = ik.Environment()
    j = env.create_joint("ball", ik.JointType.SPHERICAL)
    j.set_interval(False, 0.0, range_rad)
    return env, j


def test_default_range_is_pi_and_unlimited():
    env = ik.Environment()
    j = env.create_joint("ball", ik.JointType.SPHERICAL)
    assert j.get_interval() == (False, 0.0, pytest.approx(np.pi))
    q = axis_quat([1, 1, 0], 3.0)  # tilts z by 3 rad
    j.spherical_quaternion = q
    assert same_rotation(j.spherical_quaternion, q)


@pytest.mark.parametrize("twist", [0.0, 0.7, -2.0])
def test_tilt_beyond_the_cone_is_pulled_back_onto_it(twist):
    env, j = spherical(np.radians(30))
    # tilt 50 deg about x, after a twist about the joint's own z: the correction is a rotation
    # of -20 deg about x (z' x z is along -x), which leaves the twist untouched
    j.spherical_quaternion = rot.quat_mul(axis_quat([1, 0, 0], np.radians(50)), axis_quat([0, 0, 1], twist))
    expected = rot.quat_mul(axis_quat([1, 0, 0], np.radians(30)), axis_quat([0, 0, 1], twist))
    assert same_rotation(j.spherical_quaternion, expected)
    assert tilt(j.spherical_quaternion) == pytest.approx(np.radians(30), abs=1e-12)


def test_within_the_cone_nothing_changes_and_any_direction_is_limited():
    env, j = spherical(np.radians(40))
    q = axis_quat([0.3, -1.0, 0.0], np.radians(39))
    j.spherical_quaternion = q
    assert same_rotation(j.spherical_quaternion, q)
    rng = np.random.default_rng(2)
    for _ in range(20):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        j.spherical_quaternion = q
        out = j.spherical_quaternion
        assert tilt(out) <= np.radians(40) + 1e-12
        if tilt(q) > np.radians(40):
            # z was moved in the vertical plane containing it: its azimuth is kept
            z_in, z_out = rot.quat_to_matrix(q)[:, 2], rot.quat_to_matrix(out)[:, 2]
            if np.hypot(z_in[0], z_in[1]) > 1e-9:
                assert np.arctan2(z_out[1], z_out[0]) == pytest.approx(np.arctan2(z_in[1], z_in[0]), abs=1e-9)


def test_narrowing_the_interval_clamps_the_current_rotation():
    env = ik.Environment()
    j = env.create_joint("ball", ik.JointType.SPHERICAL)
    j.spherical_quaternion = axis_quat([0, 1, 0], 1.0)
    j.set_interval(False, 0.0, 0.4)
    assert same_rotation(j.spherical_quaternion, axis_quat([0, 1, 0], 0.4))
    assert j.get_interval() == (False, 0.0, pytest.approx(0.4))
    with pytest.raises(ValueError, match="cyclic"):
        j.set_interval(True)


def cone_limited_ball(target_position):
    """base -> ball joint (25 deg cone) -> tip 1 m along z, the tip linked to a target dummy at
    target_position, in a damped-least-squares group; returns (ball joint, group)."""
    env = ik.Environment()
    base = env.create_dummy("base")
    ball = env.create_joint("ball", ik.JointType.SPHERICAL)
    ball.set_parent(base, keep_in_place=False)
    ball.set_interval(False, 0.0, np.radians(25))
    tip = env.create_dummy("tip")
    tip.set_parent(ball, keep_in_place=False)
    tip.set_transformation([0, 0, 1.0], [1, 0, 0, 0], relative_to=ik.PARENT)
    target = env.create_dummy("target")
    target.set_transformation(target_position, [1, 0, 0, 0])
    tip.linked_dummy = target
    g = env.create_ik_group("g")
    g.add_element(tip).set_base(base)
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 100)
    return ball, g


def test_ik_through_a_limited_spherical_joint_stays_in_the_cone():
    # base -> ball -> tip 1 m along z; the target lies 60 deg off z, the cone allows 25 deg:
    # the result tilts exactly 25 deg toward the target (the closest reachable direction)
    a = np.radians(60)
    ball, g = cone_limited_ball([np.sin(a), 0.0, np.cos(a)])
    res = g.handle()
    assert res.result == ik.Result.FAIL
    assert res.flags & ik.CalcFlag.LIMIT_HIT
    q = ball.spherical_quaternion
    assert tilt(q) == pytest.approx(np.radians(25), abs=1e-9)
    z = rot.quat_to_matrix(q)[:, 2]
    assert np.arctan2(z[1], z[0]) == pytest.approx(0.0, abs=1e-6)  # toward the target


def test_ik_inside_the_cone_reaches_the_target_without_a_limit_hit():
    a = np.radians(20)  # inside the cone: the tip reaches it, tilting the joint by 20 deg
    ball, g = cone_limited_ball([0.0, np.sin(a), np.cos(a)])
    res = g.handle()
    assert res.success and not res.flags & ik.CalcFlag.LIMIT_HIT
    assert tilt(ball.spherical_quaternion) == pytest.approx(a, abs=1e-3)
