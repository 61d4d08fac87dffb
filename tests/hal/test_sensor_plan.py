"""The C++ plans of the HAL bridge (torsion._core._HalSensorPlan, _HalActuatorPlan) against the
NumPy computation they replaced, kept here as the reference: the same devices measured /
applied on the same states must give the same values (discrete outputs exactly, the others to
round-off: the reference's 3x3 products go through NumPy's BLAS and einsum, whose summation
order and fused multiply-adds differ from the core's)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import torsion
from torsion import _core, hal

RTOL, ATOL = 1e-12, 1e-12


class ReferenceSensors:
    """The NumPy sensor computation of torsion.hal.Simulation before the sensor plan (every
    sensor but the cameras), over a Simulation's resolved joints, frames and bodies."""

    def __init__(self, sim):
        self.sim = sim
        r, m = sim.robot, sim.model
        joints = sim._joint_index
        link_frame, frame_index = sim._link_frame, sim._frame_index

        def frame_of(link):
            return frame_index[link_frame[link]]

        def body_of(link):
            return int(r.get_frame_placement(link_frame[link])[0])

        slots = sim.hal.sensor_slots()
        self.n = sum(s for _, s in slots.values())
        self.enc, self.spd, self.trq, self.cpl = [], [], [], []
        self.imus, self.fsr_groups, self.regions, self.rays = [], {}, [], []
        for s in m.sensors():
            off = slots[s.name][0] if s.name in slots else -1
            if s.kind == "angle":
                gi, _vi, mul, add = joints[s.joint]
                self.enc.append((gi, off, mul, add))
            elif s.kind in ("angle_speed", "wheel_velocity"):
                _gi, vi, mul, _ = joints[s.joint]
                self.spd.append((vi, off, mul))
            elif s.kind == "torque":
                self.trq.append((joints[s.joint][1], off))
            elif s.kind == "coupled":
                self.cpl.append((off, [(joints[jn][0], joints[jn][2], joints[jn][3], ratio) for jn, ratio in s.joints]))
            elif s.kind == "inertial":
                self.imus.append((off, frame_of(s.link), np.array(s.xyz), s.rotation(), any(s.xyz)))
            elif s.kind == "fsr":
                g = self.fsr_groups.setdefault(s.link, {"body": body_of(s.link), "frame": frame_of(s.link),
                                                        "offs": [], "xy": []})
                g["offs"].append(off)
                g["xy"].append(s.xyz[:2])
            elif s.kind in ("bumper", "tactile"):
                self.regions.append((off, body_of(s.link), frame_of(s.link), np.array(s.xyz),
                                     np.array(s.size_xyz) / 2 + 1e-3))
            elif s.kind in ("sonar", "depth_infrared"):
                dirs = s.ray_directions() if s.kind == "sonar" else np.array([[1.0, 0.0, 0.0]])
                self.rays.append((off, s, frame_of(s.link), np.array(s.xyz), s.rotation(), dirs))
        for g in self.fsr_groups.values():
            xy = np.array(g["xy"])
            xs, ys = np.unique(xy[:, 0]), np.unique(xy[:, 1])
            # four FSRs on a rectangle share forces bilinearly; otherwise the nearest one takes it
            g["rect"] = (xs, ys) if len(xy) == 4 and len(xs) == 2 and len(ys) == 2 else None
            g["cx"], g["cy"] = xy[:, 0] == xs[-1], xy[:, 1] == ys[-1]
            g["xy"] = xy
        self.v0 = []

    def _imu_state(self, k):
        _off, f, xyz, R_l, has_offset = self.imus[k]
        r = self.sim.robot
        R_f = r.get_frame_orientation(f)
        w = r.get_frame_angular_velocity(f)
        v = r.get_frame_velocity(f)
        if has_offset:
            v = v + np.cross(w, R_f @ xyz)
        return R_f @ R_l, w, v

    def begin(self):
        """The IMUs' velocities at the start of a cycle."""
        self.v0 = [self._imu_state(k)[2] for k in range(len(self.imus))]

    def measure(self):
        sim, r = self.sim, self.sim.robot
        out = np.full(self.n, np.nan)
        gc, gv = r.get_generalized_coordinate(), r.get_generalized_velocity()
        for gi, off, mul, add in self.enc:
            out[off] = gc[gi] * mul + add
        for vi, off, mul in self.spd:
            out[off] = gv[vi] * mul
        for vi, off in self.trq:
            out[off] = r.get_generalized_force()[vi]
        for off, rows in self.cpl:
            out[off] = sum((gc[g] * m + a) / ratio for g, m, a, ratio in rows) / len(rows)
        g = sim.world.get_gravity()
        for k, (off, *_rest) in enumerate(self.imus):
            R, w, v = self._imu_state(k)
            f = ((v - self.v0[k]) / sim.hal_period - g) @ R
            gyr = w @ R
            r20, r21, r22 = R[2]
            out[off:off + 7] = (math.atan2(r21, r22), math.atan2(-r20, math.hypot(r21, r22)), *f, gyr[0], gyr[1])
        self._contacts(out)
        self._rays(out)
        return out

    def _contacts(self, out):
        r = self.sim.robot
        for g in self.fsr_groups.values():
            out[g["offs"]] = 0.0
        for off, *_ in self.regions:
            out[off] = 0.0
        gnorm = float(np.linalg.norm(self.sim.world.get_gravity()))
        c = r.get_contacts()
        c = c[~c["is_self_collision"]]
        fn = (c["force"] * c["normal"]).sum(1)  # the normal points towards A
        fn = np.maximum(np.where(c["is_object_a"], fn, -fn), 0.0)

        def local(frame, sel):
            return (c["position"][sel] - r.get_frame_position(frame)) @ r.get_frame_orientation(frame)

        for g in self.fsr_groups.values():
            sel = c["local_body_index"] == g["body"]
            loads = np.zeros(len(g["offs"]))
            if sel.any():
                p = local(g["frame"], sel)
                if g["rect"] is not None:
                    (x0, x1), (y0, y1) = g["rect"]
                    u = np.clip((p[:, 0] - x0) * (1.0 / (x1 - x0)), 0.0, 1.0)[:, None]
                    v = np.clip((p[:, 1] - y0) * (1.0 / (y1 - y0)), 0.0, 1.0)[:, None]
                    w = np.where(g["cx"], u, 1.0 - u) * np.where(g["cy"], v, 1.0 - v)
                    np.add.at(loads, np.arange(4)[None].repeat(len(p), 0), fn[sel, None] * w)
                else:
                    d = ((p[:, None, :2] - g["xy"][None]) ** 2).sum(-1)
                    np.add.at(loads, d.argmin(1), fn[sel])
            out[g["offs"]] = loads / gnorm
        for off, body, frame, centre, half in self.regions:
            sel = c["local_body_index"] == body
            if sel.any():
                out[off] = float((np.abs(local(frame, sel) - centre) <= half).all(axis=1).any())

    def _rays(self, out):
        r, w = self.sim.robot, self.sim.world
        for off, s, f, xyz, R_l, d in self.rays:
            R_f = r.get_frame_orientation(f)
            res = w.ray_test_batch(np.broadcast_to(r.get_frame_position(f) + R_f @ xyz, d.shape),
                                   d @ (R_f @ R_l).T, np.full(len(d), s.max_range), num_threads=1)
            dd = res.distance
            if s.kind == "depth_infrared":
                out[off] = min(max(float(dd[0]), s.min_range), s.max_range)
                continue
            echoes = np.zeros(s.echoes)
            ok = dd <= s.max_range
            if not ok.any():
                echoes[0] = s.max_range
            else:
                key = ((res.object_index << 20) + res.local_index)[ok]
                dd = dd[ok]
                for e in range(s.echoes):
                    i = int(dd.argmin())
                    echoes[e] = max(float(dd[i]), s.min_range)
                    rest = key != key[i]
                    if not rest.any():
                        break
                    dd, key = dd[rest], key[rest]
            out[off:off + s.echoes] = echoes


def step_both(sim, ref, client):
    """One HAL cycle; the plan's sensor block (as the robot side reads it) and the reference's."""
    ref.begin()
    sim.step()
    return client.read_sensor_array()[0], ref.measure()


def assert_same(got, want, discrete):
    """Equal to round-off; the discrete entries (bumper and tactile states, sonar ranges at their
    limits) exactly."""
    assert got.shape == want.shape and not np.isnan(got).any()
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    np.testing.assert_array_equal(got[discrete], want[discrete])


def discrete_slots(sim):
    slots = sim.hal.sensor_slots()
    idx = []
    for s in sim.model.sensors():
        if s.kind in ("bumper", "tactile") and s.name in slots:
            idx.append(slots[s.name][0])
    return np.array(idx, dtype=np.intp)


def make(robot, port, model=None):
    w = torsion.World()
    w.add_ground()
    sim = hal.Simulation(w, model or hal.Model.bundled(robot), port=port, cameras=False)
    client = hal.RobotClient(port)
    client.start()
    return w, sim, client


def test_nao_sensor_plan_matches_the_reference(port):
    """Standing, waving the arms and the head, then a wall before the sonars, a block at a toe
    (bumpers) and a ball on the head (tactile): every cycle the same sensor block."""
    w, sim, c = make("nao", port)
    try:
        ref = ReferenceSensors(sim)
        disc = discrete_slots(sim)
        seen = {"fsr": 0.0, "bumper": 0.0, "tactile": 0.0, "echo": 0}
        slots = sim.hal.sensor_slots()

        def check(cycles, **commands):
            for i in range(cycles):
                if commands:
                    c.set_actuators({k: v(i) for k, v in commands.items()})
                got, want = step_both(sim, ref, c)
                assert_same(got, want, disc)
                seen["fsr"] = max(seen["fsr"], got[slots["LFoot/FSR/FrontLeft"][0]])
                seen["bumper"] = max(seen["bumper"], got[slots["LFoot/Bumper/Left"][0]])
                seen["tactile"] = max(seen["tactile"], got[slots["Head/Touch/Middle"][0]])
                sonar = got[slots["Sonar/Left"][0]:slots["Sonar/Left"][0] + 10]
                seen["echo"] = max(seen["echo"], int((sonar > 0).sum()))

        check(15)
        check(15, HeadYaw=lambda i: 0.05 * i, LShoulderPitch=lambda i: 1.4 - 0.1 * i,
              RShoulderRoll=lambda i: -0.02 * i, LHand=lambda i: 0.1 * (i % 10))
        # a wall in front of the sonars
        origin = sim.robot.get_frame_position("ROOT")
        wall = w.add_box(0.1, 3.0, 1.5, 10.0)
        wall.set_body_type(torsion.BodyType.STATIC)
        wall.set_position(origin[0] + 0.55, 0.2, 0.75)
        check(3)
        w.remove_object(wall)
        # a block touching the left toe
        ankle = sim.robot.get_frame_position("LAnkleRoll")
        block = w.add_box(0.1, 0.06, 0.05, 1.0)
        block.set_body_type(torsion.BodyType.STATIC)
        block.set_position(ankle[0] + 0.105 + 0.05 - 0.001, ankle[1], 0.025)
        check(3)
        w.remove_object(block)
        # a ball on the head
        top = sim.robot.get_frame_position("HeadPitch") + [0, 0, 0.11]
        ball = w.add_sphere(0.02, 0.05)
        ball.set_body_type(torsion.BodyType.STATIC)
        ball.set_position(top[0], top[1], top[2] + 0.02 - 0.001)
        check(2)
        # the scenes did exercise every kind of contact and ray sensor
        assert seen["fsr"] > 0.5 and seen["bumper"] == 1.0 and seen["tactile"] == 1.0 and seen["echo"] >= 2
    finally:
        c.stop()
        sim.close()


def test_wheeled_sensor_plan_matches_the_reference(port):
    """Torque, wheel and joint speed sensors, the infrared and the sonar of the wheeled robot,
    driving towards a wall until the bumper touches it."""
    w, sim, c = make("wheeled", port)
    try:
        ref = ReferenceSensors(sim)
        disc = discrete_slots(sim)
        slots = sim.hal.sensor_slots()
        x = sim.robot.get_frame_position("ROOT")[0]
        wall = w.add_box(0.1, 2.0, 1.0, 10.0)
        wall.set_body_type(torsion.BodyType.STATIC)
        wall.set_position(x + 1.75, 0, 0.5)  # its face 1.55 m before the infrared: out of range
        wheels = sim.model.actuator_names("wheel_velocity")
        bumper = slots[sim.model.sensor_names("bumper")[0]][0]
        infrared = []
        for i in range(800):
            c.set_actuators({**{n: 6.0 for n in wheels}, **{n: 0.3 for n in sim.model.actuator_names("torque")},
                             **{n: 0.5 * math.sin(0.1 * i) for n in sim.model.actuator_names("angle_speed")}})
            got, want = step_both(sim, ref, c)
            assert_same(got, want, disc)
            infrared.append(got[slots["Infrared/Front"][0]])
            if got[bumper] == 1.0:
                break
        assert got[bumper] == 1.0  # it did reach the wall
        assert min(infrared) < 0.2 and infrared[0] == 1.5  # from out of range to the wall
    finally:
        c.stop()
        sim.close()


def test_fsrs_not_on_a_rectangle_take_the_nearest_load(tmp_path, port):
    """A foot with three FSRs (no rectangle: each contact loads the nearest) and one with a
    single FSR (carrying the foot's whole load)."""
    desc = json.loads((Path(torsion.robots.urdf_path("nao")).parent / "nao.devices.json").read_text())
    sensors = []
    for s in desc["sensors"]:
        if s["name"] == "LFoot/FSR/RearRight" or (s["kind"] == "fsr" and s["name"].startswith("RFoot/")
                                                  and not s["name"].endswith("FrontLeft")):
            continue
        sensors.append(s)
    desc["sensors"] = sensors
    path = tmp_path / "nao3.devices.json"
    path.write_text(json.dumps(desc))
    model = hal.Model.from_files(torsion.robots.urdf_path("nao"), path)
    w, sim, c = make(None, port, model=model)
    try:
        ref = ReferenceSensors(sim)
        disc = discrete_slots(sim)
        slots = sim.hal.sensor_slots()
        for i in range(20):
            got, want = step_both(sim, ref, c)
            assert_same(got, want, disc)
        left = [got[slots[n][0]] for n in sim.model.sensor_names("fsr") if n.startswith("LFoot/")]
        right = [got[slots[n][0]] for n in sim.model.sensor_names("fsr") if n.startswith("RFoot/")]
        assert len(left) == 3 and len(right) == 1
        assert sum(left) + sum(right) == pytest.approx(sim.robot_mass(), rel=0.05)  # standing still
    finally:
        c.stop()
        sim.close()


# ------------------------------------------------------------------------------------ actuators

def reference_apply(sim, values, stiffness):
    """The NumPy actuator computation before the actuator plan: (kp, kd, q_ref, u_ref, tau, leds)."""
    acts = sim.model.actuators()
    joints = sim._joint_index
    r = sim.robot
    values = np.where(np.isnan(values), [a.start_value for a in acts], values)
    stiffness = np.where(np.isnan(stiffness), [getattr(a, "start_stiffness", np.nan) for a in acts], stiffness)
    s = np.minimum(np.maximum(stiffness, 0.0), 1.0)
    dof = r.get_dof()
    kp, kd, uref, tau = np.zeros(dof), np.zeros(dof), np.zeros(dof), np.zeros(dof)
    qref = r.get_pd_target()[0].copy()
    leds = []
    for i, a in enumerate(acts):
        if a.kind in ("angle", "coupled"):
            for jn, ratio in ((a.joint, 1.0),) if a.kind == "angle" else a.joints:
                gi, vi, _, _ = joints[jn]
                kp[vi], kd[vi] = s[i] * a.kp, s[i] * a.kd
                qref[gi] = min(max(values[i], a.min_value), a.max_value) * ratio
    for i, a in enumerate(acts):
        if a.kind in ("angle_speed", "wheel_velocity"):
            vi = joints[a.joint][1]
            vmax = a.max_speed if a.kind == "angle_speed" else a.max_velocity
            kd[vi] = s[i] * a.kd
            uref[vi] = min(max(values[i], -vmax), vmax)
        elif a.kind in ("torque", "wheel_torque"):
            vi = joints[a.joint][1]
            lim = s[i] * a.max_torque
            tau[vi] += min(max(values[i], -lim), lim)
        elif a.kind == "led":
            leds.append(min(max(values[i], 0.0), 1.0))
    if r.get_joints()[0]["type"] == "floating":
        kp[:6] = kd[:6] = 0.0
    return kp, kd, qref, uref, tau, np.array(leds)


@pytest.mark.parametrize("robot", ["nao", "wheeled"])
def test_actuator_plan_matches_the_reference(robot, port):
    w, sim, c = make(robot, port)
    try:
        rng = np.random.default_rng(7)
        n = len(sim.model.actuators())
        for k in range(6):
            values = rng.uniform(-3.0, 3.0, n)
            stiffness = rng.uniform(-0.5, 1.5, n)
            if k == 0:
                values[:] = stiffness[:] = np.nan  # before the robot side starts: the start values
            elif k % 2:
                values[rng.integers(0, n, 3)] = np.nan
                stiffness[rng.integers(0, n, 3)] = np.nan
            led = np.empty(len(sim._leds))
            sim._actuator_plan.apply(values, stiffness, led)
            kp, kd, qref, uref, tau, leds = reference_apply(sim, values, stiffness)
            got_kp, got_kd = sim.robot.get_pd_gains()
            got_q, got_u = sim.robot.get_pd_target()
            for a, b in ((got_kp, kp), (got_kd, kd), (got_q, qref), (got_u, uref),
                         (sim.robot.get_feedforward_generalized_force(), tau), (led, leds)):
                np.testing.assert_array_equal(a, b)  # the same operations in the same order
            sim.world.integrate(1)
    finally:
        c.stop()
        sim.close()


# ------------------------------------------------------------------------------------ bad input

def test_plans_refuse_bad_arguments(port):
    w, sim, c = make("nao", port)
    try:
        r = sim.robot
        n = len(sim._sens)
        plan = _core._HalSensorPlan(r, n, 0.01)
        with pytest.raises(ValueError, match="period"):
            _core._HalSensorPlan(r, n, float("nan"))
        with pytest.raises(ValueError, match="size"):
            _core._HalSensorPlan(r, -1, 0.01)
        with pytest.raises(ValueError, match="gc index .* out of range"):
            plan.add_encoder("angle", 10_000, 0)
        with pytest.raises(ValueError, match="kind"):
            plan.add_encoder("position", 7, 0)
        with pytest.raises(ValueError, match="sensor block"):
            plan.add_encoder("angle", 7, n)
        with pytest.raises(ValueError, match="mul"):
            plan.add_encoder("angle", 7, 0, float("inf"))
        with pytest.raises(ValueError, match="frame .* out of range"):
            plan.add_imu(0, 10_000, [0, 0, 0], np.eye(3))
        with pytest.raises(ValueError, match="rotation matrix"):
            plan.add_imu(0, 0, [0, 0, 0], 2 * np.eye(3))
        with pytest.raises(ValueError, match="sensor block"):
            plan.add_imu(n - 3, 0, [0, 0, 0], np.eye(3))
        with pytest.raises(ValueError, match="xy"):
            plan.add_fsr_group(1, 1, [0, 1], np.zeros((2, 3)))
        with pytest.raises(ValueError, match="same number"):
            plan.add_fsr_group(1, 1, [0, 1], np.zeros((3, 2)))
        with pytest.raises(ValueError, match="half"):
            plan.add_region(1, 1, 0, [0, 0, 0], [-1, 0, 0])
        with pytest.raises(ValueError, match="min_range"):
            plan.add_rays("sonar", 0, 0, [0, 0, 0], np.eye(3), [[1, 0, 0]], 1.0, 0.5, 3)
        with pytest.raises(ValueError, match="directions"):
            plan.add_rays("sonar", 0, 0, [0, 0, 0], np.eye(3), [[1, 0, float("nan")]], 0.1, 0.5, 3)
        with pytest.raises(ValueError, match="echoes"):
            plan.add_rays("sonar", 0, 0, [0, 0, 0], np.eye(3), [[1, 0, 0]], 0.1, 0.5, 0)
        with pytest.raises(TypeError, match="integers"):
            plan.add_coupled(0, [1.5], [1.0], [0.0], [1.0])
        with pytest.raises(ValueError, match="ratio"):
            plan.add_coupled(0, [7], [1.0], [0.0], [0.0])
        plan.add_encoder("angle", 7, 0)  # refused entries left the plan usable
        out = np.zeros(n)
        plan.measure(out)
        assert out[0] == r.get_generalized_coordinate()[7] and (out[1:] == 0).all()
        with pytest.raises(ValueError, match="out must be a writable C-contiguous float64"):
            plan.measure(np.zeros(n, dtype=np.float32))
        with pytest.raises(ValueError, match="out must be"):
            plan.measure(np.zeros(n + 1))
        with pytest.raises(ValueError, match="out must be"):
            plan.measure(np.zeros(2 * n)[::2])
        with pytest.raises(TypeError, match="out must be a NumPy"):
            plan.measure([0.0] * n)
        seg = sim.hal._seg
        with pytest.raises(ValueError, match="head must be .*uint64"):
            plan.measure_and_send(out, seg.sens_head_f, seg.sens, 1, 0)
        with pytest.raises(ValueError, match="sens must be"):
            plan.measure_and_send(out, seg.sens_head, seg.sens[:-1], 1, 0)

        acts = sim.model.actuators()
        gc = r.get_generalized_coordinate()
        start = np.zeros(len(acts))
        with pytest.raises(ValueError, match="q_ref"):
            _core._HalActuatorPlan(r, start, start, gc[:-1])
        with pytest.raises(ValueError, match="start_stiffness"):
            _core._HalActuatorPlan(r, start, start[:-1], gc)
        with pytest.raises(ValueError, match="start_value"):
            _core._HalActuatorPlan(r, np.full(len(acts), np.nan), start, gc)
        ap = _core._HalActuatorPlan(r, start, start, gc)
        with pytest.raises(ValueError, match="dof .* out of range"):
            ap.add_position(0, 7, 10_000, 1.0, 1.0, 1.0, -1.0, 1.0)
        with pytest.raises(ValueError, match="kp and kd"):
            ap.add_position(0, 7, 6, 1.0, -1.0, 1.0, -1.0, 1.0)
        with pytest.raises(ValueError, match="actuator .* out of range"):
            ap.add_torque(len(acts), 6, 1.0)
        with pytest.raises(ValueError, match="max"):
            ap.add_velocity(0, 6, 1.0, float("nan"))
        with pytest.raises(ValueError, match="led_out"):
            ap.apply(start, start, np.zeros(1))
        with pytest.raises(ValueError, match="values"):
            ap.apply(start[:-1], start, np.zeros(0))
        with pytest.raises(ValueError, match="cmd must be"):
            ap.fetch_and_apply(seg.cmd_head, seg.cmd[:, :-1].copy(), np.empty((2, len(acts))), np.zeros(0))
        with pytest.raises(ValueError, match="cmd_out must be"):
            ap.fetch_and_apply(seg.cmd_head, seg.cmd, np.empty((2, len(acts)), dtype=np.float32), np.zeros(0))

        # a removed robot: RemovedObjectError, not a crash
        w.remove_object(r)
        with pytest.raises(_core.RemovedObjectError):
            plan.measure(out)
        with pytest.raises(_core.RemovedObjectError):
            ap.apply(start, start, np.zeros(0))
    finally:
        c.stop()
        sim.close()
