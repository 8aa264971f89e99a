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
#include <vector>

#include "bisection.hpp"

namespace ccsched {
namespace {

// Shortest cycle of the underlying simple undirected graph: BFS from every node; a
// non-tree edge (u, v) closes a closed walk of length d(u) + d(v) + 1 containing a cycle
// no longer than it, and from a root on a shortest cycle the bound is attained.
int girth(const Topology& t) {
  const int n = t.node_count();
  std::vector<std::vector<int>> adj(n);
  for (const auto& c : t.channels()) {
    if (t.has_channel(c.to, c.from) && c.to < c.from) continue;
    adj[c.from].push_back(c.to);
    adj[c.to].push_back(c.from);
  }
  int best = std::numeric_limits<int>::max();
  std::vector<int> dist(n), parent(n);
  for (int root = 0; root < n; ++root) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[root] = 0;
    parent[root] = -1;
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
        } else if (parent[u] != v) {
          best = std::min(best, dist[u] + dist[v] + 1);
        }
      }
    }
  }
  return best == std::numeric_limits<int>::max() ? 0 : best;
}

}  // namespace

std::vector<int> distances_from(const Topology& t, NodeId source) {
  std::vector<int> dist(t.node_count(), kUnreachable);
  std::deque<NodeId> queue{source};
  dist[source] = 0;
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (const auto c : t.out_channels(u)) {
      const NodeId v = t.channel(c).to;
      if (dist[v] == kUnreachable) {
        dist[v] = dist[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return dist;
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
  inv.strongly_connected = true;
  for (const auto p : t.processors()) {
    const auto dist = distances_from(t, p);
    for (const auto q : t.processors()) {
      if (q == p) continue;
      if (dist[q] == kUnreachable) {
        inv.strongly_connected = false;
        continue;
      }
      inv.diameter = std::max(inv.diameter, dist[q]);
      inv.sigma += dist[q];
    }
  }
  if (!inv.strongly_connected) {
    inv.diameter = -1;
    inv.sigma = -1;
  }
  inv.girth = girth(t);

  if (options.compute_bisection) {
    const auto b = detail::channel_bisection(t, options);
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
