"""The bundled quadruped trots in place on Perlin terrain for 10 s without falling through:
every foot stays above the terrain under it (minus 1 cm) and the base stays in a band."""

import math

import numpy as np

import torsion
from torsion import TerrainProperties

FEET = ("FR_foot_fixed", "FL_foot_fixed", "RR_foot_fixed", "RL_foot_fixed")
FOOT_RADIUS = 0.02


def test_quadruped_trots_in_place_on_perlin_terrain():
    p = TerrainProperties()
    p.frequency, p.z_scale, p.x_size, p.y_size = 0.8, 0.06, 6.0, 6.0
    p.x_samples, p.y_samples, p.fractal_octaves, p.seed = 121, 121, 3, 7
    w = torsion.World()
    w.set_time_step(1e-3)
    hm = w.add_height_map(0.0, 0.0, p)
    robot = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = robot.get_generalized_coordinate()
    stand = np.array(torsion.robots.QUADRUPED_STAND)
    gc[7:] = stand
    robot.set_generalized_coordinate(gc)
    # start with the lowest foot 3 cm above the terrain under it
    gap = min(robot.get_frame_position(f)[2] - FOOT_RADIUS - hm.get_height(*robot.get_frame_position(f)[:2])
              for f in FEET)
    gc[2] += 0.03 - gap
    robot.set_generalized_coordinate(gc)
    robot.set_pd_gains(np.full(18, 150.0), np.full(18, 3.0))
    target = gc.copy()
    robot.set_pd_target(target, np.zeros(18))
    w.integrate(1000)  # settle
    base0 = robot.get_generalized_coordinate()[2]
    ground0 = hm.get_height(*robot.get_generalized_coordinate()[:2])
    # trot in place: diagonal pairs (FR, RL) and (FL, RR) lift in turn at 2 Hz
    pair_a = np.array([1, 0, 0, 1], float)  # FR, FL, RR, RL
    lowest_clearance, heights = np.inf, []
    steps_per_update = 10
    for k in range(10_000 // steps_per_update):
        t = k * steps_per_update * 1e-3
        s = math.sin(2 * math.pi * 2.0 * t)
        lift = np.where(pair_a > 0, max(s, 0.0), max(-s, 0.0))
        q = stand.reshape(4, 3).copy()
        q[:, 1] += 0.35 * lift
        q[:, 2] -= 0.7 * lift
        target[7:] = q.reshape(-1)
        robot.set_pd_target(target, np.zeros(18))
        w.integrate(steps_per_update)
        for f in FEET:
            x, y, z = robot.get_frame_position(f)
            lowest_clearance = min(lowest_clearance, z - FOOT_RADIUS - hm.get_height(x, y))
        base = robot.get_generalized_coordinate()
        heights.append(base[2] - hm.get_height(base[0], base[1]))
    assert lowest_clearance > -0.01
    heights = np.array(heights)
    stand_height = base0 - ground0
    # the base stays in a band around its standing height (never collapses, never launched)
    assert heights.min() > stand_height - 0.1
    assert heights.max() < stand_height + 0.1
    # it trotted roughly in place (open-loop gait, no balance control: some drift)
    assert np.linalg.norm(robot.get_generalized_coordinate()[:2]) < 1.5
    assert robot.get_generalized_coordinate()[3] > 0.9  # upright (qw of the base)
