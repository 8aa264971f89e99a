// Closed-form schedules (include/ccsched/engines/constructive.hpp). The one construction
// so far is the hypercube XOR-mask design: a message u -> u XOR m routed in ascending
// dimension order crosses dimension i from node u XOR (m & (2^i - 1)). For one mask m
// those nodes are distinct for distinct u, so the 2^d messages of one mask never share a
// channel; two masks with disjoint bit sets use channels of different dimensions. A step
// may therefore carry any set of masks with pairwise disjoint bit sets, one message per
// mask out of and into every node, hence at most k masks under k ports.
#include "ccsched/engines/constructive.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "ccsched/engines/engine.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {

std::optional<int> hypercube_dimension(const Topology& t) {
  const int n = t.node_count();
  if (n < 2 || !std::has_single_bit(static_cast<unsigned>(n)) || t.processor_count() != n)
    return std::nullopt;
  const int d = std::countr_zero(static_cast<unsigned>(n));
  if (t.channel_count() != n * d) return std::nullopt;
  for (NodeId u = 0; u < n; ++u)
    for (int i = 0; i < d; ++i)
      if (!t.has_channel(u, u ^ (NodeId{1} << i))) return std::nullopt;
  return d;
}

std::vector<std::vector<unsigned>> group_disjoint_masks(std::vector<unsigned> masks, int d,
                                                        int ports) {
  const unsigned full = (1U << d) - 1;
  // Heaviest masks first: they are the hardest to pair, and a mask with its complement
  // fills every dimension, so nothing else can join that step anyway.
  std::sort(masks.begin(), masks.end(), [](unsigned a, unsigned b) {
    const int pa = std::popcount(a), pb = std::popcount(b);
    return pa != pb ? pa > pb : a < b;
  });
  std::set<unsigned> open(masks.begin(), masks.end());
  std::vector<std::vector<unsigned>> groups;
  for (const unsigned m : masks) {
    if (open.erase(m) == 0) continue;
    std::vector<unsigned> group{m};
    unsigned used = m;
    if (ports >= 2 && open.erase(full & ~m) == 1) {
      group.push_back(full & ~m);
      used = full;
    }
    for (auto it = open.begin(); it != open.end() && static_cast<int>(group.size()) < ports;) {
      if ((*it & used) == 0) {
        used |= *it;
        group.push_back(*it);
        it = open.erase(it);
      } else {
        ++it;
      }
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

namespace {

std::optional<Schedule> hypercube_masks(const Problem& problem) {
  const auto& c = problem.collective;
  if (is_broadcast(c) || problem.model.switching != Switching::wormhole ||
      problem.model.combining)
    return std::nullopt;
  const auto d = hypercube_dimension(problem.topology);
  if (!d) return std::nullopt;
  // Messages by mask; each mask class must be a partial permutation (one message out of
  // and into every node), otherwise its messages could meet on a channel.
  std::map<unsigned, std::vector<MessageId>> by_mask;
  std::set<std::pair<unsigned, NodeId>> seen;
  for (const auto& m : c.messages) {
    if (m.targets.size() != 1) return std::nullopt;
    const auto mask = static_cast<unsigned>(m.origin ^ m.targets.front());
    if (!seen.emplace(mask, m.origin).second) return std::nullopt;
    by_mask[mask].push_back(m.id);
  }
  std::vector<unsigned> masks;
  for (const auto& [mask, ids] : by_mask) masks.push_back(mask);
  const auto groups = group_disjoint_masks(masks, *d, effective_ports(problem));

  std::vector<Transfer> transfers;
  transfers.reserve(c.messages.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const unsigned mask : groups[g]) {
      for (const MessageId id : by_mask[mask]) {
        Transfer t;
        t.step = static_cast<Step>(g + 1);
        NodeId at = c.messages[id].origin;
        t.path.push_back(at);
        for (int i = 0; i < *d; ++i) {
          if ((mask >> i) & 1U) {
            at ^= NodeId{1} << i;
            t.path.push_back(at);
          }
        }
        t.messages.push_back(id);
        transfers.push_back(std::move(t));
      }
    }
  }
  Schedule s = assemble_schedule(problem, std::move(transfers), "constructive", 0);
  // The argument above is the proof; the verifier is the check that the argument's
  // preconditions (ports, routing rule) really hold for this problem.
  if (!verify_schedule(s).empty()) return std::nullopt;
  return s;
}

}  // namespace

std::optional<Schedule> constructive_schedule(const Problem& problem, const PathSet& paths) {
  (void)paths;  // the constructions route by themselves; the verifier checks the routes
  return hypercube_masks(problem);
}

}  // namespace ccsched
