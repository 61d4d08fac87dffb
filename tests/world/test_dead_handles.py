"""One error type for every dead handle: a removed World object or robot, an erased IK object or
group. It is torsion.RemovedObjectError, and it stays a RuntimeError (what World handles raised)
and a ValueError (what IK handles raised), so code written against either still catches it."""

import pytest

import torsion
from torsion import ik


def test_the_one_type_is_both_a_runtime_error_and_a_value_error():
    assert torsion.RemovedObjectError is torsion._core.RemovedObjectError
    assert issubclass(torsion.RemovedObjectError, RuntimeError)
    assert issubclass(torsion.RemovedObjectError, ValueError)


def test_removed_world_object_and_robot_raise_it():
    w = torsion.World()
    ball = w.add_sphere(0.1, 1.0)
    arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    w.remove_object(ball)
    w.remove_object(arm)
    with pytest.raises(torsion.RemovedObjectError, match="removed"):
        ball.get_position()
    with pytest.raises(RuntimeError, match="removed"):  # what World users caught before
        arm.get_generalized_coordinate()
    with pytest.raises(ValueError, match="removed"):
        ball.get_linear_velocity()


def test_erased_ik_object_and_group_raise_it():
    env = ik.Environment()
    d = env.create_dummy("d")
    g = env.create_ik_group("g")
    d.erase()
    with pytest.raises(torsion.RemovedObjectError, match="invalid object handle"):
        d.get_transformation()
    with pytest.raises(ValueError, match="erased or never created"):  # what IK users caught before
        d.name
    env._env.erase_group(g.handle_id)
    with pytest.raises(torsion.RemovedObjectError, match="invalid IK group handle"):
        env._env.handle_group(g.handle_id)
    # a handle never given out is as dead as an erased one
    with pytest.raises(torsion.RemovedObjectError, match="invalid object handle: 12345"):
        env._env.object_name(12345)


def test_wrong_kind_of_live_handle_stays_a_plain_value_error():
    env = ik.Environment()
    d = env.create_dummy("d")
    with pytest.raises(ValueError, match="invalid joint handle") as err:
        env._env.set_joint_position(d.handle, 0.0)
    assert not isinstance(err.value, torsion.RemovedObjectError)
