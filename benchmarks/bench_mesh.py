"""Mesh benchmark: 100 convex meshes falling into a pile, torsion vs MuJoCo and PyBullet.

Every engine simulates the same scene: 100 convex polyhedra, each the hull of 24 random points
(about 8 cm across, 1 kg; a few distinct shapes reused), dropped on a ground plane from a jittered
grid (0.2 m spacing, random orientations, lowest layer at 0.3 m), dt = 1 ms, friction 0.8, no
restitution. torsion loads each hull from an OBJ file (MeshCollisionMode.CONVEX_HULL); MuJoCo gets
the same vertices as mesh geoms (it takes their convex hull); PyBullet gets them through
createCollisionShape(GEOM_MESH, vertices=...) (also a convex hull). Measured in one run: steps/s
over the drop and over the settled pile, and the deepest penetration at the end (in the note).
torsion runs with its default solver and a 5 mm contact margin, as in bench_contact.
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np

from benchmarks._common import Result, optional_import

DT = 1e-3
MASS = 1.0
FRICTION = 0.8
MARGIN = 0.005
SPACING = 0.2
N_SHAPES = 8  # distinct hulls, cycled over the bodies


def hull_shapes(seed: int = 0):
    """N_SHAPES vertex sets (k, 3), each the hull vertices of 24 random points (m)."""
    from scipy.spatial import ConvexHull

    rng = np.random.default_rng(seed)
    shapes = []
    for _ in range(N_SHAPES):
        pts = rng.normal(size=(24, 3)) * rng.uniform(0.02, 0.035, size=3)
        shapes.append(pts[ConvexHull(pts).vertices])
    return shapes


def initial_poses(n: int, seed: int = 0):
    rng = np.random.default_rng(seed + 1)
    side = int(np.ceil(np.sqrt(n / 4)))
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


def make_torsion(n, tmp):
    import torsion

    w = torsion.World()
    w.set_time_step(DT)
    w.add_ground(0.0)
    w.set_default_material(FRICTION, 0.0, 0.0)
    cs = torsion.ContactSettings()
    cs.margin = MARGIN
    w.set_contact_settings(cs)
    files = []
    for k, v in enumerate(hull_shapes()):
        verts, tris, _ = torsion.convex_hull(v)
        path = os.path.join(tmp, f"hull{k}.obj")
        with open(path, "w") as fh:
            fh.writelines("v %.17g %.17g %.17g\n" % tuple(p) for p in verts)
            fh.writelines("f %d %d %d\n" % tuple(t + 1) for t in tris)
        files.append(path)
    pos, quat = initial_poses(n)
    first = {}
    for i, (p, q) in enumerate(zip(pos, quat)):
        k = i % N_SHAPES
        b = w.add_mesh(first[k]) if k in first else w.add_mesh(files[k], MASS)
        first.setdefault(k, b)
        b.set_position(p)
        b.set_orientation(q)

    def penetration():
        pr = w.get_contact_problem()
        return max(0.0, float(pr["depth"].max())) if len(pr) else 0.0

    def extra():
        d = w.get_contact_solver_diagnostics()
        return f"last solve: {d['iterations']} sweeps, {d['contacts']} contacts"

    return w.integrate, penetration, extra


def make_mujoco(n, solver):
    mujoco = optional_import("mujoco")
    if mujoco is None:
        return None
    shapes = hull_shapes()
    assets = "".join(
        f'<mesh name="h{k}" vertex="{" ".join("%.17g" % x for x in v.ravel())}"/>'
        for k, v in enumerate(shapes))
    pos, quat = initial_poses(n)
    bodies = "".join(
        f'<body pos="{p[0]} {p[1]} {p[2]}" quat="{q[0]} {q[1]} {q[2]} {q[3]}"><freejoint/>'
        f'<geom type="mesh" mesh="h{i % N_SHAPES}" mass="{MASS}"/></body>'
        for i, (p, q) in enumerate(zip(pos, quat)))
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


def make_pybullet(n):
    pybullet = optional_import("pybullet")
    if pybullet is None:
        return None
    cid = pybullet.connect(pybullet.DIRECT)
    pybullet.setGravity(0, 0, -9.81, physicsClientId=cid)
    pybullet.setTimeStep(DT, physicsClientId=cid)
    plane = pybullet.createCollisionShape(pybullet.GEOM_PLANE, physicsClientId=cid)
    ground = pybullet.createMultiBody(0, plane, physicsClientId=cid)
    pybullet.changeDynamics(ground, -1, lateralFriction=FRICTION, physicsClientId=cid)
    shapes = [pybullet.createCollisionShape(pybullet.GEOM_MESH, vertices=v.tolist(), physicsClientId=cid)
              for v in hull_shapes()]
    pos, quat = initial_poses(n)
    for i, (p, q) in enumerate(zip(pos, quat)):
        b = pybullet.createMultiBody(MASS, shapes[i % N_SHAPES], basePosition=p.tolist(),
                                     baseOrientation=[q[1], q[2], q[3], q[0]], physicsClientId=cid)
        pybullet.changeDynamics(b, -1, lateralFriction=FRICTION, physicsClientId=cid)

    def step(k):
        for _ in range(k):
            pybullet.stepSimulation(physicsClientId=cid)

    def penetration():
        pts = pybullet.getContactPoints(physicsClientId=cid)
        return max([0.0] + [-p[8] for p in pts])

    return step, penetration, lambda: f"{len(pybullet.getContactPoints(physicsClientId=cid))} contacts"


def timed(step, k):
    t0 = time.perf_counter()
    step(k)
    return k / (time.perf_counter() - t0)


def benchmarks(quick: bool) -> list[Result]:
    results: list[Result] = []
    drop, settle, rest = (500, 500, 200) if quick else (1500, 1500, 1000)
    with tempfile.TemporaryDirectory() as tmp:
        engines = [("torsion", lambda: make_torsion(100, tmp)),
                   ("mujoco-newton", lambda: make_mujoco(100, "Newton")),
                   ("mujoco-cg", lambda: make_mujoco(100, "CG")),
                   ("pybullet", lambda: make_pybullet(100))]
        for name, make in engines:
            eng = make()
            if eng is None:
                results.append(Result("100 convex meshes: drop", name, 0.0, "steps/s", note="not installed"))
                continue
            step, penetration, extra = eng
            rate_drop = timed(step, drop)
            step(settle)
            rate_rest = timed(step, rest)
            pen = penetration()
            results.append(Result(f"100 convex meshes: whole drop ({drop} steps)", name, rate_drop, "steps/s"))
            results.append(Result("100 convex meshes: settled pile", name, rate_rest, "steps/s",
                                  note=f"max penetration {pen * 1e3:.3f} mm; {extra()}",
                                  extra={"penetration_m": pen}))
    return results
