// RobotSpec -> ArticulatedModel: find the tree, choose the base, order the joints, merge links
// joined by fixed joints into bodies, and collect frames, collision shapes and visuals.
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <optional>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/check.hpp"
#include "dynamics/articulated/dynamics.hpp"
#include "geometry/convex_hull.hpp"
#include "io/mesh_io.hpp"
#include "io/urdf.hpp"
#include "io/urdf_spec.hpp"

namespace torsion {

namespace fs = std::filesystem;
using urdf::JointSpec;
using urdf::LinkSpec;
using urdf::RobotSpec;

namespace {

std::string at_line(int line) { return " (line " + std::to_string(line) + ")"; }

class Builder {
 public:
  Builder(const RobotSpec& spec, const UrdfOptions& options, std::string base_dir,
          urdf::WarningLog& log, UrdfReport* report)
      : spec_(spec), options_(options), base_dir_(std::move(base_dir)), log_(log),
        report_(report) {}

  std::shared_ptr<ArticulatedModel> run() {
    index_links_and_joints();
    const int root = find_root();
    if (!options_.joint_order.empty()) compute_order_keys();
    model_ = std::make_shared<ArticulatedModel>();
    link_body_.assign(spec_.links.size(), -1);
    link_placement_.assign(spec_.links.size(), Pose());
    link_inertia_.resize(spec_.links.size());
    for (std::size_t i = 0; i < spec_.links.size(); ++i) link_inertia_[i] = spec_.links[i].inertia;

    const LinkSpec& root_link = spec_.links[root];
    const bool world_root = root_link.name == "world";
    bool floating_world_joint = false;
    if (world_root)
      for (int j : children_[root]) floating_world_joint |= spec_.joints[j].type == "floating";
    // automatic: a root named 'world' is the world (fixed, unless it holds the base by a
    // floating joint). Any other root is fixed to the world when its <inertial> gives it zero
    // mass (the PyBullet and Gazebo convention: plane.urdf, table.urdf, cartpole.urdf). A root
    // without <inertial> floats as in PyBullet (which gives it 1 kg; torsion, like urdfdom and
    // Pinocchio, 0 kg), unless the links fixed to it have no mass either (nothing could move
    // it), and then it is fixed.
    bool fixed = options_.fixed_base == 1;
    if (options_.fixed_base < 0) {
      if (world_root) {
        fixed = !floating_world_joint;
      } else {
        fixed = root_link.has_inertial ? !(root_link.mass > 0.0) : !(rigid_mass(root) > 0.0);
        if (fixed)
          log_.add("fixed_base", root_link.line,
                   "the root link '" + root_link.name + "' has " +
                       (root_link.has_inertial ? "zero mass"
                                               : "no <inertial> nor massive links fixed to it") +
                       ": fixed to the world, as PyBullet does (fixed_base=None; pass "
                       "fixed_base=False for a floating base)");
      }
    }
    if (world_root) {
      if (root_link.mass > 0.0)
        throw_invalid("URDF: the link 'world' must not have an <inertial>" +
                      at_line(root_link.line));
      const auto& kids = children_[root];
      if (fixed) {
        for (int j : ordered(kids)) {
          const JointSpec& js = spec_.joints[j];
          if (js.type == "floating")
            throw_invalid("URDF: fixed_base=True contradicts the floating joint '" + js.name +
                          "'" + at_line(js.line));
          add_joint_subtree(j, -1);
        }
      } else {
        // floating base requested (or a floating world joint): world -> base must be one joint
        if (kids.size() != 1)
          throw_invalid("URDF: a floating base needs exactly one joint from 'world', found " +
                        std::to_string(kids.size()));
        const JointSpec& js = spec_.joints[kids[0]];
        if (js.type != "fixed" && js.type != "floating")
          throw_invalid("URDF: fixed_base=False needs the joint from 'world' ('" + js.name +
                        "') to be fixed or floating, it is " + js.type + at_line(js.line));
        const int base = link_index_.at(js.child);
        add_root_body(base, js.type == "floating" ? js.name : "ROOT", JointType::kFloating);
        // the world joint's frame sits at the base origin
        add_frame(js.name, base, JointType::kFloating);
      }
    } else {
      add_root_body(root, "ROOT", fixed ? JointType::kFixed : JointType::kFloating);
      add_frame("ROOT", root, fixed ? JointType::kFixed : JointType::kFloating);
    }
    if (model_->bodies.empty()) throw_invalid("URDF: no body is attached to 'world'");

    check_dof_count();
    complete_inertias();
    finish_mass_properties();
    resolve_mimics();
    model_->lower.resize(0);
    model_->finalize();
    fill_dof_properties();
    fold_mimic_dof_properties();
    check_joint_order();
    check_nonsingular();
    return model_;
  }

 private:
  void index_links_and_joints() {
    for (std::size_t i = 0; i < spec_.links.size(); ++i) {
      const LinkSpec& l = spec_.links[i];
      if (!link_index_.emplace(l.name, static_cast<int>(i)).second)
        throw_invalid("URDF: duplicate link name '" + l.name + "'" + at_line(l.line));
    }
    children_.assign(spec_.links.size(), {});
    parent_joint_.assign(spec_.links.size(), -1);
    std::map<std::string, int> joint_names;
    for (std::size_t j = 0; j < spec_.joints.size(); ++j) {
      const JointSpec& js = spec_.joints[j];
      if (!joint_names.emplace(js.name, static_cast<int>(j)).second)
        throw_invalid("URDF: duplicate joint name '" + js.name + "'" + at_line(js.line));
      auto p = link_index_.find(js.parent), c = link_index_.find(js.child);
      if (p == link_index_.end())
        throw_invalid("URDF: joint '" + js.name + "' names an unknown parent link '" + js.parent +
                      "'" + at_line(js.line));
      if (c == link_index_.end())
        throw_invalid("URDF: joint '" + js.name + "' names an unknown child link '" + js.child +
                      "'" + at_line(js.line));
      if (p->second == c->second)
        throw_invalid("URDF: joint '" + js.name + "' has link '" + js.child +
                      "' as both its parent and its child (a robot is one tree)" +
                      at_line(js.line));
      if (parent_joint_[c->second] >= 0)
        throw_invalid("URDF: link '" + js.child + "' is the child of two joints ('" +
                      spec_.joints[parent_joint_[c->second]].name + "' and '" + js.name + "')" +
                      at_line(js.line));
      if (js.has_mimic) check_mimic(js);
      if (js.type == "planar")
        throw_invalid("URDF: joint '" + js.name + "' is planar: planar joints are not supported" +
                      at_line(js.line));
      parent_joint_[c->second] = static_cast<int>(j);
      children_[p->second].push_back(static_cast<int>(j));
    }
  }

  // Every <mimic>: the master must be a revolute, continuous or prismatic joint of the URDF that
  // is not itself a mimic (Pinocchio's rule; revolute and prismatic may mimic each other), and
  // the mimic joint must be revolute, continuous or prismatic too.
  void check_mimic(const JointSpec& js) const {
    const std::string what = "URDF: joint '" + js.name + "' mimics '" + js.mimic_joint + "'";
    const auto movable = [](const std::string& t) {
      return t == "revolute" || t == "continuous" || t == "prismatic";
    };
    if (!movable(js.type))
      throw_invalid(what + ": a mimic joint must be revolute, continuous or prismatic, it is " +
                    js.type + at_line(js.mimic_line));
    if (!std::isfinite(js.mimic_multiplier) || !std::isfinite(js.mimic_offset))
      throw_invalid(what + ": multiplier and offset must be finite" + at_line(js.mimic_line));
    const JointSpec* master = find_joint(js.mimic_joint);
    if (!master)
      throw_invalid(what + ", which is not a joint of the URDF" + at_line(js.mimic_line));
    if (master == &js)
      throw_invalid(what + ": a joint cannot mimic itself" + at_line(js.mimic_line));
    if (master->has_mimic) {
      // follow the chain to say whether it closes on itself
      const JointSpec* j = master;
      for (std::size_t steps = 0; j && j->has_mimic && steps <= spec_.joints.size(); ++steps) {
        j = find_joint(j->mimic_joint);
        if (j == &js)
          throw_invalid(what + ": the mimic joints form a cycle" + at_line(js.mimic_line));
      }
      throw_invalid(what + ", which is itself a mimic joint (of '" + master->mimic_joint +
                    "'): mimic the independent joint instead" + at_line(js.mimic_line));
    }
    if (!movable(master->type))
      throw_invalid(what + ", which is " + master->type + ": only a revolute, continuous or "
                    "prismatic joint can be mimicked" + at_line(js.mimic_line));
  }

  const JointSpec* find_joint(const std::string& name) const {
    for (const JointSpec& j : spec_.joints)
      if (j.name == name) return &j;
    return nullptr;
  }

  // mimic joints: their bodies point at their masters' bodies (checked by check_mimic)
  void resolve_mimics() {
    ArticulatedModel& m = *model_;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      const int j = body_joint_spec_[b];
      if (j < 0 || !spec_.joints[j].has_mimic) continue;
      const JointSpec& js = spec_.joints[j];
      for (std::size_t c = 0; c < m.bodies.size(); ++c)
        if (body_joint_spec_[c] >= 0 && spec_.joints[body_joint_spec_[c]].name == js.mimic_joint)
          m.bodies[b].mimic_body = static_cast<int>(c);
      if (m.bodies[b].mimic_body < 0)  // the master was merged away or never reached
        throw_invalid("URDF: joint '" + js.name + "' mimics '" + js.mimic_joint +
                      "', which does not move a body of the robot" + at_line(js.mimic_line));
      m.bodies[b].mimic_multiplier = js.mimic_multiplier;
      m.bodies[b].mimic_offset = js.mimic_offset;
    }
  }

  int find_root() const {
    int root = -1;
    for (std::size_t i = 0; i < spec_.links.size(); ++i) {
      if (parent_joint_[i] >= 0) continue;
      if (root >= 0)
        throw_invalid("URDF: more than one root link ('" + spec_.links[root].name + "' and '" +
                      spec_.links[i].name + "'); a robot is one tree");
      root = static_cast<int>(i);
    }
    if (root < 0) throw_invalid("URDF: the joints form a cycle (no root link)");
    // every link must hang from the root: a cycle of joints beside the tree (l2 -> x -> l2) has
    // no root of its own, and its links were left out of the robot without a word
    std::vector<char> reached(spec_.links.size(), 0);
    std::vector<int> stack{root};
    reached[static_cast<std::size_t>(root)] = 1;
    while (!stack.empty()) {
      const int l = stack.back();
      stack.pop_back();
      for (const int j : children_[static_cast<std::size_t>(l)]) {
        const int c = link_index_.at(spec_.joints[static_cast<std::size_t>(j)].child);
        if (!reached[static_cast<std::size_t>(c)]) {
          reached[static_cast<std::size_t>(c)] = 1;
          stack.push_back(c);
        }
      }
    }
    std::string links, joints;
    for (std::size_t i = 0; i < spec_.links.size(); ++i) {
      if (reached[i]) continue;
      links += (links.empty() ? "'" : ", '") + spec_.links[i].name + "'";
      joints += (joints.empty() ? "'" : ", '") +
                spec_.joints[static_cast<std::size_t>(parent_joint_[i])].name + "'";
    }
    if (!links.empty())
      throw_invalid("URDF: links " + links + " are not connected to the root link '" +
                    spec_.links[static_cast<std::size_t>(root)].name + "': their joints " +
                    joints + " form (or hang from) a cycle; a robot is one tree");
    return root;
  }

  // the mass of `link` and of the links joined to it by fixed joints
  double rigid_mass(int link) const {
    double m = 0.0;
    std::vector<int> stack{link};
    while (!stack.empty()) {
      const int l = stack.back();
      stack.pop_back();
      m += spec_.links[static_cast<std::size_t>(l)].mass;
      for (const int j : children_[static_cast<std::size_t>(l)])
        if (spec_.joints[static_cast<std::size_t>(j)].type == "fixed")
          stack.push_back(link_index_.at(spec_.joints[static_cast<std::size_t>(j)].child));
    }
    return m;
  }

  // Per joint, the position of its subtree in the requested joint order: the earliest movable
  // joint in it (so children are visited in the order joint_order asks for). Computed once,
  // without recursion: a URDF may be a chain of any length.
  void compute_order_keys() {
    const auto& order = options_.joint_order;
    std::map<std::string, int> first;  // joint name -> its first position in joint_order
    for (std::size_t k = 0; k < order.size(); ++k) first.emplace(order[k], static_cast<int>(k));
    const std::size_t nj = spec_.joints.size();
    order_key_.resize(nj);
    for (std::size_t j = 0; j < nj; ++j) {
      const auto f = first.find(spec_.joints[j].name);
      order_key_[j] = f != first.end() ? f->second : static_cast<int>(order.size() + j);
    }
    // joints in depth-first pre-order from the root links, then children before parents
    std::vector<int> pre, stack;
    for (std::size_t l = 0; l < spec_.links.size(); ++l)
      if (parent_joint_[l] < 0) stack.insert(stack.end(), children_[l].begin(), children_[l].end());
    while (!stack.empty()) {
      const int j = stack.back();
      stack.pop_back();
      pre.push_back(j);
      const auto& kids = children_[link_index_.at(spec_.joints[j].child)];
      stack.insert(stack.end(), kids.begin(), kids.end());
    }
    for (auto it = pre.rbegin(); it != pre.rend(); ++it)
      for (int k : children_[link_index_.at(spec_.joints[*it].child)])
        order_key_[*it] = std::min(order_key_[*it], order_key_[k]);
  }

  std::vector<int> ordered(std::vector<int> joints) const {
    if (!options_.joint_order.empty())
      std::stable_sort(joints.begin(), joints.end(),
                       [&](int a, int b) { return order_key_[a] < order_key_[b]; });
    return joints;
  }

  void add_frame(const std::string& name, int link, JointType type) {
    ArticulatedFrame f;
    f.name = name;
    f.link = spec_.links[link].name;
    f.body = link_body_[link];
    f.placement = link_placement_[link];
    f.joint_type = type;
    model_->frames.push_back(f);
  }

  void add_root_body(int link, const std::string& joint_name, JointType type) {
    ArticulatedBody b;
    b.name = spec_.links[link].name;
    b.parent = -1;
    b.joint_name = joint_name;
    b.joint_type = type;
    model_->bodies.push_back(b);
    body_joint_spec_.push_back(-1);
    attach_link(link, 0, Pose());
    add_subtrees(link, 0);
  }

  void attach_link(int link, int body, const Pose& placement) {
    link_body_[link] = body;
    link_placement_[link] = placement;
    const LinkSpec& l = spec_.links[link];
    for (std::size_t k = 0; k < l.collisions.size(); ++k)
      add_collision(link, k, body, placement);
    for (std::size_t k = 0; k < l.visuals.size(); ++k) add_visual(l, k, body, placement);
  }

  // the joints below `link` (of body `body`) and everything below them, depth first, children in
  // ordered() order; iterative (an explicit stack), so a chain of any length loads
  void add_subtrees(int link, int body) {
    std::vector<std::pair<int, int>> stack;  // (joint, parent body), the next one at the back
    const auto push_children = [&](int l, int b) {
      const std::vector<int> kids = ordered(children_[l]);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.emplace_back(*it, b);
    };
    push_children(link, body);
    while (!stack.empty()) {
      const auto [j, parent_body] = stack.back();
      stack.pop_back();
      const int child = add_joint(j, parent_body);
      push_children(child, link_body_[child]);
    }
  }

  // the joint `j` and everything below it; parent_body -1 = the world
  void add_joint_subtree(int j, int parent_body) {
    const int child = add_joint(j, parent_body);
    add_subtrees(child, link_body_[child]);
  }

  // the joint `j` alone (its child link becomes a body or merges into parent_body; -1 = the
  // world); returns the child link
  int add_joint(int j, int parent_body) {
    const JointSpec& js = spec_.joints[j];
    const int child = link_index_.at(js.child);
    const int parent_link = link_index_.at(js.parent);
    // joint frame in the parent body's frame
    const Pose in_parent =
        parent_body < 0 ? js.origin : compose(link_placement_[parent_link], js.origin);
    JointType type = JointType::kFixed;
    if (js.type == "revolute" || js.type == "continuous") type = JointType::kRevolute;
    else if (js.type == "prismatic") type = JointType::kPrismatic;
    else if (js.type == "spherical") type = JointType::kSpherical;
    else if (js.type == "floating") type = JointType::kFloating;
    if (type == JointType::kFloating && (parent_body >= 0 || !model_->bodies.empty()))
      throw_invalid("URDF: joint '" + js.name +
                    "' is floating: a floating joint is only supported from 'world' to the root"
                    " link" + at_line(js.line));

    if (type == JointType::kFixed && parent_body >= 0) {
      // merged into the parent body
      attach_link(child, parent_body, in_parent);
    } else {
      ArticulatedBody b;
      b.name = js.child;
      b.parent = parent_body;
      b.joint_name = js.name;
      b.joint_type = type;
      b.joint_placement = in_parent;
      b.axis = js.axis;
      model_->bodies.push_back(b);
      body_joint_spec_.push_back(j);
      attach_link(child, static_cast<int>(model_->bodies.size()) - 1, Pose());
    }
    add_frame(js.name, child, type);
    return child;
  }

  std::string resolve_path(const std::string& file) const {
    const std::string kPackage = "package://", kFile = "file://";
    const fs::path base = options_.res_path.empty() ? fs::path(base_dir_) : fs::path(options_.res_path);
    if (file.rfind(kPackage, 0) == 0) {
      const std::string rest = file.substr(kPackage.size());  // <pkg>/<path>
      const fs::path with_pkg = base / rest;
      const auto slash = rest.find('/');
      if (fs::exists(with_pkg) || slash == std::string::npos) return with_pkg.lexically_normal().string();
      const fs::path without = base / rest.substr(slash + 1);
      return (fs::exists(without) ? without : with_pkg).lexically_normal().string();
    }
    if (file.rfind(kFile, 0) == 0) return file.substr(kFile.size());
    const fs::path p(file);
    if (p.is_absolute()) return p.string();
    return (base / p).lexically_normal().string();
  }

  // a collision mesh becomes the convex hull of its (scaled) vertices, in the collision frame
  // (RaiSim's convexifyCollisionMeshes); every file is read once per model. An OBJ file that
  // opens but cannot be read as a mesh (non-finite vertices, faces of 2 corners: files PyBullet
  // loads) gives the hull of its finite vertices, warned; none if they span no volume (warned).
  std::optional<Shape> mesh_hull(const LinkSpec& l, const urdf::ShapeSpec& s) {
    const urdf::Geometry& g = s.geometry;
    const std::string path = resolve_path(g.mesh);
    const std::string where = "URDF: <collision> mesh '" + g.mesh + "' of link '" + l.name + "'" +
                        at_line(s.line) + ": ";
    std::vector<Vec3> points;
    try {
      check_finite_vec(g.scale, "scale");
      for (int k = 0; k < 3; ++k)
        if (!(g.scale[k] > 0.0))
          throw_invalid("mesh scale must be > 0 on every axis, got " + fmt(g.scale[k]));
    } catch (const std::invalid_argument& e) {
      throw_invalid(where + e.what());
    }
    auto cached = mesh_points_.find(path);
    if (cached == mesh_points_.end()) {
      std::vector<Vec3> raw;
      bool lenient = false;
      try {
        const TriangleMeshData loaded = load_mesh_file(path);
        // the vertices the faces use: an OBJ may list points no face uses, which are not part
        // of the mesh's surface (World.add_mesh drops them the same way)
        std::vector<char> used(loaded.vertices.size(), 0);
        for (const auto& t : loaded.triangles)
          for (int k : t) used[static_cast<std::size_t>(k)] = 1;
        for (std::size_t k = 0; k < used.size(); ++k)
          if (used[k]) raw.push_back(loaded.vertices[k]);
      } catch (const std::invalid_argument& e) {
        std::ifstream probe(path);
        if (!probe || !is_obj(path)) throw_invalid(where + e.what());
        raw = load_obj_finite_vertices(path);
        lenient = true;
        log_.add("mesh", s.line, "collision mesh '" + g.mesh + "' of link '" + l.name +
                                     "' is not a clean mesh (" + e.what() +
                                     "): its convex hull is taken over its " +
                                     std::to_string(raw.size()) + " finite vertices");
      }
      cached = mesh_points_.emplace(path, std::make_pair(std::move(raw), lenient)).first;
    }
    for (const Vec3& v : cached->second.first) points.push_back(v.cwiseProduct(g.scale));
    try {
      return Shape::convex_mesh(std::make_shared<ConvexHull>(convex_hull(points, "mesh vertices")));
    } catch (const std::invalid_argument& e) {
      if (!cached->second.second) throw_invalid(where + e.what());  // a clean file: an error
      log_.add("mesh_dropped", s.line, "collision mesh '" + g.mesh + "' of link '" + l.name +
                                           "' has no volume once its unreadable parts are "
                                           "left out: the collision shape is dropped");
      return std::nullopt;
    }
  }

  static bool is_obj(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return ext == ".obj";
  }

  void add_collision(int link, std::size_t k, int body, const Pose& link_in_body) {
    const LinkSpec& l = spec_.links[link];
    const urdf::ShapeSpec& s = l.collisions[k];
    if (s.geometry.plane) {
      add_plane(l, s, body, link_in_body);
      return;
    }
    LinkCollision c;
    c.name = s.name.empty() ? l.name + "/" + std::to_string(k) : s.name;
    c.body = body;
    c.placement = compose(link_in_body, s.origin);
    const urdf::Geometry& g = s.geometry;
    switch (g.kind) {
      case VisualBody::Kind::kBox: c.shape = Shape::box(g.size.x(), g.size.y(), g.size.z()); break;
      case VisualBody::Kind::kSphere: c.shape = Shape::sphere(g.radius); break;
      case VisualBody::Kind::kCylinder: c.shape = Shape::cylinder(g.radius, g.length); break;
      case VisualBody::Kind::kCapsule: c.shape = Shape::capsule(g.radius, g.length); break;
      case VisualBody::Kind::kMesh: {
        std::optional<Shape> hull = mesh_hull(l, s);
        if (!hull) return;
        c.shape = *hull;
        break;
      }
    }
    model_->collisions.push_back(c);
    collision_link_.push_back(link);
  }

  // PyBullet's <plane>: on a link fixed to the world, a static ground (the half-space below it);
  // on a moving link, refused (a moving half-space cannot be simulated)
  void add_plane(const LinkSpec& l, const urdf::ShapeSpec& s, int body, const Pose& link_in_body) {
    const ArticulatedBody& b = model_->bodies[static_cast<std::size_t>(body)];
    if (!(b.parent < 0 && b.joint_type == JointType::kFixed))
      throw_invalid("URDF: the <plane> collision of link '" + l.name + "'" + at_line(s.line) +
                    " is on a link that moves; a plane (a static half-space) must be on a link "
                    "fixed to the world (a root of zero mass, or fixed_base=True)");
    const Pose in_world = compose(b.joint_placement, compose(link_in_body, s.origin));
    const Vec3 n = in_world.rotation * s.geometry.normal;
    if (!(n.z() > 1.0 - 1e-9))
      throw_invalid("URDF: the <plane> collision of link '" + l.name + "'" + at_line(s.line) +
                    " faces (" + fmt(n.x()) + ", " + fmt(n.y()) + ", " + fmt(n.z()) +
                    "); only a plane facing +z (a ground) is supported");
    log_.add("plane", s.line, "the <plane> collision of link '" + l.name +
                                  "' becomes a static ground at z = " + fmt(in_world.position.z()) +
                                  " (a separate object of the world)");
    if (report_) report_->ground_heights.push_back(in_world.position.z());
  }

  // Inertias that make the dynamics singular, completed as PyBullet does. PyBullet (default
  // flags) ignores the file's inertia and gives every link the inertia of the box bounding its
  // collision shapes in the inertial frame (btCompoundShape::calculateLocalInertia; an empty one
  // is a 2 mm cube), times the link's <inertia_scaling>. torsion keeps the file's inertia and
  // applies that rule only to a link of a moving body whose mass is > 0 and whose inertia is
  // singular (a zero principal moment: izz="0" in pybullet_data's random_urdfs).
  void complete_inertias() {
    for (std::size_t li = 0; li < spec_.links.size(); ++li) {
      const int b = link_body_[li];
      if (b < 0) continue;
      if (model_->bodies[static_cast<std::size_t>(b)].joint_type == JointType::kFixed) continue;
      const LinkSpec& l = spec_.links[li];
      if (!(l.mass > 0.0)) continue;
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(l.inertia, Eigen::EigenvaluesOnly);
      const Vec3 ev = eig.eigenvalues();
      if (ev[2] > 0.0 && ev[0] > 1e-12 * ev[2]) continue;
      const Pose inertial = compose(link_placement_[li], l.inertial_origin);
      Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
      // Bullet pads each child's box by its margin: 1 mm for a sphere (and the empty compound,
      // a 2 mm cube), 3 mm for a cylinder or a convex mesh, none for a box or a capsule
      // (measured with pybullet.getDynamicsInfo on single-shape links)
      const auto grow = [&](const Vec3& p_body, double r) {
        const Vec3 p = inertial.rotation.transpose() * (p_body - inertial.position);
        lo = lo.cwiseMin(p - Vec3::Constant(r));
        hi = hi.cwiseMax(p + Vec3::Constant(r));
      };
      for (std::size_t c = 0; c < model_->collisions.size(); ++c) {
        if (collision_link_[c] != static_cast<int>(li)) continue;
        const LinkCollision& lc = model_->collisions[c];
        const Shape& sh = lc.shape;
        const auto corners = [&](const Vec3& h, double pad) {
          for (int k = 0; k < 8; ++k)
            grow(lc.placement.position +
                     lc.placement.rotation * Vec3((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(),
                                                  (k & 4) ? h.z() : -h.z()),
                 pad);
        };
        switch (sh.type) {
          case ShapeType::kSphere: grow(lc.placement.position, sh.radius + 0.001); break;
          case ShapeType::kBox: corners(sh.half_extents, 0.0); break;
          case ShapeType::kCylinder:
            corners(Vec3(sh.radius, sh.radius, 0.5 * sh.height), 0.003);
            break;
          case ShapeType::kCapsule:
            corners(Vec3(sh.radius, sh.radius, 0.5 * sh.height + sh.radius), 0.0);
            break;
          case ShapeType::kConvexMesh:
            for (const Vec3& v : sh.hull->vertices)
              grow(lc.placement.position + lc.placement.rotation * v, 0.003);
            break;
          default: break;
        }
      }
      Vec3 side = Vec3::Zero();
      if (lo.x() <= hi.x()) side = hi - lo;
      side = side.cwiseMax(Vec3::Constant(0.002));  // the empty compound
      const double m = l.mass * l.inertia_scaling / 12.0;
      const Vec3 diag(m * (side.y() * side.y() + side.z() * side.z()),
                      m * (side.x() * side.x() + side.z() * side.z()),
                      m * (side.x() * side.x() + side.y() * side.y()));
      link_inertia_[li] = diag.asDiagonal();
      log_.add("inertia", l.line,
               "link '" + l.name + "' has a singular inertia (principal moments " + fmt(ev[0]) +
                   ", " + fmt(ev[1]) + ", " + fmt(ev[2]) + ") on a moving body: completed as "
                   "PyBullet does, as the inertia of its mass in the box bounding its collision "
                   "shapes (" + fmt(side.x()) + " x " + fmt(side.y()) + " x " + fmt(side.z()) +
                   " m" + (l.inertia_scaling != 1.0 ? ", times its inertia_scaling " +
                   fmt(l.inertia_scaling) : std::string()) + "), diagonal (" + fmt(diag.x()) +
                   ", " + fmt(diag.y()) + ", " + fmt(diag.z()) + ")");
    }
  }

  void add_visual(const LinkSpec& l, std::size_t k, int body, const Pose& link_in_body) {
    const urdf::ShapeSpec& s = l.visuals[k];
    VisualBody v;
    v.name = s.name.empty() ? l.name + "/" + std::to_string(k) : s.name;
    v.body = body;
    v.kind = s.geometry.kind;
    v.placement = compose(link_in_body, s.origin);
    v.rgba = s.rgba;
    v.material = s.material;
    if (v.kind == VisualBody::Kind::kBox) v.size = s.geometry.size;
    else v.size = Vec3(s.geometry.radius, s.geometry.length, 0.0);
    if (v.kind == VisualBody::Kind::kMesh) {
      v.mesh_path = resolve_path(s.geometry.mesh);
      v.mesh_scale = s.geometry.scale;
    }
    model_->visuals.push_back(v);
  }

  // combine the inertias of the links merged into each body (parallel-axis theorem)
  void finish_mass_properties() {
    const std::size_t nb = model_->bodies.size();
    std::vector<double> m(nb, 0.0);
    std::vector<Vec3> mc(nb, Vec3::Zero());
    for (std::size_t li = 0; li < spec_.links.size(); ++li) {
      const int b = link_body_[li];
      if (b < 0) continue;
      const LinkSpec& l = spec_.links[li];
      const Vec3 c = link_placement_[li].position +
                     link_placement_[li].rotation * l.inertial_origin.position;
      m[b] += l.mass;
      mc[b] += l.mass * c;
    }
    for (std::size_t b = 0; b < nb; ++b) {
      model_->bodies[b].mass = m[b];
      model_->bodies[b].com = m[b] > 0.0 ? Vec3(mc[b] / m[b]) : Vec3::Zero();
      model_->bodies[b].inertia.setZero();
    }
    for (std::size_t li = 0; li < spec_.links.size(); ++li) {
      const int b = link_body_[li];
      if (b < 0) continue;
      const LinkSpec& l = spec_.links[li];
      const Mat3 r = link_placement_[li].rotation * l.inertial_origin.rotation;
      const Vec3 c = link_placement_[li].position +
                     link_placement_[li].rotation * l.inertial_origin.position;
      const Vec3 d = c - model_->bodies[b].com;
      model_->bodies[b].inertia += r * link_inertia_[li] * r.transpose() +
                                   l.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    }
  }

  // before finalize(), which allocates per dof pair
  void check_dof_count() const {
    long long nv = 0;
    for (const ArticulatedBody& b : model_->bodies) {
      if (b.joint_type == JointType::kRevolute || b.joint_type == JointType::kPrismatic) nv += 1;
      else if (b.joint_type == JointType::kSpherical) nv += 3;
      else if (b.joint_type == JointType::kFloating) nv += 6;
    }
    if (nv > kMaxUrdfDof)
      throw_invalid("URDF: the robot has " + std::to_string(nv) + " degrees of freedom, more "
                    "than the supported maximum of " + std::to_string(kMaxUrdfDof) +
                    " (its dense mass matrix would take " + std::to_string(8 * nv * nv >> 20) +
                    " MiB)");
  }

  void fill_dof_properties() {
    ArticulatedModel& m = *model_;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      const int j = body_joint_spec_[b];
      if (j < 0) continue;
      const JointSpec& js = spec_.joints[j];
      const ArticulatedBody& body = m.bodies[b];
      if (body.is_mimic()) continue;  // folded into its master below
      for (int k = 0; k < body.gv_size; ++k) {
        const int d = body.gv_index + k;
        m.damping[d] = js.damping;
        m.friction[d] = js.friction;
        m.effort_limit[d] = js.effort;
        m.velocity_limit[d] = js.velocity;
        const bool limited = js.has_position_limits &&
                             (js.type == "revolute" || js.type == "prismatic");
        if (limited) {
          m.lower[d] = js.lower;
          m.upper[d] = js.upper;
        }
      }
    }
  }

  // A mimic joint's damping and friction act on its master: its damping torque -d q_mimic' =
  // -d w u maps to -w^2 d u on the master (G^T), and its Coulomb friction, bounded by f, to a
  // bound |w| f on the master (both oppose the same velocity, so the bounds add). Its limits,
  // effort and velocity are not used (the master's are).
  void fold_mimic_dof_properties() {
    ArticulatedModel& m = *model_;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      const ArticulatedBody& body = m.bodies[b];
      if (!body.is_mimic()) continue;
      const JointSpec& js = spec_.joints[body_joint_spec_[b]];
      const double w = body.mimic_multiplier;
      m.damping[body.mimic_dof] += w * w * js.damping;
      m.friction[body.mimic_dof] += std::abs(w) * js.friction;
    }
  }

  void check_joint_order() const {
    const auto& want = options_.joint_order;
    if (want.empty()) return;
    std::vector<std::string> got;
    for (const auto& b : model_->bodies)
      if (b.gv_size > 0 && b.joint_type != JointType::kFloating) got.push_back(b.joint_name);
    for (const auto& name : want) {
      if (std::find(got.begin(), got.end(), name) == got.end())
        throw_invalid("joint_order names '" + name + "', which is not a movable joint of the URDF");
    }
    if (want.size() != got.size() || want != got) {
      std::ostringstream s;
      s << "joint_order must list every movable joint once in an order that a depth-first walk "
           "of the tree can follow; the closest such order is [";
      for (std::size_t i = 0; i < got.size(); ++i) s << (i ? ", " : "") << got[i];
      s << "]";
      throw_invalid(s.str());
    }
  }

  // every dof must move some mass, or the mass matrix is singular
  void check_nonsingular() const {
    const ArticulatedModel& m = *model_;
    std::vector<double> subtree(m.bodies.size(), 0.0), rot(m.bodies.size(), 0.0);
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      subtree[b] = m.bodies[b].mass;
      rot[b] = m.bodies[b].inertia.trace();
    }
    for (std::size_t b = m.bodies.size(); b-- > 1;) {
      const int p = m.bodies[b].parent;
      if (p >= 0) {
        subtree[p] += subtree[b];
        rot[p] += rot[b];
      }
    }
    // a master also moves the subtrees of its mimic joints
    std::vector<double> moved = subtree, moved_rot = rot;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      const ArticulatedBody& body = m.bodies[b];
      if (!body.is_mimic() || body.mimic_multiplier == 0.0) continue;
      moved[body.mimic_body] += subtree[b];
      moved_rot[body.mimic_body] += rot[b];
    }
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      if (m.bodies[b].gv_size == 0) continue;
      if (!(moved[b] > 0.0) && !(moved_rot[b] > 0.0))
        throw_invalid("URDF: joint '" + m.bodies[b].joint_name + "' moves links without mass "
                      "or inertia (link '" + m.bodies[b].name +
                      "' and its descendants): the dynamics would be singular");
    }
    // Mass below every joint is not enough: a massless link can still turn about an axis its
    // child's joint undoes (a massless floating root over a hinge: the root turns one way, the
    // hinge the other, the child stays put), a motion with no inertia. The factorisation of M
    // at the neutral configuration finds it: eliminating from the leaves, the pivot of such a
    // dof is the inertia of its motion with the joints below free, zero here. It also finds a
    // model singular at this configuration only (a point mass hanging on its yaw axis from a yaw
    // and a pitch joint): refused too, since a robot must be simulable at its default state, and
    // the message says so.
    if (m.nv == 0) return;
    ArticulatedData d(m);
    d.q = m.neutral_gc();
    update_kinematics(m, d);
    crba(m, d);
    factorize(m, d, nullptr);
    const double scale = d.factor_d.cwiseAbs().maxCoeff();
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      const ArticulatedBody& body = m.bodies[b];
      for (int k = 0; k < body.gv_size; ++k)
        if (!(d.factor_d[body.gv_index + k] > 1e-12 * scale))
          throw_invalid("URDF: the mass matrix is singular at the neutral configuration (all "
                        "joints at 0, identity quaternions: where a robot starts): joint '" +
                        body.joint_name + "' (link '" + body.name + "') can move there with no "
                        "inertia while the joints below it follow (the links it moves have no "
                        "mass or inertia off its axis in that pose, e.g. a point mass hanging on "
                        "it, or a link without mass or inertia over a joint that undoes its "
                        "motion)");
    }
  }

  const RobotSpec& spec_;
  const UrdfOptions& options_;
  std::string base_dir_;
  urdf::WarningLog& log_;
  UrdfReport* report_;
  // by path: the hull's input points, and whether the file was read leniently
  std::map<std::string, std::pair<std::vector<Vec3>, bool>> mesh_points_;
  std::vector<int> collision_link_;   // per model collision, its URDF link
  std::vector<Mat3> link_inertia_;    // per link, its inertia (completed where singular)
  std::map<std::string, int> link_index_;
  std::vector<std::vector<int>> children_;  // joints whose parent is each link, in file order
  std::vector<int> parent_joint_;           // per link, -1 for the root
  std::vector<int> link_body_;              // per link, its body (-1: the world / unused)
  std::vector<Pose> link_placement_;   // per link, its frame in its body's frame
  std::vector<int> body_joint_spec_;        // per body, its URDF joint (-1 for ROOT)
  std::vector<int> order_key_;              // per joint (with a joint_order), compute_order_keys
  std::shared_ptr<ArticulatedModel> model_;
};

}  // namespace

std::shared_ptr<const ArticulatedModel> load_urdf_string(const std::string& xml,
                                                         const UrdfOptions& options,
                                                         const std::string& source_dir,
                                                         UrdfReport* report,
                                                         const std::string& file_label) {
  urdf::WarningLog log;
  const RobotSpec spec = urdf::parse(xml, log);
  auto model = Builder(spec, options, source_dir.empty() ? "." : source_dir, log, report).run();
  if (report) report->warnings = log.messages(file_label.empty() ? "<URDF string>" : file_label);
  return model;
}

std::shared_ptr<const ArticulatedModel> load_urdf_file(const std::string& path,
                                                       const UrdfOptions& options,
                                                       UrdfReport* report) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_invalid("cannot open URDF file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  const fs::path dir = fs::absolute(fs::path(path)).parent_path();
  return load_urdf_string(text.str(), options, dir.string(), report, path);
}

}  // namespace torsion
