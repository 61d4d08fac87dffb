"""torsion.rotations against scipy.spatial.transform.Rotation (x, y, z, w order there)."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from torsion import rotations as rot


def random_quats(n=200, seed=7):
    q = np.random.default_rng(seed).normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def wxyz(r: Rotation) -> np.ndarray:
    x, y, z, w = r.as_quat()
    return np.array([w, x, y, z])


def same_rotation(a, b, tol=1e-12):
    assert min(np.max(np.abs(a - b)), np.max(np.abs(a + b))) < tol


def test_quaternion_matrix_round_trip_against_scipy():
    for q in random_quats():
        r = Rotation.from_quat(np.r_[q[1:], q[0]])
        np.testing.assert_allclose(rot.quat_to_matrix(q), r.as_matrix(), atol=1e-14)
        back = rot.matrix_to_quat(r.as_matrix())
        same_rotation(back, q)
        assert back[0] >= 0.0


def test_rpy_against_scipy_extrinsic_xyz():
    rng = np.random.default_rng(1)
    for _ in range(200):
        rpy = rng.uniform([-np.pi, -np.pi / 2 + 1e-3, -np.pi], [np.pi, np.pi / 2 - 1e-3, np.pi])
        r = Rotation.from_euler("xyz", rpy)
        np.testing.assert_allclose(rot.rpy_to_matrix(rpy), r.as_matrix(), atol=1e-14)
        same_rotation(rot.rpy_to_quat(rpy), wxyz(r))
        np.testing.assert_allclose(rot.matrix_to_rpy(r.as_matrix()), rpy, atol=1e-10)
        np.testing.assert_allclose(rot.quat_to_rpy(wxyz(r)), rpy, atol=1e-10)
    # gimbal lock: the rotation survives, roll is set to 0
    r = Rotation.from_euler("xyz", [0.3, np.pi / 2, -0.2])
    rpy = rot.matrix_to_rpy(r.as_matrix())
    assert rpy[0] == 0.0
    np.testing.assert_allclose(rot.rpy_to_matrix(rpy), r.as_matrix(), atol=1e-12)


def test_rotation_vectors_against_scipy():
    rng = np.random.default_rng(2)
    for v in np.r_[rng.normal(size=(100, 3)), rng.normal(size=(5, 3)) * 1e-9, [[0, 0, 0]]]:
        r = Rotation.from_rotvec(v)
        same_rotation(rot.rotvec_to_quat(v), wxyz(r))
        np.testing.assert_allclose(rot.rotvec_to_matrix(v), r.as_matrix(), atol=1e-14)
    for q in random_quats():
        r = Rotation.from_quat(np.r_[q[1:], q[0]])
        np.testing.assert_allclose(rot.quat_to_rotvec(q), r.as_rotvec(), atol=1e-12)
        np.testing.assert_allclose(rot.matrix_to_rotvec(r.as_matrix()), r.as_rotvec(), atol=1e-10)


def test_products_and_conversions():
    a, b = random_quats(2, seed=3)
    ra, rb = (Rotation.from_quat(np.r_[q[1:], q[0]]) for q in (a, b))
    same_rotation(rot.quat_multiply(a, b), wxyz(ra * rb))
    np.testing.assert_allclose(rot.rotate(a, [1, 2, 3]), ra.apply([1, 2, 3]), atol=1e-14)
    same_rotation(rot.quat_multiply(a, rot.quat_conjugate(a)), np.array([1.0, 0, 0, 0]))
    np.testing.assert_allclose(rot.as_matrix(a), ra.as_matrix(), atol=1e-14)
    same_rotation(rot.as_quaternion(ra.as_matrix()), a)
    np.testing.assert_allclose(rot.as_quaternion(2 * a), a, atol=1e-15)


def test_bad_input():
    with pytest.raises(ValueError, match="q must be finite with a non-zero norm"):
        rot.quat_to_matrix([0, 0, 0, 0])
    with pytest.raises(ValueError, match="rpy must have shape"):
        rot.rpy_to_matrix([1, 2])
    with pytest.raises(ValueError, match="rotation matrix"):
        rot.matrix_to_rpy(np.diag([1.0, 1.0, -1.0]))
    with pytest.raises(ValueError, match="rotvec must be finite"):
        rot.rotvec_to_quat([np.inf, 0, 0])
    with pytest.raises(ValueError, match="orientation"):
        rot.as_quaternion(np.zeros((2, 2)))
