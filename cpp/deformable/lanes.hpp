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
#include <cstdlib>
#include <cstring>

#include "core/cpu_dispatch.hpp"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

// Forced inlining: the lane helpers must be compiled inside their caller, so that a caller built
// for AVX2 (target attribute, below) runs them as AVX2 code
#define TORSION_LANES_INLINE TORSION_ALWAYS_INLINE

// x86-64 with GCC or Clang: kernels get a second build for AVX2 (target("avx2"), no FMA), picked
// at run time when the CPU has it (lanes::use_avx2; core/cpu_dispatch.hpp)
#define TORSION_LANES_AVX2 TORSION_AVX2_BUILD
#if TORSION_AVX2_BUILD
#define TORSION_LANES_AVX2_TARGET TORSION_AVX2_TARGET
#endif

namespace torsion::lanes {

#if defined(__GNUC__) || defined(__clang__)

#if defined(__GNUC__) && !defined(__clang__)
// 32-byte vectors passed by value would change the ABI between AVX and non-AVX code: every
// function taking them is inline and internal to one source file (this header is for .cpp files
// only), so that note does not apply; off from here to the end of the including file
#pragma GCC diagnostic ignored "-Wpsabi"
#elif defined(__clang__) && defined(__has_warning)
#if __has_warning("-Wpsabi")
#pragma clang diagnostic ignored "-Wpsabi"
#endif
#endif

typedef double D4 __attribute__((vector_size(32)));
// lane masks (all ones or zero): the type a comparison of two D4 gives
typedef decltype(D4{} > D4{}) M4;

TORSION_LANES_INLINE D4 make(double a, double b, double c, double d) { return D4{a, b, c, d}; }
TORSION_LANES_INLINE D4 splat(double s) { return D4{s, s, s, s}; }
TORSION_LANES_INLINE M4 gt(D4 a, D4 b) { return a > b; }
TORSION_LANES_INLINE M4 ge(D4 a, D4 b) { return a >= b; }
TORSION_LANES_INLINE M4 both(M4 a, M4 b) { return a & b; }
// a where the mask is set, else b
TORSION_LANES_INLINE D4 select(M4 m, D4 a, D4 b) {
  M4 ia, ib;
  std::memcpy(&ia, &a, sizeof(ia));
  std::memcpy(&ib, &b, sizeof(ib));
  const M4 r = (ia & m) | (ib & ~m);
  D4 out;
  std::memcpy(&out, &r, sizeof(out));
  return out;
}
TORSION_LANES_INLINE D4 max(D4 a, D4 b) { return select(a > b, a, b); }

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
  TORSION_LANES_INLINE D4 operator op(D4 a, D4 b) {           \
    D4 r;                                                     \
    for (int l = 0; l < 4; ++l) r.v[l] = a.v[l] op b.v[l];    \
    return r;                                                 \
  }                                                           \
  TORSION_LANES_INLINE D4& operator op##=(D4& a, D4 b) { return a = a op b; }
TORSION_LANES_OP(+)
TORSION_LANES_OP(-)
TORSION_LANES_OP(*)
TORSION_LANES_OP(/)
#undef TORSION_LANES_OP
TORSION_LANES_INLINE D4 operator-(D4 a) {
  for (int l = 0; l < 4; ++l) a.v[l] = -a.v[l];
  return a;
}
TORSION_LANES_INLINE D4 make(double a, double b, double c, double d) { return D4{{a, b, c, d}}; }
TORSION_LANES_INLINE D4 splat(double s) { return D4{{s, s, s, s}}; }
TORSION_LANES_INLINE M4 gt(D4 a, D4 b) {
  M4 m;
  for (int l = 0; l < 4; ++l) m.v[l] = a.v[l] > b.v[l];
  return m;
}
TORSION_LANES_INLINE M4 ge(D4 a, D4 b) {
  M4 m;
  for (int l = 0; l < 4; ++l) m.v[l] = a.v[l] >= b.v[l];
  return m;
}
TORSION_LANES_INLINE M4 both(M4 a, M4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] = a.v[l] && b.v[l];
  return a;
}
TORSION_LANES_INLINE D4 select(M4 m, D4 a, D4 b) {
  for (int l = 0; l < 4; ++l) a.v[l] = m.v[l] ? a.v[l] : b.v[l];
  return a;
}
TORSION_LANES_INLINE D4 max(D4 a, D4 b) { return select(gt(a, b), a, b); }

#endif

TORSION_LANES_INLINE D4 load(const double* p) {
  D4 r;
  std::memcpy(&r, p, sizeof(r));
  return r;
}
TORSION_LANES_INLINE void store(double* p, D4 a) { std::memcpy(p, &a, sizeof(a)); }
TORSION_LANES_INLINE M4 all_lanes() { return ge(splat(0.0), splat(0.0)); }
TORSION_LANES_INLINE D4 sqrt(D4 a) {
#if defined(__SSE2__) || defined(_M_X64)
  // two SSE2 square roots (correctly rounded, as std::sqrt)
  __m128d h[2];
  std::memcpy(h, &a, sizeof(a));
  h[0] = _mm_sqrt_pd(h[0]);
  h[1] = _mm_sqrt_pd(h[1]);
  std::memcpy(&a, h, sizeof(a));
#else
  for (int l = 0; l < 4; ++l) a[l] = std::sqrt(a[l]);
#endif
  return a;
}

#if TORSION_LANES_AVX2
using cpu::use_avx2;
#endif

}  // namespace torsion::lanes
