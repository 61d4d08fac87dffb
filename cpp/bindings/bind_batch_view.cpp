// torsion.ArticulatedView: one robot in every world of a WorldBatch, read and written as (N, ...)
// arrays (WorldBatch.articulated(name)); the worlds' own calls, bit for bit.
#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <vector>

#include "bindings/batch_args.hpp"
#include "collision/contact.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/configuration.hpp"
#include "dynamics/articulated/kinematics.hpp"

namespace torsion::bindings {

using namespace py_convert;
using namespace batch_args;
using py::arg;
using BatchPtr = std::shared_ptr<WorldBatch>;

ArticulatedView make_view(const BatchPtr& batch, const std::string& name) {
  ArticulatedView v;
  v.batch = batch;
  v.name = name;
  for (std::size_t i = 0; i < batch->size(); ++i) {
    Object* o = batch->world(i).find_object(name);
    if (o == nullptr)
      throw py::value_error("name: world " + std::to_string(i) + " has no object named '" + name + "'");
    if (o->type() != ObjectType::kArticulatedSystem)
      throw py::value_error("name: object '" + name + "' of world " + std::to_string(i) +
                            " is a " + object_type_name(o->type()) + ", not an articulated system");
    const auto& a = static_cast<const ArticulatedSystem&>(*o);
    if (i == 0) {
      v.id = a.id();
      v.nq = a.gc_dim();
      v.nv = a.dof();
      v.model = a.model_ptr();
      v.frames = a.model().frames.size();
      v.bodies = a.model().bodies.size();
    } else if (a.id() != v.id || a.gc_dim() != v.nq || a.dof() != v.nv ||
               a.model().frames.size() != v.frames || a.model().bodies.size() != v.bodies) {
      throw py::value_error("name: '" + name + "' in world " + std::to_string(i) +
                            " is not the same robot as in world 0 (id, gc/gv sizes, frames or "
                            "bodies differ)");
    }
  }
  return v;
}

namespace {

// gc / gv of every world into an (N, n) array
py::array_t<double> get_rows(const ArticulatedView& v, const py::object& out, bool velocities,
                             const char* what) {
  const int n = velocities ? v.nv : v.nq;
  auto a = output_array(out, {static_cast<ssize>(v.size()), n}, "out");
  const auto sys = v.systems();
  SharedBatchUse use(*v.batch, what);
  double* o = a.mutable_data();
  for (std::size_t i = 0; i < sys.size(); ++i) {
    const VecX& x = velocities ? sys[i]->data().u : sys[i]->data().q;
    std::copy(x.data(), x.data() + n, o + i * static_cast<std::size_t>(n));
  }
  return a;
}

using ConstMap = Eigen::Map<const VecX>;

void set_pd_targets(const ArticulatedView& v, py::handle positions, py::handle velocities) {
  const std::size_t n = v.size();
  const Rows q = input_rows(positions, "positions", static_cast<ssize>(n), {v.nq}, true);
  check_finite_rows(q, n, "positions");
  Rows u;
  const VecX zeros = VecX::Zero(v.nv);
  const bool has_u = !velocities.is_none();
  if (has_u) {
    u = input_rows(velocities, "velocities", static_cast<ssize>(n), {v.nv}, true);
    check_finite_rows(u, n, "velocities");
  }
  // a spherical joint's target quaternion may not be zero (as set_pd_target), checked for every
  // world before any is changed; a robot whose only quaternion is the floating base's (never
  // checked: its target is unused) skips the loop, a per-step cost of the control path
  bool has_checked_quaternion = false;
  for (const int b : v.model->quaternion_body)
    has_checked_quaternion |= v.model->bodies[b].joint_type != JointType::kFloating;
  for (std::size_t i = 0; has_checked_quaternion && i < (q.stride == 0 ? 1 : n); ++i)
    check_quaternions(*v.model, ConstMap(q.row(i), v.nq),
                      ("positions (world " + std::to_string(i) + ")").c_str(), true);
  const auto sys = v.systems();
  ExclusiveBatchUse use(*v.batch, "set_pd_targets()");
  for (std::size_t i = 0; i < n; ++i)
    sys[i]->set_pd_target(ConstMap(q.row(i), v.nq),
                          has_u ? ConstMap(u.row(i), v.nv) : ConstMap(zeros.data(), v.nv));
}

void set_pd_gains(const ArticulatedView& v, py::handle kp_arg, py::handle kd_arg) {
  const std::size_t n = v.size();
  const Rows kp = input_rows(kp_arg, "kp", static_cast<ssize>(n), {v.nv}, true);
  const Rows kd = input_rows(kd_arg, "kd", static_cast<ssize>(n), {v.nv}, true);
  for (const auto* r : {&kp, &kd}) {
    const char* name = r == &kp ? "kp" : "kd";
    check_finite_rows(*r, n, name);
    for (std::size_t i = 0; i < (r->stride == 0 ? 1 : n); ++i)
      for (int k = 0; k < v.nv; ++k)
        if (r->row(i)[k] < 0.0)
          throw py::value_error(std::string(name) + " must be >= 0; world " + std::to_string(i) +
                                ", dof " + std::to_string(k) + " is " + fmt(r->row(i)[k]));
  }
  const auto sys = v.systems();
  ExclusiveBatchUse use(*v.batch, "set_pd_gains()");
  for (std::size_t i = 0; i < n; ++i)
    sys[i]->set_pd_gains(ConstMap(kp.row(i), v.nv), ConstMap(kd.row(i), v.nv));
}

void set_generalized_forces(const ArticulatedView& v, py::handle tau_arg) {
  const std::size_t n = v.size();
  const Rows tau = input_rows(tau_arg, "tau", static_cast<ssize>(n), {v.nv}, true);
  check_finite_rows(tau, n, "tau");
  const auto sys = v.systems();
  ExclusiveBatchUse use(*v.batch, "set_generalized_forces()");
  for (std::size_t i = 0; i < n; ++i) sys[i]->set_generalized_force(ConstMap(tau.row(i), v.nv));
}

void set_states(const ArticulatedView& v, py::handle indices_arg, py::handle gc_arg,
                py::handle gv_arg) {
  std::vector<std::int64_t> idx;
  if (indices_arg.is_none()) {
    idx.resize(v.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<std::int64_t>(i);
  } else {
    idx = world_indices(indices_arg, v.size(), "indices");
  }
  const std::size_t k = idx.size();
  const Rows q = input_rows(gc_arg, "gc", static_cast<ssize>(k), {v.nq}, false);
  const Rows u = input_rows(gv_arg, "gv", static_cast<ssize>(k), {v.nv}, false);
  check_finite_rows(q, k, "gc");
  check_finite_rows(u, k, "gv");
  for (std::size_t j = 0; j < k; ++j)
    check_quaternions(*v.model, ConstMap(q.row(j), v.nq),
                      ("gc (row " + std::to_string(j) + ")").c_str());
  const auto sys = v.systems();
  for (std::size_t j = 0; j < k; ++j)
    if (v.batch->world(static_cast<std::size_t>(idx[j])).is_mid_step())
      throw std::logic_error("set_states(): world " + std::to_string(idx[j]) +
                             " is between integrate1() and integrate2()");
  ExclusiveBatchUse use(*v.batch, idx.data(), k, "set_states()");
  for (std::size_t j = 0; j < k; ++j)
    sys[static_cast<std::size_t>(idx[j])]->set_state(ConstMap(q.row(j), v.nq),
                                                     ConstMap(u.row(j), v.nv));
}

// Frames on the floating base: their placement straight from gc, without the forward kinematics
// of the whole tree. update_kinematics (kinematics.cpp) sets a floating root body's rotation to
// the normalised gc quaternion and its origin to gc[0:3], whatever its joint placement, and
// frame_placement composes the frame's placement with them: the same expressions here give the
// same bits. RL observations read the base's orientation every step; the kinematics of the
// legs would cost a third of the Python side of an environment step.
bool on_floating_root(const ArticulatedModel& m, const std::vector<int>& frames) {
  if (!m.floating_base || m.bodies.empty() || m.bodies[0].joint_type != JointType::kFloating)
    return false;
  for (const int f : frames)
    if (m.frames[static_cast<std::size_t>(f)].body != 0) return false;
  return true;
}

Pose root_frame_placement(const ArticulatedSystem& s, int frame) {
  const ArticulatedModel& m = s.model();
  const ArticulatedData& d = s.data();
  if (d.kinematics_valid) return frame_placement(m, d, frame);
  const double* q = d.q.data() + m.bodies[0].gc_index;
  const Mat3 r = Quat(q[3], q[4], q[5], q[6]).normalized().toRotationMatrix();
  const ArticulatedFrame& f = m.frames[static_cast<std::size_t>(frame)];
  Pose out;
  out.rotation = r * f.placement.rotation;
  out.position = Vec3(q[0], q[1], q[2]) + r * f.placement.position;
  return out;
}

// a per-frame quantity of `width` doubles (what(system, frame, dst)) for every world and frame,
// shape (N, F, *tail); the worlds in parallel (each task touches its own world only), or one
// after another on the calling thread when `serial` (work too small to pay for the pool)
template <class What>
py::array_t<double> frame_quantity(const ArticulatedView& v, const std::vector<int>& f,
                                   const py::object& out, std::vector<ssize> tail,
                                   const char* what_name, bool serial, What what) {
  const ssize nf = static_cast<ssize>(f.size());
  ssize width = 1;
  for (ssize t : tail) width *= t;
  std::vector<ssize> shape{static_cast<ssize>(v.size()), nf};
  shape.insert(shape.end(), tail.begin(), tail.end());
  auto a = output_array(out, shape, "out");
  const auto sys = v.systems();
  double* o = a.mutable_data();
  SharedBatchUse use(*v.batch, what_name);
  const auto one = [&](std::size_t i) {
    ArticulatedSystem& s = *sys[i];
    for (ssize j = 0; j < nf; ++j)
      what(s, f[static_cast<std::size_t>(j)], o + (static_cast<ssize>(i) * nf + j) * width);
  };
  if (serial) {
    for (std::size_t i = 0; i < sys.size(); ++i) one(i);
  } else {
    py::gil_scoped_release release;
    v.batch->for_each(one);
  }
  return a;
}

void put3(double* d, const Vec3& x) { d[0] = x.x(), d[1] = x.y(), d[2] = x.z(); }

void put33(double* d, const Mat3& r) {
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) d[3 * row + col] = r(row, col);
}

py::array_t<double> get_frame_positions(const ArticulatedView& v, py::handle frames,
                                        const py::object& out) {
  const std::vector<int> f = v.frame_indices(frames);
  if (on_floating_root(*v.model, f))
    return frame_quantity(v, f, out, {3}, "get_frame_positions()", true,
                          [](ArticulatedSystem& s, int k, double* d) {
                            put3(d, root_frame_placement(s, k).position);
                          });
  return frame_quantity(v, f, out, {3}, "get_frame_positions()", false,
                        [](ArticulatedSystem& s, int k, double* d) {
                          s.ensure_kinematics();
                          put3(d, frame_placement(s.model(), s.data(), k).position);
                        });
}

py::array_t<double> get_frame_orientations(const ArticulatedView& v, py::handle frames,
                                           const py::object& out) {
  const std::vector<int> f = v.frame_indices(frames);
  if (on_floating_root(*v.model, f))
    return frame_quantity(v, f, out, {3, 3}, "get_frame_orientations()", true,
                          [](ArticulatedSystem& s, int k, double* d) {
                            put33(d, root_frame_placement(s, k).rotation);
                          });
  return frame_quantity(v, f, out, {3, 3}, "get_frame_orientations()", false,
                        [](ArticulatedSystem& s, int k, double* d) {
                          s.ensure_kinematics();
                          put33(d, frame_placement(s.model(), s.data(), k).rotation);
                        });
}

// gc, gv and the rotations of floating-base frames of every world in one pass over the worlds:
// one claim and one visit of each world instead of one per quantity. After a step the worlds'
// memory sits in the caches of the threads that stepped them, and each visit of 64 worlds costs
// tens of microseconds of cache misses: a vector env's observation read pays it once.
py::tuple read_state(const ArticulatedView& v, const py::object& gc_out, const py::object& gv_out,
                     py::handle frames, const py::object& rot_out) {
  const ssize n = static_cast<ssize>(v.size());
  auto gc = output_array(gc_out, {n, v.nq}, "gc_out");
  auto gv = output_array(gv_out, {n, v.nv}, "gv_out");
  const std::vector<int> f = frames.is_none() ? std::vector<int>{} : v.frame_indices(frames);
  const ssize nf = static_cast<ssize>(f.size());
  const bool root_only = f.empty() || on_floating_root(*v.model, f);
  py::array_t<double> rot;
  if (root_only) rot = output_array(rot_out, {n, nf, 3, 3}, "orientations_out");
  const auto sys = v.systems();
  {
    SharedBatchUse use(*v.batch, "read_state()");
    double* q = gc.mutable_data();
    double* u = gv.mutable_data();
    double* r = root_only ? rot.mutable_data() : nullptr;
    for (std::size_t i = 0; i < sys.size(); ++i) {
      const ArticulatedSystem& s = *sys[i];
      std::copy(s.data().q.data(), s.data().q.data() + v.nq, q + i * static_cast<std::size_t>(v.nq));
      std::copy(s.data().u.data(), s.data().u.data() + v.nv, u + i * static_cast<std::size_t>(v.nv));
      for (ssize j = 0; root_only && j < nf; ++j)
        put33(r + (static_cast<ssize>(i) * nf + j) * 9,
              root_frame_placement(s, f[static_cast<std::size_t>(j)]).rotation);
    }
  }
  // frames of other bodies: the kinematics of every world on the pool
  if (!root_only) rot = get_frame_orientations(v, frames, rot_out);
  return py::make_tuple(gc, gv, rot);
}

py::array_t<double> get_frame_velocities(const ArticulatedView& v, py::handle frames,
                                         const py::object& out) {
  return frame_quantity(v, v.frame_indices(frames), out, {3}, "get_frame_velocities()", false,
                        [](ArticulatedSystem& s, int f, double* d) {
                          s.ensure_velocities();  // (and the kinematics)
                          const int b = s.model().frames[f].body;
                          put3(d, body_point_velocity(
                                      s.data(), b, frame_placement(s.model(), s.data(), f).position));
                        });
}

py::array_t<double> get_frame_angular_velocities(const ArticulatedView& v, py::handle frames,
                                                 const py::object& out) {
  return frame_quantity(v, v.frame_indices(frames), out, {3}, "get_frame_angular_velocities()",
                        false,
                        [](ArticulatedSystem& s, int f, double* d) {
                          s.ensure_velocities();
                          put3(d, body_angular_velocity(s.data(), s.model().frames[f].body));
                        });
}

py::array_t<double> get_contact_forces(const ArticulatedView& v, py::handle bodies,
                                       const py::object& out) {
  const std::vector<int> b = v.body_indices(bodies);
  const ssize nb = static_cast<ssize>(b.size());
  auto a = output_array(out, {static_cast<ssize>(v.size()), nb, 3}, "out");
  const auto sys = v.systems();
  double* o = a.mutable_data();
  SharedBatchUse use(*v.batch, "get_contact_forces()");
  py::gil_scoped_release release;
  v.batch->for_each([&](std::size_t i) {
    const World& w = v.batch->world(i);
    const std::uint32_t me = static_cast<std::uint32_t>(sys[i]->index_in_world());
    double* d = o + static_cast<ssize>(i) * nb * 3;
    std::fill(d, d + nb * 3, 0.0);
    const double dt = w.time_step();
    // in contact order, A's side then B's, as Object.get_contacts() lists them
    for (const Contact& c : w.contacts()) {
      if (c.object_a != me && c.object_b != me) continue;
      const Vec3 f = contact_frame(c.normal).transpose() * c.impulse / dt;
      for (int side = 0; side < 2; ++side) {
        const bool is_a = side == 0;
        if ((is_a ? c.object_a : c.object_b) != me) continue;
        const int local = static_cast<int>(is_a ? c.local_a : c.local_b);
        const Vec3 fb = is_a ? f : Vec3(-f);
        for (ssize j = 0; j < nb; ++j)
          if (b[static_cast<std::size_t>(j)] == local)
            for (int k = 0; k < 3; ++k) d[j * 3 + k] += fb[k];
      }
    }
  });
  return a;
}

}  // namespace

void bind_articulated_view(py::module_& m) {
  py::class_<ArticulatedView>(
      m, "ArticulatedView",
      "One robot (found by name) in every world of a WorldBatch, read and written as (N, ...) "
      "float64 arrays without per-world Python (WorldBatch.articulated(name)). Getters write "
      "into `out` when given (a writeable C-contiguous float64 array of the exact shape, "
      "returned) or return a fresh array. Setters take (N, ...) arrays, or one row for every "
      "world where stated; every argument is checked (shape, finite values) before any world "
      "changes. Values are those of the per-world ArticulatedSystem calls, bit for bit.")
      .def_property_readonly("name", [](const ArticulatedView& v) { return v.name; })
      .def_property_readonly("object_id", [](const ArticulatedView& v) { return v.id; },
                             "Stable id of the robot (the same in every world).")
      .def_property_readonly("dof", [](const ArticulatedView& v) { return v.nv; })
      .def_property_readonly("gc_dim", [](const ArticulatedView& v) { return v.nq; })
      .def("__len__", &ArticulatedView::size)
      .def("get_generalized_coordinates",
           [](const ArticulatedView& v, const py::object& out) {
             return get_rows(v, out, false, "get_generalized_coordinates()"); },
           arg("out") = py::none(), "gc of every world, shape (N, gc_dim).")
      .def("get_generalized_velocities",
           [](const ArticulatedView& v, const py::object& out) {
             return get_rows(v, out, true, "get_generalized_velocities()"); },
           arg("out") = py::none(), "gv of every world, shape (N, dof).")
      .def("set_pd_targets", &set_pd_targets, arg("positions"), arg("velocities") = py::none(),
           "PD targets of every world: positions (N, gc_dim) in gc layout, velocities (N, dof) "
           "(None: zero); either may be one row for every world. As set_pd_target per world.")
      .def("set_pd_gains", &set_pd_gains, arg("kp"), arg("kd"),
           "PD gains of every world, kp and kd (N, dof) or (dof,), finite and >= 0 (the "
           "floating base's six are forced to zero). Switches to PD_PLUS_FEEDFORWARD_TORQUE.")
      .def("set_generalized_forces", &set_generalized_forces, arg("tau"),
           "Feedforward generalized forces of every world, (N, dof) or (dof,) (N m or N). "
           "Persistent, as set_generalized_force.")
      .def("set_states", &set_states, arg("indices"), arg("gc"), arg("gv"),
           "Set gc and gv of the worlds `indices` (K,) (None: every world): gc (K, gc_dim), gv "
           "(K, dof), row k for world indices[k] (quaternions are normalised). RuntimeError "
           "mid-step.")
      .def("get_frame_positions", &get_frame_positions, arg("frames"), arg("out") = py::none(),
           "Origins of `frames` (a sequence of frame names or indices) in every world, world "
           "frame (m), shape (N, F, 3).")
      .def("get_frame_orientations", &get_frame_orientations, arg("frames"),
           arg("out") = py::none(),
           "Rotation matrices (frame to world) of `frames` in every world, shape (N, F, 3, 3).")
      .def("read_state", &read_state, arg("gc_out") = py::none(), arg("gv_out") = py::none(),
           arg("frames") = py::tuple(), arg("orientations_out") = py::none(),
           "gc (N, gc_dim), gv (N, dof) and the rotation matrices (N, F, 3, 3) of `frames` (names "
           "or indices; () for none) of every world, into the out arrays when given (as the "
           "getters), returned as a tuple: the values of get_generalized_coordinates, "
           "get_generalized_velocities and get_frame_orientations, read in one pass over the "
           "worlds when every frame is on a floating base (the per-step observation read of an "
           "RL environment).")
      .def("get_frame_velocities", &get_frame_velocities, arg("frames"), arg("out") = py::none(),
           "Linear velocities of the origins of `frames` in every world, world frame (m/s), "
           "shape (N, F, 3).")
      .def("get_frame_angular_velocities", &get_frame_angular_velocities, arg("frames"),
           arg("out") = py::none(),
           "Angular velocities of `frames` in every world, world frame (rad/s), shape (N, F, 3).")
      .def("get_contact_forces", &get_contact_forces, arg("bodies"), arg("out") = py::none(),
           "Net contact force (N, world frame) on each of `bodies` (body names or indices) in "
           "every world, from the contacts of the last step: the sum of the `force` column of "
           "Object.get_contacts() over that body's rows. Shape (N, B, 3).")
      .def("__repr__", [](const ArticulatedView& v) {
        return "<torsion.ArticulatedView '" + v.name + "' x " + std::to_string(v.size()) +
               " worlds, dof " + std::to_string(v.nv) + ">";
      });
}

}  // namespace torsion::bindings
