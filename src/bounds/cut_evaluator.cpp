// CutEvaluator: crossing counts by dynamic programming on shortest-path DAGs (one pass per
// target) and by 0-1 breadth-first search (one pass per origin). See cut_evaluator.hpp.
#include "cut_evaluator.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>

namespace ccsched::bounds_detail {

CutEvaluator::CutEvaluator(const BoundContext& ctx, bool both_directions)
    : ctx_(ctx), both_(both_directions), label_(ctx.nodes(), kInf) {
  std::map<NodeId, std::size_t> dag_index;
  std::map<std::pair<NodeId, bool>, std::size_t> walk_index;
  const auto& demands = ctx.demands();
  for (std::size_t i = 0; i < demands.size(); ++i) {
    const auto& d = demands[i];
    if (!d.walk && ctx.scatter_on_shortest_paths()) {
      const NodeId target = d.targets.front();
      auto [it, fresh] = dag_index.emplace(target, dag_.size());
      if (fresh) {
        DagTarget dt;
        dt.target = target;
        const auto& dist = ctx.transfer_dist_to(target);
        for (NodeId v = 0; v < ctx.nodes(); ++v)
          if (dist[v] != kInf) dt.order.push_back(v);
        std::stable_sort(dt.order.begin(), dt.order.end(),
                         [&](NodeId a, NodeId b) { return dist[a] < dist[b]; });
        dag_.push_back(std::move(dt));
      }
      dag_[it->second].origins.emplace_back(i, d.origin);
    } else {
      const bool transfer = !d.walk;
      auto [it, fresh] = walk_index.emplace(std::make_pair(d.origin, transfer), walk_.size());
      if (fresh) walk_.push_back({d.origin, transfer, {}});
      walk_[it->second].demands.push_back(i);
    }
  }
  cost_ = static_cast<long long>(dag_.size() + walk_.size() + 1) *
          std::max(1, ctx.topology().channel_count());
}

int CutEvaluator::weight(const std::vector<char>& side, ChannelId c) const {
  const auto& ch = ctx_.topology().channel(c);
  if (both_) return side[ch.from] != side[ch.to] ? 1 : 0;
  return side[ch.from] && !side[ch.to] ? 1 : 0;
}

void CutEvaluator::run_dag(const std::vector<char>& side, const DagTarget& d,
                           std::vector<long long>& per) const {
  const auto& t = ctx_.topology();
  const auto& dist = ctx_.transfer_dist_to(d.target);
  label_[d.target] = 0;
  for (std::size_t i = 1; i < d.order.size(); ++i) {
    const NodeId x = d.order[i];
    int best = kInf;
    for (const ChannelId c : t.out_channels(x)) {
      if (!ctx_.transfer_channel(c)) continue;
      const NodeId y = t.channel(c).to;
      if (dist[y] != dist[x] - 1 || (y != d.target && !ctx_.transfer_interior(y))) continue;
      if (label_[y] == kInf) continue;
      best = std::min(best, label_[y] + weight(side, c));
    }
    label_[x] = best;
  }
  for (const auto& [index, origin] : d.origins) per[index] = label_[origin];
}

void CutEvaluator::run_walk(const std::vector<char>& side, const WalkOrigin& w,
                            std::vector<long long>& per) const {
  const auto& t = ctx_.topology();
  std::fill(label_.begin(), label_.end(), kInf);
  label_[w.origin] = 0;
  deque_.clear();
  deque_.push_back(w.origin);
  while (!deque_.empty()) {
    const NodeId x = deque_.front();
    deque_.pop_front();
    if (w.transfer && x != w.origin && !ctx_.transfer_interior(x)) continue;
    for (const ChannelId c : t.out_channels(x)) {
      if (!ctx_.walk_channel(c)) continue;
      const NodeId y = t.channel(c).to;
      const int wt = weight(side, c);
      if (label_[x] + wt < label_[y]) {
        label_[y] = label_[x] + wt;
        if (wt == 0) {
          deque_.push_front(y);
        } else {
          deque_.push_back(y);
        }
      }
    }
  }
  const auto& demands = ctx_.demands();
  for (const std::size_t index : w.demands) {
    long long most = 0;
    for (const NodeId target : demands[index].targets)
      most = std::max<long long>(most, label_[target]);
    per[index] = most;
  }
}

std::vector<long long> CutEvaluator::crossings(const std::vector<char>& side) const {
  std::vector<long long> per(ctx_.demands().size(), 0);
  for (const auto& d : dag_) run_dag(side, d, per);
  for (const auto& w : walk_) run_walk(side, w, per);
  return per;
}

CutValue CutEvaluator::evaluate(const std::vector<char>& side) const {
  const auto& t = ctx_.topology();
  CutValue v;
  const auto per = crossings(side);
  const auto& demands = ctx_.demands();
  for (std::size_t i = 0; i < demands.size(); ++i) {
    // kInf cannot occur: the context refused unreachable targets.
    v.demand += demands[i].count * per[i];
    if (both_ || !side[demands[i].origin]) continue;
    const bool leaves = std::any_of(demands[i].targets.begin(), demands[i].targets.end(),
                                    [&](NodeId target) { return !side[target]; });
    if (leaves) v.leaving += demands[i].count;
  }
  for (ChannelId c = 0; c < t.channel_count(); ++c)
    if (ctx_.transfer_channel(c)) v.channels += weight(side, c);
  if (!both_) {
    for (const NodeId p : t.processors()) {
      if (side[p]) {
        v.out_capacity += ctx_.cap_out(p);
      } else {
        v.in_capacity += ctx_.cap_in(p);
      }
    }
  }
  const auto consider = [&](long long need, long long capacity, int which) {
    if (need == 0 || capacity == 0) return;
    const long long value = ceil_div(need, capacity);
    const double ratio = static_cast<double>(need) / static_cast<double>(capacity);
    if (value > v.value || (value == v.value && ratio > v.ratio)) {
      v.value = value;
      v.ratio = ratio;
      v.binding = which;
    }
  };
  consider(v.demand, v.channels, 0);
  consider(v.leaving, v.out_capacity, 1);
  consider(v.leaving, v.in_capacity, 2);
  return v;
}

std::string CutEvaluator::explain(const std::vector<char>& side, const CutValue& v) const {
  const auto s = describe_side(ctx_.topology(), side);
  switch (v.binding) {
    case 0:
      return fmt::format(
          "{}: the messages need {} channel crossings {} and {} channels cross{}: "
          "⌈{}/{}⌉ = {}{}",
          s, v.demand, both_ ? "of the cut" : "from S to the rest", v.channels,
          both_ ? " it" : " that way", v.demand, v.channels, v.value, ctx_.direct_note());
    case 1:
      return fmt::format(
          "{}: {} messages leave S, each needs a transfer started in S, whose "
          "processors start at most {} per step: ⌈{}/{}⌉ = {}",
          s, v.leaving, v.out_capacity, v.leaving, v.out_capacity, v.value);
    default:
      return fmt::format(
          "{}: {} messages leave S, each needs a transfer ending outside S, whose "
          "processors accept at most {} per step: ⌈{}/{}⌉ = {}",
          s, v.leaving, v.in_capacity, v.leaving, v.in_capacity, v.value);
  }
}

}  // namespace ccsched::bounds_detail
