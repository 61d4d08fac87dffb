"""The Gymnasium machinery shared by every torsion task: one single environment class and one
vector environment class, both driving a :class:`Task`.

A task is written once, in NumPy over (N, ...) arrays (its rows are the environments). The single
environment runs it with N = 1 on a ``torsion.World``; the vector environment runs it with
N = num_envs on a ``torsion.WorldBatch``, whose worlds are stepped together in C++ threads. Both
call the same task code in the same order, so given the same seeds and actions their observations,
rewards and terminations are bitwise equal (tests/envs/test_vector.py). Task code keeps row i's
arithmetic independent of N for that: elementwise NumPy, reductions along a contiguous last axis,
and matmul of stacked 3 x 3 matrices (one product per row).

One environment step: the action (clipped to [-1, 1]) goes to the task, which sets PD targets or
forces; the world(s) advance ``task.decimation`` physics steps of ``task.time_step`` s; the task
computes observation, reward and termination from the new state.

Seeding: ``reset(seed=s)`` of the vector environment seeds sub-environment i with ``s + i``
(Gymnasium's SyncVectorEnv convention), so it reproduces single environments reset with those
seeds. Autoreset: Gymnasium 1.x's NEXT_STEP mode (``metadata["autoreset_mode"]``): the step after
a sub-environment terminates or truncates resets it, returns its first observation with reward 0,
terminated and truncated False, and ignores its action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Optional, Sequence

import numpy as np

from ._gym import gymnasium

gym = gymnasium()
from gymnasium import spaces  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from .render import Camera  # noqa: E402
from ._sim import BatchSim, WorldSim  # noqa: E402


class Task(ABC):
    """A task over N environments. Subclasses set the class attributes and implement the methods.

    Attributes: ``time_step`` (s), ``decimation`` (physics steps per environment step),
    ``max_episode_steps``, ``obs_dim``, ``act_dim``, ``frames`` (frame names whose world positions
    the task reads, ``sim.frame_pos``), ``orientation_frames`` (frames whose rotation matrices it
    reads, ``sim.frame_rot``), ``robot_name`` (the robot's name in the world).
    """

    time_step: float = 0.01
    decimation: int = 1
    max_episode_steps: int = 1000
    obs_dim: int = 0
    act_dim: int = 0
    frames: Sequence[str] = ()
    orientation_frames: Sequence[str] = ()
    robot_name = "robot"
    render_fps: int = 50
    #: every observation is clipped to [-obs_clip, obs_clip] (the observation space's bounds)
    obs_clip: float = 100.0

    def __init__(self, num_envs: int):
        self.n = int(num_envs)
        self.last_action = np.zeros((self.n, self.act_dim))

    # --- set-up ---
    @abstractmethod
    def build(self, world, index: int = 0) -> None:
        """Put the scene into a fresh World (the robot named ``robot_name``); the same for every
        index (a WorldBatch needs one topology)."""

    # --- per environment step ---
    @abstractmethod
    def sample_reset(self, rng: np.random.Generator, row: int) -> tuple[np.ndarray, np.ndarray]:
        """Draw environment ``row``'s initial state from ``rng`` and reset its task variables
        (commands, goals, last action). Returns the robot's (gc, gv)."""

    @abstractmethod
    def apply_action(self, sim, action: np.ndarray) -> None:
        """Turn actions (N, act_dim) in [-1, 1] into PD targets or forces on ``sim``."""

    def observe(self, sim, prev_action, obs, reward, terminated) -> None:
        """evaluate, then the observations clipped to the observation space (NaN stays NaN, as
        with np.clip; the two ufuncs skip np.clip's Python wrapper, a hot path)."""
        self.evaluate(sim, prev_action, obs, reward, terminated)
        np.maximum(obs, -self.obs_clip, out=obs)
        np.minimum(obs, self.obs_clip, out=obs)

    @abstractmethod
    def evaluate(self, sim, prev_action: np.ndarray, obs: np.ndarray, reward: np.ndarray,
                 terminated: np.ndarray) -> None:
        """From the state just read (``sim.gc``, ``sim.gv``, ``sim.frame_pos``) write
        observations (N, obs_dim) float32, rewards (N,) and terminations (N,) bool.
        ``self.last_action`` is the action just applied, ``prev_action`` the one before."""

    # --- rendering ---
    @abstractmethod
    def camera(self, gc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(eye, target) of the render camera for a robot in state gc (m, world)."""

    def markers(self, row: int) -> list:
        """Extra points drawn into pictures of environment ``row``: (position, radius, rgb)."""
        return []

    # --- shared ---
    def _spaces(self):
        obs = spaces.Box(-self.obs_clip, self.obs_clip, shape=(self.obs_dim,), dtype=np.float32)
        act = spaces.Box(-1.0, 1.0, shape=(self.act_dim,), dtype=np.float32)
        return obs, act


def _check_actions(action, shape: tuple[int, ...], out: Optional[np.ndarray] = None) -> np.ndarray:
    """The action as float64 clipped to [-1, 1] (into ``out`` when given); ValueError for a wrong
    shape, NaN or inf."""
    a = np.asarray(action)
    if a.shape != shape:
        raise ValueError(f"action must have shape {shape}, got shape {a.shape}")
    if a.dtype.kind not in "biuf":
        raise ValueError(f"action must hold real numbers, got dtype {a.dtype}")
    if not np.isfinite(a).all():
        raise ValueError("action must be finite (no NaN or inf)")
    if out is None:
        out = np.empty(shape)
    np.maximum(a, -1.0, out=out)
    return np.minimum(out, 1.0, out=out)


class TorsionEnv(gym.Env):
    """A single environment: one ``task_class`` task on one ``torsion.World``.

    render_mode: None or "rgb_array" (``render()`` returns an (H, W, 3) uint8 picture from the
    ray-cast depth camera). width, height: picture size in pixels.
    """

    task_class: type[Task] = Task
    metadata = {"render_modes": ["rgb_array"], "render_fps": Task.render_fps}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.metadata = {"render_modes": ["rgb_array"], "render_fps": cls.task_class.render_fps}

    def __init__(self, render_mode: Optional[str] = None, width: int = 320, height: int = 240,
                 **task_kwargs: Any):
        import torsion

        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.task = self.task_class(1, **task_kwargs)
        world = torsion.World()
        self.task.build(world, 0)
        self.sim = WorldSim(world, self.task.robot_name, self.task.frames,
                            self.task.orientation_frames)
        self.sim.read()  # the built state, until the first reset
        self.observation_space, self.action_space = self.task._spaces()
        self._obs = np.zeros((1, self.task.obs_dim), dtype=np.float32)
        self._rew = np.zeros(1)
        self._term = np.zeros(1, dtype=bool)
        self._prev = np.zeros((1, self.task.act_dim))
        self._camera = Camera(width, height) if render_mode == "rgb_array" else None
        self._robot_index = world.get_object(self.task.robot_name).get_index_in_world()

    @property
    def world(self):
        """The torsion.World this environment simulates (for inspection)."""
        return self.sim.world(0)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        gc, gv = self.task.sample_reset(self.np_random, 0)
        self.sim.reset(np.zeros(1, dtype=np.int64), gc[None, :], gv[None, :])
        self.sim.read()
        self._prev[:] = 0.0
        self.task.observe(self.sim, self._prev, self._obs, self._rew, self._term)
        return self._obs[0].copy(), {}

    def step(self, action):
        a = _check_actions(action, (self.task.act_dim,))[None, :]
        self.task.apply_action(self.sim, a)
        self.sim.integrate(self.task.decimation)
        self._prev[:] = self.task.last_action
        self.task.last_action[:] = a
        self.sim.read()
        self.task.observe(self.sim, self._prev, self._obs, self._rew, self._term)
        return self._obs[0].copy(), float(self._rew[0]), bool(self._term[0]), False, {}

    def render(self):
        if self._camera is None:
            return None
        eye, target = self.task.camera(self.sim.gc[0])
        return self._camera.capture(self.world, eye, target, self._robot_index, self.task.markers(0))


class TorsionVectorEnv(VectorEnv):
    """``num_envs`` copies of ``task_class`` on one ``torsion.WorldBatch``.

    Observations (num_envs, obs_dim) float32, rewards (num_envs,) float64, terminated and
    truncated (num_envs,) bool, infos {}. Episodes are truncated after ``max_episode_steps``
    steps (the registered value when made with ``gymnasium.make_vec``). num_threads: the
    WorldBatch's thread count (0: all cores); results do not depend on it.
    render_mode "rgb_array": ``render()`` returns a tuple of num_envs pictures.
    """

    task_class: type[Task] = Task
    metadata = {"render_modes": ["rgb_array"], "render_fps": Task.render_fps,
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.metadata = {"render_modes": ["rgb_array"], "render_fps": cls.task_class.render_fps,
                        "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, max_episode_steps: Optional[int] = None,
                 render_mode: Optional[str] = None, num_threads: int = 0, width: int = 320,
                 height: int = 240, **task_kwargs: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.task = self.task_class(self.num_envs, **task_kwargs)
        self.max_episode_steps = int(max_episode_steps if max_episode_steps is not None
                                     else self.task.max_episode_steps)
        if self.max_episode_steps < 1:
            raise ValueError(f"max_episode_steps must be >= 1, got {max_episode_steps}")
        self.sim = BatchSim(self.task, self.num_envs, num_threads)
        self.sim.read()  # the built state, until the first reset
        self._needs_reset = True
        self.single_observation_space, self.single_action_space = self.task._spaces()
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._obs = np.zeros((n, self.task.obs_dim), dtype=np.float32)
        self._rew = np.zeros(n)
        self._term = np.zeros(n, dtype=bool)
        self._trunc = np.zeros(n, dtype=bool)
        self._prev = np.zeros((n, self.task.act_dim))
        self._action = np.zeros((n, self.task.act_dim))
        self._elapsed = np.zeros(n, dtype=np.int64)
        self._autoreset = np.zeros(n, dtype=bool)
        self._rngs: list[np.random.Generator] = [None] * n  # type: ignore[list-item]
        self._camera = Camera(width, height) if render_mode == "rgb_array" else None

    @property
    def batch(self):
        """The torsion.WorldBatch the sub-environments run on (world(i), state_hashes(), ...)."""
        return self.sim.batch

    def _reset_rows(self, rows: np.ndarray) -> None:
        gc = np.empty((len(rows), self.sim.gc.shape[1]))
        gv = np.empty((len(rows), self.sim.gv.shape[1]))
        for k, i in enumerate(rows):
            gc[k], gv[k] = self.task.sample_reset(self._rngs[i], int(i))
        self.sim.reset(rows, gc, gv)
        self._elapsed[rows] = 0

    def reset(self, *, seed=None, options: Optional[dict] = None):
        n = self.num_envs
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed must be an int, None or a list of {n} seeds, got {len(seeds)}")
        mask = np.ones(n, dtype=bool)
        if options is not None and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (n,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({n},), got "
                                 f"{mask.dtype} {mask.shape}")
        for i in range(n):
            if mask[i] and (seeds[i] is not None or self._rngs[i] is None):
                self._rngs[i], _ = seeding.np_random(seeds[i])
        rows = np.flatnonzero(mask)
        self._reset_rows(rows)
        self.sim.read()
        self._prev[:] = 0.0
        self.task.observe(self.sim, self._prev, self._obs, self._rew, self._term)
        self._autoreset[rows] = False
        self._needs_reset = False
        return self._obs.copy(), {}

    def step(self, actions):
        if self._needs_reset:
            raise RuntimeError("call reset() before the first step()")
        task = self.task
        a = _check_actions(actions, (self.num_envs, task.act_dim), self._action)
        task.apply_action(self.sim, a)
        self.sim.integrate(task.decimation)
        # the last action becomes the previous one and the action the last: the two buffers
        # trade places (one copy instead of two)
        self._prev, task.last_action = task.last_action, self._prev
        np.copyto(task.last_action, a)
        self._elapsed += 1
        rows = np.flatnonzero(self._autoreset) if np.count_nonzero(self._autoreset) else None
        if rows is not None:  # NEXT_STEP autoreset: these rows start a new episode instead
            self._reset_rows(rows)
        self.sim.read()
        task.observe(self.sim, self._prev, self._obs, self._rew, self._term)
        np.greater_equal(self._elapsed, self.max_episode_steps, out=self._trunc)
        if rows is not None:
            self._rew[rows] = 0.0
            self._term[rows] = False
            self._trunc[rows] = False
        np.logical_or(self._term, self._trunc, out=self._autoreset)
        return self._obs.copy(), self._rew.copy(), self._term.copy(), self._trunc.copy(), {}

    def render(self):
        if self._camera is None:
            return None
        frames = []
        for i in range(self.num_envs):
            eye, target = self.task.camera(self.sim.gc[i])
            world = self.sim.world(i)
            frames.append(self._camera.capture(world, eye, target, self.sim.robot_index,
                                               self.task.markers(i)))
        return tuple(frames)
