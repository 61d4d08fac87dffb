"""CartPole: balance a pole on a cart, the classic control smoke test on torsion's articulated
dynamics.

The cart-pole is built in code (``torsion.Child``): a 1 kg cart on a prismatic joint along x,
1.5 m above the ground, carrying a 0.1 kg, 1 m uniform pole on a hinge about y (the parameters of
Gymnasium's CartPole-v1, here with exact rigid-body dynamics). Physics at dt = 10 ms, 2 steps per
action (0.02 s, as CartPole-v1).

Action (1,) in [-1, 1]: horizontal force on the cart, 10 N times the action.

Observation (4,) float32: cart position x (m), pole angle (rad, 0 upright, positive tipping
towards +x), cart velocity (m/s), pole angular velocity (rad/s).

Reward 1 per step. Termination when |x| > 2.4 m or |angle| > 12 degrees; truncation at 500 steps.
Reset: all four uniform in [-0.05, 0.05].
"""

from __future__ import annotations

import numpy as np

from .core import Task, TorsionEnv, TorsionVectorEnv

_HEIGHT = 1.5
_ANGLE_LIMIT = 12.0 * 2.0 * np.pi / 360.0


def cartpole_tree():
    """The cart-pole as a torsion.Child tree (fixed rail, cart, pole)."""
    import torsion

    pole = torsion.Child(
        "pole", joint_type="continuous", joint_name="hinge", axis=(0.0, 1.0, 0.0),
        mass=0.1, com=(0.0, 0.0, 0.5), inertia=(0.1 / 12.0, 0.1 / 12.0, 1e-5),
        collisions=[torsion.CollisionShape("capsule", radius=0.02, length=1.0, xyz=(0.0, 0.0, 0.5))])
    cart = torsion.Child(
        "cart", joint_type="prismatic", joint_name="slide", axis=(1.0, 0.0, 0.0), mass=1.0,
        inertia=(1.0 / 12.0 * (0.15 ** 2 + 0.1 ** 2), 1.0 / 12.0 * (0.3 ** 2 + 0.1 ** 2),
                 1.0 / 12.0 * (0.3 ** 2 + 0.15 ** 2)),
        collisions=[torsion.CollisionShape("box", size=(0.3, 0.15, 0.1))], children=[pole])
    return torsion.Child(
        "rail", joint_type="fixed", origin_xyz=(0.0, 0.0, _HEIGHT), mass=5.0,
        inertia=(0.01, 1.0, 1.0),
        collisions=[torsion.CollisionShape("box", size=(4.8, 0.04, 0.04), xyz=(0.0, 0.1, 0.0))],
        children=[cart])


class CartPoleTask(Task):
    time_step = 0.01
    decimation = 2
    max_episode_steps = 500
    obs_dim = 4
    act_dim = 1
    render_fps = 50

    def __init__(self, num_envs: int):
        super().__init__(num_envs)
        self._tau = np.zeros((self.n, 2))

    def build(self, world, index: int = 0) -> None:
        world.set_time_step(self.time_step)
        world.add_ground()
        robot = world.add_articulated_system_from_tree(cartpole_tree())
        robot.set_name(self.robot_name)

    def sample_reset(self, rng, row):
        s = rng.uniform(-0.05, 0.05, size=4)
        self.last_action[row] = 0.0
        return s[0:2].copy(), s[2:4].copy()

    def apply_action(self, sim, action):
        np.multiply(action[:, 0], 10.0, out=self._tau[:, 0])
        sim.set_generalized_forces(self._tau)

    def evaluate(self, sim, prev_action, obs, reward, terminated):
        obs[:, 0:2] = sim.gc
        obs[:, 2:4] = sim.gv
        reward[:] = 1.0
        np.logical_or(np.abs(sim.gc[:, 0]) > 2.4, np.abs(sim.gc[:, 1]) > _ANGLE_LIMIT, out=terminated)

    def camera(self, gc):
        return np.array([0.0, -4.5, 2.0]), np.array([0.0, 0.0, 1.6])


class CartPoleEnv(TorsionEnv):
    """torsion/CartPole-v0 (the task: see this module's docstring and docs/envs.md)."""

    task_class = CartPoleTask


class CartPoleVectorEnv(TorsionVectorEnv):
    """Vector form of torsion/CartPole-v0 on a WorldBatch (see CartPoleEnv)."""
    task_class = CartPoleTask
