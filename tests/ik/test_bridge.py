"""The IK bridges to simulated robots: Environment.from_articulated_system / from_urdf.

Checked against the robot's own kinematics (itself checked against Pinocchio in
tests/articulated): the IK chain's forward kinematics equals the robot's frame poses, and solved
configurations written back to the robot put its tip frame on the target."""

import numpy as np
import pytest

import torsion
from torsion import ik
from torsion.ik import _rotations as rot


def rot_angle(r1, r2):
    c = (np.trace(r1.T @ r2) - 1) / 2
    return float(np.arccos(np.clip(c, -1, 1)))


@pytest.fixture
def arm():
    world = torsion.World()
    return world, world.add_articulated_system(torsion.robots.urdf_path("arm7"))


def test_chain_forward_kinematics_equals_the_robot(arm):
    _, system = arm
    env = ik.Environment.from_articulated_system(system, "tool_joint")
    assert [j.name for j in env.chain_joints] == system.get_movable_joint_names()
    lim = system.get_joint_limits()
    rng = np.random.default_rng(1)
    for _ in range(20):
        q = rng.uniform(lim[:, 0], lim[:, 1])
        system.set_generalized_coordinate(q)
        p, quat = env.forward_kinematics(q)
        np.testing.assert_allclose(p, system.get_frame_position("tool_joint"), atol=1e-12)
        np.testing.assert_allclose(rot.quat_to_matrix(quat), system.get_frame_orientation("tool_joint"), atol=1e-12)


def test_from_articulated_system_starts_at_the_robot_configuration(arm):
    _, system = arm
    q = np.linspace(-0.5, 0.5, 7)
    system.set_generalized_coordinate(q)
    env = ik.Environment.from_articulated_system(system, "joint_7")
    np.testing.assert_allclose([j.position for j in env.chain_joints], q)


def test_solve_100_reachable_targets_and_write_back(arm):
    """The issue's success criterion, judged on the simulated robot after writing q back."""
    _, system = arm
    env = ik.Environment.from_urdf(torsion.robots.urdf_path("arm7"), "tool_joint")
    lim = system.get_joint_limits()
    rng = np.random.default_rng(7)
    q_start = np.zeros(7)
    ok = 0
    for _ in range(100):
        q_goal = rng.uniform(lim[:, 0], lim[:, 1])
        system.set_generalized_coordinate(q_goal)
        target_p = system.get_frame_position("tool_joint")
        target_r = system.get_frame_orientation("tool_joint")
        result = env.solve(target_p, rot.matrix_to_quat(target_r), q_start=q_start)
        env.apply(system, result.q)
        pe = np.linalg.norm(system.get_frame_position("tool_joint") - target_p)
        oe = rot_angle(system.get_frame_orientation("tool_joint"), target_r)
        if result.success:  # the solver's own verdict holds on the robot
            assert pe < 1e-3 and oe < 0.01
        ok += pe < 1e-3 and oe < 0.01
        assert np.all(result.q >= lim[:, 0] - 1e-9) and np.all(result.q <= lim[:, 1] + 1e-9)
    assert ok >= 99, ok


def test_write_back_as_pd_targets(arm):
    _, system = arm
    env = ik.Environment.from_articulated_system(system, "tool_joint")
    q = np.full(7, 0.3)
    env.apply(system, q, as_pd_target=True)
    np.testing.assert_array_equal(system.get_pd_target()[0], q)
    np.testing.assert_array_equal(system.get_generalized_coordinate(), np.zeros(7))
    with pytest.raises(ValueError, match=r"q must have shape \(7,\)"):
        env.apply(system, np.zeros(6))
    with pytest.raises(ValueError, match="finite"):
        env.apply(system, np.full(7, np.nan))


def test_floating_base_leg_with_a_base_frame():
    """A quadruped leg: position-only IK from the hip frame to the foot, the base moved away."""
    world = torsion.World()
    robot = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = robot.get_generalized_coordinate()
    gc[:3] = [0.4, -0.2, 0.5]
    gc[3:7] = [np.cos(0.3), 0, 0, np.sin(0.3)]  # yawed
    robot.set_generalized_coordinate(gc)
    env = ik.Environment.from_articulated_system(robot, "FR_foot_fixed", constraints=ik.Constraint.POSITION)
    joints = [j.name for j in env.chain_joints]
    assert joints == ["FR_hip_joint", "FR_thigh_joint", "FR_calf_joint"]
    env_b = ik.Environment.from_articulated_system(
        robot, "FR_foot_fixed", base_frame="FR_hip_joint", constraints=ik.Constraint.POSITION
    )
    assert [j.name for j in env_b.chain_joints] == ["FR_thigh_joint", "FR_calf_joint"]
    # reach a foot position from a known configuration of the leg
    q_goal = np.array([0.1, 0.9, -1.6])
    idx = env.system_gc_indices
    gc_goal = gc.copy()
    gc_goal[idx] = q_goal
    robot.set_generalized_coordinate(gc_goal)
    target = robot.get_frame_position("FR_foot_fixed")
    robot.set_generalized_coordinate(gc)
    result = env.solve(target, [1, 0, 0, 0])
    assert result.success
    env.apply(robot, result.q)
    assert np.linalg.norm(robot.get_frame_position("FR_foot_fixed") - target) < 1e-3
    np.testing.assert_array_equal(robot.get_generalized_coordinate()[:7], gc[:7])  # base untouched


def test_bridge_errors(arm):
    _, system = arm
    with pytest.raises(ValueError, match="frame"):
        ik.Environment.from_articulated_system(system, "no_such_frame")
    with pytest.raises(ValueError, match="not on the path"):
        ik.Environment.from_articulated_system(system, "joint_2", base_frame="joint_5")
    world = torsion.World()
    humanoid = world.add_articulated_system(torsion.robots.urdf_path("humanoid"))
    spherical = [j for j in humanoid.get_joints() if j["type"] == "spherical"]
    assert spherical
    deeper = [j for j in humanoid.get_joints() if j["parent"] >= 0 and humanoid.get_joints()[j["parent"]]["type"] == "spherical"]
    with pytest.raises(ValueError, match="spherical"):
        ik.Environment.from_articulated_system(humanoid, deeper[0]["joint"])
    with pytest.raises(RuntimeError, match="from_articulated_system"):
        ik.Environment().apply(system, np.zeros(7))
