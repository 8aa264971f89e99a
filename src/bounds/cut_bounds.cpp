// The cut bound (docs/BOUNDS.md §cut): every cut of the nodes gives a valid bound, so we
// try many and keep the best. Candidates: every single node and its complement, the two
// sides of every link (nodes nearer one end than the other: subtrees in trees, dimension
// halves in hypercubes), balls around every node, cuts handed in by other bounds (the
// bisection of the invariants, seed 002's group min cuts), then a deterministic hill climb
// that flips one node at a time from the best few and from random balanced starts, within
// a work budget.
#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <set>

#include "context.hpp"
#include "cut_evaluator.hpp"

namespace ccsched::bounds_detail {
namespace {

// Small deterministic generator (splitmix64): the same seed gives the same search on every
// platform, unlike std distributions.
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

// Hop distances in the underlying undirected graph (a channel either way is an edge).
std::vector<int> undirected_distances(const Topology& t, NodeId source) {
  std::vector<int> dist(t.node_count(), kInf);
  dist[source] = 0;
  std::vector<NodeId> queue{source};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId x = queue[head];
    const auto visit = [&](NodeId y) {
      if (dist[y] == kInf) {
        dist[y] = dist[x] + 1;
        queue.push_back(y);
      }
    };
    for (const ChannelId c : t.out_channels(x)) visit(t.channel(c).to);
    for (const ChannelId c : t.in_channels(x)) visit(t.channel(c).from);
  }
  return dist;
}

bool proper(const std::vector<char>& side) {
  const auto in = std::count(side.begin(), side.end(), 1);
  return in > 0 && in < static_cast<long>(side.size());
}

// Calls `visit` with every built-in candidate cut and the handed-in ones, until it returns
// false; returns whether all were visited. Order: single nodes, handed-in cuts, the sides
// of every link, balls around every node.
template <typename Visit>
bool for_each_candidate(const BoundContext& ctx, const std::vector<std::vector<char>>& extra,
                        Visit&& visit) {
  const auto& t = ctx.topology();
  const int n = ctx.nodes();
  for (NodeId v = 0; v < n; ++v) {
    std::vector<char> side(n, 0);
    side[v] = 1;
    if (!visit(side)) return false;
  }
  for (const auto& side : extra)
    if (!visit(side)) return false;
  if (n > 4000) return true;  // all-pairs distances would be too large
  std::vector<std::vector<int>> dist(n);
  for (NodeId v = 0; v < n; ++v) dist[v] = undirected_distances(t, v);
  for (const auto& ch : t.channels()) {
    if (ch.from > ch.to && t.has_channel(ch.to, ch.from)) continue;
    std::vector<char> side(n, 0);
    for (NodeId x = 0; x < n; ++x) side[x] = dist[ch.from][x] < dist[ch.to][x];
    if (!visit(side)) return false;
  }
  for (NodeId v = 0; v < n; ++v) {
    int ecc = 0;
    for (const int d : dist[v])
      if (d != kInf) ecc = std::max(ecc, d);
    for (int r = 1; r < ecc; ++r) {
      std::vector<char> side(n, 0);
      for (NodeId x = 0; x < n; ++x) side[x] = dist[v][x] <= r;
      if (!visit(side)) return false;
    }
  }
  return true;
}

class CutSearch {
 public:
  CutSearch(const BoundContext& ctx, const BoundOptions& options)
      : ctx_(ctx), eval_(ctx), budget_(options.cut_search_work), stop_(options.stop),
        rng_(options.seed) {}

  // Evaluates a candidate (and its complement); false when the budget is spent.
  bool offer(std::vector<char> side) {
    // One evaluation past the whole allowance (a gather's walk from each of 65,535 origins
    // on hypercube:16, 6.9e10 channel visits) is not started, not even the first: the
    // cut bound is then left out, and the others stand.
    if (eval_.cost() > budget_) return false;
    if (!proper(side)) return true;
    for (int flip = 0; flip < 2; ++flip) {
      if (!seen_.insert(side).second) {
        for (auto& s : side) s = !s;
        continue;
      }
      if ((spent_ + eval_.cost() > budget_ || (stop_ && stop_())) && !best_side_.empty())
        return false;
      spent_ += eval_.cost();
      const auto v = eval_.evaluate(side);
      pool_.push_back({v, side});
      if (best_side_.empty() || v.value > best_.value ||
          (v.value == best_.value && v.ratio > best_.ratio)) {
        best_ = v;
        best_side_ = side;
      }
      for (auto& s : side) s = !s;
    }
    return true;
  }

  // Best-improvement hill climb over single-node flips.
  void climb(std::vector<char> side, CutValue value) {
    const int n = ctx_.nodes();
    while (true) {
      CutValue best_move = value;
      int best_node = -1;
      for (int v = 0; v < n; ++v) {
        side[v] = !side[v];
        if (proper(side)) {
          if (spent_ + eval_.cost() > budget_) {
            side[v] = !side[v];
            return;
          }
          spent_ += eval_.cost();
          const auto cand = eval_.evaluate(side);
          if (cand.ratio > best_move.ratio + 1e-12) {
            best_move = cand;
            best_node = v;
          }
        }
        side[v] = !side[v];
      }
      if (best_node < 0) return;
      side[best_node] = !side[best_node];
      value = best_move;
      if (value.value > best_.value || (value.value == best_.value && value.ratio > best_.ratio)) {
        best_ = value;
        best_side_ = side;
      }
    }
  }

  void search(int starts_from_pool, int random_starts) {
    std::vector<std::size_t> order(pool_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return pool_[a].first.ratio > pool_[b].first.ratio;
    });
    for (int i = 0; i < starts_from_pool && i < static_cast<int>(order.size()); ++i) {
      const auto entry = pool_[order[i]];
      climb(entry.second, entry.first);
      if (spent_ >= budget_) return;
    }
    const auto procs = ctx_.topology().processors();
    for (int r = 0; r < random_starts && spent_ < budget_; ++r) {
      std::vector<char> side(ctx_.nodes(), 0);
      std::vector<NodeId> shuffled(procs.begin(), procs.end());
      for (std::size_t i = shuffled.size(); i > 1; --i)
        std::swap(shuffled[i - 1], shuffled[rng_.below(i)]);
      for (std::size_t i = 0; i < shuffled.size() / 2; ++i) side[shuffled[i]] = 1;
      // Switches join the side most of their neighbours are on.
      const auto& t = ctx_.topology();
      for (NodeId v = 0; v < ctx_.nodes(); ++v) {
        if (t.is_processor(v)) continue;
        int in = 0;
        for (const ChannelId c : t.out_channels(v)) in += side[t.channel(c).to];
        for (const ChannelId c : t.in_channels(v)) in += side[t.channel(c).from];
        const auto all = t.out_channels(v).size() + t.in_channels(v).size();
        side[v] = 2 * static_cast<std::size_t>(in) > all;
      }
      if (!proper(side)) continue;
      spent_ += eval_.cost();
      climb(side, eval_.evaluate(side));
    }
  }

  const CutValue& best() const { return best_; }
  const std::vector<char>& best_side() const { return best_side_; }
  const CutEvaluator& evaluator() const { return eval_; }

 private:
  const BoundContext& ctx_;
  CutEvaluator eval_;
  long long budget_;
  std::function<bool()> stop_;
  long long spent_ = 0;
  SplitMix rng_;
  std::set<std::vector<char>> seen_;
  std::vector<std::pair<CutValue, std::vector<char>>> pool_;
  CutValue best_;
  std::vector<char> best_side_;
};

}  // namespace

void add_cut_bounds(const BoundContext& ctx, const BoundOptions& options,
                    const std::vector<std::vector<char>>& extra_cuts,
                    std::vector<LowerBound>& out) {
  if (ctx.demands().empty() || ctx.combining() || ctx.nodes() < 2) return;
  CutSearch search(ctx, options);
  const bool complete = for_each_candidate(
      ctx, extra_cuts, [&](const std::vector<char>& side) { return search.offer(side); });
  if (complete) search.search(options.cut_search_starts, options.cut_random_starts);
  if (search.best_side().empty() || search.best().value < 1) return;
  out.push_back({"cut", static_cast<int>(search.best().value),
                 search.evaluator().explain(search.best_side(), search.best()),
                 "ccsched (docs/BOUNDS.md §cut; generalises seed 000 §3 and seed 002 §3)"});
}

// The informed-set bound restricted to a region (docs/BOUNDS.md §informed-cut): holders
// inside S of a piece of information that starts outside S grow per step by at most what
// the holders inside start, plus one per channel entering S (transfers of one step use
// disjoint channels), plus nothing else.
void add_informed_cut_bounds(const BoundContext& ctx, const BoundOptions& options,
                             const std::vector<std::vector<char>>& extra_cuts,
                             std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  // What must spread: every broadcast message, or with combining an origin's information.
  std::vector<std::pair<NodeId, std::vector<NodeId>>> items;
  if (ctx.combining()) {
    std::vector<std::vector<char>> reach(ctx.nodes());
    for (const auto& d : ctx.demands()) {
      auto& r = reach[d.origin];
      if (r.empty()) r.assign(ctx.nodes(), 0);
      for (const NodeId target : d.targets) r[target] = 1;
    }
    for (NodeId o = 0; o < ctx.nodes(); ++o) {
      if (reach[o].empty()) continue;
      std::vector<NodeId> targets;
      for (NodeId v = 0; v < ctx.nodes(); ++v)
        if (reach[o][v]) targets.push_back(v);
      items.emplace_back(o, std::move(targets));
    }
  } else {
    for (const auto& d : ctx.demands())
      if (d.broadcast) items.emplace_back(d.origin, d.targets);
  }
  if (items.empty()) return;
  struct Best {
    int steps = 0;
    std::vector<char> side;
    NodeId origin = kNoNode;
    long long need = 0, entry = 0;
    std::vector<long long> sizes;
  } best;
  long long work = 0;
  const long long budget = options.cut_search_work;
  const auto region = [&](const std::vector<char>& side) {
    std::vector<long long> caps;
    long long accept = 0;
    for (const NodeId p : t.processors())
      if (side[p]) {
        caps.push_back(ctx.cap_out(p));
        accept += ctx.cap_in(p);
      }
    std::sort(caps.begin(), caps.end(), std::greater<>());
    std::vector<long long> prefix(caps.size() + 1, 0);
    for (std::size_t i = 0; i < caps.size(); ++i) prefix[i + 1] = prefix[i] + caps[i];
    long long entering = 0;
    for (ChannelId c = 0; c < t.channel_count(); ++c) {
      const auto& ch = t.channel(c);
      if (ctx.walk_channel(c) && !side[ch.from] && side[ch.to]) ++entering;
    }
    const long long entry = std::min(entering, accept);
    work += t.channel_count() + static_cast<long long>(items.size()) * 4;
    if (options.stop && options.stop()) return false;
    if (entry == 0) return work < budget;
    for (const auto& [origin, targets] : items) {
      if (side[origin]) continue;
      long long need = 0;
      for (const NodeId v : targets) need += side[v];
      work += static_cast<long long>(targets.size());
      if (need == 0) continue;
      std::vector<long long> sizes{0};
      while (sizes.back() < need) {
        const long long g = sizes.back();
        sizes.push_back(
            std::min<long long>(static_cast<long long>(caps.size()),
                                g + prefix[std::min<std::size_t>(g, caps.size())] + entry));
      }
      const int steps = static_cast<int>(sizes.size()) - 1;
      if (steps > best.steps) best = {steps, side, origin, need, entry, sizes};
    }
    return work < budget;
  };
  for_each_candidate(ctx, extra_cuts, [&](const std::vector<char>& side) {
    std::vector<char> other(side.size());
    for (std::size_t i = 0; i < side.size(); ++i) other[i] = !side[i];
    return region(side) && region(other);
  });
  if (best.origin == kNoNode || best.steps < 2) return;
  std::string growth;
  for (std::size_t i = 0; i < best.sizes.size(); ++i)
    growth += (i ? " → " : "") + std::to_string(best.sizes[i]);
  out.push_back({"informed-cut", best.steps,
                 fmt::format("{}: {} from {} must reach {} processors in S; at most {} transfers "
                             "enter S per step (channels into S, ports of S), so holders in S "
                             "grow at most {}",
                             describe_side(t, best.side),
                             ctx.combining() ? "information" : "a broadcast message",
                             t.display_name(best.origin), best.need, best.entry, growth),
                 "ccsched (docs/BOUNDS.md §informed-cut; refines seed 000 §3)"});
}

}  // namespace ccsched::bounds_detail
