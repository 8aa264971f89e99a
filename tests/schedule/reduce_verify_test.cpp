// The verifier on reduction schedules (FORMATS.md "Reductions", rules R1-R3) and on the
// extra_hops cap of rule 9. Every schedule here is written by hand from a classical
// algorithm (binomial reduce, recursive doubling, ring reduce-scatter, Hillis-Steele scan),
// so the tests do not depend on any engine. Each broken schedule is one change away from a
// valid one, and each test checks both: the rule the change breaks, at the right step,
// transfer, node and block, and that the schedule without the change passes.
#include <gtest/gtest.h>

#include <limits>

#include "ccsched/schedule/tables.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

using test::all_text;
using test::rules_of;

// A reduction schedule without transfers yet; `steps` is set by add().
struct Builder {
  Schedule s;

  Builder(Topology t, CollectiveKind kind, std::vector<NodeId> senders,
          std::vector<NodeId> receivers, int blocks = 1) {
    s.topology = std::move(t);
    s.collective.kind = kind;
    s.collective.senders = std::move(senders);
    s.collective.receivers = std::move(receivers);
    s.collective.blocks = blocks;
    s.model.ports = 1;
  }

  Builder& add(Step step, std::vector<NodeId> path, std::vector<int> blocks, ReductionSend send,
               ReductionRecv recv = ReductionRecv::reduce) {
    s.transfers.push_back(test::reduction_transfer(step, std::move(path), std::move(blocks), send, recv));
    s.steps = std::max(s.steps, step);
    return *this;
  }
};

constexpr auto kInput = ReductionSend::input;
constexpr auto kAcc = ReductionSend::acc;
constexpr auto kCopy = ReductionRecv::copy;

std::vector<NodeId> iota(int n) {
  std::vector<NodeId> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

// Every violation has `rule`, and there is at least one.
void expect_only(const std::vector<Violation>& vs, int rule) {
  EXPECT_FALSE(vs.empty());
  EXPECT_EQ(rules_of(vs), (std::set<int>{rule})) << all_text(vs);
}

void expect_valid(const Schedule& s) {
  const auto vs = verify_schedule(s);
  EXPECT_TRUE(vs.empty()) << all_text(vs);
}

// Binomial reduce to root 0 on ring:4, 1-port: step 1 pairs (1 -> 0, 3 -> 2), step 2 the
// partial sum of 2 and 3 travels 2 -> 1 -> 0 (a two-hop wormhole path, minimal).
Builder binomial_reduce_ring4() {
  Builder b(make_topology("ring:4"), CollectiveKind::REDUCE, iota(4), {0});
  b.add(1, {1, 0}, {0}, kInput).add(1, {3, 2}, {0}, kInput).add(2, {2, 1, 0}, {0}, kAcc);
  return b;
}

// Recursive doubling on hypercube:2 (nodes i and i^1, then i and i^2, exchange their
// accumulators). Both sides of a pair send in the same step: each must send what it held
// at the start of the step, or the second would send the first's contribution back.
Builder recursive_doubling_hypercube2() {
  Builder b(make_topology("hypercube:2"), CollectiveKind::ALLREDUCE, iota(4), iota(4));
  for (const int bit : {1, 2})
    for (NodeId i = 0; i < 4; ++i) b.add(bit, {i, i ^ bit}, {0}, kAcc);
  return b;
}

// Ring reduce-scatter on ring:4 (support.hpp).
Builder ring_reduce_scatter4() {
  Builder b(test::ring(4), CollectiveKind::REDUCESCATTER, {}, {});
  b.s = test::ring4_reduce_scatter();
  return b;
}

// Hillis-Steele inclusive scan on complete:4: in step k node i >= 2^(k-1) adds the
// accumulator of node i - 2^(k-1).
Builder hillis_steele_scan4() {
  Builder b(make_topology("complete:4"), CollectiveKind::SCAN, iota(4), iota(4));
  for (const int d : {1, 2})
    for (NodeId i = d; i < 4; ++i) b.add(d == 1 ? 1 : 2, {i - d, i}, {0}, kAcc);
  return b;
}

TEST(VerifyReduction, ClassicalSchedulesAreValid) {
  expect_valid(binomial_reduce_ring4().s);
  expect_valid(recursive_doubling_hypercube2().s);
  expect_valid(ring_reduce_scatter4().s);
  expect_valid(hillis_steele_scan4().s);
}

TEST(VerifyReduction, ReceivesTakeEffectAtTheEndOfTheStep) {
  // Recursive doubling passes only because 0 and 1 both send what they held at the start
  // of step 1. Moving 1 -> 0 into step 2 shows the difference: 1 then sends {0,1}, which
  // overlaps the {0} that 0 holds — a double count.
  expect_valid(recursive_doubling_hypercube2().s);
  auto b = recursive_doubling_hypercube2();
  b.s.transfers[1].step = 2;  // 1 -> 0
  const auto vs = verify_schedule(b.s);
  EXPECT_TRUE(rules_of(vs).contains(kRuleExactlyOnce)) << all_text(vs);
}

TEST(VerifyReduction, LostInputIsR3) {
  auto b = binomial_reduce_ring4();
  b.s.transfers.erase(b.s.transfers.begin() + 1);  // 3 -> 2: the input of 3 never travels
  const auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleResult);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].node, 0);
  EXPECT_EQ(vs[0].block, 0);
  EXPECT_NE(vs[0].text.find("missing {3}"), std::string::npos) << vs[0].text;
  EXPECT_EQ(vs[0].text.rfind("rule R3 (result): ", 0), 0u) << vs[0].text;
  expect_valid(binomial_reduce_ring4().s);
}

TEST(VerifyReduction, DoubleCountIsR2) {
  // The input of 3 reaches the root through 2 in step 2, and again directly in step 3.
  auto b = binomial_reduce_ring4();
  b.add(3, {3, 0}, {0}, kInput);
  const auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleExactlyOnce);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].step, 3);
  EXPECT_EQ(vs[0].transfer, 3);
  EXPECT_EQ(vs[0].node, 0);
  EXPECT_EQ(vs[0].block, 0);
  EXPECT_NE(vs[0].text.find("{3} would count twice"), std::string::npos) << vs[0].text;
  expect_valid(binomial_reduce_ring4().s);
}

TEST(VerifyReduction, TwoOverlappingReducesInOneStepAreR2) {
  // Values reduced into one accumulator in one step must be disjoint from each other, not
  // only from what it holds: here 2 sends {2,3} and 3 sends {3} into acc[1] in step 2.
  Builder b(make_topology("complete:4"), CollectiveKind::REDUCE, iota(4), {0});
  b.s.model.ports.reset();  // 1 receives twice in step 2
  b.add(1, {3, 2}, {0}, kInput);
  b.add(2, {2, 1}, {0}, kAcc).add(2, {3, 1}, {0}, kInput);  // 1 gets {2,3} and {3}
  b.add(3, {1, 0}, {0}, kAcc);
  auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleExactlyOnce);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].transfer, 2);  // the later of the two
  EXPECT_NE(vs[0].text.find("other transfers of this step"), std::string::npos) << vs[0].text;
  b.s.transfers.erase(b.s.transfers.begin() + 2);  // without the second: valid
  expect_valid(b.s);
}

// REDUCE to a root that is not a sender: the root starts empty and copies in its first
// value; 1 -> 0 copies while 3 -> 2 reduces.
Builder reduce_to_outsider() {
  Builder b(make_topology("ring:4"), CollectiveKind::REDUCE, {1, 2, 3}, {0});
  b.add(1, {1, 0}, {0}, kInput, kCopy).add(1, {3, 2}, {0}, kInput).add(2, {2, 1, 0}, {0}, kAcc);
  return b;
}

TEST(VerifyReduction, CopyCollidingWithReduceIsR2) {
  auto b = reduce_to_outsider();
  expect_valid(b.s);
  b.s.model.ports.reset();  // let 0 receive twice in a step
  b.add(1, {2, 3, 0}, {0}, kInput);  // a reduce into acc[0] in the step of the copy
  const auto vs = verify_schedule(b.s);
  ASSERT_FALSE(vs.empty());
  EXPECT_EQ(vs[0].rule, kRuleExactlyOnce) << all_text(vs);
  EXPECT_EQ(vs[0].transfer, 0);  // the copy is the one reported
  EXPECT_EQ(vs[0].step, 1);
  EXPECT_NE(vs[0].text.find("transfer 3 also writes"), std::string::npos) << vs[0].text;
}

TEST(VerifyReduction, SendingAnEmptyAccumulatorIsR2) {
  auto b = reduce_to_outsider();
  b.add(1, {0, 3}, {0}, kAcc);  // acc[0] is empty until the end of step 1
  const auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleExactlyOnce);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].transfer, 3);
  EXPECT_NE(vs[0].text.find("sends acc[0][0], which is empty"), std::string::npos) << vs[0].text;
  expect_valid(reduce_to_outsider().s);
}

TEST(VerifyReduction, InputFromANonSenderIsR2) {
  auto b = reduce_to_outsider();
  b.add(3, {0, 1}, {0}, kInput);  // the root is no sender here: it has no input to send
  const auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleExactlyOnce);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_NE(vs[0].text.find("sends the input of 0, which is not a sender"), std::string::npos)
      << vs[0].text;
  expect_valid(reduce_to_outsider().s);
}

TEST(VerifyReduction, BlockOutOfRangeIsR1) {
  auto b = ring_reduce_scatter4();
  b.s.transfers[5].blocks = {4};  // blocks are 0..3
  auto vs = verify_schedule(b.s);
  ASSERT_FALSE(vs.empty());
  EXPECT_EQ(vs[0].rule, kRuleBlocks) << all_text(vs);
  EXPECT_EQ(vs[0].transfer, 5);
  EXPECT_EQ(vs[0].block, 4);
  EXPECT_NE(vs[0].text.find("block 4 is outside 0..3"), std::string::npos) << vs[0].text;
  expect_valid(ring_reduce_scatter4().s);

  b = ring_reduce_scatter4();
  b.s.collective.blocks = 3;  // not one per receiver
  vs = verify_schedule(b.s);
  ASSERT_FALSE(vs.empty());
  EXPECT_EQ(vs[0].rule, kRuleBlocks) << all_text(vs);
  EXPECT_FALSE(vs[0].transfer.has_value());

  b = ring_reduce_scatter4();
  b.s.collective.blocks = 0;
  expect_only(verify_schedule(b.s), kRuleBlocks);
}

TEST(VerifyReduction, SeveralBlocksInOneTransferNeedCombining) {
  // Recursive doubling on two blocks at once: every transfer carries both.
  auto b = recursive_doubling_hypercube2();
  b.s.collective.blocks = 2;
  for (auto& t : b.s.transfers) t.blocks = {0, 1};
  expect_only(verify_schedule(b.s), kRuleBlocks);
  b.s.model.combining = true;
  expect_valid(b.s);
  b.s.transfers[0].blocks = {1, 1};  // block 0 lost, block 1 listed twice
  const auto vs = verify_schedule(b.s);
  EXPECT_TRUE(rules_of(vs).contains(kRuleBlocks)) << all_text(vs);
  EXPECT_TRUE(rules_of(vs).contains(kRuleResult)) << all_text(vs);
}

TEST(VerifyReduction, MessagesInAReductionAreReported) {
  auto b = binomial_reduce_ring4();
  b.s.transfers[0].messages = {0};
  expect_only(verify_schedule(b.s), kRuleBlocks);
  b = binomial_reduce_ring4();
  b.s.collective.messages = {{0, 1, {0}}};
  expect_only(verify_schedule(b.s), 10);
}

TEST(VerifyReduction, ScanFollowsTheOrderOfTheSenders) {
  // The same transfers are a scan in the order 0,1,2,3 but not in the order 3,2,1,0: then
  // node 3 must end with its own input only and node 0 with everything.
  auto b = hillis_steele_scan4();
  b.s.collective.senders = {3, 2, 1, 0};
  b.s.collective.receivers = b.s.collective.senders;
  const auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleResult);
  EXPECT_EQ(vs.size(), 4u) << all_text(vs);  // every node holds the wrong prefix
  expect_valid(hillis_steele_scan4().s);
}

TEST(VerifyReduction, ReduceScatterNeedsBlockJAtReceiverJ) {
  auto b = ring_reduce_scatter4();
  b.s.collective.receivers = {1, 2, 3, 0};  // receiver j = j+1 now: block j is elsewhere
  const auto vs = verify_schedule(b.s);
  expect_only(vs, kRuleResult);
  EXPECT_EQ(vs.size(), 4u) << all_text(vs);
  EXPECT_EQ(vs[0].node, 1);
  EXPECT_EQ(vs[0].block, 0);
}

TEST(VerifyReduction, RulesOneToFourStillApply) {
  auto b = recursive_doubling_hypercube2();
  b.s.model.ports = 1;
  b.add(1, {0, 2}, {0}, kInput);  // 0 now sends twice in step 1: rule 4; also a double count
  const auto vs = verify_schedule(b.s);
  EXPECT_TRUE(rules_of(vs).contains(4)) << all_text(vs);
  b = recursive_doubling_hypercube2();
  b.s.transfers[0].step = 5;  // steps says 2
  EXPECT_TRUE(rules_of(verify_schedule(b.s)).contains(2));
  EXPECT_TRUE(rules_of(verify_schedule(b.s)).contains(10));
}

TEST(VerifyReduction, HugeBlockCountIsReportedNotEnumerated) {
  auto b = recursive_doubling_hypercube2();
  b.s.collective.blocks = 2'000'000'000;
  const auto vs = verify_schedule(b.s);  // must return at once
  expect_only(vs, kRuleResult);
  // Per receiver: 16 blocks named one by one, then one line for the rest.
  EXPECT_EQ(vs.size(), 4u * 17u);
  EXPECT_NE(vs[16].text.find("and 1999999983 more blocks"), std::string::npos) << vs[16].text;
}

TEST(VerifyReduction, GarbageIsReportedNotCrashedOn) {
  for (const auto kind : {CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE,
                          CollectiveKind::REDUCESCATTER, CollectiveKind::SCAN}) {
    Builder b(test::ring(3), kind, {42, -1, 0, 0, 2}, {7, 1, 1});
    b.s.collective.blocks = 3;
    b.add(1, {}, {0}, kAcc)
        .add(1, {-1}, {-7}, kInput)
        .add(2, {5, 6}, {1, 1, 1}, kAcc, kCopy)
        .add(std::numeric_limits<Step>::max(), {0, 1, 2, 0, 1}, {2}, kInput)
        .add(1, {0, 0}, {0}, kAcc)
        .add(3, {2, 1}, {std::numeric_limits<int>::max(), 0, 0}, kAcc, kCopy);
    b.s.steps = -3;
    std::vector<Violation> vs;
    ASSERT_NO_THROW(vs = verify_schedule(b.s));
    for (const auto& v : vs)
      EXPECT_EQ(v.text.rfind("rule " + rule_label(v.rule) + " (", 0), 0U) << v.text;
    for (const int rule : {1, 2, 10, kRuleBlocks, kRuleResult})
      EXPECT_TRUE(rules_of(vs).contains(rule)) << rule << "\n" << all_text(vs);
    // show prints garbage too (tables.hpp: it describes, it does not judge).
    EXPECT_NO_THROW(format_schedule_table(b.s));
    b.s.collective.blocks = -4;
    EXPECT_NO_THROW(format_schedule_table(b.s));
  }
}

// --- rule 9 with extra_hops ---------------------------------------------------------------

TEST(VerifyRouting, NonminimalPathsAreCappedByExtraHops) {
  // AAS on ring:4 with the 0 -> 1 message taking the long way round in a third step: three
  // hops for a distance of one, two more than the shortest path.
  auto s = test::ring4_aas();
  s.transfers[0].step = 3;
  s.transfers[0].path = {0, 3, 2, 1};
  s.steps = 3;
  s.model.routing = Routing::nonminimal;
  s.model.extra_hops = 2;
  expect_valid(s);
  s.model.extra_hops = 1;
  auto vs = verify_schedule(s);
  expect_only(vs, 9);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].transfer, 0);
  EXPECT_NE(vs[0].text.find("3 hops, 2 more than the distance 1"), std::string::npos)
      << vs[0].text;
  s.model.routing = Routing::minimal;  // and minimal routing rejects it whatever the cap
  expect_only(verify_schedule(s), 9);
}

TEST(VerifyRouting, ReductionPathsAreCappedToo) {
  auto b = binomial_reduce_ring4();
  b.s.model.routing = Routing::nonminimal;
  b.s.model.extra_hops = 0;
  expect_valid(b.s);
  // 1 -> 0 the long way, alone in step 1 (the other two transfers move to steps 3 and 4).
  b.s.transfers[0].path = {1, 2, 3, 0};
  b.s.transfers[1].step = 3;
  b.s.transfers[2].step = 4;
  b.s.steps = 4;
  b.s.model.ports.reset();
  expect_only(verify_schedule(b.s), 9);
  b.s.model.extra_hops = 2;
  expect_valid(b.s);
}

TEST(VerifyRules, LabelsAndNames) {
  EXPECT_EQ(rule_label(3), "3");
  EXPECT_EQ(rule_label(kRuleBlocks), "R1");
  EXPECT_EQ(rule_label(kRuleResult), "R3");
  EXPECT_EQ(rule_name(kRuleExactlyOnce), "exactly once");
  EXPECT_EQ(rule_name(kRuleClaims + 1), "unknown");
}

}  // namespace
}  // namespace ccsched
