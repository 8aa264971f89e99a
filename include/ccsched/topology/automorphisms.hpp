// Automorphisms of a network: permutations of the nodes that map processors onto
// processors, switches onto switches and channels onto channels. The engines use them to
// look for schedules that the network's symmetry maps onto themselves (engines/
// symmetric.hpp), a far smaller search than the whole schedule space.
//
//   auto group = find_automorphisms(t, {.limit = 5000});
//   for (const auto& sigma : group.maps) ...   // sigma[v]: the image of node v
//
// The search is a depth-first extension of a partial map in breadth-first order of the
// nodes, pruned by node invariants (kind, degrees, distance profile); it lists
// automorphisms in a fixed order, so the same network always gives the same list.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "ccsched/topology/topology.hpp"

namespace ccsched {

struct AutomorphismLimits {
  std::size_t limit = 5000;  // stop after this many (the identity counts)
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct Automorphisms {
  std::vector<std::vector<NodeId>> maps;  // maps[0] is the identity
  bool complete = true;                   // false when a limit cut the list short
};

Automorphisms find_automorphisms(const Topology& t, const AutomorphismLimits& limits = {});

// The order of a permutation (the least r > 0 with sigma^r = identity).
long long permutation_order(const std::vector<NodeId>& sigma);

}  // namespace ccsched
