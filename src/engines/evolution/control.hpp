// What the two evolutionary engines share around their main loop: the receiver radius
// they use, the stopping rules of one run (generation limit, stall, budget), throttled
// progress reports, the island meeting, and turning a zero-conflict genome into a
// Schedule.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>
#include <vector>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/island.hpp"
#include "genome.hpp"
#include "instance.hpp"

namespace ccsched::evo {

// The radius restriction in force: the user's --radius, else (with `auto_radius`) r = 1
// for an all-to-all broadcast on a regular direct network (seed 000 §4.4: "for symmetric
// interconnection networks r = 1"); none otherwise.
std::optional<int> effective_radius(const Problem& problem, const EngineOptions& options,
                                    bool auto_radius);

// The genome's transfers as a schedule (empty steps dropped by assemble_schedule).
Schedule decode(const Problem& problem, const Instance& inst, const Genome& genome,
                std::string_view engine, std::uint64_t seed);

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
