// torsion.ArticulatedSystem, torsion.ControlMode and World.add_articulated_system.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <memory>
#include <string_view>

#include "bindings/convert.hpp"
#include "bindings/fastcall.hpp"
#include "bindings/articulated_args.hpp"
#include "bindings/handles.hpp"
#include "bindings/world_methods.hpp"
#include "core/check.hpp"
#include "dynamics/articulated/dynamics.hpp"
#include "dynamics/articulated/mass_queries.hpp"
#include "io/urdf.hpp"
#include "world/world_xml.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;
using Handle = ArticulatedSystemHandle;
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

namespace {

using fastcall::with_vector;
using fastcall::fresh_float64_array;

// `arg` (not a name) as an index into `count` things called `what`: an int in [0, count) (a bool
// is not an index), else IndexError (out of range) or ValueError (another type)
int index_in_range(py::handle arg, std::size_t count, const char* what) {
  if (const auto i = to_index(arg, count, what)) return static_cast<int>(*i);
  throw py::value_error(std::string(what) + " must be a " + what + " name (str) or index (int)");
}

// `names` joined by ", " in brackets (every one: an error lists the valid names)
template <class Range, class Get>
std::string name_list(const Range& items, Get get) {
  std::string out = "[";
  bool first = true;
  for (const auto& x : items) {
    const std::string& n = get(x);
    if (n.empty()) continue;
    out += (first ? "'" : ", '") + n + "'";
    first = false;
  }
  return out + "]";
}

// A body by name: its link's name, the name of the joint that moves it, or the name of a link
// merged into it (by a fixed joint) or of that fixed joint; ValueError listing the names
int body_index(const ArticulatedModel& m, py::handle body) {
  if (py::isinstance<py::str>(body)) {
    const std::string name = body.cast<std::string>();
    int i = m.find_body(name);
    for (std::size_t k = 0; i < 0 && k < m.bodies.size(); ++k)
      if (m.bodies[k].joint_name == name) i = static_cast<int>(k);
    if (i < 0) {
      const int f = m.find_frame(name);
      if (f >= 0) i = m.frames[f].body;
    }
    if (i < 0)
      throw py::value_error(
          "body: unknown body name '" + name + "'; bodies are " +
          name_list(m.bodies, [](const ArticulatedBody& b) -> const std::string& { return b.name; }) +
          ", links " +
          name_list(m.frames, [](const ArticulatedFrame& f) -> const std::string& { return f.link; }) +
          " (a link joined by a fixed joint is part of its parent's body), joints " +
          name_list(m.frames, [](const ArticulatedFrame& f) -> const std::string& { return f.name; }));
    return i;
  }
  return index_in_range(body, m.bodies.size(), "body");
}

// 'world' or 'body' (RaiSim's WORLD_FRAME / BODY_FRAME)
bool frame_is_body(const std::string& frame, const char* arg_name) {
  if (frame == "world") return false;
  if (frame == "body") return true;
  throw py::value_error(std::string(arg_name) + " must be 'world' or 'body', got '" + frame + "'");
}

// a gravity vector (m/s^2): shape (3,), finite (ValueError naming gravity), as set_gravity
Vec3 gravity_arg(py::handle g) { return to_finite_vec3(g, "gravity"); }

// The dynamics queries (h, M^-1, forward and inverse dynamics, the benchmark loops) compute on
// a copy of the system's data, never on the data itself: between integrate1() and integrate2()
// that holds the step's own terms (h for the world's gravity, which a query for another gravity
// overwrote, so the step ignored or doubled gravity). One copy per thread, as queries run
// concurrently under a shared world use without the GIL; reused, so it allocates only when a
// system of another size comes. Call it without the GIL, inside the query's SharedWorldUse.
// Stale kinematics are computed in the copy (the same values ensure_kinematics() would cache):
// the system's own data is only read, so that queries on several threads never write it.
ArticulatedData& query_data(ArticulatedSystem& s) {
  thread_local std::unique_ptr<ArticulatedData> scratch;
  if (scratch) *scratch = s.data();
  else scratch = std::make_unique<ArticulatedData>(s.data());
  if (!scratch->kinematics_valid) update_kinematics(s.model(), *scratch);
  return *scratch;
}

py::dict placement_dict(const Pose& p) {
  py::dict d;
  d["position"] = to_numpy(p.position);
  d["rotation"] = to_numpy(p.rotation);
  return d;
}

const char* kVisualNames[] = {"box", "sphere", "cylinder", "capsule", "mesh"};

void bind_system(py::module_& m) {
  py::enum_<ControlMode>(m, "ControlMode", "Actuation of an ArticulatedSystem (RaiSim's ControlMode).")
      .value("FORCE_AND_TORQUE", ControlMode::kForceAndTorque)
      .value("PD_PLUS_FEEDFORWARD_TORQUE", ControlMode::kPdPlusFeedforwardTorque);

  py::class_<Handle, ObjectHandle>(
      m, "ArticulatedSystem",
      "A robot: a tree of rigid bodies joined by joints, loaded from URDF.\n\n"
      "gc = [x y z qw qx qy qz, joints...] (floating base) or [joints...] (fixed base); "
      "gv = [v (m/s, world), omega (rad/s, world), joint rates...]; v is the velocity of the "
      "root link's origin. Revolute/prismatic joints: 1 coordinate (rad or m); spherical joints: "
      "a quaternion (w, x, y, z) in gc and the child-frame relative angular velocity in gv. "
      "Frames: one per URDF joint (fixed ones too), at its child link's origin, named after the "
      "joint; a floating or fixed root also has the frame 'ROOT'. Every frame and body call also "
      "takes the link's name (get_link_names()); a link joined by a fixed joint is merged into "
      "its parent's body but keeps its own frame. Commands and readings sized to the actuated "
      "joints (every movable joint but a floating base): set_joint_pd_targets, "
      "set_joint_pd_gains, set_joint_forces, get_joint_positions and the like. URDF mimic joints (q = "
      "multiplier * q_master + offset) own no dof: gc and gv hold the independent coordinates "
      "only, the master's dof moves both joints (its Jacobian columns, mass matrix entries, PD "
      "gains, targets and effort limit cover both). Getters return fresh arrays.")
      // sizes and names
      .def("get_dof", [](const Handle& h) { return h.obj().dof(); },
           "Degrees of freedom (gv size; mimic joints own none).")
      .def("get_generalized_coordinate_dim", [](const Handle& h) { return h.obj().gc_dim(); },
           "Size of gc.")
      .def("get_movable_joint_names", [](const Handle& h) { return h.obj().model().movable_joints; },
           "Names of the joints that own dofs, in gv order ('ROOT' or the URDF floating joint "
           "first for a floating base).")
      .def("get_frame_names", [](const Handle& h) {
             std::vector<std::string> out;
             for (const auto& f : h.obj().model().frames) out.push_back(f.name);
             return out; }, "Frame names, in frame-index order.")
      .def("get_frame_index_by_name", [](const Handle& h, const std::string& name) {
             return frame_index(h.obj().model(), py::str(name)); }, arg("name"),
           "Index of a frame; ValueError for an unknown name.")
      .def("get_body_names", [](const Handle& h) {
             std::vector<std::string> out;
             for (const auto& b : h.obj().model().bodies) out.push_back(b.name);
             return out; },
           "Body names (a body is a link with the links fixed to it merged in), in body order.")
      .def("get_body_index", [](const Handle& h, const std::string& name) {
             return body_index(h.obj().model(), py::str(name)); }, arg("name"))
      .def("get_masses", [](const Handle& h) {
             const auto& bodies = h.obj().model().bodies;
             VecX masses(bodies.size());
             for (std::size_t i = 0; i < bodies.size(); ++i) masses[i] = bodies[i].mass;
             return to_numpy(masses); }, "Mass of every body (kg), shape (n_bodies,).")
      .def("get_total_mass", [](const Handle& h) { return h.obj().model().total_mass(); }, "kg.")
      .def("get_body_coms_b", [](const Handle& h) {
             const auto& bs = h.obj().model().bodies;
             MatX c(bs.size(), 3);
             for (std::size_t i = 0; i < bs.size(); ++i) c.row(i) = bs[i].com.transpose();
             return to_numpy(c); },
           "Centre of mass of every body in its body frame (m), shape (n_bodies, 3).")
      .def("get_body_coms_w", [](Handle& h) {
             ArticulatedSystem& s = h.obj();
             s.ensure_kinematics();
             const auto& bs = s.model().bodies;
             MatX c(bs.size(), 3);
             for (std::size_t i = 0; i < bs.size(); ++i)
               c.row(i) = body_com_world(s.model(), s.data(), static_cast<int>(i)).transpose();
             return to_numpy(c); },
           "Centre of mass of every body in the world (m), shape (n_bodies, 3).")
      .def("get_composite_com", [](Handle& h) {
             ArticulatedSystem& s = h.obj();
             s.ensure_kinematics();
             return to_numpy(composite_com(s.model(), s.data())); },
           "Centre of mass of the whole system, world (m), shape (3,).")
      .def("get_body_inertias_b", [](const Handle& h) {
             py::list out;
             for (const auto& b : h.obj().model().bodies) out.append(to_numpy(b.inertia));
             return out; },
           "Inertia of every body about its COM, body frame (kg m^2): a list of (3, 3) arrays.")
      .def("get_joints", [](const Handle& h) {
             py::list out;
             for (const auto& b : h.obj().model().bodies) {
               py::dict d;
               d["body"] = b.name;
               d["parent"] = b.parent;
               d["joint"] = b.joint_name;
               d["type"] = joint_type_name(b.joint_type);
               d["position"] = to_numpy(b.joint_placement.position);
               d["rotation"] = to_numpy(b.joint_placement.rotation);
               d["axis"] = to_numpy(b.axis);
               d["gc_index"] = b.gc_index;
               d["gc_size"] = b.gc_size;
               d["gv_index"] = b.gv_index;
               d["gv_size"] = b.gv_size;
               if (b.is_mimic()) {
                 d["mimic_joint"] = h.obj().model().bodies[b.mimic_body].joint_name;
                 d["mimic_multiplier"] = b.mimic_multiplier;
                 d["mimic_offset"] = b.mimic_offset;
               }
               out.append(d);
             }
             return out; },
           "The kinematic tree, one dict per body in topological order: body (link name), parent "
           "(body index, -1 for the world), joint (name), type ('fixed', 'revolute', "
           "'prismatic', 'spherical', 'floating'), position (3,) and rotation (3, 3) of the joint "
           "frame in the parent body frame (m), axis (3,) in the joint frame, and the joint's "
           "gc_index/gc_size and gv_index/gv_size (both sizes 0 for a mimic joint, which also "
           "has mimic_joint, mimic_multiplier and mimic_offset). Links joined by fixed joints "
           "are merged into one body. Copies.")
      .def("get_frame_placement", [](const Handle& h, const std::string& frame) {
             const ArticulatedModel& mm = h.obj().model();
             const int f = frame_index(mm, py::str(frame));
             const ArticulatedFrame& fr = mm.frames[f];
             return py::make_tuple(fr.body, to_numpy(fr.placement.position), to_numpy(fr.placement.rotation)); },
           py::arg("frame"),
           "(body index, position (3,), rotation (3, 3)): where the frame sits in its body's frame.")
      .def("get_parent_body_indices", [](const Handle& h) {
             std::vector<int> out;
             for (const auto& b : h.obj().model().bodies) out.push_back(b.parent);
             return out; }, "Parent body of every body (-1: the world).")
      // state (get/set_generalized_coordinate/velocity, get_mass_matrix and
      // get_dense_frame_jacobian: fast-call methods in bind_articulated_control.cpp)
      .def("set_state", [](const Handle& h, py::handle q, py::handle u) {
             ArticulatedSystem& s = h.obj();
             with_vector(q, "gc", s.gc_dim(), [&](const auto& qv) {
               with_vector(u, "gv", s.dof(), [&](const auto& uv) { s.set_state(qv, uv); });
             }); }, arg("gc"), arg("gv"), "Set gc and gv together.")
      // dynamics at the current state
      .def("get_nonlinearities", [](Handle& h, py::handle g) {
             ArticulatedSystem& s = h.obj();
             const Vec3 grav = gravity_arg(g);
             VecX nonlinear;
             {
               SharedWorldUse use(h.world->use(), "get_nonlinearities()");
               py::gil_scoped_release r;
               ArticulatedData& d = query_data(s);
               nonlinear_effects(s.model(), d, grav);
               nonlinear = d.nonlinear;
             }
             return to_numpy(nonlinear); }, arg("gravity"),
           "h(gc, gv) = Coriolis, centrifugal and gravity generalized forces (RNEA) for the "
           "gravity vector (m/s^2, world), shape (dof,): M dv/dt + h = tau.")
      .def("get_inverse_mass_matrix", [](Handle& h) {
             ArticulatedSystem& s = h.obj();
             MatX inv = MatX::Identity(s.dof(), s.dof());
             {
               SharedWorldUse use(h.world->use(), "get_inverse_mass_matrix()");
               py::gil_scoped_release r;
               ArticulatedData& d = query_data(s);
               crba(s.model(), d);
               factorize(s.model(), d, nullptr);
               factor_solve_columns(s.model(), d, inv);
             }
             return to_numpy(inv); },
           "M(gc)^-1 from the tree-sparse L^T D L factorisation, shape (dof, dof).")
      .def("compute_forward_dynamics", [](Handle& h, py::handle tau, py::handle g) {
             ArticulatedSystem& s = h.obj();
             const VecX t = to_vector(tau, "tau", s.dof());
             const Vec3 grav = gravity_arg(g);
             check_finite_vec(t, "tau");
             VecX acc(s.dof());
             {
               SharedWorldUse use(h.world->use(), "compute_forward_dynamics()");
               py::gil_scoped_release r;
               forward_dynamics(s.model(), query_data(s), t, grav, acc);
             }
             return to_numpy(acc); }, arg("tau"), arg("gravity"),
           "Generalized acceleration dv/dt = M^-1 (tau - h) at the current state (no joint limits, "
           "damping or contacts), shape (dof,).")
      .def("compute_inverse_dynamics", [](Handle& h, py::handle acc, py::handle g) {
             ArticulatedSystem& s = h.obj();
             const VecX a = to_vector(acc, "acceleration", s.dof());
             const Vec3 grav = gravity_arg(g);
             check_finite_vec(a, "acceleration");
             VecX tau(s.dof());
             {
               SharedWorldUse use(h.world->use(), "compute_inverse_dynamics()");
               py::gil_scoped_release r;
               rnea(s.model(), query_data(s), a, grav, nullptr, tau);
             }
             return to_numpy(tau); }, arg("acceleration"), arg("gravity"),
           "Generalized force tau = M dv/dt + h (RNEA) for the acceleration dv/dt (gv layout), "
           "shape (dof,).")
      .def("get_kinetic_energy", [](Handle& h) {
             ArticulatedSystem& s = h.obj();
             s.ensure_velocities();
             if (!s.data().inertias_valid) update_inertias(s.model(), s.data());
             return kinetic_energy(s.model(), s.data()); }, "Kinetic energy (J).")
      .def("get_potential_energy", [](Handle& h, py::handle g) {
             ArticulatedSystem& s = h.obj();
             s.ensure_kinematics();
             return potential_energy(s.model(), s.data(), gravity_arg(g)); }, arg("gravity"), "Gravitational potential energy -sum m g.c (J).")
      // frames
      .def("get_frame_position", [](Handle& h, py::handle f) {
             ArticulatedSystem& s = h.obj();
             const int i = frame_index(s.model(), f);
             s.ensure_kinematics();
             return to_numpy(frame_placement(s.model(), s.data(), i).position); }, arg("frame"),
           "Frame origin, world (m), shape (3,). frame: name or index.")
      .def("get_frame_orientation", [](Handle& h, py::handle f) {
             ArticulatedSystem& s = h.obj();
             const int i = frame_index(s.model(), f);
             s.ensure_kinematics();
             return to_numpy(frame_placement(s.model(), s.data(), i).rotation); }, arg("frame"),
           "Frame rotation matrix (frame to world), shape (3, 3).")
      .def("get_frame_velocity", [](Handle& h, py::handle f) {
             ArticulatedSystem& s = h.obj();
             const int i = frame_index(s.model(), f);
             s.ensure_kinematics();
             s.ensure_velocities();
             const int b = s.model().frames[i].body;
             return to_numpy(body_point_velocity(s.data(), b, frame_placement(s.model(), s.data(), i).position)); },
           arg("frame"), "Linear velocity of the frame origin, world (m/s), shape (3,).")
      .def("get_frame_angular_velocity", [](Handle& h, py::handle f) {
             ArticulatedSystem& s = h.obj();
             const int i = frame_index(s.model(), f);
             s.ensure_velocities();
             return to_numpy(body_angular_velocity(s.data(), s.model().frames[i].body)); },
           arg("frame"), "Angular velocity of the frame, world (rad/s), shape (3,).")
      .def("get_dense_frame_rotational_jacobian", [](Handle& h, py::handle f) {
             ArticulatedSystem& s = h.obj();
             const int i = frame_index(s.model(), f);
             Mat3X j = Mat3X::Zero(3, s.dof());
             {
               SharedWorldUse use(h.world->use(), "get_dense_frame_rotational_jacobian()");
               py::gil_scoped_release r;
               s.ensure_kinematics();
               rotational_jacobian(s.model(), s.data(), s.model().frames[i].body, j);
             }
             return to_numpy(j); }, arg("frame"),
           "Rotational Jacobian of the frame, world frame: omega = J gv, shape (3, dof).")
      .def("get_dense_jacobian_at", [](Handle& h, py::handle body, py::handle point) {
             ArticulatedSystem& s = h.obj();
             const int b = body_index(s.model(), body);
             const Vec3 p = to_vec3(point, "point");
             check_finite_vec(p, "point");
             Mat3X j = Mat3X::Zero(3, s.dof());
             {
               SharedWorldUse use(h.world->use(), "get_dense_jacobian_at()");
               py::gil_scoped_release r;
               s.ensure_kinematics();
               point_jacobian(s.model(), s.data(), b, p, j);
             }
             return to_numpy(j); }, arg("body"), arg("point"),
           "Positional Jacobian (3, dof) of the point of `body` (name or index) at the world "
           "position `point` (m): the Jacobian a contact on that body uses.")
      // control
      .def("set_control_mode", [](const Handle& h, ControlMode mode) { h.obj().set_control_mode(mode); },
           arg("mode"))
      .def("get_control_mode", [](const Handle& h) { return h.obj().control_mode(); })
      .def("set_pd_gains", [](const Handle& h, py::handle kp, py::handle kd) {
             ArticulatedSystem& s = h.obj();
             const auto v = to_vectors({{kp, "kp", s.dof()}, {kd, "kd", s.dof()}});
             s.set_pd_gains(v[0], v[1]); },
           arg("kp"), arg("kd"),
           "PD gains per dof, shape (dof,) each, >= 0 (N m/rad and N m s/rad, or N/m and N s/m). "
           "A floating base's six gains are set to zero. Switches to PD_PLUS_FEEDFORWARD_TORQUE. "
           "The PD is implicit (kp dt^2 + kd dt join the mass matrix), stable at high gains.")
      .def("get_pd_gains", [](const Handle& h) {
             return py::make_tuple(to_numpy(h.obj().kp()), to_numpy(h.obj().kd())); },
           "(kp, kd), shape (dof,) each.")
      // set_pd_target, set_generalized_force: bind_articulated_control.cpp
      .def("get_pd_target", [](const Handle& h) {
             return py::make_tuple(to_numpy(h.obj().q_ref()), to_numpy(h.obj().u_ref())); })
      .def("get_feedforward_generalized_force", [](const Handle& h) { return to_numpy(h.obj().feedforward()); })
      .def("get_generalized_force", [](const Handle& h) { return to_numpy(h.obj().applied_force()); },
           "Actuator generalized force applied in the last step: feedforward plus the implicit "
           "PD's torque at the step's end velocity (clamped if set_clamp_to_effort_limits(True)), "
           "shape (dof,).")
      .def("set_effort_limits", [](const Handle& h, py::handle lim) {
             ArticulatedSystem& s = h.obj();
             s.set_effort_limits(to_vector(lim, "effort_limits", s.dof())); }, arg("effort_limits"),
           "Actuator effort limit per dof (> 0, inf for none), shape (dof,). Default: URDF "
           "<limit effort>, applied (clamped) by default: see set_clamp_to_effort_limits.")
      .def("get_clamp_to_effort_limits", [](const Handle& h) { return h.obj().clamp_to_effort_limits(); },
           "Whether actuator torques are clamped to the effort limits (set_clamp_to_effort_limits).")
      .def("get_effort_limits", [](const Handle& h) { return to_numpy(h.obj().effort_limits()); })
      .def("set_clamp_to_effort_limits", [](const Handle& h, bool on) { h.obj().set_clamp_to_effort_limits(on); },
           arg("clamp"),
           "Clamp the actuator torque (feedforward + PD) to the effort limits. On by default "
           "for a robot whose URDF gives effort limits (add_articulated_system("
           "clamp_to_effort_limits=False) or this call turns it off; RaiSim's PD ignores them). "
           "When on, each step applies clamp(demand) of its own "
           "end velocity, saturated dofs their limit exactly. The demand is checked within the "
           "step at the solved velocity, contacts included (a standing robot's knees): a joint "
           "whose demand exceeds its limit is held on that side, and a held joint whose demand is "
           "back within the limit or has reversed is released; the step is then solved again "
           "(at most 6 solves a step).")
      .def("get_joint_limits", [](const Handle& h) {
             const ArticulatedModel& mm = h.obj().model();
             MatX l(mm.nv, 2);
             l.col(0) = mm.lower;
             l.col(1) = mm.upper;
             return to_numpy(l); },
           "Position limits per dof (lower, upper), shape (dof, 2); +-inf where none. They act "
           "as hard inelastic stops during integration.")
      .def("get_joint_damping", [](const Handle& h) { return to_numpy(h.obj().model().damping); },
           "Viscous joint damping per dof from URDF <dynamics damping> (N m s/rad), applied implicitly.")
      .def("get_joint_friction", [](const Handle& h) { return to_numpy(h.obj().model().friction); },
           "Coulomb joint friction per dof from URDF <dynamics friction> (N m), with stiction.")
      // external forces
      .def("set_external_force", [](const Handle& h, py::handle body, py::handle force, py::object point,
                                    const std::string& force_frame, const std::string& point_frame) {
             ArticulatedSystem& s = h.obj();
             const int b = body_index(s.model(), body);
             const bool force_in_body = frame_is_body(force_frame, "force_frame");
             const bool point_in_body = frame_is_body(point_frame, "point_frame");
             Vec3 f = to_vec3(force, "force");
             Vec3 p = point.is_none() ? s.model().bodies[b].com : to_vec3(point, "point");
             s.ensure_kinematics();
             const Mat3& r = s.data().body_rotation[b];
             if (force_in_body) f = r * f;
             if (point.is_none() || point_in_body) p = s.data().body_position[b] + r * p;
             s.add_external_force(b, f, p); },
           arg("body"), arg("force"), arg("point") = py::none(), arg("force_frame") = "world",
           arg("point_frame") = "world",
           "Apply a force (N) to a body (name or index) at a point (m) during the next step only "
           "(RaiSim's setExternalForce). Calls add up. force_frame and point_frame are 'world' or "
           "'body' (the body's frame: the origin and axes of the joint that moves it): a force "
           "given in the body frame turns with the body, a point given in the body frame is "
           "fixed on it. Default point: the body's COM.")
      .def("set_external_torque", [](const Handle& h, py::handle body, py::handle torque,
                                     const std::string& frame) {
             ArticulatedSystem& s = h.obj();
             const int b = body_index(s.model(), body);
             const bool in_body = frame_is_body(frame, "frame");
             Vec3 t = to_vec3(torque, "torque");
             if (in_body) {
               s.ensure_kinematics();
               t = s.data().body_rotation[b] * t;
             }
             s.add_external_torque(b, t); },
           arg("body"), arg("torque"), arg("frame") = "world",
           "Apply a torque (N m) to a body during the next step only; frame 'world' or 'body' "
           "(the torque's axes turn with the body).")
      // collision properties and geometry
      .def("get_collision_group", [](const Handle& h) { return h.obj().collision_group; })
      .def("get_collision_mask", [](const Handle& h) { return h.obj().collision_mask; })
      .def("set_self_collision", [](const Handle& h, bool on) {
             if (h.world->is_mid_step())  // a wrong state: RuntimeError (DESIGN.md)
               throw std::logic_error(
                   "set_self_collision is not allowed between integrate1() and integrate2()");
             h.obj().set_self_collision(on); }, arg("enabled"),
           "Turn contacts between bodies of this system on or off (default: off, or as given "
           "to add_articulated_system). When on, two bodies "
           "collide if their collision groups and masks allow it, except a body and its parent "
           "when the system was added with do_not_collide_with_parent=True.")
      .def("get_self_collision", [](const Handle& h) { return h.obj().self_collision; },
           "Whether bodies of this system collide with each other (see set_self_collision).")
      .def("get_do_not_collide_with_parent", [](const Handle& h) { return h.obj().do_not_collide_with_parent; })
      .def("get_collision_bodies", [](const Handle& h) {
             py::list out;
             for (const auto& c : h.obj().model().collisions) {
               py::dict d = placement_dict(c.placement);
               d["name"] = c.name;
               d["body"] = c.body;
               d["shape"] = shape_type_name(c.shape.type);
               d["radius"] = c.shape.radius;
               d["height"] = c.shape.height;
               d["size"] = to_numpy(2.0 * c.shape.half_extents);
               out.append(d);
             }
             return out; },
           "Primitive collision shapes: dicts with name, body, shape, radius, height (cylinder: "
           "full height; capsule: distance between hemisphere centres), size (box lengths), and "
           "position/rotation in the body frame.")
      .def("get_visual_bodies", [](const Handle& h) {
             py::list out;
             for (const auto& v : h.obj().model().visuals) {
               py::dict d = placement_dict(v.placement);
               d["name"] = v.name;
               d["body"] = v.body;
               d["kind"] = kVisualNames[static_cast<int>(v.kind)];
               d["size"] = to_numpy(v.size);
               d["mesh"] = v.mesh_path;
               d["mesh_scale"] = to_numpy(v.mesh_scale);
               d["rgba"] = to_numpy(v.rgba);
               d["material"] = v.material;
               out.append(d);
             }
             return out; },
           "Visual shapes for viewers (never simulated): dicts with name, body, kind, size (box "
           "lengths, or (radius, length, 0)), mesh (path resolved against res_path), mesh_scale, "
           "rgba, material, and position/rotation in the body frame.")
      .def("get_visual_shapes", [](const Handle& h) {
             const ArticulatedModel& model = h.obj().model();
             py::list out;
             for (const auto& v : model.visuals) {
               py::dict d;
               d["name"] = v.name;
               d["body"] = v.body;
               d["body_name"] = model.bodies[static_cast<std::size_t>(v.body)].name;
               d["kind"] = kVisualNames[static_cast<int>(v.kind)];
               if (v.kind == VisualBody::Kind::kBox) d["size"] = to_numpy(v.size);
               else if (v.kind == VisualBody::Kind::kSphere) d["radius"] = v.size.x();
               else if (v.kind != VisualBody::Kind::kMesh) {
                 d["radius"] = v.size.x();
                 d["length"] = v.size.y();
               }
               d["file"] = v.mesh_path;
               d["scale"] = to_numpy(v.mesh_scale);
               d["rgba"] = to_numpy(v.rgba);
               d["material"] = v.material;
               d["origin"] = placement_dict(v.placement);
               out.append(d);
             }
             return out; },
           "The robot's visual shapes (the URDF's <visual> elements, never simulated), for "
           "cameras and viewers: dicts with name, body (index) and body_name, kind ('box', "
           "'sphere', 'cylinder', 'capsule' or 'mesh'), size (box lengths, m) or radius and "
           "length, file (a mesh's path resolved against res_path, '' otherwise), scale (the "
           "mesh scale), rgba (the colour, from the visual's material or a named top-level "
           "material; 0.7 grey without one), material (its name) and origin (a dict of position "
           "and rotation of the shape in its body's frame).")
      // benchmark helpers: C++ timing loops, for benchmarks/bench_articulated.py
      .def("benchmark_frame_jacobian", [](Handle& h, py::handle f, int iterations) {
             ArticulatedSystem& s = h.obj();
             const int i = frame_index(s.model(), f);
             if (iterations <= 0) throw py::value_error("iterations must be > 0");
             Mat3X j = Mat3X::Zero(3, s.dof());
             SharedWorldUse use(h.world->use(), "benchmark_frame_jacobian()");
             py::gil_scoped_release r;
             ArticulatedData& d = query_data(s);
             const auto t0 = std::chrono::steady_clock::now();
             for (int it = 0; it < iterations; ++it) {
               // the full work of a query from a new configuration: kinematics then the Jacobian
               d.kinematics_valid = false;
               update_kinematics(s.model(), d);
               point_jacobian(s.model(), d, s.model().frames[i].body,
                              frame_placement(s.model(), d, i).position, j);
             }
             const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
             return us / iterations; }, arg("frame"), arg("iterations"),
           "Benchmark helper: mean time (us) of forward kinematics + one frame Jacobian in a C++ loop.")
      .def("benchmark_mass_matrix", [](Handle& h, int iterations) {
             ArticulatedSystem& s = h.obj();
             if (iterations <= 0) throw py::value_error("iterations must be > 0");
             SharedWorldUse use(h.world->use(), "benchmark_mass_matrix()");
             py::gil_scoped_release r;
             ArticulatedData& d = query_data(s);
             const auto t0 = std::chrono::steady_clock::now();
             for (int it = 0; it < iterations; ++it) {
               update_kinematics(s.model(), d);
               crba(s.model(), d);
             }
             const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
             return us / iterations; }, arg("iterations"),
           "Benchmark helper: mean time (us) of forward kinematics + CRBA in a C++ loop.");
}

// `urdf` as URDF text (a str whose first non-blank character is '<') or a path (str, bytes,
// os.PathLike); ValueError naming urdf for anything else or a path with a NUL byte
std::string urdf_argument(py::handle urdf, bool& is_text) {
  is_text = false;
  if (py::isinstance<py::str>(urdf)) {
    Py_ssize_t len = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(urdf.ptr(), &len);
    if (!utf8) {
      // lone surrogates: not text but a path, as os.fsdecode gives for a file name that is not
      // UTF-8 (pybind11's cast to std::string raised a generic RuntimeError)
      PyErr_Clear();
      return to_path(urdf, "urdf");
    }
    std::string text(utf8, static_cast<std::size_t>(len));
    const auto first = text.find_first_not_of(" \t\r\n");
    is_text = first != std::string::npos && text[first] == '<';
    if (!is_text) check_no_nul(text, "urdf");
    return text;
  }
  if (PyBytes_Check(urdf.ptr()) || py::hasattr(urdf, "__fspath__")) return to_path(urdf, "urdf");
  throw py::value_error("urdf must be a path (str, bytes or os.PathLike) or a URDF string");
}

// the URDF's tolerances (UrdfReport::warnings) as torsion.URDFWarning; with warnings turned into
// errors (filterwarnings=error) the first raises here, before the robot is added
void emit_urdf_warnings(const UrdfReport& report) {
  if (report.warnings.empty()) return;
  const py::object category = py::module_::import("torsion._core").attr("URDFWarning");
  for (const std::string& w : report.warnings)
    if (PyErr_WarnEx(category.ptr(), w.c_str(), 2) != 0) throw py::error_already_set();
}

std::shared_ptr<const ArticulatedModel> load(py::handle urdf, const std::string& res_path,
                                             const std::vector<std::string>& joint_order,
                                             py::object fixed_base, UrdfReport& report) {
  check_no_nul(res_path, "res_path");
  UrdfOptions opt;
  opt.res_path = res_path;
  opt.joint_order = joint_order;
  if (fixed_base.is_none()) opt.fixed_base = -1;
  else if (py::isinstance<py::bool_>(fixed_base)) opt.fixed_base = fixed_base.cast<bool>() ? 1 : 0;
  else throw py::value_error("fixed_base must be None, True or False");
  bool is_text = false;
  const std::string text = urdf_argument(urdf, is_text);
  std::shared_ptr<const ArticulatedModel> model;
  {
    py::gil_scoped_release r;
    if (is_text) {
      model = load_urdf_string(text, opt, res_path.empty() ? "." : res_path, &report);
    } else {
      if (!std::filesystem::is_regular_file(text))
        throw std::invalid_argument("urdf: no such URDF file '" + text +
                                    "' (a URDF string must start with '<')");
      model = load_urdf_file(text, opt, &report);
    }
  }
  emit_urdf_warnings(report);
  return model;
}

}  // namespace

// declared in bindings/articulated_args.hpp (the fast-call methods use it too)
int frame_index(const ArticulatedModel& m, py::handle frame) {
  if (PyUnicode_Check(frame.ptr())) {
    // compare against the str's own UTF-8 buffer: no std::string per call
    Py_ssize_t len = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(frame.ptr(), &len);
    if (!utf8) throw py::error_already_set();
    const std::string_view name(utf8, static_cast<std::size_t>(len));
    for (std::size_t k = 0; k < m.frames.size(); ++k)
      if (m.frames[k].name == name) return static_cast<int>(k);
    // then by link name: the frame at the link's origin
    for (std::size_t k = 0; k < m.frames.size(); ++k)
      if (!m.frames[k].link.empty() && m.frames[k].link == name) return static_cast<int>(k);
    throw py::value_error(
        "frame: unknown frame name '" + std::string(name) + "'; frames (joint names) are " +
        name_list(m.frames, [](const ArticulatedFrame& f) -> const std::string& { return f.name; }) +
        ", or by link name " +
        name_list(m.frames, [](const ArticulatedFrame& f) -> const std::string& { return f.link; }));
  }
  return index_in_range(frame, m.frames.size(), "frame");
}

std::vector<Eigen::VectorXd> to_vectors(std::initializer_list<VectorArg> args) {
  std::vector<Eigen::VectorXd> out;
  std::string errors;
  for (const VectorArg& a : args) {
    try {
      out.push_back(to_vector(a.obj, a.name, a.size));
    } catch (const py::value_error& e) {
      errors += (errors.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  if (!errors.empty()) throw py::value_error(errors);
  return out;
}

void warn_start_limit_violations(World& world) {
  for (const auto& obj : world.objects()) {
    if (obj->type() != ObjectType::kArticulatedSystem) continue;
    auto& a = static_cast<ArticulatedSystem&>(*obj);
    ArticulatedSystem::LimitViolation v;
    if (!a.take_start_limit_violation(v)) continue;
    const ArticulatedBody& b = a.model().bodies[v.body];
    const std::string who = a.name().empty() ? "id " + std::to_string(a.id()) : "'" + a.name() + "'";
    const std::string msg =
        "articulated system " + who + " started outside its joint limits: joint '" +
        b.joint_name + "' is at " + fmt(v.value) + ", its limits are [" + fmt(v.lower) + ", " +
        fmt(v.upper) + "]; the joint-limit rows push it back (set a configuration within the "
        "limits, e.g. with set_generalized_coordinate, before stepping)";
    const py::object category = py::module_::import("torsion").attr("JointLimitWarning");
    if (PyErr_WarnEx(category.ptr(), msg.c_str(), 1) != 0) throw py::error_already_set();
  }
}

namespace {

// The actuated joints: every movable joint except a floating base. The floating joint can only
// be the root (body 0: gc[0:7], gv[0:6]), so the actuated joints' coordinates are the tail of gc
// and gv after it: gc[gc_offset:], gv[gv_offset:].
struct Actuated {
  int gc_offset, gv_offset, nq, nv;
};
Actuated actuated(const ArticulatedSystem& s) {
  const bool fl = s.model().floating_base;
  const int gq = fl ? 7 : 0, gv = fl ? 6 : 0;
  return {gq, gv, s.gc_dim() - gq, s.dof() - gv};
}

// an actuated joint (revolute, prismatic, spherical; not a mimic) by name; ValueError listing them
const ArticulatedBody& actuated_joint(const ArticulatedModel& m, const std::string& name,
                                      const char* what) {
  for (const ArticulatedBody& b : m.bodies)
    if (b.joint_name == name && b.gv_size > 0 && b.joint_type != JointType::kFloating) return b;
  std::string names = "[";
  bool first = true;
  for (const ArticulatedBody& b : m.bodies) {
    if (b.gv_size == 0 || b.joint_type == JointType::kFloating) continue;
    names += (first ? "'" : ", '") + b.joint_name + "'";
    first = false;
  }
  throw py::value_error(std::string(what) + ": unknown actuated joint '" + name +
                        "'; the actuated joints are " + names + "]");
}

// A command for the actuated joints written into `full` (a gc- or gv-layout vector): an array of
// `n` values (the tail after the base, from `offset`), a number (every actuated entry, when
// `scalar_ok`), or a dict {joint name: value(s)} that changes only the joints it names. Returns
// the bodies a dict named (empty for an array). Shape and type errors go to `errors` (collected,
// so that a call with several wrong arguments names all of them).
std::vector<const ArticulatedBody*> write_actuated(const ArticulatedModel& m, py::handle value,
                                                   const char* name, bool gc_layout, int offset,
                                                   int n, bool scalar_ok, VecX& full,
                                                   std::string& errors) {
  std::vector<const ArticulatedBody*> named;
  try {
    if (PyDict_Check(value.ptr())) {
      for (auto item : py::reinterpret_borrow<py::dict>(value)) {
        if (!py::isinstance<py::str>(item.first))
          throw py::value_error(std::string(name) + ": dict keys must be joint names (str)");
        const ArticulatedBody& b = actuated_joint(m, item.first.cast<std::string>(), name);
        const int size = gc_layout ? b.gc_size : b.gv_size;
        const int at = gc_layout ? b.gc_index : b.gv_index;
        const std::string field = std::string(name) + "['" + b.joint_name + "']";
        VecX v;
        if (size == 1 && (PyFloat_Check(item.second.ptr()) || PyLong_Check(item.second.ptr())))
          v = VecX::Constant(1, item.second.cast<double>());
        else
          v = to_vector(item.second, field.c_str(), size);
        if (!v.allFinite()) throw py::value_error(field + " must be finite");
        full.segment(at, size) = v;
        named.push_back(&b);
      }
      return named;
    }
    const auto finite = [&](auto&& v) {
      if (!v.allFinite()) throw py::value_error(std::string(name) + " must be finite");
    };
    if (scalar_ok && (PyFloat_Check(value.ptr()) || PyLong_Check(value.ptr()))) {
      full.segment(offset, n).setConstant(value.cast<double>());
      finite(full.segment(offset, n));
      return named;
    }
    // a contiguous float64 array of the right size is read in place (the per-step case)
    if (const double* data = fastcall::float64_vector_data(value, n)) {
      full.segment(offset, n) = Eigen::Map<const VecX>(data, n);
      finite(full.segment(offset, n));
      return named;
    }
    const std::string want = std::string(name) + " (the actuated joints' " +
                             (gc_layout ? "coordinates" : "dofs") + ")";
    const VecX v = to_vector(value, want.c_str(), n);
    finite(v);
    full.segment(offset, n) = v;
  } catch (const py::value_error& e) {
    errors += (errors.empty() ? "" : "; ") + std::string(e.what());
  }
  return named;
}

void throw_if(const std::string& errors) {
  if (!errors.empty()) throw py::value_error(errors);
}

// an orientation given as a (w, x, y, z) quaternion (any non-zero norm, normalised) or a (3, 3)
// rotation matrix
Quat orientation_arg(py::handle o, const char* name) {
  auto a = to_float_array(o, name, "a quaternion (w, x, y, z) or a (3, 3) rotation matrix");
  if (a.ndim() == 1 && a.shape(0) == 4) {
    const Vec4 v = to_vec4(o, name);
    const double scale = v.cwiseAbs().maxCoeff();
    if (!v.allFinite() || !(scale > 0.0))
      throw py::value_error(std::string(name) + " must be a finite quaternion with a non-zero norm");
    const Vec4 u = v / scale;
    return Quat(u[0], u[1], u[2], u[3]).normalized();
  }
  if (a.ndim() == 2 && a.shape(0) == 3 && a.shape(1) == 3) {
    const Mat3 r = to_mat3(o, name);
    if (!r.allFinite() || (r.transpose() * r - Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-6 ||
        r.determinant() < 0.0)
      throw py::value_error(std::string(name) + " must be a rotation matrix (orthonormal, det +1)");
    return Quat(r).normalized();
  }
  throw py::value_error(std::string(name) +
                        " must be a quaternion (w, x, y, z), shape (4,), or a rotation matrix, "
                        "shape (3, 3), got shape " + py::str(py::tuple(a.attr("shape"))).cast<std::string>());
}

py::array_t<double> quat_array(const Quat& q) {
  return to_numpy(Vec4(q.w(), q.x(), q.y(), q.z()));
}

py::array_t<double> tail(const VecX& v, int offset) {
  return to_numpy(v.tail(v.size() - offset));
}

void bind_first_hour(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Handle, ObjectHandle>>(m.attr("ArticulatedSystem"));
  cls
      // names
      .def("get_link_names", [](const Handle& h) {
             std::vector<std::string> out;
             for (const auto& f : h.obj().model().frames) out.push_back(f.link);
             return out; },
           "The link of every frame (the joint's child link, whose origin the frame is at), in "
           "frame-index order beside get_frame_names(): every frame call takes a link name as "
           "well as a joint name, and a link joined by a fixed joint keeps its own frame.")
      .def("get_joint_gc_index", [](const Handle& h, const std::string& name) {
             const ArticulatedModel& mm = h.obj().model();
             for (const auto& b : mm.bodies)
               if (b.joint_name == name && b.gc_size > 0) return b.gc_index;
             throw py::value_error("name: no joint '" + name + "' with coordinates; the joints "
                                   "with coordinates are " +
                                   name_list(mm.movable_joints, [](const std::string& s) -> const std::string& { return s; })); },
           arg("name"),
           "Index of a movable joint's first coordinate in gc (revolute/prismatic: 1 entry, "
           "spherical: 4, floating: 7). ValueError listing the movable joints otherwise.")
      .def("get_joint_gv_index", [](const Handle& h, const std::string& name) {
             const ArticulatedModel& mm = h.obj().model();
             for (const auto& b : mm.bodies)
               if (b.joint_name == name && b.gv_size > 0) return b.gv_index;
             throw py::value_error("name: no joint '" + name + "' with dofs; the joints with "
                                   "dofs are " +
                                   name_list(mm.movable_joints, [](const std::string& s) -> const std::string& { return s; })); },
           arg("name"),
           "Index of a movable joint's first dof in gv (revolute/prismatic: 1 entry, spherical: "
           "3, floating: 6). ValueError listing the movable joints otherwise.")
      .def("get_actuated_joint_names", [](const Handle& h) {
             std::vector<std::string> out;
             for (const auto& b : h.obj().model().bodies)
               if (b.gv_size > 0 && b.joint_type != JointType::kFloating) out.push_back(b.joint_name);
             return out; },
           "The actuated joints: every movable joint except a floating base, in gc/gv order "
           "(get_movable_joint_names() without 'ROOT'). The set_joint_* and get_joint_* calls "
           "use their layout.")
      .def("get_actuated_gc_indices", [](const Handle& h) {
             const Actuated a = actuated(h.obj());
             py::array_t<std::int64_t> out(a.nq);
             for (int k = 0; k < a.nq; ++k) out.mutable_data()[k] = a.gc_offset + k;
             return out; },
           "gc index of every actuated coordinate, shape (gc_dim - 7,) with a floating base, "
           "(gc_dim,) without: gc[get_actuated_gc_indices()] == get_joint_positions().")
      .def("get_actuated_gv_indices", [](const Handle& h) {
             const Actuated a = actuated(h.obj());
             py::array_t<std::int64_t> out(a.nv);
             for (int k = 0; k < a.nv; ++k) out.mutable_data()[k] = a.gv_offset + k;
             return out; },
           "gv index of every actuated dof, shape (dof - 6,) with a floating base, (dof,) "
           "without.")
      .def("get_joint_positions", [](const Handle& h) {
             return tail(h.obj().data().q, actuated(h.obj()).gc_offset); },
           "The actuated joints' coordinates (gc without a floating base's 7), a fresh array.")
      .def("get_joint_velocities", [](const Handle& h) {
             return tail(h.obj().data().u, actuated(h.obj()).gv_offset); },
           "The actuated joints' rates (gv without a floating base's 6), a fresh array.")
      .def("get_joint_forces", [](const Handle& h) {
             return tail(h.obj().applied_force(), actuated(h.obj()).gv_offset); },
           "The actuated joints' part of get_generalized_force(): the torque (N m) or force (N) "
           "the actuators applied in the last step.")
      // commands sized to the actuated joints
      .def("set_joint_pd_targets", [](const Handle& h, py::handle positions, py::handle velocities) {
             ArticulatedSystem& s = h.obj();
             const ArticulatedModel& mm = s.model();
             const Actuated a = actuated(s);
             VecX q = s.q_ref(), u = s.u_ref();
             std::string errors;
             const auto named = write_actuated(mm, positions, "positions", true, a.gc_offset, a.nq,
                                               false, q, errors);
             if (velocities.is_none()) {
               // zero velocity targets for the joints commanded
               if (PyDict_Check(positions.ptr()))
                 for (const ArticulatedBody* b : named) u.segment(b->gv_index, b->gv_size).setZero();
               else
                 u.tail(a.nv).setZero();
             } else {
               write_actuated(mm, velocities, "velocities", false, a.gv_offset, a.nv, false, u, errors);
             }
             throw_if(errors);
             s.set_pd_target(q, u); },
           arg("positions"), arg("velocities") = py::none(),
           "PD targets of the actuated joints: positions, shape (n,) in their gc layout "
           "(get_joint_positions(); n = gc_dim - 7 with a floating base), and velocities, shape "
           "(m,) in their gv layout (m = dof - 6 with a floating base; None: zero). Either may be "
           "a dict {joint name: value} that changes only the joints it names. The same as "
           "set_pd_target with the full layout (the base's entries kept).")
      .def("set_joint_pd_gains", [](const Handle& h, py::handle kp, py::handle kd) {
             ArticulatedSystem& s = h.obj();
             const Actuated a = actuated(s);
             VecX p = s.kp(), d = s.kd();
             std::string errors;
             write_actuated(s.model(), kp, "kp", false, a.gv_offset, a.nv, true, p, errors);
             write_actuated(s.model(), kd, "kd", false, a.gv_offset, a.nv, true, d, errors);
             throw_if(errors);
             s.set_pd_gains(p, d); },
           arg("kp"), arg("kd"),
           "PD gains of the actuated joints, >= 0: each a number (every joint), an array of "
           "shape (m,) in their gv layout (m = dof - 6 with a floating base) or a dict {joint "
           "name: gain}. The same as set_pd_gains with the full layout (a floating base's gains "
           "are zero). Switches to PD_PLUS_FEEDFORWARD_TORQUE.")
      .def("set_joint_forces", [](const Handle& h, py::handle tau) {
             ArticulatedSystem& s = h.obj();
             const Actuated a = actuated(s);
             VecX t = s.feedforward();
             std::string errors;
             write_actuated(s.model(), tau, "tau", false, a.gv_offset, a.nv, false, t, errors);
             throw_if(errors);
             s.set_generalized_force(t); },
           arg("tau"),
           "Feedforward torques (N m) or forces (N) of the actuated joints: shape (m,) in their "
           "gv layout (m = dof - 6 with a floating base) or a dict {joint name: value}. The same "
           "as set_generalized_force with the full layout (the base's entries kept). Persistent.")
      // the base
      .def("set_base_position", [](const Handle& h, py::handle position) {
             ArticulatedSystem& s = h.obj();
             const Vec3 p = to_finite_vec3(position, "position");
             if (s.model().floating_base) {
               VecX q = s.data().q;
               q.head<3>() = p;
               s.set_generalized_coordinate(q);
             } else {
               // the system gets a new model: no other thread may be reading the old one
               ExclusiveWorldUse use(h.world->use(), "set_base_position()");
               Pose pl = s.fixed_base_placement();
               pl.position = p;
               s.set_fixed_base_placement(pl);
             } },
           arg("position"),
           "Place the base (the root link's origin) at a world position (m), shape (3,) "
           "(RaiSim's setBasePos, PyBullet's resetBasePositionAndOrientation). A floating base: "
           "gc[0:3], velocities kept. A fixed base is mounted there (the whole robot moves "
           "with it; kept in checkpoints). RuntimeError between integrate1() and integrate2().")
      .def("set_base_orientation", [](const Handle& h, py::handle orientation) {
             ArticulatedSystem& s = h.obj();
             const Quat r = orientation_arg(orientation, "orientation");
             if (s.model().floating_base) {
               VecX q = s.data().q;
               q.segment<4>(3) = Vec4(r.w(), r.x(), r.y(), r.z());
               s.set_generalized_coordinate(q);
             } else {
               ExclusiveWorldUse use(h.world->use(), "set_base_orientation()");
               Pose pl = s.fixed_base_placement();
               pl.rotation = r.toRotationMatrix();
               s.set_fixed_base_placement(pl);
             } },
           arg("orientation"),
           "Turn the base: a quaternion (w, x, y, z) (normalised) or a (3, 3) rotation matrix, "
           "base to world (RaiSim's setBaseOrientation). A floating base: gc[3:7]; a fixed base "
           "is mounted so. See set_base_position.")
      .def("get_base_position", [](const Handle& h) {
             const ArticulatedSystem& s = h.obj();
             if (s.model().floating_base) return to_numpy(s.data().q.head<3>());
             return to_numpy(s.fixed_base_placement().position); },
           "World position of the base (the root link's origin), m, shape (3,).")
      .def("get_base_orientation", [](const Handle& h) {
             const ArticulatedSystem& s = h.obj();
             if (s.model().floating_base) {
               const VecX& q = s.data().q;
               return quat_array(Quat(q[3], q[4], q[5], q[6]));
             }
             return quat_array(Quat(s.fixed_base_placement().rotation)); },
           "Orientation of the base, a unit quaternion (w, x, y, z), shape (4,) "
           "(torsion.rotations.quat_to_matrix gives the matrix).")
      // gravity compensation
      .def("set_gravity_compensation", [](const Handle& h, bool enabled, py::handle body) {
             ArticulatedSystem& s = h.obj();
             if (body.is_none()) s.set_gravity_compensation(enabled);
             else s.set_body_gravity_compensation(body_index(s.model(), body), enabled); },
           arg("enabled"), arg("body") = py::none(),
           "Gravity compensation (MuJoCo's gravcomp): every step, each compensated body gets "
           "the force -m g at its centre of mass, so gravity no longer pulls on it (a PD arm "
           "holds its pose without sagging). body: None (every body) or one body by name or "
           "index (a body holds the links fixed to it: naming one of them, or its fixed joint, names "
           "the whole body). A passive force, not an actuator's: effort limits do not clamp it, "
           "get_generalized_force() does not include it. With every body of a floating-base "
           "robot compensated the robot floats. Off by default; kept in checkpoints.")
      .def("get_gravity_compensation", [](const Handle& h, py::handle body) -> py::object {
             const ArticulatedSystem& s = h.obj();
             if (!body.is_none()) return py::bool_(s.body_gravity_compensation(body_index(s.model(), body)));
             py::list out;
             for (std::size_t b = 0; b < s.model().bodies.size(); ++b)
               out.append(py::bool_(s.body_gravity_compensation(static_cast<int>(b))));
             return out; },
           arg("body") = py::none(),
           "Whether a body (name or index) is gravity compensated; body None: a list of bools, "
           "one per body.");
}

// URDF text or path plus the seed's options: the system added, with its source recorded
py::object add_system(const WorldPtr& w, py::handle urdf, const std::string& res_path,
                      const std::vector<std::string>& joint_order, py::handle group,
                      py::handle mask, py::object fixed_base, bool do_not_collide_with_parent,
                      bool self_collision, bool convexify_collision_meshes,
                      bool clamp_to_effort_limits) {
  if (!convexify_collision_meshes)
    throw py::value_error(
        "convexify_collision_meshes=False is not supported: torsion loads a robot's collision "
        "meshes as convex hulls (RaiSim's convexifyCollisionMeshes=true); a link's triangle "
        "mesh cannot collide as a moving body");
  UrdfReport report;
  auto model = load(urdf, res_path, joint_order, fixed_base, report);
  auto& o = w->add_articulated_system(model, to_group(group, "collision_group"),
                                      to_group(mask, "collision_mask"),
                                      do_not_collide_with_parent, self_collision);
  // PyBullet's <plane> on a link fixed to the world: a static ground of the world
  for (double z : report.ground_heights)
    w->add_ground(z, "default", to_group(py::int_(-1), "collision_mask"));
  // the URDF's effort limits apply unless turned off (none given: nothing to clamp)
  if (clamp_to_effort_limits && model->effort_limit.array().isFinite().any())
    o.set_clamp_to_effort_limits(true);
  // where it came from, for World.export_to_xml
  ArticulatedSource src;
  bool is_text = false;
  const std::string text = urdf_argument(urdf, is_text);
  if (is_text) src.urdf_text = text;
  else src.urdf_path = std::filesystem::absolute(text).string();
  src.res_path = res_path;
  src.joint_order = joint_order;
  src.fixed_base = fixed_base.is_none() ? -1 : fixed_base.cast<bool>() ? 1 : 0;
  w->set_articulated_source(o.id(), std::move(src));
  return make_handle(w, o);
}

// the directory relative paths of a robot file resolve against: res_path if given, else the
// file's own directory ("" for URDF text)
std::string default_res_path(const std::string& res_path, const std::string& file) {
  if (!res_path.empty()) return res_path;
  return std::filesystem::absolute(file).parent_path().string();
}

}  // namespace

void bind_articulated(py::module_& m) {
  m.attr("URDFWarning") = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "torsion.URDFWarning",
      "A URDF file departs from the format in a way torsion tolerates (as PyBullet does): the "
      "message names the file, the line and what was assumed (docs/robot_files.md).",
      PyExc_UserWarning, nullptr));
  bind_system(m);
  bind_first_hour(m);
}

void world_methods_articulated(WorldClass& world) {
  // the seed's (filePathOrURDFScript, modules, resPath, ...) overload: URDF fragments (files or
  // text) joined into the robot before loading (torsion/urdf_modules.py)
  world.def(
      "add_articulated_system",
      [](const WorldPtr& w, py::handle urdf, const std::vector<py::object>& modules,
         py::handle res_path_arg, const std::vector<std::string>& joint_order, py::handle group,
         py::handle mask, py::object fixed_base, bool do_not_collide_with_parent,
         bool self_collision, bool convexify_collision_meshes, bool clamp_to_effort_limits) {
        const std::string res_path = to_path(res_path_arg, "res_path");
        const py::tuple joined =
            py::module_::import("torsion.urdf_modules").attr("join")(urdf, modules).cast<py::tuple>();
        const std::string base = joined[1].cast<std::string>();
        return add_system(w, joined[0], res_path.empty() ? base : res_path, joint_order, group,
                          mask, fixed_base, do_not_collide_with_parent, self_collision,
                          convexify_collision_meshes,
                          clamp_to_effort_limits);
      },
      arg("urdf"), arg("modules"), arg("res_path") = "",
      arg("joint_order") = std::vector<std::string>(), arg("collision_group") = 1,
      arg("collision_mask") = -1, arg("fixed_base") = py::none(),
      arg("do_not_collide_with_parent") = true, arg("self_collision") = false,
      arg("convexify_collision_meshes") = true, arg("clamp_to_effort_limits") = true,
      "The seed's modules overload: add_articulated_system(urdf, modules, res_path, ...). "
      "modules: a list of URDF fragments (file paths or text starting with '<'), each a <robot> "
      "whose links and joints (and materials) are added to the robot's; a fragment's joint names "
      "a parent link of the robot. Relative mesh paths of a fragment file resolve against its own "
      "directory. Other arguments as in the URDF form; ValueError naming the module for a bad "
      "fragment.");
  // the seed's (xmlFileTemplate, params, resPath, ...) overload: @@name tokens of the file are
  // replaced (as World(path, params) does for a world file) before loading
  world.def(
      "add_articulated_system",
      [](const WorldPtr& w, py::handle template_file, const py::dict& params,
         py::handle res_path_arg, const std::vector<std::string>& joint_order, py::handle group,
         py::handle mask, py::object fixed_base, bool do_not_collide_with_parent,
         bool self_collision, bool convexify_collision_meshes, bool clamp_to_effort_limits) {
        const std::string res_path = to_path(res_path_arg, "res_path");
        const std::string path = to_path(template_file, "xml_file_template");
        const std::map<std::string, std::string> values = template_values(params);
        std::ifstream in(path, std::ios::binary);
        if (!in || !std::filesystem::is_regular_file(path))
          throw py::value_error("xml_file_template: no such file '" + path + "'");
        std::ostringstream text;
        text << in.rdbuf();
        std::string urdf = substitute_template_params(text.str(), values);
        const auto first = urdf.find_first_not_of(" \t\r\n");
        if (first == std::string::npos || urdf[first] != '<')
          throw py::value_error("xml_file_template: '" + path + "' is not XML after substitution");
        return add_system(w, py::str(urdf), default_res_path(res_path, path), joint_order, group,
                          mask, fixed_base, do_not_collide_with_parent, self_collision,
                          convexify_collision_meshes,
                          clamp_to_effort_limits);
      },
      arg("xml_file_template"), arg("params"), arg("res_path") = "",
      arg("joint_order") = std::vector<std::string>(), arg("collision_group") = 1,
      arg("collision_mask") = -1, arg("fixed_base") = py::none(),
      arg("do_not_collide_with_parent") = true, arg("self_collision") = false,
      arg("convexify_collision_meshes") = true, arg("clamp_to_effort_limits") = true,
      "The seed's template overload: add_articulated_system(xml_file_template, params, "
      "res_path, ...). Every @@name token of the URDF file is replaced by str(params[name]) "
      "(floats by repr, bools as true/false; missing names raise ValueError naming them), then "
      "the text loads as a URDF with res_path defaulting to the file's directory.");
  world.def(
      "add_articulated_system",
      [](const WorldPtr& w, py::handle urdf, py::handle res_path_arg,
         const std::vector<std::string>& joint_order, py::handle group, py::handle mask,
         py::object fixed_base, bool do_not_collide_with_parent, bool self_collision,
         bool convexify_collision_meshes, bool clamp_to_effort_limits) {
        // a path like urdf: str (lone surrogates as os.fsdecode makes them), bytes, os.PathLike
        const std::string res_path = to_path(res_path_arg, "res_path");
        return add_system(w, urdf, res_path, joint_order, group, mask, fixed_base,
                          do_not_collide_with_parent, self_collision, convexify_collision_meshes,
                          clamp_to_effort_limits);
      },
      arg("urdf"), arg("res_path") = "", arg("joint_order") = std::vector<std::string>(),
      arg("collision_group") = 1, arg("collision_mask") = -1, arg("fixed_base") = py::none(),
      arg("do_not_collide_with_parent") = true, arg("self_collision") = false,
      arg("convexify_collision_meshes") = true, arg("clamp_to_effort_limits") = true,
      "Add a robot from a URDF file path or a URDF string (text starting with '<').\n\n"
      "res_path: directory for mesh paths (package://pkg/x -> res_path/pkg/x or res_path/x; "
      "relative paths -> res_path/path); default: the URDF file's directory. joint_order: the "
      "movable joints in the gc/gv order wanted (empty: depth-first in file order). fixed_base: "
      "None = automatic: a root link named 'world' is the world (fixed, unless a floating joint "
      "holds the base), any other root link of zero or no mass is fixed to the world (as "
      "PyBullet does), else the base floats; True/False override it (a base without a world "
      "link is fixed at the world origin). What the file departs from the URDF format in a way "
      "PyBullet tolerates is read as docs/robot_files.md says and reported once per kind as "
      "torsion.URDFWarning (file, line, what was assumed); a PyBullet <plane> collision of a "
      "link fixed to the world adds a static ground to the world. Returns an ArticulatedSystem in FORCE_AND_TORQUE "
      "mode at the neutral configuration (zero joints, identity quaternions). Malformed URDF: "
      "ValueError naming the element and line. "
      "Contacts: every link collision shape collides with other objects (group/mask); "
      "self_collision=True also lets non-adjacent bodies of the robot collide (a body and its "
      "parent only when do_not_collide_with_parent=False); see set_self_collision. "
      "clamp_to_effort_limits: the URDF's <limit effort> values clamp the actuator torques "
      "(feedforward + PD) from the start (default True; False: RaiSim's unclamped PD; "
      "set_clamp_to_effort_limits changes it later). Frames and bodies are found by joint or "
      "link name. A robot whose first step starts outside its joint limits gives one "
      "torsion.JointLimitWarning. "
      "convexify_collision_meshes (the seed's option): collision meshes load as convex hulls; "
      "False (keep the triangle mesh) raises ValueError.");
  // the Child overload: the tree is turned into a model description by Python code
  // (torsion/articulated_tree.py), then loaded like a URDF string
  world.def(
      "add_articulated_system_from_tree",
      [](const py::object& self, const py::object& child, const std::string& res_path,
         py::handle group, py::handle mask, bool do_not_collide_with_parent, bool self_collision) {
        const py::object add =
            py::module_::import("torsion.articulated_tree").attr("add_articulated_system_from_tree");
        return add(self, child, res_path, group, mask, do_not_collide_with_parent, self_collision);
      },
      arg("child"), arg("res_path") = "", arg("collision_group") = 1, arg("collision_mask") = -1,
      arg("do_not_collide_with_parent") = true, arg("self_collision") = false,
      "Add a robot built in code (RaiSim's Child overload of addArticulatedSystem): child is a "
      "torsion.Child, the root of a tree of links, each with the joint to its parent. The root's "
      "joint_type 'floating' gives a floating base; any other type attaches the root to the world "
      "at its origin_xyz/origin_rpy (a fixed base). gc/gv follow the tree depth first, children "
      "in list order. Other arguments as in add_articulated_system. Returns an "
      "ArticulatedSystem; ValueError naming the Child and field on bad input.");
  // the seed's addUsdArticulatedSystem: the stage is read in Python through usd-core
  // (torsion/usd.py) and built like the Child overload
  world.def(
      "add_usd_articulated_system",
      [](const py::object& self, const py::object& usd_path, py::handle group, py::handle mask,
         bool do_not_collide_with_parent, bool self_collision) {
        const py::object add = py::module_::import("torsion.usd").attr("add_usd_articulated_system");
        return add(self, usd_path, group, mask, do_not_collide_with_parent, self_collision);
      },
      arg("usd_path"), arg("collision_group") = 1, arg("collision_mask") = -1,
      arg("do_not_collide_with_parent") = true, arg("self_collision") = false,
      "Add the USD Physics articulation of a .usd/.usda/.usdc/.usdz file (the prim with "
      "PhysicsArticulationRootAPI): revolute, prismatic, spherical and fixed joints with their "
      "limits, drives as torsion's PD (gains per degree converted to per radian, targets, "
      "maxForce as effort limit), PhysicsMassAPI, PhysicsCollisionAPI cubes, spheres, "
      "cylinders, capsules and meshes (as convex hulls); lengths by the stage's metersPerUnit. "
      "Needs usd-core (pip install \"torsion[usd]\"). ValueError naming the prim for what "
      "cannot be simulated. Returns an ArticulatedSystem.");
  world.def(
      "set_articulated_contact_space_solve",
      [](World& w, bool enabled) { w.contact_state().contact_space.set_enabled(enabled); },
      arg("enabled"),
      "Whether the contact solver solves an island of one articulated system (and static "
      "sides) in contact space (default True: W = J A^-1 J^T from the tree factorisation, one "
      "velocity update at the end) or with the generalized velocities kept current, like every "
      "other island. The two are the same iteration and agree to round-off (about 1e-12), not "
      "bitwise; the switch exists to compare them and is not saved in checkpoints.");
  world.def(
      "get_articulated_contact_space_solve",
      [](const World& w) { return w.contact_state().contact_space.enabled(); },
      "Whether islands of one articulated system are solved in contact space (see "
      "set_articulated_contact_space_solve).");
}

}  // namespace torsion::bindings
