// Collision detection in Python: shapes and the pair query torsion.collide(), contact and
// broad-phase settings, counters, filters and materials, and the contacts of the last step
// (World.get_contact_problem(), Object.get_contacts()) as NumPy structured arrays.
//
// Contacts cross the boundary as copies (one memcpy-like fill of a structured array per call),
// never as views: the world overwrites its contact list every step, so a view would change under
// the user's feet or dangle.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstddef>
#include <cstring>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/world_methods.hpp"
#include "collision/collision_detection.hpp"
#include "collision/narrow_phase.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/triangle_mesh.hpp"
#include "core/check.hpp"
#include "math/unit_vector.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;
using WorldPtr = std::shared_ptr<World>;

namespace {

// --- record layouts (C structs mirrored by NumPy dtypes with the same offsets) ---

struct PairContactRecord {  // torsion.collide()
  double position[3];
  double normal[3];
  double depth;
  std::uint32_t feature;
};

struct ProblemRecord {  // World.get_contact_problem()
  double position[3];
  double normal[3];
  double depth;
  double impulse[3];
  std::uint64_t object_a_id;
  std::uint64_t object_b_id;
  std::int64_t object_a_index;
  std::int64_t object_b_index;
  std::int64_t local_a;
  std::int64_t local_b;
  std::uint32_t feature;
};

struct ObjectContactRecord {  // Object.get_contacts()
  double position[3];
  double normal[3];
  double depth;
  double impulse[3];
  double force[3];
  std::uint64_t pair_object_id;
  std::int64_t pair_object_index;
  std::int64_t local_body_index;
  std::int64_t pair_local_body_index;
  std::int64_t contact_index;
  std::uint32_t feature;
  std::uint8_t is_object_a;
  std::uint8_t is_self_collision;
};

struct FieldSpec {
  const char* name;
  const char* format;
  std::size_t offset;
};

py::object make_dtype(std::initializer_list<FieldSpec> fields, std::size_t itemsize) {
  py::list names, formats, offsets;
  for (const auto& f : fields) {
    names.append(f.name);
    formats.append(f.format);
    offsets.append(f.offset);
  }
  py::dict spec;
  spec["names"] = names;
  spec["formats"] = formats;
  spec["offsets"] = offsets;
  spec["itemsize"] = itemsize;
  return py::module_::import("numpy").attr("dtype")(spec);
}

#define TORSION_FIELD(T, name, fmt) FieldSpec{#name, fmt, offsetof(T, name)}

py::object pair_contact_dtype() {
  using T = PairContactRecord;
  return make_dtype({TORSION_FIELD(T, position, "3f8"), TORSION_FIELD(T, normal, "3f8"),
                     TORSION_FIELD(T, depth, "f8"), TORSION_FIELD(T, feature, "u4")},
                    sizeof(T));
}

py::object problem_dtype() {
  using T = ProblemRecord;
  return make_dtype(
      {TORSION_FIELD(T, position, "3f8"), TORSION_FIELD(T, normal, "3f8"),
       TORSION_FIELD(T, depth, "f8"), TORSION_FIELD(T, impulse, "3f8"),
       TORSION_FIELD(T, object_a_id, "u8"), TORSION_FIELD(T, object_b_id, "u8"),
       TORSION_FIELD(T, object_a_index, "i8"), TORSION_FIELD(T, object_b_index, "i8"),
       TORSION_FIELD(T, local_a, "i8"), TORSION_FIELD(T, local_b, "i8"),
       TORSION_FIELD(T, feature, "u4")},
      sizeof(T));
}

py::object object_contact_dtype() {
  using T = ObjectContactRecord;
  return make_dtype(
      {TORSION_FIELD(T, position, "3f8"), TORSION_FIELD(T, normal, "3f8"),
       TORSION_FIELD(T, depth, "f8"), TORSION_FIELD(T, impulse, "3f8"),
       TORSION_FIELD(T, force, "3f8"), TORSION_FIELD(T, pair_object_id, "u8"),
       TORSION_FIELD(T, pair_object_index, "i8"), TORSION_FIELD(T, local_body_index, "i8"),
       TORSION_FIELD(T, pair_local_body_index, "i8"), TORSION_FIELD(T, contact_index, "i8"),
       TORSION_FIELD(T, feature, "u4"), TORSION_FIELD(T, is_object_a, "?"),
       TORSION_FIELD(T, is_self_collision, "?")},
      sizeof(T));
}

#undef TORSION_FIELD

void put3(double* dst, const Vec3& v) { dst[0] = v.x(), dst[1] = v.y(), dst[2] = v.z(); }

// an empty structured array of n records of `dtype`, and a pointer to its first record
template <class T>
T* new_records(const py::module_& m, const char* dtype_name, std::size_t n, py::array& out) {
  out = py::array(py::dtype::from_args(m.attr(dtype_name)),
                  std::vector<py::ssize_t>{static_cast<py::ssize_t>(n)});
  // zero everything, padding included, so equal contents give equal bytes
  if (n > 0) std::memset(out.mutable_data(), 0, n * sizeof(T));
  return static_cast<T*>(out.mutable_data());
}

py::dict counters_dict(const CollisionCounters& c) {
  py::dict d;
  d["collision_bodies"] = c.collision_bodies;
  d["broadphase_pairs"] = c.broadphase_pairs;
  d["narrowphase_pairs"] = c.narrowphase_pairs;
  d["colliding_pairs"] = c.colliding_pairs;
  d["contacts"] = c.contacts;
  d["time_aabb"] = c.time_aabb;
  d["time_broadphase"] = c.time_broadphase;
  d["time_narrowphase"] = c.time_narrowphase;
  d["time_total"] = c.time_total;
  return d;
}

Object& resolve_in(const WorldPtr& world, const ObjectHandle& h, const char* arg_name) {
  if (h.world != world) throw py::value_error(std::string(arg_name) + " belongs to another World");
  return h.get();
}

std::int64_t to_local_index(py::handle v) {
  if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr()))
    throw py::value_error("local_idx must be an int (-1 for every body of the object)");
  const std::optional<std::int64_t> i = to_int64(v);
  if (!i)  // past 64 bits: no body has it (pybind11's cast raised a generic RuntimeError)
    throw py::index_error("local_idx " + py::str(v).cast<std::string>() +
                          " is out of range (a body's local index, or -1 for every body)");
  return *i;
}

}  // namespace

Pose to_pose(py::handle position, py::handle quaternion, const char* pos_name, const char* quat_name) {
  Pose p;
  p.position = to_vec3(position, pos_name);
  check_finite_vec(p.position, pos_name);
  const Vec4 q = to_vec4(quaternion, quat_name);
  check_finite_vec(q, quat_name);
  const Vec4 u = unit_or_throw(q, std::string(quat_name) + " (w, x, y, z)");
  p.rotation = Quat(u[0], u[1], u[2], u[3]).toRotationMatrix();
  return p;
}

py::array manifold_records(const py::module_& m, const Manifold& man) {
  py::array out;
  auto* rec = new_records<PairContactRecord>(m, "PAIR_CONTACT_DTYPE", man.count, out);
  for (int i = 0; i < man.count; ++i) {
    put3(rec[i].position, man.points[i].position);
    put3(rec[i].normal, man.points[i].normal);
    rec[i].depth = man.points[i].depth;
    rec[i].feature = man.points[i].feature;
  }
  return out;
}

void bind_collision(py::module_& m) {
  m.attr("PAIR_CONTACT_DTYPE") = pair_contact_dtype();
  m.attr("CONTACT_PROBLEM_DTYPE") = problem_dtype();
  m.attr("OBJECT_CONTACT_DTYPE") = object_contact_dtype();

  py::enum_<ShapeType>(m, "ShapeType", "Kind of a collision shape.")
      .value("SPHERE", ShapeType::kSphere)
      .value("BOX", ShapeType::kBox)
      .value("CYLINDER", ShapeType::kCylinder)
      .value("CAPSULE", ShapeType::kCapsule)
      .value("GROUND", ShapeType::kGround)
      .value("HEIGHTMAP", ShapeType::kHeightMap)
      .value("CONVEX_MESH", ShapeType::kConvexMesh)
      .value("TRIANGLE_MESH", ShapeType::kTriangleMesh);

  py::class_<Shape>(m, "Shape",
                    "A collision shape in its body frame, centred at the body origin (m). Make one "
                    "with Shape.sphere/box/cylinder/capsule/ground; sizes must be finite and > 0.")
      .def_static("sphere", &Shape::sphere, arg("radius"), "A sphere of this radius (m).")
      .def_static("box", &Shape::box, arg("x_length"), arg("y_length"), arg("z_length"),
                  "A box of these full lengths along body x, y, z (m).")
      .def_static("cylinder", &Shape::cylinder, arg("radius"), arg("height"),
                  "A cylinder along body z: radius and full height (m).")
      .def_static("capsule", &Shape::capsule, arg("radius"), arg("height"),
                  "A capsule along body z: radius and the distance between the hemisphere "
                  "centres (m).")
      .def_static("ground", &Shape::ground, arg("z_height") = 0.0,
                  "The half space below the plane z = 0 of its pose (use the pose to place it; "
                  "in a World the ground is the half space below z = z_height).")
      .def_property_readonly("type", [](const Shape& s) { return s.type; })
      .def_property_readonly("radius", [](const Shape& s) { return s.radius; }, "m")
      .def_property_readonly("height", [](const Shape& s) { return s.height; }, "m")
      .def_property_readonly("half_extents", [](const Shape& s) { return to_numpy(s.half_extents); },
                             "Box half lengths (m), shape (3,).")
      .def("__repr__", [](const Shape& s) {
        std::string r = std::string("Shape.") + shape_type_name(s.type) + "(";
        switch (s.type) {
          case ShapeType::kSphere: r += "radius=" + fmt(s.radius); break;
          case ShapeType::kBox:
            r += fmt(2 * s.half_extents.x()) + ", " + fmt(2 * s.half_extents.y()) + ", " +
                 fmt(2 * s.half_extents.z());
            break;
          case ShapeType::kCylinder:
          case ShapeType::kCapsule: r += "radius=" + fmt(s.radius) + ", height=" + fmt(s.height); break;
          case ShapeType::kGround: r += "z_height=" + fmt(s.height); break;
          case ShapeType::kHeightMap: break;
          case ShapeType::kConvexMesh: r += "vertices=" + std::to_string(s.hull->vertices.size()); break;
          case ShapeType::kTriangleMesh: r += "triangles=" + std::to_string(s.mesh->triangles().size()); break;
        }
        return r + ")";
      });

  py::class_<ContactSettings>(
      m, "ContactSettings",
      "Narrow-phase settings (World.set_contact_settings). Fields:\n"
      "  margin (m, >= 0, default 1e-4): contacts are reported while depth >= -margin (to\n"
      "    within 1e-9 m, for round-off). Such speculative contacts let the pair approach by\n"
      "    gap / dt only; the default keeps a resting pair that the solver left a hair apart in\n"
      "    contact (at 0 it falls g dt^2 into its support the next step). Larger margins (a few\n"
      "    mm) stop fast bodies at the surface instead of letting them sink in by up to v dt.\n"
      "  max_points_per_pair (1..8, default 4): manifold size limit per pair of bodies at rest\n"
      "    (neither moves more than 0.5 mm in the step).\n"
      "  moving_points_per_pair (1..8, default 6): the limit of a pair of which a body moves more\n"
      "    (the larger of the two limits applies). A moving pair keeps its points by the depth\n"
      "    each will have after the step at the bodies' velocities, so the corner of a tumbling\n"
      "    box that is about to land is kept rather than the points its face already touches.\n"
      "  flat_tolerance (rad, [0, 0.5], default 0.02): a flat side within this angle of the contact\n"
      "    plane rests flat and gets a multi-point manifold.\n"
      "  gjk_max_iterations (default 64), epa_max_iterations (<= 100, default 64), epa_tolerance\n"
      "    (m, > 0, default 1e-9): limits of the convex routine used for box-cylinder,\n"
      "    box-capsule, cylinder-cylinder and cylinder-capsule.")
      .def(py::init([](double margin, int max_points, double flat, int gjk_it, int epa_it,
                       double epa_tol, int moving_points) {
             ContactSettings s;
             s.margin = margin, s.max_points_per_pair = max_points, s.flat_tolerance = flat;
             s.gjk_max_iterations = gjk_it, s.epa_max_iterations = epa_it, s.epa_tolerance = epa_tol;
             s.moving_points_per_pair = moving_points;
             check_contact_settings(s);
             return s; }),
           arg("margin") = ContactSettings{}.margin, arg("max_points_per_pair") = 4,
           arg("flat_tolerance") = 0.02,
           arg("gjk_max_iterations") = 64, arg("epa_max_iterations") = 64,
           arg("epa_tolerance") = 1e-9,
           arg("moving_points_per_pair") = ContactSettings{}.moving_points_per_pair)
      .def_readwrite("margin", &ContactSettings::margin)
      .def_readwrite("max_points_per_pair", &ContactSettings::max_points_per_pair)
      .def_readwrite("moving_points_per_pair", &ContactSettings::moving_points_per_pair)
      .def_readwrite("flat_tolerance", &ContactSettings::flat_tolerance)
      .def_readwrite("gjk_max_iterations", &ContactSettings::gjk_max_iterations)
      .def_readwrite("epa_max_iterations", &ContactSettings::epa_max_iterations)
      .def_readwrite("epa_tolerance", &ContactSettings::epa_tolerance)
      .def("__repr__", [](const ContactSettings& s) {
        return "ContactSettings(margin=" + fmt(s.margin) + ", max_points_per_pair=" +
               std::to_string(s.max_points_per_pair) + ", flat_tolerance=" + fmt(s.flat_tolerance) +
               ", gjk_max_iterations=" + std::to_string(s.gjk_max_iterations) +
               ", epa_max_iterations=" + std::to_string(s.epa_max_iterations) +
               ", epa_tolerance=" + fmt(s.epa_tolerance) +
               ", moving_points_per_pair=" + std::to_string(s.moving_points_per_pair) + ")";
      });

  py::class_<BroadphaseSettings>(
      m, "BroadphaseSettings",
      "Broad-phase (sweep and prune) settings (World.set_broadphase_settings). Fields:\n"
      "  aabb_margin (m, >= 0, default 0): every AABB is grown by this much.\n"
      "  sweep_axis (-1, 0, 1, 2; default -1): -1 picks, every step, the axis along which the\n"
      "    bodies spread most; 0/1/2 fix x/y/z.")
      .def(py::init([](double margin, int axis) {
             BroadphaseSettings s;
             s.aabb_margin = margin, s.sweep_axis = axis;
             check_broadphase_settings(s);
             return s; }),
           arg("aabb_margin") = 0.0, arg("sweep_axis") = -1)
      .def_readwrite("aabb_margin", &BroadphaseSettings::aabb_margin)
      .def_readwrite("sweep_axis", &BroadphaseSettings::sweep_axis)
      .def("__repr__", [](const BroadphaseSettings& s) {
        return "BroadphaseSettings(aabb_margin=" + fmt(s.aabb_margin) +
               ", sweep_axis=" + std::to_string(s.sweep_axis) + ")";
      });

  m.def(
      "collide",
      [m](const Shape& a, py::handle pos_a, py::handle quat_a, const Shape& b, py::handle pos_b,
          py::handle quat_b, const ContactSettings* settings) mutable {
        const Pose pa = to_pose(pos_a, quat_a, "position_a", "quaternion_a");
        const Pose pb = to_pose(pos_b, quat_b, "position_b", "quaternion_b");
        ContactSettings s = settings ? *settings : ContactSettings();
        check_contact_settings(s);
        Manifold man;
        {
          py::gil_scoped_release release;
          collide_shapes(a, pa, b, pb, s, man);
        }
        return manifold_records(m, man);
      },
      arg("shape_a"), arg("position_a"), arg("quaternion_a"), arg("shape_b"), arg("position_b"),
      arg("quaternion_b"), arg("settings") = nullptr,
      "Contacts between shape A and shape B at the given poses (position (3,) in m, quaternion "
      "(w, x, y, z), body to world), through the same dispatch table the World uses. Returns a "
      "new structured array of dtype PAIR_CONTACT_DTYPE, one record per contact point: "
      "position (3,) world m, midway between the surfaces; normal (3,) unit, from B to A; depth "
      "(m, > 0 penetrating, >= -margin); feature (id stable while the same features touch). "
      "Empty when the shapes are farther apart than settings.margin. Ground-ground is never "
      "tested (empty).");

  // --- Object: its contacts ---
  auto object = py::reinterpret_borrow<py::class_<ObjectHandle>>(m.attr("Object"));
  object.def(
      "get_contacts",
      [m](const ObjectHandle& h) mutable {
        Object& self = h.get();
        const World& w = *h.world;
        const auto& cs = w.contacts();
        const std::size_t me = self.index_in_world();
        std::size_t n = 0;
        for (const Contact& c : cs) n += (c.object_a == me) + (c.object_b == me);
        py::array out;
        auto* rec = new_records<ObjectContactRecord>(m, "OBJECT_CONTACT_DTYPE", n, out);
        const double dt = w.time_step();
        std::size_t k = 0;
        for (std::size_t i = 0; i < cs.size(); ++i) {
          const Contact& c = cs[i];
          for (int side = 0; side < 2; ++side) {
            const bool is_a = side == 0;
            if ((is_a ? c.object_a : c.object_b) != me) continue;
            ObjectContactRecord& r = rec[k++];
            std::memset(&r, 0, sizeof(r));
            put3(r.position, c.position);
            put3(r.normal, c.normal);
            r.depth = c.depth;
            put3(r.impulse, c.impulse);
            // world-frame force on this object: the impulse acts on A, its reaction on B
            const Vec3 f = contact_frame(c.normal).transpose() * c.impulse / dt;
            put3(r.force, is_a ? f : Vec3(-f));
            const std::uint32_t other = is_a ? c.object_b : c.object_a;
            Object& other_obj = const_cast<World&>(w).object_at(other);
            r.pair_object_id = other_obj.id();
            r.pair_object_index = other;
            r.local_body_index = is_a ? c.local_a : c.local_b;
            r.pair_local_body_index = is_a ? c.local_b : c.local_a;
            r.contact_index = static_cast<std::int64_t>(i);
            r.feature = c.feature;
            r.is_object_a = is_a ? 1 : 0;
            r.is_self_collision = c.object_a == c.object_b ? 1 : 0;
          }
        }
        return out;
      },
      "This object's contacts of the last integrate1() (a new structured array of dtype "
      "OBJECT_CONTACT_DTYPE, a copy): position (3,) world m; normal (3,) unit, from B to A "
      "(check is_object_a); depth (m); impulse (3,) in the contact frame acting on A (N s, as "
      "RaiSim; zero until the contact solver runs); force (3,) the world-frame force on THIS "
      "object, impulse / dt (N); pair_object_id and pair_object_index (the other object's id "
      "and world index); local_body_index (this object's body) and pair_local_body_index; "
      "contact_index (row in World.get_contact_problem()); feature; is_object_a; "
      "is_self_collision (both bodies belong to this object: an articulated system's "
      "self-contact appears twice, once from each side).");
}

// --- World: settings, counters, filters, materials, contacts (called by bind_world_methods) ---
void world_methods_collision(py::module_& m, WorldClass& world) {
  world
      .def("integrate_no_contact_detection", [](World& w) {
             ExclusiveWorldUse use(w.use(), "integrate_no_contact_detection()");
             py::gil_scoped_release r;
             w.integrate_no_contact_detection(); },
           "integrate1() without collision detection: clears the contacts and finds none. "
           "Follow it with integrate2(). RuntimeError mid-step.")
      .def("set_contact_settings", &World::set_contact_settings, arg("settings"),
           "Set the narrow-phase settings (a ContactSettings, copied). RuntimeError mid-step.")
      .def("get_contact_settings", [](const World& w) { return w.contact_settings(); },
           "A copy of the narrow-phase settings.")
      .def("set_broadphase_settings", &World::set_broadphase_settings, arg("settings"),
           "Set the broad-phase settings (a BroadphaseSettings, copied). RuntimeError mid-step.")
      .def("get_broadphase_settings", [](const World& w) { return w.broadphase_settings(); },
           "A copy of the broad-phase settings.")
      .def("set_collision_counters_enabled", &World::set_collision_counters_enabled, arg("enabled"),
           "Enable (True) or disable the timing of the collision stages (counts are always kept).")
      .def("get_collision_counters_enabled", &World::collision_counters_enabled)
      .def("get_last_collision_counters", [](const World& w) { return counters_dict(w.last_collision_counters()); },
           "Counters of the last collision detection, as a dict: collision_bodies, "
           "broadphase_pairs (AABB overlaps), narrowphase_pairs (pairs tested exactly after "
           "filtering), colliding_pairs, contacts; and the times (s) time_aabb, "
           "time_broadphase, time_narrowphase, time_total (0 unless counters are enabled).")
      .def("set_object_collision_filter", [](const WorldPtr& w, const ObjectHandle& h, py::handle group,
                                             py::handle mask, py::handle local_idx) {
             Object& o = resolve_in(w, h, "obj");
             return w->set_object_collision_filter(o, to_group(group, "collision_group"),
                                                   to_group(mask, "collision_mask"),
                                                   to_local_index(local_idx)); },
           arg("obj"), arg("collision_group"), arg("collision_mask"), arg("local_idx") = -1,
           "Set the 64-bit collision group and mask of every collision body of obj (local_idx "
           "-1) or of one. Two bodies collide iff (a.group & b.mask) and (b.group & a.mask). "
           "Returns True; IndexError for a local index obj does not have; RuntimeError mid-step.")
      .def("set_object_material", [](const WorldPtr& w, const ObjectHandle& h, const std::string& material,
                                     py::handle local_idx) {
             Object& o = resolve_in(w, h, "obj");
             return w->set_object_material(o, material, to_local_index(local_idx)); },
           arg("obj"), arg("material"), arg("local_idx") = -1,
           "Set the material name of every collision body of obj (local_idx -1) or of one. "
           "Returns True; IndexError for a local index obj does not have.")
      .def("get_contact_problem", [m](const WorldPtr& w) mutable {
             const auto& cs = w->contacts();
             py::array out;
             auto* rec = new_records<ProblemRecord>(m, "CONTACT_PROBLEM_DTYPE", cs.size(), out);
             for (std::size_t i = 0; i < cs.size(); ++i) {
               const Contact& c = cs[i];
               put3(rec[i].position, c.position);
               put3(rec[i].normal, c.normal);
               rec[i].depth = c.depth;
               put3(rec[i].impulse, c.impulse);
               rec[i].object_a_id = w->object_at(c.object_a).id();
               rec[i].object_b_id = w->object_at(c.object_b).id();
               rec[i].object_a_index = c.object_a;
               rec[i].object_b_index = c.object_b;
               rec[i].local_a = c.local_a;
               rec[i].local_b = c.local_b;
               rec[i].feature = c.feature;
             }
             return out; },
           "Every contact of the last integrate1(), one record per contact (a new structured "
           "array of dtype CONTACT_PROBLEM_DTYPE, a copy): position (3,) world m; normal (3,) "
           "unit, from B to A; depth (m, > 0 penetrating); impulse (3,) in the contact frame "
           "acting on A (N s, zero until the contact solver runs); object_a_id/object_b_id "
           "(stable ids), object_a_index/object_b_index (world indices), local_a/local_b (local "
           "body indices) and feature. Empty after remove_object() until the next step.");
}

}  // namespace torsion::bindings
