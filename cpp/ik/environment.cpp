// Objects, the parent hierarchy and object poses of an IK environment.
#include "ik/environment.hpp"

#include <stdexcept>

#include "core/check.hpp"
#include "core/errors.hpp"
#include "math/unit_vector.hpp"

namespace torsion::ik {

namespace {

[[noreturn]] void bad_handle(const char* what, int handle) {
  throw std::invalid_argument(std::string("invalid ") + what + " handle: " +
                              std::to_string(handle));
}

// a handle that names no object: erased, or never given out
[[noreturn]] void dead_object(int handle) {
  throw RemovedObjectError("invalid object handle: " + std::to_string(handle) +
                           " (no such object in this IK environment: erased or never created)");
}

}  // namespace

int Environment::slot(int handle) const {
  if (handle < 0 || handle >= static_cast<int>(slot_of_handle_.size())) return -1;
  return slot_of_handle_[handle];
}

void Environment::rebuild_slots() {
  touch();
  slot_of_handle_.assign(static_cast<size_t>(next_object_handle_), -1);
  for (size_t i = 0; i < objects_.size(); ++i) slot_of_handle_[objects_[i].handle] = int(i);
}

const Object& Environment::object(int handle) const {
  const int s = slot(handle);
  if (s < 0) dead_object(handle);
  return objects_[s];
}

Object& Environment::object_mut(int handle) {
  const int s = slot(handle);
  if (s < 0) dead_object(handle);
  return objects_[s];
}

// the handle the next created object gets, if the cap leaves one (load() admits a next handle
// up to kMaxObjectHandle + 1, so a loaded file may leave none)
static void check_handle_left(int next) {
  if (next > kMaxObjectHandle)
    throw std::runtime_error("cannot create another object: object handles are capped at " +
                             std::to_string(kMaxObjectHandle) + " and the next one would be " +
                             std::to_string(next));
}

int Environment::create_dummy(const std::string& name) {
  check_name(name, "name");
  check_handle_left(next_object_handle_);
  Object o;
  o.handle = next_object_handle_++;
  o.type = kObjectTypeDummy;
  o.name = name.empty() ? "dummy" + std::to_string(o.handle) : name;
  if (does_object_exist(o.name))
    throw std::invalid_argument("invalid object name: '" + o.name + "' already exists");
  objects_.push_back(o);
  rebuild_slots();
  return o.handle;
}

int Environment::create_joint(const std::string& name, int joint_type) {
  check_name(name, "name");
  if (joint_type != kJointTypeRevolute && joint_type != kJointTypePrismatic &&
      joint_type != kJointTypeSpherical)
    throw std::invalid_argument(
        "invalid joint type: joint_type must be revolute (10), prismatic (11) or spherical (12), "
        "got " + std::to_string(joint_type));
  check_handle_left(next_object_handle_);
  Object o;
  o.handle = next_object_handle_;
  o.type = kObjectTypeJoint;
  o.name = name.empty() ? "joint" + std::to_string(o.handle) : name;
  if (does_object_exist(o.name))
    throw std::invalid_argument("invalid object name: '" + o.name + "' already exists");
  ++next_object_handle_;
  JointData& j = o.joint;
  j.type = joint_type;
  if (joint_type == kJointTypePrismatic) {
    j.cyclic = false;
    j.min = -0.5;
    j.range = 1.0;
    j.max_step = 0.1;
    j.limit_margin = 0.01;
  } else if (joint_type == kJointTypeSpherical) {
    j.cyclic = false;
    j.min = 0.0;
    j.range = kPi;
  }
  objects_.push_back(o);
  rebuild_slots();
  return o.handle;
}

void Environment::erase_object(int handle) {
  const Object gone = object(handle);
  // children keep their world pose and move to the erased object's parent
  for (Object& o : objects_)
    if (o.parent == handle) {
      const Pose world = object_pose(o.handle, kHandleWorld);
      o.parent = gone.parent;
      o.local = (gone.parent < 0 ? Pose() : full_pose(gone.parent)).inverse() * world;
    }
  for (Object& o : objects_) {
    if (o.linked_dummy == handle) o.linked_dummy = -1;
    if (o.type == kObjectTypeJoint && o.joint.master == handle) o.joint.master = -1;
  }
  // elements that use the object are removed; bases fall back to the world
  for (Group& g : groups_) {
    std::vector<Element> kept;
    for (Element e : g.elements) {
      if (e.tip == handle) continue;
      if (e.base == handle) e.base = -1;
      if (e.constraints_base == handle) e.constraints_base = -1;
      kept.push_back(e);
    }
    g.elements = kept;
    g.jacobian_valid = false;
  }
  objects_.erase(objects_.begin() + slot(handle));
  rebuild_slots();
}

bool Environment::does_object_exist(const std::string& name) const {
  for (const Object& o : objects_)
    if (o.name == name) return true;
  return false;
}

int Environment::object_handle(const std::string& name) const {
  for (const Object& o : objects_)
    if (o.name == name) return o.handle;
  throw std::invalid_argument("invalid object name: no object named '" + name + "'");
}

bool Environment::is_ancestor(int ancestor, int handle) const {
  int h = object(handle).parent;
  for (size_t guard = 0; h >= 0 && guard <= objects_.size(); ++guard) {
    if (h == ancestor) return true;
    h = objects_[slot(h)].parent;
  }
  return false;
}

void Environment::set_object_parent(int handle, int parent, bool keep_in_place) {
  object(handle);
  if (parent != -1) {
    object(parent);
    if (parent == handle || is_ancestor(handle, parent))
      throw std::invalid_argument("invalid parent: object " + std::to_string(parent) +
                                  " is object " + std::to_string(handle) +
                                  " or one of its descendants (the hierarchy would have a cycle)");
  }
  const Pose world = object_pose(handle, kHandleWorld);
  Object& o = object_mut(handle);
  o.parent = parent;
  if (keep_in_place) o.local = (parent < 0 ? Pose() : full_pose(parent)).inverse() * world;
  for (Group& g : groups_) g.jacobian_valid = false;
  touch();
}

Pose Environment::joint_intrinsic(int handle) const {
  const Object& o = object(handle);
  return o.type == kObjectTypeJoint ? intrinsic(o.joint) : Pose();
}

Pose Environment::full_pose(int handle) const {
  // walk up to the root, then compose down; depth is bounded by the object count
  Pose p = object(handle).local * joint_intrinsic(handle);
  int h = object(handle).parent;
  while (h >= 0) {
    const Object& o = objects_[slot(h)];
    p = o.local * joint_intrinsic(h) * p;
    h = o.parent;
  }
  return p;
}

Pose Environment::object_pose(int handle, int relative_to) const {
  const Object& o = object(handle);
  if (relative_to == kHandleParent) return o.local;
  const Pose world = (o.parent < 0 ? Pose() : full_pose(o.parent)) * o.local;
  if (relative_to == kHandleWorld) return world;
  return full_pose(relative_to).inverse() * world;
}

void Environment::set_object_pose(int handle, int relative_to, const Pose& pose) {
  const Object& o = object(handle);
  check_finite_vec(pose.p, "position");
  check_finite_vec(pose.q.coeffs(), "quaternion");
  const Vec4 u = unit_or_throw(Vec4(pose.q.w(), pose.q.x(), pose.q.y(), pose.q.z()),
                               "quaternion (w, x, y, z)");
  Pose p(Quat(u[0], u[1], u[2], u[3]), pose.p);
  Pose local;
  if (relative_to == kHandleParent) {
    local = p;
  } else {
    const Pose ref = relative_to == kHandleWorld ? Pose() : full_pose(relative_to);
    const Pose parent = o.parent < 0 ? Pose() : full_pose(o.parent);
    local = parent.inverse() * ref * p;
  }
  object_mut(handle).local = local;
  ++pose_version_;
}

int Environment::linked_dummy(int dummy) const {
  const Object& o = object(dummy);
  if (o.type != kObjectTypeDummy) bad_handle("dummy", dummy);
  return o.linked_dummy;
}

void Environment::set_linked_dummy(int dummy, int linked) {
  if (object(dummy).type != kObjectTypeDummy) bad_handle("dummy", dummy);
  if (linked != -1 && object(linked).type != kObjectTypeDummy) bad_handle("dummy", linked);
  if (linked == dummy) throw std::invalid_argument("a dummy cannot be linked to itself");
  const int old = object(dummy).linked_dummy;
  if (old >= 0) object_mut(old).linked_dummy = -1;
  if (linked >= 0) {
    const int other_old = object(linked).linked_dummy;
    if (other_old >= 0) object_mut(other_old).linked_dummy = -1;
    object_mut(linked).linked_dummy = dummy;
  }
  object_mut(dummy).linked_dummy = linked;
  touch();
}

}  // namespace torsion::ik
