"""Build an IK environment from a serial chain description (URDF-style joints).

Coppelia joints move about/along their own z axis, so each joint frame is the URDF joint frame
rotated by A (the minimal rotation taking z onto the joint axis); the next link sees the joint's
full frame rotated back by A^-1, so every link frame equals the URDF link frame.
"""

from __future__ import annotations

import numpy as np

from . import _rotations as rot
from ..rotations import _vector as _check_vec  # shape (n,) and finite, or ValueError
from ._constants import JointType


def _compose(pa, qa, pb, qb):
    return pa + rot.rotate(qa, pb), rot.quat_mul(qa, qb)


def build_chain(env, joints, tip_position, tip_quaternion, base_position, base_quaternion,
                constraints):
    from ._api import ChainJoint, Element  # noqa: F401  (types for readers)

    if len(joints) == 0:
        raise ValueError("joints must hold at least one ChainJoint")
    base = env.create_dummy("base")
    base.set_transformation(_check_vec(base_position, 3, "base_position"),
                            _check_vec(base_quaternion, 4, "base_quaternion_wxyz"))
    parent = base
    undo = np.array([1.0, 0.0, 0.0, 0.0])  # A^-1 of the previous joint
    made = []
    for i, cj in enumerate(joints):
        p = _check_vec(cj.position, 3, f"joints[{i}].position")
        q = _check_vec(cj.quaternion_wxyz, 4, f"joints[{i}].quaternion_wxyz")
        q = rot.unit(q, f"joints[{i}].quaternion_wxyz")
        axis = rot.unit(_check_vec(cj.axis, 3, f"joints[{i}].axis"), f"joints[{i}].axis")
        jt = int(cj.joint_type)
        if jt not in (JointType.REVOLUTE, JointType.PRISMATIC):
            raise ValueError(f"joints[{i}].joint_type must be REVOLUTE or PRISMATIC, got {jt}")
        align = rot.quat_z_to(axis)
        lp, lq = _compose(np.zeros(3), undo, p, q)
        lp, lq = _compose(lp, lq, np.zeros(3), align)
        j = env.create_joint(cj.name or f"joint{i + 1}", jt)
        j.set_parent(parent, keep_in_place=False)
        j.set_transformation(lp, lq, relative_to="parent")
        if (cj.lower is None) != (cj.upper is None):
            raise ValueError(f"joints[{i}]: give both lower and upper limits, or neither")
        if cj.lower is None:
            if jt == JointType.PRISMATIC:
                raise ValueError(f"joints[{i}]: a prismatic joint needs lower and upper limits")
            j.set_interval(True)
        else:
            if not cj.upper >= cj.lower:
                raise ValueError(f"joints[{i}]: upper ({cj.upper}) must be >= lower ({cj.lower})")
            j.set_interval(False, float(cj.lower), float(cj.upper - cj.lower))
            j.position = min(max(0.0, cj.lower), cj.upper)
        made.append(j)
        parent = j
        undo = rot.quat_conj(align)
    tip = env.create_dummy("tip")
    tip.set_parent(parent, keep_in_place=False)
    tp, tq = _compose(np.zeros(3), undo, _check_vec(tip_position, 3, "tip_position"),
                      _check_vec(tip_quaternion, 4, "tip_quaternion_wxyz"))
    tip.set_transformation(tp, tq, relative_to="parent")
    target = env.create_dummy("target")
    p, q = tip.get_transformation()
    target.set_transformation(p, q)
    tip.linked_dummy = target
    group = env.create_ik_group("chain")
    el = group.add_element(tip)
    el.set_base(base)
    el.constraints = constraints
    env.chain_group = group
    env.chain_joints = made
    env.tip = tip
    env.target = target
    env.base = base
    return env
