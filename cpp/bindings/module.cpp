// torsion._core: the compiled core. python/torsion/__init__.py re-exports it.
#include <pybind11/pybind11.h>

#include <cstring>
#include <new>
#include <stdexcept>

#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "bindings/world_methods.hpp"

namespace py = pybind11;

namespace torsion::bindings {
void bind_batch(py::module_& m);    // bind_batch.cpp: WorldBatch, ArticulatedView
void bind_sensors(py::module_& m);  // bind_sensors.cpp: the HAL bridge's plans
void bind_granular(py::module_& m);  // bind_granular.cpp: GranularMaterial, GranularSystem
void bind_deformable(py::module_& m);  // bind_deformable.cpp: cloth and solids
void bind_tendons(py::module_& m);  // bind_tendons.cpp: tendons and tendon couplings
void bind_soil(py::module_& m);  // bind_soil.cpp: DeformableTerrain and its Material
}  // namespace torsion::bindings

namespace {

// Sets the Python error `type` with `what` decoded as UTF-8, bytes that are not UTF-8 written
// \xNN. pybind11 decodes a message strictly: one quoting a file name that is not UTF-8 (a missing
// b"/tmp/missing_\xff.urdf") raised UnicodeDecodeError instead of the error it described.
// Returns false (nothing set) when `what` is UTF-8, leaving the message to pybind11.
bool set_error_lossless(PyObject* type, const char* what) {
  const auto len = static_cast<Py_ssize_t>(std::strlen(what));
  PyObject* strict = PyUnicode_DecodeUTF8(what, len, nullptr);
  if (strict) {
    Py_DECREF(strict);
    return false;
  }
  PyErr_Clear();
  PyObject* msg = PyUnicode_DecodeUTF8(what, len, "backslashreplace");
  if (!msg) return false;
  PyErr_SetObject(type, msg);
  Py_DECREF(msg);
  return true;
}

// The translations pybind11 makes (its own exceptions and the standard ones), for messages that
// are not UTF-8; anything else goes on to the next translator.
void translate_non_utf8_messages(std::exception_ptr p) {
  try {
    std::rethrow_exception(p);
  } catch (const py::error_already_set&) {
    throw;
  } catch (const py::value_error& e) {
    if (!set_error_lossless(PyExc_ValueError, e.what())) throw;
  } catch (const py::index_error& e) {
    if (!set_error_lossless(PyExc_IndexError, e.what())) throw;
  } catch (const py::type_error& e) {
    if (!set_error_lossless(PyExc_TypeError, e.what())) throw;
  } catch (const py::key_error& e) {
    if (!set_error_lossless(PyExc_KeyError, e.what())) throw;
  } catch (const py::builtin_exception&) {
    throw;
  } catch (const std::invalid_argument& e) {
    if (!set_error_lossless(PyExc_ValueError, e.what())) throw;
  } catch (const std::domain_error& e) {
    if (!set_error_lossless(PyExc_ValueError, e.what())) throw;
  } catch (const std::length_error& e) {
    if (!set_error_lossless(PyExc_ValueError, e.what())) throw;
  } catch (const std::out_of_range& e) {
    if (!set_error_lossless(PyExc_IndexError, e.what())) throw;
  } catch (const std::range_error& e) {
    if (!set_error_lossless(PyExc_ValueError, e.what())) throw;
  } catch (const std::overflow_error& e) {
    if (!set_error_lossless(PyExc_OverflowError, e.what())) throw;
  } catch (const std::bad_alloc&) {
    // MemoryError is not among the errors torsion promises (methods of a World, its objects
    // and robots name themselves: thread_guard.cpp)
    PyErr_SetString(PyExc_RuntimeError,
                    "not enough memory for this call (an allocation failed, std::bad_alloc); "
                    "ask for less or free memory");
  } catch (const std::exception& e) {
    if (!set_error_lossless(PyExc_RuntimeError, e.what())) throw;
  }
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "torsion's C++ core (bound with pybind11). Use the torsion package, not this module.";
  // first: translators registered later (RemovedObjectError's, the class guards') are tried
  // before this one
  py::register_exception_translator(translate_non_utf8_messages);
  // one type for every dead handle (World objects, IK objects and groups): a RuntimeError, as
  // World handles raised, and a ValueError, as IK handles raised (core/errors.hpp)
  py::register_exception<torsion::RemovedObjectError>(
      m, "RemovedObjectError", py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_ValueError)));
  torsion::bindings::bind_objects(m);
  torsion::bindings::bind_world(m);
  torsion::bindings::bind_articulated(m);
  torsion::bindings::bind_articulated_control(m);
  torsion::bindings::bind_query(m);
  torsion::bindings::bind_ik(m);
  torsion::bindings::bind_collision(m);
  torsion::bindings::bind_contact(m);
  torsion::bindings::bind_mesh(m);
  torsion::bindings::bind_terrain(m);
  torsion::bindings::bind_mjcf(m);
  torsion::bindings::bind_deformable(m);
  torsion::bindings::bind_state(m);
  torsion::bindings::bind_wires(m);
  torsion::bindings::bind_tendons(m);  // after bind_wires (bind_tendons.cpp)
  torsion::bindings::bind_batch(m);  // after bind_world and bind_state
  torsion::bindings::bind_sensors(m);
  torsion::bindings::bind_granular(m);
  torsion::bindings::bind_soil(m);  // after bind_terrain (DeformableTerrain is a HeightMap)
  // World's methods, every area's, in one fixed order (bind_world.cpp, world_methods.hpp): after
  // every class they name, before the thread guard wraps them
  torsion::bindings::bind_world_methods(m);
  // every method of the World, its objects and robots inside a use of that world (threads)
  torsion::bindings::thread_guard::install(m);
  torsion::bindings::guard_classes(m);  // last: it visits every class bound above
}
