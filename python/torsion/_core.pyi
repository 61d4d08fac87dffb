"""
torsion's C++ core (bound with pybind11). Use the torsion package, not this module.
"""
from __future__ import annotations
import numpy
import numpy.typing
import typing
__all__: list[str] = ['BodyType', 'Box', 'Capsule', 'Cylinder', 'Ground', 'Object', 'ObjectType', 'RemovedObjectError', 'SingleBodyObject', 'Sphere', 'World']
class RemovedObjectError(RuntimeError):
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
    """
    BOX: typing.ClassVar[ObjectType]
    CAPSULE: typing.ClassVar[ObjectType]
    CYLINDER: typing.ClassVar[ObjectType]
    GROUND: typing.ClassVar[ObjectType]
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
        ...
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
        Set the body-frame inertia about the centre of mass (kg m^2): a symmetric positive definite (3, 3) matrix, or its diagonal as shape (3,).
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
        Set the linear (m/s) and angular (rad/s) velocity, world frame.
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
    def __init__(self) -> None:
        ...
    def add_box(self, x_length: typing.SupportsFloat | typing.SupportsIndex, y_length: typing.SupportsFloat | typing.SupportsIndex, z_length: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic box of full lengths x, y, z (m) and mass (kg) at the origin.
        """
    def add_capsule(self, radius: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic capsule (axis along body z; height is the distance between the hemisphere centres, m).
        """
    def add_cylinder(self, radius: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic cylinder (axis along body z; radius and full height in m).
        """
    def add_ground(self, z_height: typing.SupportsFloat | typing.SupportsIndex = 0.0, material: str = 'default', collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add an infinite static ground: the half space below z = z_height (m). Its collision group is the static group (bit 63).
        """
    def add_sphere(self, radius: typing.SupportsFloat | typing.SupportsIndex, mass: typing.SupportsFloat | typing.SupportsIndex, material: str = 'default', collision_group: typing.Any = 1, collision_mask: typing.Any = -1) -> typing.Any:
        """
        Add a dynamic sphere (radius m, mass kg) at the origin. Returns a Sphere handle.
        """
    def get_configuration_number(self) -> int:
        """
        A number that changes every time an object is added or removed.
        """
    def get_gravity(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Gravity (m/s^2, world frame), a fresh array of shape (3,).
        """
    def get_object(self, name_or_index: typing.Any) -> typing.Any:
        """
        The object with this name (the first one; None if there is none) or at this world index (IndexError outside [0, get_object_count())).
        """
    def get_object_by_id(self, id: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
        """
        The object with this stable id, or None if it no longer exists.
        """
    def get_object_count(self) -> int:
        ...
    def get_object_list(self) -> list:
        """
        Handles of every object, in world-index order (a new list).
        """
    def get_time_step(self) -> float:
        """
        The time step (s).
        """
    def get_warnings(self) -> dict:
        """
        Numerical trouble counted during steps: non_finite_state (bodies whose state became NaN/inf and were reset to their pose at the start of that step, at rest), the id of the last such object, and the world time it happened.
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
    def is_mid_step(self) -> bool:
        """
        True between integrate1() and integrate2().
        """
    def is_object_alive(self, id: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def remove_object(self, obj: Object) -> None:
        """
        Remove an object. The last object takes its world index; its id is never reused; its handles raise RemovedObjectError from now on. RuntimeError mid-step.
        """
    def set_gravity(self, gravity: typing.Any) -> None:
        """
        Set gravity (m/s^2, world frame), shape (3,).
        """
    def set_time_step(self, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the time step (s); ValueError unless finite and > 0.
        """
    def set_world_time(self, time: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Set the world time (s).
        """
