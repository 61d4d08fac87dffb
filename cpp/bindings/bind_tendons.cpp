// Tendons (world/tendons.hpp): World.add_fixed_tendon, add_tendon_coupling, get_tendon(s),
// get_tendon_couplings, remove_tendon, remove_tendon_coupling, and the Tendon and TendonCoupling
// handles.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings/convert.hpp"
#include "bindings/world_methods.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "core/check.hpp"
#include "world/articulated_system.hpp"
#include "world/tendons.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

// a tendon (or coupling) of a World: the world (shared) and its stable id; every call resolves
// the id and raises RemovedObjectError once it is gone
struct TendonHandle {
  std::shared_ptr<World> world;
  std::uint64_t id = 0;
  Tendon& get() const {
    if (!world) throw py::type_error("this tendon handle is not initialised (it has no World)");
    Tendon* t = find_tendon(*world, id);
    if (!t)
      throw RemovedObjectError("tendon id " + std::to_string(id) +
                               " has been removed from its world (or its articulated system "
                               "was); this handle can no longer be used");
    return *t;
  }
};

struct CouplingHandle {
  std::shared_ptr<World> world;
  std::uint64_t id = 0;
  TendonCoupling& get() const {
    if (!world) throw py::type_error("this coupling handle is not initialised (it has no World)");
    TendonCoupling* c = find_tendon_coupling(*world, id);
    if (!c)
      throw RemovedObjectError("tendon coupling id " + std::to_string(id) +
                               " has been removed from its world (or one of its tendons was); "
                               "this handle can no longer be used");
    return *c;
  }
};

double number(py::handle v, const char* name) {
  if (py::isinstance<py::bool_>(v) ||
      (!py::isinstance<py::int_>(v) && !py::isinstance<py::float_>(v) &&
       !py::hasattr(v, "__float__")))
    throw py::type_error(std::string(name) + " must be a number, got " +
                         std::string(py::str(py::type::of(v).attr("__name__"))));
  return v.cast<double>();
}

// properties from keyword values; the current ones where a value is None
TendonProperties read_properties(TendonProperties p, py::handle stiffness, py::handle damping,
                                 py::handle spring_length, py::handle limits,
                                 py::handle friction, py::handle armature) {
  if (!stiffness.is_none()) p.stiffness = number(stiffness, "stiffness");
  if (!armature.is_none()) p.armature = number(armature, "armature");
  if (!damping.is_none()) p.damping = number(damping, "damping");
  if (!friction.is_none()) p.friction = number(friction, "friction");
  if (!spring_length.is_none()) {
    if (py::isinstance<py::sequence>(spring_length) && !py::isinstance<py::str>(spring_length)) {
      // (lower, upper): a dead band, no spring force between them (MuJoCo's springlength pair)
      const py::sequence s = py::reinterpret_borrow<py::sequence>(spring_length);
      if (py::len(s) != 2)
        throw py::type_error("spring_length must be a number or a pair (lower, upper)");
      p.spring_length = number(s[0], "spring_length[0]");
      p.spring_upper = number(s[1], "spring_length[1]");
      if (std::isnan(p.spring_length) || std::isnan(p.spring_upper))
        throw py::value_error("spring_length must be finite, got nan");
    } else {
      p.spring_length = number(spring_length, "spring_length");
      p.spring_upper = p.spring_length;
      if (std::isnan(p.spring_length))
        throw py::value_error("spring_length must be finite (None: the length now), got nan");
    }
  }
  if (!limits.is_none()) {
    if (!py::isinstance<py::sequence>(limits) || py::isinstance<py::str>(limits) ||
        py::len(limits) != 2)
      throw py::type_error("limits must be a pair (lower, upper) (m or rad; -inf/inf: none)");
    const py::sequence s = py::reinterpret_borrow<py::sequence>(limits);
    p.lower = number(s[0], "limits[0]");
    p.upper = number(s[1], "limits[1]");
  }
  return p;
}

py::array_t<double> to_array(const VecX& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.data(), v.data() + v.size(), out.mutable_data());
  return out;
}

py::object system_handle(const WorldPtr& w, ObjectId id) {
  return make_handle(w, *w->find_object(id));
}

const char* kProps =
    "stiffness (>= 0) and damping (>= 0): a spring-damper along the tendon, force = -stiffness "
    "(length - spring_length) - damping * rate (implicit in the step); spring_length: None = the "
    "length now, or a pair (lower, upper): a dead band with no spring force between them and "
    "-stiffness (length - the nearer end) outside; limits: (lower, upper) of the length, hard one-sided rows solved with the "
    "contacts (+-inf: none); friction (>= 0): a Coulomb force along the tendon; armature (>= 0, "
    "kg or kg m^2): inertia along the tendon, the step's mass matrix M + armature J^T J as "
    "MuJoCo's, its limit, joint-limit and contact impulses included (for a tendon over one "
    "articulated system).";

}  // namespace

void bind_tendons(py::module_& m) {
  py::class_<TendonHandle>(
      m, "Tendon",
      "A fixed tendon (World seed: Tendon): length = sum of coefficient * joint coordinate over "
      "joints of one or two articulated systems. Holds the world and the tendon's stable id; "
      "RemovedObjectError once the tendon (or its system) is removed.")
      .def("get_id", [](const TendonHandle& h) { return h.get().id; },
           "Stable id, never reused within the world.")
      .def("get_index_in_world",
           [](const TendonHandle& h) {
             h.get();
             return static_cast<std::size_t>(tendon_set(*h.world).index_of(h.id));
           },
           "Position in get_tendons(); the last tendon takes a removed tendon's index.")
      .def("is_alive", [](const TendonHandle& h) { return find_tendon(*h.world, h.id) != nullptr; })
      .def("get_name", [](const TendonHandle& h) { return h.get().name; })
      .def("get_kind",
           [](const TendonHandle& h) {
             return std::string(h.get().kind == TendonKind::kFixed ? "fixed" : "spatial");
           },
           "'fixed' or 'spatial'.")
      .def("set_actuator_force",
           [](const TendonHandle& h, double f) {
             Tendon& t = h.get();
             check_finite(f, "force");
             t.actuator_force = f;
           },
           arg("force"),
           "A force along the tendon applied every step from now on (N, or N m for a fixed "
           "tendon over revolute joints; > 0 lengthens it, a cable pulling is < 0).")
      .def("get_actuator_force", [](const TendonHandle& h) { return h.get().actuator_force; })
      .def("get_joints",
           [](const TendonHandle& h) {
             py::list out;
             for (const TendonJointTerm& t : h.get().joints)
               out.append(py::make_tuple(system_handle(h.world, t.object), t.joint, t.coefficient));
             return out;
           },
           "[(articulated system, joint name, coefficient), ...] as given.")
      .def("get_length", [](const TendonHandle& h) { return tendon_length(*h.world, h.get()); },
           "sum of coefficient * joint coordinate now (m or rad).")
      .def("get_velocity", [](const TendonHandle& h) { return tendon_velocity(*h.world, h.get()); },
           "d length / dt now.")
      .def("get_jacobian",
           [](const TendonHandle& h, py::handle system) {
             const Tendon& t = h.get();
             ObjectId id = 0;
             if (system.is_none()) {
               if (t.kind == TendonKind::kFixed) {
                 id = t.joints[0].object;
               } else {
                 for (const TendonPathElement& e : t.path) {
                   const Object* o = e.kind == PathElementKind::kPulley
                                         ? nullptr
                                         : h.world->find_object(e.object);
                   if (o && (o->type() == ObjectType::kArticulatedSystem ||
                             static_cast<const SingleBodyObject*>(o)->body().is_dynamic())) {
                     id = e.object;
                     break;
                   }
                 }
               }
             } else {
               if (!py::isinstance<ObjectHandle>(system))
                 throw py::type_error("system must be an object of this World or None");
               const auto& oh = system.cast<const ObjectHandle&>();
               if (oh.world != h.world) throw py::value_error("system belongs to another World");
               id = oh.get().id();
             }
             return to_array(tendon_jacobian(*h.world, t, id));
           },
           arg("system") = py::none(),
           "The length's Jacobian over an articulated system's generalized velocities, shape "
           "(dof,), or over a dynamic single body's (linear velocity, angular velocity), shape "
           "(6,) (a spatial tendon) (None: the tendon's first movable object).")
      .def("get_stiffness", [](const TendonHandle& h) { return h.get().props.stiffness; })
      .def("get_damping", [](const TendonHandle& h) { return h.get().props.damping; })
      .def("get_spring_length",
           [](const TendonHandle& h) -> py::object {
             const TendonProperties& p = h.get().props;
             if (p.spring_upper != p.spring_length)
               return py::make_tuple(p.spring_length, p.spring_upper);
             return py::float_(p.spring_length);
           },
           "The spring's rest length, or (lower, upper) of its dead band (no spring force "
           "between them).")
      .def("get_limits",
           [](const TendonHandle& h) {
             return py::make_tuple(h.get().props.lower, h.get().props.upper);
           })
      .def("get_friction", [](const TendonHandle& h) { return h.get().props.friction; })
      .def("get_armature", [](const TendonHandle& h) { return h.get().props.armature; })
      .def("set_properties",
           [](const TendonHandle& h, py::handle stiffness, py::handle damping,
              py::handle spring_length, py::handle limits, py::handle friction,
              py::handle armature) {
             Tendon& t = h.get();
             set_tendon_properties(*h.world, t,
                                   read_properties(t.props, stiffness, damping, spring_length,
                                                   limits, friction, armature));
           },
           arg("stiffness") = py::none(), arg("damping") = py::none(),
           arg("spring_length") = py::none(), arg("limits") = py::none(),
           arg("friction") = py::none(), arg("armature") = py::none(),
           "Change some properties (None: unchanged). ValueError for bad values.")
      .def("get_limit_force", [](const TendonHandle& h) { return h.get().limit_force; },
           "The limits' force along the tendon in the last step (N or N m): > 0 at the lower "
           "limit (pushing the length up), < 0 at the upper one.")
      .def("get_friction_force", [](const TendonHandle& h) { return h.get().friction_force; },
           "The friction force along the tendon in the last step.")
      .def("get_spring_force", [](const TendonHandle& h) { return h.get().spring_force; },
           "The spring-damper force along the tendon in the last step.")
      .def("__eq__",
           [](const TendonHandle& a, py::object b) {
             if (!py::isinstance<TendonHandle>(b)) return false;
             const auto& hb = b.cast<const TendonHandle&>();
             return a.world == hb.world && a.id == hb.id;
           })
      .def("__hash__",
           [](const TendonHandle& h) {
             return py::hash(py::make_tuple(reinterpret_cast<std::uintptr_t>(h.world.get()), h.id,
                                            "tendon"));
           })
      .def("__repr__", [](const TendonHandle& h) {
        const Tendon* t = h.world ? find_tendon(*h.world, h.id) : nullptr;
        if (!t) return "<torsion.Tendon id=" + std::to_string(h.id) + " (removed)>";
        return "<torsion.Tendon id=" + std::to_string(h.id) + " name='" + t->name + "' " +
               (t->kind == TendonKind::kFixed ? "fixed>" : "spatial>");
      });
  thread_guard::declare_world_bound<TendonHandle>(m.attr("Tendon"));

  py::class_<CouplingHandle>(
      m, "TendonCoupling",
      "Holds a first tendon's length to a polynomial of a second's: L1 = c0 + c1 L2 + c2 L2^2 + "
      "... (no second: L1 = c0). RemovedObjectError once removed (or one of its tendons was).")
      .def("get_id", [](const CouplingHandle& h) { return h.get().id; })
      .def("get_index_in_world",
           [](const CouplingHandle& h) {
             h.get();
             return static_cast<std::size_t>(tendon_set(*h.world).coupling_index_of(h.id));
           })
      .def("is_alive",
           [](const CouplingHandle& h) { return find_tendon_coupling(*h.world, h.id) != nullptr; })
      .def("get_name", [](const CouplingHandle& h) { return h.get().name; })
      .def("get_first",
           [](const CouplingHandle& h) { return TendonHandle{h.world, h.get().first}; })
      .def("get_second",
           [](const CouplingHandle& h) -> py::object {
             const TendonCoupling& c = h.get();
             if (!c.has_second) return py::none();
             return py::cast(TendonHandle{h.world, c.second});
           })
      .def("get_polynomial", [](const CouplingHandle& h) { return h.get().polynomial; })
      .def("get_compliance", [](const CouplingHandle& h) { return h.get().compliance; })
      .def("get_erp", [](const CouplingHandle& h) { return h.get().erp; })
      .def("get_error",
           [](const CouplingHandle& h) { return tendon_coupling_error(*h.world, h.get()); },
           "L1 - p(L2) now.")
      .def("get_force", [](const CouplingHandle& h) { return h.get().force; },
           "The coupling's force in the last step, along the Jacobian of L1 - p(L2).")
      .def("__eq__",
           [](const CouplingHandle& a, py::object b) {
             if (!py::isinstance<CouplingHandle>(b)) return false;
             const auto& hb = b.cast<const CouplingHandle&>();
             return a.world == hb.world && a.id == hb.id;
           })
      .def("__hash__",
           [](const CouplingHandle& h) {
             return py::hash(py::make_tuple(reinterpret_cast<std::uintptr_t>(h.world.get()), h.id,
                                            "tendon_coupling"));
           })
      .def("__repr__", [](const CouplingHandle& h) {
        const TendonCoupling* c = h.world ? find_tendon_coupling(*h.world, h.id) : nullptr;
        if (!c) return "<torsion.TendonCoupling id=" + std::to_string(h.id) + " (removed)>";
        return "<torsion.TendonCoupling id=" + std::to_string(h.id) + " name='" + c->name + "'>";
      });
  thread_guard::declare_world_bound<CouplingHandle>(m.attr("TendonCoupling"));
}

// World's methods of this area, added by bind_world_methods (world_methods.hpp)
void world_methods_tendons(WorldClass& world) {
  world.def(
      "add_fixed_tendon",
      [](const WorldPtr& w, const std::string& name, py::handle joints, py::handle stiffness,
         py::handle damping, py::handle spring_length, py::handle limits, py::handle friction,
         py::handle armature) {
        if (!py::isinstance<py::sequence>(joints) || py::isinstance<py::str>(joints))
          throw py::type_error("joints must be a sequence of (articulated system, joint name, "
                               "coefficient)");
        std::vector<TendonJointTerm> terms;
        const py::sequence seq = py::reinterpret_borrow<py::sequence>(joints);
        for (std::size_t k = 0; k < py::len(seq); ++k) {
          const std::string where = "joints[" + std::to_string(k) + "]";
          py::object item = seq[k];
          if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item) ||
              py::len(item) != 3)
            throw py::type_error(where + " must be (articulated system, joint name, coefficient)");
          const py::sequence t = py::reinterpret_borrow<py::sequence>(item);
          py::object robot = t[0];
          if (!py::isinstance<ObjectHandle>(robot))
            throw py::type_error(where + "[0] must be an ArticulatedSystem of this World");
          const auto& oh = robot.cast<const ObjectHandle&>();
          if (oh.world != w) throw py::value_error(where + "[0] belongs to another World");
          py::object jn = t[1];
          if (!py::isinstance<py::str>(jn))
            throw py::type_error(where + "[1] must be a joint name (str)");
          TendonJointTerm term;
          term.object = oh.get().id();
          term.joint = jn.cast<std::string>();
          term.coefficient = number(t[2], (where + "[2]").c_str());
          terms.push_back(std::move(term));
        }
        TendonProperties props =
            read_properties(TendonProperties{}, stiffness, damping, spring_length, limits, friction,
                            armature);
        Tendon& t = add_fixed_tendon(*w, name, std::move(terms), props);
        return TendonHandle{w, t.id};
      },
      arg("name"), arg("joints"), arg("stiffness") = 0.0, arg("damping") = 0.0,
      arg("spring_length") = py::none(), arg("limits") = py::none(), arg("friction") = 0.0,
      arg("armature") = 0.0,
      (std::string("Add a fixed tendon: length = sum of coefficient * coordinate over joints, a "
                   "sequence of (articulated system, joint name, coefficient) on at most two "
                   "systems (revolute or prismatic joints). ") + kProps +
       " name: unique. Returns a Tendon. ValueError for bad input, RuntimeError mid-step.")
          .c_str());
  world.def(
      "add_spatial_tendon",
      [](const WorldPtr& w, const std::string& name, py::handle path, py::handle stiffness,
         py::handle damping, py::handle spring_length, py::handle limits, py::handle friction,
         py::handle armature) {
        if (!py::isinstance<py::sequence>(path) || py::isinstance<py::str>(path))
          throw py::type_error("path must be a sequence of path elements (tuples)");
        std::vector<TendonPathElement> elems;
        const py::sequence seq = py::reinterpret_borrow<py::sequence>(path);
        for (std::size_t k = 0; k < py::len(seq); ++k) {
          const std::string where = "path[" + std::to_string(k) + "]";
          py::object item = seq[k];
          if (!py::isinstance<py::tuple>(item) || py::len(item) < 2 ||
              !py::isinstance<py::str>(py::tuple(item)[0]))
            throw py::type_error(where + " must be a tuple starting with 'site', 'sphere', "
                                 "'cylinder' or 'pulley'");
          const py::tuple t = py::reinterpret_borrow<py::tuple>(item);
          const std::string kind = t[0].cast<std::string>();
          TendonPathElement e;
          auto body = [&](std::size_t n_min, std::size_t n_max) {
            if (py::len(t) < n_min || py::len(t) > n_max)
              throw py::type_error(where + ": wrong number of fields for '" + kind + "'");
            py::object obj = t[1];
            if (!py::isinstance<ObjectHandle>(obj))
              throw py::type_error(where + "[1] must be an object of this World");
            const auto& oh = obj.cast<const ObjectHandle&>();
            if (oh.world != w) throw py::value_error(where + "[1] belongs to another World");
            e.object = oh.get().id();
            const std::optional<std::int64_t> local = to_int64(t[2]);
            if (!local || *local < 0)
              throw py::value_error(where + "[2] must be a body index (int >= 0)");
            e.local = static_cast<std::uint32_t>(std::min<std::int64_t>(*local, 0xffffffffLL));
            e.position_b = to_finite_vec3(t[3], (where + "[3]").c_str());
          };
          // an obstacle's side point: side_b in its body's frame, or (obj, local_idx, side_b)
          // on another body
          auto side = [&](py::handle v, const std::string& at) {
            e.has_side = true;
            if (py::isinstance<py::tuple>(v) && py::len(v) == 3 &&
                py::isinstance<ObjectHandle>(py::reinterpret_borrow<py::tuple>(v)[0])) {
              const auto st = py::reinterpret_borrow<py::tuple>(v);
              const auto& so = st[0].cast<const ObjectHandle&>();
              if (so.world != w) throw py::value_error(at + "[0] belongs to another World");
              const std::optional<std::int64_t> sl = to_int64(st[1]);
              if (!sl || *sl < 0) throw py::value_error(at + "[1] must be a body index (int >= 0)");
              e.side_elsewhere = true;
              e.side_object = so.get().id();
              e.side_local = static_cast<std::uint32_t>(std::min<std::int64_t>(*sl, 0xffffffffLL));
              e.side_b = to_finite_vec3(st[2], (at + "[2]").c_str());
              return;
            }
            e.side_b = to_finite_vec3(v, at.c_str());
          };
          if (kind == "site") {
            e.kind = PathElementKind::kSite;
            body(4, 4);
          } else if (kind == "sphere") {
            e.kind = PathElementKind::kSphere;
            body(5, 6);
            e.radius = number(t[4], (where + "[4]").c_str());
            if (py::len(t) == 6 && !t[5].is_none()) side(t[5], where + "[5]");
          } else if (kind == "cylinder") {
            e.kind = PathElementKind::kCylinder;
            body(6, 7);
            e.axis_b = to_finite_vec3(t[4], (where + "[4]").c_str());
            e.radius = number(t[5], (where + "[5]").c_str());
            if (py::len(t) == 7 && !t[6].is_none()) side(t[6], where + "[6]");
          } else if (kind == "pulley") {
            e.kind = PathElementKind::kPulley;
            if (py::len(t) != 2) throw py::type_error(where + ": ('pulley', divisor)");
            e.divisor = number(t[1], (where + "[1]").c_str());
          } else {
            throw py::value_error(where + "[0] must be 'site', 'sphere', 'cylinder' or 'pulley', "
                                  "got '" + kind + "'");
          }
          elems.push_back(e);
        }
        TendonProperties props =
            read_properties(TendonProperties{}, stiffness, damping, spring_length, limits, friction,
                            armature);
        Tendon& tendon = add_spatial_tendon(*w, name, std::move(elems), props);
        return TendonHandle{w, tendon.id};
      },
      arg("name"), arg("path"), arg("stiffness") = 0.0, arg("damping") = 0.0,
      arg("spring_length") = py::none(), arg("limits") = py::none(), arg("friction") = 0.0,
      arg("armature") = 0.0,
      (std::string("Add a spatial tendon: a cable through sites, wrapping around spheres and "
                   "cylinders, in branches split by pulleys. path: a sequence of "
                   "('site', obj, local_idx, pos_b), ('sphere', obj, local_idx, center_b, radius"
                   "[, side_b]), ('cylinder', obj, local_idx, center_b, axis_b, radius[, side_b]) "
                   "and ('pulley', divisor); points in the body's frame (m); side_b: a side point "
                   "(MuJoCo's sidesite) the tendon keeps to, in the obstacle's body frame or "
                   "(obj, local_idx, side_b) on another body. Each branch starts and ends at a site; "
                   "an obstacle lies between two sites; the length is the sum of each branch's / "
                   "its divisor. Its points' bodies: at most two movable objects (articulated "
                   "systems, dynamic single bodies; their forces act on both) and static single "
                   "bodies (fixed anchors). ") + kProps + " Returns a Tendon.")
          .c_str());
  world.def(
      "add_tendon_coupling",
      [](const WorldPtr& w, const std::string& name, const TendonHandle& first,
         py::handle second, std::vector<double> polynomial, double compliance, double erp) {
        if (first.world != w) throw py::value_error("first belongs to another World");
        first.get();
        std::uint64_t second_id = 0;
        const std::uint64_t* sp = nullptr;
        if (!second.is_none()) {
          if (!py::isinstance<TendonHandle>(second))
            throw py::type_error("second must be a Tendon of this World or None");
          const auto& h2 = second.cast<const TendonHandle&>();
          if (h2.world != w) throw py::value_error("second belongs to another World");
          h2.get();
          second_id = h2.id;
          sp = &second_id;
        }
        TendonCoupling& c =
            add_tendon_coupling(*w, name, first.id, sp, std::move(polynomial), compliance, erp);
        return CouplingHandle{w, c.id};
      },
      arg("name"), arg("first"), arg("second") = py::none(),
      arg("polynomial") = std::vector<double>{0.0, 1.0}, arg("compliance") = 0.0,
      arg("erp") = kTendonErp,
      "Couple two tendons' lengths: first's length = polynomial[0] + polynomial[1] * L2 + "
      "polynomial[2] * L2**2 + ... with L2 second's length (second None: first's length held at "
      "polynomial[0]). compliance (m/N, >= 0): 0 = a hard row of the solver that removes erp "
      "(0 < erp <= 1) of the error per step; > 0 = a spring of stiffness 1 / compliance. Returns "
      "a TendonCoupling.");
  world.def(
      "get_tendon",
      [](const WorldPtr& w, const std::string& name) -> py::object {
        Tendon* t = find_tendon(*w, name);
        return t ? py::cast(TendonHandle{w, t->id}) : py::none();
      },
      arg("name"), "The tendon with that name, or None.");
  world.def(
      "get_tendons",
      [](const WorldPtr& w) {
        py::list out;
        for (const Tendon& t : tendon_set(*w).tendons) out.append(TendonHandle{w, t.id});
        return out;
      },
      "Every tendon, in index order.");
  world.def(
      "get_tendon_couplings",
      [](const WorldPtr& w) {
        py::list out;
        for (const TendonCoupling& c : tendon_set(*w).couplings)
          out.append(CouplingHandle{w, c.id});
        return out;
      },
      "Every tendon coupling, in index order.");
  world.def(
      "remove_tendon",
      [](const WorldPtr& w, const TendonHandle& h) {
        if (h.world != w) throw py::value_error("tendon belongs to another World");
        remove_tendon(*w, h.get().id);
      },
      arg("tendon"),
      "Remove a tendon and every coupling that references it. The last tendon takes its index; "
      "its id is never reused. RuntimeError mid-step.");
  world.def(
      "remove_tendon_coupling",
      [](const WorldPtr& w, const CouplingHandle& h) {
        if (h.world != w) throw py::value_error("tendon coupling belongs to another World");
        remove_tendon_coupling(*w, h.get().id);
      },
      arg("coupling"), "Remove a tendon coupling.");
}

}  // namespace torsion::bindings
