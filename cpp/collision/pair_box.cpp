// Exact routines for boxes: sphere-box (closest point) and box-box (separating-axis test over
// the 15 axes, then clipping of the incident face against the reference face for a full
// manifold, or the closest points of two edges for an edge-edge contact).
#include <algorithm>
#include <cmath>

#include "collision/narrow_phase.hpp"
#include "collision/polygon_clip.hpp"
#include "collision/segment.hpp"
#include "core/cpu_dispatch.hpp"

namespace torsion {

void collide_sphere_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                        const ContactSettings&, Manifold& out) {
  const Vec3& h = b.half_extents;
  const Vec3 c = pb.to_body(pa.position);  // sphere centre in the box frame
  const Vec3 q = c.cwiseMax(-h).cwiseMin(h);
  const Vec3 d = c - q;
  const double dist = d.norm();
  if (dist > 1e-12) {
    // centre outside the box: closest point q on its surface
    const Vec3 n = pb.rotation * (d / dist);
    out.add_from_b(pb.to_world(q), n, a.radius - dist, 0);
    return;
  }
  // centre inside: leave through the nearest face (lowest axis index on ties)
  int axis = 0;
  double gap = h[0] - std::abs(c[0]);
  for (int k = 1; k < 3; ++k) {
    const double g = h[k] - std::abs(c[k]);
    if (g < gap) gap = g, axis = k;
  }
  const double s = c[axis] >= 0.0 ? 1.0 : -1.0;
  Vec3 on_face = c;
  on_face[axis] = s * h[axis];
  const Vec3 n = pb.rotation.col(axis) * s;
  out.add_from_b(pb.to_world(on_face), n, a.radius + gap, 1 + static_cast<std::uint32_t>(axis));
}

namespace {

// the four corners of a box face in cyclic order: the face with outward normal s * axis k
void box_face(const Pose& p, const Vec3& h, int k, double s, Vec3 out[4]) {
  const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
  const Vec3 c = p.position + p.rotation.col(k) * (s * h[k]);
  const Vec3 e1 = p.rotation.col(k1) * h[k1], e2 = p.rotation.col(k2) * h[k2];
  out[0] = c + e1 + e2;
  out[1] = c - e1 + e2;
  out[2] = c - e1 - e2;
  out[3] = c + e1 - e2;
}

// index of the box axis most aligned (either sign) with direction d, and the sign
int most_aligned_axis(const Mat3& r, const Vec3& d, double& sign) {
  int best = 0;
  double best_dot = r.col(0).dot(d);
  for (int k = 1; k < 3; ++k) {
    const double dk = r.col(k).dot(d);
    if (std::abs(dk) > std::abs(best_dot)) best = k, best_dot = dk;
  }
  sign = best_dot >= 0.0 ? 1.0 : -1.0;
  return best;
}

// Edge-edge axis n (B to A) between two boxes whose supporting faces for n are nearly
// perpendicular to it (within about 8 degrees): a single closest point would leave a box lying
// across another's edges with one support that jumps between edge pairs as it tips (measured: a
// box rocking for seconds in a settled pile). Instead, as for a face contact, B's supporting face
// is projected along n onto A's and clipped to it; each vertex of the overlap gives a point of
// A's face and the point of B's face behind it along n, at depth -(their distance along n). The
// deepest is the edge crossing SAT found; the others are shallower (speculative beyond 0).
// False (the caller reports the edge-edge point) when the faces are not that close to
// perpendicular to n or the overlap does not reproduce SAT's depth.
constexpr double kSupportFaceCos = 0.99;  // cos(8.1 degrees)

bool edge_face_manifold(const Pose& pa, const Vec3& ha, const Pose& pb, const Vec3& hb,
                        const Vec3& n, double depth, int axis, Manifold& out) {
  double sa = 1.0, sb = 1.0;
  const int ka = most_aligned_axis(pa.rotation, -n, sa);
  const int kb = most_aligned_axis(pb.rotation, n, sb);
  const Vec3 ma = pa.rotation.col(ka) * sa;  // A's supporting face's outward normal (about -n)
  const double ma_n = ma.dot(n);
  if (-ma_n < kSupportFaceCos || sb * pb.rotation.col(kb).dot(n) < kSupportFaceCos) return false;
  Vec3 inc[4];
  box_face(pb, hb, kb, sb, inc);
  const int k1 = (ka + 1) % 3, k2 = (ka + 2) % 3;
  const Vec3 f0 = pa.position + ma * ha[ka];
  const Vec3 u1 = pa.rotation.col(k1), u2 = pa.rotation.col(k2);
  // B's vertex q moves along n by t to A's face plane: (q + t n - f0) . ma = 0
  ClipPolygon poly;
  for (int v = 0; v < 4; ++v) {
    const double t = -(inc[v] - f0).dot(ma) / ma_n;
    const Vec3 on_a = inc[v] + t * n - f0;
    poly.add({on_a.dot(u1), on_a.dot(u2), t}, static_cast<std::uint32_t>(v));
  }
  clip_to_rectangle(poly, ha[k1], ha[k2]);
  if (poly.count == 0) return false;
  double deepest = -INFINITY;
  for (int v = 0; v < poly.count; ++v) deepest = std::max(deepest, -poly.pts[v].z());
  // the overlap must contain SAT's crossing (same depth up to round-off); else keep the edge point
  if (std::abs(deepest - depth) > 1e-9 * (1.0 + std::abs(depth)) + 1e-12) return false;
  const std::uint32_t code = 0x80u + static_cast<std::uint32_t>(axis);
  for (int v = 0; v < poly.count; ++v) {
    const Vec3& x = poly.pts[v];
    const Vec3 on_a = f0 + x.x() * u1 + x.y() * u2;
    const Vec3 on_b = on_a - x.z() * n;  // B's point: t behind A's along n
    out.add_from_b(on_b, n, -x.z(), (code << 24) ^ (poly.ids[v] & 0xFFFFFFu));
  }
  return true;
}

// Face contact of face axis `axis` (0..2 A's, 3..5 B's) with outward reference normal m: the
// incident face (the other box's face most anti-parallel to m) clipped to the reference face,
// in the reference face's frame (x, y along its edges, z along m); f0 its centre, u1, u2 its
// edge directions, sr the side of the reference box it is on
void clip_face(const Pose& pa, const Vec3& ha, const Pose& pb, const Vec3& hb, int axis,
               const Vec3& m, ClipPolygon& poly, Vec3& f0, Vec3& u1, Vec3& u2, double& sr) {
  const bool ref_is_a = axis < 3;
  const Pose& pr = ref_is_a ? pa : pb;
  const Pose& pi = ref_is_a ? pb : pa;
  const Vec3& hr = ref_is_a ? ha : hb;
  const Vec3& hi = ref_is_a ? hb : ha;
  const int kr = axis % 3;
  sr = pr.rotation.col(kr).dot(m) >= 0.0 ? 1.0 : -1.0;
  double si;
  const int ki = most_aligned_axis(pi.rotation, -m, si);
  Vec3 inc[4];
  box_face(pi, hi, ki, si, inc);
  const int k1 = (kr + 1) % 3, k2 = (kr + 2) % 3;
  f0 = pr.position + pr.rotation.col(kr) * (sr * hr[kr]);
  u1 = pr.rotation.col(k1);
  u2 = pr.rotation.col(k2);
  for (int v = 0; v < 4; ++v) {
    const Vec3 d = inc[v] - f0;
    poly.add({d.dot(u1), d.dot(u2), d.dot(m)}, static_cast<std::uint32_t>(v));
  }
  clip_to_rectangle(poly, hr[k1], hr[k2]);
}

// whether the clipped contact of face axis `axis` reaches `depth` (its overlap along the axis)
// up to round-off
bool face_reaches_depth(const Pose& pa, const Vec3& ha, const Pose& pb, const Vec3& hb,
                        const Vec3& t, int axis, double depth) {
  const Vec3 l = axis < 3 ? Vec3(pa.rotation.col(axis)) : Vec3(pb.rotation.col(axis - 3));
  const Vec3 n = t.dot(l) >= 0.0 ? l : Vec3(-l);
  ClipPolygon poly;
  Vec3 f0, u1, u2;
  double sr;
  clip_face(pa, ha, pb, hb, axis, axis < 3 ? Vec3(-n) : n, poly, f0, u1, u2, sr);
  double deepest = -INFINITY;
  for (int v = 0; v < poly.count; ++v) deepest = std::max(deepest, -poly.pts[v].z());
  return std::abs(deepest - depth) <= 1e-9 * (1.0 + std::abs(depth)) + 1e-12;
}

}  // namespace

namespace {

// (the body of collide_box_box, built twice: core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE void collide_box_box_body(const Shape& a, const Pose& pa, const Shape& b,
                                                const Pose& pb, const ContactSettings& settings,
                                                Manifold& out) {
  const Vec3 &ha = a.half_extents, &hb = b.half_extents;
  const Mat3 &ra = pa.rotation, &rb = pb.rotation;
  const Vec3 t = pa.position - pb.position;  // from B to A
  // everything in A's frame (Ericson, Real-Time Collision Detection 4.4.1): r(i, j) = a_i . b_j
  const Mat3 r = ra.transpose() * rb;
  const Mat3 abs_r = r.cwiseAbs();
  const Vec3 ta = ra.transpose() * t;
  const double scale = ha.maxCoeff() + hb.maxCoeff();

  // face axes: 0..2 A's, 3..5 B's; the first best wins ties, so A's faces are preferred
  double best_sep = -INFINITY;
  int best_axis = -1;
  for (int i = 0; i < 3; ++i) {
    const double s = std::abs(ta[i]) - (ha[i] + hb.dot(abs_r.row(i)));
    if (s > settings.margin) return;
    if (s > best_sep) best_sep = s, best_axis = i;
  }
  for (int j = 0; j < 3; ++j) {
    const double s = std::abs(ta.dot(r.col(j))) - (ha.dot(abs_r.col(j)) + hb[j]);
    if (s > settings.margin) return;
    // B's face must beat A's clearly, so a symmetric stack picks A's face deterministically
    if (s > best_sep + 1e-9 * scale) best_sep = s, best_axis = 3 + j;
  }
  // edge axes a_i x b_j (length sqrt(1 - r_ij^2)): must beat the best face axis by 0.1% of its
  // depth (plus 1e-6 of the size), since near-parallel edges give noisy axes and a face contact
  // makes a better manifold; so the reported depth may exceed the exact minimum translation by
  // at most that much
  const double face_sep = best_sep;
  const int face_axis = best_axis;
  const double edge_threshold = face_sep + 1e-3 * std::abs(face_sep) + 1e-6 * scale;
  int edge_i = -1, edge_j = -1;
  // the best edge axis the threshold passed over (deeper than the face, by less than the bias)
  double skipped_sep = -INFINITY;
  int skipped_i = -1, skipped_j = -1;
  // the runner-up edge axis (see the edge-edge contact below)
  double second_sep = -INFINITY;
  int second_i = -1, second_j = -1;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const double len_sq = 1.0 - r(i, j) * r(i, j);
      if (len_sq < 1e-12) continue;  // parallel edges
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double proj_a = ha[i1] * abs_r(i2, j) + ha[i2] * abs_r(i1, j);
      const double proj_b = hb[j1] * abs_r(i, j2) + hb[j2] * abs_r(i, j1);
      const double dist = std::abs(ta[i2] * r(i1, j) - ta[i1] * r(i2, j));
      const double s = (dist - proj_a - proj_b) / std::sqrt(len_sq);
      if (s > settings.margin) return;
      if (s > best_sep && s > edge_threshold) {
        if (edge_i >= 0) second_sep = best_sep, second_i = edge_i, second_j = edge_j;
        best_sep = s, best_axis = 6 + 3 * i + j, edge_i = i, edge_j = j;
      } else {
        if (s > face_sep && s > skipped_sep) skipped_sep = s, skipped_i = i, skipped_j = j;
        if (s > second_sep) second_sep = s, second_i = i, second_j = j;
      }
    }
  }
  if (best_axis < 6 && skipped_i >= 0) {
    // A face axis was preferred to a slightly deeper edge axis. That is right when the face's
    // clipped contact reaches the face axis's depth; in a deep overlap the incident vertex that
    // sets that depth can lie outside the reference face, and the clipped points were then
    // shallower than the depth along the face normal (0.51611 against 0.51657 for two boxes
    // 0.5 m into each other): the normal and the depth disagreed. Then the edge axis is used.
    if (!face_reaches_depth(pa, ha, pb, hb, t, best_axis, -best_sep))
      best_sep = skipped_sep, best_axis = 6 + 3 * skipped_i + skipped_j, edge_i = skipped_i,
      edge_j = skipped_j;
  }
  Vec3 best_l;
  if (best_axis < 3) best_l = ra.col(best_axis);
  else if (best_axis < 6) best_l = rb.col(best_axis - 3);
  else best_l = ra.col(edge_i).cross(rb.col(edge_j)).normalized();
  // normal from B to A
  const Vec3 n = t.dot(best_l) >= 0.0 ? best_l : Vec3(-best_l);

  if (best_axis >= 6 && edge_face_manifold(pa, ha, pb, hb, n, -best_sep, best_axis, out)) return;
  if (best_axis >= 6) {
    // edge-edge: the edge of A farthest along -n against the edge of B farthest along +n
    auto edge_point = [&](int i, int j, const Vec3& nn, double depth) {
      Vec3 ea = pa.position, eb = pb.position;
      for (int k = 0; k < 3; ++k) {
        if (k != i) ea += ra.col(k) * (ha[k] * (ra.col(k).dot(nn) > 0.0 ? -1.0 : 1.0));
        if (k != j) eb += rb.col(k) * (hb[k] * (rb.col(k).dot(nn) > 0.0 ? 1.0 : -1.0));
      }
      const Vec3 da = ra.col(i) * ha[i], db = rb.col(j) * hb[j];
      double s, u;
      closest_segment_segment(ea - da, ea + da, eb - db, eb + db, s, u);
      const Vec3 on_a = ea - da + 2.0 * s * da, on_b = eb - db + 2.0 * u * db;
      const Vec3 mid = 0.5 * (on_a + on_b);
      out.add_from_b(mid + 0.5 * depth * nn, nn, depth,
                     0x100u + static_cast<std::uint32_t>(6 + 3 * i + j));
    };
    edge_point(edge_i, edge_j, n, -best_sep);
    // An edge of one box across the corner of the other makes two edge axes (the corner's two
    // edges) nearly equally good: with one point, SAT's choice flipped between them from step
    // to step, each step's contact holding one edge while the other sank (1.4 mm in 60 steps in
    // the 100-cube pile of bench_contact.py). So the runner-up edge axis gets its point too when
    // its separation is within kEdgeRunnerUp of the best (its depth along its own axis is then
    // within that of the exact one).
    constexpr double kEdgeRunnerUp = 1e-4;  // m
    if (second_i >= 0 && !(second_i == edge_i && second_j == edge_j) &&
        second_sep > best_sep - kEdgeRunnerUp) {
      const Vec3 l2 = ra.col(second_i).cross(rb.col(second_j)).normalized();
      edge_point(second_i, second_j, t.dot(l2) >= 0.0 ? l2 : Vec3(-l2), -second_sep);
    }
    // A single edge point lets the boxes turn about it: a tumbling box pivoting on another's
    // edge brought its face down onto it within one step, 1.2 mm deep, since no contact held
    // that face (the 100-cube pile of bench_contact.py). So the best face axis's clipped points
    // that are still apart along it, or not deeper than the edge contact, are added too
    // (cull_manifold keeps those within the margin): a point above the reference face, inside
    // its rectangle, is as far from that face as its gap along the face normal, so it is an
    // exact speculative contact. A deeper point is left out: in an edge-edge overlap its depth
    // along the face normal exceeds the boxes' penetration (SAT's edge depth). A point that had
    // just crossed the face plane was dropped by a rule of gap < 0 and sank 1.3 mm in a step.
    const Vec3 lf = face_axis < 3 ? Vec3(ra.col(face_axis)) : Vec3(rb.col(face_axis - 3));
    const Vec3 nf = t.dot(lf) >= 0.0 ? lf : Vec3(-lf);
    const bool ref_is_a = face_axis < 3;
    const Vec3 m = ref_is_a ? Vec3(-nf) : nf;
    ClipPolygon poly;
    Vec3 f0, u1, u2;
    double sr;
    clip_face(pa, ha, pb, hb, face_axis, m, poly, f0, u1, u2, sr);
    const std::uint32_t face_code =
        static_cast<std::uint32_t>(face_axis) * 2u + (sr > 0 ? 1u : 0u);
    for (int v = 0; v < poly.count; ++v) {
      const Vec3& x = poly.pts[v];
      const double gap_depth = -x.z();
      if (gap_depth > std::max(0.0, -best_sep) || gap_depth < -settings.margin) continue;
      const Vec3 on_inc = f0 + x.x() * u1 + x.y() * u2 + x.z() * m;
      const std::uint32_t feature = (face_code << 24) ^ (poly.ids[v] & 0xFFFFFFu);
      if (ref_is_a) out.add_from_b(on_inc, nf, gap_depth, feature);
      else out.add_from_b(on_inc + gap_depth * nf, nf, gap_depth, feature);
    }
    return;
  }

  // face contact: the reference face is the one of the separating axis; the incident face is
  // the other box's face most anti-parallel to it
  const bool ref_is_a = best_axis < 3;
  // outward normal of the reference face: A's face looks towards B (-n), B's towards A (+n)
  const Vec3 m = ref_is_a ? Vec3(-n) : n;
  ClipPolygon poly;
  Vec3 f0, u1, u2;
  double sr;
  clip_face(pa, ha, pb, hb, best_axis, m, poly, f0, u1, u2, sr);
  const std::uint32_t face_code = static_cast<std::uint32_t>(best_axis) * 2u + (sr > 0 ? 1u : 0u);
  for (int v = 0; v < poly.count; ++v) {
    const Vec3& x = poly.pts[v];
    const double depth = -x.z();  // below the reference face = inside the reference box
    const Vec3 on_inc = f0 + x.x() * u1 + x.y() * u2 + x.z() * m;
    const std::uint32_t feature = (face_code << 24) ^ (poly.ids[v] & 0xFFFFFFu);
    // the incident point lies on B when the reference face is A's, and on A otherwise
    if (ref_is_a) out.add_from_b(on_inc, n, depth, feature);
    else out.add_from_b(on_inc + depth * n, n, depth, feature);
  }
}

void collide_box_box_baseline(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                              const ContactSettings& settings, Manifold& out) {
  collide_box_box_body(a, pa, b, pb, settings, out);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void collide_box_box_avx2(
    const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
    const ContactSettings& settings, Manifold& out) {
  collide_box_box_body(a, pa, b, pb, settings, out);
}
#endif

}  // namespace

void collide_box_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                     const ContactSettings& settings, Manifold& out) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return collide_box_box_avx2(a, pa, b, pb, settings, out);
#endif
  collide_box_box_baseline(a, pa, b, pb, settings, out);
}

}  // namespace torsion
