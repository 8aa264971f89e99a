// The seeds' table layouts of a schedule (tables.hpp). Two layouts, both read off the
// transfers as they stand, so a table can be printed for a schedule the verifier rejects:
//
//   grid  (seed 000 Table 3; seed 001 Tables 2 and 4): row = the processor a transfer
//         starts at, column = step, cell = the destinations of that processor's transfers
//         in that step. A transfer that is not "the sender's own message to one of its
//         targets" (a forwarded or combined message) carries its message ids in
//         parentheses, "9(m4)", so the grid never hides a relay.
//   trees (seed 000 Table 4): per message, the tree the transfers build, rooted at the
//         origin; each subtree (one per child of the origin) as its root-to-leaf paths
//         "0-4-x-x-9", where the i-th position after the origin is step i and 'x' marks a
//         step in which the message does not move along that path (the paper's
//         convention: "0-4-x-x-9" = 0 sends to 4 in step 1, 4 sends to 9 in step 4). A
//         multi-hop wormhole transfer is one tree edge, shown by its destination preceded
//         by the processors it passes through in parentheses, "0-(3)1" (switches are left
//         out: in a multistage network every path crosses them).
//
// Everything a table cannot place (a step outside 1..steps, a sender not yet holding the
// message, a repeated delivery) is listed after it, one line each.
#include "ccsched/schedule/tables.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

constexpr std::string_view kKindNames[] = {"OAB", "AAB", "OAS",  "AAS",   "AOG",
                                           "MNB", "MNS", "PERM", "CUSTOM"};

bool valid_node(const Topology& t, NodeId n) { return n >= 0 && n < t.node_count(); }

std::string node_name(const Topology& t, NodeId n) {
  return valid_node(t, n) ? t.display_name(n) : fmt::format("?{}", n);
}

// Rows of cells -> text with columns padded to their widest cell, `separator` between.
std::string align(const std::vector<std::vector<std::string>>& rows, std::string_view separator) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += separator;
      line += row[c];
      if (c + 1 < row.size()) line.append(width[c] - row[c].size(), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

const Message* find_message(const Schedule& s, MessageId id) {
  const auto& msgs = s.collective.messages;
  if (id >= 0 && id < static_cast<MessageId>(msgs.size()) && msgs[id].id == id) return &msgs[id];
  for (const auto& m : msgs)
    if (m.id == id) return &m;
  return nullptr;
}

int last_step(const Schedule& s) {
  int last = s.steps;
  for (const auto& tr : s.transfers) last = std::max(last, tr.step);
  return last;
}

std::string grid_table(const Schedule& s) {
  const Topology& t = s.topology;
  const int steps = last_step(s);
  std::set<NodeId> senders(s.collective.senders.begin(), s.collective.senders.end());
  for (const auto& tr : s.transfers)
    if (!tr.path.empty()) senders.insert(tr.path.front());
  // sender -> step -> (receiver, entry); a cell lists its entries by receiver id, as the
  // seeds' Table 3 lists destinations in order, whatever the order of the transfers.
  std::map<NodeId, std::vector<std::vector<std::pair<NodeId, std::string>>>> cells;
  for (const NodeId n : senders) cells[n].resize(static_cast<std::size_t>(steps));
  std::vector<std::string> notes;
  for (int i = 0; i < static_cast<int>(s.transfers.size()); ++i) {
    const auto& tr = s.transfers[i];
    if (tr.path.empty()) {
      notes.push_back(fmt::format("transfer {} (step {}) has an empty path", i, tr.step));
      continue;
    }
    if (tr.step < 1) {
      notes.push_back(fmt::format("transfer {} ({} -> {}) is in step {}", i,
                                  node_name(t, tr.path.front()), node_name(t, tr.path.back()),
                                  tr.step));
      continue;
    }
    const NodeId from = tr.path.front(), to = tr.path.back();
    // The sender's own message to one of its targets needs no annotation (seed 000 Table 3).
    const bool plain = tr.messages.size() == 1 && [&] {
      const Message* m = find_message(s, tr.messages.front());
      return m && m->origin == from &&
             std::find(m->targets.begin(), m->targets.end(), to) != m->targets.end();
    }();
    std::string entry = node_name(t, to);
    if (!plain) {
      std::vector<std::string> ids;
      for (const MessageId m : tr.messages) ids.push_back(fmt::format("m{}", m));
      entry += fmt::format("({})", fmt::join(ids, " "));
    }
    cells[from][static_cast<std::size_t>(tr.step - 1)].emplace_back(to, std::move(entry));
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header{"src"};
  for (int st = 1; st <= steps; ++st) header.push_back(std::to_string(st));
  rows.push_back(std::move(header));
  for (auto& [node, by_step] : cells) {
    std::vector<std::string> row{node_name(t, node)};
    for (auto& entries : by_step) {
      std::stable_sort(entries.begin(), entries.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<std::string> texts;
      for (auto& e : entries) texts.push_back(std::move(e.second));
      row.push_back(texts.empty() ? "-" : fmt::format("{}", fmt::join(texts, ",")));
    }
    rows.push_back(std::move(row));
  }
  std::string out = align(rows, "  ");
  if (!notes.empty()) {
    out += "not in the table:\n";
    for (const auto& n : notes) out += fmt::format("  {}\n", n);
  }
  return out;
}

// The tree one message's transfers build (see the file comment), as seed 000 Table 4 cells.
struct TreeRow {
  std::vector<std::string> cells;  // header, then one cell per subtree
  std::vector<std::string> notes;
};

TreeRow message_tree(const Schedule& s, const Message& m, bool several_from_origin) {
  const Topology& t = s.topology;
  std::vector<int> order;
  for (int i = 0; i < static_cast<int>(s.transfers.size()); ++i)
    if (std::find(s.transfers[i].messages.begin(), s.transfers[i].messages.end(), m.id) !=
        s.transfers[i].messages.end())
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return s.transfers[a].step < s.transfers[b].step; });

  std::unordered_map<NodeId, Step> arrival{{m.origin, 0}};
  std::unordered_map<NodeId, std::string> via;  // child -> "(a b)" for multi-hop edges
  std::map<NodeId, std::vector<NodeId>> children;
  TreeRow row;
  for (const int i : order) {
    const auto& tr = s.transfers[i];
    if (tr.path.empty()) continue;
    const NodeId u = tr.path.front(), v = tr.path.back();
    const auto held = arrival.find(u);
    if (held == arrival.end() || held->second >= tr.step) {
      row.notes.push_back(
          fmt::format("m{}: {} -> {} in step {} (transfer {}): {} does not hold "
                      "the message yet",
                      m.id, node_name(t, u), node_name(t, v), tr.step, i, node_name(t, u)));
      continue;
    }
    if (arrival.contains(v)) {
      row.notes.push_back(
          fmt::format("m{}: {} -> {} in step {} (transfer {}): {} already holds "
                      "it",
                      m.id, node_name(t, u), node_name(t, v), tr.step, i, node_name(t, v)));
      continue;
    }
    arrival.emplace(v, tr.step);
    children[u].push_back(v);
    std::vector<std::string> through;  // processors the worm passes without delivering
    for (std::size_t j = 1; j + 1 < tr.path.size(); ++j)
      if (valid_node(t, tr.path[j]) && t.is_processor(tr.path[j]))
        through.push_back(node_name(t, tr.path[j]));
    if (!through.empty()) via.emplace(v, fmt::format("({})", fmt::join(through, " ")));
  }
  const auto earlier = [&](NodeId a, NodeId b) {
    return std::pair(arrival.at(a), a) < std::pair(arrival.at(b), b);
  };
  for (auto& [node, list] : children) std::sort(list.begin(), list.end(), earlier);

  const bool labels = t.has_labels();
  std::string header = node_name(t, m.origin);
  if (labels && valid_node(t, m.origin) && !t.label(m.origin).empty())
    header += fmt::format("={}", m.origin);
  if (several_from_origin) header += fmt::format(" m{}", m.id);
  row.cells.push_back(std::move(header));

  const auto edge = [&](NodeId child) {
    const auto it = via.find(child);
    return fmt::format("-{}{}", it == via.end() ? std::string() : it->second, node_name(t, child));
  };
  // Depth-first, root-to-leaf path strings with 'x' for the steps a message waits.
  std::vector<std::string> paths;
  std::string prefix;
  const auto walk = [&](auto&& self, NodeId node, Step at) -> void {
    const auto it = children.find(node);
    if (it == children.end() || it->second.empty()) {
      paths.push_back(prefix);
      return;
    }
    for (const NodeId child : it->second) {
      const auto saved = prefix.size();
      for (Step st = at + 1; st < arrival.at(child); ++st) prefix += "-x";
      prefix += edge(child);
      self(self, child, arrival.at(child));
      prefix.resize(saved);
    }
  };
  const std::string root = node_name(t, m.origin);
  if (const auto it = children.find(m.origin); it != children.end()) {
    for (const NodeId child : it->second) {
      paths.clear();
      prefix = root;
      for (Step st = 1; st < arrival.at(child); ++st) prefix += "-x";
      prefix += edge(child);
      walk(walk, child, arrival.at(child));
      row.cells.push_back(fmt::format("{}", fmt::join(paths, " ")));
    }
  }
  std::vector<std::string> missing;
  for (const NodeId target : m.targets)
    if (!arrival.contains(target)) missing.push_back(node_name(t, target));
  if (!missing.empty())
    row.notes.push_back(fmt::format("m{}: never reaches {}", m.id, fmt::join(missing, ", ")));
  return row;
}

std::string trees_table(const Schedule& s) {
  std::map<NodeId, int> per_origin;
  for (const auto& m : s.collective.messages) ++per_origin[m.origin];
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
  std::size_t subtrees = 0;
  std::vector<TreeRow> trees;
  for (const auto& m : s.collective.messages) {
    trees.push_back(message_tree(s, m, per_origin[m.origin] > 1));
    subtrees = std::max(subtrees, trees.back().cells.size() - 1);
  }
  std::vector<std::string> header{"src"};
  for (std::size_t i = 1; i <= subtrees; ++i) header.push_back(fmt::format("subtree {}", i));
  rows.push_back(std::move(header));
  for (auto& tree : trees) {
    rows.push_back(std::move(tree.cells));
    notes.insert(notes.end(), tree.notes.begin(), tree.notes.end());
  }
  std::string out = align(rows, " | ");
  out +=
      "(position i after the source = step i; x = the message does not move in that step;\n"
      " (a) = the transfer passes through processor a without delivering to it)\n";
  if (!notes.empty()) {
    out += "not in the table:\n";
    for (const auto& n : notes) out += fmt::format("  {}\n", n);
  }
  return out;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

}  // namespace

TableLayout parse_table_layout(std::string_view text) {
  if (text == "auto") return TableLayout::automatic;
  if (text == "grid") return TableLayout::grid;
  if (text == "trees") return TableLayout::trees;
  throw InvalidParameter("expected auto, grid or trees, got '" + std::string(text) + "'",
                         "--layout");
}

TableLayout resolve_layout(const Schedule& s, TableLayout requested) {
  if (requested != TableLayout::automatic) return requested;
  const bool broadcast = std::any_of(s.collective.messages.begin(), s.collective.messages.end(),
                                     [](const Message& m) { return m.targets.size() > 1; });
  return broadcast ? TableLayout::trees : TableLayout::grid;
}

std::string format_schedule_table(const Schedule& s, TableLayout layout) {
  return resolve_layout(s, layout) == TableLayout::trees ? trees_table(s) : grid_table(s);
}

std::vector<StepUtilisation> channel_utilisation(const Schedule& s) {
  const Topology& t = s.topology;
  std::vector<std::unordered_set<ChannelId>> used(static_cast<std::size_t>(std::max(s.steps, 0)));
  for (const auto& tr : s.transfers) {
    if (tr.step < 1 || tr.step > s.steps) continue;
    for (std::size_t j = 0; j + 1 < tr.path.size(); ++j) {
      if (!valid_node(t, tr.path[j]) || !valid_node(t, tr.path[j + 1])) continue;
      if (const auto c = t.find_channel(tr.path[j], tr.path[j + 1]))
        used[static_cast<std::size_t>(tr.step - 1)].insert(*c);
    }
  }
  std::vector<StepUtilisation> out;
  for (int st = 1; st <= s.steps; ++st)
    out.push_back(
        {st, static_cast<int>(used[static_cast<std::size_t>(st - 1)].size()), t.channel_count()});
  return out;
}

std::string format_utilisation(const Schedule& s) {
  std::string out;
  long long used = 0, available = 0;
  for (const auto& u : channel_utilisation(s)) {
    out += fmt::format("step {}: {}/{} channels ({:.1f} %)\n", u.step, u.channels_used,
                       u.channels_available, u.percent());
    used += u.channels_used;
    available += u.channels_available;
  }
  out += fmt::format(
      "total: {}/{} channel-steps ({:.1f} %)\n", used, available,
      available == 0 ? 0.0 : 100.0 * static_cast<double>(used) / static_cast<double>(available));
  return out;
}

std::string format_schedule_summary(const Schedule& s) {
  const Topology& t = s.topology;
  const auto& c = s.collective;
  std::string out;
  std::string network = fmt::format("{} ({} processors, {} switches, {} channels",
                                    t.name().empty() ? "(unnamed)" : t.name(), t.processor_count(),
                                    t.switch_count(), t.channel_count());
  if (!t.fault_records().empty()) {
    std::vector<std::string> faults;
    for (const auto& f : t.fault_records())
      faults.push_back(fmt::format("{}->{}", node_name(t, f.from), node_name(t, f.to)));
    network += fmt::format("; faulty: {}", fmt::join(faults, ", "));
  }
  network += ")";
  out += fmt::format("network:     {}\n", network);
  std::string who;
  const auto kind = c.kind;
  if ((kind == CollectiveKind::OAB || kind == CollectiveKind::OAS) && c.senders.size() == 1)
    who = fmt::format("root {}", node_name(t, c.senders.front()));
  else if (kind == CollectiveKind::AOG && c.receivers.size() == 1)
    who = fmt::format("root {}", node_name(t, c.receivers.front()));
  else
    who = fmt::format("{} senders, {} receivers", c.senders.size(), c.receivers.size());
  out += fmt::format("collective:  {}, {}, {} messages\n", kKindNames[static_cast<int>(kind)], who,
                     c.messages.size());
  out += fmt::format("model:       {}, {}, {} routing{}, {}\n",
                     s.model.ports ? fmt::format("{}-port", *s.model.ports) : "all-port",
                     s.model.switching == Switching::wormhole ? "wormhole" : "store-and-forward",
                     s.model.routing == Routing::minimal ? "minimal" : "nonminimal",
                     s.model.routing == Routing::nonminimal
                         ? fmt::format(" (up to {} extra hops)", s.model.extra_hops)
                         : "",
                     s.model.combining ? "combining" : "no combining");
  out += fmt::format("steps:       {}\n", s.steps);
  out += fmt::format("lower bound: {}\n", s.lower_bound ? std::to_string(*s.lower_bound) : "-");
  out += fmt::format("optimal:     {}\n", yes_no(s.optimal));
  if (s.solver)
    out += fmt::format("solver:      {} (seed {}, {:.3f} s)\n",
                       s.solver->engine.empty() ? "?" : s.solver->engine, s.solver->seed,
                       s.solver->seconds);
  else
    out += "solver:      -\n";
  return out;
}

}  // namespace ccsched
