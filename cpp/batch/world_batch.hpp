// WorldBatch: N independent worlds stepped together on the shared thread pool (thread_pool.hpp).
//
// Each world is stepped by one thread at a time and no two worlds share mutable state (robot
// models, heightmap samples and meshes they share are immutable), so a world's steps are bitwise
// the same whichever thread runs them and however many threads there are: the batch gives the
// results of N separate worlds stepped one after another.
//
// Every call that touches the worlds first claims their WorldUse (world_state.hpp) on the calling
// thread: a world of the batch that another thread is using (through its own World handle) makes
// the call fail with std::logic_error naming the world, instead of a data race.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "batch/thread_pool.hpp"
#include "world/world.hpp"

namespace torsion {

class Checkpoint;
class LeanState;

class WorldBatch {
 public:
  // takes the worlds as they are (at least one); num_threads as ThreadPool::resolve_thread_count
  WorldBatch(std::vector<std::shared_ptr<World>> worlds, int num_threads);

  std::size_t size() const { return worlds_.size(); }
  World& world(std::size_t i) { return *worlds_[i]; }
  const std::shared_ptr<World>& world_ptr(std::size_t i) const { return worlds_[i]; }
  int num_threads() const { return num_threads_; }
  void set_num_threads(int num_threads);

  // runs fn(i) for every world index on the pool (up to num_threads() threads)
  void for_each(const std::function<void(std::size_t)>& fn) const;
  // the same over some of the worlds: fn(k) for k in [0, count)
  void for_each_of(std::size_t count, const std::function<void(std::size_t)>& fn) const;

  // `steps` steps of every world (std::logic_error if one is mid-step or in use elsewhere)
  void integrate(std::int64_t steps);
  // state_hash(world i) into out[i]
  void state_hashes(std::uint64_t* out);
  // restore `checkpoint` into the worlds indices[0..count): a checkpoint of any world whose
  // topology is theirs (portable or not). std::out_of_range for a bad index; std::logic_error
  // (naming the world) if a restore is refused, before any world is changed.
  void restore(const std::int64_t* indices, std::size_t count, const Checkpoint& checkpoint);
  // the same with a lean state (batch/lean_state.hpp)
  void restore(const std::int64_t* indices, std::size_t count, const LeanState& state);

 private:
  // restore()'s checks, made for every target before any world changes: indices in range, no
  // world mid-step, each world's topology equal to `fingerprint` (of the `what` restored)
  void check_restore_targets(const std::int64_t* indices, std::size_t count,
                             std::uint64_t fingerprint, const char* what) const;

  std::vector<std::shared_ptr<World>> worlds_;
  int num_threads_ = 1;
};

// Claims the WorldUse of every world of a batch (or of some) on the calling thread, in index
// order, and releases them on destruction. std::logic_error naming `what` and the world's index
// if one is in use by another thread (the claims made so far are released).
template <bool kExclusive>
class BatchUse {
 public:
  BatchUse(WorldBatch& batch, const char* what);
  BatchUse(WorldBatch& batch, const std::int64_t* indices, std::size_t count, const char* what);
  ~BatchUse();
  BatchUse(const BatchUse&) = delete;
  BatchUse& operator=(const BatchUse&) = delete;

 private:
  void claim(World& w, std::size_t index, const char* what);
  void release();
  std::vector<World*> claimed_;
};
using ExclusiveBatchUse = BatchUse<true>;
using SharedBatchUse = BatchUse<false>;

}  // namespace torsion
