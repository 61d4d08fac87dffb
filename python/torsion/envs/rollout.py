"""Collecting experience from a vector environment, in this process or on a Ray cluster.

:class:`VectorRollout` holds one vector environment (one WorldBatch) and steps it with a policy,
returning the transitions as (T, N, ...) arrays. It has no Ray dependency: use it directly, or
make it a Ray actor (``ray.remote(VectorRollout)``) to run several on one machine or a cluster::

    import ray
    from torsion.envs.rollout import VectorRollout

    ray.init()
    Worker = ray.remote(VectorRollout)
    workers = [Worker.remote("torsion/Quadruped-v0", num_envs=64, seed=1000 * k) for k in range(4)]
    batches = ray.get([w.collect.remote(100) for w in workers])   # 4 x 100 x 64 transitions

See docs/envs.md for the full recipe and RLlib registration.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np


def env_creator(env_id: str) -> Callable[[dict], object]:
    """An environment creator for RLlib's ``register_env`` (or any framework that makes
    environments from a config dict): ``creator(config)`` returns ``gymnasium.make(env_id,
    **config)``, or, when config has ``num_envs`` (RLlib's vector entry point passes it), the
    WorldBatch-backed ``gymnasium.make_vec(env_id, num_envs, "vector_entry_point", **rest)``.
    It imports torsion.envs itself, so it works in fresh worker processes."""

    def creator(config) -> object:
        from ._gym import gymnasium

        gym = gymnasium()
        import torsion.envs  # noqa: F401  (registers the ids in this process)

        kwargs = dict(config or {})
        num_envs = kwargs.pop("num_envs", None)
        if num_envs is None:
            return gym.make(env_id, **kwargs)
        return gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)

    return creator


class VectorRollout:
    """One vector environment ``env_id`` with ``num_envs`` sub-environments (made with
    ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``), reset with ``seed``.

    num_threads: the WorldBatch's threads (1 suits one Ray actor per core). env_kwargs go to the
    environment (e.g. max_episode_steps, terrain_seed).
    """

    def __init__(self, env_id: str, num_envs: int, seed: Optional[int] = None, num_threads: int = 1,
                 **env_kwargs):
        from ._gym import gymnasium

        gym = gymnasium()
        import torsion.envs  # noqa: F401  (registers the ids in this process)

        self.env = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
                                num_threads=num_threads, **env_kwargs)
        self._obs, _ = self.env.reset(seed=seed)
        self.env.action_space.seed(seed)
        self.total_steps = 0

    def collect(self, num_steps: int,
                policy: Optional[Callable[[np.ndarray], np.ndarray]] = None) -> dict:
        """Step ``num_steps`` times (num_steps * num_envs transitions) with ``policy`` (observations
        (N, obs_dim) -> actions (N, act_dim); None: uniform random actions). Returns a dict of
        arrays: obs (T, N, obs_dim) float32 (the observation each action saw), actions
        (T, N, act_dim), rewards (T, N), terminated (T, N), truncated (T, N), next_obs
        (T, N, obs_dim). Under NEXT_STEP autoreset the step after a done one is a reset step
        (reward 0, its action ignored): ``reset_step`` (T, N) marks them so learners can drop them.
        """
        if isinstance(num_steps, bool) or not isinstance(num_steps, (int, np.integer)) or num_steps < 1:
            raise ValueError(f"num_steps must be an int >= 1, got {num_steps!r}")
        n = self.env.num_envs
        obs_shape = self.env.single_observation_space.shape
        act_shape = self.env.single_action_space.shape
        out = {
            "obs": np.empty((num_steps, n) + obs_shape, dtype=np.float32),
            "actions": np.empty((num_steps, n) + act_shape, dtype=np.float32),
            "rewards": np.empty((num_steps, n)),
            "terminated": np.empty((num_steps, n), dtype=bool),
            "truncated": np.empty((num_steps, n), dtype=bool),
            "next_obs": np.empty((num_steps, n) + obs_shape, dtype=np.float32),
            "reset_step": np.empty((num_steps, n), dtype=bool),
        }
        done = getattr(self, "_done", np.zeros(n, dtype=bool))
        for t in range(num_steps):
            action = self.env.action_space.sample() if policy is None else policy(self._obs)
            out["obs"][t] = self._obs
            out["actions"][t] = action
            out["reset_step"][t] = done
            self._obs, rew, term, trunc, _ = self.env.step(action)
            out["rewards"][t], out["terminated"][t], out["truncated"][t] = rew, term, trunc
            out["next_obs"][t] = self._obs
            done = term | trunc
        self._done = done
        self.total_steps += num_steps * n
        return out

    def close(self) -> None:
        self.env.close()
