// Graphviz DOT: written as plain text, read through cgraph (agmemread), so any DOT a user
// draws or exports from another tool is accepted. Conventions (docs/TOPOLOGIES.md):
//   - `digraph`: every edge is one channel; `graph`: every edge is a full-duplex link.
//   - node attribute kind=switch marks a switch (kind=processor or no kind: processor);
//     label=... is the node label; fault=true on an edge records a faulty channel/link.
//   - node names that are exactly 0..n-1 are the node ids; otherwise nodes are numbered
//     in the order cgraph creates them and the name becomes the label (unless a label is
//     given).
// The writer emits `graph` when every channel has its reverse, else `digraph`, and always
// names nodes by id, so a written file reads back as the same network.
#include <fmt/core.h>
#include <graphviz/cgraph.h>

#include <algorithm>
#include <charconv>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "io_internal.hpp"

// cgraph's flex lexer (scan.l, prefix "aag") keeps what follows the first graph in its
// buffer, and its start condition (inside a quoted string, a comment, an HTML string)
// across calls: the next agmemread would continue from there. aaglex_destroy() (flex's
// yylex_destroy) drops the buffer and resets every lexer global; the next read starts
// clean. Exported by libcgraph but not declared in cgraph.h.
extern "C" int aaglex_destroy(void);

namespace ccsched::detail {
namespace {

// A DOT quoted string. In DOT only \" is an escape (cgraph keeps every other backslash
// as written), so a text with a backslash cannot always be written so that it reads back
// unchanged (a trailing backslash would escape the closing quote, "\N" means "the node
// name"): write_dot refuses such names and labels (Unsupported).
std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '\\';
    out += c;
  }
  return out + '"';
}

void check_writable(std::string_view text, std::string_view what, const std::string& where) {
  if (text.find('\\') != std::string_view::npos)
    throw Unsupported(fmt::format("DOT cannot hold {} with a backslash (use json)", what), where);
}

// cgraph reports errors through a global hook and is not re-entrant: one reader at a time.
std::mutex cgraph_mutex;
std::string cgraph_message;

int capture_error(char* message) {
  cgraph_message += message;
  return 0;
}

std::string attribute(void* object, const char* name) {
  char* value = agget(object, const_cast<char*>(name));
  return value ? std::string(value) : std::string();
}

std::optional<int> decimal(const std::string& text) {
  // Digits only: from_chars would take "-5" (fuzz find: a DOT node "-5" indexed by_id[-5]).
  if (text.empty() || text.size() > 9 || text[0] < '0' || text[0] > '9') return std::nullopt;
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string trim_message(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.starts_with("Error: ")) text.erase(0, 7);
  return text;
}

}  // namespace

std::string write_dot(const Topology& t) {
  check_writable(t.name(), "a network name", t.name());
  // cgraph names an anonymous graph "%<n>", and the reader drops such names.
  if (t.name().starts_with('%'))
    throw Unsupported("DOT cannot hold a network name starting with '%' (use json)", t.name());
  for (NodeId v = 0; v < t.node_count(); ++v)
    check_writable(t.label(v), "a node label", fmt::format("node {}", v));
  // `graph` only if both the channels and the fault records come in pairs.
  const auto& faults = t.fault_records();
  const bool undirected =
      !t.directed() && std::all_of(faults.begin(), faults.end(), [&](const Channel& c) {
        return std::find(faults.begin(), faults.end(), Channel{c.to, c.from}) != faults.end();
      });
  std::string out = fmt::format("{} {} {{\n", undirected ? "graph" : "digraph", quote(t.name()));
  for (NodeId v = 0; v < t.node_count(); ++v) {
    out += fmt::format("  {} [kind={}", v, t.is_processor(v) ? "processor" : "switch");
    if (!t.label(v).empty()) out += fmt::format(", label={}", quote(t.label(v)));
    out += "];\n";
  }
  for (const auto& c : t.channels()) {
    if (undirected && c.from > c.to) continue;
    out += fmt::format("  {} {} {};\n", c.from, undirected ? "--" : "->", c.to);
  }
  for (const auto& c : faults) {
    if (undirected && c.from > c.to) continue;
    out += fmt::format("  {} {} {} [fault=true, style=dashed];\n", c.from, undirected ? "--" : "->",
                       c.to);
  }
  out += "}\n";
  return out;
}

Topology read_dot(std::string_view text, const std::string& where) {
  const std::lock_guard lock(cgraph_mutex);
  cgraph_message.clear();
  const auto previous = agseterrf(capture_error);
  const std::string buffer(text);
  Agraph_t* g = agmemread(buffer.c_str());
  // Only the first graph of the text is read (cgraph stops after it). What follows stays
  // in cgraph's lexer, as does its start condition: reset it, or the next DOT read in this
  // process would continue from there (fuzz find: after "graph { a } \"..." a valid file
  // failed to parse; after two graphs the next read returned the second one).
  aaglex_destroy();
  agseterrf(previous);
  if (!g) {
    const auto message = trim_message(cgraph_message);
    throw InvalidInput(message.empty() ? "not a Graphviz DOT graph" : "malformed DOT: " + message,
                       where);
  }
  struct Closer {
    Agraph_t* g;
    ~Closer() { agclose(g); }
  } closer{g};

  const bool directed = agisdirected(g);
  std::vector<Agnode_t*> nodes;
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) nodes.push_back(n);
  const auto count = static_cast<int>(nodes.size());
  // Decimal names 0..n-1 (each once) are taken as node ids.
  std::vector<Agnode_t*> by_id(count, nullptr);
  bool numeric = true;
  for (auto* n : nodes) {
    const auto id = decimal(agnameof(n));
    if (!id || *id >= count || by_id[*id]) {
      numeric = false;
      break;
    }
    by_id[*id] = n;
  }
  if (!numeric) by_id = nodes;

  Topology t;
  if (const std::string name = agnameof(g); !name.empty() && name[0] != '%') {
    check_text(name, "the graph name", where);
    t.set_name(name);
  }
  for (auto* n : by_id) {
    const std::string name = agnameof(n);
    const std::string kind = attribute(n, "kind");
    NodeKind k = NodeKind::processor;
    if (kind == "switch")
      k = NodeKind::switch_node;
    else if (!kind.empty() && kind != "processor")
      throw InvalidInput(
          fmt::format("node \"{}\": kind must be processor or switch, not \"{}\"", name, kind),
          where);
    std::string label = attribute(n, "label");
    if (label == "\\N") label.clear();
    if (label.empty() && !numeric) label = name;
    check_text(label, "a node label", where);
    t.add_node(k, std::move(label));
  }
  std::vector<NodeId> id_of_seq;  // cgraph node -> our id, via AGSEQ
  for (NodeId v = 0; v < count; ++v) {
    const auto seq = static_cast<std::size_t>(AGSEQ(by_id[v]));
    if (id_of_seq.size() <= seq) id_of_seq.resize(seq + 1, kNoNode);
    id_of_seq[seq] = v;
  }
  const auto id = [&](Agnode_t* n) { return id_of_seq[static_cast<std::size_t>(AGSEQ(n))]; };
  const auto add = [&](NodeId a, NodeId b, const std::string& what, bool fault) {
    if (a == b) throw InvalidInput(fmt::format("self-loop {}", what), where);
    if (fault) {
      t.add_fault_record({a, b});
      return;
    }
    if (t.has_channel(a, b))
      throw InvalidInput(fmt::format("duplicate {} {}", directed ? "channel" : "link", what),
                         where);
    t.add_channel(a, b);
  };
  // Edges in the order of the file (cgraph numbers them as it creates them), so channel
  // ids follow the file.
  std::vector<Agedge_t*> edges;
  for (auto* n : nodes)
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) edges.push_back(e);
  std::sort(edges.begin(), edges.end(),
            [](Agedge_t* a, Agedge_t* b) { return AGSEQ(a) < AGSEQ(b); });
  for (auto* e : edges) {
    const NodeId a = id(agtail(e)), b = id(aghead(e));
    const auto what =
        fmt::format("{} {} {}", agnameof(agtail(e)), directed ? "->" : "--", agnameof(aghead(e)));
    const std::string fault = attribute(e, "fault");
    const bool is_fault = fault == "true" || fault == "1";
    add(a, b, what, is_fault);
    if (!directed) add(b, a, what, is_fault);
  }
  // As in ccsched-topology/1: a faulty channel is out of service, so it cannot also be a
  // working one (fuzz find: "0 -> 2; 0 -> 2 [fault=true]" was read, and its JSON was not).
  for (const auto& c : t.fault_records())
    if (t.has_channel(c.from, c.to))
      throw InvalidInput(fmt::format("faulty channel {} -> {} is also a working edge",
                                     agnameof(by_id[c.from]), agnameof(by_id[c.to])),
                         where);
  return t;
}

}  // namespace ccsched::detail
