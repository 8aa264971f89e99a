// The greedy engine: list scheduling into the first step where a path is free
// (DESIGN.md). It gives the driver a fast upper bound and every other engine a fallback
// for inputs too large to encode. Wormhole scatter messages go straight from origin to
// target; broadcasts (and every message under store-and-forward) spread step by step
// from the holders, so the holding rule (FORMATS.md rule 5) holds by construction.
#include "ccsched/engines/greedy.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

// Per-step occupation of channels and ports, grown as steps are opened.
class Occupancy {
 public:
  Occupancy(const Topology& t, int ports) : t_(t), ports_(ports) {}

  bool fits(Step s, const Path& p) {
    ensure(s);
    const auto& used = channels_[s];
    if (sends_[s][p.nodes.front()] >= ports_ || receives_[s][p.nodes.back()] >= ports_)
      return false;
    return std::none_of(p.channels.begin(), p.channels.end(), [&](ChannelId c) { return used[c]; });
  }
  void take(Step s, const Path& p) {
    for (const ChannelId c : p.channels) channels_[s][c] = 1;
    ++sends_[s][p.nodes.front()];
    ++receives_[s][p.nodes.back()];
  }

 private:
  void ensure(Step s) {
    while (static_cast<Step>(channels_.size()) <= s) {
      channels_.emplace_back(t_.channel_count(), 0);
      sends_.emplace_back(t_.node_count(), 0);
      receives_.emplace_back(t_.node_count(), 0);
    }
  }
  const Topology& t_;
  int ports_;
  std::vector<std::vector<char>> channels_;
  std::vector<std::vector<int>> sends_, receives_;
};

// The budget ran out before the schedule was complete: greedy has no partial answer (a
// schedule must deliver everything), so it stops with a clear message.
[[noreturn]] void out_of_time(const Budget& budget) {
  if (budget.interrupted()) throw Unsupported("interrupted", "greedy");
  throw Unsupported("time limit reached before the greedy schedule (the upper bound every "
                    "search starts from) was complete; raise --time-limit",
                    "greedy");
}

std::vector<Transfer> schedule_direct(const Problem& problem, const PathSet& paths,
                                      std::mt19937_64& rng, const Budget& budget) {
  const auto& messages = problem.collective.messages;
  std::vector<MessageId> order(messages.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  // Longest messages first: they are the hardest to fit once channels fill up.
  std::stable_sort(order.begin(), order.end(), [&](MessageId a, MessageId b) {
    return paths.distance(messages[a].origin, messages[a].targets[0]) >
           paths.distance(messages[b].origin, messages[b].targets[0]);
  });
  Occupancy occupancy(problem.topology, effective_ports(problem));
  std::vector<Transfer> transfers;
  std::size_t done = 0;
  for (const MessageId m : order) {
    if (++done % 64 == 0 && budget.expired()) out_of_time(budget);
    const auto& candidates = paths.paths(messages[m].origin, messages[m].targets[0]);
    if (candidates.empty())
      throw InvalidInput("no allowed path from " + std::to_string(messages[m].origin) + " to " +
                             std::to_string(messages[m].targets[0]),
                         "routing");
    for (Step s = 1;; ++s) {
      const auto it = std::find_if(candidates.begin(), candidates.end(),
                                   [&](const Path& p) { return occupancy.fits(s, p); });
      if (it != candidates.end()) {
        occupancy.take(s, *it);
        transfers.push_back({s, it->nodes, {m}});
        break;
      }
    }
  }
  return transfers;
}

// Step by step: every pending (message, target) pair, farthest from its holders first,
// is sent from the nearest holder along a free path. Under store-and-forward a transfer
// is one hop towards the target, and the intermediate node becomes a holder.
std::vector<Transfer> schedule_spreading(const Problem& problem, const PathSet& paths,
                                         std::mt19937_64& rng, const Budget& budget) {
  const auto& t = problem.topology;
  const auto& messages = problem.collective.messages;
  const bool hop_by_hop = problem.model.switching == Switching::store_and_forward;
  Occupancy occupancy(t, effective_ports(problem));
  std::vector<std::vector<char>> holds(messages.size(), std::vector<char>(t.node_count(), 0));
  std::vector<std::vector<NodeId>> holders(messages.size());
  struct Pending {
    MessageId message;
    NodeId target;
  };
  std::vector<Pending> pending;
  for (const auto& m : messages) {
    holds[m.id][m.origin] = 1;
    holders[m.id].push_back(m.origin);
    for (const NodeId target : m.targets) pending.push_back({m.id, target});
  }
  std::shuffle(pending.begin(), pending.end(), rng);
  std::vector<Transfer> transfers;
  for (Step s = 1; !pending.empty(); ++s) {
    if (budget.expired()) out_of_time(budget);
    auto nearest = [&](const Pending& p) {
      int best = kUnreachable;
      for (const NodeId h : holders[p.message]) best = std::min(best, paths.distance(h, p.target));
      return best;
    };
    std::vector<std::pair<int, std::size_t>> order;
    for (std::size_t i = 0; i < pending.size(); ++i) {
      if (i % 4096 == 4095 && budget.expired()) out_of_time(budget);
      order.push_back({nearest(pending[i]), i});
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::pair<MessageId, NodeId>> informed;  // become holders after step s
    std::vector<char> done(pending.size(), 0);
    bool progress = false;
    std::size_t visited = 0;
    for (const auto& [distance, index] : order) {
      if (++visited % 256 == 0 && budget.expired()) out_of_time(budget);
      const auto [m, target] = pending[index];
      if (distance == kUnreachable)
        throw InvalidInput("processor " + std::to_string(target) + " cannot be reached", "routing");
      // Holders sorted by distance to the target: the nearest free one sends.
      std::vector<NodeId> senders = holders[m];
      // Init-capture: clang 14 cannot capture a structured binding.
      std::stable_sort(senders.begin(), senders.end(), [&, target = target](NodeId a, NodeId b) {
        return paths.distance(a, target) < paths.distance(b, target);
      });
      bool sent = false;
      for (const NodeId h : senders) {
        if (hop_by_hop) {
          for (const ChannelId c : t.out_channels(h)) {
            const NodeId next = t.channel(c).to;
            if (!t.is_processor(next) || holds[m][next] ||
                paths.distance(next, target) + 1 != paths.distance(h, target))
              continue;
            const Path hop{{h, next}, {c}};
            if (!occupancy.fits(s, hop)) continue;
            occupancy.take(s, hop);
            transfers.push_back({s, hop.nodes, {m}});
            informed.push_back({m, next});
            if (next == target) done[index] = 1;
            sent = true;
            break;
          }
        } else {
          for (const Path& p : paths.paths(h, target)) {
            if (!occupancy.fits(s, p)) continue;
            occupancy.take(s, p);
            transfers.push_back({s, p.nodes, {m}});
            informed.push_back({m, target});
            done[index] = 1;
            sent = true;
            break;
          }
        }
        if (sent) break;
      }
      progress = progress || sent;
    }
    if (!progress) throw InvalidInput("no transfer can make progress", "routing");
    for (const auto& [m, node] : informed)
      if (!holds[m][node]) {
        holds[m][node] = 1;
        holders[m].push_back(node);
      }
    std::vector<Pending> still;
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (!done[i] && !holds[pending[i].message][pending[i].target]) still.push_back(pending[i]);
    pending = std::move(still);
  }
  return transfers;
}

}  // namespace

Schedule greedy_schedule(const Problem& problem, const PathSet& paths, std::uint64_t seed,
                         const Budget& budget) {
  if (problem.model.combining)
    throw Unsupported("combining is not supported by the greedy engine yet", "--combining");
  std::mt19937_64 rng(seed);
  const bool direct = !is_broadcast(problem.collective) &&
                      problem.model.switching == Switching::wormhole;
  auto transfers = direct ? schedule_direct(problem, paths, rng, budget)
                          : schedule_spreading(problem, paths, rng, budget);
  return assemble_schedule(problem, std::move(transfers), "greedy", seed);
}

EngineResult GreedyEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                                 const Budget& budget) {
  const auto start = Budget::Clock::now();
  EngineResult result;
  Schedule s = greedy_schedule(problem, paths, options_.seed, budget);
  result.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
  if (s.steps <= steps) {
    result.status = SolveStatus::feasible;
    result.schedule = std::move(s);
  } else {
    result.status = SolveStatus::unknown;
    result.note = "greedy needs " + std::to_string(s.steps) + " steps";
  }
  result.complete = false;
  return result;
}

}  // namespace ccsched
