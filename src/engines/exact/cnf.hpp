// A small CNF builder in front of CaDiCaL: fresh variables, clauses, and the cardinality
// encodings the schedule encodings need (sequential counters, Sinz 2005). Private to the
// sat engine: CaDiCaL's header appears only in this module (docs/ARCHITECTURE.md, "Conventions" 3).
#pragma once

#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>
#include <thread>
#include <vector>

#include "ccsched/engines/engine.hpp"

namespace ccsched::sat {

// Stops CaDiCaL when the budget runs out (time limit or Ctrl-C) or the process is past
// its memory ceiling (memory_over).
class BudgetStop final : public CaDiCaL::Terminator {
 public:
  explicit BudgetStop(const Budget& budget) : budget_(budget) {}
  bool terminate() override { return budget_.expired() || memory_over(); }

 private:
  const Budget& budget_;
};

// solver.solve() stopped when the budget runs out: 10 satisfiable, 20 unsatisfiable, 0
// stopped (by the budget or a limit set on the solver).
inline int solve_within(CaDiCaL::Solver& solver, const Budget& budget) {
  BudgetStop stop(budget);
  solver.connect_terminator(&stop);
  const int answer = solver.solve();
  solver.disconnect_terminator();
  return answer;
}

// solver.solve() on a thread of its own, so that a solver inside a phase that does not
// poll its terminator cannot hold the run past its limit: CaDiCaL 1.5's inprocessing
// (variable elimination reconnecting the watches of a formula of gigabytes) ran 5.6 s past
// a 22 s limit (docs/RELIABILITY.md, "Time limits and Ctrl-C"). When the budget has expired
// and the solver has not returned within kAbandonGrace, the call answers 0 (stopped) and
// hands `owner`, the object that holds the solver, to that thread, which frees it once
// solve() returns; `owner` is then null. `terminator` and `learner` (either may be null) are
// called as CaDiCaL calls them until then, never after. Otherwise the answer, and so the
// search, is exactly that of solver.solve() here: the thread changes only who waits.
inline constexpr auto kAbandonGrace = std::chrono::milliseconds(100);

template <class Owner>
int solve_detachable(std::unique_ptr<Owner>& owner, CaDiCaL::Solver& solver, const Budget& budget,
                     CaDiCaL::Terminator* terminator = nullptr,
                     CaDiCaL::Learner* learner = nullptr) {
  // What the worker and the caller share; the worker keeps it alive past an abandonment.
  struct Shared final : CaDiCaL::Terminator, CaDiCaL::Learner {
    const Budget* budget = nullptr;
    CaDiCaL::Terminator* terminator = nullptr;
    CaDiCaL::Learner* learner = nullptr;
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false, abandoned = false;
    int answer = 0;
    std::shared_ptr<void> kept;  // the owner, once abandoned
    bool terminate() override {
      std::lock_guard lock(mutex);
      if (abandoned || memory_over()) return true;
      return terminator ? terminator->terminate() : budget->expired();
    }
    bool learning(int size) override {
      std::lock_guard lock(mutex);
      return !abandoned && learner && learner->learning(size);
    }
    void learn(int lit) override {
      std::lock_guard lock(mutex);
      if (!abandoned && learner) learner->learn(lit);
    }
  };
  auto shared = std::make_shared<Shared>();
  shared->budget = &budget;
  shared->terminator = terminator;
  shared->learner = learner;
  solver.connect_terminator(shared.get());
  if (learner) solver.connect_learner(shared.get());
  const auto disconnect = [&solver, has_learner = learner != nullptr] {
    solver.disconnect_terminator();
    if (has_learner) solver.disconnect_learner();
  };
  try {
    std::thread([shared, &solver, disconnect] {
      const int answer = solver.solve();
      std::lock_guard lock(shared->mutex);
      if (shared->abandoned) {
        shared->kept.reset();  // this thread now owns the solver: free it
        return;
      }
      disconnect();
      shared->answer = answer;
      shared->done = true;
      shared->finished.notify_all();
    }).detach();
  } catch (const std::system_error&) {
    // no thread to be had: solve here
    const int answer = solver.solve();
    disconnect();
    return answer;
  }
  std::unique_lock lock(shared->mutex);
  std::optional<Budget::Clock::time_point> expired_at;
  while (!shared->done) {
    shared->finished.wait_for(lock, std::chrono::milliseconds(20));
    if (shared->done || !owner || !budget.expired()) continue;
    const auto now = Budget::Clock::now();
    if (!expired_at) expired_at = now;
    if (now - *expired_at < kAbandonGrace) continue;
    shared->abandoned = true;
    shared->kept = std::shared_ptr<Owner>(std::move(owner));
    return 0;
  }
  return shared->answer;
}

// The budget's work allowance, in conflicts, as CaDiCaL's limit on the next solve() (it
// counts from the call): the deterministic stop (engine.hpp, Budget). Unlimited work
// sets nothing.
//
// With `reference_clauses` > 0 the allowance counts conflicts on a formula of that many
// clauses: a conflict's propagation grows with the formula (Kautz(2,6) AAB's symmetric
// encoding at 48 steps, 5.8 million clauses, spends about 3.5 ms a conflict where Heawood
// AAS's 15,000 spend about 15 us), so a larger formula gets proportionally fewer conflicts,
// and the work, not the clock, still ends it (docs/ENGINES.md, "Budgets").
// The reference of the symmetric and fixed-tree searches: the encodings their allowances
// were measured on (Heawood AAS, 15,000 clauses; hypercube:5 AAB) stay below it, and
// Kautz(2,6) AAB's 5.8 million at 48 steps gets 1/116 of the conflicts.
constexpr std::int64_t kReferenceClauses = 50'000;

inline std::int64_t conflicts_for(const CaDiCaL::Solver& solver, std::int64_t work,
                                  std::int64_t reference_clauses) {
  const auto clauses = solver.irredundant();
  if (reference_clauses <= 0 || clauses <= reference_clauses) return work;
  return std::max<std::int64_t>(
      1, static_cast<std::int64_t>(static_cast<double>(work) *
                                   static_cast<double>(reference_clauses) /
                                   static_cast<double>(clauses)));
}

inline void limit_conflicts(CaDiCaL::Solver& solver, const Budget& budget,
                            std::int64_t reference_clauses = 0) {
  if (budget.work_limited())
    solver.limit("conflicts", static_cast<int>(std::min<std::int64_t>(
                                  conflicts_for(solver, budget.work(), reference_clauses),
                                  2'000'000'000)));
}

// A generous size estimate, in bytes, of an encoding with `variables` variables and
// `occurrences` literal occurrences in cardinality lists (each costs a counter variable
// and a few clauses in CaDiCaL), for refusing before building (docs/RELIABILITY.md, --max-memory).
inline double encoding_bytes(double variables, double occurrences) {
  return 80 * occurrences + 150 * (variables + occurrences);
}

class Cnf {
 public:
  // With a null solver the builder only counts (used to estimate an encoding's size).
  explicit Cnf(CaDiCaL::Solver* solver) : solver_(solver) {}

  int new_var() { return ++vars_; }
  int vars() const { return vars_; }
  std::int64_t clauses() const { return clauses_; }

  void add(std::span<const int> lits) {
    if (solver_ != nullptr) {
      for (const int l : lits) solver_->add(l);
      solver_->add(0);
    }
    ++clauses_;
  }
  void add(std::initializer_list<int> lits) { add(std::span<const int>(lits.begin(), lits.size())); }

  // The transfer limits every schedule encoding shares: at most one transfer per
  // (channel, step) list (FORMATS.md rule 3) and, under k ports, at most k per (sender,
  // step) and (receiver, step) list (rule 4); all-port adds nothing.
  // False when `budget` ran out first (polled every 4,096 lists; the clauses are then
  // incomplete and the solver must not be asked).
  bool transfer_limits(const std::vector<std::vector<int>>& users,
                       const std::vector<std::vector<int>>& sent,
                       const std::vector<std::vector<int>>& received, std::optional<int> ports,
                       const Budget& budget) {
    std::size_t lists = 0;
    const auto spent = [&] { return ++lists % 4096 == 0 && (budget.expired() || memory_over()); };
    for (const auto& u : users) {
      if (spent()) return false;
      at_most_one(u);
    }
    if (!ports) return true;
    for (const auto& s : sent) {
      if (spent()) return false;
      at_most_k(s, *ports);
    }
    for (const auto& r : received) {
      if (spent()) return false;
      at_most_k(r, *ports);
    }
    return true;
  }

  // At most one of `lits`: pairwise for a handful, sequential counter above.
  void at_most_one(std::span<const int> lits) {
    const auto n = lits.size();
    if (n <= 1) return;
    if (n <= 5) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) add({-lits[i], -lits[j]});
      return;
    }
    int prev = new_var();  // s_1: some of lits[0..0] is true
    add({-lits[0], prev});
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const int s = new_var();
      add({-lits[i], s});
      add({-prev, s});
      add({-lits[i], -prev});
      prev = s;
    }
    add({-lits[n - 1], -prev});
  }

  // At most k of `lits` (sequential counter; registers s[i][j] = "at least j+1 of the
  // first i+1 literals are true").
  void at_most_k(std::span<const int> lits, int k) {
    const auto n = static_cast<int>(lits.size());
    if (k <= 0) {
      for (const int l : lits) add({-l});
      return;
    }
    if (n <= k) return;
    if (k == 1) {
      at_most_one(lits);
      return;
    }
    std::vector<int> prev(k), cur(k);
    for (int j = 0; j < k; ++j) prev[j] = new_var();
    add({-lits[0], prev[0]});
    for (int j = 1; j < k; ++j) add({-prev[j]});
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 0; j < k; ++j) cur[j] = new_var();
      add({-lits[i], cur[0]});
      add({-prev[0], cur[0]});
      for (int j = 1; j < k; ++j) {
        add({-lits[i], -prev[j - 1], cur[j]});
        add({-prev[j], cur[j]});
      }
      add({-lits[i], -prev[k - 1]});
      std::swap(prev, cur);
    }
    add({-lits[n - 1], -prev[k - 1]});
  }

 private:
  CaDiCaL::Solver* solver_;
  int vars_ = 0;
  std::int64_t clauses_ = 0;
};

}  // namespace ccsched::sat
