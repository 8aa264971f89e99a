// The subtree-entry bound for broadcasts on trees (docs/BOUNDS.md §subtree-entry): on a
// network whose channels form a tree, every message into a subtree T that does not hold
// it yet crosses the one channel into T's root, so at most one new node of T is informed
// from outside per step; and the same holds for every subtree of T. Hence g_T(k), the most
// nodes of T informed k steps after its first entry (one node at that step):
//   g_T(k) <= min(|T|, max( 1 + sum_i g_Ci(k-1)                    [the root first],
//                           1 + g_Cj(k) + sum_{i != j} g_Ci(k-1)  [subtree Cj first] ))
// over T's root and child subtrees Ci (no two can be entered in T's first step). A subtree
// without the origin is entered at step 1 at the earliest, so a broadcast needs at least
// the least k with g_T(k) = |T| steps, for every such T. Routing, relays and ports do not
// matter: the argument uses only the channel into each subtree (valid under all-port,
// hence under every k-port model, wormhole or store-and-forward, any routing rule).
// fbtree:63 from any non-root origin: the other half (31 nodes) has g(4) = 29 < 31, so 5.
#include <algorithm>
#include <string>

#include "context.hpp"

namespace ccsched::bounds_detail {
namespace {

// The node set's channels form a tree over processors only (every link both ways, n - 1
// links, connected): the only networks the argument covers here.
bool processor_tree(const Topology& t) {
  if (t.switch_count() > 0 || t.directed()) return false;
  const long long n = t.node_count();
  return static_cast<long long>(t.channel_count()) == 2 * (n - 1);
}

}  // namespace

void add_tree_bounds(const BoundContext& ctx, std::vector<LowerBound>& out) {
  const Problem& p = ctx.problem();
  const Topology& t = p.topology;
  // A few messages at most: O(n^2) per message, and with many messages (AAB) the
  // reception bounds say more.
  constexpr std::size_t kMessages = 4;
  if (!is_broadcast(p.collective) || p.collective.messages.empty() ||
      p.collective.messages.size() > kMessages || !processor_tree(t))
    return;
  const int n = t.node_count();
  int best = 0;
  std::string argument;
  for (const Message& m : p.collective.messages) {
    if (m.targets.size() + 1 != static_cast<std::size_t>(n)) continue;  // broadcasts to all
    // Root the tree at the origin: parent order by a depth-first walk.
    std::vector<NodeId> order{m.origin}, parent(n, kNoNode);
    parent[m.origin] = m.origin;
    for (std::size_t i = 0; i < order.size(); ++i)
      for (const ChannelId c : t.out_channels(order[i])) {
        const NodeId v = t.channel(c).to;
        if (parent[v] == kNoNode) {
          parent[v] = order[i];
          order.push_back(v);
        }
      }
    if (static_cast<int>(order.size()) != n) return;  // not connected: not a tree
    // g[v][k] for k = 0..n (k steps after the first entry), children before parents.
    std::vector<std::vector<int>> g(n);
    std::vector<int> size(n, 1);
    for (std::size_t i = order.size(); i-- > 0;) {
      const NodeId v = order[i];
      std::vector<NodeId> kids;
      for (const ChannelId c : t.out_channels(v)) {
        const NodeId u = t.channel(c).to;
        if (u != m.origin && parent[u] == v) kids.push_back(u);
      }
      for (const NodeId u : kids) size[v] += size[u];
      auto& gv = g[v];
      gv.assign(n + 1, 0);
      gv[1] = 1;  // the first entry informs one node
      for (int k = 2; k <= n; ++k) {
        long long late = 1;  // the root first
        for (const NodeId u : kids) late += g[u][k - 1];
        long long most = late;
        for (const NodeId u : kids) most = std::max(most, late - g[u][k - 1] + g[u][k]);
        gv[k] = static_cast<int>(std::min<long long>(size[v], most));
      }
      if (v == m.origin) continue;
      int need = 1;
      while (need <= n && gv[need] < size[v]) ++need;
      if (need > best) {
        best = need;
        argument = "the subtree of " + std::to_string(size[v]) + " processors at " +
                   t.display_name(v) + " (origin " + t.display_name(m.origin) +
                   " outside) gains at most one holder per step through each subtree's root "
                   "channel, so at most " + std::to_string(gv[need - 1]) + " of them hold it " +
                   std::to_string(need - 1) + " steps after the first one";
      }
    }
  }
  if (best > 0)
    out.push_back({"subtree-entry", best, argument, "ccsched (docs/BOUNDS.md §subtree-entry)"});
}

}  // namespace ccsched::bounds_detail
