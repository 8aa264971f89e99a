// Internal to the bounds module: the lower bounds of reductions with several blocks
// (docs/BOUNDS.md, "reduce-volume" and "reduce-completion"), appended to the report of
// reduction_lower_bounds.
#pragma once

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/problem/problem.hpp"

namespace ccsched {

// Appends reduce-volume (ALLREDUCE) and reduce-completion (REDUCE, ALLREDUCE, SCAN with
// at least two blocks); nothing under combining. Does not update report.best.
void add_block_bounds(const Problem& problem, BoundReport& report);

}  // namespace ccsched
