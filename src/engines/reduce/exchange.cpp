// Clustered exchange for ALLREDUCE (docs/ENGINES.md, "Reductions: clustered exchange").
// Every processor exchanging with k partners per step, as recursive doubling does, puts
// long paths on every channel at once: on a torus:32x32 the dimension-wise designs need 22
// steps for the 10 rounds. Here the exchange runs among a sparse set of leaders instead,
// where long paths have room:
//   1. each cluster reduces into its leader along a k-nomial tree (k = the ports a node
//      can use: a node adds up to k children's sums per round);
//   2. the leaders run a mixed-radix generalised recursive doubling (Bruck et al. style
//      k-port exchange): in stage s the leaders that differ only in digit s form a group of
//      r_s <= k + 1 and each sends its sum to the r_s - 1 others, which add them (the
//      sums are over disjoint sets of clusters, and their union is the next stage's);
//   3. each leader copies the total back down its tree.
// With clusters of c processors and m = p / c leaders that is 2 ceil(log_{k+1} c) plus the
// number of digits of m, when every round fits one step; pack_rounds spreads a round that
// collides. The cluster size trades the tree depth against the leaders' density: on a
// torus:32x32 all-port blocks of 4x4 give 2 + 3 + 2 = 7 rounds, one-port blocks of 2 x 4
// give 3 + 7 + 3.
#include <algorithm>
#include <bit>
#include <deque>
#include <numeric>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

// Ports a node may use per round in the trees: the model's ports (`ports`, effective_ports
// computed once by the caller: under all-port it scans every processor, which per node was
// quadratic), its channels.
int cap(const Problem& p, int ports, NodeId v) {
  return std::max(1, std::min({ports, static_cast<int>(p.topology.out_channels(v).size()),
                               static_cast<int>(p.topology.in_channels(v).size())}));
}

using Edges = std::vector<std::pair<NodeId, NodeId>>;  // (parent, child)

struct Cluster {
  NodeId leader = kNoNode;
  std::vector<NodeId> members;  // the leader first
  std::vector<Edges> tree;      // broadcast rounds given by the caller; empty: tree_rounds
};

// Broadcast rounds of a k-nomial tree over a cluster: in each round every informed member
// informs up to cap() uninformed ones, the nearest to it first (hops, then id). edges[r]
// lists (parent, child) of round r.
std::vector<std::vector<std::pair<NodeId, NodeId>>> tree_rounds(const Problem& p, int ports,
                                                                 const PathSet& paths,
                                                                 const Cluster& c) {
  std::vector<std::vector<std::pair<NodeId, NodeId>>> rounds;
  std::vector<NodeId> informed{c.leader};
  std::vector<NodeId> rest(c.members.begin() + 1, c.members.end());
  while (!rest.empty()) {
    std::vector<std::pair<NodeId, NodeId>> round;
    std::vector<NodeId> now = informed;
    for (NodeId u : now) {
      std::vector<std::pair<int, NodeId>> near;
      for (NodeId v : rest) near.push_back({paths.distance(u, v) + paths.distance(v, u), v});
      std::sort(near.begin(), near.end());
      const int k = std::min<int>(cap(p, ports, u), static_cast<int>(near.size()));
      for (int i = 0; i < k; ++i) {
        round.push_back({u, near[i].second});
        informed.push_back(near[i].second);
        rest.erase(std::find(rest.begin(), rest.end(), near[i].second));
      }
      if (rest.empty()) break;
    }
    rounds.push_back(std::move(round));
  }
  return rounds;
}

// m as a product of factors <= radix, the largest first; empty when a prime factor of m
// exceeds radix.
std::vector<int> digits_of(int m, int radix) {
  std::vector<int> f;
  while (m > 1) {
    int d = std::min(radix, m);
    while (d > 1 && m % d != 0) --d;
    if (d <= 1) return {};
    f.push_back(d);
    m /= d;
  }
  return f;
}

// The three phases as rounds, packed. `leaders_in_order`: leader i is cluster order[i].
std::optional<Schedule> clustered(const Problem& p, const PathSet& paths,
                                  const std::vector<Cluster>& clusters, int max_radix) {
  const Collective& c = p.collective;
  const std::vector<int> blocks = all_blocks(c);
  const int ports = effective_ports(p);
  int radix = max_radix;
  for (const Cluster& cl : clusters) radix = std::min(radix, cap(p, ports, cl.leader) + 1);
  std::vector<int> digits = digits_of(static_cast<int>(clusters.size()), radix);
  if (clusters.size() > 1 && digits.empty()) return std::nullopt;
  // Tree rounds per cluster, merged by depth: round r of every cluster is one logical round.
  std::vector<std::vector<std::vector<std::pair<NodeId, NodeId>>>> trees;
  std::size_t depth = 0;
  for (const Cluster& cl : clusters) {
    trees.push_back(cl.tree.empty() ? tree_rounds(p, ports, paths, cl) : cl.tree);
    depth = std::max(depth, trees.back().size());
  }
  std::vector<Round> rounds;
  // 1. reduce: the broadcast's rounds backwards, each edge child -> parent. A cluster of
  // depth d < depth runs its rounds last, so that its leader is ready with the rest.
  for (std::size_t r = depth; r-- > 0;) {
    Round round;
    for (const auto& t : trees) {
      const std::size_t shift = depth - t.size();
      if (r < shift) continue;
      for (const auto& [parent, child] : t[r - shift]) {
        std::vector<Hop> g;
        add_hops(g, p, child, parent, blocks, ReductionSend::acc, ReductionRecv::reduce);
        round.groups.push_back(std::move(g));
      }
    }
    if (!round.groups.empty()) rounds.push_back(std::move(round));
  }
  // 2. the leaders' exchange, digit by digit.
  const int m = static_cast<int>(clusters.size());
  int stride = 1;
  for (const int r : digits) {
    Round round;
    for (int i = 0; i < m; ++i) {
      if ((i / stride) % r != 0) continue;  // i: the group's first member
      std::vector<Hop> g;
      for (int a = 0; a < r; ++a)
        for (int b = 0; b < r; ++b)
          if (a != b)
            add_hops(g, p, clusters[i + a * stride].leader, clusters[i + b * stride].leader,
                     blocks, ReductionSend::acc, ReductionRecv::reduce);
      round.groups.push_back(std::move(g));
    }
    rounds.push_back(std::move(round));
    stride *= r;
  }
  // 3. broadcast the total down the trees, as copies.
  for (std::size_t r = 0; r < depth; ++r) {
    Round round;
    for (const auto& t : trees) {
      if (r >= t.size()) continue;
      for (const auto& [parent, child] : t[r]) {
        std::vector<Hop> g;
        add_hops(g, p, parent, child, blocks, ReductionSend::acc, ReductionRecv::copy);
        round.groups.push_back(std::move(g));
      }
    }
    rounds.push_back(std::move(round));
  }
  auto transfers = pack_rounds(p, paths, rounds);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "", 0);
}

// Blocks of a torus or mesh: block sides `b` (each dividing its side), the leader the
// block's node nearest its centre, clusters in Morton order of the block coordinates (bits
// interleaved, so that a low digit groups neighbouring blocks in every dimension) when the
// block counts are powers of two, row-major otherwise.
// `stagger`: the leader of block (i, j) sits j mod b_0 rows and i mod b_1 columns off the
// block's first node instead (higher dimensions likewise, from the sum of the others), so
// that a row or column of the network holds fewer leaders and their exchanges spread over
// more channels.
// `bits`: the tree is the binomial one of the block's coordinate bits (one-port): round r
// flips one bit of the offset from the leader, the highest first, the dimensions in turn;
// the pairs of a round are disjoint straight segments of the block, so no two collide.
std::vector<Cluster> grid_blocks(const std::vector<int>& sides, const std::vector<int>& b,
                                 bool stagger, bool bits) {
  const int dims = static_cast<int>(sides.size());
  std::vector<int> count(dims), stride(dims, 1);
  for (int d = 0; d < dims; ++d) count[d] = sides[d] / b[d];
  for (int d = dims - 1; d-- > 0;) stride[d] = stride[d + 1] * sides[d + 1];
  int total = 1;
  for (int d = 0; d < dims; ++d) total *= count[d];
  const bool morton = std::all_of(count.begin(), count.end(),
                                  [](int x) { return std::has_single_bit(static_cast<unsigned>(x)); });
  std::vector<std::vector<int>> coords;
  for (int i = 0; i < total; ++i) {
    std::vector<int> at(dims, 0);
    int rest = i;
    for (int d = dims; d-- > 0;) {
      at[d] = rest % count[d];
      rest /= count[d];
    }
    coords.push_back(at);
  }
  if (morton) {
    auto code = [&](const std::vector<int>& at) {
      long long key = 0;
      int bit = 0;
      for (int level = 0; level < 16; ++level)
        for (int d = dims; d-- > 0;)
          if ((1 << level) < count[d]) key |= static_cast<long long>((at[d] >> level) & 1) << bit++;
      return key;
    };
    std::stable_sort(coords.begin(), coords.end(),
                     [&](const auto& x, const auto& y) { return code(x) < code(y); });
  }
  std::vector<Cluster> out;
  for (const auto& at : coords) {
    Cluster cl;
    std::vector<int> lo(dims);
    for (int d = 0; d < dims; ++d) lo[d] = at[d] * b[d];
    int cells = 1;
    for (int d = 0; d < dims; ++d) cells *= b[d];
    NodeId leader = 0;
    int sum = 0;
    for (int d = 0; d < dims; ++d) sum += at[d];
    for (int d = 0; d < dims; ++d)
      leader += (lo[d] + (stagger ? (sum - at[d]) % b[d] : (b[d] - 1) / 2)) * stride[d];
    cl.leader = leader;
    cl.members.push_back(leader);
    for (int i = 0; i < cells; ++i) {
      NodeId v = 0;
      int rest = i;
      for (int d = dims; d-- > 0;) {
        v += (lo[d] + rest % b[d]) * stride[d];
        rest /= b[d];
      }
      if (v != leader) cl.members.push_back(v);
    }
    if (bits) {
      std::vector<std::pair<int, int>> flips;  // (bit, dimension), the highest first
      for (int level = 15; level >= 0; --level)
        for (int d = 0; d < dims; ++d)
          if ((1 << level) < b[d]) flips.push_back({1 << level, d});
      std::vector<NodeId> informed{leader};
      for (const auto& [bit, d] : flips) {
        Edges round;
        const std::size_t now = informed.size();
        for (std::size_t i = 0; i < now; ++i) {
          const NodeId u = informed[i];
          const int x = u / stride[d] % sides[d] - lo[d];
          const NodeId v = u + ((x ^ bit) - x) * stride[d];
          round.push_back({u, v});
          informed.push_back(v);
        }
        cl.tree.push_back(std::move(round));
      }
    }
    out.push_back(std::move(cl));
  }
  return out;
}

// Exactly m clusters for any network, of n / m participants rounded up or down: the
// lowest-id participant not yet taken leads, with the untaken participants nearest to it
// (hops both ways, then id).
std::vector<Cluster> nearest_clusters(const PathSet& paths, const std::vector<NodeId>& nodes,
                                      int m) {
  std::vector<NodeId> rest = nodes;
  std::sort(rest.begin(), rest.end());
  const int n = static_cast<int>(nodes.size());
  std::vector<Cluster> out;
  for (int i = 0; i < m && !rest.empty(); ++i) {
    const int size = n / m + (i < n % m ? 1 : 0);
    Cluster cl;
    cl.leader = rest.front();
    std::vector<std::pair<int, NodeId>> near;
    for (std::size_t j = 1; size > 1 && j < rest.size(); ++j)
      near.push_back(
          {paths.distance(cl.leader, rest[j]) + paths.distance(rest[j], cl.leader), rest[j]});
    std::sort(near.begin(), near.end());
    cl.members.push_back(cl.leader);
    for (int j = 0; j + 1 < size && j < static_cast<int>(near.size()); ++j)
      cl.members.push_back(near[j].second);
    std::vector<NodeId> left;
    for (NodeId v : rest)
      if (std::find(cl.members.begin(), cl.members.end(), v) == cl.members.end()) left.push_back(v);
    rest = std::move(left);
    out.push_back(std::move(cl));
  }
  return out;
}

// ceil(log_b x) for x >= 1.
int log_ceil(long long x, int b) {
  int r = 0;
  for (long long v = 1; v < x; v *= b) ++r;
  return r;
}

// The rounds of a clustered exchange when every round fits one step: k-nomial trees over
// clusters of `size` there and back, and log2 m leaders' rounds. At or above twice the
// reduce-information bound, ceil(log_{k+1} p) (what the composition of a gather and a
// broadcast needs at best), it is not worth packing: all-port on a grid every block size
// gives 2 ceil(log_5 c) + log2(p / c) >= 10 on 1,024 processors, the composition's 10.
bool worth_packing(const Problem& p, long long size, long long m) {
  const int k = std::max(1, effective_ports(p));
  const long long n = static_cast<long long>(p.collective.senders.size());
  return 2 * log_ceil(size, k + 1) + log_ceil(m, 2) < 2 * log_ceil(n, k + 1);
}

}  // namespace

void add_exchange_designs(const Problem& p, const PathSet& paths,
                          std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::ALLREDUCE || c.senders != c.receivers || c.senders.size() < 2 ||
      (c.blocks != 1 && !p.model.combining))
    return;
  auto keep = [&](std::optional<Schedule> s, const std::string& name) {
    if (s) out.push_back({name, std::move(*s)});
  };
  add_cube_designs(p, out);
  add_lattice_designs(p, out);
  add_pinwheel_designs(p, out);
  add_staircase_designs(p, out);
  add_tilted_designs(p, out);
  add_fattree_designs(p, out);
  add_kautz_designs(p, out);
  const int n = static_cast<int>(c.senders.size());
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p, wrap);
  try {
    if (!sides.empty()) {
      // Blocks with sides 2, 4 or 8 (one dimension may be twice the others), leaders
      // staggered: unstaggered leaders share rows and their exchanges queue (torus:32x32
      // one-port, blocks 4x4: 18 steps against 14), and a radix above 2 never fits a step
      // on a grid under minimal routing (a leader's partners in one quadrant share its two
      // channels towards it).
      const int dims = static_cast<int>(sides.size());
      const bool one_port = effective_ports(p) == 1;
      for (int side = 2; side <= 8; side *= 2)
        for (int longer = -1; longer < dims; ++longer) {
          if (t_budget != nullptr && t_budget->expired()) return;
          std::vector<int> b(dims, side);
          if (longer >= 0) b[longer] *= 2;
          bool fits = true;
          int cells = 1;
          for (int d = 0; d < dims; ++d) {
            fits = fits && sides[d] % b[d] == 0 && b[d] <= 8;
            cells *= b[d];
          }
          if (!fits || cells >= n || !worth_packing(p, cells, n / cells)) continue;
          std::string shape;
          for (int d = 0; d < dims; ++d) {
            if (d > 0) shape.push_back('x');
            shape.append(std::to_string(b[d]));
          }
          keep(clustered(p, paths, grid_blocks(sides, b, true, one_port), 2),
               "clustered exchange (blocks " + shape + ")");
        }
    }
    // Any other network up to 256 participants: m = 2, 4, ... up to p / 2 clusters of the
    // nearest participants (m = p is recursive doubling, reduction.cpp). Above, finding
    // the clusters' nearest members and packing the leaders' paths cost tens of seconds
    // and a gigabyte on a hypercube:10 without beating the composition, and on kautz:3,5
    // the greedy trees' multi-hop paths collide (28 to 38 steps against the
    // composition's 10 all-port and 18 one-port).
    for (int m = 2; 2 * m <= n && sides.empty() && n <= 256; m *= 2) {
      if (t_budget != nullptr && t_budget->expired()) return;
      if (!worth_packing(p, (n + m - 1) / m, m)) continue;
      keep(clustered(p, paths, nearest_clusters(paths, c.senders, m), 2),
           "clustered exchange (" + std::to_string(m) + " clusters of the nearest)");
    }
  } catch (const Unsupported&) {
  }
}

}  // namespace ccsched::reduce_detail
