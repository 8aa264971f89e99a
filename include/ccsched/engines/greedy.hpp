// The greedy engine: list scheduling, a fast constructive upper bound (docs/ENGINES.md). Each
// scatter message goes into the first step where one of its paths is free; broadcast
// targets are informed step by step from the nearest holder with a free path.
#pragma once

#include <optional>
#include <string>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

// The greedy schedule, with however many steps it needs. Deterministic for a seed.
// Nothing when the budget (time limit, Ctrl-C) ran out first: greedy has no partial answer,
// a schedule must deliver everything; `why` then says which.
std::optional<Schedule> try_greedy_schedule(const Problem& problem, const PathSet& paths,
                                            std::uint64_t seed, const Budget& budget,
                                            std::string* why = nullptr);
// The same without a limit (tests, benchmarks): it always completes.
Schedule greedy_schedule(const Problem& problem, const PathSet& paths, std::uint64_t seed,
                         const Budget& budget = Budget());

class GreedyEngine final : public Engine {
 public:
  explicit GreedyEngine(EngineOptions options) : options_(std::move(options)) {}
  std::string_view name() const override { return "greedy"; }
  // Feasible when the greedy schedule fits in `steps`; otherwise unknown (greedy proves
  // nothing).
  EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                     const Budget& budget) override;

 private:
  EngineOptions options_;
};

}  // namespace ccsched
