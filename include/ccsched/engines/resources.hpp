// Resource estimates (docs/RELIABILITY.md, "Resource limits"): how many paths, variables, clauses and
// bytes a search would need, computed from the problem's sizes alone — path counts by
// dynamic programming on the shortest-path DAG, never by enumerating the paths — so that
// ccsched can refuse a run that would exhaust the machine's memory before it allocates it.
//
//   const PathCensus census(problem.topology, problem.model);
//   const auto need = estimate_sat(problem, census, /*steps=*/12, std::nullopt, cap);
//   if (need.bytes > limit) throw Unsupported(memory_refusal("the SAT encoding", need, limit), "--max-memory");
//
// The estimates are upper bounds in the counts (at-most-one and cardinality encodings are
// charged their largest form) and calibrated, not exact, in bytes (docs/RELIABILITY.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/problem/problem.hpp"

namespace ccsched {

// Number of allowed paths and the hop distance between every ordered processor pair.
// Minimal routing: the exact number of shortest paths (walks down the BFS DAG; interior
// nodes are switches in networks with switches, as PathSet enumerates them). Non-minimal
// routing: the number of walks of at most d + extra_hops hops, an upper bound on simple
// paths. Store-and-forward: 1 for neighbours, else 0. Counts are doubles (they overflow
// 64 bits on torus:32x32). Cost O(P·(N + E)·(d + extra)); memory O(P²).
class PathCensus {
 public:
  PathCensus(const Topology& t, const Model& model);
  double count(NodeId from, NodeId to) const { return count_[index(from, to)]; }
  int distance(NodeId from, NodeId to) const { return dist_[index(from, to)]; }
  // Largest count over all pairs.
  double max_count() const { return max_count_; }
  // Sum over ordered pairs (u != v) of min(count, cap); and of min(count, cap)·hops.
  double total(double cap, std::optional<int> radius = std::nullopt) const;
  double total_hops(double cap, std::optional<int> radius = std::nullopt) const;
  const Topology& topology() const { return *topology_; }

 private:
  std::size_t index(NodeId from, NodeId to) const {
    return static_cast<std::size_t>(slot_[from]) * processors_ + static_cast<std::size_t>(slot_[to]);
  }
  const Topology* topology_;
  std::size_t processors_ = 0;
  std::vector<int> slot_;  // node -> processor index
  std::vector<double> count_;
  std::vector<int> dist_;
  double max_count_ = 0.0;
};

struct ResourceEstimate {
  double paths = 0.0;      // path objects cached by the PathSet
  double variables = 0.0;  // SAT variables (0 for other engines)
  double clauses = 0.0;
  double literals = 0.0;
  double hops = 0.0;       // channels over all those paths
  double pairs = 0.0;      // (sender, receiver) pairs whose lists are kept
  double genes = 0.0;      // evolutionary engines: genes per individual
  double bytes = 0.0;      // estimated peak memory of the structures above
};

// Bytes of the path lists the engines cache: the message pairs of a scatter-type problem
// under wormhole switching (direct delivery), every processor pair (within `radius`)
// otherwise or when `spreading` (the SAT engine's relay encoding: any processor may pass a
// message on). `cap`: paths kept per pair (PathLimits::max_paths_per_pair).
ResourceEstimate estimate_paths(const Problem& problem, const PathCensus& census, double cap,
                                std::optional<int> radius = std::nullopt);
ResourceEstimate estimate_paths(const Problem& problem, const PathCensus& census, double cap,
                                std::optional<int> radius, bool spreading);

// The SAT engine's encoding for `steps` steps (src/engines/sat.cpp), paths included;
// `spreading` as SatEngine::uses_spreading decides (by default: broadcasts and
// store-and-forward).
ResourceEstimate estimate_sat(const Problem& problem, const PathCensus& census, int steps,
                              std::optional<int> radius, double cap);
ResourceEstimate estimate_sat(const Problem& problem, const PathCensus& census, int steps,
                              std::optional<int> radius, double cap, bool spreading);

// An evolutionary engine's instance and population (src/engines/evolution/instance.hpp):
// one gene per message (scatter) or per (message, target) (broadcast), each broadcast gene
// with every processor within `radius` as a candidate sender; `population` individuals
// and as many children, paths included: the PathSet's lists and the instance's flat copy
// of them (a node and a channel per hop), the candidate tables and the route index.
// `radius` must be the one the engine applies (evo::effective_radius: none for a single
// broadcast, whose genes then have every processor as a candidate).
ResourceEstimate estimate_population(const Problem& problem, const PathCensus& census,
                                     int steps, std::optional<int> radius, double cap,
                                     int population);

// The lazy strategy of networks too large for the census (minimal wormhole routing: the
// designs and greedy find each path as they place it, PathSet::first_free_path): memory
// follows the deliveries, `pairs` of them (a target of a message; a sender's input and a
// receiver's sum per block of a reduction), one transfer each with the verifier's tables;
// where the network has no closed form (FamilyMetric), also a table of hops and path
// counts per target reached. No table over pairs of processors is charged, and none is
// built.
ResourceEstimate estimate_lazy(const Problem& problem);

// The schedule any strategy returns, held, checked by verify_schedule and written: per
// delivery (`pairs`, as above) one transfer with the verifier's tables, per message its
// two copies (the problem's and the schedule's), and for a wormhole scatter on a network
// with a closed form (FamilyMetric) the nodes of each direct path (`hops`). Checked before
// any search: a schedule that cannot be held is refused at once, whatever the engine.
ResourceEstimate estimate_schedule(const Problem& problem);

// "4.0 GiB", "512 MiB", "12 KiB".
std::string format_bytes(double bytes);

// One line: "<what> would need about X (V variables, C clauses, P paths), more than
// --max-memory Y; <advice>".
std::string memory_refusal(const std::string& what, const ResourceEstimate& need,
                           double limit, const std::string& advice);

}  // namespace ccsched
