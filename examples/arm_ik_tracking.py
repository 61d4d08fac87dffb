"""A 7-DoF arm follows a circle with its tool: IK for every waypoint, a PD with gravity
compensation to track it.

    python examples/arm_ik_tracking.py
    python examples/arm_ik_tracking.py --steps 100

Shows: a fixed base mounted on a table (set_base_position), gravity compensation, IK from the
robot (torsion.ik.Environment.from_articulated_system) with targets given as rotation matrices,
PD targets from the IK result.
"""

from __future__ import annotations

import argparse

import numpy as np

import torsion
from torsion import rotations as rot


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="time steps of 1 ms")
    args = parser.parse_args(argv)

    world = torsion.World()
    world.set_time_step(0.001)
    arm = world.add_articulated_system(torsion.robots.urdf_path("arm7"))
    arm.set_base_position([0.0, 0.0, 0.75])  # on a table top
    start = np.array([0.0, 0.6, 0.0, -1.2, 0.0, 0.9, 0.0])
    arm.set_generalized_coordinate(start)
    arm.set_gravity_compensation(True)  # the PD only has to track, not to hold the weight
    arm.set_joint_pd_gains(600.0, 50.0)
    arm.set_joint_pd_targets(start)

    ik = torsion.ik.Environment.from_articulated_system(arm, "tool")  # frames by link name
    down = rot.rpy_to_matrix([np.pi, 0.0, 0.0])  # the tool pointing down, as a matrix
    centre, radius, period = np.array([0.5, 0.0, 1.1]), 0.1, 4.0  # a vertical circle

    def waypoint(t):
        angle = 2 * np.pi * t / period
        return centre + radius * np.array([0.0, np.cos(angle), np.sin(angle)])

    # start on the circle: the arm placed at the first waypoint's IK solution
    first = ik.solve(waypoint(0.0), down, q_start=start)
    q = first.q
    ik.apply(arm, q)
    arm.set_joint_pd_targets(q)

    dt_ik = 10 * world.get_time_step()  # a new IK waypoint every 10 ms
    errors, failures = [], 0
    for k in range(args.steps):
        t = k * world.get_time_step()
        if k % 10 == 0:
            target = waypoint(t + dt_ik)
            result = ik.solve(target, down, q_start=q)
            if result.success:
                # position and velocity targets: the PD tracks the motion without lagging
                arm.set_joint_pd_targets(result.q, (result.q - q) / dt_ik)
                q = result.q
            else:
                failures += 1
        world.integrate()
        if k % 10 == 9:
            errors.append(np.linalg.norm(arm.get_frame_position("tool") - target))
    mean_mm = 1e3 * float(np.mean(errors[len(errors) // 2:] or errors))
    print(f"tracked {len(errors)} waypoints of a {radius * 100:.0f} cm circle ({failures} IK "
          f"failures); mean tool error over the second half {mean_mm:.2f} mm")
    return {"mean_error_mm": mean_mm}


if __name__ == "__main__":
    out = main()
    raise SystemExit(0 if out["mean_error_mm"] < 5.0 else 1)
