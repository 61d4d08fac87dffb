"""Commands sized to the actuated joints equal the full-layout calls; shape errors name every
wrong argument."""

import numpy as np
import pytest

import torsion

QUADRUPED = torsion.robots.urdf_path("quadruped")


def standing(w):
    r = w.add_articulated_system(QUADRUPED)
    gc = r.get_generalized_coordinate()
    gc[2] = 0.33
    gc[7:] = torsion.robots.QUADRUPED_STAND
    r.set_generalized_coordinate(gc)
    return r


def make_world():
    w = torsion.World()
    w.set_time_step(0.002)
    w.add_ground()
    return w


def test_actuated_commands_equal_full_layout_calls():
    rng = np.random.default_rng(3)
    targets = torsion.robots.QUADRUPED_STAND + rng.uniform(-0.2, 0.2, 12)
    vel = rng.uniform(-1, 1, 12)
    kp, kd = rng.uniform(50, 120, 12), rng.uniform(1, 3, 12)
    tau = rng.uniform(-2, 2, 12)

    wa, wb = make_world(), make_world()
    a, b = standing(wa), standing(wb)
    a.set_joint_pd_gains(kp, kd)
    a.set_joint_pd_targets(targets, vel)
    a.set_joint_forces(tau)
    q_full = b.get_pd_target()[0]
    q_full[7:] = targets
    b.set_pd_gains(np.r_[np.zeros(6), kp], np.r_[np.zeros(6), kd])
    b.set_pd_target(q_full, np.r_[np.zeros(6), vel])
    b.set_generalized_force(np.r_[np.zeros(6), tau])
    for x, y in zip(a.get_pd_target() + a.get_pd_gains(), b.get_pd_target() + b.get_pd_gains()):
        np.testing.assert_array_equal(x, y)
    wa.integrate(200)
    wb.integrate(200)
    assert a.get_generalized_coordinate().tobytes() == b.get_generalized_coordinate().tobytes()
    assert a.get_generalized_velocity().tobytes() == b.get_generalized_velocity().tobytes()
    np.testing.assert_array_equal(a.get_joint_forces(), a.get_generalized_force()[6:])


def test_velocities_default_to_zero_and_scalars_broadcast():
    w = make_world()
    r = standing(w)
    r.set_joint_pd_targets(np.ones(12), np.ones(12))
    r.set_joint_pd_targets(torsion.robots.QUADRUPED_STAND)
    np.testing.assert_array_equal(r.get_pd_target()[1], np.zeros(18))
    r.set_joint_pd_gains(600, 50)
    kp, kd = r.get_pd_gains()
    np.testing.assert_array_equal(kp, np.r_[np.zeros(6), np.full(12, 600.0)])
    np.testing.assert_array_equal(kd, np.r_[np.zeros(6), np.full(12, 50.0)])
    assert r.get_control_mode() == torsion.ControlMode.PD_PLUS_FEEDFORWARD_TORQUE


def test_dict_commands_change_only_the_named_joints():
    w = make_world()
    r = standing(w)
    r.set_joint_pd_gains(100, 2)
    r.set_joint_pd_targets(torsion.robots.QUADRUPED_STAND, np.full(12, 0.5))
    r.set_joint_pd_targets({"FR_calf_joint": -1.2, "RL_hip_joint": [0.1]})
    q, v = r.get_pd_target()
    expected = np.array(torsion.robots.QUADRUPED_STAND)
    expected[r.get_joint_gc_index("FR_calf_joint") - 7] = -1.2
    expected[r.get_joint_gc_index("RL_hip_joint") - 7] = 0.1
    np.testing.assert_array_equal(q[7:], expected)
    # the named joints' velocity targets are zeroed, the others kept
    v_expected = np.full(12, 0.5)
    v_expected[[r.get_joint_gv_index("FR_calf_joint") - 6, r.get_joint_gv_index("RL_hip_joint") - 6]] = 0.0
    np.testing.assert_array_equal(v[6:], v_expected)
    r.set_joint_pd_gains({"FR_hip_joint": 7.0}, {"FR_hip_joint": 0.7})
    kp, kd = r.get_pd_gains()
    k = r.get_joint_gv_index("FR_hip_joint")
    assert kp[k] == 7.0 and kd[k] == 0.7 and kp[k + 1] == 100.0
    r.set_joint_forces({"RR_thigh_joint": 3.0})
    ff = r.get_feedforward_generalized_force()
    assert ff[r.get_joint_gv_index("RR_thigh_joint")] == 3.0 and np.count_nonzero(ff) == 1


def test_shape_errors_name_every_wrong_argument():
    w = make_world()
    r = standing(w)
    with pytest.raises(ValueError) as e:
        r.set_pd_target(np.zeros(12), np.zeros(12))
    assert "q_ref" in str(e.value) and "v_ref" in str(e.value) and "(19,)" in str(e.value)
    with pytest.raises(ValueError) as e:
        r.set_pd_gains(np.zeros(12), np.zeros(3))
    assert "kp" in str(e.value) and "kd" in str(e.value)
    with pytest.raises(ValueError) as e:
        r.set_joint_pd_gains(np.zeros(18), np.zeros(5))
    assert "kp" in str(e.value) and "kd" in str(e.value) and "(12,)" in str(e.value)
    with pytest.raises(ValueError) as e:
        r.set_joint_pd_targets(np.zeros(19), np.zeros(18))
    assert "positions" in str(e.value) and "velocities" in str(e.value)
    with pytest.raises(ValueError, match="tau"):
        r.set_joint_forces(np.zeros(18))
    with pytest.raises(ValueError, match="kp"):
        r.set_joint_pd_gains(-1.0, 1.0)
    with pytest.raises(ValueError, match="positions must be finite"):
        r.set_joint_pd_targets(np.full(12, np.nan))
    with pytest.raises(ValueError, match=r"positions\['FR_hip_joint'\] must be finite"):
        r.set_joint_pd_targets({"FR_hip_joint": np.inf})
    with pytest.raises(ValueError, match="kp must be finite"):
        r.set_joint_pd_gains(np.nan, 1.0)
    with pytest.raises(ValueError, match="velocities must be finite"):
        r.set_joint_pd_targets(np.zeros(12), [np.nan] + [0.0] * 11)
    with pytest.raises(ValueError, match="joint names"):
        r.set_joint_forces({3: 1.0})
    # the one-wrong case is unchanged
    with pytest.raises(ValueError, match="kd must have shape"):
        r.set_pd_gains(np.zeros(18), np.zeros(3))
