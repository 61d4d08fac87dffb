"""The calls of the first hour (#35), side by side with MuJoCo and PyBullet in one run.

Workloads (single-threaded, one world each):
- "12 PD targets + read 12 joint positions": the per-step Python calls of a control loop on the
  bundled quadruped, sized to the actuated joints: torsion set_joint_pd_targets(q) +
  get_joint_positions(); MuJoCo d.ctrl[:] = q (12 position actuators) + d.qpos[7:].copy();
  PyBullet setJointMotorControlArray(POSITION_CONTROL, 12 targets) + getJointStates. No step:
  the cost of the API alone.
- "arm holding a pose under PD with gravity compensation": the bundled 7-DoF arm, dt 1 ms, PD
  kp 600 kd 50 at its pose, every body gravity compensated; torsion set_gravity_compensation(True)
  versus MuJoCo's body gravcomp = 1 (position actuators, implicitfast integrator), steps/s of
  integrate(n) / mj_step(nstep=n). Also the same torsion loop without compensation, for its
  cost.
Engines are timed in alternation and the best round is kept (bench_articulated.interleaved_us).
"""

from __future__ import annotations

import numpy as np

import torsion
from torsion.bench._common import Result, optional_import
from torsion.bench.bench_articulated import interleaved_us, mujoco_quadruped

ARM_POSE = np.array([0.0, 0.9, 0.0, -1.2, 0.0, 0.8, 0.0])
KP, KD, DT = 600.0, 50.0, 0.001


def _commands(quick: bool) -> list[Result]:
    rounds = 3 if quick else 10
    w = torsion.World()
    r = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    targets = np.array(torsion.robots.QUADRUPED_STAND)
    r.set_joint_pd_gains(50.0, 1.0)

    def tor():
        r.set_joint_pd_targets(targets)
        r.get_joint_positions()

    fns = {"torsion": tor}
    mujoco = optional_import("mujoco")
    if mujoco is not None:
        m, d = mujoco_quadruped(mujoco)

        def mj():
            d.ctrl[:] = targets
            d.qpos[7:].copy()

        fns["mujoco"] = mj
    p = optional_import("pybullet")
    cid = None
    if p is not None:
        cid = p.connect(p.DIRECT)
        body = p.loadURDF(torsion.robots.urdf_path("quadruped"), physicsClientId=cid)
        joints = [j for j in range(p.getNumJoints(body, physicsClientId=cid))
                  if p.getJointInfo(body, j, physicsClientId=cid)[2] == p.JOINT_REVOLUTE]
        t_list = list(targets)

        def pb():
            p.setJointMotorControlArray(body, joints, p.POSITION_CONTROL, targetPositions=t_list,
                                        physicsClientId=cid)
            p.getJointStates(body, joints, physicsClientId=cid)

        fns["pybullet"] = pb
    t = interleaved_us(fns, rounds)
    if cid is not None:
        p.disconnect(cid)
    wl = "quadruped: 12 PD targets + read 12 joint positions (no step)"
    return [Result(wl, eng, us, "us", higher_is_better=False) for eng, us in t.items()]


def _gravcomp(quick: bool) -> list[Result]:
    rounds = 3 if quick else 10
    steps = 1000

    def torsion_arm(compensate: bool):
        w = torsion.World()
        w.set_time_step(DT)
        # unclamped, as MuJoCo's actuators here (no force range)
        arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"), clamp_to_effort_limits=False)
        arm.set_generalized_coordinate(ARM_POSE)
        arm.set_joint_pd_gains(KP, KD)
        arm.set_joint_pd_targets(ARM_POSE)
        arm.set_gravity_compensation(compensate)
        return w

    w_on, w_off = torsion_arm(True), torsion_arm(False)
    fns = {"torsion": lambda: w_on.integrate(steps), "torsion-no-gravcomp": lambda: w_off.integrate(steps)}
    mujoco = optional_import("mujoco")
    if mujoco is not None:
        spec = mujoco.MjSpec.from_file(torsion.robots.urdf_path("arm7"))
        spec.option.timestep = DT
        spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
        for b in spec.bodies:
            b.gravcomp = 1.0
        for j in spec.joints:
            if not j.name:
                continue
            act = spec.add_actuator(name=j.name + "_pd", target=j.name, trntype=mujoco.mjtTrn.mjTRN_JOINT)
            act.gainprm[0] = KP
            act.biastype = mujoco.mjtBias.mjBIAS_AFFINE
            act.biasprm[0:3] = [0.0, -KP, -KD]
        m = spec.compile()
        d = mujoco.MjData(m)
        d.qpos[:] = ARM_POSE
        d.ctrl[:] = ARM_POSE
        fns["mujoco"] = lambda: mujoco.mj_step(m, d, nstep=steps)
    t = interleaved_us(fns, rounds)
    wl = "arm 7-DoF holding a pose: PD kp 600 kd 50 + gravity compensation, dt 1 ms, in-engine loop"
    out = []
    for eng, us in t.items():
        note = "MuJoCo body gravcomp=1, implicitfast" if eng == "mujoco" else ""
        out.append(Result(wl, eng, steps * 1e6 / us, "steps/s", note=note))
    return out


def benchmarks(quick: bool) -> list[Result]:
    return _commands(quick) + _gravcomp(quick)
