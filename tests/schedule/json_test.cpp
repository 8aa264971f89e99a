// ccsched-schedule/1 reading and writing: round trips, the exact shape of FORMATS.md, and
// one clear error naming the key path for every kind of structural damage.
#include "ccsched/schedule/json.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/verify.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

using nlohmann::json;

void expect_same(const Schedule& a, const Schedule& b) {
  EXPECT_TRUE(a.topology.same_network(b.topology));
  EXPECT_EQ(a.topology.name(), b.topology.name());
  EXPECT_EQ(a.topology.fault_records(), b.topology.fault_records());
  EXPECT_EQ(a.collective.kind, b.collective.kind);
  EXPECT_EQ(a.collective.senders, b.collective.senders);
  EXPECT_EQ(a.collective.receivers, b.collective.receivers);
  EXPECT_EQ(a.collective.blocks, b.collective.blocks);
  ASSERT_EQ(a.collective.messages.size(), b.collective.messages.size());
  for (std::size_t i = 0; i < a.collective.messages.size(); ++i) {
    EXPECT_EQ(a.collective.messages[i].id, b.collective.messages[i].id);
    EXPECT_EQ(a.collective.messages[i].origin, b.collective.messages[i].origin);
    EXPECT_EQ(a.collective.messages[i].targets, b.collective.messages[i].targets);
  }
  EXPECT_EQ(a.model.ports, b.model.ports);
  EXPECT_EQ(a.model.switching, b.model.switching);
  EXPECT_EQ(a.model.routing, b.model.routing);
  EXPECT_EQ(a.model.combining, b.model.combining);
  if (a.model.routing == Routing::nonminimal) {
    EXPECT_EQ(a.model.extra_hops, b.model.extra_hops);
  }
  EXPECT_EQ(a.steps, b.steps);
  ASSERT_EQ(a.transfers.size(), b.transfers.size());
  for (std::size_t i = 0; i < a.transfers.size(); ++i) {
    EXPECT_EQ(a.transfers[i].step, b.transfers[i].step);
    EXPECT_EQ(a.transfers[i].path, b.transfers[i].path);
    EXPECT_EQ(a.transfers[i].messages, b.transfers[i].messages);
    if (a.collective.kind >= CollectiveKind::REDUCE) {
      EXPECT_EQ(a.transfers[i].blocks, b.transfers[i].blocks);
      EXPECT_EQ(a.transfers[i].send, b.transfers[i].send);
      EXPECT_EQ(a.transfers[i].recv, b.transfers[i].recv);
    }
  }
  EXPECT_EQ(a.lower_bound, b.lower_bound);
  EXPECT_EQ(a.optimal, b.optimal);
  EXPECT_EQ(a.optimal_within, b.optimal_within);
  EXPECT_EQ(a.direct_delivery_bound, b.direct_delivery_bound);
  ASSERT_EQ(a.solver.has_value(), b.solver.has_value());
  if (a.solver) {
    EXPECT_EQ(a.solver->engine, b.solver->engine);
    EXPECT_EQ(a.solver->seed, b.solver->seed);
    EXPECT_DOUBLE_EQ(a.solver->seconds, b.solver->seconds);
  }
}

Schedule round_trip(const Schedule& s) {
  const auto text = write_schedule_json(s);
  const auto back = read_schedule_json(text, "mem.json");
  EXPECT_EQ(write_schedule_json(back), text);  // writing is deterministic and lossless
  return back;
}

TEST(ScheduleJson, RoundTripAas) {
  auto s = test::ring4_aas();
  s.lower_bound = 2;
  s.optimal = true;
  s.solver = SolverInfo{"sat", 7, 0.25};
  expect_same(s, round_trip(s));
}

TEST(ScheduleJson, RoundTripModelVariants) {
  auto s = test::ring4_oab();
  s.model.ports = 1;
  s.model.switching = Switching::store_and_forward;
  s.model.routing = Routing::nonminimal;
  s.model.extra_hops = 3;
  s.model.combining = true;
  const auto back = round_trip(s);
  expect_same(s, back);
  EXPECT_EQ(back.model.extra_hops, 3);
  EXPECT_FALSE(back.lower_bound.has_value());
  EXPECT_FALSE(back.solver.has_value());
}

TEST(ScheduleJson, RoundTripProofFields) {
  auto s = test::ring4_aas();
  s.lower_bound = 2;
  s.optimal_within = "direct delivery";
  s.direct_delivery_bound = 3;
  const auto back = round_trip(s);
  expect_same(s, back);
  EXPECT_EQ(back.optimal_within, "direct delivery");
  const auto doc = json::parse(write_schedule_json(s));
  EXPECT_EQ(doc["direct_delivery_bound"], 3);
  EXPECT_FALSE(json::parse(write_schedule_json(test::ring4_aas())).contains("optimal_within"));
}

TEST(ScheduleJson, RoundTripReductions) {
  auto s = test::ring4_reduce_scatter();
  s.transfers[5].recv = ReductionRecv::copy;  // both receive actions survive
  expect_same(s, round_trip(s));
  for (const auto kind : {CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE,
                          CollectiveKind::SCAN}) {
    s.collective.kind = kind;
    s.collective.blocks = 7;
    s.model.combining = true;
    s.transfers[0].blocks = {6, 0};
    const auto back = round_trip(s);
    expect_same(s, back);
    EXPECT_EQ(back.collective.kind, kind);
  }
}

TEST(ScheduleJson, ReductionShapeFollowsFormatsMd) {
  const auto doc = json::parse(write_schedule_json(test::ring4_reduce_scatter()));
  EXPECT_EQ(doc["collective"]["kind"], "REDUCESCATTER");
  EXPECT_EQ(doc["collective"]["blocks"], 4);
  EXPECT_EQ(doc["messages"], json::array());
  // Transfer 5 is node 1's in step 2: block (1 - 2) mod 4 = 3, its partial sum.
  EXPECT_EQ(doc["transfers"][5], json::parse(R"({"step": 2, "path": [1, 2], "blocks": [3],
                                                 "send": "acc", "recv": "reduce"})"));
  EXPECT_EQ(doc["transfers"][0]["send"], "input");
  // Message collectives keep their shape: no blocks anywhere.
  const auto aas = json::parse(write_schedule_json(test::ring4_aas()));
  EXPECT_FALSE(aas["collective"].contains("blocks"));
  EXPECT_FALSE(aas["transfers"][0].contains("blocks"));
  EXPECT_FALSE(aas["transfers"][0].contains("send"));
}

TEST(ScheduleJson, RoundTripFaultyTopologyWithSwitches) {
  Schedule s;
  s.topology = Topology("custom");
  s.topology.add_node(NodeKind::processor, "a");
  s.topology.add_node(NodeKind::processor, "b");
  const NodeId hub = s.topology.add_node(NodeKind::switch_node, "s");
  s.topology.add_link(0, hub);
  s.topology.add_link(1, hub);
  s.topology.add_fault_record({0, 1});
  s.collective.kind = CollectiveKind::CUSTOM;
  s.collective.senders = {0};
  s.collective.receivers = {1};
  s.collective.messages = {{0, 0, {1}}};
  s.steps = 1;
  s.transfers = {{1, {0, hub, 1}, {0}}};
  expect_same(s, round_trip(s));
}

TEST(ScheduleJson, ShapeFollowsFormatsMd) {
  auto s = test::ring4_aas();
  s.lower_bound = 2;
  s.solver = SolverInfo{"greedy", 1, 0.5};
  const auto doc = json::parse(write_schedule_json(s));
  EXPECT_EQ(doc["format"], "ccsched-schedule/1");
  EXPECT_EQ(doc["topology"]["format"], "ccsched-topology/1");
  EXPECT_EQ(doc["collective"]["kind"], "AAS");
  EXPECT_EQ(doc["model"]["ports"], "all");
  EXPECT_EQ(doc["model"]["switching"], "wormhole");
  EXPECT_EQ(doc["model"]["routing"], "minimal");
  EXPECT_EQ(doc["model"]["combining"], false);
  EXPECT_FALSE(doc["model"].contains("extra_hops"));
  EXPECT_EQ(doc["messages"][1], json::parse(R"({"id": 1, "origin": 0, "targets": [2]})"));
  EXPECT_EQ(doc["steps"], 2);
  EXPECT_EQ(doc["transfers"][8], json::parse(R"({"step": 2, "path": [0, 1, 2], "messages": [1]})"));
  EXPECT_EQ(doc["lower_bound"], 2);
  EXPECT_EQ(doc["optimal"], false);
  EXPECT_EQ(doc["solver"]["engine"], "greedy");
  s.model.ports = 3;
  EXPECT_EQ(json::parse(write_schedule_json(s))["model"]["ports"], 3);
}

// A valid document as JSON, to damage in the tests below.
json valid_doc() { return json::parse(write_schedule_json(test::ring4_aas())); }

std::string error_of(const std::string& text) { return test::read_error(text); }

std::string error_of(const json& doc) { return error_of(doc.dump()); }

TEST(ScheduleJson, NotJson) {
  const auto e = error_of(std::string("{\"format\": "));
  EXPECT_EQ(e.rfind("bad.json: not valid JSON", 0), 0U) << e;
  EXPECT_EQ(e.find("json.exception"), std::string::npos) << e;
}

TEST(ScheduleJson, UnknownFormat) {
  auto doc = valid_doc();
  doc["format"] = "ccsched-schedule/2";
  EXPECT_EQ(error_of(doc),
            "bad.json: format: unknown format \"ccsched-schedule/2\" (expected "
            "\"ccsched-schedule/1\")");
  EXPECT_NE(error_of(json::array()).find("expected an object"), std::string::npos);
}

TEST(ScheduleJson, MissingKeys) {
  for (const char* key :
       {"format", "topology", "collective", "model", "messages", "steps", "transfers"}) {
    auto doc = valid_doc();
    doc.erase(key);
    EXPECT_EQ(error_of(doc), std::string("bad.json: missing key \"") + key + "\"") << key;
  }
  auto doc = valid_doc();
  doc["transfers"][3].erase("path");
  EXPECT_EQ(error_of(doc), "bad.json: transfers[3]: missing key \"path\"");
  doc = valid_doc();
  doc["model"].erase("combining");
  EXPECT_EQ(error_of(doc), "bad.json: model: missing key \"combining\"");
}

TEST(ScheduleJson, OptionalKeysMayBeAbsentOrNull) {
  auto doc = valid_doc();
  doc.erase("optimal");
  doc["lower_bound"] = nullptr;
  doc["solver"] = nullptr;
  const auto s = read_schedule_json(doc.dump(), "x.json");
  EXPECT_FALSE(s.optimal);
  EXPECT_FALSE(s.lower_bound);
  EXPECT_FALSE(s.solver);
}

TEST(ScheduleJson, WrongTypesNameTheKeyPath) {
  auto doc = valid_doc();
  doc["transfers"][3]["path"][1] = "a";
  EXPECT_EQ(error_of(doc), "bad.json: transfers[3].path[1]: expected an integer, got string \"a\"");
  doc = valid_doc();
  doc["transfers"][0]["messages"] = 4;
  EXPECT_EQ(error_of(doc), "bad.json: transfers[0].messages: expected an array, got number");
  doc = valid_doc();
  doc["messages"][2]["targets"][0] = 1.5;
  EXPECT_EQ(error_of(doc), "bad.json: messages[2].targets[0]: expected an integer, got number 1.5");
  doc = valid_doc();
  doc["steps"] = "2";
  EXPECT_NE(error_of(doc).find("bad.json: steps: expected an integer"), std::string::npos);
  doc = valid_doc();
  doc["collective"]["senders"] = json::object();
  EXPECT_NE(error_of(doc).find("collective.senders: expected an array"), std::string::npos);
  doc = valid_doc();
  doc["optimal"] = 1;
  EXPECT_NE(error_of(doc).find("optimal: expected true or false"), std::string::npos);
}

TEST(ScheduleJson, NegativeStepsAndHugeIds) {
  auto doc = valid_doc();
  doc["transfers"][5]["step"] = -1;
  EXPECT_NE(error_of(doc).find("transfers[5].step: integer -1 is out of range"), std::string::npos);
  doc = valid_doc();
  doc["steps"] = -2;
  EXPECT_NE(error_of(doc).find("steps: integer -2 is out of range"), std::string::npos);
  doc = valid_doc();
  doc["transfers"][0]["path"][0] = 5000000000LL;
  EXPECT_NE(error_of(doc).find("transfers[0].path[0]: integer 5000000000 is out of range"),
            std::string::npos);
}

TEST(ScheduleJson, ModelValues) {
  auto doc = valid_doc();
  doc["model"]["ports"] = 0;
  EXPECT_NE(error_of(doc).find("model.ports"), std::string::npos);
  doc["model"]["ports"] = "some";
  EXPECT_NE(error_of(doc).find("model.ports: expected a positive integer or \"all\""),
            std::string::npos);
  doc = valid_doc();
  doc["model"]["switching"] = "circuit";
  EXPECT_NE(error_of(doc).find("model.switching"), std::string::npos);
  doc = valid_doc();
  doc["model"]["routing"] = "adaptive";
  EXPECT_NE(error_of(doc).find("model.routing"), std::string::npos);
  doc = valid_doc();
  doc["collective"]["kind"] = "XYZ";
  EXPECT_NE(error_of(doc).find("collective.kind: unknown collective kind \"XYZ\""),
            std::string::npos);
  doc = valid_doc();
  doc["model"]["ports"] = 2;
  EXPECT_EQ(read_schedule_json(doc.dump(), "").model.ports, 2);
}

TEST(ScheduleJson, BrokenEmbeddedTopologyIsNamed) {
  auto doc = valid_doc();
  doc["topology"]["channels"].push_back(json::array({0, 0}));
  const auto e = error_of(doc);
  EXPECT_EQ(e.rfind("bad.json: topology", 0), 0U) << e;
  doc = valid_doc();
  doc["topology"]["format"] = "other";
  EXPECT_NE(error_of(doc).find("topology"), std::string::npos);
}

// Semantic damage is read as written and left to the verifier.
TEST(ScheduleJson, NonexistentNodesAreReadAndReportedByTheVerifier) {
  auto doc = valid_doc();
  doc["transfers"][8]["path"] = json::array({0, 42, 2});
  doc["transfers"][9]["messages"] = json::array({1000});
  doc["transfers"][10]["step"] = 9;
  Schedule s;
  ASSERT_NO_THROW(s = read_schedule_json(doc.dump(), "x.json"));
  EXPECT_EQ(s.transfers[8].path[1], 42);
  const auto vs = verify_schedule(s);
  EXPECT_EQ(test::rules_of(vs), (std::set<int>{1, 2, 6, 10})) << test::all_text(vs);
}

TEST(ScheduleJson, UnknownKeysAreIgnored) {
  auto doc = valid_doc();
  doc["comment"] = "hand-edited";
  doc["transfers"][0]["note"] = 1;
  EXPECT_NO_THROW(read_schedule_json(doc.dump(), "x.json"));
}

TEST(ScheduleJson, Files) {
  EXPECT_THROW(read_schedule_file("/nonexistent/dir/s.json"), InvalidInput);
  try {
    read_schedule_file("/tmp");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "/tmp: is a directory");
  }
}

TEST(ScheduleJson, ReductionReaderDefaultsAndErrors) {
  const auto valid = json::parse(write_schedule_json(test::ring4_reduce_scatter()));
  auto doc = valid;
  doc.erase("messages");  // a reduction has none: the key may be left out
  doc["collective"].erase("blocks");
  const auto s = read_schedule_json(doc.dump(), "r.json");
  EXPECT_TRUE(s.collective.messages.empty());
  EXPECT_EQ(s.collective.blocks, 4);  // REDUCESCATTER: one block per receiver
  EXPECT_TRUE(verify_schedule(s).empty());
  doc["collective"]["kind"] = "allreduce";  // kinds are matched without regard to case
  EXPECT_EQ(read_schedule_json(doc.dump(), "").collective.blocks, 1);

  doc = valid;
  doc["transfers"][2]["send"] = "partial";
  EXPECT_EQ(error_of(doc),
            "bad.json: transfers[2].send: expected \"input\" or \"acc\", got \"partial\"");
  doc = valid;
  doc["transfers"][2]["recv"] = 1;
  EXPECT_EQ(error_of(doc), "bad.json: transfers[2].recv: expected a string, got number");
  doc = valid;
  doc["transfers"][3].erase("blocks");
  EXPECT_EQ(error_of(doc), "bad.json: transfers[3]: missing key \"blocks\"");
  doc = valid;
  doc["transfers"][3]["blocks"][0] = "b";
  EXPECT_EQ(error_of(doc),
            "bad.json: transfers[3].blocks[0]: expected an integer, got string \"b\"");
  doc = valid;
  doc["collective"]["blocks"] = -1;
  EXPECT_NE(error_of(doc).find("collective.blocks: integer -1 is out of range"),
            std::string::npos);
  doc["collective"]["blocks"] = 0;  // well-typed: the verifier's R1 reports it
  EXPECT_EQ(read_schedule_json(doc.dump(), "").collective.blocks, 0);
  // A message collective still needs its messages.
  doc = json::parse(write_schedule_json(test::ring4_aas()));
  doc["transfers"][0].erase("messages");
  EXPECT_EQ(error_of(doc), "bad.json: transfers[0]: missing key \"messages\"");
}

TEST(ScheduleJson, NonminimalWithoutExtraHopsIsUncapped) {
  auto s = test::ring4_aas();
  s.transfers[0].step = 3;
  s.transfers[0].path = {0, 3, 2, 1};  // two hops longer than the distance
  s.steps = 3;
  s.model.routing = Routing::nonminimal;
  s.model.extra_hops = 1;
  auto doc = json::parse(write_schedule_json(s));
  EXPECT_EQ(doc["model"]["extra_hops"], 1);
  EXPECT_FALSE(verify_schedule(read_schedule_json(doc.dump(), "")).empty());
  doc["model"].erase("extra_hops");  // FORMATS.md: no cap
  const auto back = read_schedule_json(doc.dump(), "");
  EXPECT_GE(back.model.extra_hops, back.topology.channel_count());
  EXPECT_TRUE(verify_schedule(back).empty()) << test::all_text(verify_schedule(back));
}

}  // namespace
}  // namespace ccsched
