// The driver (driver.hpp; docs/ARCHITECTURE.md, "The strategy table"): computes the
// bounds, walks the strategy table (strategies.cpp) and hands what each row found to
// Claims. Rows marked parallel run at once on the cores, each with its own path cache, and
// are merged in table order, so the answer never depends on which thread finished first.
// Descending rows are tried in order at each step count below the best schedule until one
// of them decides it (portfolio.cpp).
#include "ccsched/engines/driver.hpp"

#include <algorithm>

#include "ccsched/core/error.hpp"

#include "phases.hpp"
#include "portfolio.hpp"

namespace ccsched {
namespace driver {
namespace {

// Parallel rows run as one batch, descending rows as one descent.
bool together(const Strategy& a, const Strategy& b) {
  return (a.parallel && b.parallel) || (a.aim == Aim::descend && b.aim == Aim::descend);
}

void walk(Search& s, Claims& claims, double limit) {
  const auto table = strategies();
  for (std::size_t i = 0; i < table.size() && !claims.optimal() && !s.budget.expired();) {
    std::size_t end = i + 1;
    while (end < table.size() && together(table[i], table[end])) ++end;
    if (table[i].parallel) {
      run_parallel(s, claims, table.subspan(i, end - i));
    } else if (table[i].aim == Aim::descend) {
      descend(s, claims, table.subspan(i, end - i));
    } else if (table[i].applies(s)) {
      const Budget budget = row_budget(s, table[i]);
      announce(s, table[i]);
      absorb(claims, table[i].run(s, budget, 0), budget);
    }
    i = end;
  }
  last_resort(s, claims, limit);
  // Stopped by the clock or Ctrl-C before the table was done: say so, unless the row that
  // stopped already did.
  const std::string& note = claims.current_note();
  if (!claims.optimal() && s.budget.expired() &&
      note.find(s.budget.interrupted() ? "interrupted" : "time limit") == std::string::npos) {
    claims.note(s.budget.interrupted() ? "interrupted; not proven optimal"
                                       : "time limit reached; not proven optimal");
    if (!s.budget.interrupted()) claims.clock_cut();
  }
}

}  // namespace
}  // namespace driver

namespace {

// Seconds kept back from the rows for checking the schedule they leave: the transfers the
// collective needs at least (a reduction: every sender's blocks; messages: every delivery)
// at DriverParams::check_seconds_per_transfer, at most check_reserve_share of the limit.
double check_reserve(const Problem& problem, const DriverParams& params, double limit) {
  if (limit >= 1e17) return 0.0;
  const Collective& c = problem.collective;
  double transfers = 0.0;
  if (is_reduction(c)) {
    transfers = static_cast<double>(c.senders.size()) * c.blocks;
  } else {
    for (const auto& m : c.messages) transfers += static_cast<double>(m.targets.size());
  }
  return std::min(params.check_reserve_share * limit,
                  transfers * params.check_seconds_per_transfer);
}

}  // namespace

double effective_time_limit(const Problem& problem, const SolveRequest& request) {
  if (request.time_limit > 0) return request.time_limit;
  return problem.topology.processor_count() > request.params.large_network_processors
             ? request.params.large_network_seconds
             : request.params.small_network_seconds;
}

SolveOutcome solve_problem(const Problem& problem, const SolveRequest& request) {
  if (problem.model.combining && !is_reduction(problem.collective))
    throw Unsupported("solve does not schedule with combining yet (ccsched bounds --combining "
                      "gives its bounds)",
                      "--combining");
  const auto start = Budget::Clock::now();
  const double limit = effective_time_limit(problem, request);
  const Budget budget(limit - check_reserve(problem, request.params, limit), request.interrupt);
  const PathSet paths(problem.topology, problem.model, driver::path_limits(request, limit, start));
  driver::Claims claims = driver::initial_claims(problem, paths, request, limit);
  driver::Search search(problem, paths, request, claims, budget,
                        request.engine == "auto" ? "sat" : request.engine, claims.direct());
  const bool reduction = is_reduction(problem.collective);
  SolveOutcome out;
  if (request.steps && !reduction) {
    out = driver::answer_fixed_steps(search, claims, *request.steps);
  } else {
    driver::walk(search, claims, limit);
    out = claims.finish(reduction);
    if (request.steps) driver::hold_to_steps(out, *request.steps);
  }
  out.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
  if (out.schedule && out.schedule.solver()) {
    out.schedule.solver()->seconds = out.seconds;
    out.schedule.solver()->clock_cut = out.clock_cut;
    out.schedule.solver()->seed = request.options.seed;
  }
  return out;
}

}  // namespace ccsched
