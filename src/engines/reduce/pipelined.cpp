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
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched {
namespace {

// Expansions the SCAN interval search may spend (interval_scan): ring:8 1-port with two
// blocks spends 1.1·10^4 to find 7 steps and 4.2·10^5 more to find 6; 5 is not found
// within 2·10^7.
constexpr long long kIntervalWork = 2'000'000;

struct Task {
  int block = 0;
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  std::vector<NodeId> preferred;  // a path to try first (empty: the path list's order)
  ReductionSend send = ReductionSend::acc;
  ReductionRecv recv = ReductionRecv::reduce;
  std::vector<int> strict, weak;  // predecessors
  int group = -1;                 // tasks of one group share a step (-1: alone)
  MessageId message = -1;         // AAB: the message carried (`block` orders the pipeline)
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
  // A million tasks take seconds to set up: none of it once the budget is spent, and the
  // loops below look at it every 4,096 tasks.
  if (budget.expired()) return std::nullopt;
  // Groups: tasks[i].group ids renumbered 0..G-1 in order of first appearance.
  std::vector<int> group_of(n);
  std::vector<std::vector<int>> members;
  {
    std::map<int, int> ids;
    for (int t = 0; t < n; ++t) {
      if ((t & 4095) == 0 && budget.expired()) return std::nullopt;
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
    if ((t & 4095) == 0 && budget.expired()) return std::nullopt;
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
  std::int64_t looked = 0;  // groups looked at: a step of a million groups takes a while
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
          if ((++looked & 4095) == 0 && budget.expired()) return std::nullopt;
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
            if (task.message >= 0) {
              tr.messages = {task.message};
            } else {
              tr.blocks = {task.block};
              tr.send = task.send;
              tr.recv = task.recv;
            }
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

// Every channel's class, and their number in `classes`.
std::vector<int> channel_classes(const Topology& t,
                                 const std::function<NodeId(NodeId, NodeId)>& tr, int& classes) {
  std::vector<int> cls(t.channel_count());
  classes = 0;
  for (ChannelId ch = 0; ch < t.channel_count(); ++ch) {
    cls[ch] = channel_class(t, ch, tr);
    classes = std::max(classes, cls[ch] + 1);
  }
  return cls;
}

// False when two channels of one class leave a node (a torus side of 2): the lockstep
// argument needs one.
bool one_channel_per_class(const Topology& t, const std::vector<int>& cls, int classes) {
  for (NodeId v = 0; v < t.node_count(); ++v) {
    std::vector<char> seen(classes, 0);
    for (ChannelId ch : t.out_channels(v))
      if (seen[cls[ch]]++) return false;
  }
  return true;
}

// The translation and channel classes the lockstep designs move one template with, or
// nothing when the network has no translation or two channels of one class leave a node.
struct Lockstep {
  std::function<NodeId(NodeId, NodeId)> tr;
  std::vector<int> cls;
  int classes = 0;
};
std::optional<Lockstep> lockstep_classes(const Topology& t) {
  Lockstep l;
  l.tr = translation(t);
  if (!l.tr) return std::nullopt;
  l.cls = channel_classes(t, l.tr, l.classes);
  if (!one_channel_per_class(t, l.cls, l.classes)) return std::nullopt;
  return l;
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
    if (budget.expired()) break;
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
  int classes = 0;
  const std::vector<int> cls = channel_classes(t, tr, classes);
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
  // Two channels of one class out of a node (a torus side of 2) would break the argument.
  const auto lockstep = lockstep_classes(t);
  if (!lockstep) return std::nullopt;
  const auto& tr = lockstep->tr;
  const auto& cls = lockstep->cls;
  const int classes = lockstep->classes;
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


// ---- SCAN: interval search ---------------------------------------------------------------

// SCAN of a few blocks on a small network by a depth-first search over *interval*
// schedules: sender j's accumulator of block b always holds the inputs lo..j of the
// prefix order (it starts at j..j), and it grows only by reducing the accumulator of
// sender lo − 1, sent as it stands (acc, reduce): lo becomes that sender's lo. Every
// prefix network has this form (the chain, Hillis–Steele, Brent–Kung, Ladner–Fischer), and
// so does the pipelining of any of them, but the search also mixes them, block against
// block, around the ports and channels the other blocks use. Step counts from
// `max_steps` downwards, each one a search with a memo of the (state, step) pairs that
// failed, until one fails, reaches `min_steps` or the `work` expansions run out. ring:8
// 1-port with 2 blocks: 6 steps (the pipelined designs: 8), docs/ENGINES.md "Several
// blocks".
std::optional<Schedule> interval_scan(const Problem& p, const PathSet& paths, int min_steps,
                                      int max_steps, long long work, const Budget& budget) {
  const Collective& c = p.collective;
  const int m = static_cast<int>(c.senders.size());
  const int B = c.blocks;
  if (c.kind != CollectiveKind::SCAN || m > 12 || B > 4 || m * B > 32) return std::nullopt;
  const int ports = effective_ports(p);
  const Topology& t = p.topology;
  // Up to two paths per ordered pair of senders (both ways round a ring).
  std::vector<std::vector<const Path*>> route(m * m);
  try {
    for (int u = 0; u < m; ++u)
      for (int v = u + 1; v < m; ++v) {
        const auto& list = paths.paths(c.senders[u], c.senders[v]);
        for (std::size_t i = 0; i < list.size() && i < 2; ++i) route[u * m + v].push_back(&list[i]);
      }
  } catch (const Unsupported&) {
    return std::nullopt;
  }
  struct Move {
    int block, u, v;
    const Path* path;
  };
  std::vector<signed char> lo(static_cast<std::size_t>(B) * m);
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < m; ++j) lo[b * m + j] = static_cast<signed char>(j);
  std::vector<std::vector<Move>> chosen;  // per step
  std::unordered_set<std::string> failed;
  std::vector<int> sends(t.node_count(), 0), recvs(t.node_count(), 0);
  std::vector<char> used(t.channel_count(), 0);
  long long spent = 0;
  bool out_of_work = false;
  int T = 0;
  std::function<bool(int)> step_search;
  // Every set of candidates that fits in one step together (ports, channels, one transfer
  // per accumulator), into `sets`.
  std::function<void(const std::vector<Move>&, std::size_t, std::vector<int>&,
                     std::vector<std::vector<int>>&)>
      collect = [&](const std::vector<Move>& cand, std::size_t i, std::vector<int>& taken,
                    std::vector<std::vector<int>>& sets) {
        if (i == cand.size()) {
          if (!taken.empty()) sets.push_back(taken);
          return;
        }
        const Move& mv = cand[i];
        const NodeId from = c.senders[mv.u], to = c.senders[mv.v];
        if (sends[from] < ports && recvs[to] < ports &&
            std::none_of(mv.path->channels.begin(), mv.path->channels.end(),
                         [&](ChannelId ch) { return used[ch] != 0; })) {
          ++sends[from];
          ++recvs[to];
          for (ChannelId ch : mv.path->channels) used[ch] = 1;
          taken.push_back(static_cast<int>(i));
          // The other path of the same transfer is skipped once this one is taken.
          std::size_t next = i + 1;
          while (next < cand.size() && cand[next].block == mv.block && cand[next].v == mv.v)
            ++next;
          collect(cand, next, taken, sets);
          taken.pop_back();
          for (ChannelId ch : mv.path->channels) used[ch] = 0;
          --sends[from];
          --recvs[to];
        }
        collect(cand, i + 1, taken, sets);
      };
  step_search = [&](int s) -> bool {
    // s: the step about to be chosen (1-based); done when every lo is 0.
    if (std::all_of(lo.begin(), lo.end(), [](signed char x) { return x == 0; })) return true;
    if (s > T || out_of_work) return false;
    // Each sender must still receive once per unfinished block, at most `cap` per step.
    for (int j = 1; j < m; ++j) {
      int left = 0;
      for (int b = 0; b < B; ++b) left += lo[b * m + j] > 0;
      const int cap = std::min<int>(ports, static_cast<int>(t.in_channels(c.senders[j]).size()));
      if (cap == 0 || left > (T - s + 1) * cap) return false;
    }
    std::string key(lo.begin(), lo.end());
    key.push_back(static_cast<char>(s));
    if (failed.contains(key)) return false;
    std::vector<Move> cand;
    for (int b = 0; b < B; ++b)
      for (int v = 1; v < m; ++v)
        if (const int l = lo[b * m + v]; l > 0)
          for (const Path* path : route[(l - 1) * m + v]) cand.push_back({b, l - 1, v, path});
    std::vector<std::vector<int>> sets;
    std::vector<int> taken;
    collect(cand, 0, taken, sets);
    // The fullest steps first (the search finds its schedules there).
    std::stable_sort(sets.begin(), sets.end(),
                     [](const auto& x, const auto& y) { return x.size() > y.size(); });
    for (const auto& set : sets) {
      if (++spent > work || ((spent & 1023) == 0 && budget.expired())) {
        out_of_work = true;
        return false;
      }
      std::vector<signed char> before = lo;
      std::vector<Move> moves;
      for (int i : set) {
        lo[cand[i].block * m + cand[i].v] = before[cand[i].block * m + cand[i].u];
        moves.push_back(cand[i]);
      }
      chosen.push_back(std::move(moves));
      if (step_search(s + 1)) return true;
      chosen.pop_back();
      lo = std::move(before);
    }
    if (!out_of_work) failed.insert(std::move(key));
    return false;
  };
  // Downwards from max_steps: each success is kept, the first failure (or the end of the
  // work) stops; the easy step counts come first.
  std::optional<Schedule> found;
  for (T = max_steps; T >= std::max(1, min_steps) && !out_of_work; --T) {
    failed.clear();
    chosen.clear();
    lo.assign(lo.size(), 0);
    for (int b = 0; b < B; ++b)
      for (int j = 0; j < m; ++j) lo[b * m + j] = static_cast<signed char>(j);
    if (!step_search(1)) break;
    std::vector<Transfer> out;
    for (std::size_t s = 0; s < chosen.size(); ++s)
      for (const Move& mv : chosen[s]) {
        Transfer x;
        x.step = static_cast<Step>(s + 1);
        x.path = mv.path->nodes;
        x.blocks = {mv.block};
        x.send = ReductionSend::acc;
        x.recv = ReductionRecv::reduce;
        out.push_back(std::move(x));
      }
    found = assemble_schedule(p, std::move(out), "", 0);
    T = std::min(T, found->steps);  // the next round asks for one step fewer than this
  }
  return found;
}

// ---- all-gather of several blocks (AAB --blocks) --------------------------------------

// The messages of an AAB of B blocks: msg[i][b] is block b of processor i (index in the
// processors' order), every message to every other processor. Nothing when the problem
// is not of that shape.
struct GatherLayout {
  std::vector<NodeId> procs;
  std::vector<std::vector<MessageId>> msg;
};

std::optional<GatherLayout> gather_layout(const Problem& p) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::AAB || c.blocks < 2 || p.model.combining ||
      p.model.switching != Switching::wormhole)
    return std::nullopt;
  const Topology& t = p.topology;
  GatherLayout l;
  l.procs.assign(t.processors().begin(), t.processors().end());
  const std::size_t P = l.procs.size();
  std::vector<int> index(t.node_count(), -1);
  for (std::size_t i = 0; i < P; ++i) index[l.procs[i]] = static_cast<int>(i);
  l.msg.resize(P);
  for (const Message& m : c.messages) {
    if (m.origin < 0 || m.origin >= t.node_count() || index[m.origin] < 0 ||
        m.targets.size() != P - 1)
      return std::nullopt;
    l.msg[index[m.origin]].push_back(m.id);
  }
  for (const auto& mine : l.msg)
    if (static_cast<int>(mine.size()) != c.blocks) return std::nullopt;
  return l;
}

// A tree edge of one message: `parent` is the edge that brings the message to `from`
// (-1 at its origin); edges are listed parents first.
struct TreeEdge {
  MessageId message = 0;
  int block = 0;
  ChannelId channel = 0;
  int parent = -1;
};

// Packs single-hop tree edges into steps with one ready queue per channel: in each step
// every channel (in a rotating order, within the ports) sends its ready edge whose chain
// of edges still behind is longest, earlier blocks first on ties; an edge is ready from
// the step after its parent's. All-port, the channels never wait for one another, so the
// work is O(E log E) plus one pass over the channels per step: a torus:32x32 of 4 blocks
// (4 million edges) takes seconds, where the general list scheduler would take minutes.
std::optional<std::vector<Transfer>> channel_queue_schedule(const Problem& p,
                                                            const std::vector<TreeEdge>& edges,
                                                            const Budget& budget) {
  const Topology& t = p.topology;
  const int E = static_cast<int>(edges.size());
  const int ports = effective_ports(p);
  std::vector<int> height(E, 1);
  std::vector<int> first_child(E, -1), next_sibling(E, -1);
  for (int e = E - 1; e >= 0; --e) {
    const int q = edges[e].parent;
    if (q < 0) continue;
    if (q >= e) return std::nullopt;  // parents must come first
    height[q] = std::max(height[q], height[e] + 1);
    next_sibling[e] = first_child[q];
    first_child[q] = e;
  }
  using Key = std::tuple<int, int, int>;  // (-height, block, edge)
  std::vector<std::vector<Key>> ready(t.channel_count());
  auto push = [&](int e) {
    auto& h = ready[edges[e].channel];
    h.push_back({-height[e], edges[e].block, e});
    std::push_heap(h.begin(), h.end(), std::greater<>());
  };
  for (int e = 0; e < E; ++e)
    if (edges[e].parent < 0) push(e);
  std::vector<Transfer> out;
  out.reserve(E);
  std::vector<int> sends(t.node_count(), 0), recvs(t.node_count(), 0), freed;
  const int C = t.channel_count();
  for (int step = 1, start = 0; static_cast<int>(out.size()) < E; ++step, ++start) {
    if ((step & 63) == 0 && budget.expired()) return std::nullopt;
    if (ports < std::numeric_limits<int>::max()) {
      std::fill(sends.begin(), sends.end(), 0);
      std::fill(recvs.begin(), recvs.end(), 0);
    }
    freed.clear();
    for (int i = 0; i < C; ++i) {
      const ChannelId c = (start + i) % C;
      auto& h = ready[c];
      if (h.empty()) continue;
      const Channel& ch = t.channel(c);
      if (sends[ch.from] >= ports || recvs[ch.to] >= ports) continue;
      ++sends[ch.from];
      ++recvs[ch.to];
      std::pop_heap(h.begin(), h.end(), std::greater<>());
      const int e = std::get<2>(h.back());
      h.pop_back();
      Transfer tr;
      tr.step = step;
      tr.path = {ch.from, ch.to};
      tr.messages = {edges[e].message};
      out.push_back(std::move(tr));
      for (int k = first_child[e]; k >= 0; k = next_sibling[k]) freed.push_back(k);
    }
    if (freed.empty() && std::all_of(ready.begin(), ready.end(),
                                     [](const auto& h) { return h.empty(); }) &&
        static_cast<int>(out.size()) < E)
      return std::nullopt;  // cannot happen: every edge's parent is placed
    for (int e : freed) push(e);
  }
  return out;
}

// The channel from a to b with the least load so far (parallel channels take turns).
std::optional<ChannelId> lightest_channel(const Topology& t, NodeId a, NodeId b,
                                          const std::vector<long>& load) {
  std::optional<ChannelId> best;
  for (ChannelId c : t.out_channels(a))
    if (t.channel(c).to == b && (!best || load[c] < load[*best])) best = c;
  return best;
}

// Per message a shortest-path broadcast tree from its origin over direct channels,
// balanced over the channels across all messages (balanced_tree), packed by the channel
// queues. Applies wherever every processor reaches every other over processor-to-processor
// channels (rings, meshes, tori, hypercubes, Kautz and de Bruijn digraphs, ...).
std::optional<Schedule> gather_trees(const Problem& p, const GatherLayout& l,
                                     const Budget& budget) {
  const Topology& t = p.topology;
  const int B = p.collective.blocks;
  std::vector<long> load(t.channel_count(), 0);
  auto key = [](ChannelId c) { return static_cast<int>(c); };
  std::vector<TreeEdge> edges;
  edges.reserve(l.procs.size() * (l.procs.size() - 1) * B);
  const int n = t.node_count();
  for (int b = 0; b < B; ++b)
    for (std::size_t i = 0; i < l.procs.size(); ++i) {
      if (budget.expired()) return std::nullopt;
      const NodeId root = l.procs[i];
      const std::vector<NodeId> parent = balanced_tree(t, root, false, b, load, key);
      // Breadth-first from the root, so that parents come first.
      std::vector<std::vector<NodeId>> children(n);
      for (NodeId v = 0; v < n; ++v)
        if (parent[v] != kNoNode) children[parent[v]].push_back(v);
      std::vector<int> edge_into(n, -1);
      std::deque<NodeId> queue{root};
      std::size_t reached = 1;
      while (!queue.empty()) {
        const NodeId u = queue.front();
        queue.pop_front();
        for (NodeId v : children[u]) {
          const auto c = lightest_channel(t, u, v, load);
          if (!c) return std::nullopt;
          edge_into[v] = static_cast<int>(edges.size());
          edges.push_back({l.msg[i][b], b, *c, edge_into[u]});
          ++reached;
          queue.push_back(v);
        }
      }
      if (reached != l.procs.size()) return std::nullopt;  // switches, or unreachable
    }
  auto transfers = channel_queue_schedule(p, edges, budget);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "", 0);
}

// The lockstep form on tori, rings and hypercubes (as translated_lockstep for the
// reductions): B broadcast trees from node 0, balanced over the channel classes, are
// scheduled once as a template in which every step holds at most one edge per class and
// at most k edges; the template moved to every origin o by the translation carries o's B
// messages. A template edge of class c moved by the p translations uses every channel of
// class c once and gives each processor one send and one reception, so the moved copies of
// a template step do not conflict, and the design takes the template's steps: about
// B(p−1)/(classes) when the classes are balanced, the receive-volume bound (docs/BOUNDS.md).
std::optional<Schedule> gather_lockstep(const Problem& p, const GatherLayout& l,
                                        const Budget& budget) {
  const Topology& t = p.topology;
  const int n = t.node_count();
  const int B = p.collective.blocks;
  if (static_cast<int>(l.procs.size()) != n) return std::nullopt;
  const auto lockstep = lockstep_classes(t);
  if (!lockstep) return std::nullopt;
  const auto& tr = lockstep->tr;
  const auto& cls = lockstep->cls;
  const int classes = lockstep->classes;
  const int ports = effective_ports(p);
  struct Template {
    std::vector<TreeEdge> edges;  // channel: of the tree from 0
    std::vector<int> step;
    int steps = 0;
  };
  std::optional<Template> best;
  auto key = [&](ChannelId ch) { return cls[ch]; };
  for (int salt = 0; salt < 8 && !budget.expired(); ++salt) {
    Template tp;
    std::vector<long> load(classes, 0);
    for (int b = 0; b < B; ++b) {
      const std::vector<NodeId> parent = balanced_tree(t, 0, false, salt + b, load, key);
      std::vector<std::vector<NodeId>> children(n);
      for (NodeId v = 0; v < n; ++v)
        if (parent[v] != kNoNode) children[parent[v]].push_back(v);
      std::vector<int> edge_into(n, -1);
      std::deque<NodeId> queue{0};
      int reached = 1;
      while (!queue.empty()) {
        const NodeId u = queue.front();
        queue.pop_front();
        for (NodeId v : children[u]) {
          std::optional<ChannelId> c;
          for (ChannelId ch : t.out_channels(u))
            if (t.channel(ch).to == v) c = ch;
          if (!c) return std::nullopt;
          edge_into[v] = static_cast<int>(tp.edges.size());
          tp.edges.push_back({b, b, *c, edge_into[u]});
          ++reached;
          queue.push_back(v);
        }
      }
      if (reached != n) return std::nullopt;
    }
    // Levels (the chain behind each edge), then steps: the ready edges by level, then
    // block, at most one per class and `ports` per step.
    const int m = static_cast<int>(tp.edges.size());
    std::vector<int> level(m, 1);
    for (int e = m - 1; e >= 0; --e)
      if (tp.edges[e].parent >= 0)
        level[tp.edges[e].parent] = std::max(level[tp.edges[e].parent], level[e] + 1);
    using Key = std::tuple<int, int, int>;
    std::vector<std::vector<Key>> ready(classes);
    std::vector<std::vector<int>> kids(m);
    for (int e = 0; e < m; ++e)
      if (tp.edges[e].parent >= 0) kids[tp.edges[e].parent].push_back(e);
    auto push = [&](int e) {
      auto& h = ready[cls[tp.edges[e].channel]];
      h.push_back({-level[e], tp.edges[e].block, e});
      std::push_heap(h.begin(), h.end(), std::greater<>());
    };
    for (int e = 0; e < m; ++e)
      if (tp.edges[e].parent < 0) push(e);
    tp.step.assign(m, 0);
    int placed = 0;
    std::vector<int> freed, order(classes);
    for (int step = 1; placed < m; ++step) {
      if (best && step >= best->steps) break;
      freed.clear();
      // The classes whose best ready edge has the longest chain first (k-port).
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (ready[a].empty() || ready[b].empty()) return !ready[a].empty() && ready[b].empty();
        return ready[a].front() < ready[b].front();
      });
      int taken = 0;
      for (int c : order) {
        if (taken >= ports || ready[c].empty()) break;
        std::pop_heap(ready[c].begin(), ready[c].end(), std::greater<>());
        const int e = std::get<2>(ready[c].back());
        ready[c].pop_back();
        tp.step[e] = step;
        ++placed;
        ++taken;
        for (int k : kids[e]) freed.push_back(k);
      }
      for (int e : freed) push(e);
      tp.steps = step;
      if (taken == 0) return std::nullopt;  // cannot happen: the roots' edges are ready
    }
    if (placed == m && (!best || tp.steps < best->steps)) best = std::move(tp);
  }
  if (!best) return std::nullopt;
  std::vector<Transfer> out;
  out.reserve(static_cast<std::size_t>(n) * best->edges.size());
  for (NodeId o = 0; o < n; ++o)
    for (std::size_t i = 0; i < best->edges.size(); ++i) {
      const Channel& ch = t.channel(best->edges[i].channel);
      Transfer x;
      x.step = best->step[i];
      x.path = {tr(ch.from, o), tr(ch.to, o)};
      x.messages = {l.msg[o][best->edges[i].block]};
      out.push_back(std::move(x));
    }
  Schedule sched = assemble_schedule(p, std::move(out), "", 0);
  std::size_t violations = 0;
  if (!verify_schedule(sched, 1, violations).empty()) return std::nullopt;
  return sched;
}

// B copies of a one-block AAB schedule, copy b carrying every processor's block b: a
// transfer of a message after the transfer that brought it to its sender (strict), packed
// by the list scheduler; past 200,000 tasks, the copies one after the other (B times the
// one-block steps), which needs no packing at all.
std::optional<Schedule> gather_copies(const Problem& p, const PathSet& paths,
                                      const GatherLayout& l, const Schedule& one,
                                      const Budget& budget, std::string& which) {
  const Topology& t = p.topology;
  const int B = p.collective.blocks;
  std::vector<int> index(t.node_count(), -1);
  for (std::size_t i = 0; i < l.procs.size(); ++i) index[l.procs[i]] = static_cast<int>(i);
  std::vector<int> origin_of(one.collective.messages.size(), -1);
  for (const Message& m : one.collective.messages) {
    if (m.origin < 0 || m.origin >= t.node_count() || index[m.origin] < 0) return std::nullopt;
    origin_of[m.id] = index[m.origin];
  }
  for (const Transfer& tr : one.transfers)
    if (tr.messages.size() != 1) return std::nullopt;
  const std::size_t m = one.transfers.size();
  if (m * static_cast<std::size_t>(B) > 200'000) {
    std::vector<Transfer> out;
    out.reserve(m * B);
    for (int b = 0; b < B; ++b)
      for (const Transfer& tr : one.transfers) {
        Transfer x = tr;
        x.step = b * one.steps + tr.step;
        x.messages = {l.msg[origin_of[tr.messages.front()]][b]};
        out.push_back(std::move(x));
      }
    which = "copies in turn";
    return assemble_schedule(p, std::move(out), "", 0);
  }
  // The transfer that first brings message m to node v, by step.
  std::map<std::pair<MessageId, NodeId>, int> arrival;
  for (std::size_t i = 0; i < m; ++i) {
    const Transfer& tr = one.transfers[i];
    const auto k = std::make_pair(tr.messages.front(), tr.path.back());
    const auto it = arrival.find(k);
    if (it == arrival.end() || one.transfers[it->second].step > tr.step)
      arrival[k] = static_cast<int>(i);
  }
  std::vector<Task> tasks;
  tasks.reserve(m * B);
  for (int b = 0; b < B; ++b)
    for (std::size_t i = 0; i < m; ++i) {
      const Transfer& tr = one.transfers[i];
      Task task;
      task.block = b;
      task.from = tr.path.front();
      task.to = tr.path.back();
      task.preferred = tr.path;
      task.message = l.msg[origin_of[tr.messages.front()]][b];
      if (const auto it = arrival.find({tr.messages.front(), task.from}); it != arrival.end())
        task.strict.push_back(static_cast<int>(b * m) + it->second);
      tasks.push_back(std::move(task));
    }
  return schedule_tasks(p, paths, tasks, budget, which);
}

}  // namespace

Problem with_one_block(const Problem& problem) {
  Problem one = problem;
  if (one.collective.kind == CollectiveKind::AAB && one.collective.blocks > 1) {
    // The first message of each origin, renumbered in order (FORMATS.md "Several blocks").
    std::vector<Message> kept;
    std::vector<char> seen(problem.topology.node_count(), 0);
    for (const Message& m : problem.collective.messages)
      if (m.origin >= 0 && m.origin < problem.topology.node_count() && !seen[m.origin]++) {
        kept.push_back(m);
        kept.back().id = static_cast<MessageId>(kept.size() - 1);
      }
    one.collective.messages = std::move(kept);
  }
  if (one.collective.kind != CollectiveKind::REDUCESCATTER) one.collective.blocks = 1;
  return one;
}

std::vector<ReductionCandidate> allgather_trees(const Problem& problem, const Budget& budget) {
  std::vector<ReductionCandidate> out;
  const auto layout = gather_layout(problem);
  if (!layout) return out;
  // The lockstep form packs the translated trees at least as tightly as the channel queues
  // do on the tori and hypercubes measured (docs/BENCHMARKS.md), in a fraction of the time.
  if (auto s = gather_lockstep(problem, *layout, budget); s && !budget.expired())
    out.push_back({"pipelined all-gather trees (lockstep)", std::move(*s)});
  else if (auto b = gather_trees(problem, *layout, budget); b && !budget.expired())
    out.push_back({"pipelined all-gather trees (balanced)", std::move(*b)});
  return out;
}

std::vector<ReductionCandidate> allgather_copies(const Problem& problem, const PathSet& paths,
                                                 const std::vector<Schedule>& one_block,
                                                 const Budget& budget) {
  std::vector<ReductionCandidate> out;
  const auto layout = gather_layout(problem);
  if (!layout) return out;
  for (const Schedule& one : one_block) {
    std::string which;
    auto s = gather_copies(problem, paths, *layout, one, budget, which);
    if (!s || budget.expired()) continue;
    const std::string design = one.solver ? one.solver->engine : std::string("design");
    out.push_back({"pipelined " + design + " (" + which + ")", std::move(*s)});
  }
  return out;
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
  // Written directly in O(transfers): first, so that the list-scheduled designs below
  // cannot leave it out of time.
  reduce_detail::add_branching_designs(problem, budget, out);
  reduce_detail::add_cube_block_designs(problem, out);
  reduce_detail::add_image_designs(problem, budget, out);
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
  if (c.kind == CollectiveKind::SCAN) {
    // Below the best of the others only: the search is the slowest design here.
    int best = 2 * static_cast<int>(c.senders.size()) * c.blocks;
    for (const auto& d : out) best = std::min(best, d.schedule.steps);
    add(interval_scan(problem, paths, 1, best - 1, kIntervalWork, budget), "interval search",
        "acc and reduce");
  }
  return out;
}

}  // namespace ccsched
