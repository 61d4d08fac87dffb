#include "batch/world_batch.hpp"

#include <stdexcept>
#include <string>

#include "batch/lean_state.hpp"
#include "world/checkpoint.hpp"

namespace torsion {

WorldBatch::WorldBatch(std::vector<std::shared_ptr<World>> worlds, int num_threads)
    : worlds_(std::move(worlds)), num_threads_(ThreadPool::resolve_thread_count(num_threads)) {
  if (worlds_.empty()) throw std::invalid_argument("a WorldBatch needs at least one world");
  for (std::size_t i = 0; i < worlds_.size(); ++i)
    if (!worlds_[i]) throw std::invalid_argument("world " + std::to_string(i) + " is null");
}

void WorldBatch::set_num_threads(int num_threads) {
  num_threads_ = ThreadPool::resolve_thread_count(num_threads);
}

void WorldBatch::for_each(const std::function<void(std::size_t)>& fn) const {
  ThreadPool::shared().parallel_for(worlds_.size(), num_threads_, fn);
}

void WorldBatch::for_each_of(std::size_t count, const std::function<void(std::size_t)>& fn) const {
  ThreadPool::shared().parallel_for(count, num_threads_, fn);
}

void WorldBatch::integrate(std::int64_t steps) {
  if (steps < 0) throw std::invalid_argument("steps must be >= 0, got " + std::to_string(steps));
  for (std::size_t i = 0; i < worlds_.size(); ++i)
    if (worlds_[i]->is_mid_step())
      throw std::logic_error("integrate(): world " + std::to_string(i) +
                             " is between integrate1() and integrate2()");
  if (steps == 0) return;
  for_each([&](std::size_t i) { worlds_[i]->integrate(steps); });
}

void WorldBatch::state_hashes(std::uint64_t* out) {
  for (std::size_t i = 0; i < worlds_.size(); ++i)
    if (worlds_[i]->is_mid_step())
      throw std::logic_error("state_hashes(): world " + std::to_string(i) +
                             " is between integrate1() and integrate2()");
  for_each([&](std::size_t i) { out[i] = state_hash(*worlds_[i]); });
}

void WorldBatch::check_restore_targets(const std::int64_t* indices, std::size_t count,
                                       std::uint64_t fingerprint, const char* what) const {
  const std::int64_t n = static_cast<std::int64_t>(worlds_.size());
  for (std::size_t k = 0; k < count; ++k)
    if (indices[k] < 0 || indices[k] >= n)
      throw std::out_of_range("indices[" + std::to_string(k) + "] = " +
                              std::to_string(indices[k]) + " is out of range [0, " +
                              std::to_string(n) + ")");
  for (std::size_t k = 0; k < count; ++k) {
    World& w = *worlds_[static_cast<std::size_t>(indices[k])];
    if (w.is_mid_step())
      throw std::logic_error("restore(): world " + std::to_string(indices[k]) +
                             " is between integrate1() and integrate2()");
    if (topology_fingerprint(w) != fingerprint)
      throw std::logic_error("restore(): world " + std::to_string(indices[k]) +
                             " has another topology than the " + what + " (objects added or "
                             "removed, or a world built differently)");
  }
}

void WorldBatch::restore(const std::int64_t* indices, std::size_t count,
                         const Checkpoint& checkpoint) {
  if (checkpoint.empty()) throw std::invalid_argument("checkpoint: the checkpoint is empty");
  // everything that makes restore_checkpoint refuse, checked for every world before any changes
  check_restore_targets(indices, count, checkpoint.topology_fingerprint(), "checkpoint");
  // A captured checkpoint is tied to its world; for the others its portable form (the same
  // payload, read back from its bytes) is restored. Made once per call.
  Checkpoint portable;
  const Checkpoint* other = &checkpoint;
  if (checkpoint.world_identity() != 0) {
    bool needed = false;
    for (std::size_t k = 0; k < count && !needed; ++k)
      needed = worlds_[static_cast<std::size_t>(indices[k])]->lifetime_identity() !=
               checkpoint.world_identity();
    if (needed) {
      const std::vector<std::uint8_t> bytes = checkpoint.to_bytes();
      portable = Checkpoint::from_bytes(bytes.data(), bytes.size());
      other = &portable;
    }
  }
  std::vector<std::string> why(count);
  for_each_of(count, [&](std::size_t k) {
    World& w = *worlds_[static_cast<std::size_t>(indices[k])];
    why[k] = restore_checkpoint(
        w, w.lifetime_identity() == checkpoint.world_identity() ? checkpoint : *other);
  });
  for (std::size_t k = 0; k < count; ++k)
    if (!why[k].empty())
      throw std::logic_error("restore(): world " + std::to_string(indices[k]) + ": " + why[k]);
}

void WorldBatch::restore(const std::int64_t* indices, std::size_t count, const LeanState& state) {
  if (state.empty()) throw std::invalid_argument("state: the state is empty");
  check_restore_targets(indices, count, state.topology_fingerprint(), "state");
  // a lean restore is a few microseconds: threads pay off only for many worlds
  auto one = [&](std::size_t k) {
    restore_lean_state(*worlds_[static_cast<std::size_t>(indices[k])], state);
  };
  if (count < 64) {
    for (std::size_t k = 0; k < count; ++k) one(k);
  } else {
    for_each_of(count, one);
  }
}

template <bool kExclusive>
void BatchUse<kExclusive>::claim(World& w, std::size_t index, const char* what) {
  WorldUse& use = w.use();
  if (!(kExclusive ? use.try_begin_exclusive() : use.try_begin_shared())) {
    release();  // a constructor that throws has no destructor run
    throw std::logic_error(std::string(what) + ": world " + std::to_string(index) +
                           " of the batch is being used by another thread right now (a World "
                           "shared between threads must be used under `with world.lock():`)");
  }
  claimed_.push_back(&w);
}

template <bool kExclusive>
BatchUse<kExclusive>::BatchUse(WorldBatch& batch, const char* what) {
  claimed_.reserve(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) claim(batch.world(i), i, what);
}

template <bool kExclusive>
BatchUse<kExclusive>::BatchUse(WorldBatch& batch, const std::int64_t* indices, std::size_t count,
                               const char* what) {
  claimed_.reserve(count);
  std::vector<char> seen(batch.size(), 0);
  for (std::size_t k = 0; k < count; ++k) {
    const std::int64_t i = indices[k];
    if (i < 0 || i >= static_cast<std::int64_t>(batch.size()))
      continue;  // the call itself reports bad indices
    if (seen[static_cast<std::size_t>(i)]) continue;  // the same world named twice
    seen[static_cast<std::size_t>(i)] = 1;
    claim(batch.world(static_cast<std::size_t>(i)), static_cast<std::size_t>(i), what);
  }
}

template <bool kExclusive>
void BatchUse<kExclusive>::release() {
  for (World* w : claimed_) {
    if (kExclusive)
      w->use().end_exclusive();
    else
      w->use().end_shared();
  }
  claimed_.clear();
}

template <bool kExclusive>
BatchUse<kExclusive>::~BatchUse() {
  release();
}

template class BatchUse<true>;
template class BatchUse<false>;

}  // namespace torsion
