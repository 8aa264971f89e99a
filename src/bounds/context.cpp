// BoundContext: port capacities, the delivery obligations of a collective, and cached
// distances in the transfer and walk graphs (see context.hpp).
#include "context.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "ccsched/core/error.hpp"

namespace ccsched::bounds_detail {

BoundContext::BoundContext(const Problem& problem, bool direct_scatter)
    : problem_(problem),
      n_(problem.topology.node_count()),
      sf_(problem.model.switching == Switching::store_and_forward),
      has_switches_(problem.topology.switch_count() > 0),
      direct_(direct_scatter),
      cap_out_(n_, 0),
      cap_in_(n_, 0),
      transfer_dist_(n_),
      walk_dist_(n_),
      walk_dist_to_(n_) {
  const auto& t = topology();
  const int k = problem.model.ports.value_or(kInf);
  for (const NodeId v : t.processors()) {
    int out = 0, in = 0;
    for (const ChannelId c : t.out_channels(v)) out += transfer_channel(c) ? 1 : 0;
    for (const ChannelId c : t.in_channels(v)) in += transfer_channel(c) ? 1 : 0;
    cap_out_[v] = std::min(k, out);
    cap_in_[v] = std::min(k, in);
  }
  // A one-target message is a scatter message (it may still be part of a broadcast kind,
  // e.g. AAB on two processors); only a direct wormhole scatter message is one transfer.
  for (const auto& m : problem.collective.messages) {
    Demand d;
    d.origin = m.origin;
    d.targets = m.targets;
    d.broadcast = m.targets.size() > 1;
    d.walk = d.broadcast || sf_ || !direct_;
    demands_.push_back(std::move(d));
  }
  {
    std::vector<char> origin(n_, 0), target(n_, 0);
    long long origins = 0, targets = 0;
    for (const auto& d : demands_) {
      if (!d.walk) continue;
      if (!origin[d.origin]) origins += origin[d.origin] = 1;
      for (const NodeId x : d.targets)
        if (!target[x]) targets += target[x] = 1;
    }
    walk_by_target_ = targets < origins;
  }
  // Every target must be reachable, else no schedule exists and no bound makes sense.
  for (const auto& d : demands_) {
    for (const NodeId target : d.targets) {
      const bool reachable = d.walk ? walk_dist(d.origin, target) != kInf
                                    : transfer_dist_to(target)[d.origin] != kInf;
      if (!reachable)
        throw Unsupported(
            fmt::format("processor {} cannot reach processor {} under {} {}",
                        t.display_name(d.origin), t.display_name(target),
                        to_string(problem.model.switching), to_string(problem.model.routing)),
            "network");
    }
  }
}

std::string BoundContext::direct_note() const {
  return direct_ ? " [assumes direct delivery: one transfer per scatter message]" : "";
}

std::string BoundContext::ports_text() const {
  return problem_.model.ports ? fmt::format("k = {}", *problem_.model.ports) : "all-port";
}

bool BoundContext::transfer_channel(ChannelId c) const {
  if (!sf_) return true;
  const auto& ch = topology().channel(c);
  return topology().is_processor(ch.from) && topology().is_processor(ch.to);
}

// Hop counts from `start` (forwards along out-channels) or to it (backwards along
// in-channels) over the usable channels; with `interior_rule`, only `start` and the
// nodes a transfer may pass through are extended (the transfer graph).
std::vector<int> BoundContext::hop_counts(NodeId start, bool backwards, bool interior_rule) const {
  const auto& t = topology();
  std::vector<int> dist(n_, kInf);
  dist[start] = 0;
  std::vector<NodeId> queue{start};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId y = queue[head];
    if (interior_rule && y != start && !transfer_interior(y)) continue;
    for (const ChannelId c : backwards ? t.in_channels(y) : t.out_channels(y)) {
      if (!transfer_channel(c)) continue;
      const NodeId x = backwards ? t.channel(c).from : t.channel(c).to;
      if (dist[x] == kInf) {
        dist[x] = dist[y] + 1;
        queue.push_back(x);
      }
    }
  }
  return dist;
}

const std::vector<int>& BoundContext::transfer_dist_to(NodeId target) const {
  auto& dist = transfer_dist_[target];
  if (dist.empty()) dist = hop_counts(target, /*backwards=*/true, /*interior_rule=*/true);
  return dist;
}

const std::vector<int>& BoundContext::walk_dist_from(NodeId origin) const {
  auto& dist = walk_dist_[origin];
  if (dist.empty()) dist = hop_counts(origin, /*backwards=*/false, /*interior_rule=*/false);
  return dist;
}

int BoundContext::walk_dist(NodeId origin, NodeId target) const {
  if (!walk_by_target_) return walk_dist_from(origin)[target];
  auto& dist = walk_dist_to_[target];
  if (dist.empty()) dist = hop_counts(target, /*backwards=*/true, /*interior_rule=*/false);
  return dist[origin];
}

// A breadth-first search backwards from `target` that stops at the first other processor:
// it visits only the nodes nearer than that one, so a broadcast's targets cost O(p) in all
// and no table per target is kept (docs/ENGINES.md, "Beyond 1,024").
int BoundContext::nearest_sender_dist(NodeId target) const {
  if (nearest_.empty()) nearest_.assign(n_, -1);
  if (nearest_[target] >= 0) return nearest_[target];
  const auto& t = topology();
  if (seen_.empty()) seen_.assign(n_, kInf);
  std::vector<NodeId> queue{target};
  seen_[target] = 0;
  int best = kInf;
  for (std::size_t head = 0; head < queue.size() && best == kInf; ++head) {
    const NodeId y = queue[head];
    if (y != target && !transfer_interior(y)) continue;
    for (const ChannelId c : t.in_channels(y)) {
      if (!transfer_channel(c)) continue;
      const NodeId x = t.channel(c).from;
      if (seen_[x] != kInf) continue;
      seen_[x] = seen_[y] + 1;
      queue.push_back(x);
      if (t.is_processor(x)) {
        best = seen_[x];
        break;
      }
    }
  }
  for (const NodeId v : queue) seen_[v] = kInf;
  nearest_[target] = best;
  return best;
}

long long BoundContext::min_length(const Demand& d) const {
  if (!d.broadcast) {
    const NodeId target = d.targets.front();
    return d.walk ? walk_dist(d.origin, target) : transfer_dist_to(target)[d.origin];
  }
  long long sum = 0;
  for (const NodeId target : d.targets) sum += nearest_sender_dist(target);
  return sum;
}

std::string describe_side(const Topology& t, const std::vector<char>& side) {
  std::vector<NodeId> in, out;
  for (NodeId v = 0; v < t.node_count(); ++v) (side[v] ? in : out).push_back(v);
  const auto list = [&](const std::vector<NodeId>& nodes) {
    std::string s = "{";
    const std::size_t shown = nodes.size() <= 12 ? nodes.size() : 10;
    for (std::size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + t.display_name(nodes[i]);
    if (shown < nodes.size()) s += fmt::format(", ... ({} nodes)", nodes.size());
    return s + "}";
  };
  if (in.size() <= out.size() || out.size() > 12) return "S = " + list(in);
  return "S = all but " + list(out);
}

}  // namespace ccsched::bounds_detail
