"""The viewer's scene description, without a browser: every object kind, poses after steps,
additions and removals. Poses and shapes are checked against torsion's own independent readers
(get_ray_cast_bodies, get_body_coms_w, the height map's get_height) and rotations against SciPy."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import torsion
from torsion.viewer.scene import Scene, matrix_to_quat, quat_to_matrix, height_map_mesh

from ..meshes import box_mesh, write_obj


def _quadruped(world, z=0.6):
    robot = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    robot.set_name("quadruped")
    gc = robot.get_generalized_coordinate()
    gc[2] = z
    gc[3:7] = [0.95, 0.1, -0.2, 0.15]
    gc[7:] = torsion.robots.QUADRUPED_STAND
    robot.set_generalized_coordinate(gc)
    return robot


def _every_kind(tmp_path, with_mesh=True):
    w = torsion.World()
    w.add_ground(0.0)
    s = w.add_sphere(0.2, 1.0)
    s.set_position([0, 0, 2])
    b = w.add_box(0.3, 0.4, 0.5, 1.0)
    b.set_position([1, 0, 2])
    b.set_orientation([0.9, 0.3, 0.1, -0.2])
    c = w.add_cylinder(0.15, 0.6, 1.0)
    c.set_position([2, 0, 2])
    k = w.add_capsule(0.1, 0.4, 1.0)
    k.set_position([3, 0, 2])
    k.set_orientation([0.8, -0.1, 0.5, 0.2])
    props = torsion.TerrainProperties()
    props.x_samples, props.y_samples, props.x_size, props.y_size, props.z_scale = 20, 15, 4.0, 3.0, 0.3
    h = w.add_height_map(8.0, 0.0, props)
    v, f = box_mesh((0.4, 0.2, 0.3), centre=(0.05, 0.0, 0.0))
    path = tmp_path / "box.obj"
    write_obj(path, v, f)
    m = None
    if with_mesh:
        m = w.add_mesh(str(path), 1.0, collision_mode=torsion.MeshCollisionMode.CONVEX_HULL)
        m.set_position([4, 0, 2])
    C = torsion.CompoundObjectChild
    cp = w.add_compound([C(torsion.ObjectType.SPHERE, [0.1], [0, 0, 0.2]),
                         C(torsion.ObjectType.BOX, [0.1, 0.2, 0.3], [0, 0, -0.2], [0.9, 0.1, 0, 0]),
                         C(torsion.ObjectType.CAPSULE, [0.05, 0.2], [0.2, 0, 0])], 1.0)
    cp.set_position([5, 0, 2])
    r = _quadruped(w)
    return w, dict(sphere=s, box=b, cylinder=c, capsule=k, heightmap=h, mesh=m, compound=cp, robot=r)


def test_rotation_helpers_agree_with_scipy():
    rng = np.random.default_rng(3)
    q = rng.normal(size=(200, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    sp = Rotation.from_quat(q[:, [1, 2, 3, 0]])  # scipy: (x, y, z, w)
    np.testing.assert_allclose(quat_to_matrix(q), sp.as_matrix(), atol=1e-12)
    back = matrix_to_quat(sp.as_matrix())
    q_pos = q * np.sign(q[:, :1])
    np.testing.assert_allclose(back, q_pos, atol=1e-12)
    # near-180 degree rotations (trace close to -1) take the other branches
    for axis in np.eye(3):
        r = Rotation.from_rotvec(axis * (np.pi - 1e-9)).as_matrix()
        np.testing.assert_allclose(quat_to_matrix(matrix_to_quat(r)), r, atol=1e-12)


def test_every_object_kind_is_described(tmp_path):
    w, o = _every_kind(tmp_path)
    scene = Scene(w)
    mesh_geoms = [g for g in scene.geoms if g.kind == "mesh"]
    assert {g.layer for g in mesh_geoms} == {"visual", "collision"}
    # a compound is drawn beside a mesh, child by child in both layers
    comp_layers = {g.layer for g in scene.geoms if g.name.startswith(scene.objects[o["compound"].get_id()].name + "/")}
    assert comp_layers == {"visual", "collision"}
    w.remove_object(o["mesh"])
    scene.sync()
    kinds = {e.kind for e in scene.objects.values()}
    assert kinds == {"ground", "sphere", "box", "cylinder", "capsule", "heightmap", "compound", "articulated_system"}
    by_name = {g.name: g for g in scene.geoms}
    names = [e.name for e in scene.objects.values()]
    assert len(set(names)) == len(names) and "quadruped" in names
    # sizes are the objects' own
    sph = by_name[f"{scene.objects[o['sphere'].get_id()].name}/visual"]
    assert sph.kind == "sphere" and np.allclose(sph.scale, 0.2)
    box = by_name[f"{scene.objects[o['box'].get_id()].name}/visual"]
    assert np.allclose(box.scale, o["box"].get_dim())
    cyl = by_name[f"{scene.objects[o['cylinder'].get_id()].name}/visual"]
    assert np.allclose(cyl.scale, [0.15, 0.15, 0.6])
    cap = by_name[f"{scene.objects[o['capsule'].get_id()].name}/visual"]
    v, _ = scene.templates[cap.template]
    assert np.isclose(v[:, 2].max(), 0.1 + 0.2) and np.isclose(np.hypot(v[:, 0], v[:, 1]).max(), 0.1, rtol=1e-6)
    # the robot: one visual per get_visual_bodies entry with its colour, one collision per primitive
    robot = o["robot"]
    rv = [g for g in scene.geoms if g.name.startswith("quadruped/visual/")]
    rc = [g for g in scene.geoms if g.name.startswith("quadruped/collision/")]
    assert len(rv) == len(robot.get_visual_bodies()) and len(rc) == len(robot.get_collision_bodies())
    assert {tuple(np.round(g.rgba, 6)) for g in rv} == {tuple(np.round(vb["rgba"], 6)) for vb in robot.get_visual_bodies()}
    assert [b.name for b in scene.bodies if b.object_id == robot.get_id()] == [f"quadruped/{n}" for n in robot.get_body_names()]
    # the compound's three children, with sizes
    comp = [g for g in scene.geoms if g.name.startswith(scene.objects[o["compound"].get_id()].name + "/visual/")]
    assert [g.kind for g in comp] == ["sphere", "box", "capsule"]
    assert np.allclose(comp[1].scale, [0.1, 0.2, 0.3])
    # the robot's movable joints, with limits, for the GUI sliders
    joints = scene.objects[robot.get_id()].joints
    assert [j["name"] for j in joints] == robot.get_movable_joint_names()[1:]


def test_collision_layer_matches_ray_cast_bodies_after_steps(tmp_path):
    """Every collision geom's world pose equals the pose torsion's ray caster uses for that body,
    after the world has moved (a different reader of the same state)."""
    w, o = _every_kind(tmp_path, with_mesh=False)
    w.integrate(150)
    scene = Scene(w)
    poses = scene.batch_poses()
    got = {}
    for bt, (pos, quat) in zip(scene.batches, poses):
        if bt.layer != "collision":
            continue
        for gi, p, q in zip(bt.geoms, pos, quat):
            got.setdefault(scene.bodies[scene.geoms[gi].body].object_id, []).append((p, quat_to_matrix(q)))
    checked = 0
    for rb in w.get_ray_cast_bodies():
        if rb["shape"] in ("ground", "height_map"):
            continue
        cands = got[rb["object_id"]]
        err = min(np.linalg.norm(p - rb["position"]) + np.abs(r - rb["rotation"]).max() for p, r in cands)
        assert err < 1e-9, rb
        checked += 1
    assert checked == 4 + 3 + len(o["robot"].get_collision_bodies())


def test_robot_body_poses_after_steps():
    w = torsion.World()
    w.add_ground()
    robot = _quadruped(w, z=0.4)
    w.integrate(300)
    scene = Scene(w)
    p, r = scene.body_poses()
    rows = [i for i, b in enumerate(scene.bodies) if b.object_id == robot.get_id()]
    coms = p[rows] + np.einsum("nij,nj->ni", r[rows], robot.get_body_coms_b())
    np.testing.assert_allclose(coms, robot.get_body_coms_w(), atol=1e-12)
    gc = robot.get_generalized_coordinate()
    np.testing.assert_allclose(p[rows[0]], gc[:3], atol=1e-12)
    np.testing.assert_allclose(matrix_to_quat(r[rows[0]]), gc[3:7] * np.sign(gc[3]), atol=1e-12)


def test_single_body_poses_follow_the_simulation():
    w = torsion.World()
    balls = [w.add_sphere(0.1, 1.0) for _ in range(5)]
    for i, b in enumerate(balls):
        b.set_position([i, 0, 1])
        b.set_angular_velocity([0, 1.0 + i, 0])
    scene = Scene(w)
    w.integrate(100)
    (pos, quat), = [pq for bt, pq in zip(scene.batches, scene.batch_poses()) if bt.layer == "visual"]
    for b, p, q in zip(balls, pos, quat):
        np.testing.assert_allclose(p, b.get_position(), atol=1e-15)
        np.testing.assert_allclose(q, b.get_quaternion() * np.sign(b.get_quaternion()[0]), atol=1e-12)
    assert abs((1.0 - pos[0, 2]) - 0.5 * 9.81 * 0.1**2) < 1e-3  # it fell g t^2 / 2 in 0.1 s


def test_mesh_visual_vertices_are_where_rays_hit(tmp_path):
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    v, f = box_mesh((0.4, 0.2, 0.3), centre=(0.05, 0.0, 0.1))
    path = tmp_path / "m.obj"
    write_obj(path, v, f)
    m = w.add_mesh(str(path), 1.0, collision_mode=torsion.MeshCollisionMode.CONVEX_HULL)
    m.set_position([0.3, -0.2, 1.0])
    m.set_orientation([0.9, 0.2, 0.3, 0.1])
    scene = Scene(w)
    (bt, (pos, quat)), = [(bt, pq) for bt, pq in zip(scene.batches, scene.batch_poses()) if bt.layer == "visual"]
    tv, _ = scene.templates[bt.template]
    world_v = pos[0] + (quat_to_matrix(quat[0]) @ (tv.astype(float) * bt.scales[0]).T).T
    tri = world_v[scene.templates[bt.template][1].astype(int)]
    # rays down onto the drawn triangles (Moller-Trumbore) and onto torsion's collision mesh
    rng = np.random.default_rng(1)
    for x, y in rng.uniform(-0.1, 0.1, size=(20, 2)) + [0.3, -0.2]:
        o, d = np.array([x, y, 3.0]), np.array([0.0, 0.0, -1.0])
        e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
        pv = np.cross(d, e2)
        det = np.einsum("ij,ij->i", e1, pv)
        tv = o - tri[:, 0]
        u = np.einsum("ij,ij->i", tv, pv) / det
        qv = np.cross(tv, e1)
        vv = (qv @ d) / det
        t = np.einsum("ij,ij->i", e2, qv) / det
        ok = (u >= 0) & (vv >= 0) & (u + vv <= 1) & (t > 0)
        hits = w.ray_test(o, d, 5.0)
        assert ok.any() == bool(hits)
        if hits:
            assert abs(t[ok].min() - hits[0].distance) < 1e-6  # templates are float32


def test_height_map_mesh_matches_get_height():
    w = torsion.World()
    props = torsion.TerrainProperties()
    props.x_samples, props.y_samples, props.x_size, props.y_size = 30, 20, 6.0, 4.0
    hm = w.add_height_map(1.0, -2.0, props)
    v, t = height_map_mesh(hm.get_height_map(), 6.0, 4.0, 1.0, -2.0)
    rng = np.random.default_rng(0)
    for tri in t[rng.choice(len(t), 50, replace=False)]:
        a, b, c = v[tri]
        bary = rng.dirichlet([1, 1, 1])
        p = bary @ np.array([a, b, c])
        assert abs(hm.get_height(p[0], p[1]) - p[2]) < 1e-9
    # a hole removes its triangles
    h = np.zeros((4, 5))
    h[1, 2] = np.nan
    _, t2 = height_map_mesh(h, 1.0, 1.0, 0.0, 0.0)
    assert len(t2) == 2 * 4 * 3 - 6


def test_additions_and_removals_are_detected():
    w = torsion.World()
    a = w.add_box(0.1, 0.1, 0.1, 1.0)
    scene = Scene(w)
    assert scene.sync() == ([], [])
    b = w.add_sphere(0.1, 1.0)
    r = _quadruped(w)
    added, removed = scene.sync()
    assert added == [b.get_id(), r.get_id()] and removed == []
    assert len(scene.bodies) == 2 + len(r.get_body_names())
    aid = a.get_id()
    w.remove_object(a)
    added, removed = scene.sync()
    assert added == [] and removed == [aid]
    assert aid not in scene.objects and all(bd.object_id != aid for bd in scene.bodies)
    scene.body_poses()  # no stale handle left


def test_unknown_body_and_bad_world():
    w = torsion.World()
    w.add_sphere(0.1, 1.0).set_name("ball")
    scene = Scene(w)
    assert scene.body_index("ball") == 0
    with pytest.raises(ValueError, match="no body named 'nope'.*ball"):
        scene.body_index("nope")
    with pytest.raises(TypeError, match="torsion.World"):
        Scene("world.xml")


def test_robot_visuals_come_from_the_binding():
    """Robots are drawn from get_visual_shapes() when the binding has it (robot files issue), else
    from get_visual_bodies(): whichever is live, the scene's visual geoms are its entries."""
    w = torsion.World()
    robot = _quadruped(w)
    scene = Scene(w)
    getter = getattr(robot, "get_visual_shapes", None)
    entries = list(getter()) if getter is not None else robot.get_visual_bodies()
    if getter is not None and not all(isinstance(v, dict) and {"body", "kind", "size", "position", "rotation"} <= v.keys()
                                      for v in entries):
        entries = robot.get_visual_bodies()
    geoms = [g for g in scene.geoms if g.name.startswith("quadruped/visual/")]
    assert len(geoms) == len(entries) > 0
    for g, e in zip(geoms, entries):
        assert g.kind == e["kind"]
        np.testing.assert_allclose(g.position, e["position"])
        np.testing.assert_allclose(g.rotation, e["rotation"])
        assert scene.bodies[g.body].local_index == int(e["body"])


def test_robot_visual_mesh_and_unreadable_mesh(tmp_path):
    v, f = box_mesh((0.2, 0.4, 0.1))
    write_obj(tmp_path / "box.obj", v, f)
    inertial = ('<inertial><mass value="2"/><inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" '
                'iyz="0"/></inertial>')

    def urdf(mesh):
        return (f'<?xml version="1.0"?><robot name="r"><link name="base">{inertial}<visual><origin xyz="0 0 0.1"/>'
                f'<geometry><mesh filename="{mesh}" scale="2 1 1"/></geometry>'
                '<material name="m"><color rgba="0.1 0.9 0.2 1"/></material></visual>'
                '<collision><geometry><box size="0.2 0.4 0.1"/></geometry></collision></link></robot>')

    (tmp_path / "r.urdf").write_text(urdf("box.obj"))
    w = torsion.World()
    w.add_articulated_system(str(tmp_path / "r.urdf"))
    scene = Scene(w)
    (g,) = [g for g in scene.geoms if g.layer == "visual"]
    assert g.kind == "mesh" and g.rgba == (0.1, 0.9, 0.2, 1.0)
    tv = scene.templates[g.template][0] * g.scale
    np.testing.assert_allclose(tv.max(axis=0) - tv.min(axis=0), [0.4, 0.4, 0.1], rtol=1e-6)
    np.testing.assert_allclose(g.position, [0, 0, 0.1])
    # the mesh file disappears: that shape is left out, with a warning naming it
    (tmp_path / "box.obj").unlink()
    w2 = torsion.World()
    w2.add_articulated_system(str(tmp_path / "r.urdf"))
    with pytest.warns(RuntimeWarning, match="visual/base/0 is not drawn"):
        scene2 = Scene(w2)
    assert [g.layer for g in scene2.geoms] == ["collision"]
