// Minimal reduction schedules (engines/prune.hpp; docs/ENGINES.md "Reductions: pruning").
// The accumulator semantics of FORMATS.md "Reductions" are replayed once, keeping per
// (transfer, block) the value it carries and the receiver's accumulator at the start of its
// step. Deleting a transfer changes its receivers' accumulators from that step on; the
// change travels with every later send of a changed accumulator and stops where a receive
// makes the accumulator equal to the original again (a copy of the same sum, say). The
// deletion is allowed when every receive it touches still obeys R2 (disjoint reduces, no
// empty send) and no accumulator that R3 names ends changed. Deleting never breaks the
// other rules (paths, channels, ports, switching, routing only lose uses).
#include "ccsched/engines/prune.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ccsched {
namespace {

using Word = std::uint64_t;

class Pruner {
 public:
  Pruner(Schedule& s, const Budget& budget, std::int64_t work)
      : s_(s), budget_(budget), work_(work) {}

  bool load(std::int64_t max_words) {
    const Collective& c = s_.collective;
    blocks_ = std::max(1, c.blocks);
    const int n = s_.topology.node_count();
    sender_index_.assign(n, -1);
    for (std::size_t i = 0; i < c.senders.size(); ++i) {
      if (c.senders[i] < 0 || c.senders[i] >= n) return false;
      sender_index_[c.senders[i]] = static_cast<int>(i);
    }
    words_ = static_cast<int>((c.senders.size() + 63) / 64);
    std::int64_t entries = 0;
    for (const Transfer& t : s_.transfers) {
      if (t.path.size() < 2 || t.step < 1 || t.step > s_.steps) return false;
      for (int b : t.blocks)
        if (b < 0 || b >= blocks_) return false;
      entries += static_cast<std::int64_t>(t.blocks.size());
    }
    if (entries * words_ * 2 > max_words) return false;
    // Entries (transfer, block), in step order; per step the readers and receivers of
    // each accumulator.
    order_.resize(s_.transfers.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      return s_.transfers[a].step < s_.transfers[b].step;
    });
    first_entry_.assign(s_.transfers.size(), 0);
    readers_.assign(s_.steps + 1, {});
    into_.assign(s_.steps + 1, {});
    for (int i : order_) {
      const Transfer& t = s_.transfers[i];
      first_entry_[i] = static_cast<int>(entry_transfer_.size());
      for (int b : t.blocks) {
        const int e = static_cast<int>(entry_transfer_.size());
        entry_transfer_.push_back(i);
        entry_block_.push_back(b);
        if (t.send == ReductionSend::acc) readers_[t.step][key(t.path.front(), b)].push_back(e);
        into_[t.step][key(t.path.back(), b)].push_back(e);
      }
    }
    const std::size_t total = entry_transfer_.size();
    value_.assign(total * words_, 0);
    before_.assign(total * words_, 0);
    deleted_.assign(s_.transfers.size(), 0);
    // The replay: accumulators start as {v} for a sender.
    std::unordered_map<long long, std::vector<Word>> acc;
    auto acc_of = [&](long long k) -> std::vector<Word>& {
      auto it = acc.find(k);
      if (it != acc.end()) return it->second;
      std::vector<Word> v(words_, 0);
      const int si = sender_index_[k / blocks_];
      if (si >= 0) v[si / 64] |= Word{1} << (si % 64);
      return acc.emplace(k, std::move(v)).first->second;
    };
    for (int step = 1; step <= s_.steps; ++step) {
      for (auto& [k, list] : into_[step])
        for (int e : list) {
          const Transfer& t = s_.transfers[entry_transfer_[e]];
          Word* val = &value_[static_cast<std::size_t>(e) * words_];
          if (t.send == ReductionSend::input) {
            const int si = sender_index_[t.path.front()];
            if (si < 0) return false;
            val[si / 64] |= Word{1} << (si % 64);
          } else {
            const auto& from = acc_of(key(t.path.front(), entry_block_[e]));
            std::copy(from.begin(), from.end(), val);
          }
        }
      for (auto& [k, list] : into_[step]) {
        auto& a = acc_of(k);
        for (int e : list) std::copy(a.begin(), a.end(), &before_[std::size_t(e) * words_]);
        std::vector<Word> after(words_);
        if (!receive(list, nullptr, a.data(), after.data())) return false;
        a = std::move(after);
      }
    }
    for (const auto& target : reduction_prefixes(c)) targets_.insert(key(target.node, target.block));
    return true;
  }

  PruneResult run() {
    PruneResult r;
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
        if (deleted_[*it]) continue;
        if (work_ <= 0 || budget_.expired()) return r;
        if (try_delete(*it)) {
          ++r.removed;
          changed = true;
        }
      }
    }
    r.complete = true;
    return r;
  }

  void write() {
    std::vector<Transfer> kept;
    for (std::size_t i = 0; i < s_.transfers.size(); ++i)
      if (!deleted_[i]) kept.push_back(std::move(s_.transfers[i]));
    std::vector<Step> used;
    for (const Transfer& t : kept) used.push_back(t.step);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    for (Transfer& t : kept)
      t.step = static_cast<Step>(std::lower_bound(used.begin(), used.end(), t.step) -
                                 used.begin() + 1);
    s_.transfers = std::move(kept);
    s_.steps = static_cast<int>(used.size());
  }

 private:
  long long key(NodeId v, int b) const { return static_cast<long long>(v) * blocks_ + b; }

  // The receives `list` (entries into one accumulator in one step) applied to `base`:
  // `after`, or false when R2 fails. `values` overrides entries' carried values.
  bool receive(const std::vector<int>& list,
               const std::unordered_map<int, std::vector<Word>>* values, const Word* base,
               Word* after) {
    std::copy(base, base + words_, after);
    bool copied = false;
    int live = 0;
    for (int e : list) {
      if (deleted_[entry_transfer_[e]]) continue;
      ++live;
      const Word* val = &value_[std::size_t(e) * words_];
      if (values != nullptr) {
        auto it = values->find(e);
        if (it != values->end()) val = it->second.data();
      }
      work_ -= words_;
      const Transfer& t = s_.transfers[entry_transfer_[e]];
      if (t.send == ReductionSend::acc &&
          std::all_of(val, val + words_, [](Word w) { return w == 0; }))
        return false;
      if (t.recv == ReductionRecv::copy) {
        std::copy(val, val + words_, after);
        copied = true;
        continue;
      }
      for (int w = 0; w < words_; ++w) {
        if ((after[w] & val[w]) != 0) return false;
        after[w] |= val[w];
      }
    }
    return !(copied && live > 1);
  }

  // Deletes transfer i if the schedule stays valid; see the file comment.
  bool try_delete(int i) {
    const Transfer& t = s_.transfers[i];
    work_ -= 64;  // the fixed cost of a trial
    std::unordered_map<long long, std::vector<Word>> dirty;  // accumulators now different
    std::vector<std::pair<int, std::vector<Word>>> new_values, new_befores;
    deleted_[i] = 1;
    auto fail = [&] {
      deleted_[i] = 0;
      return false;
    };
    std::vector<Word> after(words_), original(words_);
    // The original accumulator after `list` is received: the same receive with every entry.
    auto original_after = [&](const std::vector<int>& list, const Word* base) {
      const char keep = deleted_[i];
      deleted_[i] = 0;
      receive(list, nullptr, base, original.data());
      deleted_[i] = keep;
    };
    for (std::size_t j = 0; j < t.blocks.size(); ++j) {
      const int e = first_entry_[i] + static_cast<int>(j);
      const long long k = key(t.path.back(), entry_block_[e]);
      const auto& list = into_[t.step][k];
      const Word* base = &before_[std::size_t(e) * words_];
      if (!receive(list, nullptr, base, after.data())) return fail();
      original_after(list, base);
      if (after != original) dirty[k] = after;
    }
    std::unordered_map<int, std::vector<Word>> values;
    for (int step = t.step + 1; step <= s_.steps && !dirty.empty(); ++step) {
      values.clear();
      std::unordered_set<long long> touched;
      // Following the change costs about a word count per changed accumulator and step
      // beside the receives themselves: counted too, so that the allowance bounds time.
      work_ -= static_cast<std::int64_t>(dirty.size()) * (words_ + 8);
      for (const auto& [k, v] : dirty) {
        auto r = readers_[step].find(k);
        if (r != readers_[step].end())
          for (int e : r->second) {
            if (deleted_[entry_transfer_[e]]) continue;
            values[e] = v;
            const Transfer& u = s_.transfers[entry_transfer_[e]];
            touched.insert(key(u.path.back(), entry_block_[e]));
          }
        if (into_[step].count(k) != 0) touched.insert(k);
      }
      std::vector<long long> keys(touched.begin(), touched.end());
      std::sort(keys.begin(), keys.end());
      for (long long k : keys) {
        const auto& list = into_[step].at(k);
        auto d = dirty.find(k);
        const Word* stored = &before_[std::size_t(list.front()) * words_];
        const Word* base = d != dirty.end() ? d->second.data() : stored;
        if (!receive(list, &values, base, after.data())) return fail();
        original_after(list, stored);
        if (d != dirty.end())
          for (int e : list) new_befores.push_back({e, d->second});
        if (after == original)
          dirty.erase(k);
        else
          dirty[k] = after;
      }
      for (auto& [e, v] : values) new_values.push_back({e, std::move(v)});
    }
    for (const auto& [k, v] : dirty)
      if (targets_.count(k) != 0) return fail();
    for (const auto& [e, v] : new_values) std::copy(v.begin(), v.end(), &value_[e * words_]);
    for (const auto& [e, v] : new_befores) std::copy(v.begin(), v.end(), &before_[e * words_]);
    return true;
  }

  Schedule& s_;
  const Budget& budget_;
  std::int64_t work_;
  int blocks_ = 1;
  int words_ = 1;
  std::vector<int> sender_index_;
  std::vector<int> order_;        // transfers in step order
  std::vector<int> first_entry_;  // transfer -> its first entry
  std::vector<int> entry_transfer_, entry_block_;
  std::vector<std::unordered_map<long long, std::vector<int>>> readers_, into_;
  std::vector<Word> value_, before_;
  std::vector<char> deleted_;
  std::unordered_set<long long> targets_;
};

}  // namespace

PruneResult prune_reduction(Schedule& s, const Budget& budget, std::int64_t work,
                            std::int64_t max_words) {
  if (!is_reduction(s.collective) || s.transfers.empty()) return {0, true};
  Pruner p(s, budget, work);
  if (!p.load(max_words)) return {};
  PruneResult r = p.run();
  if (r.removed > 0) p.write();
  return r;
}

}  // namespace ccsched
