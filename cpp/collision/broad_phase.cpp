#include "collision/broad_phase.hpp"

#include <algorithm>

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
// bodies pair with everything), so which path runs never changes results.
void all_pairs(const std::vector<Aabb>& aabbs, const std::vector<std::uint8_t>& bounded,
               std::vector<BodyPair>& pairs) {
  const std::uint32_t n = static_cast<std::uint32_t>(aabbs.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    const Aabb& a = aabbs[i];
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (bounded[i] && bounded[j] && !a.overlaps(aabbs[j])) continue;
      pairs.push_back({i, j});
    }
  }
}

}  // namespace

void SweepAndPrune::find_pairs(const std::vector<Aabb>& aabbs,
                               const std::vector<std::uint8_t>& bounded,
                               const BroadphaseSettings& settings, std::vector<BodyPair>& pairs) {
  pairs.clear();
  const std::size_t n = aabbs.size();
  if (n <= kAllPairsMaxBodies) {
    all_pairs(aabbs, bounded, pairs);
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
  const std::size_t m_end = sweep_.size();
  for (std::size_t k = 0; k < m_end; ++k) {
    const Entry& ei = sweep_[k];
    for (std::size_t m = k + 1; m < m_end; ++m) {
      const Entry& ej = sweep_[m];
      if (ej.min[0] > ei.max[0]) break;
      if (ej.min[1] > ei.max[1] || ei.min[1] > ej.max[1] || ej.min[2] > ei.max[2] ||
          ei.min[2] > ej.max[2])
        continue;
      const std::uint32_t lo = std::min(ei.body, ej.body), hi = std::max(ei.body, ej.body);
      keys_.push_back((std::uint64_t(lo) << 32) | hi);
    }
  }
  // unbounded bodies pair with every other body
  for (const std::uint32_t u : unbounded_)
    for (std::size_t i = 0; i < n; ++i) {
      if (i == u || (!bounded[i] && i < u)) continue;  // each unbounded pair once
      const std::uint32_t lo = std::min<std::uint32_t>(u, i), hi = std::max<std::uint32_t>(u, i);
      keys_.push_back((std::uint64_t(lo) << 32) | hi);
    }
  std::sort(keys_.begin(), keys_.end());
  pairs.reserve(keys_.size());
  for (const std::uint64_t key : keys_)
    pairs.push_back({static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key)});
}

}  // namespace torsion
