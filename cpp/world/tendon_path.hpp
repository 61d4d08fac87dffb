// The geometry of a spatial tendon's path (world/tendons.hpp): straight segments between sites,
// wrapped around spheres and cylinders, in branches separated by pulleys. Pure geometry over world
// points; world/tendons.cpp resolves the path's elements to world points and turns the segments
// into a Jacobian.
//
// A wrap, with MuJoCo's rules (its mju_wrap: the same paths, so ten_length and ten_J agree):
// a path from a point p0 to a point p1 around an obstacle of radius R (a sphere centred at c, or
// an infinite cylinder through c along the unit axis a), worked in a plane (a 2-D circle wrap):
//   sphere:   the plane through c, p0 and p1 (a great circle): a tangent from p0, an arc, a
//             tangent to p1;
//   cylinder: the projection onto the plane normal to a, the axial coordinate rising in
//             proportion to the projected length (a helix on the surface, straight lines off it).
// When it wraps: either end inside the obstacle (or the ends together): never. Otherwise when the
// straight segment passes through the circle, and also, with a side point (MuJoCo's sidesite),
// when it passes clear of it behind the obstacle as seen from the side point (it crosses the ray
// from the centre away from the side point): the side point keeps the tendon on its side of the
// obstacle, so a tendon over a joint stays over it as the joint turns.
// Of the two ways around (each a pair of tangent points), with a side point the one whose arc's
// middle direction is nearest the side point's, without one the one whose tangent points are
// nearer each other; a way whose two straight pieces cross is refused (and if the chosen one's
// do, no wrap). The arc goes the chosen way round, so it may exceed half a turn.
// A side point inside the obstacle selects MuJoCo's inside wrap instead: the path from p0 to p1
// through the one point of the circle where both pieces meet it at equal angles (wrap_inside in
// the .cpp), taken when the straight segment does not pass through the circle.
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
