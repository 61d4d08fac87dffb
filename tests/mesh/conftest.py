"""Mesh builders shared by the mesh tests, handed out by the `kit` fixture (they live in
tests/meshes.py, where the terrain tests import them too)."""

import types

import pytest

from ..meshes import box_mesh, icosphere, plane_mesh, write_obj, write_stl_ascii, write_stl_binary


@pytest.fixture
def kit():
    return types.SimpleNamespace(
        box_mesh=box_mesh,
        icosphere=icosphere,
        plane_mesh=plane_mesh,
        write_obj=write_obj,
        write_stl_ascii=write_stl_ascii,
        write_stl_binary=write_stl_binary,
    )
