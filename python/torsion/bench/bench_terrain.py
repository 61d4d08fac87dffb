"""Terrain: the bundled quadruped on a 256 x 256 Perlin heightmap, side by side with MuJoCo's
hfield on the same samples, in one run.

Workload: torsion.TerrainProperties (frequency 0.6 /m, z_scale 0.05 m, 3 octaves, seed 1) over
10.24 m x 10.24 m, 256 x 256 samples (4 cm cells); the quadruped (torsion.robots "quadruped")
starts 3 cm above the highest sample under it in the standing pose, PD in the engine (kp 50,
kd 1), dt 1 ms, settles for 1 s, then:
  * "standing": the in-engine loop, torsion World.integrate(n) / mujoco.mj_step(m, d, nstep=n);
  * "trotting": a control step from Python every step: diagonal pairs lift in turn at 2 Hz
    (thigh +0.35 lift, calf -0.7 lift), set 12 targets, step once.
MuJoCo gets the same samples as an hfield (MjSpec.add_hfield: nrow = y samples, ncol = x
samples, elevation normalised to [0, 1] with size[2] = max - min and the geom at z = min; its
row 0 is the lowest y, as torsion's), the same URDF compiled with MjSpec (free joint, 12
position actuators kp 50 kd 1, robot geoms contype 1 conaffinity 0, the hfield 0/1; default
Newton solver, pyramidal cone). Friction models are not equalised. Engines are timed in
alternation and the best round is kept (bench_articulated.interleaved_us).
"""

from __future__ import annotations

import math

import numpy as np

import torsion
from torsion.bench._common import Result, optional_import
from torsion.bench.bench_articulated import (DT, STAND, _torsion_quadruped, interleaved_us,
                                          mujoco_quadruped)

N, SIZE = 256, 10.24


def _terrain():
    p = torsion.TerrainProperties()
    p.frequency, p.z_scale, p.fractal_octaves, p.seed = 0.6, 0.05, 3, 1
    p.x_size = p.y_size = SIZE
    p.x_samples = p.y_samples = N
    return p


def _start_z(heights):
    # the highest sample within 0.4 m of the origin, plus the standing height and 3 cm
    xs = -SIZE / 2 + np.arange(N) * SIZE / (N - 1)
    near = np.abs(xs) < 0.4
    return float(heights[np.ix_(near, near)].max()) + 0.30 + 0.03


def _trot_targets(t):
    s = math.sin(2 * math.pi * 2.0 * t)
    lift = np.array([max(s, 0.0), max(-s, 0.0), max(-s, 0.0), max(s, 0.0)])  # FR FL RR RL
    q = STAND.reshape(4, 3).copy()
    q[:, 1] += 0.35 * lift
    q[:, 2] -= 0.7 * lift
    return q.reshape(-1)


def _torsion(props, z0):
    return _torsion_quadruped(lambda w: w.add_height_map(0.0, 0.0, props), z0)


def _mujoco(mujoco, heights, z0):
    def add_hfield(spec):  # the same samples as torsion's heightmap
        lo, hi = float(heights.min()), float(heights.max())
        spec.add_hfield(name="terrain", size=[SIZE / 2, SIZE / 2, hi - lo, 0.1], nrow=N, ncol=N,
                        userdata=((heights - lo) / (hi - lo)).ravel().tolist())
        spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_HFIELD, hfieldname="terrain",
                                pos=[0, 0, lo], contype=0, conaffinity=1)

    return mujoco_quadruped(mujoco, add_hfield, z0)


def benchmarks(quick: bool) -> list[Result]:
    props = _terrain()
    heights = props.generate()  # (y, x)
    z0 = _start_z(heights)
    steps = 500 if quick else 1000
    rounds = 2 if quick else 6
    fns, per = {}, {}
    wb, qb, _ = _torsion(props, z0)
    fns["torsion stand"] = lambda: wb.integrate(steps)
    per["torsion stand"] = steps
    w, q, target = _torsion(props, z0)
    v0 = np.zeros(18)
    clock = {"t": 0.0, "mj": 0.0}

    def trot():
        target[7:] = _trot_targets(clock["t"])
        clock["t"] += DT
        q.set_pd_target(target, v0)
        w.integrate()

    fns["torsion trot"] = trot
    mujoco = optional_import("mujoco")
    if mujoco is not None:
        mb, db = _mujoco(mujoco, heights, z0)
        fns["mujoco stand"] = lambda: mujoco.mj_step(mb, db, nstep=steps)
        per["mujoco stand"] = steps
        m, d = _mujoco(mujoco, heights, z0)

        def trot_mj():
            d.ctrl[:] = _trot_targets(clock["mj"])
            clock["mj"] += DT
            mujoco.mj_step(m, d)

        fns["mujoco trot"] = trot_mj
    t = interleaved_us(fns, rounds, per_call=per)
    ws = "quadruped standing on a 256x256 Perlin heightmap, PD in engine, dt 1 ms: in-engine loop"
    wt = "quadruped trotting in place on a 256x256 Perlin heightmap: control step from Python"
    out = []
    for eng in ("torsion", "mujoco"):
        if f"{eng} stand" not in t:
            continue
        note = "Newton, hfield" if eng == "mujoco" else "bisection, heightmap"
        out += [Result(ws, eng, 1e6 / t[f"{eng} stand"], "steps/s", note=note),
                Result(wt, eng, 1e6 / t[f"{eng} trot"], "steps/s", note=note)]
    # sanity: both robots still stand above their terrain (a benchmark of a fallen robot is void)
    base = qb.get_generalized_coordinate()[2]
    out[0].extra["base_height_after_run"] = float(base)
    return out
