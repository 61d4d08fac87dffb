"""XPBD cloth and solids (World.add_deformable_cloth / add_deformable_volume).

- XPBD's promise: the same static sag at 5, 20 and 80 iterations and at dt 1 ms and 4 ms.
- A cloth pinned at two corners comes to rest; its energy never grows without input.
"""

import numpy as np
import pytest

import torsion
from torsion.deformable import box_tetrahedra, grid_cloth


def hanging_cloth(iterations=10, dt=1e-3, damping=1.0, n=6, substeps=2, stretch=1e-2,
                  bending=1e-1):
    """A 0.5 m square cloth of n x n cells in the plane z = 1, pinned at the two corners of its
    y = -0.25 edge; gravity -z."""
    w = torsion.World()
    w.set_time_step(dt)
    v, t = grid_cloth(n, n, 0.5, 0.5, center=(0.0, 0.0, 1.0))
    mat = torsion.DeformableMaterial(areal_density=0.2, stretch_compliance=stretch,
                                     bending_compliance=bending, damping=damping,
                                     iterations=iterations, substeps=substeps)
    cloth = w.add_deformable_cloth(v, t, pinned_vertices=[0, n], material=mat)
    return w, cloth


def settle(w, seconds):
    w.integrate(int(round(seconds / w.get_time_step())))


# ---------- XPBD's promise: compliance independent of iterations and time step ----------

def static_sag(iterations, dt, **kw):
    w, cloth = hanging_cloth(iterations=iterations, dt=dt, damping=4.0, **kw)
    settle(w, 3.0)
    assert cloth.get_kinetic_energy() < 1e-6
    return 1.0 - cloth.get_positions()[:, 2]  # drop of every vertex (m)


def test_same_sag_whatever_iterations_and_time_step():
    """Compliance-dominated constraints (alpha / h^2 above the inverse masses: 2 substeps): the
    sweeps converge, and the hanging shape is the same at 5, 20, 80 iterations, 1 and 4 ms."""
    ref = static_sag(20, 1e-3)
    far = ref.max()
    assert far > 0.3  # it hangs: the free edge fell well below the pins
    for iterations, dt in [(5, 1e-3), (80, 1e-3), (20, 4e-3), (5, 4e-3)]:
        sag = static_sag(iterations, dt)
        # within 1 % of the largest drop, at every vertex (measured: 7e-5 at worst)
        assert np.max(np.abs(sag - ref)) < 0.01 * far, (iterations, dt)


def largest_strain(cloth):
    x, x0, t = cloth.get_positions(), cloth.get_rest_positions(), cloth.get_triangles()
    e = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    length = np.linalg.norm(x[e[:, 0]] - x[e[:, 1]], axis=1)
    rest = np.linalg.norm(x0[e[:, 0]] - x0[e[:, 1]], axis=1)
    return np.max(length / rest - 1.0)


def test_stiff_constraints_need_their_iterations():
    """The limit of that promise: near-inextensible edges (alpha / h^2 far below the inverse
    masses) are not converged in 5 sweeps: the edges then stretch far more than at 80."""
    strain = []
    for iterations in (5, 80):
        w, cloth = hanging_cloth(iterations=iterations, damping=4.0, stretch=1e-7, substeps=1)
        settle(w, 3.0)
        strain.append(largest_strain(cloth))
    assert strain[0] > 5.0 * strain[1] > 0.0, strain


# ---------- the elastic solid's static shape: XPBD against the converged FEM ----------

def hanging_block(solver, iterations=10, dt=1e-3):
    """A 0.5 x 0.5 x 0.2 m block of 5 x 5 x 2 cells (300 tetrahedra; E 1e5 Pa, nu 0.3, 500
    kg/m^3) hanging from its pinned top face, settled; returns its stretch (m): the mean height
    of the top face over the bottom face's, less 0.2."""
    v, t = box_tetrahedra(5, 5, 2, 0.5, 0.5, 0.2, origin=(-0.25, -0.25, 0.3))
    top = np.flatnonzero(v[:, 2] > v[:, 2].max() - 1e-9)
    bottom = np.flatnonzero(v[:, 2] < v[:, 2].min() + 1e-9)
    w = torsion.World()
    w.set_time_step(dt)
    mat = torsion.DeformableMaterial(density=500.0, youngs_modulus=1e5, poisson_ratio=0.3,
                                     damping=20.0, solver=solver, iterations=iterations)
    block = w.add_deformable_volume(v, t, pinned_vertices=top, material=mat)
    settle(w, 1.0)
    x = block.get_positions()
    return float(x[top, 2].mean() - x[bottom, 2].mean() - 0.2)


def test_hanging_solid_stretches_as_the_converged_fem():
    """The warm-started neo-Hookean sweeps reach the implicit step's equilibrium: the block
    stretches as Newton's converged solve of the same energy says, within 1 % at dt 1 ms (3 and
    20 sweeps agree to 1e-12) and 0.5 ms; the gap shrinks as h^2 (-1.5 % at 2 ms, -0.37 % at 1,
    -0.09 % at 0.5). (Restarted from zero multipliers every substep, the sweeps' path biased it:
    the 2400-tetrahedron block then shortened by 0.07 mm instead of stretching 0.86.)"""
    ref = hanging_block("newton", dt=0.02)
    assert 3e-4 < ref < 2e-3  # rho g H^2 / 2E = 0.98 mm, a little less with the clamped face
    gap = {}
    for iterations, dt in [(3, 1e-3), (20, 1e-3), (10, 5e-4), (10, 2e-3)]:
        gap[iterations, dt] = hanging_block("xpbd", iterations, dt) / ref - 1.0
    assert abs(gap[3, 1e-3] - gap[20, 1e-3]) < 1e-6, gap
    assert abs(gap[3, 1e-3]) < 0.01 and abs(gap[10, 5e-4]) < 0.01, gap
    assert abs(gap[10, 5e-4]) < abs(gap[3, 1e-3]) < abs(gap[10, 2e-3]) < 0.02, gap


# ---------- rest and energy ----------

def test_cloth_pinned_at_two_corners_comes_to_rest():
    w, cloth = hanging_cloth(damping=2.0, dt=2e-3)
    x0 = cloth.get_positions()
    settle(w, 12.0)
    assert cloth.get_kinetic_energy() < 1e-8  # from about 0.05 J while it swings
    assert np.max(np.abs(cloth.get_velocities())) < 1e-3
    np.testing.assert_array_equal(cloth.get_positions()[[0, 6]], x0[[0, 6]])  # the pins held
    before = cloth.get_positions()
    w.integrate(100)
    assert np.max(np.abs(cloth.get_positions() - before)) < 1e-5


def test_energy_never_grows_without_input():
    """Kinetic + gravitational + elastic energy (sum C^2 / 2 alpha) of the converged cloth, swinging
    freely from its two pins without damping, step after step. (For constraints too stiff to
    converge in the sweeps the residual C is not the elastic state and this sum is no energy.)"""
    w, cloth = hanging_cloth(damping=0.0)
    e = [cloth.get_energy()]
    for _ in range(1500):
        w.integrate()
        e.append(cloth.get_energy())
    e = np.asarray(e)
    scale = abs(cloth.get_potential_energy()) + 1.0
    assert np.all(np.diff(e) <= 1e-9 * scale), np.diff(e).max()
    assert e[-1] < e[0]  # and the swing lost energy (XPBD's implicit steps dissipate)


# ---------- bad input ----------

def test_bad_meshes_refused():
    w = torsion.World()
    v, t = grid_cloth(2, 2, 1.0, 1.0)
    with pytest.raises(IndexError, match="triangles"):
        w.add_deformable_cloth(v, np.vstack([t, [[0, 1, 99]]]))
    with pytest.raises(ValueError, match="repeats a vertex"):
        w.add_deformable_cloth(v, np.vstack([t, [[0, 1, 1]]]))
    with pytest.raises(ValueError, match="degenerate"):
        w.add_deformable_cloth(np.vstack([v, [[5, 5, 0], [6, 5, 0], [7, 5, 0]]]),
                               np.vstack([t, [[9, 10, 11]]]))
    with pytest.raises(ValueError, match="belongs to no triangle"):
        w.add_deformable_cloth(np.vstack([v, [[5, 5, 0]]]), t)
    with pytest.raises(ValueError, match="manifold"):
        # a third triangle on the interior edge (0, 4)
        w.add_deformable_cloth(np.vstack([v, [[0, 0, 1]]]), np.vstack([t, [[0, 4, 9]]]))
    with pytest.raises(ValueError, match="vertices"):
        w.add_deformable_cloth(np.full((4, 3), np.nan), [[0, 1, 2]])
    with pytest.raises(ValueError, match="shape"):
        w.add_deformable_cloth(v, t[:, :2])
    with pytest.raises(TypeError, match="integers"):
        w.add_deformable_cloth(v, t.astype(float))
    with pytest.raises(IndexError, match="pinned_vertices"):
        w.add_deformable_cloth(v, t, pinned_vertices=[-1])
    tv = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]])
    with pytest.raises(ValueError, match="inverted"):
        w.add_deformable_volume(tv, [[0, 2, 1, 3]])
    with pytest.raises(ValueError, match="degenerate"):
        w.add_deformable_volume(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.0]]),
                                [[0, 1, 2, 3]])
    with pytest.raises(IndexError, match="tetrahedra"):
        w.add_deformable_volume(tv, [[0, 1, 2, 4]])
    for field, value in [("youngs_modulus", -1.0), ("poisson_ratio", 0.5), ("substeps", 0),
                         ("iterations", 0), ("damping", float("nan")), ("density", 0.0)]:
        with pytest.raises(ValueError, match=field):
            torsion.DeformableMaterial(**{field: value})
    assert w.get_deformable_count() == 0  # nothing half-added


def test_arrays_and_removal():
    w = torsion.World()
    v, t = grid_cloth(3, 2, 0.3, 0.2, center=(0, 0, 1))
    c = w.add_deformable_cloth(v, t, pinned_vertices=[0])
    assert c.kind == "cloth"
    np.testing.assert_array_equal(c.get_triangles(), t)
    np.testing.assert_array_equal(c.get_positions(), v)
    assert c.get_positions().dtype == np.float64 and c.get_triangles().dtype == np.int64
    assert c.get_mass() == pytest.approx(0.2 * 0.3 * 0.2)
    assert c.get_pinned()[0] and not c.get_pinned()[1:].any()
    bv, bt = box_tetrahedra(2, 1, 1, 0.2, 0.1, 0.1)
    s = w.add_deformable_volume(bv, bt, material=torsion.DeformableMaterial(youngs_modulus=1e5))
    assert s.get_tetrahedra().shape == (12, 4)
    # boundary of a 2x1x1 box of cells: 2 triangles per cell face, 10 cell faces
    assert s.get_surface_triangles().shape == (20, 3)
    assert s.get_mass() == pytest.approx(1000.0 * 0.2 * 0.1 * 0.1)
    assert [d.id for d in w.get_deformables()] == [c.id, s.id]
    w.remove_deformable(c)
    with pytest.raises(torsion.RemovedObjectError):
        c.get_positions()
    assert w.get_deformables() == [s]
    with pytest.raises(ValueError, match="positions"):
        s.set_positions(np.zeros((3, 3)))
