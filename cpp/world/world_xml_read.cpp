// torsion world XML: reading, with @@name templates (see world_xml.hpp for the format).
#include "world/world_xml.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <locale>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/check.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/convex_hull_faces.hpp"
#include "geometry/height_map.hpp"
#include "geometry/triangle_mesh.hpp"
#include "io/mesh_io.hpp"
#include "world/mesh_object.hpp"
#include "io/urdf.hpp"
#include "world/articulated_system.hpp"
#include "world/world.hpp"
#include "granular/granular_world.hpp"
#include "world/world_deformable.hpp"
#include "world/tendons.hpp"
#include "terrain/deformable_terrain.hpp"

namespace torsion {

namespace {

namespace fs = std::filesystem;

// --- reading helpers: every error names the element and the attribute ---

[[noreturn]] void fail(const pugi::xml_node& n, const std::string& what) {
  throw std::invalid_argument("world XML: <" + std::string(n.name()) + ">: " + what);
}

std::vector<double> numbers(const pugi::xml_node& n, const char* attr, const std::string& text,
                            bool allow_inf = false) {
  std::vector<double> out;
  const char* p = text.c_str();
  while (true) {
    while (*p && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (!*p) break;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(p, &end);
    if (end == p || std::isnan(v) || (!allow_inf && std::isinf(v)))
      fail(n, std::string(attr) + " must hold " + (allow_inf ? "numbers" : "finite numbers") +
                  ", got '" + text + "'");
    out.push_back(v);
    p = end;
  }
  return out;
}

bool has(const pugi::xml_node& n, const char* attr) { return !n.attribute(attr).empty(); }

std::string f17s(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

double num(const pugi::xml_node& n, const char* attr, double def) {
  if (!has(n, attr)) return def;
  const auto v = numbers(n, attr, n.attribute(attr).value());
  if (v.size() != 1) fail(n, std::string(attr) + " must be one number");
  return v[0];
}

double required_num(const pugi::xml_node& n, const char* attr) {
  if (!has(n, attr)) fail(n, std::string("missing attribute ") + attr);
  return num(n, attr, 0.0);
}

VecX vec(const pugi::xml_node& n, const char* attr, Eigen::Index size, bool allow_inf = false) {
  const auto v = numbers(n, attr, n.attribute(attr).value(), allow_inf);
  if (static_cast<Eigen::Index>(v.size()) != size)
    fail(n, std::string(attr) + " must hold " + std::to_string(size) + " numbers, got " +
                std::to_string(v.size()));
  return Eigen::Map<const VecX>(v.data(), size);
}

Vec3 vec3(const pugi::xml_node& n, const char* attr, const Vec3& def) {
  if (!has(n, attr)) return def;
  return vec(n, attr, 3);
}

bool flag(const pugi::xml_node& n, const char* attr, bool def) {
  if (!has(n, attr)) return def;
  const std::string v = n.attribute(attr).value();
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  fail(n, std::string(attr) + " must be true or false, got '" + v + "'");
}

// The text of an integer attribute as a decimal integer: the whole value (surrounding spaces
// aside), no fraction or exponent, in range. `value` is set only on success. strtoll and
// strtoull alone stop at a '.' (150.9 loaded as 150) and strtoull wraps a minus sign ("-1"
// became 2^64 - 1).
bool parse_integer(const std::string& text, bool is_signed, long long& value,
                   unsigned long long& uvalue) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  const std::string t = text.substr(b, e - b);
  const std::size_t digits = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
  if (t.size() == digits || (!is_signed && t[0] == '-')) return false;
  for (std::size_t i = digits; i < t.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
  errno = 0;
  if (is_signed) value = std::strtoll(t.c_str(), nullptr, 10);
  else uvalue = std::strtoull(t.c_str(), nullptr, 10);
  return errno == 0;
}

// an integer attribute in [lo, hi], or `def` when it is absent
long long integer(const pugi::xml_node& n, const char* attr, long long def, long long lo,
                  long long hi) {
  if (!has(n, attr)) return def;
  const std::string v = n.attribute(attr).value();
  long long x = 0;
  unsigned long long unused = 0;
  if (!parse_integer(v, true, x, unused) || x < lo || x > hi)
    fail(n, std::string(attr) + " must be a whole number in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "], got '" + v + "'");
  return x;
}

// an int attribute (the setter it goes to checks its own range)
int int_attr(const pugi::xml_node& n, const char* attr, int def) {
  return static_cast<int>(integer(n, attr, def, std::numeric_limits<int>::min(),
                                  std::numeric_limits<int>::max()));
}

// collision groups: unsigned 64-bit decimal, or -1 for all groups
CollisionGroup group(const pugi::xml_node& n, const char* attr, CollisionGroup def) {
  if (!has(n, attr)) return def;
  const std::string v = n.attribute(attr).value();
  if (v == "-1") return kAllGroups;
  char* end = nullptr;
  errno = 0;
  const unsigned long long g = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || v[0] == '-')
    fail(n, std::string(attr) + " must be an unsigned 64-bit integer or -1, got '" + v + "'");
  return static_cast<CollisionGroup>(g);
}

std::string str(const pugi::xml_node& n, const char* attr, const std::string& def) {
  return has(n, attr) ? std::string(n.attribute(attr).value()) : def;
}

MaterialPairProperties material_props(const pugi::xml_node& n, MaterialPairProperties p) {
  p.friction = num(n, "friction", p.friction);
  p.restitution = num(n, "restitution", p.restitution);
  p.restitution_threshold = num(n, "restitution_threshold", p.restitution_threshold);
  p.static_friction = num(n, "static_friction", p.static_friction);
  p.static_friction_threshold_velocity =
      num(n, "static_friction_threshold_velocity", p.static_friction_threshold_velocity);
  p.rolling_friction = num(n, "rolling_friction", p.rolling_friction);
  p.spinning_friction = num(n, "spinning_friction", p.spinning_friction);
  return p;
}

BodyType body_type(const pugi::xml_node& n) {
  const std::string v = str(n, "body_type", "dynamic");
  if (v == "dynamic") return BodyType::kDynamic;
  if (v == "kinematic") return BodyType::kKinematic;
  if (v == "static") return BodyType::kStatic;
  fail(n, "body_type must be dynamic, kinematic or static, got '" + v + "'");
}

// a required count attribute: a whole number >= 0 (HeightMapData checks its own range)
long long count(const pugi::xml_node& n, const char* attr) {
  if (!has(n, attr)) fail(n, std::string("missing attribute ") + attr);
  return integer(n, attr, 0, 0, std::numeric_limits<int>::max());
}

// <heightmap x_samples y_samples x_size y_size center_x center_y ...><heights>h...</heights>:
// the samples x fastest; nan and inf are holes
SingleBodyObject& load_height_map(World& world, const pugi::xml_node& n,
                                  const std::string& material, CollisionGroup g,
                                  CollisionGroup mask) {
  const pugi::xml_node hn = n.child("heights");
  if (!hn) fail(n, "missing child <heights>");
  std::vector<double> heights;
  const char* p = hn.child_value();
  while (true) {
    while (*p && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (!*p) break;
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end == p) fail(hn, "must hold numbers (nan or inf for holes)");
    heights.push_back(v);
    p = end;
  }
  auto data = std::make_shared<const HeightMapData>(
      count(n, "x_samples"), count(n, "y_samples"), required_num(n, "x_size"),
      required_num(n, "y_size"), std::move(heights));
  return world.add_height_map(std::move(data), num(n, "center_x", 0.0), num(n, "center_y", 0.0),
                              material, g, mask);
}

// <deformable_terrain (as heightmap)><heights/><soil k_c ../><soil_state level ../>: the initial
// samples, the soil and (optional) its state (world_xml_write.cpp's write_soil)
SingleBodyObject& load_deformable_terrain(World& world, const pugi::xml_node& n,
                                          const std::string& material, CollisionGroup g,
                                          CollisionGroup mask) {
  const pugi::xml_node hn = n.child("heights");
  if (!hn) fail(n, "missing child <heights>");
  std::vector<double> heights = numbers(hn, "heights", hn.child_value());
  SoilMaterial m;
  if (const pugi::xml_node sn = n.child("soil")) {
    m.k_c = num(sn, "k_c", m.k_c);
    m.k_phi = num(sn, "k_phi", m.k_phi);
    m.n = num(sn, "n", m.n);
    m.cohesion = num(sn, "cohesion", m.cohesion);
    m.friction_angle = num(sn, "friction_angle", m.friction_angle);
    m.janosi_shear = num(sn, "janosi_shear", m.janosi_shear);
    m.elastic_stiffness = num(sn, "elastic_stiffness", m.elastic_stiffness);
    m.damping = num(sn, "damping", m.damping);
    m.elastic_rebound = flag(sn, "elastic_rebound", m.elastic_rebound);
    m.bulldozing = flag(sn, "bulldozing", m.bulldozing);
    m.bulldozing_flow = num(sn, "bulldozing_flow", m.bulldozing_flow);
    m.erosion_angle = num(sn, "erosion_angle", m.erosion_angle);
    m.erosion_iterations = int_attr(sn, "erosion_iterations", m.erosion_iterations);
  }
  DeformableTerrain& t = add_deformable_terrain(
      world, count(n, "x_samples"), count(n, "y_samples"), required_num(n, "x_size"),
      required_num(n, "y_size"), num(n, "center_x", 0.0), num(n, "center_y", 0.0),
      std::move(heights), m, material, g, mask);
  if (const pugi::xml_node st = n.child("soil_state")) {
    DeformableTerrain::State s;
    auto read = [&](const char* attr) { return numbers(st, attr, st.attribute(attr).value()); };
    s.level = read("level");
    s.reference = read("reference");
    s.plastic = read("plastic");
    s.sigma = read("pressure");
    const std::vector<double> shear = read("shear");
    if (shear.size() != 3 * t.node_count())
      fail(st, "shear must hold 3 numbers per node (" + std::to_string(3 * t.node_count()) + ")");
    for (std::size_t i = 0; i < t.node_count(); ++i)
      s.shear.emplace_back(shear[3 * i], shear[3 * i + 1], shear[3 * i + 2]);
    for (double v : read("in_contact")) {
      if (v != 0.0 && v != 1.0) fail(st, "in_contact must hold 0 or 1 per node");
      s.touched.push_back(static_cast<std::uint8_t>(v));
    }
    try {
      DeformableTerrain::check_state(s, t.node_count());
    } catch (const std::invalid_argument& e) {
      fail(st, e.what());
    }
    t.restore(m, std::move(s));
  }
  return t;
}

// <compound mass ...><child shape size position rotation material/>...<inertia value/>: the
// children in the body frame (origin at the centre of mass)
SingleBodyObject& load_compound(World& world, const pugi::xml_node& n, double mass,
                                CollisionGroup g, CollisionGroup mask) {
  std::vector<CompoundChildSpec> children;
  for (auto c : n.children("child")) {
    CompoundChildSpec& spec = children.emplace_back();
    const std::string shape = str(c, "shape", "");
    if (shape == "sphere") spec.type = ShapeType::kSphere;
    else if (shape == "box") spec.type = ShapeType::kBox;
    else if (shape == "cylinder") spec.type = ShapeType::kCylinder;
    else if (shape == "capsule") spec.type = ShapeType::kCapsule;
    else fail(c, "shape must be sphere, box, cylinder or capsule, got '" + shape + "'");
    if (!has(c, "size")) fail(c, "missing attribute size");
    spec.size = vec(c, "size", 3);
    spec.pose.position = vec3(c, "position", Vec3::Zero());
    if (has(c, "rotation")) {
      const VecX r = vec(c, "rotation", 9);
      spec.pose.rotation = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(r.data());
    }
    spec.material = str(c, "material", "default");
  }
  if (children.empty()) fail(n, "a compound needs at least one <child>");
  std::optional<Vec3> com;
  std::optional<Mat3> inertia;
  if (auto in = n.child("inertia")) {
    const VecX v = vec(in, "value", 9);
    com = Vec3::Zero();
    inertia = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(v.data());
  }
  return world.add_compound(children, mass, com, inertia, g, mask);
}

// <mesh mode com scale source mass ...><asset file material/>...<inertia value/>: the collision
// geometry from OBJ files in the body frame (origin at the centre of mass), as the writer puts
// them beside the file: hulls are rebuilt from their vertices, a surface taken as it is
SingleBodyObject& load_mesh_object(World& world, const pugi::xml_node& n, double mass,
                                   const std::string& material, CollisionGroup g,
                                   CollisionGroup mask, const fs::path& base_dir) {
  const std::string mode_name = str(n, "mode", "convex_hull");
  MeshCollisionMode mode;
  if (mode_name == "convex_hull") mode = MeshCollisionMode::kConvexHull;
  else if (mode_name == "convexify") mode = MeshCollisionMode::kConvexify;
  else if (mode_name == "original_mesh") mode = MeshCollisionMode::kOriginalMesh;
  else fail(n, "mode must be convex_hull, convexify or original_mesh, got '" + mode_name + "'");
  check_positive(mass, "mass");
  check_material_name(material, "material");
  const auto in = n.child("inertia");
  if (!in) fail(n, "missing child <inertia> (a mesh's inertia is not estimated on reloading)");
  const VecX iv = vec(in, "value", 9);
  const Mat3 inertia = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(iv.data());
  const double scale = num(n, "scale", 1.0);
  if (!(scale > 0.0)) fail(n, "scale must be > 0");
  struct Asset {
    TriangleMeshData mesh;
    std::string material;
    std::vector<std::vector<int>> faces;  // the hull's faces as written, if given
  };
  std::vector<Asset> assets;
  for (auto a : n.children("asset")) {
    if (!has(a, "file")) fail(a, "missing attribute file");
    fs::path p = a.attribute("file").value();
    if (p.is_relative()) p = base_dir / p;
    if (!fs::is_regular_file(p)) fail(a, "no such mesh asset file '" + p.string() + "'");
    const std::string mat = str(a, "material", material);
    check_material_name(mat, "asset material");
    Asset& asset = assets.emplace_back();
    asset.mesh = load_obj(p.string());
    asset.material = mat;
    validate_mesh(asset.mesh, "mesh asset '" + p.string() + "'");
    if (has(a, "faces")) {
      // "n i0 .. i(n-1)" per face: whole numbers, each loop within the text
      std::istringstream loops(a.attribute("faces").value());
      loops.imbue(std::locale::classic());
      long long count = 0;
      while (loops >> count) {
        if (count < 3 || count > static_cast<long long>(asset.mesh.vertices.size()))
          fail(a, "faces: a face must have 3 to (vertex count) vertices");
        std::vector<int>& face = asset.faces.emplace_back();
        for (long long k = 0; k < count; ++k) {
          long long i = -1;
          if (!(loops >> i) || i < 0 || i >= static_cast<long long>(asset.mesh.vertices.size()))
            fail(a, "faces: a vertex index is missing or out of range");
          face.push_back(static_cast<int>(i));
        }
      }
      if (!loops.eof()) fail(a, "faces must hold whole numbers");
    }
  }
  if (assets.empty()) fail(n, "a mesh needs at least one <asset file=...>");
  if (mode != MeshCollisionMode::kConvexify && assets.size() != 1)
    fail(n, "a " + mode_name + " mesh has exactly one <asset>, got " + std::to_string(assets.size()));
  Shape shape;
  std::vector<ChildShape> children;
  // a hull exactly as written when its faces are given; else the hull of the asset's vertices
  const auto hull = [](const Asset& a) {
    if (a.faces.empty()) return std::make_shared<ConvexHull>(convex_hull(a.mesh.vertices, "mesh asset"));
    return std::make_shared<ConvexHull>(
        convex_hull_from_faces(a.mesh.vertices, a.mesh.triangles, a.faces, "mesh asset"));
  };
  if (mode == MeshCollisionMode::kOriginalMesh) {
    shape = Shape::triangle_mesh(std::make_shared<TriangleMesh>(assets[0].mesh));
  } else if (assets.size() == 1) {
    shape = Shape::convex_mesh(hull(assets[0]));
  } else {
    for (const Asset& a : assets) {
      ChildShape& c = children.emplace_back();
      c.shape = Shape::convex_mesh(hull(a));
      c.material = a.material;
    }
    shape = children[0].shape;
  }
  auto obj = std::make_unique<MeshObject>(world.next_object_id(), shape, mass, inertia,
                                          std::move(children), mode,
                                          vec3(n, "com", Vec3::Zero()), str(n, "source", ""),
                                          scale);
  obj->collision().material = material;
  obj->collision().group = g;
  obj->collision().mask = mask;
  MeshObject& ref = *obj;
  if (world.is_mid_step()) fail(n, "cannot add an object mid-step");
  world.add_object(std::move(obj));
  return ref;
}

void load_single_body(World& world, const pugi::xml_node& n, const fs::path& base_dir) {
  const std::string kind = n.name();
  const std::string material = str(n, "material", "default");
  const CollisionGroup g = group(n, "collision_group", 1);
  const CollisionGroup mask = group(n, "collision_mask", kAllGroups);
  SingleBodyObject* o = nullptr;
  if (kind == "ground") {
    o = &world.add_ground(num(n, "z_height", 0.0), material, mask);
    // its group is the static one unless set_object_collision_filter changed it
    if (has(n, "collision_group")) world.set_object_collision_filter(*o, g, mask, -1);
  } else if (kind == "heightmap") {
    o = &load_height_map(world, n, material, g, mask);
  } else if (kind == "deformable_terrain") {
    o = &load_deformable_terrain(world, n, material, g, mask);
  } else {
    const double mass = required_num(n, "mass");
    if (kind == "mesh") {
      o = &load_mesh_object(world, n, mass, material, g, mask, base_dir);
    } else if (kind == "compound") {
      o = &load_compound(world, n, mass, g, mask);
      check_material_name(material, "material");  // the add_* calls check theirs
      o->collision().material = material;
    } else if (kind == "sphere") {
      o = &world.add_sphere(required_num(n, "radius"), mass, material, g, mask);
    } else if (kind == "box") {
      if (!has(n, "size")) fail(n, "missing attribute size");
      const Vec3 s = vec(n, "size", 3);
      o = &world.add_box(s.x(), s.y(), s.z(), mass, material, g, mask);
    } else if (kind == "cylinder") {
      o = &world.add_cylinder(required_num(n, "radius"), required_num(n, "height"), mass,
                              material, g, mask);
    } else {
      o = &world.add_capsule(required_num(n, "radius"), required_num(n, "height"), mass,
                             material, g, mask);
    }
    if (auto in = n.child("inertia")) {
      const VecX v = vec(in, "value", 9);
      o->set_inertia(Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(v.data()));
    }
    o->set_body_type(body_type(n));
    if (auto d = n.child("damping")) {
      o->set_linear_damping(num(d, "linear", 0.0));
      o->set_angular_damping(vec3(d, "angular", Vec3::Zero()));
    }
    if (auto s = n.child("state")) {
      o->set_position(vec3(s, "position", Vec3::Zero()));
      if (has(s, "orientation")) {
        const VecX q = vec(s, "orientation", 4);
        o->set_orientation(q);
        // exactly the written quaternion when it is unit (normalising may move the last bit)
        if (std::abs(q.norm() - 1.0) < 1e-12) {
          o->body().orientation = Quat(q[0], q[1], q[2], q[3]);
          update_body_kinematics(o->body());
        }
      }
      o->set_velocity(vec3(s, "linear_velocity", Vec3::Zero()),
                      vec3(s, "angular_velocity", Vec3::Zero()));
      if (has(s, "external_force") || has(s, "external_torque")) {
        const Vec3 f = vec3(s, "external_force", Vec3::Zero());
        const Vec3 t = vec3(s, "external_torque", Vec3::Zero());
        if (!f.allFinite() || !t.allFinite()) fail(s, "external_force and external_torque must be finite");
        o->body().external_force = f;
        o->body().external_torque = t;
      }
    }
  }
  if (has(n, "name")) o->set_name(n.attribute("name").value());
}

// <deformable kind="cloth|volume" ...> with <material>, <vertices values>, <triangles values> or
// <tetrahedra values>, <pinned values> and <state positions velocities> (world_xml_write.cpp)
// <attach vertex object link offset> children name their body by its index among the file's
// objects read so far (from first_object on)
void load_deformable(World& world, const pugi::xml_node& n, std::size_t first_object) {
  const std::string kind = str(n, "kind", "");
  if (kind != "cloth" && kind != "volume") fail(n, "kind must be 'cloth' or 'volume', got '" + kind + "'");
  const pugi::xml_node mn = n.child("material");
  DeformableMaterial m;
  m.density = num(mn, "density", m.density);
  m.areal_density = num(mn, "areal_density", m.areal_density);
  m.stretch_compliance = num(mn, "stretch_compliance", m.stretch_compliance);
  m.bending_compliance = num(mn, "bending_compliance", m.bending_compliance);
  m.youngs_modulus = num(mn, "youngs_modulus", m.youngs_modulus);
  m.poisson_ratio = num(mn, "poisson_ratio", m.poisson_ratio);
  m.volume_compliance = num(mn, "volume_compliance", m.volume_compliance);
  m.damping = num(mn, "damping", m.damping);
  m.substeps = int_attr(mn, "substeps", m.substeps);
  m.iterations = int_attr(mn, "iterations", m.iterations);
  m.proxy_radius = num(mn, "proxy_radius", m.proxy_radius);
  m.self_collision = flag(mn, "self_collision", m.self_collision);
  const std::string solver = str(mn, "solver", "xpbd");
  if (solver != "xpbd" && solver != "newton")
    fail(mn, "solver must be 'xpbd' or 'newton', got '" + solver + "'");
  m.solver = solver == "newton" ? DeformableSolver::kNewton : DeformableSolver::kXpbd;
  m.element_order = int_attr(mn, "element_order", m.element_order);
  auto points = [&](const pugi::xml_node& e, const char* attr) {
    const std::vector<double> v = numbers(e, attr, e.attribute(attr).value());
    if (v.size() % 3 != 0) fail(e, std::string(attr) + " must hold 3 numbers per vertex");
    std::vector<Vec3> out(v.size() / 3);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = Vec3(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    return out;
  };
  auto indices = [&](const pugi::xml_node& e) {
    std::vector<std::int64_t> out;
    for (double v : numbers(e, "values", e.attribute("values").value())) {
      if (v != std::floor(v)) fail(e, "values must be whole vertex indices");
      out.push_back(static_cast<std::int64_t>(v));
    }
    return out;
  };
  const std::vector<Vec3> vertices = points(n.child("vertices"), "values");
  const std::vector<std::int64_t> pinned = indices(n.child("pinned"));
  const std::string material = str(n, "contact_material", "default");
  const CollisionGroup g = group(n, "collision_group", 1);
  const CollisionGroup mask = group(n, "collision_mask", kAllGroups);
  DeformableObject* d = nullptr;
  if (kind == "cloth") {
    const std::vector<std::int64_t> flat = indices(n.child("triangles"));
    if (flat.size() % 3 != 0) fail(n, "<triangles> must hold 3 indices per triangle");
    std::vector<std::array<std::int64_t, 3>> t(flat.size() / 3);
    for (std::size_t k = 0; k < t.size(); ++k) t[k] = {flat[3 * k], flat[3 * k + 1], flat[3 * k + 2]};
    d = &add_deformable_cloth(world, vertices, t, pinned, m, material, g, mask);
  } else {
    const std::vector<std::int64_t> flat = indices(n.child("tetrahedra"));
    if (flat.size() % 4 != 0) fail(n, "<tetrahedra> must hold 4 indices per tetrahedron");
    std::vector<std::array<std::int64_t, 4>> t(flat.size() / 4);
    for (std::size_t k = 0; k < t.size(); ++k)
      t[k] = {flat[4 * k], flat[4 * k + 1], flat[4 * k + 2], flat[4 * k + 3]};
    d = &add_deformable_volume(world, vertices, t, pinned, m, material, g, mask);
  }
  if (has(n, "name")) d->name = str(n, "name", "");
  if (const pugi::xml_node st = n.child("struts")) {
    const std::vector<std::int64_t> flat = indices(st);
    if (flat.size() % 2 != 0) fail(st, "<struts> must hold 2 indices per strut");
    std::vector<std::array<std::int64_t, 2>> pairs(flat.size() / 2);
    for (std::size_t k = 0; k < pairs.size(); ++k) pairs[k] = {flat[2 * k], flat[2 * k + 1]};
    try {
      d->set_struts(pairs);
    } catch (const std::exception& ex) {
      fail(st, ex.what());
    }
    world.note_deformables_changed();  // the struts are part of the mesh (topology)
  }
  for (const pugi::xml_node e : n.children("attach")) {
    const std::size_t count = world.object_count() - first_object;
    if (count == 0) fail(e, "an attachment needs an object before it in the file, and there is none");
    Object& o = world.object_at(
        first_object + static_cast<std::size_t>(integer(e, "object", 0, 0, static_cast<long long>(count) - 1)));
    DeformableAttachment a;
    a.vertex = static_cast<std::uint32_t>(
        integer(e, "vertex", 0, 0, static_cast<long long>(d->vertex_count()) - 1));
    a.object = o.id();
    a.local = integer(e, "link", -1, -1, static_cast<long long>(o.local_count()) - 1);
    if (o.type() == ObjectType::kArticulatedSystem ? a.local < 0 : a.local != -1)
      fail(e, "link must be a robot's body index, or -1 for a single body");
    a.offset = vec3(e, "offset", Vec3::Zero());
    if (!a.offset.allFinite()) fail(e, "offset must be finite");
    try {
      d->add_attachment(a);
    } catch (const std::exception& ex) {
      fail(e, ex.what());
    }
  }
  if (const pugi::xml_node st = n.child("state")) {
    if (has(st, "positions")) d->set_positions(points(st, "positions"));
    if (has(st, "velocities")) d->set_velocities(points(st, "velocities"));
    if (has(st, "constraint_forces")) {
      const std::vector<double> f =
          numbers(st, "constraint_forces", st.attribute("constraint_forces").value());
      if (f.size() != d->constraint_forces().size())
        fail(st, "constraint_forces must hold " + std::to_string(d->constraint_forces().size()) +
                     " numbers (one per constraint), got " + std::to_string(f.size()));
      try {
        d->set_constraint_forces(f);
      } catch (const std::exception& ex) {
        fail(st, ex.what());
      }
    }
    // quadratic elements' edge nodes (else left at the midpoints set_positions put them at)
    for (const char* attr : {"edge_positions", "edge_velocities"}) {
      if (!has(st, attr)) continue;
      const std::vector<Vec3> e = points(st, attr);
      std::vector<Vec3>& dst = attr[5] == 'p' ? d->state_edge_positions() : d->state_edge_velocities();
      if (e.size() != dst.size())
        fail(st, std::string(attr) + " must hold " + std::to_string(dst.size()) + " points, got " +
                     std::to_string(e.size()));
      for (const Vec3& p : e)
        if (!p.allFinite()) fail(st, std::string(attr) + " must be finite");
      dst = e;
    }
  }
}

// <granular><system ...> with <material> (one per material id, in order), <wall_material>,
// <ground_plane>, <box_container>, <particles radii material_ids fixed> and <state positions
// velocities angular_velocities> (world_xml_write.cpp)
void load_granular(World& world, const pugi::xml_node& n) {
  auto material = [&](const pugi::xml_node& e) {
    if (!e) fail(n, "a granular system needs a <material> and a <wall_material>");
    GranularMaterial m;
    m.density = num(e, "density", m.density);
    m.youngs_modulus = num(e, "youngs_modulus", m.youngs_modulus);
    m.poisson_ratio = num(e, "poisson_ratio", m.poisson_ratio);
    m.restitution = num(e, "restitution", m.restitution);
    m.friction = num(e, "friction", m.friction);
    m.rolling_friction = num(e, "rolling_friction", m.rolling_friction);
    return m;
  };
  auto points = [&](const pugi::xml_node& e, const char* attr, std::size_t count) {
    const std::vector<double> v = numbers(e, attr, e.attribute(attr).value());
    if (v.size() != 3 * count)
      fail(e, std::string(attr) + " must hold 3 numbers per particle (" + std::to_string(count) +
                  " particles), got " + std::to_string(v.size()) + " numbers");
    std::vector<Vec3> out(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = Vec3(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    return out;
  };
  auto whole = [&](const pugi::xml_node& e, const char* attr, double lo, double hi) {
    std::vector<std::uint64_t> out;
    for (double v : numbers(e, attr, e.attribute(attr).value())) {
      if (v != std::floor(v) || v < lo || v >= hi)
        fail(e, std::string(attr) + " must hold whole numbers in [" + f17s(lo) + ", " + f17s(hi) +
                    "), got " + f17s(v));
      out.push_back(static_cast<std::uint64_t>(v));
    }
    return out;
  };
  const pugi::xml_node pn = n.child("particles");
  if (!pn) fail(n, "a granular system needs <particles radii=...>");
  const std::vector<double> radii = numbers(pn, "radii", pn.attribute("radii").value());
  const std::size_t count = radii.size();
  const pugi::xml_node st = n.child("state");
  if (!st || !has(st, "positions")) fail(n, "a granular system needs <state positions=...>");
  const std::vector<Vec3> positions = points(st, "positions", count);
  try {
    auto g = std::make_unique<GranularSystem>(std::vector<Vec3>{}, std::vector<double>{},
                                              material(n.child("material")));
    bool first = true;
    for (const pugi::xml_node& e : n.children("material")) {
      if (!first) g->add_material(material(e));
      first = false;
    }
    g->set_wall_material(material(n.child("wall_material")));
    g->add_particles(positions, radii, 0);
    const double materials = static_cast<double>(g->materials().size());
    if (has(pn, "material_ids")) {
      const std::vector<std::uint64_t> ids = whole(pn, "material_ids", 0.0, materials);
      if (ids.size() != count) fail(pn, "material_ids must hold one id per particle");
      for (std::size_t i = 0; i < count; ++i) g->set_material_id(i, static_cast<std::uint32_t>(ids[i]));
    }
    for (std::uint64_t i : whole(pn, "fixed", 0.0, static_cast<double>(count))) g->set_fixed(i, true);
    if (has(st, "velocities")) {
      const std::vector<Vec3> v = points(st, "velocities", count);
      for (std::size_t i = 0; i < count; ++i)
        if (!g->is_fixed(i)) g->set_velocity(i, v[i]);
    }
    if (has(st, "angular_velocities")) {
      const std::vector<Vec3> w = points(st, "angular_velocities", count);
      for (std::size_t i = 0; i < count; ++i)
        if (!g->is_fixed(i)) g->set_angular_velocity(i, w[i]);
    }
    if (const pugi::xml_node e = n.child("ground_plane"))
      g->set_ground_plane(flag(e, "enabled", false), num(e, "height", 0.0));
    if (const pugi::xml_node e = n.child("box_container"))
      g->set_box_container(flag(e, "enabled", false), vec3(e, "lower", Vec3::Zero()),
                           vec3(e, "upper", Vec3::Zero()));
    g->collision_group = group(n, "collision_group", 1);
    g->collision_mask = group(n, "collision_mask", kAllGroups);
    const int threads = int_attr(n, "num_threads", 1);
    if (threads < 0) fail(n, "num_threads must be >= 0 (0: every hardware thread)");
    g->num_threads = threads;
    // the substep count changes results: kept like the rest of the system's settings
    const double factor = num(n, "substep_factor", GranularSystem::kDefaultSubstepFactor);
    if (!std::isfinite(factor) || !(factor > 0.0)) fail(n, "substep_factor must be finite and > 0");
    g->set_substep_factor(factor);
    add_granular_system(world, std::move(g));
  } catch (const std::out_of_range& e) {
    fail(n, e.what());
  }
}

void load_articulated(World& world, const pugi::xml_node& n, const fs::path& base_dir) {
  ArticulatedSource src;
  UrdfOptions opt;
  opt.res_path = str(n, "res_path", "");
  if (!opt.res_path.empty() && fs::path(opt.res_path).is_relative())
    opt.res_path = (base_dir / opt.res_path).string();
  std::istringstream order(str(n, "joint_order", ""));
  for (std::string j; order >> j;) opt.joint_order.push_back(j);
  const std::string fb = str(n, "fixed_base", "auto");
  if (fb == "auto") opt.fixed_base = -1;
  else if (fb == "true") opt.fixed_base = 1;
  else if (fb == "false") opt.fixed_base = 0;
  else fail(n, "fixed_base must be auto, true or false, got '" + fb + "'");
  std::shared_ptr<const ArticulatedModel> model;
  if (has(n, "urdf")) {
    fs::path p = n.attribute("urdf").value();
    if (p.is_relative()) p = base_dir / p;
    if (!fs::is_regular_file(p)) fail(n, "no such URDF file '" + p.string() + "'");
    model = load_urdf_file(p.string(), opt);
    src.urdf_path = p.string();
  } else if (auto t = n.child("urdf_text")) {
    // the text of every CDATA and text piece: the writer splits a CDATA section where the URDF
    // holds "@@" (and pugixml where it holds "]]>")
    for (auto piece : t.children())
      if (piece.type() == pugi::node_cdata || piece.type() == pugi::node_pcdata)
        src.urdf_text += piece.value();
    model = load_urdf_string(src.urdf_text, opt, opt.res_path.empty() ? "." : opt.res_path);
  } else {
    fail(n, "needs a urdf attribute (a file) or a <urdf_text> child");
  }
  src.res_path = opt.res_path;
  src.joint_order = opt.joint_order;
  src.fixed_base = opt.fixed_base;
  ArticulatedSystem& a = world.add_articulated_system(
      model, group(n, "collision_group", 1), group(n, "collision_mask", kAllGroups),
      flag(n, "do_not_collide_with_parent", true), flag(n, "self_collision", false));
  if (has(n, "name")) a.set_name(n.attribute("name").value());
  // per-link collision properties (local index = body index), validated by the setters
  for (auto ln : n.children("link")) {
    if (!has(ln, "index")) fail(ln, "missing attribute index");
    const auto b = static_cast<std::int64_t>(
        integer(ln, "index", 0, 0, static_cast<long long>(model->bodies.size()) - 1));
    if (has(ln, "name") && std::string(ln.attribute("name").value()) != model->bodies[b].name)
      fail(ln, "index " + std::to_string(b) + " is body '" + model->bodies[b].name +
                   "', not '" + ln.attribute("name").value() + "'");
    const CollisionProps& c = a.body_collision[static_cast<std::size_t>(b)];
    world.set_object_collision_filter(a, group(ln, "collision_group", c.group),
                                      group(ln, "collision_mask", c.mask), b);
    if (has(ln, "material")) {
      try {
        world.set_object_material(a, ln.attribute("material").value(), b);
      } catch (const std::invalid_argument& e) {
        fail(ln, e.what());
      }
    }
  }
  const Eigen::Index nq = model->nq, nv = model->nv;
  if (auto s = n.child("state")) {
    const VecX q = has(s, "gc") ? vec(s, "gc", nq) : VecX(a.data().q);
    const VecX u = has(s, "gv") ? vec(s, "gv", nv) : VecX(a.data().u);
    a.set_state(q, u);
    a.data().q = q;  // exactly as written (set_state checked it; normalising may move a bit)
    if (has(s, "external_force") || has(s, "external_moment")) {
      const Eigen::Index nb = static_cast<Eigen::Index>(a.control_state().ext_force.size());
      const VecX f = vec(s, "external_force", 3 * nb), m = vec(s, "external_moment", 3 * nb);
      if (!f.allFinite() || !m.allFinite()) fail(s, "external_force and external_moment must be finite");
      for (Eigen::Index b = 0; b < nb; ++b) {
        a.control_state().ext_force[static_cast<std::size_t>(b)] = f.segment<3>(3 * b);
        a.control_state().ext_moment[static_cast<std::size_t>(b)] = m.segment<3>(3 * b);
      }
      a.control_state().has_external = true;
    }
    a.state_restored();
  }
  if (auto c = n.child("control")) {
    const std::string mode = str(c, "mode", "force_and_torque");
    if (has(c, "kp") || has(c, "kd"))
      a.set_pd_gains(has(c, "kp") ? vec(c, "kp", nv) : VecX(VecX::Zero(nv)),
                     has(c, "kd") ? vec(c, "kd", nv) : VecX(VecX::Zero(nv)));
    if (has(c, "q_ref") || has(c, "u_ref")) {
      a.set_pd_target(has(c, "q_ref") ? vec(c, "q_ref", nq) : VecX(a.q_ref()),
                      has(c, "u_ref") ? vec(c, "u_ref", nv) : VecX(a.u_ref()));
      if (has(c, "q_ref")) a.control_state().q_ref = vec(c, "q_ref", nq);  // exactly as written
    }
    if (has(c, "feedforward")) a.set_generalized_force(vec(c, "feedforward", nv));
    if (has(c, "effort_limits")) a.set_effort_limits(vec(c, "effort_limits", nv, true));
    a.set_clamp_to_effort_limits(flag(c, "clamp_to_effort_limits", false));
    if (mode == "pd") a.set_control_mode(ControlMode::kPdPlusFeedforwardTorque);
    else if (mode == "force_and_torque") a.set_control_mode(ControlMode::kForceAndTorque);
    else fail(c, "mode must be force_and_torque or pd, got '" + mode + "'");
    if (has(c, "gravity_compensation")) {
      const VecX on = vec(c, "gravity_compensation", static_cast<Eigen::Index>(model->bodies.size()));
      for (Eigen::Index b = 0; b < on.size(); ++b) {
        if (on[b] != 0.0 && on[b] != 1.0) fail(c, "gravity_compensation holds 0 or 1 per body");
        a.set_body_gravity_compensation(static_cast<int>(b), on[b] != 0.0);
      }
    }
  }
  if (auto b = n.child("base")) {  // a fixed base's mounting
    if (model->floating_base) fail(b, "a floating base is placed by its state's gc, not <base>");
    Pose p;
    p.position = vec(b, "position", 3);
    const VecX r = vec(b, "rotation", 9);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) p.rotation(i, j) = r[3 * i + j];
    try {
      a.set_fixed_base_placement(p);
    } catch (const std::invalid_argument& e) {
      fail(b, e.what());
    }
  }
  world.set_articulated_source(a.id(), std::move(src));
}

}  // namespace

std::string substitute_template_params(const std::string& text,
                                       const std::map<std::string, std::string>& params) {
  std::string out;
  std::vector<std::string> missing;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "@@") == 0) {
      std::size_t j = i + 2;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      const std::string name = text.substr(i + 2, j - i - 2);
      if (!name.empty()) {
        const auto it = params.find(name);
        if (it != params.end()) {
          out += it->second;
        } else if (std::find(missing.begin(), missing.end(), name) == missing.end()) {
          missing.push_back(name);
        }
        i = j;
        continue;
      }
    }
    out += text[i++];
  }
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    throw std::invalid_argument("world XML: missing template parameters (@@name with no value in "
                                "params): " + names);
  }
  return out;
}

void load_world_xml(World& world, const std::string& path,
                    const std::map<std::string, std::string>& params) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("path: cannot read world file '" + path + "'");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string raw = buf.str();
  const std::string text = substitute_template_params(raw, params);
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_string(text.c_str());
  if (!r)
    throw std::invalid_argument("world XML '" + path + "': " + r.description() + " at offset " +
                                std::to_string(r.offset));
  if (doc.child("mujoco"))
    throw std::invalid_argument("'" + path + "' is an MJCF (MuJoCo) file: MJCF loading is not "
                                "yet supported; torsion reads its own <torsion> world XML");
  const pugi::xml_node root = doc.child("torsion");
  if (!root)
    throw std::invalid_argument("world XML '" + path + "': the root element must be <torsion>");
  // the one format this build reads; a file without a version (hand-written ones in the tests
  // and docs) is taken as version 1
  if (has(root, "version") && std::string(root.attribute("version").value()) != "1")
    fail(root, std::string("version must be 1 (the only world XML format this build reads), "
                           "got '") + root.attribute("version").value() + "'");
  const fs::path base_dir = fs::absolute(fs::path(path)).parent_path();

  if (auto w = root.child("world")) {
    world.set_time_step(num(w, "time_step", world.time_step()));
    world.set_gravity(vec3(w, "gravity", world.gravity()));
    world.set_world_time(num(w, "time", 0.0));
    if (has(w, "sensor_noise_seed")) {
      const std::string v = w.attribute("sensor_noise_seed").value();
      long long unused = 0;
      unsigned long long seed = 0;
      if (!parse_integer(v, false, unused, seed))
        fail(w, "sensor_noise_seed must be a whole number in [0, 18446744073709551615], got '" +
                    v + "'");
      world.set_sensor_noise_seed(seed);
    }
  }
  if (auto c = root.child("contact")) {
    ContactSettings s = world.contact_settings();
    s.margin = num(c, "margin", s.margin);
    s.max_points_per_pair = int_attr(c, "max_points_per_pair", s.max_points_per_pair);
    s.moving_points_per_pair = int_attr(c, "moving_points_per_pair", s.moving_points_per_pair);
    s.flat_tolerance = num(c, "flat_tolerance", s.flat_tolerance);
    s.gjk_max_iterations = int_attr(c, "gjk_max_iterations", s.gjk_max_iterations);
    s.epa_max_iterations = int_attr(c, "epa_max_iterations", s.epa_max_iterations);
    s.epa_tolerance = num(c, "epa_tolerance", s.epa_tolerance);
    world.set_contact_settings(s);
    BroadphaseSettings b = world.broadphase_settings();
    b.aabb_margin = num(c, "aabb_margin", b.aabb_margin);
    b.sweep_axis = int_attr(c, "sweep_axis", b.sweep_axis);
    world.set_broadphase_settings(b);
  }
  if (auto s = root.child("solver")) {
    const ContactSolverParams p = world.contact_solver().params();
    world.set_contact_solver_param(num(s, "alpha_init", p.alpha_init),
                                   num(s, "alpha_min", p.alpha_min),
                                   num(s, "alpha_decay", p.alpha_decay),
                                   int_attr(s, "max_iter", p.max_iter),
                                   num(s, "threshold", p.threshold));
    world.set_erp(num(s, "erp", p.erp), num(s, "erp2", p.erp2));
    world.set_contact_solver_iteration_order(flag(s, "fixed_order", p.fixed_order));
    ContactSolverParams q = world.contact_solver().params();
    q.acceleration_depth = int_attr(s, "acceleration_depth", q.acceleration_depth);
    if (has(s, "max_depenetration_velocity")) {  // inf: no cap
      const VecX v = vec(s, "max_depenetration_velocity", 1, /*allow_inf=*/true);
      q.max_depenetration_velocity = v[0];
    }
    q.compact_kernel = flag(s, "compact_kernel", q.compact_kernel);
    q.relative_threshold = num(s, "relative_threshold", q.relative_threshold);
    q.position_correction = num(s, "position_correction", q.position_correction);
    try {
      validate_contact_solver_params(q);
    } catch (const std::invalid_argument& e) {
      fail(s, e.what());
    }
    world.contact_state().solver.params() = q;
    world.contact_state().contact_space.set_enabled(
        flag(s, "articulated_contact_space", world.contact_state().contact_space.enabled()));
  }
  if (auto s = root.child("sleeping")) {
    const SleepSettings& d = world.sleeping_parameters();
    world.set_sleeping_parameters(num(s, "linear_threshold", d.linear_velocity_threshold),
                                  num(s, "angular_threshold", d.angular_velocity_threshold),
                                  // >= 1: the setter would turn 0 or less into 1 silently
                                  static_cast<int>(integer(s, "quiet_steps", d.quiet_steps, 1,
                                                           std::numeric_limits<int>::max())));
    world.set_sleeping_enabled(flag(s, "enabled", false));
  }
  if (auto m = root.child("materials")) {
    if (auto d = m.child("default"))
      world.set_default_material(material_props(d, MaterialPairProperties()));
    for (auto p : m.children("pair")) {
      if (!has(p, "material1") || !has(p, "material2"))
        fail(p, "needs material1 and material2");
      world.set_material_pair_prop(p.attribute("material1").value(),
                                   p.attribute("material2").value(),
                                   material_props(p, world.material_pair_properties(
                                                         MaterialManager::kDefaultName,
                                                         MaterialManager::kDefaultName)));
    }
  }
  const std::size_t first_object = world.object_count();
  if (auto objects = root.child("objects")) {
    for (auto n : objects.children()) {
      if (n.type() != pugi::node_element) continue;
      const std::string kind = n.name();
      if (kind == "sphere" || kind == "box" || kind == "cylinder" || kind == "capsule" ||
          kind == "ground" || kind == "heightmap" || kind == "compound" || kind == "mesh" ||
          kind == "deformable_terrain")
        load_single_body(world, n, base_dir);
      else if (kind == "articulated")
        load_articulated(world, n, base_dir);
      else if (kind == "deformable")
        load_deformable(world, n, first_object);
      else
        fail(n, "unknown object kind (expected sphere, box, cylinder, capsule, ground, "
                "heightmap, deformable_terrain, compound, mesh, articulated or deformable)");
    }
  }
  if (auto granular = root.child("granular")) {
    for (auto n : granular.children()) {
      if (n.type() != pugi::node_element) continue;
      if (std::string(n.name()) != "system")
        fail(n, "unknown element in <granular> (expected system)");
      load_granular(world, n);
    }
  }
  // wires: ends by the index of their object among the file's objects
  if (auto wires = root.child("wires")) {
    const std::size_t count = world.object_count() - first_object;
    for (auto n : wires.children()) {
      if (n.type() != pugi::node_element) continue;
      if (std::string(n.name()) != "wire") fail(n, "unknown element in <wires> (expected wire)");
      ObjectId obj[2] = {0, 0};
      std::size_t local[2] = {0, 0};
      const char* obj_attr[2] = {"object1", "object2"};
      const char* local_attr[2] = {"local1", "local2"};
      for (int e = 0; e < 2; ++e) {
        if (!has(n, obj_attr[e])) fail(n, std::string("missing attribute ") + obj_attr[e]);
        if (count == 0) fail(n, "a wire needs objects, and the file has none");
        const auto k = static_cast<std::size_t>(
            integer(n, obj_attr[e], 0, 0, static_cast<long long>(count) - 1));
        obj[e] = world.object_at(first_object + k).id();
        local[e] = static_cast<std::size_t>(
            integer(n, local_attr[e], 0, 0, std::numeric_limits<int>::max()));
      }
      const Vec3 p1 = vec3(n, "pos1", Vec3::Zero()), p2 = vec3(n, "pos2", Vec3::Zero());
      const double length = required_num(n, "length");
      const std::string kind = n.attribute("kind").value();
      Wire* wire = nullptr;
      try {
        if (kind == "stiff")
          wire = &world.add_stiff_wire(obj[0], local[0], p1, obj[1], local[1], p2, length);
        else if (kind == "compliant")
          wire = &world.add_compliant_wire(obj[0], local[0], p1, obj[1], local[1], p2, length,
                                           required_num(n, "stiffness"));
        else if (kind == "custom")
          wire = &world.add_custom_wire(obj[0], local[0], p1, obj[1], local[1], p2, length);
        else
          fail(n, "kind must be stiff, compliant or custom, got '" + kind + "'");
      } catch (const std::invalid_argument& e) {
        fail(n, e.what());
      }
      if (kind == "custom") {
        const double t = num(n, "tension", 0.0);
        if (!std::isfinite(t) || t < 0.0) fail(n, "tension must be finite and >= 0");
        wire->tension = t;
      }
      if (has(n, "name")) {
        const std::string name = n.attribute("name").value();
        try {
          check_name(name, "name");
        } catch (const std::invalid_argument& e) {
          fail(n, e.what());
        }
        wire->name = name;
      }
    }
  }
  // tendons and couplings: objects by their index among the file's objects, couplings' tendons
  // by their index in <tendons>
  if (auto tendons = root.child("tendons")) {
    const std::size_t count = world.object_count() - first_object;
    auto object_of = [&](const pugi::xml_node& n) {
      if (!has(n, "object")) fail(n, "missing attribute object");
      if (count == 0) fail(n, "a tendon needs objects, and the file has none");
      const auto k = static_cast<std::size_t>(
          integer(n, "object", 0, 0, static_cast<long long>(count) - 1));
      return world.object_at(first_object + k).id();
    };
    std::vector<std::uint64_t> made;
    for (auto n : tendons.children()) {
      if (n.type() != pugi::node_element) continue;
      const std::string tag = n.name();
      try {
        if (tag == "tendon") {
          TendonProperties p;
          p.stiffness = num(n, "stiffness", 0.0);
          p.damping = num(n, "damping", 0.0);
          p.spring_length = num(n, "spring_length", std::numeric_limits<double>::quiet_NaN());
          p.spring_upper = num(n, "spring_upper", std::numeric_limits<double>::quiet_NaN());
          p.lower = num(n, "lower", -std::numeric_limits<double>::infinity());
          p.upper = num(n, "upper", std::numeric_limits<double>::infinity());
          p.friction = num(n, "friction", 0.0);
          p.armature = num(n, "armature", 0.0);
          const std::string kind = n.attribute("kind").value();
          const std::string name = n.attribute("name").value();
          Tendon* t = nullptr;
          if (kind == "fixed") {
            std::vector<TendonJointTerm> joints;
            for (auto e : n.children("joint")) {
              TendonJointTerm j;
              j.object = object_of(e);
              j.joint = e.attribute("joint").value();
              j.coefficient = required_num(e, "coefficient");
              joints.push_back(std::move(j));
            }
            t = &add_fixed_tendon(world, name, std::move(joints), p);
          } else if (kind == "spatial") {
            std::vector<TendonPathElement> route;
            for (auto e : n.children()) {
              if (e.type() != pugi::node_element) continue;
              const std::string et = e.name();
              TendonPathElement pe;
              if (et == "pulley") {
                pe.kind = PathElementKind::kPulley;
                pe.divisor = required_num(e, "divisor");
                route.push_back(pe);
                continue;
              }
              if (et == "site") pe.kind = PathElementKind::kSite;
              else if (et == "sphere") pe.kind = PathElementKind::kSphere;
              else if (et == "cylinder") pe.kind = PathElementKind::kCylinder;
              else fail(e, "unknown element in a spatial <tendon> (expected site, sphere, "
                           "cylinder or pulley)");
              pe.object = object_of(e);
              pe.local = static_cast<std::uint32_t>(
                  integer(e, "local", 0, 0, std::numeric_limits<int>::max()));
              pe.position_b = vec3(e, "pos", Vec3::Zero());
              if (pe.kind != PathElementKind::kSite) {
                pe.radius = required_num(e, "radius");
                pe.axis_b = vec3(e, "axis", Vec3::UnitZ());
                pe.has_side = has(e, "side");
                pe.side_b = vec3(e, "side", Vec3::Zero());
                if (has(e, "side_object")) {  // the side point on another body
                  if (count == 0) fail(e, "a tendon needs objects, and the file has none");
                  pe.side_elsewhere = true;
                  pe.side_object = world.object_at(first_object + static_cast<std::size_t>(integer(
                      e, "side_object", 0, 0, static_cast<long long>(count) - 1))).id();
                  pe.side_local = static_cast<std::uint32_t>(
                      integer(e, "side_local", 0, 0, std::numeric_limits<int>::max()));
                }
              }
              route.push_back(pe);
            }
            t = &add_spatial_tendon(world, name, std::move(route), p);
          } else {
            fail(n, "kind must be fixed or spatial, got '" + kind + "'");
          }
          const double f = num(n, "actuator_force", 0.0);
          if (!std::isfinite(f)) fail(n, "actuator_force must be finite");
          t->actuator_force = f;
          made.push_back(t->id);
        } else if (tag == "coupling") {
          auto tendon_at = [&](const char* attr) {
            if (made.empty()) fail(n, "a coupling needs tendons before it");
            return made[static_cast<std::size_t>(
                integer(n, attr, 0, 0, static_cast<long long>(made.size()) - 1))];
          };
          if (!has(n, "first")) fail(n, "missing attribute first");
          const std::uint64_t first = tendon_at("first");
          std::uint64_t second = 0;
          const bool two = has(n, "second");
          if (two) second = tendon_at("second");
          std::vector<double> poly =
              has(n, "polynomial") ? numbers(n, "polynomial", n.attribute("polynomial").value())
                                   : std::vector<double>{0.0, 1.0};
          add_tendon_coupling(world, n.attribute("name").value(), first, two ? &second : nullptr,
                              std::move(poly), num(n, "compliance", 0.0), num(n, "erp", kTendonErp));
        } else {
          fail(n, "unknown element in <tendons> (expected tendon or coupling)");
        }
      } catch (const std::invalid_argument& e) {
        if (std::string(e.what()).rfind("world XML:", 0) == 0) throw;  // already located
        fail(n, e.what());
      }
    }
  }
  world.state_data().config_file = fs::absolute(fs::path(path)).string();
}

}  // namespace torsion
