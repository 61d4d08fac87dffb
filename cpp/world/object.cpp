#include "world/object.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/check.hpp"
#include "geometry/mass_properties.hpp"
#include "math/unit_vector.hpp"
#include "world/collision_shapes.hpp"

namespace torsion {

const char* object_type_name(ObjectType type) {
  switch (type) {
    case ObjectType::kSphere: return "Sphere";
    case ObjectType::kBox: return "Box";
    case ObjectType::kCylinder: return "Cylinder";
    case ObjectType::kCapsule: return "Capsule";
    case ObjectType::kGround: return "Ground";
    case ObjectType::kHeightMap: return "HeightMap";
    case ObjectType::kMesh: return "Mesh";
    case ObjectType::kCompound: return "Compound";
    case ObjectType::kArticulatedSystem: return "ArticulatedSystem";
  }
  return "Object";
}

void Object::require_between_steps(const char* what) const {
  // the step's contacts (their points, frames and Delassus blocks) and a robot's dynamics terms
  // were built for the state before; changed now, integrate2() would solve the old contacts on
  // the new state (a box moved up 0.4 m stayed held by the ground's stale contact)
  if (world_mid_step_ != nullptr && *world_mid_step_)
    throw std::logic_error(std::string(what) +
                           " is not allowed between integrate1() and integrate2()");
}

void Object::request_wake_if_needed() {
  if (wake_requested_) return;
  // what stage_sleep_wake_requests (sleeping.cpp) does with the request: a node or a kinematic
  // body wakes its own sleeping island (it has none unless it slept as a dynamic body); a static
  // body wakes every island and restarts every quiet count, which changes nothing while no
  // object sleeps or counts
  const bool is_static =
      type_ != ObjectType::kArticulatedSystem &&
      static_cast<const SingleBodyObject*>(this)->body().type == BodyType::kStatic;
  if (!is_static) {
    wake_requested_ = island_ != kNoIsland;
    return;
  }
  if (world_objects_ == nullptr) {
    wake_requested_ = true;
    return;
  }
  for (const auto& o : *world_objects_)
    if (o->sleeping_ || o->quiet_steps_ != 0 || o->island_ != kNoIsland) {
      wake_requested_ = true;
      return;
    }
}

void Object::collision_shapes_changed() {
  if (world_shapes_ != nullptr) world_shapes_->refresh(*this);
}

void SingleBodyObject::append_collision_shapes(std::vector<CollisionShapeEntry>& out) const {
  // one shape at the body frame, or each child (compounds, convex decompositions) at its pose in
  // the body frame with its own material; local index = child index. Group and mask are the
  // body's.
  const std::size_t n = shape_count();
  for (std::size_t c = 0; c < n; ++c) {
    CollisionShapeEntry& e = out.emplace_back();
    e.object = const_cast<SingleBodyObject*>(this);
    e.local_index = static_cast<std::uint32_t>(c);
    e.source_index = static_cast<std::uint32_t>(c);
    e.filter = &collision_;
    e.body = &body_;
    if (children_.empty()) {
      e.shape = &shape_;
      e.material = &collision_.material;
      e.pose = pose_at_body_frame;
    } else {
      e.shape = &children_[c].shape;
      e.material = &children_[c].material;
      e.offset = &children_[c].pose;
      e.pose = pose_in_body_frame;
    }
  }
}

SingleBodyObject::SingleBodyObject(ObjectId id, ObjectType type, const Shape& shape, double mass)
    : Object(id, type), shape_(shape) {
  if (is_terrain()) {
    body_.type = BodyType::kStatic;
    body_.mass = 0.0;
    body_.inertia_b.setZero();
    // a heightmap's pose is set by World::add_height_map (its grid centre)
    body_.position = Vec3(0.0, 0.0, shape.type == ShapeType::kGround ? shape.height : 0.0);
    collision_.group = kStaticCollisionGroup;
  } else {
    check_positive(mass, "mass");
    body_.mass = mass;
    body_.inertia_b = shape_inertia(shape, mass);
  }
  refresh_inverse_mass();
  update_body_kinematics(body_);
}

SingleBodyObject::SingleBodyObject(ObjectId id, ObjectType type, const Shape& shape, double mass,
                                   const Mat3& inertia, std::vector<ChildShape> children)
    : Object(id, type), shape_(shape), children_(std::move(children)) {
  check_positive(mass, "mass");
  body_.mass = mass;
  body_.inertia_b = Mat3::Identity();
  set_inertia(inertia);  // validated: symmetric positive definite
  refresh_inverse_mass();
  update_body_kinematics(body_);
}

void SingleBodyObject::refresh_inverse_mass() {
  if (body_.type == BodyType::kDynamic && body_.mass > 0.0) {
    body_.inv_mass = 1.0 / body_.mass;
    body_.inv_inertia_b = body_.inertia_b.inverse();
  } else {
    body_.inv_mass = 0.0;
    body_.inv_inertia_b.setZero();
  }
}

void SingleBodyObject::require_movable(const char* what) const {
  if (type() == ObjectType::kGround)
    throw_invalid(std::string("the ground is fixed; cannot ") + what +
                  " (add_ground(z_height) sets its height)");
  if (type() == ObjectType::kHeightMap)
    throw_invalid(std::string("a heightmap is fixed; cannot ") + what +
                  " (add_height_map(..., center_x, center_y) places it)");
}

void SingleBodyObject::set_position(const Vec3& p) {
  require_between_steps("set_position");
  mark_modified();
  require_movable("set its position");
  check_finite_vec(p, "position");
  body_.position = p;
}

void SingleBodyObject::set_orientation(const Vec4& q) {
  require_between_steps("set_orientation");
  mark_modified();
  require_movable("set its orientation");
  check_finite_vec(q, "quaternion");
  const Vec4 u = unit_or_throw(q, "quaternion (w, x, y, z)");
  body_.orientation = Quat(u[0], u[1], u[2], u[3]);
  update_body_kinematics(body_);
}

void SingleBodyObject::set_velocity(const Vec3& linear, const Vec3& angular) {
  mark_modified();
  require_movable("set its velocity");
  check_finite_vec(linear, "linear_velocity");
  check_finite_vec(angular, "angular_velocity");
  // a static body's velocity is not integrated, but contacts read it as the surface velocity:
  // one left non-zero carried whatever rested on it (a phantom conveyor belt), and launched the
  // body when it was made dynamic again
  if (body_.type == BodyType::kStatic && (!linear.isZero(0.0) || !angular.isZero(0.0)))
    throw_invalid("a static body never moves: cannot set its velocity to linear [" +
                  fmt(linear.x()) + ", " + fmt(linear.y()) + ", " + fmt(linear.z()) +
                  "], angular [" + fmt(angular.x()) + ", " + fmt(angular.y()) + ", " +
                  fmt(angular.z()) + "]; make it KINEMATIC (set_body_type) to move it");
  if (body_.type == BodyType::kStatic) {  // exact zeros, not -0.0: the state hash sees the bits
    body_.linear_velocity.setZero();
    body_.angular_velocity.setZero();
    return;
  }
  body_.linear_velocity = linear;
  body_.angular_velocity = angular;
}

void SingleBodyObject::set_external_force(const Vec3& f) {
  mark_modified();
  check_finite_vec(f, "force");
  body_.external_force += f;
}

void SingleBodyObject::set_external_force_at(const Vec3& f, const Vec3& point_w) {
  mark_modified();
  check_finite_vec(f, "force");
  check_finite_vec(point_w, "point");
  body_.external_force += f;
  body_.external_torque += (point_w - body_.position).cross(f);
}

void SingleBodyObject::set_external_torque(const Vec3& t) {
  mark_modified();
  check_finite_vec(t, "torque");
  body_.external_torque += t;
}

void SingleBodyObject::set_mass(double mass) {
  require_between_steps("set_mass");
  mark_modified();
  if (is_terrain()) throw_invalid("the ground and heightmaps are static and have no mass to set");
  check_positive(mass, "mass");
  body_.mass = mass;
  refresh_inverse_mass();
  update_body_kinematics(body_);
}

void SingleBodyObject::set_inertia(const Mat3& inertia) {
  require_between_steps("set_inertia");
  mark_modified();
  if (is_terrain())
    throw_invalid("the ground and heightmaps are static and have no inertia to set");
  check_finite_vec(inertia.reshaped(), "inertia");
  if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() >
      1e-9 * (1.0 + inertia.cwiseAbs().maxCoeff()))
    throw_invalid("inertia must be a symmetric 3x3 matrix");
  const Mat3 sym = 0.5 * (inertia + inertia.transpose());
  Eigen::LLT<Mat3> llt(sym);
  if (llt.info() != Eigen::Success || !(sym.diagonal().minCoeff() > 0.0))
    throw_invalid("inertia must be positive definite");
  // a rigid body's principal moments satisfy the triangle inequality (I1 + I2 >= I3: equality
  // for a flat plate); one that breaks it has no mass distribution (MuJoCo refuses it too). The
  // tolerance admits a plate's inertia rounded, or computed in single precision.
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(sym, Eigen::EigenvaluesOnly)
                           .eigenvalues();  // ascending
  if (moments[0] + moments[1] < moments[2] * (1.0 - 1e-6))
    throw_invalid("inertia must have principal moments that satisfy the triangle inequality "
                  "(I1 + I2 >= I3) of a real mass distribution, got " + fmt(moments[0]) + ", " +
                  fmt(moments[1]) + ", " + fmt(moments[2]));
  // the smallest principal moment must be a normal double (a subnormal one, like 3e-316, has
  // an infinite inverse) and at least 1e-12 of the largest: beyond that condition the inverse
  // inertia the solver uses has no correct digit left in a world-frame rotation (a thin rod of
  // radius/length 1e-4 is at 6e-8)
  if (!(moments[0] >= std::numeric_limits<double>::min()) || moments[0] < 1e-12 * moments[2])
    throw_invalid("inertia must have principal moments that are normal numbers and at least "
                  "1e-12 times the largest, got " + fmt(moments[0]) + ", " + fmt(moments[1]) +
                  ", " + fmt(moments[2]));
  body_.inertia_b = sym;
  refresh_inverse_mass();
  update_body_kinematics(body_);
}

void SingleBodyObject::set_body_type(BodyType type) {
  require_between_steps("set_body_type");
  mark_modified();
  if (is_terrain() && type != BodyType::kStatic)
    throw_invalid("the ground and heightmaps are always static");
  body_.type = type;
  request_wake_if_needed();  // as a static body it may need a request it did not need before
  // a static body never moves (see set_velocity): the velocity it had as a kinematic or dynamic
  // body would drive what rests on it, and come back if it were made dynamic again
  if (type == BodyType::kStatic) {
    body_.linear_velocity.setZero();
    body_.angular_velocity.setZero();
  }
  refresh_inverse_mass();
  update_body_kinematics(body_);
}

void SingleBodyObject::set_linear_damping(double c) {
  mark_modified();
  check_non_negative(c, "linear_damping");
  body_.linear_damping = c;
}

void SingleBodyObject::set_angular_damping(const Vec3& c) {
  mark_modified();
  for (int k = 0; k < 3; ++k) check_non_negative(c[k], "angular_damping");
  body_.angular_damping = c;
}

}  // namespace torsion
