"""The elastic solid against beam theory: a cantilever of tetrahedra clamped at x = 0, sagging
under its own weight (issue 38).

1 x 0.1 x 0.1 m, E = 5e7 Pa, rho = 1000 kg/m^3, nu = 0 (no Poisson coupling: the clamp does not
stiffen the root and the section stays as Euler-Bernoulli assumes). Euler-Bernoulli:
delta = w L^4 / 8 E I = 29.43 mm (3 % of L: small strain, the neo-Hookean energy is linear
elasticity there). Timoshenko's shear term w L^2 / (2 kappa G A) (kappa = 5/6) adds 0.8 %: the
3D continuum's answer, which a converged mesh approaches.

Solved with DeformableMaterial(solver="newton"): each step is the implicit-Euler step minimized by
Newton's method (cpp/deformable/fem_solid.hpp), so the settled shape is the static equilibrium of
the mesh whatever dt and the iteration count.
"""

import numpy as np
import pytest

import torsion
from torsion.deformable import box_tetrahedra

L, H, E, NU, RHO, G = 1.0, 0.1, 5e7, 0.0, 1000.0, 9.81
W = RHO * G * H * H                       # load per length, N/m
I = H ** 4 / 12.0
EULER_BERNOULLI = W * L ** 4 / (8.0 * E * I)
TIMOSHENKO = EULER_BERNOULLI + W * L ** 2 / (2.0 * (5.0 / 6.0) * E / (2.0 * (1.0 + NU)) * H * H)


def cantilever(cells, order, dt=0.02, iterations=10):
    v, t = box_tetrahedra(*cells, L, H, H, origin=(0.0, -0.5 * H, -0.5 * H))
    w = torsion.World()
    w.set_time_step(dt)
    mat = torsion.DeformableMaterial(density=RHO, youngs_modulus=E, poisson_ratio=NU,
                                     solver="newton", element_order=order, damping=10.0,
                                     iterations=iterations)
    beam = w.add_deformable_volume(v, t, pinned_vertices=np.flatnonzero(v[:, 0] < 1e-9),
                                   material=mat)
    return w, beam, v


def tip_sag(cells, order, dt=0.02, iterations=10, seconds=2.0):
    w, beam, v = cantilever(cells, order, dt, iterations)
    w.integrate(int(round(seconds / dt)))
    assert beam.get_kinetic_energy() < 1e-10  # settled (from ~1e-2 J while it swings)
    tip = np.flatnonzero(v[:, 0] > L - 1e-9)
    return float(-(beam.get_positions()[tip, 2] - v[tip, 2]).mean())


def test_quadratic_tetrahedra_converge_to_beam_theory():
    """Quadratic (10-node) tetrahedra, 1, 2 and 4 cells along the beam (6 tetrahedra a cell):
    the error against Euler-Bernoulli falls (-23 %, -4.5 %, -0.2 %) and against the 3D beam
    (Timoshenko) falls monotonically; the finest is within 1 % of both (the issue asks 5 %)."""
    sags = [tip_sag((n, 1, 1), order=2) for n in (1, 2, 4)]
    err_eb = [abs(s / EULER_BERNOULLI - 1.0) for s in sags]
    err_t = [abs(s / TIMOSHENKO - 1.0) for s in sags]
    assert err_eb[0] > err_eb[1] > err_eb[2], err_eb
    assert err_t[0] > err_t[1] > err_t[2], err_t
    assert err_eb[2] < 0.01 and err_t[2] < 0.01, sags
    assert err_eb[0] > 0.1  # the coarsest is visibly off: the test can tell convergence


def test_linear_tetrahedra_lock_as_mujoco_flex_does():
    """Linear tetrahedra converged on a 10 x 1 x 1-cell mesh are 4x too stiff in bending (the
    locking of constant-strain elements); MuJoCo's flex (linear elasticity, implicit) on the same
    mesh and material settles within 3 % of the same sag (measured: 7.27 mm here, 7.49 mm there,
    29.43 mm in theory)."""
    mujoco = pytest.importorskip("mujoco")
    sag = tip_sag((10, 1, 1), order=1)
    assert 0.2 < sag / EULER_BERNOULLI < 0.3
    v, t = box_tetrahedra(10, 1, 1, L, H, H, origin=(0.0, -0.5 * H, -0.5 * H))
    pins = " ".join(str(i) for i in np.flatnonzero(v[:, 0] < 1e-9))
    pts = " ".join(f"{x:.9g}" for x in v.ravel())
    el = " ".join(str(int(i)) for i in t.ravel())
    xml = f"""<mujoco><option timestep="0.001" integrator="discrete"/><worldbody>
<flexcomp name="f" type="direct" dim="3" point="{pts}" element="{el}" radius="0.005"
 mass="{RHO * L * H * H}"><elasticity young="{E}" poisson="{NU}" damping="0.002"/>
<pin id="{pins}"/><contact selfcollide="none"/></flexcomp></worldbody></mujoco>"""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=3000)
    tip = np.flatnonzero(v[:, 0] > L - 1e-9)
    mj = float(-(d.flexvert_xpos[tip, 2] - v[tip, 2]).mean())
    assert abs(sag / mj - 1.0) < 0.03, (sag, mj)


def test_newton_keeps_xpbds_promise():
    """The settled sag does not depend on the time step or the iteration count once the Newton
    iterations converge (3 a step here): dt 10, 40 and 100 ms, 3 and 20 iterations agree to 1e-5;
    a single iteration a step is not converged and is off by < 1 %."""
    ref = tip_sag((2, 1, 1), order=2, dt=0.01)
    for dt, iterations in [(0.04, 10), (0.1, 10), (0.02, 3), (0.02, 20)]:
        sag = tip_sag((2, 1, 1), order=2, dt=dt, iterations=iterations, seconds=3.0)
        assert abs(sag / ref - 1.0) < 1e-5, (dt, iterations, sag, ref)
    one = tip_sag((2, 1, 1), order=2, iterations=1)
    assert 0.0 < abs(one / ref - 1.0) < 0.01


def test_quadratic_solid_state_round_trips(tmp_path):
    """The internal edge nodes of quadratic elements are state: a checkpoint and the world XML
    restore them (the next steps are bitwise the same), the mass counts them, and the elastic
    energy is the element energy (0 at rest, positive when bent)."""
    w, beam, v = cantilever((2, 1, 1), order=2)
    assert beam.get_mass() == pytest.approx(RHO * L * H * H, rel=1e-12)
    assert beam.get_elastic_energy() == pytest.approx(0.0, abs=1e-12)
    w.integrate(5)
    assert beam.get_elastic_energy() > 0.0
    cp = w.capture_checkpoint()
    w.integrate(5)
    after = beam.get_positions()
    w.restore_checkpoint(cp)
    w.integrate(5)
    np.testing.assert_array_equal(beam.get_positions(), after)
    path = tmp_path / "beam.xml"
    w.export_to_xml(str(path))
    w2 = torsion.World(str(path))
    assert w2.state_hash() == w.state_hash()
    b2 = w2.get_deformables()[0]
    assert b2.get_material().solver == "newton" and b2.get_material().element_order == 2
    w.integrate(5)
    w2.integrate(5)
    np.testing.assert_array_equal(b2.get_positions(), beam.get_positions())


def test_newton_settings_refused_where_they_do_not_apply():
    with pytest.raises(ValueError, match="solver"):
        torsion.DeformableMaterial(solver="jacobi")
    with pytest.raises(ValueError, match="element_order"):
        torsion.DeformableMaterial(solver="newton", element_order=3)
    with pytest.raises(ValueError, match="newton"):
        torsion.DeformableMaterial(element_order=2)  # quadratic needs the Newton solver
    w = torsion.World()
    v, t = box_tetrahedra(1, 1, 1, 0.1, 0.1, 0.1)
    with pytest.raises(ValueError, match="youngs_modulus"):
        w.add_deformable_volume(v, t, material=torsion.DeformableMaterial(solver="newton"))
    assert w.get_deformable_count() == 0
