"""
torsion's C++ core (bound with pybind11). Use the torsion package, not this module.
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.dtypes
import numpy.typing
import typing
from . import ik
from . import contact
__all__: list[str] = ['ArticulatedSystem', 'ArticulatedView', 'BodyType', 'Box', 'BroadphaseSettings', 'CONTACT_PROBLEM_DTYPE', 'Capsule', 'Checkpoint', 'CompliantWire', 'Compound', 'CompoundObjectChild', 'ContactSettings', 'ContactSolver', 'ContactSolverConfig', 'ControlMode', 'CustomWire', 'Cylinder', 'DeformableMaterial', 'DeformableMeshOptions', 'DeformableObject', 'DeformableTerrain', 'DepthCameraProperties', 'GranularMaterial', 'GranularSystem', 'Ground', 'HeightMap', 'LengthConstraint', 'MJCFWarning', 'MaterialManager', 'MaterialPairProperties', 'Mesh', 'MeshCollisionMode', 'OBJECT_CONTACT_DTYPE', 'Object', 'ObjectType', 'PAIR_CONTACT_DTYPE', 'RayBatchResult', 'RayHit', 'RemovedObjectError', 'Shape', 'ShapeType', 'SingleBodyObject', 'SingleBodySnapshot', 'Sphere', 'StiffWire', 'Tendon', 'TendonCoupling', 'TerrainProperties', 'URDFWarning', 'World', 'WorldBatch', 'WorldLockGuard', 'WorldState', 'collide', 'collide_triangle', 'contact', 'convex_hull', 'ik', 'load_mesh', 'mesh_is_closed', 'mesh_mass_properties']
class MJCFWarning(UserWarning):
    """
    An MJCF file holds something torsion loads without simulating it (yet), or ignores with ignore_unsupported=True; the message names the file and the element.
    """
class URDFWarning(UserWarning):
    """
    A URDF file departs from the format in a way torsion tolerates (as PyBullet does): the message names the file, the line and what was assumed (docs/robot_files.md).
    """
class RemovedObjectError(RuntimeError, ValueError):
    pass
class ObjectType:
    """
    Kind of a world object (RaiSim's ObjectType).
    
    Members:
    
      SPHERE
    
      BOX
    
      CYLINDER
    
      CAPSULE
    
      GROUND
    
      HEIGHTMAP
    
      MESH
    
      COMPOUND
    
      ARTICULATED_SYSTEM
    """
    ARTICULATED_SYSTEM: typing.ClassVar[ObjectType]
    BOX: typing.ClassVar[ObjectType]
    CAPSULE: typing.ClassVar[ObjectType]
    COMPOUND: typing.ClassVar[ObjectType]
    CYLINDER: typing.ClassVar[ObjectType]
    GROUND: typing.ClassVar[ObjectType]
    HEIGHTMAP: typing.ClassVar[ObjectType]
    MESH: typing.ClassVar[ObjectType]
    SPHERE: typing.ClassVar[ObjectType]
    __members__: typing.ClassVar[dict[str, ObjectType]]
    @typing.overload
    def __eq__(self, other: ObjectType) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: ObjectType) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class BodyType:
    """
    STATIC never moves; KINEMATIC moves with its set velocity and is not affected by forces; DYNAMIC is simulated.
    
    Members:
    
      STATIC
    
      KINEMATIC
    
      DYNAMIC
    """
    DYNAMIC: typing.ClassVar[BodyType]
    KINEMATIC: typing.ClassVar[BodyType]
    STATIC: typing.ClassVar[BodyType]
    __members__: typing.ClassVar[dict[str, BodyType]]
    @typing.overload
    def __eq__(self, other: BodyType) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: BodyType) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class Object:
    """
    Handle to an object of a World. Holds the world and the object's stable id; raises RemovedObjectError once the object is removed.
    """
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def get_contacts(self) -> numpy.ndarray:
        """
        This object's contacts of the last integrate1() (a new structured array of dtype OBJECT_CONTACT_DTYPE, a copy): position (3,) world m; normal (3,) unit, from B to A (check is_object_a); depth (m); impulse (3,) in the contact frame acting on A (N s, as RaiSim; zero until the contact solver runs); force (3,) the world-frame force on THIS object, impulse / dt (N); pair_object_id and pair_object_index (the other object's id and world index); local_body_index (this object's body) and pair_local_body_index; contact_index (row in World.get_contact_problem()); feature; is_object_a; is_self_collision (both bodies belong to this object: an articulated system's self-contact appears twice, once from each side).
        """
    def get_id(self) -> int:
        """
        Stable id, never reused within the world.
        """
    def get_index_in_world(self) -> int:
        """
        Position in the world's object list; changes when another object is removed.
        """
    def get_name(self) -> str:
        ...
    def get_object_type(self) -> ObjectType:
        ...
    def is_alive(self) -> bool:
        """
        False once the object has been removed from its world.
        """
    def set_name(self, name: str) -> None:
        ...
class SingleBodyObject(Object):
    """
    A rigid body with one collision shape. Position is the centre of mass (m, world); linear (m/s) and angular (rad/s) velocities are in the world frame; quaternions are (w, x, y, z). Getters return fresh NumPy arrays (copies).
    """
    def get_angular_damping(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def get_angular_momentum(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Angular momentum about the centre of mass (kg m^2/s), world frame.
        """
    def get_angular_velocity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Angular velocity, world frame (rad/s), shape (3,).
        """
    def get_body_type(self) -> BodyType:
        ...
    def get_collision_group(self) -> int:
        ...
    def get_collision_mask(self) -> int:
        ...
    def get_com(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Same as get_position(): a single body's position is its centre of mass.
        """
    def get_energy(self, gravity: typing.Any) -> float:
        """
        Kinetic plus gravitational potential energy (J).
        """
    def get_inertia_matrix_b(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Inertia about the centre of mass in the body frame (kg m^2), shape (3, 3).
        """
    def get_inertia_matrix_w(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Inertia about the centre of mass in the world frame (kg m^2), shape (3, 3).
        """
    def get_kinetic_energy(self) -> float:
        """
        Kinetic energy (J).
        """
    def get_linear_damping(self) -> float:
        ...
    def get_linear_momentum(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        m v (kg m/s), world frame.
        """
    def get_linear_velocity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Linear velocity of the centre of mass, world frame (m/s), shape (3,).
        """
    def get_mass(self) -> float:
        """
        Mass (kg).
        """
    def get_material(self) -> str:
        ...
    def get_position(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Centre of mass position, world frame (m), shape (3,).
        """
    def get_potential_energy(self, gravity: typing.Any) -> float:
        """
        Gravitational potential energy -m g.x (J) for the gravity vector g (m/s^2).
        """
    def get_quaternion(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Orientation quaternion (w, x, y, z), body to world, shape (4,).
        """
    def get_rotation_matrix(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Rotation matrix, body to world, shape (3, 3).
        """
    def set_angular_damping(self, damping: typing.Any) -> None:
        """
        Angular velocity damping rates about the body axes (1/s, >= 0): 3 numbers or one.
        """
    def set_angular_velocity(self, angular: typing.Any) -> None:
        ...
    def set_body_type(self, body_type: BodyType) -> None:
        """
        STATIC, KINEMATIC or DYNAMIC (see BodyType). Switching to STATIC sets the linear and angular velocity to zero.
        """
    def set_external_force(self, force: typing.Any) -> None:
        """
        Apply a force (N, world frame) at the centre of mass during the next step only. Calls within one step add up.
        """
    def set_external_force_at(self, force: typing.Any, point: typing.Any) -> None:
        """
        Apply a force (N, world frame) at a world point (m) during the next step only.
        """
    def set_external_torque(self, torque: typing.Any) -> None:
        """
        Apply a torque (N m, world frame) during the next step only.
        """
    def set_inertia(self, inertia: typing.Any) -> None:
        """
        Set the body-frame inertia about the centre of mass (kg m^2): a symmetric positive definite (3, 3) matrix, or its diagonal as shape (3,), whose principal moments satisfy I1 + I2 >= I3 (a real mass distribution; ValueError otherwise).
        """
    def set_linear_damping(self, damping: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Linear velocity damping rate (1/s, >= 0), applied implicitly: v /= 1 + dt c.
        """
    def set_linear_velocity(self, linear: typing.Any) -> None:
        ...
    def set_mass(self, mass: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the mass (kg, finite, > 0). The inertia is left as it is.
        """
    @typing.overload
    def set_orientation(self, w: typing.SupportsFloat | typing.SupportsIndex, x: typing.SupportsFloat | typing.SupportsIndex, y: typing.SupportsFloat | typing.SupportsIndex, z: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set_orientation(self, quaternion: typing.Any) -> None:
        """
        Set the orientation from a quaternion (w, x, y, z), body to world. Any non-zero norm is accepted and normalised.
        """
    def set_orientation_from_matrix(self, rotation: typing.Any) -> None:
        """
        Set the orientation from a (3, 3) rotation matrix, body to world.
        """
    @typing.overload
    def set_position(self, x: typing.SupportsFloat | typing.SupportsIndex, y: typing.SupportsFloat | typing.SupportsIndex, z: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set_position(self, position: typing.Any) -> None:
        """
        Set the centre of mass position, world frame (m), shape (3,).
        """
    @typing.overload
    def set_velocity(self, linear: typing.Any, angular: typing.Any) -> None:
        """
        Set the linear (m/s) and angular (rad/s) velocity, world frame. A STATIC body never moves: only zero is accepted (ValueError otherwise: make it KINEMATIC to move it).
        """
    @typing.overload
    def set_velocity(self, vx: typing.SupportsFloat | typing.SupportsIndex, vy: typing.SupportsFloat | typing.SupportsIndex, vz: typing.SupportsFloat | typing.SupportsIndex, wx: typing.SupportsFloat | typing.SupportsIndex, wy: typing.SupportsFloat | typing.SupportsIndex, wz: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class Sphere(SingleBodyObject):
    """
    A sphere.
    """
    def get_radius(self) -> float:
        """
        Radius (m).
        """
class Box(SingleBodyObject):
    """
    A box centred at its centre of mass.
    """
    def get_dim(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Full lengths along the body x, y, z axes (m), shape (3,).
        """
class Cylinder(SingleBodyObject):
    """
    A cylinder with its axis along body z.
    """
    def get_height(self) -> float:
        """
        Full height (m).
        """
    def get_radius(self) -> float:
        """
        Radius (m).
        """
class Capsule(SingleBodyObject):
    """
    A capsule with its axis along body z.
    """
    def get_height(self) -> float:
        """
        Distance between the hemisphere centres (m).
        """
    def get_radius(self) -> float:
        """
        Radius (m).
        """
class Ground(SingleBodyObject):
    """
    The static half space below z = height.
    """
    def get_height(self) -> float:
        """
        Plane height (m).
        """
class World:
    """
    The simulation world: owns every object and advances them in time (RaiSim's World). Units are SI; gravity defaults to (0, 0, -9.81) m/s^2 and the time step to 1 ms.
    """
    @staticmethod
    def load_mjcf_file(world: World, path, ignore_unsupported: bool = False) -> MjcfModel:
        """
        Load a MuJoCo MJCF file into ``world`` (the seed's loadMjcfFile): every subtree of
            <worldbody> with joints becomes an ArticulatedSystem (a free joint gives a floating base
            placed at the body's pose), worldbody geoms static objects, planes grounds; <option> timestep
            and gravity are applied. Returns an :class:`MjcfModel` (its systems, in file order, and its
            actuators, and ``tendons``: its <tendon> elements as torsion.Tendon, motors on tendons
            driving them; joint and tendon equalities become tendon couplings). An element torsion cannot
            simulate (connect and weld equalities, flex, hfield files, other
            actuator kinds) raises ValueError naming it, unless ``ignore_unsupported=True``, which
            warns (torsion.MJCFWarning) and leaves it out. See docs/robot_files.md.
        """
    @typing.overload
    def __init__(self) -> None:
        ...
    @typing.overload
    def __init__(self, path: typing.Any, params: typing.Any = None, ignore_unsupported: bool = False) -> None:
        """
        Build a world from a torsion world XML file (see docs/architecture.md, 'World XML'). Every @@name token in the file is replaced by str(params[name]) (floats by repr, bools as true/false) before parsing; missing names raise ValueError naming them; a malformed file raises ValueError naming the element. A file whose root element is <mujoco> is read as MJCF (World.load_mjcf_file; ignore_unsupported is used only there). A .usd/.usda/.usdc/.usdz file is read as a USD Physics articulation (World.add_usd_articulated_system; needs the usd extra); params are then ignored.
        """
    def _load_mjcf_file(self, path: typing.Any, ignore_unsupported: bool = False) -> tuple:
        """
        (systems, actuators, springs, tendons) of an MJCF file loaded into this world; see torsion.mjcf (World.load_mjcf_file). Every subtree of <worldbody> with joints becomes an ArticulatedSystem (returned, in file order; a free joint gives a floating base placed at the body's pose), worldbody geoms static objects, planes grounds; <option> timestep and gravity are applied. See docs/robot_files.md for what is read (tendons, joint and tendon equalities as tendon couplings). An element torsion cannot simulate (connect and weld equalities, flex, hfield files) raises ValueError naming it, unless ignore_unsupported=True, which warns (torsion.MJCFWarning) and leaves it out.
        """
    @typing.overload
    def add_articulated_system(self, urdf: typing.Any, modules: collections.abc.Sequence[typing.Any], res_path: typing.Any = '', joint_order: collections.abc.Sequence[str] = [], collision_group: typing.Any = 1, collision_mask: typing.Any = -1, fixed_base: typing.Any = None, do_not_collide_with_parent: bool = True, self_collision: bool = False, convexify_collision_meshes: bool = True, clamp_to_effort_limits: bool = True) -> typing.Any:
        """
        The seed's modules overload: add_articulated_system(urdf, modules, res_path, ...). modules: a list of URDF fragments (file paths or text starting with '<'), each a <robot> whose links and joints (and materials) are added to the robot's; a fragment's joint names a parent link of the robot. Relative mesh paths of a fragment file resolve against its own directory. Other arguments as in the URDF form; ValueError naming the module for a bad fragment.
        """
    @typing.overload
    def add_articulated_system(self, xml_file_template: typing.Any, params: dict, res_path: typing.Any = '', joint_order: collections.abc.Sequence[str] = [], collision_group: typing.Any = 1, collision_mask: typing.Any = -1, fixed_base: typing.Any = None, do_not_collide_with_parent: bool = True, self_collision: bool = False, convexify_collision_meshes: bool = True, clamp_to_effort_limits: bool = True) -> typing.Any:
        """
        The seed's template overload: add_articulated_system(xml_file_template, params, res_path, ...). Every @@name token of the URDF file is replaced by str(params[name]) (floats by repr, bools as true/false; missing names raise ValueError naming them), then the text loads as a URDF with res_path defaulting to the file's directory.
        """
    @typing.overload
    def add_articulated_system(self, urdf: typing.Any, res_path: typing.Any = '', joint_order: collections.abc.Sequence[str] = [], collision_group: typing.Any = 1, collision_mask: typing.Any = -1, fixed_base: typing.Any = None, do_not_collide_with_parent: bool = True, self_collision: bool = False, convexify_collision_meshes: bool = True, clamp_to_effort_limits: bool = True) -> typing.Any:
        """
        Add a robot from a URDF file path or a URDF string (text starting with '<').
        
        res_path: directory for mesh paths (package://pkg/x -> res_path/pkg/x or res_path/x; relative paths -> res_path/path); default: the URDF file's directory. joint_order: the movable joints in the gc/gv order wanted (empty: depth-first in file order). fixed_base: None = automatic: a root link named 'world' is the world (fixed, unless a floating joint holds the base), any other root link of zero or no mass is fixed to the world (as PyBullet does), else the base floats; True/False override it (a base without a world link is fixed at the world origin). What the file departs from the URDF format in a way PyBullet tolerates is read as docs/robot_files.md says and reported once per kind as torsion.URDFWarning (file, line, what was assumed); a PyBullet <plane> collision of a link fixed to the world adds a static ground to the world. Returns an ArticulatedSystem in FORCE_AND_TORQUE mode at the neutral configuration (zero joints, identity quaternions). Malformed URDF: ValueError naming the element and line. Contacts: every link collision shape collides with other objects (group/mask); self_collision=True also lets non-adjacent bodies of the robot collide (a body and its parent only when do_not_collide_with_parent=False); see set_self_collision. clamp_to_effort_limits: the URDF's <limit effort> values clamp the actuator torques (feedforward + PD) from the start (default True; False: RaiSim's unclamped PD; set_clamp_to_effort_limits changes it later). Frames and bodies are found by joint or link name. A robot whose first step starts outside its joint limits gives one torsion.JointLimitWarning. convexify_collision_meshes (the seed's option): collision meshes load as convex hulls; False (keep the triangle mesh) raises ValueError.
        """
    def add_articulated_system_from_tree(self, child: typing.Any, res_path: str = '', collision_group: typing.Any = 1, collision_mask: typing.Any = -1, do_not_collide_with_parent: bool = True, self_collision: bool = False) -> typing.Any:
        """
        Add a robot built in code (RaiSim's Child overload of addArticulatedSystem): child is a torsion.Child, the root of a tree of links, each with the joint to its parent. The root's joint_type 'floating' gives a floating base; any other type attaches the root to the world at its origin_xyz/origin_rpy (a fixed base). gc/gv follow the tree depth first, children in list order. Other arguments as in add_articulated_system. Returns an ArticulatedSystem; ValueError naming the Child and field on bad input.
        """
    def add_box(self, x_length: typing.SupportsFloat | typing.SupportsIndex, y_length: typing.SupportsFloat | typing.SupportsIndex, z_length: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic box of full lengths x, y, z (m) and mass (kg) at the origin.
        """
    def add_capsule(self, radius: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic capsule (axis along body z; height is the distance between the hemisphere centres, m).
        """
    def add_compliant_wire(self, obj1: typing.Any, local_idx1: typing.Any, pos1_b: typing.Any, obj2: typing.Any, local_idx2: typing.Any, pos2_b: typing.Any, length: typing.Any, stiffness: typing.Any) -> typing.Any:
        """
        Add a spring wire: tension = stiffness (N/m, > 0) * max(0, distance - length). obj1, obj2: objects of this World (a single body: local_idx 0; an articulated system: local_idx = the body index); pos1_b, pos2_b: the attachment points in those bodies' frames (m, shape (3,)); length: the wire's length (m, > 0). Returns a CompliantWire.
        """
    def add_compound(self, children: collections.abc.Sequence[CompoundObjectChild], mass: typing.SupportsFloat | typing.SupportsIndex, com: typing.Any = None, inertia: typing.Any = None, collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> Compound:
        """
        Add a single body made of primitive children (CompoundObjectChild). com ((3,), m, body frame) and inertia ((3, 3), kg m^2 about the com) are given together or computed from the children at uniform density (parallel-axis theorem; overlapping volume counts twice). The body starts with its centre of mass at the origin.
        """
    def add_custom_wire(self, obj1: typing.Any, local_idx1: typing.Any, pos1_b: typing.Any, obj2: typing.Any, local_idx2: typing.Any, pos2_b: typing.Any, length: typing.Any) -> typing.Any:
        """
        Add a wire whose tension you set (CustomWire.set_tension, N). obj1, obj2: objects of this World (a single body: local_idx 0; an articulated system: local_idx = the body index); pos1_b, pos2_b: the attachment points in those bodies' frames (m, shape (3,)); length: the wire's length (m, > 0). length is only a reference for get_stretch().
        """
    def add_cylinder(self, radius: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic cylinder (axis along body z; radius and full height in m).
        """
    def add_deformable_cloth(self, vertices: typing.Any, triangles: typing.Any, pinned_vertices: typing.Any = None, material: DeformableMaterial = None, contact_material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a cloth: vertices (n, 3) m in the world frame, triangles (m, 3) vertex indices; pinned_vertices stay where they are. XPBD edge and bending constraints, one collision sphere per vertex. ValueError / IndexError for out-of-range indices, degenerate triangles, unreferenced vertices or an edge of more than two triangles.
        """
    def add_deformable_cloth_from_obj(self, path: typing.Any, scale: typing.SupportsFloat | typing.SupportsIndex = 1.0, pinned_vertices: typing.Any = None, material: DeformableMaterial = None, contact_material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a cloth from an OBJ file (polygons as fans; vertices times scale). The seed's addDeformableCloth(meshFileInObjFormat, scale, ...).
        """
    def add_deformable_object(self, path: typing.Any, material: DeformableMaterial = None, options: DeformableMeshOptions = None, pinned_vertices: typing.Any = None, contact_material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a deformable made from an OBJ mesh as DeformableMeshOptions say (the seed's addDeformableObject): a shell of its surface (optionally with struts), or the closed mesh filled with tetrahedra. ValueError for an open mesh in mode 'filled', a bad file or options.
        """
    def add_deformable_terrain(self, x_samples: typing.SupportsInt | typing.SupportsIndex, y_samples: typing.SupportsInt | typing.SupportsIndex, x_size: typing.SupportsFloat | typing.SupportsIndex, y_size: typing.SupportsFloat | typing.SupportsIndex, center_x: typing.SupportsFloat | typing.SupportsIndex, center_y: typing.SupportsFloat | typing.SupportsIndex, heights: typing.Any, soil: DeformableTerrain.Material = ..., material: str = 'default', collision_group: typing.Any = 9223372036854775808, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a deformable soil surface (the seed's addDeformableTerrain; docs/soil.md): x_samples, y_samples (>= 2) nodes over x_size by y_size (m, > 0) centred at (center_x, center_y) (m), heights: x_samples * y_samples finite heights (m), x fastest (as HeightMap). soil: a DeformableTerrain.Material. material: the contact material name (its friction is not used: the soil's shear law is). collision_group / collision_mask (default: the static group, bit 63; every mask bit): which shapes press it. Returns the DeformableTerrain; ValueError on bad input, RuntimeError mid-step.
        """
    def add_deformable_volume(self, vertices: typing.Any, tetrahedra: typing.Any, pinned_vertices: typing.Any = None, material: DeformableMaterial = None, contact_material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a solid of tetrahedra (m, 4) (each with (b-a) x (c-a) . (d-a) > 0) over vertices (n, 3) m. With material.youngs_modulus > 0 a neo-Hookean elastic solid. ValueError for degenerate or inverted tetrahedra, IndexError for indices out of range.
        """
    def add_fixed_tendon(self, name: str, joints: typing.Any, stiffness: typing.Any = 0.0, damping: typing.Any = 0.0, spring_length: typing.Any = None, limits: typing.Any = None, friction: typing.Any = 0.0, armature: typing.Any = 0.0) -> Tendon:
        """
        Add a fixed tendon: length = sum of coefficient * coordinate over joints, a sequence of (articulated system, joint name, coefficient) on at most two systems (revolute or prismatic joints). stiffness (>= 0) and damping (>= 0): a spring-damper along the tendon, force = -stiffness (length - spring_length) - damping * rate (implicit in the step); spring_length: None = the length now, or a pair (lower, upper): a dead band with no spring force between them and -stiffness (length - the nearer end) outside; limits: (lower, upper) of the length, hard one-sided rows solved with the contacts (+-inf: none); friction (>= 0): a Coulomb force along the tendon; armature (>= 0, kg or kg m^2): inertia along the tendon, the step's mass matrix M + armature J^T J as MuJoCo's, its limit, joint-limit and contact impulses included (for a tendon over one articulated system). name: unique. Returns a Tendon. ValueError for bad input, RuntimeError mid-step.
        """
    def add_granular_box(self, box_lower: typing.Any, box_upper: typing.Any, particle_radius: typing.SupportsFloat | typing.SupportsIndex = 0.01, spacing: typing.SupportsFloat | typing.SupportsIndex = 0.0, velocity: typing.Any = (0.0, 0.0, 0.0), angular_velocity: typing.Any = (0.0, 0.0, 0.0), material_id: typing.SupportsInt | typing.SupportsIndex = 0, fixed: bool = False, material: GranularMaterial = ...) -> GranularSystem:
        """
        A granular system of equal particles on a regular grid inside the axis-aligned box [box_lower, box_upper] (the seed's BoxOptions): centres `spacing` apart (0: one diameter), every particle wholly inside, with the given velocity, angular velocity, material id and fixed flag. Owned and stepped by the world as add_granular_particles().
        """
    def add_granular_particles(self, positions: typing.Any, radii: typing.Any, material: GranularMaterial = ...) -> GranularSystem:
        """
        A granular system the world owns and steps (docs/granular.md): particles at positions (N, 3) (m) with radii (N,) (m), one material. world.integrate() steps it with the world's time step and gravity; its particles collide with each other, with its own ground plane and box container, and with the world's shapes (not the Ground object), pushing them back. Removed with world.remove_object(system).
        """
    def add_ground(self, z_height: typing.SupportsFloat | typing.SupportsIndex = 0.0, material: str = 'default', collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add an infinite static ground: the half space below z = z_height (m). Its collision group is the static group (bit 63).
        """
    @typing.overload
    def add_height_map(self, x_samples: typing.SupportsInt | typing.SupportsIndex, y_samples: typing.SupportsInt | typing.SupportsIndex, x_size: typing.SupportsFloat | typing.SupportsIndex, y_size: typing.SupportsFloat | typing.SupportsIndex, center_x: typing.SupportsFloat | typing.SupportsIndex, center_y: typing.SupportsFloat | typing.SupportsIndex, heights: typing.Any, material: str = 'default', collision_group: typing.Any = 9223372036854775808, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a static heightmap from raw samples: x_samples, y_samples (>= 2) samples over x_size by y_size (m, finite, > 0) centred at (center_x, center_y) (m); heights: array-like of x_samples * y_samples heights (m), x fastest (see HeightMap), copied unchanged: NaN or inf samples make holes. ValueError on a wrong count or bad size. collision_group / collision_mask: 64-bit ints (default: group bit 63, the static group; mask -1, all). Returns the HeightMap handle. RuntimeError mid-step.
        """
    @typing.overload
    def add_height_map(self, raisim_height_map_file_name: typing.Any, center_x: typing.SupportsFloat | typing.SupportsIndex, center_y: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 9223372036854775808, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a static heightmap from a RaiSim heightmap text file (str or path): whitespace-separated 'x_samples y_samples x_size y_size' then x_samples * y_samples heights (m, x fastest; nan/inf allowed: holes). ValueError if the file cannot be read or is malformed. collision_group / collision_mask: 64-bit ints (default: group bit 63, the static group; mask -1, all). Returns the HeightMap handle. RuntimeError mid-step.
        """
    @typing.overload
    def add_height_map(self, png_file_name: typing.Any, center_x: typing.SupportsFloat | typing.SupportsIndex, center_y: typing.SupportsFloat | typing.SupportsIndex, x_size: typing.SupportsFloat | typing.SupportsIndex, y_size: typing.SupportsFloat | typing.SupportsIndex, height_scale: typing.SupportsFloat | typing.SupportsIndex, height_offset: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 9223372036854775808, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a static heightmap from a PNG image (str or path; needs Pillow: pip install torsion[images]). Pixel (column i, row r) of a W x H image is sample (i, H-1-r) (the image's top row is the largest y), height = height_offset + height_scale * value, value the grey level (0..255 for 8-bit, 0..65535 for 16-bit images). x_size, y_size (m, > 0). collision_group / collision_mask: 64-bit ints (default: group bit 63, the static group; mask -1, all). Returns the HeightMap handle. RuntimeError mid-step.
        """
    @typing.overload
    def add_height_map(self, center_x: typing.SupportsFloat | typing.SupportsIndex, center_y: typing.SupportsFloat | typing.SupportsIndex, terrain_properties: TerrainProperties, material: str = 'default', collision_group: typing.Any = 9223372036854775808, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a static heightmap of Perlin-noise terrain (see TerrainProperties; deterministic by its seed) centred at (center_x, center_y) (m). collision_group / collision_mask: 64-bit ints (default: group bit 63, the static group; mask -1, all). Returns the HeightMap handle. RuntimeError mid-step.
        """
    @typing.overload
    def add_height_map(self, height_map_to_be_cloned: HeightMap, collision_group: typing.Any = 9223372036854775808, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a copy of another heightmap of this world (same samples, size, centre and material; the samples are shared, they never change). collision_group / collision_mask: 64-bit ints (default: group bit 63, the static group; mask -1, all). Returns the HeightMap handle. RuntimeError mid-step.
        """
    @typing.overload
    def add_mesh(self, mesh_to_clone: Mesh, material: str = '', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> Mesh:
        """
        A new mesh body sharing another mesh's geometry, mass, inertia and centre of mass; an empty material keeps the source's.
        """
    @typing.overload
    def add_mesh(self, file_name: typing.Any, mass: typing.SupportsFloat | typing.SupportsIndex, scale: typing.Any, material: str = 'default', collision_mode: typing.Any = ..., collision_group: typing.Any = 1, collision_mask: typing.Any = -1, coacd_options: typing.Any = None) -> Mesh:
        """
        The seed's add_mesh without inertia and COM: add_mesh(file_name, mass, scale, material, collision_mode, collision_group, collision_mask, coacd_options), inertia and centre of mass estimated as in the form below. collision_mode may also be a torsion.CoacdOptions (the seed's CoacdOptions overload: CONVEXIFY with those options).
        """
    @typing.overload
    def add_mesh(self, file_name: typing.Any, mass: typing.SupportsFloat | typing.SupportsIndex, inertia: typing.Any = None, com: typing.Any = None, scale: typing.SupportsFloat | typing.SupportsIndex = 1.0, material: str = 'default', collision_mode: typing.Any = ..., collision_group: typing.Any = 1, collision_mask: typing.Any = -1, coacd_options: typing.Any = None) -> Mesh:
        """
        Add a dynamic mesh body from a file (.obj, .stl in C++; other formats need trimesh) scaled by `scale`, with mass (kg). inertia ((3, 3), kg m^2 about the centre of mass, mesh axes) and com ((3,), m, mesh frame after scaling) are given together or estimated: exact polyhedral mass properties of a closed mesh at uniform density, else a uniform box filling the bounding box of an open one; an open flat mesh (a sheet: its bounding box has no volume) has no estimate and raises ValueError, so give inertia and com for it (any valid pair for a STATIC floor). Vertices no face uses are ignored. collision_mode: CONVEX_HULL (default), ORIGINAL_MESH (a triangle surface; set the body STATIC or KINEMATIC: see MeshCollisionMode for what a moving one collides with), or CONVEXIFY (coacd; coacd_options a torsion.CoacdOptions; falls back to one hull with a warning if the decomposition fails; a torsion.CoacdOptions given as collision_mode means CONVEXIFY with those options, as the seed's CoacdOptions overloads). The body starts with its centre of mass at the origin.
        """
    def add_spatial_tendon(self, name: str, path: typing.Any, stiffness: typing.Any = 0.0, damping: typing.Any = 0.0, spring_length: typing.Any = None, limits: typing.Any = None, friction: typing.Any = 0.0, armature: typing.Any = 0.0) -> Tendon:
        """
        Add a spatial tendon: a cable through sites, wrapping around spheres and cylinders, in branches split by pulleys. path: a sequence of ('site', obj, local_idx, pos_b), ('sphere', obj, local_idx, center_b, radius[, side_b]), ('cylinder', obj, local_idx, center_b, axis_b, radius[, side_b]) and ('pulley', divisor); points in the body's frame (m); side_b: a side point (MuJoCo's sidesite) the tendon keeps to, in the obstacle's body frame or (obj, local_idx, side_b) on another body. Each branch starts and ends at a site; an obstacle lies between two sites; the length is the sum of each branch's / its divisor. Its points' bodies: at most two movable objects (articulated systems, dynamic single bodies; their forces act on both) and static single bodies (fixed anchors). stiffness (>= 0) and damping (>= 0): a spring-damper along the tendon, force = -stiffness (length - spring_length) - damping * rate (implicit in the step); spring_length: None = the length now, or a pair (lower, upper): a dead band with no spring force between them and -stiffness (length - the nearer end) outside; limits: (lower, upper) of the length, hard one-sided rows solved with the contacts (+-inf: none); friction (>= 0): a Coulomb force along the tendon; armature (>= 0, kg or kg m^2): inertia along the tendon, the step's mass matrix M + armature J^T J as MuJoCo's, its limit, joint-limit and contact impulses included (for a tendon over one articulated system). Returns a Tendon.
        """
    def add_sphere(self, radius: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic sphere (radius m, mass kg) at the origin. Returns a Sphere handle.
        """
    def add_stiff_wire(self, obj1: typing.Any, local_idx1: typing.Any, pos1_b: typing.Any, obj2: typing.Any, local_idx2: typing.Any, pos2_b: typing.Any, length: typing.Any) -> typing.Any:
        """
        Add an inextensible wire (it pulls, never pushes), solved as a hard row with the contacts. obj1, obj2: objects of this World (a single body: local_idx 0; an articulated system: local_idx = the body index); pos1_b, pos2_b: the attachment points in those bodies' frames (m, shape (3,)); length: the wire's length (m, > 0). Returns a StiffWire. ValueError for bad input, RuntimeError mid-step.
        """
    def add_tendon_coupling(self, name: str, first: Tendon, second: typing.Any = None, polynomial: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex] = [0.0, 1.0], compliance: typing.SupportsFloat | typing.SupportsIndex = 0.0, erp: typing.SupportsFloat | typing.SupportsIndex = 0.2) -> TendonCoupling:
        """
        Couple two tendons' lengths: first's length = polynomial[0] + polynomial[1] * L2 + polynomial[2] * L2**2 + ... with L2 second's length (second None: first's length held at polynomial[0]). compliance (m/N, >= 0): 0 = a hard row of the solver that removes erp (0 < erp <= 1) of the error per step; > 0 = a spring of stiffness 1 / compliance. Returns a TendonCoupling.
        """
    def add_usd_articulated_system(self, usd_path: typing.Any, collision_group: typing.Any = 1, collision_mask: typing.Any = -1, do_not_collide_with_parent: bool = True, self_collision: bool = False) -> typing.Any:
        """
        Add the USD Physics articulation of a .usd/.usda/.usdc/.usdz file (the prim with PhysicsArticulationRootAPI): revolute, prismatic, spherical and fixed joints with their limits, drives as torsion's PD (gains per degree converted to per radian, targets, maxForce as effort limit), PhysicsMassAPI, PhysicsCollisionAPI cubes, spheres, cylinders, capsules and meshes (as convex hulls); lengths by the stage's metersPerUnit. Needs usd-core (pip install "torsion[usd]"). ValueError naming the prim for what cannot be simulated. Returns an ArticulatedSystem.
        """
    def capture_checkpoint(self) -> Checkpoint:
        """
        Capture the world's state (a Checkpoint). RuntimeError between integrate1() and integrate2() (a split step).
        """
    def capture_depth_camera(self, pos: typing.Any, rot: typing.Any, properties: DepthCameraProperties, object_id: typing.SupportsInt | typing.SupportsIndex = -10, local_id: typing.SupportsInt | typing.SupportsIndex = -10, collision_mask: typing.Any = -1, *, num_threads: typing.SupportsInt | typing.SupportsIndex = 0) -> typing.Any:
        """
        Capture a depth camera frame (RaiSim's captureDepthCamera): pos (3,) and rot (3, 3, camera to world; camera +X forward, +Y left, +Z up). Returns a DepthCameraFrame of fresh arrays: depth (H, W) along +X in m (clip_far where nothing is seen), segmentation (H, W) int32 world index (-1 background) with object_id (H, W) int64, the object's stable id (unchanged when other objects are removed), and link (H, W) int32, the body seen within it (a robot's body index, a compound's child, 0 for a single body; -1 background), deformable_id and triangle (H, W) int64, the deformable seen and its surface triangle (-1 elsewhere; segmentation, object_id and link are -1 on its pixels), point_cloud (H, W, 3) world points (NaN background); each present only when requested. Noise is drawn from the world's sensor noise stream (set_sensor_noise_seed).
        """
    def capture_single_body_snapshot(self, obj: Object) -> SingleBodySnapshot:
        """
        A SingleBodySnapshot of a single body of this world (ValueError for an object of another world or an articulated system).
        """
    def capture_state(self, out: typing.Any = None) -> typing.Any:
        """
        Capture the lean state for resets (a WorldState; see its docstring), into `out` when given (its buffers are reused: no allocation once they have the size), which is returned. RuntimeError mid-step.
        """
    def clone_single_body_object(self, obj: Object, name: str = '') -> typing.Any:
        """
        A new object of the same shape (sphere, box, cylinder or capsule) with the source's pose, velocities, mass and inertia, body type, damping, material and collision filter. ValueError for the ground; RuntimeError mid-step.
        """
    def export_mesh_assets_to_obj(self, directory: typing.Any, prefix: str = 'mesh') -> list[str]:
        """
        Write every Mesh object's collision meshes (mesh frame, m) as OBJ files named <prefix>_<object name or world index>_<k>.obj (k = convex part; 0 for a single hull or surface), creating the directory. Returns the paths in world order.
        """
    @typing.overload
    def export_to_xml(self, dir: typing.Any, file_name: typing.Any) -> None:
        """
        The seed's exportToXml(dir, fileName): write the world to dir/file_name (see the one-argument form).
        """
    @typing.overload
    def export_to_xml(self, path: typing.Any) -> None:
        """
        Write the world (settings, materials, every object with its current state, robots by their URDF path or text) as torsion world XML that World(path) reloads to the same world: numbers with 17 significant digits, so the reload is bit-for-bit, names and paths holding '@@' included. Mesh objects: their collision geometry is written as OBJ files (body frame, 17 digits) in '<file stem>_meshes/' beside the file, referenced from it, and reloads bit for bit. Not kept: warm-start impulses and the contact solver's next sweep direction, sleeping state, pending external forces, held efforts and the last applied torques, the step warnings, the sensor noise stream's position (use a checkpoint for those). RuntimeError mid-step.
        """
    def get_articulated_contact_space_solve(self) -> bool:
        """
        Whether islands of one articulated system are solved in contact space (see set_articulated_contact_space_solve).
        """
    def get_broadphase_settings(self) -> BroadphaseSettings:
        """
        A copy of the broad-phase settings.
        """
    def get_collision_counters_enabled(self) -> bool:
        ...
    def get_config_file(self) -> str:
        """
        The absolute path of the world XML this world was built from, or '' if none.
        """
    def get_configuration_number(self) -> int:
        """
        A number that changes every time an object is added or removed.
        """
    def get_constraint(self, name: str) -> typing.Any:
        """
        Same as get_wire(name) (the seed's getConstraint).
        """
    def get_contact_problem(self) -> numpy.ndarray:
        """
        Every contact of the last integrate1(), one record per contact (a new structured array of dtype CONTACT_PROBLEM_DTYPE, a copy): position (3,) world m; normal (3,) unit, from B to A; depth (m, > 0 penetrating); impulse (3,) in the contact frame acting on A (N s, zero until the contact solver runs); object_a_id/object_b_id (stable ids), object_a_index/object_b_index (world indices), local_a/local_b (local body indices) and feature. Empty after remove_object() until the next step.
        """
    def get_contact_settings(self) -> ContactSettings:
        """
        A copy of the narrow-phase settings.
        """
    def get_contact_solver(self) -> ContactSolver:
        """
        This world's contact solver (RaiSim's getContactSolver()): set_order, get_loop_counter, get_error_history, get_config (a live view), update_config.
        """
    def get_contact_solver_diagnostics(self) -> dict:
        """
        The last solve, as a new dict: iterations (sweeps used), error (m/s, of the last sweep: its largest contact velocity change by an update, or when smaller on a full sweep, its largest velocity drift after an update), converged (error < threshold, or error 0), contacts, warm_started (contacts that started from the previous step's impulse), the final count of sticking / sliding / opening contacts; and since the world was made: sliding_fallbacks (sliding solves whose local bracket search failed and that used the full scan of the ellipse) and non_finite (updates reset to zero for NaN/inf); the 1-D rows swept with the contacts: joint_limit_rows (articulated joint limits near or past their stop), joint_friction_rows (Coulomb joint friction), rolling_rows (rolling and spinning friction rows of contacts); islands (independent groups of rows, each swept to its own convergence: iterations is the most sweeps any island used; contact_space_islands of them were islands of one articulated system solved in contact space, see set_articulated_contact_space_solve), updates (row updates of the last solve, the solver's work), accelerated (sweeps started from an Anderson combination, see set_contact_solver_acceleration), acceleration_restarts (histories dropped because the residual grew) and acceleration_declined (islands swept plainly because their contact modes changed between their first two sweeps).
        """
    def get_contact_solver_params(self) -> dict:
        """
        The contact solver's parameters, as a new dict.
        """
    def get_deformable(self, id: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        """
        The handle of the deformable with this id (DeformableObject.id, a ray hit's deformable_id); IndexError if there is none.
        """
    def get_deformable_count(self) -> int:
        ...
    def get_deformable_reset_count(self) -> int:
        """
        Steps in which a deformable's state went non-finite and was reset to its start at rest.
        """
    def get_deformables(self) -> list:
        """
        Handles of every deformable, in the world's order.
        """
    def get_granular_systems(self) -> list:
        """
        The granular systems the world owns, in the order they are stepped.
        """
    def get_gravity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Gravity (m/s^2, world frame), a fresh array of shape (3,).
        """
    def get_last_collision_counters(self) -> dict:
        """
        Counters of the last collision detection, as a dict: collision_bodies, broadphase_pairs (AABB overlaps), narrowphase_pairs (pairs tested exactly after filtering), colliding_pairs, contacts; and the times (s) time_aabb, time_broadphase, time_narrowphase, time_total (0 unless counters are enabled).
        """
    def get_lifetime_identity(self) -> int:
        """
        A number unique to this World among all Worlds created in this process, never reused (unlike id(world)); checkpoints remember it.
        """
    def get_material_pair_properties(self, mat1: str, mat2: str) -> MaterialPairProperties:
        """
        The properties of the pair (a copy); the order does not matter and unknown names are treated as "default".
        """
    def get_object(self, name_or_index: typing.Any) -> typing.Any:
        """
        The object with this name (the first one; None if there is none) or at this world index (IndexError outside [0, get_object_count())).
        """
    def get_object_by_id(self, id: int) -> typing.Any:
        """
        The object with this stable id, or None if it no longer exists.
        """
    def get_object_count(self) -> int:
        ...
    def get_object_list(self) -> list:
        """
        Handles of every object, in world-index order (a new list).
        """
    def get_ray_cast_bodies(self) -> list:
        """
        Every collision body exactly as ray tests see it, with its current world pose: a list of dicts (shape, position, rotation, collision_group, collision_mask, object_index, local_index, object_id). A ray with mask m skips a body when (group & m) == 0 or its mask is 0.
        """
    def get_sensor_noise_seed(self) -> int:
        ...
    def get_sleeping_parameters(self) -> dict:
        """
        dict with linear_vel_threshold (m/s), angular_vel_threshold (rad/s), quiet_steps.
        """
    def get_step_profile(self) -> dict:
        """
        The step profile (as Box2D's b2Profile, MuJoCo's timers), a new dict: enabled; step, the last step's time (s: integrate1() plus integrate2()); last, each stage's time in that step (s, a dict in step order: classify_objects, remember_start_poses, wake_requests, kinematics, articulated_dynamics_terms, collision_detection, wake_on_contact, build_contact_problems, granular, free_velocities, gather_free_velocities, select_contact_space, joint_rows, delassus_blocks, starting_impulses, solve, effort_saturations, write_back_velocities, store_warm_start, integrate_positions, correct_positions, correct_joint_limits, clear_external_forces, update_sleeping, recover_non_finite, advance_time); steps, the profiled steps since enabled or reset_step_profile(); total and step_total, the same times summed over them. Each stage's time runs from the end of the stage before it, so the stages add up to the step (to a nanosecond); a stage run several times in a step (collision detection after a sleeping island woke, the solve's stages when clamped efforts solve again) adds up. All zero until set_step_profile_enabled(True) and a step.
        """
    def get_tendon(self, name: str) -> typing.Any:
        """
        The tendon with that name, or None.
        """
    def get_tendon_couplings(self) -> list:
        """
        Every tendon coupling, in index order.
        """
    def get_tendons(self) -> list:
        """
        Every tendon, in index order.
        """
    def get_time_step(self) -> float:
        """
        The time step (s).
        """
    def get_topology_fingerprint(self) -> int:
        """
        A hash of the objects, shapes, robot structures and ids (not of the state).
        """
    def get_warnings(self) -> dict:
        """
        Numerical trouble counted during steps: non_finite_state (bodies whose state became NaN/inf and were reset to their pose at the start of that step, at rest), the id of the last such object, and the world time it happened.
        """
    def get_wire(self, name: str) -> typing.Any:
        """
        The first wire with that name (set_name), or None.
        """
    def get_wire_count(self) -> int:
        ...
    def get_wires(self) -> list:
        """
        Every wire, in index order (a new list of handles).
        """
    def get_world_time(self) -> float:
        """
        Total integrated time (s), advanced by the time step at every integrate2().
        """
    @typing.overload
    def integrate(self) -> None:
        """
        Advance one time step (integrate1() then integrate2()), GIL released.
        """
    @typing.overload
    def integrate(self, steps: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Advance `steps` time steps in one call with the GIL released (Ctrl-C interrupts between chunks of steps).
        """
    def integrate1(self) -> None:
        """
        First half of a step: kinematics and (later) collision detection and contact problems. RuntimeError if called twice without integrate2().
        """
    def integrate2(self) -> None:
        """
        Second half of a step: forces, velocity and position update, time += dt. RuntimeError without a preceding integrate1().
        """
    def integrate_no_contact_detection(self) -> None:
        """
        integrate1() without collision detection: clears the contacts and finds none. Follow it with integrate2(). RuntimeError mid-step.
        """
    def is_locked(self) -> bool:
        ...
    def is_mid_step(self) -> bool:
        """
        True between integrate1() and integrate2().
        """
    def is_object_alive(self, id: int) -> bool:
        ...
    def is_object_sleeping(self, obj_or_index: typing.Any) -> bool:
        """
        True if the object (handle or world index) is sleeping; always False while sleeping is disabled.
        """
    def is_sleeping_enabled(self) -> bool:
        ...
    def lock(self) -> WorldLockGuard:
        """
        Take the world's lock, waiting for it (GIL released while waiting); `with world.lock():` releases it at the end of the block. The world never takes it itself: it is the way to share a world with another thread, every thread taking it around its use of the world. Not recursive: taking it twice from one thread raises RuntimeError.
        """
    def lock_mutex(self) -> None:
        """
        Same as lock() without the context manager (the seed's lockMutex).
        """
    def ray_test(self, start: typing.Any, direction: typing.Any, length: typing.SupportsFloat | typing.SupportsIndex, object_id: typing.SupportsInt | typing.SupportsIndex = -10, local_id: typing.SupportsInt | typing.SupportsIndex = -10, collision_mask: typing.Any = -1) -> list:
        """
        Cast a ray and return its closest hit as a list of zero or one RayHit (RaiSim's rayTest). The direction is normalised (a zero vector means +z); a non-positive length gives no hit. The body whose world index is object_id and local index local_id is ignored when both are set (>= 0). A body is skipped when (its group & collision_mask) == 0 or its mask is 0.
        """
    def ray_test_batch(self, starts: typing.Any, directions: typing.Any, lengths: typing.Any, collision_mask: typing.Any = -1, *, num_threads: typing.SupportsInt | typing.SupportsIndex = 0) -> RayBatchResult:
        """
        Cast N rays at once: starts (N, 3), directions (N, 3), lengths (N,). Same semantics as ray_test, ray by ray, bit for bit; runs with the GIL released on num_threads threads (0: all cores). Returns a RayBatchResult of fresh arrays.
        """
    def ray_test_lidar(self, rot: typing.Any, pos: typing.Any, yaw_start: typing.SupportsFloat | typing.SupportsIndex, yaw_increment: typing.SupportsFloat | typing.SupportsIndex, yaw_count: typing.SupportsInt | typing.SupportsIndex, pitch_start: typing.SupportsFloat | typing.SupportsIndex, pitch_increment: typing.SupportsFloat | typing.SupportsIndex, pitch_count: typing.SupportsInt | typing.SupportsIndex, range_min: typing.SupportsFloat | typing.SupportsIndex, range_max: typing.SupportsFloat | typing.SupportsIndex, object_id: typing.SupportsInt | typing.SupportsIndex = -10, local_id: typing.SupportsInt | typing.SupportsIndex = -10, collision_mask: typing.Any = -1) -> numpy.typing.NDArray[numpy.float64]:
        """
        Spinning-lidar scan (RaiSim's rayTestLidar). rot (3, 3) sensor to world, pos (3,) world. Ray (i, j) has yaw = yaw_start + i yaw_increment, pitch = pitch_start + j pitch_increment and sensor-frame direction (cos p cos y, cos p sin y, sin p), yaw-major order. Returns the (M, 3) sensor-frame points of the rays whose hit lies in [range_min, range_max] (a fresh array).
        """
    def remove_deformable(self, deformable: DeformableObject) -> None:
        """
        Remove a deformable; its handles raise RemovedObjectError afterwards.
        """
    @typing.overload
    def remove_object(self, obj: Object) -> None:
        """
        Remove an object. The last object takes its world index; its id is never reused; its handles raise RemovedObjectError from now on. RuntimeError mid-step.
        """
    @typing.overload
    def remove_object(self, wire: LengthConstraint) -> None:
        """
        Remove a wire. The last wire takes its index; its id is never reused; its handles raise RemovedObjectError from now on. RuntimeError mid-step.
        """
    @typing.overload
    def remove_object(self, obj: GranularSystem) -> None:
        """
        Remove a granular system from the world; its handles raise RemovedObjectError from now on. RuntimeError mid-step.
        """
    def remove_tendon(self, tendon: Tendon) -> None:
        """
        Remove a tendon and every coupling that references it. The last tendon takes its index; its id is never reused. RuntimeError mid-step.
        """
    def remove_tendon_coupling(self, coupling: TendonCoupling) -> None:
        """
        Remove a tendon coupling.
        """
    def reset_step_profile(self) -> None:
        """
        Start the profile's running sums (total, step_total, steps) again from zero.
        """
    def restore_checkpoint(self, checkpoint: Checkpoint) -> None:
        """
        Restore a checkpoint: the next steps are bitwise those that followed its capture. Rejected with RuntimeError giving the reason, and the world left unchanged: during a split step, for an empty checkpoint, one captured from another World, or after the topology changed (objects added or removed; for one from bytes: a world built differently). One from bytes whose payload is malformed or holds a value no setter accepts (NaN or inf state, a mass <= 0, a zero or non-unit quaternion, ...) raises ValueError naming it, the world left unchanged too. After a restore get_contacts() is empty until the next step.
        """
    def restore_single_body_snapshot(self, snapshot: SingleBodySnapshot, obj_or_id: typing.Any, restore_collision_properties: bool = True) -> None:
        """
        Put a snapshot's state (and, by default, its collision group, mask and material) onto a single body given by handle or stable id. ValueError if the object's type differs from the snapshot's or it is not in this world. Counts as a user modification (wakes it).
        """
    def restore_state(self, state: WorldState) -> None:
        """
        Restore a WorldState captured from this world or any world of the same topology: the motion is restored, the configuration kept. RuntimeError giving the reason (mid-step, empty, another topology), the world unchanged.
        """
    def set_articulated_contact_space_solve(self, enabled: bool) -> None:
        """
        Whether the contact solver solves an island of one articulated system (and static sides) in contact space (default True: W = J A^-1 J^T from the tree factorisation, one velocity update at the end) or with the generalized velocities kept current, like every other island. The two are the same iteration and agree to round-off (about 1e-12), not bitwise; the switch exists to compare them and is not saved in checkpoints.
        """
    def set_broadphase_settings(self, settings: BroadphaseSettings) -> None:
        """
        Set the broad-phase settings (a BroadphaseSettings, copied). RuntimeError mid-step.
        """
    def set_collision_counters_enabled(self, enabled: bool) -> None:
        """
        Enable (True) or disable the timing of the collision stages (counts are always kept).
        """
    def set_contact_settings(self, settings: ContactSettings) -> None:
        """
        Set the narrow-phase settings (a ContactSettings, copied). RuntimeError mid-step.
        """
    def set_contact_solver_acceleration(self, depth: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Anderson acceleration of the sweeps of large islands (8 contacts or more, constant relaxation): from the third sweep on, while the counts of sticking / sliding / opening contacts hold, each sweep starts from the combination of the last `depth` sweeps' results that minimises the least-squares residual; the history is dropped (and an extrapolation that made things worse undone) when the residual grows past twice its smallest. An island whose mode counts changed between its first two sweeps (a pile still moving) is declined: swept plainly for the rest of that solve. Every sweep stays the exact per-contact solve, the last one starts from a plain result, and the fixed point is the plain sweeps'. depth in [0, 16]; 0 (default) turns it off: plain Gauss-Seidel sweeps. Worth turning on for tall stacks.
        """
    def set_contact_solver_compact_kernel(self, on: bool) -> None:
        """
        True (default): a contact between single rigid bodies (or one and an immovable body) is updated by the solver's compact kernel, from the bodies' shared inverse masses and the contact's lever arms; False: every contact goes through the generic per-side Jacobian path. Both solve the same problem; results differ by rounding only. Kept in checkpoints.
        """
    def set_contact_solver_iteration_order(self, order: bool) -> None:
        """
        True: sweep the contacts in the same (forward) order every step. False (default): alternate forward and reverse from one step to the next. Both are deterministic.
        """
    def set_contact_solver_param(self, alpha_init: typing.SupportsFloat | typing.SupportsIndex, alpha_min: typing.SupportsFloat | typing.SupportsIndex, alpha_decay: typing.SupportsFloat | typing.SupportsIndex, max_iter: typing.SupportsInt | typing.SupportsIndex, threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Bisection solver parameters: relaxation alpha_init, alpha_min in (0, 1] and alpha_decay in [0, 1] (alpha_{k+1} = (1 - decay) alpha_min + decay alpha_k; all 1 by default, i.e. plain Gauss-Seidel), max_iter >= 1 sweeps (150), and the threshold (m/s, 1e-8): the solve stops after a full sweep in which no contact's update changed its velocity by more, or no contact's velocity drifted by more after its own update (the final velocities then satisfy every contact's law to the threshold).
        """
    def set_contact_solver_relative_threshold(self, fraction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        The relative stopping tolerance of the contact solver (dimensionless, 0.01 by default; 0: the absolute threshold only). An island (a group of bodies that touch) made only of contacts between single rigid bodies or static geometry stops sweeping once no contact's update changes its velocity by more than the larger of the threshold (set_contact_solver_param, 1e-8 m/s) and `fraction` times the island's contact speed: the fastest approach, separation or slip of any of its contact points at the start of the step. A pile still tumbling at 0.5 m/s is solved to 5 mm/s, a stack or pile at rest to the threshold. Then a finishing pass of at most 5 sweeps solves its speculative contacts and those whose normal velocity is off its target by more than the threshold to the threshold (so no gap is left open and no resting body sinks). Islands with an articulated system, joint limits, joint friction, wires or rolling / spinning friction rows, and every island when the threshold is 0, keep the absolute threshold. fraction >= 0. Kept in checkpoints and the world XML.
        """
    @typing.overload
    def set_default_material(self, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the properties used for every material pair that has not been set (initially friction 0.8, restitution 0, threshold 0). Static friction = friction, threshold velocity 1e-3 m/s.
        """
    @typing.overload
    def set_default_material(self, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set_default_material(self, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex, rolling_friction: typing.SupportsFloat | typing.SupportsIndex, spinning_friction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    def set_erp(self, erp: typing.SupportsFloat | typing.SupportsIndex, erp2: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        """
        Error reduction for penetrating contacts (0 by default: off). A contact with depth d aims at a separating normal velocity of erp * d / dt + erp2 * (its approach speed at the start of the step), in m/s; through the solver both act as a spring and a damper scaled by the contact's apparent mass, and together they push at most set_max_depenetration_velocity (1 m/s by default). erp in [0, 1], erp2 >= 0.
        """
    def set_gravity(self, gravity: typing.Any) -> None:
        """
        Set gravity (m/s^2, world frame), shape (3,).
        """
    @typing.overload
    def set_material_pair_prop(self, mat1: str, mat2: str, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the contact properties of the material pair (mat1, mat2), in either order: friction coefficient (>= 0), restitution (in [0, 1]) and the impact speed (m/s) below which nothing bounces. The static friction coefficient is set to friction and its threshold velocity to 1e-3 m/s. ValueError on bad values.
        """
    @typing.overload
    def set_material_pair_prop(self, mat1: str, mat2: str, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        As above with a static friction coefficient: below the threshold slip speed (m/s) the coefficient is interpolated between static_friction (at rest) and friction, proportionally to the slip speed. The threshold must be > 0 unless static_friction equals friction (ValueError otherwise).
        """
    @typing.overload
    def set_material_pair_prop(self, mat1: str, mat2: str, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex, rolling_friction: typing.SupportsFloat | typing.SupportsIndex, spinning_friction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        As above with rolling and spinning friction coefficients (m, >= 0): a contact of the pair resists the relative rotation of its bodies about its tangent axes (rolling) and its normal (spinning) with a torque of at most coefficient * normal force.
        """
    def set_max_depenetration_velocity(self, velocity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        The most ERP may push a penetrating contact apart, m/s (1 by default; inf: no cap). ERP aims at erp * depth / dt: a body that starts 2 cm inside the ground (a reset at a slightly wrong height) would leave it at 4 m/s with ERP 0.2 and dt 1 ms and fly 0.8 m up; capped, it is pushed out over a few steps. Restitution is not capped. velocity > 0.
        """
    def set_object_collision_filter(self, obj: Object, collision_group: typing.Any, collision_mask: typing.Any, local_idx: typing.Any = -1) -> bool:
        """
        Set the 64-bit collision group and mask of every collision body of obj (local_idx -1) or of one. Two bodies collide iff (a.group & b.mask) and (b.group & a.mask). Returns True; IndexError for a local index obj does not have; RuntimeError mid-step.
        """
    def set_object_material(self, obj: Object, material: str, local_idx: typing.Any = -1) -> bool:
        """
        Set the material name of every collision body of obj (local_idx -1) or of one. Returns True; IndexError for a local index obj does not have.
        """
    def set_position_correction(self, fraction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        The position pass (split impulse; 0.2 by default, 0: off): after the velocity solve, a contact between single bodies (or one and an immovable body) that would end the step deeper than 4e-5 m has `fraction` of its depth beyond 2e-5 m removed a step by moving the bodies along the contacts' normals (translation only, shared by inverse mass), without changing any velocity: a resting body rises to the surface with no kinetic energy added, and a bouncing one is not pushed. Two bodies slipping past each other faster than 1 cm/s are left for later (their angular momentum is kept). At most set_max_depenetration_velocity * dt a step. An articulated system's contacts with immovable bodies are corrected the same way by moving its configuration through its damped mass matrix (no joint carried past a limit). fraction in [0, 1].
        """
    def set_sensor_noise_seed(self, seed: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Restart the sensor noise stream from this seed (all 64 bits count).
        """
    def set_sleeping_enabled(self, enabled: bool) -> None:
        """
        Turn sleeping islands on or off (off by default); turning them off wakes everything.
        """
    def set_sleeping_parameters(self, linear_vel_threshold: typing.SupportsFloat | typing.SupportsIndex, angular_vel_threshold: typing.SupportsFloat | typing.SupportsIndex, quiet_steps: int) -> None:
        """
        An island sleeps when every member stayed below both speed thresholds (m/s, rad/s; negative values clamp to 0) for quiet_steps consecutive steps (< 1 clamps to 1).
        """
    def set_sleeping_velocity_thresholds(self, linear_vel_threshold: typing.SupportsFloat | typing.SupportsIndex, angular_vel_threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Only the speed thresholds (m/s, rad/s; negative values clamp to 0).
        """
    def set_step_profile_enabled(self, enabled: bool) -> None:
        """
        Time every stage of every step from now on (off by default: a profiled step reads a steady clock about 25 times). Enabling or disabling clears the profile. RuntimeError mid-step.
        """
    def set_time_step(self, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the time step (s); ValueError unless finite and > 0.
        """
    def set_world_time(self, time: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the world time (s).
        """
    def state_hash(self) -> int:
        """
        A 64-bit hash (FNV-1a) of everything a checkpoint holds: equal hashes mean bitwise equal state. RuntimeError mid-step.
        """
    def try_lock(self) -> bool:
        """
        Take the lock if it is free; True if taken.
        """
    def unlock(self) -> None:
        """
        Release the lock; RuntimeError unless this thread holds it.
        """
    def unlock_mutex(self) -> None:
        """
        Same as unlock().
        """
    def update_material_prop(self, materials: MaterialManager) -> None:
        """
        Replace every material pair property and the default material of this world by those of `materials` (a MaterialManager; copied, later changes to it do not reach the world).
        """
    def wake_all(self) -> None:
        """
        Wake every object.
        """
    def wake_object(self, obj: Object) -> None:
        """
        Wake an object and its sleeping island.
        """
class ControlMode:
    """
    Actuation of an ArticulatedSystem (RaiSim's ControlMode).
    
    Members:
    
      FORCE_AND_TORQUE
    
      PD_PLUS_FEEDFORWARD_TORQUE
    """
    FORCE_AND_TORQUE: typing.ClassVar[ControlMode]
    PD_PLUS_FEEDFORWARD_TORQUE: typing.ClassVar[ControlMode]
    __members__: typing.ClassVar[dict[str, ControlMode]]
    @typing.overload
    def __eq__(self, other: ControlMode) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: ControlMode) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class ArticulatedSystem(Object):
    """
    A robot: a tree of rigid bodies joined by joints, loaded from URDF.
    
    gc = [x y z qw qx qy qz, joints...] (floating base) or [joints...] (fixed base); gv = [v (m/s, world), omega (rad/s, world), joint rates...]; v is the velocity of the root link's origin. Revolute/prismatic joints: 1 coordinate (rad or m); spherical joints: a quaternion (w, x, y, z) in gc and the child-frame relative angular velocity in gv. Frames: one per URDF joint (fixed ones too), at its child link's origin, named after the joint; a floating or fixed root also has the frame 'ROOT'. Every frame and body call also takes the link's name (get_link_names()); a link joined by a fixed joint is merged into its parent's body but keeps its own frame. Commands and readings sized to the actuated joints (every movable joint but a floating base): set_joint_pd_targets, set_joint_pd_gains, set_joint_forces, get_joint_positions and the like. URDF mimic joints (q = multiplier * q_master + offset) own no dof: gc and gv hold the independent coordinates only, the master's dof moves both joints (its Jacobian columns, mass matrix entries, PD gains, targets and effort limit cover both). Getters return fresh arrays.
    """
    def benchmark_frame_jacobian(self, frame: typing.Any, iterations: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        Benchmark helper: mean time (us) of forward kinematics + one frame Jacobian in a C++ loop.
        """
    def benchmark_mass_matrix(self, iterations: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        Benchmark helper: mean time (us) of forward kinematics + CRBA in a C++ loop.
        """
    def compute_forward_dynamics(self, tau: typing.Any, gravity: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Generalized acceleration dv/dt = M^-1 (tau - h) at the current state (no joint limits, damping or contacts), shape (dof,).
        """
    def compute_inverse_dynamics(self, acceleration: typing.Any, gravity: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Generalized force tau = M dv/dt + h (RNEA) for the acceleration dv/dt (gv layout), shape (dof,).
        """
    def get_actuated_gc_indices(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        gc index of every actuated coordinate, shape (gc_dim - 7,) with a floating base, (gc_dim,) without: gc[get_actuated_gc_indices()] == get_joint_positions().
        """
    def get_actuated_gv_indices(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        gv index of every actuated dof, shape (dof - 6,) with a floating base, (dof,) without.
        """
    def get_actuated_joint_names(self) -> list[str]:
        """
        The actuated joints: every movable joint except a floating base, in gc/gv order (get_movable_joint_names() without 'ROOT'). The set_joint_* and get_joint_* calls use their layout.
        """
    def get_base_orientation(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Orientation of the base, a unit quaternion (w, x, y, z), shape (4,) (torsion.rotations.quat_to_matrix gives the matrix).
        """
    def get_base_position(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        World position of the base (the root link's origin), m, shape (3,).
        """
    def get_body_coms_b(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Centre of mass of every body in its body frame (m), shape (n_bodies, 3).
        """
    def get_body_coms_w(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Centre of mass of every body in the world (m), shape (n_bodies, 3).
        """
    def get_body_index(self, name: str) -> int:
        ...
    def get_body_inertias_b(self) -> list:
        """
        Inertia of every body about its COM, body frame (kg m^2): a list of (3, 3) arrays.
        """
    def get_body_names(self) -> list[str]:
        """
        Body names (a body is a link with the links fixed to it merged in), in body order.
        """
    def get_clamp_to_effort_limits(self) -> bool:
        """
        Whether actuator torques are clamped to the effort limits (set_clamp_to_effort_limits).
        """
    def get_collision_bodies(self) -> list:
        """
        Primitive collision shapes: dicts with name, body, shape, radius, height (cylinder: full height; capsule: distance between hemisphere centres), size (box lengths), and position/rotation in the body frame.
        """
    def get_collision_group(self) -> int:
        ...
    def get_collision_mask(self) -> int:
        ...
    def get_composite_com(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Centre of mass of the whole system, world (m), shape (3,).
        """
    def get_control_mode(self) -> ControlMode:
        ...
    def get_dense_frame_jacobian(self, frame: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Positional Jacobian of the frame origin, world frame: v = J gv, shape (3, dof).
        """
    def get_dense_frame_rotational_jacobian(self, frame: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Rotational Jacobian of the frame, world frame: omega = J gv, shape (3, dof).
        """
    def get_dense_jacobian_at(self, body: typing.Any, point: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Positional Jacobian (3, dof) of the point of `body` (name or index) at the world position `point` (m): the Jacobian a contact on that body uses.
        """
    def get_do_not_collide_with_parent(self) -> bool:
        ...
    def get_dof(self) -> int:
        """
        Degrees of freedom (gv size; mimic joints own none).
        """
    def get_effort_limits(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def get_feedforward_generalized_force(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def get_frame_angular_velocity(self, frame: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Angular velocity of the frame, world (rad/s), shape (3,).
        """
    def get_frame_index_by_name(self, name: str) -> int:
        """
        Index of a frame; ValueError for an unknown name.
        """
    def get_frame_names(self) -> list[str]:
        """
        Frame names, in frame-index order.
        """
    def get_frame_orientation(self, frame: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Frame rotation matrix (frame to world), shape (3, 3).
        """
    def get_frame_placement(self, frame: str) -> tuple[int, numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
        """
        (body index, position (3,), rotation (3, 3)): where the frame sits in its body's frame.
        """
    def get_frame_position(self, frame: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Frame origin, world (m), shape (3,). frame: name or index.
        """
    def get_frame_velocity(self, frame: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        Linear velocity of the frame origin, world (m/s), shape (3,).
        """
    def get_generalized_coordinate(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        gc, shape (gc_dim,), a fresh array (the independent coordinates: a mimic joint's is multiplier * gc[master] + offset).
        """
    def get_generalized_coordinate_dim(self) -> int:
        """
        Size of gc.
        """
    def get_generalized_force(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Actuator generalized force applied in the last step: feedforward plus the implicit PD's torque at the step's end velocity (clamped if set_clamp_to_effort_limits(True)), shape (dof,).
        """
    def get_generalized_velocity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        gv, shape (dof,), a fresh array.
        """
    def get_gravity_compensation(self, body: typing.Any = None) -> typing.Any:
        """
        Whether a body (name or index) is gravity compensated; body None: a list of bools, one per body.
        """
    def get_inverse_mass_matrix(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        M(gc)^-1 from the tree-sparse L^T D L factorisation, shape (dof, dof).
        """
    def get_joint_damping(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Viscous joint damping per dof from URDF <dynamics damping> (N m s/rad), applied implicitly.
        """
    def get_joint_forces(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The actuated joints' part of get_generalized_force(): the torque (N m) or force (N) the actuators applied in the last step.
        """
    def get_joint_friction(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Coulomb joint friction per dof from URDF <dynamics friction> (N m), with stiction.
        """
    def get_joint_gc_index(self, name: str) -> int:
        """
        Index of a movable joint's first coordinate in gc (revolute/prismatic: 1 entry, spherical: 4, floating: 7). ValueError listing the movable joints otherwise.
        """
    def get_joint_gv_index(self, name: str) -> int:
        """
        Index of a movable joint's first dof in gv (revolute/prismatic: 1 entry, spherical: 3, floating: 6). ValueError listing the movable joints otherwise.
        """
    def get_joint_limits(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Position limits per dof (lower, upper), shape (dof, 2); +-inf where none. They act as hard inelastic stops during integration.
        """
    def get_joint_positions(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The actuated joints' coordinates (gc without a floating base's 7), a fresh array.
        """
    def get_joint_velocities(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The actuated joints' rates (gv without a floating base's 6), a fresh array.
        """
    def get_joints(self) -> list:
        """
        The kinematic tree, one dict per body in topological order: body (link name), parent (body index, -1 for the world), joint (name), type ('fixed', 'revolute', 'prismatic', 'spherical', 'floating'), position (3,) and rotation (3, 3) of the joint frame in the parent body frame (m), axis (3,) in the joint frame, and the joint's gc_index/gc_size and gv_index/gv_size (both sizes 0 for a mimic joint, which also has mimic_joint, mimic_multiplier and mimic_offset). Links joined by fixed joints are merged into one body. Copies.
        """
    def get_kinetic_energy(self) -> float:
        """
        Kinetic energy (J).
        """
    def get_link_names(self) -> list[str]:
        """
        The link of every frame (the joint's child link, whose origin the frame is at), in frame-index order beside get_frame_names(): every frame call takes a link name as well as a joint name, and a link joined by a fixed joint keeps its own frame.
        """
    def get_mass_matrix(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Mass matrix M(gc) (CRBA), shape (dof, dof), in gv's coordinates (world-frame base).
        """
    def get_masses(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Mass of every body (kg), shape (n_bodies,).
        """
    def get_movable_joint_names(self) -> list[str]:
        """
        Names of the joints that own dofs, in gv order ('ROOT' or the URDF floating joint first for a floating base).
        """
    def get_nonlinearities(self, gravity: typing.Any) -> numpy.typing.NDArray[numpy.float64]:
        """
        h(gc, gv) = Coriolis, centrifugal and gravity generalized forces (RNEA) for the gravity vector (m/s^2, world), shape (dof,): M dv/dt + h = tau.
        """
    def get_parent_body_indices(self) -> list[int]:
        """
        Parent body of every body (-1: the world).
        """
    def get_pd_gains(self) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
        """
        (kp, kd), shape (dof,) each.
        """
    def get_pd_target(self) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
        ...
    def get_potential_energy(self, gravity: typing.Any) -> float:
        """
        Gravitational potential energy -sum m g.c (J).
        """
    def get_self_collision(self) -> bool:
        """
        Whether bodies of this system collide with each other (see set_self_collision).
        """
    def get_total_mass(self) -> float:
        """
        kg.
        """
    def get_visual_bodies(self) -> list:
        """
        Visual shapes for viewers (never simulated): dicts with name, body, kind, size (box lengths, or (radius, length, 0)), mesh (path resolved against res_path), mesh_scale, rgba, material, and position/rotation in the body frame.
        """
    def get_visual_shapes(self) -> list:
        """
        The robot's visual shapes (the URDF's <visual> elements, never simulated), for cameras and viewers: dicts with name, body (index) and body_name, kind ('box', 'sphere', 'cylinder', 'capsule' or 'mesh'), size (box lengths, m) or radius and length, file (a mesh's path resolved against res_path, '' otherwise), scale (the mesh scale), rgba (the colour, from the visual's material or a named top-level material; 0.7 grey without one), material (its name) and origin (a dict of position and rotation of the shape in its body's frame).
        """
    def set_base_orientation(self, orientation: typing.Any) -> None:
        """
        Turn the base: a quaternion (w, x, y, z) (normalised) or a (3, 3) rotation matrix, base to world (RaiSim's setBaseOrientation). A floating base: gc[3:7]; a fixed base is mounted so. See set_base_position.
        """
    def set_base_position(self, position: typing.Any) -> None:
        """
        Place the base (the root link's origin) at a world position (m), shape (3,) (RaiSim's setBasePos, PyBullet's resetBasePositionAndOrientation). A floating base: gc[0:3], velocities kept. A fixed base is mounted there (the whole robot moves with it; kept in checkpoints). RuntimeError between integrate1() and integrate2().
        """
    def set_clamp_to_effort_limits(self, clamp: bool) -> None:
        """
        Clamp the actuator torque (feedforward + PD) to the effort limits. On by default for a robot whose URDF gives effort limits (add_articulated_system(clamp_to_effort_limits=False) or this call turns it off; RaiSim's PD ignores them). When on, each step applies clamp(demand) of its own end velocity, saturated dofs their limit exactly. The demand is checked within the step at the solved velocity, contacts included (a standing robot's knees): a joint whose demand exceeds its limit is held on that side, and a held joint whose demand is back within the limit or has reversed is released; the step is then solved again (at most 6 solves a step).
        """
    def set_control_mode(self, mode: ControlMode) -> None:
        ...
    def set_effort_limits(self, effort_limits: typing.Any) -> None:
        """
        Actuator effort limit per dof (> 0, inf for none), shape (dof,). Default: URDF <limit effort>, applied (clamped) by default: see set_clamp_to_effort_limits.
        """
    def set_external_force(self, body: typing.Any, force: typing.Any, point: typing.Any = None, force_frame: str = 'world', point_frame: str = 'world') -> None:
        """
        Apply a force (N) to a body (name or index) at a point (m) during the next step only (RaiSim's setExternalForce). Calls add up. force_frame and point_frame are 'world' or 'body' (the body's frame: the origin and axes of the joint that moves it): a force given in the body frame turns with the body, a point given in the body frame is fixed on it. Default point: the body's COM.
        """
    def set_external_torque(self, body: typing.Any, torque: typing.Any, frame: str = 'world') -> None:
        """
        Apply a torque (N m) to a body during the next step only; frame 'world' or 'body' (the torque's axes turn with the body).
        """
    def set_generalized_coordinate(self, gc: typing.Any) -> None:
        """
        Set gc (shape (gc_dim,), finite; quaternions are normalised).
        """
    def set_generalized_force(self, tau: typing.Any) -> None:
        """
        Feedforward generalized force, shape (dof,) (N m or N; the base's six entries are a world force and torque). Persistent: applied every step until changed.
        """
    def set_generalized_velocity(self, gv: typing.Any) -> None:
        """
        Set gv (shape (dof,), finite).
        """
    def set_gravity_compensation(self, enabled: bool, body: typing.Any = None) -> None:
        """
        Gravity compensation (MuJoCo's gravcomp): every step, each compensated body gets the force -m g at its centre of mass, so gravity no longer pulls on it (a PD arm holds its pose without sagging). body: None (every body) or one body by name or index (a body holds the links fixed to it: naming one of them, or its fixed joint, names the whole body). A passive force, not an actuator's: effort limits do not clamp it, get_generalized_force() does not include it. With every body of a floating-base robot compensated the robot floats. Off by default; kept in checkpoints.
        """
    def set_joint_forces(self, tau: typing.Any) -> None:
        """
        Feedforward torques (N m) or forces (N) of the actuated joints: shape (m,) in their gv layout (m = dof - 6 with a floating base) or a dict {joint name: value}. The same as set_generalized_force with the full layout (the base's entries kept). Persistent.
        """
    def set_joint_pd_gains(self, kp: typing.Any, kd: typing.Any) -> None:
        """
        PD gains of the actuated joints, >= 0: each a number (every joint), an array of shape (m,) in their gv layout (m = dof - 6 with a floating base) or a dict {joint name: gain}. The same as set_pd_gains with the full layout (a floating base's gains are zero). Switches to PD_PLUS_FEEDFORWARD_TORQUE.
        """
    def set_joint_pd_targets(self, positions: typing.Any, velocities: typing.Any = None) -> None:
        """
        PD targets of the actuated joints: positions, shape (n,) in their gc layout (get_joint_positions(); n = gc_dim - 7 with a floating base), and velocities, shape (m,) in their gv layout (m = dof - 6 with a floating base; None: zero). Either may be a dict {joint name: value} that changes only the joints it names. The same as set_pd_target with the full layout (the base's entries kept).
        """
    def set_pd_gains(self, kp: typing.Any, kd: typing.Any) -> None:
        """
        PD gains per dof, shape (dof,) each, >= 0 (N m/rad and N m s/rad, or N/m and N s/m). A floating base's six gains are set to zero. Switches to PD_PLUS_FEEDFORWARD_TORQUE. The PD is implicit (kp dt^2 + kd dt join the mass matrix), stable at high gains.
        """
    def set_pd_target(self, q_ref: typing.Any, v_ref: typing.Any) -> None:
        """
        PD targets: position q_ref in gc layout, shape (gc_dim,), and velocity v_ref in gv layout, shape (dof,). A spherical joint's quaternion in q_ref must have a non-zero norm (it is normalised); the floating base's target is unused (its gains are zero) and may be all zeros.
        """
    def set_self_collision(self, enabled: bool) -> None:
        """
        Turn contacts between bodies of this system on or off (default: off, or as given to add_articulated_system). When on, two bodies collide if their collision groups and masks allow it, except a body and its parent when the system was added with do_not_collide_with_parent=True.
        """
    def set_state(self, gc: typing.Any, gv: typing.Any) -> None:
        """
        Set gc and gv together.
        """
class RayHit:
    """
    One ray hit (RaiSim's RayCollisionItem). Values are copies.
    """
    def __repr__(self) -> str:
        ...
    @property
    def deformable_id(self) -> int:
        """
        Id of the hit deformable (DeformableObject.id; World.get_deformable(id)), -1 when a world object was hit.
        """
    @property
    def distance(self) -> float:
        """
        Distance from the ray start (m).
        """
    @property
    def local_index(self) -> int:
        """
        Local body index within the hit object (0 for a single body; -1 when a deformable was hit).
        """
    @property
    def normal(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Outward surface normal of the hit body at the hit point, world frame.
        """
    @property
    def object(self) -> typing.Any:
        """
        Handle of the hit object (None if it has been removed since, or a deformable was hit).
        """
    @property
    def object_id(self) -> int:
        """
        Stable id of the hit object (-1 when a deformable was hit).
        """
    @property
    def object_index(self) -> int:
        """
        World index of the hit object at the time of the test (-1 when a deformable was hit).
        """
    @property
    def position(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Hit point, world frame (m), shape (3,).
        """
    @property
    def triangle(self) -> int:
        """
        Index of the hit triangle in the deformable's get_surface_triangles() (a cloth's triangles, a solid's boundary faces), -1 when a world object was hit.
        """
class RayBatchResult:
    """
    Hits of ray_test_batch: one row per ray. Misses have hit False, distance inf, NaN position and normal, and object/local index -1. A row that hit a deformable has object/local index -1 and its deformable_id and triangle (index in get_surface_triangles()); other rows have those -1.
    """
    @property
    def deformable_id(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        (N,) int64 deformable id
        """
    @property
    def distance(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        (N,) m
        """
    @property
    def hit(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        (N,) bool
        """
    @property
    def local_index(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        (N,) int64 local body index
        """
    @property
    def normal(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        (N, 3) world
        """
    @property
    def object_index(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        (N,) int64 world index
        """
    @property
    def position(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        (N, 3) world (m)
        """
    @property
    def triangle(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        (N,) int64 the deformable's surface triangle
        """
class DepthCameraProperties:
    """
    Settings of the CPU ray-cast depth camera. Camera frame: +X forward, +Y left, +Z up; pinhole with horizontal field of view hfov (deg); depth is measured along +X.
    """
    depth: bool
    point_cloud: bool
    segmentation: bool
    def __init__(self, width: typing.SupportsInt | typing.SupportsIndex = 160, height: typing.SupportsInt | typing.SupportsIndex = 120, clip_near: typing.SupportsFloat | typing.SupportsIndex = 0.05, clip_far: typing.SupportsFloat | typing.SupportsIndex = 10.0, hfov: typing.SupportsFloat | typing.SupportsIndex = 90.0, depth: bool = True, segmentation: bool = True, point_cloud: bool = False, noise_std: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        ...
    @property
    def clip_far(self) -> float:
        """
        m along +X
        """
    @clip_far.setter
    def clip_far(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def clip_near(self) -> float:
        """
        m along +X
        """
    @clip_near.setter
    def clip_near(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def height(self) -> int:
        """
        pixels
        """
    @height.setter
    def height(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def hfov(self) -> float:
        """
        horizontal field of view (deg)
        """
    @hfov.setter
    def hfov(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def noise_std(self) -> float:
        """
        Gaussian depth noise (m)
        """
    @noise_std.setter
    def noise_std(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def width(self) -> int:
        """
        pixels
        """
    @width.setter
    def width(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class ShapeType:
    """
    Kind of a collision shape.
    
    Members:
    
      SPHERE
    
      BOX
    
      CYLINDER
    
      CAPSULE
    
      GROUND
    
      HEIGHTMAP
    
      CONVEX_MESH
    
      TRIANGLE_MESH
    """
    BOX: typing.ClassVar[ShapeType]
    CAPSULE: typing.ClassVar[ShapeType]
    CONVEX_MESH: typing.ClassVar[ShapeType]
    CYLINDER: typing.ClassVar[ShapeType]
    GROUND: typing.ClassVar[ShapeType]
    HEIGHTMAP: typing.ClassVar[ShapeType]
    SPHERE: typing.ClassVar[ShapeType]
    TRIANGLE_MESH: typing.ClassVar[ShapeType]
    __members__: typing.ClassVar[dict[str, ShapeType]]
    @typing.overload
    def __eq__(self, other: ShapeType) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: ShapeType) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class Shape:
    """
    A collision shape in its body frame, centred at the body origin (m). Make one with Shape.sphere/box/cylinder/capsule/ground; sizes must be finite and > 0.
    """
    @staticmethod
    def box(x_length: typing.SupportsFloat | typing.SupportsIndex, y_length: typing.SupportsFloat | typing.SupportsIndex, z_length: typing.SupportsFloat | typing.SupportsIndex) -> Shape:
        """
        A box of these full lengths along body x, y, z (m).
        """
    @staticmethod
    def capsule(radius: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex) -> Shape:
        """
        A capsule along body z: radius and the distance between the hemisphere centres (m).
        """
    @staticmethod
    def convex_mesh(points: typing.Any) -> Shape:
        """
        The convex hull of points (n, 3) in the body frame (m), as given (not moved to its centre of mass).
        """
    @staticmethod
    def cylinder(radius: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex) -> Shape:
        """
        A cylinder along body z: radius and full height (m).
        """
    @staticmethod
    def ground(z_height: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> Shape:
        """
        The half space below the plane z = 0 of its pose (use the pose to place it; in a World the ground is the half space below z = z_height).
        """
    @staticmethod
    def sphere(radius: typing.SupportsFloat | typing.SupportsIndex) -> Shape:
        """
        A sphere of this radius (m).
        """
    def __repr__(self) -> str:
        ...
    @property
    def half_extents(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Box half lengths (m), shape (3,).
        """
    @property
    def height(self) -> float:
        """
        m
        """
    @property
    def radius(self) -> float:
        """
        m
        """
    @property
    def type(self) -> ShapeType:
        ...
    @property
    def vertices(self) -> typing.Any:
        """
        Convex mesh: its hull vertices (n, 3), body frame (m); None for other shapes.
        """
class ContactSettings:
    """
    Narrow-phase settings (World.set_contact_settings). Fields:
      margin (m, >= 0, default 1e-4): contacts are reported while depth >= -margin (to
        within 1e-9 m, for round-off). Such speculative contacts let the pair approach by
        gap / dt only; the default keeps a resting pair that the solver left a hair apart in
        contact (at 0 it falls g dt^2 into its support the next step). Larger margins (a few
        mm) stop fast bodies at the surface instead of letting them sink in by up to v dt.
      max_points_per_pair (1..8, default 4): manifold size limit per pair of bodies at rest
        (neither moves more than 0.5 mm in the step).
      moving_points_per_pair (1..8, default 6): the limit of a pair of which a body moves more
        (the larger of the two limits applies). A moving pair keeps its points by the depth
        each will have after the step at the bodies' velocities, so the corner of a tumbling
        box that is about to land is kept rather than the points its face already touches.
      flat_tolerance (rad, [0, 0.5], default 0.02): a flat side within this angle of the contact
        plane rests flat and gets a multi-point manifold.
      gjk_max_iterations (default 64), epa_max_iterations (<= 100, default 64), epa_tolerance
        (m, > 0, default 1e-9): limits of the convex routine used for box-cylinder,
        box-capsule, cylinder-cylinder and cylinder-capsule.
    """
    def __init__(self, margin: typing.SupportsFloat | typing.SupportsIndex = 0.0001, max_points_per_pair: typing.SupportsInt | typing.SupportsIndex = 4, flat_tolerance: typing.SupportsFloat | typing.SupportsIndex = 0.02, gjk_max_iterations: typing.SupportsInt | typing.SupportsIndex = 64, epa_max_iterations: typing.SupportsInt | typing.SupportsIndex = 64, epa_tolerance: typing.SupportsFloat | typing.SupportsIndex = 1e-09, moving_points_per_pair: typing.SupportsInt | typing.SupportsIndex = 6) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def epa_max_iterations(self) -> int:
        ...
    @epa_max_iterations.setter
    def epa_max_iterations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def epa_tolerance(self) -> float:
        ...
    @epa_tolerance.setter
    def epa_tolerance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def flat_tolerance(self) -> float:
        ...
    @flat_tolerance.setter
    def flat_tolerance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def gjk_max_iterations(self) -> int:
        ...
    @gjk_max_iterations.setter
    def gjk_max_iterations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def margin(self) -> float:
        ...
    @margin.setter
    def margin(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def max_points_per_pair(self) -> int:
        ...
    @max_points_per_pair.setter
    def max_points_per_pair(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def moving_points_per_pair(self) -> int:
        ...
    @moving_points_per_pair.setter
    def moving_points_per_pair(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class BroadphaseSettings:
    """
    Broad-phase (sweep and prune) settings (World.set_broadphase_settings). Fields:
      aabb_margin (m, >= 0, default 0): every AABB is grown by this much.
      sweep_axis (-1, 0, 1, 2; default -1): -1 picks, every step, the axis along which the
        bodies spread most; 0/1/2 fix x/y/z.
    """
    def __init__(self, aabb_margin: typing.SupportsFloat | typing.SupportsIndex = 0.0, sweep_axis: typing.SupportsInt | typing.SupportsIndex = -1) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def aabb_margin(self) -> float:
        ...
    @aabb_margin.setter
    def aabb_margin(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def sweep_axis(self) -> int:
        ...
    @sweep_axis.setter
    def sweep_axis(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class MaterialPairProperties:
    """
    Contact properties of a pair of materials (a copy; changing it changes nothing in a World). friction: dynamic Coulomb coefficient; restitution: Newton's coefficient in [0, 1]; restitution_threshold: impacts slower than this (m/s) do not bounce; static_friction: coefficient at zero slip, falling linearly to friction at static_friction_threshold_velocity (m/s) of slip; rolling_friction, spinning_friction (m): the largest rolling / spinning resistance torque per newton of normal force.
    """
    def __repr__(self) -> str:
        ...
    @property
    def friction(self) -> float:
        ...
    @property
    def restitution(self) -> float:
        ...
    @property
    def restitution_threshold(self) -> float:
        ...
    @property
    def rolling_friction(self) -> float:
        ...
    @property
    def spinning_friction(self) -> float:
        ...
    @property
    def static_friction(self) -> float:
        ...
    @property
    def static_friction_threshold_velocity(self) -> float:
        ...
class MaterialManager:
    """
    A set of material pair properties and a default, on its own (RaiSim's MaterialManager): fill it with the same setters as a World's, then hand it to World.update_material_prop. Initially empty with the default {friction 0.8, restitution 0, threshold 0}.
    """
    def __init__(self) -> None:
        ...
    def get_material_pair_properties(self, mat1: str, mat2: str) -> MaterialPairProperties:
        """
        The properties of the pair (a copy); the order does not matter and unknown names are treated as "default".
        """
    @typing.overload
    def set_default_material(self, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the properties used for every material pair that has not been set (initially friction 0.8, restitution 0, threshold 0). Static friction = friction, threshold velocity 1e-3 m/s.
        """
    @typing.overload
    def set_default_material(self, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set_default_material(self, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex, rolling_friction: typing.SupportsFloat | typing.SupportsIndex, spinning_friction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set_material_pair_prop(self, mat1: str, mat2: str, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the contact properties of the material pair (mat1, mat2), in either order: friction coefficient (>= 0), restitution (in [0, 1]) and the impact speed (m/s) below which nothing bounces. The static friction coefficient is set to friction and its threshold velocity to 1e-3 m/s. ValueError on bad values.
        """
    @typing.overload
    def set_material_pair_prop(self, mat1: str, mat2: str, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        As above with a static friction coefficient: below the threshold slip speed (m/s) the coefficient is interpolated between static_friction (at rest) and friction, proportionally to the slip speed. The threshold must be > 0 unless static_friction equals friction (ValueError otherwise).
        """
    @typing.overload
    def set_material_pair_prop(self, mat1: str, mat2: str, friction: typing.SupportsFloat | typing.SupportsIndex, restitution: typing.SupportsFloat | typing.SupportsIndex, res_threshold: typing.SupportsFloat | typing.SupportsIndex, static_friction: typing.SupportsFloat | typing.SupportsIndex, static_friction_threshold_velocity: typing.SupportsFloat | typing.SupportsIndex, rolling_friction: typing.SupportsFloat | typing.SupportsIndex, spinning_friction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        As above with rolling and spinning friction coefficients (m, >= 0): a contact of the pair resists the relative rotation of its bodies about its tangent axes (rolling) and its normal (spinning) with a torque of at most coefficient * normal force.
        """
class ContactSolverConfig:
    """
    The contact solver's configuration (RaiSim's BisectionContactSolver::SolverConfiguration). From ContactSolver.get_config() it is a live view: reading an attribute reads the world's current value and assigning one changes the world's solver at once (checked; ValueError naming the attribute). ContactSolverConfig() makes a detached configuration holding torsion's defaults, to fill and hand to ContactSolver.update_config().
    """
    __hash__: typing.ClassVar[None] = None
    def __copy__(self) -> ContactSolverConfig:
        ...
    def __deepcopy__(self, memo: dict) -> ContactSolverConfig:
        ...
    def __eq__(self, arg0: ContactSolverConfig) -> bool:
        ...
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def alpha_decay(self) -> float:
        """
        alpha_{k+1} = (1 - alpha_decay) alpha_low + alpha_decay alpha_k, in [0, 1] (1).
        """
    @alpha_decay.setter
    def alpha_decay(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def alpha_init(self) -> float:
        """
        Relaxation of the first sweep, in (0, 1] (1).
        """
    @alpha_init.setter
    def alpha_init(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def alpha_low(self) -> float:
        """
        Relaxation reached after many sweeps, in (0, 1] (1).
        """
    @alpha_low.setter
    def alpha_low(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def erp(self) -> float:
        """
        Error reduction of penetration, in [0, 1] (0: off); see World.set_erp.
        """
    @erp.setter
    def erp(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def erp2(self) -> float:
        """
        Damping of the penetration rate, >= 0 (0: off); see World.set_erp.
        """
    @erp2.setter
    def erp2(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def error_to_terminate(self) -> float:
        """
        The stopping threshold, m/s (1e-8); see World.set_contact_solver_param.
        """
    @error_to_terminate.setter
    def error_to_terminate(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def max_iteration(self) -> int:
        """
        Most sweeps per solve, >= 1 (150).
        """
    @max_iteration.setter
    def max_iteration(self, arg1: typing.Any) -> None:
        ...
class ContactSolver:
    """
    A world's contact solver (RaiSim's BisectionContactSolver), from World.get_contact_solver(). It keeps its world alive.
    """
    def __repr__(self) -> str:
        ...
    def get_config(self) -> ContactSolverConfig:
        """
        A live view of the solver's configuration (ContactSolverConfig): assigning config.max_iteration = 50 changes this world's solver.
        """
    def get_error_history(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The error of every sweep of the last solve, a new float64 array of get_loop_counter() entries (m/s): a sweep's largest change of a contact's velocity by its update (or, when smaller on a full sweep, its largest velocity drift after its update), the largest over the islands that ran that sweep. The solve stopped when an entry fell below error_to_terminate, or after max_iteration sweeps.
        """
    def get_loop_counter(self) -> int:
        """
        Sweeps of the last solve (the most any island used).
        """
    def set_order(self, order: bool) -> None:
        """
        The same as World.set_contact_solver_iteration_order(order).
        """
    def update_config(self, config: ContactSolverConfig) -> None:
        """
        Set every field of `config` (a ContactSolverConfig) in this world's solver; the sweep order, acceleration and kernel settings are kept.
        """
class MeshCollisionMode:
    """
    How a mesh collides: ORIGINAL_MESH (the triangle surface; for static or kinematic bodies: primitives and convex meshes collide with its triangles; a moving ORIGINAL_MESH meets the ground by its vertices and heightmaps by its convex hull (none for a flat mesh), and makes NO contact with another ORIGINAL_MESH), CONVEX_HULL (one convex hull), CONVEXIFY (a CoACD convex decomposition, needs the coacd package).
    
    Members:
    
      ORIGINAL_MESH
    
      CONVEX_HULL
    
      CONVEXIFY
    """
    CONVEXIFY: typing.ClassVar[MeshCollisionMode]
    CONVEX_HULL: typing.ClassVar[MeshCollisionMode]
    ORIGINAL_MESH: typing.ClassVar[MeshCollisionMode]
    __members__: typing.ClassVar[dict[str, MeshCollisionMode]]
    @typing.overload
    def __eq__(self, other: MeshCollisionMode) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: MeshCollisionMode) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class CompoundObjectChild:
    """
    One primitive child of a compound (RaiSim's Compound::CompoundObjectChild): object_type SPHERE (object_param (radius,)), BOX ((x, y, z) full lengths), CYLINDER or CAPSULE ((radius, height)); position (3,) in m and orientation (w, x, y, z) in the compound's body frame; a material name.
    """
    def __init__(self, object_type: ObjectType, object_param: typing.Any, position: typing.Any = [0.0, 0.0, 0.0], orientation: typing.Any = [1.0, 0.0, 0.0, 0.0], material: str = 'default') -> None:
        ...
    @property
    def material(self) -> str:
        ...
    @property
    def object_param(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        (radius,), (x, y, z) full lengths, or (radius, height) (m), as given.
        """
    @property
    def object_type(self) -> ObjectType:
        ...
    @property
    def position(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    @property
    def rotation(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
class Mesh(SingleBodyObject):
    """
    A rigid body with mesh collision geometry. Its position is the centre of mass; its body frame has the mesh file's axes, so the mesh-frame point x is at position + R (x - get_com_offset()).
    """
    def get_collision_meshes(self) -> list:
        """
        The collision geometry in the mesh frame (m): a list of (vertices (n, 3), triangles (m, 3)) per convex part (one for CONVEX_HULL and ORIGINAL_MESH).
        """
    def get_collision_mode(self) -> MeshCollisionMode:
        ...
    def get_com_offset(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Centre of mass in the mesh file's frame (scaled), m, shape (3,).
        """
    def get_file_name(self) -> str:
        ...
    def get_scale(self) -> float:
        ...
class Compound(SingleBodyObject):
    """
    A rigid body made of primitive children; contacts of child k carry local index k.
    """
    def get_child(self, index: typing.SupportsInt | typing.SupportsIndex) -> CompoundObjectChild:
        """
        Child k as a CompoundObjectChild: its shape and size, its pose relative to the centre of mass in the body frame (as get_child_position), its material.
        """
    def get_child_count(self) -> int:
        ...
    def get_child_material(self, index: typing.SupportsInt | typing.SupportsIndex) -> str:
        ...
    def get_child_position(self, index: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        Child position relative to the centre of mass, body frame (m), shape (3,).
        """
class TerrainProperties:
    """
    Perlin-noise terrain (World.add_height_map(center_x, center_y, terrain_properties)): height = height_offset + z_scale * sum over octaves o < fractal_octaves of fractal_gain**o * noise(frequency * fractal_lacunarity**o * (x, y)), (x, y) relative to the grid centre (m), noise = 2-D gradient noise in [-1, 1] (0 on lattice points) from a permutation shuffled by seed; with step_size > 0 the heights are rounded to multiples of it. Fields: frequency (1/m, > 0, default 0.3), z_scale (m, default 1), x_size, y_size (m, > 0, default 10), x_samples, y_samples (>= 2, default 100), fractal_octaves (1..32, default 5), fractal_lacunarity (> 0, default 2), fractal_gain (default 0.5), seed (int >= 0, default 0), step_size (m, >= 0, default 0), height_offset (m, default 0). Same properties, same heights.
    """
    def __init__(self) -> None:
        ...
    def generate(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The heights this terrain gives, as a new array of shape (y_samples, x_samples) (m); row j is y = -y_size/2 + j * y_size/(y_samples-1) from the centre.
        """
    @property
    def fractal_gain(self) -> float:
        ...
    @fractal_gain.setter
    def fractal_gain(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def fractal_lacunarity(self) -> float:
        ...
    @fractal_lacunarity.setter
    def fractal_lacunarity(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def fractal_octaves(self) -> int:
        ...
    @fractal_octaves.setter
    def fractal_octaves(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def frequency(self) -> float:
        ...
    @frequency.setter
    def frequency(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def height_offset(self) -> float:
        ...
    @height_offset.setter
    def height_offset(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def seed(self) -> int:
        ...
    @seed.setter
    def seed(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def step_size(self) -> float:
        ...
    @step_size.setter
    def step_size(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def x_samples(self) -> int:
        ...
    @x_samples.setter
    def x_samples(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def x_size(self) -> float:
        ...
    @x_size.setter
    def x_size(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def y_samples(self) -> int:
        ...
    @y_samples.setter
    def y_samples(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def y_size(self) -> float:
        ...
    @y_size.setter
    def y_size(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def z_scale(self) -> float:
        ...
    @z_scale.setter
    def z_scale(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class HeightMap(SingleBodyObject):
    """
    A static heightmap: a grid of x_samples by y_samples heights over x_size by y_size (m) centred at (center_x, center_y). Sample (i, j) (i along x, j along y) is heights[j * x_samples + i] at x = center_x - x_size/2 + i * x_size/(x_samples-1), y = center_y - y_size/2 + j * y_size/(y_samples-1). The surface is two triangles per cell (split from (i, j) to (i+1, j+1)); a triangle with a NaN or infinite corner is a hole (no collision, rays pass); outside the grid there is no surface.
    """
    def get_center_x(self) -> float:
        """
        m
        """
    def get_center_y(self) -> float:
        """
        m
        """
    def get_height(self, x: typing.SupportsFloat | typing.SupportsIndex, y: typing.SupportsFloat | typing.SupportsIndex) -> float:
        """
        Surface height (m) at world (x, y) (m): the height of the cell triangle there; NaN outside the grid or over a hole.
        """
    def get_height_map(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The samples as a new array of shape (y_samples, x_samples) (m): [j, i] is sample (i, j).
        """
    def get_height_vector(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The samples as given (m), a new array of shape (x_samples * y_samples,), x fastest.
        """
    def get_normal(self, x: typing.SupportsFloat | typing.SupportsIndex, y: typing.SupportsFloat | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        Unit upward surface normal at world (x, y) (m), a new array of shape (3,); NaN outside the grid or over a hole.
        """
    def get_x_samples(self) -> int:
        ...
    def get_x_size(self) -> float:
        """
        m
        """
    def get_y_samples(self) -> int:
        ...
    def get_y_size(self) -> float:
        """
        m
        """
class DeformableMaterial:
    """
    Solver and material parameters of a deformable (the seed's DeformableObject::Material), SI units. See docs/deformables.md.
    """
    self_collision: bool
    solver: str
    def __init__(self, density: typing.SupportsFloat | typing.SupportsIndex = 1000.0, areal_density: typing.SupportsFloat | typing.SupportsIndex = 0.2, stretch_compliance: typing.SupportsFloat | typing.SupportsIndex = 1e-07, bending_compliance: typing.SupportsFloat | typing.SupportsIndex = 0.0001, youngs_modulus: typing.SupportsFloat | typing.SupportsIndex = 0.0, poisson_ratio: typing.SupportsFloat | typing.SupportsIndex = 0.3, volume_compliance: typing.SupportsFloat | typing.SupportsIndex = 0.0, damping: typing.SupportsFloat | typing.SupportsIndex = 0.0, substeps: typing.SupportsInt | typing.SupportsIndex = 1, iterations: typing.SupportsInt | typing.SupportsIndex = 10, proxy_radius: typing.SupportsFloat | typing.SupportsIndex = 0.005, self_collision: bool = False, solver: str = 'xpbd', element_order: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        """
        density kg/m^3 (volumes); areal_density kg/m^2 (cloth); stretch_compliance and bending_compliance m/N (XPBD compliance of the edge and bending distance constraints); youngs_modulus Pa (> 0: a volume is a neo-Hookean solid) and poisson_ratio in [0, 0.5); volume_compliance m^3/N (volumes without E); damping 1/s; substeps and iterations per world step; proxy_radius m (each vertex's collision sphere); self_collision; solver 'xpbd' (Gauss-Seidel sweeps over the constraints) or 'newton' (elastic solids: Newton's method on the finite-element implicit step, iterations = Newton iterations per substep); element_order 1 (linear tetrahedra) or 2 (quadratic: a node at every edge's midpoint; solver 'newton'). ValueError naming the field for a bad value.
        """
    @property
    def areal_density(self) -> float:
        ...
    @areal_density.setter
    def areal_density(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def bending_compliance(self) -> float:
        ...
    @bending_compliance.setter
    def bending_compliance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def damping(self) -> float:
        ...
    @damping.setter
    def damping(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def density(self) -> float:
        ...
    @density.setter
    def density(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def element_order(self) -> int:
        ...
    @element_order.setter
    def element_order(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def iterations(self) -> int:
        ...
    @iterations.setter
    def iterations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def poisson_ratio(self) -> float:
        ...
    @poisson_ratio.setter
    def poisson_ratio(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def proxy_radius(self) -> float:
        ...
    @proxy_radius.setter
    def proxy_radius(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def stretch_compliance(self) -> float:
        ...
    @stretch_compliance.setter
    def stretch_compliance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def substeps(self) -> int:
        ...
    @substeps.setter
    def substeps(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def volume_compliance(self) -> float:
        ...
    @volume_compliance.setter
    def volume_compliance(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def youngs_modulus(self) -> float:
        ...
    @youngs_modulus.setter
    def youngs_modulus(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class DeformableMeshOptions:
    """
    How World.add_deformable_object makes particles of an OBJ surface (the seed's DeformableObject::MeshBuildOptions). mode 'surface': the mesh's vertices are the particles and its triangles a shell (a cloth), with struts=True also distance constraints across the inside that keep its shape; mode 'filled': a closed mesh filled with tetrahedra on a lattice of about `spacing` m (0: the longest side of its box / 8), boundary vertices moved onto the surface (a solid; elastic with a Young's modulus). scale multiplies the file's vertices.
    """
    def __init__(self, mode: str = 'surface', scale: typing.SupportsFloat | typing.SupportsIndex = 1.0, spacing: typing.SupportsFloat | typing.SupportsIndex = 0.0, struts: bool = False) -> None:
        ...
    @property
    def mode(self) -> str:
        ...
    @property
    def scale(self) -> float:
        ...
    @property
    def spacing(self) -> float:
        ...
    @property
    def struts(self) -> bool:
        ...
class DeformableObject:
    """
    Handle to a deformable cloth or solid of a World (its particles, mesh and material). Raises RemovedObjectError once removed.
    """
    name: str
    def __eq__(self, arg0: DeformableObject) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def attach_vertex(self, vertex: typing.SupportsInt | typing.SupportsIndex, body: Object, world_point: typing.Any = None, link: typing.SupportsInt | typing.SupportsIndex = -1) -> None:
        """
        Hold `vertex` to a rigid body (a single body, or link index `link` of a robot) at world_point (default: where the vertex is now), fixed in the body's frame: the vertex follows the body, and the body carries the vertex's weight and the pull of its constraints (in its external force of the next step).
        """
    def get_constraint_count(self) -> int:
        ...
    def get_elastic_energy(self) -> float:
        """
        Elastic energy of the compliant constraints, sum C^2 / (2 alpha), zero at rest (J).
        """
    def get_energy(self) -> float:
        """
        Kinetic + elastic + gravitational energy (J).
        """
    def get_kinetic_energy(self) -> float:
        """
        Kinetic energy of the free particles (J).
        """
    def get_mass(self) -> float:
        """
        Total mass (kg; with quadratic elements, their internal edge nodes included).
        """
    def get_masses(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Particle masses (kg), a fresh (n,) array.
        """
    def get_material(self) -> DeformableMaterial:
        """
        A copy of the DeformableMaterial.
        """
    def get_pinned(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Pinned flags, a fresh (n,) bool array.
        """
    def get_positions(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Particle positions (m, world), a fresh (n, 3) array.
        """
    def get_potential_energy(self) -> float:
        """
        Gravitational potential energy -sum m g.x (J), for the world's gravity.
        """
    def get_reactions(self) -> list:
        """
        What this deformable did to the dynamic bodies in its last step: a list of dicts, one per body (object_id, link: the robot link or -1), with force (N, world) and moment (N m, about the world origin), contacts and attachments summed. Each is added to that body's external force for the world's next step.
        """
    def get_rest_positions(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The vertices given at creation (the rest shape), a fresh (n, 3) array.
        """
    def get_struts(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        Struts across a shell's inside (DeformableMeshOptions(struts=True)), a fresh (k, 2) int64 array of vertex pairs.
        """
    def get_surface_triangles(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        The surface rays and cameras see: the cloth's triangles, or a volume's boundary faces (outward), a fresh (m, 3) int64 array.
        """
    def get_tetrahedra(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        Volume tetrahedra, a fresh (m, 4) int64 array ((0, 4) for a cloth).
        """
    def get_triangles(self) -> numpy.typing.NDArray[numpy.int64]:
        """
        Cloth triangles, a fresh (m, 3) int64 array ((0, 3) for a volume).
        """
    def get_velocities(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Particle velocities (m/s, world), a fresh (n, 3) array.
        """
    def get_vertex_count(self) -> int:
        ...
    def is_alive(self) -> bool:
        ...
    def set_material(self, material: DeformableMaterial) -> None:
        """
        New material parameters for the same mesh (masses and constraints rebuilt).
        """
    def set_pinned(self, vertex: typing.SupportsInt | typing.SupportsIndex, pinned: bool = True) -> None:
        """
        Hold a vertex fixed where it is (True) or free it.
        """
    def set_positions(self, positions: typing.Any) -> None:
        """
        Set every particle position (m, world): an (n, 3) array-like.
        """
    def set_velocities(self, velocities: typing.Any) -> None:
        """
        Set every particle velocity (m/s, world): an (n, 3) array-like.
        """
    @property
    def collision_group(self) -> int:
        ...
    @property
    def collision_mask(self) -> int:
        ...
    @property
    def contact_material(self) -> str:
        ...
    @property
    def id(self) -> int:
        """
        Stable id among the world's deformables (never reused).
        """
    @property
    def kind(self) -> str:
        """
        'cloth' or 'volume'.
        """
class Checkpoint:
    """
    An immutable checkpoint of a world's state between complete steps (World.capture_checkpoint()): time, every object's state and pending forces, articulated systems' gc/gv and control (mode, PD gains and targets, feedforward), the contact solver's warm-start record and sweep direction, materials and settings, sleeping state, the sensor noise stream. Copies share the data. to_bytes()/from_bytes() and pickle give a portable form that restores into any world built the same way (same topology), in this process or another.
    """
    @staticmethod
    def from_bytes(data: typing.Any) -> Checkpoint:
        """
        Read a checkpoint written by to_bytes(). ValueError naming the problem for data that is not a complete, intact checkpoint of this format version (truncated, corrupted, another version or byte order).
        """
    def __getstate__(self) -> bytes:
        ...
    def __init__(self) -> None:
        """
        An empty checkpoint (restoring it is rejected).
        """
    def __repr__(self) -> str:
        ...
    def __setstate__(self, arg0: bytes) -> None:
        ...
    def get_topology_fingerprint(self) -> int:
        """
        Fingerprint of the topology (objects, shapes, robot structures, ids) it was taken from; restore requires the world's to be equal.
        """
    def get_world_time(self) -> float:
        """
        World time (s) at capture.
        """
    def is_empty(self) -> bool:
        ...
    def is_portable(self) -> bool:
        """
        True for a checkpoint read from bytes: any world with the same topology accepts it. A captured checkpoint is accepted only by the world it came from.
        """
    def to_bytes(self) -> bytes:
        """
        The portable byte form: a header (b'TRSNCKPT', the format version, a byte-order mark, the topology fingerprint, the payload length and checksum) and the payload. RuntimeError for an empty checkpoint.
        """
class SingleBodySnapshot:
    """
    Runtime state of one single body (pose, velocities, pending external force and torque) and its collision properties (group, mask, material). Fields are copies.
    """
    @property
    def angular_velocity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        rad/s, world, shape (3,).
        """
    @property
    def collision_group(self) -> int:
        ...
    @property
    def collision_mask(self) -> int:
        ...
    @property
    def linear_velocity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        m/s, world, shape (3,).
        """
    @property
    def material(self) -> str:
        ...
    @property
    def object_type(self) -> ObjectType:
        ...
    @property
    def orientation(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Quaternion (w, x, y, z), shape (4,).
        """
    @property
    def position(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        COM position (m, world), shape (3,).
        """
class WorldLockGuard:
    """
    Returned by World.lock(): the lock is held; leaving a `with` block (or World.unlock()) releases it.
    """
    def __enter__(self) -> World:
        ...
    def __exit__(self, arg0: typing.Any, arg1: typing.Any, arg2: typing.Any) -> bool:
        ...
class LengthConstraint:
    """
    A wire (World seed: LengthConstraint) between a point on one body and a point on another. It pulls and never pushes: tension >= 0. Holds the world and the wire's stable id; RemovedObjectError once the wire (or one of its objects) is removed. Direction and positions are world-frame NumPy arrays (copies).
    """
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def get_direction(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Unit vector from end 1 to end 2 (world), shape (3,); the tension pulls end 1 along it and end 2 against it.
        """
    def get_distance(self) -> float:
        """
        The distance between its two ends now (m).
        """
    def get_id(self) -> int:
        """
        Stable id, never reused within the world.
        """
    def get_index_in_world(self) -> int:
        """
        Position in the world's wire list; the last wire takes a removed wire's index.
        """
    def get_kind(self) -> str:
        """
        'stiff', 'compliant' or 'custom'.
        """
    def get_length(self) -> float:
        """
        The wire's nominal length L (m), as given at creation.
        """
    def get_local_index1(self) -> int:
        ...
    def get_local_index2(self) -> int:
        ...
    def get_name(self) -> str:
        ...
    def get_object1(self) -> typing.Any:
        ...
    def get_object2(self) -> typing.Any:
        ...
    def get_p1(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        World position of end 1 (m), shape (3,).
        """
    def get_p2(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        World position of end 2 (m), shape (3,).
        """
    def get_pos1_b(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Attachment of end 1 in its body's frame (m).
        """
    def get_pos2_b(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Attachment of end 2 in its body's frame (m).
        """
    def get_stretch(self) -> float:
        """
        distance - length (m): > 0 stretched, < 0 slack.
        """
    def get_tension(self) -> float:
        """
        Tension (N, >= 0): a stiff wire's of the last step (its impulse / dt), a compliant wire's stiffness * stretch of the last step, a custom wire's as set.
        """
    def is_alive(self) -> bool:
        ...
    def set_name(self, name: str) -> None:
        """
        The name get_wire(name) and get_constraint(name) find.
        """
class StiffWire(LengthConstraint):
    """
    Inextensible wire (StiffLengthConstraint): a unilateral hard row of the contact solver.
    """
class CompliantWire(LengthConstraint):
    """
    Spring wire (CompliantLengthConstraint): tension = stiffness * max(0, stretch).
    """
    def get_stiffness(self) -> float:
        """
        N/m.
        """
    def set_stiffness(self, stiffness: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        N/m, finite and > 0.
        """
class CustomWire(LengthConstraint):
    """
    Wire whose tension the user sets (CustomLengthConstraint); applied every step while the ends are apart.
    """
    def set_tension(self, tension: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        N, finite and >= 0 (a wire cannot push).
        """
class Tendon:
    """
    A fixed tendon (World seed: Tendon): length = sum of coefficient * joint coordinate over joints of one or two articulated systems. Holds the world and the tendon's stable id; RemovedObjectError once the tendon (or its system) is removed.
    """
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def get_actuator_force(self) -> float:
        ...
    def get_armature(self) -> float:
        ...
    def get_damping(self) -> float:
        ...
    def get_friction(self) -> float:
        ...
    def get_friction_force(self) -> float:
        """
        The friction force along the tendon in the last step.
        """
    def get_id(self) -> int:
        """
        Stable id, never reused within the world.
        """
    def get_index_in_world(self) -> int:
        """
        Position in get_tendons(); the last tendon takes a removed tendon's index.
        """
    def get_jacobian(self, system: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        The length's Jacobian over an articulated system's generalized velocities, shape (dof,), or over a dynamic single body's (linear velocity, angular velocity), shape (6,) (a spatial tendon) (None: the tendon's first movable object).
        """
    def get_joints(self) -> list:
        """
        [(articulated system, joint name, coefficient), ...] as given.
        """
    def get_kind(self) -> str:
        """
        'fixed' or 'spatial'.
        """
    def get_length(self) -> float:
        """
        sum of coefficient * joint coordinate now (m or rad).
        """
    def get_limit_force(self) -> float:
        """
        The limits' force along the tendon in the last step (N or N m): > 0 at the lower limit (pushing the length up), < 0 at the upper one.
        """
    def get_limits(self) -> tuple[float, float]:
        ...
    def get_name(self) -> str:
        ...
    def get_spring_force(self) -> float:
        """
        The spring-damper force along the tendon in the last step.
        """
    def get_spring_length(self) -> typing.Any:
        """
        The spring's rest length, or (lower, upper) of its dead band (no spring force between them).
        """
    def get_stiffness(self) -> float:
        ...
    def get_velocity(self) -> float:
        """
        d length / dt now.
        """
    def is_alive(self) -> bool:
        ...
    def set_actuator_force(self, force: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        A force along the tendon applied every step from now on (N, or N m for a fixed tendon over revolute joints; > 0 lengthens it, a cable pulling is < 0).
        """
    def set_properties(self, stiffness: typing.Any = None, damping: typing.Any = None, spring_length: typing.Any = None, limits: typing.Any = None, friction: typing.Any = None, armature: typing.Any = None) -> None:
        """
        Change some properties (None: unchanged). ValueError for bad values.
        """
class TendonCoupling:
    """
    Holds a first tendon's length to a polynomial of a second's: L1 = c0 + c1 L2 + c2 L2^2 + ... (no second: L1 = c0). RemovedObjectError once removed (or one of its tendons was).
    """
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def get_compliance(self) -> float:
        ...
    def get_erp(self) -> float:
        ...
    def get_error(self) -> float:
        """
        L1 - p(L2) now.
        """
    def get_first(self) -> Tendon:
        ...
    def get_force(self) -> float:
        """
        The coupling's force in the last step, along the Jacobian of L1 - p(L2).
        """
    def get_id(self) -> int:
        ...
    def get_index_in_world(self) -> int:
        ...
    def get_name(self) -> str:
        ...
    def get_polynomial(self) -> list[float]:
        ...
    def get_second(self) -> typing.Any:
        ...
    def is_alive(self) -> bool:
        ...
class ArticulatedView:
    """
    One robot (found by name) in every world of a WorldBatch, read and written as (N, ...) float64 arrays without per-world Python (WorldBatch.articulated(name)). Getters write into `out` when given (a writeable C-contiguous float64 array of the exact shape, returned) or return a fresh array. Setters take (N, ...) arrays, or one row for every world where stated; every argument is checked (shape, finite values) before any world changes. Values are those of the per-world ArticulatedSystem calls, bit for bit.
    """
    def __len__(self) -> int:
        ...
    def __reduce__(self) -> typing.Any:
        ...
    def __reduce_ex__(self, protocol: typing.Any) -> typing.Any:
        """
        Pickle support at every protocol (TypeError if the class cannot be pickled).
        """
    def __repr__(self) -> str:
        ...
    def get_contact_forces(self, bodies: typing.Any, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        Net contact force (N, world frame) on each of `bodies` (body names or indices) in every world, from the contacts of the last step: the sum of the `force` column of Object.get_contacts() over that body's rows. Shape (N, B, 3).
        """
    def get_frame_angular_velocities(self, frames: typing.Any, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        Angular velocities of `frames` in every world, world frame (rad/s), shape (N, F, 3).
        """
    def get_frame_orientations(self, frames: typing.Any, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        Rotation matrices (frame to world) of `frames` in every world, shape (N, F, 3, 3).
        """
    def get_frame_positions(self, frames: typing.Any, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        Origins of `frames` (a sequence of frame names or indices) in every world, world frame (m), shape (N, F, 3).
        """
    def get_frame_velocities(self, frames: typing.Any, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        Linear velocities of the origins of `frames` in every world, world frame (m/s), shape (N, F, 3).
        """
    def get_generalized_coordinates(self, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        gc of every world, shape (N, gc_dim).
        """
    def get_generalized_velocities(self, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        gv of every world, shape (N, dof).
        """
    def read_state(self, gc_out: typing.Any = None, gv_out: typing.Any = None, frames: typing.Any = (), orientations_out: typing.Any = None) -> tuple:
        """
        gc (N, gc_dim), gv (N, dof) and the rotation matrices (N, F, 3, 3) of `frames` (names or indices; () for none) of every world, into the out arrays when given (as the getters), returned as a tuple: the values of get_generalized_coordinates, get_generalized_velocities and get_frame_orientations, read in one pass over the worlds when every frame is on a floating base (the per-step observation read of an RL environment).
        """
    def set_generalized_forces(self, tau: typing.Any) -> None:
        """
        Feedforward generalized forces of every world, (N, dof) or (dof,) (N m or N). Persistent, as set_generalized_force.
        """
    def set_pd_gains(self, kp: typing.Any, kd: typing.Any) -> None:
        """
        PD gains of every world, kp and kd (N, dof) or (dof,), finite and >= 0 (the floating base's six are forced to zero). Switches to PD_PLUS_FEEDFORWARD_TORQUE.
        """
    def set_pd_targets(self, positions: typing.Any, velocities: typing.Any = None) -> None:
        """
        PD targets of every world: positions (N, gc_dim) in gc layout, velocities (N, dof) (None: zero); either may be one row for every world. As set_pd_target per world.
        """
    def set_states(self, indices: typing.Any, gc: typing.Any, gv: typing.Any) -> None:
        """
        Set gc and gv of the worlds `indices` (K,) (None: every world): gc (K, gc_dim), gv (K, dof), row k for world indices[k] (quaternions are normalised). RuntimeError mid-step.
        """
    @property
    def dof(self) -> int:
        ...
    @property
    def gc_dim(self) -> int:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def object_id(self) -> int:
        """
        Stable id of the robot (the same in every world).
        """
class WorldState:
    """
    A lean state for resets (World.capture_state()): the motion a world carries from step to step -- time, every body's pose, velocities and pending forces, every robot's gc, gv, PD targets, feedforward and held efforts, the contact solver's warm starts, sleeping flags, the sensor noise stream -- without the configuration (materials, settings, masses, inertias, damping, body types, collision filters, PD gains, effort limits). Restoring it into a world configured as at capture continues bitwise as after the capture; it restores into any world of the same topology. Much cheaper than a Checkpoint; not serialisable (use a Checkpoint for that).
    """
    def __init__(self) -> None:
        """
        An empty state (restoring it is rejected); capture into it with World.capture_state(out=state).
        """
    def __reduce__(self) -> typing.Any:
        ...
    def __reduce_ex__(self, protocol: typing.Any) -> typing.Any:
        """
        Pickle support at every protocol (TypeError if the class cannot be pickled).
        """
    def __repr__(self) -> str:
        ...
    def get_byte_size(self) -> int:
        """
        Bytes of data it holds.
        """
    def get_topology_fingerprint(self) -> int:
        ...
    def get_world_time(self) -> float:
        """
        World time (s) at capture.
        """
    def is_empty(self) -> bool:
        ...
class WorldBatch:
    """
    N independent worlds stepped together in C++ on a persistent thread pool (shared with ray_test_batch and the depth camera), with the GIL released. Every world is stepped by one thread at a time, so the results are bitwise those of N separate worlds, whatever the number of threads. world(i) gives each World for set-up and inspection; articulated(name) reads and writes one robot in every world as (N, ...) arrays.
    """
    @staticmethod
    def from_world(world: World, num_worlds: typing.SupportsInt | typing.SupportsIndex, num_threads: typing.SupportsInt | typing.SupportsIndex = 0) -> WorldBatch:
        """
        num_worlds copies of `world` (objects, settings and state: each copy's state_hash() is the source's, and it steps bitwise as the source would). Robot models and geometry are shared (they are immutable). The copies share the source's sensor noise seed too: set_seeds() gives them independent streams.
        """
    def __init__(self, build: typing.Any, num_worlds: typing.SupportsInt | typing.SupportsIndex, num_threads: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        Make num_worlds fresh Worlds and call build(world, index) on each (with the GIL). Every world must end with the same topology (objects, shapes, robots, in the same order: World.get_topology_fingerprint()); ValueError naming the first that differs. num_threads: threads used by the batch's calls (0: all cores). Fresh worlds all start with sensor noise seed 0: set_seeds() gives them independent streams.
        """
    def __len__(self) -> int:
        ...
    def __reduce__(self) -> typing.Any:
        ...
    def __reduce_ex__(self, protocol: typing.Any) -> typing.Any:
        """
        Pickle support at every protocol (TypeError if the class cannot be pickled).
        """
    def __repr__(self) -> str:
        ...
    def articulated(self, name: str) -> ArticulatedView:
        """
        An ArticulatedView of the robot named `name` in every world (ValueError if a world has none or it is another robot).
        """
    def get_seeds(self) -> numpy.typing.NDArray[numpy.uint64]:
        """
        Every world's sensor noise seed, shape (N,) uint64.
        """
    def get_world_times(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Every world's time (s), shape (N,).
        """
    def integrate(self, steps: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        """
        Advance every world `steps` time steps, in parallel, GIL released (Ctrl-C interrupts between chunks of 1024 steps). RuntimeError if a world is mid-step or used by another thread.
        """
    def ray_test_batch(self, starts: typing.Any, directions: typing.Any, lengths: typing.Any, collision_mask: typing.Any = -1, *, articulated: typing.Any = None, frame: typing.Any = None, yaw_only: bool = False, out: typing.Any = None) -> numpy.typing.NDArray[numpy.float64]:
        """
        Cast R rays in every world: starts and directions (N, R, 3) or (R, 3) (the same for every world), lengths (N, R) or (R,). Returns the hit distances (N, R) (inf for a miss), as World.ray_test_batch would give per world. With articulated (a robot name), starts and directions are in the frame `frame` of that robot (name or index; None: its root body) in each world; yaw_only=True keeps only the frame's position and heading (a height scan). Parallel on the batch's threads.
        """
    def restore(self, indices: typing.Any, checkpoint: typing.Any) -> None:
        """
        Restore `checkpoint` (a Checkpoint, or a WorldState: the lean, much cheaper reset) into the worlds `indices` (a 1-D array-like of ints; None: every world). It may come from any world of the same topology (another world of the batch, its source, or bytes). RuntimeError naming the world, before any world changes, if one has another topology or is mid-step.
        """
    def set_seeds(self, seeds: typing.Any) -> None:
        """
        Seed every world's sensor noise stream: an int gives world i the seed splitmix64(seed + (i + 1) * golden ratio), independent streams; an array gives one seed per world. Read them back with get_seeds() (e.g. to seed numpy Generators for per-world randomisation).
        """
    def state_hashes(self) -> numpy.typing.NDArray[numpy.uint64]:
        """
        World.state_hash() of every world, shape (N,) uint64.
        """
    def world(self, index: typing.SupportsInt | typing.SupportsIndex) -> World:
        """
        The World at this index (negative counts from the end).
        """
    @property
    def num_threads(self) -> int:
        """
        Threads the batch's calls use (set 0 for all cores).
        """
    @num_threads.setter
    def num_threads(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class _HalActuatorPlan:
    """
    The HAL bridge's actuator side (torsion.hal.Simulation): one cycle's commands to PD gains and targets, velocity targets and feedforward torques in one call.
    """
    def __init__(self, robot: ArticulatedSystem, start_value: typing.Any, start_stiffness: typing.Any, q_ref: typing.Any) -> None:
        """
        robot: the ArticulatedSystem; start_value, start_stiffness: per actuator (used for NaN commands; LEDs' start stiffness may be NaN); q_ref: the PD target template (gc).
        """
    def add_led(self, actuator: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        An LED: apply() writes clamp(value, 0, 1) to led_out.
        """
    def add_position(self, actuator: typing.SupportsInt | typing.SupportsIndex, gc: typing.SupportsInt | typing.SupportsIndex, dof: typing.SupportsInt | typing.SupportsIndex, ratio: typing.SupportsFloat | typing.SupportsIndex, kp: typing.SupportsFloat | typing.SupportsIndex, kd: typing.SupportsFloat | typing.SupportsIndex, lo: typing.SupportsFloat | typing.SupportsIndex, hi: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        q_ref[gc] = ratio * clamp(value, lo, hi); gains (s kp, s kd) on dof.
        """
    def add_torque(self, actuator: typing.SupportsInt | typing.SupportsIndex, dof: typing.SupportsInt | typing.SupportsIndex, max: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        tau[dof] += clamp(value, -s max, s max).
        """
    def add_velocity(self, actuator: typing.SupportsInt | typing.SupportsIndex, dof: typing.SupportsInt | typing.SupportsIndex, kd: typing.SupportsFloat | typing.SupportsIndex, max: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        u_ref[dof] = clamp(value, -max, max); damping gain s kd.
        """
    def apply(self, values: typing.Any, stiffness: typing.Any, led_out: typing.Any) -> None:
        """
        Apply one cycle's commands (float64 arrays, one value per actuator; NaN: the start value / stiffness) to the robot; LED intensities into led_out.
        """
    def fetch_and_apply(self, head: typing.Any, cmd: typing.Any, cmd_out: typing.Any, led_out: typing.Any) -> typing.Any:
        """
        _hal_read_commands(head, cmd, cmd_out) and, when it got a copy, apply(cmd_out[0], cmd_out[1], led_out): the command counter, or None (nothing applied) when the block stayed mid-write.
        """
class _HalSensorPlan:
    """
    The HAL bridge's sensor side (torsion.hal.Simulation): every non-camera sensor of a cycle into one float64 buffer in one call (the GIL released).
    """
    def __init__(self, robot: ArticulatedSystem, size: typing.SupportsInt | typing.SupportsIndex, period: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        robot: the ArticulatedSystem; size: the sensor block's length; period: the HAL period (s).
        """
    def add_coupled(self, out: typing.SupportsInt | typing.SupportsIndex, gc: typing.Any, mul: typing.Any, add: typing.Any, ratio: typing.Any) -> None:
        """
        out = mean over i of (gc[gc_i] mul_i + add_i) / ratio_i.
        """
    def add_encoder(self, kind: str, index: typing.SupportsInt | typing.SupportsIndex, out: typing.SupportsInt | typing.SupportsIndex, mul: typing.SupportsFloat | typing.SupportsIndex = 1.0, add: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        """
        angle: out = gc[index] mul + add; speed: gv[index] mul; torque: the applied torque of dof index.
        """
    def add_fsr_group(self, body: typing.SupportsInt | typing.SupportsIndex, frame: typing.SupportsInt | typing.SupportsIndex, out: typing.Any, xy: typing.Any) -> None:
        """
        The FSRs of one link (positions xy (k, 2) in the frame): kg from the normal forces of the contacts on body; four on a rectangle share bilinearly, otherwise the nearest takes it.
        """
    def add_imu(self, out: typing.SupportsInt | typing.SupportsIndex, frame: typing.SupportsInt | typing.SupportsIndex, xyz: typing.Any, rotation: typing.Any) -> None:
        """
        7 values at out: roll, pitch, proper acceleration x, y, z, angular velocity x, y (sensor frame).
        """
    def add_rays(self, kind: str, out: typing.SupportsInt | typing.SupportsIndex, frame: typing.SupportsInt | typing.SupportsIndex, xyz: typing.Any, rotation: typing.Any, directions: typing.Any, min_range: typing.SupportsFloat | typing.SupportsIndex, max_range: typing.SupportsFloat | typing.SupportsIndex, echoes: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        """
        A sonar (directions (n, 3) in the sensor frame; echoes values) or a depth infrared (one direction; one value) placed at xyz, rotation in frame.
        """
    def add_region(self, body: typing.SupportsInt | typing.SupportsIndex, frame: typing.SupportsInt | typing.SupportsIndex, out: typing.SupportsInt | typing.SupportsIndex, centre: typing.Any, half: typing.Any) -> None:
        """
        A bumper or tactile: 1 if a contact on body lies within half of centre (frame), else 0.
        """
    def begin_cycle(self) -> None:
        """
        Record the cycle's start (the IMUs' velocities); call before stepping.
        """
    def measure(self, out: typing.Any) -> None:
        """
        Every sensor of the cycle into out (float64, the sensor block's length).
        """
    def measure_and_send(self, out: typing.Any, head: typing.Any, sens: typing.Any, cycle: typing.SupportsInt | typing.SupportsIndex, applied: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        measure(out), then out with the cycle, the applied command counter and the world's time into the sensor block (as _hal_write_sensors).
        """
class GranularMaterial:
    """
    A granular material: density (kg/m^3), Young's modulus (Pa), Poisson's ratio, restitution, sliding and rolling friction.
    """
    def __init__(self, density: typing.SupportsFloat | typing.SupportsIndex = 2600.0, youngs_modulus: typing.SupportsFloat | typing.SupportsIndex = 50000000.0, poisson_ratio: typing.SupportsFloat | typing.SupportsIndex = 0.3, restitution: typing.SupportsFloat | typing.SupportsIndex = 0.5, friction: typing.SupportsFloat | typing.SupportsIndex = 0.5, rolling_friction: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def density(self) -> float:
        ...
    @property
    def friction(self) -> float:
        ...
    @property
    def poisson_ratio(self) -> float:
        ...
    @property
    def restitution(self) -> float:
        ...
    @property
    def rolling_friction(self) -> float:
        ...
    @property
    def youngs_modulus(self) -> float:
        ...
class GranularSystem:
    """
    Particles stepped as one DEM object (Hertz-Mindlin contacts with rolling resistance; docs/granular.md).
    """
    def __init__(self, positions: typing.Any, radii: typing.Any, material: GranularMaterial = ...) -> None:
        ...
    def __len__(self) -> int:
        ...
    def add_material(self, material: GranularMaterial) -> int:
        ...
    def add_particles(self, positions: typing.Any, radii: typing.Any, material_id: typing.SupportsInt | typing.SupportsIndex = 0) -> int:
        ...
    def contact_energy(self) -> float:
        ...
    def get_angular_velocities(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def get_collision_group(self) -> int:
        ...
    def get_collision_mask(self) -> int:
        ...
    def get_masses(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def get_material_ids(self) -> numpy.typing.NDArray[numpy.uint32]:
        ...
    def get_materials(self) -> list:
        """
        The materials by id (0: the one given at creation), as copies.
        """
    def get_positions(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        (N, 3) particle centres (m), a copy
        """
    def get_radii(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def get_stable_ids(self) -> numpy.typing.NDArray[numpy.uint64]:
        ...
    def get_stats(self) -> dict:
        ...
    def get_velocities(self) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def is_fixed(self, index: typing.Any) -> bool:
        ...
    def kinetic_energy(self) -> float:
        ...
    def remove_particle(self, index: typing.Any) -> None:
        ...
    def set_angular_velocity(self, index: typing.Any, angular_velocity: typing.Any) -> None:
        ...
    def set_box_container(self, lower: typing.Any, upper: typing.Any, enabled: bool = True) -> None:
        ...
    def set_collision_filter(self, group: typing.SupportsInt | typing.SupportsIndex, mask: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        The particles' collision group and mask against the world's shapes: a particle and a shape meet iff (group & shape.mask) and (shape.group & mask).
        """
    def set_fixed(self, index: typing.Any, fixed: bool = True) -> None:
        ...
    def set_ground_plane(self, enabled: bool = True, height: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        ...
    def set_material_id(self, index: typing.Any, material_id: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_position(self, index: typing.Any, position: typing.Any) -> None:
        ...
    def set_velocities(self, velocities: typing.Any) -> None:
        ...
    def set_velocity(self, index: typing.Any, velocity: typing.Any) -> None:
        ...
    def set_wall_material(self, material: GranularMaterial) -> None:
        ...
    def step(self, dt: typing.SupportsFloat | typing.SupportsIndex, gravity: typing.Any = (0.0, 0.0, -9.81), num_threads: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        """
        Step a standalone system (made with GranularSystem(...)) by dt on its own, with its ground plane and box container only. A system a World owns is stepped by world.integrate(); this raises RuntimeError for it.
        """
    def substeps_for(self, dt: typing.SupportsFloat | typing.SupportsIndex) -> int:
        ...
    @property
    def id(self) -> typing.Any:
        """
        The id of a world-owned system (None for a standalone one)
        """
    @property
    def num_threads(self) -> int:
        """
        Threads the world's step uses for this system (0: every hardware thread); the result is bitwise the same for any count.
        """
    @num_threads.setter
    def num_threads(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def substep_factor(self) -> float:
        """
        The substep count over the stable count of the touching contacts' Gershgorin rows (docs/granular.md, Time stepping): a step of dt takes max(substeps_for(dt), ceil(substep_factor dt / h_stable)) substeps. Finite and > 0 (ValueError otherwise); below 1 the bound no longer guarantees stability. Saved with the state.
        """
    @substep_factor.setter
    def substep_factor(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class DeformableTerrain(HeightMap):
    """
    A deformable soil surface (World.add_deformable_terrain; docs/soil.md): a HeightMap whose heights sink along z under the bodies, robot links and static shapes that press into it, by the Bekker-Wong pressure-sinkage law with Janosi-Hanamoto shear (a Soil Contact Model). It is static in pose. Its soil forces act on bodies and links as external forces in the step (it never enters the contact solver); rays, depth cameras and granular particles see its current surface (get_height_map()).
    """
    class Material:
        """
        The soil (the seed's DeformableTerrain::Material), SI units. Defaults: Wong's dry sand (Land Locomotion Lab; Theory of Ground Vehicles, table 2.3). Fields: k_c (cohesive modulus, N/m^(n+1)), k_phi (frictional modulus, N/m^(n+2), >= 0), n (sinkage exponent, > 0): pressure = (k_c / b + k_phi) * sinkage**n, b the contact patch's smaller dimension (m); cohesion (Pa, >= 0) and friction_angle (rad, [0, pi/2)): the shear strength cohesion + pressure * tan(friction_angle); janosi_shear (K, m, > 0): shear = strength * (1 - exp(-j / K)), j the slip displacement; elastic_stiffness (Pa/m, > 0): the unloading and reloading stiffness; damping (Pa s/m, >= 0): vertical damping pressure per unit speed; elastic_rebound (bool): unloaded soil springs back by pressure / elastic_stiffness (False: every sinkage stays, fully plastic); bulldozing (bool): the volume pressed down is moved to the rim of the rut (bulldozing_flow, the fraction moved, [0, 1]), whose slopes steeper than erosion_angle (rad, (0, pi/2)) slide, erosion_iterations passes per step ([0, 100]). Checked when given to add_deformable_terrain or set_material (ValueError naming the field).
        """
        bulldozing: bool
        elastic_rebound: bool
        def __init__(self, k_c: typing.SupportsFloat | typing.SupportsIndex = 990.0, k_phi: typing.SupportsFloat | typing.SupportsIndex = 1528430.0, n: typing.SupportsFloat | typing.SupportsIndex = 1.1, cohesion: typing.SupportsFloat | typing.SupportsIndex = 1040.0, friction_angle: typing.SupportsFloat | typing.SupportsIndex = 0.488692190558412, janosi_shear: typing.SupportsFloat | typing.SupportsIndex = 0.01, elastic_stiffness: typing.SupportsFloat | typing.SupportsIndex = 200000000.0, damping: typing.SupportsFloat | typing.SupportsIndex = 30000.0, elastic_rebound: bool = True, bulldozing: bool = False, bulldozing_flow: typing.SupportsFloat | typing.SupportsIndex = 1.0, erosion_angle: typing.SupportsFloat | typing.SupportsIndex = 0.698131700797732, erosion_iterations: typing.SupportsInt | typing.SupportsIndex = 3) -> None:
            """
            A soil material from keywords (see the class); ValueError naming a bad field.
            """
        def __reduce__(self) -> typing.Any:
            ...
        def __reduce_ex__(self, protocol: typing.Any) -> typing.Any:
            """
            Pickle support at every protocol (TypeError if the class cannot be pickled).
            """
        def __repr__(self) -> str:
            ...
        def bekker_pressure(self, sinkage: typing.SupportsFloat | typing.SupportsIndex, b: typing.SupportsFloat | typing.SupportsIndex) -> float:
            """
            (k_c / b + k_phi) * sinkage**n (Pa) for sinkage (m) under a patch of smaller dimension b (m, > 0); 0 for sinkage <= 0.
            """
        @property
        def bulldozing_flow(self) -> float:
            ...
        @bulldozing_flow.setter
        def bulldozing_flow(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def cohesion(self) -> float:
            ...
        @cohesion.setter
        def cohesion(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def damping(self) -> float:
            ...
        @damping.setter
        def damping(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def elastic_stiffness(self) -> float:
            ...
        @elastic_stiffness.setter
        def elastic_stiffness(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def erosion_angle(self) -> float:
            ...
        @erosion_angle.setter
        def erosion_angle(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def erosion_iterations(self) -> int:
            ...
        @erosion_iterations.setter
        def erosion_iterations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
            ...
        @property
        def friction_angle(self) -> float:
            ...
        @friction_angle.setter
        def friction_angle(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def janosi_shear(self) -> float:
            ...
        @janosi_shear.setter
        def janosi_shear(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def k_c(self) -> float:
            ...
        @k_c.setter
        def k_c(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def k_phi(self) -> float:
            ...
        @k_phi.setter
        def k_phi(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
        @property
        def n(self) -> float:
            ...
        @n.setter
        def n(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
            ...
    def get_contact_map(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Whether each node was pressed in the last step, a new bool array (y_samples, x_samples).
        """
    def get_contacts(self) -> list:
        """
        The soil's forces of the last step: a list with one dict per collision shape that pressed it, in the world's shape order: object_id, local_index (its body or child), force (3,) (N, world) and torque (3,) (N m, about the body's centre of mass or the link shape's origin) the soil put on it, point (3,) (m: the centre of the loaded nodes, weighted by their vertical load), area (m^2: the pressed nodes' cells), b (m: the patch's smaller dimension in k_c / b), max_sinkage (m: the deepest total sinkage) and nodes (the number pressed).
        """
    def get_initial_height_map(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The heights it was made with, a new array of shape (y_samples, x_samples) (m).
        """
    def get_material(self) -> DeformableTerrain.Material:
        """
        A copy of its soil material.
        """
    def get_particle_load(self) -> dict:
        """
        The granular particles' load on the soil in the last step (docs/soil.md): force (3,) (N, world: the soil's vertical push on the particles, equal to their mean push on its surface over the step), point (3,) (m: the loaded nodes' centre, weighted by their load), area (m^2: the loaded nodes' cells), b (m: the widest loaded patch's smaller dimension in k_c / b), max_sinkage (m) and nodes (0: no particle pressed it).
        """
    def get_plastic_sinkage_map(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The plastic (permanent) sinkage per node, a new array (y_samples, x_samples) (m).
        """
    def get_pressure_map(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The normal pressure of the last step per node (0 off contact), a new array (y_samples, x_samples) (Pa).
        """
    def get_sinkage_map(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Initial minus current height per node, a new array (y_samples, x_samples) (m): positive where the soil sank, negative where bulldozed soil piled up.
        """
    def reset(self) -> None:
        """
        The soil back to its initial heights, undisturbed. RuntimeError mid-step.
        """
    def set_material(self, soil: DeformableTerrain.Material) -> None:
        """
        Replace its soil material (checked: ValueError naming a bad field); the state (sinkage, levels) stays. RuntimeError mid-step.
        """
def _hal_read_commands(head: typing.Any, cmd: typing.Any, out: typing.Any) -> typing.Any:
    """
    The simulator side's command read: a consistent copy of cmd into out and the command counter (head word 1); None if the block was being written for every try.
    """
def _hal_read_sensors(head: typing.Any, sens: typing.Any, out: typing.Any) -> typing.Any:
    """
    The robot side's sensor read: a consistent copy of sens into out and (cycle, applied command counter, simulation time); None if the block was being written for every try.
    """
def _hal_wait_change(head: typing.Any, word: typing.SupportsInt | typing.SupportsIndex, last: typing.SupportsInt | typing.SupportsIndex, spin_seconds: typing.SupportsFloat | typing.SupportsIndex, max_seconds: typing.SupportsFloat | typing.SupportsIndex) -> bool:
    """
    Wait until head[word] differs from last (a counter the other side of the HAL bumps), the GIL released: spinning for up to spin_seconds, then sleeping in steps growing to 1 ms; True when it changed, False after max_seconds.
    """
def _hal_write_commands(head: typing.Any, cmd: typing.Any, values: typing.Any, stiffness: typing.Any) -> int:
    """
    The robot side's command write: values (finite, else ValueError and nothing written) and stiffness into the (2, n) block cmd, the command counter (head word 1) incremented, under the block's sequence lock (head word 0). Returns the new counter.
    """
def _hal_write_sensors(head: typing.Any, sens: typing.Any, values: typing.Any, cycle: typing.SupportsInt | typing.SupportsIndex, applied: typing.SupportsInt | typing.SupportsIndex, time: typing.SupportsFloat | typing.SupportsIndex) -> None:
    """
    The simulator side's sensor write: values into sens, the cycle, the applied command counter and the simulation time into head words 1-3, under the sequence lock.
    """
def _thread_guard() -> dict[str, str]:
    """
    What every method of the classes that reach into a World takes when called: 'exclusive', 'shared' (read-only, several threads at once), 'free' (safe without one), 'self-exclusive' / 'self-shared' (a fast-call method that takes it in its body), 'static', or 'unguarded' (a method that escaped: a bug). Keys 'Class.method'; classes not listed never reach a World.
    """
def _thread_pool_workers() -> int:
    """
    Worker threads the shared pool has started so far (for tests: they are reused).
    """
def collide(shape_a: Shape, position_a: typing.Any, quaternion_a: typing.Any, shape_b: Shape, position_b: typing.Any, quaternion_b: typing.Any, settings: ContactSettings = None) -> numpy.ndarray:
    """
    Contacts between shape A and shape B at the given poses (position (3,) in m, quaternion (w, x, y, z), body to world), through the same dispatch table the World uses. Returns a new structured array of dtype PAIR_CONTACT_DTYPE, one record per contact point: position (3,) world m, midway between the surfaces; normal (3,) unit, from B to A; depth (m, > 0 penetrating, >= -margin); feature (id stable while the same features touch). Empty when the shapes are farther apart than settings.margin. Ground-ground is never tested (empty).
    """
def collide_triangle(shape: Shape, position: typing.Any, quaternion: typing.Any, vertices: typing.Any, neighbour_normals: typing.Any = None, owned: typing.Any = None, settings: ContactSettings = None) -> numpy.ndarray:
    """
    Contacts of a convex shape (sphere, box, cylinder, capsule, convex mesh) at a pose (position (3,) m, quaternion (w, x, y, z)) against one one-sided triangle: vertices (3, 3) world m, counter-clockwise seen from the front. neighbour_normals (3, 3): the unit front normal of the triangle across edge i (vertices i, i+1), a NaN row for a free edge; None: every edge free. owned: 3 booleans, whether this triangle reports the contacts of each edge (default all). Normals point from the triangle to the shape. Returns a new structured array of dtype PAIR_CONTACT_DTYPE (at most settings.max_points_per_pair records).
    """
def convex_hull(points: typing.Any) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.int64], list]:
    """
    Convex hull of points (n, 3): (vertices (k, 3), triangles (t, 3) outward, faces: list of polygons (vertex indices, counter-clockwise from outside; coplanar triangles merged)).
    """
def load_mesh(file_name: typing.Any) -> tuple:
    """
    Read a mesh file: (vertices (n, 3) float64 in m, triangles (m, 3) int64). .obj and .stl are read by torsion; other formats through trimesh if installed.
    """
def mesh_is_closed(vertices: typing.Any, triangles: typing.Any) -> bool:
    """
    True if every edge joins exactly two triangles that traverse it in opposite directions (vertices at the same position count as one; triangles without area are ignored).
    """
def mesh_mass_properties(vertices: typing.Any, triangles: typing.Any) -> tuple[float, numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
    """
    Exact mass properties of the solid a closed triangle mesh encloses, at density 1: (volume m^3, centre of mass (3,) m, inertia (3, 3) about it, kg m^2 per kg/m^3).
    """
CONTACT_PROBLEM_DTYPE: numpy.dtypes.VoidDType
OBJECT_CONTACT_DTYPE: numpy.dtypes.VoidDType
PAIR_CONTACT_DTYPE: numpy.dtypes.VoidDType
