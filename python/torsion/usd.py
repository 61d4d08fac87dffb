"""USD Physics articulations (the seed's ``addUsdArticulatedSystem`` and ``World("x.usda")``),
read through OpenUSD's Python package (``usd-core``: ``pip install "torsion[usd]"``).

The stage's one ``PhysicsArticulationRootAPI`` prim names the robot. Its rigid bodies
(``PhysicsRigidBodyAPI``) and the joints between them become a tree of :class:`torsion.Child`
nodes, built by the same model builder as a URDF file:

- joints: ``PhysicsRevoluteJoint`` (limits in degrees; none or infinite: continuous),
  ``PhysicsPrismaticJoint`` (limits in distance units), ``PhysicsSphericalJoint`` (no cone
  limit), ``PhysicsFixedJoint``. The joint frame in body0 (``localPos0``/``localRot0``) places
  the child; the child body's own frame is ``localPos1``/``localRot1`` from the joint frame.
  A joint whose body0 is empty attaches the tree's root to the world (a fixed base for a fixed
  joint); without one the base floats.
- drives (``PhysicsDriveAPI:angular`` / ``:linear``): stiffness and damping become torsion's PD
  gains (per degree converted to per radian), targetPosition / targetVelocity its targets,
  maxForce its effort limit (clamped: set_clamp_to_effort_limits(True) when any is finite); a
  robot with any drive is put in PD mode.
- ``PhysicsMassAPI``: mass, centerOfMass, diagonalInertia with principalAxes (all required on
  each body that has mass; density-derived mass is not computed).
- ``PhysicsCollisionAPI`` prims under each body: Cube, Sphere, Cylinder and Capsule (any axis,
  scaled uniformly or, for a cube, per axis) and Mesh (its convex hull, as URDF meshes load).
- lengths are multiplied by the stage's metersPerUnit, masses by its kilogramsPerUnit.

Anything else the reader cannot simulate (a D6 or distance joint, a joint excluded from the
articulation, a loop, a spherical cone limit, a non-uniformly scaled sphere, a body joined to
the tree twice) raises ValueError naming the prim.
"""

from __future__ import annotations

import math
import os
import tempfile

import numpy as np

from .articulated_tree import Child, CollisionShape

__all__ = ["add_usd_articulated_system"]

_DEG = math.pi / 180.0


def _pxr():
    try:
        from pxr import Gf, Usd, UsdGeom, UsdPhysics  # noqa: F401
    except ImportError as e:
        raise ImportError(
            'reading USD needs OpenUSD\'s Python package usd-core: pip install "torsion[usd]"'
        ) from e
    return Gf, Usd, UsdGeom, UsdPhysics


def _matrix(gf_matrix) -> np.ndarray:
    """a Gf.Matrix4d (row-vector convention: p' = p M) as a 4x4 column-vector transform"""
    return np.array(gf_matrix, dtype=float).reshape(4, 4).T


def _quat_matrix(q) -> np.ndarray:
    """rotation matrix of a Gf quaternion"""
    w = q.GetReal()
    x, y, z = q.GetImaginary()
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if not n > 0.0 or not math.isfinite(n):
        raise ValueError("quaternion must be finite and non-zero")
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _rpy(r: np.ndarray) -> tuple[float, float, float]:
    """URDF roll-pitch-yaw of a rotation matrix (R = Rz(yaw) Ry(pitch) Rx(roll))"""
    pitch = math.atan2(-r[2, 0], math.hypot(r[0, 0], r[1, 0]))
    if abs(math.cos(pitch)) > 1e-12:
        roll = math.atan2(r[2, 1], r[2, 2])
        yaw = math.atan2(r[1, 0], r[0, 0])
    else:  # gimbal lock: put everything in yaw
        roll = 0.0
        yaw = math.atan2(-r[0, 1], r[1, 1])
    return roll, pitch, yaw


def _transform(rotation: np.ndarray, position) -> np.ndarray:
    t = np.eye(4)
    t[:3, :3] = rotation
    t[:3, 3] = position
    return t


def _inverse(t: np.ndarray) -> np.ndarray:
    r = t[:3, :3].T
    return _transform(r, -r @ t[:3, 3])


def _pose_args(t: np.ndarray) -> tuple[list[float], tuple[float, float, float]]:
    """(xyz, rpy) of a rigid transform, with the rotation re-derived from rpy exactly as the
    URDF loader will rebuild it (the residual is round-off)"""
    return [float(x) for x in t[:3, 3]], _rpy(t[:3, :3])


def _attr(attr, default=None):
    if not attr or not attr.HasAuthoredValue():
        return default
    return attr.Get()


def _axis_rotation(axis: str) -> np.ndarray:
    """a rotation taking the shape's z axis to its USD axis token"""
    if axis == "X":
        return np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])  # Ry(+90)
    if axis == "Y":
        return np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # Rx(-90)
    return np.eye(3)


class _Reader:
    def __init__(self, path: str):
        Gf, Usd, UsdGeom, UsdPhysics = _pxr()
        self.Gf, self.Usd, self.UsdGeom, self.UsdPhysics = Gf, Usd, UsdGeom, UsdPhysics
        if not os.path.isfile(path):
            raise ValueError(f"usd_path: no such USD file '{path}'")
        try:
            self.stage = Usd.Stage.Open(path)
        except Exception as e:  # pxr raises Tf.ErrorException
            raise ValueError(f"usd_path: '{path}' cannot be opened as a USD stage: {e}") from None
        if self.stage is None:
            raise ValueError(f"usd_path: '{path}' cannot be opened as a USD stage")
        self.path = path
        self.meters = float(UsdGeom.GetStageMetersPerUnit(self.stage))
        kg = self.stage.GetMetadata("kilogramsPerUnit")
        self.kilograms = float(kg) if kg else 1.0
        self.xform_cache = UsdGeom.XformCache(Usd.TimeCode.Default())
        self.tmp = None  # directory of the OBJ files of mesh collision shapes

    # --- the stage ---

    def world_matrix(self, prim) -> np.ndarray:
        return _matrix(self.xform_cache.GetLocalToWorldTransform(prim))

    def articulation_root(self):
        roots = [p for p in self.stage.Traverse() if p.HasAPI(self.UsdPhysics.ArticulationRootAPI)]
        if not roots:
            raise ValueError(f"'{self.path}': no prim has PhysicsArticulationRootAPI")
        if len(roots) > 1:
            raise ValueError(f"'{self.path}': {len(roots)} articulation roots "
                             f"({', '.join(str(p.GetPath()) for p in roots)}); one robot per call")
        return roots[0]

    def gravity(self) -> np.ndarray | None:
        for p in self.stage.Traverse():
            if p.IsA(self.UsdPhysics.Scene):
                scene = self.UsdPhysics.Scene(p)
                direction = np.array(_attr(scene.GetGravityDirectionAttr(), (0.0, 0.0, 0.0)), float)
                magnitude = _attr(scene.GetGravityMagnitudeAttr(), None)
                if not np.any(direction):
                    direction = np.array([0.0, 0.0, -1.0])  # the stage's up axis is z here
                if magnitude is None or not math.isfinite(magnitude) or magnitude < 0:
                    magnitude = 9.81 / self.meters  # "-inf": earth gravity in stage units
                return direction / np.linalg.norm(direction) * magnitude * self.meters
        return None

    # --- bodies ---

    def body_prims(self, root):
        """the rigid bodies under the articulation root, and those joints reach from them (a
        root API on the base body leaves the links beside it in the hierarchy)"""
        rigid = {str(p.GetPath()): p for p in self.stage.Traverse()
                 if p.HasAPI(self.UsdPhysics.RigidBodyAPI)}
        found = {str(p.GetPath()) for p in self.Usd.PrimRange(root) if str(p.GetPath()) in rigid}
        if not found:
            raise ValueError(f"{root.GetPath()}: the articulation has no PhysicsRigidBodyAPI prim")
        links = [(b0, b1) for _, b0, b1 in self.joints(root)]
        grew = True
        while grew:
            grew = False
            for b0, b1 in links:
                for a, b in ((b0, b1), (b1, b0)):
                    if a in found and b in rigid and b not in found:
                        found.add(b)
                        grew = True
        return [rigid[k] for k in rigid if k in found]  # in stage order

    def mass_properties(self, body, frame: np.ndarray):
        """(mass, com, inertia 3x3) of a body in `frame` (4x4, the link frame in body coordinates)"""
        where = str(body.GetPath())
        if not body.HasAPI(self.UsdPhysics.MassAPI):
            raise ValueError(f"{where}: a rigid body needs PhysicsMassAPI with its mass (mass from "
                             "density is not computed)")
        api = self.UsdPhysics.MassAPI(body)
        mass = float(_attr(api.GetMassAttr(), 0.0)) * self.kilograms
        if not math.isfinite(mass) or mass < 0.0:
            raise ValueError(f"{where}: physics:mass must be finite and >= 0, got {mass}")
        com = np.array(_attr(api.GetCenterOfMassAttr(), (0.0, 0.0, 0.0)), float) * self.meters
        diagonal = np.array(_attr(api.GetDiagonalInertiaAttr(), (0.0, 0.0, 0.0)), float)
        diagonal *= self.kilograms * self.meters ** 2
        if mass > 0.0 and not np.all(diagonal > 0.0):
            raise ValueError(f"{where}: physics:diagonalInertia must be given and > 0 for a body "
                             f"with mass, got {diagonal.tolist()}")
        axes = _attr(api.GetPrincipalAxesAttr(), None)
        r_axes = _quat_matrix(axes) if axes is not None else np.eye(3)
        inertia_body = r_axes @ np.diag(diagonal) @ r_axes.T
        link_from_body = _inverse(frame)
        r = link_from_body[:3, :3]
        com_link = link_from_body[:3, :3] @ com + link_from_body[:3, 3]
        inertia = r @ inertia_body @ r.T
        return mass, com_link, 0.5 * (inertia + inertia.T)

    def collision_shapes(self, body, frame: np.ndarray, bodies: set) -> list[CollisionShape]:
        """the collision prims under `body` (not under a nested body), in the link frame"""
        out = []
        body_world = self.world_matrix(body)  # stage units
        frame_units = frame.copy()
        frame_units[:3, 3] /= self.meters
        link_world = body_world @ frame_units
        for prim in self.Usd.PrimRange(body):
            if prim != body and str(prim.GetPath()) in bodies:
                continue
            if not prim.HasAPI(self.UsdPhysics.CollisionAPI):
                continue
            if _attr(self.UsdPhysics.CollisionAPI(prim).GetCollisionEnabledAttr(), True) is False:
                continue
            out.append(self.shape(prim, _inverse(link_world) @ self.world_matrix(prim)))
        return out

    def shape(self, prim, t: np.ndarray) -> CollisionShape:
        """one collision prim; t its transform in the link frame (scale included)"""
        where = str(prim.GetPath())
        UsdGeom = self.UsdGeom
        t = t.copy()
        t[:3, 3] *= self.meters
        scale = np.linalg.norm(t[:3, :3], axis=0)
        if not np.all(scale > 0.0):
            raise ValueError(f"{where}: a collision shape's transform must not be singular")
        rotation = t[:3, :3] / scale
        if np.linalg.det(rotation) < 0 or not np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-9):
            raise ValueError(f"{where}: a collision shape's transform must be a rotation and a "
                             "scale along the shape's axes (no shear or mirror)")
        name = prim.GetName()

        def posed(kind, **kw):
            shape_rotation = rotation @ kw.pop("rot", np.eye(3))
            xyz, rpy = _pose_args(_transform(shape_rotation, t[:3, 3]))
            return CollisionShape(kind, xyz=xyz, rpy=rpy, name=name, **kw)

        def uniform(what):
            if not np.allclose(scale, scale[0], rtol=1e-9, atol=0.0):
                raise ValueError(f"{where}: a {what} must be scaled uniformly, got scale {scale.tolist()}")
            return float(scale[0]) * self.meters

        if prim.IsA(UsdGeom.Cube):
            size = float(_attr(UsdGeom.Cube(prim).GetSizeAttr(), 2.0))
            return posed("box", size=[float(size * s * self.meters) for s in scale])
        if prim.IsA(UsdGeom.Sphere):
            radius = float(_attr(UsdGeom.Sphere(prim).GetRadiusAttr(), 1.0))
            return posed("sphere", radius=radius * uniform("sphere"))
        if prim.IsA(UsdGeom.Cylinder) or prim.IsA(UsdGeom.Capsule):
            geom = UsdGeom.Cylinder(prim) if prim.IsA(UsdGeom.Cylinder) else UsdGeom.Capsule(prim)
            kind = "cylinder" if prim.IsA(UsdGeom.Cylinder) else "capsule"
            axis = str(_attr(geom.GetAxisAttr(), "Z"))
            radius = float(_attr(geom.GetRadiusAttr(), 1.0 if kind == "cylinder" else 0.5))
            height = float(_attr(geom.GetHeightAttr(), 2.0 if kind == "cylinder" else 1.0))
            k = uniform(kind)
            return posed(kind, radius=radius * k, length=height * k, rot=_axis_rotation(axis))
        if prim.IsA(UsdGeom.Mesh):
            return self.mesh_shape(prim, t, scale, rotation, name)
        raise ValueError(f"{where}: collision geometry of type {prim.GetTypeName()!r} is not "
                         "supported (Cube, Sphere, Cylinder, Capsule or Mesh)")

    def mesh_shape(self, prim, t, scale, rotation, name) -> CollisionShape:
        where = str(prim.GetPath())
        mesh = self.UsdGeom.Mesh(prim)
        points = np.array(_attr(mesh.GetPointsAttr(), []), float).reshape(-1, 3)
        counts = np.array(_attr(mesh.GetFaceVertexCountsAttr(), []), int)
        indices = np.array(_attr(mesh.GetFaceVertexIndicesAttr(), []), int)
        if len(points) < 4 or counts.size == 0 or counts.sum() != indices.size or np.any(counts < 3):
            raise ValueError(f"{where}: a collision mesh needs points, faceVertexCounts (>= 3 each) "
                             "and faceVertexIndices that match")
        if indices.min() < 0 or indices.max() >= len(points):
            raise ValueError(f"{where}: faceVertexIndices out of range of the points")
        if self.tmp is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="torsion_usd_")
        file = os.path.join(self.tmp.name, f"mesh_{len(os.listdir(self.tmp.name))}.obj")
        lines = [f"v {float(x)!r} {float(y)!r} {float(z)!r}" for x, y, z in points]
        start = 0
        for c in counts:
            face = indices[start:start + c] + 1
            lines.append("f " + " ".join(str(int(i)) for i in face))
            start += c
        with open(file, "w") as f:
            f.write("\n".join(lines) + "\n")
        xyz, rpy = _pose_args(_transform(rotation, t[:3, 3]))
        return CollisionShape("mesh", file=file, scale=[float(s * self.meters) for s in scale],
                              xyz=xyz, rpy=rpy, name=name)

    # --- joints ---

    def joints(self, root):
        UsdPhysics = self.UsdPhysics
        out = []
        for prim in self.stage.Traverse():
            if not prim.IsA(UsdPhysics.Joint):
                continue
            joint = UsdPhysics.Joint(prim)
            if _attr(joint.GetJointEnabledAttr(), True) is False:
                continue
            b0 = joint.GetBody0Rel().GetTargets()
            b1 = joint.GetBody1Rel().GetTargets()
            out.append((prim, str(b0[0]) if b0 else "", str(b1[0]) if b1 else ""))
        return out

    def joint_frame(self, prim, which: int) -> np.ndarray:
        joint = self.UsdPhysics.Joint(prim)
        pos = _attr((joint.GetLocalPos0Attr, joint.GetLocalPos1Attr)[which](), (0.0, 0.0, 0.0))
        rot = _attr((joint.GetLocalRot0Attr, joint.GetLocalRot1Attr)[which](), None)
        r = _quat_matrix(rot) if rot is not None else np.eye(3)
        return _transform(r, np.array(pos, float) * self.meters)

    def joint_child(self, prim) -> dict:
        """joint type, axis, limits and drive of a joint prim, in torsion's terms"""
        UsdPhysics = self.UsdPhysics
        where = str(prim.GetPath())
        info = {"joint_name": prim.GetName(), "limits": None, "drive": None, "axis": (0.0, 0.0, 1.0)}
        if prim.IsA(UsdPhysics.FixedJoint):
            info["joint_type"] = "fixed"
            return info
        if _attr(UsdPhysics.Joint(prim).GetExcludeFromArticulationAttr(), False):
            raise ValueError(f"{where}: a joint excluded from the articulation (a loop closure) "
                             "cannot be simulated in reduced coordinates")
        if prim.IsA(UsdPhysics.RevoluteJoint) or prim.IsA(UsdPhysics.PrismaticJoint):
            revolute = prim.IsA(UsdPhysics.RevoluteJoint)
            j = UsdPhysics.RevoluteJoint(prim) if revolute else UsdPhysics.PrismaticJoint(prim)
            axis = str(_attr(j.GetAxisAttr(), "X"))
            info["axis"] = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}[axis]
            unit = _DEG if revolute else self.meters
            lo = _attr(j.GetLowerLimitAttr(), -math.inf)
            hi = _attr(j.GetUpperLimitAttr(), math.inf)
            lo = -math.inf if lo is None else float(lo)
            hi = math.inf if hi is None else float(hi)
            if math.isnan(lo) or math.isnan(hi):
                raise ValueError(f"{where}: joint limits must not be NaN")
            if math.isfinite(lo) and math.isfinite(hi):
                if lo > hi:
                    raise ValueError(f"{where}: lowerLimit {lo} is above upperLimit {hi}")
                info["limits"] = (lo * unit, hi * unit)
                info["joint_type"] = "revolute" if revolute else "prismatic"
            elif math.isfinite(lo) or math.isfinite(hi):
                raise ValueError(f"{where}: a joint limited on one side only is not supported "
                                 f"(lowerLimit {lo}, upperLimit {hi})")
            else:
                if not revolute:
                    raise ValueError(f"{where}: a prismatic joint needs finite limits")
                info["joint_type"] = "continuous"
            kind = "angular" if revolute else "linear"
            if prim.HasAPI(UsdPhysics.DriveAPI, kind):
                d = UsdPhysics.DriveAPI(prim, kind)
                scale = (1.0 / _DEG) if revolute else 1.0  # per degree -> per radian
                kp = float(_attr(d.GetStiffnessAttr(), 0.0)) * scale * self.kilograms
                kd = float(_attr(d.GetDampingAttr(), 0.0)) * scale * self.kilograms
                if revolute:
                    kp *= self.meters ** 2
                    kd *= self.meters ** 2
                if not (math.isfinite(kp) and kp >= 0 and math.isfinite(kd) and kd >= 0):
                    raise ValueError(f"{where}: drive stiffness and damping must be finite and >= 0")
                target = float(_attr(d.GetTargetPositionAttr(), 0.0)) * unit
                velocity = float(_attr(d.GetTargetVelocityAttr(), 0.0)) * unit
                max_force = _attr(d.GetMaxForceAttr(), math.inf)
                max_force = math.inf if max_force is None else float(max_force)
                if str(_attr(d.GetTypeAttr(), "force")) != "force":
                    raise ValueError(f"{where}: only force drives are supported (torsion's PD acts "
                                     "through forces), got type acceleration")
                info["drive"] = (kp, kd, target, velocity, max_force)
            return info
        if prim.IsA(UsdPhysics.SphericalJoint):
            j = UsdPhysics.SphericalJoint(prim)
            for attr in (j.GetConeAngle0LimitAttr(), j.GetConeAngle1LimitAttr()):
                v = _attr(attr, -1.0)
                if v is not None and 0.0 <= float(v) < 180.0:
                    raise ValueError(f"{where}: spherical joint cone limits are not supported")
            info["joint_type"] = "spherical"
            return info
        raise ValueError(f"{where}: joint type {prim.GetTypeName()!r} cannot be simulated "
                         "(revolute, prismatic, spherical and fixed joints are)")

    # --- the tree ---

    def tree(self, root):
        bodies = self.body_prims(root)
        names = {str(p.GetPath()): p for p in bodies}
        parent_joint: dict[str, tuple] = {}
        children: dict[str, list] = {k: [] for k in names}
        world_joints = []
        for prim, b0, b1 in self.joints(root):
            if b1 not in names and b0 not in names:
                continue  # another robot's joint
            if b1 not in names:
                if not b1:
                    raise ValueError(f"{prim.GetPath()}: body1 must be the child body (body0 the "
                                     "parent, empty for the world)")
                raise ValueError(f"{prim.GetPath()}: body1 {b1} is not a rigid body of the articulation")
            if b0 and b0 not in names:
                raise ValueError(f"{prim.GetPath()}: body0 {b0} is not a rigid body of the articulation")
            if b1 in parent_joint:
                raise ValueError(f"{prim.GetPath()}: body {b1} already has the parent joint "
                                 f"{parent_joint[b1][0].GetPath()} (a loop cannot be simulated)")
            parent_joint[b1] = (prim, b0)
            if b0:
                children[b0].append(b1)
            else:
                world_joints.append(b1)
        roots = [b for b in names if b not in parent_joint or not parent_joint[b][1]]
        if len(roots) != 1:
            raise ValueError(f"{root.GetPath()}: the articulation's bodies must form one tree; its "
                             f"roots are {roots}")
        base = roots[0]
        seen = set()

        def build(body_path: str, link_in_body: np.ndarray, joint_info: dict, origin: np.ndarray):
            if body_path in seen:
                raise ValueError(f"{body_path}: reached twice (a loop)")
            seen.add(body_path)
            body = names[body_path]
            mass, com, inertia = self.mass_properties(body, link_in_body)
            kids = []
            for child_path in children[body_path]:
                jprim, _ = parent_joint[child_path]
                j0 = self.joint_frame(jprim, 0)  # joint frame in the parent body
                j1 = self.joint_frame(jprim, 1)  # joint frame in the child body
                info = self.joint_child(jprim)
                kids.append(build(child_path, j1, info, _inverse(link_in_body) @ j0))
            xyz, rpy = _pose_args(origin)
            c = Child(name=body.GetName(), joint_type=joint_info["joint_type"],
                      joint_name=joint_info["joint_name"], origin_xyz=xyz, origin_rpy=rpy,
                      axis=joint_info["axis"], limits=joint_info["limits"], mass=mass,
                      com=com.tolist(), inertia=inertia,
                      collisions=self.collision_shapes(body, link_in_body, set(names)),
                      children=kids)
            c._usd_drive = joint_info["drive"]  # read back by add_usd_articulated_system
            return c

        if base in parent_joint:  # attached to the world by a joint
            jprim, _ = parent_joint[base]
            j0, j1 = self.joint_frame(jprim, 0), self.joint_frame(jprim, 1)
            info = self.joint_child(jprim)
            tree = build(base, j1, info, j0)
        else:
            # a floating base: its link frame is the body frame, placed where the stage puts it
            info = {"joint_type": "floating", "joint_name": names[base].GetName() + "_root",
                    "axis": (0.0, 0.0, 1.0), "limits": None, "drive": None}
            tree = build(base, np.eye(4), info, np.eye(4))
        missing = sorted(set(names) - seen)
        if missing:
            raise ValueError(f"{missing[0]}: a rigid body of the articulation not joined to its "
                             "tree")
        if len({names[b].GetName() for b in names}) != len(names):
            raise ValueError(f"{root.GetPath()}: rigid body prim names must be unique (they name "
                             "the links)")
        floating = base not in parent_joint
        base_pose = self.world_matrix(names[base]) if floating else None
        return tree, floating, base_pose


def _walk(c: Child):
    yield c
    for k in c.children:
        yield from _walk(k)


_SIZES = {"fixed": (0, 0), "revolute": (1, 1), "continuous": (1, 1), "prismatic": (1, 1),
          "spherical": (4, 3)}


def add_usd_articulated_system(world, usd_path, collision_group=1, collision_mask=-1,
                               do_not_collide_with_parent: bool = True,
                               self_collision: bool = False):
    """Add the USD Physics articulation of a .usd/.usda/.usdc/.usdz file (the seed's
    addUsdArticulatedSystem). See the module docstring for what is read. A floating base starts
    at the pose the stage gives its root body; drives set PD gains, targets and effort limits.
    Returns an ArticulatedSystem; ValueError naming the prim for what cannot be simulated;
    ImportError naming the ``usd`` extra without usd-core."""
    path = os.fsdecode(os.fspath(usd_path)) if not isinstance(usd_path, str) else usd_path
    reader = _Reader(path)
    try:
        root = reader.articulation_root()
        tree, floating, base_pose = reader.tree(root)
        robot = world.add_articulated_system_from_tree(
            tree, collision_group=collision_group, collision_mask=collision_mask,
            do_not_collide_with_parent=do_not_collide_with_parent, self_collision=self_collision)
    finally:
        if reader.tmp is not None:
            reader.tmp.cleanup()
    robot.set_name(root.GetName())
    # gc / gv offsets of each movable joint, depth first as the tree was written
    nq0, nv0 = (7, 6) if floating else (0, 0)
    q_ref = np.zeros(robot.get_generalized_coordinate_dim())
    q_ref[:] = robot.get_generalized_coordinate()
    nv = robot.get_dof()
    kp, kd, v_ref = np.zeros(nv), np.zeros(nv), np.zeros(nv)
    effort = np.full(nv, np.inf)
    driven = False
    iq, iv = nq0, nv0
    for c in _walk(tree):
        if c is tree and floating:
            continue  # the base's 7/6 coordinates come first
        dq, dv = _SIZES[c.joint_type]
        drive = getattr(c, "_usd_drive", None)
        if drive is not None and dq == 1:
            kp[iv], kd[iv], q_ref[iq], v_ref[iv], effort[iv] = drive
            driven = True
        iq, iv = iq + dq, iv + dv
    if base_pose is not None:
        gc = robot.get_generalized_coordinate()
        gc[:3] = base_pose[:3, 3] * reader.meters
        r = base_pose[:3, :3] / np.linalg.norm(base_pose[:3, :3], axis=0)
        gc[3:7] = _matrix_quat(r)
        robot.set_generalized_coordinate(gc)
        q_ref[:7] = gc[:7]
    if driven:
        robot.set_pd_gains(kp, kd)
        robot.set_pd_target(q_ref, v_ref)
        robot.set_effort_limits(effort)
        if np.any(np.isfinite(effort)):
            # a drive's maxForce bounds the force it applies (as PhysX applies it)
            robot.set_clamp_to_effort_limits(True)
    return robot


def _matrix_quat(r: np.ndarray) -> list[float]:
    """(w, x, y, z) of a rotation matrix (Shepperd's method)"""
    t = np.trace(r)
    if t > 0:
        s = math.sqrt(t + 1.0) * 2
        q = [0.25 * s, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s]
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        s = math.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2]) * 2
        q = [(r[2, 1] - r[1, 2]) / s, 0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s]
    elif r[1, 1] > r[2, 2]:
        s = math.sqrt(1.0 + r[1, 1] - r[0, 0] - r[2, 2]) * 2
        q = [(r[0, 2] - r[2, 0]) / s, (r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s]
    else:
        s = math.sqrt(1.0 + r[2, 2] - r[0, 0] - r[1, 1]) * 2
        q = [(r[1, 0] - r[0, 1]) / s, (r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s]
    return q


def _load_world(world, path: str) -> None:
    """World("scene.usda"): the stage's physics scene gravity and its articulation"""
    reader = _Reader(path)
    g = reader.gravity()
    if g is not None:
        world.set_gravity(g)
    add_usd_articulated_system(world, path)
