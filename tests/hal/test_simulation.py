"""Simulation: the HAL bridge against a World. Physics checks of the issue (stand / collapse, FSRs,
IMU, sonar, bumper, wheels) against analytic values."""

import math

import numpy as np
import pytest

import torsion
from torsion import hal
from torsion.hal.model import rpy_matrix

G = 9.81


def make(robot, port, ground=True, **kw):
    w = torsion.World()
    if ground:
        w.add_ground()
    sim = hal.Simulation(w, hal.Model.bundled(robot), port=port, **kw)
    client = hal.RobotClient(port)
    client.start()
    return w, sim, client


@pytest.fixture
def nao(port):
    w, sim, c = make("nao", port, cameras=False)
    yield w, sim, c
    c.stop()
    sim.close()


@pytest.fixture
def wheeled(port):
    w, sim, c = make("wheeled", port, cameras=False)
    yield w, sim, c
    c.stop()
    sim.close()


def run(sim, cycles):
    for _ in range(cycles):
        sim.step()


def test_simulation_arguments(port):
    w = torsion.World()
    m = hal.Model.bundled("nao")
    with pytest.raises(ValueError, match="hal_period"):
        hal.Simulation(w, m, port=port, hal_period=0.0)
    with pytest.raises(ValueError, match="whole number of world time steps"):
        hal.Simulation(w, m, port=port, hal_period=0.0105)
    with pytest.raises(TypeError, match="torsion.World"):
        hal.Simulation(None, m, port=port)
    with pytest.raises(ValueError, match="base_position"):
        hal.Simulation(w, m, port=port, base_position=[0, 0])
    assert w.get_object_count() == 0  # nothing left behind by the failures


def test_before_start_the_robot_holds_its_start_pose(port):
    w = torsion.World()
    w.add_ground()
    with hal.Simulation(w, hal.Model.bundled("nao"), port=port, cameras=False) as sim:
        assert sim.robot_mass() == pytest.approx(5.243)
        assert sim.hal.fetch_angle_actuator_value("LShoulderPitch") != sim.hal.fetch_angle_actuator_value(
            "LShoulderPitch")  # NaN: nobody started the robot side
        run(sim, 30)
        c = hal.RobotClient(port)
        values = c.read_sensors()
        assert values["LShoulderPitch"] == pytest.approx(1.4, abs=0.02)  # the start value, held at start stiffness
        assert sim.robot.get_generalized_coordinate()[2] == pytest.approx(0.3331, abs=2e-3)


def test_nao_stands_at_stiffness_1_and_collapses_at_0(port):
    heights = {}
    for stiffness in (1.0, 0.0):
        w, sim, c = make("nao", port, cameras=False)
        z0 = sim.robot.get_generalized_coordinate()[2]
        c.set_stiffness(stiffness)
        run(sim, 100)
        heights[stiffness] = sim.robot.get_generalized_coordinate()[2] - z0
        c.stop()
        sim.close()
    assert abs(heights[1.0]) < 3e-3  # stands
    assert heights[0.0] < -0.1  # limp joints: falls down


def test_fsrs_sum_to_the_mass_standing_still(nao):
    w, sim, c = nao
    run(sim, 50)
    v = c.read_sensors(sim.model.sensor_names("fsr"))
    assert all(x >= 0 for x in v.values())
    total = sum(v.values())
    assert total == pytest.approx(sim.robot_mass(), rel=0.02)
    left = sum(x for k, x in v.items() if k.startswith("LFoot"))
    assert left == pytest.approx(total / 2, rel=0.05)  # symmetric stance
    # the centre of mass lies between the ankles and the toes' FSRs: the rear FSRs carry more
    rear = sum(x for k, x in v.items() if "Rear" in k)
    assert 0.5 * total < rear < 0.75 * total


def test_imu_at_rest_reads_gravity_up(nao):
    w, sim, c = nao
    run(sim, 50)
    imu = c.read_sensor("InertialSensor")
    assert imu.shape == (7,)
    ax, ay, accx, accy, accz, gx, gy = imu
    assert accz == pytest.approx(G, rel=0.01)
    assert abs(ax) < 0.02 and abs(ay) < 0.02 and abs(accx) < 0.2 and abs(accy) < 0.2
    assert abs(gx) < 0.05 and abs(gy) < 0.05


@pytest.mark.parametrize("yaw", [0.0, math.pi / 2])
def test_imu_on_a_ramp(port, yaw):
    """The wheeled robot parked on a 0.2 rad ramp: facing uphill it pitches up (AngleY = -0.2 in
    NAO's frame, x forward and z up) and AccX = g sin 0.2; across the slope it rolls, left side
    down (AngleX = -0.2, AccY = -g sin 0.2). AccZ = g cos 0.2 either way."""
    th = 0.2
    w = torsion.World()
    ramp = w.add_box(4, 4, 0.2, 100.0)
    ramp.set_body_type(torsion.BodyType.STATIC)
    R_ramp = rpy_matrix((0.0, -th, 0.0))
    ramp.set_orientation_from_matrix(R_ramp)
    ramp.set_position(0, 0, -0.1)
    sim = hal.Simulation(w, hal.Model.bundled("wheeled"), port=port, cameras=False)
    c = hal.RobotClient(port)
    c.start()
    try:
        gc = sim.robot.get_generalized_coordinate()
        R = R_ramp @ rpy_matrix((0.0, 0.0, yaw))
        gc[:3] = R_ramp @ [0, 0, 0.0801]
        gc[3:7] = quat_wxyz(R)
        sim.robot.set_generalized_coordinate(gc)
        run(sim, 50)
        ax, ay, accx, accy, accz, gx, gy = c.read_sensor("InertialSensor")
        if yaw == 0.0:
            expect = (0.0, -th, G * math.sin(th), 0.0)
        else:
            expect = (-th, 0.0, 0.0, -G * math.sin(th))
        np.testing.assert_allclose([ax, ay], expect[:2], atol=5e-3)
        np.testing.assert_allclose([accx, accy], expect[2:], atol=0.05)
        assert accz == pytest.approx(G * math.cos(th), rel=1e-3)
    finally:
        c.stop()
        sim.close()


def quat_wxyz(R):
    w = math.sqrt(max(0.0, 1 + R[0, 0] + R[1, 1] + R[2, 2])) / 2
    return [w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w), (R[1, 0] - R[0, 1]) / (4 * w)]


def test_imu_in_free_fall_reads_no_acceleration_and_its_tilt(port):
    w = torsion.World()  # no ground
    roll, pitch = 0.3, -0.25
    sim = hal.Simulation(w, hal.Model.bundled("nao"), port=port, cameras=False, base_position=[0, 0, 5])
    try:
        gc = sim.robot.get_generalized_coordinate()
        gc[3:7] = quat_wxyz(rpy_matrix((roll, pitch, 0.7)))
        sim.robot.set_generalized_coordinate(gc)
        sim.step()
        c = hal.RobotClient(port)
        ax, ay, accx, accy, accz, gx, gy = c.read_sensor("InertialSensor")
        assert ax == pytest.approx(roll, abs=2e-3) and ay == pytest.approx(pitch, abs=2e-3)
        assert np.abs([accx, accy, accz]).max() < 0.05  # free fall: no proper acceleration
    finally:
        sim.close()


def test_sonar_sees_a_wall(nao):
    w, sim, c = nao
    run(sim, 5)
    s = sim.model.sonar_sensor("Sonar/Left")
    origin = sim.robot.get_frame_position("ROOT") + sim.robot.get_frame_orientation("ROOT") @ np.array(s.xyz)
    echoes = c.read_sensor("Sonar/Left")
    assert echoes.shape == (10,) and echoes[0] > 0.7  # only the floor, far down the cone
    for d in (0.4, 0.6):
        wall = w.add_box(0.1, 3.0, 1.5, 10.0)
        wall.set_body_type(torsion.BodyType.STATIC)
        wall.set_position(origin[0] + d + 0.05, 0, 0.75)
        sim.step()
        for name in ("Sonar/Left", "Sonar/Right"):
            e = c.read_sensor(name)
            assert e[0] == pytest.approx(d, abs=0.01)  # the perpendicular lies inside the 60 degree cone
            assert np.all(np.diff(e[e > 0]) > 0)  # then other objects (the floor), nearest first
        w.remove_object(wall)


def test_depth_infrared_and_sonar_of_the_wheeled_robot(wheeled):
    w, sim, c = wheeled
    run(sim, 5)
    assert c.read_sensor("Infrared/Front") == 1.5  # nothing within range: max_range
    base_x = sim.robot.get_frame_position("ROOT")[0]
    wall = w.add_box(0.1, 2.0, 1.0, 10.0)
    wall.set_body_type(torsion.BodyType.STATIC)
    wall.set_position(base_x + 0.151 + 0.7 + 0.05, 0, 0.5)
    sim.step()
    assert c.read_sensor("Infrared/Front") == pytest.approx(0.7, abs=0.01)
    assert c.read_sensor("Sonar/Front_sensor")[0] == pytest.approx(0.7, abs=0.01)


def test_bumper_fires_on_contact_only(nao):
    w, sim, c = nao
    run(sim, 20)
    names = sim.model.sensor_names("bumper")
    assert all(v == 0.0 for v in c.read_sensors(names).values())  # standing: the soles touch, not the toes
    ankle = sim.robot.get_frame_position("LAnkleRoll")
    block = w.add_box(0.1, 0.06, 0.05, 1.0)
    block.set_body_type(torsion.BodyType.STATIC)
    block.set_position(ankle[0] + 0.105 + 0.05 + 0.02, ankle[1], 0.025)  # 2 cm in front of the toe
    run(sim, 3)
    assert all(v == 0.0 for v in c.read_sensors(names).values())  # near, not touching
    block.set_position(ankle[0] + 0.105 + 0.05 - 0.001, ankle[1], 0.025)  # touching the left toe
    run(sim, 3)
    v = c.read_sensors(names)
    assert v["LFoot/Bumper/Left"] == 1.0 and v["LFoot/Bumper/Right"] == 1.0
    assert v["RFoot/Bumper/Left"] == 0.0 and v["RFoot/Bumper/Right"] == 0.0


def test_tactile_fires_when_the_head_is_touched(nao):
    w, sim, c = nao
    run(sim, 5)
    names = ["Head/Touch/Front", "Head/Touch/Middle", "Head/Touch/Rear"]
    assert all(v == 0.0 for v in c.read_sensors(names).values())
    top = sim.robot.get_frame_position("HeadPitch") + [0, 0, 0.11]
    ball = w.add_sphere(0.02, 0.05)
    ball.set_body_type(torsion.BodyType.STATIC)
    ball.set_position(top[0], top[1], top[2] + 0.02 - 0.001)
    run(sim, 2)
    v = c.read_sensors(names)
    assert v == {"Head/Touch/Front": 0.0, "Head/Touch/Middle": 1.0, "Head/Touch/Rear": 0.0}


def test_angle_and_coupled_actuators_reach_their_targets(nao):
    w, sim, c = nao
    c.set_actuators({"HeadYaw": (0.6, 1.0), "LHand": (1.0, 1.0), "HeadPitch": (-0.3, 1.0)})
    run(sim, 60)
    v = c.read_sensors(["HeadYaw", "HeadPitch", "LHand"])
    assert v["HeadYaw"] == pytest.approx(0.6, abs=0.01)
    assert v["HeadPitch"] == pytest.approx(-0.3, abs=0.02)
    assert v["LHand"] == pytest.approx(1.0, abs=0.02)
    gc = sim.robot.get_generalized_coordinate()
    joints = {j["joint"]: j for j in sim.robot.get_joints()}
    assert gc[joints["LHandThumb"]["gc_index"]] == pytest.approx(-0.8, abs=0.02)  # ratio -0.8
    # the encoder of the mimic joint RHipYawPitch follows LHipYawPitch
    c.set_actuator("LHipYawPitch", -0.2)
    run(sim, 40)
    v = c.read_sensors(["LHipYawPitch", "RHipYawPitch"])
    assert v["LHipYawPitch"] == v["RHipYawPitch"] and v["LHipYawPitch"] == pytest.approx(-0.2, abs=0.03)


def test_stiffness_scales_the_pd_gains(nao):
    w, sim, c = nao
    m = sim.model.angle_actuator("HeadYaw")
    joints = {j["joint"]: j for j in sim.robot.get_joints()}
    dof = joints["HeadYaw"]["gv_index"]
    for s in (1.0, 0.25, 0.0):
        c.set_actuator("HeadYaw", 0.1, stiffness=s)
        sim.step()
        kp, kd = sim.robot.get_pd_gains()
        assert (kp[dof], kd[dof]) == pytest.approx((s * m.kp, s * m.kd))
        assert sim.robot.get_pd_target()[0][joints["HeadYaw"]["gc_index"]] == 0.1


def test_wheeled_robot_reaches_the_commanded_wheel_speed(wheeled):
    w, sim, c = wheeled
    x0 = sim.robot.get_generalized_coordinate()[0]
    c.set_actuators({"WheelL/Speed": (5.0, 1.0), "WheelR/Speed": (5.0, 1.0)})
    run(sim, 100)
    v = c.read_sensors(["WheelL/Speed", "WheelR/Speed"])
    assert v["WheelL/Speed"] == pytest.approx(5.0, rel=0.01) and v["WheelR/Speed"] == pytest.approx(5.0, rel=0.01)
    # rolling without slipping: the base moves at wheel radius * speed
    gv = sim.robot.get_generalized_velocity()
    assert gv[0] == pytest.approx(0.06 * 5.0, rel=0.02)
    assert sim.robot.get_generalized_coordinate()[0] - x0 > 0.2
    # turning: opposite speeds spin it in place
    c.set_actuators({"WheelL/Speed": -2.0, "WheelR/Speed": 2.0})
    run(sim, 60)
    assert sim.robot.get_generalized_velocity()[5] > 0.5  # yaw rate, left wheel backwards: turns left
    # a speed above max_velocity is clamped
    c.set_actuators({"WheelL/Speed": 100.0, "WheelR/Speed": 100.0})
    run(sim, 60)
    assert c.read_sensor("WheelL/Speed") < 20.0 + 0.5


def test_torque_speed_and_led_actuators(wheeled):
    w, sim, c = wheeled
    c.set_actuators({"ArmLift": (3.0, 0.5), "HeadYaw": (1.0, 1.0), "Base/Led": 0.7,
                     "WheelL/Torque": (0.4, 1.0)})
    run(sim, 40)
    v = c.read_sensors(["ArmLift/Torque", "HeadYaw/Speed"])
    assert v["ArmLift/Torque"] == pytest.approx(1.5)  # limited to stiffness * max_torque = 0.5 * 3 N m
    # velocity control against the joint's viscous damping b: v = kd / (kd + b) * v_ref
    kd, b = sim.model.angle_speed_actuator("HeadYaw").kd, 0.01
    assert v["HeadYaw/Speed"] == pytest.approx(kd / (kd + b), rel=1e-3)
    assert sim.led_values() == {"Base/Led": 0.7}
    joints = {j["joint"]: j for j in sim.robot.get_joints()}
    ff = sim.robot.get_feedforward_generalized_force()
    assert ff[joints["WheelL"]["gv_index"]] == pytest.approx(0.4)  # wheel torque: feedforward


def test_cameras_render_rgb_and_depth(port):
    w, sim, c = make("nao", port)
    try:
        c.request_camera("CameraTop", (160, 120))
        red = w.add_box(0.2, 1.0, 1.0, 1.0)
        red.set_body_type(torsion.BodyType.STATIC)
        pos, rot = sim.camera_pose("CameraTop")
        red.set_position(pos[0] + 0.5 + 0.1, pos[1], pos[2])
        sim.set_color(red, (1.0, 0.0, 0.0))
        sim.step()
        img = c.read_sensor("CameraTop")
        assert img.shape == (120, 160, 3) and img.dtype == np.uint8
        # the face looks at the camera (normal -x); the light comes from (0.35, 0.25, 1): only ambient light
        np.testing.assert_array_equal(img[60, 80], [int(0.3 * 255 + 0.5), 0, 0])
        # depth image of the same view, 320x240: the face at 0.5 m along the optical axis
        c.request_camera("CameraTop", (320, 240), hal.COLORSPACE_DEPTH)
        for _ in range(10):  # the next frame is due one camera period (1/15 s) later
            sim.step()
            d = c.read_sensor("CameraTop")
            if d.dtype == np.float32:
                break
        assert d.shape == (240, 320) and d.dtype == np.float32
        pos_now, rot_now = sim.camera_pose("CameraTop")  # the robot sways a little: the pose of this frame
        face_x = red.get_position()[0] - 0.1
        assert d[120, 160] == pytest.approx((face_x - pos_now[0]) / rot_now[0, 0], abs=1e-3)
        # the bottom camera looks down at the floor: Lambert shading of the ground's up normal
        c.request_camera("CameraBottom", (80, 60))
        w.remove_object(red)
        for _ in range(8):
            sim.step()
        img = c.read_sensor("CameraBottom")
        light_up = 1.0 / math.sqrt(0.35 ** 2 + 0.25 ** 2 + 1.0)
        expect = round(0.55 * (0.3 + 0.7 * light_up) * 255)
        assert abs(int(img[50, 40, 0]) - expect) <= 1
    finally:
        c.stop()
        sim.close()


def test_fixed_base_arm_from_a_custom_description(tmp_path, port):
    """A robot that is not bundled: the 7-DoF arm (fixed base) with two angle actuators, a torque
    actuator and their sensors. At rest under gravity the torque sensor of a joint held by its
    PD reads the gravity torque the joint carries (RNEA)."""
    import json

    desc = {"format": "torsion.hal.devices", "version": 1, "actuators": [
        {"name": "J2", "kind": "angle", "joint": "joint_2", "start": 0.5, "kp": 2000, "kd": 50},
        {"name": "J4", "kind": "angle", "joint": "joint_4", "start": -0.3, "kp": 2000, "kd": 50},
        {"name": "J6", "kind": "torque", "joint": "joint_6", "max_torque": 40}],
        "sensors": [{"name": "J2", "kind": "angle", "joint": "joint_2"},
                    {"name": "J2/Torque", "kind": "torque", "joint": "joint_2"},
                    {"name": "J6/Speed", "kind": "angle_speed", "joint": "joint_6"}]}
    path = tmp_path / "arm.devices.json"
    path.write_text(json.dumps(desc))
    model = hal.Model.from_files(torsion.robots.urdf_path("arm7"), path)
    w = torsion.World()
    with pytest.raises(ValueError, match="floating-base"):
        hal.Simulation(w, model, port=port, base_position=[0, 0, 1])
    with hal.Simulation(w, model, port=port, cameras=False) as sim:
        c = hal.RobotClient(port)
        c.start()
        c.set_actuator("J2", 0.4)
        for _ in range(200):
            sim.step()
        v = c.read_sensors()
        assert v["J6/Speed"] == pytest.approx(0.0, abs=1e-5)
        r = sim.robot
        r.set_generalized_velocity(np.zeros(r.get_dof()))
        tau = r.compute_inverse_dynamics(np.zeros(r.get_dof()), w.get_gravity())
        dof = {j["joint"]: j["gv_index"] for j in r.get_joints()}["joint_2"]
        assert abs(tau[dof]) > 5.0  # the shoulder carries the arm
        assert v["J2/Torque"] == pytest.approx(tau[dof], rel=1e-3)
        # a PD of gain kp holds that torque with the error tau / kp below its target
        assert v["J2"] == pytest.approx(0.4 - tau[dof] / 2000.0, abs=2e-4)
        c.stop()


def test_same_inputs_give_bitwise_identical_sensors(port):
    runs = []
    for _ in range(2):
        w, sim, c = make("nao", port, cameras=False)
        c.set_actuators({"HeadYaw": (0.4, 0.8), "LShoulderPitch": (0.5, 1.0), "LHand": 1.0})
        out = []
        for _ in range(30):
            sim.step()
            out.append(c.read_sensor_array()[0])
        runs.append(np.array(out))
        c.stop()
        sim.close()
    assert runs[0].tobytes() == runs[1].tobytes()
    assert torsion.hal is hal  # import torsion is enough
