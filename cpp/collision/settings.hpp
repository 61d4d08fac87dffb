// User-facing settings of collision detection and the counters it reports (World seed:
// setContactSettings, setBroadphaseSettings, getLastCollisionCounters).
#pragma once

#include <cstdint>

namespace torsion {

// What the pair routines add to the margin (m) before they test a gap or cull a point
// (collide_shapes): more than the round-off of a gap computed from poses (1e-13 m a few metres
// from the origin) and far below any physical distance. At margin 0 a box face lying exactly on
// a surface would otherwise keep only the corners that round-off puts a hair below it, and drop
// whole triangles of a terrain that it puts a hair above: the support polygon loses corners from
// step to step and the box rocks (tests/terrain/test_height_map.py).
constexpr double kMarginRoundOff = 1e-9;

// Narrow-phase settings.
struct ContactSettings {
  // contacts are reported while the surfaces are closer than this (m): depth >= -margin, to
  // within kMarginRoundOff (below). 0 reports touching and penetrating pairs only; a positive
  // value gives the solver speculative contacts (approach by gap / dt at most). The default
  // 0.1 mm is more than the gap an unconverged solve leaves under a resting body (1e-3 m/s for
  // one step of 0.02 s: 2e-5 m), which at 0 drops the pair for a step: the body falls g dt^2
  // (3.9 mm at dt = 0.02) into its support and, with ERP off, stays there
  double margin = 1e-4;
  // the most contact points one pair of collision bodies may produce (1..8) while neither moves
  // by more than the broad phase's minimum reach in the step (0.5 mm); manifolds with more
  // candidate points are reduced to the deepest point plus the ones spanning the largest area
  int max_points_per_pair = 4;
  // the most points a pair of which a body moves more than that produces (1..8; the larger of
  // the two limits applies): its points are ranked by the depth each will have after the step
  // (collide_shapes), and those beyond max_points_per_pair are kept only while they add area,
  // so that a tumbling box keeps the corners its spin brings down (docs/architecture.md)
  int moving_points_per_pair = 6;
  // a flat side (box face, cylinder cap or side, capsule side) within this angle (rad) of the
  // contact plane is treated as resting flat and produces a multi-point manifold
  double flat_tolerance = 0.02;
  // convex routine (GJK/EPA) limits, used for pairs without an exact analytic routine
  int gjk_max_iterations = 64;
  int epa_max_iterations = 64;
  double epa_tolerance = 1e-9;  // m: EPA stops when the depth improves by less than this
};

// Broad-phase settings (sweep and prune).
struct BroadphaseSettings {
  // every AABB is grown by this much on every side (m); must be >= 0
  double aabb_margin = 0.0;
  // sweep axis: -1 picks, every step, the world axis along which the AABB centres spread most;
  // 0, 1, 2 fix x, y or z
  int sweep_axis = -1;
};

// Counters of the last collision detection (World::getLastCollisionCounters). Times are zero
// unless counters are enabled.
struct CollisionCounters {
  std::uint64_t collision_bodies = 0;     // bodies that took part
  std::uint64_t broadphase_pairs = 0;     // pairs whose AABBs overlap (before filtering)
  std::uint64_t narrowphase_pairs = 0;    // pairs that passed the filters and were tested exactly
  std::uint64_t colliding_pairs = 0;      // pairs that produced at least one contact
  std::uint64_t contacts = 0;             // contact points made
  double time_aabb = 0.0;                 // s, world AABBs
  double time_broadphase = 0.0;           // s, sweep and prune plus filtering and sorting
  double time_narrowphase = 0.0;          // s, exact pair tests and manifolds
  double time_total = 0.0;                // s, the whole collision stage
};

}  // namespace torsion
