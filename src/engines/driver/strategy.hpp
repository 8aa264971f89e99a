// The driver's rows (private to the driver; docs/ARCHITECTURE.md, "The strategy table").
// A Strategy is a plain value: its name, what it can prove, when it applies, how it aims,
// and one run signature. The driver walks the table in order (strategies.cpp); Claims is
// the one place that turns what the rows return into the outcome's claims.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/tree_sat.hpp"
#include "claims.hpp"

namespace ccsched::driver {

// What a strategy can claim about the problem when it finishes.
enum class Proves {
  nothing,             // a schedule at most (designs, greedy, heuristics)
  within_restriction,  // "infeasible" proves something inside a restriction (direct delivery)
  under_model,         // "infeasible" is a proof under the model as written
};

// How a row aims its work.
enum class Aim {
  once,     // one attempt on the problem
  descend,  // at each step count below the best schedule, until one row decides it
};

// Everything the rows read, and the caches they share across rows and step counts (the
// chosen engine keeps its incremental SAT state between targets).
struct Search {
  Search(const Problem& problem_, const PathSet& paths_, const SolveRequest& request_,
         const Claims& claims_, Budget budget_, std::string engine_, bool direct_)
      : problem(problem_), paths(paths_), request(request_), params(request_.params),
        claims(claims_), budget(budget_), engine(std::move(engine_)), direct(direct_) {}
  const Problem& problem;
  const PathSet& paths;
  const SolveRequest& request;
  const DriverParams& params;
  const Claims& claims;
  Budget budget;        // the whole run's cap (time limit, Ctrl-C)
  std::string engine;   // the engine asked for, "auto" resolved to "sat"
  bool direct = false;  // a wormhole scatter: searched with direct delivery first
  // Caches, built on first use.
  std::unique_ptr<Engine> chosen;
  std::optional<std::vector<std::vector<NodeId>>> symmetries;
  std::optional<std::optional<std::vector<TreeEdge>>> near_trees;
  // Reductions: where block b is gathered (owners[b]); whether the exact search ran.
  std::vector<NodeId> owners;
  bool exact_ran = false;
  // Descent: the undecided answer of the SAT engine's probe at the current target (a
  // broadcast's probe is its whole attempt, reused when the window search gives up).
  std::optional<EngineResult> probe;
  bool probe_decided = false;

  Engine& engine_for_search();
};

// What one run of a row found: schedules (each offered to Claims), proofs, a note.
struct Attempt {
  std::vector<Candidate> schedules;
  // `infeasible` steps were proven impossible: under the model when `within` is empty,
  // else inside that restriction.
  std::optional<int> infeasible;
  std::string within;
  std::string proof;                 // the proof's wording when it is not the default
  std::vector<LowerBound> bounds;    // bounds the row raised (the reduction duals)
  std::string note;                  // why it stopped without deciding
  std::string tail;                  // added to the reason when nothing is proven
  bool decided = false;              // descent: the target is settled, stop trying rows
  bool stop = false;                 // descent: give up below the best (no row can do more)
  bool clock_cut = false;            // a nested search was cut by the clock
  double seconds = 0.0;
};

struct Strategy {
  std::string_view name;             // as shown in docs/ENGINES.md
  Proves proves;
  Aim aim;
  bool parallel;                     // may run at once with its parallel neighbours
  bool (*applies)(const Search&);    // cheap: size, family, collective, model, claims so far
  // Runs under `budget` (the run's cap with the row's work allowance); `target` is the
  // step count for descending rows, 0 for the others.
  Attempt (*run)(Search&, const Budget& budget, int target);
  double DriverParams::*time_share;  // safety cap: a share of the time left (or nullptr)
  std::int64_t DriverParams::*work;  // work allowance (or nullptr: the row's own rule)
};

// The table, in the order the driver walks it (strategies.cpp).
std::span<const Strategy> strategies();

}  // namespace ccsched::driver
