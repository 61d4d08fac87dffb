"""Frames and bodies by link name as well as joint name; name look-ups; errors listing names."""

import numpy as np
import pytest

import torsion

QUADRUPED = torsion.robots.urdf_path("quadruped")
ARM = torsion.robots.urdf_path("arm7")


@pytest.fixture
def quadruped():
    w = torsion.World()
    r = w.add_articulated_system(QUADRUPED)
    gc = r.get_generalized_coordinate()
    gc[:3] = (0.1, -0.2, 0.4)
    gc[3:7] = torsion.rotations.rpy_to_quat([0.1, -0.2, 0.3])
    gc[7:] = torsion.robots.QUADRUPED_STAND + 0.05
    r.set_generalized_coordinate(gc)
    return r


def test_link_frames_coincide_with_joint_frames(quadruped):
    r = quadruped
    names, links = r.get_frame_names(), r.get_link_names()
    assert len(names) == len(links)
    # the URDF's own pairs: a joint's frame is at its child link's origin
    assert links[names.index("FR_calf_joint")] == "FR_calf"
    assert links[names.index("FR_foot_fixed")] == "FR_foot"
    assert links[names.index("ROOT")] == "trunk"
    for joint, link in zip(names, links):
        assert r.get_frame_index_by_name(link) == r.get_frame_index_by_name(joint)
        np.testing.assert_array_equal(r.get_frame_position(link), r.get_frame_position(joint))
        np.testing.assert_array_equal(r.get_frame_orientation(link), r.get_frame_orientation(joint))
        np.testing.assert_array_equal(r.get_dense_frame_jacobian(link), r.get_dense_frame_jacobian(joint))


def test_fixed_joint_child_keeps_its_own_frame(quadruped):
    r = quadruped
    # FR_foot is merged into the FR_calf body but is a frame of its own, at the foot
    foot, calf = r.get_frame_position("FR_foot"), r.get_frame_position("FR_calf")
    assert np.linalg.norm(foot - calf) > 0.1
    body, p, _ = r.get_frame_placement("FR_foot")
    assert r.get_body_names()[body] == "FR_calf"
    np.testing.assert_allclose(foot, r.get_frame_position("FR_calf") + r.get_frame_orientation("FR_calf") @ p,
                               atol=1e-12)


def test_body_index_by_link_joint_and_merged_link(quadruped):
    r = quadruped
    calf = r.get_body_names().index("FR_calf")
    assert r.get_body_index("FR_calf") == calf
    assert r.get_body_index("FR_calf_joint") == calf
    assert r.get_body_index("FR_foot") == calf  # merged by a fixed joint
    assert r.get_body_index("FR_foot_fixed") == calf


def test_unknown_names_list_the_valid_names(quadruped):
    r = quadruped
    with pytest.raises(ValueError) as e:
        r.get_frame_position("FR_toe")
    msg = str(e.value)
    for name in ("FR_foot_fixed", "RL_calf_joint", "ROOT", "FR_foot", "trunk", "RL_hip"):
        assert f"'{name}'" in msg
    with pytest.raises(ValueError) as e:
        r.get_body_index("FR_toe")
    for name in ("FR_calf", "FR_foot", "trunk", "RL_thigh"):
        assert f"'{name}'" in str(e.value)
    with pytest.raises(ValueError) as e:
        r.get_joint_gc_index("FR_toe")
    for name in r.get_movable_joint_names():
        assert f"'{name}'" in str(e.value)
    with pytest.raises(ValueError, match="FR_hip_joint"):
        r.set_joint_pd_targets({"FR_toe": 0.1})
    with pytest.raises(ValueError, match="FR_hip_joint"):
        r.get_joint_gv_index("FR_foot_fixed")  # a fixed joint owns no dof


def test_index_lookups_match_get_joints(quadruped):
    r = quadruped
    joints = r.get_joints()
    for j in joints:
        if j["gv_size"] == 0:
            continue
        assert r.get_joint_gc_index(j["joint"]) == j["gc_index"]
        assert r.get_joint_gv_index(j["joint"]) == j["gv_index"]
    actuated = [j["joint"] for j in joints if j["gv_size"] > 0 and j["type"] != "floating"]
    assert r.get_actuated_joint_names() == actuated
    assert len(actuated) == 12
    assert r.get_movable_joint_names() == ["ROOT"] + actuated
    gc, gv = r.get_generalized_coordinate(), r.get_generalized_velocity()
    np.testing.assert_array_equal(r.get_actuated_gc_indices(), np.arange(7, 19))
    np.testing.assert_array_equal(r.get_actuated_gv_indices(), np.arange(6, 18))
    np.testing.assert_array_equal(r.get_joint_positions(), gc[7:])
    np.testing.assert_array_equal(r.get_joint_velocities(), gv[6:])


def test_fixed_base_lookups():
    w = torsion.World()
    arm = w.add_articulated_system(ARM)
    assert arm.get_actuated_joint_names() == [f"joint_{k}" for k in range(1, 8)]
    np.testing.assert_array_equal(arm.get_actuated_gc_indices(), np.arange(7))
    assert arm.get_joint_gc_index("joint_3") == 2
    # the tool link is merged into link_7 but is a frame of its own
    np.testing.assert_array_equal(arm.get_frame_position("tool"), arm.get_frame_position("tool_joint"))
    assert arm.get_body_index("tool") == arm.get_body_index("link_7")


def test_spherical_joints_layout():
    w = torsion.World()
    h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
    names = h.get_actuated_joint_names()
    joints = {j["joint"]: j for j in h.get_joints()}
    assert sum(joints[n]["gc_size"] for n in names) == h.get_generalized_coordinate_dim() - 7
    assert sum(joints[n]["gv_size"] for n in names) == h.get_dof() - 6
    sph = next(n for n in names if joints[n]["type"] == "spherical")
    assert h.get_joint_gc_index(sph) == joints[sph]["gc_index"]
