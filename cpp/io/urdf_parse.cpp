// URDF XML -> RobotSpec, with pugixml. Every error names the element (and attribute) and the
// line it came from.
#include <Eigen/Eigenvalues>
#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "core/check.hpp"
#include "math/unit_vector.hpp"
#include "io/urdf_spec.hpp"

namespace torsion::urdf {

Mat3 rpy_to_matrix(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
          Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .toRotationMatrix();
}

void WarningLog::add(const std::string& kind, int line, const std::string& text) {
  auto it = by_kind_.find(kind);
  if (it != by_kind_.end()) {
    ++it->second.more;
    return;
  }
  order_.push_back(kind);
  by_kind_[kind] = Entry{line, text, 0};
}

std::vector<std::string> WarningLog::messages(const std::string& file) const {
  std::vector<std::string> out;
  for (const std::string& kind : order_) {
    const Entry& e = by_kind_.at(kind);
    std::string m = file + (e.line > 0 ? ", line " + std::to_string(e.line) : std::string()) +
                    ": " + e.text;
    if (e.more > 0)
      m += " (and " + std::to_string(e.more) + " more time" + (e.more > 1 ? "s" : "") +
           " in this file)";
    out.push_back(m);
  }
  return out;
}

namespace {

class Parser {
 public:
  Parser(const std::string& xml, WarningLog& log) : xml_(xml), log_(log) {
    for (std::size_t i = 0; i < xml.size(); ++i)
      if (xml[i] == '\n') newlines_.push_back(static_cast<std::ptrdiff_t>(i));
  }

  RobotSpec run() {
    pugi::xml_document doc;
    const pugi::xml_parse_result res = doc.load_buffer(xml_.data(), xml_.size());
    if (!res)
      throw_invalid("malformed URDF: XML error at line " + std::to_string(line_of(res.offset)) +
                    ": " + res.description());
    check_utf8(doc);
    pugi::xml_node robot = doc.child("robot");
    if (!robot) throw_invalid("malformed URDF: the root element must be <robot>");
    RobotSpec spec;
    spec.name = robot.attribute("name").as_string();
    // named materials declared at the top level, for <visual><material name="..."/>
    for (pugi::xml_node m : robot.children("material")) {
      if (pugi::xml_node c = m.child("color")) {
        try {
          materials_[m.attribute("name").as_string()] = vec4(c, "rgba");
        } catch (const std::invalid_argument& e) {  // a colour is not physics
          log_.add("visual", line(c), std::string("a <material> colour is ignored: ") + e.what());
        }
      }
    }
    for (pugi::xml_node l : robot.children("link")) spec.links.push_back(link(l));
    pybullet_contact_extensions(robot, spec);
    for (pugi::xml_node j : robot.children("joint")) spec.joints.push_back(joint(j));
    if (spec.links.empty()) throw_invalid("malformed URDF: <robot> has no <link>");
    return spec;
  }

 private:
  int line_of(std::ptrdiff_t offset) const {
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), offset) -
                                newlines_.begin());
  }
  int line(pugi::xml_node n) const { return line_of(n.offset_debug()); }

  [[noreturn]] void fail(pugi::xml_node n, const std::string& what) const {
    throw_invalid("malformed URDF: <" + escape_bytes(n.name()) + "> at line " +
                  std::to_string(line(n)) + ": " + what);
  }

  // Every name, attribute and text must be UTF-8. pugixml converts a file that declares its
  // encoding (ISO-8859-1, UTF-16, ...) to UTF-8, but takes the bytes of one without a declaration
  // as they are: a Latin-1 link name loaded, and then get_body_names() raised UnicodeDecodeError.
  void check_utf8(const pugi::xml_document& doc) const {
    static const char* const kHint =
        " is not UTF-8 text; save the file as UTF-8 or declare its encoding "
        "(<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)";
    // depth first without recursion (a file may nest elements deeply)
    for (pugi::xml_node n = doc.first_child(); n;) {
      if (n.type() == pugi::node_element) {
        if (invalid_utf8_at(n.name()) != std::string::npos)
          fail(n, "the element name '" + escape_bytes(n.name()) + "'" + kHint);
        for (pugi::xml_attribute a : n.attributes()) {
          if (invalid_utf8_at(a.name()) != std::string::npos)
            fail(n, "the attribute name '" + escape_bytes(a.name()) + "'" + kHint);
          if (invalid_utf8_at(a.value()) != std::string::npos)
            fail(n, std::string("attribute '") + a.name() + "' = '" + escape_bytes(a.value()) +
                        "'" + kHint);
        }
      } else if (invalid_utf8_at(n.value()) != std::string::npos) {
        fail(n.parent(), "the text '" + escape_bytes(n.value()) + "'" + kHint);
      }
      if (n.first_child()) {
        n = n.first_child();
        continue;
      }
      while (n && !n.next_sibling()) n = n.parent();
      if (n) n = n.next_sibling();
    }
  }

  std::string required_string(pugi::xml_node n, const char* attr) const {
    pugi::xml_attribute a = n.attribute(attr);
    if (!a || std::string(a.value()).empty())
      fail(n, std::string("missing attribute '") + attr + "'");
    return a.value();
  }

  // Whether attribute `attr` is given. A value holding a leftover xacro expression ("$(optenv
  // X 0 0 1)", from a file not run through xacro) counts as not given, with a warning: PyBullet
  // reads such a value as zeros, which for an origin is the same as leaving it out.
  bool present(pugi::xml_node n, const char* attr) {
    pugi::xml_attribute a = n.attribute(attr);
    if (!a) return false;
    if (std::string(a.value()).find("$(") != std::string::npos) {
      log_.add("xacro", line(n),
               std::string("<") + n.name() + " " + attr + "=\"" + a.value() +
                   "\"> holds a xacro expression (the file was not run through xacro): read as "
                   "if the attribute were absent, as PyBullet does");
      return false;
    }
    return true;
  }

  // finite numbers of attribute `attr`, separated by white space or commas (a comma is a
  // tolerance, warned); `count` of them. More than `count`: the first `count`, warned.
  std::vector<double> numbers(pugi::xml_node n, const char* attr, std::size_t count) {
    std::string text = n.attribute(attr).value();
    if (text.find(',') != std::string::npos) {
      log_.add("comma", line(n),
               std::string("<") + n.name() + " " + attr + "=\"" + text +
                   "\">: numbers separated by commas, read as if separated by spaces");
      std::replace(text.begin(), text.end(), ',', ' ');
    }
    std::istringstream in(text);
    std::vector<double> out;
    std::string tok;
    while (in >> tok) {
      char* end = nullptr;
      const double v = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || !std::isfinite(v))
        fail(n, std::string("attribute '") + attr + "' must hold finite numbers, got '" + text +
                    "'");
      if (*end != '\0') {
        // "-1.57." (biped2d_pybullet.urdf): PyBullet reads the number the text starts with
        const std::string rest(end);
        if (rest.find_first_of("0123456789") != std::string::npos || rest.size() > 1)
          fail(n, std::string("attribute '") + attr + "' must hold finite numbers, got '" +
                      text + "'");
        log_.add("trailing", line(n),
                 std::string("<") + n.name() + " " + attr + "=\"" + text + "\">: '" + tok +
                     "' read as " + fmt(v) + " (its trailing '" + rest +
                     "' is ignored, as PyBullet does)");
      }
      out.push_back(v);
    }
    if (out.size() > count) {
      log_.add("extra_numbers", line(n),
               std::string("<") + n.name() + " " + attr + "=\"" + n.attribute(attr).value() +
                   "\"> holds " + std::to_string(out.size()) + " numbers where " +
                   std::to_string(count) + " are expected: the first " + std::to_string(count) +
                   " are used, as PyBullet does");
      out.resize(count);
    }
    if (out.size() != count)
      fail(n, std::string("attribute '") + attr + "' must hold " + std::to_string(count) +
                  " numbers, got '" + text + "'");
    return out;
  }
  double number(pugi::xml_node n, const char* attr) { return numbers(n, attr, 1)[0]; }
  double number_or(pugi::xml_node n, const char* attr, double fallback) {
    return present(n, attr) ? number(n, attr) : fallback;
  }
  Vec3 vec3(pugi::xml_node n, const char* attr) {
    const auto v = numbers(n, attr, 3);
    return Vec3(v[0], v[1], v[2]);
  }
  Vec4 vec4(pugi::xml_node n, const char* attr) {
    const auto v = numbers(n, attr, 4);
    return Vec4(v[0], v[1], v[2], v[3]);
  }
  double positive(pugi::xml_node n, const char* attr) {
    const double v = number(n, attr);
    if (!(v > 0.0)) fail(n, std::string("attribute '") + attr + "' must be > 0, got " + fmt(v));
    return v;
  }
  double non_negative(pugi::xml_node n, const char* attr, double fallback) {
    const double v = number_or(n, attr, fallback);
    if (v < 0.0) fail(n, std::string("attribute '") + attr + "' must be >= 0, got " + fmt(v));
    return v;
  }

  Pose origin(pugi::xml_node parent) {
    Pose p;
    pugi::xml_node o = parent.child("origin");
    if (!o) return p;
    if (present(o, "xyz")) p.position = vec3(o, "xyz");
    if (present(o, "rpy")) {
      const Vec3 rpy = vec3(o, "rpy");
      p.rotation = rpy_to_matrix(rpy[0], rpy[1], rpy[2]);
    }
    return p;
  }

  Geometry geometry(pugi::xml_node shape) {
    pugi::xml_node g = shape.child("geometry");
    if (!g) fail(shape, "missing <geometry>");
    pugi::xml_node s = g.first_child();
    while (s && s.type() != pugi::node_element) s = s.next_sibling();
    if (!s) fail(g, "empty <geometry>: expected box, sphere, cylinder, capsule, mesh or plane");
    Geometry out;
    const std::string kind = s.name();
    if (kind == "box") {
      out.kind = VisualBody::Kind::kBox;
      out.size = vec3(s, "size");
      if (!(out.size.minCoeff() > 0.0)) fail(s, "attribute 'size' must be > 0 on every axis");
    } else if (kind == "sphere") {
      out.kind = VisualBody::Kind::kSphere;
      out.radius = positive(s, "radius");
    } else if (kind == "cylinder" || kind == "capsule") {
      out.kind = kind == "cylinder" ? VisualBody::Kind::kCylinder : VisualBody::Kind::kCapsule;
      out.radius = positive(s, "radius");
      out.length = positive(s, "length");
    } else if (kind == "mesh") {
      out.kind = VisualBody::Kind::kMesh;
      out.mesh = required_string(s, "filename");
      if (present(s, "scale")) out.scale = mesh_scale(s);
    } else if (kind == "plane") {
      // PyBullet's extension: the half-space below the plane through the shape origin
      out.plane = true;
      if (present(s, "normal") && !normalize_scaled(vec3(s, "normal"), &out.normal))
        fail(s, "attribute 'normal' must not be zero");
    } else {
      fail(s, "unknown geometry '" + kind +
                  "': expected box, sphere, cylinder, capsule, mesh or plane");
    }
    return out;
  }

  // 3 numbers, or 1 (a uniform scale, as urdfdom and PyBullet read it); more: the first 3
  Vec3 mesh_scale(pugi::xml_node s) {
    std::istringstream in(std::string(s.attribute("scale").value()));
    std::string tok;
    int count = 0;
    while (in >> tok) ++count;
    if (count == 1) {
      const std::string text = s.attribute("scale").value();
      if (text.find(',') == std::string::npos) return Vec3::Constant(number(s, "scale"));
    }
    return vec3(s, "scale");
  }

  ShapeSpec shape(pugi::xml_node n) {
    ShapeSpec s;
    s.name = n.attribute("name").as_string();
    s.origin = origin(n);
    s.geometry = geometry(n);
    s.line = line(n);
    if (pugi::xml_node m = n.child("material")) {
      s.material = m.attribute("name").as_string();
      if (pugi::xml_node c = m.child("color")) {
        s.rgba = vec4(c, "rgba");
      } else {
        auto it = materials_.find(s.material);
        if (it != materials_.end()) s.rgba = it->second;
      }
    }
    return s;
  }

  // An inertia matrix must be positive semi-definite, or the mass matrix can have negative
  // eigenvalues (kinetic energy < 0). The smallest eigenvalue may be below 0 by 1e-6 of the
  // trace: rounding in files printed with few digits. Zero inertia (a dummy link) is fine.
  void check_inertia(pugi::xml_node n, const LinkSpec& l) const {
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(l.inertia, Eigen::EigenvaluesOnly);
    const Vec3 ev = eig.eigenvalues();  // ascending
    if (ev[0] < -1e-6 * l.inertia.trace())
      fail(n, "the inertia of link '" + l.name + "' is not positive semi-definite (eigenvalues " +
                  fmt(ev[0]) + ", " + fmt(ev[1]) + ", " + fmt(ev[2]) + "): the products of "
                  "inertia ixy, ixz, iyz are too large for the moments ixx, iyy, izz");
  }

  LinkSpec link(pugi::xml_node n) {
    LinkSpec l;
    l.name = required_string(n, "name");
    l.line = line(n);
    if (pugi::xml_node in = n.child("inertial")) {
      l.has_inertial = true;
      l.inertial_origin = origin(in);
      pugi::xml_node m = in.child("mass");
      if (!m) fail(in, "missing <mass> in link '" + l.name + "'");
      l.mass = non_negative(m, "value", 0.0);
      if (!m.attribute("value")) fail(m, "missing attribute 'value'");
      pugi::xml_node i = in.child("inertia");
      if (!i) fail(in, "missing <inertia> in link '" + l.name + "'");
      const double ixx = number_or(i, "ixx", 0.0), iyy = number_or(i, "iyy", 0.0),
                   izz = number_or(i, "izz", 0.0), ixy = number_or(i, "ixy", 0.0),
                   ixz = number_or(i, "ixz", 0.0), iyz = number_or(i, "iyz", 0.0);
      if (ixx < 0.0 || iyy < 0.0 || izz < 0.0)
        fail(i, "the principal moments ixx, iyy, izz must be >= 0 (link '" + l.name + "')");
      l.inertia << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
      check_inertia(i, l);
    }
    // a <visual> is never physics: one that cannot be read is dropped, never a reason to
    // refuse the file
    for (pugi::xml_node v : n.children("visual")) {
      try {
        ShapeSpec s = shape(v);
        if (s.geometry.plane) {
          log_.add("visual_plane", line(v), "a <plane> <visual> of link '" + l.name +
                                                "' is not kept (no visual shape for it)");
          continue;
        }
        l.visuals.push_back(std::move(s));
      } catch (const std::invalid_argument& e) {
        log_.add("visual", line(v), "a <visual> of link '" + l.name +
                                        "' is dropped (visuals are not physics): " + e.what());
      }
    }
    for (pugi::xml_node c : n.children("collision")) l.collisions.push_back(shape(c));
    return l;
  }

  JointSpec joint(pugi::xml_node n) {
    JointSpec j;
    j.name = required_string(n, "name");
    j.type = required_string(n, "type");
    j.line = line(n);
    static const char* kTypes[] = {"fixed",    "revolute", "continuous", "prismatic",
                                   "floating", "spherical", "planar"};
    if (std::find_if(std::begin(kTypes), std::end(kTypes),
                     [&](const char* t) { return j.type == t; }) == std::end(kTypes))
      fail(n, "joint '" + j.name + "' has unknown type '" + j.type +
                  "' (expected fixed, revolute, continuous, prismatic, floating or spherical)");
    pugi::xml_node p = n.child("parent"), c = n.child("child");
    if (!p) fail(n, "joint '" + j.name + "' has no <parent>");
    if (!c) fail(n, "joint '" + j.name + "' has no <child>");
    j.parent = required_string(p, "link");
    j.child = required_string(c, "link");
    j.origin = origin(n);
    // a fixed or floating joint has no axis: whatever <axis> it carries is not read
    pugi::xml_node a = n.child("axis");
    if (a && (j.type == "fixed" || j.type == "floating")) {
      if (a.attribute("xyz")) {
        const std::string text = a.attribute("xyz").value();
        std::istringstream in(text);
        double x = 0, y = 0, z = 0;
        if (!(in >> x >> y >> z) || (x == 0.0 && y == 0.0 && z == 0.0))
          log_.add("fixed_axis", line(a), "the <axis xyz=\"" + text + "\"> of " + j.type +
                                              " joint '" + j.name + "' is ignored (it has no axis)");
      }
      a = pugi::xml_node();
    }
    if (a) {
      const Vec3 axis = vec3(a, "xyz");
      if (!normalize_scaled(axis, &j.axis))
        fail(a, "joint '" + j.name + "' has a zero axis (xyz=\"" + a.attribute("xyz").value() +
                    "\"); any other direction is normalised");
    }
    if (pugi::xml_node l = n.child("limit")) {
      if (l.attribute("lower") || l.attribute("upper")) {
        j.has_position_limits = true;
        j.lower = number_or(l, "lower", 0.0);
        j.upper = number_or(l, "upper", 0.0);
        if (j.lower > j.upper) {
          // PyBullet's convention for "no limit" (cube_no_rotation.urdf: lower 1, upper -1)
          log_.add("limits", line(l), "joint '" + j.name + "' has lower (" + fmt(j.lower) +
                                          ") > upper (" + fmt(j.upper) +
                                          "): read as no position limit, as PyBullet does");
          j.has_position_limits = false;
          j.lower = j.upper = 0.0;
        }
      }
      const double effort = non_negative(l, "effort", 0.0);
      const double velocity = non_negative(l, "velocity", 0.0);
      if (effort > 0.0) j.effort = effort;
      if (velocity > 0.0) j.velocity = velocity;
    }
    if (pugi::xml_node d = n.child("dynamics")) {
      j.damping = non_negative(d, "damping", 0.0);
      j.friction = non_negative(d, "friction", 0.0);
    }
    if (pugi::xml_node m = n.child("mimic")) {
      j.has_mimic = true;
      j.mimic_joint = required_string(m, "joint");
      j.mimic_multiplier = number_or(m, "multiplier", 1.0);  // the URDF defaults
      j.mimic_offset = number_or(m, "offset", 0.0);
      j.mimic_line = line(m);
    }
    return j;
  }

  // PyBullet's <contact><inertia_scaling value="s"/></contact> in a link: the factor PyBullet
  // applies to the inertia it computes from the collision shapes (used only when an inertia is
  // completed that way, see urdf_build.cpp)
  void pybullet_contact_extensions(pugi::xml_node robot, RobotSpec& spec) {
    std::size_t k = 0;
    for (pugi::xml_node l : robot.children("link")) {
      LinkSpec& ls = spec.links[k++];
      pugi::xml_node c = l.child("contact");
      if (!c) continue;
      pugi::xml_node s = c.child("inertia_scaling");
      if (s && present(s, "value")) {
        ls.inertia_scaling = number(s, "value");
        if (!(ls.inertia_scaling > 0.0))
          fail(s, "attribute 'value' must be > 0, got " + fmt(ls.inertia_scaling));
      }
    }
  }

  const std::string& xml_;
  WarningLog& log_;
  std::vector<std::ptrdiff_t> newlines_;
  std::map<std::string, Vec4> materials_;
};

}  // namespace

RobotSpec parse(const std::string& xml, WarningLog& log) { return Parser(xml, log).run(); }

}  // namespace torsion::urdf
