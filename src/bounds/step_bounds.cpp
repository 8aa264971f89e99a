// Bounds that count what one processor can do per step: the informed-set growth of a
// broadcast (seed 000 §3, seed 001 §3, seed 002 §2), the port bounds on injections and
// acceptances (same sources), the distance bound of store-and-forward, and the total
// number of single-hop transfers under store-and-forward (seed 000 §3, "Σ/(Pd)", as it
// was first meant). Proofs: docs/BOUNDS.md.
#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "context.hpp"

namespace ccsched::bounds_detail {
namespace {

std::string seed_source_for_ports(CollectiveKind kind, bool accept) {
  switch (kind) {
    case CollectiveKind::AAB:
      return accept ? "seed 000 §3 (AAB: ⌈(P−1)/d⌉); seed 001 §3; seed 002 Table 1"
                    : "ccsched (docs/BOUNDS.md §port)";
    case CollectiveKind::OAS:
      return accept ? "ccsched (docs/BOUNDS.md §port)"
                    : "seed 000 §3 (OAS: ⌈(P−1)/d⌉); seed 001 §3; seed 002 Table 1";
    case CollectiveKind::AAS:
      return "seed 002 Table 1 (P−1, 1-port); ccsched (docs/BOUNDS.md §port)";
    case CollectiveKind::AOG:
      return accept ? "seed 000 §3 (AOG mirrors OAS); ccsched (docs/BOUNDS.md §port)"
                    : "ccsched (docs/BOUNDS.md §port)";
    case CollectiveKind::MNB:
      return accept ? "seed 002, eqs. (2), (7), (9) (second term)"
                    : "ccsched (docs/BOUNDS.md §port)";
    case CollectiveKind::MNS:
      return "seed 002 §3 (\"limited also by the number of ports\")";
    default:
      return "ccsched (docs/BOUNDS.md §port)";
  }
}

// Largest number of processors that can hold one piece of information after each step,
// when it starts at `origin`: every holder v starts at most cap(v) transfers per step and
// each transfer informs one processor. The best case puts the information on the
// processors with the largest capacities first.
struct Growth {
  int steps = 0;
  std::vector<long long> sizes;  // sizes[s] = most holders after step s
  bool stuck = false;            // cannot grow at all (capacity 0)
};

Growth informed_growth(const BoundContext& ctx, NodeId origin, long long needed) {
  const auto& t = ctx.topology();
  std::vector<long long> others;
  for (const NodeId v : t.processors())
    if (v != origin) others.push_back(ctx.cap_out(v));
  std::sort(others.begin(), others.end(), std::greater<>());
  std::vector<long long> prefix(others.size() + 1, 0);
  for (std::size_t i = 0; i < others.size(); ++i) prefix[i + 1] = prefix[i] + others[i];
  const long long procs = t.processor_count();
  Growth g;
  g.sizes.push_back(1);
  while (g.sizes.back() < needed) {
    const long long f = g.sizes.back();
    const long long more =
        ctx.cap_out(origin) + prefix[std::min<std::size_t>(f - 1, others.size())];
    const long long next = std::min(procs, f + more);
    if (next == f) {
      g.stuck = true;
      break;
    }
    g.sizes.push_back(next);
  }
  g.steps = static_cast<int>(g.sizes.size()) - 1;
  return g;
}

std::string sizes_text(const std::vector<long long>& sizes) {
  std::string s;
  for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? " → " : "") + std::to_string(sizes[i]);
  return s;
}

// The informed-set bound for one origin's information that must reach `needed` holders.
void informed_bound(const BoundContext& ctx, std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  const auto& c = ctx.problem().collective;
  // Without combining every broadcast message spreads on its own; with combining one
  // transfer carries everything its sender holds, so an origin's information spreads as
  // one (scatter messages included: each target needs something from the origin).
  std::map<NodeId, std::set<NodeId>> reach;  // origin -> processors that must hold it
  for (const auto& d : ctx.demands()) {
    if (!ctx.combining() && !d.broadcast) continue;
    if (!ctx.combining()) {
      std::set<NodeId> need(d.targets.begin(), d.targets.end());
      need.insert(d.origin);
      auto& r = reach[d.origin];
      if (need.size() > r.size()) r = need;
    } else {
      auto& r = reach[d.origin];
      r.insert(d.origin);
      r.insert(d.targets.begin(), d.targets.end());
    }
  }
  int best = 0;
  NodeId best_origin = kNoNode;
  Growth best_growth;
  long long best_needed = 0;
  for (const auto& [origin, need] : reach) {
    const auto needed = static_cast<long long>(need.size());
    const Growth g = informed_growth(ctx, origin, needed);
    if (g.stuck) continue;  // unreachable targets are reported by the context
    if (g.steps > best) {
      best = g.steps;
      best_origin = origin;
      best_growth = g;
      best_needed = needed;
    }
  }
  if (best_origin == kNoNode) return;
  // Uniform capacities give the seeds' closed form ⌈log_{k+1} P⌉.
  std::set<int> caps;
  for (const NodeId v : t.processors()) caps.insert(ctx.cap_out(v));
  std::string form;
  if (caps.size() == 1) form = fmt::format(" = ⌈log_{} {}⌉", *caps.begin() + 1, best_needed);
  LowerBound b;
  b.name = "informed-set";
  b.value = best;
  b.argument = fmt::format(
      "{} from {} must reach {} processors; holders at most grow {} (each holder starts ≤ "
      "min(ports, out-channels) transfers per step, {}){}",
      ctx.combining() ? "information" : "a broadcast message", t.display_name(best_origin),
      best_needed, sizes_text(best_growth.sizes), ctx.ports_text(), form);
  switch (c.kind) {
    case CollectiveKind::OAB:
      b.source = "seed 000 §3 (⌈log_{d+1} P⌉); seed 001 §3 and seed 002 §2 (⌈log2 P⌉, 1-port)";
      break;
    case CollectiveKind::MNB:
      b.source = "seed 002, eqs. (2), (7), (9) (first term)";
      break;
    default:
      b.source = "seed 000 §3 (OAB bound, applied to each message); docs/BOUNDS.md §informed";
  }
  out.push_back(std::move(b));
}

// Combining: a processor's knowledge (origins whose information it holds) can grow by at
// most the knowledge of the k senders it accepts from per step.
void gather_bound(const BoundContext& ctx, std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  std::map<NodeId, std::set<NodeId>> sources;
  for (const auto& d : ctx.demands())
    for (const NodeId target : d.targets) sources[target].insert(d.origin);
  int max_in = 0;
  for (const NodeId v : t.processors()) max_in = std::max(max_in, ctx.cap_in(v));
  int best = 0;
  NodeId best_target = kNoNode;
  long long best_needed = 0;
  for (const auto& [target, from] : sources) {
    const long long needed = static_cast<long long>(from.size()) + 1;
    long long size = 1;
    int steps = 0;
    while (size < needed && steps < 64) {
      size = steps == 0 ? 1 + ctx.cap_in(target) : size * (1 + max_in);
      ++steps;
    }
    if (steps > best) {
      best = steps;
      best_target = target;
      best_needed = needed;
    }
  }
  if (best_target == kNoNode || best < 2) return;
  out.push_back(
      {"gather-growth", best,
       fmt::format("with combining, {} must collect information from {} origins; what it holds "
                   "grows at most ×(1 + {}) in the first step and ×(1 + {}) after",
                   t.display_name(best_target), best_needed - 1, ctx.cap_in(best_target), max_in),
       "ccsched (docs/BOUNDS.md §gather)"});
}

void port_bounds(const BoundContext& ctx, std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  const auto kind = ctx.problem().collective.kind;
  std::vector<long long> inject(ctx.nodes(), 0), accept(ctx.nodes(), 0);
  for (const auto& d : ctx.demands()) {
    inject[d.origin] += d.count;
    for (const NodeId target : d.targets) accept[target] += d.count;
  }
  const auto one = [&](const std::vector<long long>& load, bool is_accept) {
    long long best = 0, most = 0;
    NodeId at = kNoNode;
    for (const NodeId v : t.processors()) {
      most = std::max(most, load[v]);
      const int cap = is_accept ? ctx.cap_in(v) : ctx.cap_out(v);
      if (load[v] == 0 || cap == 0) continue;
      const long long value = ceil_div(load[v], cap);
      if (value > best) {
        best = value;
        at = v;
      }
    }
    if (most < 2 || at == kNoNode) return;
    const long long cap = is_accept ? ctx.cap_in(at) : ctx.cap_out(at);
    out.push_back(
        {is_accept ? "port-accept" : "port-inject", static_cast<int>(best),
         fmt::format("processor {} {} {} messages, at most {} per step ({}, {} {}-channels): "
                     "⌈{}/{}⌉ = {}",
                     t.display_name(at), is_accept ? "accepts" : "injects", load[at], cap,
                     ctx.ports_text(),
                     is_accept ? t.in_channels(at).size() : t.out_channels(at).size(),
                     is_accept ? "in" : "out", load[at], cap, best),
         seed_source_for_ports(kind, is_accept)});
  };
  one(inject, false);
  one(accept, true);
}

// Store-and-forward moves a message one hop per step.
void sf_distance_bound(const BoundContext& ctx, std::vector<LowerBound>& out) {
  const auto& t = ctx.topology();
  int best = 0;
  NodeId from = kNoNode, to = kNoNode;
  for (const auto& d : ctx.demands()) {
    for (const NodeId target : d.targets)
      if (const int dist = ctx.walk_dist(d.origin, target); dist != kInf && dist > best) {
        best = dist;
        from = d.origin;
        to = target;
      }
  }
  if (from == kNoNode) return;
  out.push_back({"sf-distance", best,
                 fmt::format("store-and-forward moves a message one hop per step; {} is {} hops "
                             "from {}",
                             t.display_name(to), best, t.display_name(from)),
                 "ccsched (docs/BOUNDS.md §sf-distance); cf. seed 003 (SF broadcast)"});
}

// Store-and-forward without combining: every hop is a transfer, and a step has at most
// Σ_v min(k, out-channels of v) transfers (seed 000 §3: "Σ/(Pd) ... used to be applied to
// SF routing only").
void sf_transfer_bound(const BoundContext& ctx, std::vector<LowerBound>& out) {
  long long hops = 0, per_step = 0;
  for (const auto& d : ctx.demands()) {
    if (d.broadcast) {
      hops += d.count * static_cast<long long>(d.targets.size());
    } else {
      hops += d.count * ctx.walk_dist(d.origin, d.targets.front());
    }
  }
  for (const NodeId v : ctx.topology().processors()) per_step += ctx.cap_out(v);
  if (per_step == 0 || hops == 0) return;
  out.push_back({"sf-transfers", static_cast<int>(ceil_div(hops, per_step)),
                 fmt::format("store-and-forward: {} single-hop transfers needed (Σ of distances; "
                             "a broadcast needs one per target), at most {} per step (Σ of "
                             "min(ports, out-channels)): ⌈{}/{}⌉",
                             hops, per_step, hops, per_step),
                 "seed 000 §3 (Σ/(Pd), store-and-forward)"});
}

}  // namespace

void add_step_bounds(const BoundContext& ctx, std::vector<LowerBound>& out) {
  if (ctx.demands().empty()) return;
  out.push_back({"one-step", 1, "there is at least one message to deliver", "trivial"});
  informed_bound(ctx, out);
  if (ctx.combining()) {
    gather_bound(ctx, out);
  } else {
    port_bounds(ctx, out);
  }
  if (ctx.store_and_forward()) {
    sf_distance_bound(ctx, out);
    if (!ctx.combining()) sf_transfer_bound(ctx, out);
  }
}

}  // namespace ccsched::bounds_detail
