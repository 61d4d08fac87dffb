"""The substep rule against its stability analysis (issue 39, docs/granular.md "Time stepping").

The springs and translational dashpots of the contacts touching at the start of a step set the
substep (a Gershgorin bound per particle, c h + w^2 h^2 / 2 <= 1, times `substep_factor`); the tangential and rolling
dashpots' pull on a particle's own spin is integrated implicitly and does not. Checked here:
- the count is the closed-form bound of a particle pressed into a corner (recomputed from
  Hertz-Mindlin), and at that count its undamped contacts give back their stored energy;
- a column of soft particles pressed on a slope (each middle particle spun by two contacts,
  with its neighbours' spins coupled through them) and a particle spun fast while nested on three
  never gain energy, and come to rest without creeping, near the Rayleigh substep:
  before the implicit spin damping this needed several times more substeps (or crept for
  ever)."""

import math

import numpy as np
import pytest

import torsion

R = 0.005
RHO = 2500.0
NU = 0.3


def mass(r=R):
    return RHO * 4.0 / 3.0 * math.pi * r**3


def energy(g, gravity):
    """Kinetic + elastic + gravitational energy of the free particles (J)."""
    p = g.get_positions()
    m = g.get_masses()
    free = np.array([not g.is_fixed(i) for i in range(len(g))])
    return (g.kinetic_energy() + g.contact_energy()
            - float((m[free, None] * p[free] * np.asarray(gravity)).sum()))


def pressed_into_a_corner():
    """A particle pressed 20 % of r into three walls of a box corner, no damping (e = 1), no
    rolling spring, no friction (nothing dissipates), and its Gershgorin row w^2 (1/s^2)."""
    E = 5e7
    mat = torsion.GranularMaterial(density=RHO, youngs_modulus=E, poisson_ratio=NU,
                                   restitution=1.0, friction=0.0)
    d = 0.2 * R
    g = torsion.GranularSystem([[R - d] * 3], [R], mat)
    g.set_box_container([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    g.set_wall_material(mat)
    # Hertz-Mindlin against a rigid wall: kn = 3/2 k d^1/2, k = 4/3 E* sqrt(r), kt = 8 G* sqrt(r d).
    # Each wall's block is the normal spring on the centre's normal motion plus the tangential
    # spring on the contact point's tangential motion (through the centre and the spin: 1/m +
    # r^2/I = 3.5/m); their ranges are orthogonal, so the block's norm is the larger of kn / m
    # and 3.5 kt / m (here the tangential one: 3.5 kt = 2.9 kn at nu = 0.3)
    e_star = E / (1.0 - NU**2)
    g_star = E / (2.0 * (2.0 - NU) * (1.0 + NU))
    kn = 1.5 * 4.0 / 3.0 * e_star * math.sqrt(R) * math.sqrt(d)
    kt = 8.0 * g_star * math.sqrt(R * d)
    w2 = 3.0 * max(kn, 3.5 * kt) / mass()
    return g, w2, e_star, d


def test_substeps_are_the_bound_of_a_pressed_particle():
    # the count is max(Rayleigh count, ceil(substep_factor dt w / sqrt(2))): the stable count
    # (c h + w^2 h^2 / 2 <= 1 with c = 0) times the factor
    g, w2, e_star, d = pressed_into_a_corner()
    dt = 1e-3
    expected = max(g.substeps_for(dt), math.ceil(g.substep_factor * dt * math.sqrt(w2 / 2.0)))
    assert expected > g.substeps_for(dt)  # the pressed contacts, not the Rayleigh time, decide
    g.step(dt, (0.0, 0.0, 0.0))
    assert g.get_stats()["substeps"] == expected
    # at that count the undamped contacts push it off at their stored energy (symplectic
    # Euler's bounded error aside), never faster, straight along the diagonal
    e0 = 3 * 0.4 * 4.0 / 3.0 * e_star * math.sqrt(R) * d**2.5
    for _ in range(20):
        g.step(dt, (0.0, 0.0, 0.0))
    v = g.get_velocities()[0]
    assert abs(0.5 * mass() * v @ v - e0) < 0.05 * e0
    assert v[0] > 0.0 and abs(v[1] - v[0]) < 1e-12 * v[0] and abs(v[2] - v[0]) < 1e-12 * v[0]
    assert g.get_stats()["wall_contacts"] == 0  # it flew off


def test_the_substep_factor_scales_the_stable_count():
    dt = 1e-3
    for factor in (1.0, 3.0, 8.0):
        g, w2, _, _ = pressed_into_a_corner()
        g.substep_factor = factor
        assert g.substep_factor == factor
        g.step(dt, (0.0, 0.0, 0.0))
        stable = dt * math.sqrt(w2 / 2.0)  # 1/h of c h + w^2 h^2 / 2 = 1, per step
        assert g.get_stats()["substeps"] == max(g.substeps_for(dt), math.ceil(factor * stable))
    # a factor so small that the Rayleigh count (a fifth of the Rayleigh time) decides
    g, _, _, _ = pressed_into_a_corner()
    g.substep_factor = 1e-3
    g.step(dt, (0.0, 0.0, 0.0))
    assert g.get_stats()["substeps"] == g.substeps_for(dt)
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="substep_factor"):
            g.substep_factor = bad
    assert g.substep_factor == 1e-3  # unchanged by the refused values


def test_the_substep_factor_is_saved_with_the_state():
    def build():
        w = torsion.World()
        g = w.add_granular_particles([[0.0, 0.0, R + 2.0 * R * k] for k in range(4)],
                                     np.full(4, R))
        g.set_ground_plane(True, 0.0)
        return w, g
    w, g = build()
    g.substep_factor = 5.0
    w.integrate(20)
    blob = w.capture_checkpoint().to_bytes()
    w.integrate(10)
    w2, g2 = build()  # default factor until restored
    assert g2.substep_factor != 5.0
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(blob))
    assert g2.substep_factor == 5.0
    w2.integrate(10)
    assert w2.state_hash() == w.state_hash()
    np.testing.assert_array_equal(g2.get_positions(), g.get_positions())


def test_a_pressed_column_in_a_tube_comes_to_rest_without_gaining_energy():
    mat = torsion.GranularMaterial(density=RHO, youngs_modulus=2e6, poisson_ratio=NU,
                                   restitution=0.3, friction=0.8, rolling_friction=0.5)
    # five particles stacked in a square tube 1 % narrower than they are: each presses its four
    # side walls and its neighbours, up to six contacts damping its spin
    n = 5
    pos = [[0.0, 0.0, R + k * 2.0 * R * 0.999] for k in range(n)]
    g = torsion.GranularSystem(pos, np.full(n, R), mat)
    g.set_box_container([-0.99 * R, -0.99 * R, 0.0], [0.99 * R, 0.99 * R, 1.0])
    g.set_wall_material(mat)
    theta = math.atan(0.1)
    gravity = (9.81 * math.sin(theta), 0.0, -9.81 * math.cos(theta))
    dt = 1e-3
    g.step(dt, gravity)
    e0 = energy(g, gravity)
    xs = []
    for _ in range(1500):
        g.step(dt, gravity)
        assert energy(g, gravity) <= e0 + 1e-12
        xs.append(g.get_positions()[:, 0].copy())
    xs = np.array(xs)
    assert g.kinetic_energy() < 1e-15
    # no creep: the last half second moved the column by less than a nanometre
    assert np.abs(xs[-1] - xs[-500]).max() < 1e-9
    stats = g.get_stats()
    assert stats["contacts"] == n - 1 and stats["wall_contacts"] >= 4 * n + 1  # still pressed


def test_a_fast_spinning_nested_particle_spins_down_without_ringing():
    mat = torsion.GranularMaterial(density=RHO, youngs_modulus=2e6, poisson_ratio=NU,
                                   restitution=0.3, friction=0.8, rolling_friction=0.2)
    c = 2.0 * R / math.sqrt(3.0)
    base = [[c * math.cos(t), c * math.sin(t), 0.0] for t in (0.0, 2 * math.pi / 3, 4 * math.pi / 3)]
    g = torsion.GranularSystem(base + [[0.0, 0.0, 0.999 * 2 * R * math.sqrt(2.0 / 3.0)]],
                               np.full(4, R), mat)
    for i in range(3):
        g.set_fixed(i, True)
    gravity = (0.0, 0.0, -9.81)
    dt = 1e-3
    for _ in range(200):  # settle into the pocket
        g.step(dt, gravity)
    g.set_angular_velocity(3, [40.0, -25.0, 0.0])
    e0 = energy(g, gravity)
    spins = []
    for _ in range(1000):
        g.step(dt, gravity)
        assert energy(g, gravity) <= e0 + 1e-9  # never above its start (1e-4 J)
        spins.append(np.linalg.norm(g.get_angular_velocities()[3]))
        # near the Rayleigh substep (8 against 6): the three soft contacts' springs and
        # translational dashpots set it, not the dashpots on the spin, which are implicit
        assert g.get_stats()["substeps"] <= 8
    assert spins[-1] < 1e-6 * 40.0
    assert g.kinetic_energy() < 1e-18
