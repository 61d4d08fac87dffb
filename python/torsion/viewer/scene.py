"""What a viewer draws of a World, as plain data (no viser, no browser).

A :class:`Scene` reads a World once per structural change (an object added or removed) and keeps:

* ``bodies``: every frame that moves (a single body's centre-of-mass frame, each body of an
  articulated system, the fixed frame of a ground or height map), in a fixed order;
* ``geoms``: every drawable shape, attached to one body with a fixed pose in that body's frame,
  as a primitive (sphere, box, cylinder, capsule), a triangle mesh (meshes, height maps, the
  ground) or a robot's visual shape, each with a name, an RGBA colour and a layer (``"visual"``
  or ``"collision"``).

Geoms are grouped into *batches*: instances of one template mesh (a unit sphere, unit box, unit
cylinder scaled per instance; a capsule of one radius and height; one mesh file), so that a viewer
sends one message per batch per frame instead of one per body. :meth:`Scene.body_poses` reads the
current pose of every body from the world and :meth:`Scene.batch_poses` turns it into the world
pose of every instance of every batch, all with NumPy.

Robots are drawn with their visual shapes (``get_visual_shapes()`` when the robot has it, else
``get_visual_bodies()``), and their collision shapes (``get_collision_bodies()``) form the
collision layer. Compounds are drawn child by child (``Compound.get_child``).
"""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

import torsion

# --------------------------------------------------------------------------------------------
# rotations


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    """(..., 4) quaternions (w, x, y, z) to (..., 3, 3) rotation matrices (normalised first)."""
    q = np.asarray(q, dtype=float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    w, x, y, z = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    r = np.empty(q.shape[:-1] + (3, 3))
    r[..., 0, 0] = 1 - 2 * (y * y + z * z)
    r[..., 0, 1] = 2 * (x * y - w * z)
    r[..., 0, 2] = 2 * (x * z + w * y)
    r[..., 1, 0] = 2 * (x * y + w * z)
    r[..., 1, 1] = 1 - 2 * (x * x + z * z)
    r[..., 1, 2] = 2 * (y * z - w * x)
    r[..., 2, 0] = 2 * (x * z - w * y)
    r[..., 2, 1] = 2 * (y * z + w * x)
    r[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return r


def matrix_to_quat(r: np.ndarray) -> np.ndarray:
    """(..., 3, 3) rotation matrices to (..., 4) unit quaternions (w, x, y, z), w >= 0.

    Shepperd's method, vectorised: each matrix uses the largest of 1 + trace and 1 + 2 r_ii - trace
    so the square root is never taken of a small number."""
    r = np.asarray(r, dtype=float)
    shape = r.shape[:-2]
    m = r.reshape(-1, 3, 3)
    tr = m[:, 0, 0] + m[:, 1, 1] + m[:, 2, 2]
    cand = np.stack([tr, m[:, 0, 0], m[:, 1, 1], m[:, 2, 2]], axis=1)
    k = np.argmax(cand, axis=1)
    q = np.empty((m.shape[0], 4))
    i = k == 0
    s = np.sqrt(np.maximum(1.0 + tr[i], 1e-300)) * 2
    q[i] = np.stack([0.25 * s, (m[i, 2, 1] - m[i, 1, 2]) / s, (m[i, 0, 2] - m[i, 2, 0]) / s, (m[i, 1, 0] - m[i, 0, 1]) / s], 1)
    i = k == 1
    s = np.sqrt(np.maximum(1.0 + m[i, 0, 0] - m[i, 1, 1] - m[i, 2, 2], 1e-300)) * 2
    q[i] = np.stack([(m[i, 2, 1] - m[i, 1, 2]) / s, 0.25 * s, (m[i, 0, 1] + m[i, 1, 0]) / s, (m[i, 0, 2] + m[i, 2, 0]) / s], 1)
    i = k == 2
    s = np.sqrt(np.maximum(1.0 + m[i, 1, 1] - m[i, 0, 0] - m[i, 2, 2], 1e-300)) * 2
    q[i] = np.stack([(m[i, 0, 2] - m[i, 2, 0]) / s, (m[i, 0, 1] + m[i, 1, 0]) / s, 0.25 * s, (m[i, 1, 2] + m[i, 2, 1]) / s], 1)
    i = k == 3
    s = np.sqrt(np.maximum(1.0 + m[i, 2, 2] - m[i, 0, 0] - m[i, 1, 1], 1e-300)) * 2
    q[i] = np.stack([(m[i, 1, 0] - m[i, 0, 1]) / s, (m[i, 0, 2] + m[i, 2, 0]) / s, (m[i, 1, 2] + m[i, 2, 1]) / s, 0.25 * s], 1)
    q *= np.where(q[:, :1] < 0, -1.0, 1.0)
    return q.reshape(shape + (4,))


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a * b of (..., 4) quaternions (w, x, y, z): rotation b, then a."""
    aw, ax, ay, az = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    bw, bx, by, bz = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    return np.stack([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ], axis=-1)


# --------------------------------------------------------------------------------------------
# template meshes (unit primitives, triangles counter-clockwise seen from outside)


def unit_box() -> tuple[np.ndarray, np.ndarray]:
    """A cube of side 1 centred at the origin (scale it by the box's lengths)."""
    v = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    f = np.array([
        [0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5],  # -x, +x
        [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6],  # -y, +y
        [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3],  # -z, +z
    ])
    return v, f


def uv_sphere(radius: float = 1.0, n_lat: int = 12, n_lon: int = 20, z_shift_top: float = 0.0, z_shift_bottom: float = 0.0):
    """A latitude-longitude sphere; with z shifts the upper and lower halves move apart (a capsule)."""
    verts = [[0.0, 0.0, radius + z_shift_top]]
    for i in range(1, n_lat):
        th = math.pi * i / n_lat
        z = radius * math.cos(th)
        shift = z_shift_top if z >= 0 else z_shift_bottom
        if n_lat % 2 == 0 and i == n_lat // 2:
            # the equator ring is doubled so a capsule gets its cylindrical wall
            for j in range(n_lon):
                ph = 2 * math.pi * j / n_lon
                verts.append([radius * math.cos(ph), radius * math.sin(ph), z_shift_top])
            for j in range(n_lon):
                ph = 2 * math.pi * j / n_lon
                verts.append([radius * math.cos(ph), radius * math.sin(ph), z_shift_bottom])
            continue
        for j in range(n_lon):
            ph = 2 * math.pi * j / n_lon
            verts.append([radius * math.sin(th) * math.cos(ph), radius * math.sin(th) * math.sin(ph), z + shift])
    verts.append([0.0, 0.0, -radius + z_shift_bottom])
    n_rings = (len(verts) - 2) // n_lon
    faces = []
    for j in range(n_lon):
        faces.append([0, 1 + j, 1 + (j + 1) % n_lon])
    for r in range(n_rings - 1):
        a, b = 1 + r * n_lon, 1 + (r + 1) * n_lon
        for j in range(n_lon):
            j2 = (j + 1) % n_lon
            faces.append([a + j, b + j, b + j2])
            faces.append([a + j, b + j2, a + j2])
    last = len(verts) - 1
    base = 1 + (n_rings - 1) * n_lon
    for j in range(n_lon):
        faces.append([last, base + (j + 1) % n_lon, base + j])
    return np.array(verts, dtype=float), np.array(faces, dtype=np.int64)


def unit_cylinder(n: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Radius 1, height 1 along z, centred (scale it by (r, r, h))."""
    ang = 2 * np.pi * np.arange(n) / n
    ring = np.stack([np.cos(ang), np.sin(ang)], 1)
    v = np.concatenate([np.c_[ring, np.full(n, 0.5)], np.c_[ring, np.full(n, -0.5)], [[0, 0, 0.5], [0, 0, -0.5]]])
    f = []
    for j in range(n):
        j2 = (j + 1) % n
        f += [[j, n + j, n + j2], [j, n + j2, j2], [2 * n, j, j2], [2 * n + 1, n + j2, n + j]]
    return v, np.array(f, dtype=np.int64)


def capsule_mesh(radius: float, height: float) -> tuple[np.ndarray, np.ndarray]:
    """A capsule along z: hemispheres of `radius` whose centres are `height` apart."""
    return uv_sphere(radius, 12, 20, height / 2, -height / 2)


def height_map_mesh(heights: np.ndarray, x_size: float, y_size: float, cx: float, cy: float):
    """The triangles of a height map ((ny, nx) samples, [j, i] at x_i, y_j) in world coordinates,
    split from (i, j) to (i+1, j+1) as torsion's collision surface; triangles with a non-finite
    corner (holes) are left out."""
    ny, nx = heights.shape
    xs = cx - x_size / 2 + np.arange(nx) * (x_size / (nx - 1))
    ys = cy - y_size / 2 + np.arange(ny) * (y_size / (ny - 1))
    gx, gy = np.meshgrid(xs, ys)
    finite = np.isfinite(heights)
    v = np.stack([gx.ravel(), gy.ravel(), np.where(finite, heights, 0.0).ravel()], 1)
    idx = np.arange(nx * ny).reshape(ny, nx)
    a, b, c, d = idx[:-1, :-1], idx[:-1, 1:], idx[1:, 1:], idx[1:, :-1]  # (i,j) (i+1,j) (i+1,j+1) (i,j+1)
    t = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])
    ok = finite.ravel()[t].all(axis=1)
    return v, t[ok]


# --------------------------------------------------------------------------------------------
# scene description

_PALETTE = np.array([
    [0.90, 0.45, 0.20], [0.25, 0.55, 0.85], [0.35, 0.70, 0.35], [0.85, 0.75, 0.25],
    [0.65, 0.40, 0.75], [0.30, 0.75, 0.75], [0.85, 0.35, 0.45], [0.55, 0.55, 0.55],
])
GROUND_RGBA = (0.50, 0.52, 0.55, 1.0)
HEIGHTMAP_RGBA = (0.45, 0.55, 0.35, 1.0)
COLLISION_RGBA = (1.0, 0.1, 0.6, 0.35)


def object_colour(object_id: int) -> tuple[float, float, float, float]:
    """The colour a single body is drawn in: fixed per object id."""
    c = _PALETTE[int(object_id) % len(_PALETTE)]
    return (float(c[0]), float(c[1]), float(c[2]), 1.0)


@dataclass
class Body:
    """A frame that moves: its world pose is read from the world at every update."""

    name: str  # "<object name>" or "<object name>/<robot body name>"
    object_id: int
    local_index: int  # body index in a robot, 0 for a single body


@dataclass
class Geom:
    """A drawable shape fixed in one body's frame."""

    name: str
    layer: str  # "visual" or "collision"
    kind: str  # sphere, box, cylinder, capsule, mesh, heightmap, ground
    body: int  # index into Scene.bodies
    position: np.ndarray  # (3,) in the body frame (m)
    rotation: np.ndarray  # (3, 3) body frame
    scale: np.ndarray  # (3,) per-axis scale of the template
    rgba: tuple
    template: tuple  # key of the template mesh in Scene.templates


@dataclass
class ObjectEntry:
    object_id: int
    name: str
    kind: str  # lower-case ObjectType name
    bodies: list = field(default_factory=list)  # indices into Scene.bodies
    joints: list = field(default_factory=list)  # robots: movable 1-dof joints (dicts)


@dataclass
class Batch:
    """Instances of one template in one layer: what a viewer sends as one batched mesh."""

    key: tuple  # (layer, template key)
    layer: str
    template: tuple
    geoms: np.ndarray  # indices into Scene.geoms
    body: np.ndarray  # (n,) body index per instance
    offset_p: np.ndarray  # (n, 3)
    offset_r: np.ndarray  # (n, 3, 3)
    scales: np.ndarray  # (n, 3)
    colours: np.ndarray  # (n, 3) uint8
    opacity: float


_VISUAL_KEYS = {"body", "kind", "size", "position", "rotation"}


def _visual_shapes(robot):
    """A robot's visual shapes: get_visual_shapes() (robot files issue) when the binding has it
    and its entries are dicts in get_visual_bodies()'s form (body, kind, size, mesh, mesh_scale,
    rgba, name, position/rotation in the body frame), else get_visual_bodies()."""
    getter = getattr(robot, "get_visual_shapes", None)
    if getter is not None:
        shapes = list(getter())
        if all(isinstance(v, dict) and _VISUAL_KEYS <= v.keys() for v in shapes):
            return shapes
    return list(robot.get_visual_bodies())


_CHILD_KINDS = {"SPHERE": "sphere", "BOX": "box", "CYLINDER": "cylinder", "CAPSULE": "capsule"}


def _compound_children(world) -> dict:
    """Child shapes of every compound, by object id: (kind, size, position, rotation), the pose
    relative to the centre of mass in the body frame (Compound.get_child)."""
    out = {}
    for o in world.get_object_list():
        if o.get_object_type() != torsion.ObjectType.COMPOUND:
            continue
        kids = []
        for k in range(o.get_child_count()):
            c = o.get_child(k)
            kids.append((_CHILD_KINDS[c.object_type.name], np.asarray(c.object_param, dtype=float), c.position, c.rotation))
        out[o.get_id()] = kids
    return out


def _prim_scale_template(kind: str, size) -> tuple[tuple, np.ndarray]:
    """Template key and per-axis scale of a primitive: sphere (r,), box (x, y, z),
    cylinder and capsule (r, h)."""
    size = np.asarray(size, dtype=float)
    if kind == "sphere":
        r = size[0]
        return ("sphere",), np.array([r, r, r])
    if kind == "box":
        return ("box",), size[:3].copy()
    if kind == "cylinder":
        return ("cylinder",), np.array([size[0], size[0], size[1]])
    if kind == "capsule":
        return ("capsule", round(float(size[0]), 9), round(float(size[1]), 9)), np.ones(3)
    raise ValueError(f"unknown primitive kind {kind!r}")


class Scene:
    """The viewer's description of a World; see the module docstring.

    ``sync()`` rebuilds it when objects were added or removed (it returns the ids added and
    removed); ``body_poses()`` / ``batch_poses()`` give the current poses."""

    def __init__(self, world):
        if not isinstance(world, torsion.World):
            raise TypeError(f"world must be a torsion.World, got {type(world).__name__}")
        self.world = world
        self.bodies: list[Body] = []
        self.geoms: list[Geom] = []
        self.objects: dict[int, ObjectEntry] = {}
        self.templates: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self.batches: list[Batch] = []
        self._config: Optional[int] = None
        self._ids: tuple = ()
        self._readers: list = []
        self.sync()

    # ---- structure -----------------------------------------------------------------------

    def sync(self) -> tuple[list[int], list[int]]:
        """Re-read the world's objects if any was added or removed since the last call.
        Returns (ids added, ids removed); both empty when nothing changed."""
        config = self.world.get_configuration_number()
        objs = self.world.get_object_list()
        ids = tuple(o.get_id() for o in objs)
        if config == self._config and ids == self._ids:
            return [], []
        before = set(self._ids)
        self._build(objs)
        self._config, self._ids = config, ids
        return sorted(set(ids) - before), sorted(before - set(ids))

    def _template(self, key: tuple, make):
        if key not in self.templates:
            v, f = make()
            self.templates[key] = (np.asarray(v, dtype=np.float32), np.asarray(f, dtype=np.uint32))
        return key

    def _add_body(self, name, object_id, local) -> int:
        self.bodies.append(Body(name, object_id, local))
        return len(self.bodies) - 1

    def _add_prim(self, name, layer, kind, size, body, pos, rot, rgba):
        key, scale = _prim_scale_template(kind, size)
        if kind == "sphere":
            self._template(key, lambda: uv_sphere(1.0))
        elif kind == "box":
            self._template(key, unit_box)
        elif kind == "cylinder":
            self._template(key, unit_cylinder)
        else:
            self._template(key, lambda: capsule_mesh(key[1], key[2]))
        self.geoms.append(Geom(name, layer, kind, body, np.asarray(pos, float), np.asarray(rot, float), scale, tuple(rgba), key))

    def _add_mesh(self, name, layer, kind, key, make, body, pos, rot, rgba, scale=(1.0, 1.0, 1.0)):
        try:
            self._template(key, make)
        except (ValueError, RuntimeError, OSError) as exc:  # a visual mesh file that cannot be read
            warnings.warn(f"torsion.viewer: {name} is not drawn: {exc}", RuntimeWarning, stacklevel=3)
            return
        self.geoms.append(Geom(name, layer, kind, body, np.asarray(pos, float), np.asarray(rot, float), np.asarray(scale, float), tuple(rgba), key))

    def _build(self, objs) -> None:
        self.bodies, self.geoms, self.objects, self.batches = [], [], {}, []
        compound_kids = _compound_children(self.world)
        eye, zero = np.eye(3), np.zeros(3)
        readers = []  # (kind, handle, body indices, frame indices)
        names_seen: dict[str, int] = {}
        for obj in objs:
            oid = obj.get_id()
            otype = obj.get_object_type()
            kind = otype.name.lower()
            base = obj.get_name() or f"{kind}{oid}"
            if base in names_seen:  # names need not be unique in a world; the viewer's must
                base = f"{base}#{oid}"
            names_seen[base] = oid
            entry = ObjectEntry(oid, base, kind)
            self.objects[oid] = entry
            colour = object_colour(oid)
            if otype == torsion.ObjectType.ARTICULATED_SYSTEM:
                joints = obj.get_joints()
                bnames = obj.get_body_names()
                frames = [obj.get_frame_index_by_name(j["joint"]) for j in joints]
                first = len(self.bodies)
                for b, bn in enumerate(bnames):
                    entry.bodies.append(self._add_body(f"{base}/{bn}", oid, b))
                readers.append(("robot", obj, np.arange(first, first + len(bnames)), frames))
                for k, vs in enumerate(_visual_shapes(obj)):
                    b = first + int(vs["body"])
                    gname = f"{base}/visual/{vs.get('name', k)}"
                    vk = vs["kind"]
                    size = np.asarray(vs["size"], float)
                    rgba = tuple(float(c) for c in vs.get("rgba", colour))
                    if vk == "mesh":
                        path = str(vs["mesh"])
                        self._add_mesh(gname, "visual", "mesh", ("file", path), lambda p=path: torsion.load_mesh(p),
                                       b, vs["position"], vs["rotation"], rgba, vs.get("mesh_scale", (1, 1, 1)))
                    else:
                        if vk == "sphere":
                            size = size[:1]
                        self._add_prim(gname, "visual", vk, size, b, vs["position"], vs["rotation"], rgba)
                for k, cb in enumerate(obj.get_collision_bodies()):
                    b = first + int(cb["body"])
                    sk = cb["shape"]
                    size = {"sphere": (cb["radius"],), "box": cb["size"], "cylinder": (cb["radius"], cb["height"]),
                            "capsule": (cb["radius"], cb["height"])}.get(sk)
                    if size is None:  # robot collision meshes are not exposed by the bindings
                        continue
                    self._add_prim(f"{base}/collision/{cb['name']}", "collision", sk, size, b, cb["position"], cb["rotation"], COLLISION_RGBA)
                lim = obj.get_joint_limits()
                for j in joints:
                    if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
                        lo, hi = lim[j["gv_index"]]
                        entry.joints.append({
                            "name": j["joint"], "type": j["type"], "gc_index": j["gc_index"], "gv_index": j["gv_index"],
                            "body": first + bnames.index(j["body"]), "axis": np.asarray(j["axis"], float),
                            "lower": float(lo), "upper": float(hi),
                        })
            else:
                b = self._add_body(base, oid, 0)
                entry.bodies.append(b)
                readers.append(("single", obj, b, None))
                if kind in ("sphere", "box", "cylinder", "capsule"):
                    size = {"sphere": lambda: (obj.get_radius(),), "box": lambda: obj.get_dim(),
                            "cylinder": lambda: (obj.get_radius(), obj.get_height()),
                            "capsule": lambda: (obj.get_radius(), obj.get_height())}[kind]()
                    for layer, rgba in (("visual", colour), ("collision", COLLISION_RGBA)):
                        self._add_prim(f"{base}/{layer}", layer, kind, size, b, zero, eye, rgba)
                elif kind == "ground":
                    h = obj.get_height()
                    half = 25.0
                    mk = lambda: (np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0], [-half, half, 0]]), np.array([[0, 1, 2], [0, 2, 3]]))
                    # the ground's body pose is its plane; the drawn square sits at z = height
                    self._add_mesh(f"{base}/visual", "visual", "ground", ("ground", half), mk, b, zero, eye, GROUND_RGBA)
                elif kind == "heightmap":
                    hm = obj.get_height_map()
                    args = (hm, obj.get_x_size(), obj.get_y_size(), obj.get_center_x(), obj.get_center_y())
                    self._add_mesh(f"{base}/visual", "visual", "heightmap", ("heightmap", oid),
                                   lambda a=args: height_map_mesh(*a), b, zero, eye, HEIGHTMAP_RGBA)
                elif kind == "mesh":
                    off = -obj.get_com_offset()
                    parts = obj.get_collision_meshes()
                    fname, scale = obj.get_file_name(), obj.get_scale()
                    if fname and os.path.exists(fname):
                        self._add_mesh(f"{base}/visual", "visual", "mesh", ("file", fname), lambda p=fname: torsion.load_mesh(p),
                                       b, off, eye, colour, (scale, scale, scale))
                    for k, (v, f) in enumerate(parts):
                        self._add_mesh(f"{base}/collision/{k}", "collision", "mesh", ("collision", oid, k), lambda v=v, f=f: (v, f),
                                       b, off, eye, COLLISION_RGBA)
                        if not fname or not os.path.exists(fname):  # no file: its collision parts are its looks
                            self._add_mesh(f"{base}/visual/{k}", "visual", "mesh", ("collision", oid, k), lambda v=v, f=f: (v, f),
                                           b, off, eye, colour)
                elif kind == "compound":
                    for k, (sk, size, pos, rot) in enumerate(compound_kids.get(oid, [])):
                        sz = {"sphere": size[:1], "box": size[:3], "cylinder": size[:2], "capsule": size[:2]}[sk]
                        for layer, rgba in (("visual", colour), ("collision", COLLISION_RGBA)):
                            self._add_prim(f"{base}/{layer}/{k}", layer, sk, sz, b, pos, rot, rgba)
        self._readers = readers
        self.templates = {k: v for k, v in self.templates.items() if any(g.template == k for g in self.geoms)}
        self._make_batches()

    def _make_batches(self) -> None:
        groups: dict[tuple, list[int]] = {}
        for i, g in enumerate(self.geoms):
            groups.setdefault((g.layer, g.template), []).append(i)
        for key, idx in groups.items():
            gs = [self.geoms[i] for i in idx]
            rgba = np.array([g.rgba for g in gs], dtype=float)
            self.batches.append(Batch(
                key=key, layer=key[0], template=key[1], geoms=np.array(idx),
                body=np.array([g.body for g in gs]),
                offset_p=np.array([g.position for g in gs], dtype=float),
                offset_r=np.array([g.rotation for g in gs], dtype=float),
                scales=np.array([g.scale for g in gs], dtype=float),
                colours=np.clip(rgba[:, :3] * 255 + 0.5, 0, 255).astype(np.uint8),
                opacity=float(rgba[:, 3].min()),
            ))
        # every instance of every batch in one set of arrays, so poses are composed in one pass
        sizes = [len(bt.body) for bt in self.batches]
        ends = np.cumsum([0] + sizes)
        self._slices = [(int(ends[i]), int(ends[i + 1])) for i in range(len(sizes))]
        if self.batches:
            self._all_body = np.concatenate([bt.body for bt in self.batches])
            self._all_off_p = np.concatenate([bt.offset_p for bt in self.batches])
            self._all_off_q = matrix_to_quat(np.concatenate([bt.offset_r for bt in self.batches]))
        else:
            self._all_body = np.zeros(0, dtype=int)
            self._all_off_p = np.zeros((0, 3))
            self._all_off_q = np.zeros((0, 4))

    # ---- poses ---------------------------------------------------------------------------

    def body_poses(self) -> tuple[np.ndarray, np.ndarray]:
        """Current world pose of every body: positions (B, 3) and rotation matrices (B, 3, 3).
        A removed object raises RemovedObjectError: call sync() first when objects may go."""
        n = len(self.bodies)
        p = np.empty((n, 3))
        q = np.empty((n, 4))
        r = np.empty((n, 3, 3))
        quat_rows = []
        for kind, obj, b, frames in self._readers:
            if kind == "single":
                p[b] = obj.get_position()
                q[b] = obj.get_quaternion()
                quat_rows.append(b)
            else:
                for bi, fi in zip(b, frames):
                    p[bi] = obj.get_frame_position(fi)
                    r[bi] = obj.get_frame_orientation(fi)
        if quat_rows:
            rows = np.array(quat_rows)
            r[rows] = quat_to_matrix(q[rows])
        return p, r

    def batch_poses(self, poses=None, skip=()) -> list:
        """World pose of every instance of every batch (in self.batches order): a list of
        (positions (n, 3), quaternions (n, 4) w, x, y, z); None for the batches whose key is in
        `skip`. All instances are composed at once: p_b + R_b o and q_b * q_o."""
        p, r = self.body_poses() if poses is None else poses
        q = matrix_to_quat(r) if len(r) else np.empty((0, 4))
        keep = [i for i, bt in enumerate(self.batches) if bt.key not in skip]
        out = [None] * len(self.batches)
        if not keep:
            return out
        sl = [self._slices[i] for i in keep]
        idx = np.concatenate([np.arange(a, b) for a, b in sl])
        body = self._all_body[idx]
        pos = p[body] + np.einsum("nij,nj->ni", r[body], self._all_off_p[idx])
        quat = quat_multiply(q[body], self._all_off_q[idx])
        at = 0
        for i, (a, b) in zip(keep, sl):
            out[i] = (pos[at:at + b - a], quat[at:at + b - a])
            at += b - a
        return out

    def body_index(self, name_or_object) -> int:
        """Index of a body by its scene name ("box3", "quadruped/trunk"), an object's name (its
        first body) or an Object handle. ValueError naming the choices for an unknown one."""
        if isinstance(name_or_object, torsion.Object):
            entry = self.objects.get(name_or_object.get_id())
            if entry is None:
                raise ValueError(f"object {name_or_object!r} is not in the viewed world")
            return entry.bodies[0]
        name = str(name_or_object)
        for i, b in enumerate(self.bodies):
            if b.name == name:
                return i
        for e in self.objects.values():
            if e.name == name:
                return e.bodies[0]
        known = ", ".join(b.name for b in self.bodies[:20])
        raise ValueError(f"no body named {name!r} in the viewed world (bodies: {known}{', ...' if len(self.bodies) > 20 else ''})")
