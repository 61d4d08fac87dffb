#include "world/collision_shapes.hpp"

#include <algorithm>

#include "core/assert.hpp"
#include "dynamics/rigid_body.hpp"
#include "world/articulated_system.hpp"
#include "world/object.hpp"

namespace torsion {

void pose_at_body_frame(const CollisionShapeEntry& e, Pose& out) {
  out.position = e.body->position;
  out.rotation = e.body->rotation;
}

void pose_in_body_frame(const CollisionShapeEntry& e, Pose& out) {
  const RigidBody& b = *e.body;
  out.position = b.position + b.rotation * e.offset->position;
  out.rotation = b.rotation * e.offset->rotation;
}

void pose_on_link(const CollisionShapeEntry& e, Pose& out) {
  e.system->collision_pose(e.source_index, out);
}

void CollisionShapeList::add(const Object& obj) {
  TORSION_ASSERT(obj.index_in_world() == object_count());
  const std::size_t first = entries_.size();
  obj.append_collision_shapes(entries_);
  for (std::size_t k = first; k < entries_.size(); ++k)
    entries_[k].object_index = static_cast<std::uint32_t>(obj.index_in_world());
  begin_.push_back(entries_.size());
}

void CollisionShapeList::remove(std::size_t index, std::size_t last) {
  TORSION_ASSERT(index <= last && last + 1 == object_count());
  const std::size_t b = begin_[index], e = begin_[index + 1];
  const std::size_t moved = begin_[last + 1] - begin_[last];  // the last object's entry count
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(b),
                 entries_.begin() + static_cast<std::ptrdiff_t>(e));
  if (index != last) {
    // the last object's entries (now the tail) take the removed object's place
    std::rotate(entries_.begin() + static_cast<std::ptrdiff_t>(b),
                entries_.end() - static_cast<std::ptrdiff_t>(moved), entries_.end());
    for (std::size_t k = b; k < b + moved; ++k)
      entries_[k].object_index = static_cast<std::uint32_t>(index);
    // the offsets after the slot shift by the difference of the two objects' counts
    for (std::size_t i = index + 1; i < last; ++i)
      begin_[i] = begin_[i] + moved - (e - b);
  }
  begin_.pop_back();
  begin_.back() = entries_.size();
}

void CollisionShapeList::refresh(const Object& obj) {
  const std::size_t i = obj.index_in_world();
  TORSION_ASSERT(i < object_count());
  scratch_.clear();
  obj.append_collision_shapes(scratch_);
  for (CollisionShapeEntry& s : scratch_) s.object_index = static_cast<std::uint32_t>(i);
  const std::size_t b = begin_[i], e = begin_[i + 1];
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(b),
                 entries_.begin() + static_cast<std::ptrdiff_t>(e));
  entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(b), scratch_.begin(),
                  scratch_.end());
  for (std::size_t j = i + 1; j < begin_.size(); ++j) begin_[j] = begin_[j] - (e - b) + scratch_.size();
}

void CollisionShapeList::clear() {
  entries_.clear();
  begin_.assign(1, 0);
}

}  // namespace torsion
