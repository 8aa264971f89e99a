// A REDUCE (and an ALLREDUCE: the sums back down the same trees) of many blocks pipelined
// over arc-disjoint spanning trees (docs/ENGINES.md, "Several blocks"). The root of a REDUCE takes at most one block per in-channel a step, so
// B blocks need about B / in-degree steps; the trees built per block (pipelined.cpp) crowd
// their channels, and the dual of a broadcast of B blocks takes about B steps. Here m trees
// into the root that share no channel (Edmonds' branching theorem says how many exist:
// J. Edmonds, "Edge-disjoint branchings", 1973) each carry every m-th block, one hop a step
// in lockstep: a node sends a block up its tree in the step after the last of its children
// has, so every tree delivers a block a step and the schedule takes
// ceil(B / m) - 1 + (the trees' height) steps.
//
// The trees, in coordinates (y, x) relative to the root, N/S/E/W the moves to y - 1, y + 1,
// x + 1, x - 1:
//   - torus (both sides at least 3, moves taken around the ring), four trees:
//       A: x != 0, y != 0: W; y = 0: S; x = 0: N       B: generic N; x = 0: W; y = 0: E
//       C: generic E; y = 0: N; x = 0: S              D: generic S; x = 0: E; y = 0: W
//     B, C and D are A turned by a quarter, a half and three quarters about the root, so at
//     a generic node the four use W, N, E, S, on the root's row S, E, N, W and on its column
//     N, W, S, E: every channel in one tree at most. A runs along its row to the root's
//     column, then up it; the root's row first steps one row down.
//   - mesh (both sides at least 2), two trees (a corner has two out-channels): A moves along
//     the column towards the root's row, then along the row; B along the row first, then
//     the column; on the root's row B first steps one row away, on its column A one column
//     away. A generic node uses a vertical channel in A and a horizontal one in B; the
//     root's row and column swap them.
//   - hypercube:n, n trees, u = v XOR root: tree i sets bit i of u if it is clear (one
//     step away), else clears the first set bit of u after i cyclically (i + 1, ..., i - 1),
//     and bit i last. At u the trees whose bit is clear use those bits, and those whose bit
//     is set use the cyclic successors of the set bits, a permutation of them: each
//     dimension in one tree. A path sets at most one bit, so the height is at most n + 1
//     (the spanning binomial trees of S. L. Johnsson and C.-T. Ho, "Optimum broadcasting
//     and personalized communication in hypercubes", IEEE Trans. Computers 38(9), 1989,
//     turned so that their edges are disjoint).
#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

// Up to this many processors the trees are lowered by local moves (lower_trees), within
// this many parent steps walked: torus:32x32 stops by itself after 1.6e7 (0.06 s),
// torus:64x64 at the cap (0.56 s).
constexpr int kLoweredTreesProcessors = 4096;
constexpr long long kLowerTreesWork = 200'000'000;

// A tree as the parent of every node (kNoNode at the root).
using Parents = std::vector<NodeId>;

std::vector<Parents> grid_in_trees(int rows, int cols, bool wrap, NodeId root) {
  const int n = rows * cols;
  const int r0 = root / cols, c0 = root % cols;
  auto at = [&](int y, int x) {
    return static_cast<NodeId>(((y % rows + rows) % rows) * cols + (x % cols + cols) % cols);
  };
  std::vector<Parents> trees;
  if (wrap) {
    if (rows < 3 || cols < 3) return trees;
    enum Move { N, S, E, W };
    // [tree][0: generic, 1: on the root's row, 2: on its column]
    constexpr Move kRule[4][3] = {{W, S, N}, {N, E, W}, {E, N, S}, {S, W, E}};
    for (const auto& rule : kRule) {
      Parents parent(n, kNoNode);
      for (NodeId v = 0; v < n; ++v) {
        if (v == root) continue;
        const int y = v / cols, x = v % cols;
        const Move m = y == r0 ? rule[1] : x == c0 ? rule[2] : rule[0];
        parent[v] = m == N ? at(y - 1, x) : m == S ? at(y + 1, x) : m == E ? at(y, x + 1)
                                                                          : at(y, x - 1);
      }
      trees.push_back(std::move(parent));
    }
    return trees;
  }
  if (rows < 2 || cols < 2) return trees;
  auto toward = [](int from, int to) { return from < to ? from + 1 : from - 1; };
  auto away = [](int at_, int side) { return at_ + 1 < side ? at_ + 1 : at_ - 1; };
  Parents a(n, kNoNode), b(n, kNoNode);
  for (NodeId v = 0; v < n; ++v) {
    if (v == root) continue;
    const int y = v / cols, x = v % cols;
    if (y == r0) {
      a[v] = at(y, toward(x, c0));
      b[v] = at(away(y, rows), x);
    } else if (x == c0) {
      a[v] = at(y, away(x, cols));
      b[v] = at(toward(y, r0), x);
    } else {
      a[v] = at(toward(y, r0), x);
      b[v] = at(y, toward(x, c0));
    }
  }
  trees.push_back(std::move(a));
  trees.push_back(std::move(b));
  return trees;
}

std::vector<Parents> cube_in_trees(int n, NodeId root) {
  std::vector<Parents> trees;
  const unsigned all = (1u << n) - 1;
  for (int i = 0; i < n; ++i) {
    Parents parent(std::size_t{1} << n, kNoNode);
    for (unsigned v = 0; v <= all; ++v) {
      const unsigned u = v ^ static_cast<unsigned>(root);
      if (u == 0) continue;
      int flip = i;
      if ((u >> i & 1u) != 0 && u != (1u << i))
        for (int k = 1; k < n; ++k)
          if ((u >> ((i + k) % n) & 1u) != 0) {
            flip = (i + k) % n;
            break;
          }
      parent[v] = static_cast<NodeId>(v ^ (1u << flip));
    }
    trees.push_back(std::move(parent));
  }
  return trees;
}

// A tree's children lists, and its nodes breadth-first from the root with their depths
// (fewer than all nodes when some parent chain misses the root).
struct Shape {
  std::vector<std::vector<NodeId>> children;
  std::vector<NodeId> order;
  std::vector<int> depth;
};
Shape shape_of(const Parents& parent, NodeId root) {
  const int n = static_cast<int>(parent.size());
  Shape s{std::vector<std::vector<NodeId>>(n), {root}, std::vector<int>(n, 0)};
  for (NodeId v = 0; v < n; ++v)
    if (v != root && parent[v] != kNoNode) s.children[parent[v]].push_back(v);
  for (std::size_t head = 0; head < s.order.size(); ++head)
    for (const NodeId v : s.children[s.order[head]]) {
      s.depth[v] = s.depth[s.order[head]] + 1;
      s.order.push_back(v);
    }
  return s;
}

// Shallower trees by local moves (the turned trees above are (R - 1) + (C - 1) high, the
// root's eccentricity about half that): node by node, every way of giving the node's
// out-neighbours to the trees (one each, so the trees stay channel-disjoint) is tried, and
// the one that lowers the sum of depths the most is taken, a tree's new parent never in
// the node's own subtree there (no cycle); a node's depth change moves its whole subtree,
// so a move is worth (change) x (subtree size). Passes until none improves or `work`
// (parent steps walked, the same on every machine) runs out, or the budget (Ctrl-C, the
// clock: an outer cap only) ends; the result is kept only when its height is not above
// the start's. torus:16x16: height 30 -> 21; torus:32x32 62 -> 36.
void lower_trees(const Topology& t, NodeId root, std::vector<Parents>& trees, long long work,
                 const Budget& budget) {
  const int n = t.node_count();
  const int m = static_cast<int>(trees.size());
  std::vector<std::vector<NodeId>> out(n);
  for (NodeId v = 0; v < n; ++v)
    for (const ChannelId ch : t.out_channels(v)) out[v].push_back(t.channel(ch).to);
  std::vector<std::vector<int>> depth(m), size(m, std::vector<int>(n, 1));
  std::vector<std::vector<std::vector<NodeId>>> children(m);
  auto height = [&]() {
    int h = 0;
    for (int i = 0; i < m; ++i) h = std::max(h, *std::max_element(depth[i].begin(), depth[i].end()));
    return h;
  };
  for (int i = 0; i < m; ++i) {
    Shape shape = shape_of(trees[i], root);
    for (auto it = shape.order.rbegin(); it != shape.order.rend(); ++it)
      if (*it != root) size[i][trees[i][*it]] += size[i][*it];
    children[i] = std::move(shape.children);
    depth[i] = std::move(shape.depth);
  }
  const std::vector<Parents> start = trees;
  const int start_height = height();
  // Whether v is w or an ancestor of w in tree i.
  auto above = [&](int i, NodeId w, NodeId v) {
    for (; w != kNoNode; w = trees[i][w]) {
      --work;
      if (w == v) return true;
    }
    return false;
  };
  std::vector<int> pick(m), best(m);
  for (bool improved = true; improved && work > 0;) {
    improved = false;
    for (NodeId v = 0; v < n && work > 0 && !budget.expired(); ++v) {
      if (v == root || static_cast<int>(out[v].size()) < m) continue;
      // Injections of the trees into the out-neighbours, in lexicographic order.
      long long gain = 0;
      std::vector<int> slots(out[v].size());
      std::iota(slots.begin(), slots.end(), 0);
      do {
        for (int i = 0; i < m; ++i) pick[i] = slots[i];
        long long delta = 0;
        bool ok = true;
        for (int i = 0; i < m && ok; ++i) {
          const NodeId w = out[v][pick[i]];
          if (w == trees[i][v]) continue;
          if (above(i, w, v)) ok = false;
          delta += static_cast<long long>(depth[i][w] + 1 - depth[i][v]) * size[i][v];
        }
        if (ok && delta < gain) {
          gain = delta;
          best = pick;
        }
        std::reverse(slots.begin() + m, slots.end());  // next injection, not permutation
      } while (std::next_permutation(slots.begin(), slots.end()) && work > 0);
      if (gain >= 0) continue;
      improved = true;
      for (int i = 0; i < m; ++i) {
        const NodeId w = out[v][best[i]], old = trees[i][v];
        if (w == old) continue;
        for (NodeId a = old; a != kNoNode; a = trees[i][a]) size[i][a] -= size[i][v];
        for (NodeId a = w; a != kNoNode; a = trees[i][a]) size[i][a] += size[i][v];
        auto& from = children[i][old];
        from.erase(std::find(from.begin(), from.end(), v));
        children[i][w].push_back(v);
        trees[i][v] = w;
        const int shift = depth[i][w] + 1 - depth[i][v];
        std::vector<NodeId> stack{v};
        while (!stack.empty()) {
          const NodeId x = stack.back();
          stack.pop_back();
          depth[i][x] += shift;
          --work;
          for (const NodeId y : children[i][x]) stack.push_back(y);
        }
      }
    }
  }
  if (height() > start_height) trees = start;
}

// The lockstep schedule of `c.blocks` blocks over `trees` into `root` (block b in tree
// b mod m, its (b / m)-th): every node whose subtree holds a sender sends its accumulator
// to its parent in step (b / m) + 1 + h, h its height (0 at a leaf, else one above its
// highest child). For ALLREDUCE the sums then go down the same trees reversed, as copies:
// the root sends block j of a tree in step O + j + 1, a node at depth d passes it on in
// step O + j + d + 1, with the one offset O that puts every copy on a channel after the
// channel's last reduction (a node's channels down are its children's channels up turned
// round, distinct across the trees) and after the root holds the block. nullopt when a tree
// edge is not a channel (a faulty copy) or the ports cannot take a step.
std::optional<Schedule> lockstep_in_trees(const Problem& p, const std::vector<Parents>& trees,
                                          NodeId root, const std::string& name) {
  const Topology& t = p.topology;
  const Collective& c = p.collective;
  const int n = t.node_count();
  const bool down = c.kind == CollectiveKind::ALLREDUCE;
  std::vector<char> sender(n, 0);
  for (const NodeId v : c.senders) sender[v] = 1;
  const int m = static_cast<int>(trees.size());
  std::vector<std::vector<int>> height(m, std::vector<int>(n, -1));  // -1: sends nothing
  std::vector<std::vector<int>> depth(m);
  std::vector<std::vector<std::vector<NodeId>>> children(m);
  std::vector<int> receptions(n, 0), sends(n, 0);
  for (int i = 0; i < m; ++i) {
    const Parents& parent = trees[i];
    for (NodeId v = 0; v < n; ++v) {
      if (v == root) continue;
      const NodeId u = parent[v];
      if (u == kNoNode || !t.has_channel(v, u) || (down && !t.has_channel(u, v)))
        return std::nullopt;
    }
    // Depths down from the root, then heights from the leaves up.
    Shape shape = shape_of(parent, root);
    if (static_cast<int>(shape.order.size()) != n) return std::nullopt;  // not spanning
    children[i] = std::move(shape.children);
    depth[i] = std::move(shape.depth);
    const std::vector<NodeId>& order = shape.order;
    std::vector<int>& h = height[i];
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const NodeId v = *it;
      int top = sender[v] ? 0 : -1;
      for (const NodeId w : children[i][v])
        if (h[w] >= 0) {
          top = std::max(top, h[w] + 1);
          ++receptions[v];
        }
      h[v] = top;
    }
    if (down)
      for (NodeId v = 0; v < n; ++v) sends[v] += static_cast<int>(children[i][v].size());
  }
  // A node sends one block a step in each tree (down: one to each child) and takes one
  // from each active child (down: one from its parent in each tree).
  if (p.model.ports) {
    const int k = *p.model.ports;
    for (NodeId v = 0; v < n; ++v)
      if (m > k || receptions[v] > k || sends[v] > k) return std::nullopt;
  }
  std::vector<int> count(m);
  int up_steps = 0;
  for (int i = 0; i < m; ++i) {
    count[i] = (c.blocks - i + m - 1) / m;  // blocks i, i + m, ...
    if (count[i] > 0) up_steps = std::max(up_steps, count[i] - 1 + height[i][root]);
  }
  // The offset of the copies: the channel u -> v of tree i (v a child of u) is the channel
  // up of u in the tree whose parent of u is v, busy up to step count + h(u) there.
  int offset = 0;
  if (down) {
    for (int i = 0; i < m; ++i) offset = std::max(offset, height[i][root]);
    for (int i = 0; i < m; ++i)
      for (NodeId u = 0; u < n; ++u)
        for (const NodeId v : children[i][u])
          for (int q = 0; q < m; ++q)
            if (u != root && trees[q][u] == v && height[q][u] >= 0)
              offset = std::max(offset, count[q] + height[q][u] - depth[i][u]);
  }
  int steps = up_steps;
  if (down)
    for (int i = 0; i < m; ++i)
      for (NodeId v = 0; v < n; ++v)
        if (count[i] > 0) steps = std::max(steps, offset + count[i] - 1 + depth[i][v]);
  std::vector<Transfer> out;
  out.reserve(static_cast<std::size_t>(c.blocks) * c.senders.size() * (down ? 2 : 1));
  auto add = [&](Step s, NodeId from, NodeId to, int b, ReductionRecv recv) {
    Transfer x;
    x.step = s;
    x.path = {from, to};
    x.blocks = {b};
    x.send = ReductionSend::acc;
    x.recv = recv;
    out.push_back(std::move(x));
  };
  for (int s = 1; s <= steps; ++s)
    for (int i = 0; i < m; ++i)
      for (NodeId v = 0; v < n; ++v) {
        if (v != root && height[i][v] >= 0) {
          const int j = s - 1 - height[i][v];
          if (j >= 0 && j < count[i]) add(s, v, trees[i][v], j * m + i, ReductionRecv::reduce);
        }
        if (down && !children[i][v].empty()) {
          const int j = s - 1 - offset - depth[i][v];
          if (j >= 0 && j < count[i])
            for (const NodeId w : children[i][v]) add(s, v, w, j * m + i, ReductionRecv::copy);
        }
      }
  return assemble_schedule(p, std::move(out), name, 0);
}

}  // namespace

void add_branching_designs(const Problem& p, const Budget& budget,
                           std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.blocks < 2 || p.model.combining) return;
  const bool everyone = static_cast<long long>(c.senders.size()) == p.topology.node_count() &&
                        c.senders.size() == c.receivers.size();
  if (!(c.kind == CollectiveKind::REDUCE && c.receivers.size() == 1) &&
      !(c.kind == CollectiveKind::ALLREDUCE && everyone))
    return;
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p.topology, wrap);
  // ALLREDUCE: the root in the middle of a mesh (the trees' height), node 0 elsewhere.
  NodeId root = c.receivers.front();
  if (c.kind == CollectiveKind::ALLREDUCE)
    root = sides.size() == 2 && !wrap ? sides[0] / 2 * sides[1] + sides[1] / 2 : 0;
  std::vector<Parents> trees;
  std::string where;
  const auto family = family_of(p.topology);
  if (sides.size() == 2) {
    trees = grid_in_trees(sides[0], sides[1], wrap, root);
    if (!trees.empty() && p.topology.node_count() <= kLoweredTreesProcessors)
      lower_trees(p.topology, root, trees, kLowerTreesWork, budget);
    where = wrap ? "torus" : "mesh";
  } else if (family && family->name == "hypercube" && family->sides.size() <= 24 &&
             p.topology.node_count() == (1 << family->sides.size())) {
    trees = cube_in_trees(static_cast<int>(family->sides.size()), root);
    where = "hypercube";
  }
  if (trees.size() < 2) return;
  const std::string name =
      "disjoint trees (" + where + ", " + std::to_string(trees.size()) + " trees)";
  if (auto s = lockstep_in_trees(p, trees, root, name)) out.push_back({name, std::move(*s)});
}

}  // namespace ccsched::reduce_detail
