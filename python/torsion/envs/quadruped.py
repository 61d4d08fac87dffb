"""Quadruped locomotion: track a commanded velocity on flat ground or Perlin terrain.

The robot is torsion's bundled 12-joint quadruped (``torsion.robots``, Unitree A1 class,
13.7 kg). Physics at dt = 5 ms, 4 steps per action (50 Hz control), joint PD at
kp = 40 N m/rad, kd = 1 N m s/rad (implicit).

Action (12,) in [-1, 1]: joint position targets ``QUADRUPED_STAND + 0.25 * action`` rad (hip,
thigh, calf for FR, FL, RR, RL).

Observation (48,) float32, all in the base's own frame:

==========  =====================================================  =====
index       quantity                                               scale
==========  =====================================================  =====
0:3         base linear velocity (m/s)                             2
3:6         base angular velocity (rad/s)                          0.25
6:9         gravity direction (unit vector; (0, 0, -1) upright)    1
9:12        command: forward, sideways velocity (m/s), yaw rate    2, 2, 0.25
12:24       joint angles minus the standing pose (rad)             1
24:36       joint velocities (rad/s)                               0.05
36:48       previous action                                        1
==========  =====================================================  =====

QuadrupedRough adds 48:125, a height scan: 11 x 7 points 0.1 m apart (x from -0.5 to 0.5 m,
y from -0.3 to 0.3 m) around the base, turned with its heading; each value is
clip(base height - 0.3 m - terrain height there, -1, 1) m, the terrain found by downward rays
(``ray_test_batch``, terrain only).

Reward per step: 1.0 exp(-|command_xy - v_xy|^2 / 0.25) + 0.5 exp(-(command_yaw - w_z)^2 / 0.25)
- 2 v_z^2 - 0.05 |w_xy|^2 - 1.0 |g_xy|^2 - 0.01 |action - previous action|^2, with v, w the
base velocities and g the gravity direction in the base frame.

Termination: the base tilts more than 60 degrees (g_z > -0.5) or its height above the ground (flat)
or the mean of the central scan points (rough) falls below 0.15 m; on terrain also when a central
scan ray misses (the robot walked off the 12 m map). Truncation at 1000 steps (20 s).

Reset: on flat ground the base at (0, 0, 0.31 m) with a uniform random heading, on terrain at a
uniform random (x, y) in [-3, 3]^2 m above the highest terrain within 0.3 m; joints at the
standing pose plus uniform noise of 0.1 rad; at rest. Command: forward in [-1, 1] m/s,
sideways in [-0.5, 0.5] m/s, yaw rate in [-1, 1] rad/s, uniform.
"""

from __future__ import annotations

import numpy as np

from ._math import yaw, yaw_quaternion
from .core import Task, TorsionEnv, TorsionVectorEnv

_KP, _KD = 40.0, 1.0
_ACTION_SCALE = 0.25
_TERRAIN_MASK = 1 << 63  # heightmaps' default collision group: the scan sees terrain only


def _stand():
    import torsion

    return np.asarray(torsion.robots.QUADRUPED_STAND, dtype=float)


class QuadrupedTask(Task):
    time_step = 0.005
    decimation = 4
    max_episode_steps = 1000
    obs_dim = 48
    act_dim = 12
    render_fps = 50
    orientation_frames = ("ROOT",)  # the base's rotation matrix, read with the state

    def __init__(self, num_envs: int):
        super().__init__(num_envs)
        n = self.n
        self.stand = _stand()
        self.command = np.zeros((n, 3))
        self._targets = np.zeros((n, 19))
        self._targets[:, 3] = 1.0
        self._joint_targets = self._targets[:, 7:]
        # rows: base velocity, base angular velocity, gravity direction; world and base frame
        self._world_vecs = np.zeros((n, 3, 3))
        self._world_vecs[:, 2, 2] = -1.0
        self._body_vecs = np.empty((n, 3, 3))
        self._obs_scale = np.repeat([2.0, 0.25, 1.0], 3)  # v, w, g
        self._cmd_obs = np.zeros((n, 3))
        self._cmd_scale = np.array([2.0, 2.0, 0.25])
        # evaluate()'s scratch and its views, made once: a vector step pays for every NumPy call
        # and every slice (the Python side of a step is the budget of 1 us per env)
        b = self._body_vecs
        self._b9 = b.reshape(n, 9)
        self._b_v_xy = b[:, 0, 0:2]           # base-frame velocity x, y
        self._b_wz = b[:, 1, 2]               # base-frame yaw rate
        self._b_gz = b[:, 2, 2]               # gravity's base-frame z
        self._wv_vw = self._world_vecs[:, 0:2, :]
        self._err = np.empty((n, 3))          # command - (v_x, v_y, w_z)
        self._track = np.empty((n, 2))        # exponents, then the two tracking terms
        self._sq = np.empty((n, 3, 3))        # b * b
        self._pen = np.empty((n, 3))          # v_z^2, |w_xy|^2, |g_xy|^2
        self._pen_scale = np.array([2.0, 0.05, 1.0])
        self._da = np.empty((n, 12))
        self._da_sum = np.empty(n)
        # the slices of those buffers evaluate() writes and reads, as views made once
        err, track, sq, pen = self._err, self._track, self._sq, self._pen
        self._slices = (self.command[:, 0:2], self.command[:, 2], err[:, 0:2], err[:, 2],
                        err[:, 0], err[:, 1], track[:, 0], track[:, 1], sq[:, 0, 2],
                        sq[:, 1:3, 0], sq[:, 1:3, 1], pen[:, 0], pen[:, 1], pen[:, 2],
                        pen[:, 1:3])
        self._tilted = np.empty(n, dtype=bool)
        self._low = np.empty(n, dtype=bool)
        self._views = None                    # per (sim, obs) buffers: see _bind

    def build(self, world, index: int = 0) -> None:
        import torsion

        world.set_time_step(self.time_step)
        self._build_ground(world)
        robot = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
        robot.set_name(self.robot_name)
        gc = robot.get_generalized_coordinate()
        gc[2] = 0.31
        gc[7:] = self.stand
        robot.set_generalized_coordinate(gc)
        kp = np.full(18, _KP)
        kd = np.full(18, _KD)
        robot.set_pd_gains(kp, kd)
        robot.set_pd_target(gc, np.zeros(18))

    def _build_ground(self, world) -> None:
        world.add_ground()

    def _spawn(self, rng: np.random.Generator) -> np.ndarray:
        return np.array([0.0, 0.0, 0.31])

    def sample_reset(self, rng, row):
        gc = np.zeros(19)
        gc[0:3] = self._spawn(rng)
        gc[3:7] = yaw_quaternion(rng.uniform(-np.pi, np.pi))
        gc[7:] = self.stand + rng.uniform(-0.1, 0.1, size=12)
        gv = np.zeros(18)
        self.command[row] = [rng.uniform(-1.0, 1.0), rng.uniform(-0.5, 0.5), rng.uniform(-1.0, 1.0)]
        self._cmd_obs[row] = self.command[row] * self._cmd_scale
        self.last_action[row] = 0.0
        return gc, gv

    def apply_action(self, sim, action):
        np.multiply(action, _ACTION_SCALE, out=self._joint_targets)
        np.add(self._joint_targets, self.stand, out=self._joint_targets)
        sim.set_pd_targets(self._targets)

    def _height(self, sim) -> np.ndarray:
        return sim.gc[:, 2]

    def _bind(self, sim, obs):
        """Views into the simulation's state arrays and the observation buffer (both are kept
        and overwritten in place step after step), made once per pair."""
        n = self.n
        v = self._views = (sim, obs, sim.gv[:, 0:6].reshape(n, 2, 3), sim.gc[:, 7:],
                           sim.gv[:, 6:], sim.frame_rot[:, 0], obs[:, 0:9], obs[:, 9:12],
                           obs[:, 12:24], obs[:, 24:36], obs[:, 36:48])
        return v

    def evaluate(self, sim, prev_action, obs, reward, terminated):
        v = self._views
        if v is None or v[0] is not sim or v[1] is not obs:
            v = self._bind(sim, obs)
        _, _, gv_vw, gc_j, gv_j, rot, o_bvec, o_cmd, o_q, o_dq, o_act = v
        # base-frame vectors: rows times R (frame to world) are R^T v
        np.copyto(self._wv_vw, gv_vw)
        b = np.matmul(self._world_vecs, rot, out=self._body_vecs)
        np.multiply(self._b9, self._obs_scale, out=o_bvec)
        np.copyto(o_cmd, self._cmd_obs)
        np.subtract(gc_j, self.stand, out=o_q)
        np.multiply(gv_j, 0.05, out=o_dq)
        np.copyto(o_act, self.last_action)
        # reward (module docstring), each term's arithmetic in the order written there
        err, track, sq, pen = self._err, self._track, self._sq, self._pen
        (cmd_xy, cmd_wz, err_xy, err_wz, err_x, err_y, track_xy, track_wz, sq_vz, sq_wg_x, sq_wg_y,
         pen_vz, pen_w, pen_g, pen_wg) = self._slices
        np.subtract(cmd_xy, self._b_v_xy, out=err_xy)
        np.subtract(cmd_wz, self._b_wz, out=err_wz)
        np.multiply(err, err, out=err)
        np.add(err_x, err_y, out=track_xy)
        np.copyto(track_wz, err_wz)
        np.multiply(track, -4.0, out=track)
        np.exp(track, out=track)
        np.multiply(track_wz, 0.5, out=track_wz)
        np.add(track_xy, track_wz, out=reward)
        np.multiply(b, b, out=sq)  # sq[:, k, c]: component c of v (k = 0), w (1), g (2), squared
        np.copyto(pen_vz, sq_vz)
        np.add(sq_wg_x, sq_wg_y, out=pen_wg)
        np.multiply(pen, self._pen_scale, out=pen)
        np.subtract(reward, pen_vz, out=reward)
        np.subtract(reward, pen_w, out=reward)
        np.subtract(reward, pen_g, out=reward)
        da = np.subtract(self.last_action, prev_action, out=self._da)
        np.multiply(da, da, out=da)
        s = np.add.reduce(da, axis=1, out=self._da_sum)
        np.multiply(s, 0.01, out=s)
        np.subtract(reward, s, out=reward)
        np.greater(self._b_gz, -0.5, out=self._tilted)
        np.less(self._height(sim), 0.15, out=self._low)
        np.logical_or(self._tilted, self._low, out=terminated)

    def camera(self, gc):
        base = gc[0:3]
        return base + np.array([0.4, -1.6, 0.5]), base + np.array([0.0, 0.0, -0.05])


class QuadrupedRoughTask(QuadrupedTask):
    """The same task on Perlin terrain (12 m x 12 m, heights within about +-0.15 m), with a
    height-scan observation. terrain_seed picks the terrain (the same in every environment)."""

    obs_dim = 48 + 77

    def __init__(self, num_envs: int, terrain_seed: int = 0):
        import torsion

        super().__init__(num_envs)
        if isinstance(terrain_seed, bool) or not isinstance(terrain_seed, (int, np.integer)) or terrain_seed < 0:
            raise ValueError(f"terrain_seed must be an int >= 0, got {terrain_seed!r}")
        props = torsion.TerrainProperties()
        props.seed = int(terrain_seed)
        props.x_size = props.y_size = 12.0
        props.x_samples = props.y_samples = 121
        props.frequency = 0.6
        props.z_scale = 0.15
        props.fractal_octaves = 3
        self.terrain = props
        self.heights = props.generate()  # (y, x) samples, 0.1 m apart, centred on the origin
        gx, gy = np.meshgrid(np.linspace(-0.5, 0.5, 11), np.linspace(-0.3, 0.3, 7))
        self._scan_x = gx.reshape(1, -1)
        self._scan_y = gy.reshape(1, -1)
        r = self._scan_x.shape[1]
        self._central = np.flatnonzero((np.abs(gx) <= 0.11).reshape(-1) & (np.abs(gy) <= 0.11).reshape(-1))
        self._ray_z = float(self.heights.max()) + 1.0
        self._starts = np.empty((self.n, r, 3))
        self._starts[:, :, 2] = self._ray_z
        self._dirs = np.zeros((self.n, r, 3))
        self._dirs[:, :, 2] = -1.0
        self._lengths = np.full((self.n, r), self._ray_z - float(self.heights.min()) + 1.0)
        self._ground_h = np.empty((self.n, r))

    def _build_ground(self, world) -> None:
        world.add_height_map(0.0, 0.0, self.terrain)

    def _spawn(self, rng):
        x, y = rng.uniform(-3.0, 3.0, size=2)
        # highest sample within 0.3 m of (x, y): the feet start above the terrain
        i0, i1 = int(np.floor((x + 5.7) / 0.1)), int(np.ceil((x + 6.3) / 0.1))
        j0, j1 = int(np.floor((y + 5.7) / 0.1)), int(np.ceil((y + 6.3) / 0.1))
        top = float(self.heights[j0:j1 + 1, i0:i1 + 1].max())
        return np.array([x, y, top + 0.32])

    def _scan(self, sim) -> None:
        gc = sim.gc
        heading = yaw(gc[:, 3:7])[:, None]
        c, s = np.cos(heading), np.sin(heading)
        self._starts[:, :, 0] = gc[:, 0:1] + c * self._scan_x - s * self._scan_y
        self._starts[:, :, 1] = gc[:, 1:2] + s * self._scan_x + c * self._scan_y
        dist = sim.ray_distances(self._starts, self._dirs, self._lengths, _TERRAIN_MASK)
        np.subtract(self._ray_z, dist, out=self._ground_h)  # -inf where a ray left the terrain

    def _height(self, sim):
        # off the map the central rays miss: -inf ground, +inf height (terminated in evaluate)
        return sim.gc[:, 2] - self._ground_h[:, self._central].mean(axis=1)

    def evaluate(self, sim, prev_action, obs, reward, terminated):
        self._scan(sim)
        super().evaluate(sim, prev_action, obs, reward, terminated)
        obs[:, 48:] = np.clip(sim.gc[:, 2:3] - 0.3 - self._ground_h, -1.0, 1.0)
        terminated |= np.isinf(self._ground_h[:, self._central]).any(axis=1)


class QuadrupedEnv(TorsionEnv):
    """torsion/Quadruped-v0 (the task: see this module's docstring and docs/envs.md)."""

    task_class = QuadrupedTask


class QuadrupedVectorEnv(TorsionVectorEnv):
    """Vector form of torsion/Quadruped-v0 on a WorldBatch (see QuadrupedEnv)."""
    task_class = QuadrupedTask


class QuadrupedRoughEnv(TorsionEnv):
    """torsion/QuadrupedRough-v0 (the task: see this module's docstring and docs/envs.md)."""

    task_class = QuadrupedRoughTask


class QuadrupedRoughVectorEnv(TorsionVectorEnv):
    """Vector form of torsion/QuadrupedRough-v0 on a WorldBatch (see QuadrupedRoughEnv)."""
    task_class = QuadrupedRoughTask
