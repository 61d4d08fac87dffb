// Guards applied to every class of torsion._core once all of them are bound (module.cpp):
//
// * Uninitialised instances. `Cls.__new__(Cls)` makes an instance whose __init__ never ran (it
//   is also the first half of unpickling). pybind11 allocates the C++ object of such an instance
//   lazily, uninitialised, the first time a method receives it, so a method then reads garbage
//   or a null pointer and crashes. Every class's type_info gets an operator_new that raises
//   TypeError instead: that lazy allocation is the only place pybind11 calls it (objects made by
//   __init__ or factories are allocated with `new`). Arguments held by std::shared_ptr (World,
//   Shape, ...) take another path, pybind11's holder caster, whose RuntimeError ("Unable to cast
//   from non-held to held instance") the translator below replaces with the same TypeError.
//
// * Pickling. At protocols 0 and 1 (and for a bare obj.__reduce__()) Python's copyreg calls
//   the tp_new of pybind11's common base class, which throws a C++ exception through C code and
//   aborts the process. Every class gets __reduce_ex__ and __reduce__: classes with
//   __setstate__ (pickle support) reduce as at protocol 2 (cls.__new__(cls), then
//   __setstate__(__getstate__())), which every protocol can store; the others raise TypeError.
#include <pybind11/pybind11.h>

#include <cstring>
#include <set>
#include <string>

#include "bindings/handles.hpp"

namespace torsion::bindings {

namespace {

constexpr const char* kUninitialised =
    "this torsion object is not initialised: it was created with Cls.__new__(Cls) and its "
    "__init__ never ran; create objects by calling the class (or a World method)";

void* refuse_lazy_allocation(std::size_t) { throw py::type_error(kUninitialised); }

std::string type_name(py::handle cls) {
  return py::str(cls.attr("__module__")).cast<std::string>() + "." +
         py::str(cls.attr("__qualname__")).cast<std::string>();
}

// True if cls or a base other than object defines __setstate__ (pybind11's py::pickle).
bool has_pickle_support(py::handle cls) {
  for (py::handle base : cls.attr("__mro__")) {
    if (base.ptr() == reinterpret_cast<PyObject*>(&PyBaseObject_Type)) continue;
    if (PyDict_GetItemString(reinterpret_cast<PyTypeObject*>(base.ptr())->tp_dict,
                             "__setstate__"))
      return true;
  }
  return false;
}

py::object reduce(py::handle self) {
  const py::handle cls = py::type::handle_of(self);
  if (!has_pickle_support(cls))
    throw py::type_error("cannot pickle '" + type_name(cls) + "' object");
  const py::object newobj = py::module_::import("copyreg").attr("__newobj__");
  return py::make_tuple(newobj, py::make_tuple(cls), self.attr("__getstate__")());
}

void guard_class(py::handle cls) {
  py::detail::type_info* info =
      py::detail::get_type_info(reinterpret_cast<PyTypeObject*>(cls.ptr()));
  if (!info) return;  // not a pybind11 class
  info->operator_new = &refuse_lazy_allocation;
  py::setattr(cls, "__reduce_ex__",
              py::cpp_function([](py::handle self, py::handle) { return reduce(self); },
                               py::name("__reduce_ex__"), py::is_method(cls),
                               py::arg("protocol"),
                               "Pickle support at every protocol (TypeError if the class "
                               "cannot be pickled)."));
  py::setattr(cls, "__reduce__",
              py::cpp_function([](py::handle self) { return reduce(self); },
                               py::name("__reduce__"), py::is_method(cls)));
}

// every class reachable from `scope` (a module or a class) whose __module__ is torsion's
void visit(py::handle scope, std::set<PyObject*>& seen) {
  if (!seen.insert(scope.ptr()).second) return;
  const py::dict d(scope.attr("__dict__"));  // a copy for a class (its __dict__ is a mappingproxy)
  for (auto item : d) {
    py::handle v = item.second;
    if (PyModule_Check(v.ptr())) {
      const std::string name = PyModule_GetName(v.ptr());
      if (name.rfind("torsion._core", 0) == 0) visit(v, seen);
    } else if (PyType_Check(v.ptr()) && py::hasattr(v, "__module__")) {
      const std::string mod = py::str(v.attr("__module__")).cast<std::string>();
      if (mod.rfind("torsion._core", 0) != 0 || seen.count(v.ptr())) continue;
      guard_class(v);
      visit(v, seen);
    }
  }
}

}  // namespace

void guard_classes(py::module_& m) {
  std::set<PyObject*> seen;
  visit(m, seen);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const py::cast_error& e) {
      // the holder caster's error for an instance whose __init__ never ran
      if (std::strncmp(e.what(), "Unable to cast from non-held to held instance", 45) != 0)
        throw;
      PyErr_SetString(PyExc_TypeError, kUninitialised);
    }
  });
}

}  // namespace torsion::bindings
