// Pipelined designs for reductions of several blocks (engines/pipelined.hpp,
// docs/ENGINES.md "Several blocks"). Every design is a set of tasks -- one transfer of one
// block each, with the transfers that must come before it -- and one list scheduler packs
// them into steps. Two kinds of precedence (FORMATS.md "Reductions": a send carries the
// accumulator as it stood at the start of its step, receives take effect at its end):
//   - strict: the predecessor's step is earlier (a reception before the send that must
//     carry it, one reception before the next into the same accumulator);
//   - weak: the predecessor's step is not later (a send before a reception into the same
//     accumulator that must not reach it: both may share a step).
#include "ccsched/engines/pipelined.hpp"

#include <algorithm>
#include <bit>
#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <optional>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

struct Task {
  int block = 0;
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  std::vector<NodeId> preferred;  // a path to try first (empty: the path list's order)
  ReductionSend send = ReductionSend::acc;
  ReductionRecv recv = ReductionRecv::reduce;
  std::vector<int> strict, weak;  // predecessors
  int group = -1;                 // tasks of one group share a step (-1: alone)
};

// Priority of the ready tasks in a step: the longest chain of tasks still behind a task
// first (critical path), or the earliest block first (the pipeline's order).
enum class Priority { critical_path, block_order };

// Packs the tasks into steps: in each step, the ready groups in priority order, each task
// of a group on the first allowed path whose channels are free, within the port limit, the
// whole group in one step or not at all (tasks with the same `group` must share a step: an
// exchange, where each end's reception may not precede the other's send). nullopt when a
// ready group fits in no empty step, the precedences form a cycle, or the budget ends.
std::optional<std::vector<Transfer>> list_schedule(const Problem& p, const PathSet& paths,
                                                   const std::vector<Task>& tasks,
                                                   Priority priority, const Budget& budget) {
  const int n = static_cast<int>(tasks.size());
  const int ports = effective_ports(p);
  // Groups: tasks[i].group ids renumbered 0..G-1 in order of first appearance.
  std::vector<int> group_of(n);
  std::vector<std::vector<int>> members;
  {
    std::map<int, int> ids;
    for (int t = 0; t < n; ++t) {
      const int key = tasks[t].group >= 0 ? tasks[t].group : -1 - t;
      auto [it, fresh] = ids.try_emplace(key, static_cast<int>(members.size()));
      if (fresh) members.emplace_back();
      group_of[t] = it->second;
      members[it->second].push_back(t);
    }
  }
  const int G = static_cast<int>(members.size());
  std::vector<std::vector<std::pair<int, bool>>> succ(G);  // (group, strict)
  std::vector<int> waiting(G, 0);
  for (int t = 0; t < n; ++t) {
    const int g = group_of[t];
    for (int q : tasks[t].strict) {
      if (group_of[q] == g) return std::nullopt;  // must precede a task of its own step
      succ[group_of[q]].push_back({g, true});
      ++waiting[g];
    }
    for (int q : tasks[t].weak)
      if (group_of[q] != g) {
        succ[group_of[q]].push_back({g, false});
        ++waiting[g];
      }
  }
  // Longest chain behind each group (strict edges count one step), in reverse topological
  // order; a cycle is a bug of the design and declines it.
  std::vector<int> level(G, 1);
  {
    std::vector<int> indeg = waiting, order;
    std::deque<int> queue;
    for (int g = 0; g < G; ++g)
      if (indeg[g] == 0) queue.push_back(g);
    while (!queue.empty()) {
      const int g = queue.front();
      queue.pop_front();
      order.push_back(g);
      for (auto [h, strict] : succ[g])
        if (--indeg[h] == 0) queue.push_back(h);
    }
    if (static_cast<int>(order.size()) != G) return std::nullopt;
    for (auto it = order.rbegin(); it != order.rend(); ++it)
      for (auto [h, strict] : succ[*it])
        level[*it] = std::max(level[*it], level[h] + (strict ? 1 : 0));
  }
  auto block = [&](int g) { return tasks[members[g].front()].block; };
  auto before = [&](int a, int b) {
    if (priority == Priority::critical_path) {
      if (level[a] != level[b]) return level[a] > level[b];
      if (block(a) != block(b)) return block(a) < block(b);
    } else {
      if (block(a) != block(b)) return block(a) < block(b);
      if (level[a] != level[b]) return level[a] > level[b];
    }
    return a < b;
  };
  std::vector<int> earliest(G, 1);  // the first step the placed predecessors allow
  std::vector<int> pending;
  for (int g = 0; g < G; ++g)
    if (waiting[g] == 0) pending.push_back(g);
  std::sort(pending.begin(), pending.end(), before);
  std::vector<char> used(p.topology.channel_count(), 0);
  std::vector<int> sends(p.topology.node_count(), 0), recvs(p.topology.node_count(), 0);
  std::vector<Transfer> out;
  out.reserve(n);
  std::vector<const Path*> chosen;
  int placed_total = 0, idle = 0;
  auto is_free = [&](const Path& path) {
    return std::none_of(path.channels.begin(), path.channels.end(),
                        [&](ChannelId c) { return used[c] != 0; });
  };
  try {
    for (int step = 1; placed_total < G; ++step) {
      if (budget.expired()) return std::nullopt;
      std::fill(used.begin(), used.end(), 0);
      std::fill(sends.begin(), sends.end(), 0);
      std::fill(recvs.begin(), recvs.end(), 0);
      // `pending` stays sorted from step to step (the groups left over keep their order);
      // only the groups freed meanwhile are sorted and merged in: sorting every ready group
      // in every step took most of the time on a torus:16x16 of 256 blocks.
      std::vector<int> kept, arrivals, late;
      bool placed_any = false;
      std::vector<int> batch = std::move(pending);
      pending.clear();
      bool first = true;
      while (!batch.empty()) {
        if (!first) std::sort(batch.begin(), batch.end(), before);
        std::vector<int>& left = first ? kept : late;
        first = false;
        for (int g : batch) {
          if (earliest[g] > step) {
            left.push_back(g);
            continue;
          }
          chosen.clear();
          bool fits = true;
          for (int t : members[g]) {
            const Task& task = tasks[t];
            const Path* path = nullptr;
            if (sends[task.from] < ports && recvs[task.to] < ports) {
              const auto& list = paths.paths(task.from, task.to);
              if (list.empty()) return std::nullopt;
              if (!task.preferred.empty())
                for (const Path& candidate : list)
                  if (candidate.nodes == task.preferred) {
                    if (is_free(candidate)) path = &candidate;
                    break;
                  }
              if (path == nullptr)
                for (const Path& candidate : list)
                  if (is_free(candidate)) {
                    path = &candidate;
                    break;
                  }
            }
            if (path == nullptr) {
              fits = false;
              break;
            }
            for (ChannelId c : path->channels) used[c] = 1;
            ++sends[task.from];
            ++recvs[task.to];
            chosen.push_back(path);
          }
          if (!fits) {  // undo the members placed so far
            for (std::size_t i = 0; i < chosen.size(); ++i) {
              for (ChannelId c : chosen[i]->channels) used[c] = 0;
              --sends[tasks[members[g][i]].from];
              --recvs[tasks[members[g][i]].to];
            }
            left.push_back(g);
            continue;
          }
          ++placed_total;
          placed_any = true;
          for (std::size_t i = 0; i < chosen.size(); ++i) {
            const Task& task = tasks[members[g][i]];
            Transfer tr;
            tr.step = step;
            tr.path = chosen[i]->nodes;
            tr.blocks = {task.block};
            tr.send = task.send;
            tr.recv = task.recv;
            out.push_back(std::move(tr));
          }
          for (auto [h, strict] : succ[g]) {
            earliest[h] = std::max(earliest[h], strict ? step + 1 : step);
            if (--waiting[h] == 0) arrivals.push_back(h);
          }
        }
        // Groups freed in this step by weak predecessors only may still share it.
        batch.clear();
        for (int h : arrivals) (earliest[h] > step ? late : batch).push_back(h);
        arrivals.clear();
      }
      std::sort(late.begin(), late.end(), before);
      pending.resize(kept.size() + late.size());
      std::merge(kept.begin(), kept.end(), late.begin(), late.end(), pending.begin(), before);
      idle = placed_any ? 0 : idle + 1;
      if (idle > 1) return std::nullopt;  // a ready group fits in no empty step
    }
  } catch (const Unsupported&) {
    return std::nullopt;  // a path list the routing module refuses to build
  }
  return out;
}

// ---- trees ----------------------------------------------------------------------------

// parent[v]: the next processor towards the root (kNoNode for the root and for nodes
// outside the tree). A reduction tree carries values child -> parent, a broadcast tree
// parent -> child.
struct BlockTrees {
  NodeId root = kNoNode;
  std::vector<NodeId> reduce_parent;
  std::vector<NodeId> broadcast_parent;  // empty: no broadcast (REDUCE, REDUCESCATTER)
};

// The tasks of one block over its trees, pruned to the subtrees that hold a sender
// (reduction) or a receiver (broadcast). false when a sender or receiver is outside.
bool add_tree_tasks(const Problem& p, int block, const BlockTrees& trees,
                    const std::vector<char>& is_sender, const std::vector<char>& is_receiver,
                    std::vector<Task>& tasks) {
  const int n = p.topology.node_count();
  auto keep = [&](const std::vector<NodeId>& parent, const std::vector<char>& wanted) {
    std::vector<char> kept(n, 0);
    for (int v = 0; v < n; ++v) {
      if (!wanted[v]) continue;
      int guard = 0;
      for (NodeId x = v; x != kNoNode && !kept[x] && guard <= n; x = parent[x], ++guard)
        kept[x] = 1;
      if (guard > n) return std::vector<char>{};  // a cycle: not a tree
    }
    return kept;
  };
  const std::vector<char> in_reduce = keep(trees.reduce_parent, is_sender);
  if (in_reduce.empty()) return false;
  for (int v = 0; v < n; ++v)
    if (is_sender[v] && v != trees.root && trees.reduce_parent[v] == kNoNode) return false;
  std::vector<int> reduce_task(n, -1);
  std::vector<std::vector<int>> into(n);
  const int base = static_cast<int>(tasks.size());
  for (int v = 0; v < n; ++v)
    if (in_reduce[v] && v != trees.root) {
      reduce_task[v] = static_cast<int>(tasks.size());
      Task t;
      t.block = block;
      t.from = v;
      t.to = trees.reduce_parent[v];
      tasks.push_back(std::move(t));
      into[trees.reduce_parent[v]].push_back(reduce_task[v]);
    }
  for (int i = base; i < static_cast<int>(tasks.size()); ++i) tasks[i].strict = into[tasks[i].from];
  if (trees.broadcast_parent.empty()) return true;
  const std::vector<char> in_bcast = keep(trees.broadcast_parent, is_receiver);
  if (in_bcast.empty()) return false;
  for (int v = 0; v < n; ++v)
    if (is_receiver[v] && v != trees.root && trees.broadcast_parent[v] == kNoNode) return false;
  // Breadth-first from the root, so that a node's copy task exists before its children's.
  std::vector<std::vector<NodeId>> children(n);
  for (int v = 0; v < n; ++v)
    if (in_bcast[v] && v != trees.root) children[trees.broadcast_parent[v]].push_back(v);
  std::vector<int> copy_task(n, -1);
  std::deque<NodeId> queue{trees.root};
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (NodeId v : children[u]) {
      Task t;
      t.block = block;
      t.from = u;
      t.to = v;
      t.recv = ReductionRecv::copy;
      // The root sends once every reduction into it has landed; any other node once its
      // copy has. The copy into v comes after v's own send up the reduction tree (which
      // the root's sum includes), so v's accumulator is not read after it is replaced.
      t.strict = u == trees.root ? into[u] : std::vector<int>{copy_task[u]};
      if (reduce_task[v] >= 0) t.weak.push_back(reduce_task[v]);
      copy_task[v] = static_cast<int>(tasks.size());
      tasks.push_back(std::move(t));
      queue.push_back(v);
    }
  }
  return true;
}

// Processor-to-processor channels: out[v] = (neighbour, channel).
using Adjacency = std::vector<std::vector<std::pair<NodeId, ChannelId>>>;
Adjacency processor_adjacency(const Topology& t, bool reverse) {
  Adjacency adj(t.node_count());
  for (ChannelId c = 0; c < t.channel_count(); ++c) {
    const Channel& ch = t.channel(c);
    if (!t.is_processor(ch.from) || !t.is_processor(ch.to)) continue;
    if (reverse)
      adj[ch.to].push_back({ch.from, c});
    else
      adj[ch.from].push_back({ch.to, c});
  }
  return adj;
}

std::vector<int> bfs(const Adjacency& adj, NodeId root) {
  std::vector<int> dist(adj.size(), -1);
  std::deque<NodeId> queue{root};
  dist[root] = 0;
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (auto [v, c] : adj[u])
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue.push_back(v);
      }
  }
  return dist;
}

// A shortest-path tree over direct channels: each node takes, among its neighbours one
// step nearer the root, the one whose channel (`towards`: v -> parent; else parent -> v)
// carries the least load so far, ties broken from a rotating start (`salt`); the load of
// the chosen channel, counted by `load_key`, grows by one.
std::vector<NodeId> balanced_tree(const Topology& t, NodeId root, bool towards, int salt,
                                  std::vector<long>& load,
                                  const std::function<int(ChannelId)>& load_key) {
  const int n = t.node_count();
  // Distances to the root (towards) or from it, over processor-to-processor channels.
  // Explores away from the root: against the channels for a reduction tree.
  const std::vector<int> dist = bfs(processor_adjacency(t, towards), root);
  const Adjacency near = processor_adjacency(t, !towards);  // v's candidate parents
  std::vector<NodeId> parent(n, kNoNode);
  std::vector<NodeId> by_distance;
  for (int v = 0; v < n; ++v)
    if (dist[v] > 0) by_distance.push_back(v);
  std::stable_sort(by_distance.begin(), by_distance.end(),
                   [&](NodeId a, NodeId b) { return dist[a] < dist[b]; });
  for (NodeId v : by_distance) {
    std::vector<std::pair<NodeId, ChannelId>> options;
    for (auto [w, c] : near[v])
      if (dist[w] == dist[v] - 1) options.push_back({w, c});
    if (options.empty()) continue;
    std::size_t best = 0;
    long best_load = -1;
    for (std::size_t k = 0; k < options.size(); ++k) {
      const std::size_t i = (k + static_cast<std::size_t>(salt)) % options.size();
      const long l = load[load_key(options[i].second)];
      if (best_load < 0 || l < best_load) {
        best_load = l;
        best = i;
      }
    }
    parent[v] = options[best].first;
    ++load[load_key(options[best].second)];
  }
  return parent;
}

// Translations of a torus, ring or hypercube named by its generated name: the map taking
// node 0 to node `to`, applied to v. Empty when the network is not one of these.
std::function<NodeId(NodeId, NodeId)> translation(const Topology& t) {
  if (!is_generated(t)) return {};
  const auto family = family_of(t);
  if (!family) return {};
  if (family->name == "hypercube") return [](NodeId v, NodeId to) { return v ^ to; };
  if (family->name != "torus" && family->name != "ring") return {};
  const std::vector<int> sides = family->sides;
  return [sides](NodeId v, NodeId to) {
    NodeId out = 0;
    long stride = 1;
    for (int d = static_cast<int>(sides.size()) - 1; d >= 0; --d) {
      const int L = sides[d];
      const int x = static_cast<int>(v / stride % L), y = static_cast<int>(to / stride % L);
      out += static_cast<NodeId>((x + y) % L * stride);
      stride *= L;
    }
    return out;
  };
}

// The class of a channel under the translations: channels one translation maps onto each
// other carry the same load in a translated design (its direction: the translation that
// takes the tail to the head, as a node id).
int channel_class(const Topology& t, ChannelId c, const std::function<NodeId(NodeId, NodeId)>& tr) {
  // The node x with tr(tail... ) : find d = head - tail as the translation image of 0.
  const Channel& ch = t.channel(c);
  for (NodeId d = 0; d < t.node_count(); ++d)
    if (tr(ch.from, d) == ch.to) return static_cast<int>(d);
  return 0;
}

struct Setting {
  std::vector<char> is_sender, is_receiver;
  std::vector<NodeId> roots;  // per block
  bool broadcast = false;
};

Setting setting_of(const Problem& p) {
  const Collective& c = p.collective;
  Setting s;
  const int n = p.topology.node_count();
  s.is_sender.assign(n, 0);
  s.is_receiver.assign(n, 0);
  for (NodeId v : c.senders) s.is_sender[v] = 1;
  for (NodeId v : c.receivers) s.is_receiver[v] = 1;
  for (int b = 0; b < c.blocks; ++b) {
    if (c.kind == CollectiveKind::REDUCE)
      s.roots.push_back(c.receivers.front());
    else
      s.roots.push_back(c.receivers[b % c.receivers.size()]);
  }
  s.broadcast = c.kind == CollectiveKind::ALLREDUCE;
  return s;
}

std::optional<Schedule> schedule_tasks(const Problem& p, const PathSet& paths,
                                       const std::vector<Task>& tasks, const Budget& budget,
                                       std::string& which) {
  std::optional<Schedule> best;
  for (Priority pr : {Priority::critical_path, Priority::block_order}) {
    auto transfers = list_schedule(p, paths, tasks, pr, budget);
    if (!transfers) continue;
    Schedule s = assemble_schedule(p, std::move(*transfers), "", 0);
    if (!best || s.steps < best->steps) {
      best = std::move(s);
      which = pr == Priority::critical_path ? "critical path first" : "blocks in order";
    }
  }
  return best;
}

// Shortest-path trees over direct channels, per block, balanced over the channels.
std::optional<Schedule> balanced_trees(const Problem& p, const PathSet& paths, const Budget& budget,
                                       std::string& which) {
  const Setting s = setting_of(p);
  const Topology& t = p.topology;
  std::vector<long> load(t.channel_count(), 0);
  auto key = [](ChannelId c) { return static_cast<int>(c); };
  std::vector<Task> tasks;
  for (int b = 0; b < p.collective.blocks; ++b) {
    if (budget.expired()) return std::nullopt;
    BlockTrees trees;
    trees.root = s.roots[b];
    trees.reduce_parent = balanced_tree(t, trees.root, true, b, load, key);
    if (s.broadcast) trees.broadcast_parent = balanced_tree(t, trees.root, false, b, load, key);
    if (!add_tree_tasks(p, b, trees, s.is_sender, s.is_receiver, tasks)) return std::nullopt;
  }
  return schedule_tasks(p, paths, tasks, budget, which);
}

// One pair of trees for root 0, balanced over the channel classes of the translations,
// translated to each block's root (block b: root b mod p). Every channel of a class then
// carries the same load: the design reaches the reduce-volume bound when the classes
// are balanced and the scheduler packs them.
std::optional<Schedule> translated_trees(const Problem& p, const PathSet& paths,
                                         const Budget& budget, std::string& which) {
  const Topology& t = p.topology;
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::ALLREDUCE && c.kind != CollectiveKind::REDUCESCATTER)
    return std::nullopt;
  if (static_cast<int>(c.senders.size()) != t.node_count() || c.senders != c.receivers)
    return std::nullopt;
  const auto tr = translation(t);
  if (!tr) return std::nullopt;
  std::vector<int> cls(t.channel_count());
  int classes = 0;
  for (ChannelId ch = 0; ch < t.channel_count(); ++ch) {
    cls[ch] = channel_class(t, ch, tr);
    classes = std::max(classes, cls[ch] + 1);
  }
  std::vector<long> load(classes, 0);
  auto key = [&](ChannelId ch) { return cls[ch]; };
  // Receivers in id order: block b's root is node b mod p, the image of 0 under b.
  BlockTrees base;
  base.root = 0;
  base.reduce_parent = balanced_tree(t, 0, true, 0, load, key);
  if (c.kind == CollectiveKind::ALLREDUCE)
    base.broadcast_parent = balanced_tree(t, 0, false, 0, load, key);
  const Setting s = setting_of(p);
  std::vector<Task> tasks;
  const int n = t.node_count();
  for (int b = 0; b < c.blocks; ++b) {
    const NodeId to = s.roots[b];
    BlockTrees trees;
    trees.root = to;
    auto move = [&](const std::vector<NodeId>& parent) {
      std::vector<NodeId> out(n, kNoNode);
      for (NodeId v = 0; v < n; ++v)
        if (parent[v] != kNoNode) out[tr(v, to)] = tr(parent[v], to);
      return out;
    };
    trees.reduce_parent = move(base.reduce_parent);
    if (!base.broadcast_parent.empty()) trees.broadcast_parent = move(base.broadcast_parent);
    if (!add_tree_tasks(p, b, trees, s.is_sender, s.is_receiver, tasks)) return std::nullopt;
  }
  return schedule_tasks(p, paths, tasks, budget, which);
}

// The lockstep form of the translated trees, for B a multiple of p: the trees of root 0
// are scheduled once as a *template* in which every step holds at most one transfer per
// channel class (and at most k transfers under k ports); block b is the template moved by
// the translation to its root, in round b / p. A template transfer of class c moved by
// every translation uses each channel of class c exactly once, and gives each processor
// one send and one reception, so the p moved copies of a template step are free of
// conflicts and the design takes (B / p) times the template's steps. Trees from several
// tie-breaking starts (salts) are tried; the shortest template is kept.
std::optional<Schedule> translated_lockstep(const Problem& p, const Budget& budget,
                                            std::string& which) {
  const Topology& t = p.topology;
  const Collective& c = p.collective;
  const int n = t.node_count();
  if (c.kind != CollectiveKind::ALLREDUCE && c.kind != CollectiveKind::REDUCESCATTER)
    return std::nullopt;
  if (static_cast<int>(c.senders.size()) != n || c.senders != c.receivers || c.blocks % n != 0)
    return std::nullopt;
  const auto tr = translation(t);
  if (!tr) return std::nullopt;
  std::vector<int> cls(t.channel_count());
  int classes = 0;
  for (ChannelId ch = 0; ch < t.channel_count(); ++ch) {
    cls[ch] = channel_class(t, ch, tr);
    classes = std::max(classes, cls[ch] + 1);
  }
  // Two channels of one class out of a node (a torus side of 2) would break the argument.
  for (NodeId v = 0; v < n; ++v) {
    std::vector<char> seen(classes, 0);
    for (ChannelId ch : t.out_channels(v))
      if (seen[cls[ch]]++) return std::nullopt;
  }
  const int ports = effective_ports(p);
  const Setting s = setting_of(p);
  struct Template {
    std::vector<Task> tasks;
    std::vector<int> step;
    int steps = 0;
  };
  std::optional<Template> best;
  auto channel_between = [&](NodeId a, NodeId b) -> std::optional<ChannelId> {
    for (ChannelId ch : t.out_channels(a))
      if (t.channel(ch).to == b) return ch;
    return std::nullopt;
  };
  for (int salt = 0; salt < 64 && !budget.expired(); ++salt) {
    // Each phase balanced on its own: the template packs the reduction, then the
    // broadcast, each into as few steps as its busiest class allows.
    std::vector<long> load(classes, 0), load2(classes, 0);
    auto key = [&](ChannelId ch) { return cls[ch]; };
    BlockTrees base;
    base.root = 0;
    base.reduce_parent = balanced_tree(t, 0, true, salt, load, key);
    if (c.kind == CollectiveKind::ALLREDUCE)
      base.broadcast_parent = balanced_tree(t, 0, false, salt / 8, load2, key);
    Template tp;
    if (!add_tree_tasks(p, 0, base, s.is_sender, s.is_receiver, tp.tasks)) return std::nullopt;
    const int m = static_cast<int>(tp.tasks.size());
    std::vector<int> task_class(m), level(m, 1);
    for (int i = 0; i < m; ++i) {
      const auto ch = channel_between(tp.tasks[i].from, tp.tasks[i].to);
      if (!ch) return std::nullopt;
      task_class[i] = cls[*ch];
    }
    // Tasks are listed so that predecessors come first (add_tree_tasks): levels backwards.
    std::vector<std::vector<int>> succ(m);
    for (int i = 0; i < m; ++i)
      for (int q : tp.tasks[i].strict) succ[q].push_back(i);
    for (int i = m - 1; i >= 0; --i)
      for (int j : succ[i]) level[i] = std::max(level[i], level[j] + 1);
    tp.step.assign(m, 0);
    int placed = 0;
    for (int step = 1; placed < m; ++step) {
      std::vector<int> ready;
      for (int i = 0; i < m; ++i)
        if (tp.step[i] == 0 &&
            std::all_of(tp.tasks[i].strict.begin(), tp.tasks[i].strict.end(),
                        [&](int q) { return tp.step[q] != 0 && tp.step[q] < step; }))
          ready.push_back(i);
      std::stable_sort(ready.begin(), ready.end(), [&](int a, int b) {
        if (level[a] != level[b]) return level[a] > level[b];
        return (a + salt) % m < (b + salt) % m;
      });
      std::vector<char> busy(classes, 0);
      int taken = 0;
      for (int i : ready) {
        if (taken >= ports || busy[task_class[i]]) continue;
        busy[task_class[i]] = 1;
        ++taken;
        tp.step[i] = step;
        ++placed;
      }
      tp.steps = step;
      if (taken == 0) return std::nullopt;  // cannot happen: a ready task always fits
    }
    if (!best || tp.steps < best->steps) best = std::move(tp);
  }
  if (!best) return std::nullopt;
  std::vector<Transfer> out;
  for (int b = 0; b < c.blocks; ++b) {
    const NodeId to = s.roots[b];
    const int round = b / n;
    for (std::size_t i = 0; i < best->tasks.size(); ++i) {
      const Task& task = best->tasks[i];
      Transfer x;
      x.step = round * best->steps + best->step[i];
      x.path = {tr(task.from, to), tr(task.to, to)};
      x.blocks = {b};
      x.send = task.send;
      x.recv = task.recv;
      out.push_back(std::move(x));
    }
  }
  which = "lockstep";
  Schedule sched = assemble_schedule(p, std::move(out), "", 0);
  // The argument above needs the generated network exactly; a schedule it would break
  // is not offered (docs/ENGINES.md, "Several blocks").
  std::size_t violations = 0;
  if (!verify_schedule(sched, 1, violations).empty()) return std::nullopt;
  return sched;
}

// Rabenseifner (Thakur, Rabenseifner and Gropp, "Optimization of collective communication
// operations in MPICH", IJHPCA 2005): reduce-scatter by recursive halving, all-gather by
// recursive doubling, over a power-of-two number of participants in id order. Block b's
// reduction tree and broadcast tree are the same binomial tree: position i's parent is i
// with the highest bit where i and b differ flipped (halving sends the far half first;
// doubling returns it last).
std::optional<Schedule> rabenseifner(const Problem& p, const PathSet& paths, const Budget& budget,
                                     std::string& which) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::ALLREDUCE && c.kind != CollectiveKind::REDUCESCATTER)
    return std::nullopt;
  const int m = static_cast<int>(c.senders.size());
  if (c.senders != c.receivers || !std::has_single_bit(static_cast<unsigned>(m)))
    return std::nullopt;
  const Setting s = setting_of(p);
  const int n = p.topology.node_count();
  std::vector<Task> tasks;
  for (int b = 0; b < c.blocks; ++b) {
    const int root = b % m;
    std::vector<NodeId> parent(n, kNoNode);
    for (int i = 0; i < m; ++i)
      if (i != root)
        parent[c.senders[i]] = c.senders[i ^ std::bit_floor(static_cast<unsigned>(i ^ root))];
    BlockTrees trees;
    trees.root = c.senders[root];
    trees.reduce_parent = parent;
    if (s.broadcast) trees.broadcast_parent = parent;
    if (!add_tree_tasks(p, b, trees, s.is_sender, s.is_receiver, tasks)) return std::nullopt;
  }
  return schedule_tasks(p, paths, tasks, budget, which);
}

// B copies of a one-block schedule, block b's transfers keeping, at every processor, the
// order the one-block schedule gives its accumulator: a send after the receptions of
// earlier steps (strict) and not after those of its own or later steps (weak); a
// reception after the receptions of earlier steps (strict).
std::optional<Schedule> pipelined_copies(const Problem& p, const PathSet& paths,
                                         const Schedule& one, const Budget& budget,
                                         std::string& which) {
  const Collective& c = p.collective;
  if (c.kind == CollectiveKind::REDUCESCATTER || one.collective.blocks != 1) return std::nullopt;
  for (const Transfer& t : one.transfers)
    if (t.blocks.size() != 1) return std::nullopt;
  const int n = p.topology.node_count();
  std::vector<Task> tasks;
  const int m = static_cast<int>(one.transfers.size());
  // Per node: its transfers in, and out, by step.
  std::vector<std::vector<int>> in(n), out(n);
  for (int i = 0; i < m; ++i) {
    out[one.transfers[i].path.front()].push_back(i);
    in[one.transfers[i].path.back()].push_back(i);
  }
  // Transfers of one step joined by weak precedences both ways (an exchange u <-> v: each
  // end's reception may not precede its own send) form one group, placed in one step.
  std::vector<int> root(m);
  std::iota(root.begin(), root.end(), 0);
  std::function<int(int)> find = [&](int i) { return root[i] == i ? i : root[i] = find(root[i]); };
  for (int i = 0; i < m; ++i)
    for (int j : out[one.transfers[i].path.back()])
      if (one.transfers[j].step == one.transfers[i].step) root[find(i)] = find(j);
  tasks.reserve(static_cast<std::size_t>(m) * c.blocks);
  for (int b = 0; b < c.blocks; ++b) {
    const int base = b * m;
    for (int i = 0; i < m; ++i) {
      const Transfer& tr = one.transfers[i];
      Task t;
      t.block = b;
      t.from = tr.path.front();
      t.to = tr.path.back();
      t.preferred = tr.path;
      t.send = tr.send;
      t.recv = tr.recv;
      t.group = base + find(i);
      for (int j : in[t.from])
        if (one.transfers[j].step < tr.step) t.strict.push_back(base + j);
      for (int j : in[t.to])
        if (one.transfers[j].step < tr.step) t.strict.push_back(base + j);
      for (int j : out[t.to])
        if (one.transfers[j].step <= tr.step) t.weak.push_back(base + j);
      tasks.push_back(std::move(t));
    }
  }
  return schedule_tasks(p, paths, tasks, budget, which);
}

}  // namespace

Problem with_one_block(const Problem& problem) {
  Problem one = problem;
  if (one.collective.kind != CollectiveKind::REDUCESCATTER) one.collective.blocks = 1;
  return one;
}

std::vector<ReductionCandidate> pipelined_designs(const Problem& problem, const PathSet& paths,
                                                  const std::vector<ReductionCandidate>& one_block,
                                                  const Budget& budget) {
  std::vector<ReductionCandidate> out;
  const Collective& c = problem.collective;
  if (!is_reduction(c) || c.blocks < 2 || problem.model.combining) return out;
  auto add = [&](std::optional<Schedule> s, const std::string& name, const std::string& which) {
    if (s && !budget.expired()) out.push_back({name + " (" + which + ")", std::move(*s)});
  };
  std::string which;
  if (c.kind != CollectiveKind::SCAN) {
    // The lockstep form, where it applies, packs the same trees at least as tightly as the
    // list scheduler does on the tori and hypercubes measured (docs/BENCHMARKS.md), in a
    // fraction of the time: the list-scheduled form runs only without it.
    const std::size_t before = out.size();
    add(translated_lockstep(problem, budget, which), "pipelined trees, translated", which);
    if (out.size() == before)
      add(translated_trees(problem, paths, budget, which), "pipelined trees, translated", which);
    add(balanced_trees(problem, paths, budget, which), "pipelined trees, balanced", which);
    add(rabenseifner(problem, paths, budget, which), "rabenseifner", which);
  }
  // One-block designs carry every input further than the trees do (recursive doubling:
  // p log p receptions per block, against 2(p - 1)), so they pipeline well only for a few
  // blocks; past 20,000 tasks they are left out (docs/ENGINES.md, "Several blocks").
  for (const auto& d : one_block)
    if (d.schedule.transfers.size() * static_cast<std::size_t>(c.blocks) <= 20'000)
      add(pipelined_copies(problem, paths, d.schedule, budget, which), "pipelined " + d.design,
          which);
  return out;
}

}  // namespace ccsched
