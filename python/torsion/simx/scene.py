"""The scene model behind the simx facade: CoppeliaSim's view of a torsion World.

Every torsion object, and every joint, link and fixed frame of an articulated system, gets an
integer handle and an alias; dummies, proximity sensors and vision sensors exist only here (frames
without mass, attached to a parent). The model answers hierarchy queries, reads and writes poses
in CoppeliaSim's conventions, runs the simulation state machine (stopped / running / paused) and
keeps signals, parameters, drawing objects and the headless UI record. It knows nothing of simx
function names or of any transport, so other protocols (CoppeliaSim's ZMQ API) can sit on it.

Conventions (CoppeliaSim's, converted at this boundary):
- quaternions are (x, y, z, w) here, torsion's (w, x, y, z) inside;
- Euler angles (alpha, beta, gamma) mean R = Rx(alpha) @ Ry(beta) @ Rz(gamma);
- a matrix is the 12 values (Xx, Yx, Zx, Px, Xy, Yy, Zy, Py, Xz, Yz, Zz, Pz);
- a pose is (x, y, z, qx, qy, qz, qw).

Hierarchy of a robot named ``iiwa``: the model base ``/iiwa`` (its root link) has as children the
joints whose parent is the root link; each joint has its child link as child, and so on. A
movable joint's frame is fixed to the parent link (its placement in the URDF); the child link
moves with the joint. A fixed joint that torsion merged into its parent body becomes a force
sensor (as CoppeliaSim's URDF importer does) measuring the wrench transmitted to the subtree.
"""

from __future__ import annotations

import math
import os
import re
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from . import constants as C

# ----------------------------------------------------------------------------------------------
# rotations


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def euler_to_matrix(euler) -> np.ndarray:
    """CoppeliaSim's (alpha, beta, gamma): R = Rx(alpha) Ry(beta) Rz(gamma)."""
    a, b, g = (float(v) for v in euler)
    return _rx(a) @ _ry(b) @ _rz(g)


def matrix_to_euler(r: np.ndarray) -> list[float]:
    """Inverse of euler_to_matrix; beta in [-pi/2, pi/2]; at gimbal lock gamma is 0."""
    sb = max(-1.0, min(1.0, float(r[0, 2])))
    beta = math.asin(sb)
    if abs(sb) < 1.0 - 1e-12:
        alpha = math.atan2(-r[1, 2], r[2, 2])
        gamma = math.atan2(-r[0, 1], r[0, 0])
    else:
        alpha = math.atan2(r[2, 1], r[1, 1])
        gamma = 0.0
    return [alpha, beta, gamma]


def quat_xyzw_to_matrix(q) -> np.ndarray:
    x, y, z, w = (float(v) for v in q)
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if not n > 0.0 or not math.isfinite(n):
        raise ValueError(f"quaternion must be finite and non-zero, got {list(q)}")
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def matrix_to_quat_xyzw(r: np.ndarray) -> list[float]:
    """Shepperd's method; the sign is chosen so that w >= 0."""
    t = r[0, 0] + r[1, 1] + r[2, 2]
    if t > 0.0:
        s = math.sqrt(t + 1.0) * 2.0
        w, x, y, z = 0.25 * s, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        s = math.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2]) * 2.0
        w, x, y, z = (r[2, 1] - r[1, 2]) / s, 0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s
    elif r[1, 1] > r[2, 2]:
        s = math.sqrt(1.0 + r[1, 1] - r[0, 0] - r[2, 2]) * 2.0
        w, x, y, z = (r[0, 2] - r[2, 0]) / s, (r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s
    else:
        s = math.sqrt(1.0 + r[2, 2] - r[0, 0] - r[1, 1]) * 2.0
        w, x, y, z = (r[1, 0] - r[0, 1]) / s, (r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    n = math.sqrt(x * x + y * y + z * z + w * w)
    return [x / n, y / n, z / n, w / n]


_EYE4 = np.eye(4)


def make_T(p, r) -> np.ndarray:
    """4x4 homogeneous transform from a position (3,) and a rotation (3, 3)."""
    t = _EYE4.copy()
    t[:3, :3] = r
    t[:3, 3] = p
    return t


def inv_T(t: np.ndarray) -> np.ndarray:
    out = np.eye(4)
    rt = t[:3, :3].T
    out[:3, :3] = rt
    out[:3, 3] = -rt @ t[:3, 3]
    return out


def vec(value, n: int, name: str) -> np.ndarray:
    """A finite float vector of n values (ValueError / TypeError naming the argument)."""
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be {n} numbers, got {type(value).__name__}")
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be {n} numbers, got {value!r:.80}") from None
    if arr.shape != (n,):
        raise ValueError(f"{name} must have {n} values, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {arr.tolist()}")
    return arr


def fnum(value, name: str, *, positive: bool = False, nonneg: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v}")
    if positive and not v > 0.0:
        raise ValueError(f"{name} must be > 0, got {v}")
    if nonneg and v < 0.0:
        raise ValueError(f"{name} must be >= 0, got {v}")
    return v


def inum(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return int(value)


# ----------------------------------------------------------------------------------------------
# nodes

KIND_BODY = "body"  # a torsion single-body object (a shape)
KIND_ROBOT = "robot"  # an articulated system: its root link, the model base
KIND_LINK = "link"  # a body of an articulated system other than the root
KIND_JOINT = "joint"  # a movable joint
KIND_FORCE = "force_sensor"  # a fixed joint (merged by torsion), measuring its wrench
KIND_DUMMY = "dummy"
KIND_PROXIMITY = "proximity_sensor"
KIND_VISION = "vision_sensor"

_TYPE_OF_KIND = {
    KIND_BODY: C.OBJECT_SHAPE,
    KIND_ROBOT: C.OBJECT_SHAPE,
    KIND_LINK: C.OBJECT_SHAPE,
    KIND_JOINT: C.OBJECT_JOINT,
    KIND_FORCE: C.OBJECT_FORCESENSOR,
    KIND_DUMMY: C.OBJECT_DUMMY,
    KIND_PROXIMITY: C.OBJECT_PROXIMITYSENSOR,
    KIND_VISION: C.OBJECT_VISIONSENSOR,
}

# kinds whose pose is the scene's own (a local transform relative to the parent)
_LOCAL_KINDS = (KIND_DUMMY, KIND_PROXIMITY, KIND_VISION)


@dataclass
class Node:
    handle: int
    alias: str
    kind: str
    parent: Optional["Node"] = None
    children: list = field(default_factory=list)
    obj: Any = None  # torsion object (single body or articulated system)
    body: int = -1  # body index in the articulated system (robot root, links)
    frame: str = ""  # torsion frame name (links, joints, force sensors)
    joint: Optional[dict] = None  # get_joints() record (joints)
    local: np.ndarray = field(default_factory=lambda: np.eye(4))  # scene-only kinds
    props: dict = field(default_factory=dict)  # size, colour, sensor parameters, ...
    oid: int = -1  # stable id of the torsion object (bodies, robot bases)

    @property
    def object_type(self) -> int:
        return _TYPE_OF_KIND[self.kind]


@dataclass
class DrawingObject:
    handle: int
    kind: str  # points, segments, cubes, spheres, triangles
    size: float
    color: list
    items: np.ndarray  # (N, 3), (N, 6) or (N, 9)


class SceneError(ValueError):
    """A request the scene refuses (bad handle, wrong object kind, ...)."""


@dataclass
class _RobotInfo:
    joints: list  # get_joints()
    kp: np.ndarray
    kd: np.ndarray
    q_ref: np.ndarray
    v_ref: np.ndarray
    position_ctrl: np.ndarray  # bool per dof: position control (else velocity control)
    driven: bool = False  # simx has set a target: PD control is on
    source: Optional[str] = None  # URDF text or path it was loaded from (copy/paste)
    prev_body_motion: Optional[tuple] = None  # (com velocities, angular momenta) last step
    force_tracking: bool = False
    wrenches: Optional[dict] = None  # frame name -> (force, torque) of the last step


DEFAULT_KP = 10000.0
DEFAULT_KD = 500.0
DEFAULT_KD_VELOCITY = 500.0


class Scene:
    """CoppeliaSim's scene over one torsion World.

    All methods are thread-safe (one re-entrant lock, ``scene.lock``). Errors are ValueError
    (bad values, unknown handles: SceneError), TypeError (wrong types) or RuntimeError (wrong
    state); the simx layer turns them into B0's ``[False, message]`` replies.
    """

    def __init__(self, world=None):
        import torsion

        self._torsion = torsion
        self.lock = threading.RLock()
        self.world = world if world is not None else torsion.World()
        self._next_handle = 1
        self._nodes: dict[int, Node] = {}
        self._by_obj_id: dict[int, Node] = {}
        self._robots: dict[int, _RobotInfo] = {}  # object id -> info
        self._config_number = None
        self.scene_path = ""
        # simulation state
        self.state = C.SIMULATION_STOPPED
        self.step_count = 0
        self._start_time = 0.0
        self._start_checkpoint = None
        self.dynamics_enabled = True
        self.realtime = True
        # signals and parameters
        self.int_signals: dict[str, int] = {}
        self.float_signals: dict[str, float] = {}
        self.string_signals: dict[str, bytes] = {}
        self.background_color1 = [0.0, 0.0, 0.0]
        self.background_color2 = [0.0, 0.0, 0.0]
        self.ambient_light = [0.2, 0.2, 0.2]
        self._rand = np.random.default_rng(0)
        # drawing objects, selection, headless UI
        self._next_drawing = 1
        self.drawings: dict[int, DrawingObject] = {}
        self.selection: list[int] = []
        self.status_messages: deque = deque(maxlen=10000)  # the newest status bar lines
        self._next_ui = 1
        self.consoles: dict[int, dict] = {}
        self.dialogs: dict[int, dict] = {}
        # owner-registered things
        self.script_functions: dict[str, Callable] = {}
        self.collections: dict[str, list[int]] = {}
        self.collision_objects: dict[int, tuple] = {}
        self.distance_objects: dict[int, tuple] = {}
        self._named_handles: dict[str, int] = {}
        self._vision_cache: dict[int, tuple] = {}
        self._server_t0 = time.monotonic()
        self.render_threads = 0  # threads of the ray-cast camera (0: all cores; same image either way)
        self.sync()

    # ------------------------------------------------------------------------------------------
    # hierarchy

    def _new_handle(self) -> int:
        h = self._next_handle
        self._next_handle += 1
        return h

    def _add_node(self, node: Node, parent: Optional[Node]) -> Node:
        node.parent = parent
        if parent is not None:
            parent.children.append(node)
        self._nodes[node.handle] = node
        return node

    def _default_alias(self, obj) -> str:
        name = obj.get_name()
        if name:
            return name
        if isinstance(obj, self._torsion.ArticulatedSystem):
            return "robot"
        return str(obj.get_object_type().name).capitalize().replace("_", "")

    def sync(self) -> None:
        """Bring the node tree up to date with the world's objects (added or removed directly
        on the World). Cheap when nothing changed (the world's configuration number)."""
        with self.lock:
            cfg = self.world.get_configuration_number()
            if cfg == self._config_number:
                return
            self._config_number = cfg
            alive = {}
            for obj in self.world.get_object_list():
                alive[obj.get_id()] = obj
            for oid in [i for i in self._by_obj_id if i not in alive]:
                self._drop_tree(self._by_obj_id[oid])
            for oid, obj in alive.items():
                if oid in self._by_obj_id:
                    continue
                if isinstance(obj, self._torsion.ArticulatedSystem):
                    self._add_robot(obj)
                else:
                    node = Node(self._new_handle(), self._default_alias(obj), KIND_BODY, obj=obj, oid=oid)
                    self._add_node(node, None)
                    self._by_obj_id[oid] = node

    def _add_robot(self, asys, source: Optional[str] = None) -> Node:
        joints = asys.get_joints()
        dof = asys.get_dof()
        kp, kd = asys.get_pd_gains()
        info = _RobotInfo(
            joints=joints,
            kp=np.where(kp > 0, kp, DEFAULT_KP),
            kd=np.where(kd > 0, kd, DEFAULT_KD),
            q_ref=np.zeros(dof),
            v_ref=np.zeros(dof),
            position_ctrl=np.ones(dof, dtype=bool),
            source=source,
        )
        gc = asys.get_generalized_coordinate()
        for j in joints:
            if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
                info.q_ref[j["gv_index"]] = gc[j["gc_index"]]
        self._robots[asys.get_id()] = info
        root = Node(self._new_handle(), self._default_alias(asys), KIND_ROBOT, obj=asys, body=0, oid=asys.get_id())
        root.frame = joints[0]["joint"]
        self._add_node(root, None)
        self._by_obj_id[asys.get_id()] = root
        body_nodes = {0: root}
        if joints[0]["type"] == "fixed" and joints[0]["joint"]:
            fs = Node(self._new_handle(), joints[0]["joint"], KIND_FORCE, obj=asys, body=0, frame=joints[0]["joint"])
            self._add_node(fs, root)
        for b, j in enumerate(joints):
            if b == 0:
                continue
            parent = body_nodes[j["parent"]]
            jn = Node(self._new_handle(), j["joint"], KIND_JOINT, obj=asys, body=b, frame=j["joint"], joint=j)
            self._add_node(jn, parent)
            link = Node(self._new_handle(), j["body"], KIND_LINK, obj=asys, body=b, frame=j["joint"])
            self._add_node(link, jn)
            body_nodes[b] = link
        # fixed joints torsion merged into their parent body: force sensors on that body
        movable = {j["joint"] for j in joints}
        for fname in asys.get_frame_names():
            if fname in movable:
                continue
            b, _, _ = asys.get_frame_placement(fname)
            fs = Node(self._new_handle(), fname, KIND_FORCE, obj=asys, body=int(b), frame=fname)
            self._add_node(fs, body_nodes[int(b)])
        return root

    def _drop_tree(self, node: Node) -> None:
        for child in list(node.children):
            if child.kind in _LOCAL_KINDS or child.kind in (KIND_BODY, KIND_ROBOT):
                # children that are not part of a robot survive as parentless objects; scene-only
                # frames keep their world pose (their last pose relative to the parent when the
                # parent is already gone)
                if child.kind in _LOCAL_KINDS:
                    try:
                        child.local = self.world_T(child)
                    except RuntimeError:
                        pass
                node.children.remove(child)
                child.parent = None
            else:
                self._drop_tree(child)
        if node.parent is not None and node in node.parent.children:
            node.parent.children.remove(node)
        self._nodes.pop(node.handle, None)
        self._vision_cache.pop(node.handle, None)
        if node.kind in (KIND_BODY, KIND_ROBOT):
            self._by_obj_id.pop(node.oid, None)
            self._robots.pop(node.oid, None)
        if node.handle in self.selection:
            self.selection.remove(node.handle)

    def node(self, handle, name: str = "handle") -> Node:
        h = inum(handle, name)
        self.sync()
        n = self._nodes.get(h)
        if n is None:
            raise SceneError(f"{name}: no object with handle {h}")
        return n

    def handles(self) -> list[int]:
        self.sync()
        return sorted(self._nodes)

    def roots(self) -> list[Node]:
        return [self._nodes[h] for h in sorted(self._nodes) if self._nodes[h].parent is None]

    def children(self, node: Optional[Node]) -> list[Node]:
        return list(node.children) if node is not None else self.roots()

    def tree(self, base: Optional[Node]) -> list[Node]:
        """base and its descendants, depth first (parentless objects for base None)."""
        out = []
        stack = [base] if base is not None else list(reversed(self.roots()))
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(reversed(n.children))
        return out

    # paths ----------------------------------------------------------------------------------

    _SEG = re.compile(r"^(?P<alias>[^\[\]/]+)(\[(?P<idx>\d+)\])?$")

    def _bfs(self, start: Optional[Node]) -> list[Node]:
        out, queue = [], list(self.children(start))
        while queue:
            n = queue.pop(0)
            out.append(n)
            queue.extend(n.children)
        return out

    def find(self, path: str) -> Node:
        """Resolve a CoppeliaSim path: '/a/b[1]/c' (each segment: the k-th descendant, breadth
        first, whose alias matches), or a bare alias (the first object anywhere with it)."""
        if isinstance(path, (bytes, bytearray)):
            path = bytes(path).decode("utf-8", "replace")
        if not isinstance(path, str):
            raise TypeError(f"objectPath must be a string, got {type(path).__name__}")
        self.sync()
        silent = path.endswith("@silentError")
        p = path[: -len("@silentError")] if silent else path
        if not p.startswith("/"):
            segs = [p]
        else:
            segs = [s for s in p.split("/")[1:]]
        cur: Optional[Node] = None
        for seg in segs:
            m = self._SEG.match(seg)
            if not m:
                raise SceneError(f"objectPath: malformed path {path!r}")
            alias, idx = m.group("alias"), int(m.group("idx") or 0)
            matches = [n for n in self._bfs(cur) if n.alias == alias]
            if idx >= len(matches):
                raise SceneError(f"objectPath: no object at {path!r}")
            cur = matches[idx]
        if cur is None:
            raise SceneError(f"objectPath: no object at {path!r}")
        return cur

    def path_of(self, node: Node) -> str:
        """The full path that find() resolves back to this node (indices where needed)."""
        chain = []
        n: Optional[Node] = node
        while n is not None:
            chain.append(n)
            n = n.parent
        chain.reverse()
        parts, cur = [], None
        for n in chain:
            matches = [m for m in self._bfs(cur) if m.alias == n.alias]
            k = matches.index(n)
            parts.append(n.alias if k == 0 else f"{n.alias}[{k}]")
            cur = n
        return "/" + "/".join(parts)

    # ------------------------------------------------------------------------------------------
    # poses

    def _body_T(self, asys, frame: str) -> np.ndarray:
        return make_T(asys.get_frame_position(frame), asys.get_frame_orientation(frame))

    def world_T(self, node: Node) -> np.ndarray:
        k = node.kind
        if k == KIND_BODY:
            return make_T(node.obj.get_position(), node.obj.get_rotation_matrix())
        if k in (KIND_ROBOT, KIND_LINK, KIND_FORCE):
            return self._body_T(node.obj, node.frame)
        if k == KIND_JOINT:
            j = node.joint
            parent_frame = self._robots[node.obj.get_id()].joints[j["parent"]]["joint"]
            return self._body_T(node.obj, parent_frame) @ make_T(j["position"], j["rotation"])
        parent = self.world_T(node.parent) if node.parent is not None else np.eye(4)
        return parent @ node.local

    def ref_T(self, node: Node, rel) -> np.ndarray:
        r = C.lookup(rel, "relObjHandle")
        if r == C.HANDLE_WORLD:
            return np.eye(4)
        if r == C.HANDLE_PARENT:
            return self.world_T(node.parent) if node.parent is not None else np.eye(4)
        return self.world_T(self.node(r, "relObjHandle"))

    def get_T(self, handle, rel) -> np.ndarray:
        with self.lock:
            n = self.node(handle, "objectHandle")
            if rel == C.HANDLE_WORLD and not isinstance(rel, bool):
                return self.world_T(n)
            return inv_T(self.ref_T(n, rel)) @ self.world_T(n)

    def set_T(self, handle, rel, t_rel: np.ndarray) -> None:
        """Place an object; a dynamic body is reset (velocities zeroed, as
        sim.resetDynamicObject) before it is moved."""
        with self.lock:
            n = self.node(handle, "objectHandle")
            t_world = self.ref_T(n, rel) @ t_rel
            if n.kind in _LOCAL_KINDS:
                parent = self.world_T(n.parent) if n.parent is not None else np.eye(4)
                n.local = inv_T(parent) @ t_world
            elif n.kind == KIND_BODY:
                obj = n.obj
                obj.set_position(t_world[:3, 3])
                obj.set_orientation_from_matrix(t_world[:3, :3])
                if hasattr(obj, "set_velocity"):
                    obj.set_velocity(np.zeros(3), np.zeros(3))
            elif n.kind == KIND_ROBOT:
                asys = n.obj
                j0 = self._robots[asys.get_id()].joints[0]
                if j0["type"] != "floating":
                    raise SceneError(
                        f"objectHandle {n.handle}: the base of a fixed-base robot cannot be moved"
                    )
                gc = asys.get_generalized_coordinate()
                # the root body frame is the base coordinates' frame
                gc[0:3] = t_world[:3, 3]
                x, y, z, w = matrix_to_quat_xyzw(t_world[:3, :3])
                gc[3:7] = [w, x, y, z]
                asys.set_state(gc, np.zeros(asys.get_dof()))
            else:
                raise SceneError(
                    f"objectHandle {n.handle}: the pose of a robot's {n.kind.replace('_', ' ')} "
                    "follows its joints; set joint positions instead"
                )
            self._vision_cache.clear()

    def velocity(self, handle) -> tuple[list, list]:
        """Linear velocity of the object's origin and angular velocity (world, m/s, rad/s)."""
        with self.lock:
            n = self.node(handle, "handle")
            return self._velocity(n)

    def _velocity(self, n: Node):
        if n.kind == KIND_BODY:
            if hasattr(n.obj, "get_linear_velocity"):
                return n.obj.get_linear_velocity().tolist(), n.obj.get_angular_velocity().tolist()
            return [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        if n.kind in (KIND_ROBOT, KIND_LINK, KIND_FORCE):
            return n.obj.get_frame_velocity(n.frame).tolist(), n.obj.get_frame_angular_velocity(n.frame).tolist()
        # joints and scene-only frames move rigidly with their parent
        if n.parent is None and n.kind != KIND_JOINT:
            return [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        parent = n.parent
        if n.kind == KIND_JOINT:
            # fixed to the parent link
            pf = self._robots[n.obj.get_id()].joints[n.joint["parent"]]["joint"]
            pv = n.obj.get_frame_velocity(pf)
            pw = n.obj.get_frame_angular_velocity(pf)
            pnode_T = self._body_T(n.obj, pf)
        else:
            pv, pw = (np.asarray(v) for v in self._velocity(parent))
            pnode_T = self.world_T(parent)
        r = self.world_T(n)[:3, 3] - pnode_T[:3, 3]
        return (np.asarray(pv) + np.cross(pw, r)).tolist(), np.asarray(pw).tolist()

    # ------------------------------------------------------------------------------------------
    # scene-only objects

    def add_dummy(self, size: float = 0.01, color=(0, 0, 0), parent=None, alias: str = "Dummy", pose=None) -> int:
        with self.lock:
            size = fnum(size, "size", nonneg=True)
            node = Node(self._new_handle(), alias, KIND_DUMMY, props={"size": size, "color": list(color)})
            p = self.node(parent, "parent") if parent is not None else None
            self._add_node(node, p)
            if pose is not None:
                self.set_T(node.handle, C.HANDLE_PARENT, _pose7_to_T(pose))
            return node.handle

    def add_proximity_sensor(
        self, alias: str = "Proximity_sensor", parent=None, pose=None, *, kind: str = "ray",
        range: float = 1.0, angle: float = 0.5, rays: int = 8, rings: int = 3,
    ) -> int:
        """A proximity sensor detecting along its +Z axis up to ``range`` m: a single ray, or a cone
        of full opening ``angle`` (rad) sampled by the axis plus ``rings`` rings of ``rays`` rays."""
        with self.lock:
            if kind not in ("ray", "cone"):
                raise ValueError(f"kind must be 'ray' or 'cone', got {kind!r}")
            props = {
                "kind": kind,
                "range": fnum(range, "range", positive=True),
                "angle": fnum(angle, "angle", positive=True),
                "rays": max(1, inum(rays, "rays")),
                "rings": max(1, inum(rings, "rings")),
                "last": [0, 0.0, [0.0, 0.0, 0.0], -1, [0.0, 0.0, 0.0]],
            }
            if props["angle"] >= math.pi:
                raise ValueError(f"angle must be < pi, got {props['angle']}")
            node = Node(self._new_handle(), alias, KIND_PROXIMITY, props=props)
            self._add_node(node, self.node(parent, "parent") if parent is not None else None)
            if pose is not None:
                self.set_T(node.handle, C.HANDLE_PARENT, _pose7_to_T(pose))
            return node.handle

    def add_vision_sensor(
        self, alias: str = "Vision_sensor", parent=None, pose=None, *, resolution=(64, 64),
        near: float = 0.01, far: float = 10.0, angle: float = math.radians(60.0),
    ) -> int:
        """A perspective vision sensor looking along its +Z axis, +Y up in the image, ``angle``
        (rad) the view angle of the larger image side; clipping planes near/far (m)."""
        with self.lock:
            w, h = (inum(v, "resolution") for v in resolution)
            if w <= 0 or h <= 0 or w * h > 4096 * 4096:
                raise ValueError(f"resolution must be positive and at most 4096x4096, got {(w, h)}")
            near = fnum(near, "near", positive=True)
            far = fnum(far, "far", positive=True)
            if far <= near:
                raise ValueError(f"far must be > near, got near={near}, far={far}")
            angle = fnum(angle, "angle", positive=True)
            if angle >= math.pi:
                raise ValueError(f"angle must be < pi, got {angle}")
            props = {"resolution": [w, h], "near": near, "far": far, "angle": angle, "override": None}
            node = Node(self._new_handle(), alias, KIND_VISION, props=props)
            self._add_node(node, self.node(parent, "parent") if parent is not None else None)
            if pose is not None:
                self.set_T(node.handle, C.HANDLE_PARENT, _pose7_to_T(pose))
            return node.handle

    def set_parent(self, handle, parent_handle, keep_in_place: bool) -> None:
        with self.lock:
            n = self.node(handle, "objectHandle")
            p = None if inum(parent_handle, "parentHandle") == -1 else self.node(parent_handle, "parentHandle")
            if n.kind in (KIND_LINK, KIND_JOINT, KIND_FORCE):
                raise SceneError(f"objectHandle {n.handle}: a robot's joints and links keep their parents")
            q = p
            while q is not None:
                if q is n:
                    raise SceneError("parentHandle: an object cannot be parented to itself or its descendant")
                q = q.parent
            t_world = self.world_T(n)
            if n.parent is not None:
                n.parent.children.remove(n)
            n.parent = p
            if p is not None:
                p.children.append(n)
            if n.kind in _LOCAL_KINDS:
                if keep_in_place:
                    n.local = inv_T(self.world_T(p) if p is not None else np.eye(4)) @ t_world

    # ------------------------------------------------------------------------------------------
    # loading, copying, removing

    def load_scene(self, filename: str) -> None:
        """Replace the world by a torsion world XML file (or a URDF file: a world with that robot)."""
        with self.lock:
            fn = _path(filename, "filename")
            ext = os.path.splitext(fn)[1].lower()
            if ext == ".xml":
                world = self._torsion.World(fn)
                source = None
            elif ext == ".urdf":
                world = self._torsion.World()
                source = fn
            else:
                raise ValueError(f"filename: a scene is a torsion world .xml or a .urdf file, got {fn!r}")
            self._replace_world(world)
            self.scene_path = fn
            if source is not None:
                self._load_urdf(source)

    def close_scene(self) -> None:
        with self.lock:
            self._replace_world(self._torsion.World())
            self.scene_path = ""

    def _replace_world(self, world) -> None:
        if self.state != C.SIMULATION_STOPPED:
            raise RuntimeError("the scene cannot be replaced while the simulation runs; stop it first")
        for n in list(self._nodes.values()):
            if n.parent is None:
                self._drop_tree(n)
        self._nodes.clear()
        self.world = world
        self._config_number = None
        self.drawings.clear()
        self.selection.clear()
        self.sync()

    def _load_urdf(self, source: str, name: Optional[str] = None) -> int:
        asys = self.world.add_articulated_system(source)
        if source.lstrip().startswith("<"):
            text = source
        else:
            with open(source, encoding="utf-8", errors="replace") as f:
                text = f.read(1 << 16)
        m = re.search(r"<robot[^>]*\bname\s*=\s*[\"']([^\"']+)[\"']", text)
        if name or (m and not asys.get_name()):
            asys.set_name(name or m.group(1))
        self._config_number = self.world.get_configuration_number()
        root = self._add_robot(asys, source=source)
        return root.handle

    def load_model(self, filename: str) -> int:
        with self.lock:
            fn = _path(filename, "filename")
            if os.path.splitext(fn)[1].lower() != ".urdf":
                raise ValueError(f"filename: a model is a .urdf file, got {fn!r}")
            if not os.path.isfile(fn):
                raise ValueError(f"filename: no such file {fn!r}")
            return self._load_urdf(fn)

    def load_model_from_buffer(self, buffer) -> int:
        with self.lock:
            if not isinstance(buffer, (bytes, bytearray, str)):
                raise TypeError(f"buffer must be bytes holding URDF text, got {type(buffer).__name__}")
            text = buffer if isinstance(buffer, str) else bytes(buffer).decode("utf-8", "replace")
            if not text.lstrip().startswith("<"):
                raise ValueError("buffer must hold URDF text (starting with '<')")
            return self._load_urdf(text)

    def copy_paste(self, handles, options: int) -> list[int]:
        with self.lock:
            out = []
            for h in _int_list(handles, "objectHandles"):
                n = self.node(h, "objectHandles")
                if n.kind == KIND_BODY:
                    clone = self.world.clone_single_body_object(n.obj, n.obj.get_name())
                    self._config_number = self.world.get_configuration_number()
                    node = Node(self._new_handle(), n.alias, KIND_BODY, obj=clone, oid=clone.get_id())
                    self._add_node(node, n.parent)
                    self._by_obj_id[clone.get_id()] = node
                    out.append(node.handle)
                elif n.kind == KIND_ROBOT:
                    info = self._robots[n.obj.get_id()]
                    if info.source is None:
                        raise SceneError(
                            f"objectHandles: robot {n.handle} was not loaded through simx (its URDF is unknown)"
                        )
                    hroot = self._load_urdf(info.source, n.obj.get_name())
                    new = self._nodes[hroot].obj
                    new.set_state(n.obj.get_generalized_coordinate(), n.obj.get_generalized_velocity())
                    out.append(hroot)
                elif n.kind in _LOCAL_KINDS:
                    node = Node(self._new_handle(), n.alias, n.kind, local=n.local.copy(),
                                props={k: (v.copy() if hasattr(v, "copy") else v) for k, v in n.props.items()})
                    self._add_node(node, n.parent)
                    out.append(node.handle)
                else:
                    raise SceneError(f"objectHandles: a robot's {n.kind.replace('_', ' ')} cannot be copied alone")
            return out

    def remove(self, handles, options: int) -> int:
        """Remove objects (bit0 of options: with everything below them; bit1: everything).
        A robot goes with its joints, links and force sensors. Returns the objects removed."""
        with self.lock:
            if options & 2:
                targets = list(self.roots())
            else:
                targets = [self.node(h, "objectHandles") for h in _int_list(handles, "objectHandles")]
            for n in targets:
                if n.kind in (KIND_LINK, KIND_JOINT, KIND_FORCE):
                    raise SceneError(f"objectHandles: a robot's {n.kind.replace('_', ' ')} cannot be removed alone; remove the robot")
            count = 0
            for n in targets:
                if n.handle not in self._nodes:
                    continue  # already removed with an earlier target
                doomed = [n]
                if options & 1 or options & 2:
                    doomed = [m for m in self.tree(n) if m is n or m.kind in (KIND_BODY, KIND_ROBOT) or m.kind in _LOCAL_KINDS]
                for m in reversed(doomed):  # leaves first
                    if m.handle not in self._nodes:
                        continue
                    count += len([x for x in self.tree(m) if x.kind in (KIND_LINK, KIND_JOINT, KIND_FORCE)]) + 1
                    if m.kind in (KIND_BODY, KIND_ROBOT):
                        obj = m.obj
                        self._drop_tree(m)
                        self.world.remove_object(obj)
                        self._config_number = self.world.get_configuration_number()
                    else:
                        self._drop_tree(m)
            self._start_checkpoint = None  # the topology changed: stop cannot restore
            return count

    # ------------------------------------------------------------------------------------------
    # joints

    def _joint(self, handle) -> tuple[Node, _RobotInfo, int, int]:
        n = self.node(handle, "jointHandle")
        if n.kind != KIND_JOINT:
            raise SceneError(f"jointHandle: object {n.handle} is a {n.kind.replace('_', ' ')}, not a joint")
        j = n.joint
        if j["type"] not in ("revolute", "prismatic") or j["gv_size"] != 1:
            raise SceneError(f"jointHandle: joint {n.alias!r} is {j['type']}; only revolute and prismatic joints have a scalar position")
        return n, self._robots[n.obj.get_id()], j["gc_index"], j["gv_index"]

    def joint_position(self, handle) -> float:
        with self.lock:
            n, _, gi, _ = self._joint(handle)
            return float(n.obj.get_generalized_coordinate()[gi])

    def set_joint_position(self, handle, value) -> None:
        with self.lock:
            n, info, gi, vi = self._joint(handle)
            v = fnum(value, "position")
            gc = n.obj.get_generalized_coordinate()
            gc[gi] = v
            n.obj.set_generalized_coordinate(gc)
            self._vision_cache.clear()

    def _apply_control(self, n: Node, info: _RobotInfo) -> None:
        asys = n.obj
        if not info.driven:
            info.driven = True
            asys.set_control_mode(self._torsion.ControlMode.PD_PLUS_FEEDFORWARD_TORQUE)
            asys.set_clamp_to_effort_limits(True)
        kp = np.where(info.position_ctrl, info.kp, 0.0)
        kd = np.where(info.position_ctrl, info.kd, DEFAULT_KD_VELOCITY)
        # dofs simx does not drive (floating base, spherical joints) keep zero gains
        mask = np.zeros(len(kp), dtype=bool)
        for j in info.joints:
            if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
                mask[j["gv_index"]] = True
        asys.set_pd_gains(np.where(mask, kp, 0.0), np.where(mask, kd, 0.0))
        asys.set_pd_target(_gc_target(asys, info), np.where(mask, info.v_ref, 0.0))

    def set_joint_target_position(self, handle, value) -> None:
        with self.lock:
            n, info, gi, vi = self._joint(handle)
            info.q_ref[vi] = fnum(value, "targetPos")
            info.v_ref[vi] = 0.0
            info.position_ctrl[vi] = True
            self._apply_control(n, info)

    def set_joint_target_velocity(self, handle, value) -> None:
        with self.lock:
            n, info, gi, vi = self._joint(handle)
            info.v_ref[vi] = fnum(value, "targetVel")
            info.position_ctrl[vi] = False
            self._apply_control(n, info)

    def joint_target_position(self, handle) -> float:
        with self.lock:
            _, info, _, vi = self._joint(handle)
            return float(info.q_ref[vi])

    def joint_target_velocity(self, handle) -> float:
        with self.lock:
            _, info, _, vi = self._joint(handle)
            return float(info.v_ref[vi])

    def joint_force(self, handle) -> Optional[float]:
        with self.lock:
            n, _, _, vi = self._joint(handle)
            if self.step_count == 0:
                return None
            return float(n.obj.get_generalized_force()[vi])

    def joint_max_force(self, handle) -> float:
        with self.lock:
            n, _, _, vi = self._joint(handle)
            return float(n.obj.get_effort_limits()[vi])

    def set_joint_max_force(self, handle, value) -> None:
        with self.lock:
            n, info, _, vi = self._joint(handle)
            v = fnum(value, "forceOrTorque", positive=True)
            lim = n.obj.get_effort_limits()
            lim[vi] = v
            n.obj.set_effort_limits(lim)
            self._apply_control(n, info)

    def joint_param(self, handle, pid: int, value=None):
        """Joint object parameters: pid gains (2002, 2004), ctrl enabled (2001), motor enabled
        (2000, always on), velocity (2012), upper limit (2017)."""
        with self.lock:
            n, info, gi, vi = self._joint(handle)
            if pid == 2002 or pid == 2004:
                arr = info.kp if pid == 2002 else info.kd
                if value is None:
                    return float(arr[vi])
                arr[vi] = fnum(value, "parameter", nonneg=True)
                if info.driven:
                    self._apply_control(n, info)
                return None
            if pid == 2001:
                if value is None:
                    return int(info.position_ctrl[vi])
                info.position_ctrl[vi] = bool(value)
                self._apply_control(n, info)
                return None
            if pid == 2000 and value is None:
                return 1
            if pid == 2012 and value is None:
                return float(n.obj.get_generalized_velocity()[vi])
            if pid == 2017 and value is None:
                return float(n.obj.get_joint_limits()[gi][1]) if n.obj.get_joint_limits().ndim == 2 else 0.0
            raise SceneError(f"parameterID: joint parameter {pid} is not supported{'' if value is None else ' for writing'}")

    # ------------------------------------------------------------------------------------------
    # simulation

    @property
    def time_step(self) -> float:
        return self.world.get_time_step()

    def sim_time(self) -> float:
        if self.state == C.SIMULATION_STOPPED:
            return 0.0
        return self.world.get_world_time() - self._start_time

    def start(self) -> int:
        with self.lock:
            if self.state == C.SIMULATION_STOPPED:
                self.sync()
                self._start_checkpoint = self.world.capture_checkpoint()
                self._start_time = self.world.get_world_time()
                self.step_count = 0
                self.state = C.SIMULATION_ADVANCING_RUNNING
                return 1
            if self.state == C.SIMULATION_PAUSED:
                self.state = C.SIMULATION_ADVANCING_RUNNING
                return 1
            return 0

    def pause(self) -> int:
        with self.lock:
            if self.state == C.SIMULATION_ADVANCING_RUNNING:
                self.state = C.SIMULATION_PAUSED
                return 1
            return 0

    def stop(self) -> int:
        """Stop; the world returns to its state at start (as CoppeliaSim restores the scene),
        unless objects were added or removed meanwhile (then it stays where it is)."""
        with self.lock:
            if self.state == C.SIMULATION_STOPPED:
                return 0
            self.state = C.SIMULATION_STOPPED
            cp, self._start_checkpoint = self._start_checkpoint, None
            if cp is not None:
                try:
                    self.world.restore_checkpoint(cp)
                except RuntimeError as exc:
                    self.status_messages.append(f"[torsion] scene not restored at stop: {exc}")
            self.step_count = 0
            for info in self._robots.values():
                info.prev_body_motion = None
                info.wrenches = None
            self._vision_cache.clear()
            return 1

    def step(self) -> bool:
        """One simulation step (only while running). Returns True if a step ran."""
        with self.lock:
            if self.state != C.SIMULATION_ADVANCING_RUNNING:
                return False
            self.sync()
            if self.dynamics_enabled:
                self.world.integrate()
            else:
                self.world.set_world_time(self.world.get_world_time() + self.world.get_time_step())
            self.step_count += 1
            for info_id, info in self._robots.items():
                if info.force_tracking:
                    self._track_wrenches(self._by_obj_id[info_id].obj, info)
            for node in self._nodes.values():
                if node.kind == KIND_VISION:
                    node.props["override"] = None
            self._vision_cache.clear()
            return True

    # ------------------------------------------------------------------------------------------
    # force sensors

    def _body_motion(self, asys, info: _RobotInfo):
        gv = asys.get_generalized_velocity()
        coms = asys.get_body_coms_w()
        masses = asys.get_masses()
        inertias = asys.get_body_inertias_b()
        vel, mom = [], []
        for b, j in enumerate(info.joints):
            jac = asys.get_dense_jacobian_at(b, coms[b])
            vel.append(jac @ gv)
            rot = asys.get_frame_orientation(j["joint"])
            w = asys.get_frame_angular_velocity(j["joint"])
            # body inertia about the com, in the body frame
            iw = rot @ np.asarray(inertias[b]) @ rot.T
            mom.append(iw @ w)
        return np.array(vel), np.array(mom), coms, masses

    def _track_wrenches(self, asys, info: _RobotInfo) -> None:
        vel, mom, coms, masses = self._body_motion(asys, info)
        prev = info.prev_body_motion
        info.prev_body_motion = (vel, mom)
        if prev is None:
            info.wrenches = None
            return
        dt = self.world.get_time_step()
        g = self.world.get_gravity()
        acc = (vel - prev[0]) / dt
        dmom = (mom - prev[1]) / dt
        contacts = asys.get_contacts()
        parents = asys.get_parent_body_indices()
        wrenches = {}
        movable = {j["joint"] for j in info.joints}
        for n in self.tree(self._by_obj_id[asys.get_id()]):
            if n.kind not in (KIND_FORCE, KIND_JOINT):
                continue
            if n.kind == KIND_FORCE and n.frame == info.joints[0]["joint"]:
                subtree = set(range(len(info.joints)))  # the root's fixed joint carries the robot
            elif n.kind == KIND_JOINT:
                subtree = _subtree(parents, n.body)
            else:
                continue  # a fixed frame torsion merged: the links beyond it are not separate
            t = self.world_T(n)
            p = t[:3, 3]
            f = np.zeros(3)
            tau = np.zeros(3)
            for b in subtree:
                fb = masses[b] * (acc[b] - g)
                f += fb
                tau += np.cross(coms[b] - p, fb) + dmom[b]
            for c in contacts:
                if int(c["local_body_index"]) in subtree:
                    f -= c["force"]
                    tau -= np.cross(c["position"] - p, c["force"])
            rt = t[:3, :3].T
            wrenches[n.handle] = ((rt @ f).tolist(), (rt @ tau).tolist())
        info.wrenches = wrenches

    def read_force_sensor(self, handle) -> tuple[int, list, list]:
        """(state, force, torque): the wrench the parent side exerts on the subtree beyond the
        sensor (or joint), in its frame, about its origin: from the subtree's momentum change over
        the last step, gravity and contact forces (forces a user applies directly are not
        included). state bit0: data valid (from the second step after the first read; never for
        a fixed frame torsion merged into its parent body, whose links are not separate)."""
        with self.lock:
            n = self.node(handle, "handle")
            if n.kind not in (KIND_FORCE, KIND_JOINT):
                raise SceneError(f"handle: object {n.handle} is a {n.kind.replace('_', ' ')}, not a force sensor")
            info = self._robots[n.obj.get_id()]
            if not info.force_tracking:
                info.force_tracking = True
            if info.wrenches is None or n.handle not in info.wrenches:
                return 0, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
            f, t = info.wrenches[n.handle]
            return 1, f, t

    def enable_force_sensors(self) -> None:
        """Start measuring every robot's force sensors from the next step on."""
        with self.lock:
            for info in self._robots.values():
                info.force_tracking = True

    # ------------------------------------------------------------------------------------------
    # collision and distance

    def _shapes(self, n: Node) -> list[tuple]:
        """(torsion Shape, position, quaternion wxyz, owner key) of the entity's collision bodies."""
        T = self._torsion
        out = []
        if n.kind == KIND_BODY:
            o = n.obj
            typ = o.get_object_type().name
            q = np.array(o.get_quaternion())
            p = o.get_position()
            if typ == "SPHERE":
                out.append((T.Shape.sphere(o.get_radius()), p, q))
            elif typ == "BOX":
                d = o.get_dim()
                out.append((T.Shape.box(d[0], d[1], d[2]), p, q))
            elif typ == "CYLINDER":
                out.append((T.Shape.cylinder(o.get_radius(), o.get_height()), p, q))
            elif typ == "CAPSULE":
                out.append((T.Shape.capsule(o.get_radius(), o.get_height()), p, q))
            elif typ == "GROUND":
                out.append((T.Shape.ground(o.get_height()), np.zeros(3), np.array([1.0, 0, 0, 0])))
            elif typ == "MESH":
                # each convex part (a triangle mesh is tested through its hull), body frame = mesh
                # frame moved to the centre of mass
                off = o.get_com_offset()
                for verts, _tris in o.get_collision_meshes():
                    out.append((T.Shape.convex_mesh(np.asarray(verts) - off), p, q))
            return out
        if n.kind in (KIND_ROBOT, KIND_LINK):
            asys = n.obj
            bt = self._body_T(asys, n.frame)
            for cb in asys.get_collision_bodies():
                if cb["body"] != n.body:
                    continue
                s = cb["shape"]
                if s == "sphere":
                    sh = T.Shape.sphere(cb["radius"])
                elif s == "box":
                    sh = T.Shape.box(*cb["size"])
                elif s == "cylinder":
                    sh = T.Shape.cylinder(cb["radius"], cb["height"])
                elif s == "capsule":
                    sh = T.Shape.capsule(cb["radius"], cb["height"])
                else:
                    continue
                tw = bt @ make_T(cb["position"], cb["rotation"])
                x, y, z, w = matrix_to_quat_xyzw(tw[:3, :3])
                out.append((sh, tw[:3, 3], np.array([w, x, y, z])))
        return out

    def _entities(self, n: Node, other) -> list[Node]:
        o = C.lookup(other, "entity2")
        if o == C.HANDLE_ALL:
            robot = n.obj if n.kind in (KIND_ROBOT, KIND_LINK) else None
            return [m for m in self._nodes.values() if m is not n and m.kind in (KIND_BODY, KIND_ROBOT, KIND_LINK)
                    and not (robot is not None and m.obj is robot)]
        return [self.node(o, "entity2")]

    def check_collision(self, e1, e2) -> bool:
        with self.lock:
            n = self.node(e1, "entity1")
            a = self._shapes(n)
            if not a:
                raise SceneError(f"entity1: object {n.handle} has no collision shape torsion can test here")
            settings = self._torsion.ContactSettings(margin=0.0)
            for m in self._entities(n, e2):
                for sa, pa, qa in a:
                    for sb, pb, qb in self._shapes(m):
                        c = self._torsion.collide(sa, pa, qa, sb, pb, qb, settings)
                        if len(c) and float(np.max(c["depth"])) >= 0.0:
                            return True
            return False

    def check_distance(self, e1, e2, threshold) -> tuple[int, float, list, list]:
        """(1 if computed, distance, point on entity1, point on entity2); 0 and the threshold
        when farther than a positive threshold. Penetrating shapes give distance 0."""
        with self.lock:
            n = self.node(e1, "entity1")
            thr = fnum(threshold, "threshold")
            margin = thr if thr > 0.0 else 1.0e3
            a = self._shapes(n)
            if not a:
                raise SceneError(f"entity1: object {n.handle} has no collision shape torsion can test here")
            settings = self._torsion.ContactSettings(margin=margin)
            best = None
            for m in self._entities(n, e2):
                for sa, pa, qa in a:
                    for sb, pb, qb in self._shapes(m):
                        c = self._torsion.collide(sa, pa, qa, sb, pb, qb, settings)
                        for rec in c:
                            d = max(0.0, -float(rec["depth"]))
                            if best is None or d < best[0]:
                                half = 0.5 * d * rec["normal"]
                                best = (d, (rec["position"] + half).tolist(), (rec["position"] - half).tolist())
            if best is None:
                return 0, thr if thr > 0 else 0.0, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
            return 1, best[0], best[1], best[2]

    # ------------------------------------------------------------------------------------------
    # proximity sensors

    def read_proximity(self, handle, entity=None) -> list:
        """[state, distance, point (sensor frame), detected handle, normal (sensor frame)]."""
        with self.lock:
            n = self.node(handle, "handle")
            if n.kind != KIND_PROXIMITY:
                raise SceneError(f"handle: object {n.handle} is not a proximity sensor")
            want = None
            if entity is not None:
                e = C.lookup(entity, "entity")
                if e != C.HANDLE_ALL:
                    want = self.node(e, "entity")
            pr = n.props
            t = self.world_T(n)
            dirs_local = _sensor_rays(pr)
            dirs = dirs_local @ t[:3, :3].T
            starts = np.repeat(t[:3, 3][None, :], len(dirs), axis=0)
            res = self.world.ray_test_batch(starts, dirs, np.full(len(dirs), pr["range"]), num_threads=1 if len(dirs) < 256 else 0)
            best = None
            objs = self.world.get_object_list()
            for i in np.flatnonzero(res.hit):
                d = float(res.distance[i])
                oi = int(res.object_index[i])
                hit_node = self._node_of_hit(objs[oi], int(res.local_index[i]))
                if want is not None and hit_node is not want:
                    continue
                if best is None or d < best[0]:
                    best = (d, res.position[i], res.normal[i], hit_node)
            if best is None:
                out = [0, 0.0, [0.0, 0.0, 0.0], -1, [0.0, 0.0, 0.0]]
            else:
                rt = t[:3, :3].T
                out = [1, best[0], (rt @ (best[1] - t[:3, 3])).tolist(),
                       best[3].handle if best[3] is not None else -1, (rt @ best[2]).tolist()]
            pr["last"] = out
            return out

    def _node_of_hit(self, obj, local_index: int) -> Optional[Node]:
        root = self._by_obj_id.get(obj.get_id())
        if root is None or root.kind != KIND_ROBOT:
            return root
        # local index of an articulated collision body: its entry in get_collision_bodies()
        cbs = obj.get_collision_bodies()
        if 0 <= local_index < len(cbs):
            b = cbs[local_index]["body"]
            for m in self.tree(root):
                if m.kind in (KIND_ROBOT, KIND_LINK) and m.body == b:
                    return m
        return root

    # ------------------------------------------------------------------------------------------
    # vision sensors

    def _vision(self, handle) -> Node:
        n = self.node(handle, "objectHandle")
        if n.kind != KIND_VISION:
            raise SceneError(f"objectHandle: object {n.handle} is not a vision sensor")
        return n

    def render(self, handle) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rgb (H, W, 3) uint8, depth (H, W) float32 metres, handles (H, W) int32 -1 background),
        rows bottom-up as CoppeliaSim's images. Cached until the world next changes."""
        with self.lock:
            n = self._vision(handle)
            key = (self.step_count, self.world.get_world_time(), self._config_number)
            cached = self._vision_cache.get(n.handle)
            if cached is not None and cached[0] == key:
                return cached[1]
            pr = n.props
            w, h = pr["resolution"]
            ang = pr["angle"]
            if w >= h:
                hfov = ang
            else:
                hfov = 2.0 * math.atan(math.tan(ang / 2.0) * w / h)
            props = self._torsion.DepthCameraProperties(
                w, h, pr["near"], pr["far"], math.degrees(hfov), True, True, False, 0.0
            )
            t = self.world_T(n)
            r = t[:3, :3]
            # torsion camera axes (X forward, Y left, Z up) from the sensor's (Z forward, Y up, X left)
            rot = np.column_stack([r[:, 2], r[:, 0], r[:, 1]])
            frame = self.world.capture_depth_camera(t[:3, 3], rot, props, num_threads=self.render_threads)
            depth = np.ascontiguousarray(frame.depth[::-1], dtype=np.float32)
            seg = frame.segmentation[::-1]
            objs = self.world.get_object_list()
            handles = np.full(seg.shape, -1, dtype=np.int32)
            rgb = np.empty(seg.shape + (3,), dtype=np.uint8)
            rgb[...] = (np.clip(self.background_color1, 0, 1) * 255 + 0.5).astype(np.uint8)
            for oi in np.unique(seg):
                if oi < 0:
                    continue
                node = self._by_obj_id.get(objs[int(oi)].get_id())
                mask = seg == oi
                handles[mask] = node.handle if node is not None else -1
                color = node.props.get("color") if node is not None else None
                if color is None:
                    idx = int(oi) + 1
                    color = [((idx * 97) % 200 + 55) / 255.0, ((idx * 57) % 200 + 55) / 255.0, ((idx * 31) % 200 + 55) / 255.0]
                # flat colour, shaded by distance so shapes read in depth (no lights)
                shade = 1.0 - 0.5 * np.clip((depth[mask] - pr["near"]) / (pr["far"] - pr["near"]), 0.0, 1.0)
                rgb[mask] = (np.asarray(color, dtype=np.float64)[None, :] * shade[:, None] * 255.0 + 0.5).astype(np.uint8)
            out = (rgb, depth, handles)
            self._vision_cache[n.handle] = (key, out)
            return out

    def vision_image(self, handle, grey: bool) -> tuple[list, bytes]:
        with self.lock:
            n = self._vision(handle)
            w, h = n.props["resolution"]
            ov = n.props.get("override")
            if ov is not None:
                img = ov
            else:
                img = self.render(handle)[0]
            if grey:
                if img.ndim == 3:
                    g = (img.astype(np.uint16).sum(axis=2) // 3).astype(np.uint8)
                else:
                    g = img
                return [w, h], g.tobytes()
            if img.ndim == 2:
                img = np.repeat(img[:, :, None], 3, axis=2)
            return [w, h], img.tobytes()

    def set_vision_image(self, handle, grey: bool, data) -> None:
        """Apply an image to the sensor: it is what reads return until the next step."""
        with self.lock:
            n = self._vision(handle)
            if not isinstance(data, (bytes, bytearray, memoryview)):
                raise TypeError(f"img must be bytes, got {type(data).__name__}")
            w, h = n.props["resolution"]
            need = w * h * (1 if grey else 3)
            if len(data) != need:
                raise ValueError(f"img must hold {need} bytes for a {w}x{h} {'grey' if grey else 'RGB'} image, got {len(data)}")
            arr = np.frombuffer(bytes(data), dtype=np.uint8)
            n.props["override"] = arr.reshape(h, w) if grey else arr.reshape(h, w, 3)

    def vision_depth(self, handle, to_meters: bool) -> tuple[list, np.ndarray]:
        with self.lock:
            n = self._vision(handle)
            _, depth, _ = self.render(handle)
            pr = n.props
            if to_meters:
                out = depth
            else:
                out = ((depth - pr["near"]) / (pr["far"] - pr["near"])).astype(np.float32)
                np.clip(out, 0.0, 1.0, out=out)
            return list(pr["resolution"]), np.ascontiguousarray(out, dtype=np.float32).reshape(-1)

    def check_vision(self, handle, entity) -> list:
        """[state, distance, point (sensor frame)]: the nearest pixel showing the entity
        (any object for sim.handle_all); distance along the view axis (m)."""
        with self.lock:
            n = self._vision(handle)
            e = C.lookup(entity, "entity")
            want = None if e == C.HANDLE_ALL else self.node(e, "entity").handle
            _, depth, handles = self.render(handle)
            mask = handles >= 0 if want is None else handles == want
            if not np.any(mask):
                return [0, 0.0, [0.0, 0.0, 0.0]]
            d = np.where(mask, depth, np.inf)
            row, col = np.unravel_index(int(np.argmin(d)), d.shape)
            z = float(d[row, col])
            pr = n.props
            w, h = pr["resolution"]
            ang = pr["angle"]
            f = (max(w, h) / 2.0) / math.tan(ang / 2.0)
            # rows are bottom-up (+Y up); columns run toward -X (the sensor's X points left)
            x = -((col + 0.5) - w / 2.0) / f * z
            y = ((row + 0.5) - h / 2.0) / f * z
            return [1, z, [float(x), float(y), z]]

    def read_vision(self, handle, entity=None) -> list:
        """[detection state, auxiliary packet]: the packet is CoppeliaSim's default 15 values
        (min, max and average of intensity, red, green, blue and depth, 0..1)."""
        with self.lock:
            n = self._vision(handle)
            rgb, depth, handles = self.render(handle)
            pr = n.props
            d01 = np.clip((depth - pr["near"]) / (pr["far"] - pr["near"]), 0.0, 1.0)
            if entity is None or C.lookup(entity, "entity") == C.HANDLE_ALL:
                detected = bool(np.any(handles >= 0))
            else:
                detected = bool(np.any(handles == self.node(C.lookup(entity, "entity"), "entity").handle))
            c = rgb.reshape(-1, 3).astype(np.float64) / 255.0
            inten = c.mean(axis=1)
            cols = [inten, c[:, 0], c[:, 1], c[:, 2], d01.reshape(-1).astype(np.float64)]
            packet = [float(x.min()) for x in cols] + [float(x.max()) for x in cols] + [float(x.mean()) for x in cols]
            return [int(detected), packet]

    # ------------------------------------------------------------------------------------------
    # object parameters

    def object_param(self, handle, pid: int, value=None, kind: str = "float"):
        with self.lock:
            n = self.node(handle, "objectHandle")
            if n.kind == KIND_JOINT:
                return self.joint_param(handle, pid, value)
            if 11 <= pid <= 14 and value is None:
                v, w = self._velocity(n)
                return float(v[pid - 11]) if pid < 14 else float(np.linalg.norm(w))
            if n.kind == KIND_VISION and 1000 <= pid <= 1004:
                pr = n.props
                key = {1000: "near", 1001: "far", 1004: "angle"}.get(pid)
                if value is None:
                    if pid in (1002, 1003):
                        return int(pr["resolution"][pid - 1002])
                    return float(pr[key])
                if pid in (1002, 1003):
                    r = inum(value, "parameter")
                    if not 0 < r <= 4096:
                        raise ValueError(f"parameter: resolution must be in 1..4096, got {r}")
                    pr["resolution"][pid - 1002] = r
                else:
                    v = fnum(value, "parameter", positive=True)
                    if key == "angle" and v >= math.pi:
                        raise ValueError(f"parameter: perspective angle must be < pi, got {v}")
                    trial = dict(pr, **{key: v})
                    if trial["far"] <= trial["near"]:
                        raise ValueError("parameter: far clipping must stay beyond near clipping")
                    pr[key] = v
                self._vision_cache.pop(n.handle, None)
                return None
            if n.kind == KIND_PROXIMITY and pid == 4001:
                if value is None:
                    return float(n.props["range"])
                n.props["range"] = fnum(value, "parameter", positive=True)
                return None
            if n.kind == KIND_BODY and pid == 3005:
                if value is None:
                    return float(n.obj.get_mass())
                n.obj.set_mass(fnum(value, "parameter", positive=True))
                return None
            if n.kind == KIND_BODY and pid == 3003:
                bt = self._torsion.BodyType
                if value is None:
                    return int(n.obj.get_body_type() == bt.STATIC)
                n.obj.set_body_type(bt.STATIC if inum(value, "parameter") else bt.DYNAMIC)
                return None
            if pid == 3023:
                if value is None:
                    return ",".join(f"{c:g}" for c in n.props.get("color", [])) if n.props.get("color") is not None else ""
                parts = str(value).split(",")
                try:
                    col = [float(p) for p in parts]
                except ValueError:
                    raise ValueError(f"parameter: colour must be 'r,g,b' (0..1), got {value!r}") from None
                if len(col) != 3 or not all(0.0 <= c <= 1.0 for c in col):
                    raise ValueError(f"parameter: colour must be 'r,g,b' with values in 0..1, got {value!r}")
                n.props["color"] = col
                self._vision_cache.clear()
                return None
            raise SceneError(
                f"parameterID: object parameter {pid} is not supported for a {n.kind.replace('_', ' ')}"
                f"{'' if value is None else ' (write)'}"
            )

    # ------------------------------------------------------------------------------------------
    # owner API

    def register_script_function(self, name: str, fn: Callable) -> None:
        """Make ``fn`` callable by simxCallScriptFunction("name", ...) (also "name@script"),
        simxExecuteScriptString("name") and simxEvaluateToInt/Str("name"). Nothing else runs."""
        if not isinstance(name, str) or not name:
            raise ValueError("name must be a non-empty string")
        if not callable(fn):
            raise TypeError("fn must be callable")
        with self.lock:
            self.script_functions[name] = fn

    def add_collection(self, name: str, handles) -> int:
        """A named collection (CoppeliaSim's legacy static collections) of object handles."""
        with self.lock:
            members = [self.node(h, "handles").handle for h in _int_list(handles, "handles")]
            h = self._new_handle()
            self.collections[name] = members
            self._named_handles["collection:" + name] = h
            return h

    def add_collision_object(self, name: str, entity1, entity2) -> int:
        with self.lock:
            self.node(entity1, "entity1")
            if C.lookup(entity2, "entity2") != C.HANDLE_ALL:
                self.node(entity2, "entity2")
            h = self._new_handle()
            self.collision_objects[h] = (name, entity1, entity2)
            self._named_handles["collision:" + name] = h
            return h

    def add_distance_object(self, name: str, entity1, entity2) -> int:
        with self.lock:
            self.node(entity1, "entity1")
            if C.lookup(entity2, "entity2") != C.HANDLE_ALL:
                self.node(entity2, "entity2")
            h = self._new_handle()
            self.distance_objects[h] = (name, entity1, entity2)
            self._named_handles["distance:" + name] = h
            return h

    def answer_dialog(self, handle: int, result: int, text: str = "") -> None:
        """What a user would have done with a dialog (headless: the owner decides)."""
        with self.lock:
            d = self.dialogs.get(handle)
            if d is None:
                raise SceneError(f"handle: no dialog {handle}")
            d["result"] = int(result)
            d["input"] = str(text)

    def rand(self) -> float:
        return float(self._rand.random())

    def server_time_ms(self) -> int:
        return int((time.monotonic() - self._server_t0) * 1000.0) & 0x7FFFFFFF

    def add_drawing(self, kind: str, size: float, color, items, per: int) -> int:
        with self.lock:
            col = _int_list(color, "color")
            if len(col) != 3:
                raise ValueError(f"color must be 3 values (0-255, negative for emissive), got {len(col)}")
            arr = np.asarray(vec(items, np.size(items), "coords") if np.size(items) else np.zeros(0), dtype=np.float64)
            if arr.size % per:
                raise ValueError(f"coords must hold a multiple of {per} values, got {arr.size}")
            h = self._next_drawing
            self._next_drawing += 1
            self.drawings[h] = DrawingObject(h, kind, size, col, arr.reshape(-1, per))
            return h


def _subtree(parents: list[int], b: int) -> set[int]:
    out = {b}
    changed = True
    while changed:
        changed = False
        for i, p in enumerate(parents):
            if p in out and i not in out:
                out.add(i)
                changed = True
    return out


def _gc_target(asys, info: _RobotInfo) -> np.ndarray:
    """The PD position target in gc layout: simx targets on scalar joints, the current
    coordinates elsewhere (a floating base, spherical joints)."""
    gc = asys.get_generalized_coordinate()
    for j in info.joints:
        if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
            gc[j["gc_index"]] = info.q_ref[j["gv_index"]]
    return gc


def _sensor_rays(pr: dict) -> np.ndarray:
    if pr["kind"] == "ray":
        return np.array([[0.0, 0.0, 1.0]])
    dirs = [[0.0, 0.0, 1.0]]
    half = pr["angle"] / 2.0
    for ring in range(1, pr["rings"] + 1):
        th = half * ring / pr["rings"]
        for k in range(pr["rays"]):
            ph = 2.0 * math.pi * k / pr["rays"]
            dirs.append([math.sin(th) * math.cos(ph), math.sin(th) * math.sin(ph), math.cos(th)])
    return np.array(dirs)


def _pose7_to_T(pose) -> np.ndarray:
    p = vec(pose, 7, "pose")
    return make_T(p[:3], quat_xyzw_to_matrix(p[3:]))


def _path(value, name: str) -> str:
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", "replace")
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty string path")
    if "\x00" in value:
        raise ValueError(f"{name} must not contain NUL characters")
    return value


def _int_list(value, name: str) -> list[int]:
    if isinstance(value, (str, bytes, bytearray)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be a list of ints, got {type(value).__name__}")
    out = []
    for v in value:
        out.append(inum(v, name))
    return out


def platform_id() -> int:
    return {"win32": 0, "darwin": 1}.get(sys.platform, 2)
