"""torsion.hal.Model: the device description format, typed look-ups, the bundled robots."""

import json
import math

import numpy as np
import pytest

import torsion
from torsion import hal


def test_bundled_robots_are_listed_and_load_with_default_arguments():
    assert {"nao", "wheeled"} <= set(torsion.robots.available())
    for name, mass in (("nao", 5.243), ("wheeled", 5.7)):
        w = torsion.World()
        r = w.add_articulated_system(torsion.robots.urdf_path(name))
        assert r.get_total_mass() == pytest.approx(mass)
        assert hal.Model.bundled(name).name == name
    with pytest.raises(ValueError, match="unknown HAL robot 'arm7'"):
        hal.Model.bundled("arm7")


NAO_JOINTS = ["HeadYaw", "HeadPitch"] + [f"{s}{j}" for s in "LR" for j in (
    "ShoulderPitch", "ShoulderRoll", "ElbowYaw", "ElbowRoll", "WristYaw", "Hand", "HipYawPitch", "HipRoll",
    "HipPitch", "KneePitch", "AnklePitch", "AnkleRoll")]


def test_nao_devices_have_naos_names():
    m = hal.Model.bundled("nao")
    assert len(NAO_JOINTS) == 26
    # 26 joint names, 25 motors: RHipYawPitch follows LHipYawPitch; the hands are coupled actuators
    assert set(m.actuator_names("angle")) | set(m.actuator_names("coupled")) == set(NAO_JOINTS) - {"RHipYawPitch"}
    assert m.actuator_names("coupled") == ["LHand", "RHand"]
    assert set(m.sensor_names("angle")) | set(m.sensor_names("coupled")) == set(NAO_JOINTS)
    assert m.sensor_names("fsr") == [f"{f}/FSR/{p}" for f in ("LFoot", "RFoot")
                                     for p in ("FrontLeft", "FrontRight", "RearLeft", "RearRight")]
    assert set(m.sensor_names("bumper")) == {f"{f}/Bumper/{s}" for f in ("LFoot", "RFoot") for s in ("Left", "Right")}
    assert set(m.sensor_names("tactile")) >= {"Head/Touch/Front", "Head/Touch/Middle", "Head/Touch/Rear"}
    assert m.sensor_names("sonar") == ["Sonar/Left", "Sonar/Right"]
    assert m.sensor_names("camera") == ["CameraTop", "CameraBottom"]
    assert m.sensor_names("inertial") == ["InertialSensor"]
    w = torsion.World()
    r = w.add_articulated_system(m.urdf_path)
    # RHipYawPitch is a mimic joint: 25 motor dofs + 2 thumbs + 6 base dofs
    assert r.get_dof() == 6 + 25 + 2


def test_every_kind_is_covered_by_the_bundled_robots():
    kinds_a, kinds_s = set(), set()
    for name in ("nao", "wheeled"):
        m = hal.Model.bundled(name)
        kinds_a |= {m.actuator(n).kind for n in m.actuator_names()}
        kinds_s |= {m.sensor(n).kind for n in m.sensor_names()}
    assert kinds_a == set(hal.ACTUATOR_KINDS)
    assert kinds_s == set(hal.SENSOR_KINDS)


def test_typed_lookups():
    m = hal.Model.bundled("nao")
    a = m.angle_actuator("HeadYaw")
    assert isinstance(a, hal.AngleActuator) and a.joint == "HeadYaw"
    assert (a.min_value, a.max_value) == (-2.0857, 2.0857)  # from the URDF limits
    assert m.angle_actuators()[0] is a
    assert m.coupled_actuator("LHand").controlled_joints_and_ratios() == (("LHand", 1.0), ("LHandThumb", -0.8))
    assert isinstance(m.sonar_sensor("Sonar/Left"), hal.SonarSensor)
    assert m.sonar_sensor("Sonar/Left").echoes == 10
    assert m.camera_sensor("CameraTop").buffer_size() == 640 * 480 * 3
    assert len(m.fsr_sensors()) == 8 and len(m.led_actuators()) == 9
    with pytest.raises(ValueError, match="unknown angle actuator 'LHand'"):
        m.angle_actuator("LHand")  # a coupled actuator, not an angle one
    with pytest.raises(ValueError, match="unknown fsr sensor"):
        m.fsr_sensor("nope")
    with pytest.raises(ValueError, match="kind must be None or one of"):
        m.actuator_names("fsr")
    with pytest.raises(ValueError, match="kind must be None or one of"):
        m.sensor_names("led")
    w = hal.Model.bundled("wheeled")
    assert w.actuator_names("wheel_velocity") == ["WheelL/Speed", "WheelR/Speed"]
    assert w.wheel_torque_actuator("WheelL/Torque").max_torque == 3.0
    assert w.depth_infrared_sensor("Infrared/Front").max_range == 1.5


def test_sonar_rays_cover_the_cone():
    s = hal.Model.bundled("nao").sonar_sensor("Sonar/Left")
    d = s.ray_directions()
    np.testing.assert_allclose(np.linalg.norm(d, axis=1), 1.0)
    angles = np.degrees(np.arccos(d[:, 0]))
    assert angles.max() == pytest.approx(30.0) and angles.min() == 0.0
    assert len(d) == 1 + 8 * (1 + 2 + 3 + 4)


def _write(tmp_path, desc):
    p = tmp_path / "devices.json"
    p.write_text(json.dumps(desc))
    return p


def _desc(actuators=(), sensors=()):
    return {"format": "torsion.hal.devices", "version": 1, "actuators": list(actuators), "sensors": list(sensors)}


def test_from_files_custom_description(tmp_path):
    urdf = torsion.robots.urdf_path("arm7")
    p = _write(tmp_path, _desc(
        [{"name": "J1", "kind": "angle", "joint": "joint_1", "start": 0.5, "kp": 100, "kd": 2},
         {"name": "J2", "kind": "torque", "joint": "joint_2", "max_torque": 20}],
        [{"name": "J1", "kind": "angle", "joint": "joint_1"},
         {"name": "Tool/IR", "kind": "depth_infrared", "link": "tool", "rpy": [0, 1.5708, 0], "max_range": 2}]))
    m = hal.Model.from_files(urdf, p)
    assert m.name == "arm7" and m.actuator_names() == ["J1", "J2"] and m.sensor_names() == ["J1", "Tool/IR"]
    j1 = m.angle_actuator("J1")
    assert (j1.start_value, j1.kp, j1.kd, j1.max_value) == (0.5, 100.0, 2.0, 2.967)
    assert m.torque_actuator("J2").max_torque == 20.0
    np.testing.assert_allclose(m.depth_infrared_sensor("Tool/IR").rotation() @ [1, 0, 0], [0, 0, -1], atol=1e-4)


@pytest.mark.parametrize("actuators, sensors, message", [
    ([{"name": "A", "kind": "angel", "joint": "joint_1"}], [], "kind must be one of"),
    ([{"name": "A", "kind": "angle", "joint": "nope"}], [], "unknown joint 'nope'"),
    ([{"name": "A", "kind": "angle", "joint": "tool_joint"}], [], "is 'fixed'"),
    ([{"name": "A", "kind": "angle", "joint": "joint_1", "kp": -1}], [], "kp must be finite and in"),
    ([{"name": "A", "kind": "angle", "joint": "joint_1", "start": 9}], [], "start must be finite and in"),
    ([{"name": "A", "kind": "angle", "joint": "joint_1", "gain": 1}], [], "unknown field"),
    ([{"name": "A", "kind": "angle", "joint": "joint_1"}, {"name": "A", "kind": "torque", "joint": "joint_2"}], [],
     "two actuators are named 'A'"),
    ([{"name": "A", "kind": "angle", "joint": "joint_1"}, {"name": "B", "kind": "angle_speed", "joint": "joint_1"}],
     [], "already driven"),
    ([{"name": "A", "kind": "coupled", "joints": [["joint_1", 0]]}], [], "non-zero finite ratio"),
    ([{"name": "A", "kind": "led", "color": "purple"}], [], "color must be one of"),
    ([], [{"name": "S", "kind": "sonar", "link": "tool", "echoes": 3}], "echoes must be one of"),
    ([], [{"name": "S", "kind": "camera", "link": "tool", "width": 100, "height": 100}], "must be one of"),
    ([], [{"name": "S", "kind": "fsr", "link": "nolink"}], "unknown link 'nolink'"),
    ([], [{"name": "S", "kind": "bumper", "link": "tool", "size": [0, 1, 1]}], "size must be 3 finite numbers > 0"),
    ([], [{"name": "S", "kind": "inertial", "link": "tool", "xyz": [0, "a", 0]}], "xyz must be 3 finite numbers"),
    ([], [{"kind": "inertial", "link": "tool"}], "missing field 'name'"),
])
def test_malformed_descriptions_are_refused(tmp_path, actuators, sensors, message):
    with pytest.raises(ValueError, match=message):
        hal.Model.from_files(torsion.robots.urdf_path("arm7"), _write(tmp_path, _desc(actuators, sensors)))


def test_malformed_files_are_refused(tmp_path):
    urdf = torsion.robots.urdf_path("arm7")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        hal.Model.from_files(urdf, bad)
    with pytest.raises(ValueError, match="cannot read"):
        hal.Model.from_files(urdf, tmp_path / "missing.json")
    with pytest.raises(ValueError, match="format must be"):
        hal.Model.from_files(urdf, _write(tmp_path, {"version": 1}))
    with pytest.raises(ValueError, match="version must be 1"):
        hal.Model.from_files(urdf, _write(tmp_path, {"format": "torsion.hal.devices", "version": 2}))
    with pytest.raises(ValueError, match="urdf: cannot read"):
        hal.Model.from_files(tmp_path / "nope.urdf", _write(tmp_path, _desc()))
    with pytest.raises(ValueError, match="mimics 'LHipYawPitch'"):
        hal.Model.from_files(torsion.robots.urdf_path("nao"), _write(tmp_path, _desc(
            [{"name": "R", "kind": "angle", "joint": "RHipYawPitch"}])))
