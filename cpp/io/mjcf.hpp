// MJCF (MuJoCo's XML) reading: a <mujoco> file -> articulated models (one per moving subtree of
// <worldbody>), static shapes and grounds, which the binding adds to a World.
//
// Tendons (MjcfTendon): <fixed> (joint coef) and <spatial> (sites, sphere and cylinder wrap
// geoms with their sidesite, pulleys) with range / limited, stiffness, damping, springlength,
// frictionloss, armature, and motor, position and velocity actuators on tendons; <equality> tendon and joint constraints as hard
// tendon couplings (MjcfEquality).
// Supported: <include>; <compiler angle eulerseq inertiafromgeom inertiagrouprange autolimits
// meshdir>; <default> classes (nested, inherited), `class` and `childclass`; bodies with pos and
// quat / euler / axisangle / xyaxes / zaxis; joints hinge, slide, ball, free (<freejoint/>) with
// pos, axis, range, limited (true / false / auto with autolimits), damping, armature (added to
// M's diagonal, as MuJoCo), frictionloss, ref (torsion's coordinate is MuJoCo's minus ref); a
// body with several joints becomes a chain of massless bodies, one joint each (MuJoCo applies
// them in order about their own anchors: the same motion); <inertial> (mass, diaginertia or
// fullinertia) or, without one (inertiafromgeom auto) or always (true), the inertia of the
// body's geoms as MuJoCo computes it (density 1000 or mass; sphere, capsule, cylinder, box,
// ellipsoid, with fromto); geoms sphere, capsule, cylinder, box as collision shapes; ellipsoid as
// the convex hull of 16 x 8 points of its surface; plane under <worldbody> as a ground (facing +z)
// or refused; geoms with contype = conaffinity = 0 are not collision shapes (visual only);
// worldbody geoms and jointless bodies become static objects.
//
// Limits of hinge and slide joints are MuJoCo's soft limits (solreflimit, solimplimit:
// ArticulatedModel::limit_softness). contype / conaffinity become per-body groups and masks
// under which the same pairs collide, friction / condim materials with MuJoCo's pair rule, and
// MuJoCo's parent filter ArticulatedModel::collision_parent (MjcfContact; docs/robot_files.md).
// Not supported, a std::invalid_argument naming it unless ignore_unsupported (then a warning and
// the element is ignored): connect and weld equality constraints, flex, skin, sdf geoms, hfield
// files, inline meshes. hfield geoms of the world: height maps (MjcfHeightField). Mesh geoms: OBJ/STL assets, collided as their convex hull, with MuJoCo's mesh
// mass properties (legacy, exact or convex). Loaded with a warning but not simulated yet: contact pairs and excludes, ball joint
// stiffness, ball joint ranges. Ignored: sensors, sites, cameras, lights, assets, visual
// settings.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ids.hpp"
#include "dynamics/articulated/model.hpp"
#include "geometry/height_map.hpp"

namespace torsion {

struct MjcfOptions {
  bool ignore_unsupported = false;
};

// MuJoCo's contact filter and friction of a geom (or of the geoms of one torsion body), and what
// the reader derives from them for torsion: a group and mask under which the same pairs collide
// (MuJoCo: (contype_a & conaffinity_b) || (contype_b & conaffinity_a)) and a material whose
// pairs carry MuJoCo's combined friction (docs/robot_files.md, "Contacts")
struct MjcfContact {
  int contype = 1, conaffinity = 1;
  Vec3 friction = Vec3(1.0, 0.005, 0.0001);  // sliding, torsional (m), rolling (m)
  int condim = 3;
  CollisionGroup group = 1, mask = kAllGroups;
  std::string material = "default";
};

// one pair of the materials an MJCF file made (MuJoCo's friction of a contact between their
// geoms: the larger of each coefficient, the larger condim deciding which apply)
struct MjcfMaterialPair {
  std::string a, b;
  double friction = 1.0, spinning = 0.0, rolling = 0.0;
};

struct MjcfSystem {
  std::shared_ptr<const ArticulatedModel> model;
  std::string name;  // the MJCF body at its root
  VecX gc;           // initial configuration (a free joint's body pose; other joints 0)
  // joint springs of hinge and slide joints, per dof: torque -stiffness (q - springref), with
  // springref in torsion's coordinate (MuJoCo's minus ref); applied by torsion.MjcfModel
  VecX stiffness, springref;
  VecX ref;  // MuJoCo's joint ref per dof (torsion's coordinate is MuJoCo's minus ref)
  std::vector<MjcfContact> body_contact;  // per torsion body (the group, mask and material)
  bool self_collision = false;  // two of its bodies' geoms may touch under MuJoCo's filter
};

struct MjcfStatic {  // a geom of the world (or of a body welded to it)
  std::string name;
  Shape shape;  // sphere, box, cylinder, capsule, convex mesh
  Pose pose;  // in the world
  MjcfContact contact;
};

// an hfield geom of the world (or of a body welded to it), facing +z: torsion's height map, the
// grid's centre at (center_x, center_y); heights already include the geom's z and elevation
struct MjcfHeightField {
  std::string name;
  std::shared_ptr<const HeightMapData> data;
  double center_x = 0.0, center_y = 0.0;
  MjcfContact contact;
};

struct MjcfGround {  // a plane facing +z
  double height = 0.0;
  MjcfContact contact;  // torsion's ground has the static group: its mask and material apply
};

// an <actuator> on a joint: motor (force = gear ctrl), position (kp (ctrl - q) - kv qdot) or
// velocity (kv (ctrl - qdot)), each then clamped to forcerange when forcelimited
struct MjcfActuator {
  std::string name, type, joint;
  int system = -1;  // index into MjcfResult::systems
  int dof = -1;     // its gv index in that system
  int tendon = -1;  // on a tendon: index into MjcfResult::tendons (system, dof unused)
  double gear = 1.0, kp = 0.0, kv = 0.0;
  bool ctrl_limited = false, force_limited = false;
  double ctrl_lower = 0.0, ctrl_upper = 0.0, force_lower = 0.0, force_upper = 0.0;
};

// a point of the model: on a body of a system (system >= 0: its index in MjcfResult::systems,
// body: the torsion body, position in its frame) or fixed in the world (system -1, world frame)
struct MjcfPoint {
  int system = -1;
  int body = 0;
  Vec3 position = Vec3::Zero();
};

// an element of a spatial tendon's path (MuJoCo's <site>, <geom> with its sidesite, <pulley>)
struct MjcfTendonElement {
  enum class Kind { kSite, kSphere, kCylinder, kPulley } kind = Kind::kSite;
  MjcfPoint point;            // the site, or the wrap geom's centre
  Vec3 axis = Vec3::UnitZ();  // cylinder: its axis in the same frame as the point
  double radius = 0.0;
  bool has_side = false;
  Vec3 side = Vec3::Zero();  // the sidesite, in the geom's body frame (or the world)
  // a sidesite on another body than the geom's: its point there (side unused)
  bool side_elsewhere = false;
  MjcfPoint side_point;
  double divisor = 1.0;      // pulley
};

// a <tendon><fixed> or <spatial>, in torsion's terms (world/tendons.hpp): lengths in torsion's
// joint coordinates (MuJoCo's minus ref: a fixed tendon's range and springlength are shifted by
// sum coef * ref)
struct MjcfTendon {
  std::string name;
  bool spatial = false;
  int system = -1;                                    // fixed: the system of its first joint
  std::vector<std::pair<std::string, double>> joints;  // fixed: (joint, coef)
  std::vector<int> joint_systems;                      // fixed: each joint's system (at most two)
  std::vector<MjcfTendonElement> path;                 // spatial
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  double stiffness = 0.0, damping = 0.0, frictionloss = 0.0, armature = 0.0;
  double spring_length = std::numeric_limits<double>::quiet_NaN();  // NaN: the length at load
  double spring_upper = std::numeric_limits<double>::quiet_NaN();   // a dead band's upper end
};

// an <equality><tendon> or <joint>: MuJoCo's (y - y0) = sum_i polycoef_i (x - x0)^i, y0 and x0
// the lengths (coordinates) at load; a joint equality's joints become two fixed tendons of
// coefficient 1 named "<name>/joint1" and "<name>/joint2" (appended to MjcfResult::tendons)
struct MjcfEquality {
  std::string name;
  int first = -1, second = -1;  // indices into MjcfResult::tendons (second -1: none)
  std::vector<double> polycoef;  // 5 coefficients
};

struct MjcfResult {
  std::vector<MjcfTendon> tendons;  // in the file's order
  std::vector<MjcfEquality> equalities;
  std::vector<MjcfSystem> systems;
  std::vector<MjcfActuator> actuators;  // in MuJoCo's order (the file's)
  std::vector<MjcfStatic> statics;
  std::vector<MjcfGround> grounds;
  std::vector<MjcfHeightField> height_fields;
  std::vector<MjcfMaterialPair> material_pairs;
  std::vector<std::string> warnings;
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  double timestep = 0.002;
  bool has_option = false;
};

MjcfResult load_mjcf_file(const std::string& path, const MjcfOptions& options);

// true if the file's root element is <mujoco> (false when it cannot be read)
bool is_mjcf_file(const std::string& path);

}  // namespace torsion
