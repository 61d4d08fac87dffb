"""Articulated systems: a quadruped stepping under PD, and the Jacobian / mass matrix of a 7-DoF
arm, side by side with MuJoCo, PyBullet and Pinocchio in one run.

Workloads (all single-threaded, one world):
- quadruped (torsion.robots "quadruped", 12 revolute joints, floating base, primitive collision
  shapes) standing on flat ground under PD in the engine (kp 50, kd 1 on every joint), dt 1 ms,
  contacts robot-vs-ground only (no self-collision on any side). Every engine starts from the
  same pose 3 cm above its standing height and settles for 1 s before timing, so the loops run
  with the four feet in contact. MuJoCo compiles the same URDF with mujoco.MjSpec, adds a free
  joint, an infinite ground plane and 12 position actuators (robot geoms contype 1 conaffinity 0,
  the plane contype 0 conaffinity 1; default solver Newton, pyramidal cone); PyBullet loads the
  URDF on a GEOM_PLANE ground with POSITION_CONTROL. Friction models are not equalised.
  MuJoCo runs twice: with its default integrator (Euler: actuator gains, damping and Coriolis
  terms explicit) and as "mujoco-implicitfast" (damping and actuator gains implicit, as
  torsion's implicit PD; Coriolis explicit), its recommended integrator for stiff control.
  * "in-engine loop": torsion World.integrate(n) / mujoco.mj_step(m, d, nstep=n).
  * "control step from Python": set 12 targets, step once, read q and v (fresh arrays).
  * Python overhead = control step time - in-engine step time, per engine, both on the same
    world (best rounds; the note gives the median over rounds of the difference of the two, timed
    back to back in each round: paired_overhead_us).
  Engines are timed in alternation and the best round is kept (see interleaved_us).
- quadrupeds standing and walking in place: the bundled quadruped and pybullet_data's Unitree A1
  (when installed), set up as above, standing still or trotting in place (trot_targets: diagonal
  pairs in antiphase, 2 Hz, thigh +0.3 / calf -0.6 rad half-sines), the targets set every
  CONTROL_EVERY = 10 steps on both engines: torsion set_pd_target + World.integrate(10) against
  MuJoCo (Euler) d.ctrl + mj_step(nstep=10), timed in alternation in many short runs of 50 steps
  (best run: on a loaded machine a short run often goes uninterrupted).
- arm ("arm7"), frame Jacobian of the tool frame and the mass matrix, from a configuration:
  torsion set_generalized_coordinate + get_dense_frame_jacobian / get_mass_matrix versus
  pinocchio.computeFrameJacobian / pinocchio.crba. In C++: torsion's benchmark_* helpers (a C++
  loop of forward kinematics + Jacobian, or + CRBA). Pinocchio's C++ cannot be timed from here;
  peer_figures.md gives 0.41 us for its Jacobian (another run, so no ratio is printed).
"""

from __future__ import annotations

import gc
import time

import numpy as np

import torsion
from torsion.bench._common import Result, optional_import

# The machines are shared and noisy: every engine of a workload is timed in alternation, round
# after round, and the best (smallest) time per call of each is kept, so a burst of load from
# elsewhere does not land on one engine only.


def _calls_for(fn, min_time: float) -> int:
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 >= min_time or n >= 1 << 24:
            return n
        n *= 2


def interleaved_us(fns: dict, rounds: int, min_time: float = 0.05, per_call: dict | None = None,
                   samples: dict | None = None, median: bool = False) -> dict:
    """{name: best time (us) of one call of fns[name]()} over `rounds` alternating rounds;
    per_call[name] divides the time when one call does several items (e.g. integrate(n)).
    `samples` (optional) receives every round's time per name, in round order. A round's time is
    the mean of its calls, or with `median` the median of the calls timed one by one: for calls
    of a millisecond or so, which the loaded machine's scheduler preempts now and then for a
    time slice of several (one call in ten, on a 2-core machine at load 10), whatever engine
    they belong to."""
    gc.collect()
    counts = {k: _calls_for(f, min_time) for k, f in fns.items()}
    best = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, f in fns.items():
            n = counts[k]
            if median:
                times = []
                for _ in range(n):
                    t0 = time.perf_counter()
                    f()
                    times.append(time.perf_counter() - t0)
                t = float(np.median(times)) * 1e6 / (per_call or {}).get(k, 1)
            else:
                t0 = time.perf_counter()
                for _ in range(n):
                    f()
                t = (time.perf_counter() - t0) / n * 1e6 / (per_call or {}).get(k, 1)
            best[k] = min(best[k], t)
            if samples is not None:
                samples.setdefault(k, []).append(t)
    return best


def paired_overhead_us(samples: dict, slow: str, fast: str) -> float:
    """The median over rounds of samples[slow][r] - samples[fast][r]: the two were timed back to
    back in each round, so load that shifts a whole round cancels (a difference of the two
    separate best rounds does not)."""
    diffs = np.subtract(samples[slow], samples[fast])
    return float(np.median(diffs))

KP, KD, DT = 50.0, 1.0, 1e-3
STAND = torsion.robots.QUADRUPED_STAND


START_Z = 0.33
SETTLE = 1000


def _torsion_quadruped(add_floor=None, z0=START_Z, urdf=None):
    """The bundled quadruped (or the 12-joint quadruped URDF `urdf`) under PD (kp, kd) standing
    at z0, settled for SETTLE steps: (world, system, gc). add_floor(world) adds the floor; by
    default the ground plane."""
    w = torsion.World()
    w.set_time_step(DT)
    if add_floor is None:
        w.add_ground()
    else:
        add_floor(w)
    # unclamped, as the peers' actuators (no force range): the same control on every side
    q = w.add_articulated_system(urdf or torsion.robots.urdf_path("quadruped"), clamp_to_effort_limits=False)
    gc = q.get_generalized_coordinate()
    gc[2] = z0
    gc[7:] = STAND
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, KP), np.full(18, KD))
    q.set_pd_target(gc, np.zeros(18))
    w.integrate(SETTLE)
    return w, q, gc


def mujoco_quadruped(mujoco, add_floor=None, z0=START_Z, integrator=None, urdf=None):
    """The bundled quadruped (or the 12-joint quadruped URDF `urdf`) compiled by MuJoCo from its
    URDF, with PD as position actuators (kp, kd as torsion's), standing at z0 and settled for
    SETTLE steps. add_floor(spec) adds the floor geom (contype 0, conaffinity 1); by default a
    plane. integrator: a mujoco.mjtIntegrator (default: MuJoCo's default, Euler)."""
    spec = mujoco.MjSpec.from_file(urdf or torsion.robots.urdf_path("quadruped"))
    spec.option.timestep = DT
    if integrator is not None:
        spec.option.integrator = integrator
    for g in spec.geoms:  # robot geoms touch the floor only
        g.contype, g.conaffinity = 1, 0
    spec.worldbody.first_body().add_freejoint()
    if add_floor is None:
        spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 1], contype=0,
                                conaffinity=1)
    else:
        add_floor(spec)
    names = [j.name for j in spec.joints if j.name and j.type != mujoco.mjtJoint.mjJNT_FREE]
    for n in names:
        act = spec.add_actuator(name=n + "_pd", target=n, trntype=mujoco.mjtTrn.mjTRN_JOINT)
        act.gainprm[0] = KP
        act.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        act.biasprm[0:3] = [0.0, -KP, -KD]
    m = spec.compile()
    d = mujoco.MjData(m)
    d.qpos[2] = z0
    d.qpos[7:] = STAND
    d.ctrl[:] = STAND
    mujoco.mj_step(m, d, nstep=SETTLE)
    return m, d


def _quadruped(quick: bool) -> list[Result]:
    out = []
    steps = 1000
    rounds = 3 if quick else 20
    fns, per = {}, {}
    # the bare and the control step run on the same world (per engine), so their difference is
    # the Python side only, not also a difference between two worlds' states
    w, q, target = _torsion_quadruped()
    fns["torsion bare"] = lambda: w.integrate(steps)
    per["torsion bare"] = steps
    v0 = np.zeros(18)

    def ctrl():
        q.set_pd_target(target, v0)
        w.integrate()
        q.get_generalized_coordinate()
        q.get_generalized_velocity()

    fns["torsion ctrl"] = ctrl

    mujoco = optional_import("mujoco")
    if mujoco is not None:
        m, d = mujoco_quadruped(mujoco)
        fns["mujoco bare"] = lambda: mujoco.mj_step(m, d, nstep=steps)
        per["mujoco bare"] = steps
        stand = STAND.copy()

        def ctrl_mj():
            d.ctrl[:] = stand
            mujoco.mj_step(m, d)
            d.qpos.copy()
            d.qvel.copy()

        fns["mujoco ctrl"] = ctrl_mj
        # MuJoCo's implicitfast treats the actuators' and joints' damping implicitly, as
        # torsion's implicit PD does; its Euler (the default, the row above) is explicit in them
        # and, like torsion before its midpoint velocity terms, in the Coriolis terms
        m_if, d_if = mujoco_quadruped(mujoco, integrator=mujoco.mjtIntegrator.mjINT_IMPLICITFAST)
        fns["mujoco-implicitfast bare"] = lambda: mujoco.mj_step(m_if, d_if, nstep=steps)
        per["mujoco-implicitfast bare"] = steps

    p = optional_import("pybullet")
    cid = None
    if p is not None:
        cid = p.connect(p.DIRECT)
        p.setTimeStep(DT, physicsClientId=cid)
        p.setGravity(0, 0, -9.81, physicsClientId=cid)
        plane = p.createCollisionShape(p.GEOM_PLANE, physicsClientId=cid)
        p.createMultiBody(0, plane, physicsClientId=cid)
        r = p.loadURDF(torsion.robots.urdf_path("quadruped"), [0, 0, START_Z], physicsClientId=cid)
        joints = [j for j in range(p.getNumJoints(r, physicsClientId=cid))
                  if p.getJointInfo(r, j, physicsClientId=cid)[2] == p.JOINT_REVOLUTE]
        for j, a in zip(joints, STAND):
            p.resetJointState(r, j, a, physicsClientId=cid)
        kp, kd = [KP] * 12, [KD] * 12
        targets = list(STAND)
        p.setJointMotorControlArray(r, joints, p.POSITION_CONTROL, targetPositions=targets,
                                    positionGains=kp, velocityGains=kd, physicsClientId=cid)
        for _ in range(SETTLE):
            p.stepSimulation(physicsClientId=cid)

        def ctrl_pb():
            p.setJointMotorControlArray(r, joints, p.POSITION_CONTROL, targetPositions=targets,
                                        positionGains=kp, velocityGains=kd, physicsClientId=cid)
            p.stepSimulation(physicsClientId=cid)
            p.getJointStates(r, joints, physicsClientId=cid)
            p.getBaseVelocity(r, physicsClientId=cid)

        fns["pybullet ctrl"] = ctrl_pb

    samples: dict = {}
    t = interleaved_us(fns, rounds, per_call=per, samples=samples)
    if cid is not None:
        p.disconnect(cid)
    wl = "quadruped 12-DoF standing on the ground, PD in engine, dt 1 ms: in-engine loop"
    wc = "quadruped: control step from Python (12 targets, step, read q v)"
    wo = "quadruped: Python overhead of a control step above the bare step"
    for eng in ("torsion", "mujoco"):
        if f"{eng} bare" not in t:
            continue
        note = "Newton, contacts robot-vs-plane" if eng == "mujoco" else "bisection, contacts robot-vs-ground"
        out += [Result(wl, eng, 1e6 / t[f"{eng} bare"], "steps/s", note=note),
                Result(wc, eng, 1e6 / t[f"{eng} ctrl"], "steps/s"),
                Result(wo, eng, t[f"{eng} ctrl"] - t[f"{eng} bare"], "us", higher_is_better=False,
                       note="median of the per-round differences: "
                            f"{paired_overhead_us(samples, f'{eng} ctrl', f'{eng} bare'):.2f} us")]
    if "mujoco-implicitfast bare" in t:
        out.append(Result(wl, "mujoco-implicitfast", 1e6 / t["mujoco-implicitfast bare"],
                          "steps/s", note="integrator implicitfast, Newton"))
    if "pybullet ctrl" in t:
        out.append(Result(wc, "pybullet", 1e6 / t["pybullet ctrl"], "steps/s", note="POSITION_CONTROL"))
    return out


# Walking in place: a trot (diagonal pairs FR+RL, FL+RR in antiphase) at 2 Hz, each foot lifted by
# a half-sine on its thigh (+0.3 rad) and calf (-0.6 rad) targets; the targets change every
# CONTROL_EVERY steps (100 Hz control), the same schedule on every engine.
CONTROL_EVERY = 10
_TROT_AMP = np.tile([0.0, 0.3, -0.6], 4)
_TROT_PHASE = np.repeat([0.0, np.pi, np.pi, 0.0], 3)  # FR, FL, RR, RL


def trot_targets(step: int) -> np.ndarray:
    """The 12 joint targets of the trot in place at step `step` (dt = DT)."""
    s = np.sin(2.0 * np.pi * 2.0 * step * DT + _TROT_PHASE)
    return STAND + _TROT_AMP * np.maximum(s, 0.0)


def robot_files() -> list[tuple[str, str | None]]:
    """(label, URDF) of the quadrupeds to run: the bundled one (None) and, when pybullet_data is
    installed, its Unitree A1 (a1/a1.urdf: 12 revolute joints, collision boxes and spheres)."""
    out: list[tuple[str, str | None]] = [("quadruped", None)]
    pybullet_data = optional_import("pybullet_data")
    if pybullet_data is not None:
        import os

        a1 = os.path.join(pybullet_data.getDataPath(), "a1", "a1.urdf")
        if os.path.isfile(a1):
            out.append(("A1", a1))
    return out


def _gaits(quick: bool) -> list[Result]:
    """Each quadruped standing and walking in place (trot_targets), in-engine loops of
    CONTROL_EVERY steps per control call, against MuJoCo (default Euler) on the same URDF."""
    mujoco = optional_import("mujoco")
    if mujoco is None:
        return []
    out = []
    # many short timed runs (5 control calls, 50 steps: a fraction of a millisecond), the best
    # kept: on a loaded machine a short run often goes uninterrupted, a long one seldom does
    rounds = 30 if quick else 400
    calls = 5
    for label, urdf in robot_files():
        for gait in ("standing", "walking in place"):
            w, q, gc = _torsion_quadruped(urdf=urdf)
            m, d = mujoco_quadruped(mujoco, urdf=urdf)
            target, v0 = gc.copy(), np.zeros(q.get_dof())
            step = {"torsion": 0, "mujoco": 0}
            walk = gait != "standing"

            def run_torsion():
                for _ in range(calls):
                    if walk:
                        target[7:] = trot_targets(step["torsion"])
                        q.set_pd_target(target, v0)
                    w.integrate(CONTROL_EVERY)
                    step["torsion"] += CONTROL_EVERY

            def run_mujoco():
                for _ in range(calls):
                    if walk:
                        d.ctrl[:] = trot_targets(step["mujoco"])
                    mujoco.mj_step(m, d, nstep=CONTROL_EVERY)
                    step["mujoco"] += CONTROL_EVERY

            n = calls * CONTROL_EVERY
            t = interleaved_us({"torsion": run_torsion, "mujoco": run_mujoco}, rounds,
                               min_time=0.0, per_call={"torsion": n, "mujoco": n})
            wl = (f"{label} {gait}, PD in engine, dt 1 ms, targets every {CONTROL_EVERY} steps "
                  "(in-engine loop)")
            out += [Result(wl, "torsion", 1e6 / t["torsion"], "steps/s",
                           note=f"base z {q.get_generalized_coordinate()[2]:.3f} m"),
                    Result(wl, "mujoco", 1e6 / t["mujoco"], "steps/s",
                           note=f"Euler, Newton; base z {d.qpos[2]:.3f} m")]
    return out


def _arm(quick: bool) -> list[Result]:
    out = []
    rounds = 3 if quick else 10
    w = torsion.World()
    arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    q = np.array([0.1, 0.5, -0.3, -1.0, 0.2, 0.4, 0.3])
    wj = "arm 7-DoF: tool frame Jacobian from a configuration, per call from Python"
    wm = "arm 7-DoF: mass matrix from a configuration, per call from Python"

    def jac():
        arm.set_generalized_coordinate(q)
        arm.get_dense_frame_jacobian("tool_joint")

    def mass():
        arm.set_generalized_coordinate(q)
        arm.get_mass_matrix()

    fns = {"torsion jac": jac, "torsion mass": mass}
    pin = optional_import("pinocchio")
    if pin is not None:
        model = pin.buildModelFromUrdf(torsion.robots.urdf_path("arm7"))
        data = model.createData()
        fid = model.getFrameId("tool_joint")
        ref = pin.LOCAL_WORLD_ALIGNED
        fns["pinocchio jac"] = lambda: pin.computeFrameJacobian(model, data, q, fid, ref)
        fns["pinocchio mass"] = lambda: pin.crba(model, data, q)
    t = interleaved_us(fns, rounds)
    for eng in ("torsion", "pinocchio"):
        if f"{eng} jac" in t:
            out += [Result(wj, eng, t[f"{eng} jac"], "us", higher_is_better=False),
                    Result(wm, eng, t[f"{eng} mass"], "us", higher_is_better=False)]
    n = 20000 if quick else 100000
    cj = min(arm.benchmark_frame_jacobian("tool_joint", n) for _ in range(rounds))
    cm = min(arm.benchmark_mass_matrix(n) for _ in range(rounds))
    out += [Result("arm 7-DoF: FK + tool frame Jacobian in C++ (loop)", "torsion", cj, "us", higher_is_better=False,
                   note="Pinocchio C++ 0.41 us in peer_figures.md (other run)"),
            Result("arm 7-DoF: FK + mass matrix (CRBA) in C++ (loop)", "torsion", cm, "us", higher_is_better=False)]
    return out


def benchmarks(quick: bool) -> list[Result]:
    return _arm(quick) + _quadruped(quick) + _gaits(quick)
