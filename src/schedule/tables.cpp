// The seeds' table layouts of a schedule (tables.hpp), and the steps of a reduction. All
// are read off the transfers as they stand, so a table can be printed for a schedule the
// verifier rejects:
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
//   steps (reductions, FORMATS.md "Reductions"): per step, per transfer and block, the
//         value sent (`input{u}` or `acc{...}`, the senders whose inputs it sums) and what
//         the receiver does with it; then the final accumulators the collective names.
//         The values come from replaying the transfers with the format's semantics (a
//         value is read at the start of its step, receives land at its end); the replay
//         judges nothing — verify.cpp does, with its own code.
//
// Everything a table cannot place (a step outside 1..steps, a sender not yet holding the
// message, a repeated delivery) is listed after it, one line each.
#include "ccsched/schedule/tables.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"

namespace ccsched {
namespace {

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
    if (is_reduction(s.collective)) {
      // A reduction carries blocks, not messages (the steps layout says what it does).
      std::vector<std::string> ids;
      for (const int b : tr.blocks) ids.push_back(fmt::format("b{}", b));
      entry += fmt::format("({})", fmt::join(ids, " "));
    } else if (!plain) {
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

// --- reductions ---------------------------------------------------------------------------

// The accumulators of a reduction as the transfers leave them (see the file comment).
// Values are sets of sender node ids; an accumulator never written holds its start value.
class ReductionReplay {
 public:
  explicit ReductionReplay(const Schedule& s) : s_(s) {
    senders_.insert(s.collective.senders.begin(), s.collective.senders.end());
  }

  std::set<NodeId> value(NodeId v, int b) const {
    if (const auto it = acc_.find({v, b}); it != acc_.end()) return it->second;
    return start(v);
  }
  std::set<NodeId> start(NodeId v) const {
    return senders_.contains(v) ? std::set<NodeId>{v} : std::set<NodeId>{};
  }
  // Blocks of v some transfer wrote, ascending.
  std::vector<int> written(NodeId v) const {
    std::vector<int> out;
    for (auto it = acc_.lower_bound({v, std::numeric_limits<int>::min()});
         it != acc_.end() && it->first.first == v; ++it)
      out.push_back(it->first.second);
    return out;
  }

  // Replays the transfers of one step (indices into s.transfers, in order) and returns,
  // per transfer and block, the value it carried.
  std::vector<std::vector<std::set<NodeId>>> step(const std::vector<int>& list) {
    std::vector<std::vector<std::set<NodeId>>> sent;
    std::map<std::pair<NodeId, int>, std::set<NodeId>> copied, reduced;
    for (const int i : list) {
      const auto& tr = s_.transfers[i];
      const NodeId u = tr.path.front(), v = tr.path.back();
      auto& values = sent.emplace_back();
      for (const int b : tr.blocks) {
        values.push_back(tr.send == ReductionSend::input ? start(u) : value(u, b));
        if (tr.recv == ReductionRecv::copy)
          copied[{v, b}] = values.back();
        else
          reduced[{v, b}].insert(values.back().begin(), values.back().end());
      }
    }
    // End of the step: copies first, then what was reduced (verify.cpp reads a step that
    // mixes them the same way, after reporting it).
    for (auto& [key, set] : copied) acc_[key] = std::move(set);
    for (auto& [key, set] : reduced) {
      auto it = acc_.find(key);
      if (it == acc_.end()) it = acc_.emplace(key, start(key.first)).first;  // never written
      it->second.insert(set.begin(), set.end());
    }
    return sent;
  }

 private:
  const Schedule& s_;
  std::set<NodeId> senders_;
  std::map<std::pair<NodeId, int>, std::set<NodeId>> acc_;
};

// "{0,3,5}". A set of more than 16 (a reduction on hundreds of processors sums hundreds of
// inputs) is written by runs of consecutive ids, "{0..511}", and past 8 runs cut short with
// its size, "{0..3,8..11,...; 512 in all}": every cell of a column is padded to the widest,
// so one long set would make every line of the table as long.
std::string set_text(const Topology& t, const std::set<NodeId>& set) {
  std::vector<std::string> names;
  constexpr std::size_t kListed = 16, kRuns = 8;
  if (set.size() <= kListed) {
    for (const NodeId n : set) names.push_back(node_name(t, n));
    return fmt::format("{{{}}}", fmt::join(names, ","));
  }
  for (auto it = set.begin(); it != set.end() && names.size() < kRuns;) {
    const NodeId first = *it;
    NodeId last = first;
    for (++it; it != set.end() && *it == last + 1; ++it) last = *it;
    names.push_back(last == first ? node_name(t, first)
                                  : fmt::format("{}..{}", node_name(t, first), node_name(t, last)));
    if (names.size() == kRuns && it != set.end())
      return fmt::format("{{{},...; {} in all}}", fmt::join(names, ","), set.size());
  }
  return fmt::format("{{{}}}", fmt::join(names, ","));
}

// "3 -> 1", "2 -> 0 via 1" (the processors a worm passes without delivering; switches are
// left out as in the trees layout).
std::string hop_text(const Topology& t, const std::vector<NodeId>& path) {
  std::string out = fmt::format("{} -> {}", node_name(t, path.front()), node_name(t, path.back()));
  std::vector<std::string> through;
  for (std::size_t j = 1; j + 1 < path.size(); ++j)
    if (!valid_node(t, path[j]) || t.is_processor(path[j]))
      through.push_back(node_name(t, path[j]));
  if (!through.empty()) out += fmt::format(" via {}", fmt::join(through, ","));
  return out;
}

// What the collective asks of node v (FORMATS.md "Reductions", table): the senders whose
// inputs each named block of v must sum, or nothing when v is not named for that block.
struct Goal {
  NodeId node;
  std::vector<int> only_block;  // REDUCESCATTER: the one block; empty = every block
  std::set<NodeId> senders;
};

std::vector<Goal> reduction_goals(const Collective& c) {
  const std::set<NodeId> all(c.senders.begin(), c.senders.end());
  std::vector<Goal> out;
  switch (c.kind) {
    case CollectiveKind::REDUCE:
    case CollectiveKind::ALLREDUCE:
      for (const NodeId r : c.receivers) out.push_back({r, {}, all});
      break;
    case CollectiveKind::REDUCESCATTER:
      for (int j = 0; j < static_cast<int>(c.receivers.size()); ++j)
        out.push_back({c.receivers[j], {j}, all});
      break;
    case CollectiveKind::SCAN: {
      std::set<NodeId> prefix;
      for (const NodeId v : c.senders) {
        prefix.insert(v);
        out.push_back({v, {}, prefix});
      }
      break;
    }
    default:
      break;
  }
  return out;
}

// Blocks [first, last] of node v whose final values are equal, as one summary line.
struct BlockRun {
  int first, last;
  std::set<NodeId> value;
};

// Consecutive blocks of v with the same final value, in O(written blocks): the blocks no
// transfer wrote all hold the start value (a document may name billions of blocks).
std::vector<BlockRun> block_runs(const ReductionReplay& r, NodeId v, int blocks) {
  std::vector<BlockRun> runs;
  const auto push = [&](int first, int last, std::set<NodeId> value) {
    if (first > last) return;
    if (!runs.empty() && runs.back().last + 1 == first && runs.back().value == value)
      runs.back().last = last;
    else
      runs.push_back({first, last, std::move(value)});
  };
  int next = 0;
  for (const int b : r.written(v)) {
    if (b < 0 || b >= blocks) continue;
    push(next, b - 1, r.start(v));
    push(b, b, r.value(v, b));
    next = b + 1;
  }
  push(next, blocks - 1, r.start(v));
  return runs;
}

std::string steps_table(const Schedule& s) {
  const Topology& t = s.topology;
  const auto& c = s.collective;
  ReductionReplay replay(s);
  std::map<Step, std::vector<int>> by_step;
  std::vector<std::string> notes;
  for (int i = 0; i < static_cast<int>(s.transfers.size()); ++i) {
    const auto& tr = s.transfers[i];
    if (tr.path.empty())
      notes.push_back(fmt::format("transfer {} (step {}) has an empty path", i, tr.step));
    else if (tr.step < 1)
      notes.push_back(
          fmt::format("transfer {} ({}) is in step {}", i, hop_text(t, tr.path), tr.step));
    else if (tr.blocks.empty())
      notes.push_back(fmt::format("transfer {} ({}, step {}) carries no block", i,
                                  hop_text(t, tr.path), tr.step));
    else
      by_step[tr.step].push_back(i);
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& [step, list] : by_step) {
    const auto sent = replay.step(list);
    bool first = true;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const auto& tr = s.transfers[list[k]];
      for (std::size_t j = 0; j < tr.blocks.size(); ++j) {
        rows.push_back({first ? fmt::format("step {}:", step) : "", hop_text(t, tr.path),
                        fmt::format("{}{}", to_string(tr.send), set_text(t, sent[k][j])),
                        fmt::format("(block {})", tr.blocks[j]), std::string(to_string(tr.recv))});
        first = false;
      }
    }
  }
  std::string out = rows.empty() ? "(no transfers)\n" : align(rows, "  ");
  // The final accumulators the collective names, blocks with equal values run together.
  std::vector<std::vector<std::string>> finals;
  for (const auto& goal : reduction_goals(c)) {
    std::vector<BlockRun> runs;
    if (goal.only_block.empty()) {
      runs = block_runs(replay, goal.node, c.blocks);
    } else {
      const int b = goal.only_block.front();
      runs.push_back({b, b, replay.value(goal.node, b)});
    }
    for (const auto& run : runs) {
      std::vector<NodeId> missing, extra;
      std::set_difference(goal.senders.begin(), goal.senders.end(), run.value.begin(),
                          run.value.end(), std::back_inserter(missing));
      std::set_difference(run.value.begin(), run.value.end(), goal.senders.begin(),
                          goal.senders.end(), std::back_inserter(extra));
      std::string verdict = missing.empty() && extra.empty() ? "complete" : "";
      if (!missing.empty())
        verdict += fmt::format("missing {}", set_text(t, {missing.begin(), missing.end()}));
      if (!extra.empty())
        verdict += fmt::format("{}extra {}", verdict.empty() ? "" : ", ",
                               set_text(t, {extra.begin(), extra.end()}));
      finals.push_back({"  " + node_name(t, goal.node),
                        run.first == run.last ? fmt::format("block {}:", run.first)
                                              : fmt::format("blocks {}-{}:", run.first, run.last),
                        set_text(t, run.value), verdict});
    }
  }
  if (!finals.empty()) out += "final accumulators:\n" + align(finals, "  ");
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
  if (text == "steps") return TableLayout::steps;
  throw InvalidParameter("expected auto, grid, trees or steps, got '" + std::string(text) + "'",
                         "--layout");
}

TableLayout resolve_layout(const Schedule& s, TableLayout requested) {
  const bool reduction = is_reduction(s.collective);
  if (reduction && requested == TableLayout::trees)
    throw InvalidParameter("a reduction has no message trees (use steps or grid)", "--layout");
  if (!reduction && requested == TableLayout::steps)
    throw InvalidParameter("the steps layout is for reductions (use grid or trees)", "--layout");
  if (requested != TableLayout::automatic) return requested;
  if (reduction) return TableLayout::steps;
  const bool broadcast = std::any_of(s.collective.messages.begin(), s.collective.messages.end(),
                                     [](const Message& m) { return m.targets.size() > 1; });
  return broadcast ? TableLayout::trees : TableLayout::grid;
}

std::string format_schedule_table(const Schedule& s, TableLayout layout) {
  switch (resolve_layout(s, layout)) {
    case TableLayout::trees:
      return trees_table(s);
    case TableLayout::steps:
      return steps_table(s);
    case TableLayout::automatic:  // resolve_layout never returns it
    case TableLayout::grid:
      break;
  }
  return grid_table(s);
}

std::vector<StepUtilisation> channel_utilisation(const Schedule& s) {
  const Topology& t = s.topology;
  // A channel counts once per step: `seen[c]` is the last step that counted it, and the
  // transfers are visited step by step (a stable sort of indices).
  std::vector<int> order;
  for (int i = 0; i < static_cast<int>(s.transfers.size()); ++i)
    if (s.transfers[i].step >= 1 && s.transfers[i].step <= s.steps) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return s.transfers[a].step < s.transfers[b].step; });
  std::vector<int> used(static_cast<std::size_t>(std::max(s.steps, 0)), 0);
  std::vector<Step> seen(static_cast<std::size_t>(t.channel_count()), 0);
  for (const int i : order) {
    const auto& tr = s.transfers[i];
    for (std::size_t j = 0; j + 1 < tr.path.size(); ++j) {
      if (!valid_node(t, tr.path[j]) || !valid_node(t, tr.path[j + 1])) continue;
      const auto c = t.find_channel(tr.path[j], tr.path[j + 1]);
      if (!c || seen[*c] == tr.step) continue;
      seen[*c] = tr.step;
      ++used[static_cast<std::size_t>(tr.step - 1)];
    }
  }
  std::vector<StepUtilisation> out;
  out.reserve(used.size());
  for (int st = 1; st <= s.steps; ++st)
    out.push_back({st, used[static_cast<std::size_t>(st - 1)], t.channel_count()});
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

bool table_within(const Schedule& s, long long max_transfers) {
  if (max_transfers <= 0) return true;
  return static_cast<long long>(s.transfers.size()) <= max_transfers &&
         static_cast<long long>(s.steps) <= max_transfers;
}

std::string format_schedule_overview(const Schedule& s) {
  const Topology& t = s.topology;
  // Transfers by step (a stable sort of indices), so each step is one run; arrays indexed
  // by node or channel are stamped with the run's number instead of being cleared.
  std::vector<int> order(s.transfers.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return s.transfers[a].step < s.transfers[b].step; });
  struct Row {
    Step first = 0, last = 0;
    long long transfers = 0;
    int channels = 0;  // the most used in one step of the row
    long long channel_steps = 0;
    int busiest_sender = 0, busiest_receiver = 0, longest = 0;
    // Adds a later step's figures: sums of transfers, maxima of the rest.
    void absorb(const Row& x) {
      last = x.last;
      transfers += x.transfers;
      channels = std::max(channels, x.channels);
      channel_steps += x.channel_steps;
      busiest_sender = std::max(busiest_sender, x.busiest_sender);
      busiest_receiver = std::max(busiest_receiver, x.busiest_receiver);
      longest = std::max(longest, x.longest);
    }
  };
  std::vector<Row> steps;
  std::vector<int> channel_stamp(static_cast<std::size_t>(t.channel_count()), -1);
  std::vector<int> send_stamp(static_cast<std::size_t>(t.node_count()), -1);
  std::vector<int> recv_stamp(send_stamp), sends(send_stamp.size()), recvs(send_stamp.size());
  for (std::size_t at = 0; at < order.size();) {
    const Step st = s.transfers[order[at]].step;
    const int run = static_cast<int>(steps.size());
    Row row{.first = st, .last = st};
    for (; at < order.size() && s.transfers[order[at]].step == st; ++at) {
      const auto& p = s.transfers[order[at]].path;
      ++row.transfers;
      row.longest = std::max(row.longest, static_cast<int>(p.size()) - 1);
      for (std::size_t j = 0; j + 1 < p.size(); ++j) {
        if (!valid_node(t, p[j]) || !valid_node(t, p[j + 1])) continue;
        const auto c = t.find_channel(p[j], p[j + 1]);
        if (!c || channel_stamp[*c] == run) continue;
        channel_stamp[*c] = run;
        ++row.channels;
      }
      if (p.empty()) continue;
      const auto count = [&](NodeId v, std::vector<int>& stamp, std::vector<int>& n, int& most) {
        if (!valid_node(t, v)) return;
        if (stamp[v] != run) {
          stamp[v] = run;
          n[v] = 0;
        }
        most = std::max(most, ++n[v]);
      };
      count(p.front(), send_stamp, sends, row.busiest_sender);
      count(p.back(), recv_stamp, recvs, row.busiest_receiver);
    }
    row.channel_steps = row.channels;
    steps.push_back(row);
  }
  // Past 1,024 steps in use, rows of `group` consecutive steps.
  constexpr std::size_t kRows = 1024;
  const std::size_t group = steps.size() <= kRows ? 1 : (steps.size() + kRows - 1) / kRows;
  std::vector<Row> rows;
  for (std::size_t k = 0; k < steps.size(); k += group) {
    Row r = steps[k];
    for (std::size_t j = k + 1; j < std::min(steps.size(), k + group); ++j) r.absorb(steps[j]);
    rows.push_back(r);
  }
  const int available = t.channel_count();
  const auto percent = [](long long used, long long of) {
    return of == 0 ? 0.0 : 100.0 * static_cast<double>(used) / static_cast<double>(of);
  };
  std::vector<std::vector<std::string>> table{{group == 1 ? "step" : "steps", "transfers",
                                               "channels", "%", "max sends", "max receives",
                                               "longest path"}};
  Row total;
  for (const Row& r : rows) {
    table.push_back(
        {r.first == r.last ? std::to_string(r.first) : fmt::format("{}-{}", r.first, r.last),
         std::to_string(r.transfers), fmt::format("{}/{}", r.channels, available),
         fmt::format("{:.1f}", percent(r.channels, available)), std::to_string(r.busiest_sender),
         std::to_string(r.busiest_receiver), std::to_string(r.longest)});
    total.absorb(r);
  }
  std::string out = fmt::format("overview: {} in {} in use{}\n",
                                plural(total.transfers, "transfer"), plural(steps.size(), "step"),
                                group == 1 ? "" : fmt::format(", {} a row", plural(group, "step")));
  out += align(table, "  ");
  const long long channel_steps = static_cast<long long>(available) * std::max(s.steps, 0);
  out += fmt::format(
      "total: {}; {}/{} channel-steps ({:.1f} %); at most {} in a step, {} "
      "and {} by one processor in a step; longest path {}\n",
      plural(total.transfers, "transfer"), total.channel_steps, channel_steps,
      percent(total.channel_steps, channel_steps), plural(total.channels, "channel"),
      plural(total.busiest_sender, "send"), plural(total.busiest_receiver, "receive"),
      plural(total.longest, "hop"));
  return out;
}

std::string format_table_or_overview(const Schedule& s, TableLayout layout, long long max_transfers,
                                     std::string_view how_to_print) {
  if (table_within(s, max_transfers)) return format_schedule_table(s, layout);
  resolve_layout(s, layout);  // a layout that cannot apply is still an error
  return fmt::format(
             "table left out: {} in {}, more than the limit of {} ({} prints "
             "it); the overview instead:\n",
             plural(s.transfers.size(), "transfer"), plural(s.steps, "step"), max_transfers,
             how_to_print) +
         format_schedule_overview(s);
}

std::string format_schedule_summary(const Schedule& s) {
  const Topology& t = s.topology;
  const auto& c = s.collective;
  std::string out;
  std::string network =
      fmt::format("{} ({}, {}, {}", t.name().empty() ? "(unnamed)" : t.name(),
                  plural(t.processor_count(), "processor"), plural(t.switch_count(), "switch"),
                  plural(t.channel_count(), "channel"));
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
  else if ((kind == CollectiveKind::AOG || kind == CollectiveKind::REDUCE) &&
           c.receivers.size() == 1)
    who = fmt::format("root {}", node_name(t, c.receivers.front()));
  else
    who = fmt::format("{}, {}", plural(c.senders.size(), "sender"),
                      plural(c.receivers.size(), "receiver"));
  if (is_reduction(c)) {
    if (kind == CollectiveKind::REDUCE) who += ", " + plural(c.senders.size(), "sender");
    if (kind == CollectiveKind::SCAN && c.senders.size() <= 16) {
      std::vector<std::string> order;
      for (const NodeId v : c.senders) order.push_back(node_name(t, v));
      who = fmt::format("{} in prefix order {}", plural(c.senders.size(), "sender"),
                        fmt::join(order, ","));
    }
    out +=
        fmt::format("collective:  {}, {}, {}\n", to_string(kind), who, plural(c.blocks, "block"));
  } else {
    out += fmt::format("collective:  {}, {}, {}\n", to_string(kind), who,
                       plural(c.messages.size(), "message"));
  }
  out += fmt::format("model:       {}, {}, {} routing{}, {}\n",
                     s.model.ports ? fmt::format("{}-port", *s.model.ports) : "all-port",
                     s.model.switching == Switching::wormhole ? "wormhole" : "store-and-forward",
                     s.model.routing == Routing::minimal ? "minimal" : "nonminimal",
                     s.model.routing == Routing::nonminimal
                         ? fmt::format(" (up to {} extra hops)", s.model.extra_hops)
                         : "",
                     s.model.combining ? "combining" : "no combining");
  out += fmt::format("steps:       {}\n", s.steps);
  // A bound or proof inside a restriction (FORMATS.md "Schedule") goes beside the one
  // under the model as written, never in its place.
  std::string bound = s.lower_bound ? std::to_string(*s.lower_bound) : "-";
  if (s.direct_delivery_bound)
    bound += fmt::format(" (direct delivery only: {})", *s.direct_delivery_bound);
  out += fmt::format("lower bound: {}\n", bound);
  std::string optimal = yes_no(s.optimal);
  if (s.optimal_within) optimal += fmt::format(" (proven optimal within {})", *s.optimal_within);
  out += fmt::format("optimal:     {}\n", optimal);
  if (s.solver)
    out += fmt::format("solver:      {} (seed {}, {:.3f} s)\n",
                       s.solver->engine.empty() ? "?" : s.solver->engine, s.solver->seed,
                       s.solver->seconds);
  else
    out += "solver:      -\n";
  return out;
}

}  // namespace ccsched
