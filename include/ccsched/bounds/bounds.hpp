// Lower bounds on the number of steps of a collective communication: every bound of the
// seeds plus stronger valid ones, each labelled with its argument and its source.
// docs/BOUNDS.md gives the proof of each.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"

namespace ccsched {

struct LowerBound {
  std::string name;      // short id, e.g. "aas-sigma"
  int value = 0;         // steps
  std::string argument;  // one line: the counting argument with the numbers filled in
  std::string source;    // "seed 000, eq. (6)" or "ccsched (docs/BOUNDS.md §…)"
};

struct BoundReport {
  std::vector<LowerBound> bounds;
  int best = 0;  // max over bounds (at least 1 when there is something to deliver)
  bool complete = true;  // false when BoundOptions::time_limit cut families short
};

// How much work the searching bounds may do. The defaults keep every spec of FORMATS.md
// within about a second; every setting gives valid bounds (less work, possibly weaker).
struct BoundOptions {
  long long cut_search_work = 20'000'000;  // channel visits spent evaluating cuts
  int cut_search_starts = 6;               // hill climbs from the best candidate cuts
  int cut_random_starts = 4;               // hill climbs from random balanced cuts
  long long link_load_work = 200'000'000;  // channel visits for the link-load bound
  long long weighted_load_work = 120'000'000;  // channel relaxations, weighted-load bound
  bool use_invariants = true;              // AAS: seed 000's bisection bounds (needs B_C)
  // false: bounds hold for every schedule FORMATS.md accepts, including ones that relay a
  // scatter message through intermediate processors (rule 5 allows it). true: assume each
  // wormhole scatter message is one transfer from its origin to its target, the model of
  // the seeds and of the SAT engine's scatter encoding; this gives stronger bounds (routes
  // that must cross a cut twice, channels on every shortest route) that hold only for
  // such schedules.
  bool direct_scatter = false;
  long long bisection_node_budget = 200'000;  // exact B_C search (topology invariants)
  std::uint64_t seed = 1;                       // the cut search's random starts
  // Wall-clock seconds for the whole computation (docs/RELIABILITY.md: --time-limit covers the bounds
  // phase). Past it the remaining, searching families are skipped: every bound reported is
  // still valid, the best may be weaker (BoundReport::complete says so).
  double time_limit = 1e18;
  // Set: Ctrl-C. Once it reads true, as past time_limit, the searching families stop.
  const std::atomic<bool>* interrupt = nullptr;
  // Polled inside the searching families (lower_bounds sets it from time_limit and
  // interrupt, keeping any condition the caller put here): a family stopped early
  // reports the best valid bound it has.
  std::function<bool()> stop;
};

// Every bound valid for the problem's model (ports, switching, routing, faults, combining)
// and their maximum. Throws Unsupported when some target cannot be reached at all.
BoundReport lower_bounds(const Problem& problem, const PathSet& paths);
BoundReport lower_bounds(const Problem& problem, const PathSet& paths, const BoundOptions& options);

// Reductions (docs/BOUNDS.md "Reductions"): information growth, store-and-forward
// distance, merge count. lower_bounds returns these for a reduction.
BoundReport reduction_lower_bounds(const Problem& problem, const PathSet& paths);

}  // namespace ccsched
