// Graph invariants of a topology: distances, diameter, Σ, degrees, girth, strong
// connectivity, and the channel bisection width B_C of seed 000.
#pragma once

#include <vector>

#include "ccsched/topology/topology.hpp"

namespace ccsched {

// Hop distances from `source` along channels (kUnreachable where none).
std::vector<int> distances_from(const Topology& t, NodeId source);
// Hop distances to `target` against the channels' direction (kUnreachable where none);
// `order`, when given, receives the nodes that reach it, nearest first.
std::vector<int> distances_to(const Topology& t, NodeId target,
                              std::vector<NodeId>* order = nullptr);

// 1 for every node `source` reaches along channels (forward) or that reaches it (backward).
std::vector<char> reachable(const Topology& t, NodeId source, bool forward);

struct Invariants {
  int processors = 0, switches = 0, channels = 0;
  bool directed = false;
  int min_out_degree = 0, max_out_degree = 0, min_in_degree = 0, max_in_degree = 0;
  int diameter = 0;                    // max over ordered processor pairs of the hop distance
  long long sigma = 0;                 // Σ: sum of shortest distances over ordered processor pairs
  // How diameter and Σ were found: in closed form (a generated torus, mesh, ring, uring,
  // hypercube or fat tree, family_metric.hpp), by a BFS from every processor, or not at all
  // (the BFS would exceed InvariantOptions::distance_work_limit; both are then -1).
  enum class Distances { closed_form, searched, not_computed };
  Distances distances = Distances::searched;
  int girth = 0;                       // shortest undirected cycle; 0 when acyclic
  bool strongly_connected = false;     // among processors
  int bisection_width = 0;             // B_C: channels crossing a min balanced processor cut
  bool bisection_exact = false;        // proven minimum, or best found
  std::vector<NodeId> bisection_side;  // processors on one side of the cut found
  long long bisection_search_nodes = 0;  // branch-and-bound nodes visited (0: not run)
};

// How hard compute_invariants works on B_C (method: src/topology/bisection.cpp and
// docs/TOPOLOGIES.md). The exact branch and bound runs when the network has at most
// `exact_bisection_limit` processors and `exact_bisection_node_limit` nodes; it stops after
// `exact_bisection_node_budget` search nodes (deterministic, unlike a time limit), and then
// the best cut found is returned with bisection_exact = false. The defaults keep every
// call within a few seconds; every network of the seeds is proven exactly.
struct InvariantOptions {
  bool compute_bisection = true;
  bool compute_distances = true;
  // Diameter and Σ of a network without a closed form take a BFS from every processor:
  // processors x (nodes + channels) steps, about 5 ns each; above this they are not
  // computed (hypercube:14 read from a file, 4e9 steps, is about 22 s).
  long long distance_work_limit = 5'000'000'000;
  int exact_bisection_limit = 64;
  int exact_bisection_node_limit = 256;
  long long exact_bisection_node_budget = 250'000;
  int local_search_restarts = 40;
};

Invariants compute_invariants(const Topology& t);
Invariants compute_invariants(const Topology& t, const InvariantOptions& options);

}  // namespace ccsched
