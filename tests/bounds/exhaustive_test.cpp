// Cross-checks of the bounds against brute force, written independently of the bounds code:
//
//  1. The cut bound's search finds the best of all 2^n cuts on small networks, where the
//     crossings of each cut are counted by enumerating the routing module's paths.
//  2. On random tiny networks and collectives, no bound exceeds the true optimum, found by
//     a breadth-first search over the sets of processors holding each message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// --- 1. exhaustive cuts ---------------------------------------------------------------

// Fewest channels from S to V∖S over any walk (relays allowed), by relaxing all channels
// until nothing changes (Bellman-Ford; deliberately not the 0-1 BFS of the bounds code).
std::vector<int> walk_crossings(const Topology& t, const std::vector<char>& side, NodeId from) {
  std::vector<int> d(t.node_count(), 1 << 20);
  d[from] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& c : t.channels()) {
      const int w = side[c.from] && !side[c.to] ? 1 : 0;
      if (d[c.from] + w < d[c.to]) {
        d[c.to] = d[c.from] + w;
        changed = true;
      }
    }
  }
  return d;
}

// `direct`: a scatter message is one transfer along one of its allowed paths; otherwise
// it may be relayed along any walk, like a broadcast message.
long long exhaustive_cut_value(const Problem& p, const PathSet& paths, bool direct) {
  const auto& t = p.topology;
  const int n = t.node_count();
  const int k = p.model.ports.value_or(1 << 20);
  long long best = 0;
  for (std::uint32_t mask = 1; mask + 1 < (1u << n); ++mask) {
    std::vector<char> side(n);
    for (int v = 0; v < n; ++v) side[v] = (mask >> v) & 1;
    long long demand = 0, leaving = 0, channels = 0, out_cap = 0, in_cap = 0;
    for (const auto& c : t.channels()) channels += side[c.from] && !side[c.to];
    for (const NodeId v : t.processors()) {
      if (side[v]) {
        out_cap += std::min<long long>(k, t.out_channels(v).size());
      } else {
        in_cap += std::min<long long>(k, t.in_channels(v).size());
      }
    }
    for (const auto& m : p.collective.messages) {
      if (m.targets.size() == 1 && direct) {
        // A direct scatter message takes one allowed path: the fewest crossings over them.
        long long fewest = 1 << 20;
        for (const auto& path : paths.paths(m.origin, m.targets[0])) {
          long long c = 0;
          for (const ChannelId ch : path.channels)
            c += side[t.channel(ch).from] && !side[t.channel(ch).to];
          fewest = std::min(fewest, c);
        }
        demand += fewest;
      } else {
        const auto d = walk_crossings(t, side, m.origin);
        long long most = 0;
        for (const NodeId target : m.targets) most = std::max<long long>(most, d[target]);
        demand += most;
      }
      if (side[m.origin] &&
          std::any_of(m.targets.begin(), m.targets.end(), [&](NodeId v) { return !side[v]; }))
        ++leaving;
    }
    long long value = channels ? ceil_div(demand, channels) : 0;
    if (out_cap) value = std::max(value, ceil_div(leaving, out_cap));
    if (in_cap) value = std::max(value, ceil_div(leaving, in_cap));
    best = std::max(best, value);
  }
  return best;
}

int reported(const BoundReport& r, const std::string& name) {
  for (const auto& b : r.bounds)
    if (b.name == name) return b.value;
  return 0;
}

TEST(ExhaustiveCuts, SearchFindsTheBestCut) {
  struct Case {
    const char* spec;
    CollectiveKind kind;
    std::optional<int> ports;
  };
  const Case cases[] = {
      {"ring:8", CollectiveKind::AAS, 1},     {"ring:8", CollectiveKind::OAS, 2},
      {"uring:8", CollectiveKind::AAS, 1},    {"petersen", CollectiveKind::AAS, {}},
      {"petersen", CollectiveKind::AAB, {}},  {"kautz:3,2", CollectiveKind::AAS, {}},
      {"kautz:3,2", CollectiveKind::OAS, {}}, {"kautz:3,2", CollectiveKind::AAB, {}},
      {"octagon", CollectiveKind::AAS, {}},   {"mesh:3x3", CollectiveKind::AAS, 1},
  };
  for (const auto& c : cases) {
    Problem p{make_topology(c.spec), {}, {}};
    p.model.ports = c.ports;
    CollectiveRequest req;
    req.kind = c.kind;
    p.collective = make_collective(p.topology, req);
    const PathSet paths(p.topology, p.model);
    for (const bool direct : {false, true}) {
      BoundOptions options;
      options.direct_scatter = direct;
      const auto report = lower_bounds(p, paths, options);
      EXPECT_EQ(reported(report, "cut"), exhaustive_cut_value(p, paths, direct))
          << c.spec << " " << to_string(c.kind) << (direct ? " direct" : "");
    }
  }
}

// --- 2. random tiny instances against the exact optimum -------------------------------

// The fewest steps of a schedule, by breadth-first search over states (the set of holders
// of each message, as a bit mask). A step is any set of transfers with pairwise disjoint
// channels, at most k starts and k ends per processor. A message goes from any holder to
// any processor (FORMATS.md rule 5), except that with `direct` a wormhole scatter message
// goes from its origin straight to its target. With combining a transfer carries
// everything its sender holds. Returns -1 when the search gives up (too many states) or
// no schedule exists.
int exact_optimum(const Problem& p, const PathSet& paths, int max_steps, bool direct) {
  const auto& t = p.topology;
  const auto& msgs = p.collective.messages;
  const int k = p.model.ports.value_or(1 << 20);
  using State = std::vector<std::uint32_t>;
  State start, goal;
  for (const auto& m : msgs) {
    start.push_back(1u << m.origin);
    std::uint32_t g = 1u << m.origin;
    for (const NodeId v : m.targets) g |= 1u << v;
    goal.push_back(g);
  }
  const auto done = [&](const State& s) {
    for (std::size_t i = 0; i < s.size(); ++i)
      if ((s[i] & goal[i]) != goal[i]) return false;
    return true;
  };
  if (done(start)) return 0;
  const bool combining = p.model.combining;
  const bool relay = !direct || combining || p.model.switching == Switching::store_and_forward;
  struct Transfer {
    std::size_t message;  // unused with combining
    NodeId from, to;
    const Path* path;
  };
  constexpr std::size_t kMaxStates = 20000;
  long long work = 0;  // DFS nodes; the search gives up beyond a budget
  std::set<State> seen{start};
  std::vector<State> level{start};
  for (int step = 1; step <= max_steps; ++step) {
    std::vector<State> next;
    for (const auto& s : level) {
      std::vector<Transfer> cand;
      if (combining) {
        for (const NodeId u : t.processors())
          for (const NodeId v : t.processors()) {
            bool useful = false;
            for (std::size_t i = 0; i < s.size(); ++i)
              useful = useful || (((s[i] >> u) & 1) && !((s[i] >> v) & 1));
            if (u == v || !useful) continue;
            for (const auto& path : paths.paths(u, v)) cand.push_back({0, u, v, &path});
          }
      } else {
        for (std::size_t i = 0; i < msgs.size(); ++i) {
          const auto& m = msgs[i];
          const bool straight = m.targets.size() == 1 && !relay;
          for (const NodeId u : t.processors()) {
            if (!((s[i] >> u) & 1) || (straight && u != m.origin)) continue;
            for (const NodeId v : t.processors()) {
              if ((s[i] >> v) & 1 || (straight && v != m.targets[0])) continue;
              for (const auto& path : paths.paths(u, v)) cand.push_back({i, u, v, &path});
            }
          }
        }
      }
      std::vector<char> busy(t.channel_count(), 0);
      std::vector<int> starts(t.node_count(), 0), ends(t.node_count(), 0);
      State cur = s;
      // Depth-first over include / exclude of each candidate transfer.
      std::function<void(std::size_t, bool)> dfs = [&](std::size_t i, bool any) {
        if (next.size() > kMaxStates || ++work > 100000) return;
        if (i == cand.size()) {
          if (any && seen.insert(cur).second) next.push_back(cur);
          return;
        }
        const auto& x = cand[i];
        bool ok = starts[x.from] < k && ends[x.to] < k;
        if (!combining) ok = ok && !((cur[x.message] >> x.to) & 1);
        for (const ChannelId c : x.path->channels) ok = ok && !busy[c];
        if (ok) {
          const State before = cur;
          for (const ChannelId c : x.path->channels) busy[c] = 1;
          ++starts[x.from];
          ++ends[x.to];
          if (combining) {
            for (std::size_t j = 0; j < cur.size(); ++j)
              if ((s[j] >> x.from) & 1) cur[j] |= 1u << x.to;
          } else {
            cur[x.message] |= 1u << x.to;
          }
          dfs(i + 1, true);
          cur = before;
          --starts[x.from];
          --ends[x.to];
          for (const ChannelId c : x.path->channels) busy[c] = 0;
        }
        dfs(i + 1, any);
      };
      dfs(0, false);
    }
    for (const auto& s : next)
      if (done(s)) return step;
    if (next.empty() || next.size() > kMaxStates || work > 100000) return -1;
    level.swap(next);
  }
  return -1;
}

// A random network on n nodes: nodes 0 and 1 are processors, later ones switches with
// probability 1/5; each pair of nodes gets a link, a channel one way, or nothing. Retries
// until every processor reaches every other and every switch has channels in and out.
Topology random_network(std::mt19937& rng, int n) {
  std::uniform_int_distribution<int> coin(0, 99);
  for (;;) {
    Topology t("random");
    for (int v = 0; v < n; ++v)
      t.add_node(v >= 2 && coin(rng) < 20 ? NodeKind::switch_node : NodeKind::processor);
    for (int u = 0; u < n; ++u)
      for (int v = u + 1; v < n; ++v) {
        const int r = coin(rng);
        if (r < 35) {
          t.add_link(u, v);
        } else if (r < 45) {
          t.add_channel(u, v);
        } else if (r < 55) {
          t.add_channel(v, u);
        }
      }
    bool ok = true;
    for (NodeId v = 0; v < n; ++v)
      if (!t.is_processor(v) && (t.in_channels(v).empty() || t.out_channels(v).empty())) ok = false;
    for (const NodeId p : t.processors()) {
      std::vector<char> seen(n, 0);
      std::vector<NodeId> stack{p};
      seen[p] = 1;
      while (!stack.empty()) {
        const NodeId x = stack.back();
        stack.pop_back();
        for (const ChannelId c : t.out_channels(x))
          if (!seen[t.channel(c).to]) {
            seen[t.channel(c).to] = 1;
            stack.push_back(t.channel(c).to);
          }
      }
      for (const NodeId q : t.processors()) ok = ok && seen[q];
    }
    if (ok) return t;
  }
}

Collective random_collective(std::mt19937& rng, const Topology& t) {
  const std::vector<NodeId> procs(t.processors().begin(), t.processors().end());
  std::uniform_int_distribution<std::size_t> pick(0, procs.size() - 1);
  std::uniform_int_distribution<int> coin(0, 99);
  Collective c;
  c.kind = CollectiveKind::CUSTOM;
  if (coin(rng) < 60) {
    const int count = std::uniform_int_distribution<int>(1, 6)(rng);
    for (int i = 0; i < count; ++i) {
      const NodeId o = procs[pick(rng)], d = procs[pick(rng)];
      if (o != d) c.messages.push_back({static_cast<MessageId>(c.messages.size()), o, {d}});
    }
  } else {
    const int count = std::uniform_int_distribution<int>(1, 2)(rng);
    for (int i = 0; i < count; ++i) {
      Message m{static_cast<MessageId>(c.messages.size()), procs[pick(rng)], {}};
      for (const NodeId v : procs)
        if (v != m.origin && coin(rng) < 70) m.targets.push_back(v);
      if (m.targets.size() == 1 && coin(rng) < 50) continue;
      if (!m.targets.empty()) c.messages.push_back(std::move(m));
    }
  }
  std::set<NodeId> senders, receivers;
  for (const auto& m : c.messages) {
    senders.insert(m.origin);
    receivers.insert(m.targets.begin(), m.targets.end());
  }
  c.senders.assign(senders.begin(), senders.end());
  c.receivers.assign(receivers.begin(), receivers.end());
  return c;
}

TEST(RandomTiny, NoBoundExceedsTheOptimum) {
  std::mt19937 rng(20240601);
  int checked = 0, tight = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 6)(rng);
    Problem p{random_network(rng, n), {}, {}};
    const int ports = std::uniform_int_distribution<int>(0, 2)(rng);
    if (ports > 0) p.model.ports = ports;
    switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
      case 0:
      case 1:
        p.model.routing = Routing::nonminimal;
        p.model.extra_hops = 1;
        break;
      case 2:
        p.model.switching = Switching::store_and_forward;
        break;
      case 3:
        p.model.combining = true;
        break;
      default:
        break;
    }
    p.collective = random_collective(rng, p.topology);
    if (p.collective.messages.empty()) continue;
    const PathSet paths(p.topology, p.model);
    for (const bool direct : {false, true}) {
      BoundOptions options;
      options.direct_scatter = direct;
      BoundReport report;
      try {
        report = lower_bounds(p, paths, options);
      } catch (const Error&) {
        continue;  // some target unreachable under the model
      }
      const int optimum = exact_optimum(p, paths, 8, direct);
      if (optimum < 0) continue;
      ++checked;
      tight += report.best == optimum;
      for (const auto& b : report.bounds)
        EXPECT_LE(b.value, optimum)
            << "trial " << trial << (direct ? " (direct)" : "") << ": " << b.name << " = "
            << b.value << " (" << b.argument << ") exceeds the optimum " << optimum;
    }
  }
  EXPECT_GT(checked, 300);
  std::printf("random tiny instances: %d checks, best bound = optimum in %d\n", checked, tight);
}

}  // namespace
}  // namespace ccsched
