"""The seed's other add_articulated_system overloads, in its argument order: URDF modules
(fragments joined into the robot) and an XML template with @@name parameters; the option
convexify_collision_meshes as the seed names it."""

from __future__ import annotations

import numpy as np
import pytest

import torsion

INERTIAL = ('<inertial><mass value="{m}"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" '
            'ixz="0" iyz="0"/></inertial>')

ARM = f"""<robot name="arm"><link name="world"/>
  <link name="base">{INERTIAL.format(m=2)}</link>
  <link name="upper">{INERTIAL.format(m=1)}<collision><origin xyz="0 0 0.2"/><geometry><box size="0.05 0.05 0.4"/></geometry></collision></link>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
</robot>"""

GRIPPER = f"""<robot name="gripper">
  <link name="finger">{INERTIAL.format(m=0.25)}<collision><geometry><mesh filename="tet.obj"/></geometry></collision></link>
  <joint name="slide" type="prismatic"><parent link="upper"/><child link="finger"/>
    <origin xyz="0 0 0.4"/><axis xyz="1 0 0"/><limit lower="0" upper="0.05" effort="5" velocity="1"/></joint>
</robot>"""

TET = "v 0 0 0\nv 0.02 0 0\nv 0 0.02 0\nv 0 0 0.02\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def test_modules_join_fragments_into_the_robot(tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "tet.obj").write_text(TET)
    (parts / "gripper.urdf").write_text(GRIPPER)
    (tmp_path / "arm.urdf").write_text(ARM)
    w = torsion.World()
    # (filePathOrURDFScript, modules, resPath, jointOrder, group, mask): the module file's mesh
    # path resolves against its own directory
    robot = w.add_articulated_system(str(tmp_path / "arm.urdf"), [str(parts / "gripper.urdf")],
                                     "", [], 1, -1)
    assert robot.get_movable_joint_names() == ["shoulder", "slide"]
    np.testing.assert_allclose(robot.get_masses(), [2.0, 1.0, 0.25])
    # the same robot written as one file has the same dynamics
    whole = ARM.replace("</robot>", GRIPPER.split(">", 1)[1].replace(
        "tet.obj", str(parts / "tet.obj")))
    ref = torsion.World().add_articulated_system(whole)
    q = np.array([0.3, 0.02])
    robot.set_state(q, np.zeros(2))
    ref.set_state(q, np.zeros(2))
    np.testing.assert_array_equal(robot.get_mass_matrix(), ref.get_mass_matrix())
    # text modules, joint order, and the export keeps the joined robot
    r2 = w.add_articulated_system(ARM, [GRIPPER.replace("tet.obj", str(parts / "tet.obj"))],
                                  joint_order=["shoulder", "slide"], collision_group=2)
    assert r2.get_movable_joint_names() == ["shoulder", "slide"]
    w.export_to_xml(tmp_path / "w.xml")
    assert torsion.World(tmp_path / "w.xml").state_hash() == w.state_hash()


def test_bad_modules_name_the_module(tmp_path):
    w = torsion.World()
    with pytest.raises(ValueError, match=r"modules\[0\]: no such URDF file"):
        w.add_articulated_system(ARM, [str(tmp_path / "none.urdf")])
    with pytest.raises(ValueError, match=r"modules\[1\]: malformed XML"):
        w.add_articulated_system(ARM, ["<robot/>" * 0 + GRIPPER, "<robot><link"])
    with pytest.raises(ValueError, match=r"modules\[0\]: the root element must be <robot>"):
        w.add_articulated_system(ARM, ["<link name='x'/>"])
    with pytest.raises(ValueError, match=r"modules\[0\] must be a path"):
        w.add_articulated_system(ARM, [3])
    # a fragment whose joint names no link of the robot: the URDF loader says which
    with pytest.raises(ValueError, match="nowhere"):
        w.add_articulated_system(ARM, [GRIPPER.replace('"upper"', '"nowhere"')])


def test_template_with_parameters(tmp_path):
    template = ARM.replace('upper="1"', 'upper="@@upper"').replace('<mass value="1"/>',
                                                                   '<mass value="@@mass"/>')
    path = tmp_path / "arm.urdf.xml"
    path.write_text(template)
    w = torsion.World()
    # (xmlFileTemplate, params, resPath, jointOrder, group, mask)
    robot = w.add_articulated_system(str(path), {"upper": 0.5, "mass": 3}, "", [], 1, -1)
    assert robot.get_masses()[1] == 3.0
    np.testing.assert_array_equal(robot.get_joint_limits(), [[-1.0, 0.5]])
    with pytest.raises(ValueError, match="mass"):
        w.add_articulated_system(str(path), {"upper": 0.5})
    with pytest.raises(ValueError, match="xml_file_template: no such file"):
        w.add_articulated_system(str(tmp_path / "none.xml"), {})


def test_convexify_collision_meshes_option(tmp_path):
    w = torsion.World()
    assert w.add_articulated_system(ARM, convexify_collision_meshes=True).get_dof() == 1
    with pytest.raises(ValueError, match="convexify_collision_meshes=False is not supported"):
        w.add_articulated_system(ARM, convexify_collision_meshes=False)
    assert w.add_articulated_system(ARM, do_not_collide_with_parent=False,
                                    self_collision=True).get_do_not_collide_with_parent() is False
