// Four doubles processed together (one per lane): the elastic solid's sweeps project four
// tetrahedra of one colour (no shared vertex) at once (deformable.cpp).
//
// GCC and Clang: their vector extension (one 256-bit value; two SSE2 registers on the baseline
// x86-64 target, one AVX register where the code is built for AVX). Elsewhere (MSVC): a plain
// array with the same operators. Every lane does the scalar IEEE operations a scalar loop would do,
// in the same order (no FMA: the build turns contraction off), so the results are bitwise the same
// whatever the vector width.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace torsion::lanes {

#if defined(__GNUC__) || defined(__clang__)

#if defined(__GNUC__) && !defined(__clang__)
// 32-byte vectors passed by value would change the ABI between AVX and non-AVX code: every
// function taking them is inline and internal to one source file (this header is for .cpp files
// only), so that note does not apply; off from here to the end of the including file
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

typedef double D4 __attribute__((vector_size(32)));
// lane masks (all ones or zero): the type a comparison of two D4 gives
typedef decltype(D4{} > D4{}) M4;

inline D4 splat(double s) { return D4{s, s, s, s}; }
inline M4 gt(D4 a, D4 b) { return a > b; }
inline M4 ge(D4 a, D4 b) { return a >= b; }
inline M4 both(M4 a, M4 b) { return a & b; }
// a where the mask is set, else b
inline D4 select(M4 m, D4 a, D4 b) {
  M4 ia, ib;
  std::memcpy(&ia, &a, sizeof(ia));
  std::memcpy(&ib, &b, sizeof(ib));
  const M4 r = (ia & m) | (ib & ~m);
  D4 out;
  std::memcpy(&out, &r, sizeof(out));
  return out;
}
inline D4 max(D4 a, D4 b) { return select(a > b, a, b); }

#else

struct D4 {
  double v[4];
  double& operator[](int l) { return v[l]; }
  double operator[](int l) const { return v[l]; }
};
struct M4 {
  bool v[4];
};
#define TORSION_LANES_OP(op)                                  \
  inline D4 operator op(D4 a, D4 b) {                         \
    D4 r;                                                     \
    for (int l = 0; l < 4; ++l) r.v[l] = a.v[l] op b.v[l];    \
    return r;                                                 \
  }                                                           \
  inline D4& operator op##=(D4& a, D4 b) { return a = a op b; }
TORSION_LANES_OP(+)
TORSION_LANES_OP(-)
TORSION_LANES_OP(*)
TORSION_LANES_OP(/)
#undef TORSION_LANES_OP
inline D4 operator-(D4 a) {
  for (int l = 0; l < 4; ++l) a.v[l] = -a.v[l];
  return a;
}
inline D4 splat(double s) { return D4{{s, s, s, s}}; }
inline M4 gt(D4 a, D4 b) {
  M4 m;
  for (int l = 0; l < 4; ++l) m.v[l] = a.v[l] > b.v[l];
  return m;
}
inline M4 ge(D4 a, D4 b) {
  M4 m;
  for (int l = 0; l < 4; ++l) m.v[l] = a.v[l] >= b.v[l];
  return m;
}
inline M4 both(M4 a, M4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] = a.v[l] && b.v[l];
  return a;
}
inline D4 select(M4 m, D4 a, D4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] = m.v[l] ? a.v[l] : b.v[l];
  return a;
}
inline D4 max(D4 a, D4 b) { return select(gt(a, b), a, b); }

#endif

inline D4 load(const double* p) {
  D4 r;
  std::memcpy(&r, p, sizeof(r));
  return r;
}
inline void store(double* p, D4 a) { std::memcpy(p, &a, sizeof(a)); }
inline M4 all_lanes() { return ge(splat(0.0), splat(0.0)); }
inline D4 sqrt(D4 a) {
  for (int l = 0; l < 4; ++l) a[l] = std::sqrt(a[l]);
  return a;
}

}  // namespace torsion::lanes
