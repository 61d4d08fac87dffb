// Raw CPython fast-call methods for the hottest calls of control loops (set the PD targets, step,
// read gc and gv; an IK group's Jacobian). pybind11's dispatcher costs a few hundred nanoseconds
// per call (overload resolution, keyword matching, argument casters), which is most of a control
// step's Python overhead once the step itself takes a few microseconds. A method defined here is
// a plain METH_FASTCALL (or METH_NOARGS) C function installed on the class as a CPython method
// descriptor: CPython calls it without a bound-method object or a Python frame, it sorts its
// arguments itself and builds error messages only on failure.
//
// The plumbing every such method shares lives here:
//   * parse_arguments: positional and keyword arguments into slots, with Python-style TypeErrors;
//   * guarded: runs the body and translates a C++ exception exactly as pybind11 would (its
//     registered translators included, so RemovedObjectError stays RemovedObjectError);
//   * self_as<T>: the C++ object held by a pybind11 instance;
//   * install_method / make_instance_method: put a PyMethodDef on a pybind11 class or make a
//     function for a Python class;
//   * float64_vector_data / with_vector / fresh_float64_array: NumPy fast paths for array
//     arguments and results.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "bindings/convert.hpp"

namespace torsion::bindings::fastcall {

namespace py = pybind11;

// A method's argument list: `names` in order, the first `required` of them without a default.
struct Signature {
  const char* function;  // as shown in errors, e.g. "set_pd_target" or "Group.jacobian"
  const char* const* names;
  int count;
  int required;
};

// Sorts `args` (nargs positional ones, then one per name in kwnames) into slots[0..count).
// Slots of missing optional arguments keep the value the caller put there (its default).
// Raises TypeError (py::type_error) for too many, missing, unknown or repeated arguments.
void parse_arguments(const Signature& sig, PyObject* const* args, Py_ssize_t nargs,
                     PyObject* kwnames, PyObject** slots);

// Runs `body` (returning a new reference, or nullptr with a Python error set) and turns any C++
// exception into the Python error pybind11 would have raised for it.
template <class Body>
PyObject* guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

// The C++ object of a pybind11 instance of (a subclass of) the class bound for T. `self` comes
// from a method descriptor of that class, which has already checked its type.
template <class T>
T& self_as(PyObject* self) {
  static py::detail::type_info* const info = py::detail::get_type_info(typeid(T), true);
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  void* value = inst->get_value_and_holder(info, true).value_ptr();
  if (!value) throw py::type_error("the object has not been initialised (its __init__ never ran)");
  return *static_cast<T*>(value);
}

// Installs `def` (kept alive by the caller: a static) on the pybind11 class `cls` as a method
// descriptor, replacing any attribute of that name.
void install_method(py::handle cls, PyMethodDef* def);

// `def` as a function that becomes a method when stored on a Python class (self is args[0]).
py::object make_instance_method(PyMethodDef* def);

// The data of a 1-D array of n aligned, contiguous, native-endian float64 values, read in place;
// nullptr for anything else (the caller then falls back to the general, shape-checked
// conversion). Reads NumPy's array header directly: py::isinstance<array_t> costs a dtype object
// and an equivalence test per call.
inline const double* float64_vector_data(py::handle obj, py::ssize_t n) {
  const auto& api = py::detail::npy_api::get();
  if (!api.PyArray_Check_(obj.ptr())) return nullptr;
  const auto* a = py::detail::array_proxy(obj.ptr());
  if (a->nd != 1 || a->dimensions[0] != n) return nullptr;
  if (n > 1 && a->strides[0] != static_cast<py::ssize_t>(sizeof(double))) return nullptr;
  if (!(a->flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_)) return nullptr;
  const auto* d = py::detail::array_descriptor_proxy(a->descr);
  if (d->type_num != py::detail::npy_api::NPY_DOUBLE_) return nullptr;
  // native byte order: '=' (or the host's own '<' / '>'; '|' does not apply to float64)
  if (d->byteorder != '=' && d->byteorder != '|' && d->byteorder != (PY_BIG_ENDIAN ? '>' : '<'))
    return nullptr;
  return reinterpret_cast<const double*>(a->data);
}

// Calls fn with the n numbers of an array-like: read in place from a contiguous float64 array,
// else through the general conversion (a ValueError naming `name` and the shape expected).
template <class Fn>
void with_vector(py::handle obj, const char* name, int n, Fn&& fn) {
  if (const double* data = float64_vector_data(obj, n)) {
    fn(Eigen::Map<const Eigen::VectorXd>(data, n));
    return;
  }
  const Eigen::VectorXd v = py_convert::to_vector(obj, name, n);
  fn(v);
}

// fresh_float64_array: convert.hpp (beside to_numpy, the one output helper that uses it)
using py_convert::fresh_float64_array;

}  // namespace torsion::bindings::fastcall
