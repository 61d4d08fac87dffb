#include "contact/warm_start.hpp"

#include <algorithm>

namespace torsion {

namespace {

// the ordered key and whether A and B were swapped to order it
WarmStartKey make_key(ObjectId a, ObjectId b, std::uint32_t la, std::uint32_t lb,
                      std::uint32_t feature, bool& swapped) {
  swapped = b < a || (a == b && lb < la);
  if (swapped) return {b, a, lb, la, feature};
  return {a, b, la, lb, feature};
}

}  // namespace

void WarmStartCache::begin() {
  next_.clear();
  next_rows_.clear();
}

void WarmStartCache::add_row(ObjectId object, std::uint32_t dof, std::uint32_t kind,
                             double impulse) {
  next_rows_.push_back({object, dof, kind, impulse});
}

bool WarmStartCache::find_row(ObjectId object, std::uint32_t dof, std::uint32_t kind,
                              double& impulse) const {
  const RowEntry key{object, dof, kind, 0.0};
  auto it = std::lower_bound(rows_.begin(), rows_.end(), key, row_less);
  if (it == rows_.end() || row_less(key, *it)) return false;
  impulse = it->impulse;
  return true;
}

void WarmStartCache::add(ObjectId a, ObjectId b, std::uint32_t local_a, std::uint32_t local_b,
                         std::uint32_t feature, const Vec3& position, const Vec3& impulse) {
  bool swapped = false;
  const WarmStartKey key = make_key(a, b, local_a, local_b, feature, swapped);
  next_.push_back({key, static_cast<std::uint32_t>(next_.size()), position,
                   swapped ? Vec3(-impulse) : impulse});
}

void WarmStartCache::commit() {
  // std::sort with ties broken by insertion order: a strict total order, so the result is the
  // same on every run, and unlike std::stable_sort it needs no scratch buffer
  std::sort(next_.begin(), next_.end(), [](const Entry& x, const Entry& y) {
    if (less(x.key, y.key)) return true;
    if (less(y.key, x.key)) return false;
    return x.order < y.order;
  });
  entries_.swap(next_);
  next_.clear();
  std::sort(next_rows_.begin(), next_rows_.end(), row_less);  // keys are unique
  rows_.swap(next_rows_);
  next_rows_.clear();
}

void WarmStartCache::clear() {
  entries_.clear();
  next_.clear();
  rows_.clear();
  next_rows_.clear();
}

bool WarmStartCache::find(ObjectId a, ObjectId b, std::uint32_t local_a, std::uint32_t local_b,
                          std::uint32_t feature, const Vec3& position, Vec3& impulse) const {
  bool swapped = false;
  const WarmStartKey key = make_key(a, b, local_a, local_b, feature, swapped);
  auto lo = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const Entry& e, const WarmStartKey& k) { return less(e.key, k); });
  const Entry* best = nullptr;
  double best_d2 = kMatchDistance * kMatchDistance;
  for (auto it = lo; it != entries_.end() && !less(key, it->key); ++it) {
    const double d2 = (it->position - position).squaredNorm();
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = &*it;
    }
  }
  if (!best) return false;
  impulse = swapped ? Vec3(-best->impulse) : best->impulse;
  return true;
}

}  // namespace torsion
