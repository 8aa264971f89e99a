// SCAN on any network as a list schedule of Brent-Kung's prefix network (docs/ENGINES.md,
// "Reductions: placed prefix networks"). The packed prefix networks (prefix.cpp) give each
// round its own steps, so a round that spills into a second step holds every later round
// back; on kautz:3,5, whose consecutive ids are up to 5 hops apart, that made 32 steps.
// Here the transfers of Brent-Kung of radix r are taken in the network's sequential order
// (rounds one after the other, a round's transfers by receiver from the last position
// down, so that a position sends the value it held before the round), and each is placed
// in the earliest step that
//   - follows the step that made the sender's value (its reception of that value),
//   - is not before the receiver's previous reception (receives in one step all take
//     effect at its end; the values are disjoint, as in the sequential order),
//   - is not before the last send of the receiver's current value (a value is sent as it
//     stood at the start of the step),
//   - has a path of free channels from sender to receiver at most `slack` hops longer than
//     the shortest (a breadth-first search over the channels that step leaves free; 0
//     under minimal routing, else the model's extra hops as well), and a free port at both
//     ends.
// A sender's next reception is placed after its sends of the value before it, so every
// transfer carries the value the sequential network meant, and the schedule computes what
// the network computes: every position's inclusive prefix (the driver verifies it). Later
// rounds start where their inputs are ready, so the rounds overlap. O(p) transfers; a
// search of O(channels) a transfer and a step tried, so it is offered up to
// kDirectDesignProcessors.
#include <algorithm>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

using Pair = std::pair<int, int>;  // (sender, receiver) positions in the sender order

// Random orders of the rounds tried for the two best plans, on networks up to this size
// (kautz:3,5: about 15 ms a placement).
constexpr int kShuffles = 16;
constexpr int kShuffledProcessors = 1024;

// Brent-Kung on positions 0..n-1 in sequential order (brent_kung_sweep), with its own
// radix a level: radices[l] for level l from the finest (the last one repeated). A round's
// transfers by receiver from the last position down; with `rng`, the round's chains in a
// random interleaving instead: in the up-sweep every transfer is a chain of its own (no
// position both sends and receives there), in the down-sweep a group's transfers are one
// chain, by receiver from its last position down (a sub-block end sends its sum to its
// younger siblings before it takes its prefix). Either order is sequentially valid.
std::vector<Pair> brent_kung_order(int n, const std::vector<int>& radices, std::mt19937_64* rng) {
  std::vector<Pair> out;
  if (rng == nullptr) {
    for (const auto& round : brent_kung_by_receiver(n, radices))
      out.insert(out.end(), round.begin(), round.end());
    return out;
  }
  for (const bool up : {true, false})
    for (const auto& groups : brent_kung_sweep(n, radices, up)) {
      std::vector<std::vector<Pair>> chains;
      for (const auto& group : groups) {
        if (up)
          for (const Pair& pair : group) chains.push_back({pair});
        else
          chains.push_back(group);
      }
      std::vector<std::size_t> next(chains.size(), 0), open;
      for (std::size_t k = 0; k < chains.size(); ++k) open.push_back(k);
      while (!open.empty()) {
        const std::size_t pick =
            std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(*rng);
        const std::size_t k = open[pick];
        out.push_back(chains[k][next[k]++]);
        if (next[k] == chains[k].size()) {
          open[pick] = open.back();
          open.pop_back();
        }
      }
    }
  return out;
}

class ListPlacer {
 public:
  ListPlacer(const Problem& p, const PathSet& paths, int slack)
      : t_(p.topology),
        paths_(paths),
        slack_(slack),
        ports_(effective_ports(p)),
        made_(static_cast<std::size_t>(t_.node_count()), std::vector<int>{0}),
        last_send_(static_cast<std::size_t>(t_.node_count()), std::vector<int>{0}),
        seen_(static_cast<std::size_t>(t_.node_count()), 0),
        via_(static_cast<std::size_t>(t_.node_count()), kNoChannel),
        first_(static_cast<std::size_t>(t_.channel_count()), 1) {
    // A path names nodes, so of parallel channels only the first can carry it.
    for (NodeId u = 0; u < t_.node_count(); ++u) {
      const auto out = t_.out_channels(u);
      for (std::size_t k = 0; k < out.size(); ++k)
        for (std::size_t e = 0; e < k; ++e)
          if (t_.channel(out[e]).to == t_.channel(out[k]).to)
            first_[static_cast<std::size_t>(out[k])] = 0;
    }
  }

  // False when no step within reach has a path (a network the sequence cannot cross).
  bool add(NodeId j, NodeId i) {
    const int limit = paths_.distance(j, i);
    if (limit == kUnreachable) return false;
    auto& mj = made_[static_cast<std::size_t>(j)];
    auto& mi = made_[static_cast<std::size_t>(i)];
    auto& si = last_send_[static_cast<std::size_t>(i)];
    const int lo = std::max({mj.back() + 1, mi.back(), si.back()});
    for (int t = lo; t < lo + kReach; ++t) {
      grow(t);
      const auto s = static_cast<std::size_t>(t - 1);
      if (sends_[s][static_cast<std::size_t>(j)] >= ports_ ||
          receives_[s][static_cast<std::size_t>(i)] >= ports_)
        continue;
      const std::vector<ChannelId> channels = route(j, i, limit + slack_, busy_[s]);
      if (channels.empty()) continue;
      std::vector<NodeId> path{j};
      for (const ChannelId ch : channels) {
        busy_[s][static_cast<std::size_t>(ch)] = 1;
        path.push_back(t_.channel(ch).to);
      }
      ++sends_[s][static_cast<std::size_t>(j)];
      ++receives_[s][static_cast<std::size_t>(i)];
      int& last = last_send_[static_cast<std::size_t>(j)].back();
      last = std::max(last, t);
      mi.push_back(t);
      si.push_back(0);
      placed_.push_back({t, std::move(path)});
      return true;
    }
    return false;
  }
  const std::vector<std::pair<int, std::vector<NodeId>>>& placed() const { return placed_; }

 private:
  // Steps a transfer may wait past its earliest: far more than any prefix network here
  // needs; a transfer that finds no path within them fails the design.
  static constexpr int kReach = 64;

  void grow(int t) {
    while (static_cast<int>(busy_.size()) < t) {
      busy_.emplace_back(static_cast<std::size_t>(t_.channel_count()), 0);
      sends_.emplace_back(static_cast<std::size_t>(t_.node_count()), 0);
      receives_.emplace_back(static_cast<std::size_t>(t_.node_count()), 0);
    }
  }

  // The channels of a shortest path of free channels from a to b of at most `most` hops
  // (breadth-first, out-channels in order), or empty.
  std::vector<ChannelId> route(NodeId a, NodeId b, int most, const std::vector<char>& busy) {
    if (++epoch_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      epoch_ = 1;
    }
    std::deque<std::pair<NodeId, int>> queue{{a, 0}};
    seen_[static_cast<std::size_t>(a)] = epoch_;
    bool found = false;
    while (!queue.empty() && !found) {
      const auto [u, d] = queue.front();
      queue.pop_front();
      if (d == most) continue;
      for (const ChannelId c : t_.out_channels(u)) {
        if (busy[static_cast<std::size_t>(c)]) continue;
        const NodeId v = t_.channel(c).to;
        if (seen_[static_cast<std::size_t>(v)] == epoch_ || !first_[static_cast<std::size_t>(c)])
          continue;
        seen_[static_cast<std::size_t>(v)] = epoch_;
        via_[static_cast<std::size_t>(v)] = c;
        if (v == b) {
          found = true;
          break;
        }
        queue.push_back({v, d + 1});
      }
    }
    if (!found) return {};
    std::vector<ChannelId> channels;
    for (NodeId v = b; v != a; v = t_.channel(channels.back()).from)
      channels.push_back(via_[static_cast<std::size_t>(v)]);
    std::reverse(channels.begin(), channels.end());
    return channels;
  }

  const Topology& t_;
  const PathSet& paths_;
  int slack_, ports_;
  std::vector<std::vector<int>> made_;       // per node: the step that made each value
  std::vector<std::vector<int>> last_send_;  // per node and value: its last send
  std::vector<std::vector<char>> busy_;      // per step: channels in use
  std::vector<std::vector<int>> sends_, receives_;
  std::vector<std::uint32_t> seen_;
  std::vector<ChannelId> via_;
  std::vector<char> first_;  // per channel: the first of its parallel channels
  std::uint32_t epoch_ = 0;
  std::vector<std::pair<int, std::vector<NodeId>>> placed_;
};

std::optional<std::vector<Transfer>> placed_brent_kung(const Problem& p, const PathSet& paths,
                                                       const std::vector<int>& radices, int slack,
                                                       std::mt19937_64* rng) {
  const Collective& c = p.collective;
  const int n = static_cast<int>(c.senders.size());
  ListPlacer placer(p, paths, slack);
  for (const auto& [from, to] : brent_kung_order(n, radices, rng)) {
    if (t_budget != nullptr && t_budget->expired()) return std::nullopt;
    if (!placer.add(c.senders[static_cast<std::size_t>(from)],
                    c.senders[static_cast<std::size_t>(to)]))
      return std::nullopt;
  }
  return reduce_transfers(p, placer.placed());
}

}  // namespace

void add_placed_scan_designs(const Problem& p, const PathSet& paths,
                             std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::SCAN || c.senders.size() < 2 ||
      (c.blocks != 1 && !p.model.combining) || p.model.switching != Switching::wormhole ||
      p.topology.processor_count() > kDirectDesignProcessors)
    return;
  const int most = std::min(effective_ports(p) + 1, 8);
  // Minimal paths, and under non-minimal routing also the model's longest.
  std::vector<int> slacks{0};
  if (p.model.routing == Routing::nonminimal && p.model.extra_hops > 0)
    slacks.push_back(p.model.extra_hops);
  // One radix throughout, or radix 2 on the 1-3 finest levels (the busiest: every
  // position takes part) and a larger one above.
  std::vector<std::vector<int>> plans;
  for (int radix = 2; radix <= most; ++radix) plans.push_back({radix});
  for (int low = 1; low <= 3; ++low)
    for (int radix = 3; radix <= most; ++radix) {
      plans.push_back(std::vector<int>(static_cast<std::size_t>(low), 2));
      plans.back().push_back(radix);
    }
  std::optional<std::vector<Transfer>> best;
  Step best_steps = 0;
  std::string best_name;
  // Every plan in the fixed order, then (up to kShuffledProcessors) the two best in
  // kShuffles random orders each; the random orders come from a fixed seed, so the
  // design is the same on every run.
  std::vector<std::pair<Step, std::size_t>> ranked;  // (steps, plan index)
  std::mt19937_64 rng(1);
  auto run = [&](std::size_t index, int slack, bool shuffle) -> Step {
    const std::vector<int>& plan = plans[index];
    auto transfers = placed_brent_kung(p, paths, plan, slack, shuffle ? &rng : nullptr);
    if (!transfers) return 0;
    Step steps = 0;
    for (const Transfer& t : *transfers) steps = std::max(steps, t.step);
    if (best && steps >= best_steps) return steps;
    best = std::move(transfers);
    best_steps = steps;
    best_name = "placed brent-kung (radix " + std::to_string(plan.back());
    if (plan.size() > 1)
      best_name += plan.size() == 2
                       ? std::string(", 2 on the finest level")
                       : ", 2 on the finest " + std::to_string(plan.size() - 1) + " levels";
    if (slack > 0) best_name += ", paths up to " + std::to_string(slack) + " hops longer";
    if (shuffle) best_name += ", shuffled rounds";
    best_name += ")";
    return steps;
  };
  for (std::size_t k = 0; k < plans.size(); ++k)
    for (const int slack : slacks) {
      if (t_budget != nullptr && t_budget->expired()) break;
      if (const Step steps = run(k, slack, false); steps > 0 && slack == slacks.back())
        ranked.push_back({steps, k});
    }
  std::stable_sort(ranked.begin(), ranked.end());
  if (p.topology.processor_count() <= kShuffledProcessors)
    for (std::size_t r = 0; r < std::min<std::size_t>(2, ranked.size()); ++r)
      for (int trial = 0; trial < kShuffles; ++trial) {
        if (t_budget != nullptr && t_budget->expired()) break;
        run(ranked[r].second, slacks.back(), true);
      }
  if (best) out.push_back({best_name, assemble_schedule(p, std::move(*best), "", 0)});
}

}  // namespace ccsched::reduce_detail
