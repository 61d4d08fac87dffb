"""The scene model alone: CoppeliaSim's rotation conventions checked against SciPy, paths,
hierarchy, relative poses, dynamics reset, sensor geometry and force sensors against statics."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import torsion
from torsion import simx
from torsion.simx import scene as S


def test_euler_is_intrinsic_xyz_as_scipy():
    rng = np.random.default_rng(1)
    for _ in range(200):
        e = rng.uniform([-math.pi, -math.pi / 2, -math.pi], [math.pi, math.pi / 2, math.pi])
        r = S.euler_to_matrix(e)
        assert r == pytest.approx(Rotation.from_euler("XYZ", e).as_matrix(), abs=1e-12)
        assert S.matrix_to_euler(r) == pytest.approx(e.tolist(), abs=1e-9)
    # gimbal lock: beta = pi/2 still reproduces the rotation
    r = S.euler_to_matrix([0.3, math.pi / 2, 0.2])
    assert S.euler_to_matrix(S.matrix_to_euler(r)) == pytest.approx(r, abs=1e-12)


def test_quaternion_xyzw_as_scipy():
    rng = np.random.default_rng(2)
    for q in Rotation.random(200, random_state=3).as_quat():  # scipy: (x, y, z, w)
        q = q if q[3] >= 0 else -q
        r = S.quat_xyzw_to_matrix(q)
        assert r == pytest.approx(Rotation.from_quat(q).as_matrix(), abs=1e-12)
        assert S.matrix_to_quat_xyzw(r) == pytest.approx(q.tolist(), abs=1e-12)
    with pytest.raises(ValueError):
        S.quat_xyzw_to_matrix([0, 0, 0, 0])
    del rng


def scene_with_robot(name="arm7"):
    w = torsion.World()
    r = w.add_articulated_system(torsion.robots.urdf_path(name))
    r.set_name("iiwa")
    return w, r, simx.Scene(w)


def test_robot_paths_and_hierarchy():
    w, r, sc = scene_with_robot()
    j2 = sc.find("/iiwa/joint_2")
    assert j2.kind == "joint" and j2.object_type == 1
    assert sc.find("/iiwa/lbr" if False else "/iiwa/link_7").kind == "link"
    assert sc.find("/iiwa/tool_joint").object_type == simx.constants.OBJECT_FORCESENSOR
    # every node's full path resolves back to it
    for h in sc.handles():
        assert sc.find(sc.path_of(sc.node(h))).handle == h
    # joint frames are fixed to the parent link; the child link turns with the joint
    gc = r.get_generalized_coordinate()
    before = sc.get_T(j2.handle, -1)
    gc[1] = 0.7
    r.set_generalized_coordinate(gc)
    assert sc.get_T(j2.handle, -1) == pytest.approx(before)
    link = sc.find("/iiwa/link_2")
    rel = sc.get_T(link.handle, j2.handle)
    assert rel[:3, :3] == pytest.approx(Rotation.from_rotvec([0, 0.7, 0]).as_matrix(), abs=1e-12)  # axis y
    assert sc.get_T(link.handle, -1) == pytest.approx(
        S.make_T(r.get_frame_position("joint_2"), r.get_frame_orientation("joint_2")))


def test_duplicate_aliases_take_an_index():
    w = torsion.World()
    for x in range(3):
        s = w.add_sphere(0.1, 1.0)
        s.set_name("ball")
        s.set_position(x, 0, 1)
    sc = simx.Scene(w)
    assert sc.get_T(sc.find("/ball[2]").handle, -1)[0, 3] == 2.0
    assert sc.path_of(sc.find("/ball[1]")) == "/ball[1]"
    with pytest.raises(ValueError):
        sc.find("/ball[3]")
    with pytest.raises(ValueError):
        sc.find("/ball]")
    # objects added to the world directly appear; removed ones disappear
    w.add_box(1, 1, 1, 1).set_name("late")
    h = sc.find("/late").handle
    w.remove_object(w.get_object("late"))
    with pytest.raises(ValueError):
        sc.node(h)


def test_relative_poses():
    w = torsion.World()
    a = w.add_box(1, 1, 1, 1)
    a.set_name("a")
    a.set_position(1, 2, 3)
    a.set_orientation(Rotation.from_euler("z", 0.5).as_quat(scalar_first=True))
    sc = simx.Scene(w)
    ha = sc.find("/a").handle
    d = sc.add_dummy(parent=ha, pose=[0.5, 0, 0, 0, 0, 0, 1])
    t = sc.get_T(d, -1)
    assert t[:3, 3] == pytest.approx([1 + 0.5 * math.cos(0.5), 2 + 0.5 * math.sin(0.5), 3])
    assert sc.get_T(d, simx.constants.HANDLE_PARENT)[:3, 3] == pytest.approx([0.5, 0, 0])
    assert sc.get_T(d, ha) == pytest.approx(np.linalg.inv(sc.get_T(ha, -1)) @ t)
    # a dummy moves with its parent
    a.set_position(0, 0, 0)
    assert sc.get_T(d, -1)[:3, 3] == pytest.approx([0.5 * math.cos(0.5), 0.5 * math.sin(0.5), 0])


def test_setting_a_floating_robot_pose_resets_its_dynamics():
    w, r, sc = scene_with_robot("quadruped")
    root = sc.roots()[0]
    gv = r.get_generalized_velocity()
    gv[:] = 0.3
    r.set_generalized_velocity(gv)
    q = Rotation.from_euler("z", 0.4).as_quat()
    sc.set_T(root.handle, -1, S.make_T([1, 2, 0.5], Rotation.from_quat(q).as_matrix()))
    assert sc.get_T(root.handle, -1)[:3, 3] == pytest.approx([1, 2, 0.5])
    assert np.all(r.get_generalized_velocity() == 0.0)
    w2, r2, sc2 = scene_with_robot("arm7")
    with pytest.raises(ValueError, match="fixed-base"):
        sc2.set_T(sc2.roots()[0].handle, -1, np.eye(4))


def test_vision_sensor_image_orientation():
    """CoppeliaSim's vision sensor looks along +Z with +Y up and +X to the left; its images are
    stored bottom row first."""
    w = torsion.World()
    s = w.add_sphere(0.2, 1.0)
    s.set_position(0.5, 0.5, 0.0)  # sensor-left and up
    sc = simx.Scene(w)
    h = sc.add_vision_sensor(pose=[0, 0, -3, 0, 0, 0, 1], resolution=(8, 8), angle=1.0)
    _, _, handles = sc.render(h)
    rows, cols = np.nonzero(handles >= 0)
    assert rows.size and np.all(rows >= 4) and np.all(cols < 4)
    state, d, p = sc.check_vision(h, "sim.handle_all")
    assert state == 1 and p[0] > 0 and p[1] > 0
    # the seen point lies on the sphere
    assert np.linalg.norm(np.array([p[0], p[1], p[2] - 3.0]) - [0.5, 0.5, 0.0]) == pytest.approx(0.2, abs=1e-6)


def test_cone_proximity_sees_what_a_ray_misses():
    w = torsion.World()
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_position(0.3, 0, 0)
    sc = simx.Scene(w)
    up = [0, 0, -1, 0, 0, 0, 1]  # at z -1, looking along +z
    ray = sc.add_proximity_sensor(pose=up, kind="ray", range=2.0)
    cone = sc.add_proximity_sensor(pose=up, kind="cone", range=2.0, angle=0.8, rays=16, rings=4)
    assert sc.read_proximity(ray)[0] == 0
    state, dist, point, handle, normal = sc.read_proximity(cone)
    assert state == 1 and handle == sc.find("/Box").handle
    assert point[2] == pytest.approx(0.9)  # the box's bottom face, 0.9 above the sensor
    assert normal == pytest.approx([0, 0, -1])
    with pytest.raises(ValueError):
        sc.add_proximity_sensor(kind="pyramid")


def test_force_sensor_matches_statics():
    """An arm held still by its joint controllers: the base force sensor carries the weight and
    the moment of the weight about its origin; a joint carries the links beyond it."""
    w, r, sc = scene_with_robot()
    with simx.RemoteApiClient(sc) as c:
        S_ = c.simxServiceCall()
        for j, q in zip(range(2, 8), [0.6, -0.3, 0.8, 0.2, 0.5, 0.1]):
            h = c.simxGetObjectHandle(f"/iiwa/joint_{j}", S_)[1]
            c.simxSetJointPosition(h, q, S_)
            c.simxSetJointTargetPosition(h, q, S_)
        base = c.simxGetObjectHandle("/iiwa/world_joint", S_)[1]
        c.simxReadForceSensor(base, S_)  # starts measuring
        j4 = c.simxGetObjectHandle("/iiwa/joint_4", S_)[1]
        c.simxSynchronous(True)
        c.simxStartSimulation(S_)
        c.simxSynchronousTrigger(800)
        ok, state, f, t = c.simxReadForceSensor(base, S_)
        assert ok and state == 1
        m = r.get_total_mass()
        g = np.array([0, 0, -9.81])
        assert f == pytest.approx([0, 0, m * 9.81], rel=1e-3, abs=1e-2)
        p = sc.get_T(base, -1)[:3, 3]
        assert t == pytest.approx(np.cross(r.get_composite_com() - p, -m * g), rel=1e-3, abs=1e-2)
        # joint 4: the weight of links 4..7 in the joint's frame, moment about its origin
        ok, state, f4, t4 = c.simxReadForceSensor(j4, S_)
        masses = r.get_masses()
        coms = r.get_body_coms_w()
        tj = sc.get_T(j4, -1)
        sub = range(4, 8)
        fw = -sum(masses[b] for b in sub) * g
        tw = sum(np.cross(coms[b] - tj[:3, 3], -masses[b] * g) for b in sub)
        assert f4 == pytest.approx(tj[:3, :3].T @ fw, rel=1e-3, abs=1e-2)
        assert t4 == pytest.approx(tj[:3, :3].T @ tw, rel=1e-3, abs=1e-2)


def test_distance_to_a_mesh_body(tmp_path):
    """A unit-cube OBJ mesh (its file frame offset from its centre) against a sphere."""
    obj = tmp_path / "cube.obj"
    verts = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    faces = [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)]
    obj.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in verts)
                   + "".join(f"f {a} {b} {c}\nf {a} {c} {d}\n" for a, b, c, d in faces))
    w = torsion.World()
    m = w.add_mesh(str(obj), 1.0)
    m.set_name("cube")
    m.set_position(0, 0, 0)  # its centre of mass (the cube's centre) at the origin
    s = w.add_sphere(0.25, 1.0)
    s.set_name("ball")
    s.set_position(2.0, 0.0, 0.0)
    sc = simx.Scene(w)
    flag, d, p1, p2 = sc.check_distance(sc.find("/cube").handle, sc.find("/ball").handle, 0)
    assert flag == 1 and d == pytest.approx(2.0 - 0.5 - 0.25, abs=1e-6)
    assert p1 == pytest.approx([0.5, 0, 0], abs=1e-6) and p2 == pytest.approx([1.75, 0, 0], abs=1e-6)
    s.set_position(0.7, 0.0, 0.0)
    assert sc.check_collision(sc.find("/ball").handle, "sim.handle_all") is True


def test_removing_a_parent_keeps_its_other_children():
    w = torsion.World()
    a = w.add_box(1, 1, 1, 1)
    a.set_name("a")
    b = w.add_sphere(0.1, 1)
    b.set_name("b")
    sc = simx.Scene(w)
    ha, hb = sc.find("/a").handle, sc.find("/b").handle
    d = sc.add_dummy(parent=ha, pose=[0, 0, 2, 0, 0, 0, 1])
    sc.set_parent(hb, ha, True)
    assert sc.find("/a/b").handle == hb
    sc.remove([ha], 0)
    assert sc.node(hb).parent is None and sc.find("/b").handle == hb  # same handle, now parentless
    assert sc.node(d).parent is None and sc.get_T(d, -1)[:3, 3] == pytest.approx([0, 0, 2])


def test_remove_a_model_with_what_hangs_below():
    w = torsion.World()
    a = w.add_box(1, 1, 1, 1)
    a.set_name("a")
    b = w.add_sphere(0.1, 1)
    b.set_name("b")
    w.add_articulated_system(torsion.robots.urdf_path("arm7")).set_name("iiwa")
    sc = simx.Scene(w)
    ha, hb = sc.find("/a").handle, sc.find("/b").handle
    sc.set_parent(hb, ha, True)
    d = sc.add_dummy(parent=hb)
    assert sc.remove([ha], 0) == 1 and sc.node(hb).parent is None  # alone: the rest stays
    sc.set_parent(hb, sc.find("/iiwa/link_7").handle, True)
    assert sc.remove([sc.find("/iiwa").handle], 1) == 17 + 2  # robot (17 nodes), the sphere and its dummy
    assert w.get_object_count() == 0 and sc.handles() == []
    with pytest.raises(ValueError):
        sc.node(d)


def test_depth_is_along_the_view_axis():
    """Looking straight down from 2 m at flat ground, every pixel's depth is 2 m (z-depth, not
    the ray length); normalised, (2 - near) / (far - near)."""
    w = torsion.World()
    w.add_ground()
    sc = simx.Scene(w)
    h = sc.add_vision_sensor(pose=[0.3, -0.2, 2.0, 1, 0, 0, 0], resolution=(33, 17), near=0.5, far=4.5, angle=1.2)
    res, d = sc.vision_depth(h, True)
    assert res == [33, 17] and d.shape == (33 * 17,)
    assert d == pytest.approx(np.full(d.shape, 2.0), abs=1e-6)
    _, d01 = sc.vision_depth(h, False)
    assert d01 == pytest.approx(np.full(d.shape, (2.0 - 0.5) / 4.0), abs=1e-6)
    # tilted 0.3 rad about the sensor's x axis: depth along the axis at the image centre row
    sc.set_T(h, -1, S.make_T([0, 0, 2.0], Rotation.from_euler("x", math.pi + 0.3).as_matrix()))
    res, d = sc.vision_depth(h, True)
    img = d.reshape(17, 33)
    assert img[8, 16] == pytest.approx(2.0 / math.cos(0.3), rel=1e-6)
