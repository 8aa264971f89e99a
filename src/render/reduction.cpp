// Replay of a reduction schedule's accumulators for the pictures (reduction.hpp).
#include "reduction.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>

#include "text.hpp"

namespace ccsched::render_detail {

ReductionReplay replay_reduction(const Schedule& s) {
  const Topology& t = s.topology;
  const int blocks = std::max(1, s.collective.blocks);
  const std::set<NodeId> senders(s.collective.senders.begin(), s.collective.senders.end());
  // Only accumulators a transfer wrote are stored; the rest hold their start value
  // (FORMATS.md: {v} for a sender, empty otherwise), so billions of blocks cost nothing.
  std::map<std::pair<NodeId, int>, InputSet> acc;
  auto value = [&](NodeId v, int b) -> InputSet {
    if (const auto it = acc.find({v, b}); it != acc.end()) return it->second;
    return senders.count(v) ? InputSet{v} : InputSet{};
  };
  auto is_processor = [&](NodeId n) { return n >= 0 && n < t.node_count() && t.is_processor(n); };

  ReductionReplay r;
  r.inputs = static_cast<int>(senders.size());
  r.carried.resize(s.transfers.size());
  std::vector<std::size_t> order(s.transfers.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return s.transfers[a].step < s.transfers[b].step;
  });

  std::size_t next = 0;
  for (Step step = 1; step <= s.steps; ++step) {
    while (next < order.size() && s.transfers[order[next]].step < step) ++next;
    // Values read at the start of the step, landed at its end.
    std::vector<std::pair<std::pair<NodeId, int>, InputSet>> copies, reduces;
    for (; next < order.size() && s.transfers[order[next]].step == step; ++next) {
      const std::size_t i = order[next];
      const Transfer& tr = s.transfers[i];
      if (tr.path.empty() || !is_processor(tr.path.front()) || !is_processor(tr.path.back()))
        continue;
      const NodeId u = tr.path.front(), v = tr.path.back();
      for (const int b : tr.blocks) {
        if (b < 0 || b >= blocks) continue;
        InputSet carried = tr.send == ReductionSend::input
                               ? (senders.count(u) ? InputSet{u} : InputSet{})
                               : value(u, b);
        r.carried[i].emplace_back(b, carried);
        (tr.recv == ReductionRecv::copy ? copies : reduces).push_back({{v, b}, std::move(carried)});
      }
    }
    for (auto& [key, set] : copies) acc[key] = set;
    for (auto& [key, set] : reduces) {
      InputSet sum = value(key.first, key.second);
      sum.insert(set.begin(), set.end());
      acc[key] = std::move(sum);
    }
    // Counts after the step, for every processor (blocks not stored hold the start value).
    std::map<NodeId, std::vector<int>> counts;
    for (NodeId n = 0; n < t.node_count(); ++n) {
      if (!t.is_processor(n)) continue;
      const int start = senders.count(n) ? 1 : 0;
      // Few blocks: every one; many: the stored ones plus one start value standing for
      // the rest (enough for the fewest..most range count_text prints).
      std::vector<int> c;
      if (blocks <= 4) {
        for (int b = 0; b < blocks; ++b) c.push_back(static_cast<int>(value(n, b).size()));
      } else {
        int stored = 0;
        for (auto it = acc.lower_bound({n, 0}); it != acc.end() && it->first.first == n; ++it) {
          c.push_back(static_cast<int>(it->second.size()));
          ++stored;
        }
        if (stored < blocks) c.push_back(start);
      }
      counts[n] = std::move(c);
    }
    r.counts_after.push_back(std::move(counts));
  }
  return r;
}

std::string input_set_text(const Topology& t, const InputSet& inputs) {
  const bool by_id = std::all_of(inputs.begin(), inputs.end(),
                                 [&](NodeId n) { return node_name(t, n) == std::to_string(n); });
  std::string out = "{";
  auto add = [&](const std::string& item) {
    if (out.size() > 1) out += ',';
    out += item;
  };
  if (!by_id) {
    for (const NodeId n : inputs) add(node_name(t, n));
    return out + "}";
  }
  for (auto it = inputs.begin(); it != inputs.end();) {
    auto end = it;
    NodeId last = *it;
    while (std::next(end) != inputs.end() && *std::next(end) == last + 1) last = *++end;
    if (last - *it >= 2) {
      add(fmt::format("{}..{}", *it, last));
    } else {
      for (auto k = it;; ++k) {
        add(std::to_string(*k));
        if (k == end) break;
      }
    }
    it = std::next(end);
  }
  return out + "}";
}

std::string carried_text(const Topology& t, const std::vector<std::pair<int, InputSet>>& carried) {
  std::string out;
  for (const auto& [block, inputs] : carried)
    out += fmt::format("{}b{} {}", out.empty() ? "" : "; ", block, input_set_text(t, inputs));
  return out;
}

std::string count_text(const std::vector<int>& counts, int inputs) {
  if (counts.empty()) return fmt::format("0/{}", inputs);
  if (counts.size() == 1) return fmt::format("{}/{}", counts.front(), inputs);
  if (counts.size() <= 4) {
    std::string out;
    for (const int c : counts) {
      if (!out.empty()) out += ',';
      out += std::to_string(c);
    }
    return fmt::format("{}/{}", out, inputs);
  }
  const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
  return *lo == *hi ? fmt::format("{}/{}", *lo, inputs) : fmt::format("{}..{}/{}", *lo, *hi, inputs);
}

}  // namespace ccsched::render_detail
