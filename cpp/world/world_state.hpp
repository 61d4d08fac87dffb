// What a World keeps about its own state beyond the physics: sleeping-island settings, the lock
// users share a world across threads with, where the world and its robots came from (for world
// XML export) and the world's lifetime identity (which checkpoints are tied to).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/ids.hpp"

namespace torsion {

// World seed: SleepSettings (setSleepingParameters)
struct SleepSettings {
  double linear_velocity_threshold = 0.01;   // m/s
  double angular_velocity_threshold = 0.02;  // rad/s
  int quiet_steps = 200;                     // consecutive quiet steps before an island sleeps
};

// The world's user-level mutex (World seed: lockMutex / lock / try_lock / unlock). The world never
// takes it itself: every thread that shares the world takes it around its accesses. Unlike a bare
// std::mutex, unlocking a lock this thread does not hold is reported (std::logic_error) instead of
// being undefined behaviour, so a mistake in Python raises instead of corrupting the process.
class WorldLock {
 public:
  void lock() {
    std::unique_lock<std::mutex> g(m_);
    if (locked_ && owner_ == std::this_thread::get_id())
      throw std::logic_error("the world lock is already held by this thread (it is not recursive)");
    cv_.wait(g, [this] { return !locked_; });
    locked_ = true;
    owner_ = std::this_thread::get_id();
    holder_.store(owner_, std::memory_order_release);
  }
  bool try_lock() {
    std::lock_guard<std::mutex> g(m_);
    if (locked_) return false;
    locked_ = true;
    owner_ = std::this_thread::get_id();
    holder_.store(owner_, std::memory_order_release);
    return true;
  }
  void unlock() {
    {
      std::lock_guard<std::mutex> g(m_);
      if (!locked_) throw std::logic_error("unlock(): the world lock is not held");
      if (owner_ != std::this_thread::get_id())
        throw std::logic_error("unlock(): the world lock is held by another thread");
      locked_ = false;
      holder_.store(std::thread::id(), std::memory_order_release);
    }
    cv_.notify_one();
  }
  bool is_locked() const {
    std::lock_guard<std::mutex> g(m_);
    return locked_;
  }
  // true while a thread other than the caller holds the lock: one atomic load, no mutex (the
  // bindings check it on every call of a method of the world, its objects and robots)
  bool held_by_another_thread() const {
    const std::thread::id h = holder_.load(std::memory_order_acquire);
    return h != std::thread::id() && h != std::this_thread::get_id();
  }

 private:
  mutable std::mutex m_;
  std::condition_variable cv_;
  bool locked_ = false;
  std::thread::id owner_;
  std::atomic<std::thread::id> holder_{};  // owner_ while locked, readable without m_
};

// Who is using the world right now, for calls that run without the GIL: one exclusive user (a
// step, a restore, adding a mesh) or any number of shared ones (ray tests, checkpoint capture,
// dynamics queries). Not a lock: nothing waits. It turns unsynchronised use of one World from two
// threads (which the documentation forbids: take world.lock()) into std::logic_error
// (RuntimeError) instead of a crash: a structural change (adding or removing an object, a
// restore, settings that resize state) while another thread steps the world would free or move
// memory the step is using. One atomic operation per call.
class WorldUse {
 public:
  // what a begin_* call took, handed back to end()
  enum class Taken { kRefused, kShared, kExclusive, kNested };
  // Exclusive use, or kNested when this thread already holds the world exclusively (a call made
  // while this thread is inside another call of the same world, e.g. from Python code run by an
  // argument conversion: single-threaded, so nothing can race; the outer use ends it).
  Taken begin_exclusive() {
    int idle = 0;
    if (state_.compare_exchange_strong(idle, -1, std::memory_order_acquire)) {
      owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
      return Taken::kExclusive;
    }
    if (idle == -1 && owner_.load(std::memory_order_relaxed) == std::this_thread::get_id())
      return Taken::kNested;
    return Taken::kRefused;
  }
  // Shared use (any number of threads), or kNested inside this thread's own exclusive use.
  Taken begin_shared() {
    int s = state_.load(std::memory_order_relaxed);
    while (s >= 0)
      if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire)) return Taken::kShared;
    if (owner_.load(std::memory_order_relaxed) == std::this_thread::get_id())
      return Taken::kNested;
    return Taken::kRefused;
  }
  void end(Taken t) {
    if (t == Taken::kExclusive) {
      owner_.store(std::thread::id(), std::memory_order_relaxed);
      state_.store(0, std::memory_order_release);
    } else if (t == Taken::kShared) {
      state_.fetch_sub(1, std::memory_order_release);
    }
  }
  bool try_begin_exclusive() { return begin_exclusive() == Taken::kExclusive; }
  void end_exclusive() { end(Taken::kExclusive); }
  bool try_begin_shared() { return begin_shared() == Taken::kShared; }
  void end_shared() { end(Taken::kShared); }
  // true unless another thread is in a call (an exclusive user on this thread may change the
  // world: adding a mesh runs inside its own exclusive use)
  bool free_for_this_thread() const {
    const int s = state_.load(std::memory_order_acquire);
    return s == 0 ||
           (s < 0 && owner_.load(std::memory_order_relaxed) == std::this_thread::get_id());
  }

 private:
  std::atomic<int> state_{0};  // -1 exclusive, n > 0 shared users, 0 idle
  std::atomic<std::thread::id> owner_{};
};

// what is raised for a conflicting call (std::logic_error)
[[noreturn]] void throw_world_in_use(const char* what);

// Scoped exclusive / shared use of a world (see WorldUse); std::logic_error naming `what` if
// another thread is using the world in a conflicting way. Nested inside this thread's own
// exclusive use it takes nothing (and releases nothing).
template <bool kExclusive>
class ScopedWorldUse {
 public:
  ScopedWorldUse(WorldUse& use, const char* what)
      : use_(use), taken_(kExclusive ? use.begin_exclusive() : use.begin_shared()) {
    if (taken_ == WorldUse::Taken::kRefused) throw_world_in_use(what);
  }
  ~ScopedWorldUse() { use_.end(taken_); }
  ScopedWorldUse(const ScopedWorldUse&) = delete;
  ScopedWorldUse& operator=(const ScopedWorldUse&) = delete;

 private:
  WorldUse& use_;
  WorldUse::Taken taken_;
};
using ExclusiveWorldUse = ScopedWorldUse<true>;
using SharedWorldUse = ScopedWorldUse<false>;

// How an articulated system was made, so that world XML can write it back: a URDF file path (or
// the URDF text itself when it was given as a string) and the loading options.
struct ArticulatedSource {
  std::string urdf_path;   // empty when built from text
  std::string urdf_text;   // the URDF itself when no path
  std::string res_path;
  std::vector<std::string> joint_order;
  int fixed_base = -1;     // -1 from the URDF, 0 floating, 1 fixed
};

struct WorldStateData {
  bool sleeping_enabled = false;
  SleepSettings sleep;
  std::string config_file;                         // the world XML this world was built from
  std::map<ObjectId, ArticulatedSource> sources;   // by object id (articulated systems)
  std::uint64_t lifetime_identity = 0;             // unique per World in this process
  // caches of checkpoint.cpp: the topology fingerprint (valid for one configuration number) and
  // the size of the last payload (to allocate the next one at once)
  bool fingerprint_valid = false;
  std::uint64_t fingerprint = 0, fingerprint_configuration = 0;
  std::size_t payload_size_hint = 0;
  // scratch of the sleeping stage (sleeping.cpp), reused step to step
  std::vector<std::size_t> island_parent;
  std::vector<char> island_pinned, island_can_sleep;
  std::vector<ObjectId> island_id;
};

}  // namespace torsion
