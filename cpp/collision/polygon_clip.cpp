#include "collision/polygon_clip.hpp"

namespace torsion {

namespace {

// id of a vertex made where edge (id_a, id_b) crosses a clip plane: order-independent mix
std::uint32_t mix_ids(std::uint32_t id_a, std::uint32_t id_b, std::uint32_t plane) {
  const std::uint32_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
  return ((lo * 2654435761u) ^ (hi * 40503u + 0x9E37u)) * 8u + 0x10u + plane;
}

// The clip of `in` to n . (x, y) <= offset, written to `out` (a different polygon). Inlined into
// clip_to_rectangle, whose constant planes then cost no multiplications by 1 and no copies: its
// four clips alternate between the polygon and one scratch polygon. The arithmetic is the same
// IEEE operations for every caller, so the results are bitwise those of the generic clip.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
inline void clip_into(const ClipPolygon& in, ClipPolygon& out, double nx, double ny,
                      double offset, std::uint32_t plane_id) {
  out.count = 0;
  if (in.count == 0) return;
  if (in.count == 1) {
    if (nx * in.pts[0].x() + ny * in.pts[0].y() <= offset) out.add(in.pts[0], in.ids[0]);
    return;
  }
  // a two-point polygon is a segment: clip it, do not close it
  if (in.count == 2) {
    const double d0 = nx * in.pts[0].x() + ny * in.pts[0].y() - offset;
    const double d1 = nx * in.pts[1].x() + ny * in.pts[1].y() - offset;
    if (d0 > 0.0 && d1 > 0.0) return;
    for (int k = 0; k < 2; ++k) {
      const double dk = k ? d1 : d0;
      if (dk <= 0.0) {
        out.add(in.pts[k], in.ids[k]);
      } else {
        const double tt = d0 / (d0 - d1);
        out.add(in.pts[0] + tt * (in.pts[1] - in.pts[0]), mix_ids(in.ids[0], in.ids[1], plane_id));
      }
    }
    return;
  }
  for (int i = 0; i < in.count; ++i) {
    const int j = (i + 1) % in.count;
    const Vec3 &p = in.pts[i], &q = in.pts[j];
    const double dp = nx * p.x() + ny * p.y() - offset;
    const double dq = nx * q.x() + ny * q.y() - offset;
    if (dp <= 0.0) out.add(p, in.ids[i]);
    if ((dp <= 0.0) != (dq <= 0.0)) {
      const double tt = dp / (dp - dq);
      out.add(p + tt * (q - p), mix_ids(in.ids[i], in.ids[j], plane_id));
    }
  }
}

}  // namespace

void clip_half_plane(ClipPolygon& poly, double nx, double ny, double offset,
                     std::uint32_t plane_id) {
  if (poly.count == 0) return;
  // copy only the live vertices (the buffers are mostly empty)
  ClipPolygon in;
  in.count = poly.count;
  for (int i = 0; i < poly.count; ++i) in.pts[i] = poly.pts[i], in.ids[i] = poly.ids[i];
  clip_into(in, poly, nx, ny, offset, plane_id);
}

void clip_to_rectangle(ClipPolygon& poly, double ex, double ey) {
  ClipPolygon scratch;
  clip_into(poly, scratch, 1.0, 0.0, ex, 0);
  clip_into(scratch, poly, -1.0, 0.0, ex, 1);
  clip_into(poly, scratch, 0.0, 1.0, ey, 2);
  clip_into(scratch, poly, 0.0, -1.0, ey, 3);
}

}  // namespace torsion
