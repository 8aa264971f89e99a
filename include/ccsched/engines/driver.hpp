// The driver: searches the step count. It takes the best lower bound and a greedy upper
// bound, then closes the gap with the chosen engine — downward from the best schedule
// found while it keeps finding schedules, and proving T−1 infeasible when it can — and
// says whether the result is proven optimal and why.
#pragma once

#include <optional>
#include <string>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/engine.hpp"

namespace ccsched {

struct SolveRequest {
  std::string engine = "auto";    // auto | sat | greedy
  std::optional<int> steps;       // answer for this T alone
  double time_limit = 1e18;       // seconds
  const std::atomic<bool>* interrupt = nullptr;
  EngineOptions options;
  // How many paths per pair the engines may see (issue 7: the CLI truncates them on
  // networks whose path lists would not fit in --max-memory).
  PathLimits path_limits;
};

struct SolveOutcome {
  SolveStatus status = SolveStatus::unknown;  // feasible when a schedule was found
  std::optional<Schedule> schedule;
  BoundReport bounds;
  int lower_bound = 0;         // best lower bound, raised by infeasibility proofs
  bool optimal = false;
  std::string reason;          // why optimal, or why not proven
  double seconds = 0.0;
  double engine_seconds = 0.0;  // time inside the engine's runs (without bounds and greedy)
};

SolveOutcome solve_problem(const Problem& problem, const SolveRequest& request);

}  // namespace ccsched
