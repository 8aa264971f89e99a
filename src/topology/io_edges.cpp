// Plain edge lists: the simplest way to type a network by hand. One statement per line,
// `#` starts a comment (docs/TOPOLOGIES.md):
//   u v              a full-duplex link (channels u->v and v->u)
//   u -> v           one channel
//   switch u v ...   these nodes are switches (every other node is a processor)
//   label u TEXT     node label (TEXT has no spaces)
//   nodes N          node count (numeric files; else max id + 1)
//   name TEXT        network name (rest of the line)
//   fault u v | fault u -> v   a faulty link / channel (recorded, not a channel)
// If the node tokens are decimal numbers the numbers are the node ids; if they are names,
// nodes are numbered in order of first appearance and the name becomes the label. A file
// that mixes numbers and names is an error naming the first line that breaks the pattern.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "io_internal.hpp"

namespace ccsched::detail {
namespace {

struct Line {
  int number = 0;
  std::vector<std::string> tokens;
  std::string rest;  // text after the first token (for `name`)
};

std::optional<long long> decimal(const std::string& text) {
  // Digits only: from_chars takes "-5", which is no id (fuzz find, see io_dot.cpp).
  if (text.empty() || text.size() > 9 || text[0] < '0' || text[0] > '9') return std::nullopt;
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

bool is_keyword(const std::string& s) {
  return s == "switch" || s == "label" || s == "nodes" || s == "name" || s == "fault";
}

bool writable_token(const std::string& s) {
  return !s.empty() &&
         std::none_of(
             s.begin(), s.end(),
             [](char c) { return c == '#' || std::isspace(static_cast<unsigned char>(c)); }) &&
         s != "->" && !is_keyword(s);
}

}  // namespace

std::string write_edges(const Topology& t) {
  if (t.name().find_first_of("#\n\r") != std::string::npos)
    throw Unsupported("an edge list cannot hold a name with '#' or a line break", t.name());
  // The reader trims the rest of a `name` line (fuzz find: "x } " read back as "x }").
  if (!t.name().empty() && (std::isspace(static_cast<unsigned char>(t.name().front())) ||
                            std::isspace(static_cast<unsigned char>(t.name().back()))))
    throw Unsupported("an edge list cannot hold a name that starts or ends with a space",
                      t.name());
  std::string out = "# ccsched edge list: \"u v\" = full-duplex link, \"u -> v\" = one channel\n";
  if (!t.name().empty()) out += fmt::format("name {}\n", t.name());
  out += fmt::format("nodes {}\n", t.node_count());
  std::vector<NodeId> switches;
  for (NodeId v = 0; v < t.node_count(); ++v)
    if (!t.is_processor(v)) switches.push_back(v);
  for (std::size_t i = 0; i < switches.size(); i += 16) {
    out += "switch";
    for (std::size_t j = i; j < std::min(switches.size(), i + 16); ++j)
      out += fmt::format(" {}", switches[j]);
    out += '\n';
  }
  for (NodeId v = 0; v < t.node_count(); ++v) {
    if (t.label(v).empty()) continue;
    if (!writable_token(t.label(v)))
      throw Unsupported(fmt::format("an edge list cannot hold the label \"{}\" (spaces, '#' or "
                                    "a keyword)",
                                    t.label(v)),
                        fmt::format("node {}", v));
    out += fmt::format("label {} {}\n", v, t.label(v));
  }
  const auto emit = [&](const std::vector<Channel>& list, const char* prefix,
                        const auto& has_reverse) {
    for (const auto& c : list) {
      if (has_reverse(c)) {
        if (c.from < c.to) out += fmt::format("{}{} {}\n", prefix, c.from, c.to);
      } else {
        out += fmt::format("{}{} -> {}\n", prefix, c.from, c.to);
      }
    }
  };
  emit(t.channels(), "", [&](const Channel& c) { return t.has_channel(c.to, c.from); });
  const auto& faults = t.fault_records();
  emit(faults, "fault ", [&](const Channel& c) {
    return std::find(faults.begin(), faults.end(), Channel{c.to, c.from}) != faults.end();
  });
  return out;
}

Topology read_edges(std::string_view text, const std::string& where) {
  // Pass 1: split into lines of tokens, drop comments.
  std::vector<Line> lines;
  {
    std::istringstream in{std::string(text)};
    std::string raw;
    int number = 0;
    while (std::getline(in, raw)) {
      ++number;
      if (const auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
      std::istringstream words(raw);
      Line line{number, {}, {}};
      std::string word;
      while (words >> word) line.tokens.push_back(word);
      if (line.tokens.empty()) continue;
      const auto first = raw.find(line.tokens[0]) + line.tokens[0].size();
      line.rest = raw.substr(first);
      line.rest.erase(0, line.rest.find_first_not_of(" \t\r"));
      line.rest.erase(line.rest.find_last_not_of(" \t\r") + 1);
      lines.push_back(std::move(line));
    }
  }
  const auto fail = [&](const Line& line, const std::string& what) -> void {
    throw InvalidInput(what, at_line(where, line.number));
  };
  // The node tokens of a statement (empty for `name` and `nodes`); checks its shape.
  struct Statement {
    enum Kind { link, channel, switches, label, nodes, name, fault_link, fault_channel } kind;
    std::vector<std::string> refs;
  };
  std::vector<Statement> statements;
  for (const auto& line : lines) {
    const auto& tk = line.tokens;
    const auto& head = tk[0];
    Statement s{Statement::link, {}};
    const auto pair_shape = [&](std::size_t from, Statement::Kind link_kind,
                                Statement::Kind channel_kind) {
      const auto n = tk.size() - from;
      if (n == 2 && tk[from] != "->" && tk[from + 1] != "->") {
        s = {link_kind, {tk[from], tk[from + 1]}};
      } else if (n == 3 && tk[from + 1] == "->" && tk[from] != "->" && tk[from + 2] != "->") {
        s = {channel_kind, {tk[from], tk[from + 2]}};
      } else {
        fail(line, "expected \"u v\" (link) or \"u -> v\" (channel)");
      }
    };
    if (head == "name") {
      if (line.rest.empty()) fail(line, "name needs a value");
      s = {Statement::name, {}};
    } else if (head == "nodes") {
      if (tk.size() != 2 || !decimal(tk[1])) fail(line, "expected \"nodes N\"");
      s = {Statement::nodes, {}};
    } else if (head == "switch") {
      if (tk.size() < 2) fail(line, "expected \"switch u ...\"");
      s = {Statement::switches, {tk.begin() + 1, tk.end()}};
    } else if (head == "label") {
      if (tk.size() != 3) fail(line, "expected \"label u TEXT\" (TEXT without spaces)");
      s = {Statement::label, {tk[1]}};
    } else if (head == "fault") {
      pair_shape(1, Statement::fault_link, Statement::fault_channel);
    } else {
      pair_shape(0, Statement::link, Statement::channel);
    }
    statements.push_back(std::move(s));
  }
  // Numeric mode when the nodes are decimal ids, name mode when they are names; the first
  // node token decides, and a file that mixes the two is refused at the first token of
  // the other kind. (Switching every node to names because of one stray word would
  // renumber the whole network silently.)
  bool numeric = true;
  const std::string* first = nullptr;
  for (std::size_t i = 0; i < statements.size(); ++i)
    for (const auto& r : statements[i].refs) {
      if (!first) {
        first = &r;
        numeric = decimal(r).has_value();
      } else if (decimal(r).has_value() != numeric) {
        fail(lines[i], numeric
                           ? fmt::format("node \"{}\" is not a number, but the file names nodes by "
                                         "number (first \"{}\"); use numbers throughout (with "
                                         "\"label u TEXT\" for names) or names throughout",
                                         r, *first)
                           : fmt::format("node \"{}\" is a number, but the file names nodes by "
                                         "name (first \"{}\"); use names throughout or numbers "
                                         "throughout",
                                         r, *first));
      }
    }

  Topology t;
  std::map<std::string, NodeId> by_name;
  long long declared = -1;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    if (statements[i].kind == Statement::nodes) {
      if (!numeric) fail(lines[i], "\"nodes N\" needs numeric node ids throughout the file");
      declared = *decimal(lines[i].tokens[1]);
    }
    if (statements[i].kind == Statement::name) {
      check_text(lines[i].rest, "the name", at_line(where, lines[i].number));
      t.set_name(lines[i].rest);
    }
  }
  std::vector<NodeKind> kinds;
  std::vector<std::string> labels;
  std::vector<char> labelled;
  const auto ensure = [&](std::size_t n) {
    if (kinds.size() < n) {
      kinds.resize(n, NodeKind::processor);
      labels.resize(n);
      labelled.resize(n, 0);
    }
  };
  if (numeric) {
    long long largest = -1;
    for (std::size_t i = 0; i < statements.size(); ++i)
      for (const auto& r : statements[i].refs) {
        const long long v = *decimal(r);
        if (declared >= 0 && v >= declared)
          fail(lines[i], fmt::format("node {} does not exist (nodes {} declares 0..{})", v,
                                     declared, declared - 1));
        largest = std::max(largest, v);
      }
    // The generators' limit (1'000'000 nodes): "nodes 9999999" is 9 bytes but gigabytes.
    if (std::max(declared, largest + 1) > 1'000'000)
      throw InvalidInput("too many nodes (limit 1000000)", where);
    ensure(static_cast<std::size_t>(std::max(declared, largest + 1)));
  } else {
    for (const auto& s : statements)
      for (const auto& r : s.refs)
        if (!by_name.contains(r)) {
          const auto id = static_cast<NodeId>(by_name.size());
          by_name.emplace(r, id);
          ensure(by_name.size());
          labels[id] = r;
          check_text(r, "a node name", where);
        }
  }
  const auto node = [&](const std::string& r) {
    return numeric ? static_cast<NodeId>(*decimal(r)) : by_name.at(r);
  };
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const auto& s = statements[i];
    if (s.kind == Statement::switches) {
      for (const auto& r : s.refs) kinds[static_cast<std::size_t>(node(r))] = NodeKind::switch_node;
    } else if (s.kind == Statement::label) {
      const auto v = static_cast<std::size_t>(node(s.refs[0]));
      if (labelled[v]) fail(lines[i], fmt::format("node {} is labelled twice", s.refs[0]));
      labelled[v] = 1;
      labels[v] = lines[i].tokens[2];
      check_text(labels[v], "the label", at_line(where, lines[i].number));
    }
  }
  for (std::size_t v = 0; v < kinds.size(); ++v) t.add_node(kinds[v], labels[v]);
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const auto& s = statements[i];
    const bool is_link = s.kind == Statement::link || s.kind == Statement::fault_link;
    const bool is_channel = s.kind == Statement::channel || s.kind == Statement::fault_channel;
    if (!is_link && !is_channel) continue;
    const NodeId a = node(s.refs[0]), b = node(s.refs[1]);
    if (a == b) fail(lines[i], fmt::format("self-loop on node {}", s.refs[0]));
    const bool fault = s.kind == Statement::fault_link || s.kind == Statement::fault_channel;
    const auto add = [&](NodeId from, NodeId to) {
      if (fault) {
        t.add_fault_record({from, to});
        return;
      }
      if (t.has_channel(from, to))
        fail(lines[i],
             fmt::format("duplicate channel {} -> {}", t.display_name(from), t.display_name(to)));
      t.add_channel(from, to);
    };
    add(a, b);
    if (is_link) add(b, a);
  }
  // As in ccsched-topology/1: a faulty channel cannot also be a working one.
  for (const auto& c : t.fault_records())
    if (t.has_channel(c.from, c.to))
      throw InvalidInput(fmt::format("faulty channel {} -> {} is also listed as working",
                                     t.display_name(c.from), t.display_name(c.to)),
                         where);
  return t;
}

}  // namespace ccsched::detail
