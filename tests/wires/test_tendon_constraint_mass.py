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



# a one-joint arm (a second articulated system)
ONE = """<?xml version="1.0"?>
<robot name="arm1">
  <link name="base"/>
  <link name="l1">
    <inertial><origin xyz="0.4 0 0"/><mass value="2"/>
      <inertia ixx="1e-3" iyy="1e-2" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="l1"/>
    <axis xyz="0 1 0"/></joint>
</robot>
"""


def test_limit_of_a_tendon_over_two_systems_sees_the_armature(free_file, tmp_path):
    # L = 0.8 q1(arm) - 1.3 q2(arm) + 0.6 q(one), armature a, at its upper limit and rising:
    # the same closed form over both systems' dofs, M = blockdiag(M_arm, M_one)
    one = tmp_path / "one.urdf"
    one.write_text(ONE)
    c = np.array([0.8, -1.3, 0.6])

    def world(limits):
        w = torsion.World()
        w.set_time_step(DT)
        w.set_gravity([0, 0, 0])
        arm = w.add_articulated_system(free_file, fixed_base=True)
        other = w.add_articulated_system(str(one), fixed_base=True)
        arm.set_generalized_coordinate([0.1, -0.2])
        arm.set_generalized_velocity([1.5, -0.4])
        other.set_generalized_coordinate([0.3])
        other.set_generalized_velocity([2.0])
        kw = {} if limits is None else {"limits": limits}
        t = w.add_fixed_tendon("t", [(arm, "j1", c[0]), (arm, "j2", c[1]), (other, "j1", c[2])],
                               armature=A, **kw)
        return w, arm, other, t

    w0, arm0, other0, _ = world(None)
    w0.integrate()
    us = np.r_[arm0.get_generalized_velocity(), other0.get_generalized_velocity()]
    w, arm, other, t = world((-10.0, 0.8 * 0.1 - 1.3 * -0.2 + 0.6 * 0.3))
    m = np.zeros((3, 3))
    m[:2, :2] = arm.get_mass_matrix()
    m[2, 2] = other.get_mass_matrix()[0, 0]
    ma = m + A * np.outer(c, c)
    w.integrate()
    up = np.r_[arm.get_generalized_velocity(), other.get_generalized_velocity()]
    assert abs(c @ up) < 1e-9 * abs(c @ us)
    lam = -t.get_limit_force() * DT
    assert lam == pytest.approx((c @ us) / (c @ np.linalg.solve(ma, c)), rel=1e-9)
    np.testing.assert_allclose(ma @ (up - us), -c * lam, rtol=0, atol=1e-9 * np.abs(ma @ us).max())


def test_limit_of_a_tendon_between_free_balls_sees_the_armature():
    # a spatial tendon between two spinning, drifting balls (sites off their centres) with
    # armature a, at its upper limit and lengthening: over the 12 velocities (v, omega of each),
    # M = diag(m I, 2/5 m r^2 I) per ball
    def world(limited):
        w = torsion.World()
        w.set_time_step(DT)
        w.set_gravity([0, 0, 0])
        a = w.add_sphere(0.12, 2.0)
        b = w.add_sphere(0.1, 3.0)
        b.set_position([0.9, 0.15, -0.05])
        path = [("site", a, 0, [0.1, 0.03, 0.05]), ("site", b, 0, [0.05, -0.08, 0.02])]
        t = w.add_spatial_tendon("t", path, armature=A)
        if limited:
            t.set_properties(limits=(0.0, t.get_length()))
        a.set_velocity([-0.3, -0.2, 0.05], [1.0, 0.5, -2.0])
        b.set_velocity([0.4, 0.1, 0.0], [-0.5, 2.0, 1.0])
        return w, a, b, t

    def velocities(a, b):
        return np.r_[a.get_linear_velocity(), a.get_angular_velocity(),
                     b.get_linear_velocity(), b.get_angular_velocity()]

    w0, a0, b0, _ = world(False)
    w0.integrate()
    us = velocities(a0, b0)
    w, a, b, t = world(True)
    jac = np.r_[t.get_jacobian(a), t.get_jacobian(b)]
    m = np.diag(np.r_[[2.0] * 3, [0.4 * 2.0 * 0.12 ** 2] * 3, [3.0] * 3,
                      [0.4 * 3.0 * 0.1 ** 2] * 3])
    ma = m + A * np.outer(jac, jac)
    assert jac @ us > 0.1  # lengthening
    w.integrate()
    up = velocities(a, b)
    assert abs(jac @ up) < 1e-9 * abs(jac @ us)
    lam = -t.get_limit_force() * DT
    assert lam == pytest.approx((jac @ us) / (jac @ np.linalg.solve(ma, jac)), rel=1e-9)
    np.testing.assert_allclose(ma @ (up - us), -jac * lam, rtol=0,
                               atol=1e-9 * np.abs(ma @ us).max())
