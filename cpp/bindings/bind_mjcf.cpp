// World.load_mjcf_file, World(path) on a <mujoco> file (bind_state.cpp calls load_mjcf_into),
// and torsion.MJCFWarning.
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>

#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "geometry/convex_hull.hpp"
#include "bindings/world_methods.hpp"
#include "io/mjcf.hpp"
#include "world/mesh_object.hpp"
#include "world/tendons.hpp"

namespace torsion::bindings {

using namespace py_convert;
using py::arg;

py::tuple load_mjcf_full(const std::shared_ptr<World>& world, const std::string& path,
                         bool ignore_unsupported) {
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument("path: no such MJCF file '" + path + "'");
  MjcfOptions options;
  options.ignore_unsupported = ignore_unsupported;
  MjcfResult r;
  {
    py::gil_scoped_release release;
    r = load_mjcf_file(path, options);
  }
  // what was assumed or ignored; with warnings as errors the first raises here, before the
  // world changes
  if (!r.warnings.empty()) {
    const py::object category = py::module_::import("torsion._core").attr("MJCFWarning");
    for (const std::string& w : r.warnings)
      if (PyErr_WarnEx(category.ptr(), w.c_str(), 2) != 0) throw py::error_already_set();
  }
  const CollisionGroup all = to_group(py::int_(-1), "collision_mask");
  if (r.has_option) {
    world->set_time_step(r.timestep);
    world->set_gravity(r.gravity);
  }
  // MuJoCo's friction of every pair of the file's geoms (io/mjcf.hpp: MjcfMaterialPair)
  for (const MjcfMaterialPair& p : r.material_pairs) {
    MaterialPairProperties props;
    props.friction = props.static_friction = p.friction;
    props.spinning_friction = p.spinning;
    props.rolling_friction = p.rolling;
    world->set_material_pair_prop(p.a, p.b, props);
  }
  for (const MjcfGround& g : r.grounds) world->add_ground(g.height, g.contact.material, g.contact.mask);
  for (const MjcfHeightField& h : r.height_fields) {
    SingleBodyObject& o = world->add_height_map(h.data, h.center_x, h.center_y, h.contact.material,
                                                h.contact.group, h.contact.mask);
    if (!h.name.empty()) o.set_name(h.name);
  }
  for (const MjcfStatic& s : r.statics) {
    SingleBodyObject* o = nullptr;
    const std::string& mat = s.contact.material;
    const CollisionGroup group = s.contact.group, mask = s.contact.mask;
    switch (s.shape.type) {
      case ShapeType::kSphere: o = &world->add_sphere(s.shape.radius, 1.0, mat, group, mask); break;
      case ShapeType::kBox: {
        const Vec3 l = 2.0 * s.shape.half_extents;
        o = &world->add_box(l.x(), l.y(), l.z(), 1.0, mat, group, mask);
        break;
      }
      case ShapeType::kCylinder:
        o = &world->add_cylinder(s.shape.radius, s.shape.height, 1.0, mat, group, mask);
        break;
      case ShapeType::kCapsule:
        o = &world->add_capsule(s.shape.radius, s.shape.height, 1.0, mat, group, mask);
        break;
      case ShapeType::kConvexMesh: {
        // a static mesh (or ellipsoid) geom: a mesh object of its hull, its frame the hull's
        // (centre of mass declared at the origin: the object is static, its pose the geom's)
        MeshSpec spec;
        spec.mesh.vertices = s.shape.hull->vertices;
        spec.mesh.triangles = s.shape.hull->triangles;
        spec.mode = MeshCollisionMode::kConvexHull;
        spec.com = Vec3::Zero();
        spec.inertia = Mat3::Identity();
        spec.source = path;
        o = &world->add_mesh(spec, mat, group, mask);
        break;
      }
      default:
        throw std::invalid_argument("MJCF: the static geom '" + s.name + "' has a shape torsion "
                                    "cannot place as a static body");
    }
    o->set_body_type(BodyType::kStatic);
    o->set_position(s.pose.position);
    const Eigen::Quaterniond q(s.pose.rotation);
    o->set_orientation(Vec4(q.w(), q.x(), q.y(), q.z()));
    if (!s.name.empty()) o->set_name(s.name);
  }
  py::list out;
  for (const MjcfSystem& s : r.systems) {
    ArticulatedSystem& o = world->add_articulated_system(s.model, 1, all, true, s.self_collision);
    // per body: the filter and material of its geoms (MjcfContact)
    for (std::size_t b = 0; b < s.body_contact.size() && b < o.body_collision.size(); ++b) {
      o.body_collision[b].group = s.body_contact[b].group;
      o.body_collision[b].mask = s.body_contact[b].mask;
      o.body_collision[b].material = s.body_contact[b].material;
    }
    o.set_generalized_coordinate(s.gc);
    if (!s.name.empty()) o.set_name(s.name);
    out.append(make_handle(world, o));
  }
  // tendons (MjcfTendon): a point fixed in the world is on a static anchor made for them, an
  // invisible body at the origin that collides with nothing
  std::vector<ObjectId> system_ids;
  for (py::handle h : out) system_ids.push_back(h.cast<const ObjectHandle&>().get().id());
  ObjectId anchor = 0;
  bool has_anchor = false;
  auto object_of = [&](const MjcfPoint& p) {
    if (p.system >= 0) return system_ids[static_cast<std::size_t>(p.system)];
    if (!has_anchor) {
      SingleBodyObject& o = world->add_sphere(1e-3, 1.0, "default", 0, 0);
      o.set_body_type(BodyType::kStatic);
      o.set_name("mjcf_world_anchor");
      anchor = o.id();
      has_anchor = true;
    }
    return anchor;
  };
  // MuJoCo's spring length of a tendon without springlength is its length at qpos_spring (the
  // joints' springref): the systems are put there while the tendons are made, then back
  std::vector<ArticulatedSystem*> system_objects;
  for (py::handle h : out)
    system_objects.push_back(static_cast<ArticulatedSystem*>(world->find_object(h.cast<const ObjectHandle&>().get().id())));
  for (std::size_t k = 0; k < r.systems.size(); ++k) {
    const MjcfSystem& s = r.systems[k];
    VecX gc = s.gc;
    for (const ArticulatedBody& b : s.model->bodies)
      if (b.gv_size == 1 && b.gc_index >= 0) gc[b.gc_index] = s.springref[b.gv_index];
    system_objects[k]->set_generalized_coordinate(gc);
  }
  py::list tendons;
  for (const MjcfTendon& t : r.tendons) {
    TendonProperties props;
    props.stiffness = t.stiffness;
    props.damping = t.damping;
    props.friction = t.frictionloss;
    props.armature = t.armature;
    props.lower = t.lower;
    props.upper = t.upper;
    props.spring_length = t.spring_length;
    props.spring_upper = t.spring_upper;
    Tendon* made = nullptr;
    if (!t.spatial) {
      std::vector<TendonJointTerm> terms;
      for (std::size_t j = 0; j < t.joints.size(); ++j) {
        TendonJointTerm term;
        term.object = system_ids[static_cast<std::size_t>(t.joint_systems[j])];
        term.joint = t.joints[j].first;
        term.coefficient = t.joints[j].second;
        terms.push_back(std::move(term));
      }
      made = &add_fixed_tendon(*world, t.name, std::move(terms), props);
    } else {
      std::vector<TendonPathElement> elems;
      for (const MjcfTendonElement& e : t.path) {
        TendonPathElement x;
        using K = MjcfTendonElement::Kind;
        x.kind = e.kind == K::kSite     ? PathElementKind::kSite
                 : e.kind == K::kSphere ? PathElementKind::kSphere
                 : e.kind == K::kCylinder ? PathElementKind::kCylinder
                                          : PathElementKind::kPulley;
        if (e.kind != K::kPulley) {
          x.object = object_of(e.point);
          x.local = static_cast<std::uint32_t>(e.point.body);
          x.position_b = e.point.position;
        }
        x.axis_b = e.axis;
        x.radius = e.radius;
        x.has_side = e.has_side;
        x.side_b = e.side;
        if (e.has_side && e.side_elsewhere) {  // the sidesite on another body
          x.side_elsewhere = true;
          x.side_object = object_of(e.side_point);
          x.side_local = static_cast<std::uint32_t>(e.side_point.body);
          x.side_b = e.side_point.position;
        }
        x.divisor = e.divisor;
        elems.push_back(x);
      }
      made = &add_spatial_tendon(*world, t.name, std::move(elems), props);
    }
    // the Python handle (torsion.Tendon) through the World's own lookup
    tendons.append(py::cast(world).attr("get_tendon")(made->name));
  }
  for (std::size_t k = 0; k < r.systems.size(); ++k)
    system_objects[k]->set_generalized_coordinate(r.systems[k].gc);
  // equalities: hard couplings L1 = L1_0 + sum_i c_i (L2 - L2_0)^i (MuJoCo's, with the lengths at
  // load), expanded into torsion's polynomial in L2 (binomial theorem)
  for (const MjcfEquality& q : r.equalities) {
    Tendon* t1 = find_tendon(*world, r.tendons[static_cast<std::size_t>(q.first)].name);
    Tendon* t2 = q.second >= 0 ? find_tendon(*world, r.tendons[static_cast<std::size_t>(q.second)].name)
                               : nullptr;
    const double l1 = tendon_length(*world, *t1);
    std::vector<double> poly;
    if (t2 == nullptr) {
      poly = {l1 + q.polycoef[0]};
    } else {
      const double l2 = tendon_length(*world, *t2);
      const std::size_t n = q.polycoef.size();
      poly.assign(n, 0.0);
      for (std::size_t i = 0; i < n; ++i) {
        double binom = 1.0;  // C(i, k), k = 0..i
        for (std::size_t k = 0; k <= i; ++k) {
          poly[k] += q.polycoef[i] * binom * std::pow(-l2, static_cast<double>(i - k));
          binom = binom * static_cast<double>(i - k) / static_cast<double>(k + 1);
        }
      }
      poly[0] += l1;
    }
    const std::uint64_t second = t2 != nullptr ? t2->id : 0;
    add_tendon_coupling(*world, q.name, t1->id, t2 != nullptr ? &second : nullptr, poly, 0.0,
                        kTendonErp);
  }
  py::list actuators;
  for (const MjcfActuator& a : r.actuators) {
    py::dict d;
    d["tendon"] = a.tendon >= 0 ? py::object(tendons[static_cast<std::size_t>(a.tendon)])
                                : py::object(py::none());
    d["name"] = a.name;
    d["type"] = a.type;
    d["joint"] = a.joint;
    d["system"] = a.system;
    d["dof"] = a.dof;
    d["gear"] = a.gear;
    d["kp"] = a.kp;
    d["kv"] = a.kv;
    d["ctrlrange"] = a.ctrl_limited ? py::make_tuple(a.ctrl_lower, a.ctrl_upper) : py::object(py::none());
    d["forcerange"] = a.force_limited ? py::make_tuple(a.force_lower, a.force_upper) : py::object(py::none());
    actuators.append(d);
  }
  py::list springs;
  for (const MjcfSystem& s : r.systems) {
    std::vector<double> k(s.stiffness.data(), s.stiffness.data() + s.stiffness.size());
    std::vector<double> spring(s.springref.data(), s.springref.data() + s.springref.size());
    std::vector<double> ref(s.ref.data(), s.ref.data() + s.ref.size());
    springs.append(py::make_tuple(k, spring, ref));
  }
  return py::make_tuple(out, actuators, springs, tendons);
}

py::list load_mjcf_into(const std::shared_ptr<World>& world, const std::string& path,
                        bool ignore_unsupported) {
  const py::tuple all = load_mjcf_full(world, path, ignore_unsupported);
  // World(path): no MjcfModel drives the actuators and springs
  bool springs = false;
  for (py::handle s : all[2].cast<py::list>())
    for (double k : s.cast<py::tuple>()[0].cast<std::vector<double>>()) springs |= k != 0.0;
  if (springs || py::len(all[1]) > 0) {
    const py::object category = py::module_::import("torsion._core").attr("MJCFWarning");
    const std::string m = path + ": its joint springs and actuators are applied by the "
                          "torsion.MjcfModel that World.load_mjcf_file returns; World(path) "
                          "leaves them out";
    if (PyErr_WarnEx(category.ptr(), m.c_str(), 2) != 0) throw py::error_already_set();
  }
  return all[0].cast<py::list>();
}

void bind_mjcf(py::module_& m) {
  m.attr("MJCFWarning") = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "torsion.MJCFWarning",
      "An MJCF file holds something torsion loads without simulating it (yet), or ignores with "
      "ignore_unsupported=True; the message names the file and the element.",
      PyExc_UserWarning, nullptr));
}

void world_methods_mjcf(WorldClass& world) {
  world.def(
      "_load_mjcf_file",
      [](const std::shared_ptr<World>& w, py::handle path, bool ignore_unsupported) {
        return load_mjcf_full(w, to_path(path, "path"), ignore_unsupported);
      },
      arg("path"), arg("ignore_unsupported") = false,
      "(systems, actuators, springs, tendons) of an MJCF file loaded into this world; see torsion.mjcf "
      "(World.load_mjcf_file). Every subtree of "
      "<worldbody> with joints becomes an ArticulatedSystem (returned, in file order; a free "
      "joint gives a floating base placed at the body's pose), worldbody geoms static objects, "
      "planes grounds; <option> timestep and gravity are applied. See docs/robot_files.md for "
      "what is read (tendons, joint and tendon equalities as tendon couplings). An element "
      "torsion cannot simulate (connect and weld equalities, flex, hfield files) "
      "raises ValueError naming it, unless ignore_unsupported=True, which warns "
      "(torsion.MJCFWarning) and leaves it out.");
}

}  // namespace torsion::bindings
