"""Row-wise rigid-body arithmetic over (N, ...) arrays for observations and rewards.

Everything here is elementwise NumPy or einsum's own loops (no matmul, no BLAS), so row i of a
result depends on row i of the inputs alone, in the same order of operations, and is bitwise the
same whether it is computed in a batch of N or alone: the single environments and the vector
environment share these functions and agree bit for bit.
"""

from __future__ import annotations

import numpy as np


def to_body_t(qt: np.ndarray, vt: np.ndarray, out: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    """R(q)^T v for K world vectors per robot, component-major (the fast layout for small N).

    qt: (4, N) quaternions (w, x, y, z) body to world, one per column; vt: (3, K, N) world
    vectors (component, vector, robot); out and tmp: (3, K, N) buffers. Returns out, the vectors
    in the body frame. Rotation by the conjugate u = -(x, y, z): t = 2 u x v, v' = v + w t + u x t.
    """
    w = qt[0]
    ux, uy, uz = -qt[1], -qt[2], -qt[3]
    vx, vy, vz = vt[0], vt[1], vt[2]
    np.multiply(uy, vz, out=tmp[0])
    tmp[0] -= uz * vy
    np.multiply(uz, vx, out=tmp[1])
    tmp[1] -= ux * vz
    np.multiply(ux, vy, out=tmp[2])
    tmp[2] -= uy * vx
    tmp *= 2.0
    np.multiply(tmp, w, out=out)
    out += vt
    out[0] += uy * tmp[2] - uz * tmp[1]
    out[1] += uz * tmp[0] - ux * tmp[2]
    out[2] += ux * tmp[1] - uy * tmp[0]
    return out


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
