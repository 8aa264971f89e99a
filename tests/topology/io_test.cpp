// Readers and writers: every generated network written in every format reads back as the
// same network, and every kind of bad file is refused with an error naming file and place.
#include "ccsched/topology/io.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

const std::vector<std::string>& all_specs() {
  static const std::vector<std::string> specs = {
      "ring:8",          "uring:8",      "mesh:3x4",     "mesh:2x3x2",        "torus:4x4",
      "torus:2x3x4",     "hypercube:4",  "complete:5",   "octagon",           "ngon:12",
      "petersen",        "heawood",      "levi",         "hoffman-singleton", "utility",
      "kautz:3,2",       "kautz:2,3",    "debruijn:2,3", "omega:8",           "butterfly:16",
      "clos:3,3,4",      "btree:8",      "fattree:16",   "fbtree:15",         "fat:octagon,2",
      "fat:kautz:3,2,2", "fat:btree:4,2"};
  return specs;
}

// Same node kinds and channels; labels not compared (anynet has no labels).
bool same_structure(const Topology& a, const Topology& b) {
  if (a.node_count() != b.node_count() || a.channel_count() != b.channel_count()) return false;
  for (NodeId v = 0; v < a.node_count(); ++v)
    if (a.kind(v) != b.kind(v)) return false;
  for (const auto& c : a.channels())
    if (!b.has_channel(c.from, c.to)) return false;
  return true;
}

TEST(TopologyIo, RoundTripEveryGeneratorThroughJsonDotEdges) {
  for (const auto& spec : all_specs())
    for (const auto format : {TopologyFormat::json, TopologyFormat::dot, TopologyFormat::edges}) {
      SCOPED_TRACE(spec + " format " + std::to_string(static_cast<int>(format)));
      const auto t = make_topology(spec);
      const auto text = write_topology(t, format);
      const auto back = read_topology(text, format, "roundtrip");
      EXPECT_TRUE(t.same_network(back));
      EXPECT_EQ(back.name(), t.name());
      // Writing again gives the same text: the writers are deterministic.
      EXPECT_EQ(write_topology(back, format), text);
    }
}

TEST(TopologyIo, RoundTripThroughAnynetForUndirectedNetworks) {
  int undirected = 0, directed = 0;
  for (const auto& spec : all_specs()) {
    SCOPED_TRACE(spec);
    const auto t = make_topology(spec);
    if (t.directed()) {
      // Documented exception: anynet links are bidirectional.
      EXPECT_THROW(write_topology(t, TopologyFormat::anynet), Unsupported);
      ++directed;
      continue;
    }
    ++undirected;
    const auto text = write_topology(t, TopologyFormat::anynet);
    const auto back = read_topology(text, TopologyFormat::anynet, "roundtrip.anynet");
    EXPECT_TRUE(same_structure(t, back)) << text;
  }
  EXPECT_GT(undirected, 15);
  EXPECT_GT(directed, 4);
}

TEST(TopologyIo, AnynetConventions) {
  // A BookSim mesh (router i carries node i) is a direct network of processors.
  const auto mesh = read_topology("router 0 node 0 router 1\nrouter 1 node 1 router 0\n",
                                  TopologyFormat::anynet, "m.anynet");
  EXPECT_EQ(mesh.processor_count(), 2);
  EXPECT_EQ(mesh.switch_count(), 0);
  EXPECT_TRUE(mesh.has_channel(0, 1) && mesh.has_channel(1, 0));
  // A router with two nodes is a switch; comments are accepted.
  const auto star =
      read_topology("# star\nrouter 0 node 0 node 1 node 2\n", TopologyFormat::anynet, "s.anynet");
  EXPECT_EQ(star.processor_count(), 3);
  EXPECT_EQ(star.switch_count(), 1);
  EXPECT_EQ(star.channel_count(), 6);
  // Writing a fat tree attaches processors to their leaf switches as BookSim nodes.
  const auto text = write_topology(make_topology("fattree:4"), TopologyFormat::anynet);
  EXPECT_NE(text.find("router 4 node 0 node 1"), std::string::npos) << text;
}

TEST(TopologyIo, FaultRecordsSurvive) {
  const auto base = make_topology("ring:6");
  const std::vector<Channel> removed = {{0, 1}, {1, 0}, {3, 4}};
  const auto t = base.without_channels(removed);
  for (const auto format : {TopologyFormat::json, TopologyFormat::dot, TopologyFormat::edges}) {
    const auto back = read_topology(write_topology(t, format), format, "f");
    EXPECT_TRUE(t.same_network(back));
    auto a = t.fault_records(), b = back.fault_records();
    const auto less = [](const Channel& x, const Channel& y) {
      return std::pair(x.from, x.to) < std::pair(y.from, y.to);
    };
    std::sort(a.begin(), a.end(), less);
    std::sort(b.begin(), b.end(), less);
    EXPECT_EQ(a, b);
  }
}

TEST(TopologyIo, HandWrittenDotAndEdges) {
  const auto dot = read_topology(
      "digraph net { a -> b; b -> c; c -> a; sw [kind=switch, label=\"S\"]; a -> sw; sw -> a; }",
      TopologyFormat::dot, "net.dot");
  EXPECT_EQ(dot.name(), "net");
  EXPECT_EQ(dot.node_count(), 4);
  EXPECT_EQ(dot.label(0), "a");
  EXPECT_EQ(dot.switch_count(), 1);
  EXPECT_EQ(dot.label(3), "S");
  EXPECT_TRUE(dot.has_channel(0, 1) && !dot.has_channel(1, 0));
  const auto g = read_topology("graph { 0 -- 1; 1 -- 2 }", TopologyFormat::dot, "g.gv");
  EXPECT_EQ(g.channel_count(), 4);
  EXPECT_FALSE(g.has_labels());

  const auto e =
      read_topology("# a triangle and a switch\nx y\ny -> z\nz x  # link\nswitch s\ns x\n",
                    TopologyFormat::edges, "t.edges");
  EXPECT_EQ(e.node_count(), 4);
  EXPECT_EQ(e.label(3), "s");
  EXPECT_FALSE(e.is_processor(3));
  EXPECT_TRUE(e.has_channel(1, 2) && !e.has_channel(2, 1));
  EXPECT_EQ(e.channel_count(), 7);
  const auto n =
      read_topology("nodes 4\n0 1\n1 2\n2 3\n3 0\nlabel 2 two\n", TopologyFormat::edges, "n.edges");
  EXPECT_EQ(n.node_count(), 4);
  EXPECT_EQ(n.label(2), "two");
}

struct BadCase {
  TopologyFormat format;
  const char* text;
  const char* where;  // expected suffix of Error::where()
  const char* what;   // expected part of Error::problem()
};

TEST(TopologyIo, BadFilesAreRefusedWithFileAndPlace) {
  using F = TopologyFormat;
  const BadCase cases[] = {
      {F::json, "{\"format\": \"ccsched-topology/1\", \"nodes\": [", "bad.json", "malformed JSON"},
      {F::json, "[1, 2]", "bad.json: (top level)", "expected a JSON object"},
      {F::json, R"({"format": "ccsched-topology/2", "nodes": [], "channels": []})",
       "bad.json: format", "unknown format"},
      {F::json, R"({"nodes": [], "channels": []})", "bad.json: (top level)",
       "missing key \"format\""},
      {F::json, R"({"format": "ccsched-topology/1", "nodes": []})", "bad.json: (top level)",
       "missing key \"channels\""},
      {F::json, R"({"format": "ccsched-topology/1", "nodes": {}, "channels": []})",
       "bad.json: nodes", "expected an array"},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": 3}], "channels": []})",
       "bad.json: nodes[0].kind", "expected \"processor\" or \"switch\""},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"kind": "processor"}], "channels": []})",
       "bad.json: nodes[0]", "missing key \"id\""},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"},
           {"id": 0, "kind": "processor"}], "channels": []})",
       "bad.json: nodes[1].id", "duplicate node id 0"},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"},
           {"id": 1, "kind": "processor"}], "channels": [[0, 1], [1, 0], [0, 1], [1, 7]]})",
       "bad.json: channels[2]", "duplicate channel [0, 1]"},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"},
           {"id": 1, "kind": "processor"}], "channels": [[0, 1], [1, 0], [1, 7]]})",
       "bad.json: channels[2][1]", "node 7 does not exist"},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"}],
           "channels": [[0, 0]]})",
       "bad.json: channels[0]", "self-loop"},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"}],
           "channels": [[0, "x"]]})",
       "bad.json: channels[0][1]", "expected an integer"},
      {F::json,
       R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor",
           "label": 5}], "channels": []})",
       "bad.json: nodes[0].label", "expected a string"},
      {F::dot, "digraph { a -> ", "bad.dot", "malformed DOT"},
      {F::dot, "digraph { a -> a }", "bad.dot", "self-loop"},
      {F::dot, "digraph { a -> b; a -> b }", "bad.dot", "duplicate channel a -> b"},
      {F::dot, "graph { a -- b; b -- a }", "bad.dot", "duplicate link"},
      {F::dot, "digraph { a [kind=router]; a -> b }", "bad.dot", "kind must be"},
      {F::edges, "0 1\n1 1\n", "bad.edges:2", "self-loop"},
      {F::edges, "0 1\n\n# c\n1 -> 0\n", "bad.edges:4", "duplicate channel"},
      {F::edges, "0 1 2\n", "bad.edges:1", "expected \"u v\""},
      {F::edges, "nodes 2\n0 1\n1 2\n", "bad.edges:3", "node 2 does not exist"},
      {F::edges, "nodes x\n", "bad.edges:1", "expected \"nodes N\""},
      {F::edges, "a b\nnodes 2\n", "bad.edges:2", "numeric node ids"},
      // Numbers and names do not mix: one stray word must not renumber every node.
      {F::edges, "0 1\n1 2\n2 x\nx 0\n", "bad.edges:3", "node \"x\" is not a number"},
      {F::edges, "a b\nb 3\n3 a\n", "bad.edges:2", "node \"3\" is a number"},
      {F::edges, "0 1\nswitch s\n", "bad.edges:2", "node \"s\" is not a number"},
      {F::anynet, "router 0 node 0\nnode 1 node 2\n", "bad.anynet:2",
       "cannot be connected to a node"},
      {F::anynet, "router 0 node 0 switch 1\n", "bad.anynet:1", "expected \"router\" or \"node\""},
      {F::anynet, "router 0 node x\n", "bad.anynet:1", "not a non-negative integer"},
      {F::anynet, "router 0 node 0\nrouter 1 node 0\n", "bad.anynet:2", "two routers"},
      {F::anynet, "router 0 router 0 node 0\n", "bad.anynet:1", "self-loop"},
      {F::anynet, "router 0 node 0 node 5\n", "bad.anynet:1", "node ids must be 0..1"},
  };
  const char* names[] = {"bad.json", "bad.dot", "bad.edges", "bad.anynet"};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      read_topology(c.text, c.format, names[static_cast<int>(c.format)]);
      ADD_FAILURE() << "no exception";
    } catch (const InvalidInput& e) {
      EXPECT_EQ(e.where(), c.where);
      EXPECT_NE(e.problem().find(c.what), std::string::npos) << e.problem();
    }
  }
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ccsched_topology_io_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(TempDir, LoadTopologyReadsFilesByExtension) {
  const auto t = make_topology("kautz:3,2");
  for (const auto& [ext, format] : {std::pair{".json", TopologyFormat::json},
                                    {".dot", TopologyFormat::dot},
                                    {".gv", TopologyFormat::dot},
                                    {".edges", TopologyFormat::edges}}) {
    const auto path = write(std::string("k") + ext, write_topology(t, format));
    EXPECT_TRUE(load_topology(path).same_network(t)) << path;
  }
  const auto path =
      write("f.anynet", write_topology(make_topology("fattree:8"), TopologyFormat::anynet));
  EXPECT_EQ(load_topology(path).processor_count(), 8);
  EXPECT_THROW(load_topology((dir_ / "missing.json").string()), InvalidInput);
}

TEST_F(TempDir, LoadTopologyRefusesNetworksThatAreNotStronglyConnected) {
  // Two processors reach each other, the third only sends.
  const auto path = write("weak.edges", "0 1\n2 -> 0\n");
  try {
    load_topology(path);
    ADD_FAILURE() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.where(), path);
    EXPECT_NE(e.problem().find("processors are not strongly connected: 0 cannot reach 2"),
              std::string::npos)
        << e.problem();
  }
  // Switches do not need to be reachable from every processor... but processors do.
  const auto islands = write("islands.edges", "0 1\n2 3\n");
  EXPECT_THROW(load_topology(islands), InvalidInput);
  // A switch-only path between processors is fine.
  const auto via_switch = write("star.edges", "switch 2\n0 2\n1 2\n");
  EXPECT_EQ(load_topology(via_switch).processor_count(), 2);
}

}  // namespace
}  // namespace ccsched
