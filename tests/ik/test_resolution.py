"""handle(): Coppelia's resolution loop on small arms with known answers."""

from __future__ import annotations

import numpy as np
import pytest

import torsion.ik as ik
from torsion.ik import _rotations as rot

L1, L2, L3 = 0.6, 0.45, 0.25
XY_GAMMA = ik.Constraint.X | ik.Constraint.Y | ik.Constraint.GAMMA


def planar3(constraints=XY_GAMMA):
    env = ik.Environment.from_chain(
        [ik.ChainJoint(position=(0, 0, 0)), ik.ChainJoint(position=(L1, 0, 0)),
         ik.ChainJoint(position=(L2, 0, 0))],
        tip_position=(L3, 0, 0), constraints=constraints)
    return env


def closed_form_planar3(x, y, phi, elbow):
    """Joint angles of the planar 3R arm reaching (x, y) with end orientation phi."""
    wx, wy = x - L3 * np.cos(phi), y - L3 * np.sin(phi)
    c2 = (wx * wx + wy * wy - L1 * L1 - L2 * L2) / (2 * L1 * L2)
    q2 = elbow * np.arccos(c2)
    q1 = np.arctan2(wy, wx) - np.arctan2(L2 * np.sin(q2), L1 + L2 * np.cos(q2))
    q3 = phi - q1 - q2
    return np.array([q1, q2, q3])


def wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def set_target_planar(env, x, y, phi):
    env.target.set_transformation([x, y, 0.0], [np.cos(phi / 2), 0, 0, np.sin(phi / 2)])


@pytest.mark.parametrize("method", [ik.Method.PSEUDO_INVERSE, ik.Method.DAMPED_LEAST_SQUARES,
                                    ik.Method.UNDAMPED_PSEUDO_INVERSE])
@pytest.mark.parametrize("elbow", [1, -1])
def test_planar_3link_matches_closed_form(method, elbow):
    rng = np.random.default_rng(11)
    for _ in range(10):
        q_true = closed_form_planar3(*rng.uniform([0.4, -0.6, -1.0], [0.9, 0.6, 1.0]), elbow)
        if not np.all(np.isfinite(q_true)):
            continue
        env = planar3()
        g = env.chain_group
        g.set_calculation(method, damping=0.01, max_iterations=200)
        g.elements[0].precision = (1e-12, 1e-12)
        x = L1 * np.cos(q_true[0]) + L2 * np.cos(q_true[0] + q_true[1]) + L3 * np.cos(q_true.sum())
        y = L1 * np.sin(q_true[0]) + L2 * np.sin(q_true[0] + q_true[1]) + L3 * np.sin(q_true.sum())
        set_target_planar(env, x, y, q_true.sum())
        env.forward_kinematics(q_true + rng.uniform(-0.15, 0.15, 3))  # start on the same branch
        g.handle()
        q = np.array([j.position for j in env.chain_joints])
        np.testing.assert_allclose(wrap(q - closed_form_planar3(x, y, q_true.sum(), elbow)), 0,
                                   atol=1e-8)


def test_jacobian_transpose_method_converges_slowly_but_surely():
    env = planar3(ik.Constraint.X | ik.Constraint.Y)
    g = env.chain_group
    g.set_calculation(ik.Method.JACOBIAN_TRANSPOSE, 0.0, 2000)
    env.forward_kinematics([0.3, 0.5, 0.2])
    set_target_planar(env, 0.8, 0.5, 0.0)
    r = g.handle()
    assert r.result == ik.Result.SUCCESS
    p, _ = env.tip.get_transformation()
    assert np.hypot(p[0] - 0.8, p[1] - 0.5) <= 0.0005


def test_default_group_is_three_pseudo_inverse_iterations():
    env = planar3()
    assert env.chain_group.get_calculation() == (ik.Method.PSEUDO_INVERSE, 0.1, 3)
    assert env.chain_group.flags == ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS
    el = env.chain_group.elements[0]
    assert el.precision == pytest.approx((0.0005, np.radians(0.1)))
    j = env.chain_joints[0]
    assert j.max_step_size == pytest.approx(np.radians(10))
    p = env.create_joint("p", ik.JointType.PRISMATIC)
    assert p.get_interval() == (False, -0.5, 1.0) and p.max_step_size == pytest.approx(0.1)


def spherical_wrist():
    """One spherical joint at the origin, a tip 0.3 m up its z; orientation-only elements."""
    env = ik.Environment()
    s = env.create_joint("s", ik.JointType.SPHERICAL)
    tip = env.create_dummy("tip")
    tip.set_parent(s, keep_in_place=False)
    tip.set_transformation([0, 0, 0.3], [1, 0, 0, 0], relative_to=ik.PARENT)
    target = env.create_dummy("target")
    tip.linked_dummy = target
    g = env.create_ik_group("g")
    el = g.add_element(tip)
    g.set_calculation(ik.Method.PSEUDO_INVERSE, 0.0, 50)
    return env, s, tip, target, g, el


def z_axis(q):
    return rot.quat_to_matrix(q)[:, 2]


def test_alpha_beta_only_aligns_z_and_leaves_the_twist_free():
    env, s, tip, target, g, el = spherical_wrist()
    el.constraints = ik.Constraint.ALPHA_BETA
    tilt = rot.quat_from_rpy(0.4, -0.3, 0.0)
    twist = rot.quat_from_rpy(0.0, 0.0, 0.9)
    target.set_transformation([0, 0, 0], rot.quat_mul(tilt, twist))  # twisted about its own z
    assert g.handle().result == ik.Result.SUCCESS
    _, qt = tip.get_transformation()
    _, qg = target.get_transformation()
    zt, zg = z_axis(qt), z_axis(qg)
    assert np.arccos(np.clip(zt @ zg, -1, 1)) < np.radians(0.1)
    # gamma was not required: the tip did not turn about its z to match the target's x
    assert rot.quat_angle(qt, qg) > 0.5
    # and the target was matched after rotating it about its own z (the tip's x best matches)
    xt_in_g = rot.quat_to_matrix(qg).T @ rot.quat_to_matrix(qt)[:, 0]
    psi = np.arctan2(xt_in_g[1], xt_in_g[0])
    adj = rot.quat_mul(qg, [np.cos(psi / 2), 0, 0, np.sin(psi / 2)])
    assert rot.quat_angle(qt, adj) < np.radians(0.1)


def test_gamma_only_matches_the_twist_after_z_alignment():
    env, s, tip, target, g, el = spherical_wrist()
    el.constraints = ik.Constraint.GAMMA
    target.set_transformation([0, 0, 0], rot.quat_mul(rot.quat_from_rpy(0.35, 0.0, 0.0),
                                                      rot.quat_from_rpy(0.0, 0.0, 0.8)))
    assert g.handle().result == ik.Result.SUCCESS
    _, qt = tip.get_transformation()
    _, qg = target.get_transformation()
    zt, zg = z_axis(qt), z_axis(qg)
    # z was not required: it did not move (the twist rows only turn the tip about its own z)
    np.testing.assert_allclose(zt, [0, 0, 1], atol=1e-9)
    assert np.arccos(np.clip(zt @ zg, -1, 1)) == pytest.approx(0.35, abs=1e-9)
    # after the minimal rotation bringing the target's z onto the tip's, the twists agree
    v = np.cross(zg, zt)
    align = np.concatenate([[1 + zg @ zt], v])
    align /= np.linalg.norm(align)
    assert rot.quat_angle(qt, rot.quat_mul(align, qg)) < np.radians(0.1)


def two_link():
    env = ik.Environment.from_chain(
        [ik.ChainJoint(position=(0, 0, 0)), ik.ChainJoint(position=(L1, 0, 0))],
        tip_position=(L2, 0, 0), constraints=ik.Constraint.X | ik.Constraint.Y)
    return env


def test_restore_on_bad_linear_tolerance():
    for restore in (False, True):
        env = two_link()
        g = env.chain_group
        g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.1, 20)
        if restore:
            g.flags = g.flags | ik.GroupFlag.RESTORE_ON_BAD_LIN_TOL
        q0 = np.array([0.3, 0.9])
        env.forward_kinematics(q0)
        set_target_planar(env, 2.0, 1.0, 0.0)  # out of reach
        r = g.handle()
        assert r.result == ik.Result.FAIL and r.flags & ik.CalcFlag.NOT_WITHIN_TOLERANCE
        q = np.array([j.position for j in env.chain_joints])
        if restore:
            np.testing.assert_array_equal(q, q0)
        else:
            assert np.abs(q - q0).max() > 0.1  # moved toward the target and kept it


def test_restore_on_bad_angular_tolerance_only_when_orientation_missed():
    # reachable position, unreachable orientation (a planar arm cannot tilt its z axis)
    env = planar3(ik.Constraint.X | ik.Constraint.Y | ik.Constraint.ALPHA_BETA)
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.1, 10)
    q0 = np.array([0.2, 0.4, 0.1])
    env.forward_kinematics(q0)
    env.target.set_transformation([0.9, 0.4, 0.0], rot.quat_from_rpy(0.5, 0.0, 0.0))
    g.flags = ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS | ik.GroupFlag.RESTORE_ON_BAD_LIN_TOL
    g.handle()
    assert np.abs(np.array([j.position for j in env.chain_joints]) - q0).max() > 0.1
    env.forward_kinematics(q0)
    g.flags = ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS | ik.GroupFlag.RESTORE_ON_BAD_ANG_TOL
    r = g.handle()
    assert r.result == ik.Result.FAIL
    np.testing.assert_array_equal([j.position for j in env.chain_joints], q0)


def test_joint_limits_are_respected_and_reported():
    env = two_link()
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 50)
    j1, j2 = env.chain_joints
    j1.set_interval(False, -0.2, 0.4)
    j2.set_interval(False, 0.0, 1.0)
    env.forward_kinematics([0.0, 0.5])
    set_target_planar(env, -0.3, 0.6, 0.0)  # needs j1 far beyond 0.2
    r = g.handle()
    assert r.flags & ik.CalcFlag.LIMIT_HIT
    assert -0.2 <= j1.position <= 0.2 and 0.0 <= j2.position <= 1.0
    assert j1.position == pytest.approx(0.2)


def test_stop_on_limit_hit_stops_at_the_first_hit():
    env = two_link()
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 50)
    g.flags = ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS | ik.GroupFlag.STOP_ON_LIMIT_HIT
    env.chain_joints[0].set_interval(False, -0.2, 0.4)
    env.forward_kinematics([0.0, 0.5])
    set_target_planar(env, -0.3, 0.6, 0.0)
    q_before = [j.position for j in env.chain_joints]
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 1)
    one = g.handle()
    q_one = [j.position for j in env.chain_joints]
    env.forward_kinematics(q_before)
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 50)
    r = g.handle()
    assert one.flags & ik.CalcFlag.LIMIT_HIT and r.flags & ik.CalcFlag.LIMIT_HIT
    np.testing.assert_array_equal([j.position for j in env.chain_joints], q_one)


def test_max_step_sizes_limit_each_iteration():
    env = planar3(ik.Constraint.X | ik.Constraint.Y)
    g = env.chain_group
    for j in env.chain_joints:
        j.max_step_size = 0.02
    g.flags = ik.GroupFlag.ENABLED  # max steps honoured
    q0 = np.array([0.3, 0.5, 0.2])
    set_target_planar(env, -0.4, 0.7, 0.0)
    prev = q0
    env.forward_kinematics(q0)
    moved = 0.0
    for it in range(30):
        g.set_calculation(ik.Method.PSEUDO_INVERSE, 0.0, 1)
        r = g.handle()
        q = np.array([j.position for j in env.chain_joints])
        assert np.abs(wrap(q - prev)).max() <= 0.02 + 1e-12
        if np.abs(q - prev).max() > 0:
            moved += 1
        prev = q
    assert moved >= 20  # it did move, in small steps
    assert r.flags & ik.CalcFlag.STEPS_TOO_BIG
    # ignoring max steps: one iteration moves far more than 0.02
    env.forward_kinematics(q0)
    g.flags = ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS
    g.handle()
    assert np.abs(np.array([j.position for j in env.chain_joints]) - q0).max() > 0.1


def test_avoid_limits_keeps_joints_out_of_the_margin_when_possible():
    env = planar3(ik.Constraint.X | ik.Constraint.Y)  # redundant: 3 joints, 2 rows
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.01, 200)
    j3 = env.chain_joints[2]
    j3.set_interval(False, -1.0, 2.0)
    j3.limit_margin = 0.3
    env.forward_kinematics([0.2, 0.4, 0.95])  # j3 deep in its upper margin
    set_target_planar(env, 0.9, 0.5, 0.0)
    g.flags = ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS | ik.GroupFlag.AVOID_LIMITS
    r = g.handle()
    assert r.result == ik.Result.SUCCESS
    assert j3.position <= 0.7 + 1e-3


def test_dependent_joint_follows_during_resolution():
    env = planar3(ik.Constraint.X | ik.Constraint.Y)
    j1, j2, j3 = env.chain_joints
    j3.set_interval(False, -3.0, 6.0)
    j3.set_dependency(j2, offset=0.1, mult=-0.5)
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.01, 100)
    set_target_planar(env, 0.7, 0.6, 0.0)
    assert g.handle().result == ik.Result.SUCCESS
    assert j3.position == pytest.approx(-0.5 * j2.position + 0.1, abs=1e-15)
    p, _ = env.tip.get_transformation()
    assert np.hypot(p[0] - 0.7, p[1] - 0.6) <= 0.0005
    j3.position = 2.0  # setting a dependent joint is ignored
    assert j3.position == pytest.approx(-0.5 * j2.position + 0.1, abs=1e-15)


def test_not_performed_cases_and_handle_all():
    env = planar3()
    g = env.chain_group
    g.flags = 0  # disabled
    assert g.handle().result == ik.Result.NOT_PERFORMED
    g.flags = ik.GroupFlag.ENABLED
    for j in env.chain_joints:
        j.mode = ik.JointMode.PASSIVE
    r = g.handle()
    assert r.result == ik.Result.NOT_PERFORMED
    assert r.flags & ik.CalcFlag.NOT_PERFORMED
    for j in env.chain_joints:
        j.mode = ik.JointMode.IK
    env.tip.linked_dummy = None  # no target: no valid element
    assert g.handle().result == ik.Result.NOT_PERFORMED
    env.tip.linked_dummy = env.target
    set_target_planar(env, 0.8, 0.3, 0.2)
    env.forward_kinematics([0.3, 0.5, 0.2])  # away from the straight (singular) pose
    g.set_calculation(ik.Method.PSEUDO_INVERSE, 0.0, 30)
    assert env.handle_ik_groups() == ik.Result.SUCCESS


def test_far_targets_report_finite_distances():
    # QA: a target at x = 1e155 reported position_error = inf (sqrt of summed squares overflowed);
    # the reference is the analytic distance from the fully stretched 2-link arm (reach 2 m)
    js = [ik.ChainJoint(position=[0, 0, 0]), ik.ChainJoint(position=[1, 0, 0])]
    env = ik.Environment.from_chain(js, tip_position=[1, 0, 0],
                                    constraints=ik.Constraint.POSITION)
    for x in (1e100, 1e155, 1e200, 1e300):
        r = env.solve([x, 0, 0], [1, 0, 0, 0], max_restarts=2)
        tol = env._env.group_tolerance(env.chain_group.handle_id)
        assert r.position_error == pytest.approx(x, rel=1e-12)
        assert tol[1] == pytest.approx(x, rel=1e-12)


def _seed_loop_one_joint(theta, max_step, n):
    """The seed's computeIk loop (ikGroupContainer.cpp) for one revolute joint at the origin with
    the tip 1 m out (x, y rows), pseudo-inverse, max steps honoured: a too-big step retreats the
    target (interp /= 1.1 f, the pass redone); a step with f < 0.8 after a retreat sets
    interp /= 1.1 f, capped at 1. Returns (success, iterations)."""
    q, interp, it = 0.0, 1.0, 0
    tgt = np.array([np.cos(theta), np.sin(theta)])
    while it < n:
        tip = np.array([np.cos(q), np.sin(q)])
        if np.linalg.norm(tip - tgt) <= 0.0005:
            return True, it
        J = np.array([[-np.sin(q)], [np.cos(q)]])
        dq = float((np.linalg.pinv(J) @ ((tgt - tip) * interp))[0])
        f = abs(dq) / max_step
        if f > 1.0:
            interp /= f * 1.1
            continue
        q += dq
        if f < 0.8 and interp < 1.0:
            interp = min(1.0, interp / (f * 1.1))
        it += 1
    tip = np.array([np.cos(q), np.sin(q)])
    return bool(np.linalg.norm(tip - tgt) <= 0.0005), it


@pytest.mark.parametrize("deg", [60.0, 150.0, -120.0])
def test_interpolation_returns_to_the_target_as_the_seed_does(deg):
    # QA: after a retreat torsion regrew the interpolation factor by x1.2 per iteration, so at
    # 150 degrees it needed more iterations than the seed's loop (which jumps back to a full
    # max-size step); the smallest max_iterations that succeeds must now be the seed loop's
    theta, max_step = np.radians(deg), np.radians(10.0)

    def torsion_ok(n):
        env = ik.Environment.from_chain([ik.ChainJoint(position=[0, 0, 0])],
                                        tip_position=[1, 0, 0],
                                        constraints=ik.Constraint.X | ik.Constraint.Y)
        g = env.chain_group
        g.set_calculation(ik.Method.PSEUDO_INVERSE, 0.0, n)
        g.flags = ik.GroupFlag.ENABLED  # max step sizes honoured
        env.target.set_transformation([np.cos(theta), np.sin(theta), 0], [1, 0, 0, 0])
        return g.handle().result == ik.Result.SUCCESS

    seed_n = next(n for n in range(1, 80) if _seed_loop_one_joint(theta, max_step, n)[0])
    torsion_n = next(n for n in range(1, 80) if torsion_ok(n))
    assert torsion_n == seed_n
