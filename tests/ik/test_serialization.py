"""ik_save / ik_load: the kinematic-content format (version 1; version 0 in test_load_version0.py)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import torsion.ik as ik


def scene():
    env = ik.Environment.from_chain(
        [ik.ChainJoint(position=(0, 0, 0.3), lower=-2.0, upper=2.0),
         ik.ChainJoint(position=(0.4, 0, 0), axis=(0, 1, 0), lower=-1.5, upper=1.0),
         ik.ChainJoint(position=(0.3, 0, 0), axis=(1, 0, 0), joint_type=ik.JointType.PRISMATIC,
                       lower=-0.1, upper=0.2)],
        tip_position=(0.1, 0, 0))
    j1, j2, j3 = env.chain_joints
    j1.screw_pitch = 0.02
    j2.ik_weight = 0.5
    j2.max_step_size = 0.05
    s = env.create_joint("sph", ik.JointType.SPHERICAL)
    s.spherical_quaternion = [0.9, 0.1, 0.3, -0.2]
    s.set_parent(j1, keep_in_place=False)
    extra = env.create_joint("slave")
    extra.set_interval(False, -3, 6)
    extra.set_dependency(j2, offset=0.25, mult=-2.0)
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.07, 12)
    g.flags = ik.GroupFlag.ENABLED | ik.GroupFlag.RESTORE_ON_BAD_ANG_TOL
    el = g.elements[0]
    el.precision = (0.001, 0.02)
    el.weights = (0.8, 0.3)
    el.constraints = ik.Constraint.X | ik.Constraint.Z | ik.Constraint.ALPHA_BETA
    env.create_ik_group("second").add_element(env.create_dummy("tip2"))
    env.forward_kinematics([0.5, -0.3, 0.1])
    return env


def test_round_trip_is_byte_identical_and_keeps_the_model():
    env = scene()
    data = env.save()
    env2 = ik.Environment.from_bytes(data)
    assert env2.save() == data
    f32 = lambda v: np.float32(v).astype(float)  # noqa: E731  values pass through float32
    for o in env.objects():
        o2 = env2.object(o.name)
        assert o2.handle == o.handle and type(o2) is type(o)
        assert (o2.parent.name if o2.parent else None) == (o.parent.name if o.parent else None)
        p, q = o.get_transformation(ik.PARENT)
        p2, q2 = o2.get_transformation(ik.PARENT)
        np.testing.assert_allclose(p2, p, atol=1e-6)
        np.testing.assert_allclose(np.abs(q2 @ q), 1.0, atol=1e-6)
        if isinstance(o, ik.Joint):
            assert o2.joint_type == o.joint_type and o2.mode == o.mode
            assert o2.position == f32(o.position)
            assert o2.get_interval()[0] == o.get_interval()[0]
            assert o2.screw_pitch == f32(o.screw_pitch)
            assert o2.ik_weight == f32(o.ik_weight) and o2.max_step_size == f32(o.max_step_size)
            m, off, mult = o.get_dependency()
            m2, off2, mult2 = o2.get_dependency()
            assert (m2.name if m2 else None) == (m.name if m else None)
            assert (off2, mult2) == (f32(off), f32(mult))
        else:
            ld, ld2 = o.linked_dummy, o2.linked_dummy
            assert (ld2.name if ld2 else None) == (ld.name if ld else None)
    g, g2 = env.chain_group, env2.ik_group("chain")
    assert g2.get_calculation() == (ik.Method.DAMPED_LEAST_SQUARES, f32(0.07), 12)
    assert g2.flags == g.flags
    e, e2 = g.elements[0], g2.elements[0]
    assert e2.constraints == e.constraints
    assert e2.precision == (f32(0.001), f32(0.02))
    assert e2.weights[:2] == (f32(0.8), f32(0.3))
    assert e2.base.name == "base"
    assert [gr.name for gr in env2.ik_groups()] == ["chain", "second"]
    np.testing.assert_allclose(g2.jacobian(), g.jacobian(), atol=1e-5)
    # new handles continue after the loaded ones
    assert env2.create_dummy("new").handle == env.create_dummy("new").handle


def test_header_layout():
    data = scene().save()
    version, count = struct.unpack_from("=ii", data, 0)
    assert version == 1 and count == len(scene().objects())
    kind = struct.unpack_from("=i", data, 8)[0]
    assert kind in (1, 4)


def test_load_refuses_non_empty_environment_and_malformed_content():
    data = scene().save()
    env = ik.Environment()
    env.create_dummy("x")
    with pytest.raises(RuntimeError, match="must be empty"):
        env.load(data)
    fresh = ik.Environment()
    with pytest.raises(ValueError, match="truncated"):
        fresh.load(data[:-7])
    with pytest.raises(ValueError, match="trailing"):
        fresh.load(data + b"\0")
    with pytest.raises(ValueError, match="unsupported version 2"):
        fresh.load(struct.pack("=ii", 2, 0))
    with pytest.raises(ValueError, match="truncated"):  # version 0 (tests/ik/test_load_version0.py)
        fresh.load(struct.pack("=ii", 0, 0))
    with pytest.raises(ValueError, match="object type"):
        fresh.load(struct.pack("=iii", 1, 1, 7))
    with pytest.raises(ValueError, match="data must be bytes"):
        fresh.load("not bytes")
    assert fresh._env.is_empty()  # failed loads leave the environment untouched
    fresh.load(data)
    assert fresh.save() == data
