"""Gymnasium environments on torsion (the ``gym`` extra: ``pip install "torsion[gym]"``).

Importing this package registers, in Gymnasium's registry:

=============================  =============================================================
id                             task
=============================  =============================================================
``torsion/Quadruped-v0``       the bundled quadruped tracks a velocity command on flat ground
``torsion/QuadrupedRough-v0``  the same on Perlin terrain, with a height-scan observation
``torsion/Reach-v0``           the bundled 7-DoF arm moves its tool to a goal point
``torsion/CartPole-v0``        balance a pole on a cart (a small smoke task)
=============================  =============================================================

    >>> import gymnasium as gym, torsion.envs
    >>> env = gym.make("torsion/Quadruped-v0", render_mode="rgb_array")
    >>> envs = gym.make_vec("torsion/Quadruped-v0", num_envs=64,
    ...                     vectorization_mode="vector_entry_point")   # one WorldBatch

``gym.make("torsion.envs:torsion/Quadruped-v0")`` imports this package itself. Observations,
actions and rewards are documented in each task's module (quadruped, reach, cartpole) and in
docs/envs.md.
"""

from __future__ import annotations

from ._gym import gymnasium

_gymnasium = gymnasium()

from .core import Task, TorsionEnv, TorsionVectorEnv  # noqa: E402
from .cartpole import CartPoleEnv, CartPoleVectorEnv  # noqa: E402
from .quadruped import (  # noqa: E402
    QuadrupedEnv,
    QuadrupedRoughEnv,
    QuadrupedRoughVectorEnv,
    QuadrupedVectorEnv,
)
from .reach import ReachEnv, ReachVectorEnv  # noqa: E402
from .render import Camera, shade  # noqa: E402

#: id -> (single environment class, vector environment class, max_episode_steps)
ENVIRONMENTS = {
    "torsion/Quadruped-v0": ("quadruped:QuadrupedEnv", "quadruped:QuadrupedVectorEnv", 1000),
    "torsion/QuadrupedRough-v0": ("quadruped:QuadrupedRoughEnv", "quadruped:QuadrupedRoughVectorEnv", 1000),
    "torsion/Reach-v0": ("reach:ReachEnv", "reach:ReachVectorEnv", 200),
    "torsion/CartPole-v0": ("cartpole:CartPoleEnv", "cartpole:CartPoleVectorEnv", 500),
}


def register() -> None:
    """Register every torsion environment with Gymnasium (done on import; calling again is a no-op)."""
    for env_id, (single, vector, steps) in ENVIRONMENTS.items():
        if env_id in _gymnasium.registry:
            continue
        _gymnasium.register(id=env_id, entry_point=f"torsion.envs.{single}",
                      vector_entry_point=f"torsion.envs.{vector}", max_episode_steps=steps)


register()

__all__ = [
    "ENVIRONMENTS",
    "Camera",
    "CartPoleEnv",
    "CartPoleVectorEnv",
    "QuadrupedEnv",
    "QuadrupedRoughEnv",
    "QuadrupedRoughVectorEnv",
    "QuadrupedVectorEnv",
    "ReachEnv",
    "ReachVectorEnv",
    "Task",
    "TorsionEnv",
    "TorsionVectorEnv",
    "register",
    "shade",
]
