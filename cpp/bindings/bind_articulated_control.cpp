// The per-step calls of torsion.ArticulatedSystem -- set_pd_target, set_generalized_force,
// get/set_generalized_coordinate, get/set_generalized_velocity, and the per-configuration
// queries get_mass_matrix and get_dense_frame_jacobian -- as raw CPython fast-call methods (see
// fastcall.hpp for why). Same signatures, keyword names, results (fresh
// arrays) and errors as pybind11 bindings would have; the docstrings keep pybind11's signature
// line so that the generated stubs are unchanged.
#include <algorithm>

#include "bindings/articulated_args.hpp"
#include "bindings/fastcall.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "dynamics/articulated/dynamics.hpp"

namespace torsion::bindings {

namespace {

using fastcall::guarded;
using fastcall::parse_arguments;
using fastcall::self_as;
using fastcall::Signature;
using fastcall::with_vector;

ArticulatedSystem& system_of(PyObject* self) {
  return self_as<ArticulatedSystemHandle>(self).obj();  // RemovedObjectError once removed
}

// the World of an articulated system's handle (for SharedWorldUse around GIL-free work)
World& world_of(PyObject* self) {
  const ArticulatedSystemHandle& h = self_as<ArticulatedSystemHandle>(self);
  if (!h.world) throw py::type_error("this object handle is not initialised (it has no World)");
  return *h.world;
}

// the use of the system's world for the whole call (thread_guard.hpp): these methods are raw
// fast-call methods, which the registration-time wrapping cannot reach
thread_guard::CallUse call_use(PyObject* self, const char* what) {
  return thread_guard::CallUse(world_of(self), thread_guard::Use::kExclusive, what);
}

PyObject* fresh_copy(const Eigen::VectorXd& v) { return py_convert::to_numpy(v).release().ptr(); }

PyObject* set_pd_target(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  return guarded([&]() -> PyObject* {
    static const char* const kNames[] = {"q_ref", "v_ref"};
    static const Signature kSig{"set_pd_target", kNames, 2, 2};
    PyObject* a[2];
    parse_arguments(kSig, args, nargs, kwnames, a);
    const auto use = call_use(self, "ArticulatedSystem.set_pd_target()");
    ArticulatedSystem& s = system_of(self);
    try {
      with_vector(a[0], "q_ref", s.gc_dim(), [&](const auto& q) {
        with_vector(a[1], "v_ref", s.dof(), [&](const auto& u) { s.set_pd_target(q, u); });
      });
    } catch (const py::value_error&) {
      // a shape or type error: name every wrong argument, not only the first
      to_vectors({{a[0], "q_ref", s.gc_dim()}, {a[1], "v_ref", s.dof()}});
      throw;
    }
    Py_RETURN_NONE;
  });
}

// the body of a fast-call method with one vector argument `arg` of length size(system), handed
// to apply(system, vector)
template <class Size, class Apply>
PyObject* one_vector_method(const Signature& sig, PyObject* self, PyObject* const* args,
                            Py_ssize_t nargs, PyObject* kwnames, Size size, Apply apply) {
  return guarded([&]() -> PyObject* {
    PyObject* a[1];
    parse_arguments(sig, args, nargs, kwnames, a);
    const auto use = call_use(self, sig.function);
    ArticulatedSystem& s = system_of(self);
    with_vector(a[0], sig.names[0], size(s), [&](const auto& v) { apply(s, v); });
    Py_RETURN_NONE;
  });
}

auto dof_of = [](const ArticulatedSystem& s) { return s.dof(); };
auto gc_dim_of = [](const ArticulatedSystem& s) { return s.gc_dim(); };

PyObject* set_generalized_force(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                PyObject* kwnames) {
  static const char* const kNames[] = {"tau"};
  static const Signature kSig{"set_generalized_force", kNames, 1, 1};
  return one_vector_method(kSig, self, args, nargs, kwnames, dof_of,
                           [](ArticulatedSystem& s, const auto& t) { s.set_generalized_force(t); });
}

PyObject* get_generalized_coordinate(PyObject* self, PyObject*) {
  return guarded([&] {
    const auto use = call_use(self, "ArticulatedSystem.get_generalized_coordinate()");
    return fresh_copy(system_of(self).data().q);
  });
}

PyObject* get_generalized_velocity(PyObject* self, PyObject*) {
  return guarded([&] {
    const auto use = call_use(self, "ArticulatedSystem.get_generalized_velocity()");
    return fresh_copy(system_of(self).data().u);
  });
}

PyObject* set_generalized_coordinate(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                     PyObject* kwnames) {
  static const char* const kNames[] = {"gc"};
  static const Signature kSig{"set_generalized_coordinate", kNames, 1, 1};
  return one_vector_method(kSig, self, args, nargs, kwnames, gc_dim_of, [](ArticulatedSystem& s,
                           const auto& q) { s.set_generalized_coordinate(q); });
}

PyObject* set_generalized_velocity(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                   PyObject* kwnames) {
  static const char* const kNames[] = {"gv"};
  static const Signature kSig{"set_generalized_velocity", kNames, 1, 1};
  return one_vector_method(kSig, self, args, nargs, kwnames, dof_of, [](ArticulatedSystem& s,
                           const auto& u) { s.set_generalized_velocity(u); });
}

// a fresh (rows x cols) C-ordered array holding the column-major matrix m
PyObject* fresh_matrix(const double* m, Eigen::Index rows, Eigen::Index cols) {
  return py_convert::to_numpy(Eigen::Map<const Eigen::MatrixXd>(m, rows, cols)).release().ptr();
}

PyObject* get_mass_matrix(PyObject* self, PyObject*) {
  return guarded([&] {
    const auto call = call_use(self, "ArticulatedSystem.get_mass_matrix()");
    ArticulatedSystem& s = system_of(self);
    {
      SharedWorldUse use(world_of(self).use(), "get_mass_matrix()");
      py::gil_scoped_release release;
      s.ensure_kinematics();
      // Unlike the other dynamics queries (query_data in bind_articulated.cpp), on the data
      // itself: M depends on the configuration alone, so between integrate1() and integrate2()
      // this writes the step's own M again, bit for bit, and a per-step call spares the copy.
      crba(s.model(), s.data());
    }
    const MatX& m = s.data().mass_matrix;
    return fresh_matrix(m.data(), m.rows(), m.cols());
  });
}

PyObject* get_dense_frame_jacobian(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                   PyObject* kwnames) {
  return guarded([&]() -> PyObject* {
    static const char* const kNames[] = {"frame"};
    static const Signature kSig{"get_dense_frame_jacobian", kNames, 1, 1};
    PyObject* a[1];
    parse_arguments(kSig, args, nargs, kwnames, a);
    const auto call = call_use(self, "ArticulatedSystem.get_dense_frame_jacobian()");
    ArticulatedSystem& s = system_of(self);
    const int i = frame_index(s.model(), a[0]);
    // a per-thread scratch (point_jacobian writes a column-major 3 x dof matrix): no
    // allocation per call once it has the size
    thread_local Mat3X j;
    j.setZero(3, s.dof());
    {
      SharedWorldUse use(world_of(self).use(), "get_dense_frame_jacobian()");
      py::gil_scoped_release release;
      s.ensure_kinematics();
      const ArticulatedModel& m = s.model();
      point_jacobian(m, s.data(), m.frames[i].body, frame_placement(m, s.data(), i).position, j);
    }
    return fresh_matrix(j.data(), 3, j.cols());
  });
}

template <class F>
PyCFunction as_cfunction(F* f) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}

// static: CPython keeps pointers to these definitions for the life of the interpreter
PyMethodDef kMethods[] = {
    {"set_pd_target", as_cfunction(&set_pd_target), METH_FASTCALL | METH_KEYWORDS,
     "set_pd_target(self: torsion._core.ArticulatedSystem, q_ref: object, v_ref: "
     "object) -> None\n\n"
     "PD targets: position q_ref in gc layout, shape (gc_dim,), and velocity v_ref in gv "
     "layout, shape (dof,). A spherical joint's quaternion in q_ref must have a non-zero norm "
     "(it is normalised); the floating base's target is unused (its gains are zero) and may be "
     "all zeros.\n"},
    {"set_generalized_force", as_cfunction(&set_generalized_force),
     METH_FASTCALL | METH_KEYWORDS,
     "set_generalized_force(self: torsion._core.ArticulatedSystem, tau: object) -> None\n\n"
     "Feedforward generalized force, shape (dof,) (N m or N; the base's six entries are a "
     "world force and torque). Persistent: applied every step until changed.\n"},
    {"get_generalized_coordinate", as_cfunction(&get_generalized_coordinate), METH_NOARGS,
     "get_generalized_coordinate(self: torsion._core.ArticulatedSystem) -> "
     "numpy.typing.NDArray[numpy.float64]\n\n"
     "gc, shape (gc_dim,), a fresh array (the independent coordinates: a mimic joint's is "
     "multiplier * gc[master] + offset).\n"},
    {"set_generalized_coordinate", as_cfunction(&set_generalized_coordinate),
     METH_FASTCALL | METH_KEYWORDS,
     "set_generalized_coordinate(self: torsion._core.ArticulatedSystem, gc: object) -> None\n\n"
     "Set gc (shape (gc_dim,), finite; quaternions are normalised).\n"},
    {"set_generalized_velocity", as_cfunction(&set_generalized_velocity),
     METH_FASTCALL | METH_KEYWORDS,
     "set_generalized_velocity(self: torsion._core.ArticulatedSystem, gv: object) -> None\n\n"
     "Set gv (shape (dof,), finite).\n"},
    {"get_mass_matrix", as_cfunction(&get_mass_matrix), METH_NOARGS,
     "get_mass_matrix(self: torsion._core.ArticulatedSystem) -> "
     "numpy.typing.NDArray[numpy.float64]\n\n"
     "Mass matrix M(gc) (CRBA), shape (dof, dof), in gv's coordinates (world-frame base).\n"},
    {"get_dense_frame_jacobian", as_cfunction(&get_dense_frame_jacobian),
     METH_FASTCALL | METH_KEYWORDS,
     "get_dense_frame_jacobian(self: torsion._core.ArticulatedSystem, frame: object) -> "
     "numpy.typing.NDArray[numpy.float64]\n\n"
     "Positional Jacobian of the frame origin, world frame: v = J gv, shape (3, dof).\n"},
    {"get_generalized_velocity", as_cfunction(&get_generalized_velocity), METH_NOARGS,
     "get_generalized_velocity(self: torsion._core.ArticulatedSystem) -> "
     "numpy.typing.NDArray[numpy.float64]\n\n"
     "gv, shape (dof,), a fresh array.\n"},
};

}  // namespace

void bind_articulated_control(py::module_& m) {
  const py::object cls = m.attr("ArticulatedSystem");
  for (PyMethodDef& def : kMethods) {
    fastcall::install_method(cls, &def);
    thread_guard::declare_self_guarded(cls, def.ml_name, thread_guard::Use::kExclusive);
  }
}

}  // namespace torsion::bindings
