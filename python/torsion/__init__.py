"""torsion: a robotics physics simulator.

A C++17 core (Eigen) bound with pybind11. Conventions: SI units; quaternions (w, x, y, z);
rotation matrices map body to world; a single body's position is its centre of mass and its
velocities are in the world frame. Arrays cross the boundary as NumPy float64; getters return
fresh arrays (copies) unless their docstring says otherwise.

Errors: bad arguments raise ValueError (IndexError for an index out of range), calls in the wrong
state (between integrate1() and integrate2()) raise RuntimeError, and a dead handle (a removed World
object, an erased IK object or group) raises RemovedObjectError, a subclass of both RuntimeError
and ValueError.
"""

from . import robots
from ._core import (
    ArticulatedSystem,
    CONTACT_PROBLEM_DTYPE,
    OBJECT_CONTACT_DTYPE,
    PAIR_CONTACT_DTYPE,
    BroadphaseSettings,
    ContactSettings,
    ContactSolver,
    ContactSolverConfig,
    Shape,
    ShapeType,
    collide,
    collide_triangle,
)
from ._core import (
    Box,
    BodyType,
    Checkpoint,
    SingleBodySnapshot,
    WorldLockGuard,
    Capsule,
    Compound,
    CompoundObjectChild,
    ControlMode,
    Cylinder,
    DepthCameraProperties,
    Ground,
    HeightMap,
    MaterialManager,
    MaterialPairProperties,
    Mesh,
    MeshCollisionMode,
    Object,
    ObjectType,
    RayBatchResult,
    RayHit,
    RemovedObjectError,
    SingleBodyObject,
    Sphere,
    TerrainProperties,
    MJCFWarning,
    URDFWarning,
    World,
)
from ._core import ArticulatedView, WorldBatch, WorldState
from ._core import GranularMaterial, GranularSystem
from ._core import DeformableTerrain  # docs/soil.md
from ._core import CompliantWire, CustomWire, LengthConstraint, StiffWire  # docs/wires.md
from ._core import DeformableMaterial, DeformableMeshOptions, DeformableObject
from . import deformable
from ._core import Tendon, TendonCoupling  # docs/tendons.md
from ._core import convex_hull, load_mesh, mesh_is_closed, mesh_mass_properties
from . import rotations
from . import sensors
from . import terrain
from .mesh import CoacdOptions
from .sensors import DepthCameraFrame
from .articulated_tree import Child, CollisionShape

from . import ik  # noqa: E402  (torsion.ik: inverse kinematics)
from . import hal  # noqa: E402  (torsion.hal: the NAOqi-style hardware abstraction layer)


class JointLimitWarning(UserWarning):
    """A robot was stepped from a configuration outside its joint limits (given once per robot,
    by the first step from a configuration set at creation or with set_generalized_coordinate /
    set_state); the joint-limit rows push the joint back."""
from .mjcf import MjcfModel, load_mjcf_file as _load_mjcf_file  # noqa: E402

World.load_mjcf_file = _load_mjcf_file  # MJCF (the seed's loadMjcfFile), torsion/mjcf.py

__version__ = "0.1.0"

__all__ = [
    "URDFWarning",
    "MJCFWarning",
    "MjcfModel",
    "ArticulatedSystem",
    "CONTACT_PROBLEM_DTYPE",
    "OBJECT_CONTACT_DTYPE",
    "PAIR_CONTACT_DTYPE",
    "BroadphaseSettings",
    "ContactSettings",
    "ContactSolver",
    "ContactSolverConfig",
    "Shape",
    "ShapeType",
    "collide",
    "collide_triangle",
    "Box",
    "BodyType",
    "Checkpoint",
    "SingleBodySnapshot",
    "WorldLockGuard",
    "Capsule",
    "CoacdOptions",
    "Compound",
    "CompoundObjectChild",
    "Child",
    "CollisionShape",
    "ControlMode",
    "Cylinder",
    "DepthCameraFrame",
    "DepthCameraProperties",
    "Ground",
    "HeightMap",
    "MaterialManager",
    "MaterialPairProperties",
    "Mesh",
    "MeshCollisionMode",
    "convex_hull",
    "load_mesh",
    "mesh_is_closed",
    "mesh_mass_properties",
    "Object",
    "ObjectType",
    "RayBatchResult",
    "RayHit",
    "RemovedObjectError",
    "SingleBodyObject",
    "Sphere",
    "TerrainProperties",
    "World",
    "WorldBatch",
    "WorldState",
    "ArticulatedView",
    "LengthConstraint",
    "StiffWire",
    "CompliantWire",
    "CustomWire",
    "GranularMaterial",
    "GranularSystem",
    "DeformableTerrain",
    "DeformableMaterial",
    "DeformableMeshOptions",
    "DeformableObject",
    "deformable",
    "Tendon",
    "TendonCoupling",
    "terrain",
    "rotations",
    "sensors",
    "JointLimitWarning",
    "__version__",
    "ik",
    "robots",
]
