// GJK (distance between convex cores) and EPA (penetration of overlapping cores) on the
// Minkowski difference A - B of two shapes' cores (geometry/support.hpp).
//
// GJK follows Gilbert, Johnson and Keerthi (1988) with the closest-point sub-routines of
// Ericson, Real-Time Collision Detection (5.1); EPA follows van den Bergen (2001): grow a
// polytope inside A - B towards the face nearest the origin until the support no longer moves it.
// Both use fixed-size buffers (no allocation) and a deterministic order of operations.
#pragma once

#include "collision/settings.hpp"
#include "geometry/pose.hpp"
#include "geometry/shape.hpp"

namespace torsion {

struct ConvexQuery {
  const Shape* shape_a;
  const Pose* pose_a;
  const Shape* shape_b;
  const Pose* pose_b;
};

struct GjkResult {
  bool overlap = false;  // the cores intersect (distance below round-off): use EPA
  double distance = 0.0; // between the cores (m), when !overlap (an upper bound, exact on
                         // convergence)
  double lower_bound = 0.0;  // a proven lower bound on that distance (m), from support planes
  Vec3 point_a;          // closest point on A's core (world)
  Vec3 point_b;          // closest point on B's core (world)
  int iterations = 0;
  // the final simplex (Minkowski points and their A and B supports), EPA's starting point
  int simplex_size = 0;
  Vec3 simplex_w[4], simplex_a[4], simplex_b[4];
};

GjkResult gjk_distance(const ConvexQuery& q, int max_iterations);

struct EpaResult {
  bool ok = false;     // false if the polytope degenerated (the caller falls back)
  Vec3 normal;         // unit, from B to A: moving A by depth * normal separates the cores
  double depth = 0.0;  // penetration of the cores (m)
  Vec3 point_a;        // deepest point of A's core inside B (world)
  Vec3 point_b;        // matching point on B's core surface (world)
};

EpaResult epa_penetration(const ConvexQuery& q, const GjkResult& start, int max_iterations,
                          double tolerance);

}  // namespace torsion
