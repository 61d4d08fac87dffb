// torsion.World: time, gravity, objects, stepping.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>
#include <optional>

#include "bindings/articulated_args.hpp"
#include "bindings/convert.hpp"
#include "bindings/fastcall.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

// the object behind a handle, checked to belong to `world`
Object& resolve(const WorldPtr& world, const ObjectHandle& h, const char* arg_name) {
  if (h.world != world)
    throw py::value_error(std::string(arg_name) + " belongs to another World");
  return h.get();
}

// a Python int as an object id; none when no object can have it (negative, or past 2**64 - 1)
std::optional<ObjectId> object_id_of(const py::int_& id) {
  if (id < py::int_(0) || id > py::int_(std::numeric_limits<ObjectId>::max())) return std::nullopt;
  return id.cast<ObjectId>();
}

// run `steps` steps with the GIL released, in chunks so that Ctrl-C interrupts a long run (and,
// inside a step, a long contact solve: thread_guard::StepSignals). The caller holds the world's
// use (the fast-call method's CallUse).
void integrate_steps(World& world, std::int64_t steps) {
  if (steps < 0) throw py::value_error("steps must be >= 0, got " + std::to_string(steps));
  if (world.is_mid_step())
    throw std::logic_error("integrate() is not allowed between integrate1() and integrate2()");
  constexpr std::int64_t kChunk = 4096;
  for (std::int64_t done = 0; done < steps;) {
    const std::int64_t n = std::min(kChunk, steps - done);
    bool interrupted = false;
    {
      ExclusiveWorldUse use(world.use(), "integrate()");  // taken with the GIL held
      thread_guard::StepSignals signals(world);
      {
        py::gil_scoped_release release;
        // step by step: an interrupted solve ends its step, and no further step starts
        for (std::int64_t k = 0; k < n && !signals.interrupted(); ++k) world.integrate();
      }
      interrupted = signals.interrupted();
      // a robot stepped from outside its joint limits (only a call's first step can find one),
      // read while the world is still this call's
      if (done == 0 && !interrupted) warn_start_limit_violations(world);
    }
    if (interrupted) throw py::error_already_set();  // the KeyboardInterrupt the poll left set
    done += n;
    if (done < steps && PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

// World.integrate(steps=1) as a raw CPython fast-call method (see fastcall.hpp): a control loop
// calls it once per step, and pybind11's overload dispatch cost a noticeable part of a step.
// Accepts what pybind11's two overloads accepted: nothing, or an int (not a float) as `steps`.
PyObject* world_integrate(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) {
  return fastcall::guarded([&]() -> PyObject* {
    static const char* const kNames[] = {"steps"};
    static const fastcall::Signature kSig{"integrate", kNames, 1, 0};
    PyObject* a[1] = {nullptr};
    fastcall::parse_arguments(kSig, args, nargs, kwnames, a);
    std::int64_t steps = 1;
    if (a[0]) {
      if (PyFloat_Check(a[0]) || !PyIndex_Check(a[0]))
        throw py::type_error("integrate(): steps must be an int, got " +
                             std::string(Py_TYPE(a[0])->tp_name));
      int overflow = 0;
      const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(a[0]));
      if (!index) throw py::error_already_set();
      steps = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
      if (overflow != 0) throw py::type_error("integrate(): steps must fit in a signed 64-bit int");
      if (steps == -1 && PyErr_Occurred()) throw py::error_already_set();
    }
    World& world = fastcall::self_as<World>(self);
    thread_guard::CallUse use(world, thread_guard::Use::kExclusive, "World.integrate()");
    integrate_steps(world, steps);
    Py_RETURN_NONE;
  });
}

PyMethodDef kIntegrateDef = {
    "integrate", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&world_integrate)),
    METH_FASTCALL | METH_KEYWORDS,
    // pybind11's docstring of the two overloads it replaces (the stubs are generated from it)
    "integrate(*args, **kwargs)\nOverloaded function.\n\n"
    "1. integrate(self: torsion._core.World) -> None\n\n"
    "Advance one time step (integrate1() then integrate2()), GIL released.\n\n"
    "2. integrate(self: torsion._core.World, steps: typing.SupportsInt | typing.SupportsIndex) "
    "-> None\n\n"
    "Advance `steps` time steps in one call with the GIL released (Ctrl-C interrupts between "
    "chunks of steps).\n"};

}  // namespace

// the class only, early: every class bound after it can name World (world_methods.hpp)
void bind_world(py::module_& m) {
  py::class_<World, WorldPtr>(
      m, "World",
      "The simulation world: owns every object and advances them in time (RaiSim's World). "
      "Units are SI; gravity defaults to (0, 0, -9.81) m/s^2 and the time step to 1 ms.");
}

void world_methods_core(WorldClass& world) {
  world
      .def(py::init([]() { return std::make_shared<World>(); }))
      // time and gravity
      .def("set_time_step", &World::set_time_step, arg("dt"),
           "Set the time step (s); ValueError unless finite and > 0.")
      .def("get_time_step", &World::time_step, "The time step (s).")
      .def("get_world_time", &World::world_time,
           "Total integrated time (s), advanced by the time step at every integrate2().")
      .def("set_world_time", &World::set_world_time, arg("time"), "Set the world time (s).")
      .def("set_gravity", [](World& w, py::handle g) { w.set_gravity(to_vec3(g, "gravity")); },
           arg("gravity"), "Set gravity (m/s^2, world frame), shape (3,).")
      .def("get_gravity", [](const World& w) { return to_numpy(w.gravity()); },
           "Gravity (m/s^2, world frame), a fresh array of shape (3,).")
      // adding objects
      .def("add_sphere", [](const WorldPtr& w, double radius, double mass, const std::string& material,
                            py::handle group, py::handle mask) {
             auto& o = w->add_sphere(radius, mass, material, to_group(group, "collision_group"),
                                     to_group(mask, "collision_mask"));
             return make_handle(w, o); },
           arg("radius"), arg("mass"), arg("material") = "default", arg("collision_group") = 1,
           arg("collision_mask") = -1,
           "Add a dynamic sphere (radius m, mass kg) at the origin. Returns a Sphere handle.")
      .def("add_box", [](const WorldPtr& w, double x, double y, double z, double mass,
                         const std::string& material, py::handle group, py::handle mask) {
             auto& o = w->add_box(x, y, z, mass, material, to_group(group, "collision_group"),
                                  to_group(mask, "collision_mask"));
             return make_handle(w, o); },
           arg("x_length"), arg("y_length"), arg("z_length"), arg("mass"),
           arg("material") = "default", arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a dynamic box of full lengths x, y, z (m) and mass (kg) at the origin.")
      .def("add_cylinder", [](const WorldPtr& w, double radius, double height, double mass,
                              const std::string& material, py::handle group, py::handle mask) {
             auto& o = w->add_cylinder(radius, height, mass, material,
                                       to_group(group, "collision_group"), to_group(mask, "collision_mask"));
             return make_handle(w, o); },
           arg("radius"), arg("height"), arg("mass"), arg("material") = "default",
           arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a dynamic cylinder (axis along body z; radius and full height in m).")
      .def("add_capsule", [](const WorldPtr& w, double radius, double height, double mass,
                             const std::string& material, py::handle group, py::handle mask) {
             auto& o = w->add_capsule(radius, height, mass, material,
                                      to_group(group, "collision_group"), to_group(mask, "collision_mask"));
             return make_handle(w, o); },
           arg("radius"), arg("height"), arg("mass"), arg("material") = "default",
           arg("collision_group") = 1, arg("collision_mask") = -1,
           "Add a dynamic capsule (axis along body z; height is the distance between the "
           "hemisphere centres, m).")
      .def("add_ground", [](const WorldPtr& w, double z_height, const std::string& material,
                            py::handle mask) {
             auto& o = w->add_ground(z_height, material, to_group(mask, "collision_mask"));
             return make_handle(w, o); },
           arg("z_height") = 0.0, arg("material") = "default", arg("collision_mask") = -1,
           "Add an infinite static ground: the half space below z = z_height (m). Its collision "
           "group is the static group (bit 63).")
      // finding and removing objects
      .def("get_object", [](const WorldPtr& w, py::handle key) -> py::object {
             if (const auto i = to_index(key, w->object_count(), "object"))
               return make_handle(w, w->object_at(*i));
             if (py::isinstance<py::str>(key)) {
               Object* o = w->find_object(key.cast<std::string>());
               return o ? make_handle(w, *o) : py::none();
             }
             throw py::value_error("name_or_index must be a str (object name) or an int (world index)");
           },
           arg("name_or_index"),
           "The object with this name (the first one; None if there is none) or at this world "
           "index (IndexError outside [0, get_object_count())).")
      // ids as any Python int: one that no object can have (negative, or past 2**64) names no
      // object, as an id that no longer exists does (pybind11 refused -1 with a TypeError)
      .def("get_object_by_id", [](const WorldPtr& w, const py::int_& id) -> py::object {
             const std::optional<ObjectId> i = object_id_of(id);
             Object* o = i ? w->find_object(*i) : nullptr;
             return o ? make_handle(w, *o) : py::none(); },
           arg("id"), "The object with this stable id, or None if it no longer exists.")
      .def("is_object_alive", [](const WorldPtr& w, const py::int_& id) {
             const std::optional<ObjectId> i = object_id_of(id);
             return i.has_value() && w->is_object_alive(*i); }, arg("id"))
      .def("get_object_count", &World::object_count)
      .def("get_object_list", [](const WorldPtr& w) {
             py::list out;
             for (const auto& o : w->objects()) out.append(make_handle(w, *o));
             return out; },
           "Handles of every object, in world-index order (a new list).")
      .def("get_configuration_number", &World::configuration_number,
           "A number that changes every time an object is added or removed.")
      .def("remove_object", [](const WorldPtr& w, const ObjectHandle& h) {
             Object& o = resolve(w, h, "obj");
             w->remove_object(o.id()); },
           arg("obj"),
           "Remove an object. The last object takes its world index; its id is never reused; "
           "its handles raise RemovedObjectError from now on. RuntimeError mid-step.")
      // stepping
      // integrate(steps=1): the fast-call method kIntegrateDef, installed below
      .def("integrate1", [](World& w) {
             ExclusiveWorldUse use(w.use(), "integrate1()");
             thread_guard::StepSignals signals(w);
             {
               py::gil_scoped_release r;
               w.integrate1();
             }
             if (signals.interrupted()) throw py::error_already_set();
             warn_start_limit_violations(w); },
           "First half of a step: kinematics and (later) collision detection and contact "
           "problems. RuntimeError if called twice without integrate2().")
      .def("integrate2", [](World& w) {
             ExclusiveWorldUse use(w.use(), "integrate2()");
             thread_guard::StepSignals signals(w);
             {
               py::gil_scoped_release r;
               w.integrate2();
             }
             if (signals.interrupted()) throw py::error_already_set(); },
           "Second half of a step: forces, velocity and position update, time += dt. "
           "RuntimeError without a preceding integrate1().")
      .def("is_mid_step", &World::is_mid_step, "True between integrate1() and integrate2().")
      .def("get_warnings", [](const World& w) {
             py::dict d;
             d["non_finite_state"] = w.warnings().non_finite_state;
             d["last_object_id"] = w.warnings().last_object;
             d["last_time"] = w.warnings().last_time;
             return d; },
           "Numerical trouble counted during steps: non_finite_state (bodies whose state became "
           "NaN/inf and were reset to their pose at the start of that step, at rest), the id of "
           "the last such object, and the world time it happened.")
      .def("set_step_profile_enabled", [](World& w, bool enabled) {
             w.set_step_profile_enabled(enabled); },
           arg("enabled"),
           "Time every stage of every step from now on (off by default: a profiled step reads a "
           "steady clock about 25 times). Enabling or disabling clears the profile. "
           "RuntimeError mid-step.")
      .def("reset_step_profile", &World::reset_step_profile,
           "Start the profile's running sums (total, step_total, steps) again from zero.")
      .def("get_step_profile", [](const World& w) {
             const StepProfile& p = w.step_profile();
             py::dict last, total;
             for (std::size_t k = 0; k < kStepStageCount; ++k) {
               const char* name = step_stage_name(static_cast<StepStage>(k));
               last[name] = 1e-9 * static_cast<double>(p.last_ns[k]);
               total[name] = 1e-9 * static_cast<double>(p.total_ns[k]);
             }
             py::dict d;
             d["enabled"] = p.enabled;
             d["steps"] = p.steps;
             d["step"] = 1e-9 * static_cast<double>(p.last_step_ns);
             d["step_total"] = 1e-9 * static_cast<double>(p.total_step_ns);
             d["last"] = last;
             d["total"] = total;
             return d; },
           "The step profile (as Box2D's b2Profile, MuJoCo's timers), a new dict: enabled; "
           "step, the last step's time (s: integrate1() plus integrate2()); last, each stage's "
           "time in that step (s, a dict in step order: classify_objects, "
           "remember_start_poses, wake_requests, kinematics, articulated_dynamics_terms, "
           "collision_detection, wake_on_contact, build_contact_problems, granular, free_velocities, "
           "gather_free_velocities, select_contact_space, joint_rows, delassus_blocks, "
           "starting_impulses, solve, effort_saturations, write_back_velocities, "
           "store_warm_start, integrate_positions, correct_positions, correct_joint_limits, "
           "clear_external_forces, update_sleeping, recover_non_finite, advance_time); steps, "
           "the profiled steps since enabled or reset_step_profile(); total and step_total, the "
           "same times summed over them. Each stage's time runs from the end of the stage "
           "before it, so the stages add up to the step (to a nanosecond); a stage run several "
           "times in a step (collision detection after a sleeping island woke, the solve's "
           "stages when clamped efforts solve again) adds up. All zero until "
           "set_step_profile_enabled(True) and a step.");
  fastcall::install_method(world, &kIntegrateDef);
  thread_guard::declare_self_guarded(world, "integrate", thread_guard::Use::kExclusive);
}

// The one place that defines World's methods: one helper per area, in this fixed order
// (world_methods.hpp says why the order matters and what each adds).
void world_methods_soil(WorldClass& world);  // bind_soil.cpp: add_deformable_terrain

void bind_world_methods(py::module_& m) {
  auto world = py::reinterpret_borrow<WorldClass>(m.attr("World"));
  world_methods_core(world);
  world_methods_articulated(world);
  world_methods_query(world);
  world_methods_collision(m, world);
  world_methods_contact(world);
  world_methods_mesh(world);
  world_methods_terrain(world);
  world_methods_mjcf(world);
  world_methods_state(world);
  world_methods_batch(world);
  world_methods_wires(world);
  world_methods_tendons(world);
  world_methods_deformable(world);
  world_methods_granular(world);
  world_methods_soil(world);
}

}  // namespace torsion::bindings
