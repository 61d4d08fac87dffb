"""set_base_position / set_base_orientation and their getters, floating and fixed bases."""

import numpy as np
import pytest

import torsion
from torsion import rotations as rot

ARM = torsion.robots.urdf_path("arm7")
QUADRUPED = torsion.robots.urdf_path("quadruped")


def test_floating_base_writes_gc_and_keeps_velocity():
    w = torsion.World()
    r = w.add_articulated_system(QUADRUPED)
    gv = np.arange(18) * 0.1
    r.set_generalized_velocity(gv)
    q = rot.rpy_to_quat([0.2, 0.1, -0.4])
    r.set_base_position([1.0, 2.0, 0.5])
    r.set_base_orientation(q)
    gc = r.get_generalized_coordinate()
    np.testing.assert_array_equal(gc[:3], [1.0, 2.0, 0.5])
    np.testing.assert_allclose(gc[3:7], q, atol=1e-15)
    np.testing.assert_array_equal(r.get_generalized_velocity(), gv)
    np.testing.assert_array_equal(r.get_base_position(), [1.0, 2.0, 0.5])
    np.testing.assert_allclose(r.get_base_orientation(), q, atol=1e-15)
    # a matrix works the same
    r.set_base_orientation(rot.quat_to_matrix(q))
    np.testing.assert_allclose(r.get_generalized_coordinate()[3:7], q, atol=1e-12)
    np.testing.assert_allclose(r.get_frame_orientation("ROOT"), rot.quat_to_matrix(q), atol=1e-12)


def test_fixed_base_mounted_anywhere_moves_the_whole_robot():
    w = torsion.World()
    home = w.add_articulated_system(ARM)
    mounted = w.add_articulated_system(ARM)
    gc = np.array([0.3, -0.5, 0.2, 1.1, -0.4, 0.6, 0.1])
    home.set_generalized_coordinate(gc)
    mounted.set_generalized_coordinate(gc)
    p = np.array([0.5, -1.0, 0.8])
    r = rot.rpy_to_matrix([0.0, 0.3, 1.2])
    mounted.set_base_position(p)
    mounted.set_base_orientation(r)
    np.testing.assert_array_equal(mounted.get_base_position(), p)
    np.testing.assert_allclose(rot.quat_to_matrix(mounted.get_base_orientation()), r, atol=1e-15)
    # the bundled arm's world joint has the identity origin: every frame moves by (r, p)
    for f in home.get_frame_names():
        np.testing.assert_allclose(mounted.get_frame_position(f), p + r @ home.get_frame_position(f), atol=1e-12)
        np.testing.assert_allclose(mounted.get_frame_orientation(f), r @ home.get_frame_orientation(f), atol=1e-12)
    # dynamics in joint space: the mass matrix does not depend on the mounting
    np.testing.assert_allclose(mounted.get_mass_matrix(), home.get_mass_matrix(), atol=1e-12)
    # a second robot from the same file is not moved (the model is shared until mounted)
    fresh = w.add_articulated_system(ARM)
    np.testing.assert_array_equal(fresh.get_base_position(), np.zeros(3))


def test_mounted_arm_hangs_under_gravity_like_a_rotated_world():
    # an arm mounted upside down: gravity pulls along its own +z
    w = torsion.World()
    arm = w.add_articulated_system(ARM, clamp_to_effort_limits=False)
    arm.set_base_position([0, 0, 2.0])
    arm.set_base_orientation(rot.rpy_to_quat([np.pi, 0, 0]))
    g_world = np.array([0, 0, -9.81])
    w.set_gravity(g_world)
    arm.set_generalized_coordinate([0.0, 0.7, 0.0, -0.5, 0.0, 0.3, 0.0])
    h = arm.get_nonlinearities(g_world)
    # the same arm at the origin with the gravity seen in its base frame
    w2 = torsion.World()
    ref = w2.add_articulated_system(ARM)
    ref.set_generalized_coordinate([0.0, 0.7, 0.0, -0.5, 0.0, 0.3, 0.0])
    h_ref = ref.get_nonlinearities(rot.rpy_to_matrix([np.pi, 0, 0]).T @ g_world)
    np.testing.assert_allclose(h, h_ref, atol=1e-10)


def test_base_placement_is_kept_by_checkpoints():
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    cp = w.capture_checkpoint()
    arm.set_base_position([1, 2, 3])
    cp2 = torsion.Checkpoint.from_bytes(w.capture_checkpoint().to_bytes())
    w.restore_checkpoint(cp)
    np.testing.assert_array_equal(arm.get_base_position(), np.zeros(3))
    w.restore_checkpoint(cp2)
    np.testing.assert_array_equal(arm.get_base_position(), [1, 2, 3])
    np.testing.assert_allclose(arm.get_frame_position("joint_1"),
                               np.array([1, 2, 3]) + torsion.World().add_articulated_system(ARM).get_frame_position("joint_1"))


def test_base_setter_errors():
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    with pytest.raises(ValueError, match="position"):
        arm.set_base_position([0, 0])
    with pytest.raises(ValueError, match="position"):
        arm.set_base_position([0, np.nan, 0])
    with pytest.raises(ValueError, match="orientation"):
        arm.set_base_orientation([0, 0, 0, 0])
    with pytest.raises(ValueError, match="rotation matrix"):
        arm.set_base_orientation(np.diag([1.0, 1.0, -1.0]))
    with pytest.raises(ValueError, match="orientation"):
        arm.set_base_orientation(np.zeros(3))
    w.integrate1()
    with pytest.raises(RuntimeError):
        arm.set_base_position([1, 0, 0])
    w.integrate2()


def test_world_xml_keeps_the_mounting_and_gravity_compensation(tmp_path):
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    arm.set_base_position([0.5, -1.0, 0.8])
    arm.set_base_orientation(rot.rpy_to_quat([0.0, 0.3, 1.2]))
    arm.set_gravity_compensation(True, body="link_4")
    arm.set_generalized_coordinate([0.3, -0.5, 0.2, 1.1, -0.4, 0.6, 0.1])
    w.export_to_xml(str(tmp_path / "w.xml"))
    back = torsion.World(str(tmp_path / "w.xml")).get_object_list()[0]
    np.testing.assert_array_equal(back.get_base_position(), arm.get_base_position())
    np.testing.assert_allclose(back.get_base_orientation(), arm.get_base_orientation(), atol=1e-15)
    np.testing.assert_allclose(back.get_frame_position("tool"), arm.get_frame_position("tool"), atol=1e-12)
    assert back.get_gravity_compensation() == arm.get_gravity_compensation()
    # a floating base takes no <base>
    w2 = torsion.World()
    w2.add_articulated_system(QUADRUPED)
    w2.export_to_xml(str(tmp_path / "q.xml"))
    text = (tmp_path / "q.xml").read_text()
    assert "<base" not in text
    bad = text.replace("</articulated>", '<base position="0 0 1" rotation="1 0 0 0 1 0 0 0 1"/></articulated>')
    (tmp_path / "bad.xml").write_text(bad)
    with pytest.raises(ValueError, match="floating base"):
        torsion.World(str(tmp_path / "bad.xml"))
