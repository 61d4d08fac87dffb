"""Small quaternion helpers for the IK layer (quaternions are (w, x, y, z), unit)."""

from __future__ import annotations

import numpy as np


def unit(v, name: str) -> np.ndarray:
    """v / |v| for a finite non-zero v of any magnitude (the core's normalize_scaled): v is
    divided by its largest |component| first, since |v| itself overflows to inf past about 1e154
    (and v / inf is zero) and underflows to 0 below about 1e-154. ValueError naming `name` for a
    zero or non-finite v."""
    a = np.asarray(v, dtype=float)
    scale = np.max(np.abs(a)) if a.size else 0.0
    if not np.all(np.isfinite(a)) or not scale > 0.0:
        raise ValueError(f"{name} must be finite with a non-zero norm (any such norm is "
                         f"normalised), got {a.tolist()}")
    a = a / scale
    return a / np.sqrt(np.dot(a, a))


def quat_mul(a, b) -> np.ndarray:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def quat_conj(q) -> np.ndarray:
    return np.array([q[0], -q[1], -q[2], -q[3]], dtype=float)


def quat_to_matrix(q) -> np.ndarray:
    w, x, y, z = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def matrix_to_quat(m) -> np.ndarray:
    """(w, x, y, z) of a rotation matrix (Shepperd's method, numerically robust)."""
    m = np.asarray(m, dtype=float)
    tr = m[0, 0] + m[1, 1] + m[2, 2]
    if tr > 0:
        s = 2.0 * np.sqrt(tr + 1.0)
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = 2.0 * np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    q = np.array(q)
    return q / np.linalg.norm(q)


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """URDF convention: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr = np.cos(roll / 2), np.sin(roll / 2)
    cp, sp = np.cos(pitch / 2), np.sin(pitch / 2)
    cy, sy = np.cos(yaw / 2), np.sin(yaw / 2)
    return np.array([
        cr * cp * cy + sr * sp * sy,
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
    ])


def quat_z_to(axis) -> np.ndarray:
    """The minimal rotation taking the z axis onto the unit vector `axis`."""
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    d = a[2]
    if d < -1.0 + 1e-12:
        return np.array([0.0, 1.0, 0.0, 0.0])  # half turn about x
    v = np.cross([0.0, 0.0, 1.0], a)
    q = np.array([1.0 + d, v[0], v[1], v[2]])
    return q / np.linalg.norm(q)


def rotate(q, v) -> np.ndarray:
    return quat_to_matrix(q) @ np.asarray(v, dtype=float)


def quat_angle(a, b) -> float:
    """Rotation angle (rad, in [0, pi]) between two unit quaternions."""
    d = abs(float(np.dot(np.asarray(a, dtype=float), np.asarray(b, dtype=float))))
    return 2.0 * float(np.arccos(min(1.0, d)))


def pose_to_matrix12(position, quaternion) -> np.ndarray:
    """The 12 values of a 3x4 [R | p] matrix, row-major (the seed's matrix layout)."""
    m = np.empty((3, 4))
    m[:, :3] = quat_to_matrix(quaternion)
    m[:, 3] = position
    return m.reshape(12)
