// How a round of a classical algorithm becomes steps (plan.hpp; docs/ENGINES.md,
// "Classical algorithms"). The ops of a round depend only on earlier rounds, so any
// split of the round into steps is faithful; the rounds stay in order. A round is packed
// first fit: each group goes into the earliest step where every op finds a minimal route
// with free channels (PathSet::first_free_path, no path lists, no all-pairs table) and its
// ends have ports left. Then the round is packed again in group orders drawn from the
// seed, and the packing with the fewest steps is kept.
#include <algorithm>
#include <random>

#include <fmt/core.h>

#include "ccsched/core/error.hpp"
#include "plan.hpp"

namespace ccsched::classical_detail {
namespace {

struct Slot {
  std::vector<char> used;          // channels
  std::vector<int> sends, recvs;   // per node
  int ops = 0;
};

struct Placed {
  int group = 0;
  int slot = 0;
  std::vector<Path> paths;  // one per op of the group
};

// One packing of `round` in `order`; the number of steps in `slots_used`.
std::vector<Placed> pack_round(const Problem& problem, const PathSet& minimal, const Ranks& ranks,
                               const Round& round, const std::vector<int>& order, int& slots_used) {
  const Topology& t = problem.topology;
  const int ports = effective_ports(problem);
  std::vector<Slot> slots;
  std::vector<Placed> out;
  out.reserve(order.size());
  std::vector<Path> taken;
  for (int gi : order) {
    const Group& group = round.groups[gi];
    for (int s = 0;; ++s) {
      if (s == static_cast<int>(slots.size()))
        slots.push_back({std::vector<char>(t.channel_count(), 0), std::vector<int>(t.node_count(), 0),
                         std::vector<int>(t.node_count(), 0), 0});
      Slot& slot = slots[s];
      taken.clear();
      bool ok = true;
      for (const Op& op : group) {
        const NodeId from = ranks.node[op.from], to = ranks.node[op.to];
        if (slot.sends[from] >= ports || slot.recvs[to] >= ports) {
          ok = false;
          break;
        }
        auto path = minimal.first_free_path(from, to, slot.used);
        if (!path) {
          ok = false;
          break;
        }
        for (ChannelId c : path->channels) slot.used[c] = 1;
        ++slot.sends[from];
        ++slot.recvs[to];
        taken.push_back(std::move(*path));
      }
      if (!ok) {
        for (std::size_t i = 0; i < taken.size(); ++i) {
          for (ChannelId c : taken[i].channels) slot.used[c] = 0;
          --slot.sends[ranks.node[group[i].from]];
          --slot.recvs[ranks.node[group[i].to]];
        }
        // A group that fits no empty step never fits (the ports of one exchange at one
        // port are always enough; a route always exists: checked before packing).
        if (slot.ops == 0)
          throw Unsupported(fmt::format("a group of {} transfers fits in no step under the model",
                                        group.size()),
                            "--algorithm");
        continue;
      }
      slot.ops += static_cast<int>(group.size());
      out.push_back({gi, s, std::move(taken)});
      taken = {};
      break;
    }
  }
  slots_used = static_cast<int>(slots.size());
  return out;
}

// The fewest steps any packing of the round can have: its busiest sender or receiver.
int port_floor(const Problem& problem, const Ranks& ranks, const Round& round) {
  const int ports = effective_ports(problem);
  std::vector<int> sends(problem.topology.node_count(), 0), recvs(problem.topology.node_count(), 0);
  int most = 1;
  for (const Group& g : round.groups)
    for (const Op& op : g) {
      most = std::max(most, ++sends[ranks.node[op.from]]);
      most = std::max(most, ++recvs[ranks.node[op.to]]);
    }
  return (most + ports - 1) / ports;
}

}  // namespace

std::optional<std::vector<Transfer>> pack_plan(const Problem& problem, const PathSet& minimal,
                                               const Ranks& ranks, const Plan& plan,
                                               const ClassicalRequest& request,
                                               const Budget& budget) {
  std::mt19937_64 rng(request.seed);
  std::vector<Transfer> out;
  Step base = 0;
  for (const Round& round : plan.rounds) {
    if (round.groups.empty()) continue;
    if (budget.expired()) return std::nullopt;
    std::size_t ops = 0;
    for (const Group& g : round.groups) ops += g.size();
    const int attempts = static_cast<int>(std::clamp<std::int64_t>(
        request.packing_work / static_cast<std::int64_t>(ops), 1, std::max(1, request.attempts)));
    const int floor = port_floor(problem, ranks, round);
    std::vector<int> order(round.groups.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    int best_slots = 0;
    std::vector<Placed> best = pack_round(problem, minimal, ranks, round, order, best_slots);
    for (int a = 1; a < attempts && best_slots > floor; ++a) {
      if (budget.expired()) return std::nullopt;
      std::shuffle(order.begin(), order.end(), rng);
      int slots = 0;
      auto trial = pack_round(problem, minimal, ranks, round, order, slots);
      if (slots < best_slots) {
        best = std::move(trial);
        best_slots = slots;
      }
    }
    for (Placed& placed : best) {
      const Group& group = round.groups[placed.group];
      for (std::size_t i = 0; i < group.size(); ++i) {
        const Op& op = group[i];
        Transfer t;
        t.step = base + placed.slot + 1;
        t.path = std::move(placed.paths[i].nodes);
        if (op.message >= 0) {
          t.messages = {op.message};
        } else {
          t.blocks = op.blocks;
          t.send = op.send;
          t.recv = op.recv;
        }
        out.push_back(std::move(t));
      }
    }
    base += best_slots;
  }
  return out;
}

}  // namespace ccsched::classical_detail
