// The verifier against schedules broken on purpose: each test starts from a valid schedule
// (AAS or OAB on ring:4), breaks one thing, and checks that exactly the rules that thing
// breaks are reported, at the right place. Plus garbage that must be reported, not crash.
#include "ccsched/schedule/verify.hpp"

#include <gtest/gtest.h>

#include <random>

#include "ccsched/topology/generators.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

using test::all_text;
using test::count_rule;
using test::ring4_aas;
using test::ring4_oab;
using test::rules_of;

bool has(const std::vector<Violation>& vs, int rule, std::optional<int> transfer) {
  return std::any_of(vs.begin(), vs.end(), [&](const Violation& v) {
    return v.rule == rule && (!transfer || v.transfer == transfer);
  });
}

TEST(Verify, AcceptsValidSchedules) {
  EXPECT_TRUE(verify_schedule(ring4_aas()).empty()) << all_text(verify_schedule(ring4_aas()));
  EXPECT_TRUE(verify_schedule(ring4_oab()).empty()) << all_text(verify_schedule(ring4_oab()));
  auto s = ring4_aas();
  s.model.ports = 2;  // every processor sends and receives exactly two in step 1
  EXPECT_TRUE(verify_schedule(s).empty());
}

// The claims a document makes about itself: a bound above its own steps, or `optimal`
// above the bound, are contradicted by the schedule (FORMATS.md section 2); consistent
// or absent claims are not, and the validity rules do not look at claims.
TEST(Verify, ClaimsTheScheduleContradicts) {
  Schedule s = test::ring4_aas();
  EXPECT_TRUE(verify_claims(s).empty());
  s.lower_bound = s.steps;
  s.optimal = true;
  EXPECT_TRUE(verify_claims(s).empty());
  s.lower_bound = s.steps + 1;
  auto v = verify_claims(s);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, kRuleClaims);
  EXPECT_EQ(rule_label(v[0].rule), "claims");
  EXPECT_NE(v[0].text.find("lower_bound " + std::to_string(s.steps + 1)), std::string::npos)
      << v[0].text;
  EXPECT_TRUE(verify_schedule(s).empty());
  s.lower_bound = s.steps - 1;
  v = verify_claims(s);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].text.find("optimal, but"), std::string::npos) << v[0].text;
  s.optimal = false;
  EXPECT_TRUE(verify_claims(s).empty());
}

// The stoppable form: asked to stop at once it answers nothing; never asked to stop, the
// same violations as the plain form; asked after a few polls, nothing either (the rules
// after the stop are not run, so a partial list would mislead).
TEST(Verify, StopsWhenAsked) {
  auto s = ring4_aas();
  EXPECT_FALSE(verify_schedule(s, [] { return true; }).has_value());
  const auto valid = verify_schedule(s, [] { return false; });
  ASSERT_TRUE(valid.has_value());
  EXPECT_TRUE(valid->empty());
  s.transfers[8].path = {0, 2};
  const auto broken = verify_schedule(s, [] { return false; });
  ASSERT_TRUE(broken.has_value());
  EXPECT_EQ(rules_of(*broken), rules_of(verify_schedule(s)));
  int polls = 0;
  EXPECT_FALSE(verify_schedule(s, [&polls] { return ++polls > 3; }).has_value());
  EXPECT_GT(polls, 3);
}

TEST(Verify, EmptyCollectiveWithNoStepsIsValid) {
  Schedule s;
  s.topology = test::ring(3);
  s.collective.kind = CollectiveKind::CUSTOM;
  EXPECT_TRUE(verify_schedule(s).empty()) << all_text(verify_schedule(s));
}

// --- rule 1 -----------------------------------------------------------------------------

TEST(Verify, Rule1PathTooShort) {
  auto s = ring4_aas();
  s.transfers[0].path = {0};  // 0 -> 1 no longer goes anywhere
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{1, 6})) << all_text(vs);
  EXPECT_TRUE(has(vs, 1, 0));
}

TEST(Verify, Rule1NotAChannel) {
  auto s = ring4_aas();
  s.transfers[8].path = {0, 2};  // no channel 0->2 on a ring; also one hop for distance 2
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{1, 9})) << all_text(vs);
  EXPECT_TRUE(has(vs, 1, 8));
  EXPECT_NE(all_text(vs).find("0->2 is not a channel"), std::string::npos) << all_text(vs);
}

TEST(Verify, Rule1NodeOutOfRange) {
  auto s = ring4_aas();
  s.transfers[8].path = {0, 99, 2};
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{1})) << all_text(vs);
  ASSERT_EQ(vs.size(), 1U);
  EXPECT_EQ(vs[0].node, 99);
  EXPECT_EQ(vs[0].transfer, 8);
}

TEST(Verify, Rule1RepeatedChannel) {
  auto s = ring4_aas();
  s.transfers[8].path = {0, 1, 0, 1, 2};  // 0->1 twice; 1->0 clashes with transfer 10
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{1, 3, 9})) << all_text(vs);
  EXPECT_NE(all_text(vs).find("(0->1) repeats within the path"), std::string::npos);
}

TEST(Verify, Rule1EndpointsMustBeProcessors) {
  Schedule s;
  s.topology = Topology("star");
  s.topology.add_node(NodeKind::processor);
  s.topology.add_node(NodeKind::processor);
  const NodeId hub = s.topology.add_node(NodeKind::switch_node);
  s.topology.add_link(0, hub);
  s.topology.add_link(1, hub);
  s.collective.kind = CollectiveKind::CUSTOM;
  s.collective.senders = {0};
  s.collective.receivers = {1};
  s.collective.messages = {{0, 0, {1}}};
  s.steps = 1;
  s.transfers = {{1, {0, hub, 1}, {0}}};
  EXPECT_TRUE(verify_schedule(s).empty()) << all_text(verify_schedule(s));
  s.transfers[0].path = {0, hub};
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{1, 6})) << all_text(vs);
  EXPECT_NE(all_text(vs).find("last node 2 is a switch"), std::string::npos);
}

// --- rule 2 -----------------------------------------------------------------------------

TEST(Verify, Rule2StepZero) {
  auto s = ring4_aas();
  s.transfers[0].step = 0;
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{2})) << all_text(vs);
  EXPECT_TRUE(has(vs, 2, 0));
}

TEST(Verify, Rule2StepBeyondStepsAlsoBreaksBookkeeping) {
  auto s = ring4_aas();
  s.transfers[0].step = 3;
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{2, 10})) << all_text(vs);
}

// --- rule 3 -----------------------------------------------------------------------------

TEST(Verify, Rule3SharedChannelNamesBothTransfers) {
  auto s = ring4_aas();
  s.transfers[8].step = 1;  // 0->1->2 now shares 0->1 with transfer 0 and 1->2 with transfer 2
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{3})) << all_text(vs);
  ASSERT_EQ(vs.size(), 2U);
  const auto c01 = *s.topology.find_channel(0, 1);
  const auto c12 = *s.topology.find_channel(1, 2);
  EXPECT_EQ(vs[0].text, "rule 3 (channels): step 1, transfers 0 and 8 both use channel " +
                            std::to_string(c01) + " (0->1)");
  EXPECT_EQ(vs[1].text, "rule 3 (channels): step 1, transfers 2 and 8 both use channel " +
                            std::to_string(c12) + " (1->2)");
  EXPECT_EQ(vs[0].step, 1);
  EXPECT_EQ(vs[0].transfer, 8);
  EXPECT_EQ(vs[0].channel, c01);
}

TEST(Verify, Rule3ThreeUsersGiveTwoViolations) {
  auto s = ring4_oab();
  s.collective.kind = CollectiveKind::CUSTOM;
  s.model.combining = true;
  s.transfers[1] = {1, {0, 1}, {0}};
  s.transfers.push_back({1, {0, 1}, {0}});
  const auto vs = verify_schedule(s);
  EXPECT_EQ(count_rule(vs, 3), 2) << all_text(vs);
}

// --- rule 4 -----------------------------------------------------------------------------

TEST(Verify, Rule4OnePortModel) {
  auto s = ring4_aas();
  s.model.ports = 1;  // step 1 has every processor sending two and receiving two
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{4})) << all_text(vs);
  EXPECT_EQ(count_rule(vs, 4), 8);
  for (const auto& v : vs) EXPECT_EQ(v.step, 1);
  EXPECT_NE(all_text(vs).find("step 1, processor 0 is the first node of 2 transfers (limit 1): "
                              "transfers 0, 1"),
            std::string::npos)
      << all_text(vs);
}

// --- rule 5 -----------------------------------------------------------------------------

TEST(Verify, Rule5ForwardingBeforeReceiving) {
  auto s = ring4_oab();
  s.transfers[2].step = 1;  // 1 forwards in the step it receives
  s.steps = 1;
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{5})) << all_text(vs);
  ASSERT_EQ(vs.size(), 1U);
  EXPECT_EQ(vs[0].transfer, 2);
  EXPECT_EQ(vs[0].node, 1);
  EXPECT_EQ(vs[0].message, 0);
  EXPECT_NE(vs[0].text.find("receives it first in step 1"), std::string::npos);
}

TEST(Verify, Rule5SenderNeverHoldsIt) {
  auto s = ring4_oab();
  s.transfers[2].path = {2, 1};  // 2 never holds the message; and 2 is never reached
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{5, 6})) << all_text(vs);
  EXPECT_TRUE(has(vs, 5, 2));
  EXPECT_NE(all_text(vs).find("never receives it"), std::string::npos);
}

TEST(Verify, Rule5EachCombinedMessageMustBeHeld) {
  // With combining, 1 forwards a bundle: one message it originates and one it received.
  auto s = ring4_aas();
  s.model.combining = true;
  const auto m02 = test::message_id(s.collective, 0, 2);
  const auto m13 = test::message_id(s.collective, 1, 3);
  // Transfer 8 (0->1->2 in step 2) becomes 0->1 in step 1 carrying m02, then 1->2 in step 2
  // carrying m02 together with m13 — 1 holds m13 (origin) and m02 (received in step 1).
  s.transfers[8] = {2, {1, 2}, {m02, m13}};
  s.transfers[0].messages.push_back(m02);
  // Transfer 10 delivered m13 1->0->3; keep it. The extra copy of m13 to 2 is harmless.
  EXPECT_TRUE(verify_schedule(s).empty()) << all_text(verify_schedule(s));
  // Now 1 also claims to forward m20, which it never receives.
  const auto m20 = test::message_id(s.collective, 2, 0);
  s.transfers[8].messages.push_back(m20);
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{5})) << all_text(vs);
  ASSERT_EQ(vs.size(), 1U);
  EXPECT_EQ(vs[0].message, m20);
}

// --- rule 6 -----------------------------------------------------------------------------

TEST(Verify, Rule6MissingDelivery) {
  auto s = ring4_aas();
  s.transfers.pop_back();  // 3 -> 2 -> 1 gone
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{6})) << all_text(vs);
  ASSERT_EQ(vs.size(), 1U);
  EXPECT_EQ(vs[0].node, 1);
  EXPECT_EQ(vs[0].message, test::message_id(s.collective, 3, 1));
}

TEST(Verify, Rule6BroadcastTargetNotReached) {
  auto s = ring4_oab();
  s.transfers.pop_back();
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{6, 10})) << all_text(vs);  // steps now 1
  EXPECT_TRUE(std::any_of(vs.begin(), vs.end(),
                          [](const Violation& v) { return v.rule == 6 && v.node == 2; }));
}

// --- rule 7 -----------------------------------------------------------------------------

TEST(Verify, Rule7TwoMessagesWithoutCombining) {
  auto s = ring4_aas();
  s.transfers[0].messages.push_back(test::message_id(s.collective, 0, 2));
  auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{7})) << all_text(vs);
  EXPECT_TRUE(has(vs, 7, 0));
  s.model.combining = true;
  vs = verify_schedule(s);
  EXPECT_TRUE(vs.empty()) << all_text(vs);
}

TEST(Verify, Rule7EmptyAndDuplicatedMessageLists) {
  auto s = ring4_aas();
  s.model.combining = true;
  s.transfers[0].messages.clear();
  s.transfers[1].messages.push_back(s.transfers[1].messages.front());
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{6, 7})) << all_text(vs);
  EXPECT_TRUE(has(vs, 7, 0));
  EXPECT_TRUE(has(vs, 7, 1));
}

// --- rule 8 -----------------------------------------------------------------------------

TEST(Verify, Rule8StoreAndForwardNeedsSingleHops) {
  auto s = ring4_aas();
  s.model.switching = Switching::store_and_forward;
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{8})) << all_text(vs);
  EXPECT_EQ(count_rule(vs, 8), 4);
  for (int i = 8; i < 12; ++i) EXPECT_TRUE(has(vs, 8, i));
}

// --- rule 9 -----------------------------------------------------------------------------

TEST(Verify, Rule9DetourUnderMinimalRouting) {
  auto s = ring4_aas();
  s.transfers[0] = {3, {0, 3, 2, 1}, s.transfers[0].messages};  // 3 hops for distance 1
  s.steps = 3;
  auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{9})) << all_text(vs);
  EXPECT_EQ(vs.front().transfer, 0);
  EXPECT_NE(vs.front().text.find("has 3 hops but the distance is 1"), std::string::npos);
  s.model.routing = Routing::nonminimal;
  vs = verify_schedule(s);
  EXPECT_TRUE(vs.empty()) << all_text(vs);
}

TEST(Verify, Rule9UsesTheTopologyAsGivenWithFaultsRemoved) {
  auto s = ring4_aas();
  // Remove channel 0->1: 0 -> 1 must now go the long way (3 hops), which is minimal.
  const Channel removed{0, 1};
  s.topology = s.topology.without_channels(std::span<const Channel>(&removed, 1));
  s.transfers[0] = {3, {0, 3, 2, 1}, s.transfers[0].messages};
  s.transfers[8] = {4, {0, 3, 2}, s.transfers[8].messages};
  s.steps = 4;
  const auto vs = verify_schedule(s);
  EXPECT_TRUE(vs.empty()) << all_text(vs);
}

// On a generated family rule 9 reads distances from the closed form (FamilyMetric); the
// same paths on a copy renamed out of its family (so searched breadth-first) must draw the
// same rule-9 reports, on random walks of every length between processors and switches.
TEST(Verify, Rule9ClosedFormAgreesWithTheSearch) {
  for (const char* spec : {"torus:5x6", "mesh:3x4", "hypercube:4", "fattree:8", "ring:7", "uring:5"}) {
    Schedule s;
    s.topology = make_topology(spec);
    s.collective = test::aas(s.topology);
    std::mt19937 rng(7);
    const auto& t = s.topology;
    for (int i = 0; i < 300; ++i) {
      std::vector<NodeId> path{static_cast<NodeId>(rng() % t.processor_count())};
      for (int hops = 1 + static_cast<int>(rng() % 6); hops > 0; --hops) {
        const auto out = t.out_channels(path.back());
        path.push_back(t.channel(out[rng() % out.size()]).to);
      }
      s.transfers.push_back({i + 1, std::move(path), {0}});
    }
    s.steps = static_cast<int>(s.transfers.size());
    const auto rule9 = [](const std::vector<Violation>& vs) {
      std::vector<std::string> texts;
      for (const auto& v : vs)
        if (v.rule == 9) texts.push_back(v.text);
      return texts;
    };
    const auto closed = rule9(verify_schedule(s));
    s.topology.set_name(std::string("renamed ") + spec);
    const auto searched = rule9(verify_schedule(s));
    EXPECT_FALSE(closed.empty()) << spec;
    EXPECT_EQ(closed, searched) << spec;
  }
}

// --- rule 10 ----------------------------------------------------------------------------

TEST(Verify, Rule10StepsMustEqualLargestStepUsed) {
  auto s = ring4_aas();
  s.steps = 3;
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  EXPECT_EQ(vs.front().text, "rule 10 (bookkeeping): steps is 3 but the largest step used is 2");
}

TEST(Verify, Rule10UnknownMessageId) {
  auto s = ring4_aas();
  s.model.combining = true;
  s.transfers[3].messages.push_back(99);
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  EXPECT_EQ(vs.front().message, 99);
  EXPECT_EQ(vs.front().transfer, 3);
}

TEST(Verify, Rule10MessageIdsMustBeIndices) {
  auto s = ring4_aas();
  const MessageId last = static_cast<MessageId>(s.collective.messages.size()) - 1;
  s.collective.messages.back().id = last + 5;
  for (auto& t : s.transfers)
    for (auto& m : t.messages)
      if (m == last) m = last + 5;
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  EXPECT_EQ(vs.size(), 1U);
}

TEST(Verify, Rule10MissingAasMessage) {
  auto s = ring4_aas();
  // Drop message 3 -> 2 (the last one) and the transfer that carried it.
  const MessageId m32 = test::message_id(s.collective, 3, 2);
  s.collective.messages.pop_back();
  std::erase_if(s.transfers, [&](const Transfer& t) { return t.messages.front() == m32; });
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  EXPECT_NE(all_text(vs).find("AAS needs a message from 3 to 2"), std::string::npos);
}

TEST(Verify, Rule10SendersMustBeTheOrigins) {
  auto s = ring4_aas();
  s.collective.senders.pop_back();  // 3 still originates messages
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  EXPECT_NE(all_text(vs).find("originates at 3, which is not a sender"), std::string::npos);
}

TEST(Verify, Rule10BroadcastTargetsMustBeEveryOtherProcessor) {
  auto s = ring4_oab();
  auto& targets = s.collective.messages[0].targets;
  targets.erase(std::find(targets.begin(), targets.end(), 2));
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  EXPECT_NE(all_text(vs).find("missing [2]"), std::string::npos) << all_text(vs);
  EXPECT_NE(all_text(vs).find("receiver 2 is the target of no message"), std::string::npos);
}

TEST(Verify, Rule10RootMayBeListedAmongOabReceivers) {
  auto s = ring4_oab();
  s.collective.receivers = {0, 1, 2, 3};
  EXPECT_TRUE(verify_schedule(s).empty()) << all_text(verify_schedule(s));
}

TEST(Verify, Rule10KindMustMatchMessages) {
  auto s = ring4_aas();
  s.collective.kind = CollectiveKind::AAB;  // scatter messages are not AAB messages
  auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{10})) << all_text(vs);
  s.collective.kind = CollectiveKind::MNS;  // MNS with every processor on both sides = AAS
  vs = verify_schedule(s);
  EXPECT_TRUE(vs.empty()) << all_text(vs);
  s.collective.kind = CollectiveKind::CUSTOM;
  EXPECT_TRUE(verify_schedule(s).empty());
}

TEST(Verify, Rule10Permutation) {
  Schedule s;
  s.topology = test::ring(4);
  s.collective.kind = CollectiveKind::PERM;
  s.collective.senders = {0, 1, 2, 3};
  s.collective.receivers = {0, 1, 2, 3};
  for (NodeId u = 0; u < 4; ++u)
    s.collective.messages.push_back({u, u, {static_cast<NodeId>((u + 1) % 4)}});
  s.steps = 1;
  for (NodeId u = 0; u < 4; ++u) s.transfers.push_back({1, {u, (u + 1) % 4}, {u}});
  EXPECT_TRUE(verify_schedule(s).empty()) << all_text(verify_schedule(s));
  s.collective.messages[1].targets = {2 + 1};  // 1 -> 3: now 3 receives twice, 2 never
  s.transfers[1].path = {1, 2, 3};
  const auto vs = verify_schedule(s);
  EXPECT_EQ(rules_of(vs), (std::set<int>{3, 10})) << all_text(vs);
  EXPECT_NE(all_text(vs).find("PERM: processor 3 is the target of more than one message"),
            std::string::npos);
}

// --- garbage ----------------------------------------------------------------------------

TEST(Verify, GarbageIsReportedNotCrashedOn) {
  Schedule s;
  s.topology = test::ring(3);
  s.collective.kind = CollectiveKind::AAS;
  s.collective.senders = {42, -1, 0, 0};
  s.collective.receivers = {};
  s.collective.messages = {{7, 77, {}}, {1, 0, {0, 5, -3, 1, 1}}};
  s.steps = -3;
  s.transfers = {{-2, {}, {}},
                 {1, {-1}, {-7}},
                 {2, {5, 6}, {1, 1, 1}},
                 {std::numeric_limits<Step>::max(), {0, 1, 2, 0, 1}, {1}},
                 {1, {0, 0}, {0}}};
  std::vector<Violation> vs;
  ASSERT_NO_THROW(vs = verify_schedule(s));
  EXPECT_FALSE(vs.empty());
  for (const auto& v : vs) {
    EXPECT_GE(v.rule, 1);
    EXPECT_LE(v.rule, 10);
    EXPECT_EQ(v.text.rfind("rule " + std::to_string(v.rule) + " (", 0), 0U) << v.text;
  }
  for (int rule : {1, 2, 5, 6, 7, 9, 10}) EXPECT_GT(count_rule(vs, rule), 0) << rule;
}

TEST(Verify, EmptyTopologyDoesNotCrash) {
  Schedule s;
  s.collective.senders = {0};
  s.collective.messages = {{0, 0, {1}}};
  s.steps = 1;
  s.transfers = {{1, {0, 1}, {0}}};
  std::vector<Violation> vs;
  ASSERT_NO_THROW(vs = verify_schedule(s));
  EXPECT_TRUE(rules_of(vs).contains(1));
}

// Random corruption of a valid schedule, fixed seed: never a crash, and any mutation that
// changes a path node to a non-existent one is reported under rule 1.
TEST(Verify, RandomCorruptionNeverCrashes) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> small(-3, 8);
  for (int round = 0; round < 2000; ++round) {
    auto s = ring4_aas();
    const int edits = 1 + round % 4;
    bool bad_node = false;
    for (int e = 0; e < edits; ++e) {
      auto& t = s.transfers[static_cast<std::size_t>(rng() % s.transfers.size())];
      switch (rng() % 6) {
        case 0:
          t.step = small(rng);
          break;
        case 1:
          if (!t.path.empty()) {
            auto& n = t.path[rng() % t.path.size()];
            n = small(rng);
            bad_node = bad_node || n < 0 || n >= 4;
          }
          break;
        case 2:
          t.path.push_back(small(rng));
          bad_node = bad_node || t.path.back() < 0 || t.path.back() >= 4;
          break;
        case 3:
          if (!t.path.empty()) t.path.pop_back();
          break;
        case 4:
          t.messages.push_back(small(rng));
          break;
        default:
          s.steps = small(rng);
          break;
      }
    }
    std::vector<Violation> vs;
    ASSERT_NO_THROW(vs = verify_schedule(s)) << "round " << round;
    if (bad_node) {
      // The bad node may have been popped again by a later edit; only check when present.
      bool present = false;
      for (const auto& t : s.transfers)
        for (const NodeId n : t.path) present = present || n < 0 || n >= 4;
      if (present) {
        EXPECT_TRUE(rules_of(vs).contains(1)) << "round " << round;
      }
    }
  }
}

TEST(Verify, RuleNames) {
  EXPECT_EQ(rule_name(1), "paths");
  EXPECT_EQ(rule_name(5), "holding");
  EXPECT_EQ(rule_name(10), "bookkeeping");
  EXPECT_EQ(rule_name(11), "blocks");  // R1 (reduce_verify_test.cpp)
  EXPECT_EQ(rule_name(kRuleClaims), "claims");
  EXPECT_EQ(rule_name(kRuleClaims + 1), "unknown");
}

}  // namespace
}  // namespace ccsched

namespace ccsched {
namespace {

// Cross-check with the problem module: every collective make_collective expands must pass
// the verifier's own reading of its kind (rule 10); with no transfers only rule 6 remains.
TEST(Verify, AgreesWithTheProblemModulesExpansion) {
  for (const char* spec : {"ring:5", "kautz:2,2", "omega:8"}) {
    const Topology t = make_topology(spec);
    for (const auto kind :
         {CollectiveKind::OAB, CollectiveKind::AAB, CollectiveKind::OAS, CollectiveKind::AAS,
          CollectiveKind::AOG, CollectiveKind::MNB, CollectiveKind::MNS, CollectiveKind::PERM}) {
      CollectiveRequest request;
      request.kind = kind;
      if (kind == CollectiveKind::OAB || kind == CollectiveKind::OAS || kind == CollectiveKind::AOG)
        request.root = "2";
      if (kind == CollectiveKind::MNB || kind == CollectiveKind::MNS) {
        request.senders = {"0", "1"};
        request.receivers = {"1", "2", "3"};
      }
      Schedule s;
      s.topology = t;
      s.collective = make_collective(t, request);
      const auto vs = verify_schedule(s);
      EXPECT_EQ(rules_of(vs), (std::set<int>{6})) << spec << " " << to_string(kind) << "\n"
                                                  << all_text(vs);
    }
  }
}

}  // namespace
}  // namespace ccsched
