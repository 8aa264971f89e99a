// Dinic's max flow on the channel graph with unit capacities, plus two unbounded arcs per
// source / sink node. The residual-reachable set of the super source is a minimum cut.
#include "min_cut.hpp"

#include <algorithm>
#include <limits>

namespace ccsched::bounds_detail {
namespace {

class Dinic {
 public:
  explicit Dinic(int n) : head_(n, -1), level_(n), next_(n) {}

  void add_arc(int from, int to, long long capacity) {
    arcs_.push_back({to, head_[from], capacity});
    head_[from] = static_cast<int>(arcs_.size()) - 1;
    arcs_.push_back({from, head_[to], 0});
    head_[to] = static_cast<int>(arcs_.size()) - 1;
  }

  long long run(int s, int t) {
    long long flow = 0;
    while (levels(s, t)) {
      next_ = head_;
      while (const long long pushed = push(s, t, std::numeric_limits<long long>::max()))
        flow += pushed;
    }
    return flow;
  }

  // Nodes reachable from s in the residual graph (after run).
  std::vector<char> reachable(int s) const {
    std::vector<char> seen(head_.size(), 0);
    std::vector<int> stack{s};
    seen[s] = 1;
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      for (int a = head_[x]; a >= 0; a = arcs_[a].next)
        if (arcs_[a].capacity > 0 && !seen[arcs_[a].to]) {
          seen[arcs_[a].to] = 1;
          stack.push_back(arcs_[a].to);
        }
    }
    return seen;
  }

 private:
  struct Arc {
    int to, next;
    long long capacity;
  };

  bool levels(int s, int t) {
    std::fill(level_.begin(), level_.end(), -1);
    level_[s] = 0;
    std::vector<int> queue{s};
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (int a = head_[queue[head]]; a >= 0; a = arcs_[a].next)
        if (arcs_[a].capacity > 0 && level_[arcs_[a].to] < 0) {
          level_[arcs_[a].to] = level_[queue[head]] + 1;
          queue.push_back(arcs_[a].to);
        }
    return level_[t] >= 0;
  }

  long long push(int x, int t, long long limit) {
    if (x == t) return limit;
    for (int& a = next_[x]; a >= 0; a = arcs_[a].next) {
      Arc& arc = arcs_[a];
      if (arc.capacity <= 0 || level_[arc.to] != level_[x] + 1) continue;
      if (const long long got = push(arc.to, t, std::min(limit, arc.capacity))) {
        arc.capacity -= got;
        arcs_[a ^ 1].capacity += got;
        return got;
      }
    }
    return 0;
  }

  std::vector<int> head_, level_, next_;
  std::vector<Arc> arcs_;
};

}  // namespace

MinCut min_cut(const BoundContext& ctx, const std::vector<NodeId>& sources,
               const std::vector<NodeId>& sinks) {
  const auto& t = ctx.topology();
  const int n = ctx.nodes();
  const int s = n, sink = n + 1;
  constexpr long long kUnbounded = 1LL << 40;
  Dinic flow(n + 2);
  for (ChannelId c = 0; c < t.channel_count(); ++c)
    if (ctx.transfer_channel(c)) flow.add_arc(t.channel(c).from, t.channel(c).to, 1);
  for (const NodeId v : sources) flow.add_arc(s, v, kUnbounded);
  for (const NodeId v : sinks) flow.add_arc(v, sink, kUnbounded);
  MinCut cut;
  cut.channels = flow.run(s, sink);
  const auto seen = flow.reachable(s);
  cut.side.assign(seen.begin(), seen.begin() + n);
  return cut;
}

void place_switches_optimally(const Topology& t, std::vector<char>& side) {
  if (t.switch_count() == 0) return;
  const int n = t.node_count();
  const int s = n, sink = n + 1;
  constexpr long long kUnbounded = 1LL << 40;
  Dinic flow(n + 2);
  // A channel costs 1 when its ends are apart, whichever way it runs: one arc each way.
  for (const auto& ch : t.channels()) {
    flow.add_arc(ch.from, ch.to, 1);
    flow.add_arc(ch.to, ch.from, 1);
  }
  for (const NodeId p : t.processors()) {
    if (side[p]) {
      flow.add_arc(s, p, kUnbounded);
    } else {
      flow.add_arc(p, sink, kUnbounded);
    }
  }
  flow.run(s, sink);
  const auto seen = flow.reachable(s);
  for (NodeId v = 0; v < n; ++v)
    if (!t.is_processor(v)) side[v] = seen[v];
}

}  // namespace ccsched::bounds_detail
