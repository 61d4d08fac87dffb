"""Quaternion helpers of the IK layer: the public ones live in torsion.rotations (quaternions
are (w, x, y, z), unit); this module adds the seed's 3x4 matrix layout."""

from __future__ import annotations

import numpy as np

from ..rotations import (  # noqa: F401  (re-exported for the IK modules)
    as_quaternion,
    matrix_to_quat,
    quat_angle,
    quat_conjugate as quat_conj,
    quat_from_rpy,
    quat_multiply as quat_mul,
    quat_to_matrix,
    quat_z_to,
    rotate,
    unit,
)


def pose_to_matrix12(position, quaternion) -> np.ndarray:
    """The 12 values of a 3x4 [R | p] matrix, row-major (the seed's matrix layout)."""
    m = np.empty((3, 4))
    m[:, :3] = quat_to_matrix(quaternion)
    m[:, 3] = position
    return m.reshape(12)
