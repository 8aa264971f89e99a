// Lower bounds for the reductions (REDUCE, ALLREDUCE, REDUCESCATTER, SCAN; FORMATS.md
// "Reductions"): information growth under k ports, the store-and-forward distance, and
// the merge count without combining. Each holds for every schedule that satisfies R1-R3
// under the model as written; the arguments are in docs/BOUNDS.md ("Reductions").
#include <fmt/core.h>

#include <algorithm>
#include <deque>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

// Receptions a processor can complete in one step: one per port and one per channel into
// it (two transfers of a step never share a channel, and each ends on its own channel).
int reception_cap(const Problem& p, NodeId v) {
  return std::min(effective_ports(p), static_cast<int>(p.topology.in_channels(v).size()));
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

}  // namespace

BoundReport reduction_lower_bounds(const Problem& problem, const PathSet& paths) {
  const Collective& c = problem.collective;
  const Topology& t = problem.topology;
  BoundReport report;
  const long long p = static_cast<long long>(c.senders.size());
  // Which sender must reach which node: (sender, target) pairs of R3.
  std::vector<std::pair<NodeId, NodeId>> pairs;
  for (const auto& target : reduction_targets(c))
    if (target.block == 0 || c.kind == CollectiveKind::REDUCESCATTER)
      for (int i : target.senders)
        if (c.senders[i] != target.node) pairs.push_back({c.senders[i], target.node});

  // reduce-information: M(t), the largest accumulator after step t, obeys
  // M(t) <= (K+1) M(t-1), M(0) = 1; some accumulator must reach p senders.
  int k = 0;
  for (NodeId v : t.processors()) k = std::max(k, reception_cap(problem, v));
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

  // reduce-distance: under store-and-forward a contribution moves one channel per step.
  // Under wormhole one path can cross the network in one step: only reachability counts.
  int far = 0;
  NodeId far_from = kNoNode, far_to = kNoNode;
  const bool sf = problem.model.switching == Switching::store_and_forward;
  std::vector<std::vector<int>> dist(t.node_count());
  for (const auto& [s, r] : pairs) {
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
    for (NodeId v : t.processors()) capacity += reception_cap(problem, v);
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
  for (const auto& b : report.bounds) report.best = std::max(report.best, b.value);
  return report;
}

}  // namespace ccsched
