"""ik_load refuses content that the setters refuse, and never trusts a size field it cannot check.

Files are built field by field here (the version-1 layout of semantics.md §B8; little-endian as
the test machines are) so that each case changes exactly one field of an otherwise valid file.
"""

from __future__ import annotations

import resource
import struct

import numpy as np
import pytest

import torsion.ik as ik


def i32(v):
    return struct.pack("<i", v)


def f32(v):
    return struct.pack("<f", v)


def s(x):
    return (x if isinstance(x, bytes) else x.encode()) + b"\0"


def quat(q=(1, 0, 0, 0)):
    return b"".join(f32(v) for v in q)


def dummy(h, parent=-1, name="d", linked=-1, pos=(0, 0, 0)):
    return (i32(4) + quat() + b"".join(f32(v) for v in pos) + i32(h) + i32(parent) + s(name)
            + i32(linked) + i32(linked))


def joint(h, parent=-1, name="j", jtype=10, cyclic=1, mn=-3.14159265, rng=6.2831853, pos=0.0,
          max_step=0.1745, weight=1.0, mode=2, master=-1, lp=(0, 0, 0)):
    return (i32(1) + quat() + b"".join(f32(v) for v in lp) + i32(h) + i32(parent) + s(name)
            + i32(jtype) + f32(0.0) + quat() + bytes([cyclic]) + f32(mn) + f32(rng) + f32(pos)
            + f32(max_step) + f32(weight) + i32(mode) + i32(master) + f32(1.0) + f32(0.0))


def group(h, name="g", flags=3, elements=()):
    out = (i32(h) + s(name) + i32(3) + i32(flags) + f32(0) * 3 + f32(0.1) + i32(0) + i32(0)
           + bytes([0, 0]) + i32(len(elements)))
    return out + b"".join(elements)


def element(h, tip, base=-1, angp=0.00174, linp=0.0005, cons=7, lw=1.0, aw=1.0):
    return (i32(h) + i32(tip) + i32(base) + i32(-1) + f32(angp) + f32(linp) + i32(cons) + f32(lw)
            + f32(aw) + bytes([1]))


def file(objs, groups=(), next_handle=None):
    out = i32(1) + i32(len(objs)) + b"".join(objs)
    out += i32(len(objs) if next_handle is None else next_handle) + i32(0) * 4
    return out + i32(len(groups)) + i32(len(groups)) + b"".join(groups)


def arm(**jkw):
    """base dummy 0, joint 1 (jkw), joint 2, tip 3 at x=1 linked to target 4"""
    return [dummy(0, name="base"), joint(1, 0, "j1", **jkw), joint(2, 1, "j2", lp=(1, 0, 0)),
            dummy(3, 2, "tip", linked=4, pos=(1, 0, 0)), dummy(4, name="target", linked=3)]


def load(data):
    return ik.Environment.from_bytes(data)


def test_next_handle_past_the_handle_cap_is_refused_without_allocating():
    # QA: a 485-byte file with next handle 2**31-1 made load() allocate an 8 GiB handle table
    assert load(file(arm(), next_handle=5)).create_dummy("n").handle == 5
    assert load(file(arm(), next_handle=1000)).create_dummy("n").handle == 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (min(hard, 3 << 30) if hard > 0 else 3 << 30, hard))
    try:
        for nh in (2**31 - 1, (1 << 24) + 2, -5):
            with pytest.raises(ValueError, match="next object handle"):
                load(file(arm(), next_handle=nh))
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _loads_like_a_setter(data, match):
    with pytest.raises(ValueError, match=match):
        load(data)


@pytest.mark.parametrize("objs, groups, match", [
    (arm(cyclic=0, mn=0.0, rng=-1.0), (), "object 1: interval range must be finite and >= 0"),
    (arm(jtype=11, cyclic=1), (), "object 1: only revolute joints .* can be cyclic"),
    (arm(max_step=0.0), (), "object 1: max_step_size must be finite and > 0"),
    (arm(weight=-1.0), (), "object 1: ik_weight must be finite and >= 0"),
    (arm(mode=7), (), "object 1: mode must be passive"),
    (arm()[:3] + [dummy(3, 2, "tip", linked=3), dummy(4, name="target")], (),
     "object 3: a dummy cannot be linked to itself"),
    (arm()[:3] + [dummy(3, 2, "tip", linked=4), dummy(4, name="target")], (),
     "object 3: linked dummy 4 is not a dummy linked back"),
    (arm()[:4] + [dummy(4, name="tip", linked=3)], (), "objects 3 and 4 have the same name 'tip'"),
    ([dummy(0, name=b"\xff\xfe")] + arm()[1:], (), "object 0: name must be UTF-8"),
    (arm(), [group(0, elements=[element(0, 1, 0)])], "IK group 0, element 0: the tip must be a dummy"),
    (arm(), [group(0, "g"), group(0, "h")], "two IK groups have the handle 0"),
    (arm(), [group(0, "g"), group(1, "g")], "IK groups 0 and 1 have the same name 'g'"),
    (arm(), [group(0, b"\xc3")], "IK group 0: name must be UTF-8"),
    (arm(), [group(0, elements=[element(0, 3, 0, linp=-1.0)])],
     "IK group 0, element 0: linear_precision must be finite and >= 0"),
    (arm(), [group(0, elements=[element(0, 3, 0, lw=-2.0)])],
     "IK group 0, element 0: linear_weight must be finite and >= 0"),
    (arm(), [group(0, elements=[element(0, 3, 0, cons=32)])], "IK group 0, element 0: invalid constraints"),
    (arm(), [group(0, flags=-1)], "IK group 0: invalid flags"),
    (arm(), [group(0, flags=32)], "IK group 0: invalid flags"),
])
def test_load_refuses_what_the_setters_refuse(objs, groups, match):
    # QA: each of these loaded, leaving a state every setter refuses (Joint.mode then raised,
    # names could not be read, group 'h' was unreachable)
    _loads_like_a_setter(file(objs, groups), "malformed kinematic content: " + match)
    load(file(arm(), [group(0, elements=[element(0, 3, 0)])]))  # the valid base file loads


def test_load_keeps_positions_inside_the_loaded_interval():
    # a position far outside its interval is clamped as set_joint_position clamps it
    env = load(file(arm(cyclic=0, mn=0.0, rng=0.5, pos=3.0)))
    assert env.object("j1").position == np.float32(0.5)
    # QA: 484 of 2000 joints saved at a limit loaded outside [min, min + range] (float32
    # rounding of min, range and position); the loaded interval is the reference
    rng = np.random.default_rng(0)
    for t in range(500):
        env = ik.Environment()
        j = env.create_joint("j")
        j.set_interval(False, rng.uniform(-3, 0), rng.uniform(0.1, 5))
        j.position = 10.0 if t % 2 else -10.0
        j2 = ik.Environment.from_bytes(env.save()).object("j")
        _, mn, rg = j2.get_interval()
        assert mn <= j2.position <= mn + rg
    # a cyclic joint at pi: float32(pi) > pi comes back at pi, not wrapped to -pi
    env = ik.Environment()
    env.create_joint("c").position = np.pi - 1e-12
    data = env.save()
    c2 = ik.Environment.from_bytes(data).object("c")
    assert c2.position == pytest.approx(np.pi)
