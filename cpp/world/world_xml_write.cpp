// torsion world XML: writing (see world_xml.hpp for the format). Numbers as %.17g: exact.
#include "world/world_xml.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/check.hpp"
#include "geometry/height_map.hpp"
#include "granular/granular_world.hpp"
#include "terrain/deformable_terrain.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/triangle_mesh.hpp"
#include "io/mesh_io.hpp"
#include "io/urdf.hpp"
#include "world/mesh_object.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"
#include "world/world_deformable.hpp"
#include "world/tendons.hpp"

namespace torsion {

namespace {

namespace fs = std::filesystem;

// --- writing helpers ---

std::string f17(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <class V>
std::string list(const V& v) {
  std::string s;
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(v.size()); ++i) {
    if (i) s += ' ';
    s += f17(v[i]);
  }
  return s;
}

void set(pugi::xml_node n, const char* attr, const std::string& v) {
  n.append_attribute(attr).set_value(v.c_str());
}
void set(pugi::xml_node n, const char* attr, double v) { set(n, attr, f17(v)); }
void set_bool(pugi::xml_node n, const char* attr, bool v) { set(n, attr, v ? "true" : "false"); }
void set_group(pugi::xml_node n, const char* attr, CollisionGroup g) {
  set(n, attr, std::to_string(static_cast<unsigned long long>(g)));
}

// World(path) replaces every @@name in the file's raw text before parsing it (templates), so a
// name, material or path holding "@@" would not come back as it was (the file would not even
// load without params). Every '@' followed by another is written as the character reference
// &#64;, which the parser turns back into '@' after the substitution. In a CDATA section (the
// URDF text), where references mean nothing, the section is split between the two instead; the
// reader joins the pieces.
std::string escape_template_markers(const std::string& xml) {
  static const std::string kOpen = "<![CDATA[", kClose = "]]>";
  std::string out;
  out.reserve(xml.size());
  for (std::size_t i = 0; i < xml.size();) {
    if (xml.compare(i, kOpen.size(), kOpen) == 0) {
      const std::size_t begin = i + kOpen.size();
      std::size_t end = xml.find(kClose, begin);
      if (end == std::string::npos) end = xml.size();
      out += kOpen;
      for (std::size_t j = begin; j < end; ++j) {
        out += xml[j];
        if (xml[j] == '@' && j + 1 < end && xml[j + 1] == '@') out += kClose + kOpen;
      }
      i = end;
      continue;
    }
    if (xml[i] == '@' && i + 1 < xml.size() && xml[i + 1] == '@') out += "&#64;";
    else out += xml[i];
    ++i;
  }
  return out;
}

void write_material_props(pugi::xml_node n, const MaterialPairProperties& p) {
  set(n, "friction", p.friction);
  set(n, "restitution", p.restitution);
  set(n, "restitution_threshold", p.restitution_threshold);
  set(n, "static_friction", p.static_friction);
  set(n, "static_friction_threshold_velocity", p.static_friction_threshold_velocity);
  set(n, "rolling_friction", p.rolling_friction);
  set(n, "spinning_friction", p.spinning_friction);
}

const char* kind_name(ObjectType t) {
  switch (t) {
    case ObjectType::kSphere: return "sphere";
    case ObjectType::kBox: return "box";
    case ObjectType::kCylinder: return "cylinder";
    case ObjectType::kCapsule: return "capsule";
    case ObjectType::kGround: return "ground";
    case ObjectType::kHeightMap: return "heightmap";
    case ObjectType::kCompound: return "compound";
    case ObjectType::kMesh: return "mesh";
    default: return "articulated";
  }
}

const char* mesh_mode_name(MeshCollisionMode m) {
  switch (m) {
    case MeshCollisionMode::kOriginalMesh: return "original_mesh";
    case MeshCollisionMode::kConvexify: return "convexify";
    default: return "convex_hull";
  }
}

// A Mesh object's collision geometry exactly as stored: in its body frame (origin at the centre
// of mass, the mesh file's axes), one OBJ per convex part (one for a hull or the surface), hull
// vertices in stored order. The reader rebuilds the same hulls from them (quickhull keeps its
// input order), so the geometry comes back bit for bit; mesh-frame copies (get_com_offset added)
// would not, since (v - com) + com - com need not be v in floating point.
struct MeshAsset {
  TriangleMeshData mesh;
  std::string material;
  std::string faces;  // a hull's polygonal faces: "n i0 .. i(n-1)" each; "" for a surface
};

std::string face_loops(const ConvexHull& h) {
  std::string out;
  for (int f = 0; f < h.face_count(); ++f) {
    out += (f ? " " : "") + std::to_string(h.face_size(f));
    for (int k = 0; k < h.face_size(f); ++k) out += " " + std::to_string(h.face(f)[k]);
  }
  return out;
}

std::vector<MeshAsset> body_frame_meshes(const MeshObject& m) {
  std::vector<MeshAsset> out;
  const auto hull_data = [](const ConvexHull& h) {
    TriangleMeshData d;
    d.vertices = h.vertices;
    d.triangles = h.triangles;
    return d;
  };
  if (!m.children().empty()) {
    for (const ChildShape& c : m.children())
      out.push_back({hull_data(*c.shape.hull), c.material, face_loops(*c.shape.hull)});
  } else if (m.shape().type == ShapeType::kConvexMesh) {
    out.push_back({hull_data(*m.shape().hull), m.collision().material, face_loops(*m.shape().hull)});
  } else {
    TriangleMeshData d;
    d.vertices = m.shape().mesh->vertices();
    d.triangles = m.shape().mesh->triangles();
    out.push_back({std::move(d), m.collision().material, ""});
  }
  return out;
}

// <mesh mode com scale source mass ...><asset file material/>...: the OBJ files go to
// `asset_dir` (relative to the XML file: `asset_rel`), named as export_mesh_assets_to_obj names
// them with the world index for the name (a name may hold any character)
void write_mesh_assets(pugi::xml_node n, const MeshObject& m, const fs::path& asset_dir,
                       const std::string& asset_rel) {
  set(n, "mode", mesh_mode_name(m.mode()));
  set(n, "com", list(m.com_in_mesh_frame()));
  set(n, "scale", m.scale());
  if (!m.source().empty()) set(n, "source", m.source());
  const std::vector<MeshAsset> assets = body_frame_meshes(m);
  for (std::size_t k = 0; k < assets.size(); ++k) {
    const std::string file =
        "mesh_" + std::to_string(m.index_in_world()) + "_" + std::to_string(k) + ".obj";
    write_obj(assets[k].mesh, (asset_dir / file).string(),
              "torsion world XML asset: object " + std::to_string(m.index_in_world()) +
                  ", collision mesh " + std::to_string(k) +
                  " (body frame: origin at the centre of mass, m)");
    pugi::xml_node an = n.append_child("asset");
    set(an, "file", asset_rel + "/" + file);
    set(an, "material", assets[k].material);
    if (!assets[k].faces.empty()) set(an, "faces", assets[k].faces);
  }
}

// <soil k_c .. erosion_iterations/> and <soil_state level reference plastic pressure shear
// in_contact/>: the material and every node's state, x fastest (17 digits: exact)
void write_soil(pugi::xml_node n, const DeformableTerrain& t) {
  const SoilMaterial& m = t.soil();
  pugi::xml_node sn = n.append_child("soil");
  set(sn, "k_c", m.k_c);
  set(sn, "k_phi", m.k_phi);
  set(sn, "n", m.n);
  set(sn, "cohesion", m.cohesion);
  set(sn, "friction_angle", m.friction_angle);
  set(sn, "janosi_shear", m.janosi_shear);
  set(sn, "elastic_stiffness", m.elastic_stiffness);
  set(sn, "damping", m.damping);
  set_bool(sn, "elastic_rebound", m.elastic_rebound);
  set_bool(sn, "bulldozing", m.bulldozing);
  set(sn, "bulldozing_flow", m.bulldozing_flow);
  set(sn, "erosion_angle", m.erosion_angle);
  set(sn, "erosion_iterations", std::to_string(m.erosion_iterations));
  const DeformableTerrain::State s = t.state();
  auto values = [](const std::vector<double>& v) {
    std::string out;
    out.reserve(v.size() * 24);
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + f17(v[i]);
    return out;
  };
  pugi::xml_node st = n.append_child("soil_state");
  set(st, "level", values(s.level));
  set(st, "reference", values(s.reference));
  set(st, "plastic", values(s.plastic));
  set(st, "pressure", values(s.sigma));
  std::vector<double> shear;
  shear.reserve(3 * s.shear.size());
  for (const Vec3& j : s.shear) shear.insert(shear.end(), {j.x(), j.y(), j.z()});
  set(st, "shear", values(shear));
  std::string flags;
  for (std::size_t i = 0; i < s.touched.size(); ++i) flags += (i ? " " : "") + std::to_string(s.touched[i]);
  set(st, "in_contact", flags);
}

void write_single_body(pugi::xml_node objects, const SingleBodyObject& o,
                       const fs::path& asset_dir, const std::string& asset_rel) {
  const DeformableTerrain* soil = as_deformable_terrain(o);
  pugi::xml_node n = objects.append_child(soil ? "deformable_terrain" : kind_name(o.type()));
  if (!o.name().empty()) set(n, "name", o.name());
  const Shape& sh = o.shape();
  const RigidBody& b = o.body();
  set(n, "material", o.collision().material);
  if (o.type() == ObjectType::kGround) {
    set(n, "z_height", sh.height);
    set_group(n, "collision_group", o.collision().group);
    set_group(n, "collision_mask", o.collision().mask);
    return;
  }
  if (o.type() == ObjectType::kHeightMap) {
    // the samples verbatim (holes as nan/inf), x fastest, as HeightMapData stores them; a
    // deformable terrain's initial ones, its soil and its state after them
    const HeightMapData& h = soil ? soil->initial() : *sh.height_map;
    set(n, "x_samples", std::to_string(h.x_samples()));
    set(n, "y_samples", std::to_string(h.y_samples()));
    set(n, "x_size", h.x_size());
    set(n, "y_size", h.y_size());
    set(n, "center_x", b.position.x());
    set(n, "center_y", b.position.y());
    set_group(n, "collision_group", o.collision().group);
    set_group(n, "collision_mask", o.collision().mask);
    std::string text;
    text.reserve(h.heights().size() * 24);
    for (std::size_t i = 0; i < h.heights().size(); ++i) {
      text += (i % 16 == 0) ? "\n" : " ";
      text += f17(h.heights()[i]);
    }
    n.append_child("heights").append_child(pugi::node_pcdata).set_value(text.c_str());
    if (soil) write_soil(n, *soil);
    return;
  }
  if (o.type() == ObjectType::kCompound) {
    // children in the body frame (origin at the centre of mass), so com is 0 on reloading and
    // the stored poses come back bit for bit; mass properties are written below
    for (const ChildShape& c : o.children()) {
      pugi::xml_node cn = n.append_child("child");
      const Shape& cs = c.shape;
      set(cn, "shape", shape_type_name(cs.type));
      if (cs.type == ShapeType::kBox) set(cn, "size", list(Vec3(2.0 * cs.half_extents)));
      else set(cn, "size", list(Vec3(cs.radius, cs.height, 0.0)));
      set(cn, "position", list(c.pose.position));
      const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> r = c.pose.rotation;
      set(cn, "rotation", list(Eigen::Map<const VecX>(r.data(), 9)));
      set(cn, "material", c.material);
    }
  }
  if (o.type() == ObjectType::kMesh)
    write_mesh_assets(n, static_cast<const MeshObject&>(o), asset_dir, asset_rel);
  if (o.type() == ObjectType::kBox) set(n, "size", list(Vec3(2.0 * sh.half_extents)));
  if (o.type() != ObjectType::kBox && o.type() != ObjectType::kCompound &&
      o.type() != ObjectType::kMesh)
    set(n, "radius", sh.radius);
  if (o.type() == ObjectType::kCylinder || o.type() == ObjectType::kCapsule)
    set(n, "height", sh.height);
  set(n, "mass", b.mass);
  set_group(n, "collision_group", o.collision().group);
  set_group(n, "collision_mask", o.collision().mask);
  set(n, "body_type", b.type == BodyType::kDynamic     ? "dynamic"
                      : b.type == BodyType::kKinematic ? "kinematic"
                                                       : "static");
  pugi::xml_node s = n.append_child("state");
  set(s, "position", list(b.position));
  set(s, "orientation", list(Vec4(b.orientation.w(), b.orientation.x(), b.orientation.y(),
                                  b.orientation.z())));
  set(s, "linear_velocity", list(b.linear_velocity));
  set(s, "angular_velocity", list(b.angular_velocity));
  // the external force of the next step a deformable's reaction left (world_deformable.hpp)
  if (!b.external_force.isZero(0.0) || !b.external_torque.isZero(0.0)) {
    set(s, "external_force", list(b.external_force));
    set(s, "external_torque", list(b.external_torque));
  }
  const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> inertia = b.inertia_b;
  set(n.append_child("inertia"), "value",
      list(Eigen::Map<const VecX>(inertia.data(), 9)));
  pugi::xml_node d = n.append_child("damping");
  set(d, "linear", b.linear_damping);
  set(d, "angular", list(b.angular_damping));
}

void write_articulated(pugi::xml_node objects, World& world, ArticulatedSystem& a) {
  const ArticulatedSource* src = world.articulated_source(a.id());
  if (src == nullptr)
    throw std::invalid_argument("export_to_xml: articulated system id " +
                                std::to_string(a.id()) +
                                " was not made from a URDF this world knows of");
  pugi::xml_node n = objects.append_child("articulated");
  if (!a.name().empty()) set(n, "name", a.name());
  if (!src->urdf_path.empty()) set(n, "urdf", fs::absolute(src->urdf_path).string());
  if (!src->res_path.empty()) set(n, "res_path", fs::absolute(src->res_path).string());
  std::string order;
  for (const auto& j : src->joint_order) order += (order.empty() ? "" : " ") + j;
  if (!order.empty()) set(n, "joint_order", order);
  set(n, "fixed_base", src->fixed_base < 0 ? "auto" : src->fixed_base ? "true" : "false");
  set_group(n, "collision_group", a.collision_group);
  set_group(n, "collision_mask", a.collision_mask);
  set_bool(n, "do_not_collide_with_parent", a.do_not_collide_with_parent);
  set_bool(n, "self_collision", a.self_collision);
  // the links whose collision properties differ from the system's (set_object_material and
  // set_object_collision_filter with a local index): local index = body index
  for (std::size_t b = 0; b < a.body_collision.size(); ++b) {
    const CollisionProps& c = a.body_collision[b];
    if (c.material == MaterialManager::kDefaultName && c.group == a.collision_group &&
        c.mask == a.collision_mask)
      continue;
    pugi::xml_node ln = n.append_child("link");
    set(ln, "index", std::to_string(b));
    set(ln, "name", a.model().bodies[b].name);
    set(ln, "material", c.material);
    set_group(ln, "collision_group", c.group);
    set_group(ln, "collision_mask", c.mask);
  }
  if (src->urdf_path.empty())
    n.append_child("urdf_text").append_child(pugi::node_cdata).set_value(src->urdf_text.c_str());
  pugi::xml_node s = n.append_child("state");
  set(s, "gc", list(a.data().q));
  set(s, "gv", list(a.data().u));
  // the links' external forces of the next step a deformable's reaction left (per body, world
  // frame; the moment about the world origin)
  if (a.control_state().has_external) {
    std::string f, m;
    for (std::size_t b = 0; b < a.control_state().ext_force.size(); ++b) {
      f += (f.empty() ? "" : " ") + list(a.control_state().ext_force[b]);
      m += (m.empty() ? "" : " ") + list(a.control_state().ext_moment[b]);
    }
    set(s, "external_force", f);
    set(s, "external_moment", m);
  }
  pugi::xml_node c = n.append_child("control");
  set(c, "mode", a.control_mode() == ControlMode::kPdPlusFeedforwardTorque ? "pd"
                                                                          : "force_and_torque");
  set(c, "kp", list(a.kp()));
  set(c, "kd", list(a.kd()));
  set(c, "q_ref", list(a.q_ref()));
  set(c, "u_ref", list(a.u_ref()));
  set(c, "feedforward", list(a.feedforward()));
  set(c, "effort_limits", list(a.effort_limits()));
  set_bool(c, "clamp_to_effort_limits", a.clamp_to_effort_limits());
  // gravity compensation (per body, written when any) and a fixed base's mounting (written when
  // not at the origin)
  std::string comp;
  bool any_comp = false;
  for (std::size_t b = 0; b < a.model().bodies.size(); ++b) {
    const bool on = a.body_gravity_compensation(static_cast<int>(b));
    comp += (b ? " " : "") + std::string(on ? "1" : "0");
    any_comp |= on;
  }
  if (any_comp) set(c, "gravity_compensation", comp);
  if (!a.model().floating_base) {
    const Pose& p = a.fixed_base_placement();
    if (p.position != Vec3::Zero() || p.rotation != Mat3::Identity()) {
      pugi::xml_node base = n.append_child("base");
      set(base, "position", list(p.position));
      const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> r = p.rotation;
      set(base, "rotation", list(Eigen::Map<const VecX>(r.data(), 9)));
    }
  }
}

}  // namespace

// a deformable (world_deformable.hpp): its mesh (rest vertices and cells), material, filter, pins,
// attachments (<attach vertex object link offset>: the object by its world index, the order the
// objects are written in, and the offset in its body or link frame) and its current particles
void write_deformable(pugi::xml_node parent, World& world, DeformableObject& d) {
  pugi::xml_node n = parent.append_child("deformable");
  set(n, "kind", d.kind() == DeformableKind::kCloth ? "cloth" : "volume");
  if (!d.name.empty()) set(n, "name", d.name);
  set(n, "contact_material", d.contact_material);
  set_group(n, "collision_group", d.group);
  set_group(n, "collision_mask", d.mask);
  const DeformableMaterial& m = d.material();
  pugi::xml_node mn = n.append_child("material");
  set(mn, "density", m.density);
  set(mn, "areal_density", m.areal_density);
  set(mn, "stretch_compliance", m.stretch_compliance);
  set(mn, "bending_compliance", m.bending_compliance);
  set(mn, "youngs_modulus", m.youngs_modulus);
  set(mn, "poisson_ratio", m.poisson_ratio);
  set(mn, "volume_compliance", m.volume_compliance);
  set(mn, "damping", m.damping);
  set(mn, "substeps", std::to_string(m.substeps));
  set(mn, "iterations", std::to_string(m.iterations));
  set(mn, "proxy_radius", m.proxy_radius);
  set_bool(mn, "self_collision", m.self_collision);
  set(mn, "solver", m.solver == DeformableSolver::kNewton ? "newton" : "xpbd");
  set(mn, "element_order", std::to_string(m.element_order));
  auto points = [](const std::vector<Vec3>& x) {
    std::string s;
    for (const Vec3& p : x) s += (s.empty() ? "" : " ") + list(p);
    return s;
  };
  set(n.append_child("vertices"), "values", points(d.rest_positions()));
  std::string cells;
  auto add = [&](std::uint32_t v) { cells += (cells.empty() ? "" : " ") + std::to_string(v); };
  if (d.kind() == DeformableKind::kCloth) {
    for (const auto& t : d.triangles()) for (auto v : t) add(v);
    set(n.append_child("triangles"), "values", cells);
  } else {
    for (const auto& t : d.tetrahedra()) for (auto v : t) add(v);
    set(n.append_child("tetrahedra"), "values", cells);
  }
  if (!d.struts().empty()) {
    std::string struts;
    for (const auto& st : d.struts())
      struts += (struts.empty() ? "" : " ") + std::to_string(st[0]) + " " + std::to_string(st[1]);
    set(n.append_child("struts"), "values", struts);
  }
  std::string pins;
  for (std::size_t i = 0; i < d.vertex_count(); ++i)
    if (d.pinned()[i]) pins += (pins.empty() ? "" : " ") + std::to_string(i);
  set(n.append_child("pinned"), "values", pins);
  for (const DeformableAttachment& a : d.attachments()) {
    // (one whose body was removed since the last step is dropped by the next step: not written)
    const Object* o = world.find_object(a.object);
    if (o == nullptr) continue;
    pugi::xml_node e = n.append_child("attach");
    set(e, "vertex", std::to_string(a.vertex));
    set(e, "object", std::to_string(o->index_in_world()));
    set(e, "link", std::to_string(a.local));
    set(e, "offset", list(a.offset));
  }
  pugi::xml_node st = n.append_child("state");
  set(st, "positions", points(d.positions()));
  set(st, "velocities", points(d.velocities()));
  if (!d.state_edge_positions().empty()) {  // quadratic elements' internal edge nodes
    set(st, "edge_positions", points(d.state_edge_positions()));
    set(st, "edge_velocities", points(d.state_edge_velocities()));
  }
  // the constraint forces of the last substep (state the hash covers; not used by the next step)
  std::string forces;
  for (double f : d.constraint_forces()) forces += (forces.empty() ? "" : " ") + f17(f);
  set(st, "constraint_forces", forces);
}

namespace {

void write_granular_material(pugi::xml_node n, const GranularMaterial& m) {
  set(n, "density", m.density);
  set(n, "youngs_modulus", m.youngs_modulus);
  set(n, "poisson_ratio", m.poisson_ratio);
  set(n, "restitution", m.restitution);
  set(n, "friction", m.friction);
  set(n, "rolling_friction", m.rolling_friction);
}

// a granular system (granular_world.hpp): materials, container, filter, its particles and their
// motion. The contact histories (tangential and rolling springs) are not written: a reloaded
// system starts with them relaxed, and its particles get stable ids 0..n-1 in index order.
void write_granular(pugi::xml_node parent, const GranularSystem& g) {
  pugi::xml_node n = parent.append_child("system");
  set(n, "num_threads", g.num_threads);
  set(n, "substep_factor", g.substep_factor());
  set_group(n, "collision_group", g.collision_group);
  set_group(n, "collision_mask", g.collision_mask);
  for (const GranularMaterial& m : g.materials()) write_granular_material(n.append_child("material"), m);
  const GranularContainer& c = g.container();
  write_granular_material(n.append_child("wall_material"), c.wall);
  pugi::xml_node ground = n.append_child("ground_plane");
  set_bool(ground, "enabled", c.ground);
  set(ground, "height", c.ground_height);
  pugi::xml_node box = n.append_child("box_container");
  set_bool(box, "enabled", c.box);
  set(box, "lower", list(c.box_min));
  set(box, "upper", list(c.box_max));
  auto points = [](const std::vector<Vec3>& x) {
    std::string s;
    for (const Vec3& v : x) s += (s.empty() ? "" : " ") + list(v);
    return s;
  };
  std::string ids, fixed;
  for (std::size_t i = 0; i < g.size(); ++i) {
    ids += (i ? " " : "") + std::to_string(g.material_ids()[i]);
    if (g.is_fixed(i)) fixed += (fixed.empty() ? "" : " ") + std::to_string(i);
  }
  pugi::xml_node p = n.append_child("particles");
  set(p, "radii", list(Eigen::Map<const VecX>(g.radii().data(), static_cast<Eigen::Index>(g.size()))));
  set(p, "material_ids", ids);
  set(p, "fixed", fixed);
  pugi::xml_node st = n.append_child("state");
  set(st, "positions", points(g.positions()));
  set(st, "velocities", points(g.velocities()));
  set(st, "angular_velocities", points(g.angular_velocities()));
}

}  // namespace

void export_world_xml(World& world, const std::string& path) {
  if (world.is_mid_step())
    throw std::logic_error("export_to_xml() is not allowed between integrate1() and integrate2()");
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("torsion");
  set(root, "version", "1");
  pugi::xml_node w = root.append_child("world");
  set(w, "time_step", world.time_step());
  set(w, "gravity", list(world.gravity()));
  set(w, "time", world.world_time());
  set(w, "sensor_noise_seed", std::to_string(world.sensor_noise_seed()));
  const ContactSettings& cs = world.contact_settings();
  pugi::xml_node c = root.append_child("contact");
  set(c, "margin", cs.margin);
  set(c, "max_points_per_pair", cs.max_points_per_pair);
  set(c, "moving_points_per_pair", cs.moving_points_per_pair);
  set(c, "flat_tolerance", cs.flat_tolerance);
  set(c, "gjk_max_iterations", cs.gjk_max_iterations);
  set(c, "epa_max_iterations", cs.epa_max_iterations);
  set(c, "epa_tolerance", cs.epa_tolerance);
  set(c, "aabb_margin", world.broadphase_settings().aabb_margin);
  set(c, "sweep_axis", world.broadphase_settings().sweep_axis);
  const ContactSolverParams& p = world.contact_solver().params();
  pugi::xml_node s = root.append_child("solver");
  set(s, "alpha_init", p.alpha_init);
  set(s, "alpha_min", p.alpha_min);
  set(s, "alpha_decay", p.alpha_decay);
  set(s, "max_iter", p.max_iter);
  set(s, "threshold", p.threshold);
  set(s, "relative_threshold", p.relative_threshold);
  set(s, "erp", p.erp);
  set(s, "erp2", p.erp2);
  set_bool(s, "fixed_order", p.fixed_order);
  set(s, "acceleration_depth", p.acceleration_depth);
  set(s, "max_depenetration_velocity", p.max_depenetration_velocity);  // inf: no cap
  set(s, "position_correction", p.position_correction);
  set_bool(s, "compact_kernel", p.compact_kernel);
  set_bool(s, "articulated_contact_space", world.contact_state().contact_space.enabled());
  pugi::xml_node sl = root.append_child("sleeping");
  set_bool(sl, "enabled", world.sleeping_enabled());
  set(sl, "linear_threshold", world.sleeping_parameters().linear_velocity_threshold);
  set(sl, "angular_threshold", world.sleeping_parameters().angular_velocity_threshold);
  set(sl, "quiet_steps", world.sleeping_parameters().quiet_steps);
  pugi::xml_node mats = root.append_child("materials");
  const MaterialManager& mm = world.contact_state().materials;
  write_material_props(mats.append_child("default"), mm.default_properties());
  mm.for_each_pair([&](const std::string& a, const std::string& b,
                       const MaterialPairProperties& props) {
    pugi::xml_node pn = mats.append_child("pair");
    set(pn, "material1", a);
    set(pn, "material2", b);
    write_material_props(pn, props);
  });
  pugi::xml_node objects = root.append_child("objects");
  // Mesh objects' collision geometry goes to OBJ files in <file stem>_meshes/ beside the file
  const fs::path xml_path(path);
  const std::string asset_rel = xml_path.stem().string() + "_meshes";
  const fs::path asset_dir = xml_path.parent_path() / asset_rel;
  bool has_mesh = false;
  for (const auto& o : world.objects()) has_mesh = has_mesh || o->type() == ObjectType::kMesh;
  if (has_mesh) {
    std::error_code ec;
    fs::create_directories(asset_dir, ec);
    if (ec || !fs::is_directory(asset_dir))
      throw std::invalid_argument("path: cannot create the mesh asset directory '" +
                                  asset_dir.string() + "' beside the world file");
  }
  for (const auto& o : world.objects()) {
    if (o->type() == ObjectType::kArticulatedSystem)
      write_articulated(objects, world, static_cast<ArticulatedSystem&>(*o));
    else
      write_single_body(objects, static_cast<const SingleBodyObject&>(*o), asset_dir, asset_rel);
  }
  // (after every object: an attachment names its body by world index)
  for (auto& d : world.deformable_set().objects) write_deformable(objects, world, *d);
  // granular systems (granular_world.hpp), in the order they were added
  if (const GranularWorld* gw = world.granular_if_any(); gw && !gw->systems.empty()) {
    pugi::xml_node granular = root.append_child("granular");
    for (const GranularWorld::Entry& e : gw->systems) write_granular(granular, *e.system);
  }
  // wires (world/wires.hpp): their ends name objects by world index, the order written above
  if (world.wire_count() > 0) {
    pugi::xml_node wires = root.append_child("wires");
    for (const Wire& wire : world.wire_set().wires) {
      pugi::xml_node n = wires.append_child("wire");
      set(n, "kind", wire_kind_name(wire.kind));
      if (!wire.name.empty()) set(n, "name", wire.name);
      const char* obj_attr[2] = {"object1", "object2"};
      const char* local_attr[2] = {"local1", "local2"};
      const char* pos_attr[2] = {"pos1", "pos2"};
      for (int e = 0; e < 2; ++e) {
        set(n, obj_attr[e], std::to_string(world.find_object(wire.end[e].object)->index_in_world()));
        set(n, local_attr[e], std::to_string(wire.end[e].local));
        set(n, pos_attr[e], list(wire.end[e].position_b));
      }
      set(n, "length", wire.length);
      if (wire.kind == WireKind::kCompliant) set(n, "stiffness", wire.stiffness);
      if (wire.kind == WireKind::kCustom) set(n, "tension", wire.tension);
    }
  }
  // tendons and couplings (world/tendons.hpp): objects by world index, couplings' tendons by
  // their index in <tendons>
  if (const TendonSet* ts = find_tendon_set(world); ts != nullptr && !ts->tendons.empty()) {
    pugi::xml_node tendons = root.append_child("tendons");
    for (const Tendon& t : ts->tendons) {
      pugi::xml_node n = tendons.append_child("tendon");
      set(n, "kind", t.kind == TendonKind::kFixed ? "fixed" : "spatial");
      set(n, "name", t.name);
      const TendonProperties& props = t.props;
      set(n, "stiffness", props.stiffness);
      set(n, "damping", props.damping);
      set(n, "spring_length", props.spring_length);
      if (props.spring_upper != props.spring_length) set(n, "spring_upper", props.spring_upper);
      if (std::isfinite(props.lower)) set(n, "lower", props.lower);
      if (std::isfinite(props.upper)) set(n, "upper", props.upper);
      set(n, "friction", props.friction);
      if (props.armature != 0.0) set(n, "armature", props.armature);
      if (t.actuator_force != 0.0) set(n, "actuator_force", t.actuator_force);
      auto index_of = [&](ObjectId id) {
        return std::to_string(world.find_object(id)->index_in_world());
      };
      for (const TendonJointTerm& j : t.joints) {
        pugi::xml_node e = n.append_child("joint");
        set(e, "object", index_of(j.object));
        set(e, "joint", j.joint);
        set(e, "coefficient", j.coefficient);
      }
      for (const TendonPathElement& pe : t.path) {
        const char* kind = pe.kind == PathElementKind::kSite       ? "site"
                           : pe.kind == PathElementKind::kSphere   ? "sphere"
                           : pe.kind == PathElementKind::kCylinder ? "cylinder"
                                                                   : "pulley";
        pugi::xml_node e = n.append_child(kind);
        if (pe.kind == PathElementKind::kPulley) {
          set(e, "divisor", pe.divisor);
          continue;
        }
        set(e, "object", index_of(pe.object));
        set(e, "local", std::to_string(pe.local));
        set(e, "pos", list(pe.position_b));
        if (pe.kind == PathElementKind::kSite) continue;
        set(e, "radius", pe.radius);
        if (pe.kind == PathElementKind::kCylinder) set(e, "axis", list(pe.axis_b));
        if (pe.has_side) set(e, "side", list(pe.side_b));
        if (pe.has_side && pe.side_elsewhere) {  // the side point on another body
          set(e, "side_object", index_of(pe.side_object));
          set(e, "side_local", std::to_string(pe.side_local));
        }
      }
    }
    for (const TendonCoupling& cp : ts->couplings) {
      pugi::xml_node n = tendons.append_child("coupling");
      set(n, "name", cp.name);
      set(n, "first", std::to_string(ts->index_of(cp.first)));
      if (cp.has_second) set(n, "second", std::to_string(ts->index_of(cp.second)));
      std::string poly;
      for (std::size_t i = 0; i < cp.polynomial.size(); ++i)
        poly += (i ? " " : "") + f17(cp.polynomial[i]);
      set(n, "polynomial", poly);
      set(n, "compliance", cp.compliance);
      set(n, "erp", cp.erp);
    }
  }
  std::ostringstream text;
  doc.save(text, "  ");
  const std::string out = escape_template_markers(text.str());
  std::ofstream file(path, std::ios::binary);
  if (!file || !file.write(out.data(), static_cast<std::streamsize>(out.size())) ||
      !file.flush())
    throw std::invalid_argument("path: cannot write world file '" + path + "'");
}

}  // namespace torsion
