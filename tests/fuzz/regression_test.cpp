// One test per defect the fuzzers found in a reader (the crashing input is also in the
// corpus, tests/fuzz/corpus/<target>/): each asserts the clear error the input now gets.
#include <gtest/gtest.h>

#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/io.hpp"
#include "targets.hpp"

namespace ccsched {
namespace {

TEST(FuzzRegression, MessageListFromTextNamesTheLine) {
  const auto t = make_topology("ring:4");
  try {
    read_message_list(t, "0 1\n\n2 9\n", "msgs.txt");
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.where(), "msgs.txt:3");
  }
  const auto list = read_message_list(t, "3 1 0 # comment\n", "msgs.txt");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].origin, 3);
  EXPECT_EQ(list[0].targets, (std::vector<NodeId>{0, 1}));
}

TEST(FuzzRegression, SpecLimitsRefuseBeforeBuilding) {
  EXPECT_THROW(
      make_topology("hypercube:13", SpecLimits{.max_nodes = 5'000, .max_channels = 50'000}),
      InvalidParameter);
  EXPECT_EQ(make_topology("hypercube:12", SpecLimits{.max_nodes = 5'000, .max_channels = 50'000})
                .node_count(),
            4096);
}

// Fuzz find (spec): "kautz:1,199999999" passed the node limit (K(1, D) has 2 nodes) and
// then built its D-letter labels by a recursion D calls deep: stack overflow.
TEST(FuzzRegression, KautzDiameterIsBounded) {
  EXPECT_THROW(make_topology("kautz:1,199999999"), InvalidParameter);
  EXPECT_THROW(make_topology("kautz:1,65"), InvalidParameter);
  const auto t = make_topology("kautz:1,64");
  EXPECT_EQ(t.node_count(), 2);
  EXPECT_EQ(t.label(0).size(), 64u);
}

// Fuzz find (topology_dot): a DOT node name with a stray byte (0xE7) became a label that
// was not UTF-8, and the JSON writer then threw nlohmann's type_error 316.
TEST(FuzzRegression, DotLabelMustBeUtf8) {
  try {
    read_topology("graph { \xe7x -- b; }", TopologyFormat::dot, "net.dot");
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.where(), "net.dot");
    EXPECT_NE(e.problem().find("not valid UTF-8"), std::string::npos) << e.what();
  }
  // Proper UTF-8 is fine and survives every round trip.
  EXPECT_EQ(fuzz::run_topology_dot("graph { \xc3\xa9t\xc3\xa9 -- b; }"), fuzz::Outcome::accepted);
}

// Fuzz find (topology_edges): a NUL byte in a node name became a label the DOT writer
// wrote into a quoted string that cgraph (C strings) cut short: the output did not read
// back. Names and labels are now text without control characters in every reader.
TEST(FuzzRegression, ControlCharactersInLabelsAreRejected) {
  using namespace std::string_literals;
  EXPECT_THROW(read_topology("a |\0c\nc -> a\n"s, TopologyFormat::edges, "x.edges"), InvalidInput);
  EXPECT_THROW(read_topology("label 0 a\x01"
                             "b\n0 1\n",
                             TopologyFormat::edges, "x.edges"),
               InvalidInput);
  EXPECT_THROW(read_topology(R"({"format": "ccsched-topology/1", "nodes": [{"id": 0,
      "kind": "processor", "label": "a\u0000b"}], "channels": []})",
                             TopologyFormat::json, "x.json"),
               InvalidInput);
  EXPECT_THROW(read_topology(R"({"format": "ccsched-topology/1", "name": "a\nb",
      "nodes": [], "channels": []})",
                             TopologyFormat::json, "x.json"),
               InvalidInput);
}

// Found while fixing the above: DOT keeps backslashes as written, so a label ending in a
// backslash or equal to "\N" could not round-trip; the DOT writer now refuses it.
TEST(FuzzRegression, DotWriterRefusesBackslashes) {
  Topology t("x");
  t.add_node(NodeKind::processor, "a\\");
  t.add_node(NodeKind::processor);
  t.add_link(0, 1);
  EXPECT_THROW(write_topology(t, TopologyFormat::dot), Unsupported);
  t.set_label(0, "a");
  EXPECT_NO_THROW(write_topology(t, TopologyFormat::dot));
  t.set_name("%1");
  EXPECT_THROW(write_topology(t, TopologyFormat::dot), Unsupported);
}

// "nodes 9999999" (9 bytes) used to allocate ten million nodes (gigabytes under ASan).
TEST(FuzzRegression, EdgeListNodeCountIsBounded) {
  EXPECT_THROW(read_topology("9999999 0\n", TopologyFormat::edges, "x.edges"), InvalidInput);
  EXPECT_THROW(read_topology("nodes 1000001\n0 1\n", TopologyFormat::edges, "x.edges"),
               InvalidInput);
}

// Fuzz find (topology_dot): cgraph's lexer kept the text after the first graph and its
// state (inside an unterminated quoted string) across reads, so a valid DOT file read
// after such a file failed ("syntax error"), and after a file with two graphs the next
// read returned the left-over second graph instead of the file's own.
TEST(FuzzRegression, DotReaderStartsEveryReadClean) {
  const auto first =
      read_topology("graph \"x\" { a -- b } \"never closed {", TopologyFormat::dot, "1.dot");
  EXPECT_EQ(first.name(), "x");
  EXPECT_EQ(first.node_count(), 2);
  const auto next = read_topology("graph { 0 -- 1; 1 -- 2 }", TopologyFormat::dot, "2.dot");
  EXPECT_EQ(next.node_count(), 3);
  (void)read_topology("graph { p -- q }\ngraph { r -- s -- t -- u }\n", TopologyFormat::dot,
                      "3.dot");
  const auto after = read_topology("graph { 0 -- 1 }", TopologyFormat::dot, "4.dot");
  EXPECT_EQ(after.node_count(), 2);
  EXPECT_EQ(after.label(0), "");  // numeric names are ids, not the labels r, s, ...
}

// Fuzz find (topology_dot, UBSan): node names were taken as ids by std::from_chars, which
// accepts "-5", and by_id[-5] was indexed. A signed name is now a plain name (a label);
// an anynet id must be digits.
TEST(FuzzRegression, NegativeNumbersAreNotNodeIds) {
  const auto dot = read_topology("graph { 0 -- -5; -5 -- 1 }", TopologyFormat::dot, "x.dot");
  ASSERT_EQ(dot.node_count(), 3);
  EXPECT_TRUE(dot.find_node("-5").has_value());
  // In an edge list "-1" is a name: a file of names may use it, and beside numeric ids it
  // is refused like any other name (docs/TOPOLOGIES.md, "Edge lists").
  const auto edges = read_topology("a -1\n-1 b\n", TopologyFormat::edges, "x.edges");
  EXPECT_EQ(edges.node_count(), 3);
  EXPECT_EQ(edges.label(1), "-1");
  EXPECT_THROW(read_topology("0 -1\n-1 1\n", TopologyFormat::edges, "x.edges"), InvalidInput);
  EXPECT_THROW(read_topology("router 0 node -1\n", TopologyFormat::anynet, "x.anynet"),
               InvalidInput);
}

// Fuzz find (topology_dot): a name ending in a space ("x } ") was written to an edge list
// as "name x } " and read back trimmed; the edge-list writer now refuses it.
TEST(FuzzRegression, EdgeListWriterRefusesNamesWithOuterSpaces) {
  Topology t("x } ");
  t.add_node(NodeKind::processor);
  EXPECT_THROW(write_topology(t, TopologyFormat::edges), Unsupported);
  t.set_name("x }");
  EXPECT_EQ(
      read_topology(write_topology(t, TopologyFormat::edges), TopologyFormat::edges, "e").name(),
      "x }");
}

// Fuzz find (topology_dot): "0 -> 2; 0 -> 2 [fault=true]" recorded a fault on a working
// channel, which ccsched-topology/1 forbids: its JSON did not read back. DOT and edge lists
// now refuse it like the JSON reader.
TEST(FuzzRegression, FaultOnAWorkingChannelIsRejected) {
  EXPECT_THROW(read_topology("digraph { 0 -> 2; 1 -> 0; 0 -> 2 [fault=true]; 2 -> 0; }",
                             TopologyFormat::dot, "x.dot"),
               InvalidInput);
  EXPECT_THROW(read_topology("0 1\nfault 1 -> 0\n", TopologyFormat::edges, "x.edges"),
               InvalidInput);
  EXPECT_NO_THROW(
      read_topology("0 -> 1\n1 -> 2\n2 -> 0\nfault 1 -> 0\n", TopologyFormat::edges, "x.edges"));
}

// Fuzz find (topology_json): a number too large for a double made nlohmann throw
// out_of_range (406), which the topology reader did not catch (it caught parse_error only).
TEST(FuzzRegression, JsonNumberOverflowIsInvalidInput) {
  try {
    read_topology("1E4244444444", TopologyFormat::json, "x.json");
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.where(), "x.json");
    EXPECT_NE(e.problem().find("malformed JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_topology(R"({"format": "ccsched-topology/1", "nodes": [{"id": 1e999}]})",
                             TopologyFormat::json, "x.json"),
               InvalidInput);
  EXPECT_THROW(read_schedule_json(R"({"format": "ccsched-schedule/1", "steps": 1e999})", "s.json"),
               InvalidInput);
}

}  // namespace
}  // namespace ccsched
