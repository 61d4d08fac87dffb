// Exact routines for boxes: sphere-box (closest point) and box-box (separating-axis test over
// the 15 axes, then clipping of the incident face against the reference face for a full
// manifold, or the closest points of two edges for an edge-edge contact).
#include <algorithm>
#include <cmath>

#include "collision/narrow_phase.hpp"
#include "collision/polygon_clip.hpp"
#include "collision/segment.hpp"

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

}  // namespace

void collide_box_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                     const ContactSettings& settings, Manifold& out) {
  const Vec3 &ha = a.half_extents, &hb = b.half_extents;
  const Mat3 &ra = pa.rotation, &rb = pb.rotation;
  const Vec3 t = pa.position - pb.position;  // from B to A

  const Mat3 abs_c = (ra.transpose() * rb).cwiseAbs();
  const double scale = ha.maxCoeff() + hb.maxCoeff();

  // separation along unit axis l (positive: apart)
  auto separation = [&](const Vec3& l) {
    const double proj_a = ha.x() * std::abs(ra.col(0).dot(l)) + ha.y() * std::abs(ra.col(1).dot(l)) +
                          ha.z() * std::abs(ra.col(2).dot(l));
    const double proj_b = hb.x() * std::abs(rb.col(0).dot(l)) + hb.y() * std::abs(rb.col(1).dot(l)) +
                          hb.z() * std::abs(rb.col(2).dot(l));
    return std::abs(t.dot(l)) - proj_a - proj_b;
  };

  // face axes: 0..2 A's, 3..5 B's; the first best wins ties, so A's faces are preferred
  double best_sep = -INFINITY;
  int best_axis = -1;
  Vec3 best_l = Vec3::UnitZ();
  for (int k = 0; k < 6; ++k) {
    const Vec3 l = k < 3 ? Vec3(ra.col(k)) : Vec3(rb.col(k - 3));
    const double s = separation(l);
    if (s > settings.margin) return;
    // B's face must beat A's clearly, so a symmetric stack picks A's face deterministically
    if (s > best_sep + (k >= 3 ? 1e-9 * scale : 0.0)) best_sep = s, best_axis = k, best_l = l;
  }
  // edge axes: must beat the best face axis by a relative tolerance, since near-parallel edges
  // give noisy axes and a face contact makes a better manifold
  const double face_sep = best_sep;
  int edge_i = -1, edge_j = -1;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 l = ra.col(i).cross(rb.col(j));
      const double len = l.norm();
      if (len < 1e-6 || abs_c(i, j) > 1.0 - 1e-10) continue;  // parallel edges
      l /= len;
      const double s = separation(l);
      if (s > settings.margin) return;
      if (s > best_sep && s > face_sep + 0.05 * std::abs(face_sep) + 1e-6 * scale)
        best_sep = s, best_axis = 6 + 3 * i + j, best_l = l, edge_i = i, edge_j = j;
    }
  }
  // normal from B to A
  const Vec3 n = t.dot(best_l) >= 0.0 ? best_l : Vec3(-best_l);

  if (best_axis >= 6) {
    // edge-edge: the edge of A farthest along -n against the edge of B farthest along +n
    Vec3 ea = pa.position, eb = pb.position;
    for (int k = 0; k < 3; ++k) {
      if (k != edge_i) ea += ra.col(k) * (ha[k] * (ra.col(k).dot(n) > 0.0 ? -1.0 : 1.0));
      if (k != edge_j) eb += rb.col(k) * (hb[k] * (rb.col(k).dot(n) > 0.0 ? 1.0 : -1.0));
    }
    const Vec3 da = ra.col(edge_i) * ha[edge_i], db = rb.col(edge_j) * hb[edge_j];
    double s, u;
    closest_segment_segment(ea - da, ea + da, eb - db, eb + db, s, u);
    const Vec3 on_a = ea - da + 2.0 * s * da, on_b = eb - db + 2.0 * u * db;
    const double depth = -best_sep;
    const Vec3 mid = 0.5 * (on_a + on_b);
    out.add_from_b(mid + 0.5 * depth * n, n, depth, 0x100u + static_cast<std::uint32_t>(best_axis));
    return;
  }

  // face contact: the reference face is the one of the separating axis; the incident face is
  // the other box's face most anti-parallel to it
  const bool ref_is_a = best_axis < 3;
  const Pose& pr = ref_is_a ? pa : pb;
  const Pose& pi = ref_is_a ? pb : pa;
  const Vec3& hr = ref_is_a ? ha : hb;
  const Vec3& hi = ref_is_a ? hb : ha;
  const int kr = best_axis % 3;
  // outward normal of the reference face: A's face looks towards B (-n), B's towards A (+n)
  const Vec3 m = ref_is_a ? Vec3(-n) : n;
  const double sr = pr.rotation.col(kr).dot(m) >= 0.0 ? 1.0 : -1.0;
  double si;
  const int ki = most_aligned_axis(pi.rotation, -m, si);
  Vec3 inc[4];
  box_face(pi, hi, ki, si, inc);

  // clip in the reference face's frame: x, y along its edges, z along its outward normal
  const int k1 = (kr + 1) % 3, k2 = (kr + 2) % 3;
  const Vec3 f0 = pr.position + pr.rotation.col(kr) * (sr * hr[kr]);
  const Vec3 u1 = pr.rotation.col(k1), u2 = pr.rotation.col(k2);
  ClipPolygon poly;
  for (int v = 0; v < 4; ++v) {
    const Vec3 d = inc[v] - f0;
    poly.add({d.dot(u1), d.dot(u2), d.dot(m)}, static_cast<std::uint32_t>(v));
  }
  clip_to_rectangle(poly, hr[k1], hr[k2]);
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

}  // namespace torsion
