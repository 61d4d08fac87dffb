"""The World seed's surface that ported RaiSim code calls in the seed's own argument orders:
torsion.MaterialManager, add_mesh(file, mass, scale, material, collision_mode), export_to_xml(dir,
file_name), world XML with Mesh objects (bit-for-bit reload), CONVEXIFY without stray vertices,
and self-collision switches that act at once (why torsion has no updateSelfCollisionCache)."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

import torsion

_spec = importlib.util.spec_from_file_location(
    "state_scenes", pathlib.Path(__file__).parents[1] / "state" / "scenes.py")
scenes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scenes)


def write_obj(path, vertices, triangles, extra=""):
    lines = [f"v {float(x)!r} {float(y)!r} {float(z)!r}" for x, y, z in np.asarray(vertices, float)]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in triangles]
    path.write_text("\n".join(lines) + "\n" + extra)
    return str(path)


def box(size=(1.0, 1.0, 1.0), centre=(0.0, 0.0, 0.0)):
    s = np.asarray(size) / 2
    v = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float) * s
    v += np.asarray(centre)
    t = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
         (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    return v, t


def l_shape(tmp_path):
    """an L of two boxes (non-convex), not centred on its centre of mass"""
    v1, t1 = box((0.6, 0.2, 0.2), (0.23, 0.0, 0.11))
    v2, t2 = box((0.2, 0.2, 0.6), (0.03, 0.0, 0.41))
    v = np.vstack([v1, v2])
    t = list(t1) + [(a + 8, b + 8, c + 8) for a, b, c in t2]
    return write_obj(tmp_path / "l.obj", v, t)


def test_material_manager_is_exported():
    assert torsion.MaterialManager is torsion._core.MaterialManager
    assert "MaterialManager" in torsion.__all__
    mm = torsion.MaterialManager()
    mm.set_material_pair_prop("steel", "rubber", 0.9, 0.1, 0.2)
    w = torsion.World()
    w.update_material_prop(mm)
    assert w.get_material_pair_properties("steel", "rubber").friction == 0.9


def test_add_mesh_in_the_seeds_positional_order(tmp_path):
    path = write_obj(tmp_path / "cube.obj", *box())
    w = torsion.World()
    # addMesh(file, mass, scale, material, collisionMode): failed with "inertia must have
    # shape (3, 3)" when the third argument was taken as the inertia
    m = w.add_mesh(path, 2.0, 0.5, "steel", torsion.MeshCollisionMode.CONVEX_HULL)
    assert m.get_scale() == 0.5
    assert m.get_collision_mode() == torsion.MeshCollisionMode.CONVEX_HULL
    assert w.get_object_list()[0].get_mass() == 2.0
    # exact mass properties of the closed half-size cube: m (a^2 + a^2) / 12 with a = 0.5
    np.testing.assert_allclose(m.get_inertia_matrix_b(), np.eye(3) * 2.0 * 0.5 / 12, rtol=1e-12, atol=1e-15)
    # an int scale is a scale, the remaining arguments by position: group, mask
    m2 = w.add_mesh(path, 1.0, 2, "default", torsion.MeshCollisionMode.ORIGINAL_MESH, 2, 5)
    assert m2.get_scale() == 2.0
    assert m2.get_collision_mode() == torsion.MeshCollisionMode.ORIGINAL_MESH
    # addMesh(file, mass, scale) and the inertia form still work
    assert w.add_mesh(path, 1.0, np.float32(1.5)).get_scale() == 1.5
    m3 = w.add_mesh(path, 1.0, np.eye(3) * 0.1, [0.0, 0.0, 0.0], 1.0)
    np.testing.assert_array_equal(m3.get_inertia_matrix_b(), np.eye(3) * 0.1)
    m4 = w.add_mesh(path, 1.0, inertia=np.eye(3) * 0.2, com=[0, 0, 0])
    np.testing.assert_array_equal(m4.get_inertia_matrix_b(), np.eye(3) * 0.2)
    # a bool is not a scale; an inertia without com is refused as before
    with pytest.raises(ValueError, match="inertia"):
        w.add_mesh(path, 1.0, True)
    with pytest.raises(ValueError, match="inertia and com"):
        w.add_mesh(path, 1.0, np.eye(3))
    with pytest.raises(ValueError, match="collision_mode must be"):
        w.add_mesh(path, 1.0, 1.0, "default", "convex")


def test_add_mesh_with_coacd_options_in_the_mode_place(tmp_path):
    pytest.importorskip("coacd")
    path = l_shape(tmp_path)
    w = torsion.World()
    # addMesh(file, mass, scale, material, coacdOptions)
    m = w.add_mesh(path, 1.0, 1.0, "default", torsion.CoacdOptions(threshold=0.05, seed=1))
    assert m.get_collision_mode() == torsion.MeshCollisionMode.CONVEXIFY
    assert len(m.get_collision_meshes()) >= 2
    with pytest.raises(ValueError, match="pass the options once"):
        w.add_mesh(path, 1.0, 1.0, "default", torsion.CoacdOptions(), coacd_options=torsion.CoacdOptions())


def test_convexify_hands_coacd_only_the_vertices_faces_use(tmp_path, monkeypatch):
    coacd = pytest.importorskip("coacd")
    v, t = box()
    path = write_obj(tmp_path / "stray.obj", v, t, extra="v 10 10 10\n")
    seen = []
    real = coacd.run_coacd

    def spy(mesh, **kw):
        seen.append(np.asarray(mesh.vertices).copy())
        return real(mesh, **kw)

    monkeypatch.setattr(coacd, "run_coacd", spy)
    w = torsion.World()
    m = w.add_mesh(path, 1.0, 1.0, "default", torsion.MeshCollisionMode.CONVEXIFY)
    assert len(seen) == 1
    assert seen[0].shape == (8, 3)  # the stray point 10 m away was handed over too
    assert np.abs(seen[0]).max() == 0.5
    for verts, _ in m.get_collision_meshes():
        assert np.abs(verts).max() <= 0.5 + 1e-9


def test_export_to_xml_dir_and_file_name(tmp_path):
    w = torsion.World()
    w.add_sphere(0.1, 1.0).set_position([0, 0, 1])
    w.export_to_xml(str(tmp_path), "scene.xml")  # the seed's exportToXml(dir, fileName)
    assert (tmp_path / "scene.xml").is_file()
    w.export_to_xml(dir=tmp_path, file_name="named.xml")
    r = torsion.World(tmp_path / "named.xml")
    assert r.state_hash() == w.state_hash()
    with pytest.raises(ValueError, match="file_name"):
        w.export_to_xml(str(tmp_path), "")


def mesh_world(tmp_path, convexify=True):
    w = torsion.World()
    w.add_ground()
    w.set_material_pair_prop("steel", "default", 0.6, 0.0, 0.0)
    cube = write_obj(tmp_path / "cube.obj", *box((0.3, 0.2, 0.1), (0.05, -0.02, 0.013)))
    hull = w.add_mesh(cube, 1.3, 1.7, "steel", torsion.MeshCollisionMode.CONVEX_HULL)
    hull.set_name("hull")
    hull.set_position([0.1, 0.2, 0.4])
    hull.set_orientation([np.cos(0.2), np.sin(0.2) * 0.6, np.sin(0.2) * 0.8, 0.0])
    hull.set_velocity([0.3, -0.1, 0.0], [0.5, 1.0, -0.3])
    surface = w.add_mesh(cube, 1.0, 3.0, "default", torsion.MeshCollisionMode.ORIGINAL_MESH, 1, -1)
    surface.set_body_type(torsion.BodyType.STATIC)
    surface.set_position([2.0, 0.0, 0.1])
    ball = w.add_sphere(0.1, 0.4)
    ball.set_position([2.05, 0.03, 0.5])
    if convexify:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            parts = w.add_mesh(l_shape(tmp_path), 2.0, 1.0, "default",
                               torsion.CoacdOptions(threshold=0.05, seed=3))
        parts.set_position([-1.0, 0.3, 0.6])
        parts.set_angular_velocity([0.2, 0.4, 0.1])
        w.set_object_material(parts, "steel", 1)  # one part differs
    clone = w.add_mesh(hull, "steel", 1, -1)
    clone.set_position([0.0, -1.0, 0.3])
    clone.set_linear_damping(0.05)
    clone.set_angular_damping([0.1, 0.2, 0.3])
    return w


def test_a_mesh_world_exports_and_reloads_bit_for_bit(tmp_path):
    pytest.importorskip("coacd")
    w = mesh_world(tmp_path)
    out = tmp_path / "out"
    w.export_to_xml(out, "meshes.xml")
    assets = sorted(p.name for p in (out / "meshes_meshes").iterdir())
    assert "mesh_1_0.obj" in assets and "mesh_2_0.obj" in assets and "mesh_4_1.obj" in assets
    r = torsion.World(out / "meshes.xml")
    assert r.get_object_count() == w.get_object_count()
    assert r.get_topology_fingerprint() == w.get_topology_fingerprint()
    assert r.state_hash() == w.state_hash()
    for a, b in zip(w.get_object_list(), r.get_object_list()):
        assert a.get_object_type() == b.get_object_type()
        if isinstance(a, torsion.Mesh):
            assert b.get_collision_mode() == a.get_collision_mode()
            np.testing.assert_array_equal(b.get_com_offset(), a.get_com_offset())
            assert b.get_scale() == a.get_scale() and b.get_file_name() == a.get_file_name()
            for (va, ta), (vb, tb) in zip(a.get_collision_meshes(), b.get_collision_meshes()):
                np.testing.assert_array_equal(va, vb)
                np.testing.assert_array_equal(ta, tb)
    w.integrate(1000)
    r.integrate(1000)
    assert r.state_hash() == w.state_hash()
    assert scenes.bitwise_equal(scenes.full_state(r), scenes.full_state(w))
    assert w.get_object("hull").get_position()[2] < 0.2  # it fell and came to the ground


def test_every_object_kind_round_trips(tmp_path):
    w, robot = scenes.mixed_scene()
    heights = 0.05 * np.sin(np.arange(8 * 6, dtype=float))
    w.add_height_map(8, 6, 2.0, 1.5, 10.0, 10.0, heights, "default")
    child = torsion.CompoundObjectChild
    w.add_compound([child(torsion.ObjectType.BOX, [0.3, 0.2, 0.1]),
                    child(torsion.ObjectType.SPHERE, [0.1], [0.2, 0, 0])], 2.0).set_position([-3, 0, 1])
    cube = write_obj(tmp_path / "cube.obj", *box((0.3, 0.2, 0.1)))
    w.add_mesh(cube, 1.0, 1.0).set_position([4.0, 4.0, 0.5])
    w.export_to_xml(tmp_path / "all.xml")
    r = torsion.World(tmp_path / "all.xml")
    kinds = {o.get_object_type() for o in r.get_object_list()}
    assert len(kinds) == 9  # sphere box cylinder capsule ground heightmap compound mesh robot
    assert r.state_hash() == w.state_hash()
    w.integrate(1000)
    r.integrate(1000)
    assert r.state_hash() == w.state_hash()


def test_malformed_mesh_elements_are_refused(tmp_path):
    w = torsion.World()
    w.add_mesh(write_obj(tmp_path / "cube.obj", *box()), 1.0, 1.0)
    w.export_to_xml(tmp_path / "m.xml")
    text = (tmp_path / "m.xml").read_text()
    bad = tmp_path / "bad.xml"
    bad.write_text(text.replace('mode="convex_hull"', 'mode="blob"'))
    with pytest.raises(ValueError, match="mode must be"):
        torsion.World(bad)
    bad.write_text(text.replace("m_meshes/mesh_0_0.obj", "m_meshes/nothing.obj"))
    with pytest.raises(ValueError, match="no such mesh asset"):
        torsion.World(bad)
    (tmp_path / "m_meshes" / "mesh_0_0.obj").write_text("v 0 0 0\n")
    with pytest.raises(ValueError):
        torsion.World(tmp_path / "m.xml")


def two_overlapping_links():
    # two links whose boxes overlap whatever the joint angle, joined through a middle link, so
    # they are not parent and child
    urdf = """<robot name="r"><link name="world"/>
      <link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
        <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
      <link name="m"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <link name="b"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
        <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
      <joint name="j0" type="fixed"><parent link="world"/><child link="a"/><origin xyz="0 0 1"/></joint>
      <joint name="j1" type="revolute"><parent link="a"/><child link="m"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="10" velocity="10"/></joint>
      <joint name="j2" type="revolute"><parent link="m"/><child link="b"/><origin xyz="0.1 0 0"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="10" velocity="10"/></joint>
    </robot>"""
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    return w, w.add_articulated_system(urdf)


def test_self_collision_changes_act_at_the_next_step():
    # torsion has no updateSelfCollisionCache: the collision bodies of every object (filters,
    # self-collision switches) are gathered afresh at each step, so a change needs no refresh
    w, robot = two_overlapping_links()
    w.integrate()
    assert len(robot.get_contacts()) == 0
    robot.set_self_collision(True)
    w.integrate()
    contacts = robot.get_contacts()
    assert len(contacts) > 0 and all(contacts["is_self_collision"])
    robot.set_self_collision(False)
    w.integrate()
    assert len(robot.get_contacts()) == 0
    assert not hasattr(w, "update_self_collision_cache")
