"""URDF collision meshes (convex hulls, package:// and relative paths) and rays against convex
hulls, triangle meshes and their world bodies, checked against analytic answers and a brute-force
ray-triangle loop."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import torsion

from ..meshes import write_obj

INERTIAL = ('<inertial><mass value="2"/><inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')


def urdf(mesh_filename, scale="1 1 1", origin="0 0 0"):
    return (
        '<?xml version="1.0"?>\n<robot name="r">\n<link name="base">' + INERTIAL +
        f'<collision><origin xyz="{origin}"/><geometry><mesh filename="{mesh_filename}" scale="{scale}"/>'
        '</geometry></collision></link>\n</robot>\n'
    )


def test_urdf_collision_mesh_loads_as_a_hull_and_rests_on_it(tmp_path, kit):
    pkg = tmp_path / "bot" / "meshes"
    pkg.mkdir(parents=True)
    kit.write_stl_binary(pkg / "body.stl", *kit.box_mesh((0.8, 0.8, 0.4)))
    w = torsion.World()
    w.add_ground(0.0)
    s = w.add_articulated_system(urdf("package://bot/meshes/body.stl", scale="0.5 0.5 0.5"),
                                 res_path=str(tmp_path))
    bodies = s.get_collision_bodies()
    assert [b["shape"] for b in bodies] == ["convex_mesh"]
    # the same robot with a box primitive of the hull's size, side by side in its own world
    wb = torsion.World()
    wb.add_ground(0.0)
    sb = wb.add_articulated_system(urdf("x").replace('<mesh filename="x" scale="1 1 1"/>', '<box size="0.4 0.4 0.2"/>'))
    assert [b["shape"] for b in sb.get_collision_bodies()] == ["box"]
    for robot, world in ((s, w), (sb, wb)):
        gc = robot.get_generalized_coordinate()
        gc[2] = 0.3
        robot.set_generalized_coordinate(gc)
        world.integrate(1500)
    # a 0.4 x 0.4 x 0.2 box: rests about 0.1 above the ground on 4 corners, exactly as the box
    assert s.get_generalized_coordinate()[2] == pytest.approx(sb.get_generalized_coordinate()[2], abs=1e-7)  # float32 STL
    assert s.get_generalized_coordinate()[2] == pytest.approx(0.1, abs=2e-3)
    assert len(s.get_contacts()) == len(sb.get_contacts()) == 4
    hits = w.ray_test([0.15, 0.1, 2.0], [0, 0, -1], 5.0)
    assert hits[0].object == s and hits[0].position[2] == pytest.approx(
        s.get_generalized_coordinate()[2] + 0.1, abs=1e-7)
    # a relative path from the URDF file's directory, with a collision origin
    kit.write_obj(tmp_path / "box.obj", *kit.box_mesh((0.2, 0.2, 0.2)))
    f = tmp_path / "r.urdf"
    f.write_text(urdf("box.obj", origin="0 0 0.5"))
    s2 = w.add_articulated_system(str(f))
    assert s2.get_collision_bodies()[0]["shape"] == "convex_mesh"
    np.testing.assert_allclose(s2.get_collision_bodies()[0]["position"], [0, 0, 0.5])


def test_urdf_bad_meshes_name_the_link_and_file(tmp_path):
    w = torsion.World()
    (tmp_path / "flat.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises(ValueError, match=r"mesh 'flat.obj' of link 'base'.*coplanar"):
        w.add_articulated_system(urdf("flat.obj"), res_path=str(tmp_path))
    with pytest.raises(ValueError, match=r"mesh 'nope.stl' of link 'base'.*cannot open"):
        w.add_articulated_system(urdf("nope.stl"), res_path=str(tmp_path))
    (tmp_path / "x.dae").write_text("<collada/>")
    with pytest.raises(ValueError, match=r"unsupported format '.dae'"):
        w.add_articulated_system(urdf("x.dae"), res_path=str(tmp_path))
    with pytest.raises(ValueError, match=r"scale must be > 0"):
        w.add_articulated_system(urdf("flat.obj", scale="1 0 1"), res_path=str(tmp_path))


def hull_world(points, tmp_path):
    """A world with one kinematic mesh body: the convex hull of `points`, from an OBJ file."""
    v, t, _ = torsion.convex_hull(points)
    path = write_obj(tmp_path / "hull.obj", v, t)
    w = torsion.World()
    return w, w.add_mesh(path, 1.0)


def place(mesh, pos, q):
    """Put the mesh frame's origin at pos with orientation q (the body position is the COM)."""
    r = Rotation.from_quat(np.roll(q, -1))
    mesh.set_orientation(q)
    mesh.set_position(np.asarray(pos) + r.apply(mesh.get_com_offset()))


def test_ray_against_a_hull_is_the_box_answer(tmp_path):
    corners = np.array(np.meshgrid([-0.5, 0.5], [-1, 1], [-0.25, 0.25])).reshape(3, -1).T
    wh, hull = hull_world(corners, tmp_path)
    wb = torsion.World()
    box = wb.add_box(1.0, 2.0, 0.5, 1.0)
    rng = np.random.default_rng(0)
    n_hit = 0
    for _ in range(200):
        rot = Rotation.random(random_state=rng)
        q = np.roll(rot.as_quat(), 1)
        pos = rng.normal(size=3)
        box.set_position(pos)
        box.set_orientation(q)
        place(hull, pos, q)
        start = rng.normal(size=3) * 3
        d = pos + rot.apply(rng.uniform(-0.7, 0.7, size=3) * [1, 2, 0.5]) - start
        hb, hh = wb.ray_test(start, d, 10.0), wh.ray_test(start, d, 10.0)
        assert bool(hb) == bool(hh)
        if hb:
            n_hit += 1
            assert hh[0].distance == pytest.approx(hb[0].distance, abs=1e-12)
            np.testing.assert_allclose(hh[0].normal, hb[0].normal, atol=1e-12)
    assert n_hit > 100
    # from inside: the exit face
    place(hull, np.zeros(3), [1.0, 0, 0, 0])
    h = wh.ray_test([0.1, 0.2, 0.0], [0, 0, 1], 10.0)
    assert h[0].distance == pytest.approx(0.25) and np.allclose(h[0].normal, [0, 0, 1])


def brute_force_ray(v, t, o, d):
    best = None
    for tri in t:
        a, b, c = v[tri]
        e1, e2 = b - a, c - a
        n = np.cross(e1, e2)
        den = n @ d
        if abs(den) < 1e-15:
            continue
        s = (n @ (a - o)) / den
        if s < 0:
            continue
        p = o + s * d
        # barycentric inside test
        m = np.array([e1, e2]).T
        uv, *_ = np.linalg.lstsq(m, p - a, rcond=None)
        if uv[0] >= -1e-12 and uv[1] >= -1e-12 and uv.sum() <= 1 + 1e-12 and (best is None or s < best[0]):
            best = (s, n / np.linalg.norm(n))
    return best


def test_ray_against_a_triangle_mesh_matches_brute_force(tmp_path, kit):
    v, t = kit.icosphere(2, 0.5)
    # a non-convex surface: the sphere with a dent pushed in
    v = v.copy()
    v[v[:, 2] > 0.45] *= [1, 1, 0.2]
    path = kit.write_obj(tmp_path / "dent.obj", v, t)
    w = torsion.World()
    m = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(torsion.BodyType.STATIC)
    assert m.get_collision_mode() == torsion.MeshCollisionMode.ORIGINAL_MESH
    rng = np.random.default_rng(2)
    n_hit = 0
    for _ in range(300):
        o = rng.normal(size=3) * 1.5
        d = rng.uniform(-0.4, 0.4, size=3) - o
        d /= np.linalg.norm(d)
        ref = brute_force_ray(v, t, o, d)
        hits = w.ray_test(o, d, 10.0)
        if ref is None:
            assert not hits
            continue
        n_hit += 1
        assert len(hits) == 1 and hits[0].local_index == 0
        assert hits[0].distance == pytest.approx(ref[0], abs=1e-10)
        np.testing.assert_allclose(hits[0].normal, ref[1], atol=1e-9)
    assert n_hit > 200
    # batched rays give the same answers bit for bit
    starts = rng.normal(size=(64, 3)) * 1.5
    dirs = -starts
    batch = w.ray_test_batch(starts, dirs, np.full(64, 10.0))
    for k in range(64):
        single = w.ray_test(starts[k], dirs[k], 10.0)
        assert batch.hit[k] == bool(single)
        if single:
            assert batch.distance[k] == single[0].distance
