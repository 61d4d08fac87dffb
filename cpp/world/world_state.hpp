// What a World keeps about its own state beyond the physics: sleeping-island settings, the lock
// users share a world across threads with, where the world and its robots came from (for world
// XML export) and the world's lifetime identity (which checkpoints are tied to).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
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
  }
  bool try_lock() {
    std::lock_guard<std::mutex> g(m_);
    if (locked_) return false;
    locked_ = true;
    owner_ = std::this_thread::get_id();
    return true;
  }
  void unlock() {
    {
      std::lock_guard<std::mutex> g(m_);
      if (!locked_) throw std::logic_error("unlock(): the world lock is not held");
      if (owner_ != std::this_thread::get_id())
        throw std::logic_error("unlock(): the world lock is held by another thread");
      locked_ = false;
    }
    cv_.notify_one();
  }
  bool is_locked() const {
    std::lock_guard<std::mutex> g(m_);
    return locked_;
  }

 private:
  mutable std::mutex m_;
  std::condition_variable cv_;
  bool locked_ = false;
  std::thread::id owner_;
};

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
