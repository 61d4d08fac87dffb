// Python-side handles to world objects. A handle holds its World (shared ownership, so the world
// outlives every handle) and the object's stable id; every call resolves the id and raises
// torsion.RemovedObjectError (core/errors.hpp) once the object is gone. A handle never holds a
// pointer into the world, so it can never touch freed memory.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "collision/manifold.hpp"
#include "core/errors.hpp"
#include "geometry/pose.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"

namespace torsion::bindings {

namespace py = pybind11;

using torsion::RemovedObjectError;  // core/errors.hpp: one type for every dead handle

struct ObjectHandle {
  std::shared_ptr<World> world;
  ObjectId id = 0;

  Object& get() const {
    if (!world) throw py::type_error("this object handle is not initialised (it has no World)");
    Object* o = world->find_object(id);
    if (!o)
      throw RemovedObjectError("object id " + std::to_string(id) +
                               " has been removed from its world; this handle can no longer be used");
    return *o;
  }
};

struct SingleBodyHandle : ObjectHandle {
  SingleBodyObject& obj() const { return static_cast<SingleBodyObject&>(get()); }
  RigidBody& body() const { return obj().body(); }
};
struct SphereHandle : SingleBodyHandle {};
struct BoxHandle : SingleBodyHandle {};
struct CylinderHandle : SingleBodyHandle {};
struct CapsuleHandle : SingleBodyHandle {};
struct GroundHandle : SingleBodyHandle {};
struct HeightMapHandle : SingleBodyHandle {};  // bound in bind_terrain.cpp
struct MeshHandle : SingleBodyHandle {};      // bind_mesh.cpp
struct CompoundHandle : SingleBodyHandle {};  // bind_mesh.cpp
struct ArticulatedSystemHandle : ObjectHandle {
  ArticulatedSystem& obj() const { return static_cast<ArticulatedSystem&>(get()); }
};

// the handle of the right Python class (Sphere, Box, ...) for an object of `world`
py::object make_handle(const std::shared_ptr<World>& world, const Object& obj);

void bind_objects(py::module_& m);
void bind_world(py::module_& m);  // the World class alone; its methods: world_methods.hpp
void bind_articulated(py::module_& m);  // after bind_world
void bind_articulated_control(py::module_& m);  // after bind_articulated (fast-call methods)
void bind_query(py::module_& m);
void bind_ik(py::module_& m);
void bind_collision(py::module_& m);  // after bind_objects and bind_world
void bind_contact(py::module_& m);
void bind_mesh(py::module_& m);  // after bind_collision (adds to Shape)
void bind_terrain(py::module_& m);  // after bind_collision (uses PAIR_CONTACT_DTYPE)
void bind_mjcf(py::module_& m);     // after bind_articulated
// MJCF into `world` (bind_mjcf.cpp): MJCFWarning for what was assumed or ignored; returns the
// articulated systems (handles), in file order
py::list load_mjcf_into(const std::shared_ptr<World>& world, const std::string& path,
                        bool ignore_unsupported);

// shared by bind_collision.cpp (which defines them) and bind_terrain.cpp
// a pose from a position (3,) and a quaternion (w, x, y, z), normalised; ValueError naming
// pos_name / quat_name for a bad shape, a non-finite value or a zero quaternion
Pose to_pose(py::handle position, py::handle quaternion, const char* pos_name,
             const char* quat_name);
// a manifold as a PAIR_CONTACT_DTYPE structured array (a copy)
py::array manifold_records(const py::module_& m, const Manifold& man);
void bind_state(py::module_& m);  // after bind_world
void bind_wires(py::module_& m);  // after bind_world and bind_objects (bind_wires.cpp)
// every class above: TypeError for an instance whose __init__ never ran, and pickling at every
// protocol (or TypeError) instead of an abort (class_guards.cpp); called after every bind_*
void guard_classes(py::module_& m);

}  // namespace torsion::bindings
