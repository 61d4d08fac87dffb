// Contacts: materials, the contact solver's settings and diagnostics (methods of torsion.World),
// and torsion._core.contact, the per-contact law on its own for tests and experiments.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "bindings/world_methods.hpp"
#include "contact/single_contact.hpp"
#include "core/check.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

// Change solver parameters through `edit`: the edited copy is checked as a whole
// (validate_contact_solver_params, ValueError naming the field) before it replaces `target`.
template <class Edit>
void edit_solver_params(ContactSolverParams& target, Edit&& edit) {
  ContactSolverParams p = target;
  edit(p);
  validate_contact_solver_params(p);
  target = p;
}

MaterialPairProperties make_props(double friction, double restitution, double res_threshold,
                                  double static_friction, double static_threshold,
                                  double rolling, double spinning) {
  MaterialPairProperties p;
  p.friction = friction;
  p.restitution = restitution;
  p.restitution_threshold = res_threshold;
  p.static_friction = static_friction;
  p.static_friction_threshold_velocity = static_threshold;
  p.rolling_friction = rolling;
  p.spinning_friction = spinning;
  return p;
}

// a number as a user would type it (12 significant digits)
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.12g", v);
  return buf;
}

const char* mode_name(ContactMode m) {
  switch (m) {
    case ContactMode::kOpening: return "opening";
    case ContactMode::kSticking: return "sticking";
    case ContactMode::kSliding: return "sliding";
  }
  return "?";
}

// the material setters and getter of a World and of a MaterialManager (the same overloads)
template <class T, class... Options>
void def_material_methods(py::class_<T, Options...>& cls, MaterialManager& (*mm)(T&),
                          const MaterialManager& (*cmm)(const T&)) {
  cls.def("set_material_pair_prop",
          [mm](T& w, const std::string& m1, const std::string& m2, double friction,
             double restitution, double res_threshold) {
            mm(w).set_pair(m1, m2, make_props(friction, restitution, res_threshold,
                                                        friction, 1e-3, 0.0, 0.0));
          },
          arg("mat1"), arg("mat2"), arg("friction"), arg("restitution"), arg("res_threshold"),
          "Set the contact properties of the material pair (mat1, mat2), in either order: "
          "friction coefficient (>= 0), restitution (in [0, 1]) and the impact speed (m/s) below "
          "which nothing bounces. The static friction coefficient is set to friction and its "
          "threshold velocity to 1e-3 m/s. ValueError on bad values.")
      .def("set_material_pair_prop",
           [mm](T& w, const std::string& m1, const std::string& m2, double friction,
              double restitution, double res_threshold, double static_friction,
              double static_threshold) {
             mm(w).set_pair(m1, m2, make_props(friction, restitution, res_threshold,
                                                         static_friction, static_threshold, 0.0,
                                                         0.0));
           },
           arg("mat1"), arg("mat2"), arg("friction"), arg("restitution"), arg("res_threshold"),
           arg("static_friction"), arg("static_friction_threshold_velocity"),
           "As above with a static friction coefficient: below the threshold slip speed (m/s) "
           "the coefficient is interpolated between static_friction (at rest) and friction, "
           "proportionally to the slip speed. The threshold must be > 0 unless static_friction "
           "equals friction (ValueError otherwise).")
      .def("set_material_pair_prop",
           [mm](T& w, const std::string& m1, const std::string& m2, double friction,
              double restitution, double res_threshold, double static_friction,
              double static_threshold, double rolling, double spinning) {
             mm(w).set_pair(m1, m2, make_props(friction, restitution, res_threshold,
                                                         static_friction, static_threshold,
                                                         rolling, spinning));
           },
           arg("mat1"), arg("mat2"), arg("friction"), arg("restitution"), arg("res_threshold"),
           arg("static_friction"), arg("static_friction_threshold_velocity"),
           arg("rolling_friction"), arg("spinning_friction"),
           "As above with rolling and spinning friction coefficients (m, >= 0): a contact of the "
           "pair resists the relative rotation of its bodies about its tangent axes (rolling) "
           "and its normal (spinning) with a torque of at most coefficient * normal force.")
      .def("set_default_material",
           [mm](T& w, double friction, double restitution, double res_threshold) {
             mm(w).set_default(make_props(friction, restitution, res_threshold, friction,
                                               1e-3, 0.0, 0.0));
           },
           arg("friction"), arg("restitution"), arg("res_threshold"),
           "Set the properties used for every material pair that has not been set (initially "
           "friction 0.8, restitution 0, threshold 0). Static friction = friction, threshold "
           "velocity 1e-3 m/s.")
      .def("set_default_material",
           [mm](T& w, double friction, double restitution, double res_threshold,
              double static_friction, double static_threshold) {
             mm(w).set_default(make_props(friction, restitution, res_threshold,
                                               static_friction, static_threshold, 0.0, 0.0));
           },
           arg("friction"), arg("restitution"), arg("res_threshold"), arg("static_friction"),
           arg("static_friction_threshold_velocity"))
      .def("set_default_material",
           [mm](T& w, double friction, double restitution, double res_threshold,
              double static_friction, double static_threshold, double rolling,
              double spinning) {
             mm(w).set_default(make_props(friction, restitution, res_threshold,
                                               static_friction, static_threshold, rolling,
                                               spinning));
           },
           arg("friction"), arg("restitution"), arg("res_threshold"), arg("static_friction"),
           arg("static_friction_threshold_velocity"), arg("rolling_friction"),
           arg("spinning_friction"))
      .def("get_material_pair_properties",
           [cmm](const T& w, const std::string& m1, const std::string& m2) {
             return cmm(w).get(m1, m2);
           },
           arg("mat1"), arg("mat2"),
           "The properties of the pair (a copy); the order does not matter and unknown names "
           "are treated as \"default\".");
}

void bind_materials(py::module_& m) {
  py::class_<MaterialPairProperties>(
      m, "MaterialPairProperties",
      "Contact properties of a pair of materials (a copy; changing it changes nothing in a "
      "World). friction: dynamic Coulomb coefficient; restitution: Newton's coefficient in "
      "[0, 1]; restitution_threshold: impacts slower than this (m/s) do not bounce; "
      "static_friction: coefficient at zero slip, falling linearly to friction at "
      "static_friction_threshold_velocity (m/s) of slip; rolling_friction, spinning_friction "
      "(m): the largest rolling / spinning resistance torque per newton of normal force.")
      .def_readonly("friction", &MaterialPairProperties::friction)
      .def_readonly("restitution", &MaterialPairProperties::restitution)
      .def_readonly("restitution_threshold", &MaterialPairProperties::restitution_threshold)
      .def_readonly("static_friction", &MaterialPairProperties::static_friction)
      .def_readonly("static_friction_threshold_velocity",
                    &MaterialPairProperties::static_friction_threshold_velocity)
      .def_readonly("rolling_friction", &MaterialPairProperties::rolling_friction)
      .def_readonly("spinning_friction", &MaterialPairProperties::spinning_friction)
      .def("__repr__", [](const MaterialPairProperties& p) {
        return "MaterialPairProperties(friction=" + num(p.friction) +
               ", restitution=" + num(p.restitution) +
               ", restitution_threshold=" + num(p.restitution_threshold) +
               ", static_friction=" + num(p.static_friction) +
               ", static_friction_threshold_velocity=" +
               num(p.static_friction_threshold_velocity) +
               ", rolling_friction=" + num(p.rolling_friction) +
               ", spinning_friction=" + num(p.spinning_friction) + ")";
      });

  py::class_<MaterialManager> mm(
      m, "MaterialManager",
      "A set of material pair properties and a default, on its own (RaiSim's MaterialManager): "
      "fill it with the same setters as a World's, then hand it to World.update_material_prop. "
      "Initially empty with the default {friction 0.8, restitution 0, threshold 0}.");
  mm.def(py::init<>());
  def_material_methods<MaterialManager>(
      mm, +[](MaterialManager& x) -> MaterialManager& { return x; },
      +[](const MaterialManager& x) -> const MaterialManager& { return x; });

}

// World's material methods: the same setters as MaterialManager's, and update_material_prop
void world_methods_materials(py::class_<World, WorldPtr>& cls) {
  def_material_methods<World, WorldPtr>(
      cls, +[](World& w) -> MaterialManager& { return w.edit_materials(); },
      +[](const World& w) -> const MaterialManager& { return w.contact_state().materials; });
  cls.def("update_material_prop", &World::update_material_prop, arg("materials"),
          "Replace every material pair property and the default material of this world by "
          "those of `materials` (a MaterialManager; copied, later changes to it do not reach "
          "the world).");
}

void world_methods_solver(py::class_<World, WorldPtr>& cls) {
  cls.def("set_erp", &World::set_erp, arg("erp"), arg("erp2") = 0.0,
          "Error reduction for penetrating contacts (0 by default: off). A contact with depth d "
          "aims at a separating normal velocity of erp * d / dt + erp2 * (its approach speed at "
          "the start of the step), in m/s; through the solver both act as a spring and a damper "
          "scaled by the contact's apparent mass, and together they push at most "
          "set_max_depenetration_velocity (1 m/s by default). erp in [0, 1], erp2 >= 0.")
      .def("set_max_depenetration_velocity",
           [](World& w, double velocity) {
             edit_solver_params(w.contact_state().solver.params(), [&](ContactSolverParams& p) {
               p.max_depenetration_velocity = velocity;
             });
           },
           arg("velocity"),
           "The most ERP may push a penetrating contact apart, m/s (1 by default; inf: no "
           "cap). ERP aims at erp * depth / dt: a body that starts 2 cm inside the ground (a "
           "reset at a slightly wrong height) would leave it at 4 m/s with ERP 0.2 and dt 1 ms "
           "and fly 0.8 m up; capped, it is pushed out over a few steps. Restitution is not "
           "capped. velocity > 0.")
      .def("set_position_correction",
           [](World& w, double fraction) {
             edit_solver_params(w.contact_state().solver.params(), [&](ContactSolverParams& p) {
               p.position_correction = fraction;
             });
           },
           arg("fraction"),
           "The position pass (split impulse; 0.2 by default, 0: off): after the velocity "
           "solve, a contact between single bodies (or one and an immovable body) that would "
           "end the step deeper than 4e-5 m has `fraction` of its depth beyond 2e-5 m removed "
           "a step by moving the "
           "bodies along the contacts' normals (translation only, shared by inverse mass), "
           "without changing any velocity: a resting body rises to the surface with no kinetic energy "
           "added, and a bouncing one is not pushed. Two bodies slipping past each other faster "
           "than 1 cm/s are left for later (their angular momentum is kept). At most set_max_depenetration_velocity * "
           "dt a step. An articulated system's contacts with immovable bodies are corrected the "
           "same way by moving its configuration through its damped mass matrix (no joint "
           "carried past a limit). fraction in [0, 1].")
      .def("set_contact_solver_param", &World::set_contact_solver_param, arg("alpha_init"),
           arg("alpha_min"), arg("alpha_decay"), arg("max_iter"), arg("threshold"),
           "Bisection solver parameters: relaxation alpha_init, alpha_min in (0, 1] and "
           "alpha_decay in [0, 1] (alpha_{k+1} = (1 - decay) alpha_min + decay alpha_k; all 1 "
           "by default, i.e. plain Gauss-Seidel), max_iter >= 1 sweeps (150), and the threshold "
           "(m/s, 1e-8): the solve stops after a full sweep in which no contact's update "
           "changed its velocity by more, or no contact's velocity drifted by more after its own "
           "update (the final velocities then satisfy every contact's law to the threshold).")
      .def("set_contact_solver_iteration_order", &World::set_contact_solver_iteration_order,
           arg("order").noconvert(),  // a bool: None or 2 is a TypeError, not a silent choice
           "True: sweep the contacts in the same (forward) order every step. False (default): "
           "alternate forward and reverse from one step to the next. Both are deterministic.")
      .def("set_contact_solver_acceleration",
           [](World& w, int depth) {
             edit_solver_params(w.contact_state().solver.params(),
                                [&](ContactSolverParams& p) { p.acceleration_depth = depth; });
           },
           arg("depth"),
           "Anderson acceleration of the sweeps of large islands (8 contacts or more, constant "
           "relaxation): from the third sweep on, while the counts of sticking / sliding / "
           "opening contacts hold, each sweep starts from the combination of the last `depth` "
           "sweeps' results that minimises the least-squares residual; the history is dropped "
           "(and an extrapolation that made things worse undone) when the residual grows past "
           "twice its smallest. An island whose mode counts changed between its first two "
           "sweeps (a pile still moving) is declined: swept plainly for the rest of that solve. "
           "Every sweep stays the exact per-contact solve, the last one starts from a plain "
           "result, and the fixed point is the plain sweeps'. depth in [0, 16]; 0 (default) "
           "turns it off: plain Gauss-Seidel sweeps. Worth turning on for tall stacks.")
      .def("set_contact_solver_relative_threshold",
           [](World& w, double fraction) {
             edit_solver_params(w.contact_state().solver.params(),
                                [&](ContactSolverParams& p) { p.relative_threshold = fraction; });
           },
           arg("fraction"),
           "The relative stopping tolerance of the contact solver (dimensionless, 0.01 by "
           "default; 0: the absolute threshold only). An island (a group of bodies that touch) "
           "made only of contacts between single rigid bodies or static geometry stops "
           "sweeping once no contact's update changes its velocity by more than the larger of "
           "the threshold (set_contact_solver_param, 1e-8 m/s) and `fraction` times the "
           "island's contact speed: the fastest approach, separation or slip of any of its "
           "contact points at the start of the step. A pile still tumbling at 0.5 m/s is solved "
           "to 5 mm/s, a stack or pile at rest to the threshold. Then a finishing pass of at "
           "most 5 sweeps solves its speculative contacts and those whose normal velocity is "
           "off its target by more than the threshold to the threshold (so no gap is left "
           "open and no resting body sinks). Islands with an articulated system, joint "
           "limits, joint friction, wires or rolling / spinning friction rows, and every "
           "island when the threshold is 0, keep the absolute threshold. fraction >= 0. Kept "
           "in checkpoints and the world XML.")
      .def("set_contact_solver_compact_kernel",
           [](World& w, bool on) { w.contact_state().solver.params().compact_kernel = on; },
           arg("on"),
           "True (default): a contact between single rigid bodies (or one and an immovable "
           "body) is updated by the solver's compact kernel, from the bodies' shared inverse "
           "masses and the contact's lever arms; False: every contact goes through the generic "
           "per-side Jacobian path. Both solve the same problem; results differ by rounding "
           "only. Kept in checkpoints.")
      .def("get_contact_solver_params", [](const World& w) {
             const ContactSolverParams& p = w.contact_solver().params();
             py::dict d;
             d["alpha_init"] = p.alpha_init;
             d["alpha_min"] = p.alpha_min;
             d["alpha_decay"] = p.alpha_decay;
             d["max_iter"] = p.max_iter;
             d["threshold"] = p.threshold;
             d["relative_threshold"] = p.relative_threshold;
             d["erp"] = p.erp;
             d["erp2"] = p.erp2;
             d["max_depenetration_velocity"] = p.max_depenetration_velocity;
             d["position_correction"] = p.position_correction;
             d["fixed_order"] = p.fixed_order;
             d["acceleration_depth"] = p.acceleration_depth;
             d["compact_kernel"] = p.compact_kernel;
             return d;
           },
           "The contact solver's parameters, as a new dict.")
      .def("get_contact_solver_diagnostics", [](const World& w) {
             const ContactSolverDiagnostics& g = w.contact_solver().diagnostics();
             py::dict d;
             d["iterations"] = g.iterations;
             d["error"] = g.error;
             d["converged"] = g.converged;
             d["contacts"] = g.contacts;
             d["warm_started"] = g.warm_started;
             d["sticking"] = g.sticking;
             d["sliding"] = g.sliding;
             d["opening"] = g.opening;
             d["sliding_fallbacks"] = g.sliding_fallbacks;
             d["non_finite"] = g.non_finite;
             d["joint_limit_rows"] = g.joint_limit_rows;
             d["joint_friction_rows"] = g.joint_friction_rows;
             d["rolling_rows"] = g.rolling_rows;
             d["islands"] = g.islands;
             d["contact_space_islands"] = g.contact_space_islands;
             d["updates"] = g.updates;
             d["accelerated"] = g.accelerated;
             d["acceleration_restarts"] = g.acceleration_restarts;
             d["acceleration_declined"] = g.acceleration_declined;
             return d;
           },
           "The last solve, as a new dict: iterations (sweeps used), error (m/s, of the last "
           "sweep: its largest contact velocity change by an update, or when smaller on a "
           "full sweep, its largest velocity drift after an update), converged "
           "(error < threshold, or error 0), contacts, "
           "warm_started (contacts that started from the previous step's impulse), the final "
           "count of sticking / sliding / opening contacts; and since the world was made: "
           "sliding_fallbacks (sliding solves whose local bracket search failed and that used "
           "the full scan of the ellipse) and non_finite (updates reset to zero for NaN/inf); "
           "the 1-D rows swept with the contacts: joint_limit_rows (articulated joint limits "
           "near or past their stop), joint_friction_rows (Coulomb joint friction), "
           "rolling_rows (rolling and spinning friction rows of contacts); islands (independent "
           "groups of rows, each swept to its own convergence: iterations is the most sweeps "
           "any island used; contact_space_islands of them were islands of one articulated "
           "system solved in contact space, see set_articulated_contact_space_solve), updates (row updates of the last solve, the solver's work), "
           "accelerated (sweeps started from an Anderson combination, see "
           "set_contact_solver_acceleration), acceleration_restarts (histories dropped "
           "because the residual grew) and acceleration_declined (islands swept plainly "
           "because their contact modes changed between their first two sweeps).");
}

// RaiSim's World::getContactSolver(): a view of one world's bisection solver. It holds the
// world (shared ownership), so it stays usable as long as it exists.
struct ContactSolverView {
  WorldPtr world;
  World& get() const {
    if (!world) throw py::type_error("this ContactSolver is not initialised (it has no World)");
    return *world;
  }
};

// RaiSim's BisectionContactSolver::SolverConfiguration. From ContactSolver.get_config() it reads
// and writes its world's solver parameters, as RaiSim's getConfig() reference does; made by
// ContactSolverConfig() it holds its own (torsion's defaults), for ContactSolver.update_config.
struct ContactSolverConfigView {
  WorldPtr world;
  ContactSolverParams own;
  ContactSolverParams& params() { return world ? world->contact_state().solver.params() : own; }
};

// the fields of a SolverConfiguration, as one tuple of references (update_config copies them,
// == compares them)
auto configuration_fields(ContactSolverParams& p) {
  return std::tie(p.alpha_init, p.alpha_min, p.alpha_decay, p.threshold, p.erp, p.erp2,
                  p.max_iter);
}

// a configuration field: its attribute name, where it lives in ContactSolverParams and its
// check (std::invalid_argument naming the attribute, so a Python ValueError)
template <class T>
void def_config_field(py::class_<ContactSolverConfigView>& cls, const char* name,
                      T ContactSolverParams::*field, void (*check)(T, const char*),
                      const char* doc) {
  cls.def_property(
      name, [field](ContactSolverConfigView& c) { return c.params().*field; },
      [field, check, name](ContactSolverConfigView& c, T value) {
        check(value, name);
        edit_solver_params(c.params(), [&](ContactSolverParams& p) { p.*field = value; });
      },
      doc);
}

void check_relaxation(double v, const char* name) {
  if (!std::isfinite(v) || v <= 0.0 || v > 1.0)
    throw_invalid(std::string(name) + " must be in (0, 1], got " + fmt(v));
}
void check_unit(double v, const char* name) {
  if (!std::isfinite(v) || v < 0.0 || v > 1.0)
    throw_invalid(std::string(name) + " must be in [0, 1], got " + fmt(v));
}

void bind_solver_view(py::module_& m) {
  py::class_<ContactSolverConfigView> cfg(
      m, "ContactSolverConfig",
      "The contact solver's configuration (RaiSim's BisectionContactSolver::SolverConfiguration)."
      " From ContactSolver.get_config() it is a live view: reading an attribute reads the "
      "world's current value and assigning one changes the world's solver at once (checked; "
      "ValueError naming the attribute). ContactSolverConfig() makes a detached configuration "
      "holding torsion's defaults, to fill and hand to ContactSolver.update_config().");
  cfg.def(py::init<>());
  def_config_field<double>(cfg, "alpha_init", &ContactSolverParams::alpha_init,
                           check_relaxation, "Relaxation of the first sweep, in (0, 1] (1).");
  def_config_field<double>(cfg, "alpha_low", &ContactSolverParams::alpha_min, check_relaxation,
                           "Relaxation reached after many sweeps, in (0, 1] (1).");
  def_config_field<double>(cfg, "alpha_decay", &ContactSolverParams::alpha_decay, check_unit,
                           "alpha_{k+1} = (1 - alpha_decay) alpha_low + alpha_decay alpha_k, "
                           "in [0, 1] (1).");
  def_config_field<double>(cfg, "error_to_terminate", &ContactSolverParams::threshold,
                           check_non_negative,
                           "The stopping threshold, m/s (1e-8); see "
                           "World.set_contact_solver_param.");
  def_config_field<double>(cfg, "erp", &ContactSolverParams::erp, check_unit,
                           "Error reduction of penetration, in [0, 1] (0: off); see "
                           "World.set_erp.");
  def_config_field<double>(cfg, "erp2", &ContactSolverParams::erp2, check_non_negative,
                           "Damping of the penetration rate, >= 0 (0: off); see World.set_erp.");
  // (any Python integer: one beyond a C int is refused by name, not by pybind's signature text)
  cfg.def_property(
      "max_iteration", [](ContactSolverConfigView& c) { return c.params().max_iter; },
      [](ContactSolverConfigView& c, const py::object& value) {
        if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
          throw py::type_error("max_iteration must be an int, got " +
                               std::string(py::str(py::type::handle_of(value).attr("__name__"))));
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
        if (overflow != 0 || v < 1 || v > std::numeric_limits<int>::max())
          throw_invalid("max_iteration must be in [1, " +
                        std::to_string(std::numeric_limits<int>::max()) + "], got " +
                        std::string(py::str(value)));
        edit_solver_params(c.params(),
                           [&](ContactSolverParams& p) { p.max_iter = static_cast<int>(v); });
      },
      "Most sweeps per solve, >= 1 (150).");
  // copies are detached (a copy of a live view holds the values it read); equal when every
  // field is
  cfg.def("__copy__",
          [](ContactSolverConfigView& c) { return ContactSolverConfigView{{}, c.params()}; });
  cfg.def("__deepcopy__", [](ContactSolverConfigView& c, const py::dict&) {
    return ContactSolverConfigView{{}, c.params()};
  }, arg("memo"));
  cfg.def("__eq__", [](ContactSolverConfigView& a, ContactSolverConfigView& b) {
    return configuration_fields(a.params()) == configuration_fields(b.params());
  }, py::is_operator());
  cfg.attr("__hash__") = py::none();  // mutable: not hashable
  cfg.def("__repr__", [](ContactSolverConfigView& c) {
    const ContactSolverParams& p = c.params();
    return "ContactSolverConfig(alpha_init=" + num(p.alpha_init) + ", alpha_low=" +
           num(p.alpha_min) + ", alpha_decay=" + num(p.alpha_decay) + ", error_to_terminate=" +
           num(p.threshold) + ", erp=" + num(p.erp) + ", erp2=" + num(p.erp2) +
           ", max_iteration=" + std::to_string(p.max_iter) + (c.world ? ", live)" : ")");
  });

  py::class_<ContactSolverView> solver(
      m, "ContactSolver",
      "A world's contact solver (RaiSim's BisectionContactSolver), from "
      "World.get_contact_solver(). It keeps its world alive.");
  solver
      .def("set_order", [](const ContactSolverView& s, bool order) {
             s.get().set_contact_solver_iteration_order(order);
           },
           arg("order").noconvert(),  // a bool: None or 2 is a TypeError, not a silent choice
           "The same as World.set_contact_solver_iteration_order(order).")
      .def("get_loop_counter",
           [](const ContactSolverView& s) {
             return s.get().contact_solver().diagnostics().iterations;
           },
           "Sweeps of the last solve (the most any island used).")
      .def("get_error_history", [](const ContactSolverView& s) {
             const std::vector<double>& h = s.get().contact_solver().diagnostics().error_history;
             py::array_t<double> out(static_cast<py::ssize_t>(h.size()));
             std::copy(h.begin(), h.end(), out.mutable_data());
             return out;
           },
           "The error of every sweep of the last solve, a new float64 array of "
           "get_loop_counter() entries (m/s): a sweep's largest change of a contact's velocity by "
           "its update (or, when smaller on a full sweep, its largest velocity drift after its "
           "update), the largest over the islands that ran that sweep. The solve stopped when an "
           "entry fell below error_to_terminate, or after max_iteration sweeps.")
      .def("get_config",
           [](const ContactSolverView& s) { return ContactSolverConfigView{s.world, {}}; },
           "A live view of the solver's configuration (ContactSolverConfig): assigning "
           "config.max_iteration = 50 changes this world's solver.")
      .def("update_config", [](const ContactSolverView& s, ContactSolverConfigView& config) {
             ContactSolverParams& c = config.params();
             edit_solver_params(s.get().contact_state().solver.params(),
                                [&](ContactSolverParams& p) {
                                  configuration_fields(p) = configuration_fields(c);
                                });
           },
           arg("config"),
           "Set every field of `config` (a ContactSolverConfig) in this world's solver; the "
           "sweep order, acceleration and kernel settings are kept.")
      .def("__repr__", [](const ContactSolverView& s) {
        const ContactSolverDiagnostics& d = s.get().contact_solver().diagnostics();
        return "ContactSolver(loop_counter=" + std::to_string(d.iterations) +
               ", error=" + num(d.error) + ")";
      });
  // their methods reach the world: guarded as the World's (a detached config has none)
  thread_guard::declare_world_bound<ContactSolverView>(solver);
  thread_guard::declare_world_bound<ContactSolverConfigView>(cfg);
}

void world_methods_solver_view(py::class_<World, WorldPtr>& world) {
  world.def("get_contact_solver", [](const WorldPtr& w) { return ContactSolverView{w}; },
            "This world's contact solver (RaiSim's getContactSolver()): set_order, "
            "get_loop_counter, get_error_history, get_config (a live view), update_config.");
}

void bind_single_contact(py::module_& m) {
  py::module_ c = m.def_submodule(
      "contact", "The contact solver's building blocks, exposed for tests and experiments.");
  c.def("solve_single_contact",
        [](py::handle g_in, py::handle c_in, double mu, py::handle hint_in) {
          const Mat3 g = to_mat3(g_in, "G");
          const Vec3 cv = to_vec3(c_in, "c");
          check_finite_vec(g.reshaped(), "G");
          check_finite_vec(cv, "c");
          const bool hinted = !hint_in.is_none();
          const Vec3 hint = hinted ? to_vec3(hint_in, "hint") : Vec3::Zero();
          check_finite_vec(hint, "hint");
          check_non_negative(mu, "mu");
          if ((g - g.transpose()).cwiseAbs().maxCoeff() > 1e-9 * (1.0 + g.cwiseAbs().maxCoeff()))
            throw py::value_error("G must be symmetric");
          Eigen::LLT<Mat3> llt(g);
          if (llt.info() != Eigen::Success)
            throw py::value_error("G must be positive definite");
          SingleContactResult r;
          {
            py::gil_scoped_release release;
            r = solve_single_contact(g, g.inverse(), cv, mu, hinted ? &hint : nullptr);
          }
          return py::make_tuple(to_numpy(r.lambda), mode_name(r.mode));
        },
        arg("G"), arg("c"), arg("mu"), arg("hint") = py::none(),
        "Solve one contact exactly: v = G @ lam + c in the contact frame (x, y tangential, z the "
        "normal), G (3, 3) symmetric positive definite (m/s per N s), c (3,) (m/s), friction "
        "coefficient mu >= 0. Returns (lam, mode): the impulse (3,) in N s (fresh array) and "
        "'opening' (c_z >= 0, lam = 0), 'sticking' (v = 0 inside the cone) or 'sliding' (lam "
        "on the cone surface, v_z = 0, slip anti-parallel to lam's tangential part). hint (3,) "
        "(N s, optional): an impulse near the expected one, as the solver passes the previous "
        "sweep's; the sliding search starts from its direction (the result is the same root).");
  c.def("contact_frame",
        [](py::handle n_in) {
          const Vec3 n = to_vec3(n_in, "normal");
          check_finite_vec(n, "normal");
          if (std::abs(n.norm() - 1.0) > 1e-9) throw py::value_error("normal must be a unit vector");
          return to_numpy(contact_frame(n));
        },
        arg("normal"),
        "The contact frame of a unit normal (3,): a (3, 3) array whose rows are the frame's x, "
        "y and z (= normal) axes in world coordinates (x = normalize(n_y, -n_x, 0) for a normal "
        "leaning more than 30 degrees from the vertical, else (1, 0, 0) projected onto the "
        "tangent plane and normalized, continuous through the vertical; y = z cross x).");
}

}  // namespace

void bind_contact(py::module_& m) {
  bind_materials(m);
  bind_solver_view(m);
  bind_single_contact(m);
}

void world_methods_contact(WorldClass& world) {
  world_methods_materials(world);
  world_methods_solver(world);
  world_methods_solver_view(world);
}

}  // namespace torsion::bindings
