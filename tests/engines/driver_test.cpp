// The driver's strategy table (docs/ENGINES.md, "The driver"): which strategy answers a
// set of known problems, with what step count and what claim. Pinned before the driver
// became a table and kept since, so that a change to the table's order, its shares or a
// strategy's applicability that moves a winner shows up here (and is then either a bug or
// an intended change, recorded in this table). Every schedule also passes the verifier
// and honours its claims.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <tuple>
#include <string>
#include <vector>

#include "../support/slowdown.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "../support/solve_check.hpp"

namespace ccsched {
namespace {

struct Pinned {
  std::string spec;
  CollectiveKind kind;
  std::optional<int> ports;             // nullopt: the network's default model
  std::vector<std::string> faults;
  Switching switching = Switching::wormhole;
  double relay_time_limit = 60.0;
  int steps;
  int lower_bound;
  bool optimal;
  std::string optimal_within;
  std::string winner;                   // the schedule's solver.engine
};

Problem make_problem(const Pinned& c) {
  Problem p = testing_support::make_problem(c.spec, c.kind, std::nullopt, c.faults);
  if (c.ports) p.model.ports = *c.ports == 0 ? std::nullopt : c.ports;
  p.model.switching = c.switching;
  return p;
}

std::string describe(const Pinned& c) {
  std::string s = c.spec + " " + std::string(to_string(c.kind));
  if (c.ports) s += " --ports " + (*c.ports == 0 ? std::string("all") : std::to_string(*c.ports));
  for (const auto& f : c.faults) s += " --fault " + f;
  if (c.switching == Switching::store_and_forward) s += " --switching sf";
  if (c.relay_time_limit == 0) s += " --relay-time-limit 0";
  return s;
}

using K = CollectiveKind;
constexpr auto kSf = Switching::store_and_forward;
constexpr auto kWh = Switching::wormhole;

const std::vector<Pinned>& pinned_cases() {
  static const std::vector<Pinned> cases = {
      // One-message broadcasts: the hypercube and region broadcasts meet the bound.
      {"hypercube:4", K::OAB, {}, {}, kWh, 60, 2, 2, true, "", "hypercube broadcast"},
      {"fbtree:15", K::OAB, 1, {}, kWh, 60, 4, 4, true, "", "region broadcast"},
      {"mesh:3x3", K::OAB, 1, {"0-1"}, kWh, 60, 4, 4, true, "", "region broadcast"},
      // All-to-all broadcasts: gossip, or the constructive designs.
      {"torus:4x4", K::AAB, {}, {}, kWh, 60, 4, 4, true, "", "gossip"},
      {"petersen", K::AAB, {}, {}, kWh, 60, 3, 3, true, "", "gossip"},
      {"ring:6", K::AAB, 1, {}, kSf, 60, 5, 5, true, "", "gossip"},
      {"heawood", K::AAB, 1, {}, kWh, 60, 13, 13, true, "", "constructive"},
      {"petersen", K::AAB, 1, {}, kWh, 60, 9, 9, true, "", "sat-symmetric"},
      // All-to-all scatters: grid designs, constructive, relay job shop, symmetric SAT.
      {"ring:8", K::AAS, {}, {}, kWh, 60, 8, 8, true, "", "grid-design"},
      {"mesh:3x4", K::AAS, {}, {}, kWh, 60, 12, 12, true, "", "grid-design"},
      {"hypercube:4", K::AAS, {}, {}, kWh, 60, 8, 8, true, "", "constructive"},
      {"omega:8", K::AAS, {}, {}, kWh, 60, 7, 7, true, "", "constructive"},
      {"kautz:3,2", K::AAS, {}, {}, kWh, 60, 7, 7, true, "", "relay job shop"},
      {"torus:4x4", K::AAS, {}, {"0-1"}, kWh, 60, 10, 10, true, "", "relay job shop"},
      {"kautz:3,2", K::AAS, {}, {}, kWh, 0, 7, 7, true, "", "sat-symmetric"},
      {"btree:8", K::AAS, {}, {}, kWh, 60, 16, 16, true, "", "sat-symmetric"},
      {"octagon", K::AAS, 1, {}, kWh, 60, 7, 7, true, "", "sat-symmetric"},
      {"ring:7", K::AAS, 1, {}, kWh, 60, 6, 6, true, "", "sat"},
      // Gather: the gather design meets the bound (docs/ENGINES.md "Gather designs").
      {"mesh:3x3", K::AOG, {}, {}, kWh, 60, 4, 4, true, "", "gather"},
      // Direct delivery only (the seeds' model): 4 steps proven infeasible inside it.
      {"kautz:3,2", K::OAS, {}, {"10-02"}, kWh, 0, 5, 4, false, "direct delivery", "greedy"},
      {"kautz:3,2", K::OAS, {}, {"10-02"}, kWh, 60, 4, 4, true, "", "relay job shop"},
      // Reductions: the dual broadcast, the exact search, the designs.
      {"ring:8", K::REDUCE, {}, {}, kWh, 60, 2, 2, true, "", "reduce-dual(region broadcast)"},
      {"hypercube:6", K::REDUCE, {}, {}, kWh, 60, 3, 3, true, "",
       "reduce-dual(hypercube broadcast)"},
      // REDUCESCATTER: the lockstep translated trees meet reduce-merge (docs/ENGINES.md,
      // "Several blocks"), a row before the dual broadcast.
      {"torus:4x4", K::REDUCESCATTER, {}, {}, kWh, 60, 4, 4, true, "",
       "pipelined trees, translated (lockstep)"},
      {"ring:6", K::ALLREDUCE, {}, {}, kWh, 60, 3, 3, true, "", "reduction-sat"},
      {"ring:4", K::SCAN, {}, {}, kWh, 60, 2, 2, true, "", "hillis-steele"},
  };
  return cases;
}

TEST(DriverTable, PinnedWinners) {
  for (const Pinned& c : pinned_cases()) {
    SCOPED_TRACE(describe(c));
    SolveRequest request;
    request.relay_time_limit = c.relay_time_limit;
    request.time_limit = 120.0;  // an outer cap only: every case answers in about a second
    // Verified, and its claims honest (tests/support/solve_check.hpp).
    const SolveOutcome out = testing_support::solve_checked(make_problem(c), request, describe(c));
    ASSERT_TRUE(out.schedule.has_value()) << out.reason;
    const Schedule& s = *out.schedule;
    EXPECT_EQ(s.steps, c.steps) << out.reason;
    EXPECT_EQ(out.lower_bound, c.lower_bound) << out.reason;
    EXPECT_EQ(out.optimal, c.optimal) << out.reason;
    EXPECT_EQ(out.optimal_within, c.optimal_within) << out.reason;
    ASSERT_TRUE(s.solver.has_value());
    EXPECT_EQ(s.solver->engine, c.winner) << out.reason;
    EXPECT_EQ(s.lower_bound, out.lower_bound);
  }
}

// The same problem solved twice, the second time with every core kept busy: the same
// transfers, since every search stops on its work allowance, not on the clock
// (docs/ARCHITECTURE.md, "Budgets"). The problems go through the searches (symmetric
// encodings, the SAT descent, the window search), not only through designs.
TEST(Determinism, BusyMachineSameSchedule) {
  using Key = std::tuple<Step, std::vector<NodeId>, std::vector<MessageId>>;
  auto transfers = [](const Schedule& s) {
    std::vector<Key> keys;
    for (const Transfer& t : s.transfers) keys.emplace_back(t.step, t.path, t.messages);
    return keys;
  };
  const std::vector<Pinned> problems = {
      {"ring:7", K::AAS, 1, {}, kWh, 60, 0, 0, false, "", ""},
      {"btree:8", K::AAS, {}, {}, kWh, 60, 0, 0, false, "", ""},
      {"octagon", K::AAS, 1, {}, kWh, 60, 0, 0, false, "", ""},
  };
  for (const Pinned& c : problems) {
    SCOPED_TRACE(describe(c));
    const Problem p = make_problem(c);
    SolveRequest request;
    request.time_limit = 600.0;  // a cap far above the work the problems take
    const SolveOutcome quiet = solve_problem(p, request);
    std::atomic<bool> stop{false};
    std::vector<std::jthread> load;
    for (unsigned i = 0; i < std::max(2u, std::thread::hardware_concurrency()); ++i)
      load.emplace_back([&stop] {
        volatile std::uint64_t x = 0;
        while (!stop.load(std::memory_order_relaxed)) x = x + 1;
      });
    const SolveOutcome busy = solve_problem(p, request);
    stop = true;
    ASSERT_TRUE(quiet.schedule && busy.schedule);
    EXPECT_FALSE(quiet.clock_cut);
    EXPECT_FALSE(busy.clock_cut);
    EXPECT_EQ(quiet.schedule->solver->engine, busy.schedule->solver->engine);
    EXPECT_EQ(transfers(*quiet.schedule), transfers(*busy.schedule));
    EXPECT_EQ(quiet.optimal, busy.optimal);
  }
}

// A limit never hides an answer: with a limit L the result is at least as good as what an
// unlimited run reaches within L/2. Heawood AAS reaches 9 steps, proven, in about 9 s of
// work on the machines of docs/BENCHMARKS.md, so with L = 20 s it gives 9, proven (before
// the work-budgeted driver the shares of a 20 s limit starved the symmetric search and the
// answer was 10). On a machine so loaded that the limited run falls short, the unlimited
// run must then also need more than L/2: the property, not the machine's speed, is tested.
TEST(Limits, HeawoodWithinTwentySecondsIsProvenOptimal) {
  const Pinned c{"heawood", K::AAS, {}, {}, kWh, 60, 9, 9, true, "", "sat-symmetric"};
  const Problem p = make_problem(c);
  SolveRequest request;
  request.time_limit = 20.0 * testing::kSlow;
  const SolveOutcome limited = solve_problem(p, request);
  ASSERT_TRUE(limited.schedule.has_value()) << limited.reason;
  if (limited.schedule->steps == 9 && limited.optimal) {
    EXPECT_EQ(limited.schedule->solver->engine, "sat-symmetric");
    return;
  }
  EXPECT_TRUE(limited.clock_cut) << limited.reason;
  request.time_limit = 0;
  const auto start = std::chrono::steady_clock::now();
  const SolveOutcome unlimited = solve_problem(p, request);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(unlimited.schedule.has_value());
  EXPECT_EQ(unlimited.schedule->steps, 9);
  EXPECT_GT(seconds, 10.0 * testing::kSlow)
      << "the unlimited run reached 9 steps within half the limit, the limited run gave "
      << limited.schedule->steps;
}

// The default limit comes from the library, by the network's size: large networks answer
// within a minute; small ones have an outer cap, so that no run without --time-limit goes
// on for hours (Kautz(2,6) AAB's 5.8-million-clause encodings did, docs/ENGINES.md "Budgets").
TEST(Limits, DefaultLimitFollowsTheNetworksSize) {
  SolveRequest request;
  const Problem small = make_problem({"kautz:2,6", K::AAB, {}, {}, kWh, 0, 0, 0, false, "", ""});
  const Problem large = make_problem({"torus:32x32", K::OAB, {}, {}, kWh, 0, 0, 0, false, "", ""});
  EXPECT_EQ(effective_time_limit(small, request), request.params.small_network_seconds);
  EXPECT_EQ(effective_time_limit(large, request), request.params.large_network_seconds);
  EXPECT_LT(request.params.small_network_seconds, 3600.0);
  request.time_limit = 7.0;
  EXPECT_EQ(effective_time_limit(small, request), 7.0);
}

}  // namespace
}  // namespace ccsched
