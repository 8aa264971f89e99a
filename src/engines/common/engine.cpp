// The shared budget and schedule assembly (compacting empty steps); the engine registry
// is the driver's (driver/registry.cpp).
#include "ccsched/engines/engine.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>

#include "ccsched/core/error.hpp"

namespace ccsched {

std::string_view to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::feasible: return "feasible";
    case SolveStatus::infeasible: return "infeasible";
    case SolveStatus::unknown: return "unknown";
  }
  return "unknown";
}

namespace {

std::atomic<double> g_memory_ceiling{0.0};
std::atomic<std::int64_t> g_memory_next{0};  // clock ticks of the next reading
std::atomic<bool> g_memory_over{false};

double resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0.0;
  long long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  return read == 2 ? static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE))
                   : 0.0;
}

}  // namespace

void set_memory_ceiling(double bytes) {
#if defined(__SANITIZE_ADDRESS__)
  bytes = 0.0;
#endif
  g_memory_ceiling.store(bytes);
  g_memory_over.store(false);
  g_memory_next.store(0);
}

bool memory_over() {
  const double ceiling = g_memory_ceiling.load(std::memory_order_relaxed);
  if (ceiling <= 0.0) return false;
  const std::int64_t now = Budget::Clock::now().time_since_epoch().count();
  std::int64_t next = g_memory_next.load(std::memory_order_relaxed);
  if (now < next) return g_memory_over.load(std::memory_order_relaxed);
  const std::int64_t period =
      std::chrono::duration_cast<Budget::Clock::duration>(std::chrono::milliseconds(10)).count();
  // One thread reads; the others answer with the last reading.
  if (!g_memory_next.compare_exchange_strong(next, now + period))
    return g_memory_over.load(std::memory_order_relaxed);
  const bool over = resident_bytes() > ceiling;
  g_memory_over.store(over, std::memory_order_relaxed);
  return over;
}

double Budget::remaining() const {
  if (deadline_ == Clock::time_point::max()) return 1e18;
  return std::max(0.0, std::chrono::duration<double>(deadline_ - Clock::now()).count());
}

Budget Budget::sub(double seconds) const {
  const Budget other(seconds, interrupt_);
  Budget b(std::min(deadline_, other.deadline_), outer_, interrupt_);
  b.work_ = work_;
  return b;
}

Schedule assemble_schedule(const Problem& problem, std::vector<Transfer> transfers,
                           std::string_view engine, std::uint64_t seed) {
  // Designs that write their transfers step by step need no sort: a stable sort of 16.8
  // million transfers takes seconds and a buffer of half of them (0.7 GB at 4,096
  // processors).
  const auto by_step = [](const Transfer& a, const Transfer& b) { return a.step < b.step; };
  if (!std::is_sorted(transfers.begin(), transfers.end(), by_step))
    std::stable_sort(transfers.begin(), transfers.end(), by_step);
  // Dropping an empty step keeps every rule: channels and ports are per step, and the
  // holding rule only compares step order, which renumbering preserves.
  Step last_old = 0, next_new = 0;
  for (auto& t : transfers) {
    if (t.step != last_old) {
      last_old = t.step;
      ++next_new;
    }
    t.step = next_new;
  }
  Schedule s;
  s.topology = problem.topology;
  s.collective = problem.collective;
  s.model = problem.model;
  s.steps = next_new;
  s.transfers = std::move(transfers);
  s.solver = SolverInfo{std::string(engine), seed, 0.0};
  return s;
}

}  // namespace ccsched
