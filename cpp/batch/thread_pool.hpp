// A persistent pool of worker threads for the data-parallel parts of torsion: stepping many worlds
// (WorldBatch), batched ray tests and the depth camera. Threads are started once, on first use,
// and reused by every later call, so a call pays a wake-up, not a thread creation.
//
// Determinism: the pool only decides which thread runs which task. Every caller splits its work
// into tasks that write disjoint outputs and read nothing another task writes (one world, one ray,
// one block of pixel rows), so results are bitwise the same whatever the number of threads and
// whatever thread runs a task.
//
// The pool is process-wide (ThreadPool::shared()): it holds no simulation state, only threads, so
// it does not break the rule that every result-changing state belongs to a World. Each call says
// how many threads it may use (the caller's thread included). Indices are handed out by an atomic
// counter (no lock per task), so a thread that got its core late simply takes fewer of them, and
// the caller works too. One job runs at a time: a second
// caller waits for the first to finish; a task that itself calls parallel_for (nesting) runs its
// inner loop on its own thread. After fork() the child gets a fresh pool (threads do not survive
// a fork).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace torsion {

class ThreadPool {
 public:
  // the pool shared by every caller in this process
  static ThreadPool& shared();

  // 0 -> the number of hardware threads (at least 1); n > 0 -> n, capped at kMaxThreads.
  // std::invalid_argument for n < 0.
  static int resolve_thread_count(int num_threads);
  static constexpr int kMaxThreads = 256;

  // Runs task(i) for every i in [0, count) on up to `threads` threads (the calling thread is one
  // of them), handing out indices one at a time (an atomic counter); returns when all have run.
  // Helpers that wake after the caller has taken the last index do not join: the caller waits
  // only for those that took work. If tasks throw, every
  // task still runs and the exception of the lowest index is rethrown here.
  void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& task);

  // worker threads started so far (the pool grows to the largest request, up to kMaxThreads - 1)
  int worker_count() const;

  ThreadPool() = default;
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  void worker_loop();
  void run_tasks();  // takes indices of the current job until none are left
  void grow(int workers);

  std::mutex submit_;  // one job at a time

  mutable std::mutex m_;
  std::condition_variable wake_;  // workers wait here for a job
  std::condition_variable done_;  // the submitter waits here for its helpers
  std::vector<std::thread> workers_;
  bool stop_ = false;

  // the current job (written under m_ before it is opened)
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0;
  // next index to hand out: taken with a relaxed fetch_add (the job's fields above were published
  // under m_, which every helper takes to join); reset under m_ when no helper is running
  std::atomic<std::size_t> next_{0};
  std::uint64_t generation_ = 0;
  bool open_ = false;           // helpers may still join
  int helpers_wanted_ = 0;      // how many workers may join this job
  int helpers_joined_ = 0;
  // joined and not yet finished: changed under m_ (done_'s predicate), read without it by the
  // submitter's short spin before it sleeps on done_
  std::atomic<int> helpers_active_{0};
  std::size_t error_index_ = 0;
  std::exception_ptr error_;
};

}  // namespace torsion
