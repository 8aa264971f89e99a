// The evolutionary engines' thread pool (see parallel.hpp). Threads sleep on a condition
// variable between rounds; a round is one generation (UMDA children) or one epoch (HGSA
// workers), long enough that waking the pool costs little.
#include "parallel.hpp"

#include <algorithm>

namespace ccsched::evo {

ThreadPool::ThreadPool(int threads) : threads_(std::max(1, threads)) {
  for (int w = 1; w < threads_; ++w) pool_.emplace_back([this, w] { loop(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : pool_) t.join();
}

void ThreadPool::work(int worker) {
  try {
    for (int i = worker; i < items_; i += threads_) (*task_)(i, worker);
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::current_exception();
  }
}

void ThreadPool::loop(int worker) {
  std::size_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || round_ != seen; });
      if (stop_) return;
      seen = round_;
    }
    work(worker);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void ThreadPool::run(int n, const std::function<void(int, int)>& task) {
  if (threads_ == 1 || n <= 1) {
    for (int i = 0; i < n; ++i) task(i, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    items_ = n;
    pending_ = threads_ - 1;
    error_ = nullptr;
    ++round_;
  }
  start_.notify_all();
  work(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  task_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace ccsched::evo
