"""ORIGINAL_MESH: triangle meshes (static here) against the primitives, through the heightmap
branch's convex-vs-triangle routine with the mesh's edge adjacency. A tessellated plane must act
as the ground plane (same resting height and sliding deceleration, no bumps at internal edges);
a concave mesh keeps its concavity."""

import numpy as np
import pytest

import torsion

from ..meshes import plane_mesh, write_obj

G = 9.81


def plane_obj(path, n=10, size=4.0, z=0.0):
    return write_obj(path, *plane_mesh(n, size, z))


def surface(w, path, **kw):
    m = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH, **kw)
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position([0, 0, 0])
    return m


@pytest.mark.parametrize("kind", ["sphere", "box", "cylinder", "capsule"])
def test_primitives_rest_on_a_tessellated_plane_as_on_the_ground(tmp_path, kind):
    heights = []
    for floor in ("ground", "mesh"):
        w = torsion.World()
        if floor == "ground":
            w.add_ground(0.0)
        else:
            surface(w, plane_obj(tmp_path / "plane.obj"))
        b = {"sphere": lambda: w.add_sphere(0.15, 1.0), "box": lambda: w.add_box(0.3, 0.2, 0.1, 1.0),
             "cylinder": lambda: w.add_cylinder(0.1, 0.2, 1.0), "capsule": lambda: w.add_capsule(0.1, 0.2, 1.0)}[kind]()
        # off the cell corners and edges, and across an internal edge for the wide shapes
        b.set_position([0.13, 0.27, 0.4])
        w.integrate(1500)
        heights.append(b.get_position()[2])
        assert np.linalg.norm(b.get_linear_velocity()) < 1e-4
    assert heights[1] == pytest.approx(heights[0], abs=1e-5)


def test_box_slides_across_internal_edges_without_bumps(tmp_path):
    mu = 0.5
    w = torsion.World()
    surface(w, plane_obj(tmp_path / "plane.obj", n=20, size=6.0), material="floor")
    w.set_material_pair_prop("floor", "box", mu, 0.0, 0.0)
    b = w.add_box(0.4, 0.4, 0.2, 2.0, "box")
    b.set_position([-2.0, 0.05, 0.1])
    w.integrate(200)
    b.set_velocity([3.0, 0.0, 0.0], [0, 0, 0])
    w.integrate(10)
    va = b.get_linear_velocity()[0]
    vz_max = 0.0
    for _ in range(30):
        w.integrate(10)
        vz_max = max(vz_max, abs(b.get_linear_velocity()[2]))
    decel = (va - b.get_linear_velocity()[0]) / 0.3
    assert decel == pytest.approx(mu * G, rel=0.01)  # as on the ground plane
    assert vz_max < 1e-3  # crossing 0.3 m cells: no kicks from internal edges
    assert b.get_position()[2] == pytest.approx(0.1, abs=1e-4)


def test_concave_mesh_keeps_its_notch(tmp_path, kit):
    poly = np.array([[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]], float)
    n = len(poly)
    v = np.vstack([np.c_[poly, np.zeros(n)], np.c_[poly, np.full(n, 0.5)]])
    tris = []
    for k in range(1, n - 1):
        tris += [(0, k + 1, k), (n, n + k, n + k + 1)]
    for k in range(n):
        j = (k + 1) % n
        tris += [(k, j, n + j), (k, n + j, n + k)]
    path = kit.write_obj(tmp_path / "l.obj", v, np.array(tris))
    w = torsion.World()
    w.set_contact_settings(torsion.ContactSettings(margin=0.005))  # no sinking on impact
    w.add_ground(0.0)
    surface(w, path)
    in_notch, on_top = w.add_sphere(0.2, 1.0), w.add_sphere(0.2, 1.0)
    in_notch.set_position([1.5, 1.5, 1.0])  # inside the L's hull, outside the L
    on_top.set_position([0.5, 2.0, 1.0])
    w.integrate(1500)
    assert in_notch.get_position()[2] == pytest.approx(0.2, abs=1e-4)  # down to the ground
    assert on_top.get_position()[2] == pytest.approx(0.7, abs=1e-4)  # on the L's top face
