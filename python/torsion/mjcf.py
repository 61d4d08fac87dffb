"""MJCF models: ``World.load_mjcf_file(path)`` returns an :class:`MjcfModel`, the articulated
systems the file made and its joint actuators, driven in MuJoCo's actuator order.

The file is read in C++ (cpp/io/mjcf_load.cpp; what is read: docs/robot_files.md). Actuators:
``motor`` (force = gear ctrl), ``position`` (force = kp (ctrl - gear q) - kv gear qdot) and
``velocity`` (force = kv (ctrl - gear qdot)), each applied as the generalized force gear * force,
as MuJoCo does. torsion applies position and velocity actuators as its PD controller (gains
gear^2 kp and gear^2 kv, targets ctrl / gear), which computes the same force from the state at
the end of the step (implicitly) rather than at its start. ``ctrlrange`` clamps the control when
limited; ``forcerange`` becomes the dof's effort limit (torsion clamps the total actuator force,
feedforward plus PD, symmetrically: the larger bound of the range) when limited.

Joint springs (``stiffness``, ``springref`` of hinge and slide joints: torque -stiffness (q -
springref)) are part of the same PD law: on a dof with a spring and a position actuator the
gains add and the target is their weighted mean, the same torque for every q.
"""

from __future__ import annotations

from typing import List

import numpy as np

from ._core import ArticulatedSystem, ControlMode, World


class MjcfModel:
    """The systems and actuators of one MJCF file loaded into a World."""

    def __init__(self, world: World, systems: List[ArticulatedSystem], actuators: List[dict],
                 springs=None, tendons=None):
        self.world = world
        self.systems = list(systems)
        self.actuators = list(actuators)
        # the file's <tendon> elements (torsion.Tendon, in file order); a motor on a tendon
        # (actuator["tendon"]) sets that tendon's actuator force
        self.tendons = list(tendons or [])
        # per system: (stiffness, springref, ref) per dof, springref in torsion's coordinates
        # (MuJoCo's minus ref); ref maps an actuator's length (gear times MuJoCo's qpos)
        zero = [np.zeros(s.get_dof()) for s in self.systems]
        self.springs = [tuple(np.asarray(v, dtype=float) for v in t)
                        for t in (springs or [(z, z, z) for z in zero])]
        for s in self.systems:
            s.set_control_mode(ControlMode.PD_PLUS_FEEDFORWARD_TORQUE)
        # forcerange: effort limits, clamped
        for k, s in enumerate(self.systems):
            limits = np.full(s.get_dof(), np.inf)
            clamp = False
            for a in self.actuators:
                if a.get("tendon") is None and a["system"] == k and a["forcerange"] is not None:
                    lo, hi = a["forcerange"]
                    limits[a["dof"]] = max(abs(lo), abs(hi)) * abs(a["gear"]) or np.inf
                    clamp = True
            if clamp:
                s.set_effort_limits(limits)
                s.set_clamp_to_effort_limits(True)
        self.set_control(np.zeros(self.nu))

    @property
    def nu(self) -> int:
        """The number of actuators (MuJoCo's model.nu)."""
        return len(self.actuators)

    def actuator_names(self) -> List[str]:
        return [a["name"] for a in self.actuators]

    def set_control(self, ctrl) -> None:
        """Set every actuator's control, in MuJoCo's actuator order (MjData.ctrl); held until
        changed. ValueError for a wrong shape or a non-finite value."""
        c = np.asarray(ctrl, dtype=float)
        if c.shape != (self.nu,):
            raise ValueError(f"ctrl must have shape ({self.nu},), got {c.shape}")
        if not np.all(np.isfinite(c)):
            raise ValueError("ctrl must be finite")
        per = []
        for s, (k, ref, _) in zip(self.systems, self.springs):
            # kp_q accumulates kp * target, so that springs and position actuators combine
            per.append(dict(tau=np.zeros(s.get_dof()), kp=k.copy(), kp_q=k * ref,
                            kd=np.zeros(s.get_dof()), q=s.get_generalized_coordinate().copy(),
                            v=np.zeros(s.get_dof()), s=s))
        for a, value in zip(self.actuators, c):
            if a["ctrlrange"] is not None:
                value = min(max(value, a["ctrlrange"][0]), a["ctrlrange"][1])
            if a.get("tendon") is not None:  # a motor on a tendon: gear * force along it
                force = value
                if a["forcerange"] is not None:
                    force = min(max(force, a["forcerange"][0]), a["forcerange"][1])
                a["tendon"].set_actuator_force(a["gear"] * force)
                continue
            p = per[a["system"]]
            g, dof = a["gear"], a["dof"]
            if a["type"] == "motor":
                force = value
                if a["forcerange"] is not None:
                    force = min(max(force, a["forcerange"][0]), a["forcerange"][1])
                p["tau"][dof] += g * force
            elif a["type"] == "position":
                p["kp"][dof] += g * g * a["kp"]
                # MuJoCo's length is gear * qpos, and torsion's q is qpos - ref
                p["kp_q"][dof] += g * g * a["kp"] * (value / g - self.springs[a["system"]][2][dof])
                p["kd"][dof] += g * g * a["kv"]
            else:  # velocity
                p["kd"][dof] += g * g * a["kv"]
                p["v"][dof] = value / g
        for p in per:
            for dof in np.nonzero(p["kp"])[0]:
                p["q"][self._gc_index(p["s"], int(dof))] = p["kp_q"][dof] / p["kp"][dof]
            p["s"].set_pd_gains(p["kp"], p["kd"])
            p["s"].set_pd_target(p["q"], p["v"])
            p["s"].set_generalized_force(p["tau"])

    @staticmethod
    def _gc_index(system: ArticulatedSystem, dof: int) -> int:
        for j in system.get_joints():
            if j["gv_index"] <= dof < j["gv_index"] + j["gv_size"]:
                return j["gc_index"] + (dof - j["gv_index"])
        raise IndexError(dof)


def load_mjcf_file(world: World, path, ignore_unsupported: bool = False) -> MjcfModel:
    """Load a MuJoCo MJCF file into ``world`` (the seed's loadMjcfFile): every subtree of
    <worldbody> with joints becomes an ArticulatedSystem (a free joint gives a floating base
    placed at the body's pose), worldbody geoms static objects, planes grounds; <option> timestep
    and gravity are applied. Returns an :class:`MjcfModel` (its systems, in file order, and its
    actuators, and ``tendons``: its <tendon> elements as torsion.Tendon, motors on tendons
    driving them; joint and tendon equalities become tendon couplings). An element torsion cannot
    simulate (connect and weld equalities, flex, hfield files, other
    actuator kinds) raises ValueError naming it, unless ``ignore_unsupported=True``, which
    warns (torsion.MJCFWarning) and leaves it out. See docs/robot_files.md."""
    systems, actuators, springs, tendons = world._load_mjcf_file(path, ignore_unsupported)
    return MjcfModel(world, systems, actuators, springs, tendons)
