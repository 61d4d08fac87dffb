"""Articulated systems: a quadruped stepping under PD, and the Jacobian / mass matrix of a 7-DoF
arm, side by side with MuJoCo, PyBullet and Pinocchio in one run.

Workloads (all single-threaded, one world):
- quadruped (torsion.robots "quadruped", 12 revolute joints, floating base), PD in the engine
  (kp 50, kd 1 on every joint), dt 1 ms. NO CONTACTS on any side yet (torsion's contact solver is
  not merged): the robot hangs in free fall, MuJoCo runs with contacts disabled, PyBullet has no
  ground. MuJoCo compiles the same URDF with mujoco.MjSpec, adds a free joint and 12 position
  actuators; PyBullet uses POSITION_CONTROL.
  * "in-engine loop": torsion World.integrate(n) / mujoco.mj_step(m, d, nstep=n).
  * "control step from Python": set 12 targets, step once, read q and v (fresh arrays).
  * Python overhead = control step time - in-engine step time, per engine.
- arm ("arm7"), frame Jacobian of the tool frame and the mass matrix, from a configuration:
  torsion set_generalized_coordinate + get_dense_frame_jacobian / get_mass_matrix versus
  pinocchio.computeFrameJacobian / pinocchio.crba. In C++: torsion's benchmark_* helpers (a C++
  loop of forward kinematics + Jacobian, or + CRBA). Pinocchio's C++ cannot be timed from here;
  peer_figures.md gives 0.41 us for its Jacobian (another run, so no ratio is printed).
"""

from __future__ import annotations

import numpy as np

import torsion
from benchmarks._common import Result, optional_import, time_per_call_us

KP, KD, DT = 50.0, 1.0, 1e-3
STAND = np.tile([0.0, 0.8, -1.5], 4)


def _torsion_quadruped():
    w = torsion.World()
    w.set_time_step(DT)
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[2] = 0.3
    gc[7:] = STAND
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, KP), np.full(18, KD))
    q.set_pd_target(gc, np.zeros(18))
    return w, q, gc


def _mujoco_quadruped(mujoco):
    spec = mujoco.MjSpec.from_file(torsion.robots.urdf_path("quadruped"))
    spec.option.timestep = DT
    spec.worldbody.first_body().add_freejoint()
    names = [j.name for j in spec.joints if j.name and j.type != mujoco.mjtJoint.mjJNT_FREE]
    for n in names:
        act = spec.add_actuator(name=n + "_pd", target=n, trntype=mujoco.mjtTrn.mjTRN_JOINT)
        act.gainprm[0] = KP
        act.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        act.biasprm[0:3] = [0.0, -KP, -KD]
    m = spec.compile()
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    d = mujoco.MjData(m)
    d.qpos[2] = 0.3
    d.qpos[7:] = STAND
    d.ctrl[:] = STAND
    return m, d


def _quadruped(quick: bool) -> list[Result]:
    out = []
    steps = 2000 if quick else 20000
    rt = 2 if quick else 5
    w, q, target = _torsion_quadruped()
    v0 = np.zeros(18)
    t_bare = time_per_call_us(lambda: w.integrate(steps), repeats=rt) / steps
    w, q, target = _torsion_quadruped()

    def ctrl():
        q.set_pd_target(target, v0)
        w.integrate()
        q.get_generalized_coordinate()
        q.get_generalized_velocity()

    t_ctrl = time_per_call_us(ctrl, repeats=rt)
    wl = "quadruped 12-DoF, PD in engine, dt 1 ms, no contacts: in-engine loop"
    wc = "quadruped: control step from Python (12 targets, step, read q v)"
    wo = "quadruped: Python overhead of a control step above the bare step"
    out += [Result(wl, "torsion", 1e6 / t_bare, "steps/s"), Result(wc, "torsion", 1e6 / t_ctrl, "steps/s"),
            Result(wo, "torsion", t_ctrl - t_bare, "us", higher_is_better=False)]

    mujoco = optional_import("mujoco")
    if mujoco is not None:
        m, d = _mujoco_quadruped(mujoco)
        t_bare_mj = time_per_call_us(lambda: mujoco.mj_step(m, d, nstep=steps), repeats=rt) / steps
        m, d = _mujoco_quadruped(mujoco)
        stand = STAND.copy()

        def ctrl_mj():
            d.ctrl[:] = stand
            mujoco.mj_step(m, d)
            d.qpos.copy()
            d.qvel.copy()

        t_ctrl_mj = time_per_call_us(ctrl_mj, repeats=rt)
        out += [Result(wl, "mujoco", 1e6 / t_bare_mj, "steps/s", note="contacts disabled"),
                Result(wc, "mujoco", 1e6 / t_ctrl_mj, "steps/s"),
                Result(wo, "mujoco", t_ctrl_mj - t_bare_mj, "us", higher_is_better=False)]

    p = optional_import("pybullet")
    if p is not None:
        cid = p.connect(p.DIRECT)
        p.setTimeStep(DT, physicsClientId=cid)
        p.setGravity(0, 0, -9.81, physicsClientId=cid)
        r = p.loadURDF(torsion.robots.urdf_path("quadruped"), [0, 0, 0.3], physicsClientId=cid)
        joints = [j for j in range(p.getNumJoints(r, physicsClientId=cid))
                  if p.getJointInfo(r, j, physicsClientId=cid)[2] == p.JOINT_REVOLUTE]
        for j, a in zip(joints, STAND):
            p.resetJointState(r, j, a, physicsClientId=cid)
        kp, kd = [KP] * 12, [KD] * 12
        targets = list(STAND)

        def ctrl_pb():
            p.setJointMotorControlArray(r, joints, p.POSITION_CONTROL, targetPositions=targets,
                                        positionGains=kp, velocityGains=kd, physicsClientId=cid)
            p.stepSimulation(physicsClientId=cid)
            p.getJointStates(r, joints, physicsClientId=cid)
            p.getBaseVelocity(r, physicsClientId=cid)

        t_pb = time_per_call_us(ctrl_pb, repeats=rt)
        out.append(Result(wc, "pybullet", 1e6 / t_pb, "steps/s", note="POSITION_CONTROL"))
        p.disconnect(cid)
    return out


def _arm(quick: bool) -> list[Result]:
    out = []
    rt = 3 if quick else 5
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

    out += [Result(wj, "torsion", time_per_call_us(jac, repeats=rt), "us", higher_is_better=False),
            Result(wm, "torsion", time_per_call_us(mass, repeats=rt), "us", higher_is_better=False)]
    n = 20000 if quick else 200000
    cj = min(arm.benchmark_frame_jacobian("tool_joint", n) for _ in range(rt))
    cm = min(arm.benchmark_mass_matrix(n) for _ in range(rt))
    out += [Result("arm 7-DoF: FK + tool frame Jacobian in C++ (loop)", "torsion", cj, "us", higher_is_better=False,
                   note="Pinocchio C++ 0.41 us in peer_figures.md (other run)"),
            Result("arm 7-DoF: FK + mass matrix (CRBA) in C++ (loop)", "torsion", cm, "us", higher_is_better=False)]

    pin = optional_import("pinocchio")
    if pin is not None:
        model = pin.buildModelFromUrdf(torsion.robots.urdf_path("arm7"))
        data = model.createData()
        fid = model.getFrameId("tool_joint")
        ref = pin.LOCAL_WORLD_ALIGNED
        out += [Result(wj, "pinocchio", time_per_call_us(lambda: pin.computeFrameJacobian(model, data, q, fid, ref),
                                                         repeats=rt), "us", higher_is_better=False),
                Result(wm, "pinocchio", time_per_call_us(lambda: pin.crba(model, data, q), repeats=rt), "us",
                       higher_is_better=False)]
    return out


def benchmarks(quick: bool) -> list[Result]:
    return _arm(quick) + _quadruped(quick)
