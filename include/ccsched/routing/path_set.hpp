// PathSet: the routes a message may take between two nodes under a model's routing rule
// (all shortest paths, or simple paths up to `extra_hops` longer), each also given as the
// list of channels it occupies.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/topology/family_metric.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

struct Path {
  std::vector<NodeId> nodes;        // sender .. receiver
  std::vector<ChannelId> channels;  // nodes.size() - 1 channels
};

struct PathLimits {
  std::size_t max_paths_per_pair = 100000;  // refuse (Unsupported) beyond this
  // Instead of refusing, keep the first `max_paths_per_pair` paths of a pair (docs/RELIABILITY.md,
  // large networks). Engines that prove nothing (greedy, evolutionary) lose only choice;
  // an exact engine's "infeasible" is then no proof (see truncated()).
  bool truncate = false;
  // first_free_path() passes over at most this many paths of a pair's list (0: the same
  // max_paths_per_pair as the lists). It lists nothing, so a cap on the lists set by the
  // memory limit need not shorten its search (plan_resources sets this to the cap the
  // lists would have without the limit; docs/BENCHMARKS.md "The default memory limit").
  std::size_t searched_paths_per_pair = 0;
  // Stop enumerating a pair's list at this time or when `*stop` becomes true (docs/RELIABILITY.md:
  // --time-limit and Ctrl-C). A list cut short keeps the paths found so far (at least
  // one when the pair has any) and counts as truncated(): callers keep working with
  // fewer choices and notice the time limit through their own budget.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const std::atomic<bool>* stop = nullptr;
};

class PathSet {
 public:
  PathSet() = default;
  PathSet(const Topology& t, const Model& model, PathLimits limits = {});

  // All allowed paths from `from` to `to` (processors), computed on first use and cached.
  // Under store-and-forward only single-channel paths exist. A path may pass through any
  // node's router, processors included, in every network (FORMATS.md rule 1), so a route
  // through an idle terminal counts. Paths are simple: a path that revisits a node can be
  // cut short to a simple one with a subset of its channels and the same ends, which never
  // makes a schedule worse, so simple paths lose no optimum.
  const std::vector<Path>& paths(NodeId from, NodeId to) const;
  // The same list as paths(), computed afresh and not cached: for callers that copy the
  // paths into their own tables anyway (the evolutionary instance), so that the lists
  // are not held twice.
  std::vector<Path> list(NodeId from, NodeId to) const;
  // Shortest hop count (kUnreachable if none): in closed form on a generated torus, mesh,
  // ring, hypercube or fat tree (FamilyMetric), else by a breadth-first search per target,
  // kept.
  int distance(NodeId from, NodeId to) const;
  // True when distances and path counts come from the closed form: distance(),
  // path_count() and first_free_path() then keep no table per target (docs/ENGINES.md,
  // "Beyond 1,024").
  bool closed_form() const { return metric_.has_value(); }

  // Without listing anything (docs/RELIABILITY.md, large networks): minimal wormhole routing only
  // (searches_lazily()). The number of allowed paths from `from` to `to` before any limit
  // (a double: it overflows 64 bits on large tori), and the first path of paths(from, to)
  // -- same order, same limit -- whose channels are all free (used[c] == 0), or nullopt
  // when none is (the limit being PathLimits::searched_paths_per_pair when set). Throws
  // like paths() where paths() would refuse the pair. Not cached, so
  // a greedy scan that tries one pair at many steps costs no memory; a depth-first search
  // over the shortest-path DAG that remembers the nodes with no free way on, so each call
  // is linear in the DAG's size.
  bool searches_lazily() const;
  double path_count(NodeId from, NodeId to) const;
  std::optional<Path> first_free_path(NodeId from, NodeId to, std::span<const char> used) const;

  const Topology& topology() const { return *topology_; }
  const Model& model() const { return model_; }
  // Drops cached path lists (memory) without changing answers.
  void clear_cache() const { cache_.clear(); }
  // True when some pair's list was cut to the limit (PathLimits::truncate).
  bool truncated() const { return truncated_; }
  // True when some pair's list was cut by PathLimits::deadline or stop.
  bool deadline_reached() const { return deadline_reached_; }
  const PathLimits& limits() const { return limits_; }

 private:
  const Topology* topology_ = nullptr;
  Model model_;
  PathLimits limits_;
  std::optional<FamilyMetric> metric_;           // the closed form, when the network has one
  mutable std::vector<std::vector<int>> dist_;  // [to][from]: hops from `from` to `to`, lazily
  const std::vector<int>& dist_to(NodeId to) const;
  mutable std::unordered_map<std::uint64_t, std::vector<Path>> cache_;
  mutable bool truncated_ = false;
  mutable bool deadline_reached_ = false;
  // first_free_path(): path counts per target ([to][x], lazily) and the search's scratch.
  const std::vector<double>& ways_to(NodeId to) const;
  mutable std::vector<std::vector<double>> ways_;
  mutable std::vector<std::uint32_t> dead_;  // == epoch_: no free way on from this node
  mutable std::uint32_t epoch_ = 0;
};

}  // namespace ccsched
