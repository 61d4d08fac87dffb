// The geometry of a spatial tendon's path (world/tendons.hpp): straight segments between sites,
// wrapped around spheres and cylinders, in branches separated by pulleys. Pure geometry over world
// points; world/tendons.cpp resolves the path's elements to world points and turns the segments
// into a Jacobian.
//
// A wrap: the shortest path from a point p0 to a point p1 around an obstacle of radius R (a sphere
// centred at c, or an infinite cylinder through c along the unit axis a), when the straight
// segment would pass through it (a segment that clears it stays straight):
//   sphere:   in the plane through c, p0 and p1 (a great circle): a tangent from p0, an arc, a
//             tangent to p1;
//   cylinder: the same in the projection onto the plane normal to a, the axial coordinate rising
//             in proportion to the projected length (a helix on the surface, straight lines
//             off it).
// Either end inside the obstacle (or on it): no wrap. Of the two ways around, the one whose
// tangent points are nearer the side point (MuJoCo's sidesite: it keeps the tendon on its side
// of the obstacle), or without a side point the shorter. (MuJoCo also wraps, towards a sidesite,
// some segments that clear the obstacle; torsion keeps those straight.)
#pragma once

#include <vector>

#include "math/types.hpp"

namespace torsion {

struct WrapResult {
  bool wrapped = false;
  Vec3 t0 = Vec3::Zero(), t1 = Vec3::Zero();  // tangent points (world): p0 -> t0 ~arc~ t1 -> p1
  double arc = 0.0;                           // length of the part on the surface (m)
};

// cylinder: axis != nullptr (unit, world); side: nullptr for none
WrapResult wrap_obstacle(const Vec3& p0, const Vec3& p1, const Vec3& center, double radius,
                         const Vec3* axis, const Vec3* side);

}  // namespace torsion
