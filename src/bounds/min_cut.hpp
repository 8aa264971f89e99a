// Internal to the bounds module: the fewest channels whose removal separates one node set
// from another (max flow = min cut, Dinic's algorithm, unit capacities). Seed 002's
// M-to-N bounds divide a group's messages by such a channel count ("b1", "b2", "b3").
#pragma once

#include <vector>

#include "context.hpp"

namespace ccsched::bounds_detail {

struct MinCut {
  long long channels = 0;  // channels from `side` to the rest
  std::vector<char> side;  // 1 = on the sources' side (holds every source)
};

// Min cut from `sources` to `sinks` over the channels usable by transfers. The two sets
// must be disjoint and non-empty.
MinCut min_cut(const BoundContext& ctx, const std::vector<NodeId>& sources,
               const std::vector<NodeId>& sinks);

// The sides of the switches that leave the fewest channels crossing (either direction)
// between the processors with `side` 1 and those with `side` 0: an undirected min cut.
// Processors keep their side; switches get the side of an optimal cut.
void place_switches_optimally(const Topology& t, std::vector<char>& side);

}  // namespace ccsched::bounds_detail
