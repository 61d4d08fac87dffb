"""Contact benchmark: cubes falling into a pile, torsion vs MuJoCo (Newton, CG) and PyBullet.

Every engine simulates the same scene: n cubes of 0.1 m and 1 kg, dropped on a ground plane from
a jittered grid (0.2 m spacing, random orientations, lowest layer at 0.3 m), dt = 1 ms, friction
0.8 everywhere, no restitution. Measured, for each engine in one run:
  - steps/s over the whole drop (the first `drop` steps, impacts and sliding included);
  - steps/s over the settled pile (timed after the pile has had `settle` more steps to come to rest);
  - the deepest penetration at the end (m) and, for torsion, the sweeps and contacts of the last
    solve, which go into the note.
1000 cubes: the first steps of the drop, and the settled pile after a few seconds.
torsion runs with its default solver settings (bisection solver, max_iter 150, threshold 1e-8 m/s)
plus ERP 0.2 (penetration beyond the 2e-5 m slop is removed at 20 % per step; without it the
drop leaves the settled pile about 2 mm deep) and a 5 mm contact margin (speculative contacts: the solver stops an approaching pair at
the surface instead of letting it sink in by up to v dt).
An extra row, "torsion-anderson5", is the same scene with Anderson acceleration of the sweeps of
large islands (World.set_contact_solver_acceleration(5); off by default): a labelled variant, not
the default settings. Another, "torsion-generic-kernel" (100 cubes only), runs every contact
through the solver's generic per-side Jacobian path instead of the compact rigid-body kernel
(World.set_contact_solver_compact_kernel(False)): the same problem, to show what the kernel saves.
A third, "torsion-maxiter20" (100 cubes only), caps the sweeps per step at 20 instead of 150
(World.set_contact_solver_param(1, 1, 1, 20, 1e-8)): while the pile still moves, the default solve
runs all 150 sweeps every step (Gauss-Seidel on a pile gains about 2 % per sweep) and this row
shows what a truncated solve buys; its pile must still come to rest (the settled row's sweeps and
penetration say whether it did).
"""

from __future__ import annotations

import time

import numpy as np

from torsion.bench._common import Result, optional_import

DT = 1e-3
SIZE = 0.1
MASS = 1.0
FRICTION = 0.8
MARGIN = 0.005
ERP = 0.2
SPACING = 0.2  # > the cube's diagonal (0.173 m) plus the jitter: no initial overlap


def initial_poses(n: int, seed: int = 0):
    """Positions (n, 3) and quaternions (n, 4) (w, x, y, z) of the cubes."""
    rng = np.random.default_rng(seed)
    side = int(np.ceil(np.sqrt(n / (10 if n >= 1000 else 4))))
    pos, quat = [], []
    layer = 0
    while len(pos) < n:
        for i in range(side):
            for j in range(side):
                if len(pos) == n:
                    break
                pos.append([i * SPACING + rng.uniform(-0.01, 0.01),
                            j * SPACING + rng.uniform(-0.01, 0.01), 0.3 + layer * SPACING])
                q = rng.normal(size=4)
                quat.append(q / np.linalg.norm(q))
        layer += 1
    return np.array(pos), np.array(quat)


# --- engines: each returns (step(k), max_penetration()) ----------------------------------------


def make_torsion(n, acceleration=0, compact_kernel=True, max_iter=150):
    import torsion
    from torsion._core import ContactSettings

    w = torsion.World()
    w.set_time_step(DT)
    w.add_ground(0.0)
    w.set_default_material(FRICTION, 0.0, 0.0)
    cs = ContactSettings()
    cs.margin = MARGIN
    w.set_contact_settings(cs)
    w.set_erp(ERP, 0.0)
    w.set_contact_solver_acceleration(acceleration)
    w.set_contact_solver_compact_kernel(compact_kernel)
    w.set_contact_solver_param(1.0, 1.0, 1.0, max_iter, 1e-8)
    pos, quat = initial_poses(n)
    for p, q in zip(pos, quat):
        b = w.add_box(SIZE, SIZE, SIZE, MASS)
        b.set_position(p)
        b.set_orientation(q)

    return torsion_probes(w)


def torsion_probes(w):
    """(step(k), max_penetration(), extra()) of a torsion world: the interface of every engine."""

    def penetration():
        pr = w.get_contact_problem()
        return max(0.0, float(pr["depth"].max())) if len(pr) else 0.0

    def extra():
        d = w.get_contact_solver_diagnostics()
        return f"last solve: {d['iterations']} sweeps, {d['contacts']} contacts"

    return w.integrate, penetration, extra


def mujoco_pile(n, solver, geom, assets="", seed=0):
    """A MuJoCo pile of n free bodies at initial_poses(n, seed) on a plane; body i has the geom
    XML geom(i) (its mass included); `assets` goes into <asset>."""
    mujoco = optional_import("mujoco")
    if mujoco is None:
        return None
    pos, quat = initial_poses(n, seed)
    bodies = "".join(
        f'<body pos="{p[0]} {p[1]} {p[2]}" quat="{q[0]} {q[1]} {q[2]} {q[3]}"><freejoint/>'
        f'{geom(i)}</body>' for i, (p, q) in enumerate(zip(pos, quat)))
    xml = f"""<mujoco><option timestep="{DT}" solver="{solver}"/>
      <default><geom friction="{FRICTION} 0.005 0.0001"/></default>
      <size memory="200M"/><asset>{assets}</asset>
      <worldbody><geom type="plane" size="0 0 1"/>{bodies}</worldbody></mujoco>"""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)

    def step(k):
        for _ in range(k):
            mujoco.mj_step(m, d)

    def penetration():
        return max(0.0, float(-d.contact.dist[: d.ncon].min())) if d.ncon else 0.0

    return step, penetration, lambda: f"{d.ncon} contacts"


def pybullet_pile(n, make_shapes, seed=0):
    """A PyBullet pile of n bodies of MASS at initial_poses(n, seed) on a plane; make_shapes(
    pybullet, client) returns collision shapes, body i gets shape i modulo their count."""
    pybullet = optional_import("pybullet")
    if pybullet is None:
        return None
    cid = pybullet.connect(pybullet.DIRECT)
    pybullet.setGravity(0, 0, -9.81, physicsClientId=cid)
    pybullet.setTimeStep(DT, physicsClientId=cid)
    plane = pybullet.createCollisionShape(pybullet.GEOM_PLANE, physicsClientId=cid)
    ground = pybullet.createMultiBody(0, plane, physicsClientId=cid)
    pybullet.changeDynamics(ground, -1, lateralFriction=FRICTION, physicsClientId=cid)
    shapes = make_shapes(pybullet, cid)
    pos, quat = initial_poses(n, seed)
    for i, (p, q) in enumerate(zip(pos, quat)):
        b = pybullet.createMultiBody(MASS, shapes[i % len(shapes)], basePosition=p.tolist(),
                                     baseOrientation=[q[1], q[2], q[3], q[0]], physicsClientId=cid)
        pybullet.changeDynamics(b, -1, lateralFriction=FRICTION, physicsClientId=cid)

    def step(k):
        for _ in range(k):
            pybullet.stepSimulation(physicsClientId=cid)

    def penetration():
        pts = pybullet.getContactPoints(physicsClientId=cid)
        return max([0.0] + [-p[8] for p in pts])

    return step, penetration, lambda: f"{len(pybullet.getContactPoints(physicsClientId=cid))} contacts"


def make_mujoco(n, solver):
    return mujoco_pile(n, solver, lambda i: f'<geom type="box" size="{SIZE / 2} {SIZE / 2} '
                                            f'{SIZE / 2}" mass="{MASS}"/>')


def make_pybullet(n):
    return pybullet_pile(n, lambda pb, cid: [pb.createCollisionShape(
        pb.GEOM_BOX, halfExtents=[SIZE / 2] * 3, physicsClientId=cid)])


def engines(n, include_newton=True):
    out = [("torsion", lambda: make_torsion(n)),
           ("torsion-anderson5", lambda: make_torsion(n, acceleration=5))]
    if include_newton:  # the 100-cube scene only
        out.append(("torsion-generic-kernel", lambda: make_torsion(n, compact_kernel=False)))
        out.append(("torsion-maxiter20", lambda: make_torsion(n, max_iter=20)))
    if include_newton:
        out.append(("mujoco-newton", lambda: make_mujoco(n, "Newton")))
    out.append(("mujoco-cg", lambda: make_mujoco(n, "CG")))
    out.append(("pybullet", lambda: make_pybullet(n)))
    return out


def timed(step, k):
    t0 = time.perf_counter()
    step(k)
    return k / (time.perf_counter() - t0)


def benchmarks(quick: bool) -> list[Result]:
    results: list[Result] = []
    # 100 cubes: the whole drop, then the settled pile
    drop, settle, rest = (500, 500, 200) if quick else (1500, 1500, 1000)
    for name, make in engines(100):
        eng = make()
        if eng is None:
            results.append(Result("100 cubes: drop", name, 0.0, "steps/s", note="not installed"))
            continue
        step, penetration, extra = eng
        rate_drop = timed(step, drop)
        step(settle)
        rate_rest = timed(step, rest)
        pen = penetration()
        note = f"max penetration {pen * 1e3:.3f} mm; {extra()}"
        results.append(Result(f"100 cubes: whole drop ({drop} steps)", name, rate_drop, "steps/s"))
        results.append(Result("100 cubes: settled pile", name, rate_rest, "steps/s", note=note,
                              extra={"penetration_m": pen}))
    # 1000 cubes: the first part of the drop, then the settled pile (MuJoCo Newton is too slow
    # there: left out)
    steps, settle, rest = (50, 1500, 50) if quick else (300, 3000, 200)
    for name, make in engines(1000, include_newton=False):
        eng = make()
        if eng is None:
            continue
        step, penetration, extra = eng
        rate = timed(step, steps)
        pen = penetration()
        results.append(Result(f"1000 cubes: falling ({steps} steps)", name, rate, "steps/s",
                              note=f"max penetration {pen * 1e3:.3f} mm; {extra()}",
                              extra={"penetration_m": pen}))
        step(settle)
        rate_rest = timed(step, rest)
        pen = penetration()
        results.append(Result(f"1000 cubes: settled pile (after {steps + settle} steps)", name,
                              rate_rest, "steps/s",
                              note=f"max penetration {pen * 1e3:.3f} mm; {extra()}",
                              extra={"penetration_m": pen}))
    return results
