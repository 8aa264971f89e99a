// Seed 002 §3: M-to-N scatter splits into four groups by the overlap Q = T ∩ R of the
// sender set T and receiver set R:
//
//   T∖Q → Q (b1),  Q → R∖Q (b2),  T∖Q → R∖Q (min(b1, b2)),  Q → Q (b3, a bisection of Q),
//
// and bounds T1 = max over the first two (eq. (4)), T2 = max over the last two (eq. (5)).
// Each group term ⌈messages / b⌉ is valid when b is the fewest channels separating the
// group's senders from its receivers, which is what we compute (a max-flow min cut in the
// whole network; the seed's b's are read off its figure). The seed then adds them,
// T1 + T2 (eq. (6)); that sum is NOT a valid lower bound in general (docs/BOUNDS.md
// §"M-to-N" gives a counterexample), so we report T1 and T2 separately and hand the min
// cuts to the cut search, which counts every message crossing them.
#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>

#include "context.hpp"
#include "min_cut.hpp"

namespace ccsched::bounds_detail {
namespace {

struct GroupTerm {
  std::string label;
  long long messages = 0;
  long long channels = 0;
  long long value = 0;
  double ratio = 0;
};

long long messages_between(const BoundContext& ctx, const std::vector<char>& from,
                           const std::vector<char>& to) {
  long long count = 0;
  for (const auto& d : ctx.demands())
    if (from[d.origin])
      for (const NodeId target : d.targets) count += to[target] ? d.count : 0;
  return count;
}

std::vector<char> mask(int n, const std::vector<NodeId>& nodes) {
  std::vector<char> m(n, 0);
  for (const NodeId v : nodes) m[v] = 1;
  return m;
}

std::optional<GroupTerm> group(const BoundContext& ctx, const std::vector<NodeId>& from,
                               const std::vector<NodeId>& to, std::string label,
                               std::vector<std::vector<char>>& cuts) {
  if (from.empty() || to.empty()) return std::nullopt;
  const int n = ctx.nodes();
  const long long messages = messages_between(ctx, mask(n, from), mask(n, to));
  if (messages == 0) return std::nullopt;
  const MinCut cut = min_cut(ctx, from, to);
  if (cut.channels == 0) return std::nullopt;
  cuts.push_back(cut.side);
  GroupTerm g;
  g.label = std::move(label);
  g.messages = messages;
  g.channels = cut.channels;
  g.value = ceil_div(messages, cut.channels);
  g.ratio = static_cast<double>(messages) / static_cast<double>(cut.channels);
  return g;
}

// The Q → Q group: messages between the two halves of a split of Q, over the fewest
// channels separating the halves (the seed's "bisection width of sub-network" b3). Every
// split gives a valid term; we keep the best of all balanced splits (small Q) or of a
// deterministic sample.
std::optional<GroupTerm> overlap_group(const BoundContext& ctx, const std::vector<NodeId>& q,
                                       std::vector<std::vector<char>>& cuts) {
  const std::size_t size = q.size();
  if (size < 2) return std::nullopt;
  std::optional<GroupTerm> best;
  std::vector<char> best_side;
  const auto consider = [&](const std::vector<NodeId>& half) {
    std::vector<NodeId> rest;
    for (const NodeId v : q)
      if (std::find(half.begin(), half.end(), v) == half.end()) rest.push_back(v);
    for (int dir = 0; dir < 2; ++dir) {
      const auto& from = dir == 0 ? half : rest;
      const auto& to = dir == 0 ? rest : half;
      std::vector<std::vector<char>> scratch;
      auto g = group(ctx, from, to, "", scratch);
      if (g && (!best || g->ratio > best->ratio)) {
        best = g;
        best_side = scratch.front();
      }
    }
  };
  const std::size_t k = size / 2;
  if (size <= 12) {
    std::vector<char> pick(size, 0);
    std::fill(pick.begin(), pick.begin() + static_cast<long>(k), 1);
    do {
      std::vector<NodeId> half;
      for (std::size_t i = 0; i < size; ++i)
        if (pick[i]) half.push_back(q[i]);
      consider(half);
    } while (std::prev_permutation(pick.begin(), pick.end()));
  } else {
    // Contiguous windows of the id order (mesh rows, ring arcs) as a deterministic sample.
    for (std::size_t start = 0; start < size; ++start) {
      std::vector<NodeId> half;
      for (std::size_t i = 0; i < k; ++i) half.push_back(q[(start + i) % size]);
      consider(half);
    }
  }
  if (!best) return std::nullopt;
  cuts.push_back(best_side);
  return best;
}

std::string term_text(const GroupTerm& g) {
  return fmt::format("{}: ⌈{}/{}⌉ = {}", g.label, g.messages, g.channels, g.value);
}

}  // namespace

void add_mn_bounds(const BoundContext& ctx, std::vector<LowerBound>& out,
                   std::vector<std::vector<char>>& cuts) {
  const auto& c = ctx.problem().collective;
  if (c.kind != CollectiveKind::MNS || ctx.combining()) return;
  std::vector<NodeId> only_t, only_r, q;
  const std::set<NodeId> senders(c.senders.begin(), c.senders.end());
  const std::set<NodeId> receivers(c.receivers.begin(), c.receivers.end());
  for (const NodeId v : c.senders) (receivers.count(v) ? q : only_t).push_back(v);
  for (const NodeId v : c.receivers)
    if (!senders.count(v)) only_r.push_back(v);
  const std::string source = only_t.empty() && only_r.empty() ? "seed 002, eqs. (8), (10) (T = R)"
                             : only_r.empty()                 ? "seed 002, eq. (8) (R ⊂ T)"
                             : only_t.empty()                 ? "seed 002, eq. (10) (T ⊂ R)"
                                                              : "seed 002, eqs. (3)–(5)";

  std::vector<GroupTerm> t1, t2;
  if (auto g = group(ctx, only_t, q,
                     fmt::format("T∖R → T∩R ({}·{} messages, b1)", only_t.size(), q.size()), cuts))
    t1.push_back(*g);
  if (auto g = group(ctx, q, only_r,
                     fmt::format("T∩R → R∖T ({}·{} messages, b2)", q.size(), only_r.size()), cuts))
    t1.push_back(*g);
  if (auto g = group(ctx, only_t, only_r,
                     fmt::format("T∖R → R∖T ({}·{} messages)", only_t.size(), only_r.size()), cuts))
    t2.push_back(*g);
  if (auto g = overlap_group(ctx, q, cuts)) {
    g->label = fmt::format("between halves of T∩R ({} messages, b3)", g->messages);
    t2.push_back(*g);
  }
  // The correct merges of groups sharing a cut (seed 002 keeps them apart); only as cut
  // candidates: the cut search counts every message crossing them.
  std::vector<NodeId> all_r(c.receivers.begin(), c.receivers.end());
  std::vector<NodeId> all_t(c.senders.begin(), c.senders.end());
  group(ctx, only_t, all_r, "", cuts);
  group(ctx, all_t, only_r, "", cuts);

  const auto report = [&](const std::vector<GroupTerm>& terms, const char* name, const char* what) {
    if (terms.empty()) return;
    long long best = 0;
    std::string text;
    for (const auto& g : terms) {
      best = std::max(best, g.value);
      text += (text.empty() ? "" : "; ") + term_text(g);
    }
    out.push_back({name, static_cast<int>(best),
                   fmt::format("{}: fewest channels separating each group's senders from its "
                               "receivers: {}",
                               what, text),
                   source});
  };
  report(t1, "mns-t1", "seed 002 T1 (eq. (4) groups)");
  report(t2, "mns-t2", "seed 002 T2 (eq. (5) groups)");
}

}  // namespace ccsched::bounds_detail
