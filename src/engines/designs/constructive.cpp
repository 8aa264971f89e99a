// Closed-form schedules (include/ccsched/engines/constructive.hpp). The one construction
// so far is the hypercube XOR-mask design: a message u -> u XOR m routed in ascending
// dimension order crosses dimension i from node u XOR (m & (2^i - 1)). For one mask m
// those nodes are distinct for distinct u, so the 2^d messages of one mask never share a
// channel; two masks with disjoint bit sets use channels of different dimensions. A step
// may therefore carry any set of masks with pairwise disjoint bit sets, one message per
// mask out of and into every node, hence at most k masks under k ports.
#include "ccsched/engines/constructive.hpp"

#include <algorithm>
#include <bit>
#include <cadical.hpp>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "cnf.hpp"

#include "ccsched/engines/engine.hpp"
#include "ccsched/schedule/verified.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {

std::optional<int> hypercube_dimension(const Topology& t) {
  const int n = t.node_count();
  if (n < 2 || !std::has_single_bit(static_cast<unsigned>(n)) || t.processor_count() != n)
    return std::nullopt;
  const int d = std::countr_zero(static_cast<unsigned>(n));
  if (t.channel_count() != n * d) return std::nullopt;
  for (NodeId u = 0; u < n; ++u)
    for (int i = 0; i < d; ++i)
      if (!t.has_channel(u, u ^ (NodeId{1} << i))) return std::nullopt;
  return d;
}

std::vector<std::vector<unsigned>> group_disjoint_masks(std::vector<unsigned> masks, int d,
                                                        int ports) {
  const unsigned full = (1U << d) - 1;
  // Heaviest masks first: they are the hardest to pair, and a mask with its complement
  // fills every dimension, so nothing else can join that step anyway.
  std::sort(masks.begin(), masks.end(), [](unsigned a, unsigned b) {
    const int pa = std::popcount(a), pb = std::popcount(b);
    return pa != pb ? pa > pb : a < b;
  });
  std::set<unsigned> open(masks.begin(), masks.end());
  std::vector<std::vector<unsigned>> groups;
  for (const unsigned m : masks) {
    if (open.erase(m) == 0) continue;
    std::vector<unsigned> group{m};
    unsigned used = m;
    if (ports >= 2 && open.erase(full & ~m) == 1) {
      group.push_back(full & ~m);
      used = full;
    }
    for (auto it = open.begin(); it != open.end() && static_cast<int>(group.size()) < ports;) {
      if ((*it & used) == 0) {
        used |= *it;
        group.push_back(*it);
        it = open.erase(it);
      } else {
        ++it;
      }
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

namespace {

// The design's argument is its proof; the verifier checks that the argument's
// preconditions (ports, routing rule) hold for this problem. A million transfers take the
// verifier seconds, so it stops, and the design with it, when the budget does.
VerifiedSchedule checked(Schedule s, const Budget& budget) {
  return verified(std::move(s), [&budget] { return budget.expired(); });
}

VerifiedSchedule hypercube_masks(const Problem& problem) {
  const auto& c = problem.collective;
  if (is_broadcast(c) || problem.model.switching != Switching::wormhole ||
      problem.model.combining)
    return {};
  const auto d = hypercube_dimension(problem.topology);
  if (!d) return {};
  // Messages by mask; each mask class must be a partial permutation (one message out of
  // and into every node), otherwise its messages could meet on a channel.
  std::map<unsigned, std::vector<MessageId>> by_mask;
  std::set<std::pair<unsigned, NodeId>> seen;
  for (const auto& m : c.messages) {
    if (m.targets.size() != 1) return {};
    const auto mask = static_cast<unsigned>(m.origin ^ m.targets.front());
    if (!seen.emplace(mask, m.origin).second) return {};
    by_mask[mask].push_back(m.id);
  }
  std::vector<unsigned> masks;
  for (const auto& [mask, ids] : by_mask) masks.push_back(mask);
  const auto groups = group_disjoint_masks(masks, *d, effective_ports(problem));

  std::vector<Transfer> transfers;
  transfers.reserve(c.messages.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const unsigned mask : groups[g]) {
      for (const MessageId id : by_mask[mask]) {
        Transfer t;
        t.step = static_cast<Step>(g + 1);
        NodeId at = c.messages[id].origin;
        t.path.push_back(at);
        for (int i = 0; i < *d; ++i) {
          if ((mask >> i) & 1U) {
            at ^= NodeId{1} << i;
            t.path.push_back(at);
          }
        }
        t.messages.push_back(id);
        transfers.push_back(std::move(t));
      }
    }
  }
  Schedule s = assemble_schedule(problem, std::move(transfers), "constructive", 0);
  // The argument above is the proof; the verifier is the check that the argument's
  // preconditions (ports, routing rule) really hold for this problem.
  return verified(std::move(s));
}

// One delivery of the rounds design: message `message` goes from `from` to `to` directly.
struct Delivery {
  MessageId message;
  NodeId from;
  NodeId to;
};

// A path for every delivery so that no channel carries two of them: a one-step routing
// question for CaDiCaL (one path per delivery, at most one delivery per channel). Empty
// when there is none (or when the conflict limit is reached first).
// Under minimal wormhole routing a first-fit pass over lazily found paths comes first: it
// routes XOR and shift rounds on fat trees and multistage networks at once, and needs no
// path lists (docs/BENCHMARKS.md, "Scale": fattree:1024 AAS); CaDiCaL decides what it leaves, on networks
// small enough to list paths.
constexpr int kSatRoutingProcessors = 256;

std::optional<std::vector<Path>> route_one_step(const Problem& problem, const PathSet& paths,
                                                const std::vector<Delivery>& group,
                                                const Budget& budget) {
  if (budget.expired()) return std::nullopt;
  if (paths.searches_lazily()) {
    std::vector<char> used(problem.topology.channel_count(), 0);
    std::vector<Path> chosen;
    for (const Delivery& d : group) {
      auto p = paths.first_free_path(d.from, d.to, used);
      if (!p) break;
      for (const ChannelId c : p->channels) used[c] = 1;
      chosen.push_back(std::move(*p));
    }
    if (chosen.size() == group.size()) return chosen;
    if (problem.topology.processor_count() > kSatRoutingProcessors) return std::nullopt;
  }
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);
  sat::Cnf cnf(&solver);
  std::vector<std::vector<int>> users(problem.topology.channel_count());
  std::vector<std::vector<std::pair<int, const Path*>>> choice(group.size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (budget.expired()) return std::nullopt;
    std::vector<int> any;
    for (const Path& p : paths.paths(group[i].from, group[i].to)) {
      if (any.size() % 1024 == 1023 && budget.expired()) return std::nullopt;
      const int y = cnf.new_var();
      any.push_back(y);
      choice[i].emplace_back(y, &p);
      for (const ChannelId c : p.channels) users[c].push_back(y);
    }
    if (any.empty()) return std::nullopt;
    cnf.add(any);
  }
  for (const auto& u : users) cnf.at_most_one(u);
  solver.limit("conflicts", 20000);
  if (sat::solve_within(solver, budget) != 10) return std::nullopt;
  std::vector<Path> chosen(group.size());
  for (std::size_t i = 0; i < group.size(); ++i)
    for (const auto& [y, p] : choice[i])
      if (solver.val(y) > 0) {
        chosen[i] = *p;
        break;
      }
  return chosen;
}

// The rounds design under a k-port model. Number the processors 0..P-1; round c holds the
// deliveries i -> i XOR c (P a power of two) or i -> i + c mod P. Every (origin, target)
// pair lies in exactly one round, and a round sends at most one delivery out of and into
// each processor, so k rounds that route together fit one step under k ports. Every
// delivery is direct (origin to target in one transfer), which satisfies the holding rule
// for broadcasts too: an all-to-all broadcast is then scheduled like an all-to-all scatter,
// and reaches the reception bound P-1 (k = 1; seed 000 §3, ⌈(P−1)/k⌉) whenever every round
// routes in one step, as XOR rounds do on Omega networks (each stage fixes one destination
// bit, and two sources whose paths meet after stage i agree on i+1 destination bits and on
// the other source bits, so they differ nowhere) and on fat trees and Clos networks.
VerifiedSchedule rounds_design(const Problem& problem, const PathSet& paths, bool xor_rounds,
                               const Budget& budget) {
  if (!problem.model.ports || problem.model.switching != Switching::wormhole ||
      problem.model.combining)
    return {};
  const auto processors = problem.topology.processors();
  const auto P = static_cast<int>(processors.size());
  if (P < 2 || P > (paths.searches_lazily() ? 4096 : kSatRoutingProcessors)) return {};
  if (xor_rounds && !std::has_single_bit(static_cast<unsigned>(P))) return {};
  std::vector<int> index(problem.topology.node_count(), -1);
  for (int i = 0; i < P; ++i) index[processors[i]] = i;
  std::vector<std::vector<Delivery>> rounds(P);
  std::size_t deliveries = 0;
  for (const auto& m : problem.collective.messages)
    for (const NodeId t : m.targets) {
      if (index[m.origin] < 0 || index[t] < 0) return {};
      const int c = xor_rounds ? (index[m.origin] ^ index[t]) : (index[t] - index[m.origin] + P) % P;
      rounds[c].push_back({m.id, m.origin, t});
      ++deliveries;
    }
  // The design is worth it only when the rounds are nearly full (all-to-all patterns);
  // a sparse pattern is the other engines' business.
  if (deliveries < static_cast<std::size_t>(P) * (P - 1) / 2) return {};
  for (int c = 1; c < P; ++c) {
    std::set<NodeId> out, in;
    for (const auto& d : rounds[c])
      if (!out.insert(d.from).second || !in.insert(d.to).second) return {};
  }
  const int k = std::max(1, *problem.model.ports);
  // Steps: groups of at most k rounds that route together (first fit); a round that does
  // not route alone is split into single-delivery groups placed first-fit as well.
  struct Group {
    std::vector<Delivery> deliveries;
    std::vector<Path> routes;
    int rounds = 0;
  };
  std::vector<Group> steps;
  auto place = [&](const std::vector<Delivery>& part) {
    // First fit over every open step, or (large networks) only the newest one, so that the
    // routing questions stay linear in the rounds.
    const std::size_t from = P > kSatRoutingProcessors && !steps.empty() ? steps.size() - 1 : 0;
    for (std::size_t i = from; i < steps.size(); ++i) {
      auto& g = steps[i];
      if (g.rounds >= k) continue;
      auto merged = g.deliveries;
      merged.insert(merged.end(), part.begin(), part.end());
      if (auto routes = route_one_step(problem, paths, merged, budget)) {
        g.deliveries = std::move(merged);
        g.routes = std::move(*routes);
        ++g.rounds;
        return true;
      }
    }
    if (auto routes = route_one_step(problem, paths, part, budget)) {
      steps.push_back({part, std::move(*routes), 1});
      return true;
    }
    return false;
  };
  for (int c = 1; c < P; ++c) {
    if (budget.expired()) return {};  // no partial design: it must deliver all
    if (rounds[c].empty() || place(rounds[c])) continue;
    // Splitting a round into single deliveries costs a routing question per delivery and
    // step: only on networks small enough for that (torus:32x32 AAB spent minutes here).
    if (P > kSatRoutingProcessors) return {};
    for (const auto& d : rounds[c])
      if (!place({d})) return {};
  }
  std::vector<Transfer> transfers;
  transfers.reserve(deliveries);
  for (std::size_t s = 0; s < steps.size(); ++s)
    for (std::size_t i = 0; i < steps[s].deliveries.size(); ++i)
      transfers.push_back({static_cast<Step>(s + 1), steps[s].routes[i].nodes,
                           {steps[s].deliveries[i].message}});
  return checked(assemble_schedule(problem, std::move(transfers), "constructive", 0), budget);
}

// The ring all-gather for broadcasts from every processor to every other (AAB): order the
// processors u_0..u_{P-1} (by id) and, if the shift u_i -> u_{i+1 mod P} routes in one
// step, let every processor pass on in step s the message it received in step s-1 (its
// own in step 1): after P-1 steps everyone holds everything, each processor sending and
// receiving one message per step — the reception bound ⌈(P−1)/k⌉ for k = 1 (seed 000
// §3). With two ports or more and both shifts (±1) routing together, messages travel both
// ways round the ring: ⌈(P−1)/2⌉ steps. The shift routes on binary trees and fat trees
// with leaves in order: every aligned block of leaves (a subtree) sends exactly one
// message out, from its last leaf, and receives one, into its first leaf.
VerifiedSchedule ring_design(const Problem& problem, const PathSet& paths, const Budget& budget) {
  const auto& c = problem.collective;
  if (!is_broadcast(c) || problem.model.switching != Switching::wormhole ||
      problem.model.combining)
    return {};
  const auto processors = problem.topology.processors();
  const auto P = static_cast<int>(processors.size());
  if (P < 3 || P > 4096 || static_cast<int>(c.messages.size()) != P) return {};
  std::vector<int> index(problem.topology.node_count(), -1);
  for (int i = 0; i < P; ++i) index[processors[i]] = i;
  std::vector<MessageId> of(P, -1);  // the message that starts at u_i
  for (const auto& m : c.messages) {
    if (static_cast<int>(m.targets.size()) != P - 1 || of[index[m.origin]] >= 0)
      return {};
    of[index[m.origin]] = m.id;
  }
  const int ports = effective_ports(problem);
  std::vector<Delivery> shift;
  for (int i = 0; i < P; ++i) shift.push_back({of[i], processors[i], processors[(i + 1) % P]});
  const auto forward = route_one_step(problem, paths, shift, budget);
  if (!forward) return {};
  std::optional<std::vector<Path>> both;
  if (ports >= 2) {
    auto two = shift;
    for (int i = 0; i < P; ++i)
      two.push_back({of[i], processors[i], processors[(i + P - 1) % P]});
    both = route_one_step(problem, paths, two, budget);
  }
  // Forward: u_i sends in step s the message of u_{i-s+1}; backward (when both shifts
  // route): u_i sends the message of u_{i+s-1} to u_{i-1}.
  const int ahead = both ? P / 2 : 0;         // messages that travel backwards
  const int behind = P - 1 - ahead;           // messages that travel forwards
  std::vector<Transfer> transfers;
  for (int i = 0; i < P; ++i) {
    for (int s = 1; s <= behind; ++s)
      transfers.push_back({static_cast<Step>(s), (both ? (*both)[i] : (*forward)[i]).nodes,
                           {of[((i - s + 1) % P + P) % P]}});
    for (int s = 1; s <= ahead; ++s)
      transfers.push_back({static_cast<Step>(s), (*both)[P + i].nodes, {of[(i + s - 1) % P]}});
  }
  return checked(assemble_schedule(problem, std::move(transfers), "constructive", 0), budget);
}

// XOR rounds on the binary fat tree fattree:N (generators.cpp make_fattree: processor p
// under switch s0.(p>>1); s<l>.<w> joined to s<l+1>.<w'> for the w' that differ from w at
// most in bit l). Round c (1 <= c < N) delivers p -> p XOR c in one step on routes fixed in
// closed form: up from s0.(p>>1), the climb from level l sets bit l of the switch word to
// bit l of p, until the level above the highest differing word bit; down, each level sets
// bit l to the destination's. Why no two routes of a round share a channel: the up channel
// out of level l is named by the bits the subtree shares (p's bits above l, the same for
// every source under it) and by p's bits 0..l, which differ between the sources of one
// subtree; the down channel into level l of the destination's subtree is named by that
// subtree's bits and by the sources' bits 0..l, which XOR with c maps one to one onto the
// destinations' bits 0..l. So N-1 steps, the reception bound, with no routing search
// (docs/BENCHMARKS.md, "Scale": fattree:1024 AAS, where searching the routes took minutes).
std::optional<Schedule> fattree_xor_rounds(const Problem& problem) {
  const auto& t = problem.topology;
  const auto& c = problem.collective;
  if (problem.model.switching != Switching::wormhole || problem.model.combining ||
      !t.name().starts_with("fattree:") || !t.fault_records().empty())
    return std::nullopt;
  const long long N = t.processor_count();
  if (N < 4 || !std::has_single_bit(static_cast<unsigned long long>(N))) return std::nullopt;
  if (!is_generated(t)) return std::nullopt;
  // An all-to-all scatter pattern between processors 0..N-1 (ids are the processors).
  if (c.messages.size() != static_cast<std::size_t>(N * (N - 1))) return std::nullopt;
  std::vector<MessageId> message(static_cast<std::size_t>(N * N), -1);
  for (const auto& m : c.messages) {
    if (m.targets.size() != 1 || m.origin >= N || m.targets[0] >= N) return std::nullopt;
    message[static_cast<std::size_t>(m.origin * N + m.targets[0])] = m.id;
  }
  const long long half = N / 2;
  auto sw = [&](int level, long long word) { return static_cast<NodeId>(N + level * half + word); };
  std::vector<Transfer> transfers;
  transfers.reserve(c.messages.size());
  for (long long round = 1; round < N; ++round)
    for (long long p = 0; p < N; ++p) {
      const long long q = p ^ round;
      const MessageId m = message[static_cast<std::size_t>(p * N + q)];
      if (m < 0) return std::nullopt;
      const long long a = p >> 1, b = q >> 1;
      std::vector<NodeId> path{static_cast<NodeId>(p), sw(0, a)};
      if (a != b) {
        const int top = std::bit_width(static_cast<unsigned long long>(a ^ b));  // levels up
        long long w = a;
        for (int l = 0; l < top; ++l) {
          w = (w & ~(1LL << l)) | (((p >> l) & 1) << l);
          path.push_back(sw(l + 1, w));
        }
        for (int l = top - 1; l >= 0; --l) {
          w = (w & ~(1LL << l)) | (b & (1LL << l));
          path.push_back(sw(l, w));
        }
      }
      path.push_back(static_cast<NodeId>(q));
      transfers.push_back({static_cast<Step>(round), std::move(path), {m}});
    }
  return assemble_schedule(problem, std::move(transfers), "constructive", 0);
}

}  // namespace

VerifiedSchedule rounds_schedule(const Problem& problem, const PathSet& paths,
                                 const Budget& budget) {
  refuse_reductions(problem.collective, "the constructive designs", "constructive");
  VerifiedSchedule best;
  for (const bool xor_rounds : {true, false}) {
    auto s = rounds_design(problem, paths, xor_rounds, budget);
    if (s && (!best || s->steps < best->steps)) best = std::move(s);
  }
  return best;
}

VerifiedSchedule constructive_schedule(const Problem& problem, const PathSet& paths,
                                       const Budget& budget) {
  refuse_reductions(problem.collective, "the constructive designs", "constructive");
  // One link per processor: N-1 steps is the reception bound, so nothing can do better.
  // Its argument is its proof, so a schedule the verifier rejects is a bug.
  if (auto s = fattree_xor_rounds(problem)) {
    std::vector<Violation> violations;
    VerifiedSchedule v = verified(std::move(*s), &violations);
    if (!v)
      throw std::logic_error("the fat-tree XOR rounds broke rule " +
                             std::to_string(violations.front().rule) + ": " +
                             violations.front().text);
    return v;
  }
  VerifiedSchedule best = hypercube_masks(problem);
  if (auto s = rounds_schedule(problem, paths, budget); s && (!best || s->steps < best->steps))
    best = std::move(s);
  if (auto s = ring_design(problem, paths, budget); s && (!best || s->steps < best->steps))
    best = std::move(s);
  return best;
}

}  // namespace ccsched
