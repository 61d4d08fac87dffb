// Convex pairs without a closed form (box-cylinder, box-capsule, cylinder-cylinder,
// cylinder-capsule): GJK gives the distance between the cores, EPA the penetration when the
// cores overlap; the radii of round shapes are added back. For a multi-point manifold the
// supporting features of both shapes along the normal (a face, cap, edge, side line or capsule
// side) are clipped against each other, as in Sutherland-Hodgman face clipping; when either
// side offers only a vertex, the single GJK/EPA point is the manifold.
#include <algorithm>
#include <cmath>

#include "collision/gjk_epa.hpp"
#include "collision/narrow_phase.hpp"
#include "collision/polygon_clip.hpp"
#include "collision/segment.hpp"
#include "collision/shape_features.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/support.hpp"
#include "math/constants.hpp"

namespace torsion {

namespace {

// the supporting feature of a shape in direction d: 1 vertex, 2 (an edge or line) or a polygon
struct Feature {
  static constexpr int kMax = 32;  // a convex mesh face may have many corners
  int count = 0;
  Vec3 pts[kMax];
  std::uint32_t ids[kMax];
  Vec3 plane_normal;  // outward normal of the feature's plane (edges: d)
};


void supporting_feature(const Shape& s, const Pose& p, const Vec3& d, double cos_tol,
                        double sin_tol, Feature& f) {
  f.count = 0;
  f.plane_normal = d;
  const Mat3& r = p.rotation;
  switch (s.type) {
    case ShapeType::kBox: {
      const BoxFeature b = box_feature(s.half_extents, p, d, cos_tol, sin_tol);
      if (b.count == 0) break;
      for (int v = 0; v < b.count; ++v) f.pts[v] = b.pts[v];
      f.count = b.count;
      const auto k = static_cast<std::uint32_t>(b.axis);
      if (b.count == 4) {
        f.plane_normal = r.col(b.axis) * (b.positive ? 1.0 : -1.0);
        for (int v = 0; v < 4; ++v) f.ids[v] = 8 * (2 * k + b.positive) + v;
      } else {
        f.ids[0] = 100u + 2u * k;
        f.ids[1] = f.ids[0] + 1u;
      }
      return;
    }
    case ShapeType::kCylinder: {
      const CylinderFeature c = cylinder_feature(s.radius, s.height, p, d, cos_tol, sin_tol);
      if (c.count == 0) break;
      for (int v = 0; v < c.count; ++v) {
        f.pts[v] = c.pts[v];
        f.ids[v] = c.count == 8 ? static_cast<std::uint32_t>(200 + 8 * c.positive + v)
                                : static_cast<std::uint32_t>(300 + v);
      }
      f.count = c.count;
      f.plane_normal = c.normal;
      return;
    }
    case ShapeType::kCapsule: {
      const Vec3 axis = r.col(2);
      const double ad = axis.dot(d);
      if (std::abs(ad) <= sin_tol && s.height > 0.0) {
        const Vec3 radial = (d - ad * axis).normalized();
        f.pts[0] = p.position + s.radius * radial - 0.5 * s.height * axis;
        f.pts[1] = p.position + s.radius * radial + 0.5 * s.height * axis;
        f.ids[0] = 400u, f.ids[1] = 401u;
        f.count = 2;
        f.plane_normal = radial;
        return;
      }
      break;
    }
    case ShapeType::kConvexMesh: {
      // the face most aligned with d if within the flat tolerance; else an edge: the support
      // vertex and the farthest vertex that is as high along d within the tolerance
      const ConvexHull& h = *s.hull;
      const Vec3 dl = r.transpose() * d;
      int best_face = -1;
      double best_dot = -2.0;
      for (int k = 0; k < h.face_count(); ++k) {
        const double c = h.face_normals[k].dot(dl);
        if (c > best_dot) best_dot = c, best_face = k;
      }
      if (best_dot >= cos_tol && h.face_size(best_face) <= Feature::kMax / 2) {
        const int* fv = h.face(best_face);
        for (int j = 0; j < h.face_size(best_face); ++j) {
          f.pts[j] = p.to_world(h.vertices[fv[j]]);
          f.ids[j] = 0x10000u + static_cast<std::uint32_t>(fv[j]);
        }
        f.count = h.face_size(best_face);
        f.plane_normal = r * h.face_normals[best_face];
        return;
      }
      const int sv = h.support_index(dl);
      int other = -1;
      double other_len = 0.0;
      for (int j = 0; j < static_cast<int>(h.vertices.size()); ++j) {
        if (j == sv) continue;
        const Vec3 e = h.vertices[j] - h.vertices[sv];
        const double len = e.norm();
        if (len > other_len && -e.dot(dl) <= sin_tol * len) other = j, other_len = len;
      }
      if (other >= 0) {
        f.pts[0] = p.to_world(h.vertices[sv]);
        f.pts[1] = p.to_world(h.vertices[other]);
        f.ids[0] = 0x10000u + static_cast<std::uint32_t>(sv);
        f.ids[1] = 0x10000u + static_cast<std::uint32_t>(other);
        f.count = 2;
        return;
      }
      break;
    }
    default: break;
  }
  f.count = 1;  // a vertex: the caller uses the GJK/EPA point
}

// how much deeper than its sampled points a cylinder's cap feature can reach (see above): its
// rim's sagitta between two of its 8 samples, tilted by up to the flat tolerance; 0 for others
double rim_sag(const Shape& s, const Feature& f, double sin_tol) {
  if (s.type != ShapeType::kCylinder || f.count != 8) return 0.0;
  return s.radius * (1.0 - std::cos(kPi / 8.0)) * sin_tol;
}

// clip the incident feature against the reference one, projected along n; emit the points
// with their depths measured along n to the reference feature's plane. Returns points added.
int clip_features(const Feature& ref, bool ref_is_a, const Feature& inc, const Vec3& n,
                  Manifold& out) {
  const Vec3& m = ref.plane_normal;
  const double mn = m.dot(n);
  if (std::abs(mn) < 1e-6) return 0;
  const Vec3 t1 = any_perpendicular(n), t2 = n.cross(t1);
  const Vec3 o = ref.pts[0];
  ClipPolygon poly;
  for (int i = 0; i < inc.count; ++i) {
    const Vec3 d = inc.pts[i] - o;
    poly.add({d.dot(t1), d.dot(t2), d.dot(n)}, inc.ids[i]);
  }
  double rx[Feature::kMax], ry[Feature::kMax];
  for (int i = 0; i < ref.count; ++i) {
    const Vec3 d = ref.pts[i] - o;
    rx[i] = d.dot(t1), ry[i] = d.dot(t2);
  }
  if (ref.count == 2) {
    // a segment: keep the incident part between the planes through its ends
    double ux = rx[1] - rx[0], uy = ry[1] - ry[0];
    const double len = std::hypot(ux, uy);
    if (len < 1e-12) return 0;
    ux /= len, uy /= len;
    clip_half_plane(poly, ux, uy, ux * rx[1] + uy * ry[1], 0);
    clip_half_plane(poly, -ux, -uy, -(ux * rx[0] + uy * ry[0]), 1);
  } else {
    double cx = 0.0, cy = 0.0;
    for (int i = 0; i < ref.count; ++i) cx += rx[i], cy += ry[i];
    cx /= ref.count, cy /= ref.count;
    for (int i = 0; i < ref.count && poly.count > 0; ++i) {
      const int j = (i + 1) % ref.count;
      double nx = ry[j] - ry[i], ny = -(rx[j] - rx[i]);
      const double len = std::hypot(nx, ny);
      if (len < 1e-15) continue;
      nx /= len, ny /= len;
      double off = nx * rx[i] + ny * ry[i];
      if (nx * cx + ny * cy > off) nx = -nx, ny = -ny, off = -off;
      clip_half_plane(poly, nx, ny, off, static_cast<std::uint32_t>(i));
    }
  }
  int added = 0;
  for (int i = 0; i < poly.count; ++i) {
    const Vec3 q = o + poly.pts[i].x() * t1 + poly.pts[i].y() * t2 + poly.pts[i].z() * n;
    const double s = m.dot(o - q) / mn;  // q + s n lies on the reference plane
    const std::uint32_t feature = poly.ids[i] ^ 0x80000000u;
    if (ref_is_a) out.add_from_b(q, n, -s, feature);  // q on B, A's surface at q + s n
    else out.add_from_b(q + s * n, n, s, feature);    // q on A, B's surface at q + s n
    ++added;
  }
  return added;
}

// The signed distance of the cores along unit direction d: min over A of d.a minus max over B of
// d.b. Its maximum over all directions is the signed distance of the cores (the distance when
// apart, minus the penetration depth when overlapping), reached at the contact normal.
double core_gap(const ConvexQuery& q, const Vec3& d) {
  const Vec3 a = support_core(*q.shape_a, *q.pose_a, -d);
  const Vec3 b = support_core(*q.shape_b, *q.pose_b, d);
  return d.dot(a - b);
}

// GJK and EPA converge on the depth much faster than on the normal where a surface is curved
// (a cylinder's side or rim): an angle error e costs only about r e^2 / 2 in depth. Polish the
// normal by a pattern search on core_gap over the unit sphere, from a small step down to round-off.
// The search starts from the best of n and the shapes' own directions (box face normals,
// cylinder axes, the centre line), so a poor start (touching cores, where GJK's direction is
// round-off) cannot trap it; the step grows after a success and halves after a failure.
void refine_normal(const ConvexQuery& q, Vec3& n, double& gap) {
  gap = core_gap(q, n);
  auto try_dir = [&](const Vec3& d) {
    const double g = core_gap(q, d);
    if (g > gap) gap = g, n = d;
  };
  const Pose* poses[2] = {q.pose_a, q.pose_b};
  for (const Pose* p : poses)
    for (int k = 0; k < 3; ++k) try_dir(p->rotation.col(k)), try_dir(-p->rotation.col(k));
  const Vec3 centre_line = q.pose_a->position - q.pose_b->position;
  if (centre_line.norm() > 1e-12) try_dir(centre_line.normalized());
  // the way out through a capsule's or cylinder's side: the centre line off its axis (the start
  // the side's ridge needs when the centres are nearly on one axis and the caps look as deep)
  for (int s = 0; s < 2; ++s) {
    const Shape& shape = s == 0 ? *q.shape_a : *q.shape_b;
    if (shape.type != ShapeType::kCapsule && shape.type != ShapeType::kCylinder) continue;
    const Vec3 u = poses[s]->rotation.col(2);
    const Vec3 radial = centre_line - centre_line.dot(u) * u;
    if (radial.norm() > 1e-12) try_dir(radial.normalized());
  }
  // The support functions of boxes, capsules and cylinders have ridges: core_gap has a kink
  // across every direction perpendicular to a box's, capsule's or cylinder's axis (the support
  // point jumps from one end to the other). When the maximum lies on such a great circle and the
  // gap still rises along it, every compass move leaves the ridge and loses more than it gains,
  // and the search stalls off the maximum (as for a capsule inside a cylinder, near its axis).
  // A rotation about the axis keeps the tilt to the ridge and so follows it.
  Vec3 ridge_axes[6];
  int ridges = 0;
  for (int s = 0; s < 2; ++s) {
    const Shape& shape = s == 0 ? *q.shape_a : *q.shape_b;
    const Pose& pose = *poses[s];
    if (shape.type == ShapeType::kCapsule || shape.type == ShapeType::kCylinder)
      ridge_axes[ridges++] = pose.rotation.col(2);
    else if (shape.type == ShapeType::kBox)
      for (int k = 0; k < 3; ++k) ridge_axes[ridges++] = pose.rotation.col(k);
  }
  double step = 4e-3;  // rad
  for (int it = 0; it < 600 && step > 1e-12; ++it) {
    const Vec3 t1 = any_perpendicular(n), t2 = n.cross(t1);
    bool improved = false;
    for (int k = 0; k < 8 && !improved; ++k) {
      const double ang = k * kPi / 4.0;
      const Vec3 d = (n + step * (std::cos(ang) * t1 + std::sin(ang) * t2)).normalized();
      const double g = core_gap(q, d);
      if (g > gap) gap = g, n = d, improved = true;
    }
    for (int r = 0; r < ridges && !improved; ++r) {
      const Vec3& u = ridge_axes[r];
      const Vec3 across = u.cross(n);
      const double rho = across.norm();  // n's distance from the axis
      if (rho < 1e-9) continue;          // n on the axis: no ridge through it
      // n rotated about u by +-angle (Rodrigues), the angle chosen to move n by about step
      const double angle = std::min(step / rho, 0.5), c = std::cos(angle), s = std::sin(angle);
      for (const double sign : {1.0, -1.0}) {
        const Vec3 d = (c * n + sign * s * across + (1.0 - c) * u.dot(n) * u).normalized();
        const double g = core_gap(q, d);
        if (g > gap) {
          gap = g, n = d, improved = true;
          break;
        }
      }
    }
    step = improved ? std::min(2.0 * step, 0.5) : 0.5 * step;
  }
}

// Where the cores touch along a normal n at which their signed distance is gap (core_gap): A
// moved out along n until just clear of B touches it at the pair of closest points, which GJK
// finds. The clearance keeps GJK off touching cores, where its direction is round-off. Returns
// false if GJK still finds the cores overlapping (n far from the contact normal).
bool touching_point_on_b(const ConvexQuery& q, const Vec3& n, double gap, int max_iterations,
                         Vec3& on_b) {
  const double scale = 1.0 + (q.pose_a->position - q.pose_b->position).norm();
  Pose moved = *q.pose_a;
  moved.position += (1e-3 * scale - gap) * n;
  const GjkResult g = gjk_distance({q.shape_a, &moved, q.shape_b, q.pose_b}, max_iterations);
  if (g.overlap) return false;
  on_b = g.point_b;
  return true;
}

}  // namespace

void collide_convex_convex(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                           const ContactSettings& settings, Manifold& out) {
  const ConvexQuery q{&a, &pa, &b, &pb};
  const double ra = core_radius(a), rb = core_radius(b);
  const GjkResult g = gjk_distance(q, settings.gjk_max_iterations);
  const double scale = 1.0 + (pa.position - pb.position).norm();
  Vec3 n, on_b;
  double depth;
  // cores closer than 1e-7 (relative) are treated as touching: the witness points' direction
  // would be round-off, EPA's face normal is not
  if (!g.overlap && g.distance > 1e-7 * scale) {
    if (g.lower_bound - ra - rb > settings.margin) return;
    n = (g.point_a - g.point_b) / g.distance;
    depth = ra + rb - g.distance;
    on_b = g.point_b + rb * n;
  } else {
    const EpaResult e = epa_penetration(q, g, settings.epa_max_iterations, settings.epa_tolerance);
    if (e.ok) {
      n = e.normal;
      depth = e.depth + ra + rb;
      on_b = e.point_b + rb * n;
    } else {
      // the cores only touch (EPA found no volume): separate along the centre line
      const Vec3 d = pa.position - pb.position;
      n = d.norm() > 1e-12 ? Vec3(d.normalized()) : Vec3::UnitZ();
      depth = ra + rb;
      on_b = g.point_b + rb * n;
    }
  }
  // curved cores: polish the normal (the depth follows) and take the single point where the
  // cores touch along it. The GJK/EPA witness only fits the normal it came with: the polish may
  // turn the normal far (to a shape's axis, or to its opposite when the centres coincide and
  // both directions are as deep), and the witness then lay up to twice the depth off A.
  if (a.type == ShapeType::kCylinder || b.type == ShapeType::kCylinder) {
    double gap;
    refine_normal(q, n, gap);
    depth = ra + rb - gap;
    if (depth < -settings.margin) return;
    Vec3 core_b;
    if (touching_point_on_b(q, n, gap, settings.gjk_max_iterations, core_b)) on_b = core_b + rb * n;
  }
  // convex meshes: GJK can end on a degenerate simplex (four support points on one flat face of
  // the Minkowski difference) and call a separated pair overlapping, and EPA then reports a
  // bogus depth. Check the answer against the separating axes of both hulls' faces: the signed
  // distance is the maximum of core_gap over all directions, so a face axis that separates more
  // than n proves n wrong; then the best axis, polished by refine_normal, replaces it.
  if (a.type == ShapeType::kConvexMesh || b.type == ShapeType::kConvexMesh) {
    const double gap_n = core_gap(q, n);
    double best = gap_n;
    Vec3 best_d = n;
    auto try_faces = [&](const Shape& s, const Pose& p, double sign) {
      if (s.type != ShapeType::kConvexMesh) return;
      for (const Vec3& f : s.hull->face_normals) {
        const Vec3 d = sign * (p.rotation * f);
        const double gap_d = core_gap(q, d);
        if (gap_d > best) best = gap_d, best_d = d;
      }
    };
    try_faces(a, pa, -1.0);  // A's faces look towards B along -n
    try_faces(b, pb, 1.0);
    if (best > gap_n + 1e-9 * scale) {
      n = best_d;
      double gap;
      refine_normal(q, n, gap);
      depth = ra + rb - gap;
      if (depth < -settings.margin) return;
      // midway point: B's support along n, moved to the middle of the overlap
      on_b = support_core(b, pb, n) + rb * n;
    }
  }
  // multi-point manifold from the supporting features
  const double cos_tol = std::cos(settings.flat_tolerance), sin_tol = std::sin(settings.flat_tolerance);
  Feature fa, fb;
  supporting_feature(a, pa, -n, cos_tol, sin_tol, fa);
  supporting_feature(b, pb, n, cos_tol, sin_tol, fb);
  // two lines (edges, cylinder or capsule sides) touch along a line only when parallel; crossing
  // lines touch at the single GJK/EPA point
  bool use_features = fa.count >= 2 && fb.count >= 2;
  if (use_features && fa.count == 2 && fb.count == 2) {
    const Vec3 ua = (fa.pts[1] - fa.pts[0]).normalized(), ub = (fb.pts[1] - fb.pts[0]).normalized();
    use_features = ua.cross(ub).norm() <= sin_tol;
  }
  if (use_features) {
    // the reference is the feature with more vertices (a face over an edge), B on ties
    const bool ref_is_a = fa.count > fb.count;
    const int first = out.count;
    if (clip_features(ref_is_a ? fa : fb, ref_is_a, ref_is_a ? fb : fa, n, out) > 0) {
      // keep the manifold only if it reaches the GJK/EPA depth (it should, within round-off)
      double deepest = -INFINITY;
      for (int i = first; i < out.count; ++i) deepest = std::max(deepest, out.points[i].depth);
      if (deepest >= depth - 1e-6 * scale) return;
      // A cylinder's cap is its rim sampled at 8 points, so when the cap is tilted to the normal
      // (within the flat tolerance) its deepest rim point can lie between two samples, up to
      // r (1 - cos(pi/8)) sin(tilt) deeper than both. Keep the sampled manifold then and add the
      // exact GJK/EPA point: dropping the manifold left a cylinder resting on a slightly tilted
      // cap (1e-4 rad) on that one point, which hopped around the rim from step to step, and a
      // stack of cylinders sank through itself at RL time steps.
      const double sag = rim_sag(a, fa, sin_tol) + rim_sag(b, fb, sin_tol);
      if (sag > 0.0 && deepest >= depth - 1e-6 * scale - sag) {
        out.add_from_b(on_b, n, depth, 0);
        return;
      }
      out.count = first;
    }
  }
  out.add_from_b(on_b, n, depth, 0);
}

}  // namespace torsion
