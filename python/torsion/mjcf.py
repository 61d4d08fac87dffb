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

Actuators on tendons act along the tendon (gear times the force, along its Jacobian): a
``motor`` as the tendon's actuator force, ``position`` and ``velocity`` by joining the tendon's
own spring-damper (set_properties: stiffness + gear^2 kp, damping + gear^2 kv, the spring length
their weighted mean with the target ctrl / gear; a velocity target's constant part as actuator
force), which torsion applies implicitly. Their ``forcerange`` is applied to motors only.
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
        # the file's <tendon> elements (torsion.Tendon, in file order). An actuator on a tendon
        # (actuator["tendon"]) drives it along its length: a motor as the tendon's actuator
        # force; position and velocity actuators join the tendon's own spring-damper (torsion's
        # implicit one), as joint springs and position actuators join the PD law
        self.tendons = list(tendons or [])
        # per system: (stiffness, springref, ref) per dof, springref in torsion's coordinates
        # (MuJoCo's minus ref); ref maps an actuator's length (gear times MuJoCo's qpos)
        zero = [np.zeros(s.get_dof()) for s in self.systems]
        self.springs = [tuple(np.asarray(v, dtype=float) for v in t)
                        for t in (springs or [(z, z, z) for z in zero])]
        # per driven tendon: its own (stiffness, damping, spring length) and the offset of
        # MuJoCo's length from torsion's (a fixed tendon: sum coef * ref)
        self._tendon_own = {}
        for a in self.actuators:
            t = a.get("tendon")
            if t is None or t.get_id() in self._tendon_own:
                continue
            offset = 0.0
            if t.get_kind() == "fixed":
                for system, joint, coef in t.get_joints():
                    k = next(i for i, s in enumerate(self.systems) if s == system)
                    dof = next(j["gv_index"] for j in system.get_joints() if j["joint"] == joint)
                    offset += coef * self.springs[k][2][dof]
            self._tendon_own[t.get_id()] = (t, t.get_stiffness(), t.get_damping(),
                                            t.get_spring_length(), offset)
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
        tendon_drive = {}
        for s, (k, ref, _) in zip(self.systems, self.springs):
            # kp_q accumulates kp * target, so that springs and position actuators combine
            per.append(dict(tau=np.zeros(s.get_dof()), kp=k.copy(), kp_q=k * ref,
                            kd=np.zeros(s.get_dof()), q=s.get_generalized_coordinate().copy(),
                            v=np.zeros(s.get_dof()), s=s))
        for a, value in zip(self.actuators, c):
            if a["ctrlrange"] is not None:
                value = min(max(value, a["ctrlrange"][0]), a["ctrlrange"][1])
            if a.get("tendon") is not None:  # along the tendon: gear * force
                d = tendon_drive.setdefault(a["tendon"].get_id(), dict(force=0.0, k=0.0, kq=0.0, b=0.0))
                g = a["gear"]
                offset = self._tendon_own[a["tendon"].get_id()][4]
                if a["type"] == "motor":
                    force = value
                    if a["forcerange"] is not None:
                        force = min(max(force, a["forcerange"][0]), a["forcerange"][1])
                    d["force"] += g * force
                elif a["type"] == "position":
                    # MuJoCo's actuator length is gear * (torsion's length + offset)
                    d["k"] += g * g * a["kp"]
                    d["kq"] += g * g * a["kp"] * (value / g - offset)
                    d["b"] += g * g * a["kv"]
                else:  # velocity: kv (ctrl - gear dL/dt), its constant part a force
                    d["b"] += g * g * a["kv"]
                    d["force"] += g * a["kv"] * value
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
        for tid, (t, k_own, b_own, l_own, _) in self._tendon_own.items():
            d = tendon_drive.get(tid, dict(force=0.0, k=0.0, kq=0.0, b=0.0))
            k = k_own + d["k"]
            # the spring length: the stiffness-weighted mean of the tendon's and the targets'
            length = (k_own * l_own + d["kq"]) / k if k > 0.0 else l_own
            t.set_properties(stiffness=k, damping=b_own + d["b"], spring_length=length)
            t.set_actuator_force(d["force"])
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
