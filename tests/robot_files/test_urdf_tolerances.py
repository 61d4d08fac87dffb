"""What torsion's URDF reader tolerates, as PyBullet does (docs/robot_files.md): each tolerance
loads, is reported once as torsion.URDFWarning naming the file, the line and what was assumed,
and gives the model PyBullet's reading gives. What is really broken stays refused."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pybullet
import pybullet_data
import pytest

import torsion

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')


def robot(body):
    return f'<?xml version="1.0"?>\n<robot name="r">\n{body}\n</robot>\n'


def hinge(joint_extra="", root_inertial=INERTIAL, child=INERTIAL, joint="revolute"):
    return robot(f'<link name="base">{root_inertial}</link>\n<link name="b">{child}</link>\n'
                 f'<joint name="j" type="{joint}"><parent link="base"/><child link="b"/>'
                 f'{joint_extra}</joint>')


def load(text, **kw):
    """(system, [warning messages]) of loading `text`; every warning is a URDFWarning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        world = torsion.World()
        system = world.add_articulated_system(text, **kw)
    assert all(issubclass(w.category, torsion.URDFWarning) for w in caught), caught
    return world, system, [str(w.message) for w in caught]


def test_urdf_warning_is_a_user_warning_raised_by_the_filter():
    assert issubclass(torsion.URDFWarning, UserWarning)
    text = hinge('<axis xyz="0 0 1"/><limit lower="1" upper="-1" effort="1" velocity="1"/>')
    with pytest.raises(torsion.URDFWarning, match=r"<URDF string>, line 5: joint 'j' has lower"):
        with warnings.catch_warnings():
            warnings.simplefilter("error", torsion.URDFWarning)
            torsion.World().add_articulated_system(text)


def test_root_of_zero_mass_is_fixed_and_explicit_choice_wins():
    massless = '<inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0"/></inertial>'
    text = hinge('<axis xyz="0 0 1"/>', root_inertial=massless)
    _, s, msgs = load(text)
    assert s.get_joints()[0]["type"] == "fixed" and s.get_dof() == 1
    assert len(msgs) == 1 and "root link 'base' has zero mass: fixed to the world" in msgs[0]
    assert "line 3" in msgs[0]
    # explicit choices win, and warn nothing about the base
    _, s, msgs = load(text, fixed_base=True)
    assert s.get_dof() == 1 and msgs == []
    # a root with mass floats
    _, s, msgs = load(hinge('<axis xyz="0 0 1"/>'))
    assert s.get_joints()[0]["type"] == "floating" and msgs == []
    # no <inertial> on the root: floats when the links fixed to it have mass (as PyBullet, which
    # gives it 1 kg), fixed when nothing could move it
    _, s, _ = load(robot(f'<link name="foot"/><link name="body">{INERTIAL}</link>'
                         '<joint name="f" type="fixed"><parent link="foot"/><child link="body"/></joint>'))
    assert s.get_joints()[0]["type"] == "floating"
    _, s, msgs = load(hinge('<axis xyz="0 0 1"/>', root_inertial=""))
    assert s.get_joints()[0]["type"] == "fixed" and "no <inertial>" in msgs[0]


def test_singular_inertia_completed_as_pybullet_does(tmp_path):
    """One shape at the inertial frame, as in pybullet_data's 1000 random_urdfs (see
    docs/robot_files.md for the cases where Bullet's own formulas differ)."""
    rod = '<inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="0"/></inertial>'
    shapes = {
        "box": '<box size="0.1 0.2 0.3"/>',
        "cylinder": '<cylinder radius="0.05" length="0.3"/>',
        "capsule": '<capsule radius="0.05" length="0.3"/>',
        "none": None,
    }
    cid = pybullet.connect(pybullet.DIRECT)
    try:
        for name, geometry in shapes.items():
            col = "" if geometry is None else (
                f'<collision><geometry>{geometry}</geometry></collision>')
            text = robot(f'<link name="a">{rod}{col}</link>')
            _, s, msgs = load(text)
            assert len(msgs) == 1 and "singular inertia" in msgs[0] and "link 'a'" in msgs[0]
            path = tmp_path / f"{name}.urdf"
            path.write_text(text)
            b = pybullet.loadURDF(str(path), physicsClientId=cid)
            ref = pybullet.getDynamicsInfo(b, -1, physicsClientId=cid)[2]
            np.testing.assert_allclose(np.diag(s.get_body_inertias_b()[0]), ref, rtol=1e-6, err_msg=name)  # Bullet: float32 margins
    finally:
        pybullet.disconnect(cid)
    # a fixed body's singular inertia does not matter and is kept without a word
    _, s, msgs = load(robot(f'<link name="a">{rod}</link>'), fixed_base=True)
    assert msgs == []


def test_visuals_never_refuse_a_file():
    bad_visual = '<visual><geometry><sphere radius="0.0"/></geometry></visual>'
    _, s, msgs = load(hinge('<axis xyz="0 0 1"/>', child=INERTIAL + bad_visual + bad_visual))
    assert len(msgs) == 1 and "a <visual> of link 'b' is dropped" in msgs[0]
    assert "(and 1 more time in this file)" in msgs[0]
    assert s.get_visual_bodies() == []
    # the same geometry as a collision stays an error
    with pytest.raises(ValueError, match="radius' must be > 0"):
        torsion.World().add_articulated_system(
            hinge('<axis xyz="0 0 1"/>', child=INERTIAL + bad_visual.replace("visual", "collision")))


def test_fixed_joint_axis_ignored_and_zero_axis_of_moving_joint_refused():
    _, s, msgs = load(hinge('<axis xyz="0 0 0"/>', joint="fixed"))
    assert s.get_dof() == 6 and "axis" in msgs[0] and "fixed joint 'j' is ignored" in msgs[0]
    with pytest.raises(ValueError, match="zero axis"):
        torsion.World().add_articulated_system(hinge('<axis xyz="0 0 0"/>'))


def test_commas_extra_numbers_trailing_dot_and_scale():
    _, s, msgs = load(hinge('<origin xyz="0.1, 0, 0.2"/><axis xyz="0 0 1"/>'))
    assert any("separated by commas" in m for m in msgs)
    np.testing.assert_allclose(s.get_joints()[1]["position"], [0.1, 0, 0.2])
    _, s, msgs = load(hinge('<origin rpy="0 0 0 0" xyz="0 0 1 5"/><axis xyz="0 0 1"/>'))
    assert len(msgs) == 1 and "holds 4 numbers where 3 are expected" in msgs[0]
    assert "(and 1 more time" in msgs[0]
    np.testing.assert_allclose(s.get_joints()[1]["position"], [0, 0, 1])
    _, s, msgs = load(hinge('<axis xyz="0 0 1"/><limit lower="-1.57." upper="1" effort="1" velocity="1"/>'),
                      fixed_base=True)
    assert "read as -1.57" in msgs[0]
    assert s.get_joint_limits()[0].tolist() == [-1.57, 1.0]
    with pytest.raises(ValueError, match="finite numbers"):
        torsion.World().add_articulated_system(
            hinge('<axis xyz="0 0 1"/><limit lower="-1.5x7" upper="1" effort="1" velocity="1"/>'))
    with pytest.raises(ValueError, match="finite numbers"):
        torsion.World().add_articulated_system(hinge('<axis xyz="0 nan 1"/>'))


def test_mesh_scale_of_one_or_four_numbers(tmp_path):
    (tmp_path / "tet.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    def link(scale):
        return robot(f'<link name="a">{INERTIAL}<collision><geometry><mesh filename="tet.obj" '
                     f'scale="{scale}"/></geometry></collision><visual><geometry><mesh '
                     f'filename="tet.obj" scale="{scale}"/></geometry></visual></link>')
    _, s, msgs = load(link("2"), res_path=str(tmp_path))
    assert msgs == [] and s.get_visual_bodies()[0]["mesh_scale"].tolist() == [2, 2, 2]
    _, s, msgs = load(link("1 2 3 1"), res_path=str(tmp_path))
    assert "holds 4 numbers" in msgs[0]
    assert s.get_visual_bodies()[0]["mesh_scale"].tolist() == [1, 2, 3]


def test_lower_above_upper_is_no_limit():
    _, s, msgs = load(hinge('<axis xyz="0 0 1"/><limit lower="1" upper="-1" effort="1" velocity="1"/>'),
                      fixed_base=True)
    assert "read as no position limit" in msgs[0]
    assert s.get_joint_limits()[0].tolist() == [-np.inf, np.inf]


def test_leftover_xacro_read_as_absent():
    text = hinge('<origin xyz="$(optenv X 0.1 0 0)" rpy="0 0 0"/><axis xyz="0 0 1"/>')
    _, s, msgs = load(text)
    assert "xacro expression" in msgs[0]
    np.testing.assert_array_equal(s.get_joints()[1]["position"], [0, 0, 0])


def test_plane_is_a_static_ground_and_refused_on_a_moving_link():
    plane = '<collision><origin xyz="0 0 -0.5"/><geometry><plane normal="0 0 1"/></geometry></collision>'
    massless = '<inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0"/></inertial>'
    world, s, msgs = load(robot(f'<link name="ground">{massless}{plane}</link>'))
    assert any("static ground at z = -0.5" in m for m in msgs)
    assert world.get_object_count() == 2  # the robot and its ground
    ball = world.add_sphere(0.1, 1.0)
    ball.set_position([0, 0, -0.3])
    for _ in range(200):
        world.integrate()
    assert ball.get_position()[2] == pytest.approx(-0.4, abs=0.01)  # rests on the plane at -0.5
    with pytest.raises(ValueError, match="plane.*on a link that moves"):
        torsion.World().add_articulated_system(robot(f'<link name="a">{INERTIAL}{plane}</link>'))


def test_really_broken_files_stay_refused():
    def bad(text, match):
        with pytest.raises(ValueError, match=match):
            torsion.World().add_articulated_system(text)
    bad(hinge('<axis xyz="0 0 1"/>').replace('<parent link="base"/>', '<parent link="x"/>'), "unknown parent")
    bad(robot(f'<link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>'
              '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>'
              '<joint name="k" type="fixed"><parent link="b"/><child link="a"/></joint>'), "cycle")
    bad(robot('<link name="a"><inertial><mass value="-1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>'),
        "must be >= 0")
    bad(robot('<link name="a"><inertial><mass value="nan"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>'),
        "finite")


def test_corpus_files_with_broken_meshes_load(tmp_path):
    """random_urdfs/168 (NaN vertices) and samurai.urdf (2-corner faces): PyBullet loads them;
    torsion takes the hull of the finite vertices, warned."""
    root = pybullet_data.getDataPath()
    _, s, msgs = load(os.path.join(root, "random_urdfs", "168", "168.urdf"))
    assert any("not a clean mesh" in m and "finite vertices" in m for m in msgs)
    assert s.get_collision_bodies() is not None


def test_visual_shapes_kept_with_file_scale_colour_and_origin(tmp_path):
    (tmp_path / "m.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    text = robot(
        '<material name="red"><color rgba="1 0 0 1"/></material>'
        f'<link name="base">{INERTIAL}'
        '<visual name="shell"><origin xyz="0 0 0.1" rpy="0 0 1.5707963267948966"/>'
        '<geometry><mesh filename="package://pkg/m.obj" scale="0.5 1 2"/></geometry>'
        '<material name="red"/></visual>'
        '<visual><geometry><cylinder radius="0.1" length="0.3"/></geometry>'
        '<material name="c"><color rgba="0 0 1 0.5"/></material></visual></link>')
    _, s, msgs = load(text, res_path=str(tmp_path))
    assert msgs == []
    shell, cyl = s.get_visual_shapes()
    assert shell["name"] == "shell" and shell["kind"] == "mesh" and shell["body_name"] == "base"
    assert shell["file"] == str(tmp_path / "m.obj")  # package://pkg/m.obj -> res_path/m.obj
    assert shell["scale"].tolist() == [0.5, 1, 2] and shell["rgba"].tolist() == [1, 0, 0, 1]
    np.testing.assert_allclose(shell["origin"]["position"], [0, 0, 0.1])
    np.testing.assert_allclose(shell["origin"]["rotation"], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)
    assert cyl["kind"] == "cylinder" and cyl["radius"] == 0.1 and cyl["length"] == 0.3
    assert cyl["rgba"].tolist() == [0, 0, 1, 0.5] and cyl["file"] == ""
