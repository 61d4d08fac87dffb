#include "collision/collision_detection.hpp"

#include <chrono>
#include <string>

#include "collision/narrow_phase.hpp"
#include "core/check.hpp"

namespace torsion {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// an unbounded ground pairs with every body in the broad phase: skip a body whose world AABB
// (margins included) lies wholly above the ground's plane
bool clear_of_ground(const CollisionBody& a, bool a_bounded, const Aabb& a_box,
                     const CollisionBody& b, bool b_bounded, const Aabb& b_box) {
  const CollisionBody* ground = nullptr;
  const Aabb* box = nullptr;
  if (a.shape->type == ShapeType::kGround && b_bounded) ground = &a, box = &b_box;
  else if (b.shape->type == ShapeType::kGround && a_bounded) ground = &b, box = &a_box;
  if (ground == nullptr) return false;
  const Vec3 n = ground->pose.rotation.col(2);
  const Vec3 centre = 0.5 * (box->min + box->max);
  const Vec3 half = 0.5 * (box->max - box->min);
  return n.dot(centre) - n.cwiseAbs().dot(half) > n.dot(ground->pose.position);
}

}  // namespace

void detect_collisions(CollisionData& data) {
  const bool timed = data.counters_enabled;
  CollisionCounters counters;
  const Clock::time_point t_start = timed ? Clock::now() : Clock::time_point();
  data.contacts.clear();
  const std::size_t n = data.bodies.size();
  counters.collision_bodies = n;

  // world AABBs
  Clock::time_point t0 = t_start;
  data.aabbs.resize(n);
  data.bounded.resize(n);
  data.reach.resize(n);
  data.exclusion.resize(n);
  // the narrow phase reports pairs up to kMarginRoundOff apart (collide_shapes): the boxes must
  // reach that far too, or a box placed exactly on another (a gap of a few ulp) gets no contact
  const double margin =
      data.broadphase_settings.aabb_margin + data.contact_settings.margin + kMarginRoundOff;
  for (std::size_t i = 0; i < n; ++i) {
    const CollisionBody& b = data.bodies[i];
    data.bounded[i] = shape_is_bounded(*b.shape) ? 1 : 0;
    // collision_filter_allows refuses two bodies of one object unless both self-collide
    data.exclusion[i] = b.self_collision ? 0 : b.object_index + 1;
    data.reach[i] = 0.0;
    if (!data.bounded[i]) continue;
    Aabb& box = data.aabbs[i];
    box = shape_aabb(*b.shape, b.pose, margin);
    if (b.move_linear > 0.0 || b.move_angular > 0.0) {
      // every point of the box is within |centre - com| + |half diagonal| of com (the margin
      // included: a slight overestimate)
      const Vec3 half = 0.5 * (box.max - box.min);
      const double radius = (0.5 * (box.max + box.min) - b.com).norm() + half.norm();
      // a body moving less than kMinReach in the step is left to the margin and the position
      // pass: at dt = 0.02 the slight reach of a settling stack of cylinders changed which rim
      // points its manifolds kept, and the stack drifted 0.8 mm in 3 s (0.16 mm without)
      constexpr double kMinReach = 5e-4;  // m
      const double reach = b.move_linear + b.move_angular * radius;
      if (reach < kMinReach) continue;
      data.reach[i] = reach;
      box.min.array() -= reach;
      box.max.array() += reach;
    }
  }
  if (timed) counters.time_aabb = seconds_since(t0), t0 = Clock::now();

  // broad phase
  data.broad_phase.find_pairs(data.aabbs, data.bounded, data.exclusion, data.broadphase_settings,
                              data.pairs);
  counters.broadphase_pairs = data.pairs.size();
  if (timed) counters.time_broadphase = seconds_since(t0), t0 = Clock::now();

  // filters and narrow phase
  ContactSettings speculative = data.contact_settings;
  for (const BodyPair& pr : data.pairs) {
    const CollisionBody& a = data.bodies[pr.a];
    const CollisionBody& b = data.bodies[pr.b];
    if (!collision_filter_allows(a, b) || !shapes_can_collide(a.shape->type, b.shape->type))
      continue;
    ++counters.narrowphase_pairs;
    // the ground routines' early out: a body wholly above the plane touches nothing
    if (clear_of_ground(a, data.bounded[pr.a], data.aabbs[pr.a], b, data.bounded[pr.b],
                        data.aabbs[pr.b]))
      continue;
    // a moving pair is reported as far apart as its bodies can close in this step (reach)
    const double reach = data.reach[pr.a] + data.reach[pr.b];
    if (reach > 0.0) {
      speculative.margin = data.contact_settings.margin + reach;
    }
    const int count = collide_shapes(*a.shape, a.pose, *b.shape, b.pose,
                                     reach > 0.0 ? speculative : data.contact_settings,
                                     data.manifold);
    if (count == 0) continue;
    ++counters.colliding_pairs;
    for (int k = 0; k < count; ++k) {
      const ManifoldPoint& p = data.manifold.points[k];
      Contact c;
      c.position = p.position;
      c.normal = p.normal;
      c.depth = p.depth;
      c.object_a = a.object_index;
      c.object_b = b.object_index;
      c.local_a = a.local_index;
      c.local_b = b.local_index;
      c.feature = p.feature;
      data.contacts.push_back(c);
    }
  }
  counters.contacts = data.contacts.size();
  if (timed) {
    counters.time_narrowphase = seconds_since(t0);
    counters.time_total = seconds_since(t_start);
  }
  data.counters = counters;
}

void check_contact_settings(const ContactSettings& s) {
  check_non_negative(s.margin, "margin");
  if (s.max_points_per_pair < 1 || s.max_points_per_pair > 8)
    throw_invalid("max_points_per_pair must be in [1, 8], got " +
                  std::to_string(s.max_points_per_pair));
  if (!std::isfinite(s.flat_tolerance) || s.flat_tolerance < 0.0 || s.flat_tolerance > 0.5)
    throw_invalid("flat_tolerance must be in [0, 0.5] rad, got " + fmt(s.flat_tolerance));
  if (s.gjk_max_iterations < 1 || s.gjk_max_iterations > 1000)
    throw_invalid("gjk_max_iterations must be in [1, 1000], got " +
                  std::to_string(s.gjk_max_iterations));
  if (s.epa_max_iterations < 1 || s.epa_max_iterations > 100)
    throw_invalid("epa_max_iterations must be in [1, 100], got " +
                  std::to_string(s.epa_max_iterations));
  check_positive(s.epa_tolerance, "epa_tolerance");
}

void check_broadphase_settings(const BroadphaseSettings& s) {
  check_non_negative(s.aabb_margin, "aabb_margin");
  if (s.sweep_axis < -1 || s.sweep_axis > 2)
    throw_invalid("sweep_axis must be -1 (automatic), 0, 1 or 2, got " +
                  std::to_string(s.sweep_axis));
}

}  // namespace torsion
