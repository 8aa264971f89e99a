// The driver (driver.hpp; docs/ARCHITECTURE.md, "The strategy table"): computes the
// bounds, walks the strategy table (strategies.cpp) and hands what each row found to
// Claims. Rows marked parallel run at once on the cores, each with its own path cache, and
// are merged in table order, so the answer never depends on which thread finished first.
// Descending rows are tried in order at each step count below the best schedule until one
// of them decides it.
#include "ccsched/engines/driver.hpp"

#include <algorithm>
#include <exception>
#include <thread>

#include "ccsched/core/error.hpp"

#include "phases.hpp"
#include "strategy.hpp"

namespace ccsched {
namespace driver {
namespace {

Budget row_budget(const Search& s, const Strategy& row) {
  const Budget capped =
      row.time_share ? s.budget.sub(s.params.*row.time_share * s.budget.remaining()) : s.budget;
  return row.work ? capped.with_work(s.params.*row.work) : capped;
}

void absorb(Claims& claims, Attempt a, const Budget& used) {
  claims.add_seconds(a.seconds);
  for (auto& c : a.schedules) claims.offer(std::move(c));
  for (const auto& b : a.bounds) claims.raise_bound(b);
  if (a.infeasible) claims.prove_infeasible(*a.infeasible, a.within, std::move(a.proof));
  if (!a.note.empty()) claims.note(std::move(a.note));
  if (!a.tail.empty()) claims.append_note(a.tail);
  if (a.clock_cut || (used.clock_expired() && !used.interrupted())) claims.clock_cut();
}

// The parallel rows [first, end) that apply, at once; exceptions are rethrown in order.
void run_parallel(Search& s, Claims& claims, std::span<const Strategy> rows) {
  std::vector<const Strategy*> go;
  for (const Strategy& row : rows)
    if (row.applies(s)) go.push_back(&row);
  std::vector<Budget> budgets;
  for (const Strategy* row : go) budgets.push_back(row_budget(s, *row));
  std::vector<Attempt> found(go.size());
  std::vector<std::exception_ptr> failed(go.size());
  const unsigned cores = s.params.threads > 0 ? static_cast<unsigned>(s.params.threads)
                                              : std::max(1u, std::thread::hardware_concurrency());
  auto work = [&](Search& mine, std::size_t i) {
    try {
      found[i] = go[i]->run(mine, budgets[i], 0);
    } catch (...) {
      failed[i] = std::current_exception();
    }
  };
  if (cores <= 1 || go.size() <= 1) {
    for (std::size_t i = 0; i < go.size(); ++i) work(s, i);
  } else {
    std::atomic<std::size_t> next{0};
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t < std::min<std::size_t>(cores, go.size()); ++t)
      pool.emplace_back([&] {
        const PathSet own(s.problem.topology, s.problem.model, s.paths.limits());
        Search mine(s.problem, own, s.request, s.claims, s.budget, s.engine, s.direct);
        for (std::size_t i; (i = next++) < go.size();) work(mine, i);
      });
  }
  for (std::size_t i = 0; i < go.size(); ++i) {
    if (failed[i]) std::rethrow_exception(failed[i]);
    absorb(claims, std::move(found[i]), budgets[i]);
  }
}

// The descending rows [first, end): at each target below the best, in order, until one
// decides it; a target no row decides ends the descent.
void descend(Search& s, Claims& claims, std::span<const Strategy> rows) {
  while (claims.best() && !claims.at_floor() && !claims.optimal()) {
    const int target = claims.best_steps() - 1;
    if (s.budget.expired()) {
      claims.note((s.budget.interrupted() ? "interrupted before " : "time limit reached before ") +
                   std::to_string(target) + " steps was decided");
      if (!s.budget.interrupted()) claims.clock_cut();
      return;
    }
    bool decided = false;
    s.probe.reset();
    for (const Strategy& row : rows) {
      if (!row.applies(s)) continue;
      const Budget budget = row_budget(s, row);
      Attempt a = row.run(s, budget, target);
      decided = a.decided;
      const bool stop = a.stop;
      absorb(claims, std::move(a), budget);
      if (decided || stop) break;
    }
    if (!decided) return;
  }
}

// Parallel rows run as one batch, descending rows as one descent.
bool together(const Strategy& a, const Strategy& b) {
  return (a.parallel && b.parallel) || (a.aim == Aim::descend && b.aim == Aim::descend);
}

void walk(Search& s, Claims& claims) {
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
      absorb(claims, table[i].run(s, budget, 0), budget);
    }
    i = end;
  }
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

double effective_time_limit(const Problem& problem, const SolveRequest& request) {
  if (request.time_limit > 0) return request.time_limit;
  return problem.topology.processor_count() > request.params.large_network_processors
             ? request.params.large_network_seconds
             : 1e18;
}

SolveOutcome solve_problem(const Problem& problem, const SolveRequest& request) {
  if (problem.model.combining && !is_reduction(problem.collective))
    throw Unsupported("solve does not schedule with combining yet (ccsched bounds --combining "
                      "gives its bounds)",
                      "--combining");
  const auto start = Budget::Clock::now();
  const double limit = effective_time_limit(problem, request);
  const Budget budget(limit, request.interrupt);
  const PathSet paths(problem.topology, problem.model, driver::path_limits(request, limit, start));
  driver::Claims claims = driver::initial_claims(problem, paths, request, limit);
  driver::Search search(problem, paths, request, claims, budget,
                        request.engine == "auto" ? "sat" : request.engine, claims.direct());
  const bool reduction = is_reduction(problem.collective);
  SolveOutcome out;
  if (request.steps && !reduction) {
    out = driver::answer_fixed_steps(search, claims, *request.steps);
  } else {
    driver::walk(search, claims);
    out = claims.finish(reduction);
    if (request.steps) driver::hold_to_steps(out, *request.steps);
  }
  out.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
  if (out.schedule && out.schedule->solver) {
    out.schedule->solver->seconds = out.seconds;
    out.schedule->solver->clock_cut = out.clock_cut;
  }
  return out;
}

}  // namespace ccsched
