// Lower bounds for the reductions (REDUCE, ALLREDUCE, REDUCESCATTER, SCAN; FORMATS.md
// "Reductions"): information growth under k ports, the inputs that must cross a cut, the
// store-and-forward distance, and the merge count without combining. Each holds for every schedule that satisfies R1-R3
// under the model as written; the arguments are in docs/BOUNDS.md ("Reductions").
#include <fmt/core.h>

#include <algorithm>
#include <deque>

#include "block_bounds.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

// Receptions a processor can complete in one step: one per port and one per channel into
// it (two transfers of a step never share a channel, and each ends on its own channel).
// `ports` is effective_ports(p), computed once by the caller: under all ports it scans
// every processor, so once per processor was quadratic (hypercube:16 REDUCE spent minutes
// in the bounds before any row ran).
int reception_cap(const Problem& p, int ports, NodeId v) {
  return std::min(ports, static_cast<int>(p.topology.in_channels(v).size()));
}

// Hop distances under store-and-forward, where every transfer is one channel between two
// processors (FORMATS.md rules 1 and 8): a breadth-first search over those channels.
std::vector<int> sf_distances_from(const Topology& t, NodeId from) {
  std::vector<int> dist(t.node_count(), kUnreachable);
  std::deque<NodeId> queue{from};
  dist[from] = 0;
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (ChannelId c : t.out_channels(u)) {
      const NodeId v = t.channel(c).to;
      if (!t.is_processor(v) || dist[v] != kUnreachable) continue;
      dist[v] = dist[u] + 1;
      queue.push_back(v);
    }
  }
  return dist;
}

// reduce-cut (docs/BOUNDS.md §reduce-cut): a side X of the network, the c channels into it
// from the rest Y, the receivers a = |A| in X that need every input of the b = |B| senders in
// Y. Can T steps do? An input of B that first enters X (a transfer from a Y processor to an X
// processor, each needing its own Y->X channel: at most c per step) in step f is held in X
// by at most c * sum_{j=0}^{T-f} (1 + kout)^j accumulators after step T (holders each send
// at most kout transfers a step, and at most c more arrive from Y): f must leave room to reach
// all a. In step t the c crossing values hold at most (kin + 1)^(t-1) inputs each
// (reduce-information), so at most c (kin + 1)^(t-1) inputs of B first enter X then.
bool cut_allows(long long T, long long a, long long b, long long c, long long kin, long long kout) {
  auto capped = [](long double x) { return std::min<long double>(x, 1e18L); };
  long long last = 0;  // the latest first-entry step that still reaches all of A
  for (long long f = T; f >= 1; --f) {
    long double reach = 0, power = 1;
    for (long long j = 0; j <= T - f; ++j) {
      reach = capped(reach + c * power);
      power = capped(power * (1 + kout));
    }
    if (reach >= a) {
      last = f;
      break;
    }
  }
  long double entered = 0, size = 1;
  for (long long t = 1; t <= last; ++t) {
    entered = capped(entered + c * size);
    size = capped(size * (kin + 1));
  }
  return last > 0 && entered >= b;
}

// True when every processor reaches every other along channels (any node may pass a
// wormhole path on, FORMATS.md rule 1).
bool processors_strongly_connected(const Topology& t) {
  const auto procs = t.processors();
  if (procs.empty()) return true;
  for (const bool forward : {true, false}) {
    std::vector<char> seen(t.node_count(), 0);
    std::vector<NodeId> queue{procs.front()};
    seen[procs.front()] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeId u = queue[head];
      for (const ChannelId ch : forward ? t.out_channels(u) : t.in_channels(u)) {
        const NodeId v = forward ? t.channel(ch).to : t.channel(ch).from;
        if (!seen[v]) {
          seen[v] = 1;
          queue.push_back(v);
        }
      }
    }
    for (const NodeId v : procs)
      if (!seen[v]) return false;
  }
  return true;
}

}  // namespace

BoundReport reduction_lower_bounds(const Problem& problem, const PathSet& paths) {
  const Collective& c = problem.collective;
  const Topology& t = problem.topology;
  BoundReport report;
  const long long p = static_cast<long long>(c.senders.size());
  const int ports = effective_ports(problem);
  // Which sender must reach which node: (sender, target) pairs of R3, visited one by one
  // (an ALLREDUCE has p² of them: never held as a list).
  auto for_each_pair = [&](auto&& visit) {
    for (const ReductionPrefix& goal : reduction_prefixes(c))
      if (goal.block == 0 || c.kind == CollectiveKind::REDUCESCATTER)
        for (int i = 0; i < goal.inputs; ++i)
          if (c.senders[i] != goal.node) visit(c.senders[i], goal.node);
  };

  // reduce-information: M(t), the largest accumulator after step t, obeys
  // M(t) <= (K+1) M(t-1), M(0) = 1; some accumulator must reach p senders.
  int k = 0;
  for (NodeId v : t.processors()) k = std::max(k, reception_cap(problem, ports, v));
  if (p >= 2) {
    if (k == 0) throw Unsupported("no processor can receive anything", "bounds");
    int steps = 0;
    for (long long m = 1; m < p; m *= (k + 1)) ++steps;
    report.bounds.push_back(
        {"reduce-information", steps,
         fmt::format("some accumulator must hold all {} inputs; each step a node adds at most "
                     "K = {} received values to its own, so the largest grows at most {}-fold "
                     "per step: ⌈log_{}({})⌉ = {}",
                     p, k, k + 1, k + 1, p, steps),
         "seed 003 (reduction as broadcast reversed); ccsched (docs/BOUNDS.md §reduce-information)"});
  }

  // reduce-cut: sides X grown in breadth-first order (channels both ways) from up to 64
  // start processors, each prefix and its complement taken as X; for kinds whose targets
  // all need every sender (REDUCE, ALLREDUCE), block 0. The channel count into X is kept
  // up to date as nodes join.
  const auto targets = reduction_prefixes(c);
  const bool all_need_all =
      !targets.empty() && std::all_of(targets.begin(), targets.end(), [&](const auto& tg) {
        return static_cast<long long>(tg.inputs) == p;
      });
  if (all_need_all && p >= 2 && k > 0) {
    const int n = t.node_count();
    int kout = 0;
    for (NodeId v : t.processors())
      kout = std::max(kout, std::min(ports,
                                     static_cast<int>(t.out_channels(v).size())));
    std::vector<char> is_target(n, 0), is_sender(n, 0);
    for (const auto& tg : targets)
      if (tg.block == 0) is_target[tg.node] = 1;
    for (NodeId v : c.senders) is_sender[v] = 1;
    long long all_targets = 0;
    for (int v = 0; v < n; ++v) all_targets += is_target[v];
    const auto procs = t.processors();
    const std::size_t starts = std::min<std::size_t>(procs.size(), 64);
    int best = 0;
    long long best_a = 0, best_b = 0, best_c = 0;
    NodeId best_start = kNoNode;
    std::size_t best_size = 0;
    bool best_inside = true;
    auto consider = [&](long long a, long long b, long long cut, NodeId s, std::size_t size,
                        bool inside) {
      if (a == 0 || b == 0 || cut == 0) return;
      long long T = std::max(best, 1);
      if (cut_allows(T, a, b, cut, k, kout)) return;  // not better than the best so far
      while (T < 4096 && !cut_allows(T, a, b, cut, k, kout)) ++T;
      best = static_cast<int>(T);
      best_a = a, best_b = b, best_c = cut, best_start = s, best_size = size, best_inside = inside;
    };
    for (std::size_t i = 0; i < starts; ++i) {
      const NodeId s = procs[i * procs.size() / starts];
      std::vector<char> in_x(n, 0), queued(n, 0);
      std::deque<NodeId> queue{s};
      queued[s] = 1;
      long long into_x = 0, out_of_x = 0;  // channels Y->X and X->Y
      long long targets_x = 0, senders_x = 0;
      std::size_t size = 0;
      while (!queue.empty()) {
        const NodeId v = queue.front();
        queue.pop_front();
        in_x[v] = 1;
        ++size;
        for (ChannelId ch : t.in_channels(v)) {
          if (in_x[t.channel(ch).from])
            --out_of_x;  // was X->Y, now inside X
          else
            ++into_x;
        }
        for (ChannelId ch : t.out_channels(v)) {
          if (in_x[t.channel(ch).to])
            --into_x;  // was Y->X, now inside X
          else
            ++out_of_x;
        }
        targets_x += is_target[v];
        senders_x += is_sender[v];
        if (static_cast<int>(size) == n) break;
        consider(targets_x, p - senders_x, into_x, s, size, true);
        consider(all_targets - targets_x, senders_x, out_of_x, s, size, false);
        for (ChannelId ch : t.out_channels(v))
          if (!queued[t.channel(ch).to]) {
            queued[t.channel(ch).to] = 1;
            queue.push_back(t.channel(ch).to);
          }
        for (ChannelId ch : t.in_channels(v))
          if (!queued[t.channel(ch).from]) {
            queued[t.channel(ch).from] = 1;
            queue.push_back(t.channel(ch).from);
          }
      }
    }
    if (best > 0)
      report.bounds.push_back(
          {"reduce-cut", best,
           fmt::format("{} receivers in X ({} the breadth-first ball of {} nodes around {}) "
                       "need the inputs of {} senders outside X, across {} channels into X; "
                       "an input first entering X in step f is in at most {}·Σ_(j≤T-f) {}^j "
                       "accumulators of X after step T, and at most {}·{}^(t-1) inputs first "
                       "enter in step t: {} steps are needed",
                       best_a, best_inside ? "X =" : "X = all but", best_size,
                       t.display_name(best_start), best_b, best_c, best_c, kout + 1, best_c,
                       k + 1, best),
           "ccsched (docs/BOUNDS.md §reduce-cut)"});
  }

  // reduce-distance: under store-and-forward a contribution moves one channel per step.
  // Under wormhole one path can cross the network in one step: only reachability counts.
  int far = 0;
  NodeId far_from = kNoNode, far_to = kNoNode;
  const bool sf = problem.model.switching == Switching::store_and_forward;
  // Under wormhole only reachability counts: when every processor reaches every other
  // (one search forwards and one backwards), no pair need be looked at.
  if (sf || !processors_strongly_connected(t)) {
    std::vector<std::vector<int>> dist(t.node_count());
    for_each_pair([&](NodeId s, NodeId r) {
      int d;
      if (sf) {
        if (dist[s].empty()) dist[s] = sf_distances_from(t, s);
        d = dist[s][r];
      } else {
        d = paths.distance(s, r);
      }
      if (d == kUnreachable)
        throw Unsupported(fmt::format("{} cannot reach {}: its input can never be added there",
                                      t.display_name(s), t.display_name(r)),
                          "bounds");
      if (!sf) d = 1;
      if (d > far) {
        far = d;
        far_from = s;
        far_to = r;
      }
    });
  }
  if (sf && far > 0)
    report.bounds.push_back(
        {"reduce-distance", far,
         fmt::format("the input of {} must reach {}, {} channels away, one channel per step "
                     "(store-and-forward)",
                     t.display_name(far_from), t.display_name(far_to), far),
         "ccsched (docs/BOUNDS.md §reduce-distance)"});

  // reduce-merge (without combining): per block, every reduce transfer joins at most two
  // groups of inputs, so a block whose sum over all p senders must appear somewhere needs
  // p-1 reduce transfers; each carries one block, and a step completes at most R of them.
  if (!problem.model.combining && p >= 2) {
    long long capacity = 0;
    for (NodeId v : t.processors()) capacity += reception_cap(problem, ports, v);
    const long long needed = static_cast<long long>(c.blocks) * (p - 1);
    if (capacity > 0) {
      const int steps = static_cast<int>((needed + capacity - 1) / capacity);
      report.bounds.push_back(
          {"reduce-merge", steps,
           fmt::format("{} blocks, each summed over {} inputs: {}·{} = {} reduce transfers of one "
                       "block each; at most R = {} receptions per step (ports and channels into "
                       "each processor): ⌈{}/{}⌉ = {}",
                       c.blocks, p, c.blocks, p - 1, needed, capacity, needed, capacity, steps),
           "ccsched (docs/BOUNDS.md §reduce-merge)"});
    }
  }
  add_block_bounds(problem, report);
  for (const auto& b : report.bounds) report.best = std::max(report.best, b.value);
  return report;
}

}  // namespace ccsched
