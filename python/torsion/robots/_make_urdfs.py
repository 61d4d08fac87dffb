"""Regenerate the bundled URDF files of torsion.robots (developer tool, not imported at runtime).

    python python/torsion/robots/_make_urdfs.py

Every link gets the inertia of a uniform solid of its collision shape (box, cylinder, capsule
approximated as a cylinder of the full length, sphere), so the models are physically consistent.
"""

from __future__ import annotations

import math
from pathlib import Path

HERE = Path(__file__).parent


def _f(x: float) -> str:
    return f"{x:.6g}"


def _v(*xs: float) -> str:
    return " ".join(_f(x) for x in xs)


def box_inertia(m, x, y, z):
    return (m * (y * y + z * z) / 12, m * (x * x + z * z) / 12, m * (x * x + y * y) / 12)


def cyl_inertia(m, r, h):  # axis z
    a = m * (3 * r * r + h * h) / 12
    return (a, a, m * r * r / 2)


def sphere_inertia(m, r):
    a = 2 * m * r * r / 5
    return (a, a, a)


def inertial(m, inertia, xyz=(0, 0, 0), rpy=(0, 0, 0)):
    ixx, iyy, izz = inertia
    return (
        f'    <inertial>\n      <origin xyz="{_v(*xyz)}" rpy="{_v(*rpy)}"/>\n'
        f'      <mass value="{_f(m)}"/>\n'
        f'      <inertia ixx="{_f(ixx)}" ixy="0" ixz="0" iyy="{_f(iyy)}" iyz="0" izz="{_f(izz)}"/>\n'
        f"    </inertial>\n"
    )


def geometry(kind, dims):
    if kind == "box":
        return f'<box size="{_v(*dims)}"/>'
    if kind == "sphere":
        return f'<sphere radius="{_f(dims[0])}"/>'
    if kind == "cylinder":
        return f'<cylinder radius="{_f(dims[0])}" length="{_f(dims[1])}"/>'
    if kind == "capsule":
        return f'<capsule radius="{_f(dims[0])}" length="{_f(dims[1])}"/>'
    raise ValueError(kind)


def shapes(kind, dims, xyz=(0, 0, 0), rpy=(0, 0, 0), rgba="0.6 0.6 0.6 1", collide=True):
    g = geometry(kind, dims)
    out = (
        f'    <visual>\n      <origin xyz="{_v(*xyz)}" rpy="{_v(*rpy)}"/>\n'
        f"      <geometry>{g}</geometry>\n"
        f'      <material name="rgba_{rgba.replace(" ", "_")}"><color rgba="{rgba}"/></material>\n'
        f"    </visual>\n"
    )
    if collide:
        out += (
            f'    <collision>\n      <origin xyz="{_v(*xyz)}" rpy="{_v(*rpy)}"/>\n'
            f"      <geometry>{g}</geometry>\n    </collision>\n"
        )
    return out


def link(name, body=""):
    return f'  <link name="{name}">\n{body}  </link>\n'


def joint(name, kind, parent, child, xyz=(0, 0, 0), rpy=(0, 0, 0), axis=None, limit=None,
          damping=None, friction=None):
    s = f'  <joint name="{name}" type="{kind}">\n    <parent link="{parent}"/>\n    <child link="{child}"/>\n'
    s += f'    <origin xyz="{_v(*xyz)}" rpy="{_v(*rpy)}"/>\n'
    if axis is not None:
        s += f'    <axis xyz="{_v(*axis)}"/>\n'
    if limit is not None:
        lo, hi, effort, vel = limit
        lims = "" if lo is None else f'lower="{_f(lo)}" upper="{_f(hi)}" '
        s += f'    <limit {lims}effort="{_f(effort)}" velocity="{_f(vel)}"/>\n'
    if damping is not None or friction is not None:
        s += f'    <dynamics damping="{_f(damping or 0)}" friction="{_f(friction or 0)}"/>\n'
    return s + "  </joint>\n"


def quadruped() -> str:
    """A 12-DoF quadruped of the Unitree A1 class: trunk 6 kg, legs of hip/thigh/calf."""
    out = ['<?xml version="1.0"?>\n<robot name="quadruped">\n']
    tx, ty, tz, tm = 0.267, 0.194, 0.114, 6.0
    out.append(link("trunk", inertial(tm, box_inertia(tm, tx, ty, tz)) + shapes("box", (tx, ty, tz), rgba="0.2 0.2 0.25 1")))
    for leg, sx, sy in (("FR", 1, -1), ("FL", 1, 1), ("RR", -1, -1), ("RL", -1, 1)):
        hm, hr, hl = 0.696, 0.046, 0.04
        out.append(link(f"{leg}_hip", inertial(hm, cyl_inertia(hm, hr, hl), rpy=(math.pi / 2, 0, 0))
                        + shapes("cylinder", (hr, hl), rpy=(math.pi / 2, 0, 0), rgba="0.8 0.3 0.1 1")))
        out.append(joint(f"{leg}_hip_joint", "revolute", "trunk", f"{leg}_hip", xyz=(sx * 0.183, sy * 0.047, 0),
                         axis=(1, 0, 0), limit=(-0.802, 0.802, 33.5, 21.0)))
        tm_, l_ = 1.013, 0.2
        out.append(link(f"{leg}_thigh", inertial(tm_, box_inertia(tm_, 0.03, 0.03, l_), xyz=(0, 0, -l_ / 2))
                        + shapes("box", (0.03, 0.03, l_), xyz=(0, 0, -l_ / 2), rgba="0.8 0.8 0.8 1")))
        out.append(joint(f"{leg}_thigh_joint", "revolute", f"{leg}_hip", f"{leg}_thigh", xyz=(0, sy * 0.08505, 0),
                         axis=(0, 1, 0), limit=(-1.047, 4.189, 33.5, 21.0)))
        cm = 0.166
        out.append(link(f"{leg}_calf", inertial(cm, cyl_inertia(cm, 0.012, l_), xyz=(0, 0, -l_ / 2))
                        + shapes("capsule", (0.012, l_ - 0.04), xyz=(0, 0, -l_ / 2), rgba="0.3 0.3 0.3 1")))
        out.append(joint(f"{leg}_calf_joint", "revolute", f"{leg}_thigh", f"{leg}_calf", xyz=(0, 0, -l_),
                         axis=(0, 1, 0), limit=(-2.697, -0.916, 44.4, 21.0)))
        fm, fr = 0.06, 0.02
        out.append(link(f"{leg}_foot", inertial(fm, sphere_inertia(fm, fr)) + shapes("sphere", (fr,), rgba="0.1 0.1 0.1 1")))
        out.append(joint(f"{leg}_foot_fixed", "fixed", f"{leg}_calf", f"{leg}_foot", xyz=(0, 0, -l_)))
    out.append("</robot>\n")
    return "".join(out)


def arm() -> str:
    """A 7-DoF serial arm of the KUKA iiwa 14 class, fixed to the world."""
    out = ['<?xml version="1.0"?>\n<robot name="arm7">\n', link("world")]
    bm = 5.0
    out.append(link("link_0", inertial(bm, cyl_inertia(bm, 0.1, 0.15), xyz=(0, 0, 0.075))
                    + shapes("cylinder", (0.1, 0.15), xyz=(0, 0, 0.075), rgba="0.9 0.5 0.1 1")))
    out.append(joint("world_joint", "fixed", "world", "link_0"))
    # (offset from the previous joint, axis, mass, length of the link body, limit)
    spec = [
        ((0, 0, 0.1575), (0, 0, 1), 4.0, 0.2025, 2.967),
        ((0, 0, 0.2025), (0, 1, 0), 4.0, 0.2045, 2.094),
        ((0, 0, 0.2045), (0, 0, 1), 3.0, 0.2155, 2.967),
        ((0, 0, 0.2155), (0, -1, 0), 2.7, 0.1845, 2.094),
        ((0, 0, 0.1845), (0, 0, 1), 1.7, 0.2155, 2.967),
        ((0, 0, 0.2155), (0, 1, 0), 1.8, 0.081, 2.094),
        ((0, 0, 0.081), (0, 0, 1), 0.3, 0.045, 3.054),
    ]
    efforts = (320, 320, 176, 176, 110, 40, 40)
    for i, (xyz, axis, m, length, lim) in enumerate(spec, start=1):
        r = 0.06 if i < 6 else 0.04
        out.append(link(f"link_{i}", inertial(m, cyl_inertia(m, r, length), xyz=(0, 0.01, length / 2))
                        + shapes("capsule", (r, length), xyz=(0, 0, length / 2), rgba="0.9 0.5 0.1 1")))
        out.append(joint(f"joint_{i}", "revolute", f"link_{i - 1}", f"link_{i}", xyz=xyz, axis=axis,
                         limit=(-lim, lim, efforts[i - 1], 1.5), damping=0.5))
    out.append(link("tool", inertial(0.2, sphere_inertia(0.2, 0.03)) + shapes("sphere", (0.03,), rgba="0.2 0.2 0.2 1")))
    out.append(joint("tool_joint", "fixed", "link_7", "tool", xyz=(0, 0, 0.045 + 0.03), rpy=(0, 0, math.pi / 4)))
    out.append("</robot>\n")
    return "".join(out)


def humanoid() -> str:
    """A humanoid-like tree: floating pelvis, spherical waist, shoulders and hips (torsion's
    URDF extension), revolute elbows, knees and ankles, a head on a fixed neck."""
    out = ['<?xml version="1.0"?>\n<robot name="humanoid">\n']
    out.append(link("pelvis", inertial(8.0, box_inertia(8.0, 0.2, 0.3, 0.15)) + shapes("box", (0.2, 0.3, 0.15))))
    out.append(link("torso", inertial(20.0, box_inertia(20.0, 0.2, 0.35, 0.45), xyz=(0, 0, 0.225))
                    + shapes("box", (0.2, 0.35, 0.45), xyz=(0, 0, 0.225))))
    out.append(joint("waist", "spherical", "pelvis", "torso", xyz=(0, 0, 0.1), damping=1.0))
    out.append(link("head", inertial(4.0, sphere_inertia(4.0, 0.1)) + shapes("sphere", (0.1,))))
    out.append(joint("neck", "fixed", "torso", "head", xyz=(0, 0, 0.57), rpy=(0, 0.1, 0)))
    for side, s in (("left", 1), ("right", -1)):
        out.append(link(f"{side}_upper_arm", inertial(2.0, cyl_inertia(2.0, 0.04, 0.28), xyz=(0, 0, -0.14))
                        + shapes("capsule", (0.04, 0.2), xyz=(0, 0, -0.14))))
        out.append(joint(f"{side}_shoulder", "spherical", "torso", f"{side}_upper_arm", xyz=(0, s * 0.22, 0.42),
                         rpy=(s * 0.2, 0, 0)))
        out.append(link(f"{side}_forearm", inertial(1.5, cyl_inertia(1.5, 0.035, 0.26), xyz=(0, 0, -0.13))
                        + shapes("capsule", (0.035, 0.19), xyz=(0, 0, -0.13))))
        out.append(joint(f"{side}_elbow", "revolute", f"{side}_upper_arm", f"{side}_forearm", xyz=(0, 0, -0.28),
                         axis=(0, 1, 0), limit=(-2.5, 0.0, 80, 10)))
        out.append(link(f"{side}_thigh", inertial(6.0, cyl_inertia(6.0, 0.06, 0.4), xyz=(0, 0, -0.2))
                        + shapes("capsule", (0.06, 0.3), xyz=(0, 0, -0.2))))
        out.append(joint(f"{side}_hip", "spherical", "pelvis", f"{side}_thigh", xyz=(0, s * 0.1, -0.08)))
        out.append(link(f"{side}_shin", inertial(3.5, cyl_inertia(3.5, 0.05, 0.4), xyz=(0, 0, -0.2))
                        + shapes("capsule", (0.05, 0.3), xyz=(0, 0, -0.2))))
        out.append(joint(f"{side}_knee", "revolute", f"{side}_thigh", f"{side}_shin", xyz=(0, 0, -0.4),
                         axis=(0, 1, 0), limit=(0.0, 2.6, 200, 10), damping=0.2))
        out.append(link(f"{side}_foot", inertial(1.0, box_inertia(1.0, 0.22, 0.1, 0.05), xyz=(0.05, 0, -0.025))
                        + shapes("box", (0.22, 0.1, 0.05), xyz=(0.05, 0, -0.025))))
        out.append(joint(f"{side}_ankle", "revolute", f"{side}_shin", f"{side}_foot", xyz=(0, 0, -0.4),
                         axis=(0, 1, 0), limit=(-0.8, 0.8, 100, 10)))
    out.append("</robot>\n")
    return "".join(out)


def slider() -> str:
    """A fixture with a prismatic joint: a cart on a rail (fixed to the world) carrying a pole,
    and a vertical lift on the pole's tip."""
    out = ['<?xml version="1.0"?>\n<robot name="slider">\n', link("world")]
    out.append(link("rail", inertial(10.0, box_inertia(10.0, 2.0, 0.05, 0.05)) + shapes("box", (2.0, 0.05, 0.05))))
    out.append(joint("rail_mount", "fixed", "world", "rail", xyz=(0, 0, 1.0)))
    out.append(link("cart", inertial(2.0, box_inertia(2.0, 0.2, 0.15, 0.1)) + shapes("box", (0.2, 0.15, 0.1))))
    out.append(joint("cart_slide", "prismatic", "rail", "cart", xyz=(0, 0, 0.075), axis=(1, 0, 0),
                     limit=(-0.9, 0.9, 100, 5), damping=0.1, friction=0.5))
    out.append(link("pole", inertial(0.5, cyl_inertia(0.5, 0.02, 0.6), xyz=(0, 0, 0.3))
                    + shapes("cylinder", (0.02, 0.6), xyz=(0, 0, 0.3))))
    out.append(joint("pole_hinge", "continuous", "cart", "pole", xyz=(0, 0.1, 0), axis=(0, 1, 0)))
    out.append(link("lift", inertial(0.3, box_inertia(0.3, 0.06, 0.06, 0.06)) + shapes("box", (0.06, 0.06, 0.06))))
    out.append(joint("lift_slide", "prismatic", "pole", "lift", xyz=(0.03, 0, 0.6), rpy=(0.3, 0, 0),
                     axis=(0, 0.6, 0.8), limit=(-0.2, 0.2, 50, 2)))
    out.append("</robot>\n")
    return "".join(out)


def nao() -> str:
    """A NAO-like humanoid (about 5.2 kg): NAO H25's 26 joint names and offsets (RHipYawPitch a
    mimic of LHipYawPitch, as the two share one motor), primitive collision shapes of our own
    making, link masses of NAO's order. Each hand is a two-finger gripper: the joint ``LHand``
    (0..1 rad) and a thumb ``LHandThumb`` that the coupled actuator ``LHand`` drives together.
    The devices (HAL actuators and sensors) are described in nao.devices.json."""
    out = ['<?xml version="1.0"?>\n<robot name="nao">\n']
    body_rgba, limb_rgba, dark = "0.92 0.92 0.9 1", "0.85 0.55 0.15 1", "0.25 0.25 0.3 1"

    def small(m):  # a link with no collision shape of its own (a motor housing)
        return inertial(m, sphere_inertia(m, 0.015))

    tm = 1.05
    out.append(link("torso", inertial(tm, box_inertia(tm, 0.09, 0.14, 0.19), xyz=(0, 0, 0.035))
                    + shapes("box", (0.09, 0.14, 0.19), xyz=(0, 0, 0.035), rgba=body_rgba)))
    out.append(link("Neck", small(0.078)))
    out.append(joint("HeadYaw", "revolute", "torso", "Neck", xyz=(0, 0, 0.1265), axis=(0, 0, 1),
                     limit=(-2.0857, 2.0857, 1.547, 8.268)))
    hm = 0.605
    out.append(link("Head", inertial(hm, sphere_inertia(hm, 0.055), xyz=(0, 0, 0.055))
                    + shapes("sphere", (0.055,), xyz=(0, 0, 0.055), rgba=body_rgba)))
    out.append(joint("HeadPitch", "revolute", "Neck", "Head", axis=(0, 1, 0),
                     limit=(-0.672, 0.5149, 1.532, 7.195)))
    for side, s in (("L", 1), ("R", -1)):
        low = side.lower()
        # arm: shoulder pitch (y), shoulder roll (z), elbow yaw (x), elbow roll (z), wrist yaw (x)
        out.append(link(f"{side}Shoulder", small(0.093)))
        out.append(joint(f"{side}ShoulderPitch", "revolute", "torso", f"{side}Shoulder", xyz=(0, s * 0.098, 0.1),
                         axis=(0, 1, 0), limit=(-2.0857, 2.0857, 1.329, 8.268)))
        out.append(link(f"{side}Bicep", inertial(0.158, cyl_inertia(0.158, 0.025, 0.105), xyz=(0.0525, 0, 0),
                                                 rpy=(0, math.pi / 2, 0))
                        + shapes("capsule", (0.025, 0.06), xyz=(0.0525, 0, 0), rpy=(0, math.pi / 2, 0), rgba=limb_rgba)))
        roll = (-0.3142, 1.3265) if s > 0 else (-1.3265, 0.3142)
        out.append(joint(f"{side}ShoulderRoll", "revolute", f"{side}Shoulder", f"{side}Bicep", axis=(0, 0, 1),
                         limit=(roll[0], roll[1], 1.329, 7.195)))
        out.append(link(f"{side}Elbow", small(0.065)))
        out.append(joint(f"{side}ElbowYaw", "revolute", f"{side}Bicep", f"{side}Elbow", xyz=(0.105, s * 0.015, 0),
                         axis=(1, 0, 0), limit=(-2.0857, 2.0857, 1.547, 8.268)))
        out.append(link(f"{side}ForeArm", inertial(0.078, cyl_inertia(0.078, 0.022, 0.056), xyz=(0.028, 0, 0),
                                                   rpy=(0, math.pi / 2, 0))
                        + shapes("capsule", (0.022, 0.03), xyz=(0.028, 0, 0), rpy=(0, math.pi / 2, 0), rgba=limb_rgba)))
        eroll = (-1.5446, -0.0349) if s > 0 else (0.0349, 1.5446)
        out.append(joint(f"{side}ElbowRoll", "revolute", f"{side}Elbow", f"{side}ForeArm", axis=(0, 0, 1),
                         limit=(eroll[0], eroll[1], 1.547, 7.195)))
        out.append(link(f"{low}_wrist", inertial(0.15, box_inertia(0.15, 0.05, 0.05, 0.04), xyz=(0.03, 0, 0))
                        + shapes("box", (0.05, 0.05, 0.04), xyz=(0.03, 0, 0), rgba=dark)))
        out.append(joint(f"{side}WristYaw", "revolute", f"{side}ForeArm", f"{low}_wrist", xyz=(0.05595, 0, 0),
                         axis=(1, 0, 0), limit=(-1.8238, 1.8238, 0.408, 24.6)))
        out.append(link(f"{side}Finger", inertial(0.02, box_inertia(0.02, 0.04, 0.02, 0.01), xyz=(0.02, 0, 0))
                        + shapes("box", (0.04, 0.02, 0.01), xyz=(0.02, 0, 0), rgba=dark, collide=False)))
        out.append(joint(f"{side}Hand", "revolute", f"{low}_wrist", f"{side}Finger", xyz=(0.055, 0, 0.012),
                         axis=(0, 1, 0), limit=(0.0, 1.0, 0.292, 8.33)))
        out.append(link(f"{side}Thumb", inertial(0.015, box_inertia(0.015, 0.03, 0.02, 0.01), xyz=(0.015, 0, 0))
                        + shapes("box", (0.03, 0.02, 0.01), xyz=(0.015, 0, 0), rgba=dark, collide=False)))
        out.append(joint(f"{side}HandThumb", "revolute", f"{low}_wrist", f"{side}Thumb", xyz=(0.055, 0, -0.012),
                         axis=(0, 1, 0), limit=(-0.8, 0.0, 0.292, 8.33)))
        # leg: hip yaw-pitch (45 deg axis), hip roll (x), hip pitch (y), knee (y), ankle pitch (y), ankle roll (x)
        out.append(link(f"{side}Pelvis", small(0.07)))
        hyp = dict(axis=(0, 0.707107, -0.707107), limit=(-1.145303, 0.74081, 3.348, 4.16))
        if s < 0:  # RHipYawPitch follows LHipYawPitch (one motor): RHipYawPitch = LHipYawPitch
            hyp = dict(axis=(0, 0.707107, 0.707107), limit=(-1.145303, 0.74081, 3.348, 4.16))
        out.append(joint(f"{side}HipYawPitch", "revolute", "torso", f"{side}Pelvis", xyz=(0, s * 0.05, -0.085), **hyp))
        if s < 0:
            out[-1] = out[-1].replace("  </joint>\n", '    <mimic joint="LHipYawPitch" multiplier="1" offset="0"/>\n  </joint>\n')
        out.append(link(f"{side}Hip", small(0.13)))
        hroll = (-0.379472, 0.790477) if s > 0 else (-0.790477, 0.379472)
        out.append(joint(f"{side}HipRoll", "revolute", f"{side}Pelvis", f"{side}Hip", axis=(1, 0, 0),
                         limit=(hroll[0], hroll[1], 3.348, 4.16)))
        out.append(link(f"{side}Thigh", inertial(0.39, cyl_inertia(0.39, 0.03, 0.1), xyz=(0, 0, -0.05))
                        + shapes("capsule", (0.03, 0.05), xyz=(0, 0, -0.05), rgba=body_rgba)))
        out.append(joint(f"{side}HipPitch", "revolute", f"{side}Hip", f"{side}Thigh", axis=(0, 1, 0),
                         limit=(-1.535889, 0.48409, 3.023, 6.4)))
        out.append(link(f"{side}Tibia", inertial(0.29, cyl_inertia(0.29, 0.028, 0.1029), xyz=(0, 0, -0.05145))
                        + shapes("capsule", (0.028, 0.05), xyz=(0, 0, -0.05145), rgba=body_rgba)))
        out.append(joint(f"{side}KneePitch", "revolute", f"{side}Thigh", f"{side}Tibia", xyz=(0, 0, -0.1),
                         axis=(0, 1, 0), limit=(-0.092346, 2.112528, 3.023, 6.4)))
        out.append(link(f"{side}AnklePitch", small(0.134)))
        out.append(joint(f"{side}AnklePitch", "revolute", f"{side}Tibia", f"{side}AnklePitch", xyz=(0, 0, -0.1029),
                         axis=(0, 1, 0), limit=(-1.189516, 0.922747, 3.023, 6.4)))
        # the foot: a flat box whose sole lies 0.04519 m below the ankle (NAO's FootHeight)
        fl, fw, fh, fx = 0.16, 0.088, 0.015, 0.025
        out.append(link(f"{low}_ankle", inertial(0.162, box_inertia(0.162, fl, fw, fh), xyz=(fx, 0, -0.04519 + fh / 2))
                        + shapes("box", (fl, fw, fh), xyz=(fx, 0, -0.04519 + fh / 2), rgba=dark)
                        + shapes("cylinder", (0.02, 0.03), xyz=(0, 0, -0.02), rgba=dark, collide=False)))
        aroll = (-0.39788, 0.769001) if s > 0 else (-0.769001, 0.39788)
        out.append(joint(f"{side}AnkleRoll", "revolute", f"{side}AnklePitch", f"{low}_ankle", axis=(1, 0, 0),
                         limit=(aroll[0], aroll[1], 3.023, 4.16)))
        out.append(link(f"{low}_sole"))
        out.append(joint(f"{side}LegSole", "fixed", f"{low}_ankle", f"{low}_sole", xyz=(0, 0, -0.04519)))
    out.append("</robot>\n")
    return "".join(out)


def wheeled() -> str:
    """A small differential-drive robot (about 6 kg): a base box on two driven wheels (WheelL,
    WheelR) and a free caster ball (spherical joint), a head on a yaw joint and an arm on a lift
    joint. Its devices (wheel_velocity / wheel_torque actuators, sonar, camera, ...) are in
    wheeled.devices.json."""
    out = ['<?xml version="1.0"?>\n<robot name="wheeled">\n']
    bm, bx, by, bz = 4.0, 0.3, 0.22, 0.1
    out.append(link("base", inertial(bm, box_inertia(bm, bx, by, bz))
                    + shapes("box", (bx, by, bz), rgba="0.2 0.45 0.8 1")))
    wm, wr, ww = 0.4, 0.06, 0.03
    for side, s in (("L", 1), ("R", -1)):
        out.append(link(f"wheel_{side.lower()}", inertial(wm, cyl_inertia(wm, wr, ww), rpy=(math.pi / 2, 0, 0))
                        + shapes("cylinder", (wr, ww), rpy=(math.pi / 2, 0, 0), rgba="0.1 0.1 0.1 1")))
        out.append(joint(f"Wheel{side}", "continuous", "base", f"wheel_{side.lower()}",
                         xyz=(0.06, s * (by / 2 + ww / 2 + 0.005), -0.02), axis=(0, 1, 0), limit=(None, None, 5.0, 30.0)))
    cm, cr = 0.1, 0.04
    out.append(link("caster", inertial(cm, sphere_inertia(cm, cr)) + shapes("sphere", (cr,), rgba="0.1 0.1 0.1 1")))
    out.append(joint("Caster", "spherical", "base", "caster", xyz=(-0.11, 0, -0.04)))
    out.append(link("head", inertial(0.5, box_inertia(0.5, 0.08, 0.12, 0.08), xyz=(0, 0, 0.04))
                    + shapes("box", (0.08, 0.12, 0.08), xyz=(0, 0, 0.04), rgba="0.9 0.9 0.9 1")))
    out.append(joint("HeadYaw", "revolute", "base", "head", xyz=(0.05, 0, 0.05), axis=(0, 0, 1),
                     limit=(-2.0, 2.0, 2.0, 4.0), damping=0.01))
    out.append(link("arm", inertial(0.3, box_inertia(0.3, 0.15, 0.03, 0.03), xyz=(0.075, 0, 0))
                    + shapes("box", (0.15, 0.03, 0.03), xyz=(0.075, 0, 0), rgba="0.85 0.55 0.15 1")))
    out.append(joint("ArmLift", "revolute", "base", "arm", xyz=(-0.05, -by / 2 - 0.02, 0.03), axis=(0, -1, 0),
                     limit=(-0.5, 1.5, 3.0, 4.0), damping=0.02))
    out.append("</robot>\n")
    return "".join(out)


ROBOTS = {"quadruped": quadruped, "arm7": arm, "humanoid": humanoid, "slider": slider, "nao": nao,
          "wheeled": wheeled}

NAO_START = {"LShoulderPitch": 1.4, "RShoulderPitch": 1.4, "LShoulderRoll": 0.2, "RShoulderRoll": -0.2,
             "LElbowRoll": -0.5, "RElbowRoll": 0.5, "LElbowYaw": -1.2, "RElbowYaw": 1.2}


def nao_devices() -> dict:
    """The HAL devices of the NAO-like robot, with NAO's device names (semantics.md C4)."""
    acts, sens = [], []
    arm = ["ShoulderPitch", "ShoulderRoll", "ElbowYaw", "ElbowRoll", "WristYaw"]
    leg = ["HipYawPitch", "HipRoll", "HipPitch", "KneePitch", "AnklePitch", "AnkleRoll"]
    order = ["HeadYaw", "HeadPitch"] + [f"L{j}" for j in arm] + [f"L{j}" for j in leg] \
        + [f"R{j}" for j in leg] + [f"R{j}" for j in arm]
    for j in order:
        if j != "RHipYawPitch":  # one motor drives both hip yaw-pitch joints: only LHipYawPitch
            big = any(k in j for k in ("Hip", "Knee", "Ankle"))
            acts.append({"name": j, "kind": "angle", "joint": j, "start": NAO_START.get(j, 0.0),
                         "kp": 60.0 if big else 10.0, "kd": 0.6 if big else 0.1})
        sens.append({"name": j, "kind": "angle", "joint": j})
    for side in "LR":
        acts.append({"name": f"{side}Hand", "kind": "coupled", "joints": [[f"{side}Hand", 1.0], [f"{side}HandThumb", -0.8]],
                     "start": 0.0, "max_speed": 1.0, "kp": 2.0, "kd": 0.02})
        sens.append({"name": f"{side}Hand", "kind": "coupled", "joints": [[f"{side}Hand", 1.0], [f"{side}HandThumb", -0.8]]})
    for c in ("Red", "Green", "Blue"):
        acts.append({"name": f"ChestBoard/Led/{c}/Actuator/Value", "kind": "led", "color": c.lower(), "groups": ["ChestLeds"]})
        for side in ("Left", "Right"):
            acts.append({"name": f"Face/Led/{c}/{side}/0Deg/Actuator/Value", "kind": "led", "color": c.lower(),
                         "groups": ["FaceLeds", f"FaceLeds{side}"]})
    sole = -0.04519
    for side, s, link in (("L", 1, "l_ankle"), ("R", -1, "r_ankle")):
        foot = "LFoot" if side == "L" else "RFoot"
        # four FSRs on a rectangle of the sole (NAO's are near its corners), link frame of the ankle
        for name, x, y in (("FrontLeft", 0.07, 0.03), ("FrontRight", 0.07, -0.023),
                           ("RearLeft", -0.03, 0.03), ("RearRight", -0.03, -0.023)):
            yy = y if s > 0 else -{0.03: -0.023, -0.023: 0.03}[y]
            sens.append({"name": f"{foot}/FSR/{name}", "kind": "fsr", "link": link, "xyz": [x, yy, sole]})
        # bumpers on the toe's front face, above the sole
        for name, y0 in (("Left", 0.022), ("Right", -0.022)):
            sens.append({"name": f"{foot}/Bumper/{name}", "kind": "bumper", "link": link,
                         "xyz": [0.105, y0, sole + 0.013], "size": [0.03, 0.044, 0.014]})
    for name, x0 in (("Front", 0.04), ("Middle", 0.0), ("Rear", -0.04)):
        sens.append({"name": f"Head/Touch/{name}", "kind": "tactile", "link": "Head",
                     "xyz": [x0, 0.0, 0.105], "size": [0.04, 0.08, 0.04]})
    sens.append({"name": "ChestBoard/Button", "kind": "tactile", "link": "torso",
                 "xyz": [0.05, 0.0, 0.09], "size": [0.02, 0.04, 0.04]})
    sens.append({"name": "InertialSensor", "kind": "inertial", "link": "torso", "xyz": [-0.008, 0.006, 0.029]})
    for name, s in (("Sonar/Left", 1), ("Sonar/Right", -1)):
        sens.append({"name": name, "kind": "sonar", "link": "torso", "xyz": [0.0477, s * 0.0416, 0.0509],
                     "rpy": [0.0, 0.0, s * 0.4363], "cone": 60.0, "min_range": 0.25, "max_range": 2.55,
                     "echoes": 10, "rings": 4})
    sens.append({"name": "CameraTop", "kind": "camera", "link": "Head", "xyz": [0.0585, 0.0, 0.068],
                 "hfov": 60.97, "width": 640, "height": 480})
    sens.append({"name": "CameraBottom", "kind": "camera", "link": "Head", "xyz": [0.058, 0.0, 0.0231],
                 "rpy": [0.0, 0.6929, 0.0], "hfov": 60.97, "width": 640, "height": 480})
    return {"format": "torsion.hal.devices", "version": 1, "robot": "nao", "actuators": acts, "sensors": sens}


def wheeled_devices() -> dict:
    """The HAL devices of the wheeled robot (Pepper-style wheel devices)."""
    acts = [
        {"name": "WheelL/Speed", "kind": "wheel_velocity", "joint": "WheelL", "max_velocity": 20.0, "kd": 2.0},
        {"name": "WheelR/Speed", "kind": "wheel_velocity", "joint": "WheelR", "max_velocity": 20.0, "kd": 2.0},
        {"name": "WheelL/Torque", "kind": "wheel_torque", "joint": "WheelL", "max_torque": 3.0},
        {"name": "WheelR/Torque", "kind": "wheel_torque", "joint": "WheelR", "max_torque": 3.0},
        {"name": "HeadYaw", "kind": "angle_speed", "joint": "HeadYaw", "max_speed": 3.0, "kd": 0.5},
        {"name": "ArmLift", "kind": "torque", "joint": "ArmLift", "max_torque": 3.0},
        {"name": "Base/Led", "kind": "led", "color": "white"},
    ]
    sens = [
        {"name": "WheelL/Speed", "kind": "wheel_velocity", "joint": "WheelL"},
        {"name": "WheelR/Speed", "kind": "wheel_velocity", "joint": "WheelR"},
        {"name": "HeadYaw", "kind": "angle", "joint": "HeadYaw"},
        {"name": "HeadYaw/Speed", "kind": "angle_speed", "joint": "HeadYaw"},
        {"name": "ArmLift", "kind": "angle", "joint": "ArmLift"},
        {"name": "ArmLift/Torque", "kind": "torque", "joint": "ArmLift"},
        {"name": "InertialSensor", "kind": "inertial", "link": "base"},
        {"name": "Sonar/Front_sensor", "kind": "sonar", "link": "base", "xyz": [0.151, 0.0, 0.03],
         "rpy": [0.0, -0.2, 0.0], "cone": 30.0, "min_range": 0.05, "max_range": 5.0, "echoes": 10, "rings": 4},
        {"name": "Infrared/Front", "kind": "depth_infrared", "link": "base", "xyz": [0.151, 0.0, -0.03],
         "min_range": 0.02, "max_range": 1.5},
        {"name": "Bumper/Front", "kind": "bumper", "link": "base", "xyz": [0.15, 0.0, 0.0], "size": [0.02, 0.22, 0.1]},
        {"name": "CameraFront", "kind": "camera", "link": "head", "xyz": [0.041, 0.0, 0.05], "hfov": 60.0,
         "width": 640, "height": 480},
    ]
    return {"format": "torsion.hal.devices", "version": 1, "robot": "wheeled", "actuators": acts, "sensors": sens}


DEVICES = {"nao": nao_devices, "wheeled": wheeled_devices}


if __name__ == "__main__":
    for name, make in ROBOTS.items():
        path = HERE / f"{name}.urdf"
        path.write_text(make())
        print("wrote", path)
    import json

    for name, make in DEVICES.items():
        path = HERE / f"{name}.devices.json"
        path.write_text(json.dumps(make(), indent=1) + "\n")
        print("wrote", path)
