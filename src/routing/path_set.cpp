// PathSet: enumerates the routes a message may take. Minimal routing walks the BFS
// shortest-path DAG towards the target (seed 000 §4.1 finds "all paths (shortest ones in
// the case of minimal routing) between all source-destination node pairs"); non-minimal
// routing adds simple paths up to `extra_hops` longer (seed 002 shows they can beat
// minimal routing). Under store-and-forward a transfer is one hop (FORMATS.md rule 8).
#include "ccsched/routing/path_set.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/invariants.hpp"

namespace ccsched {
namespace {

[[noreturn]] void too_many_paths(std::size_t limit) {
  throw Unsupported("more than " + std::to_string(limit) +
                        " allowed paths between one pair; use minimal routing, fewer "
                        "extra hops, or an engine that samples paths (greedy, umda, hgsa)",
                    "routing");
}

// Depth-first enumeration of simple paths from `at` to `to` of at most `budget` more
// hops; `dist_to[x]` (hops from x to `to`) prunes branches that cannot arrive in time.
class PathEnumerator {
 public:
  PathEnumerator(const Topology& t, NodeId to, const std::vector<int>& dist_to,
                 const PathLimits& limits, std::vector<Path>& out)
      : t_(t),
        to_(to),
        dist_to_(dist_to),
        limit_(limits.max_paths_per_pair),
        truncate_(limits.truncate),
        limits_(limits),
        out_(out),
        on_path_(t.node_count(), 0) {}

  // False when the list was cut at the limit (truncate mode) or by the deadline.
  bool run(NodeId from, int budget) {
    current_.nodes.push_back(from);
    on_path_[from] = 1;
    extend(from, budget);
    return !full_;
  }
  bool timed_out() const { return timed_out_; }

 private:
  // Past the deadline (or on stop) the list ends with the paths found so far; a pair
  // keeps searching until its first path so that every reachable pair has one.
  bool out_of_time() {
    if (++calls_ % 1024 != 0 || out_.empty()) return false;
    if ((limits_.stop == nullptr || !limits_.stop->load()) &&
        std::chrono::steady_clock::now() < limits_.deadline)
      return false;
    timed_out_ = true;
    full_ = true;
    return true;
  }

  void extend(NodeId at, int budget) {
    if (full_ || out_of_time()) return;
    if (at == to_) {
      if (out_.size() >= limit_) {
        if (truncate_) {
          full_ = true;
          return;
        }
        too_many_paths(limit_);
      }
      out_.push_back(current_);
      return;
    }
    for (const ChannelId c : t_.out_channels(at)) {
      if (full_) return;
      const NodeId next = t_.channel(c).to;
      if (on_path_[next] || dist_to_[next] == kUnreachable || dist_to_[next] + 1 > budget)
        continue;
      on_path_[next] = 1;
      current_.nodes.push_back(next);
      current_.channels.push_back(c);
      extend(next, budget - 1);
      current_.nodes.pop_back();
      current_.channels.pop_back();
      on_path_[next] = 0;
    }
  }

  const Topology& t_;
  NodeId to_;
  const std::vector<int>& dist_to_;
  std::size_t limit_;
  bool truncate_;
  const PathLimits& limits_;
  bool full_ = false;
  bool timed_out_ = false;
  std::uint64_t calls_ = 0;
  std::vector<Path>& out_;
  std::vector<char> on_path_;
  Path current_;
};

}  // namespace

PathSet::PathSet(const Topology& t, const Model& model, PathLimits limits)
    : topology_(&t),
      model_(model),
      limits_(limits),
      metric_(FamilyMetric::of(t)),
      dist_(t.node_count()) {
  // dist_[to][x]: hops from x to `to`; filled lazily per target in paths()/distance().
}

const std::vector<int>& PathSet::dist_to(NodeId to) const {
  if (dist_[to].empty()) dist_[to] = distances_to(*topology_, to);
  return dist_[to];
}

int PathSet::distance(NodeId from, NodeId to) const {
  if (metric_ && metric_->answers_for(to)) return metric_->distance(from, to);
  return dist_to(to)[from];
}

const std::vector<Path>& PathSet::paths(NodeId from, NodeId to) const {
  const std::uint64_t key =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
      static_cast<std::uint32_t>(to);
  if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
  return cache_.emplace(key, list(from, to)).first->second;
}

std::vector<Path> PathSet::list(NodeId from, NodeId to) const {
  std::vector<Path> found;
  const int d = distance(from, to);
  if (d != kUnreachable && from != to) {
    if (model_.switching == Switching::store_and_forward) {
      if (const auto c = topology_->find_channel(from, to)) found.push_back({{from, to}, {*c}});
    } else {
      const int budget = model_.routing == Routing::minimal ? d : d + model_.extra_hops;
      PathEnumerator enumerator(*topology_, to, dist_to(to), limits_, found);
      if (!enumerator.run(from, budget)) truncated_ = true;
      if (enumerator.timed_out()) deadline_reached_ = true;
    }
  }
  return found;
}

bool PathSet::searches_lazily() const {
  return model_.switching == Switching::wormhole && model_.routing == Routing::minimal;
}

// ways_[to][x]: paths from x to `to` down the shortest-path DAG (any interior node:
// FORMATS.md lets a path pass through every node's router, processors included, in every
// network), exactly the paths PathEnumerator lists under minimal routing (the same
// recurrence as PathCensus, engines/resources.hpp).
const std::vector<double>& PathSet::ways_to(NodeId to) const {
  if (ways_.empty()) ways_.resize(topology_->node_count());
  auto& ways = ways_[to];
  if (!ways.empty()) return ways;
  const auto& dist = dist_to(to);
  const Topology& t = *topology_;
  std::vector<NodeId> order;
  for (NodeId v = 0; v < t.node_count(); ++v)
    if (dist[v] != kUnreachable) order.push_back(v);
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeId a, NodeId b) { return dist[a] < dist[b]; });
  ways.assign(t.node_count(), 0.0);
  ways[to] = 1.0;
  for (const NodeId u : order) {
    if (u == to) continue;
    double w = 0.0;
    for (const ChannelId c : t.out_channels(u)) {
      const NodeId v = t.channel(c).to;
      if (dist[v] == dist[u] - 1) w += ways[v];
    }
    ways[u] = w;
  }
  return ways;
}

double PathSet::path_count(NodeId from, NodeId to) const {
  if (from == to || distance(from, to) == kUnreachable) return 0.0;
  if (metric_ && metric_->answers_for(to)) return metric_->ways(from, to);
  return ways_to(to)[from];
}

std::optional<Path> PathSet::first_free_path(NodeId from, NodeId to,
                                             std::span<const char> used) const {
  if (!searches_lazily())
    throw std::logic_error("PathSet::first_free_path needs minimal wormhole routing");
  if (from == to || distance(from, to) == kUnreachable) return std::nullopt;
  // Hops and path counts towards `to`: the closed form, or the tables of one target.
  const bool closed = metric_ && metric_->answers_for(to);
  const std::vector<double>* ways_table = closed ? nullptr : &ways_to(to);
  const std::vector<int>* dist_table = closed ? nullptr : &dist_to(to);
  auto ways = [&](NodeId x) { return closed ? metric_->ways(x, to) : (*ways_table)[x]; };
  auto dist = [&](NodeId x) { return closed ? metric_->distance(x, to) : (*dist_table)[x]; };
  const std::size_t cap = limits_.searched_paths_per_pair != 0 ? limits_.searched_paths_per_pair
                                                                : limits_.max_paths_per_pair;
  const double limit = static_cast<double>(cap);
  if (!limits_.truncate && ways(from) > limit) too_many_paths(cap);
  const Topology& t = *topology_;
  if (dead_.size() != static_cast<std::size_t>(t.node_count())) dead_.assign(t.node_count(), 0);
  if (++epoch_ == 0) {  // wrapped: old marks could collide with the new epoch
    std::fill(dead_.begin(), dead_.end(), 0);
    epoch_ = 1;
  }
  // Depth-first in PathEnumerator's order (out-channels in order, down the DAG). `index`
  // counts the listed paths passed over (whole subtrees at once, by their path counts),
  // so the path found is the first free one of the list exactly when index < limit.
  // With no cap on the list (the largest size_t: the classical algorithms), no index is
  // ever compared, so the subtrees passed over are not counted (ways() is the larger part
  // of a classical packing's time at 1,024 processors otherwise).
  const bool capped = cap != std::numeric_limits<std::size_t>::max();
  Path path;
  path.nodes.reserve(static_cast<std::size_t>(dist(from)) + 1);
  path.channels.reserve(static_cast<std::size_t>(dist(from)));
  path.nodes.push_back(from);
  double index = 0.0;
  bool over = false;  // the first free path lies beyond the list's limit
  // `here`: dist(at), known from the step that came down to it.
  auto search = [&](auto&& self, NodeId at, int here) -> bool {
    if (at == to) return true;
    for (const ChannelId c : t.out_channels(at)) {
      const NodeId next = t.channel(c).to;
      if (dist(next) != here - 1) continue;
      if (used[c] || dead_[next] == epoch_) {
        if (capped) index += ways(next);
      } else {
        const double before = index;
        path.nodes.push_back(next);
        path.channels.push_back(c);
        if (self(self, next, here - 1)) return true;
        if (over) return false;
        path.nodes.pop_back();
        path.channels.pop_back();
        dead_[next] = epoch_;
        if (capped) index = before + ways(next);
      }
      if (index >= limit) {
        over = true;
        return false;
      }
    }
    return false;
  };
  if (!search(search, from, dist(from)) || over || index >= limit) return std::nullopt;
  return path;
}

}  // namespace ccsched
