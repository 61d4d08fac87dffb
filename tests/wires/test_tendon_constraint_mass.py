"""The tendons' armature in the constraint impulses (world/tendons.hpp,
stage_tendon_constraint_mass): the step's smooth dynamics use M + a J^T J (MuJoCo's tendon
armature), and so must the impulses of the rows solved after it (tendon limits, joint limits,
contacts). Checked against the closed form of an inelastic impact with the augmented mass:
with u_s the velocity the step would reach without the row, the impact's velocity change is
(M + a J^T J)^-1 J_c^T lambda, i.e. (M + a J^T J)(u+ - u_s) = J_c^T lambda."""

import numpy as np
import pytest

import torsion

# a two-link arm in the x-z plane (revolute joints about y), a 1 kg point mass with a small
# inertia at each link's end, j1 limited to [-1, 0.25], a sphere of radius 0.05 at the tip
ARM = """<?xml version="1.0"?>
<robot name="arm2">
  <link name="base"/>
  <link name="l1">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="1e-3" iyy="2e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="l2">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="1e-3" iyy="3e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0.5 0 0"/><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="0.25" effort="1000" velocity="100"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 1 0"/></joint>
</robot>
"""

DT = 1e-3
A = 1.7  # the tendon's armature
C = np.array([0.8, -1.3])  # its coefficients on j1, j2


@pytest.fixture
def arm_file(tmp_path):
    p = tmp_path / "arm2.urdf"
    p.write_text(ARM)
    return str(p)


@pytest.fixture
def free_file(tmp_path):
    # the same arm, j1 without its limit (the smooth step of the joint-limit case)
    p = tmp_path / "arm2free.urdf"
    p.write_text(ARM.replace('type="revolute"', 'type="continuous"').replace(
        '<limit lower="-1" upper="0.25" effort="1000" velocity="100"/>', ''))
    return str(p)


def make(arm_file, q, u, armature=A, limits=None, ground=False):
    w = torsion.World()
    w.set_time_step(DT)
    w.set_gravity([0, 0, 0])
    robot = w.add_articulated_system(arm_file, fixed_base=True)
    robot.set_generalized_coordinate(q)
    robot.set_generalized_velocity(u)
    kw = {} if limits is None else {"limits": limits}
    t = w.add_fixed_tendon("t", [(robot, "j1", C[0]), (robot, "j2", C[1])], armature=armature,
                           **kw)
    if ground:
        w.add_ground(-0.3)
    return w, robot, t


def augmented_mass(robot, armature=A):
    m = np.asarray(robot.get_mass_matrix())
    return m + armature * np.outer(C, C)


def smooth_velocity(arm_file, q, u):
    # the same step without the row: the velocity the smooth dynamics reach
    w, robot, _ = make(arm_file, q, u)
    w.integrate()
    return np.asarray(robot.get_generalized_velocity())


def test_tendon_limit_impulse_sees_the_armature(arm_file):
    # the tendon at its upper limit, its length rising: the limit stops it within the step.
    # Inelastic: J u+ = 0 and (M + a J^T J)(u+ - u_s) = -J^T lambda, so
    # lambda = J u_s / (J (M + a J^T J)^-1 J^T) = J u_s (1 / (J M^-1 J^T) + a)
    q, u = [0.1, -0.2], [1.5, -0.4]
    l0 = float(C @ q)
    us = smooth_velocity(arm_file, q, u)
    w, robot, t = make(arm_file, q, u, limits=(-10.0, l0))
    ma = augmented_mass(robot)
    w.integrate()
    up = np.asarray(robot.get_generalized_velocity())
    assert abs(C @ up) < 1e-9 * abs(C @ us)
    lam = -t.get_limit_force() * DT  # the upper limit's impulse (its force is <= 0)
    expected = (C @ us) / (C @ np.linalg.solve(ma, C))
    assert lam == pytest.approx(expected, rel=1e-9)
    # the bare mass's impulse is smaller by a J u_s: the armature's momentum is stopped too
    bare = (C @ us) / (C @ np.linalg.solve(ma - A * np.outer(C, C), C))
    assert expected - bare == pytest.approx(A * (C @ us), rel=1e-9)
    np.testing.assert_allclose(ma @ (up - us), -C * lam, rtol=0, atol=1e-9 * np.abs(ma @ us).max())


def test_joint_limit_impulse_keeps_the_other_momenta(arm_file, free_file):
    # j1 at its upper limit (0.25) moving up: the joint-limit row (on dof 0 only) stops it. Its
    # impulse changes only the first component of the generalized momentum (M + a J^T J) u: the
    # second (j2's, which the tendon's armature ties to j1) is kept through the impact
    q, u = [0.25, -0.3], [2.0, 0.7]
    us = smooth_velocity(free_file, q, u)
    w, robot, t = make(arm_file, q, u)
    ma = augmented_mass(robot)
    w.integrate()
    up = np.asarray(robot.get_generalized_velocity())
    assert abs(up[0]) < 1e-9  # stopped
    dp = ma @ (up - us)
    assert abs(dp[1]) < 1e-9 * abs(dp[0])
    assert dp[0] < -0.1
    # the closed form: u+ = u_s - (M')^-1 e_0 lambda with u+_0 = 0
    inv = np.linalg.inv(ma)
    np.testing.assert_allclose(up, us - inv[:, 0] * us[0] / inv[0, 0], rtol=0, atol=1e-9)
    # without the armature in the row, j2 would not move: M is diagonal-dominant but coupled, so
    # check against the bare-mass answer being different (the test can fail)
    bare_inv = np.linalg.inv(ma - A * np.outer(C, C))
    bare = us - bare_inv[:, 0] * us[0] / bare_inv[0, 0]
    assert abs(bare[1] - up[1]) > 0.1


def test_contact_impulse_sees_the_armature(free_file):
    # the tip's sphere (its bottom 7 mm under the ground at z = -0.3) swinging down into the
    # ground: the contact's impulse J_p^T f dt moves the arm through M + a J^T J
    q, u = [0.21, 0.1], [2.0, 1.0]
    us = smooth_velocity(free_file, q, u)
    w, robot, t = make(free_file, q, u, ground=True)
    ma = augmented_mass(robot)
    w.integrate()
    up = np.asarray(robot.get_generalized_velocity())
    contacts = robot.get_contacts()
    assert len(contacts) >= 1
    gen = np.zeros(2)
    _, before, _ = make(free_file, q, u)  # the Jacobians at the step's configuration
    for c in contacts:
        jp = np.asarray(before.get_dense_jacobian_at(int(c["local_body_index"]), c["position"]))
        gen += jp.T @ np.asarray(c["force"]) * DT
    assert np.abs(gen).max() > 1e-2  # the contact did push
    np.testing.assert_allclose(ma @ (up - us), gen, rtol=0, atol=1e-9 * np.abs(gen).max())
    # and the bare mass would not account for it
    assert np.abs((ma - A * np.outer(C, C)) @ (up - us) - gen).max() > 1e-3

