// BookSim's `anynet` network files. A line starts with a head ("router R" or "node N")
// followed by its neighbours ("router R2", "node N2"); links are bidirectional and may be
// listed from both ends; a node (terminal) hangs off exactly one router. Router and node
// ids are separate name spaces.
//
// Mapping (docs/TOPOLOGIES.md):
//   reading  BookSim node k -> processor k (node ids must be 0..N-1); a router carrying
//            exactly one node whose id equals the router's id is that processor's own
//            router (a direct network: the processor routes) and merges into it; every
//            other router becomes a switch, numbered after the processors in router-id
//            order. Labels are not part of the format.
//   writing  processor of rank k -> node k. A processor linked to nothing but one switch is
//            a terminal of that switch's router. Any other processor routes: it becomes
//            router k carrying node k. Switch of rank j -> router P + j.
// Only undirected networks fit (anynet links are bidirectional); writing a directed one
// throws Unsupported. `#` and `//` comment lines are accepted when reading (BookSim itself
// has none, so the writer emits none).
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "io_internal.hpp"

namespace ccsched::detail {
namespace {

std::optional<long long> decimal(const std::string& text) {
  // Digits only: from_chars takes "-5", which is no id (fuzz find, see io_dot.cpp).
  if (text.empty() || text.size() > 9 || text[0] < '0' || text[0] > '9') return std::nullopt;
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string write_anynet(const Topology& t) {
  if (t.directed())
    throw Unsupported(
        "BookSim anynet links are bidirectional; a directed network cannot be "
        "written as anynet (use json, dot or edges)",
        t.name());
  // Rank of every node among processors / switches.
  std::vector<long long> rank(static_cast<std::size_t>(t.node_count()));
  long long processors = 0, switches = 0;
  for (NodeId v = 0; v < t.node_count(); ++v)
    rank[v] = t.is_processor(v) ? processors++ : switches++;
  // A terminal: a processor whose only neighbour is one switch.
  const auto terminal_of = [&](NodeId v) -> NodeId {
    if (!t.is_processor(v) || t.out_channels(v).size() != 1) return kNoNode;
    const NodeId w = t.channel(t.out_channels(v)[0]).to;
    return t.is_processor(w) ? kNoNode : w;
  };
  const auto router_id = [&](NodeId v) {
    return t.is_processor(v) ? rank[v] : processors + rank[v];
  };
  std::string out;
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (terminal_of(v) != kNoNode) continue;  // written on its switch's line
    out += fmt::format("router {}", router_id(v));
    if (t.is_processor(v)) out += fmt::format(" node {}", rank[v]);
    for (const auto c : t.out_channels(v)) {
      const NodeId w = t.channel(c).to;
      if (terminal_of(w) == v)
        out += fmt::format(" node {}", rank[w]);
      else
        out += fmt::format(" router {}", router_id(w));
    }
    out += '\n';
  }
  return out;
}

Topology read_anynet(std::string_view text, const std::string& where) {
  std::map<long long, std::set<long long>> router_links;  // router -> routers
  std::map<long long, long long> node_router;             // node -> its router
  std::map<long long, std::set<long long>> router_nodes;  // router -> nodes
  std::map<long long, int> node_line;
  std::istringstream in{std::string(text)};
  std::string raw;
  int number = 0;
  while (std::getline(in, raw)) {
    ++number;
    const auto fail = [&](const std::string& what) {
      throw InvalidInput(what, at_line(where, number));
    };
    std::istringstream words(raw);
    std::vector<std::string> tk;
    std::string word;
    while (words >> word) tk.push_back(word);
    if (tk.empty() || tk[0].starts_with("#") || tk[0].starts_with("//")) continue;
    if (tk.size() % 2 != 0) fail("expected pairs \"router R\" / \"node N\"");
    std::vector<std::pair<bool, long long>> items;  // (is_router, id)
    for (std::size_t i = 0; i < tk.size(); i += 2) {
      if (tk[i] != "router" && tk[i] != "node")
        fail(fmt::format("expected \"router\" or \"node\", found \"{}\"", tk[i]));
      const auto id = decimal(tk[i + 1]);
      if (!id) fail(fmt::format("\"{}\" is not a non-negative integer id", tk[i + 1]));
      items.emplace_back(tk[i] == "router", *id);
    }
    if (items.size() < 2) fail("a line needs a head and at least one neighbour");
    const auto attach = [&](long long node, long long router) {
      const auto it = node_router.find(node);
      if (it != node_router.end() && it->second != router)
        fail(fmt::format("node {} is connected to two routers ({} and {})", node, it->second,
                         router));
      node_router[node] = router;
      node_line.emplace(node, number);
      router_nodes[router].insert(node);
      router_links[router];  // make sure the router exists
    };
    const auto [head_router, head] = items[0];
    for (std::size_t i = 1; i < items.size(); ++i) {
      const auto [is_router, id] = items[i];
      if (!head_router && !is_router) fail("a node cannot be connected to a node");
      if (!head_router) {
        attach(head, id);
      } else if (!is_router) {
        attach(id, head);
      } else {
        if (id == head) fail(fmt::format("self-loop on router {}", id));
        router_links[head].insert(id);
        router_links[id].insert(head);
      }
    }
  }
  // Processors: nodes 0..N-1.
  const auto n_nodes = static_cast<long long>(node_router.size());
  for (const auto& [node, router] : node_router)
    if (node >= n_nodes)
      throw InvalidInput(fmt::format("node ids must be 0..{} (found node {})", n_nodes - 1, node),
                         at_line(where, node_line.at(node)));
  // Routers that are their processor's own router (direct network) merge into it.
  std::map<long long, NodeId> router_node;
  for (const auto& [router, nodes] : router_nodes)
    if (nodes.size() == 1 && *nodes.begin() == router)
      router_node[router] = static_cast<NodeId>(router);
  Topology t;
  for (long long k = 0; k < n_nodes; ++k) t.add_node(NodeKind::processor);
  for (const auto& [router, links] : router_links)
    if (!router_node.contains(router)) router_node[router] = t.add_node(NodeKind::switch_node);
  for (const auto& [router, links] : router_links)
    for (const auto other : links) t.add_channel(router_node.at(router), router_node.at(other));
  for (const auto& [node, router] : node_router)
    if (router_node.at(router) != static_cast<NodeId>(node))
      t.add_link(static_cast<NodeId>(node), router_node.at(router));
  return t;
}

}  // namespace ccsched::detail
