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
  // Sorted by key with ties broken by insertion order: a strict total order, so the result is the
  // same on every run whichever sort produces it. The contacts arrive pair by pair in key order
  // and nearly sorted within a pair, so an insertion sort, O(n + inversions), usually finishes
  // the job; past a few moves per entry it hands over to std::sort (which, unlike
  // std::stable_sort, needs no scratch buffer).
  const auto before = [](const Entry& x, const Entry& y) {
    if (less(x.key, y.key)) return true;
    if (less(y.key, x.key)) return false;
    return x.order < y.order;
  };
  std::size_t budget = 4 * next_.size() + 64;
  for (std::size_t i = 1; i < next_.size() && budget > 0; ++i) {
    if (!before(next_[i], next_[i - 1])) continue;
    const Entry e = next_[i];
    std::size_t j = i;
    for (; j > 0 && budget > 0 && before(e, next_[j - 1]); --j, --budget) next_[j] = next_[j - 1];
    next_[j] = e;
  }
  if (budget == 0) std::sort(next_.begin(), next_.end(), before);
  entries_.swap(next_);
  next_.clear();
  std::sort(next_rows_.begin(), next_rows_.end(), row_less);  // keys are unique
  rows_.swap(next_rows_);
  next_rows_.clear();
}

void WarmStartCache::forget(ObjectId object) {
  // erasing keeps both records sorted
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [object](const Entry& e) {
                                  return e.key.object_a == object || e.key.object_b == object;
                                }),
                 entries_.end());
  rows_.erase(std::remove_if(rows_.begin(), rows_.end(),
                             [object](const RowEntry& r) { return r.object == object; }),
              rows_.end());
}

void WarmStartCache::clear() {
  entries_.clear();
  next_.clear();
  rows_.clear();
  next_rows_.clear();
}

std::size_t WarmStartCache::lower_bound_near(const WarmStartKey& key, std::size_t cursor) const {
  const std::size_t n = entries_.size();
  const auto below = [&](std::size_t i) { return less(entries_[i].key, key); };
  cursor = std::min(cursor, n);
  // bracket the answer in [lo, hi] by steps of 1, 2, 4, ... away from the cursor
  std::size_t lo = 0, hi = n, step = 1;
  if (cursor < n && below(cursor)) {  // the answer lies after the cursor
    lo = cursor + 1;
    for (;;) {
      const std::size_t p = lo + step - 1;
      if (p >= n) break;
      if (!below(p)) {
        hi = p;
        break;
      }
      lo = p + 1;
      step *= 2;
    }
  } else {  // the answer is the cursor or lies before it
    hi = cursor;
    while (hi > 0 && step <= hi) {
      const std::size_t p = hi - step;
      if (below(p)) {
        lo = p + 1;
        break;
      }
      hi = p;
      step *= 2;
    }
  }
  const auto it = std::lower_bound(
      entries_.begin() + static_cast<std::ptrdiff_t>(lo),
      entries_.begin() + static_cast<std::ptrdiff_t>(hi), key,
      [](const Entry& e, const WarmStartKey& k) { return less(e.key, k); });
  return static_cast<std::size_t>(it - entries_.begin());
}

template <class Within>
bool WarmStartCache::take_nearest(std::size_t lo, const Within& within, bool skip_taken,
                                  const Vec3& position, bool swapped, Vec3& impulse) {
  std::size_t best = entries_.size();
  double best_d2 = kMatchDistance * kMatchDistance;
  for (std::size_t i = lo; i < entries_.size() && within(entries_[i].key); ++i) {
    if (skip_taken && i < taken_.size() && taken_[i]) continue;
    const double d2 = (entries_[i].position - position).squaredNorm();
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = i;
    }
  }
  if (best == entries_.size()) return false;
  if (best < taken_.size()) taken_[best] = 1;
  impulse = swapped ? Vec3(-entries_[best].impulse) : entries_[best].impulse;
  return true;
}

bool WarmStartCache::find(ObjectId a, ObjectId b, std::uint32_t local_a, std::uint32_t local_b,
                          std::uint32_t feature, const Vec3& position, Vec3& impulse,
                          std::size_t& cursor) {
  bool swapped = false;
  const WarmStartKey key = make_key(a, b, local_a, local_b, feature, swapped);
  // The lookups of a step come in nearly the record's key order (the pairs in the same order
  // step after step): most answers are the entry after the cursor's. The first entry not less
  // than the key is unique, so when entries_[cursor] < key <= entries_[cursor + 1] it is
  // cursor + 1, exactly what lower_bound_near would find; otherwise it searches.
  const std::size_t next = cursor + 1;
  if (next < entries_.size() && less(entries_[cursor].key, key) && !less(entries_[next].key, key))
    cursor = next;
  else
    cursor = lower_bound_near(key, cursor);
  return take_nearest(
      cursor, [&key](const WarmStartKey& k) { return !less(key, k); }, false, position, swapped,
      impulse);
}

bool WarmStartCache::find_of_pair(ObjectId a, ObjectId b, std::uint32_t local_a,
                                  std::uint32_t local_b, const Vec3& position, Vec3& impulse,
                                  std::size_t& cursor) {
  bool swapped = false;
  const WarmStartKey key = make_key(a, b, local_a, local_b, 0, swapped);  // the pair's first key
  cursor = lower_bound_near(key, cursor);
  const auto same_pair = [&key](const WarmStartKey& k) {
    return k.object_a == key.object_a && k.object_b == key.object_b &&
           k.local_a == key.local_a && k.local_b == key.local_b;
  };
  return take_nearest(cursor, same_pair, true, position, swapped, impulse);
}

}  // namespace torsion
