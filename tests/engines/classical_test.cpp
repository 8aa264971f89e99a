// The classical algorithms (engines/classical.hpp; docs/ENGINES.md, "Classical
// algorithms"): every algorithm, for every collective it writes, verifies on rings (p a
// power of two and not), tori, meshes, hypercubes, a Kautz digraph and a fat tree,
// one-port and all-port; the known round counts come out where the rounds are
// contention-free; what does not apply is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "../support/reduction_problems.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/engines/classical.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {
namespace {

using testing::make_reduction_problem;

Schedule classical(const Problem& p, ClassicalAlgorithm a, std::vector<NodeId> ranks = {}) {
  ClassicalRequest request;
  request.algorithm = a;
  request.ranks = std::move(ranks);
  auto out = classical_schedule(p, request);
  if (!out) throw std::runtime_error("no schedule without a budget");
  return std::move(out->schedule);
}

void expect_valid(const Schedule& s, const std::string& what) {
  const auto v = verify_schedule(s);
  EXPECT_TRUE(v.empty()) << what << ": " << (v.empty() ? "" : v.front().text);
  const auto claims = verify_claims(s);
  EXPECT_TRUE(claims.empty()) << what << ": claims";
  EXPECT_FALSE(s.optimal) << what;
  ASSERT_TRUE(s.solver.has_value());
  EXPECT_EQ(s.solver->engine.rfind("classical:", 0), 0u) << what;
}

TEST(Classical, EveryAlgorithmAndCollectiveVerifies) {
  const std::vector<std::string> nets = {"ring:8",      "ring:6",    "torus:4x4", "mesh:3x5",
                                         "hypercube:4", "kautz:2,3", "fattree:8"};
  const std::vector<CollectiveKind> kinds = {CollectiveKind::ALLREDUCE, CollectiveKind::REDUCESCATTER,
                                             CollectiveKind::AAB, CollectiveKind::REDUCE,
                                             CollectiveKind::OAB};
  int written = 0;
  for (const auto& net : nets)
    for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()})
      for (CollectiveKind kind : kinds)
        for (ClassicalAlgorithm a : classical_algorithms()) {
          if (!classical_applies(a, kind)) continue;
          Problem base = make_reduction_problem(net, kind, ports);
          const int p = static_cast<int>(base.collective.senders.size());
          // ALLREDUCE: one block (latency variants), p blocks (bandwidth variants) and an
          // uneven count (parts of different sizes, some empty).
          std::vector<std::optional<int>> counts{std::nullopt};
          if (kind == CollectiveKind::ALLREDUCE) counts = {1, p, 3};
          for (auto blocks : counts) {
            const Problem problem = make_reduction_problem(net, kind, ports, blocks);
            const std::string what = net + " " + std::string(to_string(kind)) + " " +
                                     std::string(to_string(a)) + (ports ? " 1-port" : " all-port") +
                                     " blocks " + std::to_string(problem.collective.blocks);
            const Schedule s = classical(problem, a);
            expect_valid(s, what);
            ++written;
          }
        }
  EXPECT_GT(written, 300);
}

TEST(Classical, CombiningSendsEachPartOnce) {
  for (ClassicalAlgorithm a : classical_algorithms()) {
    Problem p = make_reduction_problem("torus:4x4", CollectiveKind::ALLREDUCE, 1, 16);
    p.model.combining = true;
    const Schedule s = classical(p, a);
    expect_valid(s, "combining " + std::string(to_string(a)));
  }
  // Ring, 16 parts of one block: 2(p-1) rounds of one neighbour hop, one step each.
  Problem p = make_reduction_problem("ring:16", CollectiveKind::ALLREDUCE, 1, 16);
  p.model.combining = true;
  EXPECT_EQ(classical(p, ClassicalAlgorithm::ring).steps, 30);
}

TEST(Classical, RoundCountsWhereRoundsAreContentionFree) {
  // Recursive doubling on a hypercube: every exchange is one channel, log p steps.
  EXPECT_EQ(classical(make_reduction_problem("hypercube:4", CollectiveKind::ALLREDUCE, 1),
                      ClassicalAlgorithm::recursive_doubling)
                .steps,
            4);
  // Ring on a ring, p blocks all-port: 2(p-1) steps (Patarasuk & Yuan 2009).
  EXPECT_EQ(classical(make_reduction_problem("ring:8", CollectiveKind::ALLREDUCE, std::nullopt, 8),
                      ClassicalAlgorithm::ring)
                .steps,
            14);
  EXPECT_EQ(classical(make_reduction_problem("ring:8", CollectiveKind::REDUCESCATTER, std::nullopt),
                      ClassicalAlgorithm::ring)
                .steps,
            7);
  EXPECT_EQ(classical(make_reduction_problem("ring:8", CollectiveKind::AAB, 1), ClassicalAlgorithm::ring)
                .steps,
            7);
  // Binomial trees on a hypercube: log p rounds of one-channel hops.
  EXPECT_EQ(classical(make_reduction_problem("hypercube:3", CollectiveKind::REDUCE, 1),
                      ClassicalAlgorithm::binomial)
                .steps,
            3);
  EXPECT_EQ(classical(make_reduction_problem("hypercube:3", CollectiveKind::OAB, 1),
                      ClassicalAlgorithm::binomial)
                .steps,
            3);
  // Swing's latency all-reduce on a ring:8 (distances 1, 1, 3): three rounds, the third
  // split where its 3-hop routes overlap.
  const int swing = classical(make_reduction_problem("ring:8", CollectiveKind::ALLREDUCE, std::nullopt),
                              ClassicalAlgorithm::swing)
                        .steps;
  EXPECT_GE(swing, 3);
  EXPECT_LE(swing, 6);
}

TEST(Classical, FoldAddsARoundAtEachEnd) {
  // ring:6: the 2 extra ranks fold into 4 survivors; recursive doubling then takes 2 rounds.
  ClassicalRequest request;
  request.algorithm = ClassicalAlgorithm::recursive_doubling;
  auto out = classical_schedule(make_reduction_problem("ring:6", CollectiveKind::ALLREDUCE, 1), request);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->rounds, 4);
  EXPECT_GE(out->schedule.steps, 4);
  // Bine REDUCE on 6 ranks: fold in, then a Bine tree of 4.
  request.algorithm = ClassicalAlgorithm::bine;
  out = classical_schedule(make_reduction_problem("ring:6", CollectiveKind::REDUCE, 1), request);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->rounds, 3);
}

TEST(Classical, RankOrderIsFollowed) {
  const Problem p = make_reduction_problem("torus:4x4", CollectiveKind::ALLREDUCE, 1);
  std::vector<NodeId> reversed = p.collective.senders;
  std::reverse(reversed.begin(), reversed.end());
  for (ClassicalAlgorithm a : classical_algorithms())
    expect_valid(classical(p, a, reversed), "reversed ranks " + std::string(to_string(a)));
  const Problem rs = make_reduction_problem("ring:6", CollectiveKind::REDUCESCATTER, 1);
  std::vector<NodeId> shuffled = {3, 0, 5, 1, 4, 2};
  for (ClassicalAlgorithm a : classical_algorithms())
    if (classical_applies(a, CollectiveKind::REDUCESCATTER))
      expect_valid(classical(rs, a, shuffled), "shuffled ranks " + std::string(to_string(a)));
  EXPECT_THROW(classical(p, ClassicalAlgorithm::ring, {0, 1, 2}), InvalidParameter);
}

TEST(Classical, RefusesWhatDoesNotApply) {
  EXPECT_THROW(classical(make_reduction_problem("ring:8", CollectiveKind::SCAN, 1), ClassicalAlgorithm::ring),
               Unsupported);
  EXPECT_THROW(classical(make_reduction_problem("ring:8", CollectiveKind::REDUCE, 1), ClassicalAlgorithm::ring),
               Unsupported);
  EXPECT_THROW(classical(make_reduction_problem("ring:8", CollectiveKind::AAB, 1),
                         ClassicalAlgorithm::rabenseifner),
               Unsupported);
  // Store-and-forward: one channel per transfer. The ring on a ring is; recursive doubling
  // on a torus is not.
  const auto sf = Switching::store_and_forward;
  expect_valid(classical(make_reduction_problem("ring:8", CollectiveKind::ALLREDUCE, 1, 8, sf),
                         ClassicalAlgorithm::ring),
               "store-and-forward ring");
  expect_valid(classical(make_reduction_problem("hypercube:3", CollectiveKind::ALLREDUCE, 1, 1, sf),
                         ClassicalAlgorithm::recursive_doubling),
               "store-and-forward hypercube");
  EXPECT_THROW(classical(make_reduction_problem("torus:4x4", CollectiveKind::ALLREDUCE, 1, 1, sf),
                         ClassicalAlgorithm::recursive_doubling),
               Unsupported);
  // A transfer cap names --blocks.
  ClassicalRequest request;
  request.algorithm = ClassicalAlgorithm::ring;
  request.max_transfers = 10;
  EXPECT_THROW(classical_schedule(make_reduction_problem("ring:8", CollectiveKind::ALLREDUCE, 1, 8), request),
               InvalidParameter);
  EXPECT_THROW(parse_classical_algorithm("tree"), InvalidParameter);
}

TEST(Classical, NonminimalRoutingTakesMinimalRoutes) {
  Problem p = make_reduction_problem("torus:4x4", CollectiveKind::ALLREDUCE, 1);
  p.model.routing = Routing::nonminimal;
  p.model.extra_hops = 2;
  for (ClassicalAlgorithm a : classical_algorithms())
    expect_valid(classical(p, a), "nonminimal " + std::string(to_string(a)));
}

TEST(Classical, SameSeedSameSchedule) {
  const Problem p = make_reduction_problem("mesh:3x5", CollectiveKind::ALLREDUCE, std::nullopt, 15);
  ClassicalRequest request;
  request.algorithm = ClassicalAlgorithm::rabenseifner;
  request.seed = 7;
  const auto a = classical_schedule(p, request), b = classical_schedule(p, request);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->schedule.transfers.size(), b->schedule.transfers.size());
  for (std::size_t i = 0; i < a->schedule.transfers.size(); ++i) {
    EXPECT_EQ(a->schedule.transfers[i].step, b->schedule.transfers[i].step);
    EXPECT_EQ(a->schedule.transfers[i].path, b->schedule.transfers[i].path);
  }
}

}  // namespace
}  // namespace ccsched

namespace ccsched {
namespace {

// The by-size guarantee at one block (docs/COST.md, "Choosing a schedule by message size"):
// ccsched's own solve is never longer in steps than a classical algorithm with one block.
// Measured on these and on mesh:3x5 and kautz:2,3 (docs/ENGINES.md, "Classical
// algorithms"); no classical algorithm is shorter anywhere.
TEST(Classical, OwnSolveIsNeverLongerAtOneBlock) {
  for (const std::string net : {"ring:8", "ring:6", "torus:4x4", "hypercube:4"})
    for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()})
      for (CollectiveKind kind : {CollectiveKind::ALLREDUCE, CollectiveKind::AAB, CollectiveKind::REDUCE}) {
        const Problem p = testing::make_reduction_problem(net, kind, ports, is_reduction(kind) ? std::optional<int>(1) : std::nullopt);
        SolveRequest request;
        request.time_limit = 20;
        const SolveOutcome own = solve_problem(p, request);
        ASSERT_TRUE(own.schedule) << net;
        for (ClassicalAlgorithm a : classical_algorithms()) {
          if (!classical_applies(a, kind)) continue;
          ClassicalRequest cr;
          cr.algorithm = a;
          const auto out = classical_schedule(p, cr);
          ASSERT_TRUE(out);
          EXPECT_LE(own.schedule->steps, out->schedule.steps)
              << net << " " << to_string(kind) << (ports ? " 1-port " : " all-port ") << to_string(a);
        }
      }
}

}  // namespace
}  // namespace ccsched
