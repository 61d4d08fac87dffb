"""URDF effort limits apply by default; a robot stepped from outside its limits warns once."""

import warnings

import numpy as np
import pytest

import torsion

QUADRUPED = torsion.robots.urdf_path("quadruped")
ARM = torsion.robots.urdf_path("arm7")
NO_EFFORT = """<robot name="pendulum">
  <link name="world"/>
  <link name="bar"><inertial><mass value="1"/><origin xyz="0 0 -0.5"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="world"/><child link="bar"/>
    <axis xyz="0 1 0"/><limit lower="-3" upper="3"/></joint>
</robot>"""


def test_urdf_effort_limits_clamp_by_default():
    w = torsion.World()
    w.set_time_step(0.002)
    arm = w.add_articulated_system(ARM)
    assert arm.get_clamp_to_effort_limits()
    limits = arm.get_effort_limits()
    np.testing.assert_array_equal(limits, [320, 320, 176, 176, 110, 40, 40])
    # a target far away with stiff gains demands far more than the limits
    arm.set_joint_pd_gains(1e4, 100)
    arm.set_joint_pd_targets(np.full(7, 1.5))
    w.integrate()
    tau = arm.get_joint_forces()
    assert np.all(np.abs(tau) <= limits * (1 + 1e-12))
    assert np.any(np.abs(tau) == limits)  # held at the limit exactly


def test_effort_limits_can_be_turned_off():
    w = torsion.World()
    w.set_time_step(0.002)
    arm = w.add_articulated_system(ARM, clamp_to_effort_limits=False)
    assert not arm.get_clamp_to_effort_limits()
    arm.set_joint_pd_gains(1e4, 100)
    arm.set_joint_pd_targets(np.full(7, 1.5))
    w.integrate()
    assert np.any(np.abs(arm.get_joint_forces()) > arm.get_effort_limits())


def test_a_urdf_without_effort_limits_is_not_clamped():
    w = torsion.World()
    r = w.add_articulated_system(NO_EFFORT)
    assert not r.get_clamp_to_effort_limits()
    assert np.isinf(r.get_effort_limits()).all()


def test_started_outside_limits_warns_once():
    w = torsion.World()
    r = w.add_articulated_system(QUADRUPED)  # neutral: calves at 0, limits [-2.697, -0.916]
    with pytest.warns(torsion.JointLimitWarning, match=r"FR_calf_joint.*\[-2\.697, -0\.916\]"):
        w.integrate()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w.integrate(5)
        gc = r.get_generalized_coordinate()
        gc[7:] = 0.0
        r.set_generalized_coordinate(gc)  # outside again: once per robot
        w.integrate()


def test_within_limits_does_not_warn_and_a_new_start_is_checked():
    w = torsion.World()
    r = w.add_articulated_system(QUADRUPED)
    gc = r.get_generalized_coordinate()
    gc[2] = 0.4
    gc[7:] = torsion.robots.QUADRUPED_STAND
    r.set_generalized_coordinate(gc)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w.integrate(3)
    gc[7 + 1] = 5.0  # FR thigh beyond 4.189
    r.set_state(gc, np.zeros(18))
    with pytest.warns(torsion.JointLimitWarning, match="FR_thigh_joint"):
        w.integrate1()
    w.integrate2()
