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
