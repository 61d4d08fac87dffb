"""Checkpoint a running simulation, keep going, then go back and replay: the replay is bitwise
identical. The checkpoint also goes through bytes (a file), as for a saved experiment.

    python examples/checkpoint_replay.py
    python examples/checkpoint_replay.py --steps 100

Shows: World.capture_checkpoint / restore_checkpoint, Checkpoint.to_bytes / from_bytes, state
hashes, determinism (a robot under PD on the ground, boxes falling on it).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

import torsion


def build() -> tuple[torsion.World, torsion.ArticulatedSystem]:
    world = torsion.World()
    world.set_time_step(0.002)
    world.add_ground()
    robot = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    robot.set_base_position([0.0, 0.0, 0.33])
    robot.set_generalized_coordinate(np.r_[robot.get_generalized_coordinate()[:7], torsion.robots.QUADRUPED_STAND])
    robot.set_joint_pd_gains(80.0, 2.0)
    robot.set_joint_pd_targets(torsion.robots.QUADRUPED_STAND)
    for k in range(3):
        box = world.add_box(0.1, 0.1, 0.1, 0.5)
        box.set_position([0.05 * k, 0.0, 0.6 + 0.15 * k])
    return world, robot


def run(world, robot, steps: int, seed: int) -> list[bytes]:
    """Steps with a time-varying command; the state after every 10 steps, as bytes."""
    rng = np.random.default_rng(seed)
    states = []
    for k in range(steps):
        if k % 10 == 0:
            robot.set_joint_pd_targets(torsion.robots.QUADRUPED_STAND + rng.uniform(-0.1, 0.1, 12))
        world.integrate()
        if k % 10 == 9:
            states.append(robot.get_generalized_coordinate().tobytes() + robot.get_generalized_velocity().tobytes())
    return states


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="steps before and after the checkpoint")
    args = parser.parse_args(argv)

    world, robot = build()
    run(world, robot, args.steps, seed=0)
    checkpoint = world.capture_checkpoint()
    hash_at_checkpoint = world.state_hash()
    first = run(world, robot, args.steps, seed=1)

    # back to the checkpoint in the same world: the same commands give the same states, bit for bit
    world.restore_checkpoint(checkpoint)
    assert world.state_hash() == hash_at_checkpoint
    replay = run(world, robot, args.steps, seed=1)
    same = first == replay
    print(f"replayed {args.steps} steps from t = {checkpoint.get_world_time():.3f} s: bitwise identical: {same}")

    # through a file, into a new world built the same way
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.ckpt"
        path.write_bytes(checkpoint.to_bytes())
        world2, robot2 = build()
        world2.restore_checkpoint(torsion.Checkpoint.from_bytes(path.read_bytes()))
        from_file = run(world2, robot2, args.steps, seed=1)
    same_file = from_file == first
    print(f"a new world restored from a {len(checkpoint.to_bytes())}-byte checkpoint file replays "
          f"identically: {same_file}")
    return {"same": same, "same_file": same_file}


if __name__ == "__main__":
    out = main()
    raise SystemExit(0 if out["same"] and out["same_file"] else 1)
