// The shared budget and schedule assembly (compacting empty steps); the engine registry
// is the driver's (driver/registry.cpp).
#include "ccsched/engines/engine.hpp"

#include <algorithm>
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
