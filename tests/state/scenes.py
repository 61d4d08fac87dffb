"""Scenes shared by the state tests (and benchmarks/bench_state.py): a settling pile of boxes
with a ball, a cylinder and a capsule among them, and the bundled quadruped standing under PD."""

from __future__ import annotations

import numpy as np

import torsion


def cube_pile(n: int = 100, side: float = 0.1, columns: int = 5) -> torsion.World:
    """n cubes of side `side` (m) stacked in `columns` x columns layers on the ground, dt 1 ms,
    slightly jittered (deterministic) so the pile is not perfectly symmetric."""
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    rng = np.random.default_rng(7)
    for k in range(n):
        layer, cell = divmod(k, columns * columns)
        i, j = divmod(cell, columns)
        b = w.add_box(side, side, side, 1.0)
        jitter = rng.uniform(-0.002, 0.002, size=2)
        b.set_position([i * 1.05 * side + jitter[0], j * 1.05 * side + jitter[1],
                        side / 2 + layer * side * 1.001 + 1e-4])
    return w


def mixed_scene(with_robot: bool = True) -> tuple[torsion.World, object | None]:
    """Every single-body kind in a small pile, a material pair, a sensor seed, and (optionally)
    the quadruped standing under PD beside them."""
    w = torsion.World()
    w.set_time_step(1e-3)
    w.set_material_pair_prop("rubber", "default", 0.9, 0.3, 0.5)
    w.set_sensor_noise_seed(1234)
    w.add_ground()
    for k in range(6):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position([1.0 + 0.11 * (k % 3), 0.0, 0.05 + 0.1 * (k // 3) + 0.001])
    s = w.add_sphere(0.05, 0.5, material="rubber")
    s.set_position([1.1, 0.0, 0.5])
    s.set_velocity([0.1, 0.0, 0.0], [0.0, 0.0, 1.0])
    c = w.add_cylinder(0.05, 0.1, 0.8)
    c.set_position([1.0, 0.3, 0.06])
    cap = w.add_capsule(0.03, 0.1, 0.4)
    cap.set_position([1.2, 0.3, 0.2])
    cap.set_orientation([np.cos(0.3), np.sin(0.3), 0.0, 0.0])
    robot = None
    if with_robot:
        robot = standing_quadruped(w)
        robot.set_generalized_force(np.r_[np.zeros(6), np.full(12, 0.01)])
    return w, robot


def standing_quadruped(w: torsion.World):
    """The bundled quadruped 3 cm above its standing pose, held there by a PD (kp 100, kd 2)."""
    robot = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = robot.get_generalized_coordinate()
    gc[2] = 0.33
    gc[7:] = torsion.robots.QUADRUPED_STAND
    robot.set_generalized_coordinate(gc)
    robot.set_pd_gains(np.full(18, 100.0), np.full(18, 2.0))
    robot.set_pd_target(gc, np.zeros(18))
    return robot


def full_state(w: torsion.World) -> list[np.ndarray]:
    """Every object's state as arrays, for bitwise comparison."""
    out = [np.array([w.get_world_time()])]
    for o in w.get_object_list():
        if isinstance(o, torsion.ArticulatedSystem):
            out += [o.get_generalized_coordinate(), o.get_generalized_velocity()]
        else:
            out += [o.get_position(), o.get_quaternion(), o.get_linear_velocity(),
                    o.get_angular_velocity()]
    return out


def bitwise_equal(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(x.tobytes() == y.tobytes() for x, y in zip(a, b))
