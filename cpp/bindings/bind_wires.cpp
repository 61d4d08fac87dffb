// Wires (world/wires.hpp): World.add_stiff_wire / add_compliant_wire / add_custom_wire,
// get_wire / get_constraint / get_wires, remove_object(wire), and the wire handles
// (LengthConstraint, StiffWire, CompliantWire, CustomWire).
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "bindings/convert.hpp"
#include "bindings/world_methods.hpp"
#include "bindings/handles.hpp"
#include "bindings/thread_guard.hpp"
#include "core/check.hpp"
#include "world/wires.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

// A wire of a World: the world (shared) and the wire's stable id. Every call resolves the id and
// raises RemovedObjectError once the wire is gone (removed, or its object was).
struct WireHandle {
  std::shared_ptr<World> world;
  std::uint64_t id = 0;

  Wire& get() const {
    if (!world) throw py::type_error("this wire handle is not initialised (it has no World)");
    Wire* w = world->find_wire(id);
    if (!w)
      throw RemovedObjectError("wire id " + std::to_string(id) +
                               " has been removed from its world (or one of its objects was); "
                               "this handle can no longer be used");
    return *w;
  }
};
struct StiffWireHandle : WireHandle {};
struct CompliantWireHandle : WireHandle {};
struct CustomWireHandle : WireHandle {};

py::object wire_handle(const WorldPtr& world, const Wire& w) {
  switch (w.kind) {
    case WireKind::kStiff: return py::cast(StiffWireHandle{{world, w.id}});
    case WireKind::kCompliant: return py::cast(CompliantWireHandle{{world, w.id}});
    case WireKind::kCustom: return py::cast(CustomWireHandle{{world, w.id}});
  }
  return py::none();
}

// an end of a wire: the object (a handle of this world) and its local body index
ObjectId end_object(const WorldPtr& w, py::handle obj, const char* name) {
  if (!py::isinstance<ObjectHandle>(obj))
    throw py::type_error(std::string(name) + " must be an object of this World (Sphere, Box, "
                         "ArticulatedSystem, ...), got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  const auto& h = obj.cast<const ObjectHandle&>();
  if (h.world != w) throw py::value_error(std::string(name) + " belongs to another World");
  return h.get().id();
}

std::size_t local_index(py::handle v, const char* name) {
  const std::optional<std::int64_t> k = to_int64(v);
  if (!k) throw py::type_error(std::string(name) + " must be an int (a body index), got " +
                               std::string(py::str(py::type::of(v).attr("__name__"))));
  if (*k < 0)
    throw py::value_error(std::string(name) + " must be >= 0 (a body index), got " +
                          std::to_string(*k));
  return static_cast<std::size_t>(*k);
}

double to_double(py::handle v, const char* name) {
  if (!py::isinstance<py::int_>(v) && !py::isinstance<py::float_>(v) &&
      !py::hasattr(v, "__float__"))
    throw py::type_error(std::string(name) + " must be a number");
  return v.cast<double>();
}

// a wire's two ends from the Python arguments, checked in the order of the signature
struct WireEnds {
  ObjectId object[2];
  std::size_t local[2];
  Vec3 point[2];
};

WireEnds wire_ends(const WorldPtr& w, py::handle obj1, py::handle local1, py::handle pos1,
                   py::handle obj2, py::handle local2, py::handle pos2) {
  WireEnds e;
  e.object[0] = end_object(w, obj1, "obj1");
  e.local[0] = local_index(local1, "local_idx1");
  e.point[0] = to_finite_vec3(pos1, "pos1_b");
  e.object[1] = end_object(w, obj2, "obj2");
  e.local[1] = local_index(local2, "local_idx2");
  e.point[1] = to_finite_vec3(pos2, "pos2_b");
  return e;
}

const char* kEnds =
    "obj1, obj2: objects of this World (a single body: local_idx 0; an articulated system: "
    "local_idx = the body index); pos1_b, pos2_b: the attachment points in those bodies' frames "
    "(m, shape (3,)); length: the wire's length (m, > 0).";

}  // namespace

void bind_wires(py::module_& m) {
  py::class_<WireHandle>(
      m, "LengthConstraint",
      "A wire (World seed: LengthConstraint) between a point on one body and a point on another. "
      "It pulls and never pushes: tension >= 0. Holds the world and the wire's stable id; "
      "RemovedObjectError once the wire (or one of its objects) is removed. Direction and "
      "positions are world-frame NumPy arrays (copies).")
      .def("get_id", [](const WireHandle& h) { return h.get().id; },
           "Stable id, never reused within the world.")
      .def("get_index_in_world",
           [](const WireHandle& h) {
             h.get();
             return static_cast<std::size_t>(h.world->wire_set().index_of(h.id));
           },
           "Position in the world's wire list; the last wire takes a removed wire's index.")
      .def("is_alive", [](const WireHandle& h) { return h.world->find_wire(h.id) != nullptr; })
      .def("get_name", [](const WireHandle& h) { return h.get().name; })
      .def("set_name",
           [](const WireHandle& h, std::string name) {
             Wire& w = h.get();
             check_name(name, "name");
             w.name = std::move(name);
           },
           arg("name"), "The name get_wire(name) and get_constraint(name) find.")
      .def("get_kind", [](const WireHandle& h) { return wire_kind_name(h.get().kind); },
           "'stiff', 'compliant' or 'custom'.")
      .def("get_length", [](const WireHandle& h) { return h.get().length; },
           "The wire's nominal length L (m), as given at creation.")
      .def("get_distance",
           [](const WireHandle& h) { return h.world->wire_geometry(h.get()).length; },
           "The distance between its two ends now (m).")
      .def("get_stretch",
           [](const WireHandle& h) {
             const Wire& w = h.get();
             return h.world->wire_geometry(w).length - w.length;
           },
           "distance - length (m): > 0 stretched, < 0 slack.")
      .def("get_tension", [](const WireHandle& h) { return h.get().tension; },
           "Tension (N, >= 0): a stiff wire's of the last step (its impulse / dt), a compliant "
           "wire's stiffness * stretch of the last step, a custom wire's as set.")
      .def("get_direction",
           [](const WireHandle& h) { return to_numpy(h.world->wire_geometry(h.get()).direction); },
           "Unit vector from end 1 to end 2 (world), shape (3,); the tension pulls end 1 along it "
           "and end 2 against it.")
      .def("get_p1",
           [](const WireHandle& h) { return to_numpy(h.world->wire_geometry(h.get()).p[0]); },
           "World position of end 1 (m), shape (3,).")
      .def("get_p2",
           [](const WireHandle& h) { return to_numpy(h.world->wire_geometry(h.get()).p[1]); },
           "World position of end 2 (m), shape (3,).")
      .def("get_object1",
           [](const WireHandle& h) {
             return make_handle(h.world, *h.world->find_object(h.get().end[0].object));
           })
      .def("get_object2",
           [](const WireHandle& h) {
             return make_handle(h.world, *h.world->find_object(h.get().end[1].object));
           })
      .def("get_local_index1", [](const WireHandle& h) { return h.get().end[0].local; })
      .def("get_local_index2", [](const WireHandle& h) { return h.get().end[1].local; })
      .def("get_pos1_b", [](const WireHandle& h) { return to_numpy(h.get().end[0].position_b); },
           "Attachment of end 1 in its body's frame (m).")
      .def("get_pos2_b", [](const WireHandle& h) { return to_numpy(h.get().end[1].position_b); },
           "Attachment of end 2 in its body's frame (m).")
      .def("__eq__",
           [](const WireHandle& a, py::object b) {
             if (!py::isinstance<WireHandle>(b)) return false;
             const auto& hb = b.cast<const WireHandle&>();
             return a.world == hb.world && a.id == hb.id;
           })
      .def("__hash__",
           [](const WireHandle& h) {
             return py::hash(
                 py::make_tuple(reinterpret_cast<std::uintptr_t>(h.world.get()), h.id, "wire"));
           })
      .def("__repr__", [](const WireHandle& h) {
        const Wire* w = h.world ? h.world->find_wire(h.id) : nullptr;
        if (!w) return "<torsion wire id=" + std::to_string(h.id) + " (removed)>";
        return "<torsion." + std::string(wire_kind_name(w->kind)) + " wire id=" +
               std::to_string(h.id) + " length=" + fmt(w->length) +
               (w->name.empty() ? std::string() : " name='" + w->name + "'") + ">";
      });
  py::class_<StiffWireHandle, WireHandle>(
      m, "StiffWire",
      "Inextensible wire (StiffLengthConstraint): a unilateral hard row of the contact solver.");
  py::class_<CompliantWireHandle, WireHandle>(
      m, "CompliantWire",
      "Spring wire (CompliantLengthConstraint): tension = stiffness * max(0, stretch).")
      .def("get_stiffness", [](const CompliantWireHandle& h) { return h.get().stiffness; },
           "N/m.")
      .def("set_stiffness",
           [](const CompliantWireHandle& h, double k) {
             Wire& w = h.get();
             check_positive(k, "stiffness");
             w.stiffness = k;
           },
           arg("stiffness"), "N/m, finite and > 0.");
  py::class_<CustomWireHandle, WireHandle>(
      m, "CustomWire",
      "Wire whose tension the user sets (CustomLengthConstraint); applied every step while the "
      "ends are apart.")
      .def("set_tension",
           [](const CustomWireHandle& h, double t) {
             Wire& w = h.get();
             check_non_negative(t, "tension");
             w.tension = t;
           },
           arg("tension"), "N, finite and >= 0 (a wire cannot push).");
  thread_guard::declare_world_bound<WireHandle>(m.attr("LengthConstraint"));
}

// World's methods of this area, added by bind_world_methods (world_methods.hpp)
void world_methods_wires(WorldClass& world) {
  world.def(
      "add_stiff_wire",
      [](const WorldPtr& w, py::handle obj1, py::handle local1, py::handle pos1, py::handle obj2,
         py::handle local2, py::handle pos2, py::handle length) {
        const WireEnds e = wire_ends(w, obj1, local1, pos1, obj2, local2, pos2);
        Wire& wire = w->add_stiff_wire(e.object[0], e.local[0], e.point[0], e.object[1],
                                       e.local[1], e.point[1],
                                       to_double(length, "length"));
        return wire_handle(w, wire);
      },
      arg("obj1"), arg("local_idx1"), arg("pos1_b"), arg("obj2"), arg("local_idx2"),
      arg("pos2_b"), arg("length"),
      (std::string("Add an inextensible wire (it pulls, never pushes), solved as a hard row "
                   "with the contacts. ") + kEnds + " Returns a StiffWire. ValueError for bad "
                   "input, RuntimeError mid-step.").c_str());
  world.def(
      "add_compliant_wire",
      [](const WorldPtr& w, py::handle obj1, py::handle local1, py::handle pos1, py::handle obj2,
         py::handle local2, py::handle pos2, py::handle length, py::handle stiffness) {
        const WireEnds e = wire_ends(w, obj1, local1, pos1, obj2, local2, pos2);
        Wire& wire = w->add_compliant_wire(e.object[0], e.local[0], e.point[0], e.object[1],
                                           e.local[1], e.point[1],
                                           to_double(length, "length"),
                                           to_double(stiffness, "stiffness"));
        return wire_handle(w, wire);
      },
      arg("obj1"), arg("local_idx1"), arg("pos1_b"), arg("obj2"), arg("local_idx2"),
      arg("pos2_b"), arg("length"), arg("stiffness"),
      (std::string("Add a spring wire: tension = stiffness (N/m, > 0) * max(0, distance - "
                   "length). ") + kEnds + " Returns a CompliantWire.").c_str());
  world.def(
      "add_custom_wire",
      [](const WorldPtr& w, py::handle obj1, py::handle local1, py::handle pos1, py::handle obj2,
         py::handle local2, py::handle pos2, py::handle length) {
        const WireEnds e = wire_ends(w, obj1, local1, pos1, obj2, local2, pos2);
        Wire& wire = w->add_custom_wire(e.object[0], e.local[0], e.point[0], e.object[1],
                                        e.local[1], e.point[1],
                                        to_double(length, "length"));
        return wire_handle(w, wire);
      },
      arg("obj1"), arg("local_idx1"), arg("pos1_b"), arg("obj2"), arg("local_idx2"),
      arg("pos2_b"), arg("length"),
      (std::string("Add a wire whose tension you set (CustomWire.set_tension, N). ") + kEnds +
       " length is only a reference for get_stretch().").c_str());
  world.def(
      "get_wire",
      [](const WorldPtr& w, const std::string& name) -> py::object {
        Wire* wire = w->find_wire(name);
        return wire ? wire_handle(w, *wire) : py::none();
      },
      arg("name"), "The first wire with that name (set_name), or None.");
  world.def(
      "get_constraint",
      [](const WorldPtr& w, const std::string& name) -> py::object {
        Wire* wire = w->find_wire(name);
        return wire ? wire_handle(w, *wire) : py::none();
      },
      arg("name"), "Same as get_wire(name) (the seed's getConstraint).");
  world.def(
      "get_wires",
      [](const WorldPtr& w) {
        py::list out;
        for (const Wire& wire : w->wire_set().wires) out.append(wire_handle(w, wire));
        return out;
      },
      "Every wire, in index order (a new list of handles).");
  world.def("get_wire_count", [](const WorldPtr& w) { return w->wire_count(); });
  world.def(
      "remove_object",
      [](const WorldPtr& w, const WireHandle& h) {
        if (h.world != w) throw py::value_error("wire belongs to another World");
        w->remove_wire(h.get().id);
      },
      arg("wire"),
      "Remove a wire. The last wire takes its index; its id is never reused; its handles raise "
      "RemovedObjectError from now on. RuntimeError mid-step.");
}

}  // namespace torsion::bindings
