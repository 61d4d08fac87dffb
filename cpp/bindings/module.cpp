// torsion._core: the compiled core. python/torsion/__init__.py re-exports it.
#include <pybind11/pybind11.h>

#include "bindings/handles.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "torsion's C++ core (bound with pybind11). Use the torsion package, not this module.";
  py::register_exception<torsion::bindings::RemovedObjectError>(m, "RemovedObjectError",
                                                                PyExc_RuntimeError);
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
  torsion::bindings::bind_state(m);
  torsion::bindings::guard_classes(m);  // last: it visits every class bound above
}
