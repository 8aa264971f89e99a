// Internal to the topology module: the channel bisection width B_C (seed 000, section 3),
// used by compute_invariants (invariants.cpp). See bisection.cpp for the method.
#pragma once

#include <vector>

#include "ccsched/topology/invariants.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched::detail {

struct BisectionResult {
  int width = 0;           // channels crossing the best cut found, both directions
  bool exact = false;      // proven minimum
  std::vector<char> side;  // side (0/1) of every node in that cut
  long long search_nodes = 0;
};

BisectionResult channel_bisection(const Topology& t, const InvariantOptions& options);

}  // namespace ccsched::detail
