// The World's one list of collision shapes: an entry per (object, collision shape), kept in
// world-index order as objects are added and removed. The step's collision detection
// (step.cpp's gather stage), the ray scene (ray_queries.cpp) and the contact materials
// (contact_stages.cpp) all read this list, so "for each collision shape of an object" is written
// once: in each object class's append_collision_shapes (object.hpp), which says what its shapes
// are, how each is posed and which group, mask and material it has.
//
// Adding a new source of shapes (a deformable's or a wire's) means adding entries: its object
// class appends one entry per shape, with a pose function that computes the shape's world pose
// from that object's state. Nothing in the stages that read the list changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

class Object;
class ArticulatedSystem;
struct CollisionProps;
struct RigidBody;
struct CollisionShapeEntry;

// writes the shape's world pose from its object's current kinematics: a single body's position
// and rotation matrix (kept equal to its orientation's), a robot link's forward kinematics
// (valid after the step's articulated_dynamics_terms stage or ensure_kinematics())
using ShapePoseFn = void (*)(const CollisionShapeEntry& entry, Pose& out);

struct CollisionShapeEntry {
  const Shape* shape = nullptr;  // owned by the object (or its robot model)
  Object* object = nullptr;      // the owner
  std::uint32_t object_index = 0;  // the owner's world index (the list follows removals)
  // the local index that contacts, rays and the per-body setters use: 0 for a single shape, the
  // child's index in a compound or convex decomposition, the link's body index in a robot
  std::uint32_t local_index = 0;
  // which of the owner's shapes this is: the child index, the robot model's collision index
  std::uint32_t source_index = 0;
  const CollisionProps* filter = nullptr;  // group and mask
  const std::string* material = nullptr;   // the material name
  // what it moves with: a rigid body (its pose in the body frame is `offset`, nullptr for the
  // body frame itself) or a robot's link (`system`, its body `link`)
  const RigidBody* body = nullptr;
  const Pose* offset = nullptr;
  const ArticulatedSystem* system = nullptr;
  std::int32_t link = -1;
  ShapePoseFn pose = nullptr;

  void world_pose(Pose& out) const { pose(*this, out); }
};

// the pose functions of the shapes torsion has (collision_shapes.cpp)
void pose_at_body_frame(const CollisionShapeEntry& e, Pose& out);  // body pose
void pose_in_body_frame(const CollisionShapeEntry& e, Pose& out);  // body pose * offset
void pose_on_link(const CollisionShapeEntry& e, Pose& out);        // link pose * placement

class CollisionShapeList {
 public:
  const std::vector<CollisionShapeEntry>& entries() const { return entries_; }
  std::size_t size() const { return entries_.size(); }
  // the entries of the object at world index i: [begin(i), end(i))
  std::size_t begin(std::size_t object_index) const { return begin_[object_index]; }
  std::size_t end(std::size_t object_index) const { return begin_[object_index + 1]; }
  std::size_t object_count() const { return begin_.size() - 1; }

  // the object just appended at the end of the world's list
  void add(const Object& obj);
  // the world removed the object at `index` and moved its last object (world index `last`)
  // into that slot (swap-with-last)
  void remove(std::size_t index, std::size_t last);
  // the object's shapes changed (a robot's model was replaced): its entries are made again
  void refresh(const Object& obj);
  void clear();

 private:
  std::vector<CollisionShapeEntry> entries_;
  std::vector<std::size_t> begin_{0};  // per world index, and the end
  std::vector<CollisionShapeEntry> scratch_;
};

}  // namespace torsion
