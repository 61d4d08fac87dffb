"""MJCF features on small files, each against MuJoCo's compile of the same file where it has a
number to compare: frames (euler with eulerseq, axisangle, xyaxes, zaxis, fromto), default classes
and childclass, include, armature, ref, limits; World(path) on a <mujoco> file; actuators in
MuJoCo's order; unsupported elements; bad input."""

from __future__ import annotations

import warnings

import mujoco
import numpy as np
import pytest

import torsion

ARM = """<mujoco>
  <compiler angle="degree" eulerseq="zyx"/>
  <option timestep="0.005" gravity="0 0 -9"/>
  <default>
    <joint damping="0.5" armature="0.1"/>
    <default class="thin"><geom type="capsule" size="0.02"/><joint armature="0.3"/></default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <geom name="wall" type="box" size="0.1 1 1" pos="2 0 1" euler="0 0 30"/>
    <body name="base" pos="0 0 1" euler="10 20 30" childclass="thin">
      <joint name="j0" type="hinge" axis="0 0 1" range="-90 90"/>
      <geom fromto="0 0 0 0.3 0 0"/>
      <body name="b1" pos="0.3 0 0" axisangle="1 1 0 40">
        <joint name="j1" type="hinge" axis="0 1 0" pos="0.05 0 0" ref="10"/>
        <joint name="j2" type="slide" axis="1 0 0" range="-0.1 0.2"/>
        <geom type="box" size="0.05 0.02 0.03" xyaxes="0 1 0 -1 0 0"/>
        <body name="b2" pos="0.2 0 0" zaxis="1 0 1">
          <joint name="j3" type="ball"/>
          <geom class="thin" type="ellipsoid" size="0.03 0.04 0.05" density="500"/>
          <inertial pos="0.01 0 0" quat="1 0.2 0 0" mass="0.3" diaginertia="0.01 0.02 0.025"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="j0" gear="2" ctrlrange="-1 1"/>
    <position joint="j2" kp="50" kv="2"/>
    <velocity joint="j1" kv="3"/>
  </actuator>
</mujoco>"""


def write(tmp_path, text, name="m.xml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def mass_matrix_check(path, systems, rng):
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    for _ in range(3):
        d.qpos[:] = m.qpos0
        gc = []
        for j in range(m.njnt):
            a = m.jnt_qposadr[j]
            if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
                q = rng.normal(size=4)
                d.qpos[a:a + 4] = q / np.linalg.norm(q)
                gc += list(d.qpos[a:a + 4])
            else:
                d.qpos[a] = m.qpos0[a] + rng.uniform(-0.5, 0.5)
                gc.append(d.qpos[a] - m.qpos0[a])
        mujoco.mj_forward(m, d)
        full = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, full)
        (s,) = systems
        s.set_state(np.array(gc), np.zeros(s.get_dof()))
        np.testing.assert_allclose(s.get_mass_matrix(), full, rtol=0, atol=1e-9 * max(1, np.abs(full).max()))
    return m


def test_frames_defaults_armature_ref_match_mujoco(tmp_path):
    path = write(tmp_path, ARM)
    with pytest.warns(torsion.MJCFWarning, match="minus ref"):
        world = torsion.World()
        model = world.load_mjcf_file(path)
    m = mass_matrix_check(path, model.systems, np.random.default_rng(0))
    s = model.systems[0]
    assert s.get_total_mass() == pytest.approx(float(m.body_mass[1:].sum()), rel=1e-12)
    # limits: degrees to radians, and shifted by ref for j1 (no range: unlimited)
    lim = s.get_joint_limits()
    np.testing.assert_allclose(lim[0], np.radians([-90, 90]))
    assert lim[1].tolist() == [-np.inf, np.inf]
    np.testing.assert_allclose(lim[2], [-0.1, 0.2])
    np.testing.assert_allclose(s.get_joint_damping()[:3], 0.5)
    assert world.get_time_step() == 0.005
    np.testing.assert_array_equal(world.get_gravity(), [0, 0, -9])
    # the static geoms: a ground and a box (the wall)
    assert world.get_object_count() == 3


def test_world_constructor_reads_mujoco_files(tmp_path):
    path = write(tmp_path, ARM)
    with pytest.warns(torsion.MJCFWarning):
        world = torsion.World(path)
    assert world.get_object_count() == 3


def test_include_and_unsupported_elements(tmp_path):
    write(tmp_path, "<mujoco><worldbody><body name='p'><freejoint/><geom size='0.1'/></body></worldbody></mujoco>",
          "part.xml")
    main = write(tmp_path, "<mujoco><include file='part.xml'/><skin><bone body='p'/></skin></mujoco>")
    with pytest.raises(ValueError, match="<skin> cannot be simulated.*ignore_unsupported=True"):
        torsion.World().load_mjcf_file(main)
    with pytest.warns(torsion.MJCFWarning, match="<skin> is ignored"):
        model = torsion.World().load_mjcf_file(main, ignore_unsupported=True)
    (s,) = model.systems
    assert s.get_dof() == 6 and s.get_total_mass() == pytest.approx(1000 * 4 / 3 * np.pi * 0.1 ** 3)
    with pytest.raises(ValueError, match="mesh"):
        torsion.World().load_mjcf_file(write(tmp_path, "<mujoco><worldbody><body><joint/>"
                                             "<geom type='mesh' mesh='x'/></body></worldbody></mujoco>", "mesh.xml"))


def test_free_body_starts_at_its_pose_and_falls_like_mujoco(tmp_path):
    path = write(tmp_path, "<mujoco><option timestep='0.001'/><worldbody><body pos='0 0 2' euler='0 0 90'>"
                           "<freejoint/><geom type='box' size='0.1 0.2 0.3'/></body></worldbody></mujoco>")
    world = torsion.World()
    (s,) = world.load_mjcf_file(path).systems
    np.testing.assert_allclose(s.get_generalized_coordinate()[:7],
                               [0, 0, 2, np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)], atol=1e-15)
    world.integrate(100)
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    for _ in range(100):
        mujoco.mj_step(m, d)
    assert s.get_generalized_coordinate()[2] == pytest.approx(d.qpos[2], abs=1e-6)


def test_actuators_in_mujoco_order(tmp_path):
    path = write(tmp_path, ARM)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torsion.MJCFWarning)
        world = torsion.World()
        model = world.load_mjcf_file(path)
    assert model.nu == 3 and [a["type"] for a in model.actuators] == ["motor", "position", "velocity"]
    model.set_control([5.0, 0.1, 0.2])  # the motor's 5 is clamped to its ctrlrange: 1
    s = model.systems[0]
    tau = s.get_feedforward_generalized_force()
    assert tau[0] == 2.0 and np.all(tau[1:] == 0)  # gear 2 x ctrl 1
    kp, kd = s.get_pd_gains()
    assert kp[2] == 50 and kd[2] == 2 and kd[1] == 3
    q_ref, v_ref = s.get_pd_target()
    assert q_ref[2] == pytest.approx(0.1) and v_ref[1] == pytest.approx(0.2)
    with pytest.raises(ValueError, match="shape"):
        model.set_control([1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        model.set_control([np.nan, 0, 0])


@pytest.mark.parametrize("text,match", [
    ("<mujoco><worldbody><body><joint/><geom size='nan'/></body></worldbody></mujoco>", "finite"),
    ("<mujoco><worldbody><body><joint/><geom size='-1'/></body></worldbody></mujoco>", "size must be > 0"),
    ("<mujoco><worldbody><body><joint type='weird'/><geom size='1'/></body></worldbody></mujoco>", "unknown type"),
    ("<mujoco><worldbody><body><joint/></body></worldbody></mujoco>", "without mass"),
    ("<mujoco><worldbody><body><joint/><geom size='1'/><inertial mass='-1' diaginertia='1 1 1'/></body></worldbody></mujoco>", ">= 0"),
    ("<mujoco><include file='missing.xml'/></mujoco>", "cannot read the included file"),
    ("<mujoco><worldbody><body><joint/><geom class='nope' size='1'/></body></worldbody></mujoco>", "unknown default class"),
    ("<mujoco><worldbody><body", "cannot read"),
    # found by tests/fuzz/fuzz_robot_files.py (seed 0, case 22938): an empty gear crashed
    ("<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<actuator><motor joint='j' gear=''/></actuator></mujoco>", "expected numbers"),
])
def test_bad_files_raise_value_error(tmp_path, text, match):
    with pytest.raises(ValueError, match=match):
        torsion.World().load_mjcf_file(write(tmp_path, text))


def test_deep_nesting_is_refused_not_a_stack_overflow(tmp_path):
    deep = "<mujoco><worldbody>" + "<body><joint/><geom size='0.1'/>" * 3000 + "</body>" * 3000 + "</worldbody></mujoco>"
    with pytest.raises(ValueError, match="nested more than"):
        torsion.World().load_mjcf_file(write(tmp_path, deep))
    # the URDF reader walks elements without recursion: a deep file loads (its malformed visual
    # dropped with a warning)
    urdf = "<robot name='r'>" + "<link name='a'>" + "<visual>" * 100000 + "</visual>" * 100000 + "</link></robot>"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", torsion.URDFWarning)
        s = torsion.World().add_articulated_system(urdf)
    assert any("<visual> of link 'a' is dropped" in str(w.message) for w in caught)
    assert s.get_visual_shapes() == []


def test_names_must_be_utf8(tmp_path):
    path = tmp_path / "latin1.xml"
    path.write_bytes(b"<mujoco><worldbody><body name='caf\xe9'><joint/><geom size='1'/></body></worldbody></mujoco>")
    world = torsion.World()
    with pytest.raises(ValueError, match="not UTF-8"):
        world.load_mjcf_file(str(path))
    assert world.get_object_count() == 0  # nothing added


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match="no such MJCF file"):
        torsion.World().load_mjcf_file(str(tmp_path / "nope.xml"))


SPRING = """<mujoco><option timestep="0.001" gravity="0 0 0"/>
  <worldbody><body><joint name="s" type="slide" axis="1 0 0" stiffness="40" springref="0.1" ref="0.02"/>
  <geom type="sphere" size="0.1" mass="1"/></body></worldbody>
  <actuator><position joint="s" kp="10" gear="2"/></actuator></mujoco>"""


def test_joint_spring_with_a_position_actuator_moves_like_mujoco(tmp_path):
    path = write(tmp_path, SPRING)
    with pytest.warns(torsion.MJCFWarning, match="minus ref"):
        world = torsion.World()
        model = world.load_mjcf_file(path)
    model.set_control([0.3])
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    d.ctrl[:] = 0.3
    (s,) = model.systems
    for _ in range(5):
        world.integrate(100)
        for _ in range(100):
            mujoco.mj_step(m, d)
        # torsion's coordinate is MuJoCo's minus ref; the implicit PD and MuJoCo's explicit
        # spring differ by O(dt) per period
        assert s.get_generalized_coordinate()[0] == pytest.approx(d.qpos[0] - 0.02, abs=2e-3)


def test_mjcf_visual_shapes(tmp_path):
    path = write(tmp_path, "<mujoco><worldbody><body name='b' pos='0 0 1'><joint/>"
                           "<geom name='g' type='capsule' fromto='0 0 0 0 0 0.4' size='0.05' rgba='1 0 0 1'/>"
                           "<geom name='v' type='box' size='0.1 0.2 0.3' pos='0.5 0 0' contype='0' conaffinity='0'/>"
                           "</body></worldbody></mujoco>")
    (s,) = torsion.World().load_mjcf_file(path).systems
    g, v = s.get_visual_shapes()
    assert g["kind"] == "capsule" and g["radius"] == 0.05 and g["length"] == pytest.approx(0.4)
    assert g["rgba"].tolist() == [1, 0, 0, 1] and g["body_name"] == "b"
    np.testing.assert_allclose(g["origin"]["position"], [0, 0, 0.2])
    assert v["kind"] == "box" and v["size"].tolist() == [0.2, 0.4, 0.6]
    # the visual-only box is no collision shape
    assert [c["name"] for c in s.get_collision_bodies()] == ["g"]
