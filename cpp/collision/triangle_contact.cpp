// Convex shape against one triangle (see triangle_contact.hpp for the regions and their normals).
#include "collision/triangle_contact.hpp"

#include <algorithm>
#include <cmath>

#include "collision/gjk_epa.hpp"
#include "collision/polygon_clip.hpp"
#include "collision/segment.hpp"
#include "collision/shape_features.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/support.hpp"
#include "math/constants.hpp"

namespace torsion {

namespace {

constexpr int kMaxPointsPerTriangle = 8;
// points this close outside a triangle or edge (m, relative to 1 + its size) still count as on
// it, so that a point exactly on a shared edge or vertex is never lost to round-off (it may be
// reported by both neighbours; the manifold reduction keeps one)
constexpr double kClipTolerance = 1e-9;
constexpr int kGoldenIterations = 36;  // arc search: the angle to ~3e-8 rad
// half-width (m, relative to 1 + the edge's length) of the band around an edge's line within
// which a point of the shape counts as on the line: it absorbs the arc search's angle error
// times the distance (a point this far beside the line is at most kLineBand^2 / (2 h) nearer
// than its height h says)
constexpr double kLineBand = 1e-6;

// The widest angle between a flat side's outward normal and -d for which collide_convex_triangle
// falls back on that side when the lowest feature misses the triangle (cos 60 degrees).
constexpr double kIncidentSideCos = 0.5;
// An edge whose neighbour's normal tilts inwards by more than this sine (rad, about 0.06
// milli-degrees) is concave; flat tessellations (sine 0 up to round-off) are not.
constexpr double kConcaveSine = 1e-6;
// How much less a shape must reach into a convex neighbour's plane than into a face's own for
// the face to leave its contact to the neighbour (m; round-off of the two support evaluations)
constexpr double kSupersedeTolerance = 1e-9;

// The part of a shape's surface lowest along -d (d points from the triangle to the shape): a
// flat side within the flat tolerance of facing -d (box face, cylinder cap, as a polygon), a
// line (box edge, cylinder or capsule side), or the single lowest point. Points are on the
// shape's surface; ids are stable per shape feature.
struct LowFeature {
  static constexpr int kMax = 12;
  int count = 0;
  Vec3 pts[kMax];
  std::uint32_t ids[kMax];
};

// A convex hull's lowest feature along `down` (body frame dl): among the faces around the
// support vertex, the one whose outward normal is within the flat tolerance of dl (its polygon;
// a face with more than LowFeature::kMax corners keeps kMax of them evenly spaced around it, a
// slightly smaller polygon inside the face), else the edge from the support vertex to the
// vertex that makes it most nearly flat (direction within the flat tolerance of perpendicular to
// dl), else the support vertex alone. The support vertex is on every feature chosen, so the
// deepest point reported is the hull's exact lowest point. Feature ids are 1024 + the vertex
// index: they stay the same while the same vertices touch.
void hull_lowest_feature(const ConvexHull& h, const Pose& p, const Vec3& dl, double cos_tol,
                         double sin_tol, LowFeature& f) {
  const int s = h.support_index(dl);
  int best_face = -1;
  double best_dot = cos_tol;
  for (int k = 0; k < h.face_count(); ++k) {
    const double c = h.face_normals[k].dot(dl);
    if (c < best_dot) continue;
    const int* fv = h.face(k);
    if (std::find(fv, fv + h.face_size(k), s) == fv + h.face_size(k)) continue;
    best_dot = c, best_face = k;
  }
  if (best_face >= 0) {
    const int n = h.face_size(best_face);
    const int* fv = h.face(best_face);
    const int m = std::min(n, LowFeature::kMax);
    const int start = static_cast<int>(std::find(fv, fv + n, s) - fv);  // keep s among them
    for (int k = 0; k < m; ++k) {
      const int vi = fv[(start + (k * n) / m) % n];
      f.pts[k] = p.to_world(h.vertices[vi]);
      f.ids[k] = 1024u + static_cast<std::uint32_t>(vi);
    }
    f.count = m;
    return;
  }
  const Vec3& vs = h.vertices[s];
  int partner = -1;
  double partner_slope = sin_tol;  // dl . (vs - vj) / |vs - vj|: 0 for an edge square to dl
  const int nv = static_cast<int>(h.vertices.size());
  for (int j = 0; j < nv; ++j) {
    if (j == s) continue;
    const Vec3 e = vs - h.vertices[j];
    const double len = e.norm();
    if (!(len > 1e-12)) continue;
    const double slope = dl.dot(e) / len;
    if (slope <= partner_slope) partner_slope = slope, partner = j;
  }
  f.pts[0] = p.to_world(vs);
  f.ids[0] = 1024u + static_cast<std::uint32_t>(s);
  f.count = 1;
  if (partner >= 0) {
    f.pts[1] = p.to_world(h.vertices[partner]);
    f.ids[1] = 1024u + static_cast<std::uint32_t>(partner);
    f.count = 2;
  }
}

void lowest_feature(const Shape& s, const Pose& p, const Vec3& d, double cos_tol, double sin_tol,
                    LowFeature& f) {
  f.count = 0;
  const Mat3& r = p.rotation;
  const Vec3 down = -d;
  switch (s.type) {
    case ShapeType::kSphere:
      f.pts[0] = p.position + s.radius * down;
      f.ids[0] = 1;
      f.count = 1;
      return;
    case ShapeType::kCapsule: {
      Vec3 a, b;
      capsule_segment(s.height, r, p.position, a, b);
      const Vec3 u = r.col(2);
      const double ud = u.dot(down);
      if (std::abs(ud) <= sin_tol && s.height > 0.0) {
        // lying flat: the side line facing down
        const Vec3 radial = (down - ud * u).normalized();
        f.pts[0] = a + s.radius * radial, f.pts[1] = b + s.radius * radial;
        f.ids[0] = 2, f.ids[1] = 3;
        f.count = 2;
      } else {
        f.pts[0] = (ud >= 0.0 ? b : a) + s.radius * down;
        f.ids[0] = ud >= 0.0 ? 3 : 2;
        f.count = 1;
      }
      return;
    }
    case ShapeType::kBox: {
      const BoxFeature b = box_feature(s.half_extents, p, down, cos_tol, sin_tol);
      if (b.count == 0) break;
      for (int v = 0; v < b.count; ++v) f.pts[v] = b.pts[v];
      f.count = b.count;
      const auto k = static_cast<std::uint32_t>(b.axis);
      if (b.count == 4) {
        for (int v = 0; v < 4; ++v) f.ids[v] = 16 + 4 * (2 * k + b.positive) + v;
      } else {
        f.ids[0] = 64 + 16 * k + 2 * b.corner_code;
        f.ids[1] = f.ids[0] + 1;
      }
      return;
    }
    case ShapeType::kCylinder: {
      const CylinderFeature c = cylinder_feature(s.radius, s.height, p, down, cos_tol, sin_tol);
      if (c.count == 0) break;
      for (int v = 0; v < c.count; ++v) {  // (8 <= LowFeature::kMax)
        f.pts[v] = c.pts[v];
        f.ids[v] = c.count == 8 ? static_cast<std::uint32_t>(128 + 8 * c.positive + v)
                                : static_cast<std::uint32_t>(150 + v);
      }
      f.count = c.count;
      return;
    }
    case ShapeType::kConvexMesh:
      hull_lowest_feature(*s.hull, p, r.transpose() * down, cos_tol, sin_tol, f);
      return;
    default: return;
  }
  // the single lowest point (boxes and cylinders have no radius)
  f.pts[0] = support_core(s, p, down);
  f.ids[0] = 7;
  f.count = 1;
}

// signed distance of the shape from the plane through `o` with unit normal d, the shape on the
// front side: > 0 apart, < 0 overlapping (minus the depth of the shape's lowest point)
double gap_along(const Shape& s, const Pose& p, const Vec3& d, const Vec3& o) {
  return d.dot(support_core(s, p, -d) - o) - core_radius(s);
}

// The best direction of an edge arc in closed form, for the shapes whose core is a few points
// (sphere: the centre, capsule: the segment's ends, box: its corners). Along d(th) = cos(th) n +
// sin(th) m each core point c gives the sinusoid f_c(th) = d(th) . (c - o), and the gap is the
// lowest of them (minus the radius). The support point only changes where d is square to an
// edge of the core (capsule: its axis, box: its three axes); between those breakpoints the gap
// is one sinusoid, whose maximum on the interval is its peak atan2(m . (c - o), n . (c - o))
// clamped to the interval. So the maximum over [0, arc] is at an end, a breakpoint or a peak:
// a dozen support evaluations instead of a search. Returns false for the other shapes
// (cylinder rims and hulls: the caller searches).
bool edge_arc_maximum(const Shape& s, const Pose& p, const Vec3& n, const Vec3& m, const Vec3& o,
                      double arc, double& best_th, double& best_gap) {
  Vec3 axes[3];
  int n_axes = 0;
  switch (s.type) {
    case ShapeType::kSphere: break;
    case ShapeType::kCapsule: axes[n_axes++] = p.rotation.col(2); break;
    case ShapeType::kBox:
      for (int k = 0; k < 3; ++k) axes[n_axes++] = p.rotation.col(k);
      break;
    default: return false;
  }
  // the ends and the breakpoints inside (0, arc), in increasing order (arc <= pi)
  double cuts[5];
  int n_cuts = 0;
  cuts[n_cuts++] = 0.0;
  for (int k = 0; k < n_axes; ++k) {
    // d(th) . e = 0: th = atan2(-n . e, m . e) modulo pi
    double th = std::atan2(-n.dot(axes[k]), m.dot(axes[k]));
    if (th < 0.0) th += kPi;
    if (th > 0.0 && th < arc) cuts[n_cuts++] = th;
  }
  cuts[n_cuts++] = arc;
  // sort the (at most 3) breakpoints by insertion (std::sort here trips GCC 12's -Warray-bounds)
  for (int i = 2; i < n_cuts - 1; ++i)
    for (int j = i; j > 1 && cuts[j] < cuts[j - 1]; --j) std::swap(cuts[j], cuts[j - 1]);
  auto dir = [&](double th) { return Vec3(std::cos(th) * n + std::sin(th) * m); };
  best_th = 0.0;
  best_gap = -INFINITY;
  auto consider = [&](double th) {
    const double g = gap_along(s, p, dir(th), o);
    if (g > best_gap) best_gap = g, best_th = th;
  };
  for (int k = 0; k < n_cuts; ++k) consider(cuts[k]);
  for (int k = 0; k + 1 < n_cuts; ++k) {
    const double lo = cuts[k], hi = cuts[k + 1];
    if (!(hi > lo)) continue;
    // the support point inside the interval, and its sinusoid's peak
    const Vec3 c = support_core(s, p, -dir(0.5 * (lo + hi))) - o;
    const double peak = std::atan2(m.dot(c), n.dot(c));
    if (peak > lo && peak < hi) consider(peak);
  }
  return true;
}

std::uint32_t feature_id(std::uint32_t tri, std::uint32_t region, std::uint32_t local) {
  return (tri * 2654435761u) ^ (region * 0x9E3779B1u + local * 40503u);
}

// Where an edge contact may lie, seen along its normal d (see clip_and_add).
enum class EdgeBand {
  kOnLine,     // on the edge's line: d is square to the edge and inside its arc
  kBelowFace,  // on or behind the triangle's plane: d is a free edge's outward normal m
};

// Clip the low feature (projected along d) to the reference polygon (the triangle, 3 points)
// or segment (an edge, 2 points) and add every survivor with its depth below the plane through
// ref[0] normal to d.
//
// An edge is a segment, not a band: a point of the feature that projects beside the edge's line
// (at a lateral offset s) is sqrt(h^2 + s^2) from the edge, not its height h along d, so only
// the part of the feature that projects onto the segment itself is measured (kOnLine: the
// feature cut by the line, within a round-off band, then by the planes through the segment's
// ends). At the best direction of an arc the shape's lowest points project onto the line (that
// is what makes the direction best), so this loses nothing; when they project past an end of
// the segment the edge reports nothing and the vertex's region takes over. The one exception is
// the end of a free edge's arc (d = m, the outward normal in the triangle's plane): directions
// past it are not searched, so the shape's part behind the triangle's plane (`face_normal`
// side s <= 0) is measured against the edge's vertical wall (kBelowFace).
void clip_and_add(const LowFeature& f, const Vec3* ref, int ref_count, const Vec3& d,
                  std::uint32_t tri, std::uint32_t region, Manifold& out,
                  EdgeBand band = EdgeBand::kOnLine, const Vec3& face_normal = Vec3::UnitZ()) {
  const Vec3 t1 = any_perpendicular(d), t2 = d.cross(t1);
  const Vec3 o = ref[0];
  ClipPolygon poly;
  for (int i = 0; i < f.count; ++i) {
    const Vec3 q = f.pts[i] - o;
    poly.add({q.dot(t1), q.dot(t2), q.dot(d)}, f.ids[i]);
  }
  double rx[3], ry[3];
  for (int i = 0; i < ref_count; ++i) {
    const Vec3 q = ref[i] - o;
    rx[i] = q.dot(t1), ry[i] = q.dot(t2);
  }
  if (ref_count == 2) {
    // an edge: keep the part between the planes through its ends
    double ux = rx[1] - rx[0], uy = ry[1] - ry[0];
    const double len = std::sqrt(ux * ux + uy * uy);
    if (len < 1e-15) return;
    ux /= len, uy /= len;
    const double tol = kClipTolerance * (1.0 + len);
    if (band == EdgeBand::kOnLine) {
      // the lateral axis (-uy, ux): keep |s - s0| <= band, s0 the line's offset
      const double s0 = -uy * rx[0] + ux * ry[0];
      const double w = kLineBand * (1.0 + len);
      clip_half_plane(poly, -uy, ux, s0 + w, 2);
      clip_half_plane(poly, uy, -ux, -s0 + w, 3);
    } else {
      // behind the triangle's plane: face_normal . q <= tol, in the clip frame
      double fx = face_normal.dot(t1), fy = face_normal.dot(t2);
      const double fl = std::sqrt(fx * fx + fy * fy);
      if (fl > 1e-12) {
        fx /= fl, fy /= fl;
        clip_half_plane(poly, fx, fy, fx * rx[0] + fy * ry[0] + tol, 2);
      }
    }
    clip_half_plane(poly, ux, uy, ux * rx[1] + uy * ry[1] + tol, 0);
    clip_half_plane(poly, -ux, -uy, -(ux * rx[0] + uy * ry[0]) + tol, 1);
    if (band == EdgeBand::kOnLine && poly.count > 2) {
      // a feature cut by the line is a piece of the line: keep its two ends
      int lo = 0, hi = 0;
      for (int i = 1; i < poly.count; ++i) {
        const double t = ux * poly.pts[i].x() + uy * poly.pts[i].y();
        if (t < ux * poly.pts[lo].x() + uy * poly.pts[lo].y()) lo = i;
        if (t > ux * poly.pts[hi].x() + uy * poly.pts[hi].y()) hi = i;
      }
      const Vec3 plo = poly.pts[lo], phi = poly.pts[hi];
      const std::uint32_t ilo = poly.ids[lo], ihi = poly.ids[hi];
      poly.count = 0;
      poly.add(plo, ilo);
      if (hi != lo) poly.add(phi, ihi);
    }
  } else {
    const double cx = (rx[0] + rx[1] + rx[2]) / 3.0, cy = (ry[0] + ry[1] + ry[2]) / 3.0;
    for (int i = 0; i < 3 && poly.count > 0; ++i) {
      const int j = (i + 1) % 3;
      double nx = ry[j] - ry[i], ny = -(rx[j] - rx[i]);
      const double len = std::sqrt(nx * nx + ny * ny);
      if (len < 1e-15) return;
      nx /= len, ny /= len;
      double off = nx * rx[i] + ny * ry[i];
      if (nx * cx + ny * cy > off) nx = -nx, ny = -ny, off = -off;
      clip_half_plane(poly, nx, ny, off + kClipTolerance * (1.0 + len), static_cast<std::uint32_t>(i));
    }
  }
  for (int i = 0; i < poly.count; ++i) {
    const Vec3 q = o + poly.pts[i].x() * t1 + poly.pts[i].y() * t2 + poly.pts[i].z() * d;
    const double depth = -poly.pts[i].z();  // below the plane through o
    out.add_from_b(q + depth * d, d, depth, feature_id(tri, region, poly.ids[i]));
  }
}

}  // namespace

Vec3 closest_core_point(const Shape& s, const Pose& p, const Vec3& x) {
  switch (s.type) {
    case ShapeType::kSphere: return p.position;
    case ShapeType::kCapsule: {
      Vec3 a, b;
      capsule_segment(s.height, p.rotation, p.position, a, b);
      return a + closest_on_segment(a, b, x) * (b - a);
    }
    case ShapeType::kBox: {
      const Vec3 l = p.to_body(x).cwiseMax(-s.half_extents).cwiseMin(s.half_extents);
      return p.to_world(l);
    }
    case ShapeType::kCylinder: {
      Vec3 l = p.to_body(x);
      const double rho = std::hypot(l.x(), l.y());
      if (rho > s.radius) l.x() *= s.radius / rho, l.y() *= s.radius / rho;
      l.z() = std::min(std::max(l.z(), -0.5 * s.height), 0.5 * s.height);
      return p.to_world(l);
    }
    case ShapeType::kConvexMesh: {
      // GJK between the hull and the point x (a sphere of radius 0): its closest point, or x
      // itself when x is inside
      const Shape point;  // default: a sphere of radius 0
      Pose at;
      at.position = x;
      const GjkResult g = gjk_distance({&s, &p, &point, &at}, 64);
      return g.overlap ? x : g.point_a;
    }
    default: return p.position;
  }
}

namespace {

// how far the ray from x (inside the shape's solid, body frame) along the unit direction r
// (body frame) runs before it leaves the solid; infinite when it never does (round-off)
double exit_distance(const Shape& s, const Vec3& x, const Vec3& r) {
  double t = INFINITY;
  auto slab = [&](double rk, double xk, double half) {
    if (rk > 0.0) t = std::min(t, (half - xk) / rk);
    if (rk < 0.0) t = std::min(t, (-half - xk) / rk);
  };
  switch (s.type) {
    case ShapeType::kBox:
      for (int k = 0; k < 3; ++k) slab(r[k], x[k], s.half_extents[k]);
      break;
    case ShapeType::kCylinder: {
      slab(r.z(), x.z(), 0.5 * s.height);
      // |x_xy + t r_xy| = radius, the positive root (x is inside: c <= 0)
      const double a = r.x() * r.x() + r.y() * r.y();
      if (a > 0.0) {
        const double b = x.x() * r.x() + x.y() * r.y();
        const double c = x.x() * x.x() + x.y() * x.y() - s.radius * s.radius;
        t = std::min(t, (-b + std::sqrt(std::max(0.0, b * b - a * c))) / a);
      }
      break;
    }
    case ShapeType::kConvexMesh: {
      const ConvexHull& h = *s.hull;
      for (int f = 0; f < h.face_count(); ++f) {
        const double rn = h.face_normals[f].dot(r);
        if (rn > 0.0) t = std::min(t, (h.face_offsets[f] - h.face_normals[f].dot(x)) / rn);
      }
      break;
    }
    default: break;
  }
  return std::max(0.0, t);
}

}  // namespace

bool inside_vertex_contact(const Shape& s, const Pose& p, const Vec3& v, const Vec3* edges,
                           int edge_count, const Vec3& vertex_normal, Vec3& normal,
                           double& depth) {
  if (s.type != ShapeType::kBox && s.type != ShapeType::kCylinder &&
      s.type != ShapeType::kConvexMesh)
    return false;
  const Vec3 x = p.to_body(v);
  bool found = false;
  // whether the best direction so far is square to every edge (the faces' own normal)
  bool best_flat = false;
  // n (world, unit) if it is in the cone and pushes v out with less depth than the best so far.
  // A direction square to every edge (a vertex of a flat patch: a border or hole vertex on flat
  // ground too) competes like the others: when it needs the least depth, the faces around v
  // carry the shape along it and the vertex reports nothing. Dropping it instead let the next
  // direction in the cone win however deep: a border vertex on a flat box's bottom face (inside
  // by round-off) was pushed out through the box's far side face, 0.3 m along a horizontal normal
  auto consider = [&](const Vec3& n) {
    bool away = false;
    for (int k = 0; k < edge_count; ++k) {
      const double tol = 1e-9 * edges[k].norm();  // round-off, as the vertex-region test
      const double ne = n.dot(edges[k]);
      if (ne > tol) return;
      away = away || ne < -tol;
    }
    const double t = exit_distance(s, x, p.rotation.transpose() * -n);
    if (std::isfinite(t) && (!found || t < depth)) {
      found = true;
      best_flat = !away;
      normal = n;
      depth = t;
    }
  };
  const Mat3& r = p.rotation;
  switch (s.type) {
    case ShapeType::kBox:
      for (int k = 0; k < 3; ++k) {
        consider(r.col(k));
        consider(-r.col(k));
      }
      break;
    case ShapeType::kCylinder: {
      consider(r.col(2));
      consider(-r.col(2));
      const double rho = std::hypot(x.x(), x.y());
      if (rho > 0.0) consider(r * Vec3(-x.x() / rho, -x.y() / rho, 0.0));
      break;
    }
    default:  // convex mesh
      for (const Vec3& fn : s.hull->face_normals) consider(r * -fn);
      break;
  }
  if (vertex_normal.squaredNorm() > 0.0) consider(vertex_normal.normalized());
  return found && !best_flat;
}

Vec3 triangle_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double len = n.norm();
  if (!(len > 1e-300) || !std::isfinite(len)) return Vec3::Zero();
  return n / len;
}

int collide_convex_triangle(const Shape& a, const Pose& pa, const ContactTriangle& tri,
                            const ContactSettings& settings, Manifold& out) {
  if (!shape_is_convex_bounded(a)) return 0;
  const Vec3 n = tri.normal.isZero() ? triangle_normal(tri.v[0], tri.v[1], tri.v[2]) : tri.normal;
  if (n.isZero()) return 0;
  const double margin = settings.margin;
  // face direction: the shape entirely in front of the plane (beyond the margin) touches nothing
  const double face_gap = gap_along(a, pa, n, tri.v[0]);
  if (face_gap > margin) return 0;
  // the shape's core wholly in front of the plane (only its radius may reach below)
  const bool core_in_front = face_gap + core_radius(a) >= 0.0;

  // edge arcs of convex and free edges: find the best direction of each; any direction that
  // separates by more than the margin proves the pair apart
  struct EdgeHit {
    bool active = false;
    Vec3 d;
    EdgeBand band = EdgeBand::kOnLine;
  } hits[3];
  // the outward in-plane normals of the concave edges (zero for the others): the incident-side
  // fallback below
  Vec3 concave_out[3] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  // A neighbour across a convex edge whose plane the shape reaches into less than this face's:
  // the shape is in the neighbour's region (a box lying on the top of a step, seen from the
  // riser below it: the riser's plane passes through the box, the top's barely touches it), so
  // this face reports no face contact; the neighbour does. Without this rule the riser clipped
  // the box's far end face to the sliver of riser under the top and reported contacts as deep as
  // the box's reach past the riser, pushing it off the step or through the top.
  bool face_superseded = false;
  for (int i = 0; i < 3; ++i) {
    const TriangleEdge& e = tri.edges[i];
    const Vec3& p0 = tri.v[i];
    const Vec3& p1 = tri.v[(i + 1) % 3];
    const Vec3 along = p1 - p0;
    const double len = along.norm();
    if (!(len > 0.0)) continue;
    const Vec3 m = along.cross(n) / len;  // in-plane outward edge normal
    double arc;                           // angle from n towards m (rad)
    double end_c = 0.0, end_s = 1.0;      // (cos, sin) of arc
    if (!e.has_neighbour) {
      arc = 0.5 * kPi;
    } else {
      // the neighbour's normal is cos(phi) n + sin(phi) m: convex if it tilts outwards
      const double sn = e.neighbour_normal.dot(m), cn = e.neighbour_normal.dot(n);
      // flat or concave: no edge region. Every convex edge, however slight, gets one: past a
      // convex edge the two faces' regions leave a sliver (as wide as the height above the edge
      // times the bend) where only the edge can see the shape
      if (sn <= 0.0) {
        if (sn < -kConcaveSine) concave_out[i] = m;
        continue;
      }
      const double l = std::sqrt(sn * sn + cn * cn);
      end_c = cn / l, end_s = sn / l;
      arc = -1.0;  // atan2(sn, cn), computed below only when needed
    }
    // Exact skip: with every core point c in front of the plane (n . (c - p0) >= 0) and inside
    // the edge (m . (c - p0) <= 0), each point's height along d(th) = cos(th) n + sin(th) m is
    // at most its height along n, so no direction of the arc separates better than the face:
    // the edge region is inactive and proves nothing the face test did not (the common case of
    // a foot standing on a triangle's neighbours)
    if (core_in_front && m.dot(support_core(a, pa, m) - p0) <= 0.0) continue;
    if (a.type == ShapeType::kSphere) {
      // A sphere's gap along d(th) is one sinusoid, an cos(th) + am sin(th) - r, whose peak is
      // the direction (an, am) of the centre from the edge's line: no trigonometry needed.
      // Same regions as below: the peak inside the arc is the edge's direction; outside it the
      // better end (th = 0 is the face; th = arc is past the neighbour, or a free edge's wall).
      const Vec3 c = pa.position - p0;
      const double an = n.dot(c), am = m.dot(c);
      const double end_gap = end_c * an + end_s * am - a.radius;
      if (end_gap > margin) return 0;
      if (e.has_neighbour && end_gap > face_gap + kSupersedeTolerance) face_superseded = true;
      double best = an - a.radius;
      Vec3 d = n;
      bool interior = false, at_end = false;
      if (am > 0.0 && an * end_s - am * end_c > 0.0) {
        const double l = std::sqrt(an * an + am * am);
        best = l - a.radius, d = (an * n + am * m) / l, interior = true;
      } else if (end_gap > best) {
        best = end_gap, d = end_c * n + end_s * m, at_end = true;
      }
      if (best > margin) return 0;
      if (e.owned && best > face_gap && (interior || (at_end && !e.has_neighbour))) {
        hits[i].active = true;
        hits[i].d = d;
        hits[i].band = interior ? EdgeBand::kOnLine : EdgeBand::kBelowFace;
      }
      continue;
    }
    if (arc < 0.0) arc = std::atan2(end_s, end_c);
    auto gap_at = [&](double th) {
      return gap_along(a, pa, std::cos(th) * n + std::sin(th) * m, p0);
    };
    const double end_gap = gap_at(arc);
    if (end_gap > margin) return 0;
    if (e.has_neighbour && end_gap > face_gap + kSupersedeTolerance) face_superseded = true;
    double best_th = 0.0, best = 0.0;
    if (!edge_arc_maximum(a, pa, n, m, p0, arc, best_th, best)) {
      // golden-section search for the maximum of the gap on [0, arc] (curved cores)
      constexpr double kInvPhi = 0.6180339887498949;
      double lo = 0.0, hi = arc;
      double x1 = hi - kInvPhi * (hi - lo), x2 = lo + kInvPhi * (hi - lo);
      double g1 = gap_at(x1), g2 = gap_at(x2);
      for (int it = 0; it < kGoldenIterations; ++it) {
        if (g1 >= g2) {
          hi = x2, x2 = x1, g2 = g1;
          x1 = hi - kInvPhi * (hi - lo);
          g1 = gap_at(x1);
        } else {
          lo = x1, x1 = x2, g1 = g2;
          x2 = lo + kInvPhi * (hi - lo);
          g2 = gap_at(x2);
        }
      }
      best_th = 0.5 * (lo + hi), best = gap_at(best_th);
      if (end_gap > best) best = end_gap, best_th = arc;
    }
    if (best > margin) return 0;
    // the edge region only takes over where it separates better than the face, and (across a
    // neighbour) only while the best direction is short of the neighbour's normal: beyond it
    // the shape is in the neighbour's face region, which the neighbour reports
    const bool past_neighbour = e.has_neighbour && end_gap >= gap_at(arc - 1e-7);
    if (e.owned && best > face_gap && best_th > 1e-9 && !past_neighbour) {
      hits[i].active = true;
      hits[i].d = std::cos(best_th) * n + std::sin(best_th) * m;
      hits[i].band = !e.has_neighbour && best_th >= arc ? EdgeBand::kBelowFace : EdgeBand::kOnLine;
    }
  }

  // (a sphere's lowest feature is its lowest point: no tolerance, no sincos per triangle)
  const bool flat_features = a.type != ShapeType::kSphere;
  const double cos_tol = flat_features ? std::cos(settings.flat_tolerance) : 1.0;
  const double sin_tol = flat_features ? std::sin(settings.flat_tolerance) : 0.0;
  Manifold tmp;
  LowFeature f;
  // A core point behind the plane (h < 0) that projects outside the triangle only across concave
  // edges lies under a crease (a valley line): it projects outside the triangles on both sides,
  // and neither reported anything, so a sphere or capsule pushed in there (a landing at a large
  // time step) fell through the terrain. The face then pushes it out along its normal, by the
  // plane's depth, from the point of the triangle nearest the projection, if the shape's radius
  // reaches over the triangle from there.
  auto crease_contact = [&](const Vec3& core, std::uint32_t local) {
    const double h = n.dot(core - tri.v[0]);
    if (!(h < 0.0)) return;
    const Vec3 q = core - h * n;
    Vec3 at = q;
    double nearest = INFINITY;  // squared distance to the triangle's boundary
    for (int i = 0; i < 3; ++i) {
      const Vec3 &p0 = tri.v[i], &p1 = tri.v[(i + 1) % 3];
      const Vec3 along = p1 - p0;
      const double len = along.norm();
      if (along.cross(n).dot(q - p0) > len * kClipTolerance * (1.0 + len) &&
          concave_out[i].isZero())
        return;  // outside across a convex or free edge: its regions report
      const Vec3 x = p0 + closest_on_segment(p0, p1, q) * along;
      if ((q - x).squaredNorm() < nearest) nearest = (q - x).squaredNorm(), at = x;
    }
    if (nearest < a.radius * a.radius)
      tmp.add_from_b(at, n, a.radius - h, feature_id(tri.id, 0, local));
  };
  if (face_superseded) {
    // the neighbour's face contact covers the shape (see face_superseded)
  } else if (a.type == ShapeType::kSphere) {
    // a sphere's lowest point, c - r n, clipped to the triangle: the same test as clip_and_add
    // (inside every edge, within the clip tolerance) without building a polygon
    const Vec3 c = pa.position;
    bool inside = true;
    for (int i = 0; i < 3 && inside; ++i) {
      const Vec3 along = tri.v[(i + 1) % 3] - tri.v[i];
      const double len = along.norm();
      inside = along.cross(n).dot(c - tri.v[i]) <= len * kClipTolerance * (1.0 + len);
    }
    const double h = n.dot(c - tri.v[0]);
    if (inside)
      tmp.add_from_b(c - h * n, n, a.radius - h, feature_id(tri.id, 0, 1));
    else
      crease_contact(c, 1);
  } else {
    lowest_feature(a, pa, n, cos_tol, sin_tol, f);
    clip_and_add(f, tri.v, 3, n, tri.id, 0, tmp);
    if (tmp.count == 0 && a.type == ShapeType::kCapsule)  // its core's lowest points
      for (int k = 0; k < f.count; ++k) crease_contact(f.pts[k] + a.radius * n, f.ids[k]);
    // The lowest edge or corner may project outside the triangle across a concave edge while
    // the shape reaches below the plane (face_gap <= margin). In a concave corner (a floor
    // meeting a wall; no edge region on either side) a tilted box's lowest edge lies past the
    // floor's foot line and below the wall's, and neither face reported anything: the box fell
    // through. Then the side the shape turns to the triangle (a face within 60 degrees of
    // facing it: a box always has one), clipped to the triangle, gives the part of that side
    // over the triangle with its depth (points above the plane by more than the margin are
    // culled below). Not across a convex edge: past one, the edge or vertex regions report.
    auto escapes_across_concave_edge = [&] {
      for (int i = 0; i < 3; ++i) {
        if (concave_out[i].isZero()) continue;
        for (int k = 0; k < f.count; ++k)
          if (concave_out[i].dot(f.pts[k] - tri.v[i]) > 0.0) return true;
      }
      return false;
    };
    if (tmp.count == 0 && f.count < 3 && a.type != ShapeType::kCapsule &&
        escapes_across_concave_edge()) {
      LowFeature side;
      lowest_feature(a, pa, n, kIncidentSideCos, 0.0, side);
      if (side.count >= 3) clip_and_add(side, tri.v, 3, n, tri.id, 0, tmp);
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (!hits[i].active) continue;
    const Vec3 edge[2] = {tri.v[i], tri.v[(i + 1) % 3]};
    lowest_feature(a, pa, hits[i].d, cos_tol, sin_tol, f);
    clip_and_add(f, edge, 2, hits[i].d, tri.id, static_cast<std::uint32_t>(1 + i), tmp,
                 hits[i].band, n);
  }
  // vertex regions of vertices whose two edges are both free (a lone corner): the shape's
  // closest core point u past both edges (Ericson's vertex-region test) touches the vertex
  for (int i = 0; i < 3; ++i) {
    const int prev = (i + 2) % 3;
    if (!tri.vertex_regions || tri.edges[i].has_neighbour || tri.edges[prev].has_neighbour) continue;
    const Vec3& v = tri.v[i];
    const Vec3 q = closest_core_point(a, pa, v);
    const Vec3 u = q - v;
    const double dist = u.norm();
    if (dist > core_radius(a) + margin) continue;
    const Vec3 edges[2] = {tri.v[(i + 1) % 3] - v, tri.v[prev] - v};
    if (!(dist > 1e-12)) {
      // v inside a box, cylinder or hull: the face direction in the corner's cone
      Vec3 nv;
      double depth;
      if (inside_vertex_contact(a, pa, v, edges, 2, n, nv, depth) && nv.dot(n) > 0.0)
        tmp.add_from_b(v, nv, depth, feature_id(tri.id, 4 + i, 0));
      continue;
    }
    if (u.dot(n) <= 0.0 || u.dot(edges[0]) > 0.0 || u.dot(edges[1]) > 0.0) continue;
    tmp.add_from_b(v, u / dist, core_radius(a) - dist, feature_id(tri.id, 4 + i, 0));
  }
  cull_manifold(tmp, margin);
  reduce_manifold(tmp, kMaxPointsPerTriangle);
  // keep room in the caller's buffer: reduce what it holds if needed (deterministic)
  make_room(out, tmp.count);
  for (int i = 0; i < tmp.count; ++i) out.points[out.count++] = tmp.points[i];
  return tmp.count;
}

}  // namespace torsion
