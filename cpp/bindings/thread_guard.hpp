// One World, several threads: every Python call on a World, its objects, its robots and the other
// classes that reach into a world (its contact solver view, a ray hit's object) runs inside a use
// of that world (WorldUse, world_state.hpp), taken with the GIL held when the call starts and
// released when it returns. A call made while another thread holds world.lock(), or while
// another thread is inside a conflicting call (a step runs with the GIL released), raises
// RuntimeError instead of reading or writing memory the other thread is changing.
//
// The mechanism is applied at registration, not written into each binding: once every class is
// bound, install() visits the classes declared world-bound (declare_world_bound) and their
// subclasses and replaces the implementation of every pybind11 method and property accessor
// with a trampoline that takes the use, then calls the original. A method added later to such a
// class is therefore guarded without a line of its own, exclusively by default (the safe
// choice: it conflicts with any other call on the world from another thread). Tables in
// thread_guard.cpp name the methods that only read (shared use: several threads at once, e.g.
// ray tests) and the few that are safe without any use (the lock itself, immutable values).
// Raw CPython fast-call methods (fastcall.hpp) cannot be wrapped this way; they take a CallUse in
// their body and say so with declare_self_guarded. _core._thread_guard() reports what every
// method got, and lists methods of world-bound classes that are neither wrapped nor declared, so
// that tests/world/test_threads.py fails for a method that escapes.
#pragma once

#include <pybind11/pybind11.h>

#include "contact/solve_interrupt.hpp"
#include "world/world.hpp"

namespace torsion::bindings::thread_guard {

namespace py = pybind11;

enum class Use { kExclusive, kShared, kFree };

// The use of a world by one call: std::logic_error (RuntimeError) naming `what` when another
// thread holds the world's lock or is in a conflicting call. Nested inside this thread's own
// exclusive use it takes nothing. Construct it with the GIL held.
class CallUse {
 public:
  CallUse(World& world, Use use, const char* what);
  ~CallUse() { world_.use().end(taken_); }
  CallUse(const CallUse&) = delete;
  CallUse& operator=(const CallUse&) = delete;

 private:
  World& world_;
  WorldUse::Taken taken_ = WorldUse::Taken::kNested;
};

namespace detail {
using WorldOf = World* (*)(PyObject* self);
void declare_world_bound(py::handle cls, WorldOf world_of);
// the C++ object of a pybind11 instance (nullptr if its __init__ never ran)
inline void* value_of(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  return inst->get_value_and_holder().value_ptr();
}
}  // namespace detail

// `cls` is the pybind11 class of T, whose member `world` (a std::shared_ptr<World>, possibly
// null: then calls are not guarded) is the world its methods reach. Its subclasses inherit it.
template <class T>
void declare_world_bound(py::handle cls) {
  detail::declare_world_bound(cls, [](PyObject* self) -> World* {
    void* v = detail::value_of(self);
    return v ? static_cast<T*>(v)->world.get() : nullptr;
  });
}
// World itself
void declare_world_class(py::handle cls);

// the method `name` of `cls` is a raw fast-call method whose body takes a CallUse of `use`
void declare_self_guarded(py::handle cls, const char* name, Use use);

// wraps every method of every world-bound class (once, after every bind_*, before
// guard_classes) and adds _core._thread_guard()
void install(py::module_& m);

// Ctrl-C during a step (run with the GIL released): while one of these lives, the world's
// contact solves take the GIL every SolveInterrupt::every rows swept and check for signals, as
// the IK's compute calls do every 1024 iterations. On a pending KeyboardInterrupt (left set in
// the interpreter) the solve ends after its current sweeps, the step completes, and the caller
// stops stepping and raises it (interrupted()). Results are unchanged while nothing is pending.
class StepSignals {
 public:
  explicit StepSignals(World& world);
  ~StepSignals();
  bool interrupted() const { return interrupt_.stopped; }
  StepSignals(const StepSignals&) = delete;
  StepSignals& operator=(const StepSignals&) = delete;

 private:
  World& world_;
  SolveInterrupt interrupt_;
};

}  // namespace torsion::bindings::thread_guard
