// What the evolutionary engines share around their main loop: how a run opens (the
// instance, under the receiver radius in force), the stopping rules of one run (generation
// limit, stall, budget), throttled progress reports, the island meeting, and turning a
// zero-conflict genome into a Schedule.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/island.hpp"
#include "genome.hpp"
#include "instance.hpp"
#include "operators.hpp"

namespace ccsched::evo {

// The radius restriction in force: the user's --radius, else (with `auto_radius`) r = 1
// for an all-to-all broadcast on a regular direct network (seed 000 §4.4: "for symmetric
// interconnection networks r = 1"); none otherwise.
std::optional<int> effective_radius(const Problem& problem, const EngineOptions& options,
                                    bool auto_radius);

// How an engine's instance is built (docs/RELIABILITY.md): stopped by `budget` unless the run is an
// island (islands must all reach the same meetings, so they never stop on their own
// clock), and its route tables limited to half of options.max_memory (the solve plan
// gives the PathSet's lists a quarter; src/cli/resource_options.cpp).
BuildLimits instance_limits(std::string_view engine, const Budget& budget,
                            const EngineOptions& options);
// The result of a run whose instance could not be built within the budget.
EngineResult result_build_stopped(std::string_view engine, const Budget& budget);

// How every evolutionary engine's solve() opens: reductions refused (`title` names the
// engine in the message, "the UMDA engine"), then the instance under the radius in force,
// built as instance_limits says. On large networks building it can take longer than the
// whole budget (docs/RELIABILITY.md); nullopt when the budget stopped it, and the run's
// result is then result_build_stopped(engine, budget).
std::optional<Instance> open_instance(std::string_view engine, std::string_view title,
                                      const Problem& problem, const PathSet& paths, int steps,
                                      bool auto_radius, const Budget& budget,
                                      const EngineOptions& options);

// Past the budget the rest of a population (or the workers' start solutions) is not
// evaluated: one evaluation of a large scatter chromosome takes tens of milliseconds
// (docs/RELIABILITY.md), and the run ends at once. Never on an island, whose islands decide
// together at meetings. Asked from the evaluating threads; cut() says whether it bit.
class BudgetCut {
 public:
  BudgetCut(const Budget& budget, const EngineOptions& options)
      : budget_(budget), stoppable_(!options.island) {}
  bool operator()() {
    if (!stoppable_ || !budget_.expired()) return false;
    cut_.store(true);
    return true;
  }
  bool cut() const { return cut_.load(); }

 private:
  const Budget& budget_;
  bool stoppable_;
  std::atomic<bool> cut_{false};
};

// The genome's transfers as a schedule (empty steps dropped by assemble_schedule).
Schedule decode(const Problem& problem, const Instance& inst, const Genome& genome,
                std::string_view engine, std::uint64_t seed);

// Restarts (ours, not in the seeds): a run whose best fitness has not improved for
// max(base, the generations this attempt needed to reach its best) generations starts over
// from a fresh first population. Tight problems (every port busy in every step, e.g. ring 8
// 1-port AAB at 7 steps) leave a population stuck one or two conflicts above zero; a fresh
// start finds another basin, while a search that is still making slow progress waits as
// long again as its progress took. base <= 0: never.
class RestartRule {
 public:
  explicit RestartRule(long base) : base_(base) {}
  // After each generation (epoch): the best fitness of the current attempt. True when the
  // caller must start over now (the rule has then reset itself for the new attempt).
  bool due(std::int64_t best) {
    ++age_;
    if (best < best_) {
      best_ = best;
      improved_at_ = age_;
    }
    if (base_ <= 0 || age_ - improved_at_ < std::max(base_, improved_at_)) return false;
    ++restarts_;
    age_ = improved_at_ = 0;
    best_ = INT64_MAX;
    return true;
  }
  long restarts() const { return restarts_; }

 private:
  long base_;
  long age_ = 0;
  long improved_at_ = 0;
  long restarts_ = 0;
  std::int64_t best_ = INT64_MAX;
};

class RunControl {
 public:
  RunControl(std::string_view engine, int steps, const Budget& budget, const EngineOptions& options,
             int generation_limit, int stall_limit);

  // After each generation (epoch): the best fitness so far. Reports progress at most
  // twice a second.
  void record(std::int64_t best);
  long generation() const { return generation_; }
  std::int64_t best() const { return best_; }
  bool gave_up() const;
  bool expired() const { return budget_.expired(); }
  double elapsed() const;

  IslandLink* link() const { return options_.island.get(); }
  bool meeting_due() const {
    return link() != nullptr && generation_ % std::max(1, link()->interval()) == 0;
  }
  // The seed of this island's random streams.
  std::uint64_t seed() const;

  // A meeting of a population-based engine (UMDA, MBOA) with its islands, when one is due:
  // offers the population (`found`: a zero-conflict member's index), and returns the
  // run's result when the islands stop; otherwise the immigrants are in `population`,
  // evaluated (in `ws`), and the result is empty.
  std::optional<EngineResult> meet(const Problem& problem, const Instance& inst,
                                   std::vector<Genome>& population,
                                   std::optional<std::size_t> found, bool expired, Workspace& ws,
                                   const Heuristics& h) const;

  EngineResult result_feasible(Schedule schedule) const;
  EngineResult result_unknown(bool budget_exhausted) const;

 private:
  std::string_view engine_;
  int steps_;
  const Budget& budget_;
  const EngineOptions& options_;
  int generation_limit_;
  int stall_limit_;
  Budget::Clock::time_point start_;
  Budget::Clock::time_point last_report_;
  long generation_ = 0;
  long last_improvement_ = 0;
  std::int64_t best_ = -1;
};

}  // namespace ccsched::evo
