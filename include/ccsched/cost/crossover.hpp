// The crossover table of `ccsched cost --crossover` (docs/COST.md, "Crossover table"):
// several schedules of one collective on one network, their times under the linear model
// (linear.hpp) at every message size from `from` to `to` (doubling), the fastest at each
// size, and the size ranges where each is fastest -- the shape of the algorithm-selection
// tables of MPI libraries (message size -> algorithm).
//
//   Crossover x = crossover_table(schedules, model, 8, 1 << 30);
//   // x.sizes[i].seconds[k]: schedule k at x.sizes[i].bytes (nullopt: the vector is
//   // smaller than the schedule's block count); x.ranges: [from, to] -> fastest schedule
//
// A reduction's vector of M bytes is split into its B blocks; when B does not divide M the
// blocks are padded to ⌈M/B⌉ bytes each (the time of the padded vector).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/cost/linear.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct CrossoverRow {
  std::int64_t bytes = 0;
  std::vector<std::optional<double>> seconds;  // per schedule
  int best = -1;                               // fastest schedule (ties: the first)
};
struct CrossoverRange {
  std::int64_t from = 0, to = 0;
  int best = -1;
};
struct Crossover {
  std::vector<CrossoverRow> sizes;
  std::vector<CrossoverRange> ranges;  // consecutive sizes with the same fastest schedule
};

// Throws InvalidParameter when the schedules are not one collective kind on one network
// (by name and processor count), or when from < 1 or to < from.
Crossover crossover_table(const std::vector<Schedule>& schedules, const LinearModel& model,
                          std::int64_t from, std::int64_t to);

// "8 B", "4 KiB", "1 GiB", "1536 B": binary units where the count is whole.
std::string format_bytes(std::int64_t bytes);

}  // namespace ccsched
