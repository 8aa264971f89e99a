// The duality between reductions and broadcasts (reduce_dual.hpp; docs/ENGINES.md,
// "Reductions: duality"): the gather as a broadcast on the reversed network run backwards,
// the ALLREDUCE composition's spread of the sums, and the root of the composition. Both
// phases are solved by solve_problem itself, which is why this lives with the driver.
#include "reduce_dual.hpp"

#include <algorithm>
#include <stdexcept>

#include "ccsched/engines/reduction.hpp"

namespace ccsched {
namespace {

// A broadcast collective for block b sent from owners[b] to `targets` (minus the owner):
// OAB or AAB when it is exactly one, so that the broadcast designs for those kinds apply;
// CUSTOM otherwise. message_block[m] is the block of message m.
Collective broadcast_collective(const Topology& t, const std::vector<NodeId>& owners,
                                const std::vector<NodeId>& targets,
                                std::vector<int>& message_block) {
  Collective c;
  message_block.clear();
  for (int b = 0; b < static_cast<int>(owners.size()); ++b) {
    Message m;
    m.id = static_cast<MessageId>(c.messages.size());
    m.origin = owners[b];
    for (NodeId v : targets)
      if (v != owners[b]) m.targets.push_back(v);
    if (m.targets.empty()) continue;
    c.messages.push_back(std::move(m));
    message_block.push_back(b);
  }
  for (const auto& m : c.messages) {
    c.senders.push_back(m.origin);
    c.receivers.insert(c.receivers.end(), m.targets.begin(), m.targets.end());
  }
  for (auto* v : {&c.senders, &c.receivers}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  const int procs = t.processor_count();
  const bool full = std::all_of(c.messages.begin(), c.messages.end(), [&](const Message& m) {
    return static_cast<int>(m.targets.size()) == procs - 1;
  });
  c.kind = CollectiveKind::CUSTOM;
  if (full && c.messages.size() == 1) c.kind = CollectiveKind::OAB;
  if (full && static_cast<int>(c.messages.size()) == procs &&
      static_cast<int>(c.senders.size()) == procs)
    c.kind = CollectiveKind::AAB;
  return c;
}

// Each (message, node) keeps its first delivery only: later ones are redundant. Returns
// the kept deliveries as (transfer index, message) pairs, parent of each node per message.
struct Tree {
  // parent[m][v]: index of the transfer that first delivered m to v, or -1
  std::vector<std::vector<int>> parent;
  std::vector<std::vector<char>> needed;  // dual: v's subtree holds a target
};
Tree first_deliveries(const Schedule& s, int nodes) {
  const int messages = static_cast<int>(s.collective.messages.size());
  Tree tree;
  tree.parent.assign(messages, std::vector<int>(nodes, -1));
  std::vector<std::vector<Step>> when(messages, std::vector<Step>(nodes, 0));
  for (int i = 0; i < static_cast<int>(s.transfers.size()); ++i) {
    const Transfer& t = s.transfers[i];
    const NodeId v = t.path.back();
    for (MessageId m : t.messages) {
      if (v == s.collective.messages[m].origin) continue;
      if (tree.parent[m][v] < 0 || t.step < when[m][v]) {
        tree.parent[m][v] = i;
        when[m][v] = t.step;
      }
    }
  }
  return tree;
}


}  // namespace

// Gather block b into owners[b] from every sender, as a broadcast on the reversed network
// run backwards: the first delivery u->v of message b along path P in step s becomes
// v->u along reversed P in step T+1-s, `reduce` at u. v sends `input` when no kept
// delivery leaves v (its accumulator is then its own input) and `acc` otherwise; nodes
// whose subtree holds no sender are pruned. Children are delivered later in the broadcast,
// so earlier in the gather: v's accumulator holds its subtree when it sends.
// The broadcast whose reversal gathers block b into owners[b] from every sender.
Problem dual_problem(const Problem& p, const std::vector<NodeId>& owners,
                     std::vector<int>& message_block) {
  Problem rev{dual_network(p.topology), {}, p.model};
  rev.collective = broadcast_collective(rev.topology, owners, p.collective.senders, message_block);
  return rev;
}

std::optional<Phase> gather_dual(const Problem& p, const std::vector<NodeId>& owners,
                                 const SolveRequest& request) {
  std::vector<int> message_block;
  const Problem rev = dual_problem(p, owners, message_block);
  if (rev.collective.messages.empty()) return std::nullopt;
  Phase phase;
  phase.outcome = solve_problem(rev, request);
  if (!phase.outcome.schedule) return std::nullopt;
  const Schedule bs = std::move(phase.outcome.schedule).release();
  phase.engine = bs.solver ? bs.solver->engine : "?";
  const int nodes = p.topology.node_count();
  Tree tree = first_deliveries(bs, nodes);
  std::vector<char> is_sender(nodes, 0);
  for (NodeId v : p.collective.senders) is_sender[v] = 1;
  const int messages = static_cast<int>(bs.collective.messages.size());
  // needed[m][v]: v (not the origin) must send message m's block up: a sender, or an
  // ancestor of one. children[m][v]: kept deliveries leave v.
  std::vector<std::vector<char>> needed(messages, std::vector<char>(nodes, 0));
  std::vector<std::vector<char>> has_child(messages, std::vector<char>(nodes, 0));
  for (int m = 0; m < messages; ++m) {
    const NodeId root = bs.collective.messages[m].origin;
    for (NodeId v = 0; v < nodes; ++v) {
      if (!is_sender[v] || v == root) continue;
      if (tree.parent[m][v] < 0) throw std::logic_error("broadcast misses a target");
      for (NodeId x = v; x != root && !needed[m][x]; x = bs.transfers[tree.parent[m][x]].path.front()) {
        needed[m][x] = 1;
        const NodeId up = bs.transfers[tree.parent[m][x]].path.front();
        has_child[m][up] = 1;
      }
    }
  }
  // One gather transfer per kept broadcast transfer, carrying the blocks it still serves.
  const int T = bs.steps;
  for (int i = 0; i < static_cast<int>(bs.transfers.size()); ++i) {
    const Transfer& t = bs.transfers[i];
    const NodeId v = t.path.back();
    Transfer g;
    bool leaf_only = true;
    for (MessageId m : t.messages)
      if (needed[m][v] && tree.parent[m][v] == i) {
        g.blocks.push_back(message_block[m]);
        leaf_only = leaf_only && !has_child[m][v] && is_sender[v];
      }
    if (g.blocks.empty()) continue;
    std::sort(g.blocks.begin(), g.blocks.end());
    g.step = T + 1 - t.step;
    g.path.assign(t.path.rbegin(), t.path.rend());
    g.send = leaf_only ? ReductionSend::input : ReductionSend::acc;
    g.recv = ReductionRecv::reduce;
    phase.transfers.push_back(std::move(g));
  }
  phase.steps = T;
  return phase;
}

// Spread block b's finished sum from owners[b] to every receiver: a broadcast on G whose
// first deliveries become `acc` -> `copy` transfers, shifted by `offset` steps.
std::optional<Phase> spread(const Problem& p, const std::vector<NodeId>& owners,
                            const SolveRequest& request, int offset) {
  Problem fwd{p.topology, {}, p.model};
  std::vector<int> message_block;
  fwd.collective = broadcast_collective(fwd.topology, owners, p.collective.receivers, message_block);
  Phase phase;
  if (fwd.collective.messages.empty()) return phase;  // nothing to spread
  phase.outcome = solve_problem(fwd, request);
  if (!phase.outcome.schedule) return std::nullopt;
  const Schedule bs = std::move(phase.outcome.schedule).release();
  phase.engine = bs.solver ? bs.solver->engine : "?";
  Tree tree = first_deliveries(bs, p.topology.node_count());
  for (int i = 0; i < static_cast<int>(bs.transfers.size()); ++i) {
    const Transfer& t = bs.transfers[i];
    Transfer g;
    for (MessageId m : t.messages)
      if (tree.parent[m][t.path.back()] == i) g.blocks.push_back(message_block[m]);
    if (g.blocks.empty()) continue;
    std::sort(g.blocks.begin(), g.blocks.end());
    g.step = offset + t.step;
    g.path = t.path;
    g.send = ReductionSend::acc;
    g.recv = ReductionRecv::copy;
    phase.transfers.push_back(std::move(g));
  }
  phase.steps = bs.steps;
  return phase;
}

// Processor with the smallest eccentricity (to and from every other processor): the root
// of the composed all-reduce, where both phases are short.
NodeId central_processor(const Problem& p, const PathSet& paths,
                         const std::vector<NodeId>& among) {
  NodeId best = among.front();
  long best_ecc = -1;
  for (NodeId r : among) {
    long ecc = 0;
    // A candidate no nearer than the best so far cannot replace it (ties keep the first):
    // stop its scan there, so that mesh:128x128 compares few of its 268 million pairs.
    for (NodeId v : among) {
      if (v != r) ecc = std::max<long>(ecc, std::max<long>(paths.distance(v, r), paths.distance(r, v)));
      if (best_ecc >= 0 && ecc >= best_ecc) break;
    }
    if (best_ecc < 0 || ecc < best_ecc) {
      best_ecc = ecc;
      best = r;
    }
  }
  (void)p;
  return best;
}

}  // namespace ccsched
