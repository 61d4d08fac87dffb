"""Many worlds at once: torsion.WorldBatch against mujoco.rollout on the same quadruped.

Robots: the bundled quadruped (torsion.robots "quadruped") and, when pybullet_data is installed,
its Unitree A1 URDF (a1/a1.urdf: primitive collision shapes, 12 revolute joints). Each engine
loads the same URDF, set up exactly as bench_articulated's single-world quadruped (PD kp 50,
kd 1 in the engine, dt 1 ms, flat ground, robot-vs-ground contacts only; MuJoCo: the URDF
compiled with mujoco.MjSpec, a free joint, a plane and 12 position actuators, default Euler
integrator), settled standing for 1 s, then copied into 64 worlds.

Workloads, in robot-steps per second (64 worlds x steps / wall time):
- "in-engine": torsion batch.integrate(steps) against mujoco.rollout (a persistent
  rollout.Rollout(nthread=...), one MjData per thread, the same control every step), 2 threads
  and 1 thread. Each MuJoCo call restarts from the settled state; torsion's worlds continue from
  theirs (standing either way).
- "control step from Python": per step, set 64 x 12 PD targets, advance one step and read back
  the 64 gc and gv: torsion ArticulatedView.set_pd_targets + batch.integrate() +
  get_generalized_coordinates/velocities(out=...) against mujoco.rollout with nstep=1 chained
  through its returned state (2 threads), and against a Python loop over 64 MjData (set ctrl,
  mj_step, copy qpos and qvel), the sequential baseline.
Engines are timed in alternation and the best round of each is kept (bench_articulated's
interleaved_us).
"""

from __future__ import annotations

import os

import numpy as np

import torsion
from torsion.bench._common import Result, optional_import
from torsion.bench.bench_articulated import STAND, _torsion_quadruped, interleaved_us, mujoco_quadruped

NUM_WORLDS = 64


def robots() -> list[tuple[str, str]]:
    """(label, URDF path) of every robot to run."""
    out = [("quadruped", torsion.robots.urdf_path("quadruped"))]
    pybullet_data = optional_import("pybullet_data")
    if pybullet_data is not None:
        a1 = os.path.join(pybullet_data.getDataPath(), "a1", "a1.urdf")
        if os.path.isfile(a1):
            out.append(("a1", a1))
    return out


def _mujoco_state(mujoco, m, d):
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    state = np.empty(mujoco.mj_stateSize(m, spec))
    mujoco.mj_getState(m, d, state, spec)
    return state


def _workloads(label: str, urdf: str, quick: bool) -> list[Result]:
    n = NUM_WORLDS
    steps = 100 if quick else 500
    rounds = 2 if quick else 8
    w, robot, gc = _torsion_quadruped(urdf=urdf)
    robot.set_name("robot")  # copied with the world: the view finds it in every copy
    batch2 = torsion.WorldBatch.from_world(w, n, num_threads=2)
    batch1 = torsion.WorldBatch.from_world(w, n, num_threads=1)
    view = batch2.articulated("robot")
    fns, per = {}, {}
    fns["torsion 2t"] = lambda: batch2.integrate(steps)
    fns["torsion 1t"] = lambda: batch1.integrate(steps)
    per["torsion 2t"] = per["torsion 1t"] = steps * n
    targets = np.tile(gc, (n, 1))
    gc_out = np.empty((n, view.gc_dim))
    gv_out = np.empty((n, view.dof))

    def torsion_ctrl():
        view.set_pd_targets(targets)
        batch2.integrate()
        view.get_generalized_coordinates(out=gc_out)
        view.get_generalized_velocities(out=gv_out)

    fns["torsion ctrl"] = torsion_ctrl
    per["torsion ctrl"] = n

    mujoco = optional_import("mujoco")
    rollouts = []
    if mujoco is not None:
        from mujoco import rollout

        m, d = mujoco_quadruped(mujoco, urdf=urdf)
        init = np.tile(_mujoco_state(mujoco, m, d), (n, 1))
        ctrl = np.tile(np.asarray(STAND, dtype=float), (n, steps, 1))
        models = [m] * n
        for threads in (2, 1):
            r = rollout.Rollout(nthread=threads)
            rollouts.append(r)
            datas = [mujoco.MjData(m) for _ in range(threads)]
            key = f"mujoco {threads}t"
            fns[key] = (lambda r=r, datas=datas: r.rollout(models, datas, init, ctrl, nstep=steps))
            per[key] = steps * n
        # the control step: one step per call, the state chained through rollout's output
        r2, datas2 = rollouts[0], [mujoco.MjData(m) for _ in range(2)]
        chain = {"state": init.copy()}
        ctrl1 = np.tile(np.asarray(STAND, dtype=float), (n, 1, 1))

        def mujoco_ctrl():
            state, _ = r2.rollout(models, datas2, chain["state"], ctrl1, nstep=1)
            chain["state"] = state[:, -1, :]

        fns["mujoco ctrl"] = mujoco_ctrl
        per["mujoco ctrl"] = n
        loop_data = [mujoco.MjData(m) for _ in range(n)]
        for dd in loop_data:
            mujoco.mj_setState(m, dd, init[0], mujoco.mjtState.mjSTATE_FULLPHYSICS)
        stand = np.asarray(STAND, dtype=float)

        def mujoco_loop():
            for dd in loop_data:
                dd.ctrl[:] = stand
                mujoco.mj_step(m, dd)
                dd.qpos.copy()
                dd.qvel.copy()

        fns["mujoco loop"] = mujoco_loop
        per["mujoco loop"] = n
    try:
        best = interleaved_us(fns, rounds, min_time=0.1 if quick else 0.3, per_call=per)
    finally:
        for r in rollouts:
            r.close()
    rate = {k: 1e6 / v for k, v in best.items()}
    out = []
    base = f"{label} x{n} worlds"
    for threads in (2, 1):
        wl = f"{base}, {steps} steps/call, {threads} thread{'s' if threads > 1 else ''}"
        out.append(Result(wl, "torsion", rate[f"torsion {threads}t"], "robot-steps/s",
                          note="WorldBatch.integrate"))
        if f"mujoco {threads}t" in rate:
            out.append(Result(wl, "mujoco", rate[f"mujoco {threads}t"], "robot-steps/s",
                              note=f"mujoco.rollout nthread={threads}"))
    wl = f"{base}, control step from Python, 2 threads"
    out.append(Result(wl, "torsion", rate["torsion ctrl"], "robot-steps/s",
                      note="set_pd_targets, integrate(), gc+gv into out arrays"))
    if "mujoco ctrl" in rate:
        out.append(Result(wl, "mujoco", rate["mujoco ctrl"], "robot-steps/s",
                          note="rollout nstep=1 chained, nthread=2"))
        out.append(Result(wl, "mujoco-pyloop", rate["mujoco loop"], "robot-steps/s",
                          note="Python loop of mj_step over 64 MjData, 1 thread"))
    return out


def benchmarks(quick: bool) -> list[Result]:
    out = []
    for label, urdf in robots():
        out.extend(_workloads(label, urdf, quick))
    return out


if __name__ == "__main__":
    from torsion.bench.run import format_table

    print(format_table(benchmarks(quick=False)))
