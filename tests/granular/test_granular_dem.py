"""The DEM of torsion.GranularSystem against closed forms: the Hertz impact (duration, and the
restitution the damping is tuned to), a sphere sliding into rolling (Coulomb), a sphere slowed by
rolling resistance, the energy of an elastic gas, and a pile coming to rest. Also determinism
whatever the thread count and refused input."""

import math

import numpy as np
import pytest

import torsion

R = 0.01
E, NU = 1e7, 0.3


def pair(restitution, friction=0.0):
    mat = torsion.GranularMaterial(youngs_modulus=E, poisson_ratio=NU, restitution=restitution,
                                   friction=friction)
    g = torsion.GranularSystem([[0.0, 0.0, 0.0], [2 * R + 1e-6, 0.0, 0.0]], [R, R], mat)
    return g


def head_on(restitution, v0=1.0, dt=1e-5):
    """Velocity of approach v0; returns (restitution, contact duration)."""
    g = pair(restitution)
    g.set_velocity(0, [v0 / 2, 0, 0])
    g.set_velocity(1, [-v0 / 2, 0, 0])
    duration, touched = 0.0, False
    for _ in range(5000):
        g.step(dt, (0.0, 0.0, 0.0))
        if g.get_stats()["contacts"]:
            duration += dt
            touched = True
        elif touched:
            break
    v = g.get_velocities()
    return (v[1, 0] - v[0, 0]) / v0, duration


def test_elastic_impact_lasts_as_hertz_says():
    # Hertz (Johnson, Contact Mechanics, 1985): t_c = 2.868 (m*^2 / (R* E*^2 v))^(1/5)
    m = 2600 * 4 / 3 * math.pi * R**3
    m_star, r_star, e_star = m / 2, R / 2, 1 / (2 * (1 - NU**2) / E)
    for v0 in (0.1, 1.0):
        e, duration = head_on(1.0, v0)
        t_c = 2.868 * (m_star**2 / (r_star * e_star**2 * v0)) ** 0.2
        assert e == pytest.approx(1.0, abs=1e-4)
        assert duration == pytest.approx(t_c, rel=0.01)


@pytest.mark.parametrize("restitution", [0.9, 0.5, 0.2])
def test_restitution_is_the_materials_at_any_speed(restitution):
    for v0 in (0.05, 2.0):
        e, _ = head_on(restitution, v0)
        assert e == pytest.approx(restitution, abs=2e-3)


def test_sphere_slides_then_rolls_at_five_sevenths():
    # Coulomb: a sphere launched without spin slides, decelerating at mu g, until it rolls at
    # 5/7 of its launch speed (angular momentum about the contact point is conserved)
    mu, v0 = 0.3, 1.0
    mat = torsion.GranularMaterial(youngs_modulus=E, restitution=0.3, friction=mu)
    g = torsion.GranularSystem([[0.0, 0.0, R]], [R], mat)
    g.set_ground_plane(True, 0.0)
    g.set_wall_material(mat)
    for _ in range(200):  # settle on the plane
        g.step(1e-3)
    g.set_velocity(0, [v0, 0, 0])
    g.set_angular_velocity(0, [0, 0, 0])
    t_slide = 2 * v0 / (7 * mu * 9.81)
    for _ in range(int(1.5 * t_slide / 1e-3)):
        g.step(1e-3)
    v = g.get_velocities()[0]
    w = g.get_angular_velocities()[0]
    assert v[0] == pytest.approx(5 / 7 * v0, rel=5e-3)
    assert w[1] * R == pytest.approx(v[0], rel=5e-3)  # rolling: v = omega r


def test_rolling_resistance_decelerates_at_five_sevenths_mu_r_g():
    # a constant resisting torque mu_r R F_n on a rolling sphere: a = mu_r g m R^2 / (I + m R^2)
    mu_r, v0 = 0.05, 0.5
    mat = torsion.GranularMaterial(youngs_modulus=E, restitution=0.3, friction=0.8,
                                   rolling_friction=mu_r)
    g = torsion.GranularSystem([[0.0, 0.0, R]], [R], mat)
    g.set_ground_plane(True, 0.0)
    g.set_wall_material(mat)
    for _ in range(200):
        g.step(1e-3)
    g.set_velocity(0, [v0, 0, 0])
    g.set_angular_velocity(0, [0, v0 / R, 0])
    for _ in range(100):  # 0.1 s
        g.step(1e-3)
    v1 = g.get_velocities()[0, 0]
    for _ in range(200):  # 0.2 s more
        g.step(1e-3)
    v2 = g.get_velocities()[0, 0]
    assert (v1 - v2) / 0.2 == pytest.approx(5 / 7 * mu_r * 9.81, rel=0.01)


def gas(num_threads=1, steps=2000):
    rng = np.random.default_rng(7)
    n_side, r = 10, 0.02
    grid = np.stack(np.meshgrid(*[np.arange(n_side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    pos = (grid + 0.5) * 0.1 + rng.uniform(-0.02, 0.02, size=grid.shape)
    mat = torsion.GranularMaterial(youngs_modulus=1e6, restitution=1.0, friction=0.0)
    g = torsion.GranularSystem(pos, np.full(len(pos), r), mat)
    g.set_box_container([0, 0, 0], [1.0, 1.0, 1.0])
    g.set_wall_material(mat)
    g.set_velocities(rng.normal(0.0, 0.5, size=pos.shape))
    return g


def test_elastic_gas_keeps_its_energy():
    # 1000 particles, e = 1, no friction, no gravity, in a box: 10 s, energy within 1 %
    g = gas()
    e0 = g.kinetic_energy() + g.contact_energy()
    collisions = 0
    for _ in range(1000):
        g.step(1e-2, (0.0, 0.0, 0.0))
        collisions += g.get_stats()["contacts"] > 0
        e = g.kinetic_energy() + g.contact_energy()
        assert abs(e - e0) < 0.01 * e0
    assert collisions > 100  # it is a gas of colliding particles, not of free flights


def test_bitwise_the_same_on_one_and_two_threads():
    a, b = gas(), gas()
    for _ in range(50):
        a.step(1e-2, (0.0, 0.0, -9.81), num_threads=1)
        b.step(1e-2, (0.0, 0.0, -9.81), num_threads=2)
    assert a.get_positions().tobytes() == b.get_positions().tobytes()
    assert a.get_velocities().tobytes() == b.get_velocities().tobytes()


def test_a_pile_comes_to_rest():
    r = 0.01
    grid = np.stack(np.meshgrid(np.arange(8), np.arange(8), np.arange(6), indexing="ij"), -1)
    pos = grid.reshape(-1, 3) * 2.05 * r + [0.0, 0.0, r + 0.001]
    pos[:, :2] += np.random.default_rng(1).uniform(-1e-3, 1e-3, size=(len(pos), 2))
    mat = torsion.GranularMaterial(youngs_modulus=1e7, restitution=0.3, friction=0.5,
                                   rolling_friction=0.1)
    g = torsion.GranularSystem(pos, np.full(len(pos), r), mat)
    g.set_ground_plane(True, 0.0)
    g.set_wall_material(mat)
    for _ in range(1500):
        g.step(1e-3)
    assert np.abs(g.get_velocities()).max() < 1e-3
    assert g.get_positions()[:, 2].min() > r * 0.98  # none sank into the ground


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="radii"):
        torsion.GranularSystem([[0, 0, 0]], [0.0])
    with pytest.raises(ValueError, match="radii"):
        torsion.GranularSystem([[0, 0, 0]], [-1.0])
    with pytest.raises(ValueError, match="positions"):
        torsion.GranularSystem([[0, float("nan"), 0]], [0.1])
    with pytest.raises(ValueError, match="one entry per position"):
        torsion.GranularSystem([[0, 0, 0], [1, 0, 0]], [0.1])
    with pytest.raises(ValueError, match="positions"):
        torsion.GranularSystem([[0, 0]], [0.1])
    with pytest.raises(ValueError, match="restitution"):
        torsion.GranularMaterial(restitution=0.0)
    with pytest.raises(ValueError, match="poisson_ratio"):
        torsion.GranularMaterial(poisson_ratio=0.5)
    with pytest.raises(ValueError, match="density"):
        torsion.GranularMaterial(density=float("inf"))
    g = torsion.GranularSystem([[0, 0, 0]], [0.1])
    with pytest.raises(IndexError):
        g.set_velocity(1, [0, 0, 0])
    with pytest.raises(ValueError, match="velocity"):
        g.set_velocity(0, [0, 0, float("inf")])
    with pytest.raises(ValueError, match="lower corner"):
        g.set_box_container([0, 0, 0], [1, -1, 1])
    with pytest.raises(ValueError, match="dt"):
        g.step(0.0)


def test_particles_added_and_removed_keep_their_stable_ids():
    g = torsion.GranularSystem([[0, 0, 0], [1, 0, 0], [2, 0, 0]], [0.1, 0.2, 0.3])
    g.remove_particle(0)  # the last moves into 0
    assert list(g.get_stable_ids()) == [2, 1]
    np.testing.assert_array_equal(g.get_radii(), [0.3, 0.2])
    first = g.add_particles([[5, 0, 0]], [0.4])
    assert first == 2 and list(g.get_stable_ids()) == [2, 1, 3]


def test_a_particle_moved_by_set_position_meets_its_new_neighbour():
    """The neighbour list's displacement check is kept by the integration between steps; a particle
    placed by set_position onto another must still be found and pushed apart at the next step
    (the Hertz force of the set overlap, against which the pair was at rest)."""
    mat = torsion.GranularMaterial(youngs_modulus=E, poisson_ratio=NU, restitution=0.5)
    g = torsion.GranularSystem([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0]], [R, R], mat)
    dt = 1e-5
    g.step(dt, (0.0, 0.0, 0.0))  # the list is built: the two are far apart
    assert g.get_stats()["contacts"] == 0
    d = 1e-4  # overlap (m)
    g.set_position(1, [2 * R - d, 0.0, 0.0])
    g.step(dt, (0.0, 0.0, 0.0))
    assert g.get_stats()["contacts"] == 1
    # Hertz: F = 4/3 E* sqrt(R*) d^(3/2), E* = E / (2 (1 - nu^2)), R* = R / 2; dv = F dt / m
    e_star = E / (2 * (1 - NU**2))
    force = 4 / 3 * e_star * math.sqrt(R / 2) * d**1.5
    mass = 2600 * 4 / 3 * math.pi * R**3  # the default density
    v = g.get_velocities()
    assert v[1, 0] == pytest.approx(force * dt / mass, rel=1e-2)
    assert v[0, 0] == pytest.approx(-force * dt / mass, rel=1e-2)
