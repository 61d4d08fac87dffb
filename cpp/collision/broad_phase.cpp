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

}  // namespace

void SweepAndPrune::find_pairs(const std::vector<Aabb>& aabbs,
                               const std::vector<std::uint8_t>& bounded,
                               const BroadphaseSettings& settings, std::vector<BodyPair>& pairs) {
  pairs.clear();
  const std::size_t n = aabbs.size();
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
  // sweep: each body against the ones that start before it ends on the axis
  keys_.clear();
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const std::uint32_t i = order_[k];
    const Aabb& bi = aabbs[i];
    const double end = bi.max[axis];
    for (std::size_t m = k + 1; m < order_.size(); ++m) {
      const std::uint32_t j = order_[m];
      if (aabbs[j].min[axis] > end) break;
      if (!bi.overlaps(aabbs[j])) continue;
      const std::uint32_t lo = std::min(i, j), hi = std::max(i, j);
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
