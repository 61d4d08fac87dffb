"""A Gym-style reaching environment on the 7-DoF arm and the loop that drives it.

    python examples/rl_loop.py
    python examples/rl_loop.py --steps 200

The environment follows gymnasium's API (reset(seed) -> (obs, info); step(action) -> (obs,
reward, terminated, truncated, info)) without needing gymnasium. A reset restores a checkpoint
captured once (fast and exact), then draws a target. Two policies run through the same loop: a
random one and a proportional one (Jacobian pseudo-inverse), standing in for a learned policy.

Shows: actuated-sized commands and readings (set_joint_pd_targets, get_joint_positions), frames by
link name, Jacobians, checkpoints as a reset, gravity compensation, many steps per action.
"""

from __future__ import annotations

import argparse

import numpy as np

import torsion


class ReachEnv:
    """Move the tool to a target: action = joint position change (rad, clipped to 0.05 per
    step), observation = (joint positions (7), joint velocities (7), tool - target (3))."""

    def __init__(self, episode_steps: int = 100, substeps: int = 10):
        self.world = torsion.World()
        self.world.set_time_step(0.002)
        self.arm = self.world.add_articulated_system(torsion.robots.urdf_path("arm7"))
        self.home = np.array([0.0, 0.5, 0.0, -1.2, 0.0, 0.8, 0.0])
        self.arm.set_generalized_coordinate(self.home)
        self.arm.set_gravity_compensation(True)
        self.arm.set_joint_pd_gains(600.0, 50.0)
        self.arm.set_joint_pd_targets(self.home)
        self.start = self.world.capture_checkpoint()
        self.episode_steps, self.substeps = episode_steps, substeps
        self.rng = np.random.default_rng()
        self.target = np.zeros(3)
        self.q_ref = self.home.copy()
        self.t = 0

    def _obs(self) -> np.ndarray:
        a = self.arm
        return np.r_[a.get_joint_positions(), a.get_joint_velocities(),
                     a.get_frame_position("tool") - self.target]

    def reset(self, seed=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.world.restore_checkpoint(self.start)
        self.target = np.array([0.5, 0.0, 0.6]) + self.rng.uniform(-0.15, 0.15, 3)
        self.q_ref = self.home.copy()
        self.t = 0
        return self._obs(), {"target": self.target.copy()}

    def step(self, action):
        action = np.clip(np.asarray(action, dtype=float), -0.05, 0.05)
        limits = self.arm.get_joint_limits()
        self.q_ref = np.clip(self.q_ref + action, limits[:, 0], limits[:, 1])
        self.arm.set_joint_pd_targets(self.q_ref)
        self.world.integrate(self.substeps)  # one call for several steps: Python paid once
        self.t += 1
        obs = self._obs()
        distance = float(np.linalg.norm(obs[14:]))
        terminated = distance < 0.01
        truncated = self.t >= self.episode_steps
        return obs, -distance, terminated, truncated, {"distance": distance}


def proportional_policy(env: ReachEnv, obs: np.ndarray) -> np.ndarray:
    jac = env.arm.get_dense_frame_jacobian("tool")  # (3, 7) for a fixed base
    return 0.5 * np.linalg.pinv(jac) @ (-obs[14:])


def random_policy(env: ReachEnv, obs: np.ndarray) -> np.ndarray:
    return env.rng.uniform(-0.05, 0.05, 7)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="environment steps per policy")
    args = parser.parse_args(argv)
    env = ReachEnv(episode_steps=min(100, args.steps))
    results = {}
    for name, policy in (("random", random_policy), ("proportional", proportional_policy)):
        obs, _ = env.reset(seed=0)
        returns, final, episode_return = [], [], 0.0
        for _ in range(args.steps):
            obs, reward, terminated, truncated, info = env.step(policy(env, obs))
            episode_return += reward
            if terminated or truncated:
                returns.append(episode_return)
                final.append(info["distance"])
                obs, _ = env.reset()
                episode_return = 0.0
        results[name] = float(np.mean(final)) if final else float("nan")
        print(f"{name:>12} policy: {len(returns)} episodes, mean return {np.mean(returns):8.2f}, "
              f"mean final distance {1e3 * results[name]:7.1f} mm")
    return results


if __name__ == "__main__":
    out = main()
    raise SystemExit(0 if out["proportional"] < 0.25 * out["random"] else 1)
