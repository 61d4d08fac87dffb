"""Articulated systems built in code, without a URDF file: RaiSim's ``Child`` overload of
``addArticulatedSystem``.

A robot is a tree of :class:`Child` nodes. Each node is one link (its mass properties and
collision shapes) together with the joint that attaches it to its parent (the world for the
root). ``World.add_articulated_system_from_tree(root, ...)`` compiles the tree through the same
model builder as a URDF file, so every rule of URDF loading holds (frames named after joints,
links joined by fixed joints merged into one body, gc/gv layout in depth-first order of the
tree, the children of a node in list order).

    >>> leg = torsion.Child("thigh", joint_type="revolute", axis=(0, 1, 0),
    ...                     origin_xyz=(0, 0.1, 0), mass=1.0, com=(0, 0, -0.1),
    ...                     inertia=(0.01, 0.01, 0.001),
    ...                     collisions=[torsion.CollisionShape("capsule", radius=0.02, length=0.2,
    ...                                                        xyz=(0, 0, -0.1))])
    >>> trunk = torsion.Child("trunk", joint_type="floating", mass=5.0,
    ...                       inertia=(0.05, 0.1, 0.1), children=[leg])
    >>> robot = world.add_articulated_system_from_tree(trunk)

The root's joint says how the robot is held: ``"floating"`` gives a floating base (gc starts with
the base pose); any other type attaches the root to the world at ``origin_xyz``/``origin_rpy``
(``"fixed"`` gives a fixed base).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence
from xml.sax.saxutils import quoteattr

import numpy as np

__all__ = ["Child", "CollisionShape", "child_to_urdf"]

_JOINT_TYPES = ("fixed", "revolute", "continuous", "prismatic", "spherical", "floating")
_SHAPES = ("box", "sphere", "cylinder", "capsule", "mesh")


def _real_array(value, what: str) -> np.ndarray:
    """value as a float array; complex, text and other non-number arrays are refused (NumPy's
    cast would keep a complex value's real part and read "1" as 1.0)."""
    a = np.asarray(value)
    if a.dtype.kind in "biuf":
        return a.astype(float)
    real = (int, float, np.integer, np.floating, np.bool_)
    if a.dtype.kind == "O" and all(isinstance(x, real) for x in a.reshape(-1)):
        return a.astype(float)
    raise ValueError(f"{what} must hold real numbers, got {value!r}")


def _numbers(value, n: int, what: str) -> list[float]:
    a = _real_array(value, what).reshape(-1) if value is not None else None
    if a is None or a.shape != (n,):
        got = "None" if a is None else f"shape {np.shape(value)}"
        raise ValueError(f"{what} must have {n} numbers, got {got}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{what} must be finite, got {a.tolist()}")
    return [float(x) for x in a]


def _number(value, what: str, *, positive: bool = False, non_negative: bool = False,
            allow_inf: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number, got {value!r}") from None
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{what} must be finite, got {v}")
    if positive and not v > 0.0:
        raise ValueError(f"{what} must be > 0, got {v}")
    if non_negative and v < 0.0:
        raise ValueError(f"{what} must be >= 0, got {v}")
    return v


def _f(x: float) -> str:  # shortest text that reads back as the same double
    return repr(float(x))


def _xyz(v: Sequence[float]) -> str:
    return " ".join(_f(x) for x in v)


@dataclass
class CollisionShape:
    """A primitive collision shape of a link, posed in the link frame.

    kind: "box" (``size`` = full lengths along x, y, z, m), "sphere" (``radius``), "cylinder" or
    "capsule" (``radius`` and ``length`` along the shape's z axis; a capsule's length is the
    distance between its hemisphere centres). xyz (m) and rpy (rad, URDF roll-pitch-yaw) place
    the shape in the link frame. material: the name of a contact material (default "").
    "mesh": ``file`` (an .obj or .stl path) scaled by ``scale`` (3 factors along the mesh axes),
    loaded as its convex hull like a URDF collision mesh.
    """

    kind: str
    size: Sequence[float] | None = None
    radius: float | None = None
    length: float | None = None
    xyz: Sequence[float] = (0.0, 0.0, 0.0)
    rpy: Sequence[float] = (0.0, 0.0, 0.0)
    name: str = ""
    material: str = ""
    file: str | None = None
    scale: Sequence[float] = (1.0, 1.0, 1.0)

    def _urdf(self, where: str) -> str:
        if self.kind not in _SHAPES:
            raise ValueError(f"{where}: kind must be one of {list(_SHAPES)}, got {self.kind!r}")
        if self.kind == "box":
            size = _numbers(self.size, 3, f"{where}: size")
            if min(size) <= 0.0:
                raise ValueError(f"{where}: size must be > 0 on every axis, got {size}")
            geometry = f'<box size="{_xyz(size)}"/>'
        elif self.kind == "mesh":
            if not isinstance(self.file, str) or not self.file:
                raise ValueError(f"{where}: file must be a mesh file path (str), got {self.file!r}")
            scale = _numbers(self.scale, 3, f"{where}: scale")
            if min(scale) <= 0.0:
                raise ValueError(f"{where}: scale must be > 0 on every axis, got {scale}")
            geometry = f"<mesh filename={quoteattr(self.file)} scale=\"{_xyz(scale)}\"/>"
        elif self.kind == "sphere":
            geometry = f'<sphere radius="{_f(_number(self.radius, where + ": radius", positive=True))}"/>'
        else:
            r = _number(self.radius, where + ": radius", positive=True)
            length = _number(self.length, where + ": length", positive=True)
            geometry = f'<{self.kind} radius="{_f(r)}" length="{_f(length)}"/>'
        xyz = _numbers(self.xyz, 3, f"{where}: xyz")
        rpy = _numbers(self.rpy, 3, f"{where}: rpy")
        name = f" name={quoteattr(self.name)}" if self.name else ""
        material = f"<material name={quoteattr(self.material)}/>" if self.material else ""
        return (f'<collision{name}><origin xyz="{_xyz(xyz)}" rpy="{_xyz(rpy)}"/>'
                f"<geometry>{geometry}</geometry>{material}</collision>")


@dataclass
class Child:
    """One link of a programmatically built articulated system and the joint to its parent.

    Link: ``name`` (unique), ``mass`` (kg, >= 0), ``com`` (m, in the link frame), ``inertia``
    about the COM in the link axes (kg m^2: a 3x3 symmetric matrix, or 3 principal moments
    (ixx, iyy, izz), or 6 numbers (ixx, iyy, izz, ixy, ixz, iyz)), ``collisions`` (a list of
    :class:`CollisionShape`), ``children`` (a list of Child, in gc/gv order).

    Joint (attaching this link to its parent): ``joint_type`` one of "fixed", "revolute",
    "continuous", "prismatic", "spherical" (torsion's extension), "floating" (the root only);
    ``joint_name`` (default ``name + "_joint"``); ``origin_xyz`` (m) and ``origin_rpy`` (rad) place
    the joint frame, which is also this link's frame, in the parent link's frame; ``axis`` (a
    non-zero 3-vector in the joint frame; revolute, continuous and prismatic); ``limits``
    (lower, upper) in rad or m, or None for none; ``effort`` (N m or N) and ``velocity`` limits
    (inf for none); ``damping`` (N m s/rad) and ``friction`` (N m) of the joint; ``mimic``
    ``(joint_name, multiplier, offset)`` makes this revolute/continuous/prismatic joint follow
    another one, q = multiplier * q_joint + offset (URDF's <mimic>: it owns no dof), or None.
    """

    name: str
    joint_type: str = "fixed"
    joint_name: str | None = None
    origin_xyz: Sequence[float] = (0.0, 0.0, 0.0)
    origin_rpy: Sequence[float] = (0.0, 0.0, 0.0)
    axis: Sequence[float] = (0.0, 0.0, 1.0)
    limits: Sequence[float] | None = None
    effort: float = math.inf
    velocity: float = math.inf
    damping: float = 0.0
    friction: float = 0.0
    mimic: tuple[str, float, float] | None = None
    mass: float = 0.0
    com: Sequence[float] = (0.0, 0.0, 0.0)
    inertia: Sequence[float] | Sequence[Sequence[float]] = (0.0, 0.0, 0.0)
    collisions: list[CollisionShape] = field(default_factory=list)
    children: list["Child"] = field(default_factory=list)


def _inertia(value, where: str) -> tuple[float, float, float, float, float, float]:
    a = _real_array(value, f"{where}: inertia")
    if a.shape == (3, 3):
        if not np.all(np.isfinite(a)) or not np.allclose(a, a.T, rtol=0.0, atol=1e-12 * max(1.0, np.abs(a).max())):
            raise ValueError(f"{where}: inertia must be a finite symmetric 3x3 matrix, got {a.tolist()}")
        return a[0, 0], a[1, 1], a[2, 2], a[0, 1], a[0, 2], a[1, 2]
    if a.shape == (3,):
        i = _numbers(a, 3, f"{where}: inertia")
        return i[0], i[1], i[2], 0.0, 0.0, 0.0
    if a.shape == (6,):
        i = _numbers(a, 6, f"{where}: inertia")
        return tuple(i)  # type: ignore[return-value]
    raise ValueError(f"{where}: inertia must be a 3x3 matrix, 3 principal moments or 6 numbers "
                     f"(ixx, iyy, izz, ixy, ixz, iyz), got shape {a.shape}")


def _link(c: Child) -> str:
    where = f"Child '{c.name}'"
    mass = _number(c.mass, where + ": mass", non_negative=True)
    com = _numbers(c.com, 3, where + ": com")
    ixx, iyy, izz, ixy, ixz, iyz = _inertia(c.inertia, where)
    inertial = ""
    # a massless link may still have rotational inertia (a rotor whose mass is lumped into its
    # parent): it was dropped, unlike the same link in URDF text. Written, it is checked (positive
    # semi-definite) by the URDF loader like any other.
    if mass > 0.0 or any(x != 0.0 for x in (ixx, iyy, izz, ixy, ixz, iyz)):
        inertial = (f'<inertial><origin xyz="{_xyz(com)}"/><mass value="{_f(mass)}"/>'
                    f'<inertia ixx="{_f(ixx)}" iyy="{_f(iyy)}" izz="{_f(izz)}" ixy="{_f(ixy)}" '
                    f'ixz="{_f(ixz)}" iyz="{_f(iyz)}"/></inertial>')
    shapes = "".join(s._urdf(f"{where}: collisions[{k}]") for k, s in enumerate(c.collisions))
    return f"<link name={quoteattr(c.name)}>{inertial}{shapes}</link>"


def _joint(c: Child, parent: str) -> str:
    where = f"Child '{c.name}'"
    if c.joint_type not in _JOINT_TYPES:
        raise ValueError(f"{where}: joint_type must be one of {list(_JOINT_TYPES)}, got {c.joint_type!r}")
    name = c.joint_name if c.joint_name is not None else c.name + "_joint"
    xyz = _numbers(c.origin_xyz, 3, where + ": origin_xyz")
    rpy = _numbers(c.origin_rpy, 3, where + ": origin_rpy")
    parts = [f"<joint name={quoteattr(name)} type={quoteattr(c.joint_type)}>",
             f"<parent link={quoteattr(parent)}/><child link={quoteattr(c.name)}/>",
             f'<origin xyz="{_xyz(xyz)}" rpy="{_xyz(rpy)}"/>']
    if c.joint_type in ("revolute", "continuous", "prismatic"):
        axis = _numbers(c.axis, 3, where + ": axis")
        if not any(axis):  # any other direction is normalised by the URDF loader, 1e-160 too
            raise ValueError(f"{where}: axis must be non-zero, got {axis}")
        parts.append(f'<axis xyz="{_xyz(axis)}"/>')
    limit = []
    if c.limits is not None:
        if c.joint_type not in ("revolute", "prismatic"):
            raise ValueError(f"{where}: limits apply to revolute and prismatic joints only, "
                             f"not {c.joint_type!r}")
        lo, hi = _numbers(c.limits, 2, where + ": limits")
        if lo > hi:
            raise ValueError(f"{where}: limits must be (lower, upper) with lower <= upper, got ({lo}, {hi})")
        limit += [f'lower="{_f(lo)}"', f'upper="{_f(hi)}"']
    effort = _number(c.effort, where + ": effort", positive=True, allow_inf=True)
    velocity = _number(c.velocity, where + ": velocity", positive=True, allow_inf=True)
    if math.isfinite(effort):
        limit.append(f'effort="{_f(effort)}"')
    if math.isfinite(velocity):
        limit.append(f'velocity="{_f(velocity)}"')
    if limit:
        parts.append(f"<limit {' '.join(limit)}/>")
    damping = _number(c.damping, where + ": damping", non_negative=True)
    friction = _number(c.friction, where + ": friction", non_negative=True)
    if damping or friction:
        parts.append(f'<dynamics damping="{_f(damping)}" friction="{_f(friction)}"/>')
    if c.mimic is not None:
        if (not isinstance(c.mimic, (tuple, list)) or len(c.mimic) != 3
                or not isinstance(c.mimic[0], str)):
            raise ValueError(f"{where}: mimic must be (joint_name, multiplier, offset), got {c.mimic!r}")
        multiplier = _number(c.mimic[1], where + ": mimic multiplier")
        offset = _number(c.mimic[2], where + ": mimic offset")
        parts.append(f'<mimic joint={quoteattr(c.mimic[0])} multiplier="{_f(multiplier)}" '
                     f'offset="{_f(offset)}"/>')
    parts.append("</joint>")
    return "".join(parts)


def child_to_urdf(root: Child, robot_name: str = "robot") -> tuple[str, bool]:
    """The URDF text of the tree under ``root`` and whether its base floats.

    Links and joints are written depth first, children in list order, so the movable joints keep
    that order in gc/gv. A non-floating root is attached to a link named "world" by its joint.
    ValueError naming the Child and the field on bad input (unknown types, non-finite numbers,
    repeated names, a cycle).
    """
    if not isinstance(root, Child):
        raise ValueError(f"child must be a torsion.Child, got {type(root).__name__}")
    links: list[str] = []
    joints: list[str] = []
    seen_links: set[str] = set()
    seen_joints: set[str] = set()
    floating = root.joint_type == "floating"

    def visit(top: Child, top_parent: str | None) -> None:
        # depth first without recursion (a tree may be a chain of any length): `todo` holds
        # (child, parent name, leaving) with the next one at the end; `path` the ids of the
        # Childs between the root and the current one
        path: set[int] = set()
        todo: list[tuple[Child, str | None, bool]] = [(top, top_parent, False)]
        while todo:
            c, parent, leaving = todo.pop()
            if leaving:
                path.discard(id(c))
                continue
            enter(c, parent, path)
            path.add(id(c))
            todo.append((c, parent, True))
            todo.extend((k, c.name, False) for k in reversed(list(c.children)))

    def enter(c: Child, parent: str | None, path: set[int]) -> None:
        if not isinstance(c, Child):
            raise ValueError(f"children of '{parent}' must be torsion.Child, got {type(c).__name__}")
        if id(c) in path:
            raise ValueError(f"Child '{c.name}' is its own ancestor (the tree has a cycle)")
        if not isinstance(c.name, str) or not c.name or c.name == "world":
            raise ValueError(f"Child name must be a non-empty str other than 'world', got {c.name!r}")
        if c.name in seen_links:
            raise ValueError(f"Child name '{c.name}' is used twice (link names must be unique)")
        seen_links.add(c.name)
        if c is not root and c.joint_type == "floating":
            raise ValueError(f"Child '{c.name}': only the root may have a floating joint")
        links.append(_link(c))
        if parent is not None:
            joint_name = c.joint_name if c.joint_name is not None else c.name + "_joint"
            if joint_name in seen_joints:
                raise ValueError(f"Child '{c.name}': joint name '{joint_name}' is used twice")
            seen_joints.add(joint_name)
            joints.append(_joint(c, parent))

    if floating:
        visit(root, None)
    else:
        links.append('<link name="world"/>')
        visit(root, "world")
    text = (f"<robot name={quoteattr(robot_name)}>" + "".join(links) + "".join(joints) + "</robot>")
    return text, floating


def add_articulated_system_from_tree(world, child: Child, res_path: str = "",
                                     collision_group: int = 1, collision_mask: int = -1,
                                     do_not_collide_with_parent: bool = True,
                                     self_collision: bool = False):
    """Add a robot built in code from the tree under ``child`` (RaiSim's ``Child`` overload of
    addArticulatedSystem). The root's joint_type "floating" gives a floating base; any other
    type attaches the root to the world at its origin (fixed base). Other arguments as in
    add_articulated_system. Returns an ArticulatedSystem.
    """
    text, floating = child_to_urdf(child)
    return world.add_articulated_system(
        text, res_path=res_path, collision_group=collision_group, collision_mask=collision_mask,
        fixed_base=not floating, do_not_collide_with_parent=do_not_collide_with_parent,
        self_collision=self_collision)
