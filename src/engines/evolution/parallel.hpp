// A small fixed pool of threads for the evolutionary engines. run(n, task) calls
// task(i, worker) for every i in [0, n) — item i always on worker i % threads, the
// calling thread being worker 0 — and returns when all are done. The static assignment
// and per-item random streams keep results independent of thread timing.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ccsched::evo {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return threads_; }
  // Runs task(item, worker) for item in [0, n); rethrows the first exception of a task.
  void run(int n, const std::function<void(int item, int worker)>& task);

 private:
  void loop(int worker);
  void work(int worker);

  int threads_;
  std::vector<std::thread> pool_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(int, int)>* task_ = nullptr;
  int items_ = 0;
  std::size_t round_ = 0;
  int pending_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace ccsched::evo
