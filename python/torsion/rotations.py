"""Rotation helpers: quaternions (w, x, y, z), rotation matrices, roll-pitch-yaw and rotation
vectors, each to and from the others.

torsion's conventions (DESIGN.md): quaternions are (w, x, y, z); a rotation matrix maps the body
frame to the world (``p_world = R @ p_body``); roll-pitch-yaw is URDF's, fixed axes x, y, z:
``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)`` (scipy's ``Rotation.from_euler("xyz", ...)``); a rotation
vector is the axis times the angle (rad). Every function takes one rotation and returns fresh
float64 arrays; bad input (wrong shape, NaN or inf, a zero quaternion, a matrix that is not a
rotation) raises ValueError naming the argument.

    from torsion import rotations as rot
    R = robot.get_frame_orientation("ee_link")        # (3, 3)
    q = rot.matrix_to_quat(R)                         # (4,) w, x, y, z
    roll, pitch, yaw = rot.matrix_to_rpy(R)
    robot.set_base_orientation(rot.rpy_to_quat([0.0, 0.0, 1.57]))
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "as_matrix", "as_quaternion", "matrix_to_quat", "matrix_to_rotvec", "matrix_to_rpy",
    "quat_angle", "quat_conjugate", "quat_multiply", "quat_to_matrix", "quat_to_rotvec",
    "quat_to_rpy", "rotate", "rotvec_to_matrix", "rotvec_to_quat", "rpy_to_matrix",
    "rpy_to_quat",
]


def _vector(v, n: int, name: str) -> np.ndarray:
    a = np.asarray(v, dtype=float)
    if a.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {a.tolist()}")
    return a


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


def _quat(q, name: str = "q") -> np.ndarray:
    return unit(_vector(q, 4, name), name)


def _rotation_matrix(m, name: str = "matrix") -> np.ndarray:
    a = np.asarray(m, dtype=float)
    if a.shape != (3, 3):
        raise ValueError(f"{name} must have shape (3, 3), got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    if np.max(np.abs(a.T @ a - np.eye(3))) > 1e-6 or np.linalg.det(a) < 0.0:
        raise ValueError(f"{name} must be a rotation matrix (orthonormal, det +1)")
    return a


def quat_multiply(a, b) -> np.ndarray:
    """The Hamilton product a * b (the rotation b, then a)."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def quat_conjugate(q) -> np.ndarray:
    """(w, -x, -y, -z): the inverse rotation of a unit quaternion."""
    return np.array([q[0], -q[1], -q[2], -q[3]], dtype=float)


def quat_to_matrix(q) -> np.ndarray:
    """The (3, 3) rotation matrix of a quaternion (w, x, y, z) (normalised first)."""
    w, x, y, z = _quat(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def matrix_to_quat(m) -> np.ndarray:
    """(w, x, y, z) of a rotation matrix (Shepperd's method, numerically robust), w >= 0."""
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
    q /= np.linalg.norm(q)
    return -q if q[0] < 0.0 else q


def rpy_to_matrix(rpy) -> np.ndarray:
    """R = Rz(yaw) Ry(pitch) Rx(roll) of rpy = (roll, pitch, yaw) in rad (URDF's convention)."""
    r, p, y = _vector(rpy, 3, "rpy")
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array([
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ])


def rpy_to_quat(rpy) -> np.ndarray:
    """The quaternion (w, x, y, z) of rpy = (roll, pitch, yaw) (URDF's convention)."""
    roll, pitch, yaw = _vector(rpy, 3, "rpy")
    cr, sr = np.cos(roll / 2), np.sin(roll / 2)
    cp, sp = np.cos(pitch / 2), np.sin(pitch / 2)
    cy, sy = np.cos(yaw / 2), np.sin(yaw / 2)
    return np.array([
        cr * cp * cy + sr * sp * sy,
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
    ])


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """rpy_to_quat((roll, pitch, yaw)) with three arguments."""
    return rpy_to_quat((roll, pitch, yaw))


def matrix_to_rpy(m) -> np.ndarray:
    """(roll, pitch, yaw) in rad of a rotation matrix, pitch in [-pi/2, pi/2], roll and yaw in
    [-pi, pi]. At pitch = +-pi/2 (gimbal lock) roll is 0 and yaw carries the rotation."""
    m = _rotation_matrix(m)
    # cos(pitch) from the first column: atan2 keeps pitch accurate near +-pi/2, where arcsin of
    # -m[2, 0] loses half the digits
    cp = float(np.hypot(m[0, 0], m[1, 0]))
    pitch = float(np.arctan2(-m[2, 0], cp))
    if cp > 1e-10:
        roll = float(np.arctan2(m[2, 1], m[2, 2]))
        yaw = float(np.arctan2(m[1, 0], m[0, 0]))
    else:  # cos(pitch) = 0: only roll -+ yaw is defined
        roll = 0.0
        yaw = float(np.arctan2(-m[0, 1], m[1, 1]))
    return np.array([roll, pitch, yaw])


def quat_to_rpy(q) -> np.ndarray:
    """(roll, pitch, yaw) of a quaternion (w, x, y, z); see matrix_to_rpy."""
    return matrix_to_rpy(quat_to_matrix(q))


def rotvec_to_quat(v) -> np.ndarray:
    """The quaternion (w, x, y, z) of a rotation vector (axis * angle, rad)."""
    v = _vector(v, 3, "rotvec")
    angle = float(np.linalg.norm(v))
    half = 0.5 * angle
    # sin(half) / angle without the division by zero: its series below 1e-4 rad
    k = 0.5 - angle * angle / 48.0 if angle < 1e-4 else np.sin(half) / angle
    return np.array([np.cos(half), k * v[0], k * v[1], k * v[2]])


def quat_to_rotvec(q) -> np.ndarray:
    """The rotation vector (axis * angle, angle in [0, pi]) of a quaternion (w, x, y, z)."""
    q = _quat(q)
    if q[0] < 0.0:
        q = -q
    s = float(np.linalg.norm(q[1:]))
    angle = 2.0 * np.arctan2(s, q[0])
    k = 2.0 / q[0] if s < 1e-12 else angle / s  # small angles: 2 atan2(s, w) / s -> 2 / w
    return k * q[1:]


def rotvec_to_matrix(v) -> np.ndarray:
    """The rotation matrix of a rotation vector."""
    return quat_to_matrix(rotvec_to_quat(v))


def matrix_to_rotvec(m) -> np.ndarray:
    """The rotation vector of a rotation matrix."""
    return quat_to_rotvec(matrix_to_quat(_rotation_matrix(m)))


def as_quaternion(orientation, name: str = "orientation") -> np.ndarray:
    """A unit quaternion (w, x, y, z) from an orientation given as a quaternion, shape (4,), or
    a rotation matrix, shape (3, 3)."""
    a = np.asarray(orientation, dtype=float)
    if a.shape == (4,):
        return _quat(a, name)
    if a.shape == (3, 3):
        return matrix_to_quat(_rotation_matrix(a, name))
    raise ValueError(f"{name} must be a quaternion (w, x, y, z), shape (4,), or a rotation "
                     f"matrix, shape (3, 3), got shape {a.shape}")


def as_matrix(orientation, name: str = "orientation") -> np.ndarray:
    """A rotation matrix from an orientation given as a quaternion (4,) or a matrix (3, 3)."""
    a = np.asarray(orientation, dtype=float)
    if a.shape == (3, 3):
        return _rotation_matrix(a, name).copy()
    return quat_to_matrix(as_quaternion(a, name))


def rotate(q, v) -> np.ndarray:
    """The vector v (3,) turned by the quaternion q."""
    return quat_to_matrix(q) @ np.asarray(v, dtype=float)


def quat_angle(a, b) -> float:
    """Rotation angle (rad, in [0, pi]) between two unit quaternions."""
    d = abs(float(np.dot(np.asarray(a, dtype=float), np.asarray(b, dtype=float))))
    return 2.0 * float(np.arccos(min(1.0, d)))


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
