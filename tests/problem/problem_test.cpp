// Tests of the problem module: collective names, expansion of every kind into messages
// (counts and order worked out by hand), option errors (typed, naming the option), message
// list files, the default model, and link faults.
#include "ccsched/problem/problem.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;

Collective expand(const Topology& t, CollectiveKind kind) {
  CollectiveRequest r;
  r.kind = kind;
  return make_collective(t, r);
}

// Runs `f`, expects an exception of type E, and returns it for inspection.
template <typename E, typename F>
E expect_error(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
    throw;
  }
  ADD_FAILURE() << "no exception";
  throw std::runtime_error("no exception");
}

class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    static int counter = 0;
    path_ = (fs::temp_directory_path() / ("ccsched_problem_" + std::to_string(::getpid()) + "_" +
                                          std::to_string(counter++) + ".txt"))
                .string();
    std::ofstream(path_) << content;
  }
  ~TempFile() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(CollectiveKind, ParsesCaseInsensitivelyAndRoundTrips) {
  for (const auto kind : {CollectiveKind::OAB, CollectiveKind::AAB, CollectiveKind::OAS,
                          CollectiveKind::AAS, CollectiveKind::AOG, CollectiveKind::MNB,
                          CollectiveKind::MNS, CollectiveKind::PERM, CollectiveKind::CUSTOM,
                          CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE,
                          CollectiveKind::REDUCESCATTER, CollectiveKind::SCAN})
    EXPECT_EQ(parse_collective_kind(to_string(kind)), kind);
  EXPECT_EQ(parse_collective_kind("aas"), CollectiveKind::AAS);
  EXPECT_EQ(parse_collective_kind("Oab"), CollectiveKind::OAB);
  EXPECT_EQ(parse_collective_kind("custom"), CollectiveKind::CUSTOM);
  const auto e = expect_error<InvalidParameter>([] { parse_collective_kind("broadcast"); });
  EXPECT_EQ(e.where(), "--cc");
  EXPECT_NE(e.problem().find("'broadcast'"), std::string::npos);
}

TEST(MakeCollective, OneToAllAndAllToAllOnRing8) {
  const auto t = make_topology("ring:8");
  const auto oab = expand(t, CollectiveKind::OAB);
  ASSERT_EQ(oab.messages.size(), 1u);  // one message, 7 targets
  EXPECT_EQ(oab.messages[0].origin, 0);
  EXPECT_EQ(oab.messages[0].targets, (std::vector<NodeId>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(is_broadcast(oab));

  const auto oas = expand(t, CollectiveKind::OAS);
  ASSERT_EQ(oas.messages.size(), 7u);  // one per target, by target
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(oas.messages[i].id, static_cast<MessageId>(i));
    EXPECT_EQ(oas.messages[i].origin, 0);
    EXPECT_EQ(oas.messages[i].targets, (std::vector<NodeId>{static_cast<NodeId>(i + 1)}));
  }
  EXPECT_FALSE(is_broadcast(oas));

  const auto aab = expand(t, CollectiveKind::AAB);
  ASSERT_EQ(aab.messages.size(), 8u);
  EXPECT_EQ(aab.messages[3].origin, 3);
  EXPECT_EQ(aab.messages[3].targets, (std::vector<NodeId>{0, 1, 2, 4, 5, 6, 7}));

  const auto aas = expand(t, CollectiveKind::AAS);
  ASSERT_EQ(aas.messages.size(), 56u);  // 8 * 7, by origin then target
  EXPECT_EQ(aas.messages[7].origin, 1);
  EXPECT_EQ(aas.messages[7].targets, (std::vector<NodeId>{0}));
  EXPECT_EQ(aas.messages[8].targets, (std::vector<NodeId>{2}));
  EXPECT_EQ(aas.senders.size(), 8u);
  EXPECT_EQ(aas.receivers.size(), 8u);
}

TEST(MakeCollective, GatherIsScatterReversed) {
  const auto t = make_topology("petersen");
  CollectiveRequest r;
  r.kind = CollectiveKind::AOG;
  r.root = "4";
  const auto c = make_collective(t, r);
  ASSERT_EQ(c.messages.size(), 9u);
  EXPECT_EQ(c.receivers, (std::vector<NodeId>{4}));
  for (const auto& m : c.messages) {
    EXPECT_NE(m.origin, 4);
    EXPECT_EQ(m.targets, (std::vector<NodeId>{4}));
  }
  EXPECT_EQ(c.messages[4].origin, 5);  // origins 0,1,2,3,5,...
}

TEST(MakeCollective, RootByLabelAndErrors) {
  const auto k = make_topology("kautz:3,2");
  CollectiveRequest r;
  r.kind = CollectiveKind::OAS;
  r.root = "10";  // a Kautz label (the word 10), which wins over the id 10
  const auto c = make_collective(k, r);
  EXPECT_EQ(c.senders, (std::vector<NodeId>{*k.find_node("10")}));
  EXPECT_EQ(k.label(c.senders[0]), "10");

  r.root = "99";
  auto e = expect_error<InvalidParameter>([&] { make_collective(k, r); });
  EXPECT_EQ(e.where(), "--root");
  EXPECT_EQ(e.problem(), "root 99 is out of range (processors 0..11)");

  const auto omega = make_topology("omega:8");  // processors 0..7, switches 8..19
  r.root = "13";
  e = expect_error<InvalidParameter>([&] { make_collective(omega, r); });
  EXPECT_EQ(e.problem(), "root 13 is a switch, not a processor");

  r.root = "nosuch";
  e = expect_error<InvalidParameter>([&] { make_collective(omega, r); });
  EXPECT_NE(e.problem().find("names no node"), std::string::npos);
}

TEST(MakeCollective, ManyToManyWithOverlap) {
  const auto t = make_topology("ring:8");
  CollectiveRequest r;
  r.kind = CollectiveKind::MNS;
  r.senders = {"0", "1", "2"};
  r.receivers = {"2", "3"};
  // Pairs with sender != receiver: 0->2, 0->3, 1->2, 1->3, 2->3 (2->2 is no message).
  const auto mns = make_collective(t, r);
  ASSERT_EQ(mns.messages.size(), 5u);
  EXPECT_EQ(mns.messages[4].origin, 2);
  EXPECT_EQ(mns.messages[4].targets, (std::vector<NodeId>{3}));

  r.kind = CollectiveKind::MNB;
  const auto mnb = make_collective(t, r);
  ASSERT_EQ(mnb.messages.size(), 3u);
  EXPECT_EQ(mnb.messages[2].targets, (std::vector<NodeId>{3}));  // R without its origin 2
  EXPECT_EQ(mnb.messages[0].targets, (std::vector<NodeId>{2, 3}));

  r.senders = {"2"};
  r.receivers = {"2"};
  expect_error<InvalidParameter>([&] { make_collective(t, r); });

  const auto omega = make_topology("omega:8");
  r.kind = CollectiveKind::MNS;
  r.senders = {"0", "13"};
  r.receivers = {"3"};
  const auto e = expect_error<InvalidParameter>([&] { make_collective(omega, r); });
  EXPECT_EQ(e.where(), "--senders");
  EXPECT_EQ(e.problem(), "sender 13 is a switch, not a processor");

  r.senders.clear();
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(omega, r); }).where(),
            "--senders");
}

TEST(MakeCollective, ReductionsHaveSetsAndBlocksButNoMessages) {
  const auto t = make_topology("ring:6");
  CollectiveRequest r;
  r.kind = CollectiveKind::REDUCE;
  r.root = "4";
  auto c = make_collective(t, r);
  EXPECT_TRUE(is_reduction(c));
  EXPECT_FALSE(is_broadcast(c));
  EXPECT_TRUE(c.messages.empty());
  EXPECT_EQ(c.receivers, (std::vector<NodeId>{4}));
  EXPECT_EQ(c.senders, (std::vector<NodeId>{0, 1, 2, 3, 4, 5}));  // the root's input too
  EXPECT_EQ(c.blocks, 1);

  r.senders = {"5", "1"};  // a subset, sorted; the root need not be a sender
  c = make_collective(t, r);
  EXPECT_EQ(c.senders, (std::vector<NodeId>{1, 5}));

  r = {};
  r.kind = CollectiveKind::ALLREDUCE;
  r.blocks = 3;
  c = make_collective(t, r);
  EXPECT_EQ(c.senders, c.receivers);
  EXPECT_EQ(c.senders.size(), 6u);
  EXPECT_EQ(c.blocks, 3);
  r.receivers = {"2", "0"};  // a group given once stands for both sets
  c = make_collective(t, r);
  EXPECT_EQ(c.senders, (std::vector<NodeId>{0, 2}));
  EXPECT_EQ(c.receivers, (std::vector<NodeId>{0, 2}));
  r.senders = {"1", "3", "5"};  // both given: kept apart
  c = make_collective(t, r);
  EXPECT_EQ(c.senders, (std::vector<NodeId>{1, 3, 5}));
  EXPECT_EQ(c.receivers, (std::vector<NodeId>{0, 2}));

  r = {};
  r.kind = CollectiveKind::REDUCESCATTER;
  r.receivers = {"3", "1", "2"};
  c = make_collective(t, r);
  EXPECT_EQ(c.blocks, 3);  // one block per receiver, whatever the sender count
  EXPECT_EQ(c.receivers, (std::vector<NodeId>{1, 2, 3}));

  r = {};
  r.kind = CollectiveKind::SCAN;
  r.senders = {"3", "0", "5"};  // the prefix order is the order given, not by id
  c = make_collective(t, r);
  EXPECT_EQ(c.senders, (std::vector<NodeId>{3, 0, 5}));
  EXPECT_EQ(c.receivers, c.senders);
}

TEST(MakeCollective, ReductionTargetsFollowTheKindTable) {
  const auto t = make_topology("ring:4");
  CollectiveRequest r;
  r.kind = CollectiveKind::SCAN;
  r.senders = {"2", "0", "1"};
  r.blocks = 2;
  auto targets = reduction_targets(make_collective(t, r));
  ASSERT_EQ(targets.size(), 6u);  // 3 senders x 2 blocks
  EXPECT_EQ(targets[0].node, 2);
  EXPECT_EQ(targets[0].senders, (std::vector<int>{0}));
  EXPECT_EQ(targets[5].node, 1);
  EXPECT_EQ(targets[5].block, 1);
  EXPECT_EQ(targets[5].senders, (std::vector<int>{0, 1, 2}));

  r = {};
  r.kind = CollectiveKind::REDUCESCATTER;
  targets = reduction_targets(make_collective(t, r));
  ASSERT_EQ(targets.size(), 4u);  // receiver j, block j only
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(targets[j].node, j);
    EXPECT_EQ(targets[j].block, j);
    EXPECT_EQ(targets[j].senders.size(), 4u);
  }
  r.kind = CollectiveKind::REDUCE;
  r.root = "3";
  targets = reduction_targets(make_collective(t, r));
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0].node, 3);
  EXPECT_TRUE(reduction_targets(expand(t, CollectiveKind::AAS)).empty());
}

TEST(MakeCollective, ReductionOptionErrorsNameTheOption) {
  const auto t = make_topology("ring:4");
  CollectiveRequest r;
  r.kind = CollectiveKind::ALLREDUCE;
  for (const int bad : {0, -2}) {
    r.blocks = bad;
    const auto e = expect_error<InvalidParameter>([&] { make_collective(t, r); });
    EXPECT_EQ(e.where(), "--blocks");
  }
  r.kind = CollectiveKind::REDUCESCATTER;
  r.blocks = 3;  // 4 receivers
  auto e = expect_error<InvalidParameter>([&] { make_collective(t, r); });
  EXPECT_EQ(e.where(), "--blocks");
  EXPECT_NE(e.problem().find("4 receivers, 3 blocks"), std::string::npos);
  r.blocks = 4;
  EXPECT_EQ(make_collective(t, r).blocks, 4);  // the same count, given explicitly

  r = {};
  r.kind = CollectiveKind::AAS;  // blocks belong to reductions and AAB only
  r.blocks = 2;
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(), "--blocks");

  // AAB of B blocks: B messages per processor, id = origin index · B + block (FORMATS.md
  // "Several blocks"); past 2^24 deliveries refused from the size alone.
  r.kind = CollectiveKind::AAB;
  r.blocks = 3;
  const Collective aab = make_collective(t, r);
  EXPECT_EQ(aab.blocks, 3);
  ASSERT_EQ(aab.messages.size(), 12u);
  EXPECT_EQ(aab.messages[2 * 3 + 1].origin, 2);
  EXPECT_EQ(aab.messages[2 * 3 + 1].targets, (std::vector<NodeId>{0, 1, 3}));
  r.blocks = 0;
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(), "--blocks");
  r.blocks = 20;  // 20 · 1024 · 1023 deliveries
  const auto big = expect_error<InvalidParameter>(
      [&] { make_collective(make_topology("torus:32x32"), r); });
  EXPECT_EQ(big.where(), "--blocks");
  EXPECT_NE(big.problem().find("more than the 16777216"), std::string::npos) << big.problem();

  r = {};
  r.kind = CollectiveKind::REDUCE;
  r.root = "9";
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(), "--root");
  r.root = "1";
  r.receivers = {"2"};
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(),
            "--receivers");
  r.receivers.clear();
  r.senders = {"1"};  // only the root's own input: nothing to do
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(), "--senders");

  r = {};
  r.kind = CollectiveKind::SCAN;
  r.senders = {"1", "2", "1"};
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(), "--senders");
  r.senders = {"1", "2"};
  r.receivers = {"2"};
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(),
            "--receivers");
}

TEST(MakeCollective, PermutationShiftAndFile) {
  const auto t = make_topology("ring:8");
  CollectiveRequest r;
  r.kind = CollectiveKind::PERM;
  r.shift = 3;
  const auto c = make_collective(t, r);
  ASSERT_EQ(c.messages.size(), 8u);
  EXPECT_EQ(c.messages[6].origin, 6);
  EXPECT_EQ(c.messages[6].targets, (std::vector<NodeId>{1}));  // (6 + 3) mod 8
  r.shift = -1;
  EXPECT_EQ(make_collective(t, r).messages[0].targets, (std::vector<NodeId>{7}));
  r.shift = 16;
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(t, r); }).where(), "--shift");

  const TempFile good("# swap pairs\n0 1\n1 0\n5 2\n");
  r.custom_file = good.path();
  const auto p = make_collective(t, r);
  ASSERT_EQ(p.messages.size(), 3u);
  EXPECT_EQ(p.messages[2].origin, 5);

  const TempFile bad("0 1\n2 1\n");
  r.custom_file = bad.path();
  const auto e = expect_error<InvalidInput>([&] { make_collective(t, r); });
  EXPECT_NE(e.problem().find("receives twice"), std::string::npos);
}

TEST(MakeCollective, CustomMessageList) {
  const auto k = make_topology("kautz:3,2");
  const TempFile file("# a custom pattern\n\n01 10 12   # labels\n3 0\n03 12 13 20\n");
  CollectiveRequest r;
  r.kind = CollectiveKind::CUSTOM;
  r.custom_file = file.path();
  const auto c = make_collective(k, r);
  ASSERT_EQ(c.messages.size(), 3u);
  EXPECT_TRUE(is_broadcast(c));
  // Sorted by origin: 01 (id 0), 03 (id 2), then node id 3 (label 10).
  EXPECT_EQ(c.messages[0].origin, *k.find_node("01"));
  EXPECT_EQ(c.messages[0].targets.size(), 2u);
  EXPECT_EQ(c.messages[1].origin, *k.find_node("03"));
  EXPECT_EQ(c.messages[1].targets.size(), 3u);
  EXPECT_EQ(c.messages[2].origin, 3);
  EXPECT_EQ(c.messages[2].targets, (std::vector<NodeId>{0}));

  const auto error_at = [&](const std::string& content) {
    const TempFile f(content);
    r.custom_file = f.path();
    return expect_error<InvalidInput>([&] { make_collective(k, r); });
  };
  auto e = error_at("01 10\n01 xx\n");
  EXPECT_EQ(e.where(), r.custom_file.value() + ":2");
  EXPECT_NE(e.problem().find("'xx'"), std::string::npos);
  e = error_at("# nothing\n01\n");
  EXPECT_EQ(e.where(), r.custom_file.value() + ":2");
  e = error_at("01 01\n");
  EXPECT_NE(e.problem().find("own origin"), std::string::npos);
  e = error_at("01 10 10\n");
  EXPECT_NE(e.problem().find("twice"), std::string::npos);
  e = error_at("# only comments\n");
  EXPECT_NE(e.problem().find("no messages"), std::string::npos);

  r.custom_file = "/nonexistent/ccsched/messages.txt";
  expect_error<InvalidInput>([&] { make_collective(k, r); });
  r.custom_file.reset();
  EXPECT_EQ(expect_error<InvalidParameter>([&] { make_collective(k, r); }).where(), "--messages");
}

TEST(Model, DefaultPortsFollowTheSeeds) {
  EXPECT_FALSE(default_model(make_topology("kautz:3,2")).ports.has_value());  // all-port
  EXPECT_EQ(default_model(make_topology("omega:8")).ports, 1);
  EXPECT_EQ(default_model(make_topology("fattree:8")).ports, 1);
  Problem p{make_topology("hypercube:5"), {}, {}};
  EXPECT_EQ(effective_ports(p), 5);  // all-port: the largest degree
  p.model.ports = 2;
  EXPECT_EQ(effective_ports(p), 2);
}

TEST(Faults, LinksChannelsAndErrors) {
  const auto ring = make_topology("ring:8");
  EXPECT_EQ(parse_fault(ring, "0-1").size(), 2u);
  EXPECT_EQ(parse_fault(ring, "7->0"), (std::vector<Channel>{{7, 0}}));
  auto e = expect_error<InvalidParameter>([&] { parse_fault(ring, "0-7x"); });
  EXPECT_EQ(e.where(), "--fault 0-7x");
  e = expect_error<InvalidParameter>([&] { parse_fault(ring, "0-4"); });
  EXPECT_EQ(std::string(e.what()), "--fault 0-4: no link between 0 and 4");
  expect_error<InvalidParameter>([&] { parse_fault(ring, "0->4"); });
  expect_error<InvalidParameter>([&] { parse_fault(ring, "04"); });
  expect_error<InvalidParameter>([&] { parse_fault(ring, "0-99"); });

  const auto faulty = apply_faults(ring, {"0-1", "3->4"});
  EXPECT_EQ(faulty.channel_count(), 16 - 3);
  EXPECT_FALSE(faulty.has_channel(1, 0));
  EXPECT_TRUE(faulty.has_channel(4, 3));
  EXPECT_EQ(faulty.fault_records().size(), 3u);

  // Kautz(3,2) is a digraph: every arc is a link of its own (seed 000 Table 5 lists 01-10
  // and 10-01 apart). 01 -> 12 is an arc and 12 -> 01 is not, so "12-01" also names it.
  const auto k = make_topology("kautz:3,2");
  const auto n01 = *k.find_node("01"), n12 = *k.find_node("12"), n10 = *k.find_node("10");
  EXPECT_EQ(parse_fault(k, "01-12"), (std::vector<Channel>{{n01, n12}}));
  EXPECT_EQ(parse_fault(k, "12-01"), (std::vector<Channel>{{n01, n12}}));
  EXPECT_EQ(parse_fault(k, "01-10"), (std::vector<Channel>{{n01, n10}}));
  EXPECT_EQ(parse_fault(k, "10-01"), (std::vector<Channel>{{n10, n01}}));
  EXPECT_EQ(parse_fault(k, "01->10"), (std::vector<Channel>{{n01, n10}}));
  e = expect_error<InvalidParameter>([&] { parse_fault(k, "01-23"); });
  EXPECT_EQ(e.problem(), "no link between 01 and 23");
}

}  // namespace
}  // namespace ccsched
