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

import numpy as np

from torsion.bench._common import Result
from torsion.bench.bench_contact import (DT, FRICTION, MARGIN, MASS, initial_poses, mujoco_pile,
                                      pybullet_pile, timed, torsion_probes)

N_SHAPES = 8  # distinct hulls, cycled over the bodies
POSE_SEED = 1  # bench_contact's grid of poses, with its own jitter and orientations


def hull_shapes(seed: int = 0):
    """N_SHAPES vertex sets (k, 3), each the hull vertices of 24 random points (m)."""
    from scipy.spatial import ConvexHull

    rng = np.random.default_rng(seed)
    shapes = []
    for _ in range(N_SHAPES):
        pts = rng.normal(size=(24, 3)) * rng.uniform(0.02, 0.035, size=3)
        shapes.append(pts[ConvexHull(pts).vertices])
    return shapes


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
    pos, quat = initial_poses(n, POSE_SEED)
    first = {}
    for i, (p, q) in enumerate(zip(pos, quat)):
        k = i % N_SHAPES
        b = w.add_mesh(first[k]) if k in first else w.add_mesh(files[k], MASS)
        first.setdefault(k, b)
        b.set_position(p)
        b.set_orientation(q)

    return torsion_probes(w)


def make_mujoco(n, solver):
    assets = "".join(
        f'<mesh name="h{k}" vertex="{" ".join("%.17g" % x for x in v.ravel())}"/>'
        for k, v in enumerate(hull_shapes()))
    return mujoco_pile(n, solver, lambda i: f'<geom type="mesh" mesh="h{i % N_SHAPES}" '
                                            f'mass="{MASS}"/>', assets, seed=POSE_SEED)


def make_pybullet(n):
    return pybullet_pile(n, lambda pb, cid: [
        pb.createCollisionShape(pb.GEOM_MESH, vertices=v.tolist(), physicsClientId=cid)
        for v in hull_shapes()], seed=POSE_SEED)


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
            step, penetration, extra = eng[:3]
            rate_drop = timed(step, drop)
            step(settle)
            rate_rest = timed(step, rest)
            pen = penetration()
            results.append(Result(f"100 convex meshes: whole drop ({drop} steps)", name, rate_drop, "steps/s"))
            results.append(Result("100 convex meshes: settled pile", name, rate_rest, "steps/s",
                                  note=f"max penetration {pen * 1e3:.3f} mm; {extra()}",
                                  extra={"penetration_m": pen}))
    return results
