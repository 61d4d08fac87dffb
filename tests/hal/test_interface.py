"""HALInterface and RobotClient semantics (the seed's Sim::HALInterface), in one process."""

import math

import numpy as np
import pytest

from torsion import hal


@pytest.fixture
def nao():
    return hal.Model.bundled("nao")


@pytest.fixture
def wheeled():
    return hal.Model.bundled("wheeled")


FETCHES = {
    "angle": ("fetch_angle_actuator_value", "fetch_angle_actuator_stiffness"),
    "coupled": ("fetch_coupled_actuator_value", "fetch_coupled_actuator_stiffness"),
    "torque": ("fetch_torque_actuator_value", "fetch_torque_actuator_stiffness"),
    "angle_speed": ("fetch_angle_speed_actuator_value", "fetch_angle_speed_actuator_stiffness"),
    "wheel_torque": ("fetch_wheel_torque_actuator_value", "fetch_wheel_torque_actuator_stiffness"),
    "wheel_velocity": ("fetch_wheel_velocity_actuator_value", "fetch_wheel_velocity_actuator_stiffness"),
    "led": ("fetch_led_actuator_value", None),
}


@pytest.mark.parametrize("robot", ["nao", "wheeled"])
def test_nan_until_started_then_start_values(robot, port):
    model = hal.Model.bundled(robot)
    with hal.HALInterface(model, port) as h:
        acts = model.actuators()
        for a in acts:
            value, stiff = FETCHES[a.kind]
            assert math.isnan(getattr(h, value)(a)) and math.isnan(getattr(h, value)(a.name))
            if stiff:
                assert math.isnan(getattr(h, stiff)(a))
        assert not h.robot_started()
        c = hal.RobotClient(port)
        c.start()
        assert h.robot_started()
        for a in acts:
            value, stiff = FETCHES[a.kind]
            assert getattr(h, value)(a) == a.start_value
            if stiff:
                assert getattr(h, stiff)(a) == a.start_stiffness
        c.stop()


def test_commands_and_stiffness_reach_the_hal(nao, port):
    with hal.HALInterface(nao, port) as h, hal.RobotClient(port) as c:
        c.set_actuator("HeadYaw", 0.25, stiffness=0.4)
        assert h.fetch_angle_actuator_value("HeadYaw") == 0.25
        assert h.fetch_angle_actuator_stiffness("HeadYaw") == 0.4
        c.set_actuator("HeadYaw", -0.5)  # stiffness kept
        assert h.fetch_angle_actuator_stiffness("HeadYaw") == 0.4
        n = c.set_actuators({"LHand": (0.7, 0.2), "ChestBoard/Led/Red/Actuator/Value": 0.9, "HeadPitch": 0.1})
        assert h.fetch_coupled_actuator_value("LHand") == 0.7
        assert h.fetch_coupled_actuator_stiffness("LHand") == 0.2
        assert h.fetch_led_actuator_value("ChestBoard/Led/Red/Actuator/Value") == 0.9
        values, stiffness, counter = h.fetch_actuator_arrays()
        assert counter == n and values[nao.actuator_names().index("HeadPitch")] == 0.1
        c.set_stiffness(0.0)
        _, stiffness, _ = h.fetch_actuator_arrays()
        leds = [i for i, a in enumerate(nao.actuators()) if a.kind == "led"]
        assert np.all(np.delete(stiffness, leds) == 0.0) and np.isnan(stiffness[leds]).all()


def test_client_refuses_bad_commands(nao, port):
    with hal.HALInterface(nao, port) as h, hal.RobotClient(port) as c:
        before = h.fetch_actuator_arrays()
        for bad, exc, msg in (
            ({"Nope": 1.0}, ValueError, "unknown actuator 'Nope'"),
            ({"HeadYaw": math.nan}, ValueError, "must be finite"),
            ({"HeadYaw": math.inf}, ValueError, "must be finite"),
            ({"HeadYaw": "1"}, TypeError, "real number"),
            ({"HeadYaw": (1.0, 1.5)}, ValueError, r"stiffness must be in \[0, 1\]"),
            ({"HeadYaw": (1.0, -0.1)}, ValueError, r"stiffness must be in \[0, 1\]"),
            ({"HeadYaw": (1.0, 2, 3)}, ValueError, "value or"),
            ({"ChestBoard/Led/Red/Actuator/Value": (1.0, 1.0)}, ValueError, "no stiffness"),
            ({"HeadYaw": 0.3, "Nope": 1.0}, ValueError, "unknown actuator"),  # all or nothing
        ):
            with pytest.raises(exc, match=msg):
                c.set_actuators(bad)
        after = h.fetch_actuator_arrays()
        np.testing.assert_array_equal(before[0], after[0])
        assert before[2] == after[2]
        with pytest.raises(ValueError, match="unknown sensor"):
            c.read_sensor("Nope")
        with pytest.raises(TypeError):
            c.read_sensor(3)
    with pytest.raises(RuntimeError, match="start"):
        hal.RobotClient(port).set_actuator("HeadYaw", 0.0)
    with pytest.raises(hal.HALDisconnected, match=f"no HAL serves port {port}"):
        hal.RobotClient(port).start()


def test_sensor_units_orders_and_values(nao, port):
    with hal.HALInterface(nao, port) as h, hal.RobotClient(port) as c:
        assert math.isnan(c.read_sensor("HeadYaw"))  # nothing measured yet
        assert h.send_angle_sensor_value("HeadYaw", 0.3) is True
        assert h.send_coupled_sensor_value("LHand", 0.6)
        assert h.send_fsr_sensor_value("LFoot/FSR/FrontLeft", 1.25)
        assert h.send_bumper_sensor_value("LFoot/Bumper/Left", 1.0)
        assert h.send_tactile_sensor_value(nao.tactile_sensor("Head/Touch/Front"), 1.0)
        imu = [0.1, -0.2, 0.5, -0.25, 9.81, 0.01, -0.02]
        assert h.send_inertial_sensor_values("InertialSensor", imu)
        assert c.read_sensor("HeadYaw") == 0.3
        assert c.read_sensor("LHand") == 0.6
        assert c.read_sensor("LFoot/FSR/FrontLeft") == 1.25
        assert c.read_sensor("LFoot/Bumper/Left") == 1.0
        assert c.read_sensor("Head/Touch/Front") == 1.0
        np.testing.assert_array_equal(c.read_sensor("InertialSensor"), imu)
        # sonar: 10 echoes; a single value fills the rest with 0
        echoes = np.linspace(0.3, 1.2, 10)
        assert h.send_sonar_sensor_values("Sonar/Left", echoes)
        np.testing.assert_array_equal(c.read_sensor("Sonar/Left"), echoes)
        assert h.send_sonar_sensor_value("Sonar/Left", 0.8)
        np.testing.assert_array_equal(c.read_sensor("Sonar/Left"), [0.8] + [0.0] * 9)
        # the deprecated vector<const float*> forms: elements given as 1-element arrays
        assert h.send_inertial_sensor_values("InertialSensor", [np.array([v]) for v in imu])
        assert h.send_sonar_sensor_values("Sonar/Right", [np.float32(0.5)] + [np.array(0.0)] * 9)
        np.testing.assert_allclose(c.read_sensor("Sonar/Right"), [0.5] + [0.0] * 9)
        snap = c.read_sensors(["HeadYaw", "InertialSensor"])
        assert snap["HeadYaw"] == 0.3 and snap["InertialSensor"].shape == (7,)


def test_other_sensor_kinds(wheeled, port):
    with hal.HALInterface(wheeled, port) as h, hal.RobotClient(port) as c:
        assert h.send_wheel_velocity_sensor_value("WheelL/Speed", -3.5)
        assert h.send_torque_sensor_value("ArmLift/Torque", 1.5)
        assert h.send_angle_speed_sensor_value("HeadYaw/Speed", 0.2)
        assert h.send_depth_infrared_sensor_value("Infrared/Front", 0.42)
        assert c.read_sensors(["WheelL/Speed", "ArmLift/Torque", "HeadYaw/Speed", "Infrared/Front"]) == {
            "WheelL/Speed": -3.5, "ArmLift/Torque": 1.5, "HeadYaw/Speed": 0.2, "Infrared/Front": 0.42}


def test_bad_sensor_values_are_refused(nao, port):
    with hal.HALInterface(nao, port) as h:
        cases = [
            (lambda: h.send_angle_sensor_value("Nope", 0.0), ValueError, "unknown angle sensor 'Nope'"),
            (lambda: h.send_angle_sensor_value("LHand", 0.0), ValueError, "unknown angle sensor 'LHand'"),
            (lambda: h.send_angle_sensor_value(nao.fsr_sensor("LFoot/FSR/FrontLeft"), 0.0), TypeError,
             "expected a angle sensor"),
            (lambda: h.send_angle_sensor_value("HeadYaw", math.nan), ValueError, "must be finite"),
            (lambda: h.send_angle_sensor_value("HeadYaw", "0.1"), TypeError, "real number"),
            (lambda: h.send_fsr_sensor_value("LFoot/FSR/FrontLeft", -1.0), ValueError, "kg"),
            (lambda: h.send_bumper_sensor_value("LFoot/Bumper/Left", 2.0), ValueError, r"\[0.0, 1.0\]"),
            (lambda: h.send_inertial_sensor_values("InertialSensor", [0.0] * 6), ValueError, "7 entries"),
            (lambda: h.send_inertial_sensor_values("InertialSensor", [0.0] * 6 + [math.inf]), ValueError, "finite"),
            (lambda: h.send_inertial_sensor_values("InertialSensor", 3.0), TypeError, "sequence"),
            (lambda: h.send_sonar_sensor_values("Sonar/Left", [1.0] * 3), ValueError, "10 entries"),
            (lambda: h.send_sonar_sensor_values("Sonar/Left", [-1.0] * 10), ValueError, ">= 0"),
            (lambda: h.send_sonar_sensor_value("Sonar/Left", math.nan), ValueError, "finite"),
            (lambda: h.fetch_angle_actuator_value("LHand"), ValueError, "unknown angle actuator"),
            (lambda: h.fetch_coupled_actuator_value(nao.angle_actuator("HeadYaw")), TypeError,
             "expected a coupled actuator"),
            (lambda: h.fetch_led_actuator_value(None), TypeError, "or its name"),
        ]
        for call, exc, msg in cases:
            with pytest.raises(exc, match=msg):
                call()
        assert all(math.isnan(v) for v in h.fetch_actuator_arrays()[0])


def test_cameras(nao, port):
    with hal.HALInterface(nao, port) as h, hal.RobotClient(port) as c:
        # until the robot side asks: the first camera at its default resolution (160x120 RGB)
        assert h.active_camera() == "CameraTop"
        assert h.camera_buffer_size() == 160 * 120 * 3
        assert h.camera_buffer_size("CameraBottom", with_dimensions=True) == (160 * 120 * 3, 160, 120)
        assert c.read_sensor("CameraTop") is None
        c.request_camera("CameraBottom", (320, 240))
        assert h.active_camera() == "CameraBottom"
        assert h.camera_buffer_size() == 320 * 240 * 3
        assert h.camera_buffer_dimensions("CameraBottom") == (320 * 240 * 3, 320, 240)
        assert h.camera_buffer_size(nao.camera_sensor("CameraTop")) == 160 * 120 * 3  # not the requested one
        img = np.random.default_rng(1).integers(0, 256, (240, 320, 3), dtype=np.uint8)
        assert h.send_camera_sensor_value("CameraBottom", img.tobytes())  # deprecated form: the requested size
        np.testing.assert_array_equal(c.read_sensor("CameraBottom"), img)
        for (w, hh) in ((160, 120), (640, 480)):
            im = np.full((hh, w, 3), 7, dtype=np.uint8)
            assert h.send_camera_sensor_value("CameraTop", im)
            assert c.read_sensor("CameraTop").shape == (hh, w, 3)
        assert h.send_camera_sensor_value("CameraTop", np.zeros((60, 80, 3), np.uint8), hal.RES_80_60)
        depth = np.full((120, 160), 1.5, dtype=np.float32)
        assert h.send_camera_sensor_value("CameraTop", depth, (160, 120), hal.COLORSPACE_DEPTH)
        got = c.read_sensor("CameraTop")
        assert got.dtype == np.float32 and got.shape == (120, 160) and (got == 1.5).all()
        for call, exc, msg in (
            (lambda: h.send_camera_sensor_value("CameraTop", np.zeros((100, 100, 3), np.uint8)), ValueError, "one of"),
            (lambda: h.send_camera_sensor_value("CameraTop", np.zeros((960, 1280, 3), np.uint8)), ValueError, "one of"),
            (lambda: h.send_camera_sensor_value("CameraTop", b"\0" * 100), ValueError, "must hold"),
            (lambda: h.send_camera_sensor_value("CameraTop", np.zeros((120, 160, 3), np.float32)), TypeError, "uint8"),
            (lambda: h.send_camera_sensor_value("CameraTop", np.zeros((120, 160, 3), np.uint8), (320, 240)),
             ValueError, "shape"),
            (lambda: h.send_camera_sensor_value("CameraTop", depth * np.nan, None, hal.COLORSPACE_DEPTH),
             ValueError, "finite"),
            (lambda: h.send_camera_sensor_value("CameraTop", depth, None, 5), ValueError, "colorspace"),
            (lambda: h.send_camera_sensor_value("Sonar/Left", depth), ValueError, "unknown camera sensor"),
            (lambda: c.request_camera("CameraTop", (1280, 960)), ValueError, "one of"),
            (lambda: c.request_camera("Nope"), ValueError, "unknown camera"),
        ):
            with pytest.raises(exc, match=msg):
                call()


def test_port_taken_and_bad_ports(nao, port):
    with hal.HALInterface(nao, port):
        with pytest.raises(RuntimeError, match=f"HAL port {port} is taken"):
            hal.HALInterface(nao, port)
    with hal.HALInterface(nao, port) as h:  # free again after close
        assert not h.closed
    for bad in (0, 70000, -1, "9559", 1.5, True):
        with pytest.raises(ValueError, match="port must be an integer"):
            hal.HALInterface(nao, bad)
        with pytest.raises(ValueError, match="port must be an integer"):
            hal.RobotClient(bad)
    with pytest.raises(TypeError, match="torsion.hal.Model"):
        hal.HALInterface("nao", port)


def test_one_robot_side_per_hal_and_closed_hal(nao, port):
    h = hal.HALInterface(nao, port)
    c = hal.RobotClient(port)
    c.start()
    h.close()
    assert h.closed
    with pytest.raises(RuntimeError, match="closed"):
        h.fetch_angle_actuator_value("HeadYaw")
    with pytest.raises(hal.HALDisconnected):
        c.set_actuator("HeadYaw", 0.1)
    assert c.wait_cycle(timeout=0.01) is False
    c.stop()


def test_bulk_command_array(nao, port):
    with hal.HALInterface(nao, port) as h, hal.RobotClient(port) as c:
        n = len(c.actuator_names())
        assert c.actuator_names() == nao.actuator_names()
        values = np.linspace(0.0, 0.5, n)
        counter = c.set_actuator_array(values, np.full(n, 0.5))
        got_v, got_s, got_counter = h.fetch_actuator_arrays()
        np.testing.assert_array_equal(got_v, values)
        leds = np.array([a.kind == "led" for a in nao.actuators()])
        assert np.all(got_s[~leds] == 0.5) and np.isnan(got_s[leds]).all() and got_counter == counter
        for bad_v, bad_s, msg in ((np.zeros(n - 1), None, "shape"), (np.full(n, np.nan), None, "finite"),
                                  (np.zeros(n), np.full(n, 2.0), r"\[0, 1\]")):
            with pytest.raises(ValueError, match=msg):
                c.set_actuator_array(bad_v, bad_s)
        assert h.fetch_actuator_arrays()[2] == counter  # nothing written


def test_client_of_a_port_that_changes_robot(nao, wheeled, port):
    h = hal.HALInterface(nao, port)
    c = hal.RobotClient(port)
    c.start()
    c.set_actuator("HeadYaw", 0.2)
    h.close()
    h = hal.HALInterface(nao, port)  # the same robot restarts: the client re-sends its commands
    try:
        assert c.wait_cycle(timeout=0.01) is False  # no cycle ran, but the client is back
        assert h.fetch_angle_actuator_value("HeadYaw") == 0.2
    finally:
        h.close()
    h = hal.HALInterface(wheeled, port)  # another robot on the port
    try:
        with pytest.raises(RuntimeError, match="now serves another robot"):
            c.set_actuator("HeadYaw", 0.1)
        c.start()
        c.set_actuator("WheelL/Speed", 1.0)
        assert h.fetch_wheel_velocity_actuator_value("WheelL/Speed") == 1.0
        c.stop()
    finally:
        h.close()
