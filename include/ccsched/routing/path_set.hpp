// PathSet: the routes a message may take between two nodes under a model's routing rule
// (all shortest paths, or simple paths up to `extra_hops` longer), each also given as the
// list of channels it occupies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

struct Path {
  std::vector<NodeId> nodes;        // sender .. receiver
  std::vector<ChannelId> channels;  // nodes.size() - 1 channels
};

struct PathLimits {
  std::size_t max_paths_per_pair = 100000;  // refuse (Unsupported) beyond this
  // Instead of refusing, keep the first `max_paths_per_pair` paths of a pair (issue 7,
  // large networks). Engines that prove nothing (greedy, evolutionary) lose only choice;
  // an exact engine's "infeasible" is then no proof (see truncated()).
  bool truncate = false;
};

class PathSet {
 public:
  PathSet() = default;
  PathSet(const Topology& t, const Model& model, PathLimits limits = {});

  // All allowed paths from `from` to `to` (processors), computed on first use and cached.
  // Under store-and-forward only single-channel paths exist. In networks with switches the
  // processors are terminals: a path's interior nodes are switches only.
  const std::vector<Path>& paths(NodeId from, NodeId to) const;
  int distance(NodeId from, NodeId to) const;  // shortest hop count (kUnreachable if none)
  const Topology& topology() const { return *topology_; }
  const Model& model() const { return model_; }
  // Drops cached path lists (memory) without changing answers.
  void clear_cache() const { cache_.clear(); }
  // True when some pair's list was cut to the limit (PathLimits::truncate).
  bool truncated() const { return truncated_; }
  const PathLimits& limits() const { return limits_; }

 private:
  const Topology* topology_ = nullptr;
  Model model_;
  PathLimits limits_;
  mutable std::vector<std::vector<int>> dist_;  // [to][from]: hops from `from` to `to`, lazily
  mutable std::unordered_map<std::uint64_t, std::vector<Path>> cache_;
  mutable bool truncated_ = false;
};

}  // namespace ccsched
