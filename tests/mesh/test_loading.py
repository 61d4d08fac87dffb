"""Mesh files: OBJ and STL (ASCII and binary) read by torsion, other formats through trimesh, and
clear errors for bad files and bad arguments."""

import numpy as np
import pytest

import torsion


def test_obj_polygons_negative_indices_and_comments(tmp_path):
    path = tmp_path / "quad.obj"
    path.write_text(
        "# a unit square pyramid\nmtllib x.mtl\no pyramid\n"
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0  # trailing comment\nv 0.5 0.5 1 1.0\n"
        "vt 0 0\nvn 0 0 1\ns off\n"
        "f 4//1 3//1 2//1 1//1\nf 1/1 2/1 5/1\nf -4 -3 -1\nf 3 4 5\nf 4 1 5\n"
    )
    v, t = torsion.load_mesh(path)
    assert v.shape == (5, 3) and t.shape == (6, 3)
    np.testing.assert_array_equal(t[:2], [[3, 2, 1], [3, 1, 0]])  # quad as a fan
    np.testing.assert_array_equal(t[3], [1, 2, 4])  # negative indices count from the end
    assert torsion.mesh_is_closed(v, t)
    assert torsion.mesh_mass_properties(v, t)[0] == pytest.approx(1.0 / 3.0)


def test_stl_ascii_and_binary_give_the_same_closed_mesh(kit, tmp_path):
    v, t = kit.box_mesh((0.5, 1.0, 2.0))  # exactly representable in float32
    va, ta = torsion.load_mesh(kit.write_stl_ascii(tmp_path / "a.stl", v, t))
    vb, tb = torsion.load_mesh(kit.write_stl_binary(tmp_path / "b.STL", v, t))
    # corners are welded back into 8 vertices, so the surface is closed
    assert len(va) == 8 and len(vb) == 8
    np.testing.assert_array_equal(va, vb)
    np.testing.assert_array_equal(ta, tb)
    np.testing.assert_array_equal(va[ta], v[t])
    assert torsion.mesh_is_closed(va, ta)


def test_other_formats_load_through_trimesh(kit, tmp_path):
    import trimesh

    v, t = kit.icosphere(1, 0.5)
    path = tmp_path / "ball.ply"
    trimesh.Trimesh(v, t, process=False).export(path)
    v2, t2 = torsion.load_mesh(path)
    np.testing.assert_allclose(v2, v)
    np.testing.assert_array_equal(t2, t)
    w = torsion.World()
    m = w.add_mesh(path, mass=1.0)
    assert isinstance(m, torsion.Mesh)


def test_bad_files_raise_clear_errors(tmp_path):
    def bad(text, match, name="bad.obj"):
        p = tmp_path / name
        p.write_text(text) if isinstance(text, str) else p.write_bytes(text)
        with pytest.raises(ValueError, match=match):
            torsion.load_mesh(p)
        with pytest.raises(ValueError, match=match):
            torsion.World().add_mesh(p, mass=1.0)

    bad("", "no vertices")
    bad("v 0 0 0\nv 1 0 0\nv 0 1 0\n", "no faces")
    bad("v 0 0 0\nv 1 0 nan\nv 0 1 0\nf 1 2 3\n", "line 2: vertex coordinate must be finite")
    bad("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "line 4: face corner 4 refers to a vertex not")
    bad("v 0 0 0\nv 1 0 x\n", "line 2: expected a number, got 'x'")
    bad("v 0 0\n", "line 1: a vertex needs 3 coordinates")
    bad("v 0 0 0\nv 1 0 0\nf 1 2\n", "line 3: a face needs at least 3 corners")
    bad("v 0 0 0\nf 0 1 2\n", "bad face corner '0'")
    bad("hello world", "not an STL file", "x.stl")
    bad("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\n",
        "facet 0 has 2 vertices", "y.stl")
    bad(b"\0" * 80 + np.uint32(1).tobytes() + np.zeros(12 + 36, np.uint8).tobytes() + b"\0\0",
        "every face is degenerate", "z.stl")
    with pytest.raises(ValueError, match="cannot open mesh file"):
        torsion.load_mesh(tmp_path / "missing.obj")
    with pytest.raises(ValueError, match="cannot open mesh file"):
        torsion.World().add_mesh(str(tmp_path / "missing.stl"), 1.0)


def test_bad_arguments(kit, tmp_path):
    path = kit.write_obj(tmp_path / "box.obj", *kit.box_mesh())
    w = torsion.World()
    with pytest.raises(ValueError, match="scale must be finite and > 0"):
        w.add_mesh(path, 1.0, scale=0.0)
    with pytest.raises(ValueError, match="scale must be finite and > 0"):
        w.add_mesh(path, 1.0, scale=-2.0)
    with pytest.raises(ValueError, match="mass must be finite and > 0"):
        w.add_mesh(path, float("nan"))
    with pytest.raises(ValueError, match="both inertia and com"):
        w.add_mesh(path, 1.0, inertia=np.eye(3))
    with pytest.raises(ValueError, match="positive definite"):
        w.add_mesh(path, 1.0, inertia=-np.eye(3), com=[0, 0, 0])
    with pytest.raises(ValueError, match=r"inertia must have shape \(3, 3\)"):
        w.add_mesh(path, 1.0, inertia=np.eye(2), com=[0, 0, 0])
    with pytest.raises(ValueError, match="com must be finite"):
        w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, np.inf, 0])
    with pytest.raises(ValueError, match="material must be a non-empty name"):
        w.add_mesh(path, 1.0, material="")
    flat = tmp_path / "flat.obj"
    flat.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises(ValueError, match="open and flat"):
        w.add_mesh(flat, 1.0)
    with pytest.raises(ValueError, match="coplanar"):
        w.add_mesh(flat, 1.0, inertia=np.eye(3), com=[0, 0, 0])
    assert w.get_object_list() == []


@pytest.mark.parametrize("mode", [torsion.MeshCollisionMode.CONVEX_HULL,
                                  torsion.MeshCollisionMode.ORIGINAL_MESH])
def test_a_vertex_no_face_uses_is_not_part_of_the_body(tmp_path, kit, mode):
    # a unit cube whose OBJ also lists `v 10 10 10`, which no face uses. The mass properties
    # (from the faces) ignored it; the collision hull and the rays did not: the shape reached
    # 10 m from the cube. Reference: the cube alone (trimesh drops such vertices too)
    v, t = kit.box_mesh()
    path = kit.write_obj(tmp_path / "cube_unref.obj", np.vstack([[10.0, 10.0, 10.0], v]), t + 1)
    w = torsion.World()
    m = w.add_mesh(path, 1.0, collision_mode=mode)
    np.testing.assert_allclose(np.diag(m.get_inertia_matrix_b()), [1 / 6] * 3, atol=1e-12)
    (hv, ht), = m.get_collision_meshes()
    np.testing.assert_allclose(hv.min(0), [-0.5] * 3, atol=1e-12)
    np.testing.assert_allclose(hv.max(0), [0.5] * 3, atol=1e-12)
    assert len(hv) == 8 and ht.max() == 7
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position([0, 0, 0])
    assert w.ray_test([5, 5, 20], [0, 0, -1], 30) == []  # beside the cube
    assert len(w.ray_test([0.2, 0.1, 20], [0, 0, -1], 30)) == 1  # onto it


def test_a_urdf_mesh_vertex_no_face_uses_is_not_part_of_the_hull(tmp_path, kit):
    v, t = kit.box_mesh()
    kit.write_obj(tmp_path / "cube_unref.obj", np.vstack([[10.0, 10.0, 10.0], v]), t + 1)
    urdf = ('<?xml version="1.0"?><robot name="r"><link name="base"><inertial><mass value="1"/>'
            '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial><collision>'
            '<geometry><mesh filename="cube_unref.obj"/></geometry></collision></link></robot>')
    w = torsion.World()
    w.add_articulated_system(urdf, res_path=str(tmp_path))
    assert w.ray_test([5, 5, 20], [0, 0, -1], 30) == []
    assert len(w.ray_test([0.2, 0.1, 20], [0, 0, -1], 30)) == 1


def test_add_mesh_documents_what_a_flat_open_mesh_needs(tmp_path):
    # the docstring promised a bounding-box estimate for every open mesh; a flat sheet has a
    # bounding box without volume and is refused (deliberately): the docstring must say so
    doc = torsion.World.add_mesh.__doc__
    assert "open flat mesh" in doc and "raises ValueError" in doc
    sheet = tmp_path / "sheet.obj"
    sheet.write_text("v -2 -2 0\nv 2 -2 0\nv 2 2 0\nv -2 2 0\nf 1 2 3\nf 1 3 4\n")
    w = torsion.World()
    with pytest.raises(ValueError, match="open and flat"):
        w.add_mesh(sheet, 1.0, collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m = w.add_mesh(sheet, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(torsion.BodyType.STATIC)
