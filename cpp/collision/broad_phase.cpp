#include "collision/broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace torsion {

namespace {

int axis_of_largest_spread(const std::vector<Aabb>& aabbs, const std::vector<std::uint8_t>& bounded) {
  Vec3 sum = Vec3::Zero(), sum_sq = Vec3::Zero();
  std::size_t n = 0;
  for (std::size_t i = 0; i < aabbs.size(); ++i) {
    if (!bounded[i]) continue;
    const Vec3 c = 0.5 * (aabbs[i].min + aabbs[i].max);
    sum += c;
    sum_sq += c.cwiseProduct(c);
    ++n;
  }
  if (n == 0) return 0;
  const Vec3 var = sum_sq / double(n) - (sum / double(n)).cwiseAbs2();
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (var[k] > var[axis]) axis = k;
  return axis;
}

// Few bodies (a robot's links and the ground, a handful of props): testing every pair costs
// n^2/2 box tests but no sorting, and visiting i < j in order gives the pairs already sorted. The
// pairs are exactly those of the sweep (closed-interval overlap on all three axes; unbounded
// bodies pair with everything, no two bodies of one exclusion key), so which path runs never
// changes results. The key is compared first: it is cheaper than the box test, and the bodies
// right after body i that share its key (a robot's links are consecutive) are skipped at once:
// run_end[i] is the first index after i whose key differs.
void all_pairs(const std::vector<Aabb>& aabbs, const std::vector<std::uint8_t>& bounded,
               const std::uint32_t* exclusion, std::vector<std::uint32_t>& run_end,
               std::vector<BodyPair>& pairs) {
  const std::uint32_t n = static_cast<std::uint32_t>(aabbs.size());
  if (exclusion != nullptr && n > 0) {
    run_end.resize(n);
    run_end[n - 1] = n;
    for (std::uint32_t i = n - 1; i-- > 0;)
      run_end[i] = exclusion[i + 1] == exclusion[i] ? run_end[i + 1] : i + 1;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const Aabb& a = aabbs[i];
    const std::uint32_t key = exclusion != nullptr ? exclusion[i] : 0;
    for (std::uint32_t j = key != 0 ? run_end[i] : i + 1; j < n; ++j) {
      if (key != 0 && exclusion[j] == key) continue;
      if (bounded[i] && bounded[j] && !a.overlaps(aabbs[j])) continue;
      pairs.push_back({i, j});
    }
  }
}

}  // namespace

void SweepAndPrune::add_key(std::uint32_t a, std::uint32_t b) {
  if (exclusion_ != nullptr && exclusion_[a] != 0 && exclusion_[a] == exclusion_[b]) return;
  const std::uint32_t lo = std::min(a, b), hi = std::max(a, b);
  keys_.push_back({lo, hi});
}

// each body against the ones that start before it ends on the sweep axis
void SweepAndPrune::sweep_all() {
  const std::size_t m = sweep_.size();
  for (std::size_t k = 0; k < m; ++k) {
    const Entry& ei = sweep_[k];
    for (std::size_t j = k + 1; j < m; ++j) {
      const Entry& ej = sweep_[j];
      if (ej.min[0] > ei.max[0]) break;
      if (ej.min[1] > ei.max[1] || ei.min[1] > ej.max[1] || ej.min[2] > ei.max[2] ||
          ei.min[2] > ej.max[2])
        continue;
      add_key(ei.body, ej.body);
    }
  }
}

// The grid covers the bounds of every entry on axes [1] and [2] with square cells of twice the
// median body extent (a typical body then covers one to four cells), made coarser when that
// would give more than two cells per body. Each cell lists its entries in sweep order, so the
// sweep of a cell is the plain sweep over fewer bodies. A pair that shares several cells is
// reported by one only: the cell holding the low corner of the overlap of the two boxes, which
// lies in both bodies' cell ranges (the cell index is monotone in the coordinate). A body that
// would cover more than kMaxCover cells is left out of the grid and tested against every entry.
bool SweepAndPrune::sweep_grid() {
  constexpr int kMaxCover = 16;
  const std::size_t m = sweep_.size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double lo1 = kInf, lo2 = kInf, hi1 = -kInf, hi2 = -kInf;
  extent_.resize(m);
  for (std::size_t k = 0; k < m; ++k) {
    const Entry& e = sweep_[k];
    extent_[k] = std::max(e.max[1] - e.min[1], e.max[2] - e.min[2]);
    lo1 = std::min(lo1, e.min[1]), hi1 = std::max(hi1, e.max[1]);
    lo2 = std::min(lo2, e.min[2]), hi2 = std::max(hi2, e.max[2]);
  }
  const auto mid = extent_.begin() + static_cast<std::ptrdiff_t>(m / 2);
  std::nth_element(extent_.begin(), mid, extent_.end());
  const double span1 = hi1 - lo1, span2 = hi2 - lo2, max_cells = 2.0 * double(m);
  double cell = std::max(2.0 * *mid, std::sqrt(span1 * span2 / max_cells));
  if (!(cell > 0.0) || !std::isfinite(cell) || !std::isfinite(span1) || !std::isfinite(span2))
    return false;
  auto cells_along = [&](double span) { return std::floor(span / cell) + 1.0; };
  while (cells_along(span1) * cells_along(span2) > max_cells) cell *= 1.25;
  const int n1 = static_cast<int>(cells_along(span1)), n2 = static_cast<int>(cells_along(span2));
  const double inv = 1.0 / cell;
  auto index = [inv](double x, double lo, int n) {
    const int c = static_cast<int>((x - lo) * inv);  // x >= lo: c >= 0
    return c < n ? c : n - 1;
  };
  auto range = [&](const Entry& e) {
    return CellRange{index(e.min[1], lo1, n1), index(e.max[1], lo1, n1), index(e.min[2], lo2, n2),
                     index(e.max[2], lo2, n2)};
  };
  auto in_grid = [](const CellRange& r) {
    return (r.b1 - r.a1 + 1) * (r.b2 - r.a2 + 1) <= kMaxCover;
  };

  // counting sort of (cell, entry) by cell; entries enter in sweep order. Each cell gets a
  // contiguous copy of its entries' boxes (the sweep of a cell then reads memory in order instead
  // of gathering 56-byte entries through an index), and each entry's cell range is computed once.
  const std::size_t cells = static_cast<std::size_t>(n1) * static_cast<std::size_t>(n2);
  cell_begin_.assign(cells + 1, 0);
  large_.clear();
  ranges_.resize(m);
  outside_.assign(m, 0);
  for (std::size_t k = 0; k < m; ++k) {
    const CellRange r = range(sweep_[k]);
    ranges_[k] = r;
    if (!in_grid(r)) {
      large_.push_back(static_cast<std::uint32_t>(k));
      outside_[k] = 1;
      continue;
    }
    for (int c2 = r.a2; c2 <= r.b2; ++c2)
      for (int c1 = r.a1; c1 <= r.b1; ++c1) ++cell_begin_[std::size_t(c1 + n1 * c2) + 1];
  }
  std::size_t largest_cell = 0;
  for (std::size_t c = 1; c <= cells; ++c) {
    largest_cell = std::max<std::size_t>(largest_cell, cell_begin_[c]);
    cell_begin_[c] += cell_begin_[c - 1];
  }
  cell_boxes_.resize(cell_begin_[cells]);
  cell_cursor_.assign(cell_begin_.begin(), cell_begin_.end() - 1);
  for (std::size_t k = 0; k < m; ++k) {
    if (outside_[k]) continue;
    const CellRange& r = ranges_[k];
    for (int c2 = r.a2; c2 <= r.b2; ++c2)
      for (int c1 = r.a1; c1 <= r.b1; ++c1)
        cell_boxes_[cell_cursor_[std::size_t(c1 + n1 * c2)]++] = sweep_[k];
  }

  // the sweep of each cell: first the candidates of entry a that overlap it on all three axes,
  // listed without a branch on the outcome (about half the box tests of a pile pass: a branch
  // on each was mispredicted often), then those whose overlap's low corner lies in this cell
  candidates_.resize(largest_cell);
  std::uint32_t* found = candidates_.data();
  for (std::size_t c = 0; c < cells; ++c) {
    const Entry* box = cell_boxes_.data() + cell_begin_[c];
    const std::size_t count = cell_begin_[c + 1] - cell_begin_[c];
    for (std::size_t a = 0; a < count; ++a) {
      const Entry& ei = box[a];
      std::size_t n_found = 0;
      for (std::size_t b = a + 1; b < count; ++b) {
        const Entry& ej = box[b];
        if (ej.min[0] > ei.max[0]) break;
        const bool apart = (ej.min[1] > ei.max[1]) | (ei.min[1] > ej.max[1]) |
                           (ej.min[2] > ei.max[2]) | (ei.min[2] > ej.max[2]);
        found[n_found] = static_cast<std::uint32_t>(b);
        n_found += apart ? 0 : 1;
      }
      for (std::size_t f = 0; f < n_found; ++f) {
        const Entry& ej = box[found[f]];
        const int owner = index(std::max(ei.min[1], ej.min[1]), lo1, n1) +
                          n1 * index(std::max(ei.min[2], ej.min[2]), lo2, n2);
        if (static_cast<std::size_t>(owner) == c) add_key(ei.body, ej.body);
      }
    }
  }

  // bodies outside the grid against every entry (pairs of two of them once)
  for (std::size_t l = 0; l < large_.size(); ++l) {
    const Entry& el = sweep_[large_[l]];
    for (std::size_t k = 0; k < m; ++k) {
      const Entry& ek = sweep_[k];
      if (k == large_[l] || (outside_[k] && k < large_[l])) continue;  // (found from k)
      if (ek.min[0] > el.max[0] || el.min[0] > ek.max[0] || ek.min[1] > el.max[1] ||
          el.min[1] > ek.max[1] || ek.min[2] > el.max[2] || el.min[2] > ek.max[2])
        continue;
      add_key(el.body, ek.body);
    }
  }
  return true;
}

// The found pairs (lo, hi), lo < hi < n, in increasing order of (lo, hi): a least-significant-
// digit counting sort, by hi then (stably) by lo, O(pairs + n). Both digits are body indices below
// n, so n + 1 counts suffice; std::sort of the ~5000 pairs of a landed 1000-cube pile cost about
// as much as the whole grid sweep. The pairs are distinct, so the order is std::sort's.
void SweepAndPrune::sort_keys_into(std::size_t n, std::vector<BodyPair>& pairs) {
  const std::size_t k = keys_.size();
  pairs.resize(k);
  auto count_sort = [&](const BodyPair* in, BodyPair* out, bool by_lo) {
    key_count_.assign(n + 1, 0);
    for (std::size_t i = 0; i < k; ++i) ++key_count_[(by_lo ? in[i].a : in[i].b) + 1];
    for (std::size_t c = 1; c <= n; ++c) key_count_[c] += key_count_[c - 1];
    for (std::size_t i = 0; i < k; ++i) out[key_count_[by_lo ? in[i].a : in[i].b]++] = in[i];
  };
  if (k > 0) {
    count_sort(keys_.data(), pairs.data(), false);
    count_sort(pairs.data(), keys_.data(), true);
  }
  pairs.swap(keys_);  // the sorted pairs; the caller's old buffer is the next step's scratch
}

void SweepAndPrune::find_pairs(const std::vector<Aabb>& aabbs,
                               const std::vector<std::uint8_t>& bounded,
                               const std::vector<std::uint32_t>& exclusion,
                               const BroadphaseSettings& settings, std::vector<BodyPair>& pairs) {
  pairs.clear();
  const std::size_t n = aabbs.size();
  exclusion_ = exclusion.size() == n && n > 0 ? exclusion.data() : nullptr;
  if (n <= kAllPairsMaxBodies) {
    all_pairs(aabbs, bounded, exclusion_, run_end_, pairs);
    return;
  }
  const int axis = settings.sweep_axis >= 0 ? settings.sweep_axis
                                            : axis_of_largest_spread(aabbs, bounded);
  // (re)build the order when the body set or the axis changed; otherwise repair last step's
  // order by insertion sort, which is close to O(n) for coherent motion
  std::size_t n_bounded = 0;
  unbounded_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (bounded[i]) ++n_bounded;
    else unbounded_.push_back(static_cast<std::uint32_t>(i));
  }
  auto less = [&](std::uint32_t i, std::uint32_t j) {
    const double a = aabbs[i].min[axis], b = aabbs[j].min[axis];
    return a < b || (a == b && i < j);  // a strict total order: deterministic
  };
  bool valid = axis == axis_ && order_.size() == n_bounded;
  for (std::size_t k = 0; valid && k < order_.size(); ++k)
    valid = order_[k] < n && bounded[order_[k]];
  if (!valid) {
    order_.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (bounded[i]) order_.push_back(static_cast<std::uint32_t>(i));
    std::sort(order_.begin(), order_.end(), less);
    axis_ = axis;
  } else {
    for (std::size_t k = 1; k < order_.size(); ++k) {
      const std::uint32_t x = order_[k];
      std::size_t j = k;
      while (j > 0 && less(x, order_[j - 1])) {
        order_[j] = order_[j - 1];
        --j;
      }
      order_[j] = x;
    }
  }
  // sweep: each body against the ones that start before it ends on the axis, over a contiguous
  // copy of the bounds in sweep order (the scan touches memory in order)
  const int ax1 = (axis + 1) % 3, ax2 = (axis + 2) % 3;
  sweep_.resize(order_.size());
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const Aabb& b = aabbs[order_[k]];
    Entry& e = sweep_[k];
    e.min[0] = b.min[axis], e.min[1] = b.min[ax1], e.min[2] = b.min[ax2];
    e.max[0] = b.max[axis], e.max[1] = b.max[ax1], e.max[2] = b.max[ax2];
    e.body = order_[k];
  }
  keys_.clear();
  if (sweep_.size() < kGridMinBodies || !sweep_grid()) sweep_all();
  // unbounded bodies pair with every other body
  for (const std::uint32_t u : unbounded_)
    for (std::size_t i = 0; i < n; ++i) {
      if (i == u || (!bounded[i] && i < u)) continue;  // each unbounded pair once
      add_key(u, static_cast<std::uint32_t>(i));
    }
  sort_keys_into(n, pairs);
  exclusion_ = nullptr;
}

}  // namespace torsion
