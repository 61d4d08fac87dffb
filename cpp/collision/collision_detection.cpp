#include "collision/collision_detection.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "collision/narrow_phase.hpp"
#include "core/check.hpp"
#include "core/cpu_dispatch.hpp"

namespace torsion {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// an unbounded ground pairs with every body in the broad phase: skip a body whose world AABB
// (margins included) lies wholly above the ground's plane (forced inline: a call from the AVX2
// build of detect_collisions is not inlined otherwise)
TORSION_ALWAYS_INLINE bool clear_of_ground(const CollisionBody& a, bool a_bounded, const Aabb& a_box,
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

// A bound on the half extents of shape_aabb's box of a shape about its pose origin, before the
// margin: the largest distance of a point of the shape from that origin; 0 for a shape without
// a cheap bound (its box is then always computed).
inline double bounding_radius(const Shape& s) {
  switch (s.type) {
    case ShapeType::kSphere: return s.radius;
    case ShapeType::kBox: return s.half_extents.norm();
    case ShapeType::kCapsule:
    case ShapeType::kCylinder: return 0.5 * s.height + s.radius;
    default: return 0.0;
  }
}

// A ground's plane for surely_clear_of_ground: its normal n, |n|_1 and n . (a point on it)
struct GroundPlane {
  Vec3 n = Vec3::UnitZ();
  double n_l1 = 1.0, top = 0.0;
  GroundPlane() = default;
  explicit GroundPlane(const CollisionBody& ground)
      : n(ground.pose.rotation.col(2)),
        n_l1(n.cwiseAbs().sum()),
        top(n.dot(ground.pose.position)) {}
};

// True when the box detect_collisions would give body b (shape_aabb with `margin`, grown by its
// reach) surely lies wholly above the ground's plane, which clear_of_ground would then also
// find, from the pose alone. Each half extent of that box is at most E = radius + margin + reach
// about the pose's origin, and the reach is at most move_linear + move_angular (|origin - com| +
// sqrt(3) (radius + margin)); a box of half extents <= E reaches |n|_1 E below its centre along
// the plane's normal n. The slack (1e-9 relative) keeps the rounding of the exact test out of
// the decision: when this says clear, the exact test does too, so results never change; when
// it does not, the caller computes the box and runs the exact test.
inline bool surely_clear_of_ground(const CollisionBody& b, double margin, const GroundPlane& g) {
  const double radius = bounding_radius(*b.shape);
  if (!(radius > 0.0)) return false;
  const Vec3& p = b.pose.position;
  double e = radius + margin;
  if (b.move_linear > 0.0 || b.move_angular > 0.0)
    e += b.move_linear + b.move_angular * ((p - b.com).norm() + std::sqrt(3.0) * e);
  const double centre = g.n.dot(p);
  const double low = centre - g.n_l1 * e;
  const double slack = 1e-9 * (1.0 + std::abs(centre) + e + std::abs(g.top));
  return low - slack > g.top;  // (false for NaN)
}

// (The body of detect_collisions, built twice: core/cpu_dispatch.hpp.)
TORSION_ALWAYS_INLINE void detect_collisions_body(CollisionData& data) {
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
  // the box of body i (and its reach)
  auto compute_box = [&](std::size_t i) {
    const CollisionBody& b = data.bodies[i];
    data.reach[i] = 0.0;
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
      if (reach < kMinReach) return;
      data.reach[i] = reach;
      box.min.array() -= reach;
      box.max.array() += reach;
    }
  };
  // One group: a few bodies (the all-pairs broad phase's size) whose bounded ones all share one
  // non-zero exclusion key (one robot without self-collision, on a ground plane): no two bounded
  // bodies can pair, so the pairs are known without any box, and a box is needed only by the
  // ground test of a link that might be near the ground (computed on first use; the others are
  // skipped from their pose by surely_clear_of_ground). The pairs, their order and every
  // decision are those of the general path.
  std::uint32_t group_key = 0;
  bool one_group = n <= kAllPairsMaxBodies;
  for (std::size_t i = 0; i < n; ++i) {
    const CollisionBody& b = data.bodies[i];
    data.bounded[i] = shape_is_bounded(*b.shape) ? 1 : 0;
    // collision_filter_allows refuses two bodies of one object unless both self-collide
    data.exclusion[i] = b.self_collision ? 0 : b.object_index + 1;
    data.reach[i] = 0.0;
    if (!data.bounded[i]) continue;
    data.reach[i] = -1.0;  // no box yet (compute_box)
    if (group_key == 0) group_key = data.exclusion[i];
    one_group = one_group && data.exclusion[i] != 0 && data.exclusion[i] == group_key;
  }
  if (!one_group)
    for (std::size_t i = 0; i < n; ++i)
      if (data.bounded[i]) compute_box(i);
  if (timed) counters.time_aabb = seconds_since(t0), t0 = Clock::now();

  // broad phase
  if (one_group) {
    // all_pairs' pairs without their box tests (none can fail: no two bounded bodies pair): a
    // bounded body with each unbounded one after it, an unbounded one with every body after it
    // outside its key, in all_pairs' order
    data.pairs.clear();
    std::uint32_t unbounded[kAllPairsMaxBodies];
    std::size_t n_unbounded = 0;
    for (std::uint32_t i = 0; i < n; ++i)
      if (!data.bounded[i]) unbounded[n_unbounded++] = i;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t key = data.exclusion[i];
      if (data.bounded[i]) {
        for (std::size_t k = 0; k < n_unbounded; ++k)
          if (const std::uint32_t u = unbounded[k]; u > i && data.exclusion[u] != key)
            data.pairs.push_back({i, u});
        continue;
      }
      for (std::uint32_t j = i + 1; j < n; ++j) {
        if (key != 0 && data.exclusion[j] == key) continue;
        data.pairs.push_back({i, j});
      }
    }
  } else {
    data.broad_phase.find_pairs(data.aabbs, data.bounded, data.exclusion,
                                data.broadphase_settings, data.pairs);
  }
  counters.broadphase_pairs = data.pairs.size();
  if (timed) counters.time_broadphase = seconds_since(t0), t0 = Clock::now();

  // filters and narrow phase
  ContactSettings speculative = data.contact_settings;
  // (one group) the plane of the ground body plane_of
  std::uint32_t plane_of = static_cast<std::uint32_t>(-1);
  GroundPlane plane;
  for (const BodyPair& pr : data.pairs) {
    const CollisionBody& a = data.bodies[pr.a];
    const CollisionBody& b = data.bodies[pr.b];
    if (!collision_filter_allows(a, b) || !shapes_can_collide(a.shape->type, b.shape->type))
      continue;
    ++counters.narrowphase_pairs;
    if (one_group) {
      // a body and a ground (or two grounds: no box is read)
      const bool a_ground = a.shape->type == ShapeType::kGround;
      const std::uint32_t body = a_ground ? pr.b : pr.a;
      if (data.reach[body] < 0.0) {  // a bounded body without its box yet
        const std::uint32_t ground = a_ground ? pr.a : pr.b;
        if (ground != plane_of) plane = GroundPlane(data.bodies[ground]), plane_of = ground;
        if (surely_clear_of_ground(data.bodies[body], margin, plane)) continue;
        compute_box(body);
      }
    }
    // the ground routines' early out: a body wholly above the plane touches nothing
    if (clear_of_ground(a, data.bounded[pr.a], data.aabbs[pr.a], b, data.bounded[pr.b],
                        data.aabbs[pr.b]))
      continue;
    // a moving pair is reported as far apart as its bodies can close in this step (reach)
    // and keeps up to moving_points_per_pair points, by their depth after the step
    const double reach = data.reach[pr.a] + data.reach[pr.b];
    PairMotion motion;
    if (reach > 0.0) {
      speculative.margin = data.contact_settings.margin + reach;
      motion = {a.step_linear, a.step_angular, a.com, b.step_linear, b.step_angular, b.com};
    }
    const int count = collide_shapes(*a.shape, a.pose, *b.shape, b.pose,
                                     reach > 0.0 ? speculative : data.contact_settings,
                                     data.manifold, reach > 0.0 ? &motion : nullptr);
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

void detect_collisions_baseline(CollisionData& data) { detect_collisions_body(data); }
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET void detect_collisions_avx2(CollisionData& data) {
  detect_collisions_body(data);
}
#endif

}  // namespace

void detect_collisions(CollisionData& data) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return detect_collisions_avx2(data);
#endif
  detect_collisions_baseline(data);
}

void check_contact_settings(const ContactSettings& s) {
  check_non_negative(s.margin, "margin");
  if (s.max_points_per_pair < 1 || s.max_points_per_pair > 8)
    throw_invalid("max_points_per_pair must be in [1, 8], got " +
                  std::to_string(s.max_points_per_pair));
  if (s.moving_points_per_pair < 1 || s.moving_points_per_pair > 8)
    throw_invalid("moving_points_per_pair must be in [1, 8], got " +
                  std::to_string(s.moving_points_per_pair));
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
