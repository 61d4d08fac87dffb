// MJCF -> articulated models, static shapes and grounds (io/mjcf.hpp), with pugixml.
#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/check.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/mass_properties.hpp"
#include "io/mesh_io.hpp"
#include "io/mjcf.hpp"
#include "math/constants.hpp"

namespace torsion {

namespace fs = std::filesystem;

namespace {

using Attrs = std::map<std::string, std::string>;

Pose translation(const Vec3& p) {
  Pose out;
  out.position = p;
  return out;
}

// the rotation taking +z to the unit vector z by the smallest angle (MuJoCo's mju_quatZ2Vec)
Mat3 z_to(const Vec3& z) {
  const Vec3 a = Vec3::UnitZ().cross(z);
  const double s = a.norm(), c = z.z();
  if (s < 1e-14) {
    if (c > 0.0) return Mat3::Identity();
    return Eigen::AngleAxisd(kPi, Vec3::UnitX()).toRotationMatrix();
  }
  return Eigen::AngleAxisd(std::atan2(s, c), a / s).toRotationMatrix();
}

struct MassProps {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();       // in the frame they are expressed in
  Mat3 inertia = Mat3::Zero();   // about com, in that frame
};

// a + b, both in the same frame (parallel-axis theorem)
MassProps combine(const MassProps& a, const MassProps& b) {
  MassProps out;
  out.mass = a.mass + b.mass;
  if (!(out.mass > 0.0)) return out;
  out.com = (a.mass * a.com + b.mass * b.com) / out.mass;
  const auto shift = [&](const MassProps& p) {
    const Vec3 d = p.com - out.com;
    return Mat3(p.inertia + p.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
  };
  out.inertia = shift(a) + shift(b);
  return out;
}

// mass properties expressed in frame `p` -> in p's parent frame
MassProps transform(const Pose& p, const MassProps& m) {
  MassProps out;
  out.mass = m.mass;
  out.com = p.position + p.rotation * m.com;
  out.inertia = p.rotation * m.inertia * p.rotation.transpose();
  return out;
}

struct DofProps {
  bool limited = false;
  double lower = 0.0, upper = 0.0;
  double stiffness = 0.0, springref = 0.0, ref = 0.0;
  double damping = 0.0, armature = 0.0, frictionloss = 0.0;
  ArticulatedModel::LimitSoftness softness;  // solreflimit / solimplimit (MuJoCo's soft limit)
};

class Reader {
 public:
  Reader(const std::string& path, const MjcfOptions& options) : path_(path), options_(options) {}

  MjcfResult run() {
    dir_ = fs::absolute(fs::path(path_)).parent_path().string();
    const pugi::xml_parse_result res = doc_.load_file(path_.c_str());
    if (!res)
      throw_invalid("MJCF: cannot read '" + path_ + "': " + res.description() +
                    " (at byte " + std::to_string(res.offset) + ")");
    pugi::xml_node root = doc_.child("mujoco");
    if (!root) throw_invalid("MJCF: '" + path_ + "' has no <mujoco> root element");
    expand_includes(root, dir_, 0);
    check_utf8(root);
    read_compiler(root);
    for (pugi::xml_node d : root.children("default")) read_default(d, "");
    if (!defaults_.count("main")) defaults_["main"];
    check_unsupported(root);
    read_option(root);
    for (pugi::xml_node a : root.children("asset")) {
      read_mesh_assets(a);
      read_hfield_assets(a);
    }
    for (pugi::xml_node wb : root.children("worldbody")) {
      Pose world;
      static_body(wb, "main", world, true);
    }
    if (set_total_mass_ > 0.0) scale_masses();
    for (pugi::xml_node t : root.children("tendon")) read_tendons(t);
    for (pugi::xml_node q : root.children("equality")) read_equalities(q);
    for (pugi::xml_node a : root.children("actuator")) read_actuators(a);
    assign_contacts();
    count_unsupported();
    return std::move(out_);
  }

 private:
  // ---- the document: includes, compiler, defaults ----------------------------------------
  void expand_includes(pugi::xml_node node, const std::string& dir, int depth, int nesting = 0) {
    if (depth > 20) throw_invalid("MJCF: <include> nested more than 20 deep (a cycle?)");
    if (nesting > 1000) throw_invalid("MJCF: elements nested more than 1000 deep");
    for (pugi::xml_node c = node.first_child(); c;) {
      pugi::xml_node next = c.next_sibling();
      if (c.type() == pugi::node_element && std::string(c.name()) == "include") {
        const std::string file = c.attribute("file").value();
        if (file.empty()) throw_invalid("MJCF: <include> without a 'file' attribute");
        const fs::path p = fs::path(file).is_absolute() ? fs::path(file) : fs::path(dir) / file;
        auto sub = std::make_unique<pugi::xml_document>();
        const pugi::xml_parse_result res = sub->load_file(p.string().c_str());
        if (!res) throw_invalid("MJCF: cannot read the included file '" + p.string() + "': " +
                                res.description());
        pugi::xml_node sub_root = sub->child("mujoco");
        if (!sub_root) sub_root = sub->document_element();
        expand_includes(sub_root, p.parent_path().string(), depth + 1);
        for (pugi::xml_node s : sub_root.children()) node.insert_copy_before(s, c);
        node.remove_child(c);
        included_.push_back(std::move(sub));
      } else if (c.type() == pugi::node_element) {
        expand_includes(c, dir, depth, nesting + 1);
      }
      c = next;
    }
  }

  // Names and values become Python str: every one must be UTF-8 (pugixml converts a file that
  // declares another encoding, but takes undeclared bytes as they are). Iterative.
  void check_utf8(pugi::xml_node root) const {
    for (pugi::xml_node n = root; n;) {
      const auto bad = [&](const char* text) { return invalid_utf8_at(text) != std::string::npos; };
      if (bad(n.name()) || bad(n.value()))
        throw_invalid("MJCF: '" + path_ + "' holds text that is not UTF-8 ('" + escape_bytes(n.value()) +
                      "'); save it as UTF-8 or declare its encoding");
      for (pugi::xml_attribute a : n.attributes())
        if (bad(a.name()) || bad(a.value()))
          throw_invalid("MJCF: <" + escape_bytes(n.name()) + " " + escape_bytes(a.name()) + "=\"" +
                        escape_bytes(a.value()) + "\"> is not UTF-8 text; save the file as UTF-8 or "
                        "declare its encoding");
      if (n.first_child()) {
        n = n.first_child();
        continue;
      }
      while (n && n != root && !n.next_sibling()) n = n.parent();
      if (!n || n == root) break;
      n = n.next_sibling();
    }
  }

  void read_compiler(pugi::xml_node root) {
    for (pugi::xml_node c : root.children("compiler")) {
      if (pugi::xml_attribute a = c.attribute("angle")) {
        const std::string v = a.value();
        if (v != "degree" && v != "radian")
          throw_invalid("MJCF: <compiler angle> must be 'degree' or 'radian', got '" + v + "'");
        degree_ = v == "degree";
      }
      if (pugi::xml_attribute a = c.attribute("eulerseq")) {
        eulerseq_ = a.value();
        if (eulerseq_.size() != 3 ||
            std::any_of(eulerseq_.begin(), eulerseq_.end(), [](char ch) {
              return std::string("xyzXYZ").find(ch) == std::string::npos;
            }))
          throw_invalid("MJCF: <compiler eulerseq> must be 3 of x, y, z, X, Y, Z, got '" +
                        eulerseq_ + "'");
      }
      if (pugi::xml_attribute a = c.attribute("inertiafromgeom")) {
        const std::string v = a.value();
        inertia_from_geom_ = v == "true" ? 1 : v == "false" ? 0 : -1;
      }
      if (pugi::xml_attribute a = c.attribute("autolimits")) autolimits_ = std::string(a.value()) == "true";
      if (pugi::xml_attribute a = c.attribute("inertiagrouprange")) {
        const auto v = numbers(a.value(), "compiler", "inertiagrouprange", 2);
        group_lo_ = integer(v[0], "compiler", "inertiagrouprange");
        group_hi_ = integer(v[1], "compiler", "inertiagrouprange");
      }
      if (pugi::xml_attribute a = c.attribute("meshdir")) meshdir_ = a.value();
      if (pugi::xml_attribute a = c.attribute("assetdir"))
        if (meshdir_.empty()) meshdir_ = a.value();
      if (pugi::xml_attribute a = c.attribute("settotalmass"))
        set_total_mass_ = numbers(a.value(), "compiler", "settotalmass", 1)[0];
      if (pugi::xml_attribute a = c.attribute("coordinate")) {
        if (std::string(a.value()) != "local")
          throw_invalid("MJCF: <compiler coordinate=\"" + std::string(a.value()) +
                        "\"> is not supported (only local, MuJoCo's only one since 2.3)");
      }
    }
  }

  void read_default(pugi::xml_node d, const std::string& parent, int depth = 0) {
    check_depth(depth, "<default>");
    std::string cls = d.attribute("class").value();
    if (cls.empty()) cls = parent.empty() ? "main" : parent;
    if (!parent.empty() && cls != parent) defaults_[cls] = defaults_[parent];
    auto& mine = defaults_[cls];
    for (pugi::xml_node c : d.children()) {
      if (c.type() != pugi::node_element) continue;
      const std::string tag = c.name();
      if (tag == "default") {
        read_default(c, cls, depth + 1);
        continue;
      }
      for (pugi::xml_attribute a : c.attributes()) mine[tag][a.name()] = a.value();
    }
  }

  void read_option(pugi::xml_node root) {
    for (pugi::xml_node o : root.children("option")) {
      out_.has_option = true;
      if (o.attribute("timestep")) out_.timestep = numbers(o.attribute("timestep").value(), "option", "timestep", 1)[0];
      if (o.attribute("gravity")) {
        const auto g = numbers(o.attribute("gravity").value(), "option", "gravity", 3);
        out_.gravity = Vec3(g[0], g[1], g[2]);
      }
      // <flag contact="disable"/>: MuJoCo makes no contacts at all; every geom is then read as
      // visual only (contype = conaffinity = 0), the ground and walls included
      for (pugi::xml_node f : o.children("flag"))
        if (std::string(f.attribute("contact").value()) == "disable") contacts_disabled_ = true;
    }
  }

  // refused, or with ignore_unsupported a warning once per kind (the first named, the others
  // counted: a model has dozens of mesh geoms)
  void unsupported(const std::string& what, const std::string& kind = "") {
    if (!options_.ignore_unsupported)
      throw_invalid("MJCF: " + what + " cannot be simulated by torsion yet; pass "
                    "ignore_unsupported=True to load the model without it");
    if (!kind.empty()) {
      auto it = unsupported_count_.find(kind);
      if (it != unsupported_count_.end()) {
        ++it->second.second;
        return;
      }
      unsupported_count_[kind] = {out_.warnings.size(), 0};
    }
    warn(what + " is ignored (ignore_unsupported=True): torsion cannot simulate it yet");
  }

  void count_unsupported() {
    for (const auto& [kind, at] : unsupported_count_)
      if (at.second > 0 && at.first < out_.warnings.size())
        out_.warnings[at.first] += " (and " + std::to_string(at.second) + " more like it)";
  }

  // once per kind and file: the first occurrence names the element
  void warn_once(const std::string& kind, const std::string& text) {
    if (warned_.insert(kind).second) warn(text);
  }

  void warn(const std::string& text) {
    if (std::find(out_.warnings.begin(), out_.warnings.end(), path_ + ": " + text) == out_.warnings.end())
      out_.warnings.push_back(path_ + ": " + text);
  }

  void check_unsupported(pugi::xml_node root) {
    // equality constraints, each named: torsion has no loop-closure (connect, weld) constraint
    // between the bodies of its articulated systems; joint and tendon equalities are tendon
    // couplings (read_equalities)
    for (pugi::xml_node list : root.children("equality"))
      for (pugi::xml_node e : list.children()) {
        if (e.type() != pugi::node_element) continue;
        const std::string tag = e.name();
        std::string what = "<equality><" + tag;
        if (e.attribute("name")) what += " name=\"" + std::string(e.attribute("name").value()) + "\"";
        for (const char* a : {"body1", "body2", "joint1", "joint2", "tendon1", "tendon2", "site1", "site2"})
          if (e.attribute(a)) what += std::string(" ") + a + "=\"" + e.attribute(a).value() + "\"";
        what += ">";
        std::string why;
        if (tag == "joint" || tag == "tendon") continue;  // couplings (read_equalities)
        if (tag == "connect" || tag == "weld")
          why = " (a " + tag + " constraint closes a loop between two bodies; torsion's "
                "articulated systems are trees without loop-closure constraints)";
        else if (tag == "flex")
          why = " (torsion has no flex bodies)";
        else
          throw_invalid("MJCF: " + what + " is not a MuJoCo equality constraint");
        unsupported("the equality constraint " + what + why, "equality:" + tag);
      }
    for (const char* tag : {"flex", "skin", "deformable"}) {
      for (pugi::xml_node t : root.children(tag))
        if (t.first_child()) unsupported(std::string("<") + tag + ">");
    }
    for (pugi::xml_node t : root.children("contact"))
      if (t.first_child())
        warn("<contact> pairs and excludes are ignored (geoms collide by torsion's rules)");
  }

  // ---- attributes ---------------------------------------------------------------------
  static std::vector<double> numbers(const std::string& text, const std::string& element,
                                     const std::string& attr, std::size_t count) {
    std::istringstream in(text);
    std::vector<double> out;
    std::string tok;
    while (in >> tok) {
      char* end = nullptr;
      const double v = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0' || !std::isfinite(v))
        throw_invalid("MJCF: <" + element + " " + attr + "=\"" + text +
                      "\">: expected finite numbers");
      out.push_back(v);
    }
    if (!count && out.empty())  // "any number of them" still means at least one
      throw_invalid("MJCF: <" + element + " " + attr + "=\"" + text + "\">: expected numbers");
    if (count && out.size() != count)
      throw_invalid("MJCF: <" + element + " " + attr + "=\"" + text + "\">: expected " +
                    std::to_string(count) + " numbers, got " + std::to_string(out.size()));
    return out;
  }

  static int integer(double v, const std::string& element, const std::string& attr) {
    if (!(std::abs(v) < 2147483647.0) || v != std::floor(v))
      throw_invalid("MJCF: <" + element + " " + attr + ">: expected an integer, got " + fmt(v));
    return static_cast<int>(v);
  }

  // bodies and defaults nest by recursion: a bound keeps a hostile file from exhausting the stack
  void check_depth(int depth, const char* what) const {
    if (depth > 500)
      throw_invalid(std::string("MJCF: ") + what + " nested more than 500 deep");
  }

  // the value of `attr` on element `e`: its own, else its class's default (the element's
  // `class`, else the body's childclass `cls`), else none
  std::optional<std::string> get(pugi::xml_node e, const std::string& cls, const char* attr) const {
    if (pugi::xml_attribute a = e.attribute(attr)) return std::string(a.value());
    std::string c = e.attribute("class") ? e.attribute("class").value() : cls;
    auto d = defaults_.find(c);
    if (d == defaults_.end()) {
      if (e.attribute("class"))
        throw_invalid("MJCF: <" + std::string(e.name()) + "> names the unknown default class '" + c + "'");
      return std::nullopt;
    }
    auto t = d->second.find(e.name());
    if (t == d->second.end()) return std::nullopt;
    auto v = t->second.find(attr);
    if (v == t->second.end()) return std::nullopt;
    return v->second;
  }
  std::vector<double> get_numbers(pugi::xml_node e, const std::string& cls, const char* attr,
                                  std::size_t count, std::vector<double> fallback) const {
    const auto v = get(e, cls, attr);
    if (!v) return fallback;
    return numbers(*v, e.name(), attr, count);
  }
  double get_number(pugi::xml_node e, const std::string& cls, const char* attr, double fallback) const {
    return get_numbers(e, cls, attr, 1, {fallback})[0];
  }
  std::string get_string(pugi::xml_node e, const std::string& cls, const char* attr,
                         const std::string& fallback) const {
    const auto v = get(e, cls, attr);
    return v ? *v : fallback;
  }
  double angle(double a) const { return degree_ ? a * kPi / 180.0 : a; }

  // MuJoCo's frame orientation: quat, axisangle, euler (eulerseq), xyaxes or zaxis
  Mat3 orientation(pugi::xml_node e, const std::string& cls) const {
    if (auto q = get(e, cls, "quat")) {
      const auto v = numbers(*q, e.name(), "quat", 4);
      Eigen::Quaterniond quat(v[0], v[1], v[2], v[3]);
      if (!(quat.norm() > 0.0)) throw_invalid("MJCF: <" + std::string(e.name()) + " quat> is zero");
      return quat.normalized().toRotationMatrix();
    }
    if (auto a = get(e, cls, "axisangle")) {
      const auto v = numbers(*a, e.name(), "axisangle", 4);
      const Vec3 axis(v[0], v[1], v[2]);
      if (!(axis.norm() > 0.0)) throw_invalid("MJCF: <" + std::string(e.name()) + " axisangle> has a zero axis");
      return Eigen::AngleAxisd(angle(v[3]), axis.normalized()).toRotationMatrix();
    }
    if (auto a = get(e, cls, "euler")) {
      const auto v = numbers(*a, e.name(), "euler", 3);
      Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
      for (int i = 0; i < 3; ++i) {
        const char ch = eulerseq_[static_cast<std::size_t>(i)];
        const int axis = std::tolower(ch) - 'x';
        const Eigen::Quaterniond r(Eigen::AngleAxisd(angle(v[static_cast<std::size_t>(i)]), Vec3::Unit(axis)));
        q = std::islower(ch) ? Eigen::Quaterniond(q * r) : Eigen::Quaterniond(r * q);
      }
      return q.normalized().toRotationMatrix();
    }
    if (auto a = get(e, cls, "xyaxes")) {
      const auto v = numbers(*a, e.name(), "xyaxes", 6);
      Vec3 x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
      if (!(x.norm() > 0.0)) throw_invalid("MJCF: <" + std::string(e.name()) + " xyaxes> has a zero x axis");
      x.normalize();
      y -= x * x.dot(y);
      if (!(y.norm() > 1e-12)) throw_invalid("MJCF: <" + std::string(e.name()) + " xyaxes> has y parallel to x");
      y.normalize();
      Mat3 r;
      r.col(0) = x;
      r.col(1) = y;
      r.col(2) = x.cross(y);
      return r;
    }
    if (auto a = get(e, cls, "zaxis")) {
      const auto v = numbers(*a, e.name(), "zaxis", 3);
      const Vec3 z(v[0], v[1], v[2]);
      if (!(z.norm() > 0.0)) throw_invalid("MJCF: <" + std::string(e.name()) + " zaxis> is zero");
      return z_to(z.normalized());
    }
    return Mat3::Identity();
  }

  Pose pose(pugi::xml_node e, const std::string& cls) const {
    Pose p;
    const auto v = get_numbers(e, cls, "pos", 3, {0.0, 0.0, 0.0});
    p.position = Vec3(v[0], v[1], v[2]);
    p.rotation = orientation(e, cls);
    return p;
  }

  // ---- geoms --------------------------------------------------------------------------
  struct Geom {
    std::string name, type;
    Pose pose;     // in its body's frame
    Vec3 size = Vec3::Zero();  // sphere r; capsule/cylinder r, half-length; box/ellipsoid half sizes
    double density = 1000.0;
    std::optional<double> mass;
    int contype = 1, conaffinity = 1, group = 0;
    Vec3 friction = Vec3(1.0, 0.005, 0.0001);
    int condim = 3;
    std::string mesh;  // type mesh: the <asset><mesh> name
    std::string hfield;  // type hfield: the <asset><hfield> name
    Vec4 rgba = Vec4(0.5, 0.5, 0.5, 1.0);
  };

  Geom geom(pugi::xml_node g, const std::string& cls) {
    Geom out;
    out.name = g.attribute("name").value();
    out.type = get_string(g, cls, "type", "sphere");
    const auto size = get_numbers(g, cls, "size", 0, {});
    const auto need = [&](std::size_t n) {
      if (size.size() < n)
        throw_invalid("MJCF: <geom" + (out.name.empty() ? std::string() : " name=\"" + out.name + "\"") +
                      " type=\"" + out.type + "\"> needs " + std::to_string(n) + " size numbers, got " +
                      std::to_string(size.size()));
      for (std::size_t k = 0; k < n; ++k)
        if (!(size[k] > 0.0) && out.type != "plane")
          throw_invalid("MJCF: <geom" + (out.name.empty() ? std::string() : " name=\"" + out.name + "\"") +
                        ">: size must be > 0, got " + fmt(size[k]));
    };
    out.pose = pose(g, cls);
    if (auto ft = get(g, cls, "fromto")) {
      const auto v = numbers(*ft, "geom", "fromto", 6);
      const Vec3 a(v[0], v[1], v[2]), b(v[3], v[4], v[5]);
      const Vec3 d = b - a;
      if (!(d.norm() > 0.0)) throw_invalid("MJCF: <geom fromto> has equal ends");
      if (out.type != "capsule" && out.type != "cylinder" && out.type != "box" && out.type != "ellipsoid")
        throw_invalid("MJCF: <geom fromto> on a " + out.type + " geom");
      out.pose.position = 0.5 * (a + b);
      out.pose.rotation = z_to(d.normalized());
      if (out.type == "capsule" || out.type == "cylinder") {
        need(1);
        out.size = Vec3(size[0], 0.5 * d.norm(), 0.0);
      } else {
        need(2);
        out.size = Vec3(size[0], size[1], 0.5 * d.norm());
      }
    } else if (out.type == "sphere") {
      need(1);
      out.size = Vec3(size[0], 0.0, 0.0);
    } else if (out.type == "capsule" || out.type == "cylinder") {
      need(2);
      out.size = Vec3(size[0], size[1], 0.0);
    } else if (out.type == "box" || out.type == "ellipsoid") {
      need(3);
      out.size = Vec3(size[0], size[1], size[2]);
    } else if (out.type == "plane") {
    } else if (out.type == "mesh") {
      out.mesh = get_string(g, cls, "mesh", "");
      if (out.mesh.empty())
        throw_invalid("MJCF: <geom" + (out.name.empty() ? std::string() : " name=\"" + out.name + "\"") +
                      " type=\"mesh\"> names no mesh asset");
      if (!meshes_.count(out.mesh))
        throw_invalid("MJCF: <geom mesh=\"" + out.mesh + "\"> names no <asset><mesh> of the file");
    } else if (out.type == "hfield") {
      out.hfield = get_string(g, cls, "hfield", "");
      if (!hfields_.count(out.hfield))
        throw_invalid("MJCF: <geom type=\"hfield\" hfield=\"" + out.hfield +
                      "\"> names no <asset><hfield> of the file");
    } else if (out.type == "sdf") {
      // handled by the caller (unsupported)
    } else {
      throw_invalid("MJCF: <geom type=\"" + out.type + "\"> is not a MuJoCo geom type");
    }
    out.density = get_number(g, cls, "density", 1000.0);
    if (auto m = get(g, cls, "mass")) out.mass = numbers(*m, "geom", "mass", 1)[0];
    if (out.density < 0.0 || (out.mass && *out.mass < 0.0))
      throw_invalid("MJCF: <geom" + (out.name.empty() ? std::string() : " name=\"" + out.name + "\"") +
                    ">: mass and density must be >= 0");
    out.contype = integer(get_number(g, cls, "contype", 1), "geom", "contype");
    out.conaffinity = integer(get_number(g, cls, "conaffinity", 1), "geom", "conaffinity");
    if (contacts_disabled_) out.contype = out.conaffinity = 0;
    out.group = integer(get_number(g, cls, "group", 0), "geom", "group");
    if (auto f = get(g, cls, "friction")) {
      const auto v = numbers(*f, "geom", "friction", 0);
      if (v.size() > 3)
        throw_invalid("MJCF: <geom friction=\"" + *f + "\">: expected 1 to 3 numbers");
      for (std::size_t k = 0; k < v.size(); ++k) {
        if (v[k] < 0.0) throw_invalid("MJCF: <geom friction=\"" + *f + "\">: must be >= 0");
        out.friction[static_cast<Eigen::Index>(k)] = v[k];
      }
    }
    out.condim = integer(get_number(g, cls, "condim", 3), "geom", "condim");
    if (out.condim != 1 && out.condim != 3 && out.condim != 4 && out.condim != 6)
      throw_invalid("MJCF: <geom condim=\"" + std::to_string(out.condim) + "\">: must be 1, 3, 4 or 6");
    const auto rgba = get_numbers(g, cls, "rgba", 4, {0.5, 0.5, 0.5, 1.0});
    out.rgba = Vec4(rgba[0], rgba[1], rgba[2], rgba[3]);
    return out;
  }

  // the geom's mass properties in its body's frame, as MuJoCo computes them (mjCGeom)
  MassProps geom_mass(const Geom& g) {
    const double r = g.size.x();
    double volume = 0.0;
    Vec3 unit = Vec3::Zero();  // inertia per unit mass about the geom centre, geom frame
    if (g.type == "sphere") {
      volume = 4.0 / 3.0 * kPi * r * r * r;
      unit = Vec3::Constant(0.4 * r * r);
    } else if (g.type == "capsule") {
      const double h = 2.0 * g.size.y();
      const double vc = kPi * r * r * h, vs = 4.0 / 3.0 * kPi * r * r * r;
      volume = vc + vs;
      // per unit mass: the cylinder's and the two hemispheres' shares
      const double fc = vc / volume, fs = vs / volume;
      const double ixx = fc * (3.0 * r * r + h * h) / 12.0 +
                         fs * (0.4 * r * r + 0.25 * h * h + 0.375 * h * r);
      unit = Vec3(ixx, ixx, fc * r * r / 2.0 + fs * 0.4 * r * r);
    } else if (g.type == "cylinder") {
      const double h = 2.0 * g.size.y();
      volume = kPi * r * r * h;
      const double ixx = (3.0 * r * r + h * h) / 12.0;
      unit = Vec3(ixx, ixx, r * r / 2.0);
    } else if (g.type == "box") {
      const Vec3& s = g.size;
      volume = 8.0 * s.x() * s.y() * s.z();
      unit = Vec3(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
                  s.x() * s.x() + s.y() * s.y()) / 3.0;
    } else if (g.type == "ellipsoid") {
      const Vec3& s = g.size;
      volume = 4.0 / 3.0 * kPi * s.x() * s.y() * s.z();
      unit = Vec3(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
                  s.x() * s.x() + s.y() * s.y()) / 5.0;
    } else if (g.type == "mesh") {
      const MeshAsset& a = mesh(g.mesh);
      MassProps m;
      m.mass = g.mass ? *g.mass : g.density * a.volume;
      m.com = g.pose.position + g.pose.rotation * a.com;
      m.inertia = g.pose.rotation * (m.mass * a.unit_inertia) * g.pose.rotation.transpose();
      return m;
    } else {
      return MassProps();
    }
    MassProps m;
    m.mass = g.mass ? *g.mass : g.density * volume;
    m.com = g.pose.position;
    m.inertia = g.pose.rotation * (m.mass * unit).asDiagonal() * g.pose.rotation.transpose();
    return m;
  }

  std::optional<Shape> geom_shape(const Geom& g) {
    if (g.type == "sphere") return Shape::sphere(g.size.x());
    if (g.type == "capsule") return Shape::capsule(g.size.x(), 2.0 * g.size.y());
    if (g.type == "cylinder") return Shape::cylinder(g.size.x(), 2.0 * g.size.y());
    if (g.type == "box") return Shape::box(2.0 * g.size.x(), 2.0 * g.size.y(), 2.0 * g.size.z());
    if (g.type == "mesh")  // MuJoCo collides a mesh as its convex hull
      return Shape::convex_mesh(mesh(g.mesh).hull);
    if (g.type == "ellipsoid") {
      // the convex hull of 16 x 8 points of its surface (a polytope inside the ellipsoid)
      std::vector<Vec3> pts;
      for (int i = 0; i <= 8; ++i) {
        const double th = kPi * i / 8.0;
        for (int j = 0; j < 16; ++j) {
          const double ph = 2.0 * kPi * j / 16.0;
          pts.emplace_back(g.size.x() * std::sin(th) * std::cos(ph),
                           g.size.y() * std::sin(th) * std::sin(ph), g.size.z() * std::cos(th));
          if (i == 0 || i == 8) break;
        }
      }
      return Shape::convex_mesh(std::make_shared<ConvexHull>(convex_hull(pts, "ellipsoid points")));
    }
    return std::nullopt;
  }

  bool unsupported_geom(const Geom& g) {
    if (g.type == "sdf") {
      unsupported("a <geom type=\"" + g.type + "\">" + (g.name.empty() ? "" : " ('" + g.name + "')"),
                  "geom:" + g.type);
      return true;
    }
    return false;
  }

  // ---- mesh assets ----------------------------------------------------------------------
  // An <asset><mesh> (OBJ or STL, torsion's readers), scaled; read when a geom first uses it.
  // Mass properties as MuJoCo computes them per the mesh's `inertia` attribute: "legacy" (its
  // default) sums, for every triangle, the tetrahedron from the area-weighted centre of the
  // surface with its volume taken positive (the exact volume for a convex mesh, more for a
  // concave one); "exact" the enclosed solid; "convex" the solid convex hull. MuJoCo collides a
  // mesh as its convex hull: so does torsion (in the frame of the file's vertices, which the
  // geom's pos and quat place; MuJoCo re-centres the mesh and moves the geom frame to match).
  struct MeshAsset {
    std::string name, path, inertia = "legacy";
    Vec3 scale = Vec3::Ones();
    bool loaded = false;
    double volume = 0.0;
    Vec3 com = Vec3::Zero();
    Mat3 unit_inertia = Mat3::Zero();  // per unit mass, about com, mesh frame
    std::shared_ptr<const ConvexHull> hull;
  };

  void read_mesh_assets(pugi::xml_node list) {
    for (pugi::xml_node a : list.children("mesh")) {
      const std::string cls = a.attribute("class") ? a.attribute("class").value() : "main";
      MeshAsset m;
      const std::string file = get_string(a, cls, "file", "");
      if (file.empty()) {
        const std::string n = a.attribute("name").value();
        unsupported("the <asset><mesh" + (n.empty() ? std::string() : " name=\"" + n + "\"") +
                    "> without a file (inline vertex data)", "mesh:inline");
        continue;
      }
      m.name = a.attribute("name") ? a.attribute("name").value() : fs::path(file).stem().string();
      fs::path p(file);
      if (!p.is_absolute()) p = fs::path(dir_) / meshdir_ / p;
      m.path = p.lexically_normal().string();
      const auto sc = get_numbers(a, cls, "scale", 3, {1.0, 1.0, 1.0});
      m.scale = Vec3(sc[0], sc[1], sc[2]);
      if (!(m.scale.cwiseAbs().minCoeff() > 0.0))
        throw_invalid("MJCF: <mesh name=\"" + m.name + "\" scale>: must be non-zero");
      m.inertia = get_string(a, cls, "inertia", "legacy");
      if (m.inertia != "legacy" && m.inertia != "exact" && m.inertia != "convex" && m.inertia != "shell")
        throw_invalid("MJCF: <mesh name=\"" + m.name + "\" inertia=\"" + m.inertia +
                      "\">: expected legacy, exact, convex or shell");
      meshes_[m.name] = m;
    }
  }

  const MeshAsset& mesh(const std::string& name) {
    MeshAsset& m = meshes_.at(name);
    if (m.loaded) return m;
    if (m.inertia == "shell")
      throw_invalid("MJCF: <mesh name=\"" + name + "\" inertia=\"shell\"> is not supported");
    TriangleMeshData data = load_mesh_file(m.path);
    for (Vec3& v : data.vertices) v = v.cwiseProduct(m.scale);
    if (m.scale.prod() < 0.0)
      for (auto& t : data.triangles) std::swap(t[1], t[2]);  // a mirror keeps the normals out
    m.hull = std::make_shared<ConvexHull>(convex_hull(data.vertices, ("mesh '" + name + "'").c_str()));
    if (m.inertia == "convex") {
      const SolidMassProperties p = polyhedron_mass_properties(m.hull->vertices, m.hull->triangles);
      m.volume = p.volume;
      m.com = p.com;
      m.unit_inertia = p.inertia / p.volume;
    } else if (m.inertia == "exact") {
      const SolidMassProperties p = polyhedron_mass_properties(data.vertices, data.triangles);
      m.volume = p.volume;
      m.com = p.com;
      m.unit_inertia = p.inertia / p.volume;
    } else {
      legacy_mass(data, m);
    }
    if (!(m.volume > 0.0))
      throw_invalid("MJCF: the mesh '" + name + "' (" + m.path + ") encloses no volume");
    m.loaded = true;
    return m;
  }

  // MuJoCo's legacy mesh inertia (see MeshAsset): the centre of mass from the tetrahedra on the
  // area-weighted centre of the surface, then the volume and inertia from those on that centre of
  // mass, every volume taken positive
  static void legacy_mass(const TriangleMeshData& d, MeshAsset& m) {
    const auto corner = [&](const std::array<int, 3>& t, int k) -> const Vec3& {
      return d.vertices[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])];
    };
    Vec3 centre = Vec3::Zero();
    double area = 0.0;
    for (const auto& t : d.triangles) {
      const double ar = 0.5 * (corner(t, 1) - corner(t, 0)).cross(corner(t, 2) - corner(t, 0)).norm();
      centre += ar * (corner(t, 0) + corner(t, 1) + corner(t, 2)) / 3.0;
      area += ar;
    }
    if (!(area > 0.0)) return;
    centre /= area;
    // tetrahedra (origin, a, b, c) with a, b, c about `origin`: positive volume, its first and
    // second moments (the integral of x x^T)
    const auto moments = [&](const Vec3& origin, double& volume, Vec3& first, Mat3& second) {
      volume = 0.0;
      first.setZero();
      second.setZero();
      for (const auto& t : d.triangles) {
        const Vec3 a = corner(t, 0) - origin, b = corner(t, 1) - origin, c = corner(t, 2) - origin;
        const double v = std::abs(a.dot(b.cross(c))) / 6.0;
        const Vec3 s = a + b + c;
        volume += v;
        first += v * s / 4.0;
        second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
      }
    };
    double volume;
    Vec3 first;
    Mat3 second;
    moments(centre, volume, first, second);
    if (!(volume > 0.0)) return;
    const Vec3 com = centre + first / volume;
    moments(com, volume, first, second);
    if (!(volume > 0.0)) return;
    // as MuJoCo: the second moments about the first pass's centre of mass (with positive
    // volumes, the second pass's own centroid differs from it for a concave mesh)
    const Mat3 cov = second / volume;
    m.volume = volume;
    m.com = com;
    m.unit_inertia = cov.trace() * Mat3::Identity() - cov;
  }

  // ---- height fields ------------------------------------------------------------------
  // <asset><hfield nrow ncol elevation size>: MuJoCo normalizes the elevation data to [0, 1]
  // (min to max) and stores its rows in reverse (the first row given is the highest y, as in
  // an image); the surface is at pos.z + size[2] * data. Without elevation data the field is
  // flat (MuJoCo's zeros, which a program may fill at run time). PNG and binary files are not
  // read.
  struct HFieldAsset {
    int nrow = 0, ncol = 0;
    double size[4] = {0, 0, 0, 0};
    std::vector<double> data;  // normalized, row 0 the lowest y
  };

  void read_hfield_assets(pugi::xml_node list) {
    for (pugi::xml_node a : list.children("hfield")) {
      const std::string name = a.attribute("name").value();
      const std::string what = "<asset><hfield name=\"" + name + "\">";
      if (a.attribute("file")) {
        unsupported(what + " from the file '" + std::string(a.attribute("file").value()) +
                    "' (torsion reads hfield elevation given in the XML)", "hfield:file");
        continue;
      }
      HFieldAsset h;
      const auto sz = numbers(a.attribute("size").value(), "hfield", "size", 4);
      for (int k = 0; k < 4; ++k) h.size[k] = sz[static_cast<std::size_t>(k)];
      if (!(h.size[0] > 0.0 && h.size[1] > 0.0 && h.size[2] >= 0.0 && h.size[3] >= 0.0))
        throw_invalid("MJCF: " + what + ": size must be radius_x > 0, radius_y > 0, elevation >= 0, base >= 0");
      h.nrow = integer(numbers(a.attribute("nrow") ? a.attribute("nrow").value() : "0", "hfield", "nrow", 1)[0], "hfield", "nrow");
      h.ncol = integer(numbers(a.attribute("ncol") ? a.attribute("ncol").value() : "0", "hfield", "ncol", 1)[0], "hfield", "ncol");
      if (h.nrow < 2 || h.ncol < 2 || static_cast<long long>(h.nrow) * h.ncol > 100000000LL)
        throw_invalid("MJCF: " + what + ": nrow and ncol must be at least 2 (and their product at most 1e8)");
      const std::size_t n = static_cast<std::size_t>(h.nrow) * static_cast<std::size_t>(h.ncol);
      h.data.assign(n, 0.0);
      if (a.attribute("elevation")) {
        const auto v = numbers(a.attribute("elevation").value(), "hfield", "elevation", n);
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        const double range = *hi - *lo;
        for (int r = 0; r < h.nrow; ++r)
          for (int c = 0; c < h.ncol; ++c) {
            const double x = v[static_cast<std::size_t>(r) * static_cast<std::size_t>(h.ncol) + static_cast<std::size_t>(c)];
            h.data[static_cast<std::size_t>(h.nrow - 1 - r) * static_cast<std::size_t>(h.ncol) + static_cast<std::size_t>(c)] =
                range > 0.0 ? (x - *lo) / range : 0.0;
          }
      }
      hfields_[name] = std::move(h);
    }
  }

  void height_field(const Geom& g, const Pose& p) {
    if (!p.rotation.isApprox(Mat3::Identity(), 1e-12))
      throw_invalid("MJCF: the <geom type=\"hfield\"" + (g.name.empty() ? std::string() : " name=\"" + g.name + "\"") +
                    "> is rotated: torsion's height maps face +z");
    const HFieldAsset& h = hfields_.at(g.hfield);
    std::vector<double> heights(h.data.size());
    for (std::size_t k = 0; k < heights.size(); ++k) heights[k] = p.position.z() + h.size[2] * h.data[k];
    MjcfHeightField out;
    out.name = g.name;
    out.data = std::make_shared<HeightMapData>(h.ncol, h.nrow, 2.0 * h.size[0], 2.0 * h.size[1], std::move(heights));
    out.center_x = p.position.x();
    out.center_y = p.position.y();
    out.contact = contact_of(g);
    out_.height_fields.push_back(std::move(out));
  }

  // ---- contacts: filters and friction ----------------------------------------------------
  static MjcfContact contact_of(const Geom& g) {
    MjcfContact c;
    c.contype = g.contype;
    c.conaffinity = g.conaffinity;
    c.friction = g.friction;
    c.condim = g.condim;
    return c;
  }

  // torsion's filter and material are per body: the collision geoms of one body share them.
  // Geoms of one body that differ are merged (warned): the union of their contype and
  // conaffinity bits, the larger of each friction coefficient and condim.
  void merge_contact(int tb, const Geom& g, const std::string& body) {
    auto it = body_contact_.find(tb);
    if (it == body_contact_.end()) {
      body_contact_[tb] = contact_of(g);
      return;
    }
    MjcfContact& c = it->second;
    if (c.contype != g.contype || c.conaffinity != g.conaffinity || c.friction != g.friction ||
        c.condim != g.condim)
      warn_once("mixed_contact", "the collision geoms of body '" + body + "' differ in contype, "
                "conaffinity, friction or condim; torsion's filter and material are per body: "
                "they are merged (the union of the bits, the larger coefficients)");
    c.contype |= g.contype;
    c.conaffinity |= g.conaffinity;
    c.friction = c.friction.cwiseMax(g.friction);
    c.condim = std::max(c.condim, g.condim);
  }

  static bool mj_collide(const MjcfContact& a, const MjcfContact& b) {
    return (a.contype & b.conaffinity) != 0 || (b.contype & a.conaffinity) != 0;
  }

  // Groups and masks under which torsion's rule (a.group & b.mask) && (b.group & a.mask) lets
  // the same pairs collide as MuJoCo's: each distinct (contype, conaffinity) is a class with a
  // bit of its own (bits 1 to 62) as its group, and its mask holds the bits of the classes it
  // collides with. Bit 0 (the group of objects added to the world with the default group 1)
  // stands for a MuJoCo default geom (contype = conaffinity = 1); bit 63 is the ground's group
  // (every ground of the world): in the mask of the classes that collide with a plane of the
  // file. More than 62 classes: every geom collides with every other (warned). Materials: one
  // per distinct (friction, condim), named by its values, with a pair for every two of them.
  void assign_contacts() {
    std::vector<MjcfContact*> all;
    for (MjcfSystem& s : out_.systems)
      for (std::size_t b = 0; b < s.body_contact.size(); ++b)
        if (s.model->collisions.end() !=
            std::find_if(s.model->collisions.begin(), s.model->collisions.end(),
                         [&](const LinkCollision& c) { return c.body == static_cast<int>(b); }))
          all.push_back(&s.body_contact[b]);
    for (MjcfStatic& st : out_.statics) all.push_back(&st.contact);
    for (MjcfHeightField& h : out_.height_fields) all.push_back(&h.contact);
    std::vector<MjcfContact*> grounds;
    for (MjcfGround& g : out_.grounds) grounds.push_back(&g.contact);
    std::vector<std::pair<int, int>> classes;
    for (const MjcfContact* c : all) {
      const std::pair<int, int> k(c->contype, c->conaffinity);
      if (std::find(classes.begin(), classes.end(), k) == classes.end()) classes.push_back(k);
    }
    MjcfContact user;  // an object added with the default group: a MuJoCo default geom
    const auto cls = [](int ct, int ca) {
      MjcfContact c;
      c.contype = ct;
      c.conaffinity = ca;
      return c;
    };
    const bool fits = classes.size() <= 62;
    if (!fits)
      warn("more than 62 distinct (contype, conaffinity) pairs: torsion's 64 collision groups "
           "cannot tell them apart, every geom collides with every other");
    const auto bit = [&](std::size_t i) { return CollisionGroup(1) << (i + 1); };
    std::vector<CollisionGroup> masks(classes.size(), 0);
    for (std::size_t i = 0; i < classes.size() && fits; ++i) {
      const MjcfContact a = cls(classes[i].first, classes[i].second);
      for (std::size_t j = 0; j < classes.size(); ++j)
        if (mj_collide(a, cls(classes[j].first, classes[j].second))) masks[i] |= bit(j);
      if (mj_collide(a, user)) masks[i] |= CollisionGroup(1);
      for (const MjcfContact* g : grounds)
        if (mj_collide(a, *g)) masks[i] |= kStaticCollisionGroup;
    }
    for (MjcfContact* c : all) {
      const std::size_t i = static_cast<std::size_t>(
          std::find(classes.begin(), classes.end(), std::pair<int, int>(c->contype, c->conaffinity)) -
          classes.begin());
      c->group = fits ? bit(i) : CollisionGroup(1);
      c->mask = fits ? masks[i] : kAllGroups;
    }
    for (MjcfContact* g : grounds) {
      g->group = kStaticCollisionGroup;
      g->mask = mj_collide(*g, user) ? CollisionGroup(1) : 0;
      for (std::size_t j = 0; j < classes.size(); ++j)
        if (!fits || mj_collide(*g, cls(classes[j].first, classes[j].second))) g->mask |= fits ? bit(j) : kAllGroups;
    }
    // self-collision: two bodies of one system whose geoms MuJoCo lets touch
    for (MjcfSystem& s : out_.systems) {
      std::vector<std::size_t> with;
      for (const LinkCollision& c : s.model->collisions)
        if (std::find(with.begin(), with.end(), static_cast<std::size_t>(c.body)) == with.end())
          with.push_back(static_cast<std::size_t>(c.body));
      for (std::size_t i = 0; i < with.size() && !s.self_collision; ++i)
        for (std::size_t j = i + 1; j < with.size() && !s.self_collision; ++j) {
          const int a = static_cast<int>(with[i]), b = static_cast<int>(with[j]);
          if (s.model->collision_parent[with[i]] == b || s.model->collision_parent[with[j]] == a) continue;
          s.self_collision = mj_collide(s.body_contact[with[i]], s.body_contact[with[j]]);
        }
    }
    // materials
    std::vector<MjcfContact*> everything = all;
    everything.insert(everything.end(), grounds.begin(), grounds.end());
    std::vector<const MjcfContact*> kinds;
    for (MjcfContact* c : everything) {
      c->material = "mjcf:" + fmt(c->friction.x()) + "," + fmt(c->friction.y()) + "," +
                    fmt(c->friction.z()) + ":condim" + std::to_string(c->condim);
      if (std::none_of(kinds.begin(), kinds.end(), [&](const MjcfContact* k) { return k->material == c->material; }))
        kinds.push_back(c);
    }
    for (std::size_t i = 0; i < kinds.size(); ++i)
      for (std::size_t j = i; j < kinds.size(); ++j) {
        const MjcfContact& a = *kinds[i];
        const MjcfContact& b = *kinds[j];
        const int condim = std::max(a.condim, b.condim);
        const Vec3 f = a.friction.cwiseMax(b.friction);
        MjcfMaterialPair p;
        p.a = a.material;
        p.b = b.material;
        p.friction = condim >= 3 ? f.x() : 0.0;
        p.spinning = condim >= 4 ? f.y() : 0.0;
        p.rolling = condim >= 6 ? f.z() : 0.0;
        out_.material_pairs.push_back(p);
      }
  }

  // ---- bodies -------------------------------------------------------------------------
  std::string child_class(pugi::xml_node body, const std::string& cls) const {
    if (pugi::xml_attribute a = body.attribute("childclass")) {
      if (!defaults_.count(a.value()))
        throw_invalid("MJCF: <body childclass=\"" + std::string(a.value()) + "\"> names an unknown default class");
      return a.value();
    }
    return cls;
  }

  static bool has_joints(pugi::xml_node body) {
    return body.child("joint") || body.child("freejoint");
  }

  // geoms of the world or of a body welded to it: static objects and grounds; the bodies under
  // it with joints become articulated systems
  // <compiler settotalmass>: every body's mass and inertia scaled so that the total (welded
  // bodies included) is the value given, as MuJoCo does
  void scale_masses() {
    double total = static_mass_;
    for (const auto& m : built_) total += m->total_mass();
    if (!(total > 0.0)) return;
    const double f = set_total_mass_ / total;
    for (const auto& m : built_)
      for (ArticulatedBody& b : m->bodies) {
        b.mass *= f;
        b.inertia *= f;
      }
  }

  void static_body(pugi::xml_node body, const std::string& cls_in, const Pose& pose,
                   bool is_world, int depth = 0) {
    check_depth(depth, "<body>");
    const std::string cls = is_world ? cls_in : child_class(body, cls_in);
    if (!is_world) static_mass_ += body_mass_of(body, cls);
    record_frames(body, cls, -1, 0, pose);
    for (pugi::xml_node g : body.children("geom")) {
      const Geom geo = geom(g, cls);
      if (unsupported_geom(geo)) continue;
      const Pose p = compose(pose, geo.pose);
      if (geo.type == "plane") {
        const Vec3 n = p.rotation.col(2);
        if (geo.contype == 0 && geo.conaffinity == 0) continue;  // visual only
        if (n.z() > 1.0 - 1e-9) {
          out_.grounds.push_back(MjcfGround{p.position.z(), contact_of(geo)});
        } else {
          // a tilted plane (a wall): torsion's ground faces +z, so the half-space becomes a
          // static slab behind the plane, 1 km wide and 100 m thick (MuJoCo's plane is infinite
          // for collisions, whatever its size)
          Pose slab = p;
          slab.position = p.position - 50.0 * n;
          out_.statics.push_back(MjcfStatic{geo.name, Shape::box(1000.0, 1000.0, 100.0), slab,
                                            contact_of(geo)});
          warn("a tilted <geom type=\"plane\"> (facing (" + fmt(n.x()) + ", " + fmt(n.y()) + ", " +
               fmt(n.z()) + ")) becomes a static box 1000 x 1000 x 100 m behind it");
        }
        continue;
      }
      if (geo.contype == 0 && geo.conaffinity == 0) continue;  // visual only
      if (geo.type == "hfield") {
        height_field(geo, p);
        continue;
      }
      std::optional<Shape> s = geom_shape(geo);
      if (!s) continue;
      out_.statics.push_back(MjcfStatic{geo.name, *s, p, contact_of(geo)});
    }
    for (pugi::xml_node b : body.children("body")) {
      const Pose bp = compose(pose, this->pose(b, cls));
      if (has_joints(b)) system(b, cls, pose);
      else static_body(b, cls, bp, false, depth + 1);
    }
  }

  void system(pugi::xml_node body, const std::string& cls, const Pose& parent_pose) {
    model_ = std::make_shared<ArticulatedModel>();
    dofs_.clear();
    used_names_.clear();
    body_contact_.clear();
    collision_parent_.clear();
    MjcfSystem sys;
    sys.name = body.attribute("name").value();
    const std::string bcls = child_class(body, cls);
    pugi::xml_node free = body.child("freejoint");
    if (!free)
      for (pugi::xml_node j : body.children("joint"))
        if (get_string(j, bcls, "type", "hinge") == "free") free = j;
    Pose body_pose = compose(parent_pose, pose(body, cls));
    bool floating = static_cast<bool>(free);
    if (floating) {
      for (pugi::xml_node j : body.children("joint"))
        if (j != free) throw_invalid("MJCF: body '" + sys.name + "' has a free joint and other joints");
      ArticulatedBody b;
      b.name = unique(sys.name.empty() ? "body" : sys.name);
      b.parent = -1;
      b.joint_name = free.attribute("name") ? free.attribute("name").value() : "ROOT";
      b.joint_type = JointType::kFloating;
      model_->bodies.push_back(b);
      joint_body_[b.joint_name] = {static_cast<int>(out_.systems.size()), 0};
      dofs_.push_back(free_dofs(free, bcls));
      ArticulatedFrame f;
      f.name = b.joint_name;
      f.body = 0;
      f.joint_type = JointType::kFloating;
      model_->frames.push_back(f);
      body_contents(body, bcls, 0, Pose());
      for (pugi::xml_node c : body.children("body")) add_body(c, bcls, 0, Pose());
    } else {
      ArticulatedBody root;
      root.name = unique("world");
      root.joint_name = "ROOT";
      root.joint_type = JointType::kFixed;
      model_->bodies.push_back(root);
      dofs_.push_back({});
      ArticulatedFrame f;
      f.name = "ROOT";
      model_->frames.push_back(f);
      add_body(body, cls, 0, parent_pose);
    }
    finish();
    built_.push_back(model_);
    sys.model = model_;
    sys.stiffness = VecX::Zero(model_->nv);
    sys.springref = VecX::Zero(model_->nv);
    sys.ref = VecX::Zero(model_->nv);
    for (std::size_t b = 0; b < model_->bodies.size(); ++b)
      if (model_->bodies[b].gv_size == 1) {
        sys.stiffness[model_->bodies[b].gv_index] = dofs_[b].stiffness;
        sys.springref[model_->bodies[b].gv_index] = dofs_[b].springref;
        sys.ref[model_->bodies[b].gv_index] = dofs_[b].ref;
      }
    sys.gc = model_->neutral_gc();
    sys.body_contact.assign(model_->bodies.size(), MjcfContact());
    for (const auto& [b, c] : body_contact_) sys.body_contact[static_cast<std::size_t>(b)] = c;
    if (floating) {
      sys.gc.head<3>() = body_pose.position;
      const Eigen::Quaterniond q(body_pose.rotation);
      sys.gc.segment<4>(3) << q.w(), q.x(), q.y(), q.z();
    }
    out_.systems.push_back(std::move(sys));
  }

  std::string unique(const std::string& name) {
    std::string n = name;
    for (int k = 2; used_names_.count(n); ++k) n = name + "_" + std::to_string(k);
    used_names_.insert(n);
    return n;
  }

  DofProps free_dofs(pugi::xml_node j, const std::string& cls) {
    DofProps d;
    if (std::string(j.name()) == "joint") {
      d.damping = get_number(j, cls, "damping", 0.0);
      d.armature = get_number(j, cls, "armature", 0.0);
      d.frictionloss = get_number(j, cls, "frictionloss", 0.0);
    }
    return d;
  }

  // an MJCF body (with or without joints) under torsion body `parent_tb`, whose MJCF parent
  // frame is `parent_content` in parent_tb's frame
  void add_body(pugi::xml_node body, const std::string& cls_in, int parent_tb,
                const Pose& parent_content, int depth = 0) {
    check_depth(depth, "<body>");
    const std::string cls = child_class(body, cls_in);
    const std::string name = body.attribute("name").value();
    const Pose bp = compose(parent_content, pose(body, cls_in));
    int tb = parent_tb;
    Pose content = bp;
    std::vector<pugi::xml_node> joints;
    for (pugi::xml_node j : body.children()) {
      const std::string tag = j.name();
      if (tag == "joint") joints.push_back(j);
      if (tag == "freejoint")
        throw_invalid("MJCF: body '" + name + "' has a free joint but is not a child of the world");
    }
    Vec3 prev = Vec3::Zero();
    for (std::size_t k = 0; k < joints.size(); ++k) {
      pugi::xml_node j = joints[k];
      const std::string type = get_string(j, cls, "type", "hinge");
      const auto pv = get_numbers(j, cls, "pos", 3, {0.0, 0.0, 0.0});
      const Vec3 jpos(pv[0], pv[1], pv[2]);
      const auto av = get_numbers(j, cls, "axis", 3, {0.0, 0.0, 1.0});
      Vec3 axis(av[0], av[1], av[2]);
      if (!(axis.norm() > 0.0)) throw_invalid("MJCF: joint of body '" + name + "' has a zero axis");
      axis.normalize();
      ArticulatedBody b;
      const bool last = k + 1 == joints.size();
      std::string jname = j.attribute("name").value();
      if (jname.empty()) jname = (name.empty() ? "body" : name) + "_joint" + std::to_string(k);
      b.name = unique(last ? (name.empty() ? "body" : name) : (name.empty() ? "body" : name) + "/" + jname);
      b.parent = tb;
      b.joint_name = jname;
      b.joint_placement = k == 0 ? compose(bp, translation(jpos)) : translation(jpos - prev);
      b.axis = axis;
      DofProps d;
      if (type == "hinge") b.joint_type = JointType::kRevolute;
      else if (type == "slide") b.joint_type = JointType::kPrismatic;
      else if (type == "ball") b.joint_type = JointType::kSpherical;
      else if (type == "free")
        throw_invalid("MJCF: body '" + name + "' has a free joint but is not a child of the world");
      else throw_invalid("MJCF: joint '" + jname + "' has unknown type '" + type + "'");
      d.damping = get_number(j, cls, "damping", 0.0);
      d.armature = get_number(j, cls, "armature", 0.0);
      d.frictionloss = get_number(j, cls, "frictionloss", 0.0);
      if (d.damping < 0.0 || d.armature < 0.0 || d.frictionloss < 0.0)
        throw_invalid("MJCF: joint '" + jname + "': damping, armature and frictionloss must be >= 0");
      const double ref = type == "hinge" ? angle(get_number(j, cls, "ref", 0.0))
                                         : get_number(j, cls, "ref", 0.0);
      d.ref = ref;
      d.stiffness = get_number(j, cls, "stiffness", 0.0);
      if (d.stiffness < 0.0) throw_invalid("MJCF: joint '" + jname + "': stiffness must be >= 0");
      if (d.stiffness != 0.0 && type == "ball") {
        warn_once("ball_stiffness", "ball joint stiffness is not simulated yet (first: joint '" + jname + "')");
        d.stiffness = 0.0;
      }
      d.springref = (type == "hinge" ? angle(get_number(j, cls, "springref", 0.0))
                                     : get_number(j, cls, "springref", 0.0)) - ref;
      if (type == "ball" || type == "hinge" || type == "slide") {
        const std::string limited = get_string(j, cls, "limited", "auto");
        const auto range = get(j, cls, "range");
        const bool on = limited == "true" || (limited == "auto" && range && autolimits_);
        if (on && range) {
          const auto r = numbers(*range, "joint", "range", 2);
          if (type == "ball") {
            warn_once("ball_range", "ball joint ranges are not enforced yet (first: joint '" + jname + "')");
          } else {
            d.limited = true;
            d.softness = limit_softness(j, cls, jname);
            d.lower = (type == "hinge" ? angle(r[0]) : r[0]) - ref;
            d.upper = (type == "hinge" ? angle(r[1]) : r[1]) - ref;
            if (d.lower > d.upper)
              throw_invalid("MJCF: joint '" + jname + "' has range lower > upper");
          }
        }
      }
      if (ref != 0.0)
        warn_once("ref", "joint ref: torsion's joint coordinate is MuJoCo's minus ref (first: joint '" + jname + "')");
      model_->bodies.push_back(b);
      dofs_.push_back(d);
      tb = static_cast<int>(model_->bodies.size()) - 1;
      joint_body_[jname] = {static_cast<int>(out_.systems.size()), tb};
      ArticulatedFrame f;
      f.name = jname;
      f.body = tb;
      f.joint_type = b.joint_type;
      model_->frames.push_back(f);
      prev = jpos;
      content = translation(-jpos);
    }
    // MuJoCo's parent filter: this body's geoms never touch those of its parent MJCF body (the
    // torsion body before the chain of its joints), unless that is the world
    if (tb != parent_tb) collision_parent_[tb] = parent_tb;
    body_contents(body, cls, tb, content);
    for (pugi::xml_node c : body.children("body")) add_body(c, cls, tb, content, depth + 1);
  }

  // MuJoCo's limits are soft: solreflimit (timeconst, dampratio; or -stiffness, -damping) and
  // solimplimit (dmin, dmax, width[, midpoint, power]), MuJoCo's defaults when absent
  ArticulatedModel::LimitSoftness limit_softness(pugi::xml_node j, const std::string& cls,
                                                 const std::string& jname) const {
    ArticulatedModel::LimitSoftness out;
    out.soft = true;
    const auto ref = get_numbers(j, cls, "solreflimit", 0, {0.02, 1.0});
    if (ref.size() != 2)
      throw_invalid("MJCF: joint '" + jname + "': solreflimit needs 2 numbers, got " +
                    std::to_string(ref.size()));
    if ((ref[0] > 0.0) != (ref[1] > 0.0))
      throw_invalid("MJCF: joint '" + jname + "': solreflimit must be 2 positive numbers "
                    "(timeconst, dampratio) or 2 non-positive ones (-stiffness, -damping)");
    if (ref[0] == 0.0 && ref[1] == 0.0) {
      out.solref[0] = 0.02;  // MuJoCo: a zero solref means the default
      out.solref[1] = 1.0;
    } else {
      out.solref[0] = ref[0];
      out.solref[1] = ref[1];
    }
    const auto imp = get_numbers(j, cls, "solimplimit", 0, {0.9, 0.95, 0.001, 0.5, 2.0});
    if (imp.size() < 3 || imp.size() > 5)
      throw_invalid("MJCF: joint '" + jname + "': solimplimit needs 3 to 5 numbers, got " +
                    std::to_string(imp.size()));
    for (std::size_t i = 0; i < imp.size(); ++i) out.solimp[i] = imp[i];
    if (!(out.solimp[0] >= 0.0 && out.solimp[0] <= 1.0 && out.solimp[1] >= 0.0 &&
          out.solimp[1] <= 1.0 && out.solimp[2] >= 0.0 && out.solimp[3] > 0.0 &&
          out.solimp[3] < 1.0 && out.solimp[4] >= 1.0))
      throw_invalid("MJCF: joint '" + jname + "': solimplimit must be dmin, dmax in [0, 1], "
                    "width >= 0, midpoint in (0, 1), power >= 1");
    return out;
  }

  // ---- tendons ------------------------------------------------------------------------------
  // where a site or a named geom of a body is: (system, torsion body, pose in that body's frame;
  // system -1: the world, pose in the world); geoms keep their type and size for wrapping
  struct Framed {
    MjcfPoint point;
    Mat3 rotation = Mat3::Identity();
    std::string type;
    Vec3 size = Vec3::Zero();
  };
  std::map<std::string, Framed> sites_, geoms_;

  void record_frames(pugi::xml_node body, const std::string& cls, int system, int tb,
                     const Pose& content) {
    for (pugi::xml_node st : body.children("site")) {
      const std::string n = st.attribute("name").value();
      if (n.empty()) continue;
      const Pose p = compose(content, pose(st, cls));
      sites_[n] = Framed{MjcfPoint{system, tb, p.position}, p.rotation, "site", Vec3::Zero()};
    }
    for (pugi::xml_node g : body.children("geom")) {
      const std::string n = g.attribute("name").value();
      if (n.empty()) continue;
      const std::string type = get_string(g, cls, "type", "sphere");
      if (type != "sphere" && type != "cylinder") continue;  // MuJoCo wraps around these only
      const Geom geo = geom(g, cls);
      const Pose p = compose(content, geo.pose);
      geoms_[n] = Framed{MjcfPoint{system, tb, p.position}, p.rotation, type, geo.size};
    }
  }

  // an attribute of a <tendon> or <equality> element: its own, else its class's
  // <default><tendon> / <default><equality> value (`kind`)
  std::optional<std::string> class_attr(pugi::xml_node e, const char* kind, const char* attr) const {
    if (pugi::xml_attribute a = e.attribute(attr)) return std::string(a.value());
    const std::string c = e.attribute("class") ? e.attribute("class").value() : "main";
    auto d = defaults_.find(c);
    if (d == defaults_.end()) {
      if (e.attribute("class"))
        throw_invalid("MJCF: <" + std::string(e.name()) + "> names the unknown default class '" + c + "'");
      return std::nullopt;
    }
    auto t = d->second.find(kind);
    if (t == d->second.end()) return std::nullopt;
    auto v = t->second.find(attr);
    if (v == t->second.end()) return std::nullopt;
    return v->second;
  }
  std::optional<std::string> tendon_attr(pugi::xml_node e, const char* attr) const {
    return class_attr(e, "tendon", attr);
  }
  double tendon_number(pugi::xml_node e, const char* attr, double fallback) const {
    const auto v = tendon_attr(e, attr);
    return v ? numbers(*v, e.name(), attr, 0).at(0) : fallback;
  }

  // <tendon>: <fixed> and <spatial> onto MjcfTendon (MuJoCo's order is the file's)
  void read_tendons(pugi::xml_node list) {
    for (pugi::xml_node e : list.children()) {
      if (e.type() != pugi::node_element) continue;
      const std::string tag = e.name();
      MjcfTendon t;
      t.name = e.attribute("name").value();
      const std::string what = "<" + tag + (t.name.empty() ? "" : " name=\"" + t.name + "\"") + ">";
      if (tag != "fixed" && tag != "spatial") {
        unsupported("the tendon " + what + " (MuJoCo's tendons are fixed or spatial)", "tendon:" + tag);
        continue;
      }
      if (t.name.empty()) t.name = "tendon" + std::to_string(tendon_index_.size());
      t.spatial = tag == "spatial";
      double offset = 0.0;  // fixed: MuJoCo's length minus torsion's (sum coef * ref)
      bool ok = true;
      if (!t.spatial) {
        for (pugi::xml_node j : e.children("joint")) {
          const std::string jn = j.attribute("joint").value();
          auto it = joint_body_.find(jn);
          if (it == joint_body_.end())
            throw_invalid("MJCF: the tendon " + what + " names the joint '" + jn +
                          "', which is not a joint of a moving body");
          // at most two articulated systems (the tendon's rows have two sides)
          const int sys_index = it->second.first;
          std::vector<int> systems{sys_index};
          for (const int o : t.joint_systems)
            if (std::find(systems.begin(), systems.end(), o) == systems.end()) systems.push_back(o);
          if (systems.size() > 2) {
            unsupported("the tendon " + what + " over joints of three or more articulated systems "
                        "(a solver row has two sides)", "tendon:systems");
            ok = false;
            break;
          }
          if (t.system < 0) t.system = sys_index;
          t.joint_systems.push_back(sys_index);
          const MjcfSystem& sys = out_.systems[static_cast<std::size_t>(sys_index)];
          const ArticulatedBody& b = sys.model->bodies[static_cast<std::size_t>(it->second.second)];
          if (b.gv_size != 1) {
            unsupported("the tendon " + what + " over the multi-dof joint '" + jn + "'", "tendon:joint");
            ok = false;
            break;
          }
          const auto c = numbers(j.attribute("coef") ? j.attribute("coef").value() : "1", "joint", "coef", 1);
          t.joints.emplace_back(jn, c[0]);
          offset += c[0] * sys.ref[b.gv_index];
        }
        if (ok && t.joints.empty()) throw_invalid("MJCF: the tendon " + what + " has no <joint>");
      } else {
        ok = read_path(e, what, t);
      }
      if (!ok) continue;
      t.stiffness = tendon_number(e, "stiffness", 0.0);
      t.damping = tendon_number(e, "damping", 0.0);
      t.frictionloss = tendon_number(e, "frictionloss", 0.0);
      t.armature = tendon_number(e, "armature", 0.0);
      if (t.stiffness < 0.0 || t.damping < 0.0 || t.frictionloss < 0.0 || t.armature < 0.0)
        throw_invalid("MJCF: the tendon " + what + ": stiffness, damping, frictionloss and armature "
                      "must be >= 0");
      if (const auto sl = tendon_attr(e, "springlength")) {
        const auto v = numbers(*sl, tag, "springlength", 0);
        if (v.size() == 2 && v[0] != v[1] && !(v[0] < 0.0 && v[1] < 0.0)) {
          // a dead band: no spring force between the two (MuJoCo 3's semantics)
          if (v[0] > v[1])
            throw_invalid("MJCF: the tendon " + what + " has springlength lower > upper");
          t.spring_length = v[0] - offset;
          t.spring_upper = v[1] - offset;
        } else if (!v.empty() && v[0] >= 0.0) {
          t.spring_length = v[0] - offset;  // (< 0: the length at load)
        }
      }
      const std::string limited = tendon_attr(e, "limited").value_or("auto");
      const auto range = tendon_attr(e, "range");
      if ((limited == "true" || (limited == "auto" && range && autolimits_)) && range) {
        const auto r = numbers(*range, tag, "range", 2);
        if (r[0] > r[1]) throw_invalid("MJCF: the tendon " + what + " has range lower > upper");
        t.lower = r[0] - offset;
        t.upper = r[1] - offset;
      }
      tendon_index_[t.name] = static_cast<int>(out_.tendons.size());
      out_.tendons.push_back(std::move(t));
    }
  }

  // a spatial tendon's path; false if refused (with ignore_unsupported)
  bool read_path(pugi::xml_node e, const std::string& what, MjcfTendon& t) {
    for (pugi::xml_node x : e.children()) {
      if (x.type() != pugi::node_element) continue;
      const std::string kind = x.name();
      MjcfTendonElement el;
      if (kind == "site") {
        const std::string n = x.attribute("site").value();
        auto it = sites_.find(n);
        if (it == sites_.end()) throw_invalid("MJCF: the tendon " + what + " names the unknown site '" + n + "'");
        el.point = it->second.point;
      } else if (kind == "geom") {
        const std::string n = x.attribute("geom").value();
        auto it = geoms_.find(n);
        if (it == geoms_.end())
          throw_invalid("MJCF: the tendon " + what + " wraps around '" + n +
                        "', which is not a named sphere or cylinder geom");
        const Framed& g = it->second;
        el.kind = g.type == "sphere" ? MjcfTendonElement::Kind::kSphere
                                     : MjcfTendonElement::Kind::kCylinder;
        el.point = g.point;
        el.axis = g.rotation.col(2);
        el.radius = g.size.x();
        if (x.attribute("sidesite")) {
          const std::string sn = x.attribute("sidesite").value();
          auto s = sites_.find(sn);
          if (s == sites_.end())
            throw_invalid("MJCF: the tendon " + what + " names the unknown sidesite '" + sn + "'");
          el.has_side = true;
          el.side = s->second.point.position;
          // on another body than the geom's (MuJoCo: the sidesite's world position counts)
          if (s->second.point.system != g.point.system || s->second.point.body != g.point.body) {
            el.side_elsewhere = true;
            el.side_point = s->second.point;
          }
        }
      } else if (kind == "pulley") {
        el.kind = MjcfTendonElement::Kind::kPulley;
        el.divisor = numbers(x.attribute("divisor") ? x.attribute("divisor").value() : "", "pulley",
                             "divisor", 1)[0];
      } else {
        unsupported("the tendon " + what + "'s <" + kind + "> (torsion's paths: site, geom, pulley)",
                    "tendon:" + kind);
        return false;
      }
      t.path.push_back(el);
    }
    return true;
  }

  std::map<std::string, int> tendon_index_;

  std::optional<std::string> equality_attr(pugi::xml_node e, const char* attr) const {
    return class_attr(e, "equality", attr);
  }

  // <equality><tendon> and <joint> (the others: check_unsupported) onto MjcfEquality
  void read_equalities(pugi::xml_node list) {
    for (pugi::xml_node e : list.children()) {
      if (e.type() != pugi::node_element) continue;
      const std::string tag = e.name();
      if (tag != "tendon" && tag != "joint") continue;
      MjcfEquality q;
      q.name = e.attribute("name").value();
      const std::string what = "<equality><" + tag + (q.name.empty() ? "" : " name=\"" + q.name + "\"") + ">";
      if (q.name.empty()) q.name = "equality" + std::to_string(out_.equalities.size());
      if (equality_attr(e, "active").value_or("true") == "false") {
        warn("the inactive " + what + " is left out (torsion's couplings are always active)");
        continue;
      }
      q.polycoef = numbers(equality_attr(e, "polycoef").value_or("0 1 0 0 0"), tag, "polycoef", 0);
      if (q.polycoef.size() != 5)
        throw_invalid("MJCF: " + what + ": polycoef needs 5 numbers, got " + std::to_string(q.polycoef.size()));
      const char* a1 = tag == "tendon" ? "tendon1" : "joint1";
      const char* a2 = tag == "tendon" ? "tendon2" : "joint2";
      const std::string n1 = e.attribute(a1).value(), n2 = e.attribute(a2).value();
      if (n1.empty()) throw_invalid("MJCF: " + what + " needs " + a1);
      if (tag == "tendon") {
        for (const std::string& n : {n1, n2}) {
          if (n.empty()) continue;
          if (!tendon_index_.count(n))
            throw_invalid("MJCF: " + what + " names the tendon '" + n + "', which is not a tendon torsion loaded");
        }
        q.first = tendon_index_[n1];
        q.second = n2.empty() ? -1 : tendon_index_[n2];
      } else {
        // each joint as a fixed tendon of coefficient 1 (a scalar joint of a moving body)
        auto joint_tendon = [&](const std::string& n, const char* which) {
          auto it = joint_body_.find(n);
          if (it == joint_body_.end())
            throw_invalid("MJCF: " + what + " names the joint '" + n + "', which is not a joint of a moving body");
          const MjcfSystem& sys = out_.systems[static_cast<std::size_t>(it->second.first)];
          if (sys.model->bodies[static_cast<std::size_t>(it->second.second)].gv_size != 1)
            throw_invalid("MJCF: " + what + " names the multi-dof joint '" + n + "'");
          MjcfTendon t;
          t.name = q.name + "/" + which;
          t.system = it->second.first;
          t.joints.emplace_back(n, 1.0);
          t.joint_systems.push_back(t.system);
          out_.tendons.push_back(std::move(t));
          return static_cast<int>(out_.tendons.size()) - 1;
        };
        q.first = joint_tendon(n1, "joint1");
        q.second = n2.empty() ? -1 : joint_tendon(n2, "joint2");
      }
      if (q.first == q.second) throw_invalid("MJCF: " + what + " couples a tendon or joint with itself");
      out_.equalities.push_back(std::move(q));
    }
  }

  // <actuator>: motor, position and velocity on joints and on tendons (MuJoCo's order is the
  // file's)
  void read_actuators(pugi::xml_node list) {
    for (pugi::xml_node a : list.children()) {
      if (a.type() != pugi::node_element) continue;
      const std::string tag = a.name();
      const std::string cls = a.attribute("class") ? a.attribute("class").value() : "main";
      MjcfActuator act;
      act.name = a.attribute("name").value();
      act.type = tag;
      const std::string what = "<" + tag + (act.name.empty() ? "" : " name=\"" + act.name + "\"") + ">";
      if (tag != "motor" && tag != "position" && tag != "velocity") {
        unsupported("the actuator " + what + " (torsion reads motor, position and velocity)",
                    "actuator:" + tag);
        continue;
      }
      act.joint = get_string(a, cls, "joint", "");
      const std::string tendon = get_string(a, cls, "tendon", "");
      if (act.joint.empty() && !tendon.empty()) {
        auto t = tendon_index_.find(tendon);
        if (t == tendon_index_.end())
          throw_invalid("MJCF: the actuator " + what + " names the tendon '" + tendon +
                        "', which is not a tendon torsion loaded");
        act.tendon = t->second;
      }
      if (act.joint.empty() && act.tendon < 0) {
        unsupported("the actuator " + what + " on a tendon, site or body (torsion reads joint actuators)",
                    "actuator:transmission");
        continue;
      }
      if (act.tendon < 0) {
        auto it = joint_body_.find(act.joint);
        if (it == joint_body_.end())
          throw_invalid("MJCF: the actuator " + what + " names the joint '" + act.joint +
                        "', which is not a joint of a moving body");
        act.system = it->second.first;
        const ArticulatedModel& m = *out_.systems[static_cast<std::size_t>(act.system)].model;
        const ArticulatedBody& body = m.bodies[static_cast<std::size_t>(it->second.second)];
        if (body.gv_size != 1) {
          unsupported("the actuator " + what + " on the multi-dof joint '" + act.joint + "'");
          continue;
        }
        act.dof = body.gv_index;
      }
      act.gear = get_numbers(a, cls, "gear", 0, {1.0})[0];
      if (tag == "position") {
        act.kp = get_number(a, cls, "kp", 1.0);
        act.kv = get_number(a, cls, "kv", 0.0);
      } else if (tag == "velocity") {
        act.kv = get_number(a, cls, "kv", 1.0);
      }
      const auto limited = [&](const char* flag, const char* range, bool& on, double& lo, double& hi) {
        const std::string f = get_string(a, cls, flag, "auto");
        const auto r = get(a, cls, range);
        on = f == "true" || (f == "auto" && r && autolimits_);
        if (on && r) {
          const auto v = numbers(*r, tag, range, 2);
          lo = v[0];
          hi = v[1];
          if (lo > hi) throw_invalid("MJCF: the actuator " + what + " has " + range + " lower > upper");
        } else {
          on = false;
        }
      };
      limited("ctrllimited", "ctrlrange", act.ctrl_limited, act.ctrl_lower, act.ctrl_upper);
      limited("forcelimited", "forcerange", act.force_limited, act.force_lower, act.force_upper);
      out_.actuators.push_back(act);
    }
  }

  // the mass of a body welded to the world (for settotalmass)
  double body_mass_of(pugi::xml_node body, const std::string& cls) {
    pugi::xml_node in = body.child("inertial");
    if (inertia_from_geom_ == 1 || (inertia_from_geom_ == -1 && !in)) {
      double m = 0.0;
      for (pugi::xml_node g : body.children("geom")) {
        const Geom geo = geom(g, cls);
        if (geo.group >= group_lo_ && geo.group <= group_hi_) m += geom_mass(geo).mass;
      }
      return m;
    }
    return in ? get_number(in, cls, "mass", 0.0) : 0.0;
  }

  // inertia, geoms (collision shapes and visuals) of an MJCF body at `content` in body tb
  void body_contents(pugi::xml_node body, const std::string& cls, int tb, const Pose& content) {
    const std::string name = body.attribute("name").value();
    record_frames(body, cls, static_cast<int>(out_.systems.size()), tb, content);
    std::vector<Geom> geoms;
    for (pugi::xml_node g : body.children("geom")) {
      Geom geo = geom(g, cls);
      if (unsupported_geom(geo)) continue;
      if (geo.type == "plane")
        throw_invalid("MJCF: a <geom type=\"plane\"> in the moving body '" + name +
                      "': a plane must be static (in <worldbody> or a body welded to it)");
      if (geo.type == "hfield")
        throw_invalid("MJCF: the <geom type=\"hfield\"" + (geo.name.empty() ? std::string() : " name=\"" + geo.name + "\"") +
                      "> in the moving body '" + name + "': torsion's height maps are static (put it "
                      "in <worldbody> or a body welded to it)");
      geoms.push_back(geo);
    }
    MassProps m;
    pugi::xml_node in = body.child("inertial");
    const bool from_geoms = inertia_from_geom_ == 1 || (inertia_from_geom_ == -1 && !in);
    if (from_geoms) {
      for (const Geom& g : geoms)
        if (g.group >= group_lo_ && g.group <= group_hi_) m = combine(m, geom_mass(g));
    } else if (in) {
      const Pose ip = pose(in, cls);
      MassProps local;
      local.mass = get_number(in, cls, "mass", 0.0);
      if (local.mass < 0.0) throw_invalid("MJCF: <inertial mass> of body '" + name + "' must be >= 0");
      if (auto d = get(in, cls, "diaginertia")) {
        const auto v = numbers(*d, "inertial", "diaginertia", 3);
        local.inertia = Vec3(v[0], v[1], v[2]).asDiagonal();
      } else if (auto f = get(in, cls, "fullinertia")) {
        const auto v = numbers(*f, "inertial", "fullinertia", 6);
        local.inertia << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
      } else {
        throw_invalid("MJCF: <inertial> of body '" + name + "' needs diaginertia or fullinertia");
      }
      m = transform(ip, local);
    }
    if (m.mass > 0.0) {
      MassProps& acc = body_mass_[tb];
      acc = combine(acc, transform(content, m));
    }
    for (std::size_t k = 0; k < geoms.size(); ++k) {
      const Geom& g = geoms[k];
      const Pose p = compose(content, g.pose);
      const std::string gname = g.name.empty() ? (name.empty() ? "body" : name) + "/" + std::to_string(k) : g.name;
      if (!(g.contype == 0 && g.conaffinity == 0)) {
        std::optional<Shape> s = geom_shape(g);
        if (s) {
          merge_contact(tb, g, name);
          LinkCollision c;
          c.name = gname;
          c.body = tb;
          c.shape = *s;
          c.placement = p;
          model_->collisions.push_back(c);
        }
      }
      VisualBody v;
      v.name = gname;
      v.body = tb;
      v.placement = p;
      v.rgba = g.rgba;
      if (g.type == "mesh") {
        v.kind = VisualBody::Kind::kMesh;
        v.mesh_path = mesh(g.mesh).path;
        v.mesh_scale = mesh(g.mesh).scale;
      } else if (g.type == "box") {
        v.kind = VisualBody::Kind::kBox;
        v.size = 2.0 * g.size;
      } else if (g.type == "sphere" || g.type == "ellipsoid") {
        v.kind = VisualBody::Kind::kSphere;
        v.size = Vec3(g.size.x(), 0.0, 0.0);
      } else {
        v.kind = g.type == "capsule" ? VisualBody::Kind::kCapsule : VisualBody::Kind::kCylinder;
        v.size = Vec3(g.size.x(), 2.0 * g.size.y(), 0.0);
      }
      model_->visuals.push_back(v);
    }
  }

  void finish() {
    ArticulatedModel& m = *model_;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      auto it = body_mass_.find(static_cast<int>(b));
      if (it == body_mass_.end()) continue;
      m.bodies[b].mass = it->second.mass;
      m.bodies[b].com = it->second.com;
      m.bodies[b].inertia = it->second.inertia;
    }
    body_mass_.clear();
    m.collision_parent.assign(m.bodies.size(), -1);
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      auto it = collision_parent_.find(static_cast<int>(b));
      m.collision_parent[b] = it != collision_parent_.end() ? it->second : m.bodies[b].parent;
    }
    m.lower.resize(0);
    m.finalize();
    m.armature = VecX::Zero(m.nv);
    m.limit_softness.assign(static_cast<std::size_t>(m.nv), {});
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      const ArticulatedBody& body = m.bodies[b];
      const DofProps& d = dofs_[b];
      for (int k = 0; k < body.gv_size; ++k) {
        const int i = body.gv_index + k;
        m.damping[i] = d.damping;
        m.friction[i] = d.frictionloss;
        m.armature[i] = d.armature;
        if (d.limited) {
          m.lower[i] = d.lower;
          m.upper[i] = d.upper;
          m.limit_softness[static_cast<std::size_t>(i)] = d.softness;
        }
      }
    }
    m.has_armature = m.nv > 0 && m.armature.cwiseAbs().maxCoeff() > 0.0;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      if (m.bodies[b].gv_size == 0) continue;
      double moved = 0.0;
      for (std::size_t c = b; c < m.bodies.size(); ++c) {
        int a = static_cast<int>(c);
        while (a >= 0 && a != static_cast<int>(b)) a = m.bodies[static_cast<std::size_t>(a)].parent;
        if (a == static_cast<int>(b)) moved += m.bodies[c].mass + m.bodies[c].inertia.trace();
      }
      if (!(moved > 0.0) && !(m.armature.segment(m.bodies[b].gv_index, m.bodies[b].gv_size).minCoeff() > 0.0))
        throw_invalid("MJCF: joint '" + m.bodies[b].joint_name + "' moves bodies without mass "
                      "(body '" + m.bodies[b].name + "' and its children): the dynamics would be singular");
    }
  }

  std::string path_;
  MjcfOptions options_;
  MjcfResult out_;
  pugi::xml_document doc_;
  std::vector<std::unique_ptr<pugi::xml_document>> included_;
  std::string dir_, meshdir_;
  bool degree_ = true, autolimits_ = true;
  bool contacts_disabled_ = false;  // <option><flag contact="disable"/>
  std::string eulerseq_ = "xyz";
  int inertia_from_geom_ = -1;
  double set_total_mass_ = 0.0, static_mass_ = 0.0;
  std::vector<std::shared_ptr<ArticulatedModel>> built_;
  int group_lo_ = 0, group_hi_ = 5;
  std::map<std::string, std::map<std::string, Attrs>> defaults_;
  std::shared_ptr<ArticulatedModel> model_;
  std::vector<DofProps> dofs_;
  std::map<int, MassProps> body_mass_;
  std::map<std::string, MeshAsset> meshes_;
  std::map<std::string, HFieldAsset> hfields_;
  std::map<int, MjcfContact> body_contact_;  // torsion body -> its geoms' merged filter
  std::map<int, int> collision_parent_;      // torsion body -> MuJoCo's parent for the filter
  std::set<std::string> used_names_;
  std::set<std::string> warned_;
  std::map<std::string, std::pair<std::size_t, int>> unsupported_count_;  // kind -> (warning, more)
  std::map<std::string, std::pair<int, int>> joint_body_;  // joint -> (system, torsion body)
};

}  // namespace

MjcfResult load_mjcf_file(const std::string& path, const MjcfOptions& options) {
  return Reader(path, options).run();
}

bool is_mjcf_file(const std::string& path) {
  pugi::xml_document doc;
  if (!doc.load_file(path.c_str())) return false;
  return static_cast<bool>(doc.child("mujoco"));
}

}  // namespace torsion
