// Sutherland-Hodgman clipping of a small convex polygon, in the frame of a reference face
// (x, y in the face, z along its outward normal), for contact manifolds. Every vertex carries a
// feature id derived from the incident vertices and clip planes that made it, so it stays the
// same while the same features touch.
#pragma once

#include <cstdint>

#include "math/types.hpp"

namespace torsion {

struct ClipPolygon {
  static constexpr int kMax = 32;
  int count = 0;
  Vec3 pts[kMax];
  std::uint32_t ids[kMax];
  void add(const Vec3& p, std::uint32_t id) {
    if (count < kMax) pts[count] = p, ids[count] = id, ++count;
  }
};

// keep the part with n . (x, y) <= offset, where n is a unit 2-D direction (the z coordinate is
// interpolated along); plane_id goes into the ids of the new vertices
void clip_half_plane(ClipPolygon& poly, double nx, double ny, double offset,
                     std::uint32_t plane_id);

// keep the part inside |x| <= ex, |y| <= ey
void clip_to_rectangle(ClipPolygon& poly, double ex, double ey);

}  // namespace torsion
