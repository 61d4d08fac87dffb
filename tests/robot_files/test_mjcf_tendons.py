"""MJCF <tendon> import (cpp/io/mjcf_load.cpp -> world/tendons.hpp): fixed and spatial tendons,
their properties and motors on tendons, against MuJoCo on the same files: ten_length / ten_J,
and rollouts."""

import os

import numpy as np
import pytest

import torsion

mujoco = pytest.importorskip("mujoco")

DMC = os.path.join(os.path.dirname(__import__("dm_control").__file__), "suite")

# a 3-link chain: a spatial tendon from a world site through sites on the links, around a sphere
# and a cylinder (side sites) and a pulley, and a fixed tendon with every property
CHAIN = """<mujoco>
  <option gravity="0 0 -9.81" timestep="0.0002"/>
  <default>
    <geom contype="0" conaffinity="0"/>
    <tendon stiffness="3"/>
  </default>
  <worldbody>
    <site name="s0" pos="0.05 0.02 0.0"/>
    <site name="p0" pos="-0.1 0.05 0.02"/>
    <body name="l1" pos="0 0 0.1">
      <joint name="j1" type="hinge" axis="0 1 0"/>
      <inertial pos="0.25 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
      <site name="s1" pos="0.3 0.01 0.03"/>
      <body name="l2" pos="0.5 0 0">
        <joint name="j2" type="hinge" axis="0 1 0"/>
        <inertial pos="0.25 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
        <geom name="ball" type="sphere" size="0.06"/>
        <site name="side_ball" pos="0 0 0.1"/>
        <site name="s2" pos="0.3 -0.01 0.03"/>
        <body name="l3" pos="0.5 0 0">
          <joint name="j3" type="hinge" axis="0 0 1"/>
          <inertial pos="0.25 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
          <geom name="drum" type="cylinder" size="0.04 0.05" pos="0.2 0 0"/>
          <site name="side_drum" pos="0.2 -0.1 0"/>
          <site name="s3" pos="0.4 0.01 -0.02"/>
          <site name="p3" pos="0.3 0.05 0.05"/>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="path" stiffness="40" springlength="1.3">
      <site site="s0"/>
      <site site="s1"/>
      <geom geom="ball" sidesite="side_ball"/>
      <site site="s2"/>
      <geom geom="drum" sidesite="side_drum"/>
      <site site="s3"/>
      <pulley divisor="2"/>
      <site site="p0"/>
      <site site="p3"/>
    </spatial>
    <fixed name="sum" limited="true" range="-2 2" damping="0.5" frictionloss="0.1"
           armature="0.2">
      <joint joint="j1" coef="0.7"/>
      <joint joint="j3" coef="-0.4"/>
    </fixed>
  </tendon>
  <actuator>
    <motor name="pull" tendon="sum" gear="2" ctrlrange="-1 1"/>
    <motor name="m2" joint="j2"/>
  </actuator>
</mujoco>
"""


def ten_jacobian(model, data, k):
    jac = np.zeros(model.nv)
    adr, nnz = model.ten_J_rowadr[k], model.ten_J_rownnz[k]
    for i in range(nnz):
        jac[model.ten_J_colind[adr + i]] = data.ten_J[adr + i]
    return jac


def load_both(tmp_path, name, xml):
    """The MJCF text `xml` written to tmp_path/name and loaded by MuJoCo and by torsion:
    (MjModel, MjData, World, the torsion model)."""
    p = tmp_path / name
    p.write_text(xml)
    m = mujoco.MjModel.from_xml_path(str(p))
    world = torsion.World()
    return m, mujoco.MjData(m), world, world.load_mjcf_file(str(p))


@pytest.fixture
def chain_path(tmp_path):
    p = tmp_path / "chain.xml"
    p.write_text(CHAIN)
    return str(p)


def test_chain_tendons_match_mujoco(chain_path):
    m = mujoco.MjModel.from_xml_path(chain_path)
    d = mujoco.MjData(m)
    world = torsion.World()
    model = world.load_mjcf_file(chain_path)
    (robot,) = model.systems
    path, total = model.tendons
    assert [t.get_name() for t in world.get_tendons()] == ["path", "sum"]
    # the properties, with <default><tendon> applied
    assert path.get_kind() == "spatial" and total.get_kind() == "fixed"
    assert path.get_stiffness() == 40.0 and path.get_spring_length() == 1.3
    assert total.get_stiffness() == 3.0 and total.get_damping() == 0.5
    assert total.get_friction() == 0.1 and total.get_armature() == 0.2
    assert total.get_limits() == (-2.0, 2.0) and path.get_limits() == (-np.inf, np.inf)
    wrapped = set()
    rng = np.random.default_rng(4)
    for q in [np.zeros(3), *rng.uniform(-1.5, 1.5, size=(30, 3))]:
        d.qpos[:] = q
        mujoco.mj_forward(m, d)
        robot.set_generalized_coordinate(q)
        for k, t in enumerate((path, total)):
            assert t.get_length() == pytest.approx(d.ten_length[k], abs=1e-9)
            np.testing.assert_allclose(t.get_jacobian(robot), ten_jacobian(m, d, k), atol=1e-9)
        wrapped.add(int(d.ten_wrapnum[0]))
    assert len(wrapped) >= 3  # wrapped and straight paths among the configurations


def test_chain_rollout_with_a_tendon_motor_matches_mujoco(tmp_path):
    # the spatial tendon's spring and the motor on the fixed tendon drive the chain under
    # gravity; 0.3 s at dt = 2e-4 (the fixed tendon's damping, friction, armature and limit are
    # left out of MuJoCo's comparison: its soft limit and friction rows and its implicit damping
    # are not torsion's hard rows)
    xml = CHAIN.replace('damping="0.5" frictionloss="0.1"\n           armature="0.2"', "")
    xml = xml.replace('limited="true" range="-2 2"', "")
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    p = tmp_path / "chain_rollout.xml"
    p.write_text(xml)
    world = torsion.World()
    model = world.load_mjcf_file(str(p))
    (robot,) = model.systems
    q0 = np.array([0.2, -0.3, 0.4])
    d.qpos[:] = q0
    robot.set_generalized_coordinate(q0)
    ctrl = np.array([0.8, 0.0])
    d.ctrl[:] = ctrl
    model.set_control(ctrl)
    assert model.tendons[1].get_actuator_force() == pytest.approx(1.6)
    steps = int(round(0.3 / m.opt.timestep))
    assert world.get_time_step() == pytest.approx(m.opt.timestep)
    for _ in range(steps):
        mujoco.mj_step(m, d)
    world.integrate(steps)
    moved = np.abs(d.qpos - q0).max()
    assert moved > 0.2
    # O(dt) apart (the integrators differ: MuJoCo's explicit spring, torsion's implicit one):
    # 4.8e-4 rad after 1.7 rad of motion
    np.testing.assert_allclose(robot.get_generalized_coordinate(), d.qpos, atol=1e-3 * moved)


def test_ball_in_cup_string_matches_mujoco():
    # dm_control's ball_in_cup: a spatial tendon (the string) from the ball's site to the cup's,
    # two articulated systems, limited to 0.3 m
    xml = os.path.join(DMC, "ball_in_cup.xml")
    m = mujoco.MjModel.from_xml_path(xml)
    d = mujoco.MjData(m)
    world = torsion.World()
    model = world.load_mjcf_file(xml)
    cup, ball = model.systems
    (string,) = model.tendons
    assert string.get_limits() == (0.0, 0.3)
    rng = np.random.default_rng(0)
    for q in rng.uniform(-0.3, 0.3, size=(10, 4)):
        d.qpos[:] = q
        mujoco.mj_forward(m, d)
        cup.set_generalized_coordinate(q[:2])
        ball.set_generalized_coordinate(q[2:])
        assert string.get_length() == pytest.approx(d.ten_length[0], abs=1e-9)
        jac = ten_jacobian(m, d, 0)
        np.testing.assert_allclose(string.get_jacobian(cup), jac[:2], atol=1e-9)
        np.testing.assert_allclose(string.get_jacobian(ball), jac[2:], atol=1e-9)
    # released at rest with the string slack, the ball falls until the string holds it below the
    # cup, as in MuJoCo (its limit is soft, torsion's hard: 0.6 mm apart)
    d.qpos[:] = 0.0
    d.qvel[:] = 0.0
    mujoco.mj_forward(m, d)
    for s in model.systems:
        s.set_generalized_coordinate(np.zeros(2))
        s.set_generalized_velocity(np.zeros(2))
    steps = int(round(1.0 / m.opt.timestep))
    for _ in range(steps):
        mujoco.mj_step(m, d)
    world.integrate(steps)
    assert string.get_length() == pytest.approx(d.ten_length[0], abs=1e-3)
    assert string.get_length() == pytest.approx(0.3, abs=1e-6)


def test_point_mass_motors_on_fixed_tendons_match_mujoco():
    # dm_control's point_mass: two fixed tendons (one joint each, the other's coefficient 0)
    # driven by motors; joint damping; contacts off (<flag contact="disable"/>: the point mass
    # starts inside the target sphere, which collides with nothing in either engine)
    xml = os.path.join(DMC, "point_mass.xml")
    m = mujoco.MjModel.from_xml_path(xml)
    d = mujoco.MjData(m)
    world = torsion.World()
    model = world.load_mjcf_file(xml)  # no warning: the walls collide with nothing
    (s,) = model.systems
    assert [t.get_name() for t in model.tendons] == ["t1", "t2"]
    ctrl = np.array([0.7, -0.4])
    d.ctrl[:] = ctrl
    model.set_control(ctrl)
    steps = 25  # 0.5 s, inside the joints' range
    for _ in range(steps):
        mujoco.mj_step(m, d)
    world.integrate(steps)
    moved = np.abs(d.qpos).max()
    assert moved > 0.01
    # the same implicit joint damping and force: equal to round-off
    np.testing.assert_allclose(s.get_generalized_coordinate(), d.qpos, atol=1e-12)


def test_bad_tendons_are_refused(tmp_path):
    def load(tendon, body=""):
        p = tmp_path / "bad.xml"
        p.write_text(f"""<mujoco><worldbody><site name="w"/><body name="b"><joint name="j"/>
            <geom name="g" size="0.1"/><geom name="box" type="box" size="0.1 0.1 0.1"/>
            <site name="s" pos="0.2 0 0"/>{body}</body></worldbody>
            <tendon>{tendon}</tendon></mujoco>""")
        return torsion.World().load_mjcf_file(str(p))

    with pytest.raises(ValueError, match="unknown site 'nope'"):
        load('<spatial><site site="w"/><site site="nope"/></spatial>')
    with pytest.raises(ValueError, match="not a joint of a moving body"):
        load('<fixed><joint joint="nope" coef="1"/></fixed>')
    with pytest.raises(ValueError, match="'box', which is not a named sphere or cylinder"):
        load('<spatial><site site="w"/><geom geom="box"/><site site="s"/></spatial>')
    with pytest.raises(ValueError, match="range lower > upper"):
        load('<fixed range="1 0" limited="true"><joint joint="j" coef="1"/></fixed>')
    with pytest.raises(ValueError, match="stiffness"):
        load('<fixed stiffness="-1"><joint joint="j" coef="1"/></fixed>')
    with pytest.raises(ValueError, match="no <joint>"):
        load('<fixed name="empty"/>')
    # a world site and a site of the body: the world point is on a static anchor
    model = load('<spatial name="ok"><site site="w"/><site site="s"/></spatial>')
    (t,) = model.tendons
    assert t.get_length() == pytest.approx(0.2)


# two hinges under gravity, coupled: a joint equality q1 - q1_0 = c0 + c1 (q2 - q2_0) + c2 (...)^2
# (joint refs make q_0 non-zero) and a tendon equality holding a fixed tendon at its length
COUPLED = """<mujoco>
  <compiler angle="radian"/>
  <option gravity="0 0 -9.81" timestep="0.0005"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="ja" type="hinge" axis="0 1 0" ref="0.2"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03"/>
    </body>
    <body name="b" pos="0 1 1">
      <joint name="jb" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      <body name="c" pos="0.3 0 0">
        <joint name="jc" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="bc"><joint joint="jb" coef="1"/><joint joint="jc" coef="1"/></fixed>
  </tendon>
  <equality>
    <joint name="gear" joint1="ja" joint2="jb" polycoef="0.1 -0.5 0.3 0 0"/>
    <tendon name="hold" tendon1="bc" polycoef="0.05 0 0 0 0"/>
  </equality>
</mujoco>
"""


def test_joint_and_tendon_equalities_are_hard_couplings(tmp_path):
    p = tmp_path / "coupled.xml"
    p.write_text(COUPLED)
    world = torsion.World()
    with pytest.warns(torsion.MJCFWarning, match="ref"):
        model = world.load_mjcf_file(str(p))
    sa, sb = model.systems
    names = [t.get_name() for t in model.tendons]
    assert names == ["bc", "gear/joint1", "gear/joint2"]
    gear, hold = world.get_tendon_couplings()
    assert gear.get_name() == "gear" and hold.get_name() == "hold"
    # torsion's coordinates are MuJoCo's minus ref, so q_0 = 0 in them: L1 = 0.1 - 0.5 L2 + 0.3 L2^2
    np.testing.assert_allclose(gear.get_polynomial(), [0.1, -0.5, 0.3, 0.0, 0.0], atol=1e-15)
    assert hold.get_polynomial() == pytest.approx([0.05])  # the tendon's length at load + 0.05
    m = mujoco.MjModel.from_xml_path(str(p))
    d = mujoco.MjData(m)
    for _ in range(1000):  # 0.5 s: the arms fall, held to their couplings
        mujoco.mj_step(m, d)
        world.integrate()
    qa, qb, qc = sa.get_generalized_coordinate()[0], *sb.get_generalized_coordinate()
    # the couplings start violated (0.1 and 0.05 away): their error correction removes it
    assert abs(qa - (0.1 - 0.5 * qb + 0.3 * qb * qb)) < 1e-4
    assert abs(qb + qc - 0.05) < 1e-4
    # MuJoCo's soft equalities reach the same relation (its qpos is torsion's plus ref)
    ra, rb, rc = d.qpos
    assert ra - 0.2 == pytest.approx(0.1 - 0.5 * rb + 0.3 * rb * rb, abs=1e-2)
    assert rb + rc == pytest.approx(0.05, abs=1e-2)
    # the trajectories: 0.03 rad apart after 2.6 rad of motion (MuJoCo's soft constraints give)
    np.testing.assert_allclose([qa + 0.2, qb, qc], d.qpos, atol=0.05)


def test_dm_control_tendon_equalities_load():
    # manipulator's "coupling" tendon equality (a fixed tendon held at its length)
    xml = os.path.join(DMC, "manipulator.xml")
    world = torsion.World()
    with pytest.warns(torsion.MJCFWarning):
        model = world.load_mjcf_file(xml)
    (c,) = world.get_tendon_couplings()
    t = world.get_tendon("coupling")
    assert c.get_name() == "coupling" and c.get_polynomial() == pytest.approx([t.get_length()])
    assert len(model.tendons) == 2


# position and velocity actuators on tendons: a fixed tendon over a joint with a ref, a spatial
# tendon from a world site
DRIVEN = """<mujoco>
  <compiler angle="radian"/>
  <option gravity="0 0 -9.81" timestep="0.0001"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <site name="top" pos="0.3 0 1.5"/>
    <body name="a" pos="0 0 1">
      <joint name="j1" type="hinge" axis="0 1 0" ref="0.3"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03"/>
      <body name="b" pos="0.4 0 0">
        <joint name="j2" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
        <site name="tip" pos="0.3 0 0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="f" stiffness="2"><joint joint="j1" coef="0.5"/><joint joint="j2" coef="0.2"/></fixed>
    <spatial name="s"><site site="top"/><site site="tip"/></spatial>
  </tendon>
  <actuator>
    <position name="pf" tendon="f" gear="2" kp="30" kv="1"/>
    <velocity name="vs" tendon="s" kv="5"/>
  </actuator>
</mujoco>
"""


def test_position_and_velocity_actuators_on_tendons_match_mujoco(tmp_path):
    p = tmp_path / "driven.xml"
    p.write_text(DRIVEN)
    m = mujoco.MjModel.from_xml_path(str(p))
    d = mujoco.MjData(m)
    world = torsion.World()
    with pytest.warns(torsion.MJCFWarning, match="ref"):
        model = world.load_mjcf_file(str(p))
    (robot,) = model.systems
    f, s = model.tendons
    ctrl = np.array([0.4, -0.3])
    d.ctrl[:] = ctrl
    model.set_control(ctrl)
    # the position actuator joined the fixed tendon's spring: stiffness 2 + 4 * 30
    assert f.get_stiffness() == pytest.approx(122.0) and f.get_damping() == pytest.approx(4.0)
    steps = 3000  # 0.3 s
    for _ in range(steps):
        mujoco.mj_step(m, d)
    world.integrate(steps)
    q = robot.get_generalized_coordinate() + [0.3, 0.0]  # MuJoCo's qpos: torsion's + ref
    moved = np.abs(d.qpos - m.qpos0).max()
    assert moved > 0.2
    # O(dt) apart (MuJoCo's explicit actuator forces, torsion's implicit spring-damper): 3.8e-4
    # rad after 1.9 rad, halving with dt. (The fixed tendon's own spring length is its length at
    # the joints' springref, MuJoCo's qpos_spring, 0.15 from its length at load here.)
    np.testing.assert_allclose(q, d.qpos, atol=4e-4 * moved)
    # zero control: the tendon's own spring back
    model.set_control(np.zeros(2))
    assert f.get_stiffness() == pytest.approx(122.0)
    assert s.get_damping() == pytest.approx(5.0) and s.get_actuator_force() == 0.0


# two pendulums, each its own articulated system (two trees of the worldbody), tied by a fixed
# tendon over a joint of each: MuJoCo's tendon spans the two trees, torsion's two systems
TWO_SYSTEMS = """<mujoco>
  <compiler angle="radian"/>
  <option gravity="0 0 -9.81" timestep="0.0002"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="ja" type="hinge" axis="0 1 0"/>
      <inertial pos="0.3 0 0" mass="1" diaginertia="1e-2 1e-2 1e-2"/>
    </body>
    <body name="b" pos="0 1 1">
      <joint name="jb" type="hinge" axis="0 1 0"/>
      <inertial pos="0.25 0 0" mass="0.7" diaginertia="1e-2 1e-2 1e-2"/>
      <body name="c" pos="0.5 0 0">
        <joint name="jc" type="slide" axis="1 0 0"/>
        <inertial pos="0.1 0 0" mass="0.3" diaginertia="1e-3 1e-3 1e-3"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="tie" stiffness="25" springlength="0.05">
      <joint joint="ja" coef="0.8"/>
      <joint joint="jb" coef="-1.2"/>
      <joint joint="jc" coef="0.5"/>
    </fixed>
  </tendon>
</mujoco>
"""


def test_fixed_tendon_over_two_systems_matches_mujoco(tmp_path):
    m, d, world, model = load_both(tmp_path, "two.xml", TWO_SYSTEMS)
    a, b = model.systems
    (tie,) = model.tendons
    assert [(s.get_name(), j, c) for s, j, c in tie.get_joints()] == \
        [(a.get_name(), "ja", 0.8), (b.get_name(), "jb", -1.2), (b.get_name(), "jc", 0.5)]
    rng = np.random.default_rng(7)
    for q in [np.zeros(3), *rng.uniform(-1.0, 1.0, size=(10, 3))]:
        d.qpos[:] = q
        mujoco.mj_forward(m, d)
        a.set_generalized_coordinate(q[:1])
        b.set_generalized_coordinate(q[1:])
        assert tie.get_length() == pytest.approx(d.ten_length[0], abs=1e-12)
        jac = ten_jacobian(m, d, 0)
        np.testing.assert_allclose(tie.get_jacobian(a), jac[:1], atol=1e-12)
        np.testing.assert_allclose(tie.get_jacobian(b), jac[1:], atol=1e-12)
    # a rollout: the spring pulls the two pendulums together under gravity (O(dt) apart: the
    # integrators differ, MuJoCo's explicit spring, torsion's implicit one)
    q0 = np.array([0.4, -0.3, 0.05])
    d.qpos[:] = q0
    d.qvel[:] = 0.0
    a.set_generalized_coordinate(q0[:1])
    b.set_generalized_coordinate(q0[1:])
    steps = int(round(0.3 / m.opt.timestep))
    for _ in range(steps):
        mujoco.mj_step(m, d)
    world.integrate(steps)
    got = np.concatenate([a.get_generalized_coordinate(), b.get_generalized_coordinate()])
    moved = np.abs(d.qpos - q0).max()
    assert moved > 0.2
    # 4.3e-3 rad after 1.4 rad (halving dt halves it: O(dt) of the two integrators; 9e-5 without
    # the spring)
    np.testing.assert_allclose(got, d.qpos, atol=5e-3 * moved)
    assert abs(tie.get_spring_force()) > 0.1  # the tie pulls


def test_sidesites_on_other_bodies_match_mujoco(tmp_path):
    # the chain's side sites moved onto other bodies than their geoms' (the ball's onto l1, the
    # drum's onto l2, at the same places when the joints are at 0): MuJoCo takes the side site's
    # world position, so the wrap each picks changes as the joints turn
    xml = CHAIN.replace('<site name="s1" pos="0.3 0.01 0.03"/>',
                        '<site name="s1" pos="0.3 0.01 0.03"/>\n'
                        '      <site name="side_ball_l1" pos="0.5 0 0.1"/>')
    xml = xml.replace('<site name="s2" pos="0.3 -0.01 0.03"/>',
                      '<site name="s2" pos="0.3 -0.01 0.03"/>\n'
                      '        <site name="side_drum_l2" pos="0.7 -0.1 0"/>')
    xml = xml.replace('sidesite="side_ball"', 'sidesite="side_ball_l1"')
    xml = xml.replace('sidesite="side_drum"', 'sidesite="side_drum_l2"')
    m, d, world, model = load_both(tmp_path, "sides.xml", xml)
    (robot,) = model.systems
    path = model.tendons[0]
    m0 = mujoco.MjModel.from_xml_string(CHAIN)  # the side sites on their geoms' bodies
    d0 = mujoco.MjData(m0)
    wrapped, differs = set(), 0
    rng = np.random.default_rng(11)
    for q in [np.zeros(3), *rng.uniform(-2.0, 2.0, size=(60, 3))]:
        d.qpos[:] = q
        mujoco.mj_forward(m, d)
        d0.qpos[:] = q
        mujoco.mj_forward(m0, d0)
        robot.set_generalized_coordinate(q)
        assert path.get_length() == pytest.approx(d.ten_length[0], abs=1e-9), q
        np.testing.assert_allclose(path.get_jacobian(robot), ten_jacobian(m, d, 0), atol=1e-9)
        wrapped.add(int(d.ten_wrapnum[0]))
        differs += abs(d.ten_length[0] - d0.ten_length[0]) > 1e-6
    assert len(wrapped) >= 3
    assert differs >= 3  # the side sites' bodies matter in these configurations


# a hinge under no gravity, a fixed tendon with a spring dead band (MuJoCo 3's springlength
# pair): no force while the length is inside [-0.05, 0.1]
DEAD_BAND = """<mujoco>
  <option gravity="0 0 0" timestep="0.0002"/>
  <worldbody>
    <body name="a">
      <joint name="j" type="hinge" axis="0 1 0"/>
      <inertial pos="0.4 0 0" mass="1.5" diaginertia="1e-2 1e-2 1e-2"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="band" stiffness="12" springlength="-0.05 0.1">
      <joint joint="j" coef="0.8"/>
    </fixed>
  </tendon>
</mujoco>
"""


def test_spring_dead_band_matches_mujoco(tmp_path):
    m, d, world, model = load_both(tmp_path, "band.xml", DEAD_BAND)
    (robot,) = model.systems
    (band,) = model.tendons
    assert band.get_spring_length() == (-0.05, 0.1)
    # the spring's force along the tendon: MuJoCo's qfrc_passive / coef at rest; torsion's after
    # one step from rest (its implicit spring adds -k dt v_end, 1e-5 of it here)
    for q in [-0.4, -0.1, 0.0, 0.05, 0.12, 0.2, 0.5]:
        d.qpos[:] = q
        d.qvel[:] = 0.0
        mujoco.mj_forward(m, d)
        robot.set_generalized_coordinate([q])
        robot.set_generalized_velocity([0.0])
        world.integrate()
        expected = d.qfrc_passive[0] / 0.8
        assert band.get_spring_force() == pytest.approx(expected, rel=1e-4, abs=1e-12), q
    # a rollout through the band and back
    q0 = 0.4
    d.qpos[:] = q0
    d.qvel[:] = 0.0
    robot.set_generalized_coordinate([q0])
    robot.set_generalized_velocity([0.0])
    steps = int(round(1.5 / m.opt.timestep))
    for _ in range(steps):
        mujoco.mj_step(m, d)
    world.integrate(steps)
    np.testing.assert_allclose(robot.get_generalized_coordinate(), d.qpos, atol=2e-3 * q0)
