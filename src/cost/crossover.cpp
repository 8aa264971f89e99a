// The crossover table (cost/crossover.hpp, docs/COST.md "Crossover table").
#include "ccsched/cost/crossover.hpp"

#include <fmt/core.h>

#include "ccsched/core/error.hpp"

namespace ccsched {

std::string format_bytes(std::int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  std::int64_t v = bytes;
  while (u < 4 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  return fmt::format("{} {}", v, units[u]);
}

Crossover crossover_table(const std::vector<Schedule>& schedules, const LinearModel& model,
                          std::int64_t from, std::int64_t to) {
  if (from < 1) throw InvalidParameter("the smallest size must be at least 1 byte", "--from");
  if (to < from)
    throw InvalidParameter(
        fmt::format("the largest size ({} B) is below the smallest ({} B)", to, from), "--to");
  for (const Schedule& s : schedules) {
    const Schedule& first = schedules.front();
    if (s.collective.kind != first.collective.kind || s.topology.name() != first.topology.name() ||
        s.topology.processor_count() != first.topology.processor_count())
      throw InvalidParameter(
          fmt::format("a crossover compares one collective on one network: {} on {} and {} on {}",
                      to_string(first.collective.kind), first.topology.name(),
                      to_string(s.collective.kind), s.topology.name()),
          "schedules");
  }
  Crossover x;
  for (std::int64_t m = from; m <= to; m = m > to / 2 ? to + 1 : m * 2) {
    CrossoverRow row;
    row.bytes = m;
    for (std::size_t k = 0; k < schedules.size(); ++k) {
      const Schedule& s = schedules[k];
      std::optional<double> t;
      if (!is_reduction(s.collective) && s.collective.blocks == 1) {
        t = linear_cost(s, model, m).total_seconds;
      } else if (m >= s.collective.blocks) {
        const std::int64_t b = s.collective.blocks;
        t = linear_cost(s, model, (m + b - 1) / b * b).total_seconds;
      }
      row.seconds.push_back(t);
      if (t && (row.best < 0 || *t < *row.seconds[row.best])) row.best = static_cast<int>(k);
    }
    if (!x.ranges.empty() && x.ranges.back().best == row.best)
      x.ranges.back().to = m;
    else
      x.ranges.push_back({m, m, row.best});
    x.sizes.push_back(std::move(row));
  }
  return x;
}

}  // namespace ccsched
