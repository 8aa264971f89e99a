// Direct gather designs (include/ccsched/engines/gather.hpp; docs/ENGINES.md "Gather
// designs"). Every message is one transfer from its origin to the root along a shortest
// path; the design's work is to give each message a direction (the root's in-channel it
// arrives through) so that any messages of distinct directions share no channel, and to
// balance the directions. Then the reception bound ceil(N / min(k, D)) (N messages, D
// in-channels, docs/BOUNDS.md §port) is met whenever no direction needs more steps.
//
// Grids (rings, 2-D meshes and tori, root r): direction (j, +) takes the origins o whose
// coordinate j reaches r_j by moving up along dimension j on a shortest way (mesh: o_j <
// r_j; torus of side n: (r_j - o_j) mod n in 1..floor(n/2)); (j, -) those that move down
// (mesh: o_j > r_j; torus: (o_j - r_j) mod n in 1..ceil(n/2) - 1, so an antipodal origin
// belongs to + only). A message of direction (j, s) first corrects the other coordinate
// (in its own line of that dimension, which is not the root's: o_j != r_j), then runs
// along the root's line of dimension j with sign s. Two messages of distinct directions:
// - same j, opposite signs: their last legs run on the root's line in opposite directions
//   (distinct channels), their first legs lie in lines at distinct offsets o_j (the + and
//   - offset sets are disjoint), neither of which is the root's line;
// - distinct j: the last leg of one lies in the root's line of dimension j, the first leg
//   of the other in a line of dimension j at o'_(j') != r_(j'), i.e. another line; the
//   same holds the other way round; both last legs meet only at the root.
// So a step with at most one message per direction is channel-disjoint, and every path
// (one shortest leg per dimension) is a shortest path.
//
// Hypercubes (dimension d, root r, mask m = o XOR r): direction i needs bit i of m; the
// message corrects bits in the order i+1, ..., d-1, 0, ..., i. It crosses dimension t at
// node r XOR (m restricted to the cyclic interval [t, i]), a set whose last element from t
// is i. Two messages crossing dimension t at the same node have equal such sets, so equal
// last elements: equal directions. Distinct directions share no channel.
//
// Other networks: a shortest-path in-tree of the root (breadth-first search over the
// reversed channels; each node picks, among its successors one hop nearer, the one whose
// subtree under the root holds the fewest origins so far). Subtrees under distinct
// in-neighbours of the root are node-disjoint, and so are the paths in them.
#include "ccsched/engines/gather.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "ccsched/engines/constructive.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// What a family offers: for each message the directions it may take (a bit set, at most
// 64 directions) and how to write its path for a direction. A direction without an
// in-channel of the root is never allowed.
struct Directions {
  int count = 0;
  std::vector<std::uint64_t> allowed;  // per message
};

// Maximum flow (Dinic) on the bipartite graph groups -> directions, where group g holds
// count[g] messages that may take the directions of mask[g], each direction at most `cap`
// messages. Returns the flow per (group, direction), or nothing when not all fit.
std::optional<std::vector<std::vector<long long>>> split_groups(
    const std::vector<std::uint64_t>& mask, const std::vector<long long>& count, int directions,
    long long cap) {
  struct Edge {
    int to;
    long long cap;
  };
  const int groups = static_cast<int>(mask.size());
  const int source = groups + directions, sink = source + 1, nodes = sink + 1;
  std::vector<Edge> edges;
  std::vector<std::vector<int>> out(nodes);
  auto add = [&](int a, int b, long long c) {
    out[a].push_back(static_cast<int>(edges.size()));
    edges.push_back({b, c});
    out[b].push_back(static_cast<int>(edges.size()));
    edges.push_back({a, 0});
  };
  long long total = 0;
  std::vector<std::vector<std::pair<int, int>>> group_edges(groups);  // (direction, edge)
  for (int g = 0; g < groups; ++g) {
    add(source, g, count[g]);
    total += count[g];
    for (int d = 0; d < directions; ++d)
      if ((mask[g] >> d) & 1U) {
        group_edges[g].emplace_back(d, static_cast<int>(edges.size()));
        add(g, groups + d, count[g]);
      }
  }
  for (int d = 0; d < directions; ++d) add(groups + d, sink, cap);

  std::vector<int> level(nodes), next(nodes);
  auto bfs = [&] {
    std::fill(level.begin(), level.end(), -1);
    std::vector<int> queue{source};
    level[source] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (const int e : out[queue[i]])
        if (edges[e].cap > 0 && level[edges[e].to] < 0) {
          level[edges[e].to] = level[queue[i]] + 1;
          queue.push_back(edges[e].to);
        }
    return level[sink] >= 0;
  };
  // Augmenting paths are at most 2 * directions + 2 edges long (they alternate between
  // groups and directions), so the recursion is shallow.
  auto dfs = [&](auto&& self, int v, long long f) -> long long {
    if (v == sink) return f;
    for (int& i = next[v]; i < static_cast<int>(out[v].size()); ++i) {
      const int e = out[v][i];
      const int w = edges[e].to;
      if (edges[e].cap <= 0 || level[w] != level[v] + 1) continue;
      if (const long long got = self(self, w, std::min(f, edges[e].cap)); got > 0) {
        edges[e].cap -= got;
        edges[e ^ 1].cap += got;
        return got;
      }
    }
    return 0;
  };
  long long flow = 0;
  while (flow < total && bfs()) {
    std::fill(next.begin(), next.end(), 0);
    while (const long long f = dfs(dfs, source, std::numeric_limits<long long>::max())) flow += f;
  }
  if (flow < total) return std::nullopt;
  std::vector<std::vector<long long>> split(groups, std::vector<long long>(directions, 0));
  for (int g = 0; g < groups; ++g)
    for (const auto& [d, e] : group_edges[g]) split[g][d] = edges[e ^ 1].cap;
  return split;
}

// A direction per message with every direction's load at most the smallest cap that
// admits one (at least `floor`), or nothing when some message has no direction.
std::optional<std::vector<int>> balance(const Directions& dirs, long long floor) {
  std::map<std::uint64_t, std::vector<std::size_t>> by_mask;
  for (std::size_t i = 0; i < dirs.allowed.size(); ++i) {
    if (dirs.allowed[i] == 0) return std::nullopt;
    by_mask[dirs.allowed[i]].push_back(i);
  }
  std::vector<std::uint64_t> mask;
  std::vector<long long> count;
  for (const auto& [m, ids] : by_mask) {
    mask.push_back(m);
    count.push_back(static_cast<long long>(ids.size()));
  }
  // The flow is monotone in the cap: the smallest feasible cap by bisection.
  long long lo = std::max<long long>(floor, 1), hi = static_cast<long long>(dirs.allowed.size());
  auto best = split_groups(mask, count, dirs.count, hi);
  if (!best) return std::nullopt;
  if (auto at_lo = split_groups(mask, count, dirs.count, lo)) {
    best = std::move(at_lo);
  } else {
    while (hi - lo > 1) {
      const long long mid = lo + (hi - lo) / 2;
      if (auto s = split_groups(mask, count, dirs.count, mid)) {
        best = std::move(s);
        hi = mid;
      } else {
        lo = mid;
      }
    }
  }
  std::vector<int> direction(dirs.allowed.size(), -1);
  std::size_t g = 0;
  for (const auto& [m, ids] : by_mask) {
    std::size_t i = 0;
    for (int d = 0; d < dirs.count; ++d)
      for (long long n = 0; n < (*best)[g][d]; ++n) direction[ids[i++]] = d;
    ++g;
  }
  return direction;
}

// --- Grids ---------------------------------------------------------------------------

struct Grid {
  std::vector<int> sides;  // row-major, last coordinate fastest
  bool wrap = false;
  int coord(NodeId v, int j) const {
    int stride = 1;
    for (std::size_t i = sides.size(); i-- > static_cast<std::size_t>(j) + 1;) stride *= sides[i];
    return v / stride % sides[j];
  }
  NodeId moved(NodeId v, int j, int sign) const {
    int stride = 1;
    for (std::size_t i = sides.size(); i-- > static_cast<std::size_t>(j) + 1;) stride *= sides[i];
    const int c = v / stride % sides[j];
    const int n = (c + sign + sides[j]) % sides[j];
    return v + (n - c) * stride;
  }
  // Hops up (sign +1) from coordinate o to r along one dimension on a shortest way, or 0
  // when that sign does not belong to o (see the file comment for the split).
  int hops(int o, int r, int j, int sign) const {
    const int n = sides[j];
    if (!wrap) return sign > 0 ? std::max(0, r - o) : std::max(0, o - r);
    const int up = ((r - o) % n + n) % n;
    if (sign > 0) return up >= 1 && up <= n / 2 ? up : 0;
    const int down = ((o - r) % n + n) % n;
    return down >= 1 && down <= (n + 1) / 2 - 1 ? down : 0;
  }
  // The shortest leg along dimension j from coordinate o to r on a grid line (any
  // shortest way; on a torus the one with the fewer hops, up at a tie).
  std::pair<int, int> leg(int o, int r, int j) const {
    if (o == r) return {0, 1};
    if (const int up = hops(o, r, j, 1)) return {up, 1};
    return {hops(o, r, j, -1), -1};
  }
};

std::optional<Grid> recognise(const Topology& t) {
  const auto family = family_of(t);
  if (!family || (family->name != "torus" && family->name != "mesh" && family->name != "ring"))
    return std::nullopt;
  if (family->sides.empty() || family->sides.size() > 2 || !is_generated(t)) return std::nullopt;
  for (const int s : family->sides)
    if (s < 2) return std::nullopt;
  return Grid{family->sides, family->name != "mesh"};
}

Directions grid_directions(const Grid& g, const Problem& problem, NodeId root) {
  Directions dirs;
  const int dims = static_cast<int>(g.sides.size());
  dirs.count = 2 * dims;
  for (const auto& m : problem.collective.messages) {
    std::uint64_t a = 0;
    for (int j = 0; j < dims; ++j)
      for (int s = 0; s < 2; ++s)
        if (g.hops(g.coord(m.origin, j), g.coord(root, j), j, s == 0 ? 1 : -1) > 0)
          a |= std::uint64_t{1} << (2 * j + s);
    dirs.allowed.push_back(a);
  }
  return dirs;
}

std::vector<NodeId> grid_path(const Grid& g, NodeId origin, NodeId root, int direction) {
  const int j = direction / 2, sign = direction % 2 == 0 ? 1 : -1;
  std::vector<NodeId> path{origin};
  NodeId at = origin;
  for (int i = 0; i < static_cast<int>(g.sides.size()); ++i) {
    if (i == j) continue;
    const auto [n, s] = g.leg(g.coord(at, i), g.coord(root, i), i);
    for (int h = 0; h < n; ++h) path.push_back(at = g.moved(at, i, s));
  }
  const int n = g.hops(g.coord(at, j), g.coord(root, j), j, sign);
  for (int h = 0; h < n; ++h) path.push_back(at = g.moved(at, j, sign));
  return path;
}

// --- Hypercubes ------------------------------------------------------------------------

std::vector<NodeId> cube_path(int d, NodeId origin, NodeId root, int direction) {
  const auto mask = static_cast<unsigned>(origin ^ root);
  std::vector<NodeId> path{origin};
  NodeId at = origin;
  for (int k = 1; k <= d; ++k) {
    const int t = (direction + k) % d;
    if ((mask >> t) & 1U) path.push_back(at ^= NodeId{1} << t);
  }
  return path;
}

// --- Any network: a balanced shortest-path in-tree --------------------------------------

struct InTree {
  std::vector<NodeId> parent;  // the next node towards the root (kNoNode: root, unreached)
  std::vector<int> branch;     // the root's in-neighbour's index the subtree hangs from
  int branches = 0;
};

std::optional<InTree> in_tree(const Topology& t, NodeId root, const std::vector<char>& origin) {
  const int n = t.node_count();
  std::vector<int> dist(n, -1);
  std::vector<NodeId> order{root};
  dist[root] = 0;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const ChannelId c : t.in_channels(order[i])) {
      const NodeId v = t.channel(c).from;
      if (dist[v] < 0) {
        dist[v] = dist[order[i]] + 1;
        order.push_back(v);
      }
    }
  InTree tree;
  tree.parent.assign(n, kNoNode);
  tree.branch.assign(n, -1);
  std::vector<long long> load;
  for (std::size_t i = 1; i < order.size(); ++i) {
    const NodeId v = order[i];
    if (dist[v] == 1) {
      tree.parent[v] = root;
      tree.branch[v] = tree.branches++;
      load.push_back(0);
    } else {
      for (const ChannelId c : t.out_channels(v)) {
        const NodeId w = t.channel(c).to;
        if (dist[w] != dist[v] - 1) continue;
        if (tree.parent[v] == kNoNode || load[tree.branch[w]] < load[tree.branch[v]]) {
          tree.parent[v] = w;
          tree.branch[v] = tree.branch[w];
        }
      }
    }
    if (origin[v]) ++load[tree.branch[v]];
  }
  for (NodeId v = 0; v < n; ++v)
    if (origin[v] && tree.parent[v] == kNoNode) return std::nullopt;
  return tree;
}

}  // namespace

std::optional<Schedule> gather_schedule(const Problem& problem, const Budget& budget) {
  const auto& c = problem.collective;
  const auto& t = problem.topology;
  if (is_reduction(c) || c.messages.empty() || problem.model.switching != Switching::wormhole ||
      (problem.model.ports && *problem.model.ports < 1) || budget.expired())
    return std::nullopt;
  if (c.messages.front().targets.size() != 1) return std::nullopt;
  const NodeId root = c.messages.front().targets.front();
  std::vector<char> origin(t.node_count(), 0);
  for (const auto& m : c.messages) {
    if (m.targets.size() != 1 || m.targets.front() != root || m.origin == root ||
        origin[m.origin])
      return std::nullopt;
    origin[m.origin] = 1;
  }
  const long long messages = static_cast<long long>(c.messages.size());
  const long long in = static_cast<long long>(t.in_channels(root).size());
  const long long ports = problem.model.ports ? std::min<long long>(*problem.model.ports, in) : in;
  if (ports < 1) return std::nullopt;
  const long long floor = (messages + ports - 1) / ports;  // the reception bound

  // A direction and a path writer per message.
  std::vector<int> direction;
  int directions = 0;
  std::function<std::vector<NodeId>(const Message&, int)> path_of;
  std::optional<InTree> tree;
  const auto grid = recognise(t);
  const auto cube = grid ? std::nullopt : hypercube_dimension(t);
  if (grid) {
    const Directions dirs = grid_directions(*grid, problem, root);
    auto d = balance(dirs, floor);
    if (!d) return std::nullopt;
    direction = std::move(*d);
    directions = dirs.count;
    path_of = [&](const Message& m, int dir) { return grid_path(*grid, m.origin, root, dir); };
  } else if (cube && *cube <= 63) {
    Directions dirs;
    dirs.count = *cube;
    for (const auto& m : c.messages) dirs.allowed.push_back(static_cast<unsigned>(m.origin ^ root));
    auto d = balance(dirs, floor);
    if (!d) return std::nullopt;
    direction = std::move(*d);
    directions = dirs.count;
    path_of = [&](const Message& m, int dir) { return cube_path(*cube, m.origin, root, dir); };
  } else {
    tree = in_tree(t, root, origin);
    if (!tree) return std::nullopt;
    directions = tree->branches;
    for (const auto& m : c.messages) direction.push_back(tree->branch[m.origin]);
    path_of = [&](const Message& m, int) {
      std::vector<NodeId> path{m.origin};
      for (NodeId v = m.origin; v != root;) path.push_back(v = tree->parent[v]);
      return path;
    };
  }
  if (budget.expired()) return std::nullopt;

  // Steps: at least the bound, and at least the largest direction's load; the messages,
  // grouped by direction, dealt to steps 1..S in turn (McNaughton's wrap-around): a
  // direction's at most S messages land in distinct steps, and a step gets at most
  // ceil(N / S) <= min(k, D) messages.
  std::vector<long long> load(directions, 0);
  for (const int d : direction) ++load[d];
  const long long steps = std::max(floor, *std::max_element(load.begin(), load.end()));
  if (steps > std::numeric_limits<Step>::max()) return std::nullopt;
  std::vector<MessageId> order(c.messages.size());
  std::iota(order.begin(), order.end(), MessageId{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](MessageId a, MessageId b) { return direction[a] < direction[b]; });

  Schedule schedule;
  schedule.transfers.reserve(order.size());
  for (long long s = 0; s < steps; ++s) {
    for (long long i = s; i < messages; i += steps) {
      const Message& m = c.messages[order[i]];
      Transfer tr;
      tr.step = static_cast<Step>(s + 1);
      tr.path = path_of(m, direction[m.id]);
      tr.messages.push_back(m.id);
      schedule.transfers.push_back(std::move(tr));
    }
    if (s % 1024 == 0 && budget.expired()) return std::nullopt;
  }
  schedule.steps = static_cast<int>(steps);
  schedule.topology = problem.topology;
  schedule.collective = c;
  schedule.model = problem.model;
  schedule.solver = SolverInfo{"gather", 0, 0.0};
  return schedule;
}

}  // namespace ccsched
