"""IK targets given as a quaternion, a rotation matrix or a (4, 4) pose; the robot bridge with
link names."""

import numpy as np
import pytest

import torsion
from torsion import rotations as rot

ARM = torsion.robots.urdf_path("arm7")


def test_matrix_and_quaternion_targets_give_the_same_solution():
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    goal = np.array([0.3, 0.5, -0.4, 1.0, 0.2, -0.6, 0.4])
    arm.set_generalized_coordinate(goal)
    p, r = arm.get_frame_position("tool"), arm.get_frame_orientation("tool")
    arm.set_generalized_coordinate(np.zeros(7))

    results = []
    for target in ((p, rot.matrix_to_quat(r)), (p, r), (np.block([[r, p[:, None]], [0, 0, 0, 1]]), None)):
        env = torsion.ik.Environment.from_articulated_system(arm, "tool")  # a link name
        res = env.solve(*target)
        assert res.success
        results.append(res.q)
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], results[2])
    env.apply(arm, results[0])
    np.testing.assert_allclose(arm.get_frame_position("tool"), p, atol=1e-4)
    np.testing.assert_allclose(arm.get_frame_orientation("tool"), r, atol=1e-3)


def test_bad_pose_targets():
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    env = torsion.ik.Environment.from_articulated_system(arm, "tool")
    with pytest.raises(ValueError, match="rotation matrix"):
        env.solve([0.3, 0, 0.5], np.diag([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match=r"\(4, 4\) pose"):
        env.solve([0.3, 0, 0.5])
    with pytest.raises(ValueError, match="last row"):
        env.solve(np.ones((4, 4)))
    # an IK dummy placed from a matrix
    d = env.create_dummy("d")
    d.set_transformation([1, 2, 3], rot.rpy_to_matrix([0.1, 0.2, 0.3]))
    pos, q = d.get_transformation()
    np.testing.assert_allclose(pos, [1, 2, 3])
    np.testing.assert_allclose(rot.quat_to_matrix(q), rot.rpy_to_matrix([0.1, 0.2, 0.3]), atol=1e-12)
