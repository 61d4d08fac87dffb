"""The Pythonic IK API: Environment, Joint, Dummy, Group, Element.

Objects are thin handles (an environment and an int handle); every call goes to the C++ core,
which raises ValueError (bad argument), torsion.RemovedObjectError (dead handle; a ValueError
and a RuntimeError), IndexError (index out of range) or
RuntimeError (wrong state) carrying the routines' error message. Units: m, rad; quaternions
(w, x, y, z); matrices map the object's frame into the reference frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence, Union

import numpy as np

from .._core import ik as _cik
from . import _rotations as rot
from ._constants import (
    HANDLE_ALL,
    HANDLE_PARENT,
    HANDLE_WORLD,
    CalcFlag,
    Constraint,
    GroupFlag,
    JointMode,
    JointType,
    Method,
    ObjectType,
    Result,
)

PARENT = "parent"  # pass as relative_to= to mean "relative to the object's parent"


def _target_orientation(orientation, name: str):
    """An orientation argument given as a quaternion (w, x, y, z) or a (3, 3) rotation matrix,
    as the quaternion the core takes (a matrix is checked and converted here; anything else goes
    to the core unchanged, which checks it)."""
    if np.shape(orientation) == (3, 3):
        return rot.as_quaternion(orientation, name)
    return orientation


def _target_pose(position, orientation, name: str):
    """(position, orientation) where `position` may be a (4, 4) homogeneous pose with orientation
    None."""
    if orientation is None:
        m = np.asarray(position, dtype=float)
        if m.shape != (4, 4):
            raise ValueError(f"{name}: give a position (3,) and an orientation (a quaternion (4,) "
                             f"or a rotation matrix (3, 3)), or a (4, 4) pose alone; got a "
                             f"position of shape {m.shape} and no orientation")
        if not np.all(np.isfinite(m)) or np.any(m[3] != (0.0, 0.0, 0.0, 1.0)):
            raise ValueError(f"{name}: a (4, 4) pose must be finite with last row (0, 0, 0, 1)")
        return m[:3, 3].copy(), rot.as_quaternion(m[:3, :3], name)
    return position, _target_orientation(orientation, name)

RelativeTo = Union[None, str, "Object"]


def _rel(env: "Environment", relative_to) -> int:
    if relative_to is None:
        return HANDLE_WORLD
    if isinstance(relative_to, str) and relative_to == PARENT:
        return HANDLE_PARENT
    if isinstance(relative_to, Object):
        env._check_same(relative_to, "relative_to")
        return relative_to.handle
    raise ValueError(f"relative_to must be None (world), 'parent' or an ik object, got {relative_to!r}")


def _c_int(value, name: str) -> int:
    """value as a C int (the core's int arguments), or ValueError naming the argument (pybind11
    would raise its generic 'incompatible function arguments' TypeError)."""
    try:
        i = int(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be an int, got {value!r}") from None
    if not -2**31 <= i < 2**31:
        raise ValueError(f"{name} must fit in a 32-bit int, got {i}")
    return i


def _handle_or_none(env: "Environment", obj, name: str) -> int:
    if obj is None:
        return -1
    if not isinstance(obj, Object):
        raise ValueError(f"{name} must be an ik object or None, got {type(obj).__name__}")
    env._check_same(obj, name)
    return obj.handle


class Object:
    """An object of an IK environment (a Dummy or a Joint)."""

    __slots__ = ("env", "handle")

    def __init__(self, env: "Environment", handle: int):
        self.env = env
        self.handle = int(handle)

    def __eq__(self, other) -> bool:
        return isinstance(other, Object) and other.env is self.env and other.handle == self.handle

    def __hash__(self) -> int:
        return hash((id(self.env), self.handle))

    def __repr__(self) -> str:
        try:
            name = self.name
        except ValueError:
            name = "<erased>"
        return f"{type(self).__name__}({name!r}, handle={self.handle})"

    @property
    def name(self) -> str:
        return self.env._env.object_name(self.handle)

    @property
    def parent(self) -> Optional["Object"]:
        """The parent object, or None for the world."""
        return self.env._wrap(self.env._env.object_parent(self.handle))

    def set_parent(self, parent: Optional["Object"], keep_in_place: bool = True) -> None:
        """Re-parent; keep_in_place keeps the world pose, else the local transformation. A cycle
        in the hierarchy raises ValueError."""
        self.env._env.set_object_parent(self.handle, _handle_or_none(self.env, parent, "parent"),
                                        bool(keep_in_place))

    def get_transformation(self, relative_to: RelativeTo = None) -> tuple[np.ndarray, np.ndarray]:
        """(position (3,) m, quaternion (4,) wxyz) of this object (a joint: without its own joint
        motion) relative to the world (None), its parent ('parent') or another object's frame.
        Fresh arrays."""
        return self.env._env.object_pose(self.handle, _rel(self.env, relative_to))

    def set_transformation(self, position, quaternion_wxyz, relative_to: RelativeTo = None) -> None:
        """Place the object: position (3,) m and an orientation, a quaternion (4,) wxyz
        (normalised here) or a (3, 3) rotation matrix."""
        self.env._env.set_object_pose(self.handle, _rel(self.env, relative_to), position,
                                      _target_orientation(quaternion_wxyz, "quaternion_wxyz"))

    def get_matrix(self, relative_to: RelativeTo = None) -> np.ndarray:
        """The (4, 4) homogeneous transformation (fresh array)."""
        p, q = self.get_transformation(relative_to)
        m = np.eye(4)
        m[:3, :3] = rot.quat_to_matrix(q)
        m[:3, 3] = p
        return m

    def set_matrix(self, matrix, relative_to: RelativeTo = None) -> None:
        """Place the object from a (4, 4) or (3, 4) matrix whose 3x3 block is a rotation."""
        m = np.asarray(matrix, dtype=float)
        if m.shape not in ((4, 4), (3, 4)):
            raise ValueError(f"matrix must have shape (4, 4) or (3, 4), got shape {m.shape}")
        if not np.all(np.isfinite(m)):
            raise ValueError("matrix must be finite")
        r = m[:3, :3]
        if np.abs(r @ r.T - np.eye(3)).max() > 1e-6 or np.linalg.det(r) < 0:
            raise ValueError("matrix[:3, :3] must be a rotation matrix (orthonormal, det +1)")
        self.set_transformation(m[:3, 3], rot.matrix_to_quat(r), relative_to)

    def erase(self) -> None:
        """Erase the object: children keep their world pose and move to this object's parent;
        elements whose tip it is are removed; links and dependencies to it are cleared."""
        self.env._env.erase_object(self.handle)


class Dummy(Object):
    """A reference frame: IK tips, targets and bases."""

    __slots__ = ()

    @property
    def linked_dummy(self) -> Optional["Dummy"]:
        """The dummy linked to this one (tip <-> target), or None. Setting links both ways."""
        return self.env._wrap(self.env._env.linked_dummy(self.handle))

    @linked_dummy.setter
    def linked_dummy(self, other: Optional["Dummy"]) -> None:
        self.env._env.set_linked_dummy(self.handle, _handle_or_none(self.env, other, "linked_dummy"))


class Joint(Object):
    """A revolute (optionally a screw), prismatic or spherical joint moving about/along its own z
    axis. Positions in rad (revolute) or m (prismatic)."""

    __slots__ = ()

    @property
    def joint_type(self) -> JointType:
        return JointType(self.env._env.joint_type(self.handle))

    @property
    def mode(self) -> JointMode:
        """passive, IK (moved by IK groups) or dependent."""
        return JointMode(self.env._env.joint_mode(self.handle))

    @mode.setter
    def mode(self, mode: int) -> None:
        self.env._env.set_joint_mode(self.handle, int(mode))

    @property
    def position(self) -> float:
        """rad or m. Setting clamps to the interval (cyclic joints wrap to [-pi, pi)) and drives
        dependent joints; setting a dependent joint is ignored."""
        return self.env._env.joint_position(self.handle)

    @position.setter
    def position(self, value: float) -> None:
        self.env._env.set_joint_position(self.handle, float(value))

    def get_interval(self) -> tuple[bool, float, float]:
        """(cyclic, min, range): the limits are [min, min + range] (rad or m)."""
        return self.env._env.joint_interval(self.handle)

    def set_interval(self, cyclic: bool, min: float = 0.0, range: float = 0.0) -> None:  # noqa: A002
        """Cyclic (revolute without pitch only) or limits [min, min + range]. For a spherical
        joint (never cyclic) `range` is a cone half-angle (rad) about its own z axis: with
        range < 0.99 pi, a rotation tilting z further is pulled back onto the cone by the
        smallest extra rotation (Coppelia's rule); `min` is kept but unused."""
        self.env._env.set_joint_interval(self.handle, bool(cyclic), float(min), float(range))

    @property
    def screw_pitch(self) -> float:
        """m/rad: translation along z per radian of rotation (revolute joints)."""
        return self.env._env.joint_screw_pitch(self.handle)

    @screw_pitch.setter
    def screw_pitch(self, pitch: float) -> None:
        self.env._env.set_joint_screw_pitch(self.handle, float(pitch))

    @property
    def max_step_size(self) -> float:
        """Largest change per IK iteration (rad or m), used unless max steps are ignored."""
        return self.env._env.joint_max_step_size(self.handle)

    @max_step_size.setter
    def max_step_size(self, step: float) -> None:
        self.env._env.set_joint_max_step_size(self.handle, float(step))

    @property
    def ik_weight(self) -> float:
        """Resolution weight: a larger weight gives the joint more of the motion."""
        return self.env._env.joint_ik_weight(self.handle)

    @ik_weight.setter
    def ik_weight(self, weight: float) -> None:
        self.env._env.set_joint_ik_weight(self.handle, float(weight))

    @property
    def limit_margin(self) -> float:
        """Distance from a limit (rad or m) within which avoid-limits rows push back."""
        return self.env._env.joint_limit_margin(self.handle)

    @limit_margin.setter
    def limit_margin(self, margin: float) -> None:
        self.env._env.set_joint_limit_margin(self.handle, float(margin))

    def get_dependency(self) -> tuple[Optional["Joint"], float, float]:
        """(master or None, offset, mult): position = mult * master.position + offset."""
        master, offset, mult = self.env._env.joint_dependency(self.handle)
        return self.env._wrap(master), offset, mult

    def set_dependency(self, master: Optional["Joint"], offset: float = 0.0, mult: float = 1.0) -> None:
        """Make this joint follow `master` (None to free it). Loops raise ValueError."""
        self.env._env.set_joint_dependency(self.handle, _handle_or_none(self.env, master, "master"),
                                           float(offset), float(mult))

    @property
    def spherical_quaternion(self) -> np.ndarray:
        """(4,) wxyz: the rotation of a spherical joint."""
        return self.env._env.joint_spherical_quaternion(self.handle)

    @spherical_quaternion.setter
    def spherical_quaternion(self, q) -> None:
        self.env._env.set_spherical_quaternion(self.handle, q)

    def set_spherical_matrix(self, matrix) -> None:
        """Set a spherical joint's rotation from a (3, 3) rotation matrix."""
        m = np.asarray(matrix, dtype=float)
        if m.shape != (3, 3):
            raise ValueError(f"matrix must have shape (3, 3), got shape {m.shape}")
        if not np.all(np.isfinite(m)) or np.abs(m @ m.T - np.eye(3)).max() > 1e-6:
            raise ValueError("matrix must be a finite rotation matrix")
        self.spherical_quaternion = rot.matrix_to_quat(m)

    def get_joint_transformation(self) -> tuple[np.ndarray, np.ndarray]:
        """(position (3,), quaternion (4,) wxyz): the joint's own motion (intrinsic transform)."""
        return self.env._env.joint_intrinsic(self.handle)

    def get_joint_matrix(self) -> np.ndarray:
        """(4, 4) matrix of the joint's own motion."""
        p, q = self.get_joint_transformation()
        m = np.eye(4)
        m[:3, :3] = rot.quat_to_matrix(q)
        m[:3, 3] = p
        return m


class Element:
    """One tip/target pair of an IK group, addressed by its index in the group."""

    __slots__ = ("group", "index")

    def __init__(self, group: "Group", index: int):
        self.group = group
        self.index = int(index)

    def _info(self) -> dict:
        return self.group.env._env.element_info(self.group.handle_id, self.index)

    @property
    def _e(self):
        return self.group.env._env

    @property
    def tip(self) -> Dummy:
        return self.group.env._wrap(self._info()["tip"])

    @property
    def base(self) -> Optional[Object]:
        return self.group.env._wrap(self._info()["base"])

    @property
    def constraints_base(self) -> Optional[Object]:
        return self.group.env._wrap(self._info()["constraints_base"])

    def set_base(self, base: Optional[Object], constraints_base: Optional[Object] = None) -> None:
        """Base of the chain (None: the world) and the frame the constraints are expressed in
        (None: the base)."""
        env = self.group.env
        self._e.set_element_base(self.group.handle_id, self.index, _handle_or_none(env, base, "base"),
                                 _handle_or_none(env, constraints_base, "constraints_base"))

    @property
    def constraints(self) -> Constraint:
        return Constraint(self._info()["constraints"])

    @constraints.setter
    def constraints(self, c: int) -> None:
        self._e.set_element_constraints(self.group.handle_id, self.index, int(c))

    @property
    def precision(self) -> tuple[float, float]:
        """(linear m, angular rad) tolerances."""
        i = self._info()
        return i["linear_precision"], i["angular_precision"]

    @precision.setter
    def precision(self, value) -> None:
        lin, ang = value
        self._e.set_element_precision(self.group.handle_id, self.index, float(lin), float(ang))

    @property
    def weights(self) -> tuple[float, float, float]:
        """(linear, angular, element) resolution weights."""
        i = self._info()
        return i["linear_weight"], i["angular_weight"], i["weight"]

    @weights.setter
    def weights(self, value) -> None:
        value = tuple(value)
        if len(value) not in (2, 3):
            raise ValueError("weights must be (linear, angular) or (linear, angular, element)")
        elem = value[2] if len(value) == 3 else self.weights[2]
        self._e.set_element_weights(self.group.handle_id, self.index, float(value[0]), float(value[1]),
                                    float(elem))

    @property
    def enabled(self) -> bool:
        return self._info()["enabled"]

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._e.set_element_enabled(self.group.handle_id, self.index, bool(value))


@dataclass
class HandleResult:
    """Outcome of Group.handle(): the seed's result code and the calculation flags."""

    result: Result
    flags: CalcFlag

    @property
    def success(self) -> bool:
        return self.result == Result.SUCCESS


class Group:
    """An IK group: elements resolved together by one method."""

    __slots__ = ("env", "handle_id", "_core")

    def __init__(self, env: "Environment", handle: int):
        self.env = env
        self.handle_id = int(handle)
        self._core = env._core  # read by jacobian (C++)

    def __repr__(self) -> str:
        return f"Group({self.name!r}, handle={self.handle_id})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Group) and other.env is self.env and other.handle_id == self.handle_id

    def __hash__(self) -> int:
        return hash((id(self.env), self.handle_id))

    @property
    def name(self) -> str:
        return self.env._env.group_name(self.handle_id)

    def add_element(self, tip: Dummy) -> Element:
        """Add an element whose tip is `tip` (its target is the dummy linked to it)."""
        if not isinstance(tip, Dummy):
            raise ValueError(f"tip must be a Dummy, got {type(tip).__name__}")
        self.env._check_same(tip, "tip")
        return Element(self, self.env._env.add_element(self.handle_id, tip.handle))

    @property
    def elements(self) -> list[Element]:
        return [Element(self, i) for i in range(self.env._env.element_count(self.handle_id))]

    def element(self, key: Union[int, Dummy]) -> Element:
        """The element at an index, or the first one whose tip is the given dummy."""
        if isinstance(key, Dummy):
            for e in self.elements:
                if e.tip == key:
                    return e
            raise ValueError(f"IK group {self.name!r} has no element with tip {key.name!r}")
        n = self.env._env.element_count(self.handle_id)
        if not 0 <= int(key) < n:
            raise IndexError(f"element index {key} out of range ({n} elements)")
        return Element(self, int(key))

    def get_calculation(self) -> tuple[Method, float, int]:
        """(method, damping, max_iterations)."""
        m, d, it = self.env._env.group_calculation(self.handle_id)
        return Method(m), d, it

    def set_calculation(self, method: int, damping: float = 0.1, max_iterations: int = 3) -> None:
        """Resolution method, DLS damping (used by DAMPED_LEAST_SQUARES) and iterations."""
        self.env._env.set_group_calculation(self.handle_id, _c_int(method, "method"), float(damping),
                                            _c_int(max_iterations, "max_iterations"))

    @property
    def flags(self) -> GroupFlag:
        return GroupFlag(self.env._env.group_flags(self.handle_id))

    @flags.setter
    def flags(self, flags: int) -> None:
        self.env._env.set_group_flags(self.handle_id, _c_int(flags, "flags"))

    def handle(self) -> HandleResult:
        """Resolve the group (moves its IK joints). Releases the GIL; Ctrl-C interrupts it
        (KeyboardInterrupt, the joints put back)."""
        r, f = self.env._compute("handle_group", self.handle_id)
        return HandleResult(Result(r), CalcFlag(f))

    def compute_jacobian(self, options: int = 0) -> bool:
        """Compute and store J (rows by constraint, columns by IK joint); options bit0 scales the
        columns by the joint IK weights. False when the group has no valid element."""
        return self.env._compute("compute_jacobian", self.handle_id, int(options))

    def get_jacobian(self) -> np.ndarray:
        """The (rows, columns) Jacobian stored by compute_jacobian (fresh array)."""
        return self.env._env.jacobian(self.handle_id)[0]

    # jacobian(q=None, out=None) -> (rows, columns) array: compute the Jacobian at q (columns,)
    # — set into the IK joints first, column order — or at the current configuration. Rows x, y,
    # z are in the constraint-base frame, alpha, beta, gamma in the tip frame (per element). A
    # fresh array, or `out` (float64, C-contiguous, (rows, columns)) filled in place and
    # returned: the fastest per-call path, with q a float64 array. Bound in C++ (no Python frame
    # per call: this is the hot path of Jacobian-based controllers); the core checks `busy`.
    jacobian = _cik._group_jacobian_method

    def get_manipulability(self) -> float:
        """sqrt(det(J J^T)) of the stored Jacobian."""
        j = self.get_jacobian()
        return float(np.sqrt(max(0.0, np.linalg.det(j @ j.T))))

    @property
    def columns(self) -> list[Joint]:
        """The joint of each Jacobian column (a spherical joint appears three times)."""
        return [self.env._wrap(h) for h in self.env._env.group_columns(self.handle_id)[0]]

    def get_config_for_tip_pose(
        self,
        joints: Sequence[Joint],
        threshold_dist: float = 0.1,
        max_iterations: int = 1000,
        metric: Optional[Sequence[float]] = None,
        validation_callback: Optional[Callable[[np.ndarray], bool]] = None,
        joint_options: Optional[Sequence[int]] = None,
        low_limits: Optional[Sequence[float]] = None,
        ranges: Optional[Sequence[float]] = None,
    ) -> Optional[np.ndarray]:
        """Randomised search for a configuration that puts the tips on their targets.

        Returns the (len(joints),) joint values or None; the environment is left unchanged.
        max_iterations < 0 means a time limit of -max_iterations ms. metric (4,) weighs
        (dx, dy, dz, angle) in the distance compared with threshold_dist. ranges < 0: a window of
        that width centred on the current value. Reproducible: the environment's own random
        stream (seeded at creation; use Environment.seed()). Releases the GIL; Ctrl-C
        interrupts it (KeyboardInterrupt, the joints put back).
        As in the seed, only the listed joints move during the search (every other joint is
        passive for it) and a disabled group is enabled for it; modes and flags are restored.
        """
        hs = []
        for j in joints:
            if not isinstance(j, Joint):
                raise ValueError(f"joints must be Joint objects, got {type(j).__name__}")
            self.env._check_same(j, "joints")
            hs.append(j.handle)
        found, q = self.env._compute(
            "config_for_tip_pose", self.handle_id, hs, float(threshold_dist),
            _c_int(max_iterations, "max_iterations"), metric,
            validation_callback, None if joint_options is None else [int(v) for v in joint_options],
            low_limits, ranges)
        return q if found else None


@dataclass
class SolveResult:
    """Result of Environment.solve: joint values (column order), success, errors (m, rad)."""

    q: np.ndarray
    success: bool
    position_error: float
    orientation_error: float
    iterations: int
    attempts: int


class Environment:
    """An IK environment. Several can exist at once; each is independent."""

    def __init__(self):
        self._core = _cik.Environment()
        self.chain_group: Optional[Group] = None
        self.chain_joints: list[Joint] = []
        self.tip: Optional[Dummy] = None
        self.target: Optional[Dummy] = None
        self.base: Optional[Dummy] = None

    # ---- internal ----
    @property
    def _env(self):
        """The C++ environment; refuses access while a compute call (which releases the GIL) is
        running on it, so another thread or a validation callback cannot change it mid-solve."""
        if self._core.busy:
            raise RuntimeError("this IK environment is busy in a compute call (solve, handle, "
                               "configuration search, ...): an Environment must not be used "
                               "from another thread or from a validation callback meanwhile")
        return self._core

    def _compute(self, name: str, *args):
        # compute calls mark the environment busy in C++ (and refuse a busy one themselves)
        return getattr(self._core, name)(*args)

    def _wrap(self, handle: int):
        if handle < 0:
            return None
        t = self._env.object_type(handle)
        return Joint(self, handle) if t == ObjectType.JOINT else Dummy(self, handle)

    def _check_same(self, obj, name: str) -> None:
        if obj.env is not self:
            raise ValueError(f"{name} belongs to another IK environment")

    def seed(self, seed: int) -> None:
        """Reseed this environment's random stream (used by get_config_for_tip_pose)."""
        if not 0 <= int(seed) < 2**64:
            raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        self._env.seed(int(seed))

    # ---- objects ----
    def create_dummy(self, name: Optional[str] = None) -> Dummy:
        """A new dummy at the world origin (a unique name is made up when None)."""
        return Dummy(self, self._env.create_dummy(name or ""))

    def create_joint(self, name: Optional[str] = None, joint_type: int = JointType.REVOLUTE) -> Joint:
        """A new joint (revolute: cyclic, max step 10 deg; prismatic: [-0.5, 0.5] m, max step
        0.1 m; spherical), in IK mode, at the world origin."""
        return Joint(self, self._env.create_joint(name or "", int(joint_type)))

    def object(self, name: str) -> Object:
        """The object with this name (ValueError if none)."""
        return self._wrap(self._env.object_handle(name))

    def does_object_exist(self, name: str) -> bool:
        return self._env.does_object_exist(name)

    def objects(self) -> list[Object]:
        return [self._wrap(self._env.object_info(i)[0]) for i in range(self._env.object_count())]

    def erase_object(self, obj: Object) -> None:
        self._check_same(obj, "obj")
        obj.erase()

    # ---- groups ----
    def create_ik_group(self, name: Optional[str] = None) -> Group:
        """A new IK group: pseudo-inverse, 3 iterations, enabled, max steps ignored."""
        return Group(self, self._env.create_group(name or ""))

    def ik_group(self, name: str) -> Group:
        return Group(self, self._env.group_handle(name))

    def does_ik_group_exist(self, name: str) -> bool:
        return self._env.does_group_exist(name)

    def ik_groups(self) -> list[Group]:
        return [Group(self, h) for h in self._env.group_handles()]

    def handle_ik_groups(self) -> Result:
        """Handle every enabled group in creation order, each on its own (the seed's
        ik_handle_all)."""
        return Result(self._compute("handle_group", HANDLE_ALL)[0])

    def handle_groups(self, groups: Sequence[Group]) -> HandleResult:
        """Resolve several groups together (Coppelia's ikHandleGroups): every group's step acts
        in the null space of the groups listed before it, dq = dq0 + N0 (dq1 + N1 (...)) with
        N = I - J# J, so earlier groups have priority. The first group's iteration count and
        flags drive the loop; disabled groups are skipped. Releases the GIL; Ctrl-C interrupts
        it (KeyboardInterrupt, the joints put back)."""
        handles = []
        for i, g in enumerate(groups):
            if not isinstance(g, Group):
                raise ValueError(f"groups[{i}] must be a Group, got {type(g).__name__}")
            self._check_same(g, f"groups[{i}]")
            handles.append(g.handle_id)
        r, f = self._compute("handle_groups", handles)
        return HandleResult(Result(r), CalcFlag(f))

    # ---- serialization ----
    def save(self) -> bytes:
        """The environment as the routines' kinematic-content format (version 1; float32)."""
        return self._compute("save")

    def load(self, data: bytes) -> None:
        """Load kinematic content into this (empty) environment.

        Values pass the setters' checks (ValueError 'malformed kinematic content: ...' naming the
        object, group or element and the field); joint positions are kept inside their loaded
        intervals, as set_joint_position keeps them (float32 rounding of a position saved at a
        limit is clamped, not an error)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError(f"data must be bytes, got {type(data).__name__}")
        self._compute("load", bytes(data))

    @classmethod
    def from_bytes(cls, data: bytes) -> "Environment":
        env = cls()
        env.load(data)
        return env

    # ---- chains ----
    @classmethod
    def from_chain(cls, joints: Iterable["ChainJoint"], tip_position=(0, 0, 0),
                   tip_quaternion_wxyz=(1, 0, 0, 0), base_position=(0, 0, 0),
                   base_quaternion_wxyz=(1, 0, 0, 0), constraints: int = Constraint.POSE) -> "Environment":
        """An environment holding one serial chain and one IK group for it.

        Each ChainJoint gives its frame relative to the previous link (URDF-style origin), its
        axis in that frame, its type and limits. The tip frame is given relative to the last
        link. The group uses Coppelia's element defaults except `constraints` (default: pose).
        This is the layer the robot bridges (from_urdf, from_articulated_system) build on.
        """
        from ._chain import build_chain

        env = cls()
        build_chain(env, list(joints), tip_position, tip_quaternion_wxyz, base_position,
                    base_quaternion_wxyz, int(constraints))
        return env

    @classmethod
    def from_articulated_system(cls, system, tip_frame: str, base_frame: Optional[str] = None, *,
                                constraints: int = Constraint.POSE) -> "Environment":
        """An environment with one IK group for the chain of a torsion ArticulatedSystem from
        base_frame (default: the robot's root) to tip_frame: its revolute and prismatic joints
        with their URDF origins, axes and limits, starting at the robot's current configuration.
        The IK base is placed where the chain's base is in the world now, so targets are world
        poses. Write a result back with env.apply(system, result.q) or
        env.apply(system, result.q, as_pd_target=True). ValueError for an unknown frame, a tip
        not below the base, or a spherical joint on the chain."""
        from ._bridge import from_articulated_system

        return from_articulated_system(cls, system, tip_frame, base_frame, constraints=constraints)

    @classmethod
    def from_urdf(cls, path, tip_frame: str, base_frame: Optional[str] = None, *, res_path: str = "",
                  fixed_base: Optional[bool] = None, constraints: int = Constraint.POSE) -> "Environment":
        """from_articulated_system for a URDF file path or URDF string (loaded into a private
        World with the robot at its zero configuration; fixed_base as in add_articulated_system)."""
        from ._bridge import from_urdf

        return from_urdf(cls, path, tip_frame, base_frame, res_path=res_path, fixed_base=fixed_base,
                         constraints=constraints)

    def apply(self, system, q, as_pd_target: bool = False) -> None:
        """Write chain joint values q (column order, e.g. SolveResult.q) into the robot this
        environment was built from: as its generalized coordinates, or as its PD position
        targets (the other targets unchanged)."""
        from ._bridge import apply

        apply(self, system, q, as_pd_target)

    def solve(self, target_position, target_quaternion_wxyz=None, q_start=None, *,
              max_iterations: int = 64, max_restarts: int = 100, damping: float = 1e-3,
              max_step: float = 0.5, seed: int = 0, group: Optional[Group] = None) -> SolveResult:
        """Recommended one-call IK for a chain group (default: the one from_chain built).

        Damped least squares from q_start (default: the current joint values), step-limited
        (max_step rad or m per joint per iteration) and within the joint limits, stopping when
        the element's precision is met; if that fails, restarts from random configurations
        within the limits (seeded: deterministic). target_position (3,) m in the world;
        target_quaternion_wxyz: a quaternion (4,) wxyz or a (3, 3) rotation matrix (such as
        get_frame_orientation returns); or target_position a (4, 4) pose and no orientation.
        q_start: (n,) in column order (self.chain_joints). The
        environment is left at the returned q. Releases the GIL; Ctrl-C interrupts it
        (KeyboardInterrupt, the joints put back).
        """
        g = group if group is not None else self.chain_group
        if g is None:
            raise RuntimeError("solve() needs a chain group: build the environment with "
                               "from_chain() or pass group=")
        if not 0 <= int(seed) < 2**64:
            raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        for name, value in (("max_iterations", max_iterations), ("max_restarts", max_restarts)):
            if not 0 <= int(value) < 2**31:
                raise ValueError(f"{name} must be in [0, 2**31), got {value}")
        target_position, target_quaternion_wxyz = _target_pose(
            target_position, target_quaternion_wxyz, "solve")
        q, ok, pe, oe, its, att = self._compute(
            "solve",
            g.handle_id, target_position, target_quaternion_wxyz, q_start, int(max_iterations),
            int(max_restarts), float(damping), float(max_step), int(seed))
        return SolveResult(q, ok, pe, oe, its, att)

    def forward_kinematics(self, q) -> tuple[np.ndarray, np.ndarray]:
        """Set the chain joints to q and return the tip's world (position, quaternion wxyz)."""
        if self.tip is None:
            raise RuntimeError("forward_kinematics() needs a chain built with from_chain()")
        q = np.asarray(q, dtype=float)
        if q.shape != (len(self.chain_joints),):
            raise ValueError(f"q must have shape ({len(self.chain_joints)},), got shape {q.shape}")
        for j, v in zip(self.chain_joints, q):
            j.position = v
        return self.tip.get_transformation()


@dataclass
class ChainJoint:
    """One joint of a serial chain, URDF-style.

    position (3,) m and quaternion_wxyz (4,): the joint frame relative to the previous link's
    frame (the base for the first joint); axis (3,): the joint axis in the joint frame;
    joint_type: REVOLUTE or PRISMATIC; lower/upper: limits (None for a cyclic revolute joint).
    """

    position: Sequence[float]
    quaternion_wxyz: Sequence[float] = (1.0, 0.0, 0.0, 0.0)
    axis: Sequence[float] = (0.0, 0.0, 1.0)
    joint_type: int = JointType.REVOLUTE
    lower: Optional[float] = None
    upper: Optional[float] = None
    name: Optional[str] = None
