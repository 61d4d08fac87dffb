// torsion._core.ik: the IK environment, bound by handle. python/torsion/ik wraps it into
// objects (Joint, Dummy, Group, Element) and into the seed-compatible compat module.
// Getters return fresh NumPy arrays (copies). Compute calls release the GIL; an Environment is
// not thread-safe: use one per thread.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>

#include "bindings/convert.hpp"
#include "bindings/fastcall.hpp"
#include "bindings/handles.hpp"
#include "ik/environment.hpp"
#include "math/rotation.hpp"

namespace torsion::bindings {

namespace {

using ik::Environment;
using ik::Pose;
using py_convert::to_numpy;
using py_convert::to_vec3;
using py_convert::to_vec4;
using py::arg;

// raised through C++ frames when the Python validation callback raised: the Python error is
// restored in the interpreter and re-raised once the GIL is held again
struct CallbackRaised {};

// Ctrl-C during a compute call (the GIL released, up to 2**31-1 iterations): while one of
// these lives, the environment's poll hook takes the GIL every kPollEvery iterations and checks
// for signals, as World.integrate does between chunks of steps; a pending KeyboardInterrupt is
// left set in the interpreter and the computation abandoned with CallbackRaised, re-raised by
// the caller once the GIL is held again
struct PollSignals {
  Environment& env;
  explicit PollSignals(Environment& e) : env(e) {
    env.poll = [] {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) throw CallbackRaised{};
    };
  }
  ~PollSignals() { env.poll = nullptr; }
  PollSignals(const PollSignals&) = delete;
  PollSignals& operator=(const PollSignals&) = delete;
};

// Marks an environment busy for the duration of a compute call; constructed and destroyed with
// the GIL held, so the flag itself needs no atomics.
struct BusyGuard {
  Environment& env;
  explicit BusyGuard(Environment& e) : env(e) {
    if (env.busy)
      throw std::logic_error(
          "this IK environment is busy in a compute call (solve, handle, configuration search, "
          "...): an Environment must not be used from another thread or from a validation "
          "callback meanwhile");
    env.busy = true;
  }
  ~BusyGuard() { env.busy = false; }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;
};

py::tuple pose_out(const Pose& p) {
  return py::make_tuple(to_numpy(p.p), to_numpy(quat_to_wxyz(p.q)));
}

Pose pose_in(py::handle position, py::handle quaternion) {
  const Vec3 p = to_vec3(position, "position");
  const Vec4 q = to_vec4(quaternion, "quaternion_wxyz");
  return Pose(quat_from_wxyz(q), p);
}

std::vector<double> to_doubles(py::handle obj, const char* name, size_t n) {
  if (obj.is_none()) return {};
  const VecX v = py_convert::to_vector(obj, name, int(n));
  return std::vector<double>(v.data(), v.data() + v.size());
}

constexpr const char* kGroupJacobianDoc =
    "J (rows, columns) at q (one value per column, column order) or at the current joints; "
    "written into `out` (float64, C-contiguous, (rows, columns)) and returned when given";

// (optionally set the IK joints, then) compute and return J in one call: the fast path. A
// float64 C-contiguous q and a preallocated `out` skip every conversion and allocation.
py::object group_jacobian(Environment& e, int g, py::handle q, py::handle out) {
  BusyGuard busy(e);
  using Arr = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const ik::GroupSystem& layout = e.group_structure(g);
  const size_t rows = size_t(layout.cached_rows), cols = layout.column_joint.size();
  const bool set_q = !q.is_none();
  py::object q_keep;  // owns a converted q
  const double* q_data = nullptr;
  if (set_q) {
    q_keep = py_convert::to_float_array(q, "q", "numbers");
    const auto qa = py::reinterpret_borrow<Arr>(q_keep);  // a view: no allocation
    if (qa.ndim() != 1 || size_t(qa.shape(0)) != cols)
      throw py::value_error("q must have shape (" + std::to_string(cols) +
                            ",) (one value per column)");
    q_data = qa.data();
  }
  py::object result;
  if (out.is_none()) {
    result = py::array_t<double>({py::ssize_t(rows), py::ssize_t(cols)});  // C order
  } else {
    auto bad_out = [&] {
      return py::value_error("out must be a writeable C-contiguous float64 array of shape (" +
                             std::to_string(rows) + ", " + std::to_string(cols) + ")");
    };
    if (!py::array_t<double, py::array::c_style>::check_(out)) throw bad_out();
    result = py::reinterpret_borrow<py::object>(out);
    const auto o = py::reinterpret_borrow<py::array_t<double>>(result);
    if (o.ndim() != 2 || size_t(o.shape(0)) != rows || size_t(o.shape(1)) != cols ||
        !o.writeable())
      throw bad_out();
  }
  double* dst = py::reinterpret_borrow<py::array_t<double>>(result).mutable_data();
  ik::GroupSystem& sys = e.scratch();
  {
    py::gil_scoped_release release;
    if (set_q) e.set_column_positions(g, q_data);
    e.evaluate_group(g, 1.0, sys, /*jacobian_only=*/true);
    for (size_t i = 0; i < rows; ++i)  // Eigen's column-major J into row-major out
      for (size_t j = 0; j < cols; ++j)
        dst[i * cols + j] = sys.J(Eigen::Index(i), Eigen::Index(j));
  }
  return result;
}

// Group.jacobian(self, q=None, out=None) itself (python/torsion/ik/_api.py makes it a method of
// Group): a raw CPython fast-call function, because it is the hot path of Jacobian-based
// controllers and pybind11's dispatcher (keyword matching in particular) costs more than the
// Jacobian. It reads self._core and self.handle_id and translates C++ errors as pybind11 does.
PyObject* group_jacobian_fastcall(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  return fastcall::guarded([&]() -> PyObject* {
    static const char* const kNames[] = {"q", "out"};
    static const fastcall::Signature kSig{"Group.jacobian", kNames, 2, 0};
    // self comes first (an instance method of a Python class), then q and out
    if (PyVectorcall_NARGS(nargs) < 1)
      throw py::type_error("Group.jacobian() must be called on a Group");
    PyObject* a[2] = {Py_None, Py_None};
    fastcall::parse_arguments(kSig, args + 1, PyVectorcall_NARGS(nargs) - 1, kwnames, a);
    // interned once and never freed (no decref after the interpreter is gone)
    static const py::str* core_name = new py::str("_core");
    static const py::str* handle_name = new py::str("handle_id");
    const py::handle self(args[0]);
    const py::object core = self.attr(*core_name);
    Environment& e = py::cast<Environment&>(core);
    return group_jacobian(e, py::cast<int>(self.attr(*handle_name)), a[0], a[1]).release().ptr();
  });
}

PyMethodDef kGroupJacobianDef = {
    "jacobian",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&group_jacobian_fastcall)),
    METH_FASTCALL | METH_KEYWORDS,
    "jacobian(self, q=None, out=None) -> numpy.ndarray\n\n"
    "The group Jacobian (rows, columns), computed at q (columns,) -- set into the IK joints\n"
    "first, column order -- or at the current configuration. Rows x, y, z are in the\n"
    "constraint-base frame, alpha, beta, gamma in the tip frame (per element). Returns a\n"
    "fresh array, or fills `out` (float64, C-contiguous, (rows, columns)) and returns it: the\n"
    "fastest path, with q a float64 array. Releases the GIL while computing."};

// The routines' constants (ik/constants.hpp) as the Python side reads them: torsion.ik._constants
// builds its enums from this dict, so the numbers are written once, in C++. Plain names map to
// ints; an enum's name maps to a dict of its members.
py::dict ik_constants() {
  using namespace ik;
  auto members = [](std::initializer_list<std::pair<const char*, int>> kv) {
    py::dict d;
    for (const auto& [k, v] : kv) d[k] = v;
    return d;
  };
  py::dict c;
  c["HANDLE_WORLD"] = kHandleWorld;
  c["HANDLE_ALL"] = kHandleAll;
  c["HANDLE_PARENT"] = kHandleParent;
  c["HANDLEFLAG_TIPDUMMY"] = kHandleFlagTipDummy;
  c["MAX_OBJECT_HANDLE"] = kMaxObjectHandle;
  c["ObjectType"] = members({{"JOINT", kObjectTypeJoint}, {"DUMMY", kObjectTypeDummy}});
  c["JointType"] = members({{"REVOLUTE", kJointTypeRevolute},
                            {"PRISMATIC", kJointTypePrismatic},
                            {"SPHERICAL", kJointTypeSpherical}});
  c["JointMode"] = members({{"PASSIVE", kJointModePassive}, {"IK", kJointModeIk},
                            {"DEPENDENT", kJointModeDependent}, {"FORCE", kJointModeForce}});
  c["Constraint"] = members({{"X", kConstraintX}, {"Y", kConstraintY}, {"Z", kConstraintZ},
                             {"ALPHA_BETA", kConstraintAlphaBeta}, {"GAMMA", kConstraintGamma},
                             {"POSITION", kConstraintPosition},
                             {"ORIENTATION", kConstraintOrientation}, {"POSE", kConstraintPose}});
  c["Method"] = members({{"PSEUDO_INVERSE", kMethodPseudoInverse},
                         {"DAMPED_LEAST_SQUARES", kMethodDampedLeastSquares},
                         {"JACOBIAN_TRANSPOSE", kMethodJacobianTranspose},
                         {"UNDAMPED_PSEUDO_INVERSE", kMethodUndampedPseudoInverse}});
  c["Result"] = members({{"NOT_PERFORMED", kResultNotPerformed}, {"SUCCESS", kResultSuccess},
                         {"FAIL", kResultFail}});
  // NONE (0): the empty flag set, which the routines name in Python only
  c["CalcFlag"] = members({{"NONE", 0}, {"NOT_PERFORMED", kCalcNotPerformed},
                           {"CANNOT_INVERT", kCalcCannotInvert},
                           {"NOT_WITHIN_TOLERANCE", kCalcNotWithinTolerance},
                           {"STEPS_TOO_BIG", kCalcStepsTooBig}, {"LIMIT_HIT", kCalcLimitHit},
                           {"INVALID_CALLBACK_DATA", kCalcInvalidCallbackData}});
  c["GroupFlag"] = members({{"NONE", 0}, {"ENABLED", kGroupEnabled},
                            {"IGNORE_MAX_STEPS", kGroupIgnoreMaxSteps},
                            {"RESTORE_ON_BAD_LIN_TOL", kGroupRestoreOnBadLinTol},
                            {"RESTORE_ON_BAD_ANG_TOL", kGroupRestoreOnBadAngTol},
                            {"STOP_ON_LIMIT_HIT", kGroupStopOnLimitHit},
                            {"AVOID_LIMITS", kGroupAvoidLimits}});
  return c;
}

}  // namespace

void bind_ik(py::module_& parent) {
  py::module_ m = parent.def_submodule("ik", "IK environments (the Coppelia Kinematics Routines)");
  {
    // a plain C function turned into a method of torsion.ik.Group (see group_jacobian_fastcall)
    m.attr("_group_jacobian_method") = fastcall::make_instance_method(&kGroupJacobianDef);
  }
  m.attr("CONSTANTS") = ik_constants();
  py::class_<Environment, std::shared_ptr<Environment>> c(m, "Environment");
  c.def(py::init<>())
      // ---- objects ----
      .def("create_dummy", &Environment::create_dummy, arg("name"))
      .def("create_joint", &Environment::create_joint, arg("name"), arg("joint_type"))
      .def("erase_object", &Environment::erase_object, arg("handle"))
      .def("does_object_exist", &Environment::does_object_exist, arg("name"))
      .def("object_handle", &Environment::object_handle, arg("name"))
      .def("object_count", &Environment::object_count)
      .def("object_info", [](const Environment& e, size_t index) {
        if (index >= e.object_count())
          throw py::index_error("object index " + std::to_string(index) + " out of range (" +
                                std::to_string(e.object_count()) + " objects)");
        const ik::Object& o = e.object_at(index);
        const bool is_joint = o.type == ik::kObjectTypeJoint;
        return py::make_tuple(o.handle, o.name, is_joint, is_joint ? o.joint.type : -1);
      }, arg("index"), "(handle, name, is_joint, joint_type or -1) of the object at `index`")
      .def("object_type", [](const Environment& e, int h) { return e.object(h).type; }, arg("handle"))
      .def("object_name", [](const Environment& e, int h) { return e.object(h).name; }, arg("handle"))
      .def("object_parent", &Environment::object_parent, arg("handle"))
      .def("set_object_parent", &Environment::set_object_parent, arg("handle"), arg("parent"),
           arg("keep_in_place"))
      .def("object_pose", [](const Environment& e, int h, int rel) {
        return pose_out(e.object_pose(h, rel));
      }, arg("handle"), arg("relative_to"), "(position (3,) m, quaternion (4,) wxyz)")
      .def("set_object_pose", [](Environment& e, int h, int rel, py::handle p, py::handle q) {
        e.set_object_pose(h, rel, pose_in(p, q));
      }, arg("handle"), arg("relative_to"), arg("position"), arg("quaternion_wxyz"))
      .def("full_pose", [](const Environment& e, int h) { return pose_out(e.full_pose(h)); },
           arg("handle"), "world pose of the object's full frame (with its own joint motion)")
      .def("linked_dummy", &Environment::linked_dummy, arg("dummy"))
      .def("set_linked_dummy", &Environment::set_linked_dummy, arg("dummy"), arg("linked"))
      // ---- joints ----
      .def("joint_type", [](const Environment& e, int h) { return e.joint(h).type; }, arg("handle"))
      .def("joint_mode", [](const Environment& e, int h) { return e.joint(h).mode; }, arg("handle"))
      .def("set_joint_mode", &Environment::set_joint_mode, arg("handle"), arg("mode"))
      .def("joint_position", [](const Environment& e, int h) { return e.joint(h).position; },
           arg("handle"))
      .def("set_joint_position", &Environment::set_joint_position, arg("handle"), arg("position"))
      .def("joint_interval", [](const Environment& e, int h) {
        const ik::JointData& j = e.joint(h);
        return py::make_tuple(j.cyclic, j.min, j.range);
      }, arg("handle"))
      .def("set_joint_interval", &Environment::set_joint_interval, arg("handle"), arg("cyclic"),
           arg("min"), arg("range"))
      .def("joint_screw_pitch", [](const Environment& e, int h) { return e.joint(h).screw_pitch; },
           arg("handle"))
      .def("set_joint_screw_pitch", &Environment::set_joint_screw_pitch, arg("handle"), arg("pitch"))
      .def("joint_max_step_size", [](const Environment& e, int h) { return e.joint(h).max_step; },
           arg("handle"))
      .def("set_joint_max_step_size", &Environment::set_joint_max_step_size, arg("handle"),
           arg("step"))
      .def("joint_ik_weight", [](const Environment& e, int h) { return e.joint(h).ik_weight; },
           arg("handle"))
      .def("set_joint_ik_weight", &Environment::set_joint_ik_weight, arg("handle"), arg("weight"))
      .def("joint_limit_margin", [](const Environment& e, int h) { return e.joint(h).limit_margin; },
           arg("handle"))
      .def("set_joint_limit_margin", &Environment::set_joint_limit_margin, arg("handle"),
           arg("margin"))
      .def("joint_dependency", [](const Environment& e, int h) {
        const ik::JointData& j = e.joint(h);
        return py::make_tuple(j.master, j.offset, j.mult);
      }, arg("handle"), "(master handle or -1, offset, mult)")
      .def("set_joint_dependency", &Environment::set_joint_dependency, arg("handle"),
           arg("master"), arg("offset"), arg("mult"))
      .def("joint_spherical_quaternion", [](const Environment& e, int h) {
        return to_numpy(quat_to_wxyz(e.joint(h).spherical));
      }, arg("handle"))
      .def("set_spherical_quaternion", [](Environment& e, int h, py::handle q) {
        e.set_spherical_quaternion(h, quat_from_wxyz(to_vec4(q, "quaternion_wxyz")));
      }, arg("handle"), arg("quaternion_wxyz"))
      .def("joint_intrinsic", [](const Environment& e, int h) {
        e.joint(h);
        return pose_out(e.joint_intrinsic(h));
      }, arg("handle"))
      .def("joint_overshoot", [](const Environment& e, int h) { return e.joint(h).overshoot; },
           arg("handle"))
      // ---- groups and elements ----
      .def("create_group", &Environment::create_group, arg("name"))
      .def("erase_group", &Environment::erase_group, arg("handle"))
      .def("does_group_exist", &Environment::does_group_exist, arg("name"))
      .def("group_handle", &Environment::group_handle, arg("name"))
      .def("group_handles", [](const Environment& e) {
        std::vector<int> v;
        for (size_t i = 0; i < e.group_count(); ++i) v.push_back(e.group_at(i).handle);
        return v;
      })
      .def("group_name", [](const Environment& e, int g) { return e.group(g).name; }, arg("group"))
      .def("group_calculation", [](const Environment& e, int g) {
        const ik::Group& gr = e.group(g);
        return py::make_tuple(gr.method, gr.damping, gr.max_iterations);
      }, arg("group"))
      .def("set_group_calculation", &Environment::set_group_calculation, arg("group"),
           arg("method"), arg("damping"), arg("max_iterations"))
      .def("group_flags", [](const Environment& e, int g) { return e.group(g).flags; }, arg("group"))
      .def("set_group_flags", &Environment::set_group_flags, arg("group"), arg("flags"))
      .def("add_element", &Environment::add_element, arg("group"), arg("tip"))
      .def("element_count", [](const Environment& e, int g) { return e.group(g).elements.size(); },
           arg("group"))
      .def("element_info", [](const Environment& e, int g, int i) {
        const ik::Element& el = e.element(g, i);
        py::dict d;
        d["handle"] = el.handle;
        d["tip"] = el.tip;
        d["base"] = el.base;
        d["constraints_base"] = el.constraints_base;
        d["constraints"] = el.constraints;
        d["linear_precision"] = el.linear_precision;
        d["angular_precision"] = el.angular_precision;
        d["linear_weight"] = el.linear_weight;
        d["angular_weight"] = el.angular_weight;
        d["weight"] = el.weight;
        d["enabled"] = el.enabled;
        return d;
      }, arg("group"), arg("index"))
      .def("set_element_base", &Environment::set_element_base, arg("group"), arg("index"),
           arg("base"), arg("constraints_base"))
      .def("set_element_constraints", &Environment::set_element_constraints, arg("group"),
           arg("index"), arg("constraints"))
      .def("set_element_precision", &Environment::set_element_precision, arg("group"),
           arg("index"), arg("linear"), arg("angular"))
      .def("set_element_weights", &Environment::set_element_weights, arg("group"), arg("index"),
           arg("linear"), arg("angular"), arg("element"))
      .def("set_element_enabled", &Environment::set_element_enabled, arg("group"), arg("index"),
           arg("enabled"))
      // ---- computing ----
      .def("handle_group", [](Environment& e, int g) {
        int result = 0;
        int flags = 0;
        BusyGuard busy(e);
        PollSignals poll(e);
        try {
          py::gil_scoped_release release;
          flags = e.handle_group(g, &result);
        } catch (const CallbackRaised&) {
          throw py::error_already_set();
        }
        return py::make_tuple(result, flags);
      }, arg("group"), "(result code, calculation flags)")
      .def("handle_groups", [](Environment& e, const std::vector<int>& groups) {
        int result = 0;
        int flags = 0;
        BusyGuard busy(e);
        PollSignals poll(e);
        try {
          py::gil_scoped_release release;
          flags = e.handle_groups(groups, &result);
        } catch (const CallbackRaised&) {
          throw py::error_already_set();
        }
        return py::make_tuple(result, flags);
      }, arg("groups"), "(result code, calculation flags) of the groups resolved together")
      .def("compute_jacobian", [](Environment& e, int g, int options) {
        BusyGuard busy(e);
        py::gil_scoped_release release;
        return e.compute_jacobian(g, options);
      }, arg("group"), arg("options"))
      .def("group_jacobian", [](Environment& e, int g, py::handle q, py::handle out) {
        return py::reinterpret_steal<py::array_t<double>>(group_jacobian(e, g, q, out).release());
      }, arg("group"), arg("q") = py::none(), arg("out") = py::none(), kGroupJacobianDoc)
      .def("jacobian", [](const Environment& e, int g) {
        const ik::Group& gr = e.group(g);
        if (!gr.jacobian_valid)
          throw std::logic_error("no Jacobian: call compute_jacobian() on IK group " +
                                 std::to_string(g) + " first (or it has no valid element)");
        // error as (rows, 1), the shape this call has always returned
        return py::make_tuple(to_numpy(gr.jacobian), to_numpy(MatX(gr.error)));
      }, arg("group"), "(J (rows, columns), e (rows, 1)) stored by compute_jacobian")
      .def("group_columns", [](Environment& e, int g) {
        ik::GroupSystem& sys = e.scratch();
        e.evaluate_group(g, 1.0, sys);
        return py::make_tuple(sys.column_joint, sys.column_axis, sys.row_type);
      }, arg("group"), "(joint handle per column, axis per column, row type per row)")
      .def("group_tolerance", [](const Environment& e, int g) {
        ik::GroupSystem sys;
        const bool ok = e.evaluate_group(g, 1.0, sys);
        return py::make_tuple(ok, sys.worst_linear, sys.worst_angular, sys.within_tolerance);
      }, arg("group"), "(valid, worst linear distance m, worst angular distance rad, within)")
      .def("config_for_tip_pose", [](Environment& e, int g, std::vector<int> joints,
                                     double threshold, int max_iterations, py::handle metric,
                                     py::object validate, py::handle joint_options,
                                     py::handle low_limits, py::handle ranges) {
        ik::ConfigSearchOptions o;
        o.threshold = threshold;
        o.max_iterations = max_iterations;
        if (!metric.is_none()) {
          const VecX mv = py_convert::to_vector(metric, "metric", 4);
          for (int k = 0; k < 4; ++k) o.metric[k] = mv[k];
        }
        if (!joint_options.is_none()) o.joint_options = joint_options.cast<std::vector<int>>();
        o.low_limits = to_doubles(low_limits, "low_limits", joints.size());
        o.ranges = to_doubles(ranges, "ranges", joints.size());
        if (!validate.is_none()) {
          if (!PyCallable_Check(validate.ptr()))
            throw py::type_error("validation_callback must be callable or None");
          o.validate = [validate](const std::vector<double>& q) {
            py::gil_scoped_acquire acquire;
            try {
              py::array_t<double> a(q.size());
              for (size_t i = 0; i < q.size(); ++i) a.mutable_at(i) = q[i];
              return bool(py::bool_(validate(a)));
            } catch (py::error_already_set& err) {
              err.restore();
              throw CallbackRaised{};
            }
          };
        }
        std::vector<double> out;
        int found = 0;
        BusyGuard busy(e);
        PollSignals poll(e);
        try {
          py::gil_scoped_release release;
          found = e.config_for_tip_pose(g, joints, o, out);
        } catch (const CallbackRaised&) {
          throw py::error_already_set();
        }
        py::object config = py::none();
        if (found) {
          py::array_t<double> a(out.size());
          for (size_t i = 0; i < out.size(); ++i) a.mutable_at(i) = out[i];
          config = a;
        }
        return py::make_tuple(found, config);
      }, arg("group"), arg("joints"), arg("threshold"), arg("max_iterations"), arg("metric"),
         arg("validate"), arg("joint_options"), arg("low_limits"), arg("ranges"))
      .def("solve", [](Environment& e, int g, py::handle position, py::handle quaternion,
                       py::handle q_start, int max_iterations, int max_restarts, double damping,
                       double max_step, uint64_t seed) {
        const Vec3 p = to_vec3(position, "target_position");
        const Vec4 q = to_vec4(quaternion, "target_quaternion_wxyz");
        std::vector<double> qs;
        const bool have_start = !q_start.is_none();
        if (have_start) qs = to_doubles(q_start, "q_start", e.group_structure(g).column_joint.size());
        ik::SolveOptions o;
        o.max_iterations = max_iterations;
        o.max_restarts = max_restarts;
        o.damping = damping;
        o.max_step = max_step;
        o.seed = seed;
        ik::SolveResult r;
        BusyGuard busy(e);
        PollSignals poll(e);
        try {
          py::gil_scoped_release release;
          r = e.solve(g, Pose(quat_from_wxyz(q), p), have_start ? &qs : nullptr, o);
        } catch (const CallbackRaised&) {
          throw py::error_already_set();
        }
        py::array_t<double> qa(r.q.size());
        for (size_t i = 0; i < r.q.size(); ++i) qa.mutable_at(i) = r.q[i];
        return py::make_tuple(qa, r.success, r.position_error, r.orientation_error, r.iterations,
                              r.attempts);
      }, arg("group"), arg("target_position"), arg("target_quaternion_wxyz"), arg("q_start"),
         arg("max_iterations"), arg("max_restarts"), arg("damping"), arg("max_step"), arg("seed"))
      // ---- serialization ----
      .def("save", [](const Environment& e) {
        std::vector<unsigned char> d;
        BusyGuard busy(const_cast<Environment&>(e));
        {
          py::gil_scoped_release release;
          d = e.save();
        }
        return py::bytes(reinterpret_cast<const char*>(d.data()), d.size());
      })
      .def("load", [](Environment& e, py::bytes data) {
        const std::string s = data;
        BusyGuard busy(e);
        py::gil_scoped_release release;
        e.load(reinterpret_cast<const unsigned char*>(s.data()), s.size());
      }, arg("data"))
      .def("is_empty", &Environment::empty)
      .def_readonly("busy", &Environment::busy, "True while a compute call runs on it")
      .def("seed", [](Environment& e, uint64_t s) { e.rng().state = s; }, arg("seed"),
           "reseed the environment's random stream (configuration search)");
}

}  // namespace torsion::bindings
