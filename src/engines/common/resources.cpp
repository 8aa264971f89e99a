// Resource estimates from the problem's sizes (docs/RELIABILITY.md, "Resource limits"). The counts
// mirror the encoders: src/engines/sat.cpp (direct and spreading encodings, with the
// sequential-counter at-most-one / at-most-k of cnf.hpp charged at their largest size) and
// src/engines/evolution/instance.hpp (genes, candidate senders, interned routes). The
// byte constants were calibrated against peak RSS (docs/RELIABILITY.md, "Resource limits").
#include "ccsched/engines/resources.hpp"

#include "ccsched/topology/family_metric.hpp"
#include "ccsched/topology/invariants.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace ccsched {
namespace {

// Bytes per cached Path (two vectors with their heap blocks, the list slot) plus 8 per
// hop (one NodeId and one ChannelId), and per cached pair (hash node, list header).
constexpr double kPathBytes = 112.0;
constexpr double kPathHopBytes = 8.0;
constexpr double kPairBytes = 64.0;
// CaDiCaL: per variable (values, phases, links, scores, two watch lists) and per clause
// (header, two watches), plus 4 per literal; the encoder's decoding table adds a little
// per choice variable, folded into the per-variable figure.
constexpr double kVarBytes = 256.0;
constexpr double kClauseBytes = 112.0;
constexpr double kLiteralBytes = 4.0;

double at_most_one_clauses(double n) { return n <= 1 ? 0.0 : 3.0 * n; }
double at_most_k_vars(double n, int k) { return n <= k ? 0.0 : k * n; }
double at_most_k_clauses(double n, int k) { return n <= k ? 0.0 : (2.0 * k + 2.0) * n; }

bool direct_delivery(const Problem& p) {
  return !is_broadcast(p.collective) && p.model.switching == Switching::wormhole;
}

bool within(int distance, std::optional<int> radius) {
  return distance != kUnreachable && (!radius || distance <= *radius);
}

}  // namespace

PathCensus::PathCensus(const Topology& t, const Model& model) : topology_(&t) {
  const auto procs = t.processors();
  processors_ = procs.size();
  slot_.assign(t.node_count(), -1);
  for (std::size_t i = 0; i < procs.size(); ++i) slot_[procs[i]] = static_cast<int>(i);
  count_.assign(processors_ * processors_, 0.0);
  dist_.assign(processors_ * processors_, kUnreachable);
  const int n = t.node_count();
  std::vector<NodeId> queue;
  std::vector<double> ways(n), next(n);
  for (const NodeId target : procs) {
    // Hops from every node to `target`, nearest first (`queue`), as PathSet has them.
    const std::vector<int> dist = distances_to(t, target, &queue);
    std::fill(ways.begin(), ways.end(), 0.0);
    if (model.switching == Switching::store_and_forward) {
      for (const ChannelId c : t.in_channels(target)) ways[t.channel(c).from] = 1.0;
    } else if (model.routing == Routing::minimal) {
      // BFS order is by distance: count paths down the shortest-path DAG.
      ways[target] = 1.0;
      for (std::size_t i = 1; i < queue.size(); ++i) {
        const NodeId u = queue[i];
        double w = 0.0;
        for (const ChannelId c : t.out_channels(u)) {
          const NodeId v = t.channel(c).to;
          if (dist[v] == dist[u] - 1) w += ways[v];
        }
        ways[u] = w;
      }
    } else {
      // Walks of at most d(u) + extra hops: layered DP, an upper bound on simple paths.
      int far = 0;
      for (const NodeId u : queue) far = std::max(far, dist[u]);
      const int longest = far + model.extra_hops;
      // reach[h][u] = walks from u to target of exactly h hops (any node may relay).
      std::vector<double> layer(n, 0.0), total(n, 0.0);
      layer[target] = 1.0;
      for (int h = 1; h <= longest; ++h) {
        std::fill(next.begin(), next.end(), 0.0);
        for (NodeId u = 0; u < n; ++u)
          for (const ChannelId c : t.out_channels(u)) {
            const NodeId v = t.channel(c).to;
            if (layer[v] != 0.0) next[u] += layer[v];
          }
        next[target] = 0.0;  // a path ends at its first arrival
        for (NodeId u = 0; u < n; ++u)
          if (dist[u] != kUnreachable && h <= dist[u] + model.extra_hops) total[u] += next[u];
        std::swap(layer, next);
      }
      ways = total;
    }
    for (const NodeId from : procs) {
      if (from == target) continue;
      const std::size_t k = index(from, target);
      dist_[k] = dist[from];
      count_[k] = dist[from] == kUnreachable ? 0.0 : ways[from];
      max_count_ = std::max(max_count_, count_[k]);
    }
  }
}

double PathCensus::total(double cap, std::optional<int> radius) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < count_.size(); ++i)
    if (within(dist_[i], radius)) sum += std::min(count_[i], cap);
  return sum;
}

double PathCensus::total_hops(double cap, std::optional<int> radius) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < count_.size(); ++i)
    if (within(dist_[i], radius)) sum += std::min(count_[i], cap) * dist_[i];
  return sum;
}

ResourceEstimate estimate_paths(const Problem& problem, const PathCensus& census, double cap,
                                std::optional<int> radius, bool spreading) {
  ResourceEstimate e;
  double hops = 0.0, pairs = 0.0;
  if (!spreading) {
    for (const auto& m : problem.collective.messages)
      for (const NodeId v : m.targets) {
        const double c = std::min(census.count(m.origin, v), cap);
        e.paths += c;
        hops += c * std::max(0, census.distance(m.origin, v));
        pairs += 1.0;
      }
  } else {
    e.paths = census.total(cap, radius);
    hops = census.total_hops(cap, radius);
    const double p = census.topology().processor_count();
    pairs = p * (p - 1.0);
  }
  e.hops = hops;
  e.pairs = pairs;
  e.bytes = kPathBytes * e.paths + kPathHopBytes * hops + kPairBytes * pairs;
  return e;
}

ResourceEstimate estimate_paths(const Problem& problem, const PathCensus& census, double cap,
                                std::optional<int> radius) {
  return estimate_paths(problem, census, cap, radius, !direct_delivery(problem));
}

ResourceEstimate estimate_sat(const Problem& problem, const PathCensus& census, int steps,
                              std::optional<int> radius, double cap) {
  return estimate_sat(problem, census, steps, radius, cap, !direct_delivery(problem));
}

ResourceEstimate estimate_sat(const Problem& problem, const PathCensus& census, int steps,
                              std::optional<int> radius, double cap, bool spreading) {
  const ResourceEstimate paths = estimate_paths(problem, census, cap, radius, spreading);
  ResourceEstimate e;
  const double T = std::max(1, steps);
  const int k = problem.model.ports.value_or(0);
  const auto& messages = problem.collective.messages;
  double vars = T, clauses = 0.0, lits = 0.0;
  double channel_entries = 0.0;  // literals in the per-(channel, step) at-most-one lists
  double sent = 0.0, received = 0.0;
  if (!spreading) {
    // sat.cpp encode_direct: message i may use steps 1..min(T, i+1); one z and |P| y per step.
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const auto& m = messages[i];
      const double last = std::min<double>(T, static_cast<double>(i + 1));
      const double c = std::min(census.count(m.origin, m.targets[0]), cap);
      const double hops = std::max(0, census.distance(m.origin, m.targets[0]));
      vars += last * (1.0 + c);
      clauses += last * (1.0 + c) + 1.0;
      lits += 2.0 * last * (1.0 + c) + last * c;
      channel_entries += last * c * hops;
      sent += last;
    }
    received = sent;
  } else {
    // sat.cpp encode_spreading: per message r, hold and x variables; x for every pair
    // (u, v), v not the origin, from step 1 (u = origin) or 2.
    const auto procs = census.topology().processors();
    const double P = static_cast<double>(procs.size());
    const double all = census.total(cap, radius);
    const double all_hops = census.total_hops(cap, radius);
    std::vector<double> out(census.topology().node_count(), 0.0), in(out), out_h(out), in_h(out);
    for (const NodeId u : procs)
      for (const NodeId v : procs) {
        if (u == v || !within(census.distance(u, v), radius)) continue;
        const double c = std::min(census.count(u, v), cap);
        out[u] += c;
        in[v] += c;
        out_h[u] += c * census.distance(u, v);
        in_h[v] += c * census.distance(u, v);
      }
    const double r_amo = T <= 5 ? T * (T - 1) / 2.0 : 3.0 * T;
    for (const auto& m : messages) {
      const NodeId o = m.origin;
      const double x = T * out[o] + (T - 1.0) * std::max(0.0, all - out[o] - in[o]);
      const double xh = T * out_h[o] + (T - 1.0) * std::max(0.0, all_hops - out_h[o] - in_h[o]);
      const double q = P - 1.0;
      vars += q * T + q * (T - 1.0) + x + (T > 5 ? q * (T - 1.0) : 0.0);
      clauses += q * (T - 1.0) + 3.0 * x + q * T + static_cast<double>(m.targets.size()) + q * r_amo;
      lits += 3.0 * q * (T - 1.0) + 6.0 * x + (q * T + x) + T * m.targets.size() + 2.0 * q * r_amo;
      channel_entries += xh;
      sent += x;
      received += q * T;
    }
  }
  // Channel at-most-one (sequential counter: ~1 variable and 3 binary clauses per literal).
  vars += channel_entries;
  clauses += at_most_one_clauses(channel_entries);
  lits += 2.0 * at_most_one_clauses(channel_entries);
  if (k > 0) {
    // At most k per processor and step; the per-list sizes are at most the totals.
    vars += at_most_k_vars(sent, k) + at_most_k_vars(received, k);
    const double c = at_most_k_clauses(sent, k) + at_most_k_clauses(received, k);
    clauses += c;
    lits += 3.0 * c;
  }
  e.paths = paths.paths;
  e.variables = vars;
  e.clauses = clauses;
  e.literals = lits;
  e.bytes = paths.bytes + kVarBytes * vars + kClauseBytes * clauses + kLiteralBytes * lits;
  return e;
}

ResourceEstimate estimate_population(const Problem& problem, const PathCensus& census,
                                     int steps, std::optional<int> radius, double cap,
                                     int population) {
  ResourceEstimate e = estimate_paths(problem, census, cap, radius);
  const bool broadcast = is_broadcast(problem.collective);
  double genes = 0.0, candidates = 0.0;
  const auto procs = census.topology().processors();
  std::vector<double> senders(census.topology().node_count(), 0.0);
  if (broadcast)
    for (const NodeId v : procs)
      for (const NodeId u : procs)
        if (u != v && within(census.distance(u, v), radius)) senders[v] += 1.0;
  for (const auto& m : problem.collective.messages) {
    genes += static_cast<double>(m.targets.size());
    if (broadcast)
      for (const NodeId v : m.targets) candidates += senders[v];
    else
      candidates += static_cast<double>(m.targets.size());
  }
  // Instance (src/engines/evolution/instance.cpp): per candidate a node, a route and a
  // gene index (16 bytes); the interned routes repeat the path lists flat: per path two
  // begin offsets and per hop a channel and a node (4 bytes each), plus the first node;
  // the route index while it is built, about 48 bytes per pair. Population and children:
  // 2·population individuals of 2 or 3 ints per gene; the workspace's channel occupancy
  // per step. (Until the large-network runs (docs/RELIABILITY.md) the flat copy was charged 16 bytes per
  // path; hypercube:10 OAB needed about 3.5 times that.)
  const double gene_ints = broadcast ? 3.0 : 2.0;
  e.genes = genes;
  e.bytes += 16.0 * candidates + 12.0 * e.paths + 8.0 * e.hops + 48.0 * e.pairs +
             2.0 * population * genes * gene_ints * 4.0 +
             4.0 * std::max(1, steps) * census.topology().channel_count();
  return e;
}

ResourceEstimate estimate_schedule(const Problem& problem) {
  // Measured on the release build (docs/BENCHMARKS.md, "Beyond 1,024: all-to-all at 4,096"):
  // a one-hop transfer with its verifier tables, a message with its target list (twice),
  // and a node of a path (in the transfer and in the verifier's channel list).
  constexpr double kTransferBytes = 400.0;
  // A broadcast's delivery is one transfer of one message over a short path (torus:64x64
  // AAB: 3,497 MB for 16,773,120 one-hop transfers, 208 bytes each, schedule and verifier).
  constexpr double kBroadcastTransferBytes = 240.0;
  constexpr double kMessageBytes = 128.0;
  constexpr double kTargetBytes = 8.0;
  constexpr double kHopBytes = 8.0;
  const Topology& t = problem.topology;
  const Collective& c = problem.collective;
  ResourceEstimate e;
  if (is_reduction(c)) {
    e.pairs = static_cast<double>(c.blocks) *
              static_cast<double>(c.senders.size() + c.receivers.size());
    e.bytes = kTransferBytes * e.pairs;
    return e;
  }
  const bool scatter = problem.model.switching == Switching::wormhole && !is_broadcast(c);
  const auto metric = scatter ? FamilyMetric::of(t) : std::nullopt;
  for (const auto& m : c.messages) {
    e.pairs += static_cast<double>(m.targets.size());
    if (!metric) continue;
    if (m.origin < 0 || m.origin >= t.node_count()) continue;
    for (const NodeId v : m.targets)
      if (metric->answers_for(v)) e.hops += metric->distance(m.origin, v);
  }
  e.bytes = (is_broadcast(c) ? kBroadcastTransferBytes : kTransferBytes) * e.pairs +
            kMessageBytes * static_cast<double>(c.messages.size()) + kTargetBytes * e.pairs +
            kHopBytes * e.hops;
  return e;
}

ResourceEstimate estimate_lazy(const Problem& problem) {
  // The schedule (estimate_schedule); 12 bytes per node for one target's hops (int) and
  // path counts (double).
  constexpr double kTargetTableBytes = 12.0;
  const Topology& t = problem.topology;
  const Collective& c = problem.collective;
  ResourceEstimate e = estimate_schedule(problem);
  std::vector<char> reached(t.node_count(), 0);
  double distinct = 0.0;
  auto reach = [&](NodeId v) {
    if (!reached[v]) reached[v] = 1, distinct += 1.0;
  };
  if (is_reduction(c)) {
    for (const NodeId v : c.senders) reach(v);
    for (const NodeId v : c.receivers) reach(v);
  } else {
    for (const auto& m : c.messages)
      for (const NodeId v : m.targets) reach(v);
  }
  if (!FamilyMetric::of(t)) e.bytes += kTargetTableBytes * t.node_count() * distinct;
  return e;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  if (u >= 6 && bytes >= 1024.0) return "more than 1024 EiB";
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[u]);
}

std::string memory_refusal(const std::string& what, const ResourceEstimate& need, double limit,
                           const std::string& advice) {
  std::string counts;
  auto add = [&](double value, const char* name) {
    if (value <= 0) return;
    counts += (counts.empty() ? "" : ", ") +
              (value < 1e7 ? fmt::format("{:.0f} {}", value, name)
                           : fmt::format("{:.2g} {}", value, name));
  };
  add(need.variables, "variables");
  add(need.clauses, "clauses");
  add(need.genes, "genes per individual");
  add(need.paths, "paths");
  return fmt::format("{} would need about {} ({}), more than --max-memory {}; {}", what,
                     format_bytes(need.bytes), counts, format_bytes(limit), advice);
}

}  // namespace ccsched
