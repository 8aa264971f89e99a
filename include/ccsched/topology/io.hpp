// Readers and writers of topologies: ccsched-topology/1 JSON (FORMATS.md), NetworkX
// node-link JSON, Graphviz DOT (read through cgraph), plain edge lists, and BookSim's anynet
// files. A .json file is read as node-link JSON when it has no "format" key and has
// "nodes" and "links" (or "edges"), as networkx.node_link_data writes it.
#pragma once

#include <string>
#include <string_view>

#include "ccsched/topology/topology.hpp"

namespace ccsched {

enum class TopologyFormat { json, dot, edges, anynet, node_link };

// "json" | "dot" | "edges" | "anynet" | "node-link"; throws InvalidParameter otherwise.
TopologyFormat parse_topology_format(std::string_view text);

std::string write_topology(const Topology& t, TopologyFormat format);
// `where` names the source (a file path) in error messages.
Topology read_topology(std::string_view text, TopologyFormat format, std::string_view where);
Topology read_topology_file(const std::string& path);  // format from the extension

}  // namespace ccsched
