// Objects owned by a World. Every object has a stable id (never reused in its world), a name and
// a world index (its position in the world's object list, which changes on removal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "core/ids.hpp"
#include "dynamics/rigid_body.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

struct CollisionShapeEntry;
class CollisionShapeList;

// RaiSim's object kinds (the ones torsion has so far)
enum class ObjectType : std::uint8_t {
  kSphere = 0,
  kBox = 1,
  kCylinder = 2,
  kCapsule = 3,
  kGround = 4,
  kHeightMap = 8,           // RaiSim's value
  kMesh = 5,      // RaiSim's value
  kCompound = 7,  // RaiSim's value
  kArticulatedSystem = 9,  // RaiSim's value
};

const char* object_type_name(ObjectType type);

class Object {
 public:
  virtual ~Object() = default;

  ObjectId id() const { return id_; }
  ObjectType type() const { return type_; }
  std::size_t index_in_world() const { return index_; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) {
    check_name(name, "name");
    name_ = std::move(name);
  }
  // sleeping islands (world/sleeping.cpp): true while the world keeps this object at rest
  bool is_sleeping() const { return sleeping_; }
  static constexpr ObjectId kNoIsland = ~ObjectId(0);  // "not in a sleeping island"

  // Its collision shapes, appended to the world's list (world/collision_shapes.hpp) when the
  // object is added: one entry per shape, in local-index order, with what it moves with and the
  // function that poses it. object_index is set by the list.
  virtual void append_collision_shapes(std::vector<CollisionShapeEntry>& out) const = 0;
  // the number of local indices (bodies) the per-body setters accept: 1 for a single shape, the
  // number of children of a compound, the number of bodies of a robot
  virtual std::size_t local_count() const = 0;

 protected:
  Object(ObjectId id, ObjectType type) : id_(id), type_(type) {}
  // every user-facing setter calls this: it advances the owning world's state version, which
  // caches keyed on the world's state (the ray-cast scene) compare against, and wakes the object
  // (its sleeping island wakes at the start of the next step, see world/sleeping.cpp)
  void mark_modified() {
    if (state_version_ != nullptr) ++*state_version_;
    sleeping_ = false;
    quiet_steps_ = 0;
    request_wake_if_needed();
  }
  // std::logic_error (RuntimeError) between integrate1() and integrate2(): for setters of what
  // integrate1() built the step's contacts and dynamics from (pose, mass, inertia, body type)
  void require_between_steps(const char* what) const;
  // The wake request is a bit of the world's state (checkpoints, state_hash): set it only when
  // the next step would act on it, so that worlds in equal states hash equal whatever setters
  // made them (a world file reloads through the setters; exported before the first step, an
  // object no setter touched hashed differently). Called again after a body type change.
  void request_wake_if_needed();
  // the object's collision shapes were replaced (a robot's model): the world's list is updated
  void collision_shapes_changed();

 private:
  friend class World;
  friend struct StateAccess;
  ObjectId id_;
  ObjectType type_;
  std::size_t index_ = 0;
  std::string name_;
  std::uint64_t* state_version_ = nullptr;  // the owning world's counter
  const bool* world_mid_step_ = nullptr;    // the owning world's "between integrate1 and 2"
  const std::vector<std::unique_ptr<Object>>* world_objects_ = nullptr;  // the world's list
  CollisionShapeList* world_shapes_ = nullptr;  // the world's collision shapes
  // sleeping (world/sleeping.cpp)
  bool sleeping_ = false;
  bool wake_requested_ = false;     // modified by the user: wake its island at the next step
  std::uint32_t quiet_steps_ = 0;   // consecutive steps below the velocity thresholds
  ObjectId island_ = kNoIsland;     // while sleeping: the smallest id of its island
};

// collision properties of one collision body
struct CollisionProps {
  CollisionGroup group = 1;
  CollisionGroup mask = kAllGroups;
  std::string material = "default";
};

// one collision shape of a body with several (compounds, convex decompositions), placed in the
// body frame (whose origin is the centre of mass); its local index is its position in the list
struct ChildShape {
  Shape shape;
  Pose pose;
  std::string material = "default";
};

// A single rigid body with one collision shape (sphere, box, cylinder, capsule, convex or
// triangle mesh, the static ground or a heightmap), or with several child shapes (children() non-empty:
// compounds and convex decompositions; shape() is then the first child's shape).
class SingleBodyObject : public Object {
 public:
  SingleBodyObject(ObjectId id, ObjectType type, const Shape& shape, double mass);
  // a body with explicit mass properties (kg; kg m^2 about the centre of mass, body frame) and
  // child shapes (may be empty: then `shape` is the one shape, at the centre of mass)
  SingleBodyObject(ObjectId id, ObjectType type, const Shape& shape, double mass,
                   const Mat3& inertia, std::vector<ChildShape> children);

  const std::vector<ChildShape>& children() const { return children_; }
  std::vector<ChildShape>& children() { return children_; }
  // number of collision shapes = local indices (1 for a single shape)
  std::size_t shape_count() const { return children_.empty() ? 1 : children_.size(); }
  std::size_t local_count() const override { return shape_count(); }
  // its one shape at the body frame, or each child at its pose in the body frame
  void append_collision_shapes(std::vector<CollisionShapeEntry>& out) const override;

  const Shape& shape() const { return shape_; }
  // the ground and heightmaps: static terrain, never moved
  bool is_terrain() const {
    return shape_.type == ShapeType::kGround || shape_.type == ShapeType::kHeightMap;
  }
  RigidBody& body() { return body_; }
  const RigidBody& body() const { return body_; }
  CollisionProps& collision() { return collision_; }
  const CollisionProps& collision() const { return collision_; }

  // validated setters (std::invalid_argument on bad input)
  void set_position(const Vec3& p);
  void set_orientation(const Vec4& wxyz);  // any non-zero norm; normalised
  void set_velocity(const Vec3& linear, const Vec3& angular);
  void set_external_force(const Vec3& f);                          // at the COM, one step
  void set_external_force_at(const Vec3& f, const Vec3& point_w);  // at a world point, one step
  void set_external_torque(const Vec3& t);                         // one step
  void set_mass(double mass);
  void set_inertia(const Mat3& inertia_b);  // symmetric positive definite
  void set_body_type(BodyType type);
  void set_linear_damping(double c);
  void set_angular_damping(const Vec3& c);

 private:
  void refresh_inverse_mass();
  void require_movable(const char* what) const;

  Shape shape_;
  std::vector<ChildShape> children_;
  RigidBody body_;
  CollisionProps collision_;
};

}  // namespace torsion
