"""Simulation: the bridge that runs a HAL against a torsion World.

``Simulation(world, model, port=9559, hal_period=0.01)`` adds the model's robot to the world and
serves its HAL on the port. Each :meth:`Simulation.step` is one HAL cycle:

1. fetch every command (values and stiffness; NaN, before the robot side starts, means the
   actuator's start value and start stiffness) and apply it: angle -> PD target with gains
   (s kp, s kd) at stiffness s (s = 0: limp); coupled -> each joint to ratio * value; angle_speed
   and wheel_velocity -> velocity target with damping gain s kd; torque and wheel_torque ->
   feedforward torque limited to s * max_torque; LEDs are stored (:meth:`led_values`);
2. step the physics for hal_period (hal_period / dt world steps);
3. measure and send every sensor: encoders (angle, coupled, torque, speeds), the IMU (roll and
   pitch of its frame, proper acceleration over the cycle and angular velocity, in its frame),
   FSRs (normal contact forces under the feet, in kg), bumpers and tactiles (a contact on their
   body inside their box), sonars (the cone sampled by rays) and depth infrared (one ray), and
   the camera the robot side selected, every camera period, as a ray-cast RGB image (per-object
   colour, Lambert shading) or the ray-cast depth camera's image.

Steps 1 and 3 (all but the cameras) run in the core, one call each per cycle: the device
description is compiled once into an actuator plan and a sensor plan (``_HalActuatorPlan``,
``_HalSensorPlan``: cpp/world/sensor_plan.hpp), which work on the robot's state directly and
write the sensor block into one buffer, the GIL released.
"""

from __future__ import annotations

import math
import time

import numpy as np

from .._core import (ArticulatedSystem, DepthCameraProperties, ObjectType, World, _HalActuatorPlan, _HalSensorPlan,
                     _hal_wait_change)
from . import shm as _shm
from .interface import HALInterface
from .model import CameraSensor, Model

__all__ = ["Simulation"]

_LIGHT = np.array([0.35, 0.25, 1.0]) / np.linalg.norm([0.35, 0.25, 1.0])  # towards the light, world
_AMBIENT = 0.3
_SKY = np.array([150, 180, 220], dtype=np.uint8)
_GROUND_RGB = np.array([0.55, 0.55, 0.5])


class Simulation:
    """Runs ``model``'s robot in ``world`` behind a HAL on ``port``.

    world: the World to add the robot to (its time step must divide hal_period).
    base_position: where to put the floating base's root (m, world); default: above the origin,
    the lowest collision point of the robot at z = 0 in its start pose.
    cameras: render camera images (the costly part of a cycle); off, cameras are never sent.
    """

    def __init__(self, world: World, model: Model, port: int = 9559, hal_period: float = 0.01,
                 base_position=None, cameras: bool = True):
        if not isinstance(world, World):
            raise TypeError(f"world must be a torsion.World, got {type(world).__name__}")
        if not isinstance(model, Model):
            raise TypeError(f"model must be a torsion.hal.Model, got {type(model).__name__}")
        if isinstance(hal_period, bool) or not isinstance(hal_period, (int, float)) or not (
                math.isfinite(hal_period) and hal_period > 0):
            raise ValueError(f"hal_period must be a finite number > 0 (s), got {hal_period!r}")
        self.world = world
        self.model = model
        self.hal_period = float(hal_period)
        self._n_substeps = self._substeps()  # checks hal_period against the world's time step
        self.cameras_enabled = bool(cameras)
        if base_position is not None:
            bp = np.asarray(base_position, dtype=float)
            if bp.shape != (3,) or not np.isfinite(bp).all():
                raise ValueError(f"base_position must be 3 finite numbers (m), got {base_position!r}")
        self.hal = HALInterface(model, port)
        self.robot = None
        try:
            self.robot: ArticulatedSystem = world.add_articulated_system(model.urdf_path)
            self._bind()
            self._place(base_position)
        except Exception:
            if self.robot is not None:
                world.remove_object(self.robot)
            self.hal.close()
            raise
        self.cycle = 0
        self._counter = None  # the command counter the last cycle applied
        self._led = np.full(len(self._leds), np.nan)
        self._colors: dict = {}
        self._last_frame_time = -math.inf
        self._ray_cache: dict = {}

    # ------------------------------------------------------------------ set-up
    def _substeps(self) -> int:
        dt = self.world.get_time_step()
        n = max(1, int(round(self.hal_period / dt)))
        if abs(n * dt - self.hal_period) > 1e-9 * max(1.0, self.hal_period):
            raise ValueError(f"hal_period ({self.hal_period} s) must be a whole number of world time steps "
                             f"({dt} s)")
        return n

    def _bind(self) -> None:
        """Resolve every device to gc/gv indices, frames and bodies of the loaded robot."""
        r, m = self.robot, self.model
        joints = {}  # URDF joint name -> (gc index, gv index, mult, offset); mimic joints map to the master
        for j in r.get_joints():
            if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
                joints[j["joint"]] = (j["gc_index"], j["gv_index"], 1.0, 0.0)
        for j in r.get_joints():
            if "mimic_joint" in j and j.get("mimic_joint"):
                gi, vi, _, _ = joints[j["mimic_joint"]]
                joints[j["joint"]] = (gi, vi, float(j["mimic_multiplier"]), float(j["mimic_offset"]))
        self._joint_index = joints
        self._gc_dim, self._dof = r.get_generalized_coordinate_dim(), r.get_dof()
        frames = set(r.get_frame_names())
        link_frame = {}
        for uj in m.joints.values():
            if uj.name in frames:
                link_frame[uj.child] = uj.name
        link_frame[m.root_link] = "ROOT"
        self._link_frame = link_frame
        self._frame_index = {f: r.get_frame_index_by_name(f) for f in set(link_frame.values()) if f in frames}

        def frame_of(link):
            return self._frame_index[link_frame[link]]

        def body_of(link):
            return int(r.get_frame_placement(link_frame[link])[0])

        acts = m.actuators()
        n = len(acts)
        self._start_v = np.array([a.start_value for a in acts])
        self._start_s = np.array([getattr(a, "start_stiffness", np.nan) for a in acts])
        # the actuator plan's rows (made in _place, once the PD target template is known):
        # position rows (actuator, gc, dof, ratio, kp, kd, lo, hi), one per (actuator, joint);
        # velocity rows (actuator, dof, kd, max); torque rows (actuator, dof, max); LEDs
        self._pos_rows, self._vel_rows, self._trq_rows, self._leds = [], [], [], []
        for i, a in enumerate(acts):
            if a.kind in ("angle", "coupled"):
                pairs = ((a.joint, 1.0),) if a.kind == "angle" else a.joints
                for jn, ratio in pairs:
                    gi, vi, _, _ = joints[jn]
                    self._pos_rows.append((i, gi, vi, ratio, a.kp, a.kd, a.min_value, a.max_value))
            elif a.kind in ("angle_speed", "wheel_velocity"):
                _gi, vi, _, _ = joints[a.joint]
                self._vel_rows.append((i, vi, a.kd, a.max_speed if a.kind == "angle_speed" else a.max_velocity))
            elif a.kind in ("torque", "wheel_torque"):
                _gi, vi, _, _ = joints[a.joint]
                self._trq_rows.append((i, vi, a.max_torque))
            else:
                self._leds.append(i)
        self._cmd = np.empty((2, n))

        # sensors: every one but the cameras in one plan, measured in one call per cycle
        slots = self.hal.sensor_slots()
        self._sens = np.full(sum(sz for _, sz in slots.values()), np.nan)
        plan = _HalSensorPlan(r, len(self._sens), self.hal_period)
        fsr_groups = {}  # link -> (offsets, xy), in the order of the description
        self._cams = []
        for s in m.sensors():
            off = slots[s.name][0] if s.name in slots else -1
            if s.kind == "angle":
                gi, _vi, mul, add = joints[s.joint]
                plan.add_encoder("angle", gi, off, mul, add)
            elif s.kind in ("angle_speed", "wheel_velocity"):
                _gi, vi, mul, _ = joints[s.joint]
                plan.add_encoder("speed", vi, off, mul)
            elif s.kind == "torque":
                plan.add_encoder("torque", joints[s.joint][1], off)
            elif s.kind == "coupled":
                rows = [joints[jn] for jn, _ratio in s.joints]
                plan.add_coupled(off, [j[0] for j in rows], [j[2] for j in rows], [j[3] for j in rows],
                                 [ratio for _jn, ratio in s.joints])
            elif s.kind == "inertial":
                plan.add_imu(off, frame_of(s.link), s.xyz, s.rotation())
            elif s.kind == "fsr":
                offs, xy = fsr_groups.setdefault(s.link, ([], []))
                offs.append(off)
                xy.append(s.xyz[:2])
            elif s.kind in ("bumper", "tactile"):
                plan.add_region(body_of(s.link), frame_of(s.link), off, s.xyz, np.array(s.size_xyz) / 2 + 1e-3)
            elif s.kind == "sonar":
                plan.add_rays("sonar", off, frame_of(s.link), s.xyz, s.rotation(), s.ray_directions(), s.min_range,
                              s.max_range, s.echoes)
            elif s.kind == "depth_infrared":
                plan.add_rays("depth_infrared", off, frame_of(s.link), s.xyz, s.rotation(), [[1.0, 0.0, 0.0]],
                              s.min_range, s.max_range)
            elif isinstance(s, CameraSensor):
                self._cams.append(s)
        for link, (offs, xy) in fsr_groups.items():
            plan.add_fsr_group(body_of(link), frame_of(link), offs, np.array(xy, dtype=float).reshape(-1, 2))
        self._sensor_plan = plan
        self._body_colors = None

    def _place(self, base_position) -> None:
        """Start pose: joints at the actuators' start values; the floating base at base_position
        or standing on z = 0."""
        r = self.robot
        gc = r.get_generalized_coordinate()
        for i, gi, _vi, ratio, _kp, _kd, lo, hi in self._pos_rows:
            gc[gi] = min(max(self._start_v[i], lo), hi) * ratio
        self._floating = r.get_joints()[0]["type"] == "floating"
        if self._floating:
            if base_position is None:
                r.set_generalized_coordinate(gc)
                gc[2] -= self._lowest_point()
            else:
                gc[:3] = np.asarray(base_position, dtype=float)
        elif base_position is not None:
            raise ValueError("base_position applies to a floating-base robot only")
        r.set_state(gc, np.zeros(self._dof))
        # the actuator plan, with the start pose as the PD target template (the entries no
        # actuator sets, the floating base's among them, stay valid)
        plan = _HalActuatorPlan(r, self._start_v, self._start_s, gc)
        for row in self._pos_rows:
            plan.add_position(*row)
        for row in self._vel_rows:
            plan.add_velocity(*row)
        for row in self._trq_rows:
            plan.add_torque(*row)
        for i in self._leds:
            plan.add_led(i)
        self._actuator_plan = plan

    def _lowest_point(self) -> float:
        r = self.robot
        body_frame = {}
        for b, j in enumerate(r.get_joints()):
            name = "ROOT" if j["type"] == "floating" or j["parent"] < 0 else j["joint"]
            body_frame[b] = name
        low = math.inf
        for c in r.get_collision_bodies():
            f = body_frame[c["body"]]
            p_f, R_f = r.get_frame_position(f), r.get_frame_orientation(f)
            R = R_f @ np.asarray(c["rotation"])
            p = p_f + R_f @ np.asarray(c["position"])
            shape = c["shape"]
            if shape == "box":
                half = np.asarray(c["size"]) / 2
                low = min(low, p[2] - float(np.abs(R[2]) @ half))
            elif shape == "sphere":
                low = min(low, p[2] - c["radius"])
            elif shape in ("capsule", "cylinder"):
                az = abs(R[2, 2])
                h = c["height"] / 2
                extra = c["radius"] if shape == "capsule" else c["radius"] * math.sqrt(max(0.0, 1 - az * az))
                low = min(low, p[2] - h * az - extra)
        return low if math.isfinite(low) else 0.0

    # ------------------------------------------------------------------ public
    @property
    def port(self) -> int:
        return self.hal.port

    @property
    def last_command(self):
        """What the last cycle fetched: (values, stiffness, command counter), copies; NaN before
        the robot side starts; None before the first cycle."""
        if self._counter is None:
            return None
        return self._cmd[0].copy(), self._cmd[1].copy(), self._counter

    def robot_mass(self) -> float:
        """Total mass of the robot (kg)."""
        return float(self.robot.get_total_mass())

    def led_values(self) -> dict:
        """{LED name: last intensity (0..1)} applied by the last cycle (NaN before the first)."""
        acts = self.model.actuators()
        return {acts[i].name: float(v) for i, v in zip(self._leds, self._led)}

    def set_color(self, obj, rgb) -> None:
        """Colour (3 numbers in 0..1) the RGB cameras give a world object."""
        c = np.asarray(rgb, dtype=float)
        if c.shape != (3,) or not np.isfinite(c).all() or (c < 0).any() or (c > 1).any():
            raise ValueError(f"rgb must be 3 numbers in [0, 1], got {rgb!r}")
        self._colors[obj.get_id()] = c

    def close(self) -> None:
        """Close the HAL (remove its shared memory). The robot stays in the world."""
        self.hal.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ the cycle
    def step(self, wait_for_command: float = 0.0) -> int:
        """One HAL cycle: apply the commands, step the physics for hal_period, send every sensor.
        Returns the cycle number.

        wait_for_command: first wait up to this long (s) for a command the last cycle did not
        apply (the robot side writing once per cycle in lockstep: each cycle then applies its
        next command as soon as it is written, instead of the one before it); 0 (default): run
        at once with whatever the robot side last wrote. (torsion addition)"""
        if isinstance(wait_for_command, bool) or not isinstance(wait_for_command, (int, float)) or not (
                math.isfinite(wait_for_command) and wait_for_command >= 0):
            raise ValueError(f"wait_for_command must be a finite number >= 0 (s), got {wait_for_command!r}")
        seg = self.hal._segment()  # the HAL's shared memory (RuntimeError once closed)
        if wait_for_command > 0:
            self._wait_for_command(seg, wait_for_command)
        # the commands: one sequence-locked copy applied in the same call; a block left mid-write
        # goes through the HAL's waiting fetch (timeout, dead robot side)
        counter = self._actuator_plan.fetch_and_apply(seg.cmd_head, seg.cmd, self._cmd, self._led)
        if counter is None:
            values, stiffness, counter = self.hal.fetch_actuator_arrays(self._cmd)
            self._actuator_plan.apply(values, stiffness, self._led)
        self._counter = counter
        self._sensor_plan.begin_cycle()
        self.world.integrate(self._n_substeps)
        self.cycle += 1
        # every sensor, measured and sent (as HALInterface.send_sensor_array) in one call
        self._sensor_plan.measure_and_send(self._sens, seg.sens_head, seg.sens, self.cycle, counter)
        if self.cameras_enabled and self._cams:
            t = self.world.get_world_time()
            name, w, h, space = self.hal.requested_camera()
            cam = self.model.sensor(name)
            if t - self._last_frame_time >= cam.period - 1e-9:
                self._last_frame_time = t
                self.render_camera(cam, w, h, space, send=True)
        return self.cycle

    def _wait_for_command(self, seg, timeout: float) -> bool:
        """Wait until the command counter differs from the one the last cycle applied, the GIL
        released (spinning for shm.SPIN_SECONDS, then sleeping in steps growing to 1 ms, as
        RobotClient.wait_cycle does); False on timeout."""
        head, last = seg.cmd_head, self._counter
        if last is None or int(head[_shm.C_COUNTER]) != last:
            return True
        start = time.monotonic()
        deadline = start + timeout
        while True:
            now = time.monotonic()
            if now >= deadline:
                return False
            # at most 50 ms at a time in the core, so that Ctrl-C is noticed
            if _hal_wait_change(head, _shm.C_COUNTER, last, max(0.0, _shm.SPIN_SECONDS - (now - start)),
                                min(deadline - now, 0.05)):
                return True

    # ------------------------------------------------------------------ cameras
    def camera_pose(self, camera) -> tuple:
        """(position (3,), rotation (3, 3) camera to world) of a camera sensor (name or object)."""
        cam = self.model.sensor(camera if isinstance(camera, str) else camera.name, "camera")
        r = self.robot
        f = self._frame_index[self._link_frame[cam.link]]
        R_f = r.get_frame_orientation(f)
        return r.get_frame_position(f) + R_f @ np.array(cam.xyz), R_f @ cam.rotation()

    def render_camera(self, camera, width: int, height: int, colorspace: int = _shm.COLORSPACE_RGB,
                      send: bool = False) -> np.ndarray:
        """Render a camera now: RGB uint8 (H, W, 3) ray-cast with per-object colours and Lambert
        shading, or depth float32 (H, W) metres along the optical axis from the ray-cast depth
        camera (clip_far where nothing is seen). send=True also sends it to the HAL."""
        cam = self.model.sensor(camera if isinstance(camera, str) else camera.name, "camera")
        pos, rot = self.camera_pose(cam)
        if colorspace == _shm.COLORSPACE_DEPTH:
            props = DepthCameraProperties(width=width, height=height, clip_near=cam.clip_near, clip_far=cam.clip_far,
                                          hfov=cam.hfov, depth=True, segmentation=False)
            img = self.world.capture_depth_camera(pos, rot, props, num_threads=1).depth.astype(np.float32)
        else:
            img = self._render_rgb(cam, pos, rot, width, height)
        if send:
            self.hal.send_camera_sensor_value(cam, img, (width, height), colorspace, time=self.world.get_world_time())
        return img

    def _camera_rays(self, cam, w, h) -> np.ndarray:
        key = (cam.name, w, h)
        d = self._ray_cache.get(key)
        if d is None:
            f = (w / 2) / math.tan(math.radians(cam.hfov) / 2)
            cols = (np.arange(w) + 0.5 - w / 2) / f
            rows = (np.arange(h) + 0.5 - h / 2) / f
            yy, zz = np.meshgrid(-cols, -rows)  # +y left, +z up; row 0 at the top
            d = np.stack([np.ones_like(yy), yy, zz], axis=-1).reshape(-1, 3)
            d /= np.linalg.norm(d, axis=1, keepdims=True)
            self._ray_cache[key] = d
        return d

    def _render_rgb(self, cam, pos, rot, w, h) -> np.ndarray:
        d = self._camera_rays(cam, w, h) @ rot.T
        n = len(d)
        res = self.world.ray_test_batch(np.broadcast_to(pos, (n, 3)), d, np.full(n, cam.clip_far), num_threads=1)
        img = np.empty((n, 3), dtype=np.uint8)
        img[:] = _SKY
        hit = res.hit
        if hit.any():
            obj, body, normal = res.object_index[hit], res.local_index[hit], res.normal[hit]
            base = np.empty((len(obj), 3))
            key = obj * (1 << 20) + body
            uniq, inv = np.unique(key, return_inverse=True)
            for u_i, u in enumerate(uniq):
                base[inv == u_i] = self._object_color(int(u >> 20), int(u & ((1 << 20) - 1)))
            shade = _AMBIENT + (1.0 - _AMBIENT) * np.maximum(normal @ _LIGHT, 0.0)
            img[hit] = np.clip(base * shade[:, None] * 255.0 + 0.5, 0, 255).astype(np.uint8)
        return img.reshape(h, w, 3)

    def _object_color(self, index: int, body: int) -> np.ndarray:
        obj = self.world.get_object(index)
        c = self._colors.get(obj.get_id())
        if c is not None:
            return c
        if index == self.robot.get_index_in_world():
            if self._body_colors is None:
                self._body_colors = {}
                for v in self.robot.get_visual_bodies():
                    self._body_colors.setdefault(int(v["body"]), np.asarray(v["rgba"], dtype=float)[:3])
            return self._body_colors.get(body, np.array([0.7, 0.7, 0.7]))
        if obj.get_object_type() in (ObjectType.GROUND, ObjectType.HEIGHTMAP):
            return _GROUND_RGB
        oid = obj.get_id() + 1  # a fixed colour per object id
        return np.array([(oid * 97) % 200 + 55, (oid * 57) % 200 + 55, (oid * 31) % 200 + 55]) / 255.0

    def __repr__(self) -> str:
        return f"<torsion.hal.Simulation {self.model.name!r} port {self.port}, cycle {self.cycle}>"
