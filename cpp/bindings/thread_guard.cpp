// The world use of every Python call (see thread_guard.hpp): the registry of world-bound
// classes, the tables of methods that are shared or free, the trampoline and install().
#include "bindings/thread_guard.hpp"

#include <pybind11/stl.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "bindings/handles.hpp"

namespace torsion::bindings::thread_guard {

namespace {

// Methods that only read the world and may run on several threads at once (shared use). Each
// was checked to write nothing the world holds, caches included, GIL-released part and all:
// the ray tests read the cached ray scene (built under its own mutex) or compute a robot's
// stale kinematics in a copy (collect_ray_cast_bodies); the dynamics queries compute on a
// per-thread copy of the robot's data (query_data in bind_articulated.cpp).
const std::set<std::string> kShared = {
    "World.ray_test",
    "World.ray_test_batch",
    "World.ray_test_lidar",
    "ArticulatedSystem.get_nonlinearities",
    "ArticulatedSystem.get_inverse_mass_matrix",
    "ArticulatedSystem.compute_forward_dynamics",
    "ArticulatedSystem.compute_inverse_dynamics",
    "ArticulatedSystem.benchmark_frame_jacobian",
    "ArticulatedSystem.benchmark_mass_matrix",
};

// Methods safe without any use, and why:
// - the lock: it is what threads synchronise with (it has its own mutex; lock() waits for it
//   with the GIL released, which a use would turn into a refusal);
// - get_lifetime_identity: set when the World is made, never written again;
// - a RayHit's values: copies taken when the ray was cast (only `object` reads the world);
// - a handle's __eq__ and __hash__: the handle's own world pointer and id (handles are dict
//   keys; a lookup from another thread must not fail while the world steps).
const std::set<std::string> kFree = {
    "Object.__eq__",      "Object.__hash__",
    "World.lock",         "World.lock_mutex",      "World.try_lock",
    "World.unlock",       "World.unlock_mutex",    "World.is_locked",
    "World.get_lifetime_identity",
    "RayHit.position",    "RayHit.normal",         "RayHit.distance",
    "RayHit.object_id",   "RayHit.object_index",   "RayHit.local_index",
    "RayHit.__repr__",
};

struct BoundClass {
  PyTypeObject* type;
  detail::WorldOf world_of;
};

std::vector<BoundClass>& bound_classes() {
  static std::vector<BoundClass> v;
  return v;
}

// "Class.method" -> the use its body takes (fast-call methods)
std::map<std::string, Use>& self_guarded() {
  static std::map<std::string, Use> m;
  return m;
}

struct Wrapped {
  py::handle (*impl)(py::detail::function_call&);
  PyTypeObject* type;  // the class the method is defined on (self's type is checked against it)
  detail::WorldOf world_of;
  Use use;
  std::string what;  // "World.set_gravity()", for the error
};

// by function record; filled once by install() (with the GIL held), only read afterwards
std::unordered_map<const py::detail::function_record*, Wrapped>& wrapped() {
  static std::unordered_map<const py::detail::function_record*, Wrapped> m;
  return m;
}

// "Class.method" -> what it got: exclusive, shared, free, self-exclusive, self-shared, static,
// unguarded (for _core._thread_guard())
std::map<std::string, std::string>& report() {
  static std::map<std::string, std::string> m;
  return m;
}

const char* use_name(Use u) {
  switch (u) {
    case Use::kExclusive: return "exclusive";
    case Use::kShared: return "shared";
    case Use::kFree: return "free";
  }
  return "?";
}

// Allocation failure is not one of the errors torsion promises (MemoryError): a call whose
// result or scratch does not fit raises RuntimeError naming the call. Every size a caller
// controls is capped with a ValueError first (rays, pixels); this is the backstop.
[[noreturn]] void throw_out_of_memory(const std::string& what) {
  throw std::runtime_error(what + ": not enough memory for this call (the allocation of its "
                           "result or scratch failed); ask for less (fewer rays, pixels, "
                           "iterations) or free memory");
}

// Every wrapped method's implementation: the original one, inside the use of self's world.
// pybind11's dispatcher calls it with the GIL held and call.args[0] = self before any argument
// is converted; a self of the wrong type, or one whose __init__ never ran or that has no world,
// goes straight to the original (which raises its usual TypeError).
py::handle trampoline(py::detail::function_call& call) {
  const Wrapped& w = wrapped().at(&call.func);
  if (call.args.size() == 0 || !PyObject_TypeCheck(call.args[0].ptr(), w.type)) return w.impl(call);
  World* world = w.world_of(call.args[0].ptr());
  if (!world) return w.impl(call);
  CallUse use(*world, w.use, w.what.c_str());
  try {
    return w.impl(call);
  } catch (const std::bad_alloc&) {
    throw_out_of_memory(w.what);
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_MemoryError)) throw_out_of_memory(w.what);
    throw;
  }
}

Use use_of(const std::string& key) {
  if (kShared.count(key)) return Use::kShared;
  if (kFree.count(key)) return Use::kFree;
  return Use::kExclusive;
}

void wrap_function(py::handle fn, const std::string& key, PyTypeObject* type,
                   detail::WorldOf world_of) {
  py::handle f = py::detail::get_function(fn);
  if (!f || !PyCFunction_Check(f.ptr())) return;
  PyObject* self = PyCFunction_GET_SELF(f.ptr());
  py::detail::function_record* rec =
      self ? py::detail::function_record_ptr_from_PyObject(self) : nullptr;
  if (!rec) return;
  const Use use = use_of(key);
  for (; rec; rec = rec->next) {
    if (rec->is_constructor || rec->impl == &trampoline) continue;
    wrapped()[rec] = Wrapped{rec->impl, type, world_of, use, key + "()"};
    rec->impl = &trampoline;
  }
  report()[key] = use_name(use);
}

const BoundClass* bound_class_of(py::handle cls) {
  for (py::handle base : py::reinterpret_borrow<py::tuple>(
           reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_mro))
    for (const BoundClass& b : bound_classes())
      if (reinterpret_cast<PyObject*>(b.type) == base.ptr()) return &b;
  return nullptr;
}

void wrap_class(py::handle cls, const BoundClass& bound) {
  const std::string cls_name = py::str(cls.attr("__qualname__")).cast<std::string>();
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  const py::dict d(cls.attr("__dict__"));  // a copy (the class's own is a mappingproxy)
  for (auto item : d) {
    const std::string name = py::str(item.first).cast<std::string>();
    const std::string key = cls_name + "." + name;
    py::handle v = item.second;
    if (name == "__init__" || name == "__new__") continue;
    if (PyObject_TypeCheck(v.ptr(), &PyProperty_Type)) {
      for (const char* acc : {"fget", "fset"}) {
        py::object f = v.attr(acc);
        if (!f.is_none()) wrap_function(f, key, type, bound.world_of);
      }
      if (!report().count(key)) report()[key] = "unguarded";
    } else if (Py_TYPE(v.ptr()) == &PyStaticMethod_Type) {
      report()[key] = "static";  // no instance, so no world of its own
    } else if (Py_TYPE(v.ptr()) == &PyMethodDescr_Type) {
      const auto it = self_guarded().find(key);
      report()[key] = it == self_guarded().end() ? "unguarded"
                                                 : std::string("self-") + use_name(it->second);
    } else if (Py_TYPE(v.ptr()) == &PyInstanceMethod_Type || PyCFunction_Check(v.ptr())) {
      wrap_function(v, key, type, bound.world_of);
      if (!report().count(key)) report()[key] = "unguarded";
    }
  }
}

// every class of torsion._core reachable from `scope`
void collect_classes(py::handle scope, std::set<PyObject*>& seen, std::vector<py::handle>& out) {
  if (!seen.insert(scope.ptr()).second) return;
  const py::dict d(scope.attr("__dict__"));
  for (auto item : d) {
    py::handle v = item.second;
    if (PyModule_Check(v.ptr())) {
      const std::string name = PyModule_GetName(v.ptr());
      if (name.rfind("torsion._core", 0) == 0) collect_classes(v, seen, out);
    } else if (PyType_Check(v.ptr()) && py::hasattr(v, "__module__")) {
      const std::string mod = py::str(v.attr("__module__")).cast<std::string>();
      if (mod.rfind("torsion._core", 0) != 0 || seen.count(v.ptr())) continue;
      out.push_back(v);
      collect_classes(v, seen, out);
    }
  }
}

}  // namespace

CallUse::CallUse(World& world, Use use, const char* what) : world_(world) {
  if (use == Use::kFree) return;  // taken_ stays kNested: nothing to release
  if (world.world_lock().held_by_another_thread())
    throw std::logic_error(std::string(what) +
                           ": another thread holds this World's lock; a World shared between "
                           "threads must be used under `with world.lock():` by every thread");
  taken_ = use == Use::kExclusive ? world.use().begin_exclusive() : world.use().begin_shared();
  if (taken_ == WorldUse::Taken::kRefused) throw_world_in_use(what);
}

namespace detail {
void declare_world_bound(py::handle cls, WorldOf world_of) {
  bound_classes().push_back({reinterpret_cast<PyTypeObject*>(cls.ptr()), world_of});
}
}  // namespace detail

void declare_world_class(py::handle cls) {
  detail::declare_world_bound(cls, [](PyObject* self) -> World* {
    return static_cast<World*>(detail::value_of(self));
  });
}

void declare_self_guarded(py::handle cls, const char* name, Use use) {
  self_guarded()[py::str(cls.attr("__qualname__")).cast<std::string>() + "." + name] = use;
}

void install(py::module_& m) {
  declare_world_class(m.attr("World"));
  declare_world_bound<ObjectHandle>(m.attr("Object"));
  std::set<PyObject*> seen;
  std::vector<py::handle> classes;
  collect_classes(m, seen, classes);
  for (py::handle cls : classes)
    if (const BoundClass* b = bound_class_of(cls)) wrap_class(cls, *b);
  m.def("_thread_guard", [] { return report(); },
        "What every method of the classes that reach into a World takes when called: "
        "'exclusive', 'shared' (read-only, several threads at once), 'free' (safe without "
        "one), 'self-exclusive' / 'self-shared' (a fast-call method that takes it in its "
        "body), 'static', or 'unguarded' (a method that escaped: a bug). Keys "
        "'Class.method'; classes not listed never reach a World.");
}

}  // namespace torsion::bindings::thread_guard

namespace torsion::bindings::thread_guard {

namespace {
bool poll_signals(void*) {
  py::gil_scoped_acquire acquire;
  return PyErr_CheckSignals() != 0;
}
}  // namespace

StepSignals::StepSignals(World& world) : world_(world) {
  interrupt_.poll = &poll_signals;
  world_.contact_state().solver.set_interrupt(&interrupt_);
  world_.contact_state().contact_space.set_interrupt(&interrupt_);
}

StepSignals::~StepSignals() {
  world_.contact_state().solver.set_interrupt(nullptr);
  world_.contact_state().contact_space.set_interrupt(nullptr);
}

}  // namespace torsion::bindings::thread_guard
