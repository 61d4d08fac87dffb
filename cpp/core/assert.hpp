// Internal invariants. On in debug builds (NDEBUG not defined), compiled out in release.
// Bad user input never goes through these: it is checked at the API boundary (core/check.hpp).
#pragma once

#include <cstdio>
#include <cstdlib>

#ifndef NDEBUG
#define TORSION_ASSERT(cond)                                                          \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "torsion: internal assertion failed: %s (%s:%d)\n", #cond, \
                   __FILE__, __LINE__);                                               \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)
#else
#define TORSION_ASSERT(cond) ((void)0)
#endif
