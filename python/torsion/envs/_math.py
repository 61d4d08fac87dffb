"""Small rigid-body helpers of the environments: headings, yaw quaternions, camera rotations.

yaw() works row-wise on (N, 4) arrays with elementwise NumPy, so row i's result does not depend
on N (the single and vector environments agree bit for bit).
"""

from __future__ import annotations

import numpy as np


def yaw(q: np.ndarray) -> np.ndarray:
    """Heading angle (rad) of each quaternion row (w, x, y, z): the yaw of its z-y-x Euler angles. (N,)."""
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.arctan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))


def yaw_quaternion(angle: float) -> np.ndarray:
    """The (w, x, y, z) quaternion of a rotation by ``angle`` rad about world z."""
    return np.array([np.cos(0.5 * angle), 0.0, 0.0, np.sin(0.5 * angle)])


def look_at(eye, target) -> np.ndarray:
    """Rotation (3, 3) of a camera at ``eye`` looking at ``target`` with world z up: the depth
    camera looks along its +X axis, +Z up (columns are the camera axes in world)."""
    eye = np.asarray(eye, dtype=float)
    fwd = np.asarray(target, dtype=float) - eye
    fwd /= np.linalg.norm(fwd)
    left = np.cross([0.0, 0.0, 1.0], fwd)
    n = np.linalg.norm(left)
    left = left / n if n > 1e-9 else np.array([0.0, 1.0, 0.0])
    up = np.cross(fwd, left)
    return np.column_stack([fwd, left, up])
