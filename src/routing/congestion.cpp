// Congestion levelling (congestion.hpp). Each round: integer weights from the current real
// ones (the certificate must be exact), one Dijkstra per origin (ties by fewer hops), the
// routing's loads summed up the shortest-path tree, the bound Σ count·dist / Σ w kept when
// it is the best so far, then w_c *= exp(step · load_c / max load) (Garg and Könemann's
// multiplicative weights for the maximum concurrent flow). Stops at the work cap, at
// max_rounds, when ⌈bound⌉ reaches the least max load seen (nothing left to gain), or
// after kStall rounds that did not raise the bound, or when options.stop says so.
#include "ccsched/routing/congestion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

namespace ccsched {
namespace {

constexpr long long kScale = 1 << 16;  // the largest integer weight
constexpr long long kFar = std::numeric_limits<long long>::max() / 4;
constexpr int kStall = 25;           // rounds without progress before giving up
constexpr long double kProgress = 1e-7;  // relative gain that counts as progress

struct Entry {
  long long dist;
  int hops;
  NodeId node;
  bool operator>(const Entry& o) const {
    return dist != o.dist ? dist > o.dist : hops != o.hops ? hops > o.hops : node > o.node;
  }
};

}  // namespace

std::vector<ChannelId> CongestionResult::route(std::size_t demand) const {
  std::vector<ChannelId> out;
  if (topology_ == nullptr || demand >= demands_.size()) return out;
  const auto& d = demands_[demand];
  const auto& parent = parent_[static_cast<std::size_t>(slot_[d.origin])];
  for (NodeId v = d.target; v != d.origin;) {
    const ChannelId c = parent[v];
    out.push_back(c);
    v = topology_->channel(c).from;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

CongestionResult level_congestion(const CongestionInput& input, const CongestionOptions& options) {
  const Topology& t = input.topology;
  const int n = t.node_count();
  const int channels = t.channel_count();
  CongestionResult result;
  if (input.demands.empty()) return result;

  // Demands grouped by origin; the count each node must receive per origin.
  std::vector<std::int32_t> slot(n, -1);
  std::vector<NodeId> origins;
  for (const auto& d : input.demands)
    if (slot[d.origin] < 0) {
      slot[d.origin] = static_cast<std::int32_t>(origins.size());
      origins.push_back(d.origin);
    }
  std::vector<std::vector<std::pair<NodeId, long long>>> wanted(origins.size());
  for (const auto& d : input.demands) wanted[slot[d.origin]].push_back({d.target, d.count});

  std::vector<double> real(channels, 1.0);
  std::vector<long long> w(channels), load(channels), dist(n), sum(n);
  std::vector<int> hops(n);
  std::vector<ChannelId> via(n);
  std::vector<NodeId> settled;
  std::vector<std::vector<ChannelId>> parent;  // this round's trees (keep_routes)
  if (options.keep_routes) parent.assign(origins.size(), std::vector<ChannelId>(n, kNoChannel));
  long long best_load = kFar, work = 0;
  long double best_ratio = 0;
  int last_progress = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;

  for (int round = 0; round < options.max_rounds && work <= options.work; ++round) {
    const double top = *std::max_element(real.begin(), real.end());
    long long weight = 0;
    for (ChannelId c = 0; c < channels; ++c) {
      w[c] = input.usable[c] ? std::llround(static_cast<double>(kScale) * real[c] / top) : 0;
      weight += w[c];
    }
    std::fill(load.begin(), load.end(), 0);
    long long length = 0;
    bool stopped = false;
    for (std::size_t o = 0; o < origins.size(); ++o) {
      if (round > 0 && options.stop && options.stop()) {
        stopped = true;
        break;
      }
      const NodeId origin = origins[o];
      std::fill(dist.begin(), dist.end(), kFar);
      std::fill(sum.begin(), sum.end(), 0);
      settled.clear();
      dist[origin] = 0;
      hops[origin] = 0;
      via[origin] = kNoChannel;
      heap.push({0, 0, origin});
      while (!heap.empty()) {
        const Entry e = heap.top();
        heap.pop();
        if (e.dist != dist[e.node] || e.hops != hops[e.node]) continue;
        settled.push_back(e.node);
        if (e.node != origin && !input.pass_through) continue;
        for (const ChannelId c : t.out_channels(e.node)) {
          ++work;
          if (!input.usable[c]) continue;
          const NodeId y = t.channel(c).to;
          const long long nd = e.dist + w[c];
          if (nd < dist[y] || (nd == dist[y] && e.hops + 1 < hops[y])) {
            dist[y] = nd;
            hops[y] = e.hops + 1;
            via[y] = c;
            heap.push({nd, e.hops + 1, y});
          }
        }
      }
      for (const auto& [target, count] : wanted[o]) {
        if (dist[target] >= kFar) return CongestionResult{};  // unreachable: no answer
        length += count * dist[target];
        sum[target] += count;
      }
      // Loads up the tree: children settle after their parents.
      for (auto it = settled.rbegin(); it != settled.rend(); ++it) {
        const NodeId v = *it;
        if (v == origin || sum[v] == 0) continue;
        load[via[v]] += sum[v];
        sum[t.channel(via[v]).from] += sum[v];
      }
      if (options.keep_routes) parent[o] = via;
    }
    if (stopped) break;
    ++result.rounds;
    const long long max_load = *std::max_element(load.begin(), load.end());
    // Which certificate is stronger only picks one; each is exact on its own.
    const long double ratio = weight > 0 ? static_cast<long double>(length) / weight : 0;
    if (ratio > best_ratio * (1 + kProgress)) last_progress = round;
    if (weight > 0 && (result.weight == 0 || ratio > best_ratio)) {
      best_ratio = ratio;
      result.length = length;
      result.weight = weight;
      result.weights = w;
    }
    if (max_load < best_load) {
      best_load = max_load;
      if (options.keep_routes) result.parent_.swap(parent);
      if (options.keep_routes && parent.empty())
        parent.assign(origins.size(), std::vector<ChannelId>(n, kNoChannel));
    }
    if (max_load == 0 || (result.length + result.weight - 1) / result.weight >= best_load) break;
    if (round - last_progress >= kStall) break;  // e.g. tori: equal weights are the best
    for (ChannelId c = 0; c < channels; ++c)
      real[c] *= std::exp(options.step * static_cast<double>(load[c]) / max_load);
  }
  result.max_load = best_load == kFar ? 0 : best_load;
  if (options.keep_routes) {
    result.topology_ = &t;
    result.demands_.assign(input.demands.begin(), input.demands.end());
    result.slot_ = std::move(slot);
  }
  return result;
}

}  // namespace ccsched
