"""Reach: move the tool of torsion's bundled 7-DoF arm (``arm7``, KUKA iiwa class, fixed base)
to a goal point.

Physics at dt = 5 ms, 4 steps per action (50 Hz control); joint PD at kp = 400 N m/rad,
kd = 20 N m s/rad (implicit), no gravity compensation.

Action (7,) in [-1, 1]: joint position targets ``q + 0.1 * action`` rad (q: the joint angles at the
start of the step), clipped to the joint limits.

Observation (23,) float32:

=======  ============================================
index    quantity
=======  ============================================
0:7      joint angles (rad)
7:14     joint velocities (rad/s), times 0.1
14:17    tool position (m, world; frame ``tool_joint``)
17:20    goal position (m, world)
20:23    goal minus tool position (m)
=======  ============================================

Reward per step: -|goal - tool| (m) - 0.01 |action|^2. No termination; truncation at 200 steps
(4 s). Reset: joints at (0, 0.5, 0, -1.2, 0, 0.8, 0) rad plus uniform noise of 0.1 rad, at rest;
goal uniform in x in [0.3, 0.7], y in [-0.4, 0.4], z in [0.2, 0.8] m (the arm's base at the origin).
"""

from __future__ import annotations

import numpy as np

from .core import Task, TorsionEnv, TorsionVectorEnv

_HOME = np.array([0.0, 0.5, 0.0, -1.2, 0.0, 0.8, 0.0])
_GOAL_LOW = np.array([0.3, -0.4, 0.2])
_GOAL_HIGH = np.array([0.7, 0.4, 0.8])


class ReachTask(Task):
    time_step = 0.005
    decimation = 4
    max_episode_steps = 200
    obs_dim = 23
    act_dim = 7
    frames = ("tool_joint",)
    render_fps = 50

    def __init__(self, num_envs: int):
        super().__init__(num_envs)
        self.goal = np.zeros((self.n, 3))
        self._targets = np.zeros((self.n, 7))
        self._low = self._high = None

    def build(self, world, index: int = 0) -> None:
        import torsion

        world.set_time_step(self.time_step)
        world.add_ground(-0.001)  # just below the arm's base: the picture's floor
        robot = world.add_articulated_system(torsion.robots.urdf_path("arm7"))
        robot.set_name(self.robot_name)
        robot.set_generalized_coordinate(_HOME)
        robot.set_pd_gains(np.full(7, 400.0), np.full(7, 20.0))
        robot.set_pd_target(_HOME, np.zeros(7))
        limits = robot.get_joint_limits()
        self._low, self._high = limits[:, 0].copy(), limits[:, 1].copy()

    def sample_reset(self, rng, row):
        gc = _HOME + rng.uniform(-0.1, 0.1, size=7)
        self.goal[row] = rng.uniform(_GOAL_LOW, _GOAL_HIGH)
        self.last_action[row] = 0.0
        return gc, np.zeros(7)

    def apply_action(self, sim, action):
        np.multiply(action, 0.1, out=self._targets)
        self._targets += sim.gc
        np.clip(self._targets, self._low, self._high, out=self._targets)
        sim.set_pd_targets(self._targets)

    def evaluate(self, sim, prev_action, obs, reward, terminated):
        tool = sim.frame_pos[:, 0, :]
        diff = self.goal - tool
        obs[:, 0:7] = sim.gc
        obs[:, 7:14] = sim.gv * 0.1
        obs[:, 14:17] = tool
        obs[:, 17:20] = self.goal
        obs[:, 20:23] = diff
        a = self.last_action
        reward[:] = -np.sqrt((diff * diff).sum(axis=1)) - 0.01 * (a * a).sum(axis=1)
        terminated[:] = False

    def camera(self, gc):
        return np.array([1.6, -1.3, 1.1]), np.array([0.35, 0.0, 0.45])

    def markers(self, row):
        return [(self.goal[row].copy(), 0.03, (0.1, 0.8, 0.2))]


class ReachEnv(TorsionEnv):
    """torsion/Reach-v0 (the task: see this module's docstring and docs/envs.md)."""

    task_class = ReachTask


class ReachVectorEnv(TorsionVectorEnv):
    """Vector form of torsion/Reach-v0 on a WorldBatch (see ReachEnv)."""
    task_class = ReachTask
