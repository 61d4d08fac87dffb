"""Shared fixtures for the IK tests: the 7-DoF iiwa-like arm, a mixed-joint test scene, and a
central-finite-difference Jacobian computed only from object poses (no solver code)."""

from __future__ import annotations

import numpy as np

from torsion.robots import iiwa_like
import pytest

import torsion.ik as ik
from torsion.ik import _rotations as rot

# the KUKA LBR iiwa 14-like arm (torsion.robots.iiwa_like)
IIWA_JOINTS, IIWA_LIMITS, IIWA_TIP = iiwa_like.JOINTS, iiwa_like.LIMITS, iiwa_like.TIP


def iiwa_chain() -> list:
    return [ik.ChainJoint(position=xyz, quaternion_wxyz=rot.quat_from_rpy(*rpy), lower=-lim, upper=lim)
            for (xyz, rpy), lim in zip(IIWA_JOINTS, IIWA_LIMITS)]


def iiwa_urdf() -> str:
    return iiwa_like.urdf()


@pytest.fixture
def iiwa_env():
    return ik.Environment.from_chain(iiwa_chain(), tip_position=IIWA_TIP)


def reachable_targets(env, n=100, seed=0):
    """FK of random configurations within the limits: (positions (n,3), quaternions (n,4), qs)."""
    rng = np.random.default_rng(seed)
    ps, qs, cfg = [], [], []
    for _ in range(n):
        q = rng.uniform(-IIWA_LIMITS, IIWA_LIMITS)
        p, quat = env.forward_kinematics(q)
        ps.append(p)
        qs.append(quat)
        cfg.append(q)
    env.forward_kinematics(np.zeros(7))
    return np.array(ps), np.array(qs), np.array(cfg)


# ---- finite differences from poses only ----

def rotvec(q) -> np.ndarray:
    """Log map of a unit quaternion (w, x, y, z) -> rotation vector."""
    q = np.asarray(q, dtype=float)
    if q[0] < 0:
        q = -q
    s = np.linalg.norm(q[1:])
    if s < 1e-12:
        return 2.0 * q[1:] / q[0]
    return q[1:] * (2.0 * np.arctan2(s, q[0]) / s)


def relative_tip(env, tip, cbase):
    """Tip pose relative to the constraint base (world if None)."""
    return tip.get_transformation(relative_to=cbase)


def rows_from(dp, dr, constraints):
    out = [dp[k] for k in range(3) if constraints & (1 << k)]
    if constraints & ik.Constraint.ALPHA_BETA:
        out += [dr[0], dr[1]]
    if constraints & ik.Constraint.GAMMA:
        out.append(dr[2])
    return out


def fd_jacobian(env, group, h=1e-6):
    """Central differences of each enabled element's tip pose relative to its constraint base,
    perturbing each column joint (spherical: q * exp(+-h e_k)); dependents follow by themselves."""
    columns_h, axes, _ = env._env.group_columns(group.handle_id)
    elements = [e for e in group.elements if e.enabled and e.tip.linked_dummy is not None]
    cols = []
    for h_joint, axis in zip(columns_h, axes):
        j = env._wrap(h_joint)
        plus_minus = []
        for sign in (1.0, -1.0):
            if j.joint_type == ik.JointType.SPHERICAL:
                q0 = j.spherical_quaternion.copy()
                d = np.zeros(3)
                d[axis] = sign * h
                ang = np.linalg.norm(d)
                dq = np.concatenate([[np.cos(ang / 2)], np.sin(ang / 2) * d / ang])
                j.spherical_quaternion = rot.quat_mul(q0, dq)
            else:
                q0 = j.position
                j.position = q0 + sign * h
            plus_minus.append([relative_tip(env, e.tip, e.constraints_base or e.base) for e in elements])
            if j.joint_type == ik.JointType.SPHERICAL:
                j.spherical_quaternion = q0
            else:
                j.position = q0
        base_poses = [relative_tip(env, e.tip, e.constraints_base or e.base) for e in elements]
        col = []
        for k, e in enumerate(elements):
            (pp, qp), (pm, qm) = plus_minus[0][k], plus_minus[1][k]
            p0, q0r = base_poses[k]
            dp = (pp - pm) / (2 * h)
            dr = (rotvec(rot.quat_mul(rot.quat_conj(q0r), qp)) -
                  rotvec(rot.quat_mul(rot.quat_conj(q0r), qm))) / (2 * h)
            col += rows_from(dp, dr, int(e.constraints))
        cols.append(col)
    return np.array(cols).T


@pytest.fixture
def ikh():
    """The helpers above, for test modules (conftest itself is not importable under
    --import-mode=importlib)."""
    import types

    return types.SimpleNamespace(
        fd_jacobian=fd_jacobian, rotvec=rotvec, iiwa_chain=iiwa_chain, iiwa_urdf=iiwa_urdf,
        reachable_targets=reachable_targets, IIWA_LIMITS=IIWA_LIMITS, IIWA_TIP=IIWA_TIP)
