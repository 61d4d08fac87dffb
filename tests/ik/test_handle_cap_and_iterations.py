"""QA leftovers of ik_load and object creation: a file's max_iterations below 1 is malformed (it
was raised to 1 silently), and creating an object past the handle cap load() checks (2**24) is
refused (a loaded next handle of 2**24 + 1 let create_dummy hand out handle 2**24 + 1)."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

import torsion.ik as ik

_spec = importlib.util.spec_from_file_location(
    "ik_load_files", pathlib.Path(__file__).with_name("test_load_validation.py"))
files = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(files)

CAP = 1 << 24


def group_with_iterations(h, max_iterations, name="g"):
    # the version-1 group layout of test_load_validation.group, with its max_iterations field
    return (files.i32(h) + files.s(name) + files.i32(max_iterations) + files.i32(3)
            + files.f32(0) * 3 + files.f32(0.1) + files.i32(0) + files.i32(0) + bytes([0, 0])
            + files.i32(0))


@pytest.mark.parametrize("iterations", [0, -1, -(2**31)])
def test_a_files_max_iterations_below_one_is_malformed(iterations):
    data = files.file(files.arm(), [group_with_iterations(0, iterations)])
    with pytest.raises(ValueError, match=f"IK group 0: max_iterations must be >= 1, got {iterations}"):
        ik.Environment.from_bytes(data)


def test_a_files_max_iterations_is_kept():
    env = ik.Environment.from_bytes(files.file(files.arm(), [group_with_iterations(0, 7)]))
    assert ik.Environment.from_bytes(env.save()).save() == env.save()
    data = files.file(files.arm(), [group_with_iterations(0, 1)])
    ik.Environment.from_bytes(data)  # 1 is the smallest count the setter takes


def test_object_creation_stops_at_the_handle_cap():
    env = ik.Environment.from_bytes(files.file(files.arm(), next_handle=CAP))
    assert env.create_dummy("last").handle == CAP  # the cap itself is a handle
    for create in (lambda: env.create_dummy("more"), lambda: env.create_joint("j", 10)):
        with pytest.raises(RuntimeError, match="object handles are capped at 16777216"):
            create()
    full = ik.Environment.from_bytes(files.file(files.arm(), next_handle=CAP + 1))
    with pytest.raises(RuntimeError, match="capped"):
        full.create_joint("j", 11)
    assert full.does_object_exist("j") is False
