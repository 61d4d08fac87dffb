// A hook that long contact solves call between sweeps so that their caller can abandon them
// (Ctrl-C from Python: a live solver configuration of 2**31-1 sweeps and threshold 0 makes one
// step run for minutes). It never changes a result while `poll` returns false: the sweeps only
// count the rows they visit and, every `every` rows, ask `poll`. Once `poll` returns true every
// island ends after its current sweep, as if max_iter had been reached (the step completes with
// that unconverged solve and the caller reports the interruption).
#pragma once

#include <cstddef>
#include <cstdint>

namespace torsion {

struct SolveInterrupt {
  bool (*poll)(void* context) = nullptr;  // true: stop solving
  void* context = nullptr;
  std::uint64_t every = std::uint64_t{1} << 20;  // rows visited between polls
  std::uint64_t work = 0;                        // rows visited since the last poll
  bool stopped = false;                          // poll returned true

  // after a sweep over `rows` rows: true when the solve must stop
  bool after_sweep(std::size_t rows) {
    if (stopped) return true;
    work += rows + 1;
    if (work < every || !poll) return false;
    work = 0;
    stopped = poll(context);
    return stopped;
  }
};

}  // namespace torsion
