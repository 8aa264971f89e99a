// Graph invariants of a topology: hop distances, diameter and Σ over processor pairs,
// degrees, girth of the underlying undirected graph, strong connectivity among the
// processors, and the channel bisection width B_C (computed in bisection.cpp).
//
// Conventions (docs/TOPOLOGIES.md): distances follow channels and may pass through
// switches and other processors; diameter and Σ range over ordered pairs of distinct
// processors (seed 000, section 3: "the sum of all shortest paths ... from any source to
// any destination node"); degrees range over all nodes, processors and switches; the girth
// is that of the simple undirected graph underlying the channels (a channel pair u<->v is
// one edge), 0 when it is a forest.
#include "ccsched/topology/invariants.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>
#include <vector>

#include "bisection.hpp"
#include "ccsched/topology/family_metric.hpp"

namespace ccsched {
namespace {

// Shortest cycle of the underlying simple undirected graph: BFS from every node; a
// non-tree edge (u, v) closes a closed walk of length d(u) + d(v) + 1 containing a cycle
// no longer than it, and from a root on a shortest cycle the bound is attained. A forest
// (edges = nodes - components) has none, and is answered without the searches; each search
// stops where it cannot beat the best cycle and clears only what it visited, so a network
// with short cycles costs O(nodes x degree^2) at any size.
int girth(const Topology& t) {
  const int n = t.node_count();
  std::vector<std::vector<int>> adj(n);
  long long edges = 0;
  for (const auto& c : t.channels()) {
    if (t.has_channel(c.to, c.from) && c.to < c.from) continue;
    adj[c.from].push_back(c.to);
    adj[c.to].push_back(c.from);
    ++edges;
  }
  std::vector<int> dist(n, -1), parent(n, -1), visited;
  long long components = 0;
  for (int root = 0; root < n; ++root) {
    if (dist[root] >= 0) continue;
    ++components;
    dist[root] = 0;
    for (std::deque<int> queue{root}; !queue.empty(); queue.pop_front())
      for (const int v : adj[queue.front()])
        if (dist[v] < 0) {
          dist[v] = 0;
          queue.push_back(v);
        }
  }
  if (edges == n - components) return 0;
  std::fill(dist.begin(), dist.end(), -1);
  int best = std::numeric_limits<int>::max();
  for (int root = 0; root < n; ++root) {
    dist[root] = 0;
    parent[root] = -1;
    visited.assign(1, root);
    std::deque<int> queue{root};
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      if (2 * dist[u] + 1 >= best) break;  // no shorter cycle through this root
      for (const int v : adj[u]) {
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          parent[v] = u;
          queue.push_back(v);
          visited.push_back(v);
        } else if (parent[u] != v) {
          best = std::min(best, dist[u] + dist[v] + 1);
        }
      }
    }
    for (const int v : visited) dist[v] = -1;
  }
  return best;
}

// Every processor reaches the first processor and is reached from it (through any nodes),
// which is strong connectivity among the processors: two BFS, O(channels).
bool processors_strongly_connected(const Topology& t) {
  if (t.processor_count() == 0) return true;
  for (const bool forward : {true, false}) {
    const auto seen = reachable(t, t.processors()[0], forward);
    for (const auto p : t.processors())
      if (!seen[p]) return false;
  }
  return true;
}

// Breadth-first search from `node` along channels (forward) or against them (backward):
// hop distances, kUnreachable where none, and the nodes reached in the order searched.
std::vector<int> search(const Topology& t, NodeId node, bool forward, std::vector<NodeId>* order) {
  std::vector<int> dist(t.node_count(), kUnreachable);
  std::vector<NodeId> local;
  std::vector<NodeId>& queue = order != nullptr ? *order : local;
  queue.assign(1, node);
  dist[node] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId u = queue[head];
    for (const auto c : forward ? t.out_channels(u) : t.in_channels(u)) {
      const NodeId v = forward ? t.channel(c).to : t.channel(c).from;
      if (dist[v] == kUnreachable) {
        dist[v] = dist[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return dist;
}

}  // namespace

std::vector<int> distances_from(const Topology& t, NodeId source) {
  return search(t, source, true, nullptr);
}

std::vector<int> distances_to(const Topology& t, NodeId target, std::vector<NodeId>* order) {
  return search(t, target, false, order);
}

std::vector<char> reachable(const Topology& t, NodeId source, bool forward) {
  const auto dist = search(t, source, forward, nullptr);
  std::vector<char> seen(dist.size());
  for (std::size_t v = 0; v < dist.size(); ++v) seen[v] = dist[v] != kUnreachable;
  return seen;
}

Invariants compute_invariants(const Topology& t) { return compute_invariants(t, {}); }

Invariants compute_invariants(const Topology& t, const InvariantOptions& options) {
  Invariants inv;
  inv.processors = t.processor_count();
  inv.switches = t.switch_count();
  inv.channels = t.channel_count();
  inv.directed = t.directed();
  if (t.node_count() > 0) {
    inv.min_out_degree = inv.min_in_degree = std::numeric_limits<int>::max();
    for (NodeId v = 0; v < t.node_count(); ++v) {
      const auto out = static_cast<int>(t.out_channels(v).size());
      const auto in = static_cast<int>(t.in_channels(v).size());
      inv.min_out_degree = std::min(inv.min_out_degree, out);
      inv.max_out_degree = std::max(inv.max_out_degree, out);
      inv.min_in_degree = std::min(inv.min_in_degree, in);
      inv.max_in_degree = std::max(inv.max_in_degree, in);
    }
  }
  inv.strongly_connected = processors_strongly_connected(t);
  if (!inv.strongly_connected || !options.compute_distances) {
    inv.diameter = -1;
    inv.sigma = -1;
    inv.distances = Invariants::Distances::not_computed;
  } else if (const auto metric = FamilyMetric::of(t)) {
    const auto sums = metric->pair_sums();
    inv.diameter = sums.diameter;
    inv.sigma = sums.sigma;
    inv.distances = Invariants::Distances::closed_form;
  } else if (static_cast<long long>(t.processor_count()) *
                 (t.node_count() + t.channel_count()) >
             options.distance_work_limit) {
    inv.diameter = -1;
    inv.sigma = -1;
    inv.distances = Invariants::Distances::not_computed;
  } else {
    for (const auto p : t.processors()) {
      const auto dist = distances_from(t, p);
      for (const auto q : t.processors()) {
        if (q == p) continue;
        inv.diameter = std::max(inv.diameter, dist[q]);
        inv.sigma += dist[q];
      }
    }
  }
  inv.girth = girth(t);

  if (options.compute_bisection) {
    auto b = detail::channel_bisection(t, options);
    if (const auto metric = b.exact ? std::nullopt : FamilyMetric::of(t)) {
      for (auto& side : metric->halving_cuts()) {
        int width = 0;
        for (const auto& c : t.channels()) width += side[c.from] != side[c.to];
        if (width < b.width) {
          b.width = width;
          b.side = std::move(side);
        }
      }
    }
    inv.bisection_width = b.width;
    inv.bisection_exact = b.exact;
    inv.bisection_search_nodes = b.search_nodes;
    if (!b.side.empty() && t.processor_count() > 0) {
      const char first = b.side[t.processors()[0]];
      for (const auto p : t.processors())
        if (b.side[p] == first) inv.bisection_side.push_back(p);
    }
  }
  return inv;
}

}  // namespace ccsched
