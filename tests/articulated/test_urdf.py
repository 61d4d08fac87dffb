"""URDF loading: strings and files, frames, joint order, fixed/floating base, paths, and every
kind of bad input."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

import torsion

INERTIAL = (
    '<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>'
    "</inertial>"
)


def robot(body: str) -> str:
    return f'<?xml version="1.0"?>\n<robot name="r">\n{body}\n</robot>\n'


def two_links(joint_type="revolute", extra="", root="base"):
    return robot(
        f'<link name="{root}">{INERTIAL}</link>\n<link name="b">{INERTIAL}</link>\n'
        f'<joint name="j" type="{joint_type}"><parent link="{root}"/><child link="b"/>'
        f'<axis xyz="0 0 1"/>{extra}</joint>'
    )


def test_robots_package():
    assert torsion.robots.available() == ["arm7", "humanoid", "nao", "quadruped", "slider", "wheeled"]
    for name in torsion.robots.available():
        assert Path(torsion.robots.urdf_path(name)).is_file()
    with pytest.raises(ValueError, match="unknown robot"):
        torsion.robots.urdf_path("nope")


def test_quadruped_structure():
    w = torsion.World()
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    assert isinstance(q, torsion.ArticulatedSystem)
    assert q.get_object_type() == torsion.ObjectType.ARTICULATED_SYSTEM
    assert q.get_dof() == 18 and q.get_generalized_coordinate_dim() == 19
    np.testing.assert_array_equal(q.get_generalized_coordinate()[:7], [0, 0, 0, 1, 0, 0, 0])
    names = q.get_movable_joint_names()
    assert names[0] == "ROOT" and len(names) == 13
    frames = q.get_frame_names()
    # every URDF joint (fixed feet included) plus ROOT
    assert len(frames) == 17 and "FR_foot_fixed" in frames and "ROOT" in frames
    # feet are merged into the calves: 13 bodies
    assert len(q.get_body_names()) == 13
    assert q.get_total_mass() == pytest.approx(6.0 + 4 * (0.696 + 1.013 + 0.166 + 0.06))
    shapes = {c["shape"] for c in q.get_collision_bodies()}
    assert shapes == {"box", "cylinder", "capsule", "sphere"}
    foot = [c for c in q.get_collision_bodies() if c["name"].startswith("FR_foot")][0]
    np.testing.assert_allclose(foot["position"], [0, 0, -0.2])
    assert len(q.get_visual_bodies()) == 17
    assert q.get_frame_index_by_name("FR_foot_fixed") == frames.index("FR_foot_fixed")


def test_string_and_file_give_the_same_model(tmp_path):
    path = torsion.robots.urdf_path("arm7")
    text = Path(path).read_text()
    w = torsion.World()
    a = w.add_articulated_system(path)
    b = w.add_articulated_system(text)
    c = w.add_articulated_system(Path(path))
    q = np.linspace(-1, 1, 7)
    for s in (a, b, c):
        s.set_generalized_coordinate(q)
    np.testing.assert_array_equal(a.get_mass_matrix(), b.get_mass_matrix())
    np.testing.assert_array_equal(a.get_mass_matrix(), c.get_mass_matrix())


def test_fixed_base_rules():
    w = torsion.World()
    # world root: fixed by default
    assert w.add_articulated_system(torsion.robots.urdf_path("arm7")).get_dof() == 7
    # no world link: floating by default, fixed on request (PyBullet's useFixedBase)
    assert w.add_articulated_system(two_links()).get_dof() == 7
    fixed = w.add_articulated_system(two_links(), fixed_base=True)
    assert fixed.get_dof() == 1 and fixed.get_movable_joint_names() == ["j"]
    # world root, floating on request: the world joint is dropped and the base floats
    floating = w.add_articulated_system(torsion.robots.urdf_path("arm7"), fixed_base=False)
    assert floating.get_dof() == 13
    with pytest.raises(ValueError, match="fixed_base"):
        w.add_articulated_system(two_links(), fixed_base="yes")


def test_joint_order():
    w = torsion.World()
    path = torsion.robots.urdf_path("quadruped")
    legs = ["RL", "FR", "RR", "FL"]
    order = [f"{leg}_{part}_joint" for leg in legs for part in ("hip", "thigh", "calf")]
    q = w.add_articulated_system(path, joint_order=order)
    assert q.get_movable_joint_names() == ["ROOT"] + order
    # same physics, permuted
    ref = w.add_articulated_system(path)
    perm = [ref.get_movable_joint_names().index(n) - 1 for n in order]
    rng = np.random.default_rng(0)
    gc = ref.get_generalized_coordinate()
    gc[7:] = rng.uniform(-1, 1, 12)
    ref.set_generalized_coordinate(gc)
    gc2 = gc.copy()
    gc2[7:] = gc[7:][perm]
    q.set_generalized_coordinate(gc2)
    idx = list(range(6)) + [6 + p for p in perm]
    np.testing.assert_allclose(q.get_mass_matrix(), ref.get_mass_matrix()[np.ix_(idx, idx)], rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="not a movable joint"):
        w.add_articulated_system(path, joint_order=order[:-1] + ["nope"])
    with pytest.raises(ValueError, match="depth-first"):
        w.add_articulated_system(path, joint_order=order[:-1])
    bad = order.copy()
    bad[0], bad[1] = bad[1], bad[0]  # a thigh before its hip: not a tree order
    with pytest.raises(ValueError, match="depth-first"):
        w.add_articulated_system(path, joint_order=bad)


def test_mesh_paths_resolve_against_res_path(tmp_path):
    pkg = tmp_path / "my_robot" / "meshes"
    pkg.mkdir(parents=True)
    (pkg / "a.stl").write_text("solid a\nendsolid a\n")
    visual = (
        '<visual><geometry><mesh filename="package://my_robot/meshes/a.stl" scale="2 2 2"/></geometry></visual>'
        '<visual><geometry><mesh filename="meshes/b.stl"/></geometry></visual>'
    )
    text = robot(f'<link name="base">{INERTIAL}{visual}</link>')
    w = torsion.World()
    s = w.add_articulated_system(text, res_path=str(tmp_path))
    v = s.get_visual_bodies()
    assert v[0]["mesh"] == str(tmp_path / "my_robot" / "meshes" / "a.stl")
    np.testing.assert_array_equal(v[0]["mesh_scale"], [2, 2, 2])
    assert v[1]["mesh"] == str(tmp_path / "meshes" / "b.stl")
    # package:// also resolves with res_path pointing inside the package
    s2 = w.add_articulated_system(text, res_path=str(tmp_path / "my_robot"))
    assert s2.get_visual_bodies()[0]["mesh"] == str(tmp_path / "my_robot" / "meshes" / "a.stl")
    # a file: relative to its own directory by default
    f = tmp_path / "r.urdf"
    f.write_text(text)
    s3 = w.add_articulated_system(str(f))
    assert s3.get_visual_bodies()[1]["mesh"] == str(tmp_path / "meshes" / "b.stl")


def test_urdf_origin_rpy_and_axis():
    """A revolute joint at origin (xyz, rpy) with a tilted axis: the child frame is
    T(xyz) Rz(yaw) Ry(pitch) Rx(roll) Rot(axis, q)."""
    extra = '<origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.5"/>'
    text = two_links(extra=extra).replace('<axis xyz="0 0 1"/>', '<axis xyz="0 3 4"/>')
    w = torsion.World()
    s = w.add_articulated_system(text, fixed_base=True)
    s.set_generalized_coordinate([0.7])

    def rot(axis, a):
        axis = np.asarray(axis, float) / np.linalg.norm(axis)
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        return np.eye(3) + math.sin(a) * k + (1 - math.cos(a)) * k @ k

    r = rot([0, 0, 1], 0.5) @ rot([0, 1, 0], -0.2) @ rot([1, 0, 0], 0.3) @ rot([0, 3, 4], 0.7)
    np.testing.assert_allclose(s.get_frame_orientation("j"), r, atol=1e-14)
    np.testing.assert_allclose(s.get_frame_position("j"), [0.1, 0.2, 0.3], atol=1e-15)


def test_spherical_joint_coordinates():
    w = torsion.World()
    h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
    assert h.get_dof() == 27 and h.get_generalized_coordinate_dim() == 33
    gc = h.get_generalized_coordinate()
    assert gc[7] == 1.0  # the waist quaternion starts at identity (w first)
    gc[7:11] = [2.0, 0.0, 0.0, 0.0]
    h.set_generalized_coordinate(gc)
    assert h.get_generalized_coordinate()[7] == 1.0  # normalised


def bad(text, match, **kw):
    with pytest.raises(ValueError, match=match):
        torsion.World().add_articulated_system(text, **kw)


def test_malformed_urdf_raises_naming_element_and_line():
    bad("<robot><link name='a'></robot>", r"XML error at line 1")
    bad(robot('<link name="a"/>\n<link name="a"/>'), r"duplicate link name 'a' \(line 4\)")
    bad(robot("<link/>"), r"<link> at line 3: missing attribute 'name'")
    bad("<robbot/>", "root element must be <robot>")
    bad(two_links("hinge"), r"<joint> at line 5: joint 'j' has unknown type 'hinge'")
    bad(two_links().replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 0"/>'), "zero axis")
    bad(two_links().replace('<axis xyz="0 0 1"/>', '<axis xyz="0 nan 1"/>'), "finite numbers")
    bad(two_links().replace('<axis xyz="0 0 1"/>', '<axis xyz="0 1"/>'), "must hold 3 numbers")
    bad(two_links().replace('<child link="b"/>', '<child link="c"/>'), "unknown child link 'c'")
    bad(two_links(extra='<mimic joint="x"/>'), r"joint 'j' mimics 'x', which is not a joint of the URDF \(line")
    bad(two_links("planar"), "planar joints are not supported")
    bad(robot(f'<link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'), "more than one root")
    mesh = '<collision><geometry><mesh filename="x.stl"/></geometry></collision>'
    bad(robot(f'<link name="a">{INERTIAL}{mesh}</link>'), r"collision> mesh 'x.stl' of link 'a' .*line 3.*cannot open")
    bad(robot('<link name="a"><inertial><mass value="-1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>'),
        "must be >= 0")
    bad(robot('<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
              '<child link="b"/></joint>'), "without mass", fixed_base=True)
    bad("/no/such/file.urdf", "no such URDF file")
    bad(two_links("floating").replace('name="j"', 'name="j"'), "floating joint is only supported")


def test_a_massless_link_whose_motion_a_joint_undoes_is_refused():
    # Mass below every joint, yet M is singular: the massless floating root turns about the
    # hinge's axis while the hinge turns back, and the 1 kg link hanging from it stays put. This
    # loaded, M^-1 held entries of 6.7e16, and the robot blew up to 1e115 on touching the ground.
    massless = '<inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0"/></inertial>'
    tip = ('<inertial><origin xyz="0 0 -0.2"/><mass value="1"/>'
           '<inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>')
    urdf = robot(f'<link name="base">{massless}</link><link name="tip">{tip}</link>'
                 '<joint name="j" type="revolute"><parent link="base"/><child link="tip"/>'
                 '<origin xyz="0 0 -0.1"/><axis xyz="0 1 0"/>'
                 '<limit lower="-1" upper="1" effort="10" velocity="10"/></joint>')
    bad(urdf, r"mass matrix is singular at the neutral configuration .*: joint 'ROOT' "
              r"\(link 'base'\)", fixed_base=False)
    # fixed to the world, the same robot is fine (the root cannot turn), and so is a floating
    # root with some inertia of its own: M is positive definite
    r = torsion.World().add_articulated_system(urdf, fixed_base=True)
    assert np.linalg.eigvalsh(r.get_mass_matrix()).min() > 0.0
    light = robot(f'<link name="base"><inertial><mass value="1e-3"/>'
                  f'<inertia ixx="1e-6" iyy="1e-6" izz="1e-6"/></inertial></link>'
                  f'<link name="tip">{tip}</link>'
                  '<joint name="j" type="revolute"><parent link="base"/><child link="tip"/>'
                  '<origin xyz="0 0 -0.1"/><axis xyz="0 1 0"/>'
                  '<limit lower="-1" upper="1" effort="10" velocity="10"/></joint>')
    r = torsion.World().add_articulated_system(light)
    assert np.linalg.eigvalsh(r.get_mass_matrix()).min() > 0.0


def test_bad_state_and_queries():
    w = torsion.World()
    s = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    with pytest.raises(ValueError, match=r"gc must have shape \(19,\)"):
        s.set_generalized_coordinate(np.zeros(18))
    with pytest.raises(ValueError, match=r"gv must have shape \(18,\)"):
        s.set_generalized_velocity(np.zeros(19))
    gc = s.get_generalized_coordinate()
    gc[8] = np.nan
    with pytest.raises(ValueError, match="gc must be finite"):
        s.set_generalized_coordinate(gc)
    with pytest.raises(ValueError, match="gv must be finite"):
        s.set_generalized_velocity(np.full(18, np.inf))
    gc = s.get_generalized_coordinate()
    gc[3:7] = 0.0
    with pytest.raises(ValueError, match="non-zero norm"):
        s.set_generalized_coordinate(gc)
    with pytest.raises(ValueError, match="unknown frame name 'nope'"):
        s.get_frame_position("nope")
    with pytest.raises(IndexError):
        s.get_dense_frame_jacobian(99)
    with pytest.raises(ValueError, match="kp must be >= 0"):
        s.set_pd_gains(-np.ones(18), np.ones(18))
    with pytest.raises(ValueError, match=r"q_ref must have shape \(19,\)"):
        s.set_pd_target(np.zeros(3), np.zeros(18))
    with pytest.raises(ValueError, match="tau must be finite"):
        s.set_generalized_force(np.full(18, np.nan))
    with pytest.raises(ValueError, match="unknown body name"):
        s.set_external_force("nope", [0, 0, 1])
    with pytest.raises(ValueError, match="force must be finite"):
        s.set_external_force(0, [0, np.nan, 1])
    with pytest.raises(ValueError, match="gravity"):
        s.get_nonlinearities([0, 0])
    # the handle of a removed system raises
    w.remove_object(s)
    with pytest.raises(torsion.RemovedObjectError):
        s.get_dof()


def test_links_not_connected_to_the_root_are_refused():
    # a cycle of joints beside the tree (l2 -> x -> l2) has no root of its own: the builder found
    # the one root, built its tree and left l2 (1 kg) and x out, silently (1 kg, 6 dof for 2 kg
    # and 8 dof in the file)
    cycle = ('<link name="l2">' + INERTIAL + '</link><link name="x"/>'
             '<joint name="c1" type="revolute"><parent link="l2"/><child link="x"/>'
             '<axis xyz="0 0 1"/></joint>'
             '<joint name="c2" type="revolute"><parent link="x"/><child link="l2"/>'
             '<axis xyz="0 0 1"/></joint>')
    bad(robot(f'<link name="base">{INERTIAL}</link>' + cycle),
        r"links 'l2', 'x' are not connected to the root link 'base': their joints 'c2', 'c1' "
        r"form \(or hang from\) a cycle")
    # and a link hanging from such a cycle is named with it
    bad(robot(f'<link name="base">{INERTIAL}</link>' + cycle +
              '<link name="y"/><joint name="c3" type="fixed"><parent link="x"/><child link="y"/>'
              '</joint>'), r"links 'l2', 'x', 'y' are not connected")
    # a joint from a link to itself is a cycle of one
    bad(robot(f'<link name="base">{INERTIAL}</link><link name="x">{INERTIAL}</link>'
              '<joint name="j" type="fixed"><parent link="base"/><child link="x"/></joint>'
              '<joint name="loop" type="revolute"><parent link="x"/><child link="x"/>'
              '<axis xyz="0 0 1"/></joint>'),
        r"joint 'loop' has link 'x' as both its parent and its child")


def test_a_point_mass_singular_at_the_neutral_configuration_is_completed():
    # a spherical pendulum from a yaw and a pitch joint with a point mass 1 m below: M =
    # diag(sin(q_pitch)**2, 1), singular at the neutral configuration only, where the bob hangs on
    # the yaw axis. The bob's zero inertia is singular on a moving body: completed as PyBullet
    # does (a 2 mm cube without collision shapes, docs/robot_files.md), M is then regular
    urdf = ('<robot name="sph"><link name="world"/><link name="gimbal"/>'
            '<link name="bob"><inertial><origin xyz="0 0 -1"/><mass value="1"/>'
            '<inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>'
            '<joint name="yaw" type="revolute"><parent link="world"/><child link="gimbal"/>'
            '<origin xyz="0 0 2"/><axis xyz="0 0 1"/></joint>'
            '<joint name="pitch" type="revolute"><parent link="gimbal"/><child link="bob"/>'
            '<axis xyz="0 1 0"/></joint></robot>')
    with pytest.warns(torsion.URDFWarning, match="link 'bob' has a singular inertia"):
        m = torsion.World().add_articulated_system(urdf).get_mass_matrix()
    np.testing.assert_allclose(m, np.diag([2 * 0.002 ** 2 / 12, 1.0 + 2 * 0.002 ** 2 / 12]), rtol=1e-12)
    # the same pendulum with its neutral pose tilted (the pitch joint's origin turned 0.5 rad)
    # is regular: M = diag(sin(0.5)**2, 1)
    tilted = urdf.replace('<axis xyz="0 1 0"/>', '<origin rpy="0 0.5 0"/><axis xyz="0 1 0"/>')
    with pytest.warns(torsion.URDFWarning, match="link 'bob' has a singular inertia"):
        m = torsion.World().add_articulated_system(tilted).get_mass_matrix()
    np.testing.assert_allclose(m, np.diag([np.sin(0.5) ** 2, 1.0]), atol=1e-5)
