// The content of a URDF file, as parsed (no semantics applied yet): the interface between
// urdf_parse.cpp and urdf_build.cpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "dynamics/articulated/model.hpp"

namespace torsion::urdf {

struct Geometry {
  VisualBody::Kind kind = VisualBody::Kind::kBox;
  Vec3 size = Vec3::Zero();  // box lengths (m)
  double radius = 0.0;       // sphere, cylinder, capsule (m)
  double length = 0.0;       // cylinder, capsule (m)
  std::string mesh;          // filename as written
  Vec3 scale = Vec3::Ones();
  bool plane = false;        // PyBullet's <plane normal="..."/>: a half-space (kind unused)
  Vec3 normal = Vec3::UnitZ();
};

struct ShapeSpec {
  std::string name;
  Pose origin;
  Geometry geometry;
  std::string material;
  Vec4 rgba = Vec4(0.7, 0.7, 0.7, 1.0);
  int line = 0;
};

struct LinkSpec {
  std::string name;
  int line = 0;
  double mass = 0.0;                // kg (0 without <inertial>)
  Pose inertial_origin;        // inertia frame in the link frame
  Mat3 inertia = Mat3::Zero();      // about the COM, in the inertia frame
  bool has_inertial = false;
  double inertia_scaling = 1.0;     // PyBullet's <contact><inertia_scaling value=.../>
  std::vector<ShapeSpec> visuals, collisions;
};

struct JointSpec {
  std::string name, type, parent, child;
  int line = 0;
  Pose origin;
  Vec3 axis = Vec3::UnitX();  // URDF default
  bool has_position_limits = false;
  double lower = 0.0, upper = 0.0;
  double effort = kNoLimit, velocity = kNoLimit;
  double damping = 0.0, friction = 0.0;
  bool has_mimic = false;  // <mimic joint= multiplier= offset=>: q = multiplier q_joint + offset
  std::string mimic_joint;
  double mimic_multiplier = 1.0, mimic_offset = 0.0;
  int mimic_line = 0;
};

struct RobotSpec {
  std::string name;
  std::vector<LinkSpec> links;
  std::vector<JointSpec> joints;
};

// The tolerances applied while reading a file (what was assumed), each kind reported once: the
// first occurrence with its line, and how many more of the same kind followed.
class WarningLog {
 public:
  void add(const std::string& kind, int line, const std::string& text);
  // "<file>, line <n>: <text>" per kind, in the order the kinds first occurred
  std::vector<std::string> messages(const std::string& file) const;

 private:
  struct Entry {
    int line = 0;
    std::string text;
    int more = 0;
  };
  std::vector<std::string> order_;
  std::map<std::string, Entry> by_kind_;
};

// XML text -> RobotSpec (std::invalid_argument naming the element and line on malformed input;
// the tolerated departures from the URDF format go to `log`)
RobotSpec parse(const std::string& xml, WarningLog& log);

// URDF roll-pitch-yaw (fixed axes x, y, z) -> rotation matrix Rz(yaw) Ry(pitch) Rx(roll)
Mat3 rpy_to_matrix(double roll, double pitch, double yaw);

}  // namespace torsion::urdf
