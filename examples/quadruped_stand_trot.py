"""Stand the bundled quadruped (a Unitree A1 class robot) on the ground, then trot in place.

    python examples/quadruped_stand_trot.py            # 2 s standing, 4 s trotting
    python examples/quadruped_stand_trot.py --steps 200

Shows: loading a URDF, placing the floating base, commands sized to the 12 actuated joints
(set_joint_pd_gains / set_joint_pd_targets), joint look-ups by name, frames by link name.
"""

from __future__ import annotations

import argparse

import numpy as np

import torsion

STAND = torsion.robots.QUADRUPED_STAND  # (hip, thigh, calf) x (FR, FL, RR, RL)


def trot_targets(t: float, period: float = 0.4) -> np.ndarray:
    """Joint targets of a trot in place: diagonal legs (FR + RL, FL + RR) lift in turn."""
    q = np.array(STAND, dtype=float)
    for leg, phase in enumerate((0.0, 0.5, 0.5, 0.0)):  # FR, FL, RR, RL
        s = np.sin(2 * np.pi * (t / period + phase))
        lift = max(0.0, s)  # swing half of the cycle
        q[3 * leg + 1] += 0.35 * lift  # thigh forward
        q[3 * leg + 2] -= 0.7 * lift  # calf folds: the foot comes up
    return q


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="time steps of 2 ms (half stand, half trot)")
    args = parser.parse_args(argv)

    world = torsion.World()
    world.set_time_step(0.002)
    world.add_ground()
    robot = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    robot.set_base_position([0.0, 0.0, 0.33])
    robot.set_generalized_coordinate(np.r_[robot.get_generalized_coordinate()[:7], STAND])
    robot.set_joint_pd_gains(80.0, 2.0)  # every actuated joint
    robot.set_joint_pd_targets(STAND)
    print("actuated joints:", ", ".join(robot.get_actuated_joint_names()))

    stand_steps = args.steps // 2
    world.integrate(stand_steps)
    height = robot.get_base_position()[2]
    print(f"standing after {stand_steps * 0.002:.2f} s: base at {height:.3f} m")

    start = robot.get_base_position()
    for k in range(args.steps - stand_steps):
        robot.set_joint_pd_targets(trot_targets(k * 0.002))
        world.integrate()
    end = robot.get_base_position()
    foot = robot.get_frame_position("FR_foot")  # a link name (it is merged into FR_calf)
    up = torsion.rotations.quat_to_matrix(robot.get_base_orientation())[:, 2]
    print(f"trotting: base moved {np.linalg.norm(end[:2] - start[:2]):.3f} m, height {end[2]:.3f} m, "
          f"trunk tilt {np.degrees(np.arccos(np.clip(up[2], -1, 1))):.1f} deg, FR foot at z = {foot[2]:.3f} m")
    upright = bool(up[2] > 0.8 and end[2] > 0.15)
    print("upright:", upright)
    return {"height": float(height), "upright": upright}


if __name__ == "__main__":
    result = main()
    raise SystemExit(0 if result["upright"] else 1)
