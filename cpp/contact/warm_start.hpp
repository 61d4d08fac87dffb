// Warm start of the contact solver from the previous step's impulses.
//
// After a solve every contact's impulse is remembered in the world frame, keyed by the pair of
// stable object ids, the local body indices and the feature id of the contact. A new contact with
// the same key whose position lies within kMatchDistance of a remembered one starts from that
// impulse, re-expressed in the new contact frame and projected onto the new friction cone.
// A contact left without one (its feature is new) then takes the nearest remembered contact of
// the same pair within kMatchDistance that no other contact took (find_of_pair: RaiSim's rule,
// pair and proximity). So a manifold that numbers its points differently from one step to the
// next (box-box: the edge-crossing manifold, then a face manifold) keeps its warm start, and no
// remembered impulse is handed out twice by this second search. Keys are stored sorted, so
// matching is a search of a sorted array (galloping from the previous lookup, then binary) and
// its result never depends on hashing.
// Joint rows (limits, joint friction) are remembered by (system id, dof, kind) and start from
// their last impulse as they are. The whole record (both kinds) is this one copyable object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ids.hpp"
#include "math/types.hpp"

namespace torsion {

struct WarmStartKey {
  ObjectId object_a = 0, object_b = 0;  // stable ids, ordered a <= b
  std::uint32_t local_a = 0, local_b = 0, feature = 0;
};

class WarmStartCache {
 public:
  static constexpr double kMatchDistance = 0.01;  // m (semantics.md A1)

  // Start a new record (the previous one stays readable until commit()).
  void begin();
  // Remember a contact's impulse on A (world frame, N s). Ids in any order.
  void add(ObjectId a, ObjectId b, std::uint32_t local_a, std::uint32_t local_b,
           std::uint32_t feature, const Vec3& position, const Vec3& impulse_on_a_world);
  // Remember the impulse of a joint row (joint_rows.hpp): system id, dof and kind.
  void add_row(ObjectId object, std::uint32_t dof, std::uint32_t kind, double impulse);
  // Make the new record the one find() reads.
  void commit();
  void clear();
  // Drop every remembered impulse of an object (its contacts and joint rows): after its state was
  // reset, what the solve that broke it produced must not start the next one.
  void forget(ObjectId object);
  std::size_t size() const { return entries_.size(); }

  // The remembered impulse of a joint row, if there is one.
  bool find_row(ObjectId object, std::uint32_t dof, std::uint32_t kind, double& impulse) const;

  // Start the lookups of a step: every remembered contact is untaken.
  void begin_lookups() { taken_.assign(entries_.size(), 0); }
  // The remembered world-frame impulse on A for this contact (same key, within kMatchDistance,
  // the nearest), if one matches; the entry is marked taken. `cursor` (0 for the first lookup of
  // a step, then left to this function) is where the last lookup ended: the search gallops from
  // there, so lookups made in key order (the collision pipeline emits the pairs in that order,
  // step after step) cost a few comparisons each. The result does not depend on it.
  bool find(ObjectId a, ObjectId b, std::uint32_t local_a, std::uint32_t local_b,
            std::uint32_t feature, const Vec3& position, Vec3& impulse_on_a_world,
            std::size_t& cursor);
  // For a contact find() left without one, after every contact of the step went through find():
  // the nearest untaken remembered contact of the same pair (any feature) within kMatchDistance;
  // it is marked taken. Cursor as for find(), a separate one.
  bool find_of_pair(ObjectId a, ObjectId b, std::uint32_t local_a, std::uint32_t local_b,
                    const Vec3& position, Vec3& impulse_on_a_world, std::size_t& cursor);

  // --- the record as data (checkpoints and saved states save and restore it) ---
  struct Entry {
    WarmStartKey key;
    std::uint32_t order;  // insertion order, breaks ties between equal keys
    Vec3 position;
    Vec3 impulse;  // on key.object_a, world frame
  };
  struct RowEntry {
    ObjectId object;
    std::uint32_t dof, kind;
    double impulse;
  };
  // the orders the record is kept in: contacts by key (then insertion order), joint rows by
  // (object, dof, kind) with unique keys. Defined here so that the sorts and searches inline them.
  static bool less(const WarmStartKey& x, const WarmStartKey& y) {
    return std::tie(x.object_a, x.object_b, x.local_a, x.local_b, x.feature) <
           std::tie(y.object_a, y.object_b, y.local_a, y.local_b, y.feature);
  }
  static bool row_less(const RowEntry& x, const RowEntry& y) {
    return std::tie(x.object, x.dof, x.kind) < std::tie(y.object, y.dof, y.kind);
  }
  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<RowEntry>& row_entries() const { return rows_; }
  // the record replaced by a saved one, kept in the orders above (the caller checks them for data
  // from outside); the copying form reuses this record's capacity
  void restore_state(const std::vector<Entry>& entries, const std::vector<RowEntry>& rows) {
    entries_ = entries;
    rows_ = rows;
  }
  void restore_state(std::vector<Entry>&& entries, std::vector<RowEntry>&& rows) {
    entries_ = std::move(entries);
    rows_ = std::move(rows);
  }

 private:
  // the first entry whose key is not less than `key`, searched outward from `cursor`
  std::size_t lower_bound_near(const WarmStartKey& key, std::size_t cursor) const;
  // the entry nearest `position` within kMatchDistance among entries_[lo, ...) while within(key)
  // holds (untaken ones only with skip_taken): marked taken, its impulse (negated if swapped) into
  // impulse
  template <class Within>
  bool take_nearest(std::size_t lo, const Within& within, bool skip_taken, const Vec3& position,
                    bool swapped, Vec3& impulse);
  std::vector<Entry> entries_;  // sorted by key, then insertion order
  std::vector<std::uint8_t> taken_;  // per entry: matched by a lookup of this step
  std::vector<Entry> next_;
  std::vector<RowEntry> rows_;  // sorted by (object, dof, kind): unique keys
  std::vector<RowEntry> next_rows_;
};

}  // namespace torsion
