"""Collision detection of box piles: torsion's collision stage per step beside the full step of
MuJoCo and PyBullet on the same scene.

Scene: N cubes of 0.1 m in columns on a ground plane (100 = 5 x 5 columns of 4, 1000 = 10 x 10
columns of 10), 2 mm apart sideways, each cube resting 0.1 mm into the one below, so every cube
has a 4-point face contact below it, as in a settled pile. torsion has no contact solver on this
branch, so its figure is the collision stage alone (world AABBs, sweep and prune, filters,
narrow phase; timed in C++ by the collision counters), with gravity off so the pile stays put.
For each peer two figures are taken on the same pile after it settled under gravity: its whole
step (collision plus solver plus integration; the ratio says how much of that step budget
torsion's collision detection uses) and its collision stage alone (mj_collision,
performCollisionDetection: the like-for-like comparison).
"""

from __future__ import annotations

import statistics
import time

from torsion.bench._common import Result, optional_import

SIZE = 0.1
GAP = 0.002
SINK = 1e-4


def layout(n: int):
    per_side, layers = (5, 4) if n == 100 else (10, 10)
    pos = []
    for i in range(per_side):
        for j in range(per_side):
            for k in range(layers):
                x = (i - (per_side - 1) / 2) * (SIZE + GAP)
                y = (j - (per_side - 1) / 2) * (SIZE + GAP)
                z = SIZE / 2 + k * (SIZE - SINK) - SINK
                pos.append((x, y, z))
    assert len(pos) == n
    return pos


def torsion_collision_ms(n: int, steps: int) -> tuple[float, int]:
    import torsion

    w = torsion.World()
    w.set_gravity([0, 0, 0])
    w.add_ground()
    for p in layout(n):
        b = w.add_box(SIZE, SIZE, SIZE, 1.0)
        b.set_position(p)
    w.set_collision_counters_enabled(True)
    w.integrate(5)  # warm the broad phase and the buffers
    times = []
    for _ in range(steps):
        w.integrate()
        times.append(w.get_last_collision_counters()["time_total"])
    contacts = w.get_last_collision_counters()["contacts"]
    return 1e3 * statistics.median(times), contacts


def mujoco_step_ms(mujoco, n: int, steps: int, settle: int) -> float:
    bodies = "".join(
        f'<body pos="{x} {y} {z}"><freejoint/><geom type="box" size="{SIZE/2} {SIZE/2} {SIZE/2}" '
        f'mass="1"/></body>'
        for x, y, z in layout(n)
    )
    xml = (
        '<mujoco><option timestep="0.001"/><worldbody><geom type="plane" size="0 0 1"/>'
        f"{bodies}</worldbody></mujoco>"
    )
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    for _ in range(settle):
        mujoco.mj_step(m, d)
    t0 = time.perf_counter()
    for _ in range(steps):
        mujoco.mj_step(m, d)
    full = 1e3 * (time.perf_counter() - t0) / steps
    # its collision stage alone on the settled pile (mj_collision needs mj_kinematics first)
    mujoco.mj_kinematics(m, d)
    t0 = time.perf_counter()
    for _ in range(steps):
        mujoco.mj_collision(m, d)
    collision = 1e3 * (time.perf_counter() - t0) / steps
    return full, collision, int(d.ncon)


def pybullet_step_ms(p, n: int, steps: int, settle: int) -> float:
    cid = p.connect(p.DIRECT)
    try:
        p.setGravity(0, 0, -9.81, physicsClientId=cid)
        p.setTimeStep(0.001, physicsClientId=cid)
        plane = p.createCollisionShape(p.GEOM_PLANE, physicsClientId=cid)
        p.createMultiBody(0, plane, physicsClientId=cid)
        box = p.createCollisionShape(p.GEOM_BOX, halfExtents=[SIZE / 2] * 3, physicsClientId=cid)
        for pos in layout(n):
            p.createMultiBody(1.0, box, basePosition=pos, physicsClientId=cid)
        for _ in range(settle):
            p.stepSimulation(physicsClientId=cid)
        t0 = time.perf_counter()
        for _ in range(steps):
            p.stepSimulation(physicsClientId=cid)
        full = 1e3 * (time.perf_counter() - t0) / steps
        t0 = time.perf_counter()
        for _ in range(steps):
            p.performCollisionDetection(physicsClientId=cid)
        collision = 1e3 * (time.perf_counter() - t0) / steps
        return full, collision, len(p.getContactPoints(physicsClientId=cid))
    finally:
        p.disconnect(cid)


def benchmarks(quick: bool) -> list[Result]:
    results = []
    mujoco = optional_import("mujoco")
    pybullet = optional_import("pybullet")
    for n in (100, 1000):
        steps = (20 if quick else 200) if n == 100 else (5 if quick else 30)
        settle = (50 if quick else 300) if n == 100 else (10 if quick else 100)
        workload = f"{n}-box pile: collision per step (peers: full step)"
        ms, contacts = torsion_collision_ms(n, steps)
        results.append(
            Result(workload, "torsion", ms, "ms/step", higher_is_better=False,
                   note=f"collision stage only, {contacts} contacts",
                   extra={"contacts": contacts})
        )
        peers = [("mujoco", mujoco, mujoco_step_ms, "mj_step", "mj_collision"),
                 ("pybullet", pybullet, pybullet_step_ms, "stepSimulation",
                  "performCollisionDetection")]
        for name, mod, run, full_name, coll_name in peers:
            if mod is None:
                results.append(Result(workload, name, 0.0, "ms/step", higher_is_better=False,
                                      note=f"skipped: pip install {name}"))
                continue
            full, coll, ncon = run(mod, n, steps, settle)
            results.append(Result(workload, f"{name} step", full, "ms/step",
                                  higher_is_better=False, note=f"full {full_name}"))
            results.append(Result(workload, f"{name} collision", coll, "ms/step",
                                  higher_is_better=False,
                                  note=f"{coll_name} only, {ncon} contacts"))
    return results
