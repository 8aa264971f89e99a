// The channel bisection width B_C of seed 000 (section 3): the fewest channels, both
// directions counted, crossing a cut that splits the processors into floor(P/2) and
// ceil(P/2); switches may sit on either side. A link (two channels) counts 2, a lone
// channel 1, so B_C is a minimum cut of the underlying undirected graph weighted that way.
//
// Graph bisection is NP-hard, so the method is:
//   1. an upper bound by local search (Fiduccia–Mattheyses passes from a BFS-ball start
//      and seeded random starts) — the answer when the network is above the exact limit;
//   2. a proof by branch and bound over the processors in BFS order (the first fixed to
//      side 0, since swapping sides maps bisections to bisections). Bounds:
//        - "independent": the cut among assigned nodes, plus for each unassigned node the
//          channels it must cut towards assigned nodes — switches the cheaper side,
//          processors the cheapest choice that still meets the side sizes (sort by cost
//          difference). Edges between unassigned nodes are ignored, so it is valid.
//        - "flow" (networks with switches): the minimum cut separating the assigned
//          processors of side 0 from those of side 1 with everything else free, by
//          max-flow, warm-started from the parent's flow (a flow stays feasible when a
//          free node becomes a terminal). At a leaf it is the exact cut with the switches
//          placed optimally, so switches are never branched on.
//      A node budget bounds the work; when it runs out the best cut found is returned
//      with exact = false.
#include "bisection.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <random>
#include <vector>

namespace ccsched::detail {
namespace {

constexpr int kInfinity = std::numeric_limits<int>::max();

struct Edge {
  int u, v, w;
};

// Underlying undirected graph: weight 2 where both channels exist, 1 where one does.
struct WeightedGraph {
  int n = 0;
  std::vector<Edge> edges;
  std::vector<std::vector<std::pair<int, int>>> adj;  // (neighbour, edge index)
  std::vector<char> processor;
  std::vector<int> processors;  // processor node ids
  int switches = 0;
};

WeightedGraph weighted_graph(const Topology& t) {
  WeightedGraph g;
  g.n = t.node_count();
  g.adj.resize(g.n);
  g.processor.resize(g.n);
  for (NodeId v = 0; v < g.n; ++v) {
    g.processor[v] = t.is_processor(v);
    if (g.processor[v])
      g.processors.push_back(v);
    else
      ++g.switches;
  }
  for (const auto& c : t.channels()) {
    const bool both = t.has_channel(c.to, c.from);
    if (both && c.to < c.from) continue;  // the pair is added once, from its smaller end
    const int e = static_cast<int>(g.edges.size());
    g.edges.push_back({c.from, c.to, both ? 2 : 1});
    g.adj[c.from].emplace_back(c.to, e);
    g.adj[c.to].emplace_back(c.from, e);
  }
  return g;
}

int cut_of(const WeightedGraph& g, const std::vector<char>& side) {
  int cut = 0;
  for (const auto& e : g.edges)
    if (side[e.u] != side[e.v]) cut += e.w;
  return cut;
}

// Nodes in BFS order from `start`, then any not reached.
std::vector<int> bfs_order(const WeightedGraph& g, int start) {
  std::vector<int> order;
  std::vector<char> seen(g.n, 0);
  const auto bfs = [&](int root) {
    if (seen[root]) return;
    std::deque<int> queue{root};
    seen[root] = 1;
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      order.push_back(u);
      for (const auto& [v, e] : g.adj[u])
        if (!seen[v]) {
          seen[v] = 1;
          queue.push_back(v);
        }
    }
  };
  bfs(start);
  for (int v = 0; v < g.n; ++v) bfs(v);
  return order;
}

// --- 1. local search ----------------------------------------------------------------------

struct Cut {
  int width = kInfinity;
  std::vector<char> side;
};

// One Fiduccia–Mattheyses improvement loop from `side`: a pass flips every node once in
// best-gain order (processor flips may unbalance the halves by up to `slack`), then keeps
// the best balanced prefix; passes repeat while they improve. A slack above one lets a
// pass carry a router across together with its attached processors.
int fm_improve(const WeightedGraph& g, std::vector<char>& side, int slack) {
  const int lo = static_cast<int>(g.processors.size()) / 2;
  const int hi = static_cast<int>(g.processors.size()) - lo;
  int cut = cut_of(g, side);
  std::vector<int> gain(g.n);
  std::vector<char> locked(g.n);
  std::vector<int> moves;
  while (true) {
    for (int u = 0; u < g.n; ++u) {
      gain[u] = 0;
      for (const auto& [v, e] : g.adj[u])
        gain[u] += side[u] != side[v] ? g.edges[e].w : -g.edges[e].w;
    }
    std::fill(locked.begin(), locked.end(), 0);
    moves.clear();
    int count1 = 0;
    for (const int p : g.processors) count1 += side[p];
    int running = cut, best = cut;
    std::size_t best_prefix = 0;
    for (int step = 0; step < g.n; ++step) {
      int pick = -1;
      for (int v = 0; v < g.n; ++v) {
        if (locked[v]) continue;
        if (g.processor[v]) {
          const int next = count1 + (side[v] ? -1 : 1);
          if (next < lo - slack || next > hi + slack) continue;
        }
        if (pick < 0 || gain[v] > gain[pick]) pick = v;
      }
      if (pick < 0) break;
      locked[pick] = 1;
      running -= gain[pick];
      if (g.processor[pick]) count1 += side[pick] ? -1 : 1;
      const char old = side[pick];
      side[pick] = static_cast<char>(!old);
      gain[pick] = -gain[pick];
      for (const auto& [v, e] : g.adj[pick])
        gain[v] += side[v] == old ? 2 * g.edges[e].w : -2 * g.edges[e].w;
      moves.push_back(pick);
      if ((count1 == lo || count1 == hi) && running < best) {
        best = running;
        best_prefix = moves.size();
      }
    }
    for (std::size_t i = moves.size(); i-- > best_prefix;)
      side[moves[i]] = static_cast<char>(!side[moves[i]]);
    if (best >= cut) return cut;
    cut = best;
  }
}

Cut local_search(const WeightedGraph& g, int restarts) {
  const int p = static_cast<int>(g.processors.size());
  const int lo = p / 2;
  Cut best;
  // A pass costs O(n^2) (no gain buckets): fewer restarts on big networks, and above a few
  // thousand nodes only the BFS-ball start, so `topo info` stays fast.
  const long long n2 = static_cast<long long>(g.n) * g.n;
  restarts = static_cast<int>(std::min<long long>(
      restarts, std::max<long long>(1, 40'000'000 / std::max<long long>(1, n2))));
  const bool improve = g.n <= 4000;
  std::mt19937_64 rng(20080712);  // fixed seed: invariants are deterministic
  for (int r = 0; r < std::max(1, restarts); ++r) {
    std::vector<char> side(g.n, 0);
    if (r == 0) {
      // A BFS ball around the first processor: often optimal on meshes and trees.
      int taken = 0;
      for (const int v : bfs_order(g, g.processors[0]))
        if (g.processor[v] && taken < lo) {
          side[v] = 1;
          ++taken;
        }
      // Switches follow the majority of their neighbours.
      for (const int v : bfs_order(g, g.processors[0]))
        if (!g.processor[v]) {
          int ones = 0;
          for (const auto& [u, e] : g.adj[v]) ones += side[u] ? g.edges[e].w : -g.edges[e].w;
          side[v] = ones > 0;
        }
    } else {
      auto shuffled = g.processors;
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      for (int i = 0; i < lo; ++i) side[shuffled[i]] = 1;
      for (int v = 0; v < g.n; ++v)
        if (!g.processor[v]) side[v] = static_cast<char>(rng() & 1);
    }
    constexpr int kSlacks[] = {1, 4, 2};  // no single slack is best on every network
    const int cut = improve ? fm_improve(g, side, kSlacks[r % 3]) : cut_of(g, side);
    if (cut < best.width) best = {cut, side};
  }
  return best;
}

// --- 2. branch and bound ------------------------------------------------------------------

class BisectionSearch {
 public:
  BisectionSearch(const WeightedGraph& g, const Cut& start) : g_(g), best_(start) {
    const int p = static_cast<int>(g_.processors.size());
    lo_ = p / 2;
    hi_ = p - lo_;
    use_flow_ = true;
    int first = g_.processors[0];
    for (const int v : g_.processors)
      if (g_.adj[v].size() > g_.adj[first].size()) first = v;
    for (const int v : bfs_order(g_, first))
      if (!use_flow_ || g_.processor[v]) order_.push_back(v);
    side_.assign(g_.n, -1);
    to_side_[0].assign(g_.n, 0);
    to_side_[1].assign(g_.n, 0);
    if (use_flow_) flow_stack_.assign(order_.size() + 1, std::vector<int>(g_.edges.size(), 0));
  }

  // False when the node budget ran out before the search space was exhausted.
  bool run(long long budget) {
    budget_ = budget;
    assign(order_[0], 0);
    if (use_flow_) flow_value_stack_.assign(order_.size() + 1, 0);
    return search(1);
  }
  const Cut& best() const { return best_; }
  long long visited() const { return visited_; }

 private:
  void assign(int v, int s) {
    side_[v] = static_cast<signed char>(s);
    cut_ += to_side_[1 - s][v];
    ++count_[s];
    for (const auto& [u, e] : g_.adj[v]) to_side_[s][u] += g_.edges[e].w;
  }
  void unassign(int v) {
    const int s = side_[v];
    for (const auto& [u, e] : g_.adj[v]) to_side_[s][u] -= g_.edges[e].w;
    --count_[s];
    cut_ -= to_side_[1 - s][v];
    side_[v] = -1;
  }

  // The independent bound (see the file comment); `depth` nodes of order_ are assigned.
  int independent_bound(int depth) {
    int extra = 0, base = 0;
    deltas_.clear();
    const auto add = [&](int v) {
      if (g_.processor[v]) {
        base += to_side_[0][v];                              // v on side 1 cuts its side-0 edges
        deltas_.push_back(to_side_[1][v] - to_side_[0][v]);  // change if v goes to side 0
      } else {
        extra += std::min(to_side_[0][v], to_side_[1][v]);
      }
    };
    if (use_flow_) {
      for (int v = 0; v < g_.n; ++v)
        if (side_[v] < 0) add(v);
    } else {
      for (std::size_t i = depth; i < order_.size(); ++i) add(order_[i]);
    }
    std::sort(deltas_.begin(), deltas_.end());
    int best = kInfinity;
    for (const int target0 : {lo_, hi_}) {
      const int need0 = target0 - count_[0];
      const int need1 = static_cast<int>(g_.processors.size()) - target0 - count_[1];
      if (need0 < 0 || need1 < 0) continue;
      int total = base;
      for (int i = 0; i < need0; ++i) total += deltas_[i];
      best = std::min(best, total);
    }
    return best == kInfinity ? kInfinity : cut_ + extra + best;
  }

  // Residual capacity of edge e from node x.
  int residual(int e, int x, const std::vector<int>& f) const {
    return g_.edges[e].u == x ? g_.edges[e].w - f[e] : g_.edges[e].w + f[e];
  }

  // Max flow from side-0 to side-1 processors (others free), augmenting the flow in
  // flow_stack_[depth] (copied from the parent). Returns its value.
  int max_flow(int depth) {
    auto& f = flow_stack_[depth];
    int value = flow_value_stack_[depth];
    std::vector<int>& parent_edge = parent_edge_;
    parent_edge.assign(g_.n, -2);
    while (true) {
      std::fill(parent_edge.begin(), parent_edge.end(), -2);
      queue_.clear();
      for (int v = 0; v < g_.n; ++v)
        if (side_[v] == 0) {
          parent_edge[v] = -1;
          queue_.push_back(v);
        }
      int sink = -1;
      for (std::size_t head = 0; head < queue_.size() && sink < 0; ++head) {
        const int x = queue_[head];
        for (const auto& [y, e] : g_.adj[x]) {
          if (parent_edge[y] != -2 || residual(e, x, f) <= 0) continue;
          parent_edge[y] = e;
          if (side_[y] == 1) {
            sink = y;
            break;
          }
          queue_.push_back(y);
        }
      }
      if (sink < 0) break;
      int bottleneck = kInfinity;
      for (int y = sink; parent_edge[y] >= 0;) {
        const int e = parent_edge[y];
        const int x = g_.edges[e].u == y ? g_.edges[e].v : g_.edges[e].u;
        bottleneck = std::min(bottleneck, residual(e, x, f));
        y = x;
      }
      for (int y = sink; parent_edge[y] >= 0;) {
        const int e = parent_edge[y];
        const int x = g_.edges[e].u == y ? g_.edges[e].v : g_.edges[e].u;
        f[e] += g_.edges[e].u == x ? bottleneck : -bottleneck;
        y = x;
      }
      value += bottleneck;
      if (value >= best_.width) break;  // enough to prune; no need for the exact value
    }
    flow_value_stack_[depth] = value;
    return value;
  }

  // After max_flow: the nodes reachable from side 0 in the residual graph form side 0 of
  // a minimum cut.
  std::vector<char> min_cut_side(int depth) {
    const auto& f = flow_stack_[depth];
    std::vector<char> side(g_.n, 1);
    queue_.clear();
    for (int v = 0; v < g_.n; ++v)
      if (side_[v] == 0) {
        side[v] = 0;
        queue_.push_back(v);
      }
    for (std::size_t head = 0; head < queue_.size(); ++head) {
      const int x = queue_[head];
      for (const auto& [y, e] : g_.adj[x])
        if (side[y] == 1 && side_[y] != 1 && residual(e, x, f) > 0) {
          side[y] = 0;
          queue_.push_back(y);
        }
    }
    return side;
  }

  // Lower bound after assigning order_[depth - 1]; with flows, also the exact value at a
  // leaf.
  int bound(int depth) {
    const int independent = independent_bound(depth);
    if (!use_flow_ || independent >= best_.width) return independent;
    flow_stack_[depth] = flow_stack_[depth - 1];
    flow_value_stack_[depth] = flow_value_stack_[depth - 1];
    return std::max(independent, max_flow(depth));
  }

  bool search(int depth) {
    ++visited_;
    if (--budget_ < 0) return false;
    if (depth == static_cast<int>(order_.size())) {
      // Leaf: every branched node is placed. The bound that admitted it is the cut.
      if (use_flow_) {
        const int value = flow_value_stack_[depth];
        if (value < best_.width) best_ = {value, min_cut_side(depth)};
      } else if (cut_ < best_.width) {
        best_.width = cut_;
        for (int v = 0; v < g_.n; ++v) best_.side[v] = static_cast<char>(side_[v]);
      }
      return true;
    }
    const int v = order_[depth];
    // The cheaper side first: good cuts early make later bounds prune more.
    const int first = to_side_[1][v] > to_side_[0][v] ? 1 : 0;
    for (const int s : {first, 1 - first}) {
      assign(v, s);
      const bool ok = bound(depth + 1) < best_.width ? search(depth + 1) : true;
      unassign(v);
      if (!ok) return false;
    }
    return true;
  }

  const WeightedGraph& g_;
  Cut best_;
  int lo_ = 0, hi_ = 0;
  bool use_flow_ = false;
  std::vector<int> order_;  // the nodes branched on
  std::vector<signed char> side_;
  std::vector<int> to_side_[2];
  int count_[2] = {0, 0};  // assigned processors per side (all branched nodes are)
  int cut_ = 0;            // weight between assigned nodes on different sides
  long long budget_ = 0, visited_ = 0;
  std::vector<int> deltas_;
  std::vector<std::vector<int>> flow_stack_;
  std::vector<int> flow_value_stack_;
  std::vector<int> parent_edge_, queue_;
};

}  // namespace

BisectionResult channel_bisection(const Topology& t, const InvariantOptions& options) {
  BisectionResult result;
  const auto g = weighted_graph(t);
  const auto p = static_cast<long long>(g.processors.size());
  if (p < 2) {
    result.exact = true;
    result.side.assign(g.n, 0);
    return result;
  }
  // Complete networks: every processor pair is linked both ways, so every bisection cuts
  // 2 floor(P/2) ceil(P/2) channels; nothing to search.
  if (g.switches == 0 && t.channel_count() == p * (p - 1)) {
    result.side.assign(g.n, 0);
    for (long long i = 0; i < p / 2; ++i) result.side[g.processors[i]] = 1;
    result.width = cut_of(g, result.side);
    result.exact = true;
    return result;
  }
  const Cut heuristic = local_search(g, options.local_search_restarts);
  result.width = heuristic.width;
  result.side = heuristic.side;
  if (p <= options.exact_bisection_limit && g.n <= options.exact_bisection_node_limit) {
    BisectionSearch search(g, heuristic);
    result.exact = search.run(options.exact_bisection_node_budget);
    result.width = search.best().width;
    result.side = search.best().side;
    result.search_nodes = search.visited();
  }
  return result;
}

}  // namespace ccsched::detail
