// PathSet: enumerates the routes a message may take. Minimal routing walks the BFS
// shortest-path DAG towards the target (seed 000 §4.1 finds "all paths (shortest ones in
// the case of minimal routing) between all source-destination node pairs"); non-minimal
// routing adds simple paths up to `extra_hops` longer (seed 002 shows they can beat
// minimal routing). Under store-and-forward a transfer is one hop (FORMATS.md rule 8).
#include "ccsched/routing/path_set.hpp"

#include <string>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

// Depth-first enumeration of simple paths from `at` to `to` of at most `budget` more
// hops; `dist_to[x]` (hops from x to `to`) prunes branches that cannot arrive in time.
class PathEnumerator {
 public:
  PathEnumerator(const Topology& t, NodeId to, const std::vector<int>& dist_to,
                 std::size_t limit, bool truncate, std::vector<Path>& out)
      : t_(t),
        to_(to),
        dist_to_(dist_to),
        limit_(limit),
        truncate_(truncate),
        out_(out),
        on_path_(t.node_count(), 0),
        terminals_only_(t.switch_count() > 0) {}

  // False when the list was cut at the limit (truncate mode).
  bool run(NodeId from, int budget) {
    current_.nodes.push_back(from);
    on_path_[from] = 1;
    extend(from, budget);
    return !full_;
  }

 private:
  void extend(NodeId at, int budget) {
    if (full_) return;
    if (at == to_) {
      if (out_.size() >= limit_) {
        if (truncate_) {
          full_ = true;
          return;
        }
        throw Unsupported("more than " + std::to_string(limit_) +
                              " allowed paths between one pair; use minimal routing, fewer "
                              "extra hops, or an engine that samples paths (greedy, umda, hgsa)",
                          "routing");
      }
      out_.push_back(current_);
      return;
    }
    for (const ChannelId c : t_.out_channels(at)) {
      if (full_) return;
      const NodeId next = t_.channel(c).to;
      if (on_path_[next] || dist_to_[next] == kUnreachable || dist_to_[next] + 1 > budget)
        continue;
      if (terminals_only_ && next != to_ && t_.is_processor(next)) continue;
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
  bool full_ = false;
  std::vector<Path>& out_;
  std::vector<char> on_path_;
  bool terminals_only_;  // networks with switches: processors do not relay
  Path current_;
};

// Hop distances *to* `target` (BFS on reversed channels).
std::vector<int> distances_to(const Topology& t, NodeId target) {
  std::vector<int> dist(t.node_count(), kUnreachable);
  std::vector<NodeId> queue{target};
  dist[target] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId v = queue[head];
    for (const ChannelId c : t.in_channels(v)) {
      const NodeId u = t.channel(c).from;
      if (dist[u] == kUnreachable) {
        dist[u] = dist[v] + 1;
        queue.push_back(u);
      }
    }
  }
  return dist;
}

}  // namespace

PathSet::PathSet(const Topology& t, const Model& model, PathLimits limits)
    : topology_(&t), model_(model), limits_(limits), dist_(t.node_count()) {
  // dist_[to][x]: hops from x to `to`; filled lazily per target in paths()/distance().
}

int PathSet::distance(NodeId from, NodeId to) const {
  if (dist_[to].empty()) dist_[to] = distances_to(*topology_, to);
  return dist_[to][from];
}

const std::vector<Path>& PathSet::paths(NodeId from, NodeId to) const {
  const std::uint64_t key =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
      static_cast<std::uint32_t>(to);
  if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
  std::vector<Path> found;
  const int d = distance(from, to);
  if (d != kUnreachable && from != to) {
    if (model_.switching == Switching::store_and_forward) {
      if (const auto c = topology_->find_channel(from, to)) found.push_back({{from, to}, {*c}});
    } else {
      const int budget = model_.routing == Routing::minimal ? d : d + model_.extra_hops;
      if (!PathEnumerator(*topology_, to, dist_[to], limits_.max_paths_per_pair,
                          limits_.truncate, found)
               .run(from, budget))
        truncated_ = true;
    }
  }
  return cache_.emplace(key, std::move(found)).first->second;
}

}  // namespace ccsched
