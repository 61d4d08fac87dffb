// Object handles: Object, SingleBodyObject and the primitive shapes.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "core/check.hpp"
#include "terrain/deformable_terrain.hpp"
#include "world/object.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;

// torsion.DeformableTerrain's handle (bind_soil.cpp)
py::object make_deformable_terrain_handle(const std::shared_ptr<World>& world, ObjectId id);

py::object make_handle(const std::shared_ptr<World>& world, const Object& obj) {
  const ObjectId id = obj.id();
  switch (obj.type()) {
    case ObjectType::kSphere: return py::cast(SphereHandle{{{world, id}}});
    case ObjectType::kBox: return py::cast(BoxHandle{{{world, id}}});
    case ObjectType::kCylinder: return py::cast(CylinderHandle{{{world, id}}});
    case ObjectType::kCapsule: return py::cast(CapsuleHandle{{{world, id}}});
    case ObjectType::kGround: return py::cast(GroundHandle{{{world, id}}});
    case ObjectType::kHeightMap:
      if (as_deformable_terrain(obj)) return make_deformable_terrain_handle(world, id);
      return py::cast(HeightMapHandle{{{world, id}}});
    case ObjectType::kMesh: return py::cast(MeshHandle{{{world, id}}});
    case ObjectType::kCompound: return py::cast(CompoundHandle{{{world, id}}});
    case ObjectType::kArticulatedSystem: return py::cast(ArticulatedSystemHandle{{world, id}});
  }
  return py::cast(ObjectHandle{world, id});
}

namespace {

// 3 numbers, or one number for all three axes
Vec3 to_vec3_or_scalar(py::handle obj, const char* name) {
  if (PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr())) return Vec3::Constant(py::cast<double>(obj));
  return to_vec3(obj, name);
}

void bind_object(py::module_& m) {
  py::enum_<ObjectType>(m, "ObjectType", "Kind of a world object (RaiSim's ObjectType).")
      .value("SPHERE", ObjectType::kSphere)
      .value("BOX", ObjectType::kBox)
      .value("CYLINDER", ObjectType::kCylinder)
      .value("CAPSULE", ObjectType::kCapsule)
      .value("GROUND", ObjectType::kGround)
      .value("HEIGHTMAP", ObjectType::kHeightMap)
      .value("MESH", ObjectType::kMesh)
      .value("COMPOUND", ObjectType::kCompound)
      .value("ARTICULATED_SYSTEM", ObjectType::kArticulatedSystem);

  py::enum_<BodyType>(m, "BodyType",
                      "STATIC never moves; KINEMATIC moves with its set velocity and is not "
                      "affected by forces; DYNAMIC is simulated.")
      .value("STATIC", BodyType::kStatic)
      .value("KINEMATIC", BodyType::kKinematic)
      .value("DYNAMIC", BodyType::kDynamic);

  py::class_<ObjectHandle>(m, "Object",
                           "Handle to an object of a World. Holds the world and the object's "
                           "stable id; raises RemovedObjectError once the object is removed.")
      .def("get_id", [](const ObjectHandle& h) { h.get(); return h.id; },
           "Stable id, never reused within the world.")
      .def("get_name", [](const ObjectHandle& h) { return h.get().name(); })
      .def("set_name", [](const ObjectHandle& h, std::string name) { h.get().set_name(std::move(name)); },
           arg("name"))
      .def("get_index_in_world", [](const ObjectHandle& h) { return h.get().index_in_world(); },
           "Position in the world's object list; changes when another object is removed.")
      .def("get_object_type", [](const ObjectHandle& h) { return h.get().type(); })
      .def("is_alive", [](const ObjectHandle& h) { return h.world->is_object_alive(h.id); },
           "False once the object has been removed from its world.")
      .def("__eq__", [](const ObjectHandle& a, py::object b) {
             if (!py::isinstance<ObjectHandle>(b)) return false;
             const auto& hb = b.cast<const ObjectHandle&>();
             return a.world == hb.world && a.id == hb.id;
           })
      .def("__hash__", [](const ObjectHandle& h) {
             return py::hash(py::make_tuple(reinterpret_cast<std::uintptr_t>(h.world.get()), h.id));
           })
      .def("__repr__", [](const ObjectHandle& h) {
             Object* o = h.world->find_object(h.id);
             if (!o) return "<torsion object id=" + std::to_string(h.id) + " (removed)>";
             return "<torsion." + std::string(object_type_name(o->type())) + " id=" +
                    std::to_string(h.id) + " index=" + std::to_string(o->index_in_world()) +
                    (o->name().empty() ? std::string() : " name='" + o->name() + "'") + ">";
           });

  py::class_<SingleBodyHandle, ObjectHandle>(
      m, "SingleBodyObject",
      "A rigid body with one collision shape. Position is the centre of mass (m, world); linear "
      "(m/s) and angular (rad/s) velocities are in the world frame; quaternions are (w, x, y, z). "
      "Getters return fresh NumPy arrays (copies).")
      // pose
      .def("set_position", [](const SingleBodyHandle& h, double x, double y, double z) {
             h.obj().set_position(Vec3(x, y, z)); }, arg("x"), arg("y"), arg("z"))
      .def("set_position", [](const SingleBodyHandle& h, py::handle p) {
             h.obj().set_position(to_vec3(p, "position")); }, arg("position"),
           "Set the centre of mass position, world frame (m), shape (3,).")
      .def("get_position", [](const SingleBodyHandle& h) { return to_numpy(h.body().position); },
           "Centre of mass position, world frame (m), shape (3,).")
      .def("get_com", [](const SingleBodyHandle& h) { return to_numpy(h.body().position); },
           "Same as get_position(): a single body's position is its centre of mass.")
      .def("set_orientation", [](const SingleBodyHandle& h, double w, double x, double y, double z) {
             h.obj().set_orientation(Vec4(w, x, y, z)); }, arg("w"), arg("x"), arg("y"), arg("z"))
      .def("set_orientation", [](const SingleBodyHandle& h, py::handle q) {
             h.obj().set_orientation(to_vec4(q, "quaternion")); }, arg("quaternion"),
           "Set the orientation from a quaternion (w, x, y, z), body to world. Any non-zero norm "
           "is accepted and normalised.")
      .def("set_orientation_from_matrix", [](const SingleBodyHandle& h, py::handle r) {
             const Mat3 rot = to_mat3(r, "rotation");
             check_finite_vec(rot.reshaped(), "rotation");
             if ((rot.transpose() * rot - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-6 || rot.determinant() < 0.0)
               throw py::value_error("rotation must be a proper rotation matrix (orthonormal, det +1)");
             const Quat q(rot);
             h.obj().set_orientation(Vec4(q.w(), q.x(), q.y(), q.z())); }, arg("rotation"),
           "Set the orientation from a (3, 3) rotation matrix, body to world.")
      .def("get_quaternion", [](const SingleBodyHandle& h) {
             const Quat& q = h.body().orientation;
             return to_numpy(Vec4(q.w(), q.x(), q.y(), q.z())); },
           "Orientation quaternion (w, x, y, z), body to world, shape (4,).")
      .def("get_rotation_matrix", [](const SingleBodyHandle& h) {
             return to_numpy(h.body().orientation.toRotationMatrix()); },
           "Rotation matrix, body to world, shape (3, 3).")
      // velocity
      .def("set_velocity", [](const SingleBodyHandle& h, py::handle lin, py::handle ang) {
             h.obj().set_velocity(to_vec3(lin, "linear_velocity"), to_vec3(ang, "angular_velocity")); },
           arg("linear"), arg("angular"),
           "Set the linear (m/s) and angular (rad/s) velocity, world frame. A STATIC body "
           "never moves: only zero is accepted (ValueError otherwise: make it KINEMATIC to move "
           "it).")
      .def("set_velocity", [](const SingleBodyHandle& h, double vx, double vy, double vz, double wx,
                              double wy, double wz) {
             h.obj().set_velocity(Vec3(vx, vy, vz), Vec3(wx, wy, wz)); },
           arg("vx"), arg("vy"), arg("vz"), arg("wx"), arg("wy"), arg("wz"))
      .def("set_linear_velocity", [](const SingleBodyHandle& h, py::handle v) {
             h.obj().set_velocity(to_vec3(v, "linear_velocity"), h.body().angular_velocity); },
           arg("linear"))
      .def("set_angular_velocity", [](const SingleBodyHandle& h, py::handle w) {
             h.obj().set_velocity(h.body().linear_velocity, to_vec3(w, "angular_velocity")); },
           arg("angular"))
      .def("get_linear_velocity", [](const SingleBodyHandle& h) { return to_numpy(h.body().linear_velocity); },
           "Linear velocity of the centre of mass, world frame (m/s), shape (3,).")
      .def("get_angular_velocity", [](const SingleBodyHandle& h) { return to_numpy(h.body().angular_velocity); },
           "Angular velocity, world frame (rad/s), shape (3,).")
      // forces, for the next step only
      .def("set_external_force", [](const SingleBodyHandle& h, py::handle f) {
             h.obj().set_external_force(to_vec3(f, "force")); }, arg("force"),
           "Apply a force (N, world frame) at the centre of mass during the next step only. "
           "Calls within one step add up.")
      .def("set_external_force_at", [](const SingleBodyHandle& h, py::handle f, py::handle p) {
             h.obj().set_external_force_at(to_vec3(f, "force"), to_vec3(p, "point")); },
           arg("force"), arg("point"),
           "Apply a force (N, world frame) at a world point (m) during the next step only.")
      .def("set_external_torque", [](const SingleBodyHandle& h, py::handle t) {
             h.obj().set_external_torque(to_vec3(t, "torque")); }, arg("torque"),
           "Apply a torque (N m, world frame) during the next step only.")
      // mass properties
      .def("get_mass", [](const SingleBodyHandle& h) { return h.body().mass; }, "Mass (kg).")
      .def("set_mass", [](const SingleBodyHandle& h, double mass) { h.obj().set_mass(mass); }, arg("mass"),
           "Set the mass (kg, finite, > 0). The inertia is left as it is.")
      .def("get_inertia_matrix_b", [](const SingleBodyHandle& h) { return to_numpy(h.body().inertia_b); },
           "Inertia about the centre of mass in the body frame (kg m^2), shape (3, 3).")
      .def("get_inertia_matrix_w", [](const SingleBodyHandle& h) {
             const Mat3 r = h.body().orientation.toRotationMatrix();
             return to_numpy(r * h.body().inertia_b * r.transpose()); },
           "Inertia about the centre of mass in the world frame (kg m^2), shape (3, 3).")
      .def("set_inertia", [](const SingleBodyHandle& h, py::handle inertia) {
             py::array a = py::array::ensure(inertia);
             if (a && a.ndim() == 1 && a.shape(0) != 3)
               throw py::value_error("inertia must have shape (3, 3), or (3,) for a diagonal, "
                                     "got shape (" + std::to_string(a.shape(0)) + ",)");
             if (a && a.ndim() == 1) h.obj().set_inertia(to_vec3(inertia, "inertia").asDiagonal());
             else h.obj().set_inertia(to_mat3(inertia, "inertia")); }, arg("inertia"),
           "Set the body-frame inertia about the centre of mass (kg m^2): a symmetric positive "
           "definite (3, 3) matrix, or its diagonal as shape (3,), whose principal moments "
           "satisfy I1 + I2 >= I3 (a real mass distribution; ValueError otherwise).")
      .def("get_body_type", [](const SingleBodyHandle& h) { return h.body().type; })
      .def("set_body_type", [](const SingleBodyHandle& h, BodyType t) { h.obj().set_body_type(t); },
           arg("body_type"),
           "STATIC, KINEMATIC or DYNAMIC (see BodyType). Switching to STATIC sets the linear and "
           "angular velocity to zero.")
      .def("set_linear_damping", [](const SingleBodyHandle& h, double c) { h.obj().set_linear_damping(c); },
           arg("damping"), "Linear velocity damping rate (1/s, >= 0), applied implicitly: v /= 1 + dt c.")
      .def("set_angular_damping", [](const SingleBodyHandle& h, py::handle c) {
             h.obj().set_angular_damping(to_vec3_or_scalar(c, "angular_damping")); }, arg("damping"),
           "Angular velocity damping rates about the body axes (1/s, >= 0): 3 numbers or one.")
      .def("get_linear_damping", [](const SingleBodyHandle& h) { return h.body().linear_damping; })
      .def("get_angular_damping", [](const SingleBodyHandle& h) { return to_numpy(h.body().angular_damping); })
      // energy and momentum
      .def("get_kinetic_energy", [](const SingleBodyHandle& h) { return body_kinetic_energy(h.body()); },
           "Kinetic energy (J).")
      .def("get_potential_energy", [](const SingleBodyHandle& h, py::handle g) {
             const Vec3 grav = to_finite_vec3(g, "gravity");
             return -h.body().mass * grav.dot(h.body().position); }, arg("gravity"),
           "Gravitational potential energy -m g.x (J) for the gravity vector g (m/s^2).")
      .def("get_energy", [](const SingleBodyHandle& h, py::handle g) {
             const Vec3 grav = to_finite_vec3(g, "gravity");
             return body_kinetic_energy(h.body()) - h.body().mass * grav.dot(h.body().position); },
           arg("gravity"), "Kinetic plus gravitational potential energy (J).")
      .def("get_linear_momentum", [](const SingleBodyHandle& h) {
             return to_numpy(h.body().mass * h.body().linear_velocity); }, "m v (kg m/s), world frame.")
      .def("get_angular_momentum", [](const SingleBodyHandle& h) {
             return to_numpy(body_angular_momentum(h.body())); },
           "Angular momentum about the centre of mass (kg m^2/s), world frame.")
      // collision properties (read here; set through the world)
      .def("get_collision_group", [](const SingleBodyHandle& h) { return h.obj().collision().group; })
      .def("get_collision_mask", [](const SingleBodyHandle& h) { return h.obj().collision().mask; })
      .def("get_material", [](const SingleBodyHandle& h) { return h.obj().collision().material; });

  py::class_<SphereHandle, SingleBodyHandle>(m, "Sphere", "A sphere.")
      .def("get_radius", [](const SphereHandle& h) { return h.obj().shape().radius; }, "Radius (m).");
  py::class_<BoxHandle, SingleBodyHandle>(m, "Box", "A box centred at its centre of mass.")
      .def("get_dim", [](const BoxHandle& h) { return to_numpy(2.0 * h.obj().shape().half_extents); },
           "Full lengths along the body x, y, z axes (m), shape (3,).");
  py::class_<CylinderHandle, SingleBodyHandle>(m, "Cylinder", "A cylinder with its axis along body z.")
      .def("get_radius", [](const CylinderHandle& h) { return h.obj().shape().radius; }, "Radius (m).")
      .def("get_height", [](const CylinderHandle& h) { return h.obj().shape().height; }, "Full height (m).");
  py::class_<CapsuleHandle, SingleBodyHandle>(m, "Capsule", "A capsule with its axis along body z.")
      .def("get_radius", [](const CapsuleHandle& h) { return h.obj().shape().radius; }, "Radius (m).")
      .def("get_height", [](const CapsuleHandle& h) { return h.obj().shape().height; },
           "Distance between the hemisphere centres (m).");
  py::class_<GroundHandle, SingleBodyHandle>(m, "Ground", "The static half space below z = height.")
      .def("get_height", [](const GroundHandle& h) { return h.obj().shape().height; }, "Plane height (m).");
}

}  // namespace

void bind_objects(py::module_& m) { bind_object(m); }

}  // namespace torsion::bindings
