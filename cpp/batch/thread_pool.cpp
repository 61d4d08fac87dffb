#include "batch/thread_pool.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace torsion {

namespace {

// true on a thread while it runs a task of the pool: a nested parallel_for runs inline there
thread_local bool t_in_task = false;

// how long the submitter spins for helpers finishing their last task before it sleeps
constexpr std::chrono::microseconds kSpin{20};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

struct InTask {
  bool saved = t_in_task;
  InTask() { t_in_task = true; }
  ~InTask() { t_in_task = saved; }
};

}  // namespace

ThreadPool& ThreadPool::shared() {
  // Created on first use and never destroyed: worker threads blocked in a wait must not see the
  // pool's mutexes destroyed at exit. A forked child inherits the parent's pool without its
  // threads (and maybe with a mutex held by one of them): it makes its own.
  static std::mutex guard;
  static ThreadPool* pool = nullptr;
  static pid_t owner = 0;
  std::lock_guard<std::mutex> lock(guard);
  const pid_t pid = getpid();
  if (pool == nullptr || owner != pid) {
    pool = new ThreadPool();  // the old one (a parent's) is left as it is: its threads are gone
    owner = pid;
  }
  return *pool;
}

int ThreadPool::resolve_thread_count(int num_threads) {
  if (num_threads < 0)
    throw std::invalid_argument("num_threads must be >= 0 (0: all cores), got " +
                                std::to_string(num_threads));
  if (num_threads == 0) {
    const unsigned hw = std::thread::hardware_concurrency();
    num_threads = hw == 0 ? 1 : static_cast<int>(hw);
  }
  return std::min(num_threads, kMaxThreads);
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

int ThreadPool::worker_count() const {
  std::lock_guard<std::mutex> lock(m_);
  return static_cast<int>(workers_.size());
}

void ThreadPool::grow(int workers) {
  // under m_
  while (static_cast<int>(workers_.size()) < workers)
    workers_.emplace_back([this] { worker_loop(); });
}

void ThreadPool::run_tasks() {
  InTask in_task;
  const std::size_t count = count_;  // fixed while a job runs
  for (;;) {
    // (the counter may run past count by one per thread: harmless)
    const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= count) return;
    try {
      (*task_)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      if (!error_ || i < error_index_) {
        error_ = std::current_exception();
        error_index_ = i;
      }
    }
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (!open_ || helpers_joined_ >= helpers_wanted_) continue;
    ++helpers_joined_;
    helpers_active_.fetch_add(1, std::memory_order_relaxed);
    lock.unlock();
    run_tasks();
    lock.lock();
    if (helpers_active_.fetch_sub(1, std::memory_order_release) == 1) done_.notify_all();
  }
}

void ThreadPool::parallel_for(std::size_t count, int threads,
                              const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  threads = std::max(1, std::min(threads, kMaxThreads));
  const int helpers = static_cast<int>(std::min<std::size_t>(count - 1, threads - 1));
  if (helpers == 0 || t_in_task) {
    // one thread, or nested inside a task of this pool: run here, in index order
    InTask in_task;
    std::exception_ptr first;
    for (std::size_t i = 0; i < count; ++i) try {
        task(i);
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    if (first) std::rethrow_exception(first);
    return;
  }
  std::lock_guard<std::mutex> one_job(submit_);
  {
    std::lock_guard<std::mutex> lock(m_);
    grow(helpers);
    task_ = &task;
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    error_index_ = 0;
    helpers_wanted_ = helpers;
    helpers_joined_ = 0;
    helpers_active_.store(0, std::memory_order_relaxed);
    open_ = true;
    ++generation_;
  }
  wake_.notify_all();
  run_tasks();
  std::exception_ptr error;
  {
    // no helper may join once the submitter has run out of work; wait for those that did
    std::unique_lock<std::mutex> lock(m_);
    open_ = false;
    if (helpers_active_.load(std::memory_order_acquire) != 0) {
      // a helper finishing its last task (a few microseconds of work): spin a little before
      // sleeping, since a sleep and a wake-up cost more than that on the caller's path. No
      // sched_yield: on a loaded machine it hands the core to another process for a time slice,
      // while a sleeper the helper wakes gets it back at once.
      lock.unlock();
      const auto until = std::chrono::steady_clock::now() + kSpin;
      while (helpers_active_.load(std::memory_order_acquire) != 0 &&
             std::chrono::steady_clock::now() < until)
        for (int k = 0; k < 16; ++k) cpu_relax();
      lock.lock();
    }
    done_.wait(lock, [&] { return helpers_active_.load(std::memory_order_acquire) == 0; });
    task_ = nullptr;
    error = error_;
    error_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace torsion
