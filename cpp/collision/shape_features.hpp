// The flat features of boxes and cylinders along a direction: the face, edge, cap or side line
// that faces direction d within the flat tolerance. Both the convex-pair manifolds
// (convex_pair.cpp) and the convex-vs-triangle contacts (triangle_contact.cpp) clip these; each
// caller numbers the points with its own feature ids from the fields returned here.
#pragma once

#include <cstdint>

#include "geometry/pose.hpp"

namespace torsion {

struct BoxFeature {
  int count = 0;      // 4: a face (corners in cyclic order), 2: an edge, 0: a vertex
  int axis = 0;       // face: the body axis of its normal; edge: the body axis it runs along
  bool positive = false;       // face: on the +axis side
  std::uint32_t corner_code = 0;  // edge: which of the 4 parallel edges (2 bits, axis order)
  Vec3 pts[4];
};

// the feature of the box with these half extents (m) at pose p that faces d (unit, world):
// a face if its normal is within acos(cos_tol) of d, else an edge if d is within asin(sin_tol)
// of perpendicular to exactly one axis, else none (count 0)
BoxFeature box_feature(const Vec3& half_extents, const Pose& p, const Vec3& d, double cos_tol,
                       double sin_tol);

struct CylinderFeature {
  int count = 0;  // 8: a cap's rim sampled at 8 points, 2: a side line, 0: neither
  bool positive = false;  // cap: the +z one
  Vec3 normal;            // cap: its outward normal; side: the radial direction towards d
  Vec3 pts[8];
};

// the feature of the cylinder (radius, full height along body z) at pose p that faces d
CylinderFeature cylinder_feature(double radius, double height, const Pose& p, const Vec3& d,
                                 double cos_tol, double sin_tol);

}  // namespace torsion
