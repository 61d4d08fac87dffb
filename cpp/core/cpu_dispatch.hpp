// A second build of a few hot kernels for AVX2, picked at run time.
//
// The wheel is built for baseline x86-64 (SSE2). On GCC and Clang for x86-64, a kernel can be
// compiled a second time inside a function marked TORSION_AVX2_TARGET (target("avx2"): the VEX
// encodings' three-operand forms and 256-bit registers; FMA is a separate target and stays off,
// and the build turns contraction off), and the caller picks that build when use_avx2() says so.
// Both builds do the same IEEE operations in the same order (no reassociation, no FMA), so they
// give the same bits; the environment variable TORSION_NO_AVX2 forces the baseline build, which
// the tests use to check that. Eigen's configuration (packet size, alignment) is fixed by the
// baseline flags for the whole library, so the two builds share every type's layout.
//
// The usual shape: the kernel's body in a TORSION_ALWAYS_INLINE function, called from two thin
// wrappers (one plain, one TORSION_AVX2_TARGET) and a dispatcher.
#pragma once

#include <cstdlib>

#if defined(__GNUC__) || defined(__clang__)
#define TORSION_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define TORSION_ALWAYS_INLINE __forceinline
#else
#define TORSION_ALWAYS_INLINE inline
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define TORSION_AVX2_BUILD 1
#define TORSION_AVX2_TARGET __attribute__((target("avx2")))
#else
#define TORSION_AVX2_BUILD 0
#endif

namespace torsion::cpu {

#if TORSION_AVX2_BUILD
// whether the AVX2 builds of the kernels run: the CPU has AVX2 and the environment variable
// TORSION_NO_AVX2 is not set (both builds give the same bits; the variable is for checking that)
inline bool use_avx2() {
  static const bool yes =
      __builtin_cpu_supports("avx2") && std::getenv("TORSION_NO_AVX2") == nullptr;
  return yes;
}
#endif

}  // namespace torsion::cpu
