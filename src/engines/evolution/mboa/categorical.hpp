// MBOA on plain categorical vectors: the algorithm of the engine without the schedule —
// tournament selection, the decision-tree Bayesian network (model.hpp), sampling in
// topological order, restricted tournament replacement (replacement.hpp) — minimising a
// cost given as a function. The engine adds repair, mutation, restarts and islands around
// the same pieces; this loop is how the tests show what the model alone learns (linkage
// on concatenated deceptive traps, where the univariate model of UMDA fails).
//
//   CategoricalProblem trap{std::vector<std::int32_t>(40, 2), cost_of_traps};
//   CategoricalResult r = minimize(trap, params, /*seed=*/1, /*target=*/0);
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ccsched/engines/mboa.hpp"

namespace ccsched::mboa {

struct CategoricalProblem {
  std::vector<std::int32_t> arity;  // values per variable, each >= 1
  std::function<std::int64_t(std::span<const std::int32_t>)> cost;  // lower is better
};

struct CategoricalResult {
  std::vector<std::int32_t> best;
  std::int64_t cost = 0;
  long generations = 0;
  bool reached = false;  // cost <= target
  int splits = 0;        // inner tree nodes of the last model learned
};

// Uses params' population, tournament, selection, offspring, window, metric, penalty,
// generations (the limit; 0 means 1000), stall and threads.
CategoricalResult minimize(const CategoricalProblem& problem, const MboaParams& params,
                           std::uint64_t seed, std::int64_t target);

}  // namespace ccsched::mboa
