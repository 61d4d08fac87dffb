// Broad phase: sweep and prune (SAP) over world AABBs.
//
// Why SAP and not a dynamic AABB tree: torsion's scenes are re-stepped from scratch every step
// with every body moving a little (piles, robots, RL resets), which is where SAP shines: the
// sorted order of the previous step is nearly sorted again, so an insertion sort repairs it in
// close to O(n), the sweep is a linear scan over contiguous arrays, and the output order is
// trivially deterministic. A tree pays for its rebalancing and pointer chasing on every moved
// body. SAP's weakness, many bodies overlapping on the sweep axis, is limited by choosing the
// axis of largest spread of the AABB centres every step (settings.sweep_axis = -1), and, for
// scenes of more than kGridMinBodies bodies, by a coarse 2-D grid over the two other axes: each
// cell is swept on its own (a 10x10x10 block of falling cubes overlaps 100 others on any one
// axis, but only its few neighbours within a cell). Bodies covering many cells (a long wall, a
// big platform) stay out of the grid and are tested against every bounded body. The grid changes
// which candidates are tested, never the pairs found.
// Unbounded bodies (the ground half space) are kept out of the sweep and paired with every
// bounded body.
//
// Small scenes (at most kAllPairsMaxBodies bodies) skip the sweep and test every pair.
//
// Pairs come out sorted by (lower body index, higher body index), so the narrow phase and the
// contact list see the same order on every run.
//
// Bodies may carry an exclusion key (0: none): two bodies with the same non-zero key are never
// paired, and all_pairs rejects them before their boxes are compared. The collision stage gives
// every body of an object without self-collision its object's key (collision_detection.cpp), so
// the 136 link pairs of a 17-link robot cost one comparison each instead of a box test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collision/settings.hpp"
#include "geometry/aabb.hpp"

namespace torsion {

struct BodyPair {
  std::uint32_t a;  // a < b, indices into the collision-body array
  std::uint32_t b;
};

// up to this many bodies, find_pairs tests every pair instead of sweeping (same pairs, same
// order; cheaper for a robot on the ground)
constexpr std::size_t kAllPairsMaxBodies = 32;
// from this many bounded bodies on, the sweep runs per cell of a 2-D grid
constexpr std::size_t kGridMinBodies = 64;

class SweepAndPrune {
 public:
  // aabbs[i] belongs to body i; bounded[i] is false for the unbounded ones (their AABB is
  // ignored); exclusion[i] is body i's exclusion key (empty: no keys). Writes every pair whose
  // AABBs overlap and whose keys do not exclude it, sorted; reuses its buffers.
  void find_pairs(const std::vector<Aabb>& aabbs, const std::vector<std::uint8_t>& bounded,
                  const std::vector<std::uint32_t>& exclusion, const BroadphaseSettings& settings,
                  std::vector<BodyPair>& pairs);

 private:
  // one body of the sweep, with its bounds permuted so that [0] is the sweep axis
  struct Entry {
    double min[3];
    double max[3];
    std::uint32_t body;
  };
  // the sweep over every entry at once (few bodies, or no usable grid)
  void sweep_all();
  // the sweep per grid cell; false when no grid fits (degenerate or non-finite bounds)
  bool sweep_grid();
  // records the pair (a, b) unless their exclusion keys refuse it
  void add_key(std::uint32_t a, std::uint32_t b);
  // sorts keys_ (indices below n) into pairs, reusing the buffers of both
  void sort_keys_into(std::size_t n, std::vector<BodyPair>& pairs);

  std::vector<std::uint32_t> order_;  // bounded bodies sorted by AABB min along axis_
  std::vector<Entry> sweep_;          // the same bodies, in that order, contiguous
  std::vector<std::uint32_t> unbounded_;
  // grid scratch: per entry its extent and its cells; per cell its first slot in cell_boxes_
  // (its entries' copies, in sweep order) and a fill cursor; the entries left out of the grid,
  // listed and flagged; the candidates of one entry in its cell (the box tests that passed)
  struct CellRange {
    int a1, b1, a2, b2;  // the cells an entry covers: [a1, b1] x [a2, b2]
  };
  std::vector<double> extent_;
  std::vector<CellRange> ranges_;
  std::vector<std::uint32_t> cell_begin_;
  std::vector<std::uint32_t> cell_cursor_;
  std::vector<Entry> cell_boxes_;
  std::vector<std::uint32_t> candidates_;
  std::vector<std::uint32_t> large_;
  std::vector<std::uint8_t> outside_;
  std::vector<BodyPair> keys_;             // the pairs found, unsorted (sort_keys_into sorts them)
  std::vector<std::uint32_t> key_count_;  // sort_keys_into's counts (n + 1)
  std::vector<std::uint32_t> run_end_;  // all-pairs scratch: end of each body's run of equal keys
  const std::uint32_t* exclusion_ = nullptr;  // of the running find_pairs; null: no keys
  int axis_ = -1;
};

}  // namespace torsion
