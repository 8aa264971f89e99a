// Lower bounds for reductions of several blocks (FORMATS.md "Reductions", rule R1 without
// combining: a transfer carries one block): the receptions every block needs in the whole
// network (reduce-volume: each processor must receive about 2(p-1)/p of the data in an
// ALLREDUCE, the bandwidth bound of Patarasuk and Yuan, "Bandwidth optimal all-reduce
// algorithms for clusters of workstations", JPDC 69(2), 2009, restated in steps), and the
// completions each target must receive after the first full sum can exist
// (reduce-completion). The proofs are in docs/BOUNDS.md ("reduce-volume",
// "reduce-completion").
#include "block_bounds.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace ccsched {
namespace {

// `ports` is effective_ports(p), computed once by the caller: under all-port it scans
// every processor, so a call per processor made the bounds quadratic in p (4.3 billion
// scans at 65,536 processors).
int reception_cap(const Problem& p, int ports, NodeId v) {
  return std::min(ports, static_cast<int>(p.topology.in_channels(v).size()));
}

// ⌈log_{k+1} m⌉: the first step after which an accumulator can hold m inputs
// (reduce-information, docs/BOUNDS.md).
int information_steps(long long m, int k) {
  int steps = 0;
  for (long long size = 1; size < m; size *= (k + 1)) ++steps;
  return steps;
}

}  // namespace

void add_block_bounds(const Problem& problem, BoundReport& report) {
  const Collective& c = problem.collective;
  const Topology& t = problem.topology;
  const long long p = static_cast<long long>(c.senders.size());
  if (problem.model.combining || p < 2) return;
  const int ports = effective_ports(problem);
  long long capacity = 0;
  int k = 0;
  for (NodeId v : t.processors()) {
    capacity += reception_cap(problem, ports, v);
    k = std::max(k, reception_cap(problem, ports, v));
  }
  if (capacity == 0 || k == 0) return;
  const long long B = c.blocks;

  // reduce-volume (ALLREDUCE): per block, the first accumulator x to hold all p inputs got
  // them through at least p - 1 receptions, and every other receiver receives once more
  // after that; both kinds are distinct transfers.
  if (c.kind == CollectiveKind::ALLREDUCE) {
    const long long r = static_cast<long long>(c.receivers.size());
    const long long per_block = (p - 1) + (r - 1);
    const long long needed = B * per_block;
    const int steps = static_cast<int>((needed + capacity - 1) / capacity);
    report.bounds.push_back(
        {"reduce-volume", steps,
         fmt::format("every block needs p−1 = {} receptions to form its first full sum and one "
                     "more at each of the other r−1 = {} receivers afterwards: {}·{} = {} "
                     "transfers of one block each, at most R = {} receptions per step: "
                     "⌈{}/{}⌉ = {}",
                     p - 1, r - 1, B, per_block, needed, capacity, needed, capacity, steps),
         "Patarasuk & Yuan 2009 (bandwidth bound of all-reduce); ccsched (docs/BOUNDS.md "
         "§reduce-volume)"});
  }

  // reduce-completion (REDUCE, ALLREDUCE, SCAN with several blocks): a target v that must
  // end with m >= 2 inputs in each of the B blocks completes each block by its own
  // reception, none before step ⌈log_{K+1} m⌉, at most cap_in(v) per step.
  if (B < 2 || c.kind == CollectiveKind::REDUCESCATTER) return;
  int best = 0;
  NodeId best_node = kNoNode;
  long long best_m = 0;
  for (const auto& target : reduction_prefixes(c)) {
    if (target.block != 0) continue;
    const long long m = target.inputs;
    if (m < 2) continue;
    const int cap = reception_cap(problem, ports, target.node);
    if (cap == 0) continue;
    const int steps = information_steps(m, k) - 1 + static_cast<int>((B + cap - 1) / cap);
    if (steps > best) {
      best = steps;
      best_node = target.node;
      best_m = m;
    }
  }
  if (best > 0)
    report.bounds.push_back(
        {"reduce-completion", best,
         fmt::format("{} must end with {} inputs in each of {} blocks; no accumulator holds {} "
                     "inputs before step ⌈log_{}({})⌉ = {}, and each block is completed at {} by "
                     "its own reception, at most {} per step: {} − 1 + ⌈{}/{}⌉ = {}",
                     t.display_name(best_node), best_m, B, best_m, k + 1, best_m,
                     information_steps(best_m, k), t.display_name(best_node),
                     reception_cap(problem, ports, best_node), information_steps(best_m, k), B,
                     reception_cap(problem, ports, best_node), best),
         "ccsched (docs/BOUNDS.md §reduce-completion)"});
}

}  // namespace ccsched
