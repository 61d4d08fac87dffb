"""Contacts never make energy (issue 39): a sphere held on a slope below its friction angle by
one contact whose overlap keeps oscillating (restitution 1: nothing damps the normal motion)
neither creeps nor gains energy, and a soft sphere nested on three fixed ones on a tilted
gravity comes to rest. The second is what a soft heap's creep came from: a particle's tangential
dashpots all damp its one spin, and a substep sized by the Rayleigh time alone (blind to the
load) let that spin ring from substep to substep at the Coulomb cap (docs/granular.md)."""

import math

import numpy as np

import torsion

R = 0.005


def total_energy(g, i, gravity):
    """Kinetic + elastic (as of the last step) + gravitational energy of the system (J)."""
    m = g.get_masses()[i]
    return g.kinetic_energy() + g.contact_energy() - m * float(np.dot(gravity, g.get_positions()[i]))


def test_a_vibrating_contact_on_a_slope_neither_creeps_nor_gains_energy():
    mu, mu_r = 0.8, 0.5
    mat = torsion.GranularMaterial(density=2500.0, youngs_modulus=2e6, poisson_ratio=0.3,
                                   restitution=1.0, friction=mu, rolling_friction=mu_r)
    theta = math.atan(0.4 * mu)  # tan(theta) = 0.32 < mu, and < mu_r: held by both
    gravity = (9.81 * math.sin(theta), 0.0, -9.81 * math.cos(theta))
    m = 2500.0 * 4.0 / 3.0 * math.pi * R**3
    # the static overlap against the rigid ground (E* = E / (1 - nu^2)), started 30 % deeper
    k = 4.0 / 3.0 * 2e6 / (1.0 - 0.09) * math.sqrt(R)
    d0 = (m * 9.81 * math.cos(theta) / k) ** (2.0 / 3.0)
    g = torsion.GranularSystem([[0.0, 0.0, R - 1.3 * d0]], [R], mat)
    g.set_ground_plane(True, 0.0)
    g.set_wall_material(mat)
    dt = 1e-4
    g.step(dt, gravity)
    e0 = total_energy(g, 0, gravity)
    xs, zs, energy = [], [], []
    for _ in range(10000):  # 1 s
        g.step(dt, gravity)
        xs.append(g.get_positions()[0, 0])
        zs.append(g.get_positions()[0, 2])
        energy.append(total_energy(g, 0, gravity))
    zs, xs = np.array(zs), np.array(xs)
    # the normal vibration goes on (nothing damps it) and the contact holds throughout
    assert np.ptp(zs[-2000:]) > 0.3 * d0 and zs.max() < R
    # no creep down the slope: after the spring took the load (its stretch is ~15 um), the mean
    # positions over 0.2-0.6 s and 0.6-1 s agree within 1 um (a creep of even 1 mm/s: 400 um)
    assert abs(xs[6000:].mean() - xs[2000:6000].mean()) < 1e-6
    # and no energy made: within 1e-4 m g R of the start (the slope's rolling dashpot and the
    # time stepping's bounded error aside)
    assert max(energy) - e0 < 1e-4 * m * 9.81 * R


def test_a_soft_sphere_nested_on_three_comes_to_rest():
    mat = torsion.GranularMaterial(density=2500.0, youngs_modulus=2e6, poisson_ratio=0.3,
                                   restitution=0.3, friction=0.8, rolling_friction=0.2)
    c = 2.0 * R / math.sqrt(3.0)  # three touching spheres in a triangle, one in their pocket
    base = [[c * math.cos(t), c * math.sin(t), 0.0] for t in (0.0, 2 * math.pi / 3, 4 * math.pi / 3)]
    g = torsion.GranularSystem(base + [[0.0, 0.0, 0.999 * 2 * R * math.sqrt(2.0 / 3.0)]],
                               np.full(4, R), mat)
    for i in range(3):
        g.set_fixed(i, True)
    theta = math.atan(0.3 * 0.8)
    gravity = (9.81 * math.sin(theta), 0.0, -9.81 * math.cos(theta))
    g.step(1e-3, gravity)
    e0 = total_energy(g, 3, gravity)
    for _ in range(1500):
        g.step(1e-3, gravity)
        assert total_energy(g, 3, gravity) <= e0 + 1e-9
    assert g.kinetic_energy() < 1e-20
    # it rested near the Rayleigh substep (8 against 6): its three soft, deep contacts' springs
    # and translational dashpots set it, and their pull on its spin is implicit
    assert g.get_stats()["substeps"] <= 8
