"""Helpers shared by the contact tests."""

import numpy as np


def drop_tumbling_boxes(w, count=12, seed=3):
    """`count` 0.1 m, 1 kg boxes in a loose column above the origin, randomly oriented, so that
    they fall into a small pile; returns them."""
    rng = np.random.default_rng(seed)
    boxes = []
    for k in range(count):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position([rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0.1 + 0.12 * k])
        b.set_orientation(rng.normal(size=4))
        boxes.append(b)
    return boxes


def boxes_state(boxes):
    """Position, quaternion and linear velocity of every box, concatenated."""
    return np.concatenate([np.concatenate([b.get_position(), b.get_quaternion(),
                                           b.get_linear_velocity()]) for b in boxes])


def box_stack(n, erp=0.0, acceleration=0, dt=1e-3):
    """A world with n unit-mass 0.1 m cubes stacked on the ground (just touching), friction 0.8,
    no restitution, ERP `erp`, Anderson depth `acceleration`, fixed sweep order. Returns
    (world, boxes) bottom first."""
    import torsion

    w = torsion.World()
    w.set_time_step(dt)
    w.add_ground(0.0)
    w.set_default_material(0.8, 0.0, 0.0)
    w.set_erp(erp, 0.0)
    w.set_contact_solver_iteration_order(True)
    w.set_contact_solver_acceleration(acceleration)
    boxes = []
    for k in range(n):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position([0.0, 0.0, 0.05 + 0.1 * k])
        boxes.append(b)
    return w, boxes
