// Channel-counting bounds: the total load (every message needs at least its shortest route
// length in channel-steps, and a step offers one use of each channel: seed 000, eq. (6),
// Σ/(Pd)), and the link load of seed 002, eq. (11): a channel that every allowed route of
// m messages must use needs m steps. Proofs: docs/BOUNDS.md.
#include <fmt/core.h>

#include <algorithm>
#include <deque>

#include "ccsched/routing/congestion.hpp"
#include "context.hpp"

namespace ccsched::bounds_detail {
namespace {

void channel_load_bound(const BoundContext& ctx, std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  long long total = 0;
  bool any_broadcast = false;
  for (const auto& d : ctx.demands()) {
    total += d.count * ctx.min_length(d);
    any_broadcast = any_broadcast || d.broadcast;
  }
  long long channels = 0;
  for (ChannelId c = 0; c < t.channel_count(); ++c) channels += ctx.transfer_channel(c) ? 1 : 0;
  if (channels == 0 || total == 0) return;
  const auto kind = ctx.problem().collective.kind;
  const bool aas = kind == CollectiveKind::AAS;
  LowerBound b;
  b.name = "channel-load";
  b.value = static_cast<int>(ceil_div(total, channels));
  b.argument = fmt::format(
      "{} {} channel-steps needed ({}), {} channels, each used once per step: ⌈{}/{}⌉ = {}{}",
      aas ? "Σ =" : "", total,
      any_broadcast ? "each broadcast delivery is a transfer at least as long as the nearest "
                      "processor's distance"
                    : "sum of shortest allowed route lengths",
      channels, total, channels, b.value, ctx.direct_note());
  if (b.argument.front() == ' ') b.argument.erase(0, 1);
  b.source = aas ? "seed 000, eq. (6) (⌈Σ/(Pd)⌉; Pd = channel count)"
                 : "ccsched (generalises seed 000, eq. (6); docs/BOUNDS.md §channel-load)";
  out.push_back(std::move(b));
}

// Channels on every shortest transfer from `origin` to `target` (the layers of the
// shortest-path DAG that hold a single channel).
std::vector<ChannelId> dag_bottlenecks(const BoundContext& ctx, NodeId origin, NodeId target,
                                       std::vector<int>& layer_count,
                                       std::vector<ChannelId>& layer_channel,
                                       std::vector<char>& seen) {
  const auto& t = ctx.topology();
  const auto& dist = ctx.transfer_dist_to(target);
  const int length = dist[origin];
  std::vector<ChannelId> out;
  if (length == kInf || length == 0) return out;
  layer_count.assign(length, 0);
  layer_channel.assign(length, kNoChannel);
  std::vector<NodeId> frontier{origin}, touched{origin};
  seen[origin] = 1;
  for (std::size_t head = 0; head < frontier.size(); ++head) {
    const NodeId x = frontier[head];
    for (const ChannelId c : t.out_channels(x)) {
      if (!ctx.transfer_channel(c)) continue;
      const NodeId y = t.channel(c).to;
      if (dist[y] != dist[x] - 1 || (y != target && !ctx.transfer_interior(y))) continue;
      const int layer = length - dist[x];
      ++layer_count[layer];
      layer_channel[layer] = c;
      if (!seen[y]) {
        seen[y] = 1;
        touched.push_back(y);
        if (y != target) frontier.push_back(y);
      }
    }
  }
  for (const NodeId v : touched) seen[v] = 0;
  for (int layer = 0; layer < length; ++layer)
    if (layer_count[layer] == 1) out.push_back(layer_channel[layer]);
  return out;
}

// Channels of one shortest route from `origin` to `target` (transfer graph with its
// terminals rule, or walk graph). Every channel that all routes use lies on it.
std::vector<ChannelId> one_shortest_route(const BoundContext& ctx, NodeId origin, NodeId target,
                                          bool transfer) {
  const auto& t = ctx.topology();
  std::vector<ChannelId> via(ctx.nodes(), kNoChannel);
  std::vector<char> seen(ctx.nodes(), 0);
  seen[origin] = 1;
  std::vector<NodeId> queue{origin};
  for (std::size_t head = 0; head < queue.size() && !seen[target]; ++head) {
    const NodeId x = queue[head];
    if (transfer && x != origin && !ctx.transfer_interior(x)) continue;
    for (const ChannelId c : t.out_channels(x)) {
      if (!ctx.walk_channel(c)) continue;
      const NodeId y = t.channel(c).to;
      if (!seen[y]) {
        seen[y] = 1;
        via[y] = c;
        queue.push_back(y);
      }
    }
  }
  std::vector<ChannelId> route;
  if (!seen[target]) return route;
  for (NodeId v = target; v != origin; v = t.channel(via[v]).from) route.push_back(via[v]);
  return route;
}

// Can `origin` still reach every target (within `budget` hops, or at all when budget is
// kInf) without channel `removed`? `transfer` selects the transfer graph (terminals rule).
bool reaches_without(const BoundContext& ctx, NodeId origin, const std::vector<NodeId>& targets,
                     ChannelId removed, bool transfer, const std::vector<int>& budget) {
  const auto& t = ctx.topology();
  std::vector<int> dist(ctx.nodes(), kInf);
  dist[origin] = 0;
  std::vector<NodeId> queue{origin};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId x = queue[head];
    if (transfer && x != origin && !ctx.transfer_interior(x)) continue;
    for (const ChannelId c : t.out_channels(x)) {
      if (c == removed || !ctx.walk_channel(c)) continue;
      const NodeId y = t.channel(c).to;
      if (dist[y] == kInf) {
        dist[y] = dist[x] + 1;
        queue.push_back(y);
      }
    }
  }
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (dist[targets[i]] == kInf || dist[targets[i]] > budget[i]) return false;
  return true;
}

void link_load_bound(const BoundContext& ctx, const BoundOptions& options,
                     std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  // Cost guard: one DAG walk per (message, target), plus one BFS per candidate channel
  // when routes are not single shortest transfers.
  long long pairs = 0;
  for (const auto& d : ctx.demands()) pairs += static_cast<long long>(d.targets.size());
  const bool dag_only = ctx.scatter_on_shortest_paths();
  if (pairs * std::max(1, t.channel_count()) > options.link_load_work) return;
  std::vector<long long> load(t.channel_count(), 0);
  std::vector<int> layer_count;
  std::vector<ChannelId> layer_channel;
  std::vector<char> seen(ctx.nodes(), 0);
  long long work = 0;
  for (const auto& d : ctx.demands()) {
    const bool transfer = !d.walk;
    std::vector<ChannelId> candidates;
    for (const NodeId target : d.targets) {
      const auto found = dag_only && !d.walk ? dag_bottlenecks(ctx, d.origin, target, layer_count,
                                                               layer_channel, seen)
                                             : one_shortest_route(ctx, d.origin, target, transfer);
      candidates.insert(candidates.end(), found.begin(), found.end());
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    if (!(dag_only && !d.walk)) {
      // A channel of one shortest route may be avoidable by another route, a longer one
      // (non-minimal routing) or a relayed one: keep only
      // channels without which some target is out of reach (or beyond the allowed length).
      std::vector<int> budget;
      for (const NodeId target : d.targets)
        budget.push_back(transfer ? ctx.transfer_dist_to(target)[d.origin] +
                                        ctx.problem().model.extra_hops
                                  : kInf);
      std::vector<ChannelId> kept;
      for (const ChannelId c : candidates) {
        work += t.channel_count();
        if (work > options.link_load_work || (options.stop && options.stop())) return;
        if (!reaches_without(ctx, d.origin, d.targets, c, transfer, budget)) kept.push_back(c);
      }
      candidates.swap(kept);
    }
    for (const ChannelId c : candidates) load[c] += d.count;
  }
  const auto it = std::max_element(load.begin(), load.end());
  if (it == load.end() || *it < 2) return;
  const auto& ch = t.channel(static_cast<ChannelId>(it - load.begin()));
  out.push_back(
      {"link-load", static_cast<int>(*it),
       fmt::format("channel {}->{} lies on every allowed route of {} messages, one per "
                   "step{}",
                   t.display_name(ch.from), t.display_name(ch.to), *it, ctx.direct_note()),
       "seed 002, eq. (11) (max link load)"});
}

// The LP dual of the channel-load bound (docs/BOUNDS.md §weighted-load): for channel
// weights w >= 0, a step offers Σ w of weighted channel use and a scatter message needs at
// least its least-weight route, so ⌈Σ count·dist_w / Σ w⌉ steps. Weights from
// multiplicative-weights rounds (routing/congestion.hpp). Scatter messages only, all
// travelling in the same graph; reported when it beats the unweighted channel-load.
void weighted_load_bound(const BoundContext& ctx, const BoundOptions& options,
                         std::vector<LowerBound>& out) {
  // Relays included only: a direct-delivery pass has its own link-load bound, and the
  // driver takes the larger of the two bounds anyway.
  if (ctx.direct_scatter()) return;
  const auto& t = ctx.topology();
  std::vector<CongestionDemand> demands;
  demands.reserve(ctx.demands().size());
  const bool walk = ctx.demands().front().walk;
  for (const auto& d : ctx.demands()) {
    if (d.broadcast || d.walk != walk || d.targets.size() != 1) return;
    demands.push_back({d.origin, d.targets.front(), d.count});
  }
  // One levelling round is a Dijkstra per origin, and a round is never cut short (its
  // certificate would not be exact): when the first round alone exceeds the work allowance
  // (a gather on torus:128x128: 16,383 origins x 65,536 channels, 30 s and 1 GB before any
  // design ran) the bound is left out.
  std::vector<char> origin(t.node_count(), 0);
  long double round_work = 0;
  for (const auto& d : demands)
    if (!origin[d.origin]) {
      origin[d.origin] = 1;
      round_work += t.channel_count();
    }
  if (round_work > static_cast<long double>(options.weighted_load_work)) return;
  std::vector<char> usable(t.channel_count());
  for (ChannelId c = 0; c < t.channel_count(); ++c)
    usable[c] = walk ? ctx.walk_channel(c) : ctx.transfer_channel(c);
  CongestionOptions opt;
  opt.work = options.weighted_load_work;
  opt.max_rounds = 500;
  opt.stop = options.stop;
  // In the transfer graph a route is one transfer: through routers (wormhole), or one
  // channel (store-and-forward). Any transfer path is allowed here, shortest or not, so the
  // bound also holds for non-minimal routing.
  const CongestionInput in{t, usable, walk || !ctx.store_and_forward(), demands};
  const auto r = level_congestion(in, opt);
  if (r.weight == 0) return;
  const long long value = ceil_div(r.length, r.weight);
  const auto unweighted = std::find_if(out.begin(), out.end(),
                                       [](const LowerBound& b) { return b.name == "channel-load"; });
  if (unweighted != out.end() && value <= unweighted->value) return;
  out.push_back(
      {"weighted-load", static_cast<int>(value),
       fmt::format("channel weights levelled over {} rounds of multiplicative weights: Σ over "
                   "messages of the least-weight {} = {}, Σ weights = {}, and a step uses "
                   "each channel once: ⌈{}/{}⌉ = {}{}",
                   r.rounds, walk ? "route, relays included" : "transfer", r.length, r.weight,
                   r.length, r.weight, value, ctx.direct_note()),
       "ccsched (LP dual of seed 000, eq. (6); docs/BOUNDS.md §weighted-load)"});
}

}  // namespace

void add_load_bounds(const BoundContext& ctx, const BoundOptions& options,
                     std::vector<LowerBound>& out) {
  if (ctx.demands().empty() || ctx.combining()) return;
  channel_load_bound(ctx, out);
  weighted_load_bound(ctx, options, out);
  link_load_bound(ctx, options, out);
}

}  // namespace ccsched::bounds_detail
