"""IK benchmarks: torsion.ik against Pinocchio, ikpy and PyBullet on one 7-DoF arm.

Workloads (one run, side by side):
- "IK 7-DoF, 100 reachable 6-D targets, median per solve": targets are the forward kinematics of
  random configurations within the limits (seed 0); every solver starts from q = 0 for every
  target. Success = position error < 1 mm and orientation error < 0.01 rad, measured with one
  forward-kinematics oracle (Pinocchio when installed, else torsion) on the returned joints.
  torsion: Environment.solve (local DLS, seeded restarts). Pinocchio: a damped-least-squares
  Newton loop in Python (log6 error in the tip frame, LOCAL frame Jacobian, step 1, lambda^2 =
  1e-3 (1e-6 oscillated more), joint limits clamped, up to 200 iterations, stop at |err| < 1e-5). ikpy:
  Chain.inverse_kinematics(orientation_mode="all"). PyBullet: calculateInverseKinematics
  (plain solver, no limits: its null-space variant with limits did worse on this set), 200
  iterations, residual threshold 1e-6, joints reset to 0 before each target.
- "Jacobian 7-DoF chain per call (set q, compute, return array)": torsion Group.jacobian(q) (a
  fresh array) and Group.jacobian(q, out=J) (into a preallocated array) vs
  pinocchio.computeFrameJacobian(model, data, q, frame) (FK included in all). Timings alternate
  short rounds of each so that machine load hits them alike.

The arm is KUKA LBR iiwa 14-like (same table as tests/ik/conftest.py), generated as a URDF for
the peers and built with Environment.from_chain for torsion.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

import numpy as np

from torsion.robots import iiwa_like

from torsion.bench._common import Result, optional_import

IIWA_JOINTS, IIWA_LIMITS, IIWA_TIP = iiwa_like.JOINTS, iiwa_like.LIMITS, iiwa_like.TIP

IK_WORKLOAD = "IK 7-DoF, 100 reachable 6-D targets, median per solve"
JAC_WORKLOAD = "Jacobian 7-DoF chain per call (set q, compute, return)"


def iiwa_urdf() -> str:
    return iiwa_like.urdf()


def torsion_arm():
    import torsion.ik as ik
    from torsion.ik import _rotations as rot

    chain = [ik.ChainJoint(position=xyz, quaternion_wxyz=rot.quat_from_rpy(*rpy), lower=-lim, upper=lim)
             for (xyz, rpy), lim in zip(IIWA_JOINTS, IIWA_LIMITS)]
    return ik.Environment.from_chain(chain, tip_position=IIWA_TIP)


def quat_to_matrix(q):
    from torsion.ik import _rotations as rot

    return rot.quat_to_matrix(q)


def make_targets(env, n):
    rng = np.random.default_rng(0)
    out = []
    for _ in range(n):
        q = rng.uniform(-IIWA_LIMITS, IIWA_LIMITS)
        p, quat = env.forward_kinematics(q)
        out.append((p.copy(), quat.copy()))
    env.forward_kinematics(np.zeros(7))
    return out


class Oracle:
    """Forward kinematics used to judge every engine's answers."""

    def __init__(self, env):
        self.pin = optional_import("pinocchio")
        self.env = env
        if self.pin is not None:
            self.model = self.pin.buildModelFromXML(iiwa_urdf())
            self.data = self.model.createData()
            self.fid = self.model.getFrameId("link8")

    def errors(self, q, p, quat):
        q = np.asarray(q, dtype=float)
        if self.pin is not None:
            self.pin.framesForwardKinematics(self.model, self.data, q)
            pp, R = self.data.oMf[self.fid].translation, self.data.oMf[self.fid].rotation
        else:
            pp, qq = self.env.forward_kinematics(q)
            R = quat_to_matrix(qq)
        ang = np.arccos(np.clip((np.trace(R.T @ quat_to_matrix(quat)) - 1) / 2, -1, 1))
        return float(np.linalg.norm(pp - p)), float(ang)


def run_solver(name, solve, targets, oracle):
    times, ok = [], 0
    for p, quat in targets:
        t0 = time.perf_counter()
        q = solve(p, quat)
        times.append(time.perf_counter() - t0)
        pe, oe = oracle.errors(q, p, quat)
        ok += pe < 1e-3 and oe < 0.01
    rate = ok / len(targets)
    return Result(IK_WORKLOAD, name, statistics.median(times) * 1e3, "ms", higher_is_better=False,
                  note=f"success {100 * rate:.0f}%", extra={"success_rate": rate})


def bench_torsion(targets, oracle, env):
    q0 = np.zeros(7)
    return run_solver("torsion", lambda p, q: env.solve(p, q, q0).q, targets, oracle)


def bench_pinocchio(targets, oracle):
    pin = optional_import("pinocchio")
    if pin is None:
        return None
    model = pin.buildModelFromXML(iiwa_urdf())
    data = model.createData()
    fid = model.getFrameId("link8")
    lo, hi = model.lowerPositionLimit, model.upperPositionLimit

    def solve(p, quat):
        target = pin.SE3(quat_to_matrix(quat), np.asarray(p))
        q = np.zeros(7)
        for _ in range(200):
            pin.framesForwardKinematics(model, data, q)
            dM = data.oMf[fid].actInv(target)  # current^-1 * desired
            err = pin.log(dM).vector
            if np.linalg.norm(err) < 1e-5:
                break
            J = pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL)
            J = -pin.Jlog6(dM.inverse()) @ J
            v = -J.T @ np.linalg.solve(J @ J.T + 1e-3 * np.eye(6), err)
            q = np.clip(pin.integrate(model, q, v), lo, hi)
        return q

    return run_solver("pinocchio-dls", solve, targets, oracle)


def bench_ikpy(targets, oracle, urdf_path, quick):
    chain_mod = optional_import("ikpy.chain")
    if chain_mod is None:
        return None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chain = chain_mod.Chain.from_urdf_file(urdf_path, base_elements=["link0"])
        mask = [link.joint_type == "revolute" for link in chain.links]
        chain = chain_mod.Chain.from_urdf_file(urdf_path, base_elements=["link0"],
                                               active_links_mask=mask)
    start = np.zeros(len(chain.links))
    idx = [i for i, m in enumerate(mask) if m]

    def solve(p, quat):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            full = chain.inverse_kinematics(target_position=p, target_orientation=quat_to_matrix(quat),
                                            orientation_mode="all", initial_position=start)
        return full[idx]

    return run_solver("ikpy", solve, targets[:20] if quick else targets, oracle)


def bench_pybullet(targets, oracle, urdf_path):
    pb = optional_import("pybullet")
    if pb is None:
        return None
    cid = pb.connect(pb.DIRECT)
    try:
        body = pb.loadURDF(urdf_path, useFixedBase=True, physicsClientId=cid)
        joints = [j for j in range(pb.getNumJoints(body, physicsClientId=cid))
                  if pb.getJointInfo(body, j, physicsClientId=cid)[2] == pb.JOINT_REVOLUTE]
        tool = pb.getNumJoints(body, physicsClientId=cid) - 1

        def solve(p, quat):
            for j in joints:
                pb.resetJointState(body, j, 0.0, physicsClientId=cid)
            xyzw = [quat[1], quat[2], quat[3], quat[0]]
            # the plain solver: its null-space variant (with limits) succeeds far less often here
            q = pb.calculateInverseKinematics(body, tool, list(p), xyzw, maxNumIterations=200,
                                              residualThreshold=1e-6, physicsClientId=cid)
            return np.array(q[:7])

        return run_solver("pybullet", solve, targets, oracle)
    finally:
        pb.disconnect(cid)


def _interleaved_us(fns: dict, rounds: int = 15, calls: int = 20000) -> dict:
    """Per-call microseconds of each callable: the best of `rounds` short rounds, the rounds of
    all callables interleaved (a load spike then slows every contender, not just one)."""
    best = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            best[name] = min(best[name], (time.perf_counter() - t0) / calls * 1e6)
    return best


def bench_jacobian(env, quick=False):
    q = np.full(7, 0.3)
    g = env.chain_group
    out = np.empty((6, 7))
    fns = {"torsion": lambda: g.jacobian(q), "torsion (out=)": lambda: g.jacobian(q, out=out)}
    pin = optional_import("pinocchio")
    if pin is not None:
        model = pin.buildModelFromXML(iiwa_urdf())
        data = model.createData()
        fid = model.getFrameId("link8")
        frame = pin.LOCAL
        fns["pinocchio"] = lambda: pin.computeFrameJacobian(model, data, q, fid, frame)
    us = _interleaved_us(fns, rounds=5 if quick else 15)
    return [Result(JAC_WORKLOAD, name, t, "us/call", higher_is_better=False) for name, t in us.items()]


def benchmarks(quick: bool) -> list[Result]:
    env = torsion_arm()
    targets = make_targets(env, 100)
    oracle = Oracle(torsion_arm())
    results = [bench_torsion(targets, oracle, env)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "iiwa_like.urdf")
        with open(path, "w") as f:
            f.write(iiwa_urdf())
        for r in (bench_pinocchio(targets, oracle), bench_ikpy(targets, oracle, path, quick),
                  bench_pybullet(targets, oracle, path)):
            if r is not None:
                results.append(r)
    results.extend(bench_jacobian(env, quick))
    return results
