// Exact routines against the ground half space. The ground (always B) is the half space below
// the plane through pose_b.position with unit normal pose_b.rotation's z column; the contact
// normal is that plane normal and a point's depth is how far below the plane it lies.
#include <cmath>

#include "collision/narrow_phase.hpp"
#include "collision/segment.hpp"
#include "core/cpu_dispatch.hpp"

namespace torsion {

namespace {

struct Plane {
  Vec3 n;    // unit normal, out of the ground
  double d;  // n . x = d on the plane
};

Plane ground_plane(const Pose& pg) {
  const Vec3 n = pg.rotation.col(2);
  return {n, n.dot(pg.position)};
}

// a point x of A (already on A's surface, the deepest along -n): depth and point on the plane
void add_point(const Plane& g, const Vec3& x, std::uint32_t feature, Manifold& out) {
  const double depth = g.d - g.n.dot(x);
  out.add_from_b(x + depth * g.n, g.n, depth, feature);
}

}  // namespace

void collide_sphere_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                           const ContactSettings&, Manifold& out) {
  const Plane g = ground_plane(pg);
  add_point(g, pa.position - a.radius * g.n, 0, out);
}

void collide_capsule_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                            const ContactSettings&, Manifold& out) {
  // both hemisphere centres: a capsule lying flat gets two points, a tilted one the deeper
  // (the shallower is culled by the margin)
  // Each end's point is the lowest point of the capsule's surface near that end: the bottom of
  // its hemisphere when that end is the lower one (or the capsule lies flat), otherwise the end
  // of the lowest line of the cylindrical side (the bottom of the hemisphere would be inside).
  const Plane g = ground_plane(pg);
  Vec3 p, q;
  capsule_segment(a.height, pa.rotation, pa.position, p, q);
  if (a.height <= 0.0) {
    add_point(g, p - a.radius * g.n, 0, out);
    return;
  }
  const Vec3 u = (q - p).normalized();
  Vec3 side = g.n - g.n.dot(u) * u;  // the side's outward normal facing the ground, negated
  const double side_norm = side.norm();
  // a capsule standing upright: every side line is equally low; take any (it is culled unless
  // the capsule is buried deeper than its straight part)
  side = side_norm > 1e-12 ? Vec3(side / side_norm) : any_perpendicular(u);
  const Vec3 ends[2] = {p, q};
  for (int k = 0; k < 2; ++k) {
    const Vec3 to_other = ends[1 - k] - ends[k];
    const bool other_is_lower = to_other.dot(g.n) < 0.0;
    const Vec3 x = ends[k] - a.radius * (other_is_lower ? side : g.n);
    add_point(g, x, static_cast<std::uint32_t>(k), out);
  }
}

namespace {

// (the body of collide_box_ground, built twice: core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE void collide_box_ground_body(const Shape& a, const Pose& pa, const Pose& pg,
                                                   Manifold& out) {
  // every corner below the plane (+ margin); the feature is the corner's index (bits: +x, +y, +z)
  const Plane g = ground_plane(pg);
  const Vec3& h = a.half_extents;
  for (std::uint32_t k = 0; k < 8; ++k) {
    const Vec3 corner_b((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(),
                        (k & 4) ? h.z() : -h.z());
    add_point(g, pa.to_world(corner_b), k, out);
  }
}

void collide_box_ground_baseline(const Shape& a, const Pose& pa, const Pose& pg, Manifold& out) {
  collide_box_ground_body(a, pa, pg, out);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void collide_box_ground_avx2(const Shape& a,
                                                                         const Pose& pa,
                                                                         const Pose& pg,
                                                                         Manifold& out) {
  collide_box_ground_body(a, pa, pg, out);
}
#endif

}  // namespace

void collide_box_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                        const ContactSettings&, Manifold& out) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return collide_box_ground_avx2(a, pa, pg, out);
#endif
  collide_box_ground_baseline(a, pa, pg, out);
}

void collide_cylinder_ground(const Shape& a, const Pose& pa, const Shape&, const Pose& pg,
                             const ContactSettings&, Manifold& out) {
  // per cap, four rim points: the lowest rim point u, its opposite and the two at 90 degrees.
  // A cylinder standing on a cap gets four points of that cap; lying on its side, the lowest
  // point of each cap (the ends of the contact line); tilted on an edge, the lowest one.
  const Plane g = ground_plane(pg);
  const Vec3 axis = pa.rotation.col(2);
  Vec3 u = -(g.n - g.n.dot(axis) * axis);  // steepest way down within the cap plane
  const double un = u.norm();
  // cap parallel to the ground (within flat_tolerance): use the body x axis, so the four points
  // and their feature ids do not spin with round-off
  u = un > 1e-9 ? Vec3(u / un) : Vec3(pa.rotation.col(0));
  const Vec3 v = axis.cross(u);
  const Vec3 dirs[4] = {u, v, -u, -v};
  for (std::uint32_t cap = 0; cap < 2; ++cap) {
    const Vec3 c = pa.position + (cap ? 0.5 : -0.5) * a.height * axis;
    for (std::uint32_t k = 0; k < 4; ++k) add_point(g, c + a.radius * dirs[k], 4 * cap + k, out);
  }
}

}  // namespace torsion
