"""Bridges from simulated robots to IK environments.

``Environment.from_articulated_system(system, tip_frame, base_frame=None)`` reads the kinematic
tree of a torsion ArticulatedSystem (``system.get_joints()``, ``system.get_frame_placement()``)
and builds, with ``Environment.from_chain``, one IK chain from the base to the tip frame: every
revolute or prismatic joint on the path, with its URDF origin, axis and limits. The IK base sits
where the chain's base is in the world now (for a floating-base robot, at the base's current
pose), so targets are world-frame poses. ``from_urdf`` does the same for a URDF file or string.

The environment remembers which gc entries its joints are (``env.system_gc_indices``), so a
result goes back to the robot with ``env.apply(system, q)`` (as its state) or
``env.apply(system, q, as_pd_target=True)``.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import _rotations as rot
from ._constants import Constraint, JointType


def _body_world_pose(system, joints, body: int):
    """World (position, rotation) of a body's frame (the child frame of its joint)."""
    if body < 0:
        return np.zeros(3), np.eye(3)
    name = joints[body]["joint"]
    return system.get_frame_position(name), system.get_frame_orientation(name)


def chain_from_system(system, tip_frame: str, base_frame: Optional[str] = None):
    """The ChainJoints, tip placement, base pose and gc indices of the path base -> tip."""
    from ._api import ChainJoint

    joints = system.get_joints()
    tip_body, tip_p, tip_r = system.get_frame_placement(tip_frame)
    if base_frame is not None:
        base_body, base_p, base_r = system.get_frame_placement(base_frame)
    else:
        base_body, base_p, base_r = -1, np.zeros(3), np.eye(3)

    # bodies from the tip up to (not including) the base body
    path = []
    b = tip_body
    while b != base_body:
        if b < 0:
            raise ValueError(f"base_frame '{base_frame}' is not on the path from the root to tip_frame '{tip_frame}'")
        path.append(b)
        b = joints[b]["parent"]
    path.reverse()
    # the chain starts below the last body that does not move with IK joints: the root (fixed or
    # floating) or the base frame's body
    movable = [k for k in path if joints[k]["type"] in ("revolute", "prismatic")]
    for k in path:
        t = joints[k]["type"]
        if t == "spherical":
            raise ValueError(
                f"joint '{joints[k]['joint']}' on the path to '{tip_frame}' is spherical: the IK bridge "
                "supports revolute and prismatic joints only"
            )
    if not movable:
        raise ValueError(f"no revolute or prismatic joint between the base and tip_frame '{tip_frame}'")
    first = path.index(movable[0])
    # everything before the first movable joint is rigid: fold it into the base pose
    anchor_body = joints[movable[0]]["parent"]
    if base_frame is None or anchor_body != base_body:
        base_pos, base_rot = _body_world_pose(system, joints, anchor_body)
        rel_p, rel_r = np.zeros(3), np.eye(3)
    else:
        # the base frame's own world pose; the first joint is placed relative to it
        body_p, body_r = _body_world_pose(system, joints, base_body)
        base_pos, base_rot = body_p + body_r @ base_p, body_r @ base_r
        rel_p, rel_r = base_p, base_r
    if any(joints[k]["type"] not in ("revolute", "prismatic") for k in path[first:]):
        bad = next(joints[k]["joint"] for k in path[first:] if joints[k]["type"] not in ("revolute", "prismatic"))
        raise ValueError(f"joint '{bad}' between the base and tip_frame '{tip_frame}' is not revolute or prismatic")

    limits = system.get_joint_limits()
    chain, gc_indices = [], []
    for i, k in enumerate(movable):
        j = joints[k]
        p, r = np.asarray(j["position"]), np.asarray(j["rotation"])
        if i == 0:  # relative to the base (frame) instead of the parent body
            p, r = rel_r.T @ (p - rel_p), rel_r.T @ r
        lo, hi = limits[j["gv_index"]]
        prismatic = j["type"] == "prismatic"
        lower = None if not np.isfinite(lo) or not np.isfinite(hi) else float(lo)
        upper = None if lower is None else float(hi)
        if prismatic and lower is None:
            raise ValueError(f"prismatic joint '{j['joint']}' has no limits: the IK chain needs them")
        chain.append(
            ChainJoint(
                position=p,
                quaternion_wxyz=rot.matrix_to_quat(r),
                axis=np.asarray(j["axis"]),
                joint_type=JointType.PRISMATIC if prismatic else JointType.REVOLUTE,
                lower=lower,
                upper=upper,
                name=j["joint"],
            )
        )
        gc_indices.append(j["gc_index"])
    return chain, (tip_p, rot.matrix_to_quat(tip_r)), (base_pos, rot.matrix_to_quat(base_rot)), gc_indices


def from_articulated_system(cls, system, tip_frame: str, base_frame: Optional[str] = None, *,
                            constraints: int = Constraint.POSE):
    chain, (tip_p, tip_q), (base_p, base_q), gc_indices = chain_from_system(system, tip_frame, base_frame)
    env = cls.from_chain(chain, tip_p, tip_q, base_p, base_q, constraints=constraints)
    env.system_gc_indices = list(gc_indices)
    # start from the robot's configuration
    gc = system.get_generalized_coordinate()
    for joint, k in zip(env.chain_joints, gc_indices):
        joint.position = float(gc[k])
    return env


def from_urdf(cls, path_or_string, tip_frame: str, base_frame: Optional[str] = None, *,
              res_path: str = "", fixed_base: Optional[bool] = None, constraints: int = Constraint.POSE):
    import torsion

    world = torsion.World()
    system = world.add_articulated_system(str(path_or_string), res_path=res_path, fixed_base=fixed_base)
    env = from_articulated_system(cls, system, tip_frame, base_frame, constraints=constraints)
    return env


def apply(env, system, q, as_pd_target: bool = False) -> None:
    indices = getattr(env, "system_gc_indices", None)
    if indices is None:
        raise RuntimeError("apply() needs an environment built by from_articulated_system() or from_urdf()")
    q = np.asarray(q, dtype=float)
    if q.shape != (len(indices),):
        raise ValueError(f"q must have shape ({len(indices)},), got shape {q.shape}")
    if not np.all(np.isfinite(q)):
        raise ValueError("q must be finite")
    if as_pd_target:
        gc_ref, gv_ref = system.get_pd_target()
        gc_ref = np.array(gc_ref, dtype=float)
        gc_ref[indices] = q
        system.set_pd_target(gc_ref, gv_ref)
    else:
        gc = system.get_generalized_coordinate()
        gc[indices] = q
        system.set_generalized_coordinate(gc)
