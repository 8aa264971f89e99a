// The parallel batch and the descent (portfolio.hpp).
#include "portfolio.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "ccsched/core/text.hpp"

namespace ccsched::driver {

Budget row_budget(const Search& s, const Strategy& row) {
  const Budget capped =
      row.time_share ? s.budget.sub(s.params.*row.time_share * s.budget.remaining()) : s.budget;
  return row.work ? capped.with_work(s.params.*row.work) : capped;
}

void announce(const Search& s, const Strategy& row, int target) {
  const auto& progress = s.request.options.progress;
  if (!progress) return;
  ProgressInfo p;
  p.engine = row.name;
  p.steps = target;
  p.best_steps = s.claims.best() ? s.claims.best_steps() : -1;
  progress(p);
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

// A limit never leaves the user with nothing: when the clock cut every row before one
// answered, the greedy row runs once more past it, for last_resort_share of the limit.
void last_resort(Search& s, Claims& claims, double limit) {
  const auto table = strategies();
  const auto greedy = std::find_if(table.begin(), table.end(),
                                   [](const Strategy& r) { return r.name == "greedy"; });
  if (claims.best() || !s.budget.clock_expired() || greedy == table.end() || !greedy->applies(s))
    return;
  const Budget grace(s.params.last_resort_share * limit + 0.5, s.request.interrupt);
  Attempt a = greedy->run(s, grace, 0);
  if (!a.schedules.empty()) a.note = "time limit reached; greedy ran past it for a first answer";
  a.clock_cut = true;
  absorb(claims, std::move(a), grace);
}

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
      announce(mine, *go[i]);
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

void descend(Search& s, Claims& claims, std::span<const Strategy> rows) {
  while (claims.best() && !claims.at_floor() && !claims.optimal()) {
    const int target = claims.best_steps() - 1;
    if (s.budget.expired()) {
      claims.note((s.budget.interrupted() ? "interrupted before " : "time limit reached before ") +
                   plural(target, "step") + " was decided");
      if (!s.budget.interrupted()) claims.clock_cut();
      return;
    }
    bool decided = false;
    s.probe.reset();
    for (const Strategy& row : rows) {
      if (!row.applies(s)) continue;
      const Budget budget = row_budget(s, row);
      announce(s, row, target);
      Attempt a = row.run(s, budget, target);
      decided = a.decided;
      const bool stop = a.stop;
      absorb(claims, std::move(a), budget);
      if (decided || stop) break;
    }
    if (!decided) return;
  }
}

}  // namespace ccsched::driver
