// NetworkX node-link JSON (what networkx.node_link_data writes, and node_link_graph reads):
//
//   {"directed": false, "multigraph": false, "graph": {"name": "ring4"},
//    "nodes": [{"id": 0}, {"id": "a", "kind": "switch"}, ...],
//    "links": [{"source": 0, "target": "a"}, ...]}
//
// NetworkX 3.4 may write "edges" instead of "links"; either is read. Node ids may be any
// JSON value (NetworkX writes tuples as arrays); a node's name in ccsched is the id itself
// for a string, its decimal form for an integer, and its compact JSON for anything else. A
// node whose id is the integer of its position in "nodes" is unlabelled (named by its id);
// every other node is labelled by its name. An undirected link is two channels; parallel
// links of a multigraph are one. `kind` ("processor", the default, or "switch") and the
// graph's `faults` ([[source, target], ...], channels out of service) are ccsched's own
// attributes; NetworkX keeps them as plain attributes. docs/TOPOLOGIES.md, "NetworkX".
#include <fmt/core.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "io_internal.hpp"

namespace ccsched::detail {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, std::string_view key, const std::string& what) {
  throw InvalidInput(what, at(where, key));
}

// The name a node id gets in ccsched; ids that are JSON objects or null name nothing.
std::string name_of(const json& id, const std::string& where, const std::string& key) {
  if (id.is_string()) {
    check_text(id.get_ref<const std::string&>(), "the node id", at(where, key));
    if (id.get_ref<const std::string&>().empty()) fail(where, key, "empty node id");
    return id.get<std::string>();
  }
  if (id.is_number_integer()) return id.dump();
  if (id.is_array() || id.is_number_float() || id.is_boolean()) return id.dump();
  fail(where, key, "expected a node id (a string, a number or an array)");
}

const json& links_of(const json& doc, const std::string& where) {
  const auto links = doc.find("links");
  const auto edges = doc.find("edges");
  if (links != doc.end() && edges != doc.end())
    fail(where, "(top level)", "both \"links\" and \"edges\" are present; expected one");
  if (links == doc.end() && edges == doc.end())
    fail(where, "(top level)", "missing key \"links\" (or \"edges\")");
  const json& list = links != doc.end() ? *links : *edges;
  if (!list.is_array()) fail(where, links != doc.end() ? "links" : "edges", "expected an array");
  return list;
}

bool flag(const json& doc, const char* key, const std::string& where) {
  const auto it = doc.find(key);
  if (it == doc.end()) return false;
  if (!it->is_boolean()) fail(where, key, "expected true or false");
  return it->get<bool>();
}

}  // namespace

bool is_node_link(const json& doc) {
  return doc.is_object() && !doc.contains("format") && doc.contains("nodes") &&
         (doc.contains("links") || doc.contains("edges"));
}

Topology node_link_from_json(const json& doc, const std::string& where) {
  if (!doc.is_object()) fail(where, "(top level)", "expected a JSON object");
  const bool directed = flag(doc, "directed", where);
  const bool multigraph = flag(doc, "multigraph", where);
  Topology t;
  if (const auto graph = doc.find("graph"); graph != doc.end()) {
    if (!graph->is_object()) fail(where, "graph", "expected an object");
    if (const auto name = graph->find("name"); name != graph->end()) {
      if (!name->is_string()) fail(where, "graph.name", "expected a string");
      check_text(name->get_ref<const std::string&>(), "the name", at(where, "graph.name"));
      t.set_name(name->get<std::string>());
    }
  }
  const auto nodes = doc.find("nodes");
  if (nodes == doc.end()) fail(where, "(top level)", "missing key \"nodes\"");
  if (!nodes->is_array()) fail(where, "nodes", "expected an array");
  const json& links = links_of(doc, where);

  // Ids are matched by name: 3 and "3" would be one node in ccsched, so both is an error.
  std::map<std::string, NodeId> by_name;
  std::vector<std::string> names;
  std::vector<bool> plain;  // the id is the integer of the node's position: no label
  for (std::size_t i = 0; i < nodes->size(); ++i) {
    const auto key = fmt::format("nodes[{}]", i);
    const json& node = (*nodes)[i];
    if (!node.is_object()) fail(where, key, "expected an object");
    const auto id = node.find("id");
    if (id == node.end()) fail(where, key, "missing key \"id\"");
    std::string name = name_of(*id, where, key + ".id");
    if (by_name.count(name))
      fail(where, key + ".id", fmt::format("duplicate node id {}", id->dump()));
    plain.push_back(id->is_number_integer() && id->get<long long>() == static_cast<long long>(i));
    NodeKind kind = NodeKind::processor;
    if (const auto k = node.find("kind"); k != node.end()) {
      if (!k->is_string() || (*k != "processor" && *k != "switch"))
        fail(where, key + ".kind", "expected \"processor\" or \"switch\"");
      if (*k == "switch") kind = NodeKind::switch_node;
    }
    by_name.emplace(name, static_cast<NodeId>(i));
    names.push_back(name);
    t.add_node(kind);
  }
  for (NodeId v = 0; v < t.node_count(); ++v)
    if (!plain[v]) t.set_label(v, names[v]);

  const auto endpoint = [&](const json& link, const char* end, const std::string& key) {
    const auto it = link.find(end);
    if (it == link.end()) fail(where, key, fmt::format("missing key \"{}\"", end));
    const auto found = by_name.find(name_of(*it, where, key + "." + end));
    if (found == by_name.end())
      fail(where, key + "." + end, fmt::format("node {} is not in \"nodes\"", it->dump()));
    return found->second;
  };
  const auto add = [&](NodeId from, NodeId to, const std::string& key) {
    if (!t.has_channel(from, to)) {
      t.add_channel(from, to);
    } else if (!multigraph) {
      fail(where, key,
           fmt::format("duplicate {} {} {} {} (not a multigraph)", directed ? "edge" : "link",
                       names[from], directed ? "->" : "-", names[to]));
    }
  };
  const std::string list = doc.contains("links") ? "links" : "edges";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto key = fmt::format("{}[{}]", list, i);
    const json& link = links[i];
    if (!link.is_object()) fail(where, key, "expected an object");
    const NodeId from = endpoint(link, "source", key);
    const NodeId to = endpoint(link, "target", key);
    if (from == to)
      fail(where, key, fmt::format("self-loop on node {} (a channel joins two nodes)", names[from]));
    add(from, to, key);
    if (!directed) {
      if (t.has_channel(to, from) && !multigraph)
        fail(where, key, fmt::format("duplicate link {} - {} (not a multigraph)", names[from],
                                     names[to]));
      if (!t.has_channel(to, from)) t.add_channel(to, from);
    }
  }
  if (const auto graph = doc.find("graph"); graph != doc.end()) {
    if (const auto faults = graph->find("faults"); faults != graph->end()) {
      if (!faults->is_array()) fail(where, "graph.faults", "expected an array");
      for (std::size_t i = 0; i < faults->size(); ++i) {
        const auto key = fmt::format("graph.faults[{}]", i);
        const json& pair = (*faults)[i];
        if (!pair.is_array() || pair.size() != 2) fail(where, key, "expected a pair [source, target]");
        const json link = {{"source", pair[0]}, {"target", pair[1]}};
        const NodeId from = endpoint(link, "source", key);
        const NodeId to = endpoint(link, "target", key);
        if (from == to || t.has_channel(from, to))
          fail(where, key, "a faulty channel must join two nodes and not be a link too");
        t.add_fault_record({from, to});
      }
    }
  }
  return t;
}

Topology read_node_link(std::string_view text, const std::string& where) {
  return node_link_from_json(parse_json(text, where), where);
}

std::string write_node_link(const Topology& t) {
  // Node ids: a node's label, or its integer id when it has none, so that node_link_graph
  // rebuilds the nodes `ccsched` prints and the reader gives back the same labels. An
  // undirected network writes each link once.
  const bool labelled = t.has_labels();
  if (labelled) {
    std::map<std::string, NodeId> seen;
    for (NodeId v = 0; v < t.node_count(); ++v)
      if (const auto [it, fresh] = seen.emplace(t.display_name(v), v); !fresh)
        throw Unsupported(fmt::format("nodes {} and {} are both named \"{}\"; node-link ids "
                                      "must differ",
                                      it->second, v, it->first),
                          "node-link");
  }
  using ojson = nlohmann::ordered_json;
  const auto id = [&](NodeId v) { return t.label(v).empty() ? ojson(v) : ojson(t.label(v)); };
  const bool directed = t.directed();
  ojson doc;
  doc["directed"] = directed;
  doc["multigraph"] = false;
  doc["graph"] = {{"name", t.name()}};
  if (!t.fault_records().empty()) {
    doc["graph"]["faults"] = ojson::array();
    for (const Channel& c : t.fault_records())
      doc["graph"]["faults"].push_back({id(c.from), id(c.to)});
  }
  doc["nodes"] = ojson::array();
  for (NodeId v = 0; v < t.node_count(); ++v)
    doc["nodes"].push_back(
        {{"id", id(v)}, {"kind", t.is_processor(v) ? "processor" : "switch"}});
  doc["links"] = ojson::array();
  for (const Channel& c : t.channels())
    if (directed || c.from < c.to)
      doc["links"].push_back({{"source", id(c.from)}, {"target", id(c.to)}});
  return doc.dump(1) + "\n";
}

}  // namespace ccsched::detail
