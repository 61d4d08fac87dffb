"""Mass and inertia of each shape against an independent brute-force integration over a grid."""

import numpy as np
import pytest

import torsion

N = 160  # grid cells per axis


def grid_inertia(inside, half):
    """Inertia about the origin of a unit-density solid given by the indicator `inside`, by the
    midpoint rule on an N^3 grid over the box [-half, half]."""
    axes = [(np.arange(N) + 0.5) / N * 2 * h - h for h in half]
    x, y, z = np.meshgrid(*axes, indexing="ij")
    m = inside(x, y, z).astype(float)
    cell = np.prod(2 * np.asarray(half)) / N**3
    mass = m.sum() * cell
    ixx = ((y * y + z * z) * m).sum() * cell
    iyy = ((x * x + z * z) * m).sum() * cell
    izz = ((x * x + y * y) * m).sum() * cell
    ixy = -(x * y * m).sum() * cell
    return mass, np.array([[ixx, ixy, 0], [ixy, iyy, 0], [0, 0, izz]])


def check(obj, inside, half, mass):
    vol, inertia = grid_inertia(inside, half)
    expected = inertia * (mass / vol)  # scale a unit-density body to the given mass
    assert obj.get_mass() == mass
    np.testing.assert_allclose(obj.get_inertia_matrix_b(), expected, rtol=2e-2, atol=1e-3 * np.abs(expected).max())


def test_sphere():
    w = torsion.World()
    r, m = 0.7, 3.0
    s = w.add_sphere(r, m)
    np.testing.assert_allclose(np.diag(s.get_inertia_matrix_b()), [0.4 * m * r * r] * 3, rtol=1e-15)
    check(s, lambda x, y, z: x * x + y * y + z * z <= r * r, [r, r, r], m)


def test_box():
    w = torsion.World()
    a, b, c, m = 0.4, 1.2, 2.0, 5.0
    box = w.add_box(a, b, c, m)
    np.testing.assert_allclose(
        np.diag(box.get_inertia_matrix_b()), [m / 12 * (b * b + c * c), m / 12 * (a * a + c * c), m / 12 * (a * a + b * b)], rtol=1e-15
    )
    np.testing.assert_allclose(box.get_dim(), [a, b, c])
    check(box, lambda x, y, z: (abs(x) <= a / 2) & (abs(y) <= b / 2) & (abs(z) <= c / 2), [a / 2, b / 2, c / 2], m)


def test_cylinder():
    w = torsion.World()
    r, h, m = 0.3, 1.1, 2.5
    cyl = w.add_cylinder(r, h, m)
    assert cyl.get_radius() == r and cyl.get_height() == h
    check(cyl, lambda x, y, z: (x * x + y * y <= r * r) & (abs(z) <= h / 2), [r, r, h / 2], m)


@pytest.mark.parametrize("r,h", [(0.25, 0.8), (0.5, 0.1), (0.3, 0.0)])
def test_capsule(r, h):
    w = torsion.World()
    m = 1.7
    cap = w.add_capsule(r, h, m)
    assert cap.get_radius() == r and cap.get_height() == h

    def inside(x, y, z):
        zc = np.clip(z, -h / 2, h / 2)  # nearest point of the axis segment
        return x * x + y * y + (z - zc) ** 2 <= r * r

    check(cap, inside, [r, r, h / 2 + r], m)


def test_set_mass_and_inertia():
    w = torsion.World()
    b = w.add_box(1, 1, 1, 1.0)
    b.set_mass(3.0)
    assert b.get_mass() == 3.0
    inertia = np.array([[2.0, 0.1, 0.0], [0.1, 3.0, 0.2], [0.0, 0.2, 4.0]])
    b.set_inertia(inertia)
    np.testing.assert_array_equal(b.get_inertia_matrix_b(), inertia)
    b.set_inertia([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(b.get_inertia_matrix_b(), np.diag([1.0, 2.0, 3.0]))
    b.set_orientation([np.cos(0.25), 0, 0, np.sin(0.25)])
    r = b.get_rotation_matrix()
    np.testing.assert_allclose(b.get_inertia_matrix_w(), r @ np.diag([1.0, 2.0, 3.0]) @ r.T, atol=1e-15)
