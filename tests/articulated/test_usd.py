"""USD Physics articulations (World.add_usd_articulated_system, World("x.usda")): a stage written
with usd-core from the bundled arm7's URDF description loads with the same dof, masses, M(q) and
joint limits as that URDF (to 1e-9); its drives become torsion's PD and hold a pose exactly as the
URDF robot under the same gains does; a floating base, spherical joints and mesh shapes load;
stages torsion cannot simulate are refused naming the prim."""

from __future__ import annotations

import math
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import torsion

pxr = pytest.importorskip("pxr")
from pxr import Gf, Usd, UsdGeom, UsdPhysics  # noqa: E402



def arm7_path():
    import importlib.resources
    return str(importlib.resources.files("torsion.robots") / "arm7.urdf")


def f32(x):
    """the double a USD float attribute stores for x"""
    return float(np.float32(x))


def nums(text, n=3):
    v = [float(t) for t in (text or "").split()] or [0.0] * n
    return v


def bisector_rotation(axis):
    """an exact rotation taking X to a unit axis (+-x, +-y, +-z): 180 degrees about the bisector
    of X and the axis, whose quaternion (0, n) has equal components that survive float32"""
    a = np.asarray(axis, float)
    if np.allclose(a, [1, 0, 0]):
        return np.eye(3), Gf.Quatf(1.0, 0.0, 0.0, 0.0)
    n = np.array([1.0, 0.0, 0.0]) + a
    n /= np.linalg.norm(n)
    r = 2.0 * np.outer(n, n) - np.eye(3)
    return r, Gf.Quatf(0.0, Gf.Vec3f(*[float(x) for x in n]))


def read_urdf(path):
    root = ET.parse(path).getroot()
    links = {}
    for link in root.findall("link"):
        inertial = link.find("inertial")
        info = {"mass": 0.0, "com": [0.0] * 3, "inertia": [0.0] * 3, "shapes": []}
        if inertial is not None:
            o = inertial.find("origin")
            assert o is None or nums(o.get("rpy")) == [0.0, 0.0, 0.0]
            info["com"] = [f32(x) for x in nums(o.get("xyz") if o is not None else None)]
            info["mass"] = f32(float(inertial.find("mass").get("value")))
            i = inertial.find("inertia")
            assert all(float(i.get(k)) == 0.0 for k in ("ixy", "ixz", "iyz"))
            info["inertia"] = [f32(float(i.get(k))) for k in ("ixx", "iyy", "izz")]
        for c in link.findall("collision"):
            o = c.find("origin")
            g = list(c.find("geometry"))[0]
            info["shapes"].append((g.tag, {k: f32(float(v.split()[0])) if k != "size" else
                                           [f32(x) for x in nums(v)] for k, v in g.attrib.items()},
                                   [f32(x) for x in nums(o.get("xyz") if o is not None else None)]))
        links[link.get("name")] = info
    joints = []
    for j in root.findall("joint"):
        o = j.find("origin")
        rpy = nums(o.get("rpy") if o is not None else None)
        # the rotation as USD stores it (a float32 quaternion), and its rpy for the URDF
        xyzw = Rotation.from_euler("xyz", rpy).as_quat()
        quat = Gf.Quatf(float(xyzw[3]), float(xyzw[0]), float(xyzw[1]), float(xyzw[2]))
        stored = [quat.GetImaginary()[0], quat.GetImaginary()[1], quat.GetImaginary()[2], quat.GetReal()]
        lim = j.find("limit")
        joints.append({
            "name": j.get("name"), "type": j.get("type"),
            "parent": j.find("parent").get("link"), "child": j.find("child").get("link"),
            "xyz": [f32(x) for x in nums(o.get("xyz") if o is not None else None)],
            "quat": quat, "rpy": [float(x) for x in Rotation.from_quat(stored).as_euler("xyz")],
            "axis": nums(j.find("axis").get("xyz")) if j.find("axis") is not None else [1, 0, 0],
            "limits": (f32(math.degrees(float(lim.get("lower")))), f32(math.degrees(float(lim.get("upper")))))
            if lim is not None and lim.get("lower") is not None else None,
        })
    return links, joints


def urdf_from(links, joints):
    """the URDF of the description with every number as the USD stores it (float32)"""
    out = ['<robot name="arm7f">']
    for name, info in links.items():
        out.append(f'<link name="{name}">')
        if info["mass"] > 0:
            ix, iy, iz = info["inertia"]
            out.append(f'<inertial><origin xyz="{" ".join(map(repr, info["com"]))}"/>'
                       f'<mass value="{info["mass"]!r}"/><inertia ixx="{ix!r}" iyy="{iy!r}" '
                       f'izz="{iz!r}" ixy="0" ixz="0" iyz="0"/></inertial>')
        for tag, attrs, xyz in info["shapes"]:
            a = " ".join(f'{k}="{" ".join(map(repr, v)) if isinstance(v, list) else repr(v)}"'
                         for k, v in attrs.items())
            out.append(f'<collision><origin xyz="{" ".join(map(repr, xyz))}"/><geometry>'
                       f'<{tag} {a}/></geometry></collision>')
        out.append("</link>")
    for j in joints:
        out.append(f'<joint name="{j["name"]}" type="{j["type"]}"><parent link="{j["parent"]}"/>'
                   f'<child link="{j["child"]}"/><origin xyz="{" ".join(map(repr, j["xyz"]))}" '
                   f'rpy="{" ".join(map(repr, j["rpy"]))}"/>')
        if j["type"] != "fixed":
            out.append(f'<axis xyz="{" ".join(map(repr, j["axis"]))}"/>')
        if j["limits"]:
            lo, hi = (math.radians(x) for x in j["limits"])
            out.append(f'<limit lower="{lo!r}" upper="{hi!r}" effort="1000" velocity="10"/>')
        out.append("</joint>")
    out.append("</robot>")
    return "".join(out)


def write_usd(path, links, joints, drives=None):
    """a UsdPhysics articulation of the description: bodies flat under /arm, a fixed joint from
    the world, revolute joints about X with the joint frame turned onto the URDF axis in both
    bodies, boxes as unit cubes scaled per axis"""
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdPhysics.Scene.Define(stage, "/physics")
    arm = UsdGeom.Xform.Define(stage, "/arm")
    UsdPhysics.ArticulationRootAPI.Apply(arm.GetPrim())
    # body placements at q = 0 (the joints' translations; rotations only where nothing follows)
    place = {"world": np.zeros(3)}
    for j in joints:
        place[j["child"]] = place[j["parent"]] + np.array(j["xyz"])
        assert j["rpy"] == [0.0, 0.0, 0.0] or not any(k["parent"] == j["child"] for k in joints)
    for name, info in links.items():
        if name == "world":
            continue
        body = UsdGeom.Xform.Define(stage, f"/arm/{name}")
        body.AddTranslateOp().Set(Gf.Vec3d(*place[name]))
        UsdPhysics.RigidBodyAPI.Apply(body.GetPrim())
        mass = UsdPhysics.MassAPI.Apply(body.GetPrim())
        mass.CreateMassAttr(info["mass"])
        mass.CreateCenterOfMassAttr(Gf.Vec3f(*info["com"]))
        mass.CreateDiagonalInertiaAttr(Gf.Vec3f(*info["inertia"]))
        mass.CreatePrincipalAxesAttr(Gf.Quatf(1.0, 0.0, 0.0, 0.0))
        for k, (tag, attrs, xyz) in enumerate(info["shapes"]):
            p = f"/arm/{name}/c{k}"
            if tag == "box":
                g = UsdGeom.Cube.Define(stage, p)
                g.CreateSizeAttr(1.0)
            elif tag == "sphere":
                g = UsdGeom.Sphere.Define(stage, p)
                g.CreateRadiusAttr(attrs["radius"])
            else:
                g = (UsdGeom.Cylinder if tag == "cylinder" else UsdGeom.Capsule).Define(stage, p)
                g.CreateRadiusAttr(attrs["radius"])
                g.CreateHeightAttr(attrs["length"])
                g.CreateAxisAttr("Z")
            g.AddTranslateOp().Set(Gf.Vec3d(*xyz))
            if tag == "box":
                g.AddScaleOp().Set(Gf.Vec3f(*attrs["size"]))
            UsdPhysics.CollisionAPI.Apply(g.GetPrim())
    for j in joints:
        p = f"/arm/{j['name']}"
        if j["type"] == "fixed":
            joint = UsdPhysics.FixedJoint.Define(stage, p)
            rot0, rot1 = j["quat"], Gf.Quatf(1.0, 0.0, 0.0, 0.0)
        else:
            assert j["rpy"] == [0.0, 0.0, 0.0]
            joint = UsdPhysics.RevoluteJoint.Define(stage, p)
            joint.CreateAxisAttr("X")
            _, rot0 = bisector_rotation(j["axis"])
            rot1 = rot0
            if j["limits"]:
                joint.CreateLowerLimitAttr(j["limits"][0])
                joint.CreateUpperLimitAttr(j["limits"][1])
            if drives and j["name"] in drives:
                kp, kd, target = drives[j["name"]]
                d = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular")
                d.CreateStiffnessAttr(kp)
                d.CreateDampingAttr(kd)
                d.CreateTargetPositionAttr(target)
                d.CreateTypeAttr("force")
        if j["parent"] != "world":
            joint.CreateBody0Rel().SetTargets([f"/arm/{j['parent']}"])
        joint.CreateBody1Rel().SetTargets([f"/arm/{j['child']}"])
        joint.CreateLocalPos0Attr(Gf.Vec3f(*j["xyz"]))
        joint.CreateLocalRot0Attr(rot0)
        joint.CreateLocalPos1Attr(Gf.Vec3f(0.0, 0.0, 0.0))
        joint.CreateLocalRot1Attr(rot1)
    stage.GetRootLayer().Save()
    return str(path)


@pytest.fixture(scope="module")
def arm(tmp_path_factory):
    links, joints = read_urdf(arm7_path())
    d = tmp_path_factory.mktemp("usd")
    return links, joints, write_usd(d / "arm7.usda", links, joints), urdf_from(links, joints)


def test_arm7_from_usd_matches_its_urdf(arm):
    links, joints, usd, urdf = arm
    w = torsion.World()
    robot = w.add_usd_articulated_system(usd)
    ref = torsion.World().add_articulated_system(urdf)
    assert robot.get_dof() == ref.get_dof() == 7
    assert robot.get_generalized_coordinate_dim() == 7
    assert robot.get_movable_joint_names() == ref.get_movable_joint_names()
    assert robot.get_name() == "arm"
    np.testing.assert_allclose(robot.get_masses(), ref.get_masses(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(robot.get_joint_limits(), ref.get_joint_limits(), rtol=0, atol=1e-9)
    rng = np.random.default_rng(4)
    for _ in range(5):
        q = rng.uniform(-2.0, 2.0, 7)
        robot.set_state(q, np.zeros(7))
        ref.set_state(q, np.zeros(7))
        np.testing.assert_allclose(robot.get_mass_matrix(), ref.get_mass_matrix(), rtol=0, atol=1e-9)
        np.testing.assert_allclose(robot.get_nonlinearities([0, 0, -9.81]),
                                   ref.get_nonlinearities([0, 0, -9.81]), rtol=0, atol=1e-9)
        np.testing.assert_allclose(robot.get_frame_position("joint_7"),
                                   ref.get_frame_position("joint_7"), rtol=0, atol=1e-9)
    # the collision geometry: the same shapes, sizes and world poses
    robot.set_state(np.zeros(7), np.zeros(7))
    rw = torsion.World()
    rw.add_articulated_system(urdf).set_state(np.zeros(7), np.zeros(7))

    # rays from all around at the arm's height range see the same surfaces
    rng = np.random.default_rng(7)
    n = 400
    targets = np.column_stack([rng.uniform(-0.1, 0.1, n), rng.uniform(-0.1, 0.1, n),
                               rng.uniform(0.0, 1.4, n)])
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    starts = targets - 2.0 * d

    def cast(world):
        world.integrate1()  # poses of the collision bodies
        r = world.ray_test_batch(starts, d, np.full(n, 4.0), num_threads=1)
        world.integrate2()
        return r

    mine, theirs = cast(w), cast(rw)
    assert mine.hit.sum() > n // 2
    np.testing.assert_array_equal(mine.hit, theirs.hit)
    np.testing.assert_allclose(mine.distance[mine.hit], theirs.distance[theirs.hit], rtol=0, atol=1e-9)
    np.testing.assert_array_equal(mine.local_index, theirs.local_index)


def test_world_from_a_usda_file(arm):
    *_, usd, urdf = arm
    w = torsion.World(usd)
    assert w.get_object_count() == 1
    robot = w.get_object_list()[0]
    assert robot.get_dof() == 7
    np.testing.assert_allclose(w.get_gravity(), [0.0, 0.0, -9.81], rtol=1e-12)


def test_drives_hold_a_pose_as_the_same_pd_does(tmp_path):
    links, joints = read_urdf(arm7_path())
    targets = {f"joint_{k}": (f32(300.0), f32(20.0), f32(10.0 * k)) for k in range(1, 8)}
    usd = write_usd(tmp_path / "driven.usda", links, joints, drives=targets)
    w = torsion.World()
    robot = w.add_usd_articulated_system(usd)
    assert robot.get_control_mode() == torsion.ControlMode.PD_PLUS_FEEDFORWARD_TORQUE
    # the reference: the URDF robot under torsion's PD with the gains per radian
    rw = torsion.World()
    ref = rw.add_articulated_system(urdf_from(links, joints))
    kp = np.array([targets[f"joint_{k}"][0] * 180 / math.pi for k in range(1, 8)])
    kd = np.array([targets[f"joint_{k}"][1] * 180 / math.pi for k in range(1, 8)])
    goal = np.array([math.radians(targets[f"joint_{k}"][2]) for k in range(1, 8)])
    ref.set_pd_gains(kp, kd)
    ref.set_pd_target(goal, np.zeros(7))
    w.integrate(2000)
    rw.integrate(2000)
    q = robot.get_generalized_coordinate()
    np.testing.assert_allclose(q, ref.get_generalized_coordinate(), rtol=0, atol=1e-9)
    # and the pose is held: within the gravity sag tau_g / kp of the targets, at rest
    assert np.max(np.abs(q - goal)) < 0.02
    assert np.max(np.abs(robot.get_generalized_velocity())) < 1e-3


def test_a_drives_max_force_bounds_its_torque(tmp_path):
    links, joints = read_urdf(arm7_path())
    # joint_2 (the shoulder pitch) holds the arm out horizontally against gravity
    targets = {f"joint_{k}": (f32(300.0), f32(20.0), f32(90.0 if k == 2 else 0.0)) for k in range(1, 8)}
    usd = write_usd(tmp_path / "weak.usda", links, joints, drives=targets)
    stage = Usd.Stage.Open(usd)
    UsdPhysics.DriveAPI(stage.GetPrimAtPath("/arm/joint_2"), "angular").CreateMaxForceAttr(5.0)
    stage.GetRootLayer().Save()
    w = torsion.World()
    robot = w.add_usd_articulated_system(usd)
    assert robot.get_effort_limits()[1] == 5.0 and np.isinf(robot.get_effort_limits()[0])
    w.integrate(500)
    # 5 N m cannot hold the arm (its gravity torque is tens of N m): it falls far from 90 degrees
    assert robot.get_generalized_coordinate()[1] < math.radians(45.0)
    assert abs(robot.get_generalized_force()[1]) <= 5.0 + 1e-9


def floating_stage(path, joint="spherical", mesh=True):
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageMetersPerUnit(stage, 0.01)  # centimetres
    UsdPhysics.Scene.Define(stage, "/physics")
    base = UsdGeom.Xform.Define(stage, "/bot")
    base.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, 100.0))
    for p in (base,):
        UsdPhysics.ArticulationRootAPI.Apply(p.GetPrim())
        UsdPhysics.RigidBodyAPI.Apply(p.GetPrim())
        m = UsdPhysics.MassAPI.Apply(p.GetPrim())
        m.CreateMassAttr(2.0)
        m.CreateDiagonalInertiaAttr(Gf.Vec3f(400.0, 500.0, 600.0))  # kg cm^2
    cube = UsdGeom.Cube.Define(stage, "/bot/box")
    cube.CreateSizeAttr(20.0)
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    arm = UsdGeom.Xform.Define(stage, "/arm")
    arm.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, 70.0))
    UsdPhysics.RigidBodyAPI.Apply(arm.GetPrim())
    m = UsdPhysics.MassAPI.Apply(arm.GetPrim())
    m.CreateMassAttr(1.0)
    m.CreateDiagonalInertiaAttr(Gf.Vec3f(100.0, 100.0, 10.0))
    if mesh:
        tet = UsdGeom.Mesh.Define(stage, "/arm/tet")
        tet.CreatePointsAttr([(0, 0, 0), (10, 0, 0), (0, 10, 0), (0, 0, 10)])
        tet.CreateFaceVertexCountsAttr([3, 3, 3, 3])
        tet.CreateFaceVertexIndicesAttr([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])
        UsdPhysics.CollisionAPI.Apply(tet.GetPrim())
    if joint == "spherical":
        j = UsdPhysics.SphericalJoint.Define(stage, "/ball")
    elif joint == "prismatic":
        j = UsdPhysics.PrismaticJoint.Define(stage, "/ball")
        j.CreateAxisAttr("Z")
        j.CreateLowerLimitAttr(-5.0)
        j.CreateUpperLimitAttr(5.0)
    else:
        j = UsdPhysics.Joint.Define(stage, "/ball")  # a D6 joint
    j.CreateBody0Rel().SetTargets(["/bot"])
    j.CreateBody1Rel().SetTargets(["/arm"])
    j.CreateLocalPos0Attr(Gf.Vec3f(0.0, 0.0, -30.0))
    stage.GetRootLayer().Save()
    return str(path)


def test_a_floating_base_with_a_spherical_joint_and_a_mesh(tmp_path):
    robot = torsion.World().add_usd_articulated_system(floating_stage(tmp_path / "f.usda"))
    assert robot.get_generalized_coordinate_dim() == 7 + 4 and robot.get_dof() == 6 + 3
    gc = robot.get_generalized_coordinate()
    np.testing.assert_allclose(gc[:7], [0, 0, 1.0, 1, 0, 0, 0], atol=1e-12)  # cm -> m
    np.testing.assert_allclose(robot.get_masses(), [2.0, 1.0])
    # the same robot written by hand in SI units: equal mass matrices (kg cm^2 -> kg m^2)
    tet = tmp_path / "tet.obj"
    tet.write_text("v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    arm = torsion.Child("arm", joint_type="spherical", origin_xyz=(0, 0, -0.3), mass=1.0,
                        inertia=(0.01, 0.01, 0.001),
                        collisions=[torsion.CollisionShape("mesh", file=str(tet))])
    base = torsion.Child("bot", joint_type="floating", mass=2.0, inertia=(0.04, 0.05, 0.06),
                         collisions=[torsion.CollisionShape("box", size=(0.2, 0.2, 0.2))],
                         children=[arm])
    ref = torsion.World().add_articulated_system_from_tree(base)
    rng = np.random.default_rng(2)
    for _ in range(3):
        q = np.concatenate([rng.normal(size=3), rng.normal(size=4), rng.normal(size=4)])
        q[3:7] /= np.linalg.norm(q[3:7])
        q[7:] /= np.linalg.norm(q[7:])
        robot.set_state(q, np.zeros(9))
        ref.set_state(q, np.zeros(9))
        np.testing.assert_allclose(robot.get_mass_matrix(), ref.get_mass_matrix(), rtol=0, atol=1e-9)
    assert robot.get_frame_position("ball").tolist() == pytest.approx(ref.get_frame_position("arm_joint").tolist(), abs=1e-12)
    r = torsion.World().add_usd_articulated_system(floating_stage(tmp_path / "p.usda", "prismatic"))
    assert r.get_dof() == 7
    np.testing.assert_allclose(r.get_joint_limits()[-1], [-0.05, 0.05], atol=1e-9)


def test_malformed_stages_are_refused_naming_the_prim(tmp_path):
    with pytest.raises(ValueError, match="/ball.*cannot be simulated"):
        torsion.World().add_usd_articulated_system(floating_stage(tmp_path / "d6.usda", "d6"))
    stage = Usd.Stage.CreateNew(str(tmp_path / "empty.usda"))
    UsdGeom.Xform.Define(stage, "/nothing")
    stage.GetRootLayer().Save()
    with pytest.raises(ValueError, match="no prim has PhysicsArticulationRootAPI"):
        torsion.World().add_usd_articulated_system(str(tmp_path / "empty.usda"))
    # a body without its mass
    path = floating_stage(tmp_path / "nomass.usda")
    stage = Usd.Stage.Open(path)
    stage.GetPrimAtPath("/arm").RemoveAPI(UsdPhysics.MassAPI)
    stage.GetRootLayer().Save()
    with pytest.raises(ValueError, match="/arm: a rigid body needs PhysicsMassAPI"):
        torsion.World().add_usd_articulated_system(path)
    bad = tmp_path / "garbage.usda"
    bad.write_text("#usda 1.0\n def Xform \"x\" { this is not usd }\n")
    with pytest.raises(ValueError, match="cannot be opened"):
        torsion.World().add_usd_articulated_system(str(bad))
    with pytest.raises(ValueError, match="no such USD file"):
        torsion.World().add_usd_articulated_system(str(tmp_path / "missing.usda"))


def test_missing_usd_core_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pxr", None)
    with pytest.raises(ImportError, match=r'torsion\[usd\]'):
        torsion.World().add_usd_articulated_system(str(tmp_path / "x.usda"))
