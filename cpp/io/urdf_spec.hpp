// The content of a URDF file, as parsed (no semantics applied yet): the interface between
// urdf_parse.cpp and urdf_build.cpp.
#pragma once

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
};

struct ShapeSpec {
  std::string name;
  Placement origin;
  Geometry geometry;
  std::string material;
  Vec4 rgba = Vec4(0.7, 0.7, 0.7, 1.0);
  int line = 0;
};

struct LinkSpec {
  std::string name;
  int line = 0;
  double mass = 0.0;                // kg (0 without <inertial>)
  Placement inertial_origin;        // inertia frame in the link frame
  Mat3 inertia = Mat3::Zero();      // about the COM, in the inertia frame
  std::vector<ShapeSpec> visuals, collisions;
};

struct JointSpec {
  std::string name, type, parent, child;
  int line = 0;
  Placement origin;
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

// XML text -> RobotSpec (std::invalid_argument naming the element and line on malformed input)
RobotSpec parse(const std::string& xml);

// URDF roll-pitch-yaw (fixed axes x, y, z) -> rotation matrix Rz(yaw) Ry(pitch) Rx(roll)
Mat3 rpy_to_matrix(double roll, double pitch, double yaw);

}  // namespace torsion::urdf
