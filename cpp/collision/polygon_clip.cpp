#include "collision/polygon_clip.hpp"

namespace torsion {

namespace {

// id of a vertex made where edge (id_a, id_b) crosses a clip plane: order-independent mix
std::uint32_t mix_ids(std::uint32_t id_a, std::uint32_t id_b, std::uint32_t plane) {
  const std::uint32_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
  return ((lo * 2654435761u) ^ (hi * 40503u + 0x9E37u)) * 8u + 0x10u + plane;
}

}  // namespace

void clip_half_plane(ClipPolygon& poly, double nx, double ny, double offset,
                     std::uint32_t plane_id) {
  if (poly.count == 0) return;
  ClipPolygon in = poly;
  poly.count = 0;
  if (in.count == 1) {
    if (nx * in.pts[0].x() + ny * in.pts[0].y() <= offset) poly = in;
    return;
  }
  // a two-point polygon is a segment: clip it, do not close it
  const int edges = in.count == 2 ? 1 : in.count;
  if (in.count == 2) {
    const double d0 = nx * in.pts[0].x() + ny * in.pts[0].y() - offset;
    const double d1 = nx * in.pts[1].x() + ny * in.pts[1].y() - offset;
    if (d0 > 0.0 && d1 > 0.0) return;
    for (int k = 0; k < 2; ++k) {
      const double dk = k ? d1 : d0;
      if (dk <= 0.0) {
        poly.add(in.pts[k], in.ids[k]);
      } else {
        const double tt = d0 / (d0 - d1);
        poly.add(in.pts[0] + tt * (in.pts[1] - in.pts[0]), mix_ids(in.ids[0], in.ids[1], plane_id));
      }
    }
    return;
  }
  for (int i = 0; i < edges; ++i) {
    const int j = (i + 1) % in.count;
    const Vec3 &p = in.pts[i], &q = in.pts[j];
    const double dp = nx * p.x() + ny * p.y() - offset;
    const double dq = nx * q.x() + ny * q.y() - offset;
    if (dp <= 0.0) poly.add(p, in.ids[i]);
    if ((dp <= 0.0) != (dq <= 0.0)) {
      const double tt = dp / (dp - dq);
      poly.add(p + tt * (q - p), mix_ids(in.ids[i], in.ids[j], plane_id));
    }
  }
}

void clip_to_rectangle(ClipPolygon& poly, double ex, double ey) {
  clip_half_plane(poly, 1.0, 0.0, ex, 0);
  clip_half_plane(poly, -1.0, 0.0, ex, 1);
  clip_half_plane(poly, 0.0, 1.0, ey, 2);
  clip_half_plane(poly, 0.0, -1.0, ey, 3);
}

}  // namespace torsion
