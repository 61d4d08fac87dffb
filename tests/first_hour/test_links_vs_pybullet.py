"""Frames by link name on a real robot file (pybullet_data's Unitree A1) against PyBullet's own
forward kinematics of the same links (getLinkState's URDF link frame), including the links that
fixed joints merge into their parents' bodies (the toes, the IMU)."""

import os

import numpy as np
import pytest

import torsion
from torsion import rotations as rot

pybullet = pytest.importorskip("pybullet")
pybullet_data = pytest.importorskip("pybullet_data")

A1 = os.path.join(pybullet_data.getDataPath(), "a1", "a1.urdf")


@pytest.fixture
def pb():
    cid = pybullet.connect(pybullet.DIRECT)
    yield cid
    pybullet.disconnect(cid)


def test_every_link_frame_matches_pybullet(pb):
    assert os.path.isfile(A1), "pybullet (the test extra) ships pybullet_data/a1/a1.urdf"
    w = torsion.World()
    robot = w.add_articulated_system(A1)
    body = pybullet.loadURDF(A1, physicsClientId=pb, useFixedBase=False,
                             flags=pybullet.URDF_USE_INERTIA_FROM_FILE)
    rng = np.random.default_rng(5)
    base_p = np.array([0.3, -0.2, 0.5])
    base_q = rot.rpy_to_quat(rng.uniform(-0.5, 0.5, 3))
    robot.set_base_position(base_p)
    robot.set_base_orientation(base_q)
    # PyBullet's base is the trunk's inertial frame; the A1 trunk's COM is not at its origin
    info = pybullet.getDynamicsInfo(body, -1, physicsClientId=pb)
    com_local = np.array(info[3])
    com_orn = np.array([info[4][3], *info[4][:3]])  # (w, x, y, z)
    r_base = rot.quat_to_matrix(base_q)
    pb_base_q = rot.quat_multiply(base_q, com_orn)
    pybullet.resetBasePositionAndOrientation(
        body, base_p + r_base @ com_local, [*pb_base_q[1:], pb_base_q[0]], physicsClientId=pb)
    q = robot.get_joint_positions()
    links = {}
    for j in range(pybullet.getNumJoints(body, physicsClientId=pb)):
        ji = pybullet.getJointInfo(body, j, physicsClientId=pb)
        links[ji[12].decode()] = j
        if ji[2] == pybullet.JOINT_REVOLUTE:
            k = robot.get_joint_gc_index(ji[1].decode()) - 7
            q[k] = rng.uniform(max(ji[8], -2.0), min(ji[9], 2.0))
            pybullet.resetJointState(body, j, q[k], physicsClientId=pb)
    gc = robot.get_generalized_coordinate()
    gc[7:] = q
    robot.set_generalized_coordinate(gc)
    merged = 0
    for name, j in links.items():
        state = pybullet.getLinkState(body, j, computeForwardKinematics=True, physicsClientId=pb)
        pos, orn = np.array(state[4]), np.array(state[5])
        # PyBullet composes some link transforms in single precision (4e-9 m, 4e-8 rad seen)
        np.testing.assert_allclose(robot.get_frame_position(name), pos, atol=1e-7, err_msg=name)
        np.testing.assert_allclose(robot.get_frame_orientation(name),
                                   rot.quat_to_matrix([orn[3], *orn[:3]]), atol=1e-6, err_msg=name)
        merged += name not in robot.get_body_names()
    assert merged >= 4  # the toes (and more) are frames of links merged into other bodies
    assert "FR_toe" in links
