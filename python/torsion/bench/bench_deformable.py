"""Deformables against MuJoCo's flex on the same meshes (issue 38).

- a 64 x 64-vertex cloth (7938 triangles) falling on a box, dt 2 ms: steps/s;
- a solid of 2400 tetrahedra (a 10 x 10 x 4 box of cells, E = 1e5 Pa, nu = 0.3) falling on the
  ground, dt 1 ms (MuJoCo's explicit flex elasticity diverges at 2 ms on this mesh): steps/s;
- the static sag of a clamped cantilever of tetrahedra (the same mesh, E, nu and density in both)
  next to Euler-Bernoulli's w L^4 / 8 E I: reported in `extra`, not a speed.

Both engines get the same vertices and cells (MuJoCo through <flexcomp type="direct">); torsion
runs its defaults (10 Gauss-Seidel sweeps, 1 substep), MuJoCo its defaults for flex (edges as
equality constraints for the cloth, linear elasticity for the solid).
"""

from __future__ import annotations

import numpy as np

from torsion.bench._common import Result, best_rate, optional_import

DT = 2e-3
DT_SOLID = 1e-3


def _cloth_mesh():
    from torsion.deformable import grid_cloth
    return grid_cloth(63, 63, 1.0, 1.0, center=(0.0, 0.0, 0.5))


def _solid_mesh():
    from torsion.deformable import box_tetrahedra
    return box_tetrahedra(10, 10, 4, 0.5, 0.5, 0.2, origin=(-0.25, -0.25, 0.3))


def _torsion_cloth():
    import torsion
    v, t = _cloth_mesh()
    w = torsion.World()
    w.set_time_step(DT)
    box = w.add_box(0.6, 0.6, 0.2, 1.0)
    box.set_body_type(torsion.BodyType.STATIC)
    box.set_position([0.0, 0.0, 0.1])
    mat = torsion.DeformableMaterial(areal_density=0.2, stretch_compliance=1e-7,
                                     proxy_radius=0.005)
    return w, w.add_deformable_cloth(v, t, material=mat)


def _torsion_solid():
    import torsion
    v, t = _solid_mesh()
    w = torsion.World()
    w.set_time_step(DT_SOLID)
    w.add_ground()
    mat = torsion.DeformableMaterial(density=500.0, youngs_modulus=1e5, poisson_ratio=0.3,
                                     proxy_radius=0.005)
    return w, w.add_deformable_volume(v, t, material=mat)


def _flex_xml(v, cells, dim, body, extra, mass, dt=DT):
    pts = " ".join(f"{x:.9g}" for x in v.ravel())
    el = " ".join(str(int(i)) for i in cells.ravel())
    return f"""<mujoco><option timestep="{dt}"/>
<worldbody>{body}
<flexcomp name="f" type="direct" dim="{dim}" point="{pts}" element="{el}" radius="0.005"
 mass="{mass:.9g}">{extra}<contact selfcollide="none"/></flexcomp>
</worldbody></mujoco>"""


def _mujoco_cloth(mujoco):
    v, t = _cloth_mesh()
    xml = _flex_xml(v, t, 2, '<geom type="box" size="0.3 0.3 0.1" pos="0 0 0.1"/>',
                    '<edge equality="true"/>', 0.2 * 1.0)
    m = mujoco.MjModel.from_xml_string(xml)
    return m, mujoco.MjData(m)


def _mujoco_solid(mujoco):
    v, t = _solid_mesh()
    xml = _flex_xml(v, t, 3, '<geom type="plane" size="2 2 0.1"/>',
                    '<elasticity young="1e5" poisson="0.3"/>', 500.0 * 0.5 * 0.5 * 0.2,
                    dt=DT_SOLID)
    m = mujoco.MjModel.from_xml_string(xml)
    return m, mujoco.MjData(m)


# --- the static sag of a cantilever, side by side ---

L, H, E, NU, RHO = 1.0, 0.1, 5e7, 0.3, 1000.0


def _beam():
    from torsion.deformable import box_tetrahedra
    return box_tetrahedra(20, 2, 2, L, H, H, origin=(0.0, -0.5 * H, -0.5 * H))


def _torsion_sag(substeps):
    import torsion
    v, t = _beam()
    w = torsion.World()
    w.set_time_step(0.01)
    mat = torsion.DeformableMaterial(density=RHO, youngs_modulus=E, poisson_ratio=NU,
                                     iterations=1, substeps=substeps, damping=40.0)
    beam = w.add_deformable_volume(v, t, pinned_vertices=np.flatnonzero(v[:, 0] < 1e-9),
                                   material=mat)
    w.integrate(50)
    tip = np.flatnonzero(v[:, 0] > L - 1e-9)
    return float(-(beam.get_positions()[tip, 2] - v[tip, 2]).mean())


def _mujoco_sag(mujoco):
    v, t = _beam()
    pins = " ".join(str(i) for i in np.flatnonzero(v[:, 0] < 1e-9))
    # explicit (Euler) flex elasticity diverges at this stiffness; "discrete" integrates it
    # implicitly. Settled after 5 s (the tip moves < 1e-6 m after 6 s)
    xml = _flex_xml(v, t, 3, "",
                    f'<elasticity young="{E}" poisson="{NU}" damping="0.002"/><pin id="{pins}"/>',
                    RHO * L * H * H, dt=1e-3)
    xml = xml.replace('<option timestep="0.001"/>', '<option timestep="0.001" integrator="discrete"/>')
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=6000)
    tip = np.flatnonzero(v[:, 0] > L - 1e-9)
    return float(-(d.flexvert_xpos[tip, 2] - v[tip, 2]).mean())


def benchmarks(quick: bool) -> list[Result]:
    out = []
    wc, cloth = _torsion_cloth()
    ws, solid = _torsion_solid()
    repeats = 3 if quick else 5
    wl_cloth = "64x64-vertex cloth falling on a box, dt 2 ms"
    wl_solid = "2400-tetrahedron solid (E 1e5 Pa) falling on the ground, dt 1 ms"
    out.append(Result(wl_cloth, "torsion", best_rate(lambda: wc.integrate(5), 5, repeats),
                      "steps/s", note="XPBD, 10 sweeps, edges 1e-7 m/N"))
    out.append(Result(wl_solid, "torsion", best_rate(lambda: ws.integrate(5), 5, repeats),
                      "steps/s", note="XPBD neo-Hookean, 10 sweeps"))
    mujoco = optional_import("mujoco")
    if mujoco is not None:
        mc, dc = _mujoco_cloth(mujoco)
        ms, ds = _mujoco_solid(mujoco)
        out.append(Result(wl_cloth, "mujoco", best_rate(lambda: mujoco.mj_step(mc, dc, nstep=5),
                                                        5, repeats),
                          "steps/s", note="flex, equality edges"))
        out.append(Result(wl_solid, "mujoco", best_rate(lambda: mujoco.mj_step(ms, ds, nstep=5),
                                                        5, repeats),
                          "steps/s", note="flex, linear elasticity"))
        # a run that diverged (MuJoCo resets a NaN state and warns) is no benchmark: say so
        out[2].extra["mujoco_warnings"] = int(sum(w.number for w in dc.warning))
        out[3].extra["mujoco_warnings"] = int(sum(w.number for w in ds.warning))
    # the static sag, next to theory (not a speed: in extra)
    w_line = RHO * 9.81 * H * H
    theory = w_line * L ** 4 / (8.0 * E * H ** 4 / 12.0)
    sag = {"euler_bernoulli_m": theory}
    if not quick:
        for sub in (200, 400):
            sag[f"torsion_substeps_{sub}_m"] = _torsion_sag(sub)
        if mujoco is not None:
            sag["mujoco_flex_m"] = _mujoco_sag(mujoco)
    out[0].extra["cantilever_20x2x2_tip_sag"] = sag
    out[0].extra["cloth_lowest_z_after_run"] = float(cloth.get_positions()[:, 2].min())
    out[1].extra["solid_lowest_z_after_run"] = float(solid.get_positions()[:, 2].min())
    return out
