#include "bindings/fastcall.hpp"

namespace torsion::bindings::fastcall {

namespace {

std::string expected_list(const Signature& sig) {
  std::string s = "(";
  for (int i = 0; i < sig.count; ++i) {
    s += i ? ", " : "";
    s += sig.names[i];
    if (i >= sig.required) s += "=...";
  }
  return s + ")";
}

[[noreturn]] void fail(const Signature& sig, const std::string& what) {
  throw py::type_error(std::string(sig.function) + "(): incompatible function arguments: " + what +
                       "; expected " + sig.function + expected_list(sig));
}

}  // namespace

void parse_arguments(const Signature& sig, PyObject* const* args, Py_ssize_t nargs,
                     PyObject* kwnames, PyObject** slots) {
  const Py_ssize_t npos = PyVectorcall_NARGS(nargs);
  if (npos > sig.count)
    fail(sig, "takes at most " + std::to_string(sig.count) + " argument(s), " +
                  std::to_string(npos) + " given");
  for (Py_ssize_t i = 0; i < npos; ++i) slots[i] = args[i];
  unsigned filled = (1u << npos) - 1u;  // count is small (a handful of arguments)
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    int slot = -1;
    for (int i = 0; i < sig.count && slot < 0; ++i)
      if (PyUnicode_CompareWithASCIIString(name, sig.names[i]) == 0) slot = i;
    if (slot < 0) fail(sig, "unexpected keyword argument '" + py::str(name).cast<std::string>() + "'");
    if (filled & (1u << slot))
      fail(sig, "got multiple values for argument '" + std::string(sig.names[slot]) + "'");
    filled |= 1u << slot;
    slots[slot] = args[npos + k];
  }
  for (int i = 0; i < sig.required; ++i)
    if (!(filled & (1u << i)))
      fail(sig, "missing required argument '" + std::string(sig.names[i]) + "'");
}

void install_method(py::handle cls, PyMethodDef* def) {
  PyObject* descr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), def);
  if (!descr) throw py::error_already_set();
  // setattr on the type (not its __dict__) so that CPython's method caches are invalidated
  if (PyObject_SetAttrString(cls.ptr(), def->ml_name, descr) != 0) {
    Py_DECREF(descr);
    throw py::error_already_set();
  }
  Py_DECREF(descr);
}

py::object make_instance_method(PyMethodDef* def) {
  py::object f = py::reinterpret_steal<py::object>(PyCFunction_New(def, nullptr));
  if (!f) throw py::error_already_set();
  py::object m = py::reinterpret_steal<py::object>(PyInstanceMethod_New(f.ptr()));
  if (!m) throw py::error_already_set();
  return m;
}

}  // namespace torsion::bindings::fastcall
