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


ROBOTS = {"quadruped": quadruped, "arm7": arm, "humanoid": humanoid, "slider": slider}

if __name__ == "__main__":
    for name, make in ROBOTS.items():
        path = HERE / f"{name}.urdf"
        path.write_text(make())
        print("wrote", path)
