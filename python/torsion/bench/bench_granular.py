"""Granular media: particles settling in a box, as one torsion.GranularSystem in a World (DEM,
substepped to its Rayleigh time, driven by world.integrate()) against the same particles as torsion
spheres (rigid bodies with hard contacts) and as MuJoCo spheres (free joints, CG: see
MUJOCO_SOLVER), all at
dt = 1 ms. Particle-steps per second of the step the user calls (a DEM step is several substeps);
the DEM on 1 and 2 threads.

The scene: a column about ten layers deep, particles 2.02 r apart (jittered across), so that in the
warm-up steps every layer has landed on the one below and the measured steps are dense contact
work, not free fall. The material is a sand as DEM models it: quartz's density (2600 kg/m^3),
Poisson's ratio 0.3, sliding friction 0.5 and rolling resistance 0.1 (a sand's, as in the angle of
repose studies of Zhou et al. 2002), restitution 0.3, and Young's modulus lowered from quartz's
~70 GPa to 10 MPa (shear modulus 3.8 MPa), the usual DEM speed-up: under the column's weight the
overlaps stay below 1 % of the effective radius (reported as max_overlap), and the substep is a
fifth of the Rayleigh time (6 per 1 ms step at r = 1 cm). The rigid-body engines take the same
density and friction (MuJoCo's condim 3: sliding friction only; "mujoco-rolling" adds the DEM's
rolling resistance as condim 6); their contacts are hard or soft by their own laws (no modulus)."""

from __future__ import annotations

import time

import numpy as np

from ._common import Result, optional_import

DT = 1e-3
R = 0.01


SPACING = 2.02 * R
# steps before timing (0.1 s): every layer has landed and the first rebound has settled, in the
# DEM (about 1.3 contacts per particle from step 90 on) and in MuJoCo (whose softer contacts land
# the layers one by one, about 5 steps apart): the timed steps are the dense pile in both
WARMUP = 100
# torsion's rigid spheres at 100k run at ~2e4 particle-steps/s: 100 warm-up steps would take 10
# minutes, so they warm up 30 (fewer contacts than the DEM's timed steps: in their favour)
WARMUP_SPHERES_100K = 30


def _positions(n: int) -> tuple[np.ndarray, float]:
    """n particles on a grid (spacing 2.02 r) in a square column, jittered across; the box side."""
    side = int(np.ceil(np.sqrt(n / 10)))  # about ten layers
    layers = int(np.ceil(n / side**2))
    g = np.stack(np.meshgrid(np.arange(side), np.arange(side), np.arange(layers), indexing="ij"),
                 -1).reshape(-1, 3)[:n]
    pos = (g + 0.5) * SPACING
    pos[:, :2] += np.random.default_rng(0).uniform(-0.01 * R, 0.01 * R, size=(len(pos), 2))
    return pos, side * SPACING


def _dem(n, material, threads):
    """A world holding the particles (their own box container); the world steps them."""
    import torsion

    pos, box = _positions(n)
    w = torsion.World()
    w.set_time_step(DT)
    g = w.add_granular_particles(pos, np.full(n, R), material)
    g.set_box_container([0.0, 0.0, 0.0], [box, box, 10.0])
    g.set_wall_material(material)
    g.num_threads = threads
    return w, g


def _dem_with_boxes(n, material, threads):
    """The same, with 9 boxes (5 cm, 0.2 kg) touching the top particles: the coupling's cost."""
    w, g = _dem(n, material, threads)
    _, box = _positions(n)
    top = g.get_positions()[:, 2].max() + R
    for i in range(3):
        for j in range(3):
            b = w.add_box(0.05, 0.05, 0.05, 0.2)
            b.set_position([(i + 0.5) * box / 3, (j + 0.5) * box / 3, top + 0.0248])
    return w, g


def _torsion_spheres(n):
    import torsion

    pos, box = _positions(n)
    w = torsion.World()
    w.set_time_step(DT)
    w.set_default_material(0.5, 0.3, 0.0)  # the sand's friction and restitution
    w.add_ground(0.0)
    for k, (x, y) in enumerate([(-0.05, box / 2), (box + 0.05, box / 2), (box / 2, -0.05),
                                (box / 2, box + 0.05)]):
        b = w.add_box(0.1 if k < 2 else box + 0.2, 0.1 if k >= 2 else box + 0.2, 2.0, 1.0)
        b.set_body_type(torsion.BodyType.STATIC)
        b.set_position([x, y, 1.0])
    mass = 2600 * 4 / 3 * np.pi * R**3
    for p in pos:
        s = w.add_sphere(R, mass)
        s.set_position(p)
    return w


# MuJoCo's solver for the pile: the fastest of its three that keeps it. Its default, Newton, factors
# the constraint Hessian, which fills in once the landed layers couple every sphere to its
# neighbours: at 10k spheres a step took 44 ms CPU at 10.7k contacts, 3.3 s at 12.8k and 17 s at
# 15.2k (arena 2 GB, load 8); with the 500 MB arena this bench had before, MuJoCo ran out of arena
# there, dropped those steps' constraints (its "Insufficient arena memory" warning) and the steps
# looked fast. CG and PGS build no factor (see docs/granular.md for their figures).
MUJOCO_SOLVER = "CG"


def _mujoco_spheres(mujoco, n, rolling=False, solver=None):
    """The same particles as MuJoCo spheres (free joints) with the sand's density and sliding
    friction 0.5, MuJoCo's default contact softness, and `solver` (default MUJOCO_SOLVER, see
    there). rolling=True: condim 6 with the DEM's rolling resistance (its torque cap mu_r R* F_n
    as MuJoCo's rolling friction length mu_r R* = 0.1 * r / 2) and no torsional friction (MuJoCo's
    least, 1e-5), the DEM's contact model; else condim 3 (sliding friction only)."""
    pos, box = _positions(n)
    walls = "".join(
        f'<geom type="box" size="{sx} {sy} 1" pos="{x} {y} 1"/>'
        for sx, sy, x, y in [(0.05, box / 2 + 0.1, -0.05, box / 2),
                             (0.05, box / 2 + 0.1, box + 0.05, box / 2),
                             (box / 2 + 0.1, 0.05, box / 2, -0.05),
                             (box / 2 + 0.1, 0.05, box / 2, box + 0.05)])
    bodies = "".join(f'<body pos="{p[0]} {p[1]} {p[2]}"><freejoint/><geom type="sphere" size="{R}" '
                     f'density="2600"/></body>' for p in pos)
    geom = (f'condim="6" friction="0.5 1e-5 {0.1 * R / 2}"' if rolling
            else 'condim="3" friction="0.5 0.005 0.0001"')
    # the arena holds the constraints: at 500 MB MuJoCo dropped some of this pile's (its warning
    # "Insufficient arena memory"); 200 kB per sphere holds them with room
    xml = (f'<mujoco><option timestep="{DT}" solver="{solver or MUJOCO_SOLVER}"/><size memory="{max(64, n // 5)}M"/>'
           f'<default><geom {geom}/></default><worldbody>'
           f'<geom type="plane" size="0 0 1"/>{walls}{bodies}</worldbody></mujoco>')
    m = mujoco.MjModel.from_xml_string(xml)
    return m, mujoco.MjData(m)


def SAND():
    """The benchmark's sand (see the module's docstring), the same for every engine."""
    import torsion

    return torsion.GranularMaterial(density=2600.0, youngs_modulus=1e7, poisson_ratio=0.3,
                                    restitution=0.3, friction=0.5, rolling_friction=0.1)


def _rate(fn, n, steps, rounds):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(steps)
        best = min(best, time.perf_counter() - t0)
    return n * steps / best


def benchmarks(quick: bool) -> list[Result]:
    import torsion

    out = []
    sizes = [10_000] if quick else [10_000, 100_000]
    material = SAND()
    mujoco = optional_import("mujoco")
    for n in sizes:
        steps = 3 if quick else (20 if n <= 10_000 else 5)
        rounds = 2 if quick else 3
        work = f"{n // 1000}k particles (r 1 cm) settling in a box, dt 1 ms: particle-steps/s"
        for threads in (1, 2):
            w, g = _dem(n, material, threads)
            w.integrate(WARMUP)  # the layers land; first contacts, allocations
            rate = _rate(w.integrate, n, steps, rounds)
            st = g.get_stats()
            out.append(Result(work, "torsion" if threads == 1 else "torsion-2t", rate,
                              "particle-steps/s",
                              note=f"World granular system, {st['substeps']} substeps, "
                                   f"{threads} thread{'s' if threads > 1 else ''}, "
                                   f"{(2 * st['contacts'] + st['wall_contacts']) / n:.1f} contacts "
                                   f"per particle, max overlap {100 * st['max_overlap']:.2f} % R*"))
        w, g = _dem_with_boxes(n, material, 1)
        w.integrate(WARMUP + 10)  # the boxes bounce off the first touch and land by then
        touching = g.get_stats()["shape_contacts"]
        out.append(Result(work, "torsion-coupled", _rate(w.integrate, n, steps, rounds),
                          "particle-steps/s",
                          note=f"World granular system and 9 boxes on it ({touching} particle-box "
                               "contacts), 1 thread"))
        if n <= 10_000 or not quick:
            w = _torsion_spheres(n)
            w.integrate(WARMUP if n <= 10_000 else WARMUP_SPHERES_100K)
            out.append(Result(work, "torsion-spheres", _rate(w.integrate, n, steps, rounds),
                              "particle-steps/s", note="World spheres, bisection solver"))
            # MuJoCo's model compiler is quadratic in the number of bodies (MakeTreeLists): 100k
            # free spheres did not compile within 15 minutes here, so MuJoCo runs at 10k only
            if mujoco is not None and n <= 10_000:
                for rolling in ((False,) if quick else (False, True)):
                    m, d = _mujoco_spheres(mujoco, n, rolling)
                    mujoco.mj_step(m, d, nstep=WARMUP)
                    rate = _rate(lambda k: mujoco.mj_step(m, d, nstep=k), n, steps, rounds)
                    out.append(Result(work, "mujoco-rolling" if rolling else "mujoco", rate,
                                      "particle-steps/s",
                                      note=f"MuJoCo spheres, {MUJOCO_SOLVER}, condim {6 if rolling else 3}"
                                           f"{' with rolling friction' if rolling else ''}, "
                                           f"{d.ncon} contacts, arena use "
                                           f"{d.maxuse_arena / 2**20:.0f} MB"))
    return out
