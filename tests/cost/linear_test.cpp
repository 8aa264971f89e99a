// The seeds' linear model: the worked example of seed 000 / 001 (t0 = 1 us, t1 = 0.5 ns/B,
// 1024 B: 1.512 us a step), and its evaluation over hand-built schedules: longest message
// per step, combining, per-message sizes, the optional per-hop term, empty steps, errors;
// and over hand-made reduction schedules (tests/support/reduction_schedules.hpp): blocks
// of the vector, the adds of each step, and agreement with the closed forms of
// cost/reduction.hpp for the same algorithms.
#include "ccsched/cost/linear.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "../support/reduction_schedules.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/cost/reduction.hpp"
#include "ccsched/schedule/json.hpp"

namespace ccsched {
namespace {

constexpr double kUs = 1e-6;

// Bidirectional ring 0-1-2-3-0; one-to-all scatter from 0 (messages 0, 1, 2 to nodes
// 1, 2, 3), one port: 0->1 in step 1, 0->3 in step 2, 0->1->2 in step 3.
Schedule ring4_scatter() {
  Schedule s;
  s.topology = Topology("ring:4");
  for (int i = 0; i < 4; ++i) s.topology.add_node(NodeKind::processor);
  for (int i = 0; i < 4; ++i) s.topology.add_link(i, (i + 1) % 4);
  s.collective.kind = CollectiveKind::OAS;
  s.collective.senders = {0};
  s.collective.receivers = {1, 2, 3};
  s.collective.messages = {{0, 0, {1}}, {1, 0, {2}}, {2, 0, {3}}};
  s.model.ports = 1;
  s.steps = 3;
  s.transfers = {{1, {0, 1}, {0}}, {2, {0, 3}, {2}}, {3, {0, 1, 2}, {1}}};
  return s;
}

const LinearModel kSeedModel{.t0 = 1.0 * kUs, .t1 = 0.5e-9, .th = 0.0};

TEST(Linear, SeedExample) {
  // Seed 000 eq. (4) / seed 001 eq. (1): t0 + m*t1 = 1 us + 1024 * 0.5 ns = 1 + 0.512 us.
  EXPECT_NEAR(linear_time(kSeedModel, 1, 1024) / kUs, 1.512, 1e-12);
  // 3 steps: 3 * 1.512 = 4.536 us; 34 steps: 34 * 1.512 = 51.408 us.
  EXPECT_NEAR(linear_time(kSeedModel, 3, 1024) / kUs, 4.536, 1e-12);
  EXPECT_NEAR(linear_time(kSeedModel, 34, 1024) / kUs, 51.408, 1e-12);
}

TEST(Linear, ScheduleOfThreeSteps) {
  const ScheduleCost c = linear_cost(ring4_scatter(), kSeedModel, 1024);
  ASSERT_EQ(c.steps.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(c.steps[i].step, i + 1);
    EXPECT_EQ(c.steps[i].bytes, 1024);
    EXPECT_EQ(c.steps[i].transfers, 1);
    EXPECT_NEAR(c.steps[i].seconds / kUs, 1.512, 1e-12);
  }
  EXPECT_EQ(c.steps[2].hops, 2);
  EXPECT_NEAR(c.total_seconds / kUs, 4.536, 1e-12);  // 3 * 1.512
}

TEST(Linear, LongestMessagePerStep) {
  // Sizes per message id: 100, 3000, 200 bytes. Put messages 0 and 2 (100 B and 200 B) in
  // step 1 (0->1 and 0->3 under all-port) and message 1 (3000 B) in step 2.
  Schedule s = ring4_scatter();
  s.model.ports.reset();
  s.steps = 2;
  s.transfers = {{1, {0, 1}, {0}}, {1, {0, 3}, {2}}, {2, {0, 1, 2}, {1}}};
  const std::vector<std::int64_t> sizes{100, 3000, 200};
  const ScheduleCost c = linear_cost(s, kSeedModel, sizes);
  // Step 1: 1 us + 200 * 0.5 ns = 1.1 us; step 2: 1 us + 3000 * 0.5 ns = 2.5 us.
  EXPECT_EQ(c.steps[0].bytes, 200);
  EXPECT_EQ(c.steps[0].transfers, 2);
  EXPECT_NEAR(c.steps[0].seconds / kUs, 1.1, 1e-12);
  EXPECT_NEAR(c.steps[1].seconds / kUs, 2.5, 1e-12);
  EXPECT_NEAR(c.total_seconds / kUs, 3.6, 1e-12);
}

TEST(Linear, CombinedTransferCarriesTheSum) {
  // With combining, 0->1 carries messages 0 and 1 (2 * 1024 B) in step 1, then 1->2
  // forwards message 1 and 0->3 sends message 2 in step 2.
  Schedule s = ring4_scatter();
  s.model.combining = true;
  s.model.ports.reset();
  s.steps = 2;
  s.transfers = {{1, {0, 1}, {0, 1}}, {2, {1, 2}, {1}}, {2, {0, 3}, {2}}};
  const ScheduleCost c = linear_cost(s, kSeedModel, 1024);
  // Step 1: 1 us + 2048 * 0.5 ns = 2.024 us; step 2: 1.512 us; total 3.536 us.
  EXPECT_EQ(c.steps[0].bytes, 2048);
  EXPECT_NEAR(c.steps[0].seconds / kUs, 2.024, 1e-12);
  EXPECT_NEAR(c.steps[1].seconds / kUs, 1.512, 1e-12);
  EXPECT_NEAR(c.total_seconds / kUs, 3.536, 1e-12);
}

TEST(Linear, PerHopTermTakesTheSlowestTransfer) {
  // th = 0.1 us per hop. Step 3 (0->1->2, 2 hops): 1.512 + 0.2 = 1.712 us; steps 1 and 2
  // (one hop): 1.612 us. Total 1.612 + 1.612 + 1.712 = 4.936 us.
  LinearModel m = kSeedModel;
  m.th = 0.1 * kUs;
  const ScheduleCost c = linear_cost(ring4_scatter(), m, 1024);
  EXPECT_NEAR(c.steps[0].seconds / kUs, 1.612, 1e-12);
  EXPECT_NEAR(c.steps[2].seconds / kUs, 1.712, 1e-12);
  EXPECT_NEAR(c.total_seconds / kUs, 4.936, 1e-12);
}

TEST(Linear, EmptyStepCostsNothing) {
  Schedule s = ring4_scatter();
  s.steps = 4;
  s.transfers[2].step = 4;  // step 3 is empty
  const ScheduleCost c = linear_cost(s, kSeedModel, 1024);
  ASSERT_EQ(c.steps.size(), 4u);
  EXPECT_EQ(c.steps[2].transfers, 0);
  EXPECT_EQ(c.steps[2].seconds, 0.0);
  EXPECT_NEAR(c.total_seconds / kUs, 4.536, 1e-12);
}

TEST(Linear, BadSchedulesThrow) {
  Schedule s = ring4_scatter();
  s.transfers[1].step = 0;
  EXPECT_THROW(linear_cost(s, kSeedModel, 1024), InvalidInput);
  s = ring4_scatter();
  s.transfers[1].step = 4;
  EXPECT_THROW(linear_cost(s, kSeedModel, 1024), InvalidInput);
  s = ring4_scatter();
  s.transfers[1].messages = {7};
  try {
    linear_cost(s, kSeedModel, 1024);
    ADD_FAILURE() << "unknown message accepted";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.where(), "transfers[1]");
  }
  const std::vector<std::int64_t> too_few{1, 2};  // no size for message 2
  EXPECT_THROW(linear_cost(ring4_scatter(), kSeedModel, too_few), InvalidInput);
}

// --- reductions ---------------------------------------------------------------------------

Schedule reduction(const std::string& document) { return read_schedule_json(document, "test"); }

// tc = 0.25 ns per byte added.
const LinearModel kReductionModel{.t0 = 1.0 * kUs, .t1 = 0.5e-9, .th = 0.0, .tc = 0.25e-9};

TEST(LinearReduction, RingAllReduceInBlocks) {
  // 1024 B in 4 blocks of 256 B. Reduce-scatter steps: 1 + 256 * 0.0005 + 256 * 0.00025 =
  // 1.192 us (every processor adds one block); all-gather steps (copies): 1.128 us.
  const ScheduleCost c = linear_cost(reduction(testing::ring4_allreduce_ring()),
                                     kReductionModel, 1024);
  ASSERT_EQ(c.steps.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(c.steps[i].bytes, 256);
    EXPECT_EQ(c.steps[i].transfers, 4);
    EXPECT_EQ(c.steps[i].added_bytes, i < 3 ? 256 : 0) << "step " << i + 1;
    EXPECT_NEAR(c.steps[i].seconds / kUs, i < 3 ? 1.192 : 1.128, 1e-12) << "step " << i + 1;
  }
  EXPECT_NEAR(c.steps[0].compute_seconds / kUs, 0.064, 1e-12);
  EXPECT_NEAR(c.total_seconds / kUs, 3 * 1.192 + 3 * 1.128, 1e-12);  // 6.96 us

  // The same algorithm in closed form (cost/reduction.hpp, ring all-reduce on p = 4):
  // 2(p-1) ts + 2(p-1)/p m tb + (p-1)/p m tc.
  const ReductionEstimate e = reduction_time(
      NetworkShape::ring, ReductionOp::allreduce, RoutingMethod::store_and_forward,
      {.p = 4, .ts = 1e-6, .tb = 0.5e-9, .th = 0.0, .tc = 0.25e-9, .bytes = 1024});
  const auto ring = std::find_if(e.algorithms.begin(), e.algorithms.end(),
                                 [](const auto& alg) { return alg.name == "ring"; });
  ASSERT_NE(ring, e.algorithms.end());
  EXPECT_NEAR(ring->seconds, c.total_seconds, 1e-15);
}

TEST(LinearReduction, RecursiveDoublingMatchesTheChaptersFormula) {
  // One block: both steps carry and add the whole 1024 B: 1 + 0.512 + 0.256 = 1.768 us;
  // seed 003's (ts + m tb + m tc) log2 p with p = 4.
  const ScheduleCost c = linear_cost(reduction(testing::ring4_allreduce_doubling()),
                                     kReductionModel, 1024);
  ASSERT_EQ(c.steps.size(), 2u);
  for (const StepCost& step : c.steps) {
    EXPECT_EQ(step.added_bytes, 1024);
    EXPECT_NEAR(step.seconds / kUs, 1.768, 1e-12);
  }
  const ReductionEstimate e = reduction_time(
      NetworkShape::hypercube, ReductionOp::allreduce, RoutingMethod::store_and_forward,
      {.p = 4, .ts = 1e-6, .tb = 0.5e-9, .th = 0.0, .tc = 0.25e-9, .bytes = 1024});
  EXPECT_EQ(e.algorithms.front().name, "recursive-doubling");
  EXPECT_NEAR(e.algorithms.front().seconds, c.total_seconds, 1e-15);
}

TEST(LinearReduction, FirstValueIntoAnEmptyAccumulatorIsNoAddition) {
  // Step 1: 1 -> 0 fills 0's empty accumulator: no add, 1.512 us. Step 2: 0 adds 3's and
  // 2's inputs (2 x 1024 B): 1.512 + 2048 * 0.00025 = 2.024 us. With th = 0.1 us, step 2's
  // slowest transfer is 2 -> 1 -> 0: 1.712 + 0.512 = 2.224 us.
  const Schedule s = reduction(testing::ring4_reduce_into_empty_root());
  ScheduleCost c = linear_cost(s, kReductionModel, 1024);
  EXPECT_EQ(c.steps[0].added_bytes, 0);
  EXPECT_NEAR(c.steps[0].seconds / kUs, 1.512, 1e-12);
  EXPECT_EQ(c.steps[1].added_bytes, 2048);
  EXPECT_NEAR(c.steps[1].seconds / kUs, 2.024, 1e-12);
  LinearModel with_hops = kReductionModel;
  with_hops.th = 0.1 * kUs;
  c = linear_cost(s, with_hops, 1024);
  EXPECT_NEAR(c.steps[1].seconds / kUs, 2.224, 1e-12);

  const auto adds = reduction_adds(s, 1024);
  ASSERT_EQ(adds.size(), 2u);
  EXPECT_TRUE(adds[0].empty());
  ASSERT_EQ(adds[1].size(), 1u);
  EXPECT_EQ(adds[1][0].node, 0);
  EXPECT_EQ(adds[1][0].bytes, 2048);
}

TEST(LinearReduction, BadInput) {
  const Schedule s = reduction(testing::ring4_allreduce_ring());
  // 1001 B do not split into 4 equal blocks (FORMATS.md: equal blocks).
  try {
    linear_cost(s, kReductionModel, 1001);
    ADD_FAILURE() << "1001 B in 4 blocks accepted";
  } catch (const InvalidParameter& e) {
    EXPECT_EQ(e.where(), "--bytes");
  }
  Schedule bad_block = s;
  bad_block.transfers[5].blocks = {4};
  try {
    linear_cost(bad_block, kReductionModel, 1024);
    ADD_FAILURE() << "block 4 of 4 accepted";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.where(), "transfers[5]");
  }
  // Sizes per message id mean nothing for a reduction.
  const std::vector<std::int64_t> sizes{1024};
  EXPECT_THROW(linear_cost(s, kReductionModel, sizes), Unsupported);
}

}  // namespace
}  // namespace ccsched
