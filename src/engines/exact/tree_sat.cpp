// Broadcasts over fixed trees (include/ccsched/engines/tree_sat.hpp).
//
// Encoding for T steps, per tree edge j (message m, sender u, receiver v):
// - its step window [lo_j, hi_j]: lo_j is j's depth in m's tree (the edge out of the origin
//   has depth 1), hi_j = T - (the longest chain of edges below j);
// - order variables b[j][s] = "j happens in step <= s" (b[j][hi_j] true, b[j][s] ->
//   b[j][s+1]), and e[j][s] <-> b[j][s] and not b[j][s-1], "j happens in step s";
// - holding (FORMATS.md rule 5): b[j][s] -> b[parent(j)][s-1], parent(j) the edge into u;
// - with several allowed paths, y[j][p][s] -> e[j][s] and e[j][s] -> some y[j][·][s];
// - at most one edge per (channel, step) (rule 3), at most k sent and k received per
//   (processor, step) (rule 4).
#include "ccsched/engines/tree_sat.hpp"

#include <algorithm>
#include <memory>
#include <cadical.hpp>
#include <deque>
#include <limits>
#include <unordered_map>

#include "ccsched/schedule/verify.hpp"
#include "cnf.hpp"

namespace ccsched {
namespace {

std::uint64_t key(MessageId m, NodeId v) {
  return (static_cast<std::uint64_t>(m) << 32) | static_cast<std::uint32_t>(v);
}

}  // namespace

std::optional<std::vector<TreeEdge>> neighbour_trees(const Problem& problem,
                                                     const PathSet& paths) {
  refuse_reductions(problem.collective, "the fixed-tree search", "sat-trees");
  const auto& t = problem.topology;
  const int n = t.node_count();
  std::vector<std::vector<NodeId>> next(n);
  std::vector<std::vector<ChannelId>> via(n);
  for (ChannelId c = 0; c < t.channel_count(); ++c) {
    const auto [a, b] = t.channel(c);
    if (!t.is_processor(a) || !t.is_processor(b)) continue;
    next[a].push_back(b);
    via[a].push_back(c);
  }
  std::vector<int> load(t.channel_count(), 0);
  std::vector<TreeEdge> edges;
  for (const auto& m : problem.collective.messages) {
    // Breadth first from the origin over processor-to-processor channels.
    std::vector<int> depth(n, -1);
    std::vector<NodeId> order{m.origin};
    depth[m.origin] = 0;
    for (std::size_t i = 0; i < order.size(); ++i)
      for (const NodeId w : next[order[i]])
        if (depth[w] < 0) {
          depth[w] = depth[order[i]] + 1;
          order.push_back(w);
        }
    for (const NodeId v : m.targets)
      if (depth[v] < 0 || depth[v] != paths.distance(m.origin, v)) return std::nullopt;
    // Parents: the least loaded channel from the previous layer.
    for (std::size_t i = 1; i < order.size(); ++i) {
      const NodeId v = order[i];
      ChannelId best = -1;
      NodeId parent = kNoNode;
      for (NodeId u = 0; u < n; ++u) {
        if (depth[u] != depth[v] - 1) continue;
        for (std::size_t k = 0; k < next[u].size(); ++k)
          if (next[u][k] == v && (best < 0 || load[via[u][k]] < load[best])) {
            best = via[u][k];
            parent = u;
          }
      }
      ++load[best];
      edges.push_back({m.id, parent, v});
    }
  }
  return edges;
}

std::vector<TreeEdge> trees_of(const Problem& problem, const Schedule& schedule) {
  const auto& messages = problem.collective.messages;
  std::unordered_map<std::uint64_t, std::pair<Step, NodeId>> first;  // (m, v) -> (step, sender)
  for (const auto& tr : schedule.transfers) {
    if (tr.messages.size() != 1 || tr.path.size() < 2) continue;
    const MessageId m = tr.messages[0];
    const NodeId v = tr.path.back();
    if (v == messages[m].origin) continue;
    auto [it, fresh] = first.emplace(key(m, v), std::pair(tr.step, tr.path.front()));
    if (!fresh && tr.step < it->second.first) it->second = {tr.step, tr.path.front()};
  }
  // Keep the receptions on the way to a target: walk up from every target.
  std::unordered_map<std::uint64_t, char> kept;
  std::vector<TreeEdge> edges;
  for (const auto& m : messages)
    for (NodeId v : m.targets) {
      while (v != m.origin && !kept.contains(key(m.id, v))) {
        const auto it = first.find(key(m.id, v));
        if (it == first.end()) break;  // not a valid schedule; the encoding will say so
        kept.emplace(key(m.id, v), 1);
        edges.push_back({m.id, it->second.second, v});
        v = it->second.second;
      }
    }
  return edges;
}

EngineResult schedule_trees(const Problem& problem, const PathSet& paths,
                            const std::vector<TreeEdge>& trees, int steps, const Budget& budget,
                            std::uint64_t seed, double max_bytes) {
  refuse_reductions(problem.collective, "the fixed-tree search", "sat-trees");
  const auto start = Budget::Clock::now();
  EngineResult result;
  result.complete = false;
  result.note = "fixed trees";
  std::unique_ptr<CaDiCaL::Solver> owned;  // handed to free_later when the run is over
  auto done = [&](SolveStatus status) {
    free_later(std::move(owned), budget);
    result.status = status;
    result.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
    return result;
  };
  const auto& messages = problem.collective.messages;
  const std::size_t J = trees.size();
  // parent[j]: the edge into j's sender (-1 from the origin); children for the heights.
  std::unordered_map<std::uint64_t, int> into;
  for (std::size_t j = 0; j < J; ++j)
    if (!into.emplace(key(trees[j].message, trees[j].receiver), static_cast<int>(j)).second)
      return done(SolveStatus::unknown);  // two edges into one node: not a tree
  std::vector<int> parent(J, -1), depth(J, 0), height(J, 0);
  std::vector<std::vector<int>> children(J);
  for (std::size_t j = 0; j < J; ++j) {
    const auto& e = trees[j];
    if (e.sender == messages[e.message].origin) continue;
    const auto it = into.find(key(e.message, e.sender));
    if (it == into.end()) return done(SolveStatus::unknown);
    parent[j] = it->second;
    children[it->second].push_back(static_cast<int>(j));
  }
  // Depths top-down and heights bottom-up over an order in which parents come first.
  std::vector<int> order;
  for (std::size_t j = 0; j < J; ++j)
    if (parent[j] < 0) order.push_back(static_cast<int>(j));
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const int c : children[order[i]]) order.push_back(c);
  if (order.size() != J) return done(SolveStatus::unknown);  // a cycle
  for (const int j : order) depth[j] = parent[j] < 0 ? 1 : depth[parent[j]] + 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (parent[*it] >= 0) height[parent[*it]] = std::max(height[parent[*it]], height[*it] + 1);
  for (std::size_t j = 0; j < J; ++j)
    if (depth[j] + height[j] > steps) return done(SolveStatus::infeasible);
  if (max_bytes > 0) {
    // Refuse before building (docs/RELIABILITY.md): per edge and step of its window two order
    // variables, one per allowed path, and a literal in each of its channels' and ports'
    // lists, each costing a counter variable and a few clauses.
    double occurrences = 0, variables = 0;
    for (std::size_t j = 0; j < J; ++j) {
      // Listing the paths fills the path set's cache (2.4 GB for the 8,184 edges of
      // torus:32x32 REDUCE --blocks 8): stop at the memory ceiling.
      if (memory_over()) {
        result.note = "memory ceiling (--max-memory) reached listing the trees' paths";
        return done(SolveStatus::unknown);
      }
      const double window = steps - height[j] - depth[j] + 1;
      const double ways = static_cast<double>(paths.paths(trees[j].sender, trees[j].receiver).size());
      const double hops = paths.distance(trees[j].sender, trees[j].receiver);
      variables += window * (2 + ways);
      occurrences += window * ways * (hops + 2);
    }
    if (sat::encoding_bytes(variables, occurrences) > max_bytes) {
      result.note = "fixed-tree encoding over --max-memory";
      return done(SolveStatus::unknown);
    }
  }

  owned = std::make_unique<CaDiCaL::Solver>();
  CaDiCaL::Solver& solver = *owned;
  solver.set("quiet", 1);
  solver.set("seed", static_cast<int>(seed % 2147483647u));
  sat::Cnf cnf(&solver);
  const auto& t = problem.topology;
  const int n = t.node_count();
  std::vector<std::vector<int>> users(static_cast<std::size_t>(steps + 1) * t.channel_count());
  std::vector<std::vector<int>> sent(static_cast<std::size_t>(steps + 1) * n),
      received(static_cast<std::size_t>(steps + 1) * n);
  std::vector<std::vector<int>> b(J), e(J);  // [j][s - lo_j]
  struct Way {
    int lit;
    int edge;
    const Path* path;
    Step step;
  };
  std::vector<Way> ways;
  for (const int j : order) {  // parents first: their b variables exist when needed
    const auto& edge = trees[j];
    const auto& candidates = paths.paths(edge.sender, edge.receiver);
    if (candidates.empty()) return done(SolveStatus::unknown);
    const int lo = depth[j], hi = steps - height[j];
    b[j].resize(hi - lo + 1);
    e[j].resize(hi - lo + 1);
    for (int s = lo; s <= hi; ++s) {
      b[j][s - lo] = cnf.new_var();
      if (s > lo) cnf.add({-b[j][s - lo - 1], b[j][s - lo]});
    }
    cnf.add({b[j][hi - lo]});
    for (int s = lo; s <= hi; ++s) {
      const int x = cnf.new_var();
      e[j][s - lo] = x;
      // x <-> b[s] and not b[s-1]
      cnf.add({-x, b[j][s - lo]});
      if (s > lo) {
        cnf.add({-x, -b[j][s - lo - 1]});
        cnf.add({x, -b[j][s - lo], b[j][s - lo - 1]});
      } else {
        cnf.add({x, -b[j][0]});
      }
      if (parent[j] >= 0) {
        // Holding: the sender received the message in a step before s.
        const int pl = depth[parent[j]];
        const int ph = steps - height[parent[j]];
        const int before = std::min(s - 1, ph);
        if (before < pl)
          cnf.add({-b[j][s - lo]});
        else
          cnf.add({-b[j][s - lo], b[parent[j]][before - pl]});
      }
      sent[static_cast<std::size_t>(s) * n + edge.sender].push_back(x);
      received[static_cast<std::size_t>(s) * n + edge.receiver].push_back(x);
      if (candidates.size() == 1) {
        ways.push_back({x, j, &candidates[0], s});
        for (const ChannelId c : candidates[0].channels)
          users[static_cast<std::size_t>(s) * t.channel_count() + c].push_back(x);
        continue;
      }
      std::vector<int> some{-x};
      for (const Path& p : candidates) {
        const int y = cnf.new_var();
        cnf.add({-y, x});
        some.push_back(y);
        ways.push_back({y, j, &p, s});
        for (const ChannelId c : p.channels)
          users[static_cast<std::size_t>(s) * t.channel_count() + c].push_back(y);
      }
      cnf.add(some);
    }
    if (budget.expired() || memory_over()) return done(SolveStatus::unknown);
  }
  if (!cnf.transfer_limits(users, sent, received, problem.model.ports, budget))
    return done(SolveStatus::unknown);
  sat::limit_conflicts(solver, budget, sat::kReferenceClauses);
  const int answer = sat::solve_detachable(owned, solver, budget);
  if (answer == 20) return done(SolveStatus::infeasible);
  if (answer != 10) {
    result.note = budget.interrupted() ? "interrupted" : "time limit reached";
    result.budget_exhausted = true;
    return done(SolveStatus::unknown);
  }
  std::vector<char> placed(J, 0);
  std::vector<Transfer> transfers;
  transfers.reserve(J);
  for (const Way& w : ways)
    if (!placed[w.edge] && solver.val(w.lit) > 0) {
      placed[w.edge] = 1;
      transfers.push_back({w.step, w.path->nodes, {trees[w.edge].message}});
    }
  result.schedule = assemble_schedule(problem, std::move(transfers), "sat-trees", seed);
  if (!verify_schedule(*result.schedule).empty()) {
    result.schedule.reset();
    result.note = "fixed-tree schedule rejected by the verifier";
    return done(SolveStatus::unknown);
  }
  return done(SolveStatus::feasible);
}

}  // namespace ccsched
