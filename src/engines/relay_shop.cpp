// Relay job shop (relay_shop.hpp). Two passes: routes, then steps.
// Routes: messages in a seeded order, each walks from its origin towards its target and at
// every node takes the shortest-path channel with the least load so far (ties by the
// seeded generator), so no channel carries much more than the channel-load bound asks.
// Steps: list scheduling of the job shop. A message's next hop is ready one step after the
// previous one (the relay holds it from then on, FORMATS.md rule 5); each step every
// channel, in a seeded order, serves its ready hop with the most hops left, provided the
// sender and receiver still have a free port. Memory: one entry per hop (the transfers are
// the output anyway); a problem whose hops exceed kMaxHops is left to other engines.
#include "ccsched/engines/relay_shop.hpp"

#include <algorithm>
#include <numeric>
#include <queue>
#include <random>

namespace ccsched {
namespace {

constexpr std::size_t kMaxHops = 6'000'000;  // about 1 GB of transfers

struct Ready {
  int left;             // hops of the message still to go, this one included
  std::uint32_t tie;    // seeded tie-break
  std::uint32_t message;
  bool operator<(const Ready& o) const {
    return left != o.left ? left < o.left : tie < o.tie;
  }
};

constexpr int kMaxVisits = 4096;        // nodes one route search may visit
constexpr int kDetour = 3;               // hops a relayed route may add to the shortest
constexpr double kLevellingShare = 0.3;  // of the remaining time, for levelling the loads

// Levelling: while a channel carries the largest load, move messages off it onto routes at
// most kDetour hops longer whose busiest channel stays below that load. Relays make such
// routes legal (each hop is a transfer of its own, a shortest path between its ends), and
// on networks whose shortest paths crowd some channels (Kautz digraphs) the largest load
// drops towards the average, which the schedule follows. Stops when a busiest channel
// cannot be relieved, or at the budget.
void level_loads(const Problem& problem, const PathSet& paths,
                 std::vector<std::vector<ChannelId>>& route, std::vector<long long>& load,
                 const Budget& budget) {
  const auto& t = problem.topology;
  const auto& messages = problem.collective.messages;
  std::vector<std::vector<std::uint32_t>> users(t.channel_count());
  for (std::uint32_t m = 0; m < route.size(); ++m)
    for (const ChannelId ch : route[m]) users[ch].push_back(m);
  std::vector<ChannelId> trail, found;
  // Depth-first over routes of at most `hops` hops to `target` whose channels all carry
  // less than `ceiling`; the first found, shortest lengths tried first.
  long long visits = 0;  // per search: near-shortest routes can be astronomically many
  auto search = [&](auto&& self, NodeId x, NodeId target, int hops, long long ceiling) -> bool {
    if (++visits > kMaxVisits) return false;
    if (x == target) {
      found = trail;
      return true;
    }
    if (hops == 0 || paths.distance(x, target) > hops) return false;
    for (const ChannelId ch : t.out_channels(x)) {
      if (load[ch] + 1 >= ceiling) continue;
      const NodeId y = t.channel(ch).to;
      if (!t.is_processor(y)) continue;
      if (std::any_of(trail.begin(), trail.end(),
                      [&](ChannelId u) { return t.channel(u).from == y; }))
        continue;  // simple routes only (the origin is the first channel's tail)
      trail.push_back(ch);
      if (self(self, y, target, hops - 1, ceiling)) return true;
      trail.pop_back();
    }
    return false;
  };
  for (int round = 0; !budget.expired(); ++round) {
    const long long top = *std::max_element(load.begin(), load.end());
    bool relieved_all = true;
    for (ChannelId busiest = 0; busiest < t.channel_count() && !budget.expired(); ++busiest) {
      if (load[busiest] != top) continue;
      auto& list = users[busiest];
      for (std::size_t i = 0; i < list.size() && load[busiest] >= top;) {
        const std::uint32_t m = list[i];
        for (const ChannelId ch : route[m]) --load[ch];
        const NodeId origin = messages[m].origin, target = messages[m].targets[0];
        const int shortest = paths.distance(origin, target);
        bool moved = false;
        for (int hops = shortest; hops <= shortest + kDetour && !moved; ++hops) {
          trail.clear();
          visits = 0;
          moved = search(search, origin, target, hops, top);
        }
        if (moved) {
          for (const ChannelId ch : route[m])
            if (ch != busiest) std::erase(users[ch], m);
          route[m] = found;
          for (const ChannelId ch : route[m]) {
            ++load[ch];
            users[ch].push_back(m);
          }
          list[i] = list.back();
          list.pop_back();
        } else {
          for (const ChannelId ch : route[m]) ++load[ch];
          ++i;
        }
      }
      if (load[busiest] >= top) relieved_all = false;
    }
    if (!relieved_all) return;
  }
}

}  // namespace

std::optional<Schedule> relay_scatter(const Problem& problem, const PathSet& paths,
                                      std::uint64_t seed, const Budget& budget) {
  const auto& t = problem.topology;
  const auto& c = problem.collective;
  if (is_reduction(c) || is_broadcast(c) || problem.model.combining || t.switch_count() > 0 ||
      c.messages.empty())
    return std::nullopt;
  for (const auto& m : c.messages)
    if (m.targets.size() != 1) return std::nullopt;
  std::size_t total = 0;
  for (const auto& m : c.messages) {
    const int d = paths.distance(m.origin, m.targets[0]);
    if (d == kUnreachable) return std::nullopt;  // the greedy engine reports it
    total += static_cast<std::size_t>(d);
  }
  if (total > kMaxHops) return std::nullopt;

  std::mt19937_64 rng(seed);
  const std::size_t M = c.messages.size();
  std::vector<std::uint32_t> order(M);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<long long> load(t.channel_count(), 0);
  std::vector<std::vector<ChannelId>> route(M);
  std::vector<ChannelId> best;
  for (std::size_t i = 0; i < M; ++i) {
    if (i % 4096 == 4095 && budget.expired()) return std::nullopt;
    const std::uint32_t m = order[i];
    const NodeId target = c.messages[m].targets[0];
    NodeId x = c.messages[m].origin;
    while (x != target) {
      const int d = paths.distance(x, target);
      best.clear();
      long long least = 0;
      for (const ChannelId ch : t.out_channels(x)) {
        const NodeId y = t.channel(ch).to;
        if (paths.distance(y, target) != d - 1) continue;
        if (best.empty() || load[ch] < least) {
          best.assign(1, ch);
          least = load[ch];
        } else if (load[ch] == least) {
          best.push_back(ch);
        }
      }
      const ChannelId ch = best[best.size() == 1 ? 0 : rng() % best.size()];
      route[m].push_back(ch);
      ++load[ch];
      x = t.channel(ch).to;
    }
  }
  level_loads(problem, paths, route, load, budget.sub(kLevellingShare * budget.remaining()));
  total = 0;
  for (const auto& r : route) total += r.size();

  const int ports = effective_ports(problem);
  std::vector<std::priority_queue<Ready>> queue(t.channel_count());
  std::vector<std::size_t> next(M, 0);
  for (std::uint32_t m = 0; m < M; ++m)
    if (!route[m].empty())
      queue[route[m][0]].push(
          {static_cast<int>(route[m].size()), static_cast<std::uint32_t>(rng()), m});
  std::vector<ChannelId> channels(t.channel_count());
  std::iota(channels.begin(), channels.end(), 0);
  std::vector<int> sends(t.node_count(), 0), receives(t.node_count(), 0);
  std::vector<std::uint32_t> moved;
  std::vector<Transfer> transfers;
  transfers.reserve(total);
  std::size_t done = 0;
  for (Step s = 1; done < total; ++s) {
    if (budget.expired()) return std::nullopt;
    std::shuffle(channels.begin(), channels.end(), rng);
    std::fill(sends.begin(), sends.end(), 0);
    std::fill(receives.begin(), receives.end(), 0);
    moved.clear();
    for (const ChannelId ch : channels) {
      auto& q = queue[ch];
      if (q.empty()) continue;
      const Channel& link = t.channel(ch);
      if (sends[link.from] >= ports || receives[link.to] >= ports) continue;
      const std::uint32_t m = q.top().message;
      q.pop();
      ++sends[link.from];
      ++receives[link.to];
      transfers.push_back({s, {link.from, link.to}, {c.messages[m].id}});
      ++done;
      if (++next[m] < route[m].size()) moved.push_back(m);
    }
    // Hops that moved this step: the next one is ready from the next step on.
    for (const std::uint32_t m : moved)
      queue[route[m][next[m]]].push(
          {static_cast<int>(route[m].size() - next[m]), static_cast<std::uint32_t>(rng()), m});
  }
  return assemble_schedule(problem, std::move(transfers), "relay job shop", seed);
}

}  // namespace ccsched
