// The ccsched-topology/1 JSON document of FORMATS.md: writer and a strict reader. The
// reader names the file and the JSON key (e.g. "net.json: channels[3]") in every error,
// because a topology file is usually written by hand or by another tool.
#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "io_internal.hpp"

namespace ccsched::detail {
namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "ccsched-topology/1";

const char* kind_name(NodeKind k) { return k == NodeKind::processor ? "processor" : "switch"; }

[[noreturn]] void fail(const std::string& where, std::string_view key, const std::string& what) {
  throw InvalidInput(what, at(where, key));
}

const json& require(const json& object, const char* key, const std::string& where,
                    std::string_view path) {
  const auto it = object.find(key);
  if (it == object.end())
    fail(where, path.empty() ? std::string_view("(top level)") : path,
         fmt::format("missing key \"{}\"", key));
  return *it;
}

// A node id in [0, n): used by channels and faults.
NodeId node_ref(const json& value, int n, const std::string& where, const std::string& key) {
  if (!value.is_number_integer()) fail(where, key, "expected an integer node id");
  const auto id = value.get<long long>();
  if (id < 0 || id >= n)
    fail(where, key, fmt::format("node {} does not exist (nodes are 0..{})", id, n - 1));
  return static_cast<NodeId>(id);
}

std::pair<NodeId, NodeId> pair_ref(const json& value, int n, const std::string& where,
                                   const std::string& key) {
  if (!value.is_array() || value.size() != 2) fail(where, key, "expected a pair [from, to]");
  return {node_ref(value[0], n, where, key + "[0]"), node_ref(value[1], n, where, key + "[1]")};
}

}  // namespace

std::string write_json(const Topology& t) {
  // Hand-formatted (one node per line, several channels per line) so that files stay
  // readable and diffable; strings go through nlohmann for escaping.
  std::string out = "{\n";
  out += fmt::format("  \"format\": \"{}\",\n", kFormat);
  out += fmt::format("  \"name\": {},\n", json(t.name()).dump());
  out += fmt::format("  \"directed\": {},\n", t.directed() ? "true" : "false");
  out += "  \"nodes\": [";
  for (NodeId v = 0; v < t.node_count(); ++v) {
    out += v ? ",\n    " : "\n    ";
    out += fmt::format("{{\"id\": {}", v);
    if (!t.label(v).empty()) out += fmt::format(", \"label\": {}", json(t.label(v)).dump());
    out += fmt::format(", \"kind\": \"{}\"}}", kind_name(t.kind(v)));
  }
  out += t.node_count() ? "\n  ],\n" : "],\n";
  const auto pairs = [&](const std::vector<Channel>& list) {
    std::string text = "[";
    for (std::size_t i = 0; i < list.size(); ++i) {
      text += i == 0 ? "\n    " : (i % 8 == 0 ? ",\n    " : ", ");
      text += fmt::format("[{}, {}]", list[i].from, list[i].to);
    }
    text += list.empty() ? "]" : "\n  ]";
    return text;
  };
  out += "  \"channels\": " + pairs(t.channels());
  if (!t.fault_records().empty()) out += ",\n  \"faults\": " + pairs(t.fault_records());
  out += "\n}\n";
  return out;
}

json parse_json(std::string_view text, const std::string& where) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number that overflows a double (fuzz find:
    // "4444...E4244444444"). nlohmann's message starts with "[json.exception.parse_error.101] ";
    // keep the rest.
    std::string what = e.what();
    if (const auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw InvalidInput("malformed JSON: " + what, where);
  }
}

Topology read_json(std::string_view text, const std::string& where) {
  const json doc = parse_json(text, where);
  // A .json file without "format" that has nodes and links is NetworkX node-link JSON.
  if (is_node_link(doc)) return node_link_from_json(doc, where);
  if (!doc.is_object()) fail(where, "(top level)", "expected a JSON object");
  const auto& format = require(doc, "format", where, "");
  if (!format.is_string()) fail(where, "format", "expected a string");
  if (format.get<std::string>() != kFormat)
    fail(
        where, "format",
        fmt::format("unknown format \"{}\" (expected \"{}\")", format.get<std::string>(), kFormat));

  Topology t;
  if (const auto it = doc.find("name"); it != doc.end()) {
    if (!it->is_string()) fail(where, "name", "expected a string");
    check_text(it->get_ref<const std::string&>(), "the name", at(where, "name"));
    t.set_name(it->get<std::string>());
  }
  if (const auto it = doc.find("directed"); it != doc.end() && !it->is_boolean())
    fail(where, "directed", "expected true or false");

  const auto& nodes = require(doc, "nodes", where, "");
  if (!nodes.is_array()) fail(where, "nodes", "expected an array");
  const auto n = static_cast<int>(nodes.size());
  // Nodes may be listed in any order; ids must be exactly 0..n-1.
  std::vector<const json*> by_id(n, nullptr);
  for (int i = 0; i < n; ++i) {
    const auto key = fmt::format("nodes[{}]", i);
    const auto& node = nodes[i];
    if (!node.is_object()) fail(where, key, "expected an object");
    const auto& id = require(node, "id", where, key);
    if (!id.is_number_integer()) fail(where, key + ".id", "expected an integer");
    const auto value = id.get<long long>();
    if (value < 0 || value >= n)
      fail(where, key + ".id", fmt::format("id {} out of range (ids are 0..{})", value, n - 1));
    if (by_id[value]) fail(where, key + ".id", fmt::format("duplicate node id {}", value));
    by_id[value] = &node;
  }
  for (int v = 0; v < n; ++v) {
    const auto& node = *by_id[v];
    const auto index = static_cast<int>(&node - &nodes[0]);
    const auto key = fmt::format("nodes[{}]", index);
    const auto& kind = require(node, "kind", where, key);
    if (!kind.is_string() ||
        (kind.get<std::string>() != "processor" && kind.get<std::string>() != "switch"))
      fail(where, key + ".kind", "expected \"processor\" or \"switch\"");
    std::string label;
    if (const auto it = node.find("label"); it != node.end()) {
      if (!it->is_string()) fail(where, key + ".label", "expected a string");
      label = it->get<std::string>();
      check_text(label, "the label", at(where, key + ".label"));
    }
    t.add_node(kind.get<std::string>() == "processor" ? NodeKind::processor : NodeKind::switch_node,
               std::move(label));
  }

  const auto& channels = require(doc, "channels", where, "");
  if (!channels.is_array()) fail(where, "channels", "expected an array");
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const auto key = fmt::format("channels[{}]", i);
    const auto [from, to] = pair_ref(channels[i], n, where, key);
    if (from == to) fail(where, key, fmt::format("self-loop on node {}", from));
    if (t.has_channel(from, to))
      fail(where, key, fmt::format("duplicate channel [{}, {}]", from, to));
    t.add_channel(from, to);
  }
  if (const auto it = doc.find("faults"); it != doc.end()) {
    if (!it->is_array()) fail(where, "faults", "expected an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto key = fmt::format("faults[{}]", i);
      const auto [from, to] = pair_ref((*it)[i], n, where, key);
      if (from == to) fail(where, key, fmt::format("self-loop on node {}", from));
      if (t.has_channel(from, to))
        fail(where, key,
             fmt::format("faulty channel [{}, {}] is also listed in channels", from, to));
      t.add_fault_record({from, to});
    }
  }
  return t;
}

}  // namespace ccsched::detail
