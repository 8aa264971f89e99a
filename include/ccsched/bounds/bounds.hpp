// Lower bounds on the number of steps of a collective communication: every bound of the
// seeds plus stronger valid ones, each labelled with its argument and its source.
// docs/BOUNDS.md gives the proof of each.
#pragma once

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
};

// Every bound valid for the problem's model (ports, switching, routing, faults).
BoundReport lower_bounds(const Problem& problem, const PathSet& paths);

}  // namespace ccsched
