#include "collision/polygon_clip.hpp"

#include <utility>

#include "core/cpu_dispatch.hpp"

namespace torsion {

namespace {

// id of a vertex made where edge (id_a, id_b) crosses a clip plane: order-independent mix
std::uint32_t mix_ids(std::uint32_t id_a, std::uint32_t id_b, std::uint32_t plane) {
  const std::uint32_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
  return ((lo * 2654435761u) ^ (hi * 40503u + 0x9E37u)) * 8u + 0x10u + plane;
}

// The clip of `in` to n . (x, y) <= offset, written to `out` (a different polygon); false, with
// `out` untouched, when every vertex of a polygon of two or more vertices is inside: the clip
// would then be a copy of `in`, vertex for vertex, and the caller keeps reading `in`. Inlined into
// clip_to_rectangle, whose constant planes then cost no multiplications by 1 and whose four clips
// pass the polygon between it and one scratch polygon without copies. Each vertex's signed
// distance is computed once (the closing edge reuses the first's); the arithmetic is the same
// IEEE operations for every caller, so the results are bitwise those of the generic clip.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
inline bool clip_into(const ClipPolygon& in, ClipPolygon& out, double nx, double ny,
                      double offset, std::uint32_t plane_id) {
  const int count = in.count;
  if (count == 0) return false;  // (out would be empty too)
  if (count == 1) {
    out.count = 0;
    if (nx * in.pts[0].x() + ny * in.pts[0].y() <= offset) out.add(in.pts[0], in.ids[0]);
    return true;
  }
  double d[ClipPolygon::kMax];
  bool all_in = true;
  for (int i = 0; i < count; ++i) {
    d[i] = nx * in.pts[i].x() + ny * in.pts[i].y() - offset;
    all_in &= d[i] <= 0.0;
  }
  if (all_in) return false;
  out.count = 0;
  // a two-point polygon is a segment: clip it, do not close it
  if (count == 2) {
    const double d0 = d[0], d1 = d[1];
    if (d0 > 0.0 && d1 > 0.0) return true;
    for (int k = 0; k < 2; ++k) {
      const double dk = k ? d1 : d0;
      if (dk <= 0.0) {
        out.add(in.pts[k], in.ids[k]);
      } else {
        const double tt = d0 / (d0 - d1);
        out.add(in.pts[0] + tt * (in.pts[1] - in.pts[0]), mix_ids(in.ids[0], in.ids[1], plane_id));
      }
    }
    return true;
  }
  for (int i = 0; i < count; ++i) {
    const int j = i + 1 < count ? i + 1 : 0;
    const double dp = d[i], dq = d[j];
    const Vec3 &p = in.pts[i], &q = in.pts[j];
    if (dp <= 0.0) out.add(p, in.ids[i]);
    if ((dp <= 0.0) != (dq <= 0.0)) {
      const double tt = dp / (dp - dq);
      out.add(p + tt * (q - p), mix_ids(in.ids[i], in.ids[j], plane_id));
    }
  }
  return true;
}

// copy the live vertices of `from` into `to`
void copy_live(const ClipPolygon& from, ClipPolygon& to) {
  to.count = from.count;
  for (int i = 0; i < from.count; ++i) to.pts[i] = from.pts[i], to.ids[i] = from.ids[i];
}

}  // namespace

void clip_half_plane(ClipPolygon& poly, double nx, double ny, double offset,
                     std::uint32_t plane_id) {
  ClipPolygon out;
  if (clip_into(poly, out, nx, ny, offset, plane_id)) copy_live(out, poly);
}

namespace {

// (the body of clip_to_rectangle, built twice: core/cpu_dispatch.hpp)
TORSION_ALWAYS_INLINE void clip_to_rectangle_body(ClipPolygon& poly, double ex, double ey) {
  ClipPolygon scratch;
  ClipPolygon* in = &poly;
  ClipPolygon* out = &scratch;
  if (clip_into(*in, *out, 1.0, 0.0, ex, 0)) std::swap(in, out);
  if (clip_into(*in, *out, -1.0, 0.0, ex, 1)) std::swap(in, out);
  if (clip_into(*in, *out, 0.0, 1.0, ey, 2)) std::swap(in, out);
  if (clip_into(*in, *out, 0.0, -1.0, ey, 3)) std::swap(in, out);
  if (in != &poly) copy_live(*in, poly);
}

void clip_to_rectangle_baseline(ClipPolygon& poly, double ex, double ey) {
  clip_to_rectangle_body(poly, ex, ey);
}
#if TORSION_AVX2_BUILD
TORSION_AVX2_TARGET __attribute__((flatten)) void clip_to_rectangle_avx2(ClipPolygon& poly,
                                                                        double ex, double ey) {
  clip_to_rectangle_body(poly, ex, ey);
}
#endif

}  // namespace

void clip_to_rectangle(ClipPolygon& poly, double ex, double ey) {
#if TORSION_AVX2_BUILD
  if (cpu::use_avx2()) return clip_to_rectangle_avx2(poly, ex, ey);
#endif
  clip_to_rectangle_baseline(poly, ex, ey);
}

}  // namespace torsion
