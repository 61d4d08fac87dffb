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

namespace {

class Parser {
 public:
  explicit Parser(const std::string& xml) : xml_(xml) {
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
      if (pugi::xml_node c = m.child("color")) materials_[m.attribute("name").as_string()] =
          vec4(c, "rgba");
    }
    for (pugi::xml_node l : robot.children("link")) spec.links.push_back(link(l));
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

  // whitespace-separated finite numbers of attribute `attr`; exactly `count` of them
  std::vector<double> numbers(pugi::xml_node n, const char* attr, std::size_t count) const {
    const std::string text = n.attribute(attr).value();
    std::istringstream in(text);
    std::vector<double> out;
    std::string tok;
    while (in >> tok) {
      char* end = nullptr;
      const double v = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0' || !std::isfinite(v))
        fail(n, std::string("attribute '") + attr + "' must hold finite numbers, got '" + text +
                    "'");
      out.push_back(v);
    }
    if (out.size() != count)
      fail(n, std::string("attribute '") + attr + "' must hold " + std::to_string(count) +
                  " numbers, got '" + text + "'");
    return out;
  }
  double number(pugi::xml_node n, const char* attr) const { return numbers(n, attr, 1)[0]; }
  double number_or(pugi::xml_node n, const char* attr, double fallback) const {
    return n.attribute(attr) ? number(n, attr) : fallback;
  }
  Vec3 vec3(pugi::xml_node n, const char* attr) const {
    const auto v = numbers(n, attr, 3);
    return Vec3(v[0], v[1], v[2]);
  }
  Vec4 vec4(pugi::xml_node n, const char* attr) const {
    const auto v = numbers(n, attr, 4);
    return Vec4(v[0], v[1], v[2], v[3]);
  }
  double positive(pugi::xml_node n, const char* attr) const {
    const double v = number(n, attr);
    if (!(v > 0.0)) fail(n, std::string("attribute '") + attr + "' must be > 0, got " + fmt(v));
    return v;
  }
  double non_negative(pugi::xml_node n, const char* attr, double fallback) const {
    const double v = number_or(n, attr, fallback);
    if (v < 0.0) fail(n, std::string("attribute '") + attr + "' must be >= 0, got " + fmt(v));
    return v;
  }

  Placement origin(pugi::xml_node parent) const {
    Placement p;
    pugi::xml_node o = parent.child("origin");
    if (!o) return p;
    if (o.attribute("xyz")) p.position = vec3(o, "xyz");
    if (o.attribute("rpy")) {
      const Vec3 rpy = vec3(o, "rpy");
      p.rotation = rpy_to_matrix(rpy[0], rpy[1], rpy[2]);
    }
    return p;
  }

  Geometry geometry(pugi::xml_node shape) const {
    pugi::xml_node g = shape.child("geometry");
    if (!g) fail(shape, "missing <geometry>");
    pugi::xml_node s = g.first_child();
    while (s && s.type() != pugi::node_element) s = s.next_sibling();
    if (!s) fail(g, "empty <geometry>: expected box, sphere, cylinder, capsule or mesh");
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
      if (s.attribute("scale")) out.scale = vec3(s, "scale");
    } else {
      fail(s, "unknown geometry '" + kind + "': expected box, sphere, cylinder, capsule or mesh");
    }
    return out;
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
    for (pugi::xml_node v : n.children("visual")) l.visuals.push_back(shape(v));
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
    if (pugi::xml_node a = n.child("axis")) {
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
        if (j.lower > j.upper)
          fail(l, "joint '" + j.name + "': lower (" + fmt(j.lower) + ") > upper (" +
                      fmt(j.upper) + ")");
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

  const std::string& xml_;
  std::vector<std::ptrdiff_t> newlines_;
  std::map<std::string, Vec4> materials_;
};

}  // namespace

RobotSpec parse(const std::string& xml) { return Parser(xml).run(); }

}  // namespace torsion::urdf
