// Gossip all-to-all broadcast: every schedule verifies, meets or stays near the lower
// bounds on small networks of each family (Cayley: torus, hypercube; non-Cayley: mesh,
// Kautz; switches: fat tree) under all-port and one port, declines what is not an
// all-to-all broadcast, and is the same for the same seed.
//
// DISABLED_Scale is the benchmark of docs/ENGINES.md "Gossip all-to-all broadcast"; run it
// by hand on a Release build:
//   build/release/tests/engines/gossip_test --gtest_also_run_disabled_tests
//     --gtest_filter='*Scale*'   (one command line)
// (GOSSIP_SCALE="kautz:3,4 all;torus:32x32 1" picks the cases).
#include "ccsched/engines/gossip.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "../support/solve_check.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// `ports` nullopt is all-port here, also on networks whose default is one port.
Problem make_problem(const std::string& spec, std::optional<int> ports,
                     CollectiveKind kind = CollectiveKind::AAB,
                     const std::vector<std::string>& faults = {}) {
  Problem p = testing_support::make_problem(spec, kind, std::nullopt, faults);
  p.model.ports = ports;
  return p;
}

struct Case {
  std::string spec;
  std::optional<int> ports;  // nullopt = all-port
  int slack;                 // steps allowed above the best lower bound
};

std::string describe(const Case& c) {
  return c.spec + (c.ports ? " ports " + std::to_string(*c.ports) : " all-port");
}

// Small networks of every family: valid, never under the bound (that would expose a
// verifier or bound bug), and within the stated slack of it: the translations on Cayley
// graphs, the Hamiltonian pipelines (mesh snakes in 2-D and 3-D, the Kautz Eulerian
// circuit, the Warnsdorff search on Levi and de Bruijn) and the neighbour gossip on these
// small cases all reach the bound.
TEST(Gossip, SmallNetworksVerifyAndMeetTheBounds) {
  const std::vector<Case> cases = {
      {"torus:4x4", std::nullopt, 0},
      {"torus:4x4", 1, 0},
      {"torus:3x5", 3, 0},
      {"hypercube:4", std::nullopt, 0},
      {"hypercube:4", 1, 0},
      {"hypercube:4", 2, 0},
      {"hypercube:6", 3, 0},
      {"torus:4x4", 3, 0},
      {"kautz:2,3", std::nullopt, 0},
      {"kautz:2,3", 1, 0},
      {"kautz:2,3", 2, 0},
      {"kautz:3,3", std::nullopt, 0},
      {"mesh:3x4", std::nullopt, 0},
      {"mesh:3x4", 1, 0},
      {"mesh:3x4", 2, 0},
      {"fattree:16", 1, 0},
      {"fattree:16", std::nullopt, 0},
      {"ring:7", std::nullopt, 0},
      {"mesh:2x3x4", 1, 0},
      {"levi", 1, 0},
      {"debruijn:2,3", 1, 0},
      // Odd x odd: bipartite with 5 + 4 processors, so no step lets all 9 receive under one
      // port and the bound 8 is out of reach; the neighbour gossip takes 10.
      {"mesh:3x3", 1, 2}};
  for (const auto& c : cases) {
    SCOPED_TRACE(describe(c));
    const Problem p = make_problem(c.spec, c.ports);
    const auto s = gossip_schedule(p, 1, Budget(30.0));
    ASSERT_TRUE(s.has_value());
    const auto violations = verify_schedule(*s);
    EXPECT_TRUE(violations.empty()) << violations.front().text;
    const int bound = lower_bounds(p, PathSet(p.topology, p.model)).best;
    EXPECT_GE(s->steps, bound);
    EXPECT_LE(s->steps, bound + c.slack);
  }
}

// Single hops only on direct networks, so the schedule also holds under store-and-forward.
TEST(Gossip, DirectNetworksNeedNoWormhole) {
  for (const std::string spec : {"torus:3x5", "kautz:3,2", "mesh:4x4"}) {
    SCOPED_TRACE(spec);
    Problem p = make_problem(spec, std::nullopt);
    p.model.switching = Switching::store_and_forward;
    const auto s = gossip_schedule(p, 3, Budget(30.0));
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(verify_schedule(*s).empty());
    for (const auto& tr : s->transfers) EXPECT_EQ(tr.path.size(), 2U);
  }
}

// A fault breaks the torus's translations; the neighbour gossip still delivers everything.
TEST(Gossip, FaultyTorusFallsBackToNeighbourGossip) {
  const Problem p = make_problem("torus:4x4", std::nullopt, CollectiveKind::AAB, {"0-1"});
  const auto s = gossip_schedule(p, 1, Budget(30.0));
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(verify_schedule(*s).empty());
  const int bound = lower_bounds(p, PathSet(p.topology, p.model)).best;
  EXPECT_GE(s->steps, bound);
  EXPECT_LE(s->steps, bound + 2);
}

TEST(Gossip, DeclinesOtherCollectives) {
  EXPECT_FALSE(gossip_schedule(make_problem("torus:4x4", std::nullopt, CollectiveKind::AAS), 1,
                               Budget(10.0)));
  EXPECT_FALSE(gossip_schedule(make_problem("torus:4x4", std::nullopt, CollectiveKind::OAB), 1,
                               Budget(10.0)));
}

TEST(Gossip, SameSeedSameSchedule) {
  for (const std::string spec : {"kautz:2,4", "mesh:5x5"}) {
    SCOPED_TRACE(spec);
    const Problem p = make_problem(spec, std::nullopt);
    const auto a = gossip_schedule(p, 7, Budget(30.0));
    const auto b = gossip_schedule(p, 7, Budget(30.0));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(write_schedule_json(*a), write_schedule_json(*b));
  }
}

// The translation at the reception bound ceil((P-1)/min(k, degree)) on tori and hypercubes:
// the schedule verifies, meets the bound, is written in step order (no sort), and the
// predicate the driver's constructive row reads agrees with it; on a spent budget the
// translation (bounded work, the design itself) still answers. Not on a mesh (no
// translations), a faulty torus, or an all-to-all scatter.
TEST(Gossip, TranslationMeetsTheReceptionBound) {
  for (const auto& [spec, ports] : std::vector<std::pair<std::string, std::optional<int>>>{
           {"torus:8x8", std::nullopt}, {"torus:16x16", std::nullopt}, {"torus:8x8", 2},
           {"hypercube:6", std::nullopt}}) {
    SCOPED_TRACE(spec);
    const Problem p = make_problem(spec, ports);
    ASSERT_TRUE(gossip_meets_reception_bound(p, 1));
    const int P = p.topology.processor_count();
    const int degree = static_cast<int>(p.topology.in_channels(0).size());
    const int k = ports ? std::min(*ports, degree) : degree;
    const int bound = (P - 2 + k) / k;
    const Budget spent(0.0);
    ASSERT_TRUE(spent.expired());
    for (const Budget* budget : {static_cast<const Budget*>(nullptr), &spent}) {
      const auto s = gossip_schedule(p, 1, budget ? *budget : Budget(30.0));
      ASSERT_TRUE(s.has_value());
      const auto violations = verify_schedule(*s);
      EXPECT_TRUE(violations.empty()) << violations.front().text;
      EXPECT_EQ(s->steps, bound);
      EXPECT_EQ(s->transfers.size(), static_cast<std::size_t>(P) * (P - 1));
      EXPECT_TRUE(std::is_sorted(s->transfers.begin(), s->transfers.end(),
                                 [](const Transfer& a, const Transfer& b) { return a.step < b.step; }));
    }
  }
  EXPECT_FALSE(gossip_meets_reception_bound(make_problem("mesh:8x8", std::nullopt), 1));
  EXPECT_FALSE(gossip_meets_reception_bound(
      make_problem("torus:8x8", std::nullopt, CollectiveKind::AAB, {"0-1"}), 1));
  EXPECT_FALSE(gossip_meets_reception_bound(
      make_problem("torus:8x8", std::nullopt, CollectiveKind::AAS), 1));
}

// Benchmark (by hand): steps, bound, seconds and peak resident memory per case.
TEST(Gossip, DISABLED_Scale) {
  std::string cases =
      "kautz:3,4 all;kautz:3,4 1;kautz:3,5 all;kautz:3,5 1;hypercube:8 all;"
      "hypercube:8 1;hypercube:10 all;hypercube:10 1;torus:16x16 all;"
      "torus:16x16 1;mesh:16x16 all;mesh:16x16 1;torus:32x32 all;torus:32x32 1;"
      "mesh:32x32 all;mesh:32x32 1;fattree:1024 all;fattree:1024 1";
  if (const char* env = std::getenv("GOSSIP_SCALE")) cases = env;
  std::istringstream list(cases);
  std::string item;
  std::printf("%-14s %-5s %6s %6s %8s %8s\n", "network", "ports", "steps", "bound", "seconds",
              "peak MB");
  while (std::getline(list, item, ';')) {
    std::istringstream fields(item);
    std::string spec, ports;
    fields >> spec >> ports;
    const Problem p =
        make_problem(spec, ports == "all" ? std::nullopt : std::optional<int>(std::stoi(ports)));
    const auto start = std::chrono::steady_clock::now();
    const auto s = gossip_schedule(p, 1, Budget(120.0));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    BoundOptions options;
    options.time_limit = 30.0;
    const int bound = lower_bounds(p, PathSet(p.topology, p.model), options).best;
    std::printf("%-14s %-5s %6d %6d %8.2f %8ld\n", spec.c_str(), ports.c_str(), s ? s->steps : -1,
                bound, seconds, usage.ru_maxrss / 1024);
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace ccsched
