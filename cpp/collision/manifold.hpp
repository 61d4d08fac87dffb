// The output of one narrow-phase pair test: up to kMaxManifoldPoints contact points, each with
// its own normal (from B to A), depth (> 0 penetrating) and a feature id that stays the same
// while the same features touch (for warm starting).
#pragma once

#include <cstdint>

#include "math/types.hpp"

namespace torsion {

constexpr int kMaxManifoldPoints = 16;  // candidates before reduction

struct ManifoldPoint {
  Vec3 position;  // world (m), midway between the two surfaces
  Vec3 normal;    // world, unit, from B to A
  double depth;   // m, > 0 when penetrating
  std::uint32_t feature;
};

struct Manifold {
  int count = 0;
  ManifoldPoint points[kMaxManifoldPoints];

  void clear() { count = 0; }
  // add a point given the point on B's surface, the normal (B to A) and the depth: the stored
  // position is midway between the two surfaces. Ignored when the buffer is full.
  void add_from_b(const Vec3& point_on_b, const Vec3& normal, double depth,
                  std::uint32_t feature) {
    if (count >= kMaxManifoldPoints) return;
    points[count++] = {point_on_b - 0.5 * depth * normal, normal, depth, feature};
  }
  // swap the roles of A and B: normals flip
  void flip() {
    for (int i = 0; i < count; ++i) points[i].normal = -points[i].normal;
  }
};

// keep at most max_points of the points: the deepest, then the one farthest from it, then each
// the one that adds the most area to the convex polygon of those kept (in the deepest point's
// contact plane), and once none adds area the one farthest from every kept point. Distance and
// area are weighed by how close the point is to touching (1 for depth >= 0, down to 4.5e-5 for a
// gap beyond 50 um; manifold.cpp), so touching points come before speculative ones.
// Deterministic (ties keep the earlier point). With rank_depth (one per point), the deepest and
// the touch weights are taken from it instead of the points' depths (collide_shapes: the depth
// each point of a moving pair will have after the step). Points beyond the first
// growing_beyond (< 0: max_points) are kept only while they grow the polygon: a moving pair's
// extra points are corners of its contact region, not points inside it.
void reduce_manifold(Manifold& m, int max_points, const double* rank_depth = nullptr,
                     int growing_beyond = -1);

// make room for `incoming` more points in a manifold that gathers candidates from many pieces (a
// height map's or a mesh's triangles): when they would not fit, reduce to half the buffer (or
// less, to fit them), so that a face over hundreds of grid cells costs one reduction per eight
// candidates instead of one per candidate. Half the buffer keeps twice the points a pair ends
// with (ContactSettings::max_points_per_pair, 4 by default).
void make_room(Manifold& m, int incoming);

// drop points shallower than -margin
void cull_manifold(Manifold& m, double margin);

}  // namespace torsion
