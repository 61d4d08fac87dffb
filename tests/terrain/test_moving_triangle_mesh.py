"""A moving (dynamic) ORIGINAL_MESH body: what it collides with is explicit (the docstring of
MeshCollisionMode). It meets a heightmap through its convex hull, so a closed cube mesh rests
on a flat heightmap exactly as the CONVEX_HULL cube does and as on the ground plane (the solver's
resting height, compared between the three); a flat sheet has no hull and makes no contact; two
ORIGINAL_MESH bodies make no contact with each other."""


import numpy as np
import pytest

import torsion

from ..meshes import box_mesh, write_obj

H = 0.1  # the cube's half size (m)


def cube_obj(path):
    return write_obj(path, *box_mesh((2 * H, 2 * H, 2 * H)))


def sheet_obj(path):
    with open(path, "w") as fh:
        fh.write("v -0.2 -0.2 0\nv 0.2 -0.2 0\nv 0.2 0.2 0\nv -0.2 0.2 0\nf 1 2 3\nf 1 3 4\n")
    return str(path)


def rest_height(tmp_path, floor, mode):
    w = torsion.World()
    w.set_time_step(1e-3)
    if floor == "ground":
        w.add_ground(0.0)
    else:
        w.add_height_map(9, 9, 2.0, 2.0, 0.0, 0.0, np.zeros(81))
    m = w.add_mesh(cube_obj(tmp_path / "cube.obj"), 1.0, collision_mode=mode)
    m.set_position([0.07, 0.03, 0.2])
    w.integrate(1500)
    assert np.linalg.norm(m.get_linear_velocity()) < 1e-4
    return m.get_position()[2]


def test_dynamic_original_mesh_rests_on_a_heightmap_through_its_hull(tmp_path):
    z_mesh_hmap = rest_height(tmp_path, "hmap", torsion.MeshCollisionMode.ORIGINAL_MESH)
    z_hull_hmap = rest_height(tmp_path, "hmap", torsion.MeshCollisionMode.CONVEX_HULL)
    z_mesh_ground = rest_height(tmp_path, "ground", torsion.MeshCollisionMode.ORIGINAL_MESH)
    assert z_mesh_hmap == pytest.approx(z_hull_hmap, abs=1e-9)
    assert z_mesh_hmap == pytest.approx(z_mesh_ground, abs=1e-5)
    assert z_mesh_hmap == pytest.approx(H, abs=3e-3)  # the solver's resting penetration


def test_flat_original_mesh_has_no_hull_and_no_heightmap_contact(tmp_path):
    w = torsion.World()
    w.add_height_map(9, 9, 2.0, 2.0, 0.0, 0.0, np.zeros(81))
    m = w.add_mesh(sheet_obj(tmp_path / "sheet.obj"), 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_position([0.0, 0.0, -0.01])  # through the heightmap
    w.integrate1()
    assert len(w.get_contact_problem()) == 0
    w.integrate2()


def test_two_original_meshes_make_no_contact(tmp_path):
    w = torsion.World()
    path = cube_obj(tmp_path / "cube.obj")
    a = w.add_mesh(path, 1.0, collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    a.set_body_type(torsion.BodyType.STATIC)
    b = w.add_mesh(path, 1.0, collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    b.set_position([0.0, 0.0, 0.15])  # overlapping a by 5 cm
    w.integrate1()
    assert len(w.get_contact_problem()) == 0
    w.integrate2()
