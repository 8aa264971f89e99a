// Translation rules (translation.hpp).
#include "translation.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "ccsched/topology/generators.hpp"

namespace ccsched::codegen_detail {

std::optional<TranslationRule> translation_rule(const Schedule& s) {
  if (is_reduction(s.collective) || s.topology.switch_count() != 0) return std::nullopt;
  const auto family = family_of(s.topology);
  if (!family) return std::nullopt;
  TranslationRule rule;
  rule.radix = family->sides;
  long long product = 1;
  for (const int r : rule.radix) product *= r;
  const int P = s.topology.node_count();
  if (product != P || P < 2) return std::nullopt;
  const auto node = [&](NodeId v) { return v >= 0 && v < P; };

  // Messages: (shape, origin), every shape from every origin exactly once.
  std::map<std::vector<int>, int> shape_index;
  // id -> (shape, origin); ids are the indices in a valid schedule (rule 10), else none.
  std::vector<std::pair<int, int>> message(s.collective.messages.size(), {-1, -1});
  for (const Message& m : s.collective.messages) {
    if (!node(m.origin)) return std::nullopt;
    std::vector<int> offsets;
    for (const NodeId t : m.targets) {
      if (!node(t)) return std::nullopt;
      offsets.push_back(group_op(rule.radix, t, m.origin, -1));
    }
    std::sort(offsets.begin(), offsets.end());
    const auto [it, fresh] = shape_index.try_emplace(offsets, static_cast<int>(rule.shapes.size()));
    if (fresh) rule.shapes.push_back(offsets);
    if (m.id < 0 || static_cast<std::size_t>(m.id) >= message.size() ||
        message[static_cast<std::size_t>(m.id)].first >= 0)
      return std::nullopt;
    message[static_cast<std::size_t>(m.id)] = {it->second, m.origin};
  }
  if (s.collective.messages.size() != rule.shapes.size() * static_cast<std::size_t>(P))
    return std::nullopt;
  {
    std::vector<char> seen(s.collective.messages.size(), 0);
    for (const auto& so : message) {
      char& x = seen[static_cast<std::size_t>(so.first) * P + so.second];
      if (x) return std::nullopt;
      x = 1;
    }
  }

  // Transfers: the entry each is a translate of, and its receiver; every entry must be
  // translated to every receiver exactly once.
  // {step, delta, offset, shape, ...} -> entry; hashed: one lookup per transfer.
  struct KeyHash {
    std::size_t operator()(const std::vector<int>& key) const {
      std::uint64_t h = 0x9e3779b97f4a7c15ULL;
      for (const int x : key) h = (h ^ static_cast<std::uint32_t>(x)) * 0x100000001b3ULL;
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<std::vector<int>, int, KeyHash> entry_index;
  std::vector<std::int64_t> placed;  // entry * P + receiver
  placed.reserve(s.transfers.size());
  std::vector<int> key;
  for (const Transfer& tr : s.transfers) {
    if (tr.path.size() < 2 || !node(tr.path.front()) || !node(tr.path.back())) return std::nullopt;
    const NodeId to = tr.path.back();
    key.assign({tr.step, group_op(rule.radix, to, tr.path.front(), -1)});
    for (const MessageId id : tr.messages) {
      if (id < 0 || static_cast<std::size_t>(id) >= message.size()) return std::nullopt;
      const auto [shape, origin] = message[static_cast<std::size_t>(id)];
      key.push_back(group_op(rule.radix, to, origin, -1));
      key.push_back(shape);
    }
    const auto [it, fresh] = entry_index.try_emplace(key, static_cast<int>(entry_index.size()));
    placed.push_back(static_cast<std::int64_t>(it->second) * P + to);
  }
  if (placed.size() != entry_index.size() * static_cast<std::size_t>(P)) return std::nullopt;
  std::sort(placed.begin(), placed.end());
  if (std::adjacent_find(placed.begin(), placed.end()) != placed.end()) return std::nullopt;

  std::vector<const std::vector<int>*> keys;
  for (const auto& [k, index] : entry_index) keys.push_back(&k);
  std::sort(keys.begin(), keys.end(), [](const auto* a, const auto* b) { return *a < *b; });
  for (const std::vector<int>* kp : keys) {  // by step, then the rest
    const std::vector<int>& k = *kp;
    TranslationRule::Entry e{.step = k[0], .delta = k[1], .messages = {}};
    for (std::size_t i = 2; i + 1 < k.size(); i += 2) e.messages.emplace_back(k[i], k[i + 1]);
    rule.entries.push_back(std::move(e));
  }
  return rule;
}

}  // namespace ccsched::codegen_detail
