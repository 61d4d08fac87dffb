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
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from .._core import ArticulatedSystem, DepthCameraProperties, ObjectType, World
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
        self._substeps()  # checks hal_period against the world's time step
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
        self.last_command = None
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
        # position-controlled dofs: one row per (actuator, joint)
        p_act, p_gc, p_dof, p_ratio, p_kp, p_kd, p_lo, p_hi = [], [], [], [], [], [], [], []
        v_act, v_dof, v_kd, v_max = [], [], [], []
        t_act, t_dof, t_max = [], [], []
        self._leds = []
        for i, a in enumerate(acts):
            if a.kind in ("angle", "coupled"):
                pairs = ((a.joint, 1.0),) if a.kind == "angle" else a.joints
                for jn, ratio in pairs:
                    gi, vi, _, _ = joints[jn]
                    p_act.append(i); p_gc.append(gi); p_dof.append(vi); p_ratio.append(ratio)
                    p_kp.append(a.kp); p_kd.append(a.kd); p_lo.append(a.min_value); p_hi.append(a.max_value)
            elif a.kind in ("angle_speed", "wheel_velocity"):
                gi, vi, _, _ = joints[a.joint]
                v_act.append(i); v_dof.append(vi); v_kd.append(a.kd)
                v_max.append(a.max_speed if a.kind == "angle_speed" else a.max_velocity)
            elif a.kind in ("torque", "wheel_torque"):
                gi, vi, _, _ = joints[a.joint]
                t_act.append(i); t_dof.append(vi); t_max.append(a.max_torque)
            else:
                self._leds.append(i)
        ia = lambda x: np.array(x, dtype=np.intp)  # noqa: E731
        fa = lambda x: np.array(x, dtype=float)  # noqa: E731
        self._p = (ia(p_act), ia(p_gc), ia(p_dof), fa(p_ratio), fa(p_kp), fa(p_kd), fa(p_lo), fa(p_hi))
        self._v = (ia(v_act), ia(v_dof), fa(v_kd), fa(v_max))
        self._t = (ia(t_act), ia(t_dof), fa(t_max))
        self._leds = ia(self._leds)
        self._cmd = np.empty((2, n))
        self._kp, self._kd = np.zeros(self._dof), np.zeros(self._dof)
        self._gains_key: Optional[bytes] = None
        self._vref = np.zeros(self._dof)
        self._tau = np.zeros(self._dof)

        # sensors
        slots = self.hal.sensor_slots()
        self._sens = np.full(sum(s for _, s in slots.values()), np.nan)
        enc_gc, enc_off, enc_mul, enc_add = [], [], [], []
        spd_dof, spd_off, spd_mul = [], [], []
        trq_dof, trq_off = [], []
        cpl_rows = []  # (slot offset, [(gc, mult, add, ratio)])
        self._imus, self._fsr_groups, self._regions, self._rays, self._cams = [], {}, [], [], []
        for s in m.sensors():
            off = slots[s.name][0] if s.name in slots else -1
            if s.kind == "angle":
                gi, vi, mul, add = joints[s.joint]
                enc_gc.append(gi); enc_off.append(off); enc_mul.append(mul); enc_add.append(add)
            elif s.kind in ("angle_speed", "wheel_velocity"):
                gi, vi, mul, _ = joints[s.joint]
                spd_dof.append(vi); spd_off.append(off); spd_mul.append(mul)
            elif s.kind == "torque":
                gi, vi, mul, _ = joints[s.joint]
                trq_dof.append(vi); trq_off.append(off)
            elif s.kind == "coupled":
                cpl_rows.append((off, [(joints[jn][0], joints[jn][2], joints[jn][3], ratio) for jn, ratio in s.joints]))
            elif s.kind == "inertial":
                self._imus.append((off, frame_of(s.link), np.array(s.xyz), s.rotation(), any(s.xyz)))
            elif s.kind == "fsr":
                g = self._fsr_groups.setdefault(s.link, {"body": body_of(s.link), "frame": frame_of(s.link),
                                                        "offs": [], "xy": []})
                g["offs"].append(off)
                g["xy"].append(s.xyz[:2])
            elif s.kind in ("bumper", "tactile"):
                self._regions.append((off, body_of(s.link), frame_of(s.link), np.array(s.xyz),
                                      np.array(s.size_xyz) / 2 + 1e-3))
            elif s.kind in ("sonar", "depth_infrared"):
                dirs = s.ray_directions() if s.kind == "sonar" else np.array([[1.0, 0.0, 0.0]])
                k = sum(x[7] for x in self._rays)
                self._rays.append((off, s, frame_of(s.link), np.array(s.xyz), s.rotation(), dirs, k, len(dirs)))
            elif isinstance(s, CameraSensor):
                self._cams.append(s)
        self._enc = (ia(enc_gc), ia(enc_off), fa(enc_mul), fa(enc_add))
        self._spd = (ia(spd_dof), ia(spd_off), fa(spd_mul))
        self._trq = (ia(trq_dof), ia(trq_off))
        self._cpl = cpl_rows
        for g in self._fsr_groups.values():
            xy = np.array(g["xy"])
            g["offs"] = ia(g["offs"])
            xs, ys = np.unique(xy[:, 0]), np.unique(xy[:, 1])
            # four FSRs on a rectangle share forces bilinearly; otherwise the nearest one takes it
            g["rect"] = (xs, ys) if len(xy) == 4 and len(xs) == 2 and len(ys) == 2 else None
            g["cx"], g["cy"] = xy[:, 0] == xs[-1], xy[:, 1] == ys[-1]
            g["xy"] = xy
        # contact sensors, resolved by body: slot k is the k-th body that carries one
        n_bodies = len(r.get_body_names())
        frames_of = {g["body"]: g["frame"] for g in self._fsr_groups.values()}
        for _off, body, f, _c, _h in self._regions:
            frames_of.setdefault(body, f)
        cbodies = sorted(frames_of)
        self._slot_of_body = np.full(n_bodies, -1, dtype=np.intp)
        self._slot_of_body[cbodies] = np.arange(len(cbodies))
        self._slot_frame = [frames_of[b] for b in cbodies]
        self._slot_P, self._slot_R = np.zeros((len(cbodies), 3)), np.tile(np.eye(3), (len(cbodies), 1, 1))
        # FSR groups on a rectangle (vectorised) and the others (nearest FSR)
        rect = [g for g in self._fsr_groups.values() if g["rect"] is not None]
        self._fsr_nearest = [g for g in self._fsr_groups.values() if g["rect"] is None]
        self._group_of_slot = np.full(len(cbodies), -1, dtype=np.intp)
        bounds = np.full((len(cbodies), 4), np.nan)
        for gi, g in enumerate(rect):
            k = self._slot_of_body[g["body"]]
            self._group_of_slot[k] = gi
            (x0, x1), (y0, y1) = g["rect"]
            bounds[k] = (x0, 1.0 / (x1 - x0), y0, 1.0 / (y1 - y0))
        self._slot_bounds = bounds
        self._fsr_offs = np.array([g["offs"] for g in rect], dtype=np.intp).reshape(len(rect), 4)
        self._fsr_cx = np.array([g["cx"] for g in rect], dtype=bool).reshape(len(rect), 4)
        self._fsr_cy = np.array([g["cy"] for g in rect], dtype=bool).reshape(len(rect), 4)
        self._fsr_nearest_slots = {int(self._slot_of_body[g["body"]]): g for g in self._fsr_nearest}
        self._reg_slot = ia([self._slot_of_body[b] for _o, b, _f, _c, _h in self._regions])
        self._reg_off = ia([o for o, *_ in self._regions])
        self._reg_centre = fa([c for *_x, c, _h in self._regions]).reshape(-1, 3)
        self._reg_half = fa([h for *_x, h in self._regions]).reshape(-1, 3)
        offs = [o for g in self._fsr_groups.values() for o in g["offs"]] + list(self._reg_off)
        self._contact_offs = ia(offs)
        self._contact_bodies = cbodies or None
        n_rays = sum(len(x[5]) for x in self._rays)
        self._ray_starts, self._ray_dirs = np.zeros((n_rays, 3)), np.zeros((n_rays, 3))
        self._ray_len = np.concatenate([np.full(len(x[5]), x[1].max_range) for x in self._rays]) if self._rays \
            else np.zeros(0)
        self._body_colors = None

    def _place(self, base_position) -> None:
        """Start pose: joints at the actuators' start values; the floating base at base_position
        or standing on z = 0."""
        r = self.robot
        gc = r.get_generalized_coordinate()
        p_act, p_gc, _dof, p_ratio, *_ = self._p
        gc[p_gc] = np.clip(self._start_v[p_act], self._p[6], self._p[7]) * p_ratio
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
        self._qref = gc.copy()  # the PD target template (quaternion entries stay valid)

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
    def step(self) -> int:
        """One HAL cycle: apply the commands, step the physics for hal_period, send every sensor.
        Returns the cycle number."""
        values, stiffness, counter = self.hal.fetch_actuator_arrays(self._cmd)
        #: what this cycle fetched: (values, stiffness, command counter), NaN before the robot side starts
        self.last_command = (values.copy(), stiffness.copy(), counter)
        values = np.where(np.isnan(values), self._start_v, values)
        stiffness = np.where(np.isnan(stiffness), self._start_s, stiffness)
        self._apply(values, stiffness)
        imu_v0 = [self._imu_state(k)[2] for k in range(len(self._imus))]
        self.world.integrate(self._substeps())
        self.cycle += 1
        self._measure(imu_v0)
        self.hal.send_sensor_array(self._sens, self.cycle, counter, self.world.get_world_time())
        if self.cameras_enabled and self._cams:
            t = self.world.get_world_time()
            name, w, h, space = self.hal.requested_camera()
            cam = self.model.sensor(name)
            if t - self._last_frame_time >= cam.period - 1e-9:
                self._last_frame_time = t
                self.render_camera(cam, w, h, space, send=True)
        return self.cycle

    def _apply(self, values: np.ndarray, stiffness: np.ndarray) -> None:
        # small arrays: plain ufuncs (np.clip's Python wrapper costs more than the work)
        r = self.robot
        p_act, p_gc, p_dof, p_ratio, p_kp, p_kd, p_lo, p_hi = self._p
        v_act, v_dof, v_kd, v_max = self._v
        t_act, t_dof, t_max = self._t
        s = np.minimum(np.maximum(stiffness, 0.0), 1.0)
        kp, kd = self._kp, self._kd
        sp = s[p_act]
        kp[p_dof] = sp * p_kp
        kd[p_dof] = sp * p_kd
        if len(v_act):
            kd[v_dof] = s[v_act] * v_kd
        key = kp.tobytes() + kd.tobytes()
        if key != self._gains_key:
            r.set_pd_gains(kp, kd)
            self._gains_key = key
        qref = self._qref
        qref[p_gc] = np.minimum(np.maximum(values[p_act], p_lo), p_hi) * p_ratio
        vref = self._vref
        if len(v_act):
            vref[v_dof] = np.minimum(np.maximum(values[v_act], -v_max), v_max)
        r.set_pd_target(qref, vref)
        if len(t_act):
            tau = self._tau
            tau[:] = 0.0
            lim = s[t_act] * t_max
            np.add.at(tau, t_dof, np.minimum(np.maximum(values[t_act], -lim), lim))
            r.set_generalized_force(tau)
        if len(self._leds):
            self._led = np.minimum(np.maximum(values[self._leds], 0.0), 1.0)

    def _imu_state(self, k):
        _off, f, xyz, R_l, has_offset = self._imus[k]
        r = self.robot
        R_f = r.get_frame_orientation(f)
        w = r.get_frame_angular_velocity(f)
        v = r.get_frame_velocity(f)
        if has_offset:  # velocity of the sensor point: v + w x (R_f xyz)
            a = R_f @ xyz
            v += (w[1] * a[2] - w[2] * a[1], w[2] * a[0] - w[0] * a[2], w[0] * a[1] - w[1] * a[0])
        return R_f @ R_l, w, v

    def _measure(self, imu_v0) -> None:
        r, out = self.robot, self._sens
        gc, gv = r.get_generalized_coordinate(), r.get_generalized_velocity()
        enc_gc, enc_off, enc_mul, enc_add = self._enc
        out[enc_off] = gc[enc_gc] * enc_mul + enc_add
        spd_dof, spd_off, spd_mul = self._spd
        if len(spd_dof):
            out[spd_off] = gv[spd_dof] * spd_mul
        if len(self._trq[0]):
            out[self._trq[1]] = r.get_generalized_force()[self._trq[0]]
        for off, rows in self._cpl:
            out[off] = sum((gc[g] * m + a) / ratio for g, m, a, ratio in rows) / len(rows)
        if self._imus:
            g = self.world.get_gravity()
            inv_t = 1.0 / self.hal_period
            for k, (off, *_rest) in enumerate(self._imus):
                R, w, v = self._imu_state(k)
                f = ((v - imu_v0[k]) * inv_t - g) @ R  # R^T (a - g): proper acceleration, sensor frame
                gyr = w @ R
                r20, r21, r22 = R[2]
                out[off:off + 7] = (math.atan2(r21, r22), math.atan2(-r20, math.hypot(r21, r22)),
                                    f[0], f[1], f[2], gyr[0], gyr[1])
        if self._contact_bodies is not None:
            self._contact_sensors()
        if self._rays:
            self._ray_sensors()

    def _contact_sensors(self) -> None:
        r, out = self.robot, self._sens
        out[self._contact_offs] = 0.0
        c = r.get_contacts()
        if not len(c):
            return
        slot = self._slot_of_body[c["local_body_index"]]
        keep = (slot >= 0) & ~c["is_self_collision"]
        if not keep.any():
            return
        c, slot = c[keep], slot[keep]
        P, R = self._slot_P, self._slot_R
        for k in set(slot.tolist()):  # poses of the bodies touched (a few)
            f = self._slot_frame[k]
            P[k] = r.get_frame_position(f)
            R[k] = r.get_frame_orientation(f)
        p = np.einsum("nij,ni->nj", R[slot], c["position"] - P[slot])  # contact points, link frames
        if len(self._fsr_offs) or self._fsr_nearest:
            fn = (c["force"] * c["normal"]).sum(1)  # normal force; the normal points towards A
            fn = np.maximum(np.where(c["is_object_a"], fn, -fn), 0.0)
            g = float(np.linalg.norm(self.world.get_gravity()))
            gi = self._group_of_slot[slot]
            on = gi >= 0
            if on.any():
                # bilinear weights of the point (clamped to the FSRs' rectangle) for the four corners
                b = self._slot_bounds[slot[on]]
                u = np.minimum(np.maximum((p[on, 0] - b[:, 0]) * b[:, 1], 0.0), 1.0)[:, None]
                v = np.minimum(np.maximum((p[on, 1] - b[:, 2]) * b[:, 3], 0.0), 1.0)[:, None]
                gg = gi[on]
                w = np.where(self._fsr_cx[gg], u, 1.0 - u) * np.where(self._fsr_cy[gg], v, 1.0 - v)
                loads = np.zeros(self._fsr_offs.shape)
                np.add.at(loads, gg, fn[on, None] * w)
                out[self._fsr_offs] = loads / g
            for k, grp in self._fsr_nearest_slots.items():
                sel = slot == k
                if sel.any():
                    loads = np.zeros(len(grp["offs"]))
                    d = ((p[sel, None, :2] - grp["xy"][None]) ** 2).sum(-1)
                    np.add.at(loads, d.argmin(1), fn[sel])
                    out[grp["offs"]] = loads / g
        if len(self._reg_off):
            inside = (slot[:, None] == self._reg_slot[None, :]) & (
                np.abs(p[:, None, :] - self._reg_centre[None]) <= self._reg_half[None]).all(axis=2)
            out[self._reg_off] = inside.any(axis=0)

    def _ray_sensors(self) -> None:
        r, out = self.robot, self._sens
        starts, dirs = self._ray_starts, self._ray_dirs
        for _off, _s, f, xyz, R_l, d, k, n in self._rays:
            R_f = r.get_frame_orientation(f)
            starts[k:k + n] = r.get_frame_position(f) + R_f @ xyz
            np.matmul(d, (R_f @ R_l).T, out=dirs[k:k + n])
        res = self.world.ray_test_batch(starts, dirs, self._ray_len, num_threads=1)
        dist, obj, body = res.distance, res.object_index, res.local_index
        for off, s, _f, _xyz, _R, d, k, n in self._rays:
            dd = dist[k:k + n]
            if s.kind == "depth_infrared":
                v = float(dd[0])
                out[off] = s.max_range if v > s.max_range else (s.min_range if v < s.min_range else v)
                continue
            echoes = out[off:off + s.echoes]
            echoes[:] = 0.0
            ok = dd <= s.max_range
            if not ok.any():
                echoes[0] = s.max_range
                continue
            # the nearest distance of each object (body) the cone sees, nearest first: take the
            # nearest hit, drop that object's other hits, repeat (a cone sees a few objects)
            key = ((obj[k:k + n] << 20) + body[k:k + n])[ok]
            dd = dd[ok]
            for e in range(s.echoes):
                i = int(dd.argmin())
                echoes[e] = max(float(dd[i]), s.min_range)
                rest = key != key[i]
                if not rest.any():
                    break
                dd, key = dd[rest], key[rest]

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
