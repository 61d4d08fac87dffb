// The collision-detection stage of a step: collision bodies in, contacts out.
//
//   world AABBs -> broad phase (sweep and prune, sorted pairs) -> filters -> narrow phase
//   (the dispatch table) -> Contact records
//
// The World fills `bodies` (one entry per collision body of every object, see step.cpp) and
// calls detect_collisions(). Every buffer here is reused from step to step: no allocation once
// the scene's size is steady.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/broad_phase.hpp"
#include "collision/contact.hpp"
#include "collision/manifold.hpp"
#include "collision/settings.hpp"
#include "core/ids.hpp"
#include "geometry/aabb.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

struct CollisionBody {
  const Shape* shape = nullptr;  // owned by the object
  Pose pose;                     // world pose of the shape
  std::uint32_t object_index = 0;  // world index of the owning object
  std::uint32_t local_index = 0;   // body index within the object (0 for single bodies)
  CollisionGroup group = 1;
  CollisionGroup mask = kAllGroups;
  bool is_static = false;  // static bodies never collide with static bodies
  // articulated systems: may this body touch other bodies of its own object (self-collision)?
  bool self_collision = false;
  // local index of the body it must not touch (its parent, with do_not_collide_with_parent);
  // -1 for none
  std::int32_t excluded_local = -1;
  // how far its body may move in this step (speculative contacts): its centre of mass by up to
  // move_linear (m) and its orientation by up to move_angular (rad) about the point com (world).
  // detect_collisions turns them into the reach of the shape (the farthest any of its points may
  // move: move_linear + move_angular * the largest distance from com to its bounding box) and
  // reports the body's pairs up to margin + reach_a + reach_b apart, so that a fast body meets
  // its obstacle's contact the step before it would sink into it, and the solver stops it at the
  // surface (an approach of at most gap / dt). Zero for static, sleeping and robot bodies
  double move_linear = 0.0;
  double move_angular = 0.0;
  Vec3 com = Vec3::Zero();
  // the same motion as vectors: velocity times dt and angular velocity times dt (world), with
  // which the narrow phase ranks a moving pair's candidate points (PairMotion)
  Vec3 step_linear = Vec3::Zero();
  Vec3 step_angular = Vec3::Zero();
};

// the filter rule (DESIGN.md): (a.group & b.mask) && (b.group & a.mask), and never two static
// bodies. Two bodies of the same object collide only when both allow self-collision, they are
// different bodies (shapes of one body never touch each other) and neither is the other's
// excluded parent.
inline bool collision_filter_allows(const CollisionBody& a, const CollisionBody& b) {
  if (a.is_static && b.is_static) return false;
  if (a.object_index == b.object_index) {
    if (!a.self_collision || !b.self_collision || a.local_index == b.local_index) return false;
    if (a.excluded_local == static_cast<std::int32_t>(b.local_index) ||
        b.excluded_local == static_cast<std::int32_t>(a.local_index))
      return false;
  }
  return (a.group & b.mask) != 0 && (b.group & a.mask) != 0;
}

struct CollisionData {
  ContactSettings contact_settings;
  BroadphaseSettings broadphase_settings;
  bool counters_enabled = false;
  CollisionCounters counters;  // of the last detection
  std::vector<Contact> contacts;  // of the last integrate1(), in pair order

  // filled by the world before detect_collisions(); scratch after it
  std::vector<CollisionBody> bodies;
  std::vector<Aabb> aabbs;
  std::vector<std::uint8_t> bounded;
  std::vector<double> reach;  // per body: the farthest any point of it may move (see above)
  // per body: its object's index + 1 when it may not touch its own object's bodies (no
  // self-collision: the filter refuses every pair within the object), else 0; the broad phase
  // skips pairs of equal non-zero keys before testing their boxes
  std::vector<std::uint32_t> exclusion;
  std::vector<BodyPair> pairs;
  SweepAndPrune broad_phase;
  Manifold manifold;
};

// runs the whole stage over data.bodies; replaces data.contacts and (always) the counts in
// data.counters, plus its timings when data.counters_enabled
void detect_collisions(CollisionData& data);

// validation of user settings (std::invalid_argument naming the field)
void check_contact_settings(const ContactSettings& s);
void check_broadphase_settings(const BroadphaseSettings& s);

}  // namespace torsion
