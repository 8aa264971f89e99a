// Constructive schedules: the hypercube XOR-mask design is valid, meets the AAS bounds
// (bisection with k >= 2 ports, reception with one port), declines what it cannot do
// (faults, broadcasts, other networks), and the driver uses it as its upper bound.
#include "ccsched/engines/constructive.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "../support/solve_check.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using testing_support::make_problem;

TEST(Constructive, RecognisesHypercubesOnly) {
  EXPECT_EQ(hypercube_dimension(make_topology("hypercube:3")), 3);
  EXPECT_EQ(hypercube_dimension(make_topology("hypercube:5")), 5);
  EXPECT_FALSE(hypercube_dimension(make_topology("ring:8")).has_value());
  EXPECT_FALSE(hypercube_dimension(make_topology("torus:4x4")).has_value());  // 16 nodes, degree 4
  EXPECT_FALSE(hypercube_dimension(make_topology("kautz:3,2")).has_value());
}

TEST(Constructive, MaskGroupsAreDisjointCompleteAndWithinPorts) {
  for (int d = 1; d <= 7; ++d) {
    for (int ports : {1, 2, 3}) {
      std::vector<unsigned> masks;
      for (unsigned m = 1; m < (1U << d); ++m) masks.push_back(m);
      const auto groups = group_disjoint_masks(masks, d, ports);
      std::vector<int> seen(1U << d, 0);
      for (const auto& g : groups) {
        EXPECT_LE(static_cast<int>(g.size()), ports);
        unsigned used = 0;
        for (unsigned m : g) {
          EXPECT_EQ(used & m, 0U) << "d=" << d << " masks overlap in one group";
          used |= m;
          ++seen[m];
        }
      }
      for (unsigned m = 1; m < (1U << d); ++m) EXPECT_EQ(seen[m], 1) << "mask " << m;
      const std::size_t expected = ports == 1 ? (1U << d) - 1 : (d == 1 ? 1 : 1U << (d - 1));
      EXPECT_EQ(groups.size(), expected) << "d=" << d << " ports=" << ports;
    }
  }
}

struct CubeCase {
  int d;
  std::optional<int> ports;
};

class HypercubeAas : public ::testing::TestWithParam<CubeCase> {};

TEST_P(HypercubeAas, ValidAndMeetsTheLowerBound) {
  const auto [d, ports] = GetParam();
  const Problem p = make_problem("hypercube:" + std::to_string(d), CollectiveKind::AAS, ports);
  const PathSet paths(p.topology, p.model);
  const auto s = constructive_schedule(p, paths);
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(verify_schedule(*s).empty());
  BoundOptions options;
  options.direct_scatter = true;
  const int bound = lower_bounds(p, paths, options).best;
  EXPECT_EQ(s->steps, bound) << "d=" << d;
  EXPECT_EQ(s->steps, ports == 1 ? (1 << d) - 1 : 1 << (d - 1));
}

INSTANTIATE_TEST_SUITE_P(Cubes, HypercubeAas,
                         ::testing::Values(CubeCase{2, std::nullopt}, CubeCase{3, std::nullopt},
                                           CubeCase{4, std::nullopt}, CubeCase{5, std::nullopt},
                                           CubeCase{6, std::nullopt}, CubeCase{4, 1},
                                           CubeCase{5, 2}));

TEST(Constructive, DeclinesFaultsAndOtherNetworks) {
  const auto none = [](const Problem& p) {
    return !constructive_schedule(p, PathSet(p.topology, p.model)).has_value();
  };
  EXPECT_TRUE(none(make_problem("hypercube:4", CollectiveKind::AAS, std::nullopt, {"0-1"})));
  EXPECT_TRUE(none(make_problem("petersen", CollectiveKind::AAS, std::nullopt)));
}

// Fat trees: XOR rounds on closed-form routes, N-1 steps (the reception bound: one link per
// processor) with every route checked by the verifier; a faulty fat tree gets something
// else or nothing, never the design (its routes would cross the missing link).
TEST(Constructive, FatTreeXorRoundsMeetTheReceptionBound) {
  for (const int n : {4, 8, 16, 32, 64}) {
    const Problem p = make_problem("fattree:" + std::to_string(n), CollectiveKind::AAS, 1);
    const PathSet paths(p.topology, p.model);
    const auto s = constructive_schedule(p, paths);
    ASSERT_TRUE(s.has_value()) << n;
    EXPECT_TRUE(verify_schedule(*s).empty()) << n;
    EXPECT_EQ(s->steps, n - 1) << n;
    // The bound's cut search is the slow part (a minute under the sanitizers at 64).
    if (n <= 16) {
      EXPECT_EQ(lower_bounds(p, paths).best, n - 1) << n;
    }
  }
  const Problem faulty = make_problem("fattree:16", CollectiveKind::AAS, 1, {"s0.0-s1.0"});
  const auto s = constructive_schedule(faulty, PathSet(faulty.topology, faulty.model));
  if (s) {
    EXPECT_TRUE(verify_schedule(*s).empty());
  }
}

// Broadcasts get the ring all-gather where the ring's shift routes (at most P-1 steps);
// whatever comes back is valid and never below a lower bound.
TEST(Constructive, BroadcastDesignsAreValidAndAboveTheBound) {
  const Problem p = make_problem("hypercube:4", CollectiveKind::AAB, std::nullopt);
  const PathSet paths(p.topology, p.model);
  const auto s = constructive_schedule(p, paths);
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(verify_schedule(*s).empty());
  EXPECT_GE(s->steps, lower_bounds(p, paths).best);
  EXPECT_LE(s->steps, p.topology.processor_count() - 1);
}

TEST(Constructive, PartialPatternsStayValid) {
  // OAS from node 0 is one message per mask: every mask class is a partial permutation.
  const Problem p = make_problem("hypercube:4", CollectiveKind::OAS, std::nullopt);
  const auto s = constructive_schedule(p, PathSet(p.topology, p.model));
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(verify_schedule(*s).empty());
}

// The driver proves hypercube:5 AAS optimal at 16 steps at once (the seed 000 Table 6 cell
// whose evolutionary run took four days).
TEST(Constructive, DriverClosesHypercube5Aas) {
  const Problem p = make_problem("hypercube:5", CollectiveKind::AAS, std::nullopt);
  SolveRequest request;
  request.time_limit = 60;
  const SolveOutcome out = solve_problem(p, request);
  ASSERT_TRUE(out.schedule.has_value());
  EXPECT_EQ(out.schedule->steps, 16);
  EXPECT_TRUE(out.optimal) << out.reason;
  EXPECT_TRUE(verify_schedule(*out.schedule).empty());
}

}  // namespace
}  // namespace ccsched
