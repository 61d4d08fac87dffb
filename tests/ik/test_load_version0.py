"""ik_load of version-0 kinematic content (CoppeliaSim's "export IK content"), written here
byte by byte after CoppeliaSim's exporter: every scene object (shapes, cameras, ... read as
dummies), no handle lists, and the group's options as bits of its flag bytes. The loaded planar
2R arm must then solve to the closed-form answer."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import torsion.ik as ik

L1, L2 = 0.5, 0.35


def _obj(kind, handle, parent, name, pos=(0, 0, 0), quat=(1, 0, 0, 0)):
    return (struct.pack("<i", kind) + struct.pack("<7f", *quat, *pos) +
            struct.pack("<ii", handle, parent) + name.encode() + b"\0")


def _joint(handle, parent, name, pos, *, jtype=10, cyclic=False, lo=-2.0, rng=4.0, q=0.0, mode=2,
           dep=-1, mult=1.0, off=0.0, max_step=0.2):
    return (_obj(1, handle, parent, name, pos) + struct.pack("<i", jtype) + struct.pack("<f", 0.0) +
            struct.pack("<4f", 1, 0, 0, 0) + bytes([1 if cyclic else 0]) +
            struct.pack("<5f", lo, rng, q, max_step, 1.0) + struct.pack("<ii", mode, dep) +
            struct.pack("<2f", mult, off))


def _dummy(kind, handle, parent, name, pos=(0, 0, 0), linked=-1, link_type=0):
    return _obj(kind, handle, parent, name, pos) + struct.pack("<ii", linked, link_type)


def _group(handle, name, max_iter, flags1, flags2, dls, method, elements):
    out = struct.pack("<i", handle) + name.encode() + b"\0" + struct.pack("<ii", max_iter, 0)
    out += struct.pack("<3f", 1.0, 0.0, 0.0) + struct.pack("<f", dls) + struct.pack("<ii", method, -1)
    out += bytes([flags1, flags2]) + struct.pack("<i", len(elements))
    for e in elements:
        out += e
    return out


def _element(handle, tip, base, cbase, constraints, lin_prec=1e-6, ang_prec=1e-4):
    return (struct.pack("<4i", handle, tip, base, cbase) + struct.pack("<2f", ang_prec, lin_prec) +
            struct.pack("<i", constraints) + struct.pack("<2f", 1.0, 1.0) + bytes([1]))


def planar_v0(flags1=0b0000_0001, flags2=0, extra_objects=b"", extra_count=0, joint2_mode=2):
    """shape 'base' (type 0) -> joint a -> joint b -> dummy tip; a camera (type 3) floating; the
    target dummy linked to the tip; one group with position x, y."""
    objs = (_dummy(0, 10, -1, "base") +
            _joint(11, 10, "a", (0, 0, 0)) +
            _joint(12, 11, "b", (L1, 0, 0), mode=joint2_mode) +
            _dummy(4, 13, 12, "tip", (L2, 0, 0), linked=14) +
            _dummy(4, 14, -1, "target", (0.3, 0.4, 0), linked=13) +
            _dummy(3, 15, -1, "camera") + extra_objects)
    group = _group(2030003, "arm", 50, flags1, flags2, 0.1, 0,
                   [_element(0, 13, 10, -1, ik.Constraint.X | ik.Constraint.Y)])
    return (struct.pack("<ii", 0, 6 + extra_count) + objs + struct.pack("<i", 1) + group)


def test_version0_objects_hierarchy_joints_and_group():
    env = ik.Environment.from_bytes(planar_v0())
    names = [o.name for o in env.objects()]
    assert names == ["base", "a", "b", "tip", "target", "camera"]
    base, a, b, tip, target, camera = (env.object(n) for n in names)
    assert isinstance(base, ik.Dummy) and isinstance(camera, ik.Dummy)  # non-joints: dummies
    assert isinstance(a, ik.Joint) and a.joint_type == ik.JointType.REVOLUTE
    assert b.parent == a and a.parent == base and tip.parent == b
    assert tip.linked_dummy == target and target.linked_dummy == tip
    assert a.get_interval() == (False, -2.0, 4.0)
    assert a.max_step_size == pytest.approx(0.2)
    g = env.ik_group("arm")
    method, damping, iters = g.get_calculation()
    assert (method, iters) == (ik.Method.PSEUDO_INVERSE, 50)
    assert damping == pytest.approx(0.1)
    # flag byte: bit0 enabled; bit5 clear -> max steps ignored
    assert g.flags == ik.GroupFlag.ENABLED | ik.GroupFlag.IGNORE_MAX_STEPS
    el = g.elements[0]
    assert el.tip == tip and el.base == base
    assert el.constraints == ik.Constraint.X | ik.Constraint.Y


def test_version0_group_flag_bits():
    # bit1 restore on position, bit2 on orientation, bit5 set = max steps honoured; the second
    # byte's bit0 (joint-limit correction) = avoid limits
    env = ik.Environment.from_bytes(planar_v0(flags1=0b0010_0111, flags2=1))
    assert env.ik_group("arm").flags == (ik.GroupFlag.ENABLED | ik.GroupFlag.RESTORE_ON_BAD_LIN_TOL |
                                         ik.GroupFlag.RESTORE_ON_BAD_ANG_TOL | ik.GroupFlag.AVOID_LIMITS)
    env = ik.Environment.from_bytes(planar_v0(flags1=0))
    assert not env.ik_group("arm").flags & ik.GroupFlag.ENABLED


@pytest.mark.parametrize("mode, expected", [(0, ik.JointMode.PASSIVE), (1, ik.JointMode.PASSIVE),
                                            (2, ik.JointMode.IK), (5, ik.JointMode.PASSIVE)])
def test_version0_joint_modes(mode, expected):
    # CoppeliaSim modes: 0 passive, 1 motion (old), 2 IK, 4 dependent, 5 force -> torsion's
    env = ik.Environment.from_bytes(planar_v0(joint2_mode=mode))
    assert env.object("b").mode == expected


def test_version0_loaded_arm_solves_to_the_closed_form():
    env = ik.Environment.from_bytes(planar_v0())
    x, y = 0.3, 0.4
    c2 = (x * x + y * y - L1 * L1 - L2 * L2) / (2 * L1 * L2)
    q2 = np.arccos(c2)  # elbow up: start near it
    q1 = np.arctan2(y, x) - np.arctan2(L2 * np.sin(q2), L1 + L2 * np.cos(q2))
    env.object("a").position = q1 + 0.1
    env.object("b").position = q2 - 0.1
    res = env.ik_group("arm").handle()
    assert res.success
    np.testing.assert_allclose([env.object("a").position, env.object("b").position], [q1, q2],
                               atol=1e-5)


def test_version0_malformed():
    data = planar_v0()
    with pytest.raises(ValueError, match="truncated"):
        ik.Environment.from_bytes(data[:-3])
    with pytest.raises(ValueError, match="trailing"):
        ik.Environment.from_bytes(data + b"\0")
    with pytest.raises(ValueError, match="unsupported version 2"):
        ik.Environment.from_bytes(struct.pack("<ii", 2, 0))
