"""Mesh bodies in a World: a convex-hull cube behaves as a box of the same size, meshes stack
stably, CONVEXIFY (coacd) keeps concavities, clones, export/reload, handles, determinism."""

import math
import warnings

import numpy as np
import pytest

import torsion

G = 9.81


def world():
    w = torsion.World()
    w.set_time_step(1e-3)
    return w


def l_prism(tmp_path, kit, height=0.5):
    """An L-shaped prism (closed, outward): the L (0,0)(3,0)(3,1)(1,1)(1,3)(0,3) extruded in z."""
    poly = np.array([[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]], float)
    n = len(poly)
    v = np.vstack([np.c_[poly, np.zeros(n)], np.c_[poly, np.full(n, height)]])
    tris = []
    for k in range(1, n - 1):  # the L is star-shaped from vertex 0: fans close the caps
        tris += [(0, k + 1, k), (n, n + k, n + k + 1)]
    for k in range(n):
        j = (k + 1) % n
        tris += [(k, j, n + j), (k, n + j, n + k)]
    return kit.write_obj(tmp_path / "l.obj", v, np.array(tris))


def test_l_prism_helper_is_closed_with_the_right_volume(tmp_path, kit):
    v, t = torsion.load_mesh(l_prism(tmp_path, kit))
    assert torsion.mesh_is_closed(v, t)
    assert torsion.mesh_mass_properties(v, t)[0] == pytest.approx(5 * 0.5)


def test_mass_properties_do_not_depend_on_shared_vertices_or_flat_faces(tmp_path, kit):
    # An OBJ that repeats each triangle's corners instead of sharing them (as some exporters
    # write) is the same closed solid; so is a closed mesh with one extra face of zero area.
    # Both were called open, and their mass properties fell back to the bounding box's: the
    # L prism's centre of mass moved to the box's centre, (1.5, 1.5, 0.25) for (1.1, 1.1, 0.25).
    v, t = torsion.load_mesh(l_prism(tmp_path, kit))
    expected = torsion.mesh_mass_properties(v, t)
    split_v = v[t.reshape(-1)]
    split_t = np.arange(len(split_v)).reshape(-1, 3)
    flat_v = np.vstack([v, [[0.5, 0.0, 0.0]]])  # on the edge from (0, 0, 0) to (3, 0, 0)
    flat_t = np.vstack([t, [[0, len(v), 1]]])
    for name, (vv, tt) in {"split": (split_v, split_t), "flat": (flat_v, flat_t)}.items():
        assert torsion.mesh_is_closed(vv, tt)
        w = world()
        m = w.add_mesh(kit.write_obj(tmp_path / f"{name}.obj", vv, tt), 10.0)
        np.testing.assert_allclose(m.get_com_offset(), expected[1], atol=1e-12)
        np.testing.assert_allclose(m.get_inertia_matrix_b(), expected[2] * 10.0 / expected[0],
                                   atol=1e-12)


@pytest.fixture
def cube_obj(tmp_path, kit):
    return kit.write_obj(tmp_path / "cube.obj", *kit.box_mesh((0.4, 0.4, 0.2)))


def test_hull_cube_rests_and_slides_like_a_box(cube_obj):
    mu, v0 = 0.5, 3.0
    results = {}
    for kind in ("box", "mesh"):
        w = world()
        w.add_ground(0.0, "ground")
        w.set_material_pair_prop("ground", "box", mu, 0.0, 0.0)
        if kind == "box":
            b = w.add_box(0.4, 0.4, 0.2, 2.0, "box")
        else:
            b = w.add_mesh(cube_obj, 2.0, material="box")
            assert isinstance(b, torsion.Mesh)
            # exact polyhedral mass properties of the closed mesh = the box's
            np.testing.assert_allclose(b.get_inertia_matrix_b(), torsion.World().add_box(0.4, 0.4, 0.2, 2.0).get_inertia_matrix_b(), atol=1e-15)
        b.set_position([0.0, 0.0, 0.105])
        w.integrate(500)
        rest_z, n_contacts = b.get_position()[2], len(b.get_contacts())
        b.set_velocity([v0, 0.0, 0.0], [0.0, 0.0, 0.0])
        w.integrate(10)
        va = b.get_linear_velocity()[0]
        w.integrate(300)
        decel = (va - b.get_linear_velocity()[0]) / 0.3
        results[kind] = (rest_z, n_contacts, decel)
    (zb, nb, db), (zm, nm, dm) = results["box"], results["mesh"]
    assert nb == nm == 4
    assert zm == pytest.approx(zb, abs=1e-9)
    assert dm == pytest.approx(mu * G, rel=0.01)
    assert dm == pytest.approx(db, rel=0.01)


def test_mesh_stacked_on_mesh_is_stable_for_5_s(tmp_path, kit):
    w = world()
    w.add_ground(0.0)
    base = w.add_mesh(kit.write_obj(tmp_path / "a.obj", *kit.box_mesh((0.6, 0.6, 0.3))), 3.0)
    top = w.add_mesh(kit.write_obj(tmp_path / "b.obj", *kit.box_mesh((0.3, 0.4, 0.2))), 1.0)
    base.set_position([0.0, 0.0, 0.15])
    top.set_position([0.05, -0.03, 0.3 + 0.1 + 1e-4])
    top.set_orientation([math.cos(0.3), 0.0, 0.0, math.sin(0.3)])  # yawed 34 degrees
    w.integrate(300)  # settle
    p0, b0 = top.get_position(), base.get_position()
    w.integrate(5000)
    assert np.linalg.norm(top.get_position() - p0) < 1e-3
    assert np.linalg.norm(base.get_position() - b0) < 1e-3
    assert top.get_position()[2] == pytest.approx(0.4, abs=2e-3)
    assert np.linalg.norm(top.get_linear_velocity()) < 1e-3
    # the top box's contacts are a face manifold on the base (4 points)
    on_base = [c for c in top.get_contacts() if c["pair_object_index"] == base.get_index_in_world()]
    assert len(on_base) == 4


def drop_sphere_on_l(tmp_path, kit, mode, **kw):
    w = world()
    w.set_contact_settings(torsion.ContactSettings(margin=0.005))  # no sinking on impact
    w.add_ground(0.0)
    m = w.add_mesh(l_prism(tmp_path, kit), 10.0, collision_mode=mode, **kw)
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position(m.get_com_offset())  # the mesh frame's origin at the world origin
    s = w.add_sphere(0.2, 1.0)
    # (1.5, 1.5) lies in the L's notch but inside its convex hull
    s.set_position([1.5, 1.5, 1.0])
    w.integrate(1500)
    return m, s


def test_convexify_keeps_the_notch_that_the_hull_fills(tmp_path, kit):
    m, s = drop_sphere_on_l(tmp_path, kit, torsion.MeshCollisionMode.CONVEX_HULL)
    assert s.get_position()[2] == pytest.approx(0.5 + 0.2, abs=2e-3)  # on the hull's top
    m, s = drop_sphere_on_l(tmp_path, kit, torsion.MeshCollisionMode.CONVEXIFY,
                            coacd_options=torsion.CoacdOptions(threshold=0.05, seed=1))
    parts = m.get_collision_meshes()
    assert len(parts) >= 2
    assert s.get_position()[2] == pytest.approx(0.2, abs=2e-3)  # fell into the notch, on the ground
    # mass properties are those of the L itself (closed mesh), not of the parts
    v, t = torsion.load_mesh(m.get_file_name())
    vol, com, inertia = torsion.mesh_mass_properties(v, t)
    np.testing.assert_allclose(m.get_com_offset(), com, atol=1e-12)
    np.testing.assert_allclose(m.get_inertia_matrix_b(), inertia * 10.0 / vol, rtol=1e-12, atol=1e-12)


def test_convexify_falls_back_to_one_hull_with_a_warning(tmp_path, kit, monkeypatch):
    import coacd

    def broken(*args, **kwargs):
        raise RuntimeError("decomposition exploded")

    monkeypatch.setattr(coacd, "run_coacd", broken)
    with pytest.warns(RuntimeWarning, match="decomposition exploded.*one convex hull"):
        m, s = drop_sphere_on_l(tmp_path, kit, torsion.MeshCollisionMode.CONVEXIFY)
    assert len(m.get_collision_meshes()) == 1
    assert s.get_position()[2] == pytest.approx(0.7, abs=2e-3)
    with pytest.raises(ValueError, match="coacd_options must be a torsion.CoacdOptions"):
        torsion.World().add_mesh(l_prism(tmp_path, kit), 1.0, collision_mode=torsion.MeshCollisionMode.CONVEXIFY,
                                 coacd_options={"threshold": 0.1})


def test_clone_shares_geometry_and_mass_properties(cube_obj):
    w = world()
    a = w.add_mesh(cube_obj, 2.0, scale=2.0, material="rubber", collision_group=2)
    b = w.add_mesh(a)
    c = w.add_mesh(a, material="steel", collision_group=4, collision_mask=1)
    for m in (b, c):
        assert m.get_mass() == 2.0
        np.testing.assert_array_equal(m.get_inertia_matrix_b(), a.get_inertia_matrix_b())
        np.testing.assert_array_equal(m.get_com_offset(), a.get_com_offset())
        assert m.get_scale() == 2.0 and m.get_file_name() == a.get_file_name()
        for (va, ta), (vm, tm) in zip(a.get_collision_meshes(), m.get_collision_meshes()):
            np.testing.assert_array_equal(va, vm)
    assert b.get_material() == "rubber" and c.get_material() == "steel"
    assert b.get_collision_group() == 1 and c.get_collision_group() == 4 and c.get_collision_mask() == 1
    # scale 2: a 0.8 x 0.8 x 0.4 box
    np.testing.assert_allclose(np.ptp(a.get_collision_meshes()[0][0], axis=0), [0.8, 0.8, 0.4])
    other = torsion.World()
    with pytest.raises(ValueError, match="another world"):
        other.add_mesh(a)


def test_export_mesh_assets_reload_to_the_same_geometry(tmp_path, kit):
    w = world()
    w.add_sphere(0.1, 1.0)
    hull = w.add_mesh(kit.write_obj(tmp_path / "ball.obj", *kit.icosphere(2, 0.3)), 1.0)
    hull.set_name("ball")
    parts = w.add_mesh(l_prism(tmp_path, kit), 1.0, collision_mode=torsion.MeshCollisionMode.CONVEXIFY,
                       coacd_options=torsion.CoacdOptions(seed=1))
    surface = w.add_mesh(kit.write_obj(tmp_path / "c.obj", *kit.box_mesh()), 1.0,
                         collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    out = tmp_path / "export" / "deep"
    paths = w.export_mesh_assets_to_obj(out, prefix="asset")
    n_parts = len(parts.get_collision_meshes())
    expected = ["asset_ball_0.obj"] + [f"asset_2_{k}.obj" for k in range(n_parts)] + ["asset_3_0.obj"]
    assert [p.split("/")[-1] for p in paths] == expected
    meshes = hull.get_collision_meshes() + parts.get_collision_meshes() + surface.get_collision_meshes()
    for p, (v, t) in zip(paths, meshes):
        v2, t2 = torsion.load_mesh(p)
        np.testing.assert_array_equal(v2, v)  # 17 significant digits: bit for bit
        np.testing.assert_array_equal(t2, t)
    # the hull of the icosphere is the icosphere: same vertex set
    v, _ = kit.icosphere(2, 0.3)
    assert sorted(map(tuple, np.round(meshes[0][0], 12))) == sorted(map(tuple, np.round(v, 12)))
    # reloading an exported asset gives the same body
    again = w.add_mesh(paths[0], 1.0)
    np.testing.assert_allclose(again.get_inertia_matrix_b(), hull.get_inertia_matrix_b(), rtol=1e-12, atol=1e-15)


def test_handles_types_and_removal(cube_obj):
    w = world()
    m = w.add_mesh(cube_obj, 1.0)
    assert m.get_object_type() == torsion.ObjectType.MESH
    assert m.get_collision_mode() == torsion.MeshCollisionMode.CONVEX_HULL
    w.remove_object(m)
    with pytest.raises(torsion.RemovedObjectError):
        m.get_position()
    with pytest.raises(torsion.RemovedObjectError):
        w.add_mesh(m)


def test_pile_is_deterministic(tmp_path, kit):
    def run():
        w = world()
        w.add_ground(0.0)
        rng = np.random.default_rng(5)
        bodies = []
        for k in range(6):
            pts = rng.normal(size=(20, 3)) * 0.1
            verts, tris, _ = torsion.convex_hull(pts)
            m = w.add_mesh(kit.write_obj(tmp_path / f"p{k}.obj", verts, tris), 1.0)
            m.set_position([0.05 * k, 0.0, 0.3 + 0.25 * k])
            bodies.append(m)
        w.integrate(800)
        return np.concatenate([np.r_[b.get_position(), b.get_quaternion()] for b in bodies])

    a, b = run(), run()
    assert np.array_equal(a, b)
    assert np.all(a.reshape(6, 7)[:, 2] > 0.0)  # nothing fell through the ground
