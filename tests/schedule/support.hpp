// Helpers shared by the schedule tests: small networks and collectives built by hand (so
// these tests do not depend on the problem module's expansion), unique shortest paths,
// and violation queries.
#pragma once

#include <algorithm>
#include <deque>
#include <set>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/schedule.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched::test {

// Bidirectional ring 0..n-1.
inline Topology ring(int n) {
  Topology t("ring:" + std::to_string(n));
  for (int i = 0; i < n; ++i) t.add_node(NodeKind::processor);
  for (int i = 0; i < n; ++i) t.add_link(i, (i + 1) % n);
  return t;
}

// All-to-all scatter on every processor, one message per ordered pair (u, v), u != v,
// numbered in (u, v) order.
inline Collective aas(const Topology& t) {
  Collective c;
  c.kind = CollectiveKind::AAS;
  c.senders.assign(t.processors().begin(), t.processors().end());
  c.receivers = c.senders;
  for (const NodeId u : t.processors())
    for (const NodeId v : t.processors())
      if (u != v) c.messages.push_back({static_cast<MessageId>(c.messages.size()), u, {v}});
  return c;
}

// All-to-all broadcast: message i comes from the i-th processor to all the others.
inline Collective aab(const Topology& t) {
  Collective c;
  c.kind = CollectiveKind::AAB;
  c.senders.assign(t.processors().begin(), t.processors().end());
  c.receivers = c.senders;
  for (const NodeId u : t.processors()) {
    Message m{static_cast<MessageId>(c.messages.size()), u, {}};
    for (const NodeId v : t.processors())
      if (v != u) m.targets.push_back(v);
    c.messages.push_back(std::move(m));
  }
  return c;
}

// One-to-all broadcast from `root`; receivers are the other processors.
inline Collective oab(const Topology& t, NodeId root) {
  Collective c;
  c.kind = CollectiveKind::OAB;
  c.senders = {root};
  Message m{0, root, {}};
  for (const NodeId v : t.processors())
    if (v != root) m.targets.push_back(v);
  c.receivers = m.targets;
  c.messages.push_back(std::move(m));
  return c;
}

// Id of the scatter message origin -> target (-1 when there is none).
inline MessageId message_id(const Collective& c, NodeId origin, NodeId target) {
  for (const auto& m : c.messages)
    if (m.origin == origin && m.targets.size() == 1 && m.targets.front() == target) return m.id;
  return -1;
}

// Number of shortest paths a -> b and one of them (empty when unreachable).
struct ShortestPaths {
  long long count = 0;
  std::vector<NodeId> path;
};

inline ShortestPaths shortest_paths(const Topology& t, NodeId a, NodeId b) {
  std::vector<int> dist(static_cast<std::size_t>(t.node_count()), -1);
  std::vector<long long> count(dist.size(), 0);
  std::deque<NodeId> queue{a};
  dist[a] = 0;
  count[a] = 1;
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (const ChannelId c : t.out_channels(u)) {
      const NodeId v = t.channel(c).to;
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue.push_back(v);
      }
      if (dist[v] == dist[u] + 1) count[v] += count[u];
    }
  }
  ShortestPaths out;
  if (dist[b] < 0) return out;
  out.count = count[b];
  out.path = {b};
  for (NodeId v = b; v != a;) {
    for (const ChannelId c : t.in_channels(v)) {
      const NodeId u = t.channel(c).from;
      if (dist[u] == dist[v] - 1) {
        v = u;
        break;
      }
    }
    out.path.push_back(v);
  }
  std::reverse(out.path.begin(), out.path.end());
  return out;
}

inline std::set<int> rules_of(const std::vector<Violation>& vs) {
  std::set<int> out;
  for (const auto& v : vs) out.insert(v.rule);
  return out;
}

inline int count_rule(const std::vector<Violation>& vs, int rule) {
  return static_cast<int>(
      std::count_if(vs.begin(), vs.end(), [&](const Violation& v) { return v.rule == rule; }));
}

inline std::string all_text(const std::vector<Violation>& vs) {
  std::string out;
  for (const auto& v : vs) out += v.text + "\n";
  return out;
}

// AAS on ring:4, all-port, in 2 steps. Step 1: every processor sends to both neighbours
// (transfers 2u: u->u+1, 2u+1: u->u-1). Step 2: the four distance-2 messages, two
// clockwise and two counter-clockwise so no channel is shared (transfers 8..11).
inline Schedule ring4_aas() {
  Schedule s;
  s.topology = ring(4);
  s.collective = aas(s.topology);
  s.model.ports.reset();
  s.steps = 2;
  const auto add = [&](Step st, std::vector<NodeId> path) {
    const MessageId m = message_id(s.collective, path.front(), path.back());
    s.transfers.push_back({st, std::move(path), {m}});
  };
  for (NodeId u = 0; u < 4; ++u) {
    add(1, {u, (u + 1) % 4});
    add(1, {u, (u + 3) % 4});
  }
  add(2, {0, 1, 2});
  add(2, {2, 3, 0});
  add(2, {1, 0, 3});
  add(2, {3, 2, 1});
  return s;
}

// OAB from 0 on ring:4: 0 -> 1 and 0 -> 3 in step 1 (transfers 0, 1), 1 -> 2 in step 2
// (transfer 2).
inline Schedule ring4_oab() {
  Schedule s;
  s.topology = ring(4);
  s.collective = oab(s.topology, 0);
  s.model.ports.reset();
  s.steps = 2;
  s.transfers = {{1, {0, 1}, {0}}, {1, {0, 3}, {0}}, {2, {1, 2}, {0}}};
  return s;
}

// A reduction transfer (FORMATS.md "Reductions").
inline Transfer reduction_transfer(Step step, std::vector<NodeId> path, std::vector<int> blocks,
                                   ReductionSend send,
                                   ReductionRecv recv = ReductionRecv::reduce) {
  Transfer t;
  t.step = step;
  t.path = std::move(path);
  t.blocks = std::move(blocks);
  t.send = send;
  t.recv = recv;
  return t;
}

// Ring reduce-scatter on ring:4, 1-port, 4 blocks: in step s node i sends block (i - s)
// mod 4 to i + 1, its own input in step 1 and its partial sum after, reduced on arrival;
// block j travels j+1 -> j+2 -> j+3 -> j and ends at receiver j complete. Transfer
// 4(s-1) + i is node i's in step s.
inline Schedule ring4_reduce_scatter() {
  Schedule s;
  s.topology = ring(4);
  s.collective.kind = CollectiveKind::REDUCESCATTER;
  s.collective.senders = {0, 1, 2, 3};
  s.collective.receivers = s.collective.senders;
  s.collective.blocks = 4;
  s.model.ports = 1;
  s.steps = 3;
  for (Step st = 1; st <= 3; ++st)
    for (NodeId i = 0; i < 4; ++i)
      s.transfers.push_back(reduction_transfer(st, {i, (i + 1) % 4}, {((i - st) % 4 + 4) % 4},
                                               st == 1 ? ReductionSend::input
                                                       : ReductionSend::acc));
  return s;
}

// The one-line error reading `text` as "bad.json" gives, or "(no error)".
inline std::string read_error(const std::string& text) {
  try {
    read_schedule_json(text, "bad.json");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

// A schedule at scale without any engine: AAS on the d-dimensional hypercube (named
// "hypercube:d", nodes 0..2^d-1, links u -- u xor 2^i), one port. In step k = 1..P-1 every
// u sends its message for u xor k along the e-cube route (dimensions in rising order).
// Contention-free: the transfer that crosses dimension i from node w in step k is the one
// from w xor (k mod 2^i), so each channel carries one transfer per step. P(P-1) transfers:
// 65,280 for d = 8.
inline Schedule hypercube_xor_aas(int d) {
  const int p = 1 << d;
  Schedule s;
  s.topology = Topology("hypercube:" + std::to_string(d));
  for (int u = 0; u < p; ++u) s.topology.add_node(NodeKind::processor);
  for (int u = 0; u < p; ++u)
    for (int i = 0; i < d; ++i)
      if (u < (u ^ (1 << i))) s.topology.add_link(u, u ^ (1 << i));
  s.collective = aas(s.topology);
  s.model.ports = 1;
  s.steps = p - 1;
  s.transfers.reserve(static_cast<std::size_t>(p) * static_cast<std::size_t>(p - 1));
  for (int k = 1; k < p; ++k)
    for (int u = 0; u < p; ++u) {
      std::vector<NodeId> path{u};
      for (int i = 0; i < d; ++i)
        if ((k >> i) & 1) path.push_back(path.back() ^ (1 << i));
      const int v = u ^ k;
      // aas() numbers the messages in (origin, target) order.
      const MessageId m = u * (p - 1) + (v < u ? v : v - 1);
      s.transfers.push_back({k, std::move(path), {m}});
    }
  return s;
}

}  // namespace ccsched::test
