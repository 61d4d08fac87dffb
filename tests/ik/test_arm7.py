"""The 7-DoF iiwa-like arm: env.solve on 100 reachable 6-D targets, checked with Pinocchio's
forward kinematics of the returned configurations; the configuration search."""

from __future__ import annotations

import numpy as np
import pytest

import torsion.ik as ik
from torsion.ik import _rotations as rot


@pytest.fixture
def pin_arm(ikh):
    import pinocchio as pin

    model = pin.buildModelFromXML(ikh.iiwa_urdf())
    return pin, model, model.createData(), model.getFrameId("link8")


def pin_fk(pin_arm, q):
    pin, model, data, fid = pin_arm
    pin.framesForwardKinematics(model, data, np.asarray(q))
    return data.oMf[fid].translation.copy(), data.oMf[fid].rotation.copy()


def test_solve_100_random_reachable_targets_from_one_start(iiwa_env, ikh, pin_arm):
    ps, qs, _ = ikh.reachable_targets(iiwa_env, 100, seed=0)
    q_start = np.zeros(7)
    ok = 0
    for p, q in zip(ps, qs):
        r = iiwa_env.solve(p, q, q_start)
        # judged independently: Pinocchio FK of the returned joints
        pp, R = pin_fk(pin_arm, r.q)
        pos_err = np.linalg.norm(pp - p)
        ang_err = np.arccos(np.clip((np.trace(R.T @ rot.quat_to_matrix(q)) - 1) / 2, -1, 1))
        inside = np.all(np.abs(r.q) <= ikh.IIWA_LIMITS + 1e-12)
        assert inside
        assert r.success == (r.position_error <= 0.0005 and r.orientation_error <= np.radians(0.1))
        if r.success:
            assert pos_err == pytest.approx(r.position_error, abs=1e-9)
            assert ang_err == pytest.approx(r.orientation_error, abs=1e-6)
        ok += pos_err < 1e-3 and ang_err < 0.01
    assert ok >= 99


def test_solve_is_deterministic_and_leaves_the_result_in_the_environment(iiwa_env, ikh):
    ps, qs, _ = ikh.reachable_targets(iiwa_env, 5, seed=1)
    first = [iiwa_env.solve(p, q, np.zeros(7), seed=3).q for p, q in zip(ps, qs)]
    second = [iiwa_env.solve(p, q, np.zeros(7), seed=3).q for p, q in zip(ps, qs)]
    for a, b in zip(first, second):
        assert a.tobytes() == b.tobytes()
    np.testing.assert_array_equal([j.position for j in iiwa_env.chain_joints], second[-1])


def test_solve_unreachable_target_reports_failure(iiwa_env):
    r = iiwa_env.solve([3.0, 0.0, 0.5], [1, 0, 0, 0], np.zeros(7), max_restarts=3)
    assert not r.success
    assert r.position_error > 1.0
    assert r.attempts == 4


def test_solve_argument_errors(iiwa_env):
    with pytest.raises(ValueError, match="target_position"):
        iiwa_env.solve([0, 0], [1, 0, 0, 0])
    with pytest.raises(ValueError, match="target_quaternion_wxyz"):
        iiwa_env.solve([0, 0, 0.5], [1, 0, 0])
    with pytest.raises(ValueError, match=r"q_start must have shape \(7,\)"):
        iiwa_env.solve([0, 0, 0.5], [1, 0, 0, 0], np.zeros(6))
    with pytest.raises(ValueError, match="finite"):
        iiwa_env.solve([0, np.nan, 0.5], [1, 0, 0, 0])
    with pytest.raises(RuntimeError, match="chain group"):
        ik.Environment().solve([0, 0, 0.5], [1, 0, 0, 0])
    # integers out of range name themselves (pybind11's generic TypeError did not)
    for kw, name in (({"seed": -1}, "seed"), ({"seed": 2**64}, "seed"),
                     ({"max_restarts": -1}, "max_restarts"),
                     ({"max_iterations": 2**40}, "max_iterations")):
        with pytest.raises(ValueError, match=name):
            iiwa_env.solve([0, 0, 0.5], [1, 0, 0, 0], **kw)


def test_config_search_finds_a_valid_configuration_deterministically(iiwa_env, ikh, pin_arm):
    ps, qs, _ = ikh.reachable_targets(iiwa_env, 1, seed=5)
    iiwa_env.target.set_transformation(ps[0], qs[0])
    g = iiwa_env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 100)
    before = [j.position for j in iiwa_env.chain_joints]
    iiwa_env.seed(42)
    q1 = g.get_config_for_tip_pose(iiwa_env.chain_joints, threshold_dist=1.0, max_iterations=500)
    assert q1 is not None
    np.testing.assert_array_equal([j.position for j in iiwa_env.chain_joints], before)  # restored
    p, R = pin_fk(pin_arm, q1)
    assert np.linalg.norm(p - ps[0]) <= 0.0005 + 1e-9
    assert np.all(np.abs(q1) <= ikh.IIWA_LIMITS)
    iiwa_env.seed(42)
    q2 = g.get_config_for_tip_pose(iiwa_env.chain_joints, threshold_dist=1.0, max_iterations=500)
    assert q1.tobytes() == q2.tobytes()


def test_config_search_validation_callback_low_limits_and_ranges(iiwa_env, ikh):
    ps, qs, cfg = ikh.reachable_targets(iiwa_env, 1, seed=9)
    iiwa_env.target.set_transformation(ps[0], qs[0])
    g = iiwa_env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 100)
    seen = []

    def only_positive_first_joint(q):
        seen.append(q.copy())
        return q[0] * np.sign(cfg[0][0]) > 0

    iiwa_env.seed(1)
    q = g.get_config_for_tip_pose(iiwa_env.chain_joints, 1.0, 2000,
                                  validation_callback=only_positive_first_joint)
    assert q is not None and q[0] * np.sign(cfg[0][0]) > 0
    assert len(seen) >= 1 and all(s.shape == (7,) for s in seen)
    # a callback that always refuses: nothing is found
    assert g.get_config_for_tip_pose(iiwa_env.chain_joints, 1.0, 50,
                                     validation_callback=lambda q: False) is None
    # a callback that raises: the exception reaches the caller, the environment is restored
    before = [j.position for j in iiwa_env.chain_joints]

    def boom(q):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        g.get_config_for_tip_pose(iiwa_env.chain_joints, 10.0, 2000, validation_callback=boom)
    np.testing.assert_array_equal([j.position for j in iiwa_env.chain_joints], before)
    # sampling windows: ranges < 0 centre a window on the current values
    iiwa_env.forward_kinematics(cfg[0] + 0.05)
    lo = cfg[0] - 0.2
    q = g.get_config_for_tip_pose(iiwa_env.chain_joints, 1.0, 2000, low_limits=lo,
                                  ranges=np.full(7, 0.4))
    assert q is not None and np.all(q >= lo - 1e-12) and np.all(q <= lo + 0.4 + 1e-12)
    q = g.get_config_for_tip_pose(iiwa_env.chain_joints, 1.0, 2000, ranges=np.full(7, -0.4))
    assert q is not None and np.all(np.abs(q - (cfg[0] + 0.05)) <= 0.2 + 1e-12)
    with pytest.raises(ValueError, match="low_limits"):
        g.get_config_for_tip_pose(iiwa_env.chain_joints, 1.0, 10, low_limits=[0.0, 1.0])
    with pytest.raises(ValueError, match="metric"):
        g.get_config_for_tip_pose(iiwa_env.chain_joints, 1.0, 10, metric=[1, 1, 1])


def test_environment_refuses_use_from_a_callback_during_a_search(iiwa_env, ikh):
    ps, qs, _ = ikh.reachable_targets(iiwa_env, 1, seed=2)
    iiwa_env.target.set_transformation(ps[0], qs[0])
    g = iiwa_env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 100)
    victim = iiwa_env.chain_joints[3]

    def meddle(q):
        victim.erase()  # would pull objects from under the running search
        return True

    with pytest.raises(RuntimeError, match="busy"):
        g.get_config_for_tip_pose(iiwa_env.chain_joints, 10.0, 200, validation_callback=meddle)
    assert victim.name == "joint4"  # still there, and the environment still works
    assert iiwa_env.solve(ps[0], qs[0]).success


def test_environment_refuses_another_thread_during_a_compute_call(iiwa_env, ikh):
    import threading

    ps, qs, _ = ikh.reachable_targets(iiwa_env, 1, seed=4)
    iiwa_env.target.set_transformation(ps[0], qs[0])
    g = iiwa_env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.05, 100)
    started, go = threading.Event(), threading.Event()

    def waiting(q):  # holds the search open until the main thread has tried its calls
        started.set()
        go.wait(timeout=30)
        return True

    out = {}
    worker = threading.Thread(target=lambda: out.update(
        q=g.get_config_for_tip_pose(iiwa_env.chain_joints, 10.0, 200, validation_callback=waiting)))
    worker.start()
    try:
        assert started.wait(timeout=60)
        with pytest.raises(RuntimeError, match="busy"):
            iiwa_env.chain_joints[0].position = 0.1
        with pytest.raises(RuntimeError, match="busy"):
            g.jacobian()
        with pytest.raises(RuntimeError, match="busy"):
            iiwa_env.solve(ps[0], qs[0])
    finally:
        go.set()
        worker.join(timeout=60)
    assert out["q"] is not None
