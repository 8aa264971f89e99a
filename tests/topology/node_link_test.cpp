// NetworkX node-link JSON (io_node_link.cpp): documents as networkx.node_link_data writes
// them (2.x "links", 3.4+ "edges", directed or not, tuple ids) read as the network they
// describe; every generated network written as node-link reads back as itself; bad
// documents are refused with one line naming the key.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/io.hpp"

namespace ccsched {
namespace {

Topology read(const std::string& text) {
  return read_topology(text, TopologyFormat::node_link, "g.json");
}

// The message of the InvalidInput that reading `text` as a .json topology throws.
std::string error_of(const std::string& text) {
  try {
    read_topology(text, TopologyFormat::json, "g.json");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "no error";
}

// nx.node_link_data(nx.path_graph(3)) in NetworkX 2.8.
constexpr const char* kPath3 =
    R"({"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 0}, {"id": 1},)"
    R"( {"id": 2}], "links": [{"source": 0, "target": 1}, {"source": 1, "target": 2}]})";

TEST(NodeLink, UndirectedLinksAreTwoChannelsAndIntegerIdsNoLabels) {
  const Topology t = read(kPath3);
  EXPECT_EQ(t.node_count(), 3);
  EXPECT_EQ(t.processor_count(), 3);
  EXPECT_EQ(t.channel_count(), 4);
  EXPECT_TRUE(t.has_channel(0, 1) && t.has_channel(1, 0) && t.has_channel(2, 1));
  EXPECT_FALSE(t.has_channel(0, 2));
  EXPECT_FALSE(t.has_labels());
}

TEST(NodeLink, JsonFilesWithoutFormatAreNodeLink) {
  const Topology t = read_topology(kPath3, TopologyFormat::json, "g.json");
  EXPECT_EQ(t.channel_count(), 4);
}

TEST(NodeLink, DirectedEdgesKeyStringAndTupleIdsSwitchesAndName) {
  // NetworkX 3.4 with edges="edges"; a grid graph's tuple ids are arrays.
  const Topology t = read(
      R"({"directed": true, "multigraph": false, "graph": {"name": "g"},)"
      R"( "nodes": [{"id": "a"}, {"id": [0, 1]}, {"id": 7, "kind": "switch"}],)"
      R"( "edges": [{"source": "a", "target": [0, 1]}, {"source": [0, 1], "target": 7},)"
      R"( {"source": 7, "target": "a"}]})");
  EXPECT_EQ(t.name(), "g");
  EXPECT_EQ(t.channel_count(), 3);
  EXPECT_TRUE(t.has_channel(0, 1) && t.has_channel(1, 2) && t.has_channel(2, 0));
  EXPECT_FALSE(t.has_channel(1, 0));
  EXPECT_EQ(t.label(0), "a");
  EXPECT_EQ(t.label(1), "[0,1]");
  EXPECT_EQ(t.label(2), "7");
  EXPECT_EQ(t.switch_count(), 1);
  EXPECT_EQ(t.find_node("7"), std::optional<NodeId>(2));
}

TEST(NodeLink, MultigraphParallelLinksAreOneChannelEach) {
  const Topology t = read(
      R"({"directed": false, "multigraph": true, "graph": {}, "nodes": [{"id": 0}, {"id": 1}],)"
      R"( "links": [{"source": 0, "target": 1, "key": 0}, {"source": 1, "target": 0, "key": 1}]})");
  EXPECT_EQ(t.channel_count(), 2);
}

TEST(NodeLink, EveryGeneratedNetworkReadsBackAsItself) {
  for (const std::string spec : {"ring:8", "kautz:3,2", "omega:8", "fattree:16", "mesh:3x4",
                                 "debruijn:2,3", "clos:3,3,4"}) {
    const Topology t = make_topology(spec);
    const Topology back = read(write_topology(t, TopologyFormat::node_link));
    EXPECT_TRUE(t.same_network(back)) << spec;
    EXPECT_EQ(back.name(), t.name()) << spec;
  }
}

TEST(NodeLink, FaultsRoundTrip) {
  const std::vector<Channel> faulty = {{0, 1}, {1, 0}};
  const Topology t = make_topology("ring:6").without_channels(faulty);
  const Topology back = read(write_topology(t, TopologyFormat::node_link));
  EXPECT_TRUE(t.same_network(back));
  EXPECT_EQ(back.fault_records().size(), 2u);
}

TEST(NodeLink, BadDocumentsNameTheKey) {
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 2}]})"),
            "g.json: links[0].target: node 2 is not in \"nodes\"");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 0}, {"id": 0}], "links": []})"),
            "g.json: nodes[1].id: duplicate node id 0");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 0}, {"id": "0"}], "links": []})"),
            "g.json: nodes[1].id: duplicate node id \"0\"");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 0}], "links": [{"source": 0, "target": 0}]})"),
            "g.json: links[0]: self-loop on node 0 (a channel joins two nodes)");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0,)"
                     R"( "target": 1}, {"source": 1, "target": 0}]})"),
            "g.json: links[1]: duplicate link 1 - 0 (not a multigraph)");
  EXPECT_EQ(error_of(R"({"nodes": [], "links": [], "edges": []})"),
            "g.json: (top level): both \"links\" and \"edges\" are present; expected one");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": null}], "links": []})"),
            "g.json: nodes[0].id: expected a node id (a string, a number or an array)");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 1, "kind": "router"}], "links": []})"),
            "g.json: nodes[0].kind: expected \"processor\" or \"switch\"");
  EXPECT_EQ(error_of(R"({"directed": 1, "nodes": [], "links": []})"),
            "g.json: directed: expected true or false");
  EXPECT_EQ(error_of(R"({"nodes": [{"id": 0}], "links": [{"source": 0}]})"),
            "g.json: links[0]: missing key \"target\"");
}

TEST(NodeLink, FormatNameParses) {
  EXPECT_EQ(parse_topology_format("node-link"), TopologyFormat::node_link);
}

}  // namespace
}  // namespace ccsched
