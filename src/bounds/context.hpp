// Internal to the bounds module: what every bound needs to know about a problem, computed
// once. It fixes the two graphs a message can travel in (docs/BOUNDS.md §"Model"):
//
//  - the transfer graph: one transfer. Under wormhole any channel, but in networks with
//    switches a path's interior nodes are switches (processors are terminals, as in
//    routing/path_set). Under store-and-forward one channel between two processors.
//  - the walk graph: a chain of transfers relayed by processors that already hold the
//    message (FORMATS.md rule 5). Under wormhole every channel; under store-and-forward
//    the channels between processors.
//
// A broadcast message spreads along a tree of transfers, so it travels in the walk graph.
// So does a scatter message in general: FORMATS.md lets a processor that received it pass
// it on (rule 5), and under store-and-forward it must be relayed hop by hop. Only with
// BoundOptions::direct_scatter (the seeds' model: "a private message from the origin
// straight to each target", docs/FORMATS.md) does a wormhole scatter message travel in the
// transfer graph, as one transfer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/problem/problem.hpp"

namespace ccsched::bounds_detail {

inline constexpr int kInf = kUnreachable;

// ⌈a / b⌉ for a >= 0, b > 0.
inline long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// One delivery obligation: a message (or `count` identical ones) from `origin` that must
// reach every node of `targets`.
struct Demand {
  NodeId origin = kNoNode;
  std::vector<NodeId> targets;
  bool broadcast = false;  // many targets; else a scatter message (one target)
  bool walk = true;        // travels in the walk graph (relays allowed); else one transfer
  long long count = 1;
};

class BoundContext {
 public:
  BoundContext(const Problem& problem, bool direct_scatter);

  const Problem& problem() const { return problem_; }
  const Topology& topology() const { return problem_.topology; }
  int nodes() const { return n_; }
  bool store_and_forward() const { return sf_; }
  bool minimal() const { return problem_.model.routing == Routing::minimal; }
  bool combining() const { return problem_.model.combining; }
  bool has_switches() const { return has_switches_; }
  // The port count as text for arguments: "k = 2" or "all-port".
  std::string ports_text() const;

  // Transfers a processor can start / end in one step: min(k, its channels) (switches: 0).
  int cap_out(NodeId v) const { return cap_out_[v]; }
  int cap_in(NodeId v) const { return cap_in_[v]; }

  const std::vector<Demand>& demands() const { return demands_; }
  // True when scatter messages travel as single transfers along shortest allowed paths
  // (direct delivery, wormhole, minimal routing): crossing counts may then use the
  // shortest-path DAG.
  bool scatter_on_shortest_paths() const { return direct_ && !sf_ && minimal(); }
  bool direct_scatter() const { return direct_; }
  // Appended to the arguments of bounds that rely on direct delivery.
  std::string direct_note() const;

  // Channel usable in the transfer graph / walk graph (store-and-forward drops channels
  // touching switches).
  bool transfer_channel(ChannelId c) const;
  bool walk_channel(ChannelId c) const { return transfer_channel(c); }
  // May a transfer towards `target` pass through `y` (y != target)? Every node's router,
  // processors included, in every network (FORMATS.md rule 1); nobody under
  // store-and-forward (rule 8: one hop).
  bool transfer_interior(NodeId /*y*/) const { return !sf_; }

  // Hop counts to `target` in the transfer graph (kInf where none); cached.
  const std::vector<int>& transfer_dist_to(NodeId target) const;
  // Hop counts from `origin` in the walk graph; cached.
  const std::vector<int>& walk_dist_from(NodeId origin) const;
  // Hops from `origin` to `target` in the walk graph (kInf where none): from a table per
  // target when the walk demands have fewer distinct targets than origins (a gather: one
  // search from the root, where a table per origin is p² entries), else per origin.
  int walk_dist(NodeId origin, NodeId target) const;
  // Shortest length of one transfer into t from any other processor (broadcast deliveries).
  int nearest_sender_dist(NodeId t) const;
  // Minimum channel uses of a demand (per message): scatter: the length of its shortest
  // route (one transfer, or a relayed walk); broadcast: the sum of nearest_sender_dist
  // over its targets.
  long long min_length(const Demand& d) const;

 private:
  std::vector<int> hop_counts(NodeId start, bool backwards, bool interior_rule) const;

  const Problem& problem_;
  int n_ = 0;
  bool sf_ = false;
  bool has_switches_ = false;
  bool direct_ = false;
  std::vector<int> cap_out_, cap_in_;
  std::vector<Demand> demands_;
  mutable std::vector<std::vector<int>> transfer_dist_, walk_dist_, walk_dist_to_;
  bool walk_by_target_ = false;
  mutable std::vector<int> nearest_;
  mutable std::vector<int> seen_;  // nearest_sender_dist's scratch: kInf, or hops to the target
};

// Bounds by family; each appends what applies to the problem.
void add_step_bounds(const BoundContext& ctx, std::vector<LowerBound>& out);
// Broadcasts on processor trees: one entry per step into every subtree (tree_bounds.cpp).
void add_tree_bounds(const BoundContext& ctx, std::vector<LowerBound>& out);
void add_load_bounds(const BoundContext& ctx, const BoundOptions& options,
                     std::vector<LowerBound>& out);
// Cuts: candidate sides (one char per node, 1 = in S) to try besides the built-in ones.
void add_cut_bounds(const BoundContext& ctx, const BoundOptions& options,
                    const std::vector<std::vector<char>>& extra_cuts, std::vector<LowerBound>& out);
// Broadcast growth limited by the channels entering a region.
void add_informed_cut_bounds(const BoundContext& ctx, const BoundOptions& options,
                             const std::vector<std::vector<char>>& extra_cuts,
                             std::vector<LowerBound>& out);
// Seed 000's AAS bisection bounds; also returns the bisection as a cut candidate.
void add_bisection_bounds(const BoundContext& ctx, const BoundOptions& options,
                          std::vector<LowerBound>& out, std::vector<std::vector<char>>& cuts);
// Seed 002's M-to-N group bounds; also returns the min cuts it found as cut candidates.
void add_mn_bounds(const BoundContext& ctx, std::vector<LowerBound>& out,
                   std::vector<std::vector<char>>& cuts);

// Text for a set of nodes in an argument: "{0, 3, 5}", shortened when long.
std::string describe_side(const Topology& t, const std::vector<char>& side);

}  // namespace ccsched::bounds_detail
