// Graph invariants of a topology: distances, diameter, Σ, degrees, girth, strong
// connectivity, and the channel bisection width B_C of seed 000.
#pragma once

#include <vector>

#include "ccsched/topology/topology.hpp"

namespace ccsched {

// Hop distances from `source` along channels (kUnreachable where none).
std::vector<int> distances_from(const Topology& t, NodeId source);

struct Invariants {
  int processors = 0, switches = 0, channels = 0;
  bool directed = false;
  int min_out_degree = 0, max_out_degree = 0, min_in_degree = 0, max_in_degree = 0;
  int diameter = 0;     // max over ordered processor pairs of the hop distance
  long long sigma = 0;  // Σ: sum of shortest distances over ordered processor pairs
  int girth = 0;        // shortest undirected cycle; 0 when acyclic
  bool strongly_connected = false;  // among processors
  int bisection_width = 0;          // B_C: channels crossing a min balanced processor cut
  bool bisection_exact = false;     // proven minimum, or best found
  std::vector<NodeId> bisection_side;  // processors on one side of the cut found
};

Invariants compute_invariants(const Topology& t);

}  // namespace ccsched
