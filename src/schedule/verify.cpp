// The verifier of FORMATS.md's validity rules: the ten rules, and for reductions rules
// R1-R3 (FORMATS.md "Reductions") in place of 5-7. It is the referee of every engine, so
// it is written from the rules' text alone: it shares no code with the engines, the
// routing module or the problem module (its own BFS for rule 9, or the topology module's
// closed-form distances on an exact generated family; its own reading of what each
// collective kind means for rule 10), and, that closed form aside, it uses nothing of the
// Topology but the node kinds and the channel adjacency. It must never crash on garbage: every index it
// takes from the schedule is range-checked first and reported as a violation.
//
// Where the rules' wording leaves a case open, the choices are (docs/FORMATS.md, "What the
// verifier checks beyond the wording"):
//   - rule 7 also rejects a transfer carrying no message, and a message listed twice in one
//     transfer, even with combining;
//   - rule 10 also checks each message itself (origin and targets are processors, targets
//     non-empty, without repeats, never the origin; one target for scatter kinds) and that
//     the message set is what the collective kind means (AAS: one message per ordered
//     pair of distinct processors; AAB: `collective.blocks` messages per processor, ...).
//     A receiver that is also a sender need not be a target (the root of OAB may or may
//     not be listed among the receivers);
//   - rule 9 under nonminimal routing caps a path at model.extra_hops more hops than the
//     distance between its ends;
//   - for a reduction, rule 10 also checks the sets (processors, no repeats, no messages,
//     REDUCE one receiver, SCAN receivers = senders in order), and R1 checks
//     collective.blocks (at least 1; REDUCESCATTER one per receiver).
//
// Scale (docs/RELIABILITY.md "Limits"): an AAS on 1,000 processors has a million transfers,
// so the per-transfer work uses flat arrays, not maps: channels are found in a sorted
// adjacency of the verifier's own, each transfer's channels sit in one flat list, and the
// channel and port rules look at one step at a time, with arrays indexed by channel or
// node that are stamped rather than cleared. What each rule reports, and in which order,
// is unchanged.
//
// Reductions are checked by replaying the schedule on accumulators: acc[v][b] is the set
// of senders (indices into the senders list, repeats and non-processors dropped) whose
// inputs it sums, stored only once touched, so a huge `blocks` costs nothing until a
// transfer names the block.
#include "ccsched/schedule/verify.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ccsched/core/text.hpp"
#include "ccsched/topology/family_metric.hpp"

namespace ccsched {
namespace {

constexpr std::array<std::string_view, 15> kRuleNames = {
    "",          "paths",     "steps",   "channels",    "ports",  "holding",      "delivery",
    "combining", "switching", "routing", "bookkeeping", "blocks", "exactly once", "result",
    "claims"};

static_assert(kRuleClaims + 1 == static_cast<int>(kRuleNames.size()));

std::uint64_t pair_key(std::int64_t a, std::int64_t b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

bool is_scatter_kind(CollectiveKind k) {
  return k == CollectiveKind::OAS || k == CollectiveKind::AAS || k == CollectiveKind::AOG ||
         k == CollectiveKind::MNS || k == CollectiveKind::PERM;
}

bool is_broadcast_kind(CollectiveKind k) {
  return k == CollectiveKind::OAB || k == CollectiveKind::AAB || k == CollectiveKind::MNB;
}

bool is_reduction_kind(CollectiveKind k) {
  return k == CollectiveKind::REDUCE || k == CollectiveKind::ALLREDUCE ||
         k == CollectiveKind::REDUCESCATTER || k == CollectiveKind::SCAN;
}

// A set of sender indices (an accumulator's content), as a bitset of a fixed word count.
class SenderSet {
 public:
  SenderSet() = default;
  explicit SenderSet(int senders) : words_(static_cast<std::size_t>((senders + 63) / 64), 0) {}
  void insert(int i) { words_[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64); }
  bool empty() const {
    return std::all_of(words_.begin(), words_.end(), [](std::uint64_t w) { return w == 0; });
  }
  bool intersects(const SenderSet& o) const {
    for (std::size_t k = 0; k < words_.size(); ++k)
      if ((words_[k] & o.words_[k]) != 0) return true;
    return false;
  }
  SenderSet& operator|=(const SenderSet& o) {
    for (std::size_t k = 0; k < words_.size(); ++k) words_[k] |= o.words_[k];
    return *this;
  }
  SenderSet minus(const SenderSet& o) const {
    SenderSet out = *this;
    for (std::size_t k = 0; k < words_.size(); ++k) out.words_[k] &= ~o.words_[k];
    return out;
  }
  SenderSet common(const SenderSet& o) const {
    SenderSet out = *this;
    for (std::size_t k = 0; k < words_.size(); ++k) out.words_[k] &= o.words_[k];
    return out;
  }
  bool operator==(const SenderSet&) const = default;
  std::vector<int> members() const {
    std::vector<int> out;
    for (std::size_t k = 0; k < words_.size(); ++k)
      for (int bit = 0; bit < 64; ++bit)
        if ((words_[k] >> bit) & 1U) out.push_back(static_cast<int>(k * 64) + bit);
    return out;
  }

 private:
  std::vector<std::uint64_t> words_;
};

std::string_view kind_name(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::OAB:
      return "OAB";
    case CollectiveKind::AAB:
      return "AAB";
    case CollectiveKind::OAS:
      return "OAS";
    case CollectiveKind::AAS:
      return "AAS";
    case CollectiveKind::AOG:
      return "AOG";
    case CollectiveKind::MNB:
      return "MNB";
    case CollectiveKind::MNS:
      return "MNS";
    case CollectiveKind::PERM:
      return "PERM";
    case CollectiveKind::CUSTOM:
      return "CUSTOM";
    case CollectiveKind::REDUCE:
      return "REDUCE";
    case CollectiveKind::ALLREDUCE:
      return "ALLREDUCE";
    case CollectiveKind::REDUCESCATTER:
      return "REDUCESCATTER";
    case CollectiveKind::SCAN:
      return "SCAN";
  }
  return "?";
}

std::string join(const std::vector<NodeId>& v) { return fmt::format("{}", fmt::join(v, ", ")); }

class Verifier {
 public:
  // `max_violations`: keep the first that many (0: all); the rest are only counted.
  Verifier(const Schedule& s, std::size_t max_violations)
      : s_(s), t_(s.topology), max_(max_violations) {
    index_channels();
  }

  std::size_t total() const { return total_; }

  // Stop early when `stop()` says so (polled between the rules and in the searches of
  // rule 9); `stopped()` then tells the caller the answer is incomplete.
  void stop_when(std::function<bool()> stop) { stop_ = std::move(stop); }
  bool stopped() const { return stopped_; }

  std::vector<Violation> run() {
    if (is_reduction_kind(s_.collective.kind)) return run_reduction();
    index_messages();
    // Rules 1-10 in order.
    run_rules({&Verifier::check_paths, &Verifier::check_steps, &Verifier::check_channels,
               &Verifier::check_ports, &Verifier::check_holding, &Verifier::check_delivery,
               &Verifier::check_combining, &Verifier::check_switching, &Verifier::check_routing,
               &Verifier::check_bookkeeping});
    return std::move(out_);
  }

  // FORMATS.md "Reductions": rules 1-4, 8, 9, the step part of 10, then R1-R3.
  std::vector<Violation> run_reduction() {
    run_rules({&Verifier::check_paths, &Verifier::check_steps, &Verifier::check_channels,
               &Verifier::check_ports, &Verifier::check_switching, &Verifier::check_routing,
               &Verifier::check_step_count, &Verifier::check_reduction_sets});
    if (!halted() && check_blocks()) {  // R1
      replay_reduction();               // R2
      if (!halted()) check_results();   // R3
    }
    return std::move(out_);
  }

 private:
  void run_rules(std::initializer_list<void (Verifier::*)()> rules) {
    for (const auto rule : rules) {
      if (halted()) return;
      (this->*rule)();
    }
  }
  bool halted() {
    if (!stopped_ && stop_ && stop_()) stopped_ = true;
    return stopped_;
  }

  bool valid_node(NodeId n) const { return n >= 0 && n < t_.node_count(); }
  bool valid_processor(NodeId n) const { return valid_node(n) && t_.is_processor(n); }

  // Past the limit a violation is counted, not kept: a schedule broken throughout (a
  // million transfers in one step) has millions, and their lines would be gigabytes.
  bool full() const { return max_ != 0 && out_.size() >= max_; }
  void add(Violation v) {
    ++total_;
    if (full()) return;
    v.text = fmt::format("rule {} ({}): {}", rule_label(v.rule), kRuleNames[v.rule], v.text);
    out_.push_back(std::move(v));
  }

  // Index of the message with this id, or -1. Ids should equal indices (rule 10 checks);
  // the lookup goes by id so a misnumbered list is still verified sensibly.
  int message_index(MessageId id) const {
    if (ids_are_indices_)
      return id >= 0 && id < static_cast<MessageId>(s_.collective.messages.size()) ? id : -1;
    const auto it = index_of_id_.find(id);
    return it == index_of_id_.end() ? -1 : it->second;
  }

  void index_messages() {
    const auto& msgs = s_.collective.messages;
    ids_are_indices_ = true;
    for (int i = 0; i < static_cast<int>(msgs.size()) && ids_are_indices_; ++i)
      ids_are_indices_ = msgs[i].id == i;
    if (ids_are_indices_) return;       // the valid case: no table needed
    index_of_id_.reserve(msgs.size());  // a million messages: no rehashing on the way
    for (int i = 0; i < static_cast<int>(msgs.size()); ++i)
      index_of_id_.emplace(msgs[i].id, i);  // first one wins on duplicate ids
  }

  // The distinct message indices a transfer carries (unknown ids dropped; rule 10 reports),
  // in a buffer reused from call to call.
  const std::vector<int>& carried(const Transfer& tr) {
    carried_.clear();
    for (const MessageId id : tr.messages) {
      const int m = message_index(id);
      if (m >= 0 && std::find(carried_.begin(), carried_.end(), m) == carried_.end())
        carried_.push_back(m);
    }
    return carried_;
  }

  // The verifier's own channel lookup: per node, its out-channels sorted by the node they
  // lead to (rule 1 asks it once per hop; a hash lookup per hop dominated at scale).
  void index_channels() {
    const int n = t_.node_count();
    adjacency_start_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (NodeId u = 0; u < n; ++u)
      adjacency_start_[u + 1] = adjacency_start_[u] + static_cast<int>(t_.out_channels(u).size());
    adjacency_.reserve(static_cast<std::size_t>(adjacency_start_[n]));
    for (NodeId u = 0; u < n; ++u) {
      for (const ChannelId c : t_.out_channels(u)) adjacency_.emplace_back(t_.channel(c).to, c);
      std::sort(adjacency_.begin() + adjacency_start_[u], adjacency_.end());
    }
  }

  // The channel from -> to, for valid nodes (a topology has at most one per ordered pair).
  std::optional<ChannelId> channel_between(NodeId from, NodeId to) const {
    const auto first = adjacency_.begin() + adjacency_start_[from];
    const auto last = adjacency_.begin() + adjacency_start_[from + 1];
    const auto it = std::lower_bound(first, last, std::make_pair(to, ChannelId{-1}));
    if (it == last || it->first != to) return std::nullopt;
    return it->second;
  }

  // Transfer indices ordered by step, and by index within a step (a stable counting sort
  // over the steps in use), with where each step's run begins: the channel and port rules
  // look at one step at a time.
  void order_by_step() {
    if (!by_step_.empty() || s_.transfers.empty()) return;
    std::vector<Step> steps;
    steps.reserve(s_.transfers.size());
    for (const auto& tr : s_.transfers) steps.push_back(tr.step);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    const auto rank = [&](Step st) {
      return static_cast<std::size_t>(std::lower_bound(steps.begin(), steps.end(), st) -
                                      steps.begin());
    };
    std::vector<int> count(steps.size() + 1, 0);
    std::vector<std::uint32_t> ranks(s_.transfers.size());
    for (std::size_t i = 0; i < s_.transfers.size(); ++i) {
      ranks[i] = static_cast<std::uint32_t>(rank(s_.transfers[i].step));
      ++count[ranks[i] + 1];
    }
    for (std::size_t k = 0; k < steps.size(); ++k) count[k + 1] += count[k];
    step_start_ = count;
    by_step_.resize(s_.transfers.size());
    for (std::size_t i = 0; i < s_.transfers.size(); ++i)
      by_step_[static_cast<std::size_t>(count[ranks[i]]++)] = static_cast<int>(i);
  }

  // Rule 1. Also records, per transfer, the distinct channels its path uses (consecutive
  // pairs of valid nodes that are channels), for rule 3: those of transfer i are
  // channels_[channel_start_[i] .. channel_start_[i + 1]).
  void check_paths() {
    channel_start_.assign(s_.transfers.size() + 1, 0);
    std::vector<int> last_seen(static_cast<std::size_t>(t_.channel_count()), -1);  // transfer
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      channel_start_[i] = static_cast<std::int64_t>(channels_.size());
      const auto& tr = s_.transfers[i];
      const auto& p = tr.path;
      if (p.size() < 2)
        add({.rule = 1,
             .step = tr.step,
             .transfer = i,
             .text = fmt::format("step {}, transfer {}: path has {} node{}; a path needs at "
                                 "least two",
                                 tr.step, i, p.size(), p.size() == 1 ? "" : "s")});
      bool nodes_ok = true;
      for (std::size_t j = 0; j < p.size(); ++j) {
        if (!valid_node(p[j])) {
          nodes_ok = false;
          add({.rule = 1,
               .step = tr.step,
               .transfer = i,
               .node = p[j],
               .text = fmt::format("step {}, transfer {}: path[{}] = {} is not a node (nodes are "
                                   "0..{})",
                                   tr.step, i, j, p[j], t_.node_count() - 1)});
        }
      }
      for (std::size_t j = 0; j + 1 < p.size(); ++j) {
        if (!valid_node(p[j]) || !valid_node(p[j + 1])) continue;
        const auto c = channel_between(p[j], p[j + 1]);
        if (!c) {
          add({.rule = 1,
               .step = tr.step,
               .transfer = i,
               .node = p[j],
               .text = fmt::format("step {}, transfer {}: path[{}..{}] = {}->{} is not a channel",
                                   tr.step, i, j, j + 1, p[j], p[j + 1])});
          continue;
        }
        if (last_seen[*c] == i) {
          add({.rule = 1,
               .step = tr.step,
               .transfer = i,
               .channel = *c,
               .node = p[j],
               .text = fmt::format("step {}, transfer {}: channel {} ({}->{}) repeats within the "
                                   "path",
                                   tr.step, i, *c, p[j], p[j + 1])});
          continue;
        }
        last_seen[*c] = i;
        channels_.push_back(*c);
      }
      if (!p.empty() && nodes_ok) {
        if (!t_.is_processor(p.front()))
          add({.rule = 1,
               .step = tr.step,
               .transfer = i,
               .node = p.front(),
               .text = fmt::format("step {}, transfer {}: first node {} is a switch, not a "
                                   "processor",
                                   tr.step, i, p.front())});
        if (!t_.is_processor(p.back()))
          add({.rule = 1,
               .step = tr.step,
               .transfer = i,
               .node = p.back(),
               .text = fmt::format("step {}, transfer {}: last node {} is a switch, not a "
                                   "processor",
                                   tr.step, i, p.back())});
      }
    }
    channel_start_[s_.transfers.size()] = static_cast<std::int64_t>(channels_.size());
  }

  // Rule 2.
  void check_steps() {
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const Step st = s_.transfers[i].step;
      if (st < 1 || st > s_.steps)
        add({.rule = 2,
             .step = st,
             .transfer = i,
             .text = fmt::format("transfer {}: step {} is outside 1..{}", i, st, s_.steps)});
    }
  }

  // Rule 3: the first transfer (by index) to take a channel in a step owns it; every later
  // one in the same step is a violation naming both. Steps are taken one at a time, with
  // the owner of each channel stamped by the step's rank; the violations are then put
  // back in transfer order (and path order within a transfer).
  void check_channels() {
    order_by_step();
    std::vector<int> owner(static_cast<std::size_t>(t_.channel_count()), -1);
    std::vector<int> stamp(static_cast<std::size_t>(t_.channel_count()), -1);
    struct Found {
      std::int64_t hop;  // position in channels_: transfer order, then path order
      int transfer, owner;
    };
    std::vector<Found> found;
    for (std::size_t k = 0; k + 1 < step_start_.size(); ++k) {
      for (int at = step_start_[k]; at < step_start_[k + 1]; ++at) {
        const int i = by_step_[static_cast<std::size_t>(at)];
        for (std::int64_t h = channel_start_[i]; h < channel_start_[i + 1]; ++h) {
          const ChannelId c = channels_[static_cast<std::size_t>(h)];
          if (stamp[c] != static_cast<int>(k)) {
            stamp[c] = static_cast<int>(k);
            owner[c] = i;
            continue;
          }
          found.push_back({h, i, owner[c]});
        }
      }
    }
    std::sort(found.begin(), found.end(),
              [](const Found& x, const Found& y) { return x.hop < y.hop; });
    for (const Found& f : found) {
      if (full()) {  // counted without the text
        ++total_;
        continue;
      }
      const Step st = s_.transfers[f.transfer].step;
      const ChannelId c = channels_[static_cast<std::size_t>(f.hop)];
      const auto& ch = t_.channel(c);
      add({.rule = 3,
           .step = st,
           .transfer = f.transfer,
           .channel = c,
           .node = ch.from,
           .text = fmt::format("step {}, transfers {} and {} both use channel {} ({}->{})", st,
                               f.owner, f.transfer, c, ch.from, ch.to)});
    }
  }

  // Rule 4. "all" ports means no limit. Per step, the processors that start (end) more
  // than k transfers, in step then node order, senders first.
  void check_ports() {
    if (!s_.model.ports) return;
    const int k = *s_.model.ports;
    order_by_step();
    std::vector<Violation> first_role, last_role;
    std::vector<int> count(static_cast<std::size_t>(t_.node_count()), 0);
    std::vector<int> stamp(static_cast<std::size_t>(t_.node_count()), -1);
    std::vector<int> slot(static_cast<std::size_t>(t_.node_count()), 0);
    std::vector<NodeId> over;
    const auto scan = [&](std::size_t rank, bool front, std::string_view role,
                          std::vector<Violation>& out) {
      const int begin = step_start_[rank], end = step_start_[rank + 1];
      over.clear();
      const auto end_of = [&](int i) {
        const auto& path = s_.transfers[i].path;
        return front ? path.front() : path.back();
      };
      for (int at = begin; at < end; ++at) {
        const int i = by_step_[static_cast<std::size_t>(at)];
        if (s_.transfers[i].path.empty()) continue;
        const NodeId v = end_of(i);
        if (!valid_processor(v)) continue;
        const int mark = 2 * static_cast<int>(rank) + (front ? 0 : 1);  // per step and role
        if (stamp[v] != mark) {
          stamp[v] = mark;
          count[v] = 0;
        }
        if (++count[v] == k + 1) over.push_back(v);
      }
      if (over.empty()) return;
      std::sort(over.begin(), over.end());
      // Each over-subscribed processor's transfers, in one pass over the step (a processor
      // is over when its count passed k; slot[v] is its place in `over`).
      std::vector<std::vector<int>> lists(over.size());
      for (std::size_t j = 0; j < over.size(); ++j) slot[over[j]] = static_cast<int>(j);
      for (int at = begin; at < end; ++at) {
        const int i = by_step_[static_cast<std::size_t>(at)];
        if (s_.transfers[i].path.empty()) continue;
        const NodeId v = end_of(i);
        if (valid_processor(v) && count[v] > k)
          lists[static_cast<std::size_t>(slot[v])].push_back(i);
      }
      for (std::size_t j = 0; j < over.size(); ++j) {
        const NodeId v = over[j];
        const std::vector<int>& list = lists[j];
        const Step st = s_.transfers[list.front()].step;
        out.push_back({.rule = 4,
                       .step = st,
                       .transfer = list[k],
                       .node = v,
                       .text = fmt::format("step {}, processor {} is the {} node of {} transfers "
                                           "(limit {}): transfers {}",
                                           st, v, role, list.size(), k, fmt::join(list, ", "))});
      }
    };
    for (std::size_t rank = 0; rank + 1 < step_start_.size(); ++rank) {
      scan(rank, true, "first", first_role);
      scan(rank, false, "last", last_role);
    }
    for (auto& v : first_role) add(std::move(v));
    for (auto& v : last_role) add(std::move(v));
  }

  // Rule 5. delivered(m, u) = the earliest step in which a transfer carrying m ends at u,
  // from a table grouped by message (a counting sort of the deliveries), each message's
  // nodes sorted, so a lookup is a binary search in that message's few entries.
  void index_deliveries() {
    const std::size_t messages = s_.collective.messages.size();
    delivery_start_.assign(messages + 1, 0);
    const auto each_delivery = [&](const auto& visit) {
      for (const auto& tr : s_.transfers) {
        if (tr.path.empty() || !valid_node(tr.path.back())) continue;
        for (const int m : carried(tr)) visit(m, tr.path.back(), tr.step);
      }
    };
    each_delivery([&](int m, NodeId, Step) { ++delivery_start_[m + 1]; });
    for (std::size_t m = 0; m < messages; ++m) delivery_start_[m + 1] += delivery_start_[m];
    std::vector<std::int64_t> next(delivery_start_.begin(), delivery_start_.end() - 1);
    deliveries_.resize(static_cast<std::size_t>(delivery_start_[messages]));
    each_delivery([&](int m, NodeId u, Step st) {
      deliveries_[static_cast<std::size_t>(next[m]++)] = {u, st};
    });
    // Sorted by node, then step: the first entry for a node holds its earliest step.
    for (std::size_t m = 0; m < messages; ++m)
      std::sort(deliveries_.begin() + delivery_start_[m],
                deliveries_.begin() + delivery_start_[m + 1]);
  }

  // The earliest step in which message index m reaches u, if it does.
  std::optional<Step> delivered(int m, NodeId u) const {
    const auto first = deliveries_.begin() + delivery_start_[m];
    const auto last = deliveries_.begin() + delivery_start_[m + 1];
    const auto it =
        std::lower_bound(first, last, std::make_pair(u, std::numeric_limits<Step>::min()));
    if (it == last || it->first != u) return std::nullopt;
    return it->second;
  }

  void check_holding() {
    index_deliveries();
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const auto& tr = s_.transfers[i];
      if (tr.path.empty()) continue;
      const NodeId u = tr.path.front();
      for (const int m : carried(tr)) {
        const auto& msg = s_.collective.messages[m];
        if (u == msg.origin) continue;
        const auto when_held = delivered(m, u);
        if (when_held && *when_held < tr.step) continue;
        const std::string when = !when_held
                                     ? std::string("never receives it")
                                     : fmt::format("receives it first in step {}", *when_held);
        add({.rule = 5,
             .step = tr.step,
             .transfer = i,
             .node = u,
             .message = msg.id,
             .text = fmt::format("step {}, transfer {} sends message {} from {}, which does not "
                                 "hold it (origin {}; {} {})",
                                 tr.step, i, msg.id, u, msg.origin, u, when)});
      }
    }
  }

  // Rule 6.
  void check_delivery() {
    const auto& msgs = s_.collective.messages;
    for (int m = 0; m < static_cast<int>(msgs.size()); ++m) {
      if (message_index(msgs[m].id) != m) continue;  // a duplicate id: rule 10 reports it
      for (const NodeId target : msgs[m].targets) {
        if (delivered(m, target)) continue;
        add({.rule = 6,
             .node = target,
             .message = msgs[m].id,
             .text = fmt::format("message {} (origin {}) never reaches target {}", msgs[m].id,
                                 msgs[m].origin, target)});
      }
    }
  }

  // Rule 7 (plus: no empty transfer, no message listed twice).
  void check_combining() {
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const auto& tr = s_.transfers[i];
      if (!s_.model.combining && tr.messages.size() != 1) {
        add({.rule = 7,
             .step = tr.step,
             .transfer = i,
             .text = fmt::format("step {}, transfer {} carries {} messages; without combining a "
                                 "transfer carries exactly one",
                                 tr.step, i, tr.messages.size())});
        continue;
      }
      if (tr.messages.empty())
        add({.rule = 7,
             .step = tr.step,
             .transfer = i,
             .text = fmt::format("step {}, transfer {} carries no message", tr.step, i)});
      if (tr.messages.size() < 2) continue;  // the common case: nothing can repeat
      std::set<MessageId> seen;
      for (const MessageId id : tr.messages)
        if (!seen.insert(id).second)
          add({.rule = 7,
               .step = tr.step,
               .transfer = i,
               .message = id,
               .text = fmt::format("step {}, transfer {} lists message {} twice", tr.step, i, id)});
    }
  }

  // Rule 8.
  void check_switching() {
    if (s_.model.switching != Switching::store_and_forward) return;
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const auto& tr = s_.transfers[i];
      if (tr.path.size() == 2) continue;
      add({.rule = 8,
           .step = tr.step,
           .transfer = i,
           .text = fmt::format("step {}, transfer {}: path has {} nodes; store-and-forward "
                               "transfers are single hops",
                               tr.step, i, tr.path.size())});
    }
  }

  // Rule 9 needs the distance between the ends of every path. A single hop u -> v over a
  // channel (u != v) is at distance 1 without a search. On a generated family whose
  // closed form applies (FamilyMetric::of checks the network channel by channel; the
  // formulas are tested against breadth-first search on every family,
  // tests/routing/family_metric_test.cpp) a path ending at a processor reads its distance
  // in O(dimensions): one search per source is quadratic, 100-170 s on torus:256x256's
  // 65,536 sources. The other paths are grouped by their first node and each group gets
  // one BFS (the verifier's own) into one reused row: memory O(nodes + transfers), never a
  // table over all pairs, which on 65,536 processors would be 17 GB. Returns, for each
  // transfer in `checked` (indices in increasing order, filled here), the distance
  // between its ends.
  std::vector<int> end_distances(std::vector<int>& checked) {
    checked.clear();
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const auto& path = s_.transfers[i].path;
      if (path.size() < 2 || !valid_node(path.front()) || !valid_node(path.back()))
        continue;  // rule 1 has said why
      if (path.size() == 2 && path[0] != path[1] && channel_between(path[0], path[1]))
        continue;  // one hop at distance 1: minimal
      checked.push_back(i);
    }
    std::vector<int> distance(checked.size(), kUnreachable);
    const auto metric = checked.empty() ? std::nullopt : FamilyMetric::of(t_);
    std::vector<int> order;
    for (std::size_t k = 0; k < checked.size(); ++k) {
      const auto& path = s_.transfers[checked[k]].path;
      if (metric && metric->answers_for(path.back()))
        distance[k] = metric->distance(path.front(), path.back());
      else
        order.push_back(static_cast<int>(k));
    }
    const auto source = [&](int k) { return s_.transfers[checked[k]].path.front(); };
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return source(a) < source(b); });
    std::vector<int> dist(static_cast<std::size_t>(t_.node_count()), kUnreachable);
    std::vector<NodeId> queue;
    for (std::size_t k = 0, sources = 0; k < order.size(); ++sources) {
      if (sources % 64 == 0 && halted()) break;
      const NodeId from = source(order[k]);
      queue.assign(1, from);
      dist[from] = 0;
      for (std::size_t q = 0; q < queue.size(); ++q)
        for (const ChannelId c : t_.out_channels(queue[q])) {
          const NodeId v = t_.channel(c).to;
          if (dist[v] != kUnreachable) continue;
          dist[v] = dist[queue[q]] + 1;
          queue.push_back(v);
        }
      for (; k < order.size() && source(order[k]) == from; ++k)
        distance[order[k]] = dist[s_.transfers[checked[order[k]]].path.back()];
      for (const NodeId v : queue) dist[v] = kUnreachable;
    }
    return distance;
  }

  // Rule 9: a path is minimal when its hop count equals the distance between its ends;
  // under nonminimal routing it may be at most model.extra_hops longer.
  void check_routing() {
    std::vector<int> checked;
    const std::vector<int> distance = end_distances(checked);
    const bool nonminimal = s_.model.routing == Routing::nonminimal;
    const long long slack = s_.model.extra_hops;
    for (std::size_t k = 0; k < checked.size(); ++k) {
      const int i = checked[k];
      const auto& tr = s_.transfers[i];
      const long long hops = static_cast<long long>(tr.path.size()) - 1;
      const int d = distance[k];
      if (nonminimal) {
        // Unreachable ends mean some pair of the path is not a channel: rule 1 reports it.
        if (d == kUnreachable || hops <= d + slack) continue;
        add({.rule = 9,
             .step = tr.step,
             .transfer = i,
             .node = tr.path.front(),
             .text = fmt::format("step {}, transfer {}: path {}->{} has {} hops, {} more than "
                                 "the distance {}; nonminimal routing allows at most {} extra",
                                 tr.step, i, tr.path.front(), tr.path.back(), hops, hops - d, d,
                                 slack)});
        continue;
      }
      if (hops == d) continue;
      add({.rule = 9,
           .step = tr.step,
           .transfer = i,
           .node = tr.path.front(),
           .text = fmt::format(
               "step {}, transfer {}: path {}->{} has {} hop{} but the distance "
               "is {}",
               tr.step, i, tr.path.front(), tr.path.back(), hops, hops == 1 ? "" : "s",
               d == kUnreachable ? std::string("infinite (unreachable)") : std::to_string(d))});
    }
  }

  void check_bookkeeping() {
    check_step_count();
    check_message_ids();
    check_participants();
    check_messages_themselves();
    check_kind();
  }

  // Rule 10: `steps` equals the largest step used (0 when there are no transfers).
  void check_step_count() {
    Step largest = 0;
    for (const auto& tr : s_.transfers) largest = std::max(largest, tr.step);
    if (s_.steps != largest)
      add({.rule = 10,
           .text = fmt::format("steps is {} but the largest step used is {}", s_.steps, largest)});
  }

  // Rule 10: message ids are 0..M-1 in order, and every id a transfer names exists.
  void check_message_ids() {
    const auto& msgs = s_.collective.messages;
    for (int m = 0; m < static_cast<int>(msgs.size()); ++m)
      if (msgs[m].id != m)
        add({.rule = 10,
             .message = msgs[m].id,
             .text = fmt::format("messages[{}] has id {}; ids must be 0..{} in order", m,
                                 msgs[m].id, static_cast<int>(msgs.size()) - 1)});
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const auto& tr = s_.transfers[i];
      for (const MessageId id : tr.messages)
        if (message_index(id) < 0)
          add({.rule = 10,
               .step = tr.step,
               .transfer = i,
               .message = id,
               .text = fmt::format("step {}, transfer {} carries message {}, which does not "
                                   "exist",
                                   tr.step, i, id)});
    }
  }

  // Rule 10: senders and receivers are processors without repeats; the senders are
  // exactly the origins; every target is a receiver; every receiver is a target (or a
  // sender, see the file comment).
  // Rule 10: a list of processors without repeats; fills `set` with its valid members.
  void check_list(const std::vector<NodeId>& list, std::string_view what, std::set<NodeId>& set) {
    for (const NodeId n : list) {
      if (!valid_processor(n))
        add({.rule = 10,
             .node = n,
             .text = fmt::format("{} lists {}, which is not a processor", what, n)});
      else if (!set.insert(n).second)
        add({.rule = 10, .node = n, .text = fmt::format("{} lists {} twice", what, n)});
    }
  }

  void check_participants() {
    const auto& c = s_.collective;
    check_list(c.senders, "senders", senders_);
    check_list(c.receivers, "receivers", receivers_);
    // Flags by node (only valid nodes are looked up): an AAB on 4,096 processors lists
    // 16.8 million targets, too many for a tree set.
    std::vector<char> origins(static_cast<std::size_t>(t_.node_count()), 0), targets(origins);
    const auto mark = [&](std::vector<char>& flags, NodeId n) {
      if (valid_node(n)) flags[static_cast<std::size_t>(n)] = 1;
    };
    for (const auto& m : c.messages) {
      mark(origins, m.origin);
      for (const NodeId t : m.targets) mark(targets, t);
      if (!senders_.contains(m.origin) && valid_processor(m.origin))
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = fmt::format("message {} originates at {}, which is not a sender", m.id,
                                 m.origin)});
      for (const NodeId t : m.targets)
        if (!receivers_.contains(t) && valid_processor(t))
          add({.rule = 10,
               .node = t,
               .message = m.id,
               .text = fmt::format("message {} targets {}, which is not a receiver", m.id, t)});
    }
    for (const NodeId n : senders_)
      if (!origins[static_cast<std::size_t>(n)])
        add({.rule = 10, .node = n, .text = fmt::format("sender {} originates no message", n)});
    for (const NodeId n : receivers_)
      if (!targets[static_cast<std::size_t>(n)] && !senders_.contains(n))
        add({.rule = 10,
             .node = n,
             .text = fmt::format("receiver {} is the target of no message", n)});
  }

  // Rule 10 (beyond the wording): each message is well formed.
  void check_messages_themselves() {
    const bool scatter = is_scatter_kind(s_.collective.kind);
    // The message (index + 1) that last listed each node: repeats without a set per message.
    std::vector<std::size_t> listed_by(static_cast<std::size_t>(t_.node_count()), 0);
    std::size_t stamp = 0;
    for (const auto& m : s_.collective.messages) {
      ++stamp;
      if (!valid_processor(m.origin))
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = fmt::format("message {} originates at {}, which is not a processor", m.id,
                                 m.origin)});
      if (m.targets.empty())
        add({.rule = 10, .message = m.id, .text = fmt::format("message {} has no target", m.id)});
      if (scatter && m.targets.size() > 1)
        add({.rule = 10,
             .message = m.id,
             .text = fmt::format("message {} has {} targets; a {} message has one", m.id,
                                 m.targets.size(), kind_name(s_.collective.kind))});
      for (const NodeId t : m.targets) {
        if (!valid_processor(t))
          add({.rule = 10,
               .node = t,
               .message = m.id,
               .text = fmt::format("message {} targets {}, which is not a processor", m.id, t)});
        else if (t == m.origin)
          add({.rule = 10,
               .node = t,
               .message = m.id,
               .text = fmt::format("message {} targets its own origin {}", m.id, t)});
        else if (std::exchange(listed_by[static_cast<std::size_t>(t)], stamp) == stamp)
          add({.rule = 10,
               .node = t,
               .message = m.id,
               .text = fmt::format("message {} lists target {} twice", m.id, t)});
      }
    }
  }

  // Rule 10 (beyond the wording): the message set is what the collective kind means,
  // worked out here from the kind's definition (FORMATS.md `collective.kind`), not by the
  // problem module's expansion.
  void check_kind() {
    const auto kind = s_.collective.kind;
    const std::string_view name = kind_name(kind);
    const std::vector<NodeId> all(t_.processors().begin(), t_.processors().end());
    const std::set<NodeId> all_set(all.begin(), all.end());
    const auto require_all = [&](const std::set<NodeId>& set, std::string_view what) {
      if (set == all_set) return true;
      add({.rule = 10,
           .text = fmt::format("{} {} must be every processor ({} of {} listed)", name, what,
                               set.size(), all_set.size())});
      return false;
    };
    const auto require_one = [&](const std::set<NodeId>& set, std::string_view what) {
      if (set.size() == 1) return true;
      add({.rule = 10,
           .text =
               fmt::format("{} has exactly one {} (the root); {} listed", name, what, set.size())});
      return false;
    };

    if (is_scatter_kind(kind) && kind != CollectiveKind::PERM) {
      // Expected: every (origin, target) in from x to with origin != target.
      if (kind == CollectiveKind::AAS) {
        if (!require_all(senders_, "senders") || !require_all(receivers_, "receivers")) return;
        check_pairs(all_set, all_set);
      } else if (kind == CollectiveKind::OAS) {
        if (!require_one(senders_, "sender")) return;
        check_pairs(senders_, all_set);
      } else if (kind == CollectiveKind::AOG) {
        if (!require_one(receivers_, "receiver")) return;
        check_pairs(all_set, receivers_);
      } else {  // MNS
        check_pairs(senders_, receivers_);
      }
    } else if (kind == CollectiveKind::PERM) {
      check_permutation();
    } else if (is_broadcast_kind(kind)) {
      // One tree from each origin u of `from` to `to` without u (when that is not empty).
      if (kind == CollectiveKind::AAB) {
        if (!require_all(senders_, "senders")) return;
        if (s_.collective.blocks < 1) {
          add({.rule = 10,
               .text = fmt::format("collective.blocks is {}; an AAB has at least one block",
                                   s_.collective.blocks)});
          return;
        }
        check_broadcasts(all_set, all_set, s_.collective.blocks);
      } else if (kind == CollectiveKind::OAB) {
        if (!require_one(senders_, "sender")) return;
        check_broadcasts(senders_, all_set);
      } else {  // MNB
        check_broadcasts(senders_, receivers_);
      }
    }
  }

  // Scatter kinds: each (origin, target) of from x to with origin != target is the pair of
  // exactly one single-target message, and no other message exists. Pairs are looked up by
  // membership, not enumerated, unless some are missing: an AAS on P processors has P(P-1).
  void check_pairs(const std::set<NodeId>& from, const std::set<NodeId>& to) {
    const std::string_view name = kind_name(s_.collective.kind);
    std::unordered_map<std::uint64_t, MessageId> found;
    for (const auto& m : s_.collective.messages) {
      if (m.targets.size() != 1) continue;  // reported above
      const NodeId target = m.targets.front();
      if (!from.contains(m.origin) || !to.contains(target) || m.origin == target) {
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = fmt::format("message {} ({}->{}) is not part of this {}", m.id, m.origin,
                                 target, name)});
        continue;
      }
      const auto [it, fresh] = found.emplace(pair_key(m.origin, target), m.id);
      if (!fresh)
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = fmt::format("message {} repeats message {} ({}->{})", m.id, it->second,
                                 m.origin, target)});
    }
    const long long overlap =
        std::count_if(from.begin(), from.end(), [&](NodeId u) { return to.contains(u); });
    const long long expected =
        static_cast<long long>(from.size()) * static_cast<long long>(to.size()) - overlap;
    if (static_cast<long long>(found.size()) == expected) return;
    for (const NodeId u : from)
      for (const NodeId v : to)
        if (u != v && !found.contains(pair_key(u, v)))
          add({.rule = 10,
               .node = u,
               .text = fmt::format("{} needs a message from {} to {}; there is none", name, u, v)});
  }

  // PERM: single-target messages whose origins are distinct and whose targets are distinct.
  void check_permutation() {
    std::map<NodeId, MessageId> by_origin, by_target;
    for (const auto& m : s_.collective.messages) {
      if (!by_origin.emplace(m.origin, m.id).second)
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = fmt::format("PERM: processor {} originates more than one message "
                                 "(messages {} and {})",
                                 m.origin, by_origin[m.origin], m.id)});
      if (m.targets.size() != 1) continue;
      if (!by_target.emplace(m.targets.front(), m.id).second)
        add({.rule = 10,
             .node = m.targets.front(),
             .message = m.id,
             .text = fmt::format("PERM: processor {} is the target of more than one message "
                                 "(messages {} and {})",
                                 m.targets.front(), by_target[m.targets.front()], m.id)});
    }
  }

  // Broadcast kinds: `per_origin` messages (an AAB's blocks, else one) from each origin u
  // of `from` whose `to` without u is not empty, each targeting exactly that set. The sets
  // are compared as sorted lists: an AAB on 4,096 processors expects 16.8 million targets,
  // too many for a tree set per origin.
  void check_broadcasts(const std::set<NodeId>& from, const std::set<NodeId>& to,
                        int per_origin = 1) {
    const std::string_view name = kind_name(s_.collective.kind);
    const std::vector<NodeId> all_to(to.begin(), to.end());
    const auto expected = [&](NodeId u) {
      return from.contains(u) && !(to.size() == 1 && to.contains(u)) && !to.empty();
    };
    std::map<NodeId, std::vector<MessageId>> found;
    std::vector<NodeId> got, want;
    for (const auto& m : s_.collective.messages) {
      if (!expected(m.origin)) {
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text =
                 fmt::format("message {} from {} is not part of this {}", m.id, m.origin, name)});
        continue;
      }
      auto& mine = found[m.origin];
      if (static_cast<int>(mine.size()) >= per_origin) {
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = per_origin == 1
                         ? fmt::format("{} has one message per source; {} originates messages "
                                       "{} and {}",
                                       name, m.origin, mine.front(), m.id)
                         : fmt::format("{} of {} blocks has {} messages per source; {} "
                                       "originates message {} besides [{}]",
                                       name, per_origin, per_origin, m.origin, m.id,
                                       join(mine))});
        continue;
      }
      mine.push_back(m.id);
      got.assign(m.targets.begin(), m.targets.end());
      std::sort(got.begin(), got.end());
      got.erase(std::unique(got.begin(), got.end()), got.end());
      want.clear();
      std::remove_copy(all_to.begin(), all_to.end(), std::back_inserter(want), m.origin);
      std::vector<NodeId> missing, extra;
      std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                          std::back_inserter(missing));
      std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                          std::back_inserter(extra));
      if (!missing.empty() || !extra.empty())
        add({.rule = 10,
             .node = m.origin,
             .message = m.id,
             .text = fmt::format("message {} from {} has the wrong targets for {}: missing [{}], "
                                 "extra [{}]",
                                 m.id, m.origin, name, join(missing), join(extra))});
    }
    for (const NodeId origin : from) {
      if (!expected(origin)) continue;
      const auto it = found.find(origin);
      const int have = it == found.end() ? 0 : static_cast<int>(it->second.size());
      if (have == per_origin) continue;
      add({.rule = 10,
           .node = origin,
           .text = per_origin == 1
                       ? fmt::format("{} needs a message from {}; there is none", name, origin)
                       : fmt::format("{} of {} blocks needs {} messages from {}; there {} {}",
                                     name, per_origin, per_origin, origin,
                                     have == 1 ? "is" : "are", have)});
    }
  }

  // --- reductions (FORMATS.md "Reductions") ---------------------------------------------

  // Rule 10 for a reduction (beyond the wording, see the file comment): the sets are
  // processors without repeats, there are no messages, REDUCE has one receiver, SCAN's
  // receivers are its senders in the same order. Also numbers the senders for R2/R3.
  void check_reduction_sets() {
    const auto& c = s_.collective;
    const std::string_view name = kind_name(c.kind);
    check_list(c.senders, "senders", senders_);
    check_list(c.receivers, "receivers", receivers_);
    if (!c.messages.empty())
      add({.rule = 10,
           .text = fmt::format("{} is a reduction and has no messages; messages lists {}", name,
                               c.messages.size())});
    if (c.senders.empty())
      add({.rule = 10, .text = fmt::format("{} needs at least one sender", name)});
    if (c.kind == CollectiveKind::REDUCE && c.receivers.size() != 1)
      add({.rule = 10,
           .text = fmt::format("REDUCE has exactly one receiver (the root); {} listed",
                               c.receivers.size())});
    if (c.kind == CollectiveKind::SCAN && c.receivers != c.senders)
      add({.rule = 10,
           .text = "SCAN's receivers must be its senders, in the same order (the prefix order)"});
    // Repeats and non-processors (reported above) get no index, so that the sets stay as
    // small as the processor count whatever the document lists.
    for (const NodeId v : c.senders)
      if (valid_processor(v) && sender_index_.try_emplace(v, sender_count_).second) {
        sender_nodes_.push_back(v);
        ++sender_count_;
      }
  }

  // R1: collective.blocks, and each transfer's block list. Fills blocks_[i] with the
  // distinct in-range blocks of transfer i. False when `blocks` itself is unusable.
  bool check_blocks() {
    const auto& c = s_.collective;
    const int nblocks = c.blocks;
    if (nblocks < 1) {
      add({.rule = kRuleBlocks,
           .text =
               fmt::format("collective.blocks is {}; an input has at least one block", nblocks)});
      return false;
    }
    if (c.kind == CollectiveKind::REDUCESCATTER &&
        static_cast<std::size_t>(nblocks) != c.receivers.size())
      add({.rule = kRuleBlocks,
           .text = fmt::format("REDUCESCATTER has one block per receiver: {} receivers, "
                               "collective.blocks is {}",
                               c.receivers.size(), nblocks)});
    blocks_.resize(s_.transfers.size());
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i) {
      const auto& tr = s_.transfers[i];
      const auto at = [&](std::string text, std::optional<int> block = std::nullopt) {
        add({.rule = kRuleBlocks,
             .step = tr.step,
             .transfer = i,
             .node = tr.path.empty() ? std::optional<NodeId>() : tr.path.front(),
             .block = block,
             .text = fmt::format("step {}, transfer {}: {}", tr.step, i, text)});
      };
      if (!tr.messages.empty())
        at(fmt::format("carries {} message{}; a reduction transfer carries blocks",
                       tr.messages.size(), tr.messages.size() == 1 ? "" : "s"));
      if (tr.blocks.empty()) at("carries no block");
      if (!s_.model.combining && tr.blocks.size() > 1)
        at(fmt::format("carries {} blocks; without combining a transfer carries exactly one",
                       tr.blocks.size()));
      for (const int b : tr.blocks) {
        if (b < 0 || b >= nblocks) {
          at(fmt::format("block {} is outside 0..{}", b, nblocks - 1), b);
        } else if (std::find(blocks_[i].begin(), blocks_[i].end(), b) != blocks_[i].end()) {
          at(fmt::format("lists block {} twice", b), b);
        } else {
          blocks_[i].push_back(b);
        }
      }
    }
    return true;
  }

  // The ends of a transfer that can take part in the replay: both processors (rule 1
  // reports anything else).
  bool replayable(const Transfer& tr) const {
    return tr.path.size() >= 2 && valid_processor(tr.path.front()) &&
           valid_processor(tr.path.back());
  }

  // acc[v][b] before any transfer: {v} for a sender, else empty.
  SenderSet start_value(NodeId v) const {
    SenderSet start(sender_count_);
    if (const auto it = sender_index_.find(v); it != sender_index_.end()) start.insert(it->second);
    return start;
  }

  // acc[v][b] now: as last written, or as it started.
  SenderSet current(NodeId v, int b) const {
    if (const auto it = acc_.find(pair_key(v, b)); it != acc_.end()) return it->second;
    return start_value(v);
  }

  // "{0,3,5}": the senders of a set, as node ids.
  std::string nodes_of(const SenderSet& set) const {
    std::vector<NodeId> ids;
    for (const int i : set.members()) ids.push_back(sender_nodes_[i]);
    return fmt::format("{{{}}}", fmt::join(ids, ","));
  }

  // R2: replays the transfers step by step. Every value is taken from the accumulators as
  // they stood at the start of the step, and every receive takes effect at its end.
  void replay_reduction() {
    std::map<Step, std::vector<int>> by_step;
    for (int i = 0; i < static_cast<int>(s_.transfers.size()); ++i)
      if (replayable(s_.transfers[i]) && !blocks_[i].empty())
        by_step[s_.transfers[i].step].push_back(i);
    for (const auto& [step, list] : by_step) replay_step(step, list);
  }

  void replay_step(Step step, const std::vector<int>& list) {
    // A copy keeps its value; the reduced values of an accumulator are kept once, as their
    // union (`reduced`): on hypercube:16 a step of 458,752 reduces held a value of 8 KB
    // each, 3.7 GB (docs/BENCHMARKS.md, "Beyond 1,024: ALLREDUCE at 65,536, second round").
    struct Receive {
      int transfer;
      SenderSet value;  // copies only
      ReductionRecv recv;
    };
    // All writers of each accumulator in this step, in transfer order.
    std::map<std::uint64_t, std::vector<int>> writers;
    for (const int i : list)
      for (const int b : blocks_[i]) writers[pair_key(s_.transfers[i].path.back(), b)].push_back(i);
    std::map<std::uint64_t, std::vector<Receive>> receives;
    std::map<std::uint64_t, SenderSet> reduced;  // values reduced into acc[v][b] so far
    for (const int i : list) {
      const auto& tr = s_.transfers[i];
      const NodeId u = tr.path.front(), v = tr.path.back();
      for (const int b : blocks_[i]) {
        const auto at = [&](std::string text) {
          add({.rule = kRuleExactlyOnce,
               .step = step,
               .transfer = i,
               .node = v,
               .block = b,
               .text = fmt::format("step {}, transfer {} ({}->{}), block {}: {}", step, i, u, v, b,
                                   text)});
        };
        SenderSet value(sender_count_);
        if (tr.send == ReductionSend::input) {
          const auto it = sender_index_.find(u);
          if (it == sender_index_.end()) {
            at(fmt::format("sends the input of {}, which is not a sender", u));
            continue;
          }
          value.insert(it->second);
        } else {
          value = current(u, b);
          if (value.empty()) {
            at(fmt::format("sends acc[{}][{}], which is empty at the start of the step", u, b));
            continue;
          }
        }
        const auto key = pair_key(v, b);
        const auto& all = writers[key];
        if (tr.recv == ReductionRecv::copy) {
          if (all.size() > 1) {
            std::vector<int> others;
            for (const int j : all)
              if (j != i) others.push_back(j);
            at(fmt::format("copies into acc[{}][{}], which transfer{} {} also write{} in this step",
                           v, b, others.size() == 1 ? "" : "s", fmt::join(others, ", "),
                           others.size() == 1 ? "s" : ""));
          }
        } else {
          const SenderSet held = current(v, b);
          if (value.intersects(held))
            at(fmt::format("reduces {} into acc[{}][{}] = {}: the input{} of {} would count twice",
                           nodes_of(value), v, b, nodes_of(held),
                           value.common(held).members().size() == 1 ? "" : "s",
                           nodes_of(value.common(held))));
          auto [so_far, fresh] = reduced.try_emplace(key, SenderSet(sender_count_));
          if (!fresh && value.intersects(so_far->second))
            at(
                fmt::format("reduces {} into acc[{}][{}], which other transfers of this step "
                            "also reduce {} into: the input{} of {} would count twice",
                            nodes_of(value), v, b, nodes_of(so_far->second),
                            value.common(so_far->second).members().size() == 1 ? "" : "s",
                            nodes_of(value.common(so_far->second))));
          so_far->second |= value;
        }
        receives[key].push_back(
            {i, tr.recv == ReductionRecv::copy ? std::move(value) : SenderSet(), tr.recv});
      }
    }
    // End of the step. After a violation the order is a choice: copies first (the last one
    // wins), then the reduced values, so that later steps are still checked sensibly.
    for (auto& [key, list_of] : receives) {
      const NodeId v = static_cast<NodeId>(key >> 32);
      const int b = static_cast<int>(static_cast<std::uint32_t>(key));
      SenderSet next = current(v, b);
      for (const auto& r : list_of)
        if (r.recv == ReductionRecv::copy) next = r.value;
      if (const auto it = reduced.find(key); it != reduced.end()) {
        next |= it->second;
        reduced.erase(it);
      }
      acc_.insert_or_assign(key, std::move(next));
      touched_[v].push_back(b);  // repeats are removed once, in check_results
    }
  }

  // R3: the accumulators the kind names (FORMATS.md "Reductions", table), read here from
  // the kind's definition: REDUCE and ALLREDUCE every receiver and block, all senders;
  // REDUCESCATTER receiver j, block j; SCAN sender j, every block, senders 0..j.
  void check_results() {
    const auto& c = s_.collective;
    const std::string_view name = kind_name(c.kind);
    SenderSet all(sender_count_);
    for (const auto& [node, index] : sender_index_) all.insert(index);
    const auto check = [&](NodeId v, int b, const SenderSet& want, std::string_view needs) {
      const SenderSet got = current(v, b);
      if (got == want) return;
      const SenderSet missing = want.minus(got), extra = got.minus(want);
      std::string what =
          fmt::format("at the end acc[{}][{}] = {}; {} needs {}", v, b, nodes_of(got), name, needs);
      if (!missing.empty()) what += fmt::format(", missing {}", nodes_of(missing));
      if (!extra.empty()) what += fmt::format(", extra {}", nodes_of(extra));
      add({.rule = kRuleResult, .node = v, .block = b, .text = what});
    };
    // Every block of node v: the touched ones one by one; the untouched ones still hold
    // the start value, so they are checked once and named one by one only up to a limit
    // (a document may claim billions of blocks).
    for (auto& [node, blocks] : touched_) {
      std::sort(blocks.begin(), blocks.end());
      blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    }
    const auto every_block = [&](NodeId v, const SenderSet& want, const std::string& needs) {
      const auto touched_it = touched_.find(v);
      const std::vector<int> none;
      const std::vector<int>& touched = touched_it == touched_.end() ? none : touched_it->second;
      for (const int b : touched) check(v, b, want, needs);
      const long long untouched =
          static_cast<long long>(c.blocks) - static_cast<long long>(touched.size());
      if (untouched <= 0 || start_value(v) == want) return;
      constexpr long long kNamed = 16;
      long long named = 0;
      int b = 0;
      for (; b < c.blocks && named < kNamed; ++b) {
        if (std::binary_search(touched.begin(), touched.end(), b)) continue;
        check(v, b, want, needs);
        ++named;
      }
      if (untouched > named)
        add({.rule = kRuleResult,
             .node = v,
             .text = fmt::format("and {} more blocks of {} are never written, each with the "
                                 "same shortfall",
                                 untouched - named, v)});
    };
    if (c.kind == CollectiveKind::REDUCE || c.kind == CollectiveKind::ALLREDUCE) {
      for (const NodeId v : c.receivers)
        if (valid_processor(v))
          every_block(v, all, fmt::format("the inputs of all {} senders", sender_index_.size()));
    } else if (c.kind == CollectiveKind::REDUCESCATTER) {
      const int n = std::min<int>(static_cast<int>(c.receivers.size()), c.blocks);
      for (int j = 0; j < n; ++j)
        if (valid_processor(c.receivers[j]))
          check(c.receivers[j], j, all,
                fmt::format("block {} summed over all {} senders (receiver {})", j,
                            sender_index_.size(), j));
    } else {  // SCAN
      SenderSet prefix(sender_count_);
      for (int j = 0; j < sender_count_; ++j) {
        const NodeId v = sender_nodes_[j];
        prefix.insert(j);
        every_block(v, prefix, fmt::format("the inputs of senders 0..{} (inclusive prefix)", j));
      }
    }
  }

  const Schedule& s_;
  const Topology& t_;
  std::size_t max_ = 0;    // violations kept (0: all)
  std::size_t total_ = 0;  // violations found
  std::function<bool()> stop_;  // stop_when
  bool stopped_ = false;
  std::vector<Violation> out_;
  std::unordered_map<MessageId, int> index_of_id_;
  bool ids_are_indices_ = false;  // messages[i].id == i throughout: no table needed
  std::vector<int> carried_;      // carried()'s buffer
  std::vector<std::pair<NodeId, ChannelId>> adjacency_;  // per node, by the node led to
  std::vector<int> adjacency_start_;                     // node u: [start[u], start[u + 1])
  std::vector<ChannelId> channels_;                      // every transfer's distinct valid channels
  std::vector<std::int64_t> channel_start_;              // transfer i: [start[i], start[i + 1])
  std::vector<int> by_step_;                             // transfer indices by step, then index
  std::vector<int> step_start_;  // the k-th step in use: [start[k], start[k + 1])
  std::vector<std::pair<NodeId, Step>> deliveries_;  // (node, step) per message, sorted
  std::vector<std::int64_t> delivery_start_;         // message m: [start[m], start[m + 1])
  std::set<NodeId> senders_, receivers_;             // valid processors only
  // Reductions.
  // The senders that are processors, each once, in the order of collective.senders (the
  // order of a SCAN); an accumulator is a set of indices into this list.
  std::vector<NodeId> sender_nodes_;
  std::unordered_map<NodeId, int> sender_index_;      // node -> index into sender_nodes_
  int sender_count_ = 0;                              // sender_nodes_.size()
  std::vector<std::vector<int>> blocks_;              // per transfer: distinct in-range blocks
  std::unordered_map<std::uint64_t, SenderSet> acc_;  // (node, block) -> acc, once written
  // node -> blocks written (in the order of writing, then sorted without repeats)
  std::unordered_map<NodeId, std::vector<int>> touched_;
};

}  // namespace

std::string_view rule_name(int rule) {
  return rule >= 1 && rule <= kRuleClaims ? kRuleNames[rule] : std::string_view("unknown");
}

std::string rule_label(int rule) {
  if (rule == kRuleClaims) return "claims";
  return rule >= kRuleBlocks && rule <= kRuleResult ? fmt::format("R{}", rule - kRuleBlocks + 1)
                                                    : std::to_string(rule);
}

std::vector<Violation> verify_schedule(const Schedule& s) { return Verifier(s, 0).run(); }

std::optional<std::vector<Violation>> verify_schedule(const Schedule& s,
                                                      std::function<bool()> stop) {
  Verifier v(s, 0);
  v.stop_when(std::move(stop));
  auto found = v.run();
  if (v.stopped()) return std::nullopt;
  return found;
}

std::vector<Violation> verify_claims(const Schedule& s) {
  std::vector<Violation> out;
  const auto claim = [&](std::string text) {
    out.push_back({.rule = kRuleClaims, .text = "claims: " + std::move(text)});
  };
  if (s.lower_bound && *s.lower_bound > s.steps)
    claim(fmt::format("lower_bound {} is above the schedule's own {}, which proves it wrong",
                      *s.lower_bound, plural(s.steps, "step")));
  if (s.optimal && s.lower_bound && s.steps > *s.lower_bound)
    claim(fmt::format("optimal, but its {} are above lower_bound {}", plural(s.steps, "step"),
                      *s.lower_bound));
  return out;
}

std::vector<Violation> verify_schedule(const Schedule& s, std::size_t max_violations,
                                       std::size_t& total) {
  Verifier v(s, max_violations);
  auto kept = v.run();
  total = v.total();
  return kept;
}

std::optional<std::vector<std::size_t>> redundant_transfers(const Schedule& s, double max_work) {
  const double n = static_cast<double>(s.transfers.size());
  const double graph = static_cast<double>(s.topology.processors().size()) *
                       static_cast<double>(s.topology.channel_count());
  if (n * (n + graph) > max_work) return std::nullopt;
  // A deletion that empties its step also drops the step, the later ones moving up.
  std::vector<std::size_t> in_step(static_cast<std::size_t>(std::max(s.steps, 0)) + 2, 0);
  for (const Transfer& t : s.transfers)
    if (t.step >= 1 && t.step <= s.steps) ++in_step[t.step];
  std::vector<std::size_t> found;
  Schedule trial = s;
  for (std::size_t i = 0; i < s.transfers.size(); ++i) {
    const Step step = s.transfers[i].step;
    const bool empties = step >= 1 && step <= s.steps && in_step[step] == 1;
    trial.transfers = s.transfers;
    trial.transfers.erase(trial.transfers.begin() + static_cast<std::ptrdiff_t>(i));
    trial.steps = s.steps;
    if (empties) {
      for (Transfer& t : trial.transfers)
        if (t.step > step) --t.step;
      --trial.steps;
    }
    std::size_t total = 0;
    verify_schedule(trial, 1, total);
    if (total == 0) found.push_back(i);
  }
  return found;
}

}  // namespace ccsched
