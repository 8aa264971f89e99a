// Reductions in the driver (engines/reduction.hpp): every closed-form design verifies on
// several networks; the driver's claims never exceed what is proven; the duality gives
// REDUCE the optimum of the reversed broadcast; the reduction bounds never exceed exact
// optima found by an independent breadth-first search over accumulator states.
#include "ccsched/engines/reduction.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <map>
#include <set>

#include "../support/reduction_problems.hpp"
#include "../support/solve_check.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using testing::make_reduction_problem;

SolveOutcome solve(const Problem& p, double seconds = 20.0) {
  SolveRequest request;
  request.time_limit = seconds;
  return solve_problem(p, request);
}

using testing_support::expect_honest;

TEST(ReductionDesigns, EveryDesignVerifiesOnEveryNetwork) {
  const std::vector<std::string> nets = {"ring:8",   "hypercube:3", "hypercube:4",
                                         "torus:4x4", "kautz:2,2",  "complete:5", "omega:8"};
  int designs = 0;
  for (const auto& net : nets)
    for (auto kind : {CollectiveKind::ALLREDUCE, CollectiveKind::REDUCESCATTER,
                      CollectiveKind::SCAN}) {
      for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
        const int procs = make_topology(net).processor_count();
        for (std::optional<int> blocks :
             {std::optional<int>(), std::optional<int>(procs)}) {
          if (kind == CollectiveKind::REDUCESCATTER && blocks) continue;  // = receivers
          Problem p = make_reduction_problem(net, kind, ports, blocks);
          const PathSet paths(p.topology, p.model);
          for (const auto& d : reduction_designs(p, paths)) {
            ++designs;
            const auto v = verify_schedule(d.schedule);
            if (!v.empty())
              ADD_FAILURE() << net << " " << to_string(kind) << " " << d.design << ": "
                            << v.front().text;
          }
        }
      }
    }
  EXPECT_GE(designs, 40);  // the designs do apply (not a vacuous loop)
}

TEST(ReductionDesigns, RecursiveDoublingOnHypercubesAndTori) {
  for (const std::string net : {"hypercube:4", "torus:4x4"}) {
    Problem p = make_reduction_problem(net, CollectiveKind::ALLREDUCE, 1);
    const PathSet paths(p.topology, p.model);
    int best = 1 << 30;
    for (const auto& d : reduction_designs(p, paths))
      if (d.design.rfind("recursive-doubling", 0) == 0) best = std::min(best, d.schedule.steps);
    EXPECT_EQ(best, 4) << net;  // log2 16 exchanges, each fits in one step
  }
}

// Dimension-wise exchanges (Swing and XOR peers, dimensions in turn or overlapped): every
// variant verifies on tori and meshes with power-of-two sides, 2-D and 3-D; the peer
// sequences are involutions whose unions cover each ring (or the verifier would find a
// lost or doubled input), and the overlapped packing only pairs nodes of equal progress.
TEST(ReductionDesigns, DimensionWiseExchangesVerify) {
  for (const std::string net : {"torus:8x8", "torus:4x8", "mesh:8x8", "torus:2x4x4", "mesh:4x2"}) {
    Problem p = make_reduction_problem(net, CollectiveKind::ALLREDUCE, 1);
    const PathSet paths(p.topology, p.model);
    std::set<std::string> seen;
    for (const auto& d : reduction_designs(p, paths)) {
      if (d.design.rfind("dimension-wise", 0) != 0) continue;
      seen.insert(d.design);
      const auto v = verify_schedule(d.schedule);
      if (!v.empty()) ADD_FAILURE() << net << " " << d.design << ": " << v.front().text;
    }
    EXPECT_EQ(seen.size(), 4U) << net;  // swing / XOR, in turn / overlapped all apply
  }
  // Not a grid of power-of-two sides: no dimension-wise design.
  for (const std::string net : {"torus:3x4", "hypercube:4"}) {
    Problem p = make_reduction_problem(net, CollectiveKind::ALLREDUCE, 1);
    const PathSet paths(p.topology, p.model);
    for (const auto& d : reduction_designs(p, paths))
      EXPECT_NE(d.design.rfind("dimension-wise", 0), 0U) << net << " " << d.design;
  }
}

// torus:8x8 ALLREDUCE 1-port: Swing's distances 1, 1, 3 need 1 + 1 + 2 channel-disjoint
// steps per ring, 8 in turn; overlapping the dimensions saves steps. The target is
// at most 8 (bound 6); the driver must find it and keep its claims honest.
TEST(ReductionDesigns, DimensionWiseOnTorus8x8) {
  Problem p = make_reduction_problem("torus:8x8", CollectiveKind::ALLREDUCE, 1);
  const PathSet paths(p.topology, p.model);
  std::map<std::string, int> steps;
  for (const auto& d : reduction_designs(p, paths)) steps[d.design] = d.schedule.steps;
  EXPECT_EQ(steps["dimension-wise swing (dimensions in turn)"], 8);
  EXPECT_LT(steps["dimension-wise swing (dimensions overlapped)"], 8);
  const auto out = solve(p, 10.0);
  expect_honest(out, "torus:8x8");
  EXPECT_LE(out.schedule->steps, 8);
  EXPECT_GE(out.lower_bound, 6);
}

// The ring reduce-scatter on a mesh runs over a Hamiltonian cycle of neighbours (the snake
// that a grid with an even side has): every hop is one channel, each round one step, so
// p - 1 steps under one port and all-port alike -- the one-port bound. With an id-order
// cycle instead the row ends jump back across the mesh and rounds collide. Both sides odd:
// no such cycle (bipartite, odd count); the ring still verifies, over a longer hop.
TEST(ReductionDesigns, RingOnMeshesFollowsAHamiltonianCycle) {
  for (const std::string net : {"mesh:8x8", "mesh:6x5", "mesh:5x6", "torus:4x6"})
    for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
      Problem p = make_reduction_problem(net, CollectiveKind::REDUCESCATTER, ports);
      const PathSet paths(p.topology, p.model);
      const int procs = p.topology.processor_count();
      bool found = false;
      for (const auto& d : reduction_designs(p, paths)) {
        if (d.design != "ring") continue;
        found = true;
        const auto v = verify_schedule(d.schedule);
        if (!v.empty()) ADD_FAILURE() << net << ": " << v.front().text;
        EXPECT_EQ(d.schedule.steps, procs - 1) << net;
        for (const Transfer& t : d.schedule.transfers)
          ASSERT_EQ(t.path.size(), 2U) << net << ": a ring hop between non-neighbours";
      }
      EXPECT_TRUE(found) << net;
    }
  Problem odd = make_reduction_problem("mesh:3x3", CollectiveKind::REDUCESCATTER, 1);
  const PathSet paths(odd.topology, odd.model);
  for (const auto& d : reduction_designs(odd, paths))
    if (d.design == "ring") {
      const auto v = verify_schedule(d.schedule);
      EXPECT_TRUE(v.empty()) << (v.empty() ? "" : v.front().text);
      EXPECT_GE(d.schedule.steps, 8);
    }
}

// The dual broadcast runs on G itself when G^R is G, so that designs recognising G by its
// name apply: one-port REDUCE on a torus or mesh is the 10-step halving broadcast on
// torus:32x32 (docs/BENCHMARKS.md, "Scale"), log2 p here. A directed network keeps the reversed copy.
TEST(ReductionDriver, OnePortReduceOnGridsIsTheHalvingDual) {
  for (const std::string net : {"torus:8x8", "mesh:8x8", "mesh:4x8"}) {
    Problem p = make_reduction_problem(net, CollectiveKind::REDUCE, 1);
    EXPECT_EQ(dual_network(p.topology).name(), p.topology.name());
    const auto out = solve(p, 10.0);
    expect_honest(out, net);
    const int log2p = std::countr_zero(static_cast<unsigned>(p.topology.processor_count()));
    EXPECT_EQ(out.schedule->steps, log2p) << net;
    EXPECT_TRUE(out.optimal) << net;
    ASSERT_TRUE(out.schedule->solver.has_value());
    EXPECT_EQ(out.schedule->solver->engine, "reduce-dual(region broadcast)") << net;
  }
  const Topology kautz = make_topology("kautz:2,2");
  const Topology dual = dual_network(kautz);
  EXPECT_NE(dual.name(), kautz.name());
  EXPECT_TRUE(dual.same_network(reversed_topology(kautz)));
  EXPECT_FALSE(dual.same_network(kautz));
}

// Past 256 processors a SCAN takes the dual gather's bound (a broadcast from the last
// sender on G^R) from the bounds alone, without the broadcast search: at least that
// broadcast's bound, never above the schedule.
TEST(ReductionDriver, LargeScanTakesTheDualBoundWithoutSearch) {
  for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
    Problem p = make_reduction_problem("hypercube:9", CollectiveKind::SCAN, ports);
    SolveRequest request;
    request.time_limit = 20.0;
    // as `ccsched solve` caps the lists where pairs have 9! minimal paths
    request.path_limits.truncate = true;
    request.path_limits.max_paths_per_pair = 32;
    const auto out = solve_problem(p, request);
    expect_honest(out, "hypercube:9 SCAN");
    Problem bcast{dual_network(p.topology), {}, p.model};
    CollectiveRequest oab;
    oab.kind = CollectiveKind::OAB;
    oab.root = std::to_string(p.collective.senders.back());
    bcast.collective = make_collective(bcast.topology, oab);
    const PathSet paths(bcast.topology, bcast.model, request.path_limits);
    EXPECT_GE(out.lower_bound, lower_bounds(bcast, paths).best);
    if (ports) {
      EXPECT_GE(out.lower_bound, 9);  // log2 512 under one port
    }
  }
}

TEST(ReductionDriver, HypercubeAllreduceOnePortIsProvenAtFourSteps) {
  const auto out = solve(make_reduction_problem("hypercube:4", CollectiveKind::ALLREDUCE, 1));
  expect_honest(out, "hypercube:4");
  EXPECT_EQ(out.schedule->steps, 4);
  EXPECT_TRUE(out.optimal);
  const auto info = std::find_if(out.bounds.bounds.begin(), out.bounds.bounds.end(),
                                 [](const LowerBound& b) { return b.name == "reduce-information"; });
  ASSERT_NE(info, out.bounds.bounds.end());
  EXPECT_EQ(info->value, 4);
}

TEST(ReductionDriver, FatTreeAllreduceIsProvenAtLog2Steps) {
  // fattree:N: one link per processor, so the reduce-information bound is log2 N, and the
  // fat tree's recursive doubling (engines/reduce/fattree.cpp) meets it under the default
  // all-port model.
  for (const std::string net : {"fattree:8", "fattree:64"}) {
    const auto out = solve(make_reduction_problem(net, CollectiveKind::ALLREDUCE, std::nullopt));
    expect_honest(out, net);
    ASSERT_TRUE(out.schedule.has_value()) << net;
    EXPECT_EQ(out.schedule->steps, net == "fattree:8" ? 3 : 6) << net;
    EXPECT_TRUE(out.optimal) << net;
  }
}

TEST(ReductionDriver, ClaimsOnSeveralNetworksAndKinds) {
  for (const std::string net : {"ring:8", "torus:4x4", "kautz:2,2", "complete:5"})
    for (auto kind : {CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE,
                      CollectiveKind::REDUCESCATTER, CollectiveKind::SCAN})
      for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
        const auto out = solve(make_reduction_problem(net, kind, ports), 5.0);
        expect_honest(out, net + " " + std::string(to_string(kind)));
      }
}

TEST(ReductionDriver, StoreAndForwardReductions) {
  for (auto kind : {CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE, CollectiveKind::SCAN}) {
    const auto out =
        solve(make_reduction_problem("ring:6", kind, 1, std::nullopt, Switching::store_and_forward), 5.0);
    expect_honest(out, "ring:6 sf " + std::string(to_string(kind)));
  }
}

// REDUCE on G is the broadcast on the reversed network run backwards: the same optimum.
TEST(ReductionDriver, ReduceMatchesTheReversedBroadcastOptimum) {
  for (const std::string net : {"kautz:2,2", "ring:7", "hypercube:3"})
    for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
      Problem reduce = make_reduction_problem(net, CollectiveKind::REDUCE, ports);
      const auto r = solve(reduce);
      expect_honest(r, net + " REDUCE");
      Problem bcast{reversed_topology(reduce.topology), {}, reduce.model};
      CollectiveRequest request;
      request.kind = CollectiveKind::OAB;
      request.root = std::to_string(reduce.collective.receivers.front());
      bcast.collective = make_collective(bcast.topology, request);
      const auto b = solve(bcast);
      ASSERT_TRUE(b.optimal && r.optimal) << net;
      EXPECT_EQ(r.schedule->steps, b.schedule->steps) << net;
    }
}

// Exact optimum of a tiny reduction by breadth-first search over accumulator states
// (1 block, 1-port, store-and-forward over single channels so the moves are few): each
// step every processor sends at most one value (its accumulator) to a neighbour and
// receives at most one, reducing it when disjoint. Copies never help reach a sum sooner
// than the reduce of the same value, so the search leaves them out: this is the exact
// optimum over reduce-only schedules, an upper bound on the true optimum, and every lower
// bound must stay at or below the true optimum — so it is checked against the searched
// value only where the bound is met (bound == found optimum) or below it.
int exact_reduce_only(const Problem& p, int limit) {
  const Topology& t = p.topology;
  const int n = t.processor_count();
  const auto targets = reduction_targets(p.collective);
  using State = std::vector<unsigned>;
  State start(n, 0);
  for (int i = 0; i < static_cast<int>(p.collective.senders.size()); ++i)
    start[p.collective.senders[i]] |= 1U << i;
  auto done = [&](const State& s) {
    for (const auto& tg : targets) {
      unsigned want = 0;
      for (int i : tg.senders) want |= 1U << i;
      if (s[tg.node] != want) return false;
    }
    return true;
  };
  std::set<State> frontier{start};
  for (int step = 0; step <= limit; ++step) {
    for (const auto& s : frontier)
      if (done(s)) return step;
    std::set<State> next;
    for (const auto& s : frontier) {
      // every assignment: node u sends to one out-neighbour or not at all; receivers at
      // most one value; the value is reduced when disjoint
      std::vector<NodeId> target(n, -1);
      std::function<void(int, std::vector<char>&)> rec = [&](int u, std::vector<char>& busy) {
        if (u == n) {
          State ns = s;
          for (int v = 0; v < n; ++v)
            if (target[v] >= 0) ns[target[v]] |= s[v];
          next.insert(ns);
          return;
        }
        target[u] = -1;
        rec(u + 1, busy);
        if (s[u] == 0) return;
        for (ChannelId c : t.out_channels(u)) {
          const NodeId v = t.channel(c).to;
          if (busy[v] || (s[u] & s[v]) != 0) continue;
          busy[v] = 1;
          target[u] = v;
          rec(u + 1, busy);
          busy[v] = 0;
          target[u] = -1;
        }
      };
      std::vector<char> busy(n, 0);
      rec(0, busy);
    }
    frontier = std::move(next);
  }
  return -1;
}

TEST(ReductionBounds, NeverAboveTheOptimumOnTinyNetworks) {
  for (const std::string net : {"ring:4", "complete:4", "hypercube:2"})
    for (auto kind : {CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE, CollectiveKind::SCAN}) {
      // hypercube:2 (the 4-cycle 0-1-3-2) has no channel 1-2 between SCAN neighbours,
      // and neither the search below nor the designs relay under store-and-forward.
      if (net == "hypercube:2" && kind == CollectiveKind::SCAN) continue;
      Problem p = make_reduction_problem(net, kind, 1, std::nullopt, Switching::store_and_forward);
      const PathSet paths(p.topology, p.model);
      const int bound = lower_bounds(p, paths).best;
      const int reduce_only = exact_reduce_only(p, 6);
      ASSERT_GT(reduce_only, 0) << net;
      const auto out = solve(p, 5.0);
      expect_honest(out, net);
      // The bound is valid for the driver's schedule and for the reduce-only optimum.
      EXPECT_LE(bound, reduce_only) << net << " " << to_string(kind);
      EXPECT_LE(bound, out.schedule->steps) << net << " " << to_string(kind);
    }
  // ring:4 ALLREDUCE 1-port: information 2 steps (log2 4), and 2 steps are reachable.
  Problem p = make_reduction_problem("ring:4", CollectiveKind::ALLREDUCE, 1, std::nullopt,
                           Switching::store_and_forward);
  EXPECT_EQ(exact_reduce_only(p, 6), 2);
  EXPECT_EQ(solve(p).schedule->steps, 2);
}

TEST(ReductionBounds, ReduceScatterMergeCountOnePort) {
  Problem p = make_reduction_problem("torus:4x4", CollectiveKind::REDUCESCATTER, 1);
  const PathSet paths(p.topology, p.model);
  const auto report = lower_bounds(p, paths);
  EXPECT_EQ(report.best, 15);  // 16 blocks x 15 merges / 16 receptions per step
  const auto out = solve(p, 10.0);
  expect_honest(out, "torus:4x4 RS");
}

}  // namespace
}  // namespace ccsched
