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

