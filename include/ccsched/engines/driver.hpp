// The driver: searches the step count. It takes the best lower bound and a greedy upper
// bound, then closes the gap with the chosen engine — downward from the best schedule
// found while it keeps finding schedules, and proving T−1 infeasible when it can — and
// says whether the result is proven optimal and why.
//
// Claims (docs/RELIABILITY.md, "What optimal and lower_bound promise"): `lower_bound` and
// `optimal` hold under the model exactly as the schedule states it, relays through other
// processors included. Wormhole scatters are searched with direct delivery first (the
// seeds' model: small encodings); a bound or a proof that holds only there is reported as
// `direct_delivery_bound` / `optimal_within`, and a relay search (the SAT engine's
// spreading encoding) then looks for a shorter schedule or the proof under the model.
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
  // Wormhole scatters: seconds the relay search (driver.hpp, top) may take at most, within
  // `time_limit`; 0 skips it (the claim then stays "optimal within direct delivery").
  double relay_time_limit = 60.0;
  const std::atomic<bool>* interrupt = nullptr;
  EngineOptions options;
  // How many paths per pair the engines may see (issue 7: the CLI truncates them on
  // networks whose path lists would not fit in --max-memory).
  PathLimits path_limits;
};

struct SolveOutcome {
  SolveStatus status = SolveStatus::unknown;  // feasible when a schedule was found
  std::optional<Schedule> schedule;
  BoundReport bounds;          // valid under the model as written
  int lower_bound = 0;         // best lower bound, raised by infeasibility proofs
  bool optimal = false;        // proven under the model as written
  // Wormhole scatters: the bounds that assume direct delivery (each message one transfer,
  // the seeds' model), and their best, raised by direct-delivery infeasibility proofs;
  // set only when it exceeds `lower_bound`.
  BoundReport direct_bounds;
  std::optional<int> direct_delivery_bound;
  // Not optimal, but proven optimal inside this restriction ("direct delivery").
  std::string optimal_within;
  std::string reason;          // why optimal, or why not proven
  double seconds = 0.0;
  double engine_seconds = 0.0;  // time inside the engine's runs (without bounds and greedy)
};

SolveOutcome solve_problem(const Problem& problem, const SolveRequest& request);

}  // namespace ccsched
