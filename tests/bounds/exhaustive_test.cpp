// Cross-checks of the bounds against brute force, written independently of the bounds code
// and of the routing module (the reference routes and optima come from the oracle,
// tests/support/oracle.hpp, which shares no code with src/routing, src/bounds or
// src/engines):
//
//  1. The cut bound's search finds the best of all 2^n cuts on small networks, where the
//     crossings of each cut are counted over the oracle's allowed routes.
//  2. On random tiny networks and collectives, no bound exceeds the true optimum, the
//     oracle's exhaustive search over the sets of processors holding each message (relays
//     included; with `direct_scatter`, against the optimum under direct delivery).
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
#include "../support/oracle.hpp"

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
long long exhaustive_cut_value(const Problem& p, bool direct) {
  const auto& t = p.topology;
  const auto hops = oracle::all_pair_hops(t);
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
        for (const auto& path : oracle::allowed_routes(t, p.model, hops, m.origin, m.targets[0])) {
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
      EXPECT_EQ(reported(report, "cut"), exhaustive_cut_value(p, direct))
          << c.spec << " " << to_string(c.kind) << (direct ? " direct" : "");
    }
  }
}

// --- 2. random tiny instances against the exact optimum -------------------------------

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
      oracle::Options search;
      search.max_steps = 8;
      search.direct_scatter = direct;
      search.max_work = 2'000'000;
      const auto truth = oracle::minimum_steps(p, search);
      BoundReport report;
      try {
        report = lower_bounds(p, paths, options);
      } catch (const Error& e) {
        // Refusing is right only where no schedule exists (some target unreachable).
        EXPECT_NE(truth.status, oracle::Status::solved)
            << "trial " << trial << (direct ? " (direct)" : "") << ": bounds refused (" << e.what()
            << ") but the oracle schedules it in " << truth.steps << " steps";
        continue;
      }
      if (truth.status != oracle::Status::solved) continue;
      const int optimum = truth.steps;
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

// The weighted-load bound (LP dual of channel-load, docs/BOUNDS.md §weighted-load) on
// random tiny networks with many scatter messages between few pairs, where shortest routes
// crowd a channel and the weights matter: never above the oracle's optimum (relays
// included, or direct delivery with --direct), and it must fire on some of them.
TEST(WeightedLoad, NeverAboveTheOptimum) {
  std::mt19937 rng(20261124);
  int fired = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 6)(rng);
    Problem p{random_network(rng, n), {}, {}};
    if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) p.model.ports = 1;
    const std::vector<NodeId> procs(p.topology.processors().begin(),
                                    p.topology.processors().end());
    std::uniform_int_distribution<std::size_t> pick(0, procs.size() - 1);
    p.collective.kind = CollectiveKind::CUSTOM;
    const NodeId a = procs[pick(rng)], b = procs[pick(rng)];
    const int count = std::uniform_int_distribution<int>(4, 9)(rng);
    for (int i = 0; i < count; ++i) {
      // Mostly one hot pair, some others.
      NodeId o = a, d = b;
      if (i % 3 == 2) {
        o = procs[pick(rng)];
        d = procs[pick(rng)];
      }
      if (o != d)
        p.collective.messages.push_back({static_cast<MessageId>(p.collective.messages.size()), o, {d}});
    }
    if (p.collective.messages.empty()) continue;
    std::set<NodeId> senders, receivers;
    for (const auto& m : p.collective.messages) {
      senders.insert(m.origin);
      receivers.insert(m.targets[0]);
    }
    p.collective.senders.assign(senders.begin(), senders.end());
    p.collective.receivers.assign(receivers.begin(), receivers.end());
    const PathSet paths(p.topology, p.model);
    for (const bool direct : {false, true}) {
      BoundOptions options;
      options.direct_scatter = direct;
      BoundReport report;
      try {
        report = lower_bounds(p, paths, options);
      } catch (const Error&) {
        continue;  // some target unreachable
      }
      const auto it = std::find_if(report.bounds.begin(), report.bounds.end(),
                                   [](const LowerBound& x) { return x.name == "weighted-load"; });
      if (it == report.bounds.end()) continue;
      oracle::Options search;
      search.max_steps = 9;
      search.direct_scatter = direct;
      search.max_work = 4'000'000;
      const auto truth = oracle::minimum_steps(p, search);
      if (truth.status != oracle::Status::solved) continue;
      ++fired;
      EXPECT_LE(it->value, truth.steps) << "trial " << trial << (direct ? " (direct)" : "")
                                        << ": " << it->argument;
    }
  }
  EXPECT_GE(fired, 5);
  std::printf("weighted-load fired and checked on %d tiny instances\n", fired);
}

// The subtree-entry bound (bounds/tree_bounds.cpp) on random trees of processors, every
// port model and switching mode: never above the oracle's optimum (relays included), and
// on the full binary tree of 63 processors 5 from every origin, the seeds' schedules' length
// (seed 001 Table 3; the informed-set bound says 4).
TEST(SubtreeEntry, NeverAboveTheOptimumOnRandomTrees) {
  std::mt19937 rng(20261124);
  int checked = 0, fired = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 8)(rng);
    Topology t("tree");
    for (int v = 0; v < n; ++v) t.add_node(NodeKind::processor);
    for (int v = 1; v < n; ++v)
      t.add_link(static_cast<NodeId>(std::uniform_int_distribution<int>(0, v - 1)(rng)),
                 static_cast<NodeId>(v));
    Problem p{t, {}, {}};
    const int ports = std::uniform_int_distribution<int>(0, 2)(rng);
    if (ports > 0) p.model.ports = ports;
    if (trial % 4 == 3) p.model.switching = Switching::store_and_forward;
    CollectiveRequest request;
    request.kind = CollectiveKind::OAB;
    request.root = std::to_string(std::uniform_int_distribution<int>(0, n - 1)(rng));
    p.collective = make_collective(p.topology, request);
    const PathSet paths(p.topology, p.model);
    const auto report = lower_bounds(p, paths);
    const auto it = std::find_if(report.bounds.begin(), report.bounds.end(),
                                 [](const LowerBound& b) { return b.name == "subtree-entry"; });
    ASSERT_NE(it, report.bounds.end()) << "trial " << trial;
    oracle::Options search;
    search.max_steps = 10;
    const auto truth = oracle::minimum_steps(p, search);
    if (truth.status != oracle::Status::solved) continue;
    ++checked;
    fired += it->value == report.best;
    EXPECT_LE(it->value, truth.steps) << "trial " << trial << ": " << it->argument;
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(fired, 0);
  const Topology tree = make_topology("fbtree:63");
  for (const int root : {0, 1, 3, 7, 15, 31, 62}) {
    Problem p{tree, {}, {}};
    CollectiveRequest request;
    request.kind = CollectiveKind::OAB;
    request.root = std::to_string(root);
    p.collective = make_collective(p.topology, request);
    EXPECT_EQ(lower_bounds(p, PathSet(p.topology, p.model)).best, 5) << "root " << root;
  }
}

}  // namespace
}  // namespace ccsched
