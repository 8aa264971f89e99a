// Pinwheel exchange for ALLREDUCE on mesh:32x32 (docs/ENGINES.md, "Reductions: pinwheel
// exchange"). A clustered exchange (exchange.cpp) with 16 clusters, the 8 x 8 blocks, and
// radix-4 leaders' rounds, which the mesh admits when the leaders of a group are not the
// corners of an axis-parallel rectangle (then a leader's three partners lie in one
// quadrant, reachable only through its two channels towards it) but of a turned square, a
// pinwheel. Coordinates (x, y) = (column, row), node y * 32 + x, blocks B(i, j) = [8i,
// 8i + 8) x [8j, 8j + 8).
//   - Leaders: four fixed cells in the blocks of the quadrant [0, 16)^2 and their images
//     under the quarter turn R(x, y) = (31 - y, x) about the mesh's centre (R maps blocks
//     to blocks: B(i, j) to B(3 - j, i)), one per block.
//   - Round A: the four leaders of each quadrant exchange (each sends its sum to the three
//     others, which add it); round B: the four leaders of the blocks B(i + 2e, j + 2f),
//     e, f in {0, 1}, one per quadrant, exchange the quadrants' sums. The sums are over
//     disjoint sets of blocks whose union is the next round's (radix-4 recursive
//     doubling), so after two steps every leader holds the total. Each transfer takes a
//     minimal path with at most two turns; a deterministic repair search chooses them so
//     that each round is channel-disjoint (the four cells were found by a search over
//     cells whose both rounds admit such a choice).
//   - Clusters: each block reduces into its leader in 3 steps and gets the total back in 3,
//     the broadcast tree backwards and forwards. The tree: a tiling of the block by 16
//     T-tetrominoes, one centred on the leader; in the broadcast the leader informs the
//     other 15 centres in 2 steps (paths inside the block, chosen by a search; 1 + 4 + 20
//     would be room for 25), and in step 3 every centre informs its three arms one hop
//     each, which are distinct channels. Paths between two cells of a block stay in it, so
//     the blocks never meet.
// 3 + 2 + 3 = 8 steps all-port (reduce-cut bound 6, docs/BOUNDS.md; the composition of a gather
// and a broadcast: 10). Needs 4 ports (a broadcast node sends up to 4 transfers a step).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <random>
#include <utility>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

constexpr int kSide = 32;
constexpr int kBlock = 8;

struct Cell {
  int x = 0, y = 0;
};

NodeId node(Cell c) { return static_cast<NodeId>(c.y * kSide + c.x); }
Cell rotate(Cell c) { return {kSide - 1 - c.y, c.x}; }

// Channel id of the hop a -> b (neighbours): the tail's node and the direction.
int channel(Cell a, Cell b) {
  const int dir = b.x > a.x ? 0 : b.x < a.x ? 1 : b.y > a.y ? 2 : 3;
  return static_cast<int>(node(a)) * 4 + dir;
}

// The minimal paths a -> b with at most two turns: x^k y^|dy| x^(|dx|-k) for k = 0..|dx|,
// then y^k x^|dx| y^(|dy|-k) for k = 1..|dy|-1, each as its cells and channel ids.
struct Route {
  std::vector<Cell> cells;
  std::vector<int> channels;
};

std::vector<Route> bent_routes(Cell a, Cell b) {
  const int sx = b.x >= a.x ? 1 : -1, sy = b.y >= a.y ? 1 : -1;
  const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
  std::vector<std::vector<bool>> shapes;  // true: a move in x
  for (int k = 0; k <= ax; ++k) {
    std::vector<bool> s(static_cast<std::size_t>(k), true);
    s.insert(s.end(), static_cast<std::size_t>(ay), false);
    s.insert(s.end(), static_cast<std::size_t>(ax - k), true);
    shapes.push_back(std::move(s));
  }
  for (int k = 1; k < ay; ++k) {
    std::vector<bool> s(static_cast<std::size_t>(k), false);
    s.insert(s.end(), static_cast<std::size_t>(ax), true);
    s.insert(s.end(), static_cast<std::size_t>(ay - k), false);
    shapes.push_back(std::move(s));
  }
  std::vector<Route> out;
  for (const auto& s : shapes) {
    Route r;
    Cell c = a;
    r.cells.push_back(c);
    for (const bool in_x : s) {
      const Cell n = in_x ? Cell{c.x + sx, c.y} : Cell{c.x, c.y + sy};
      r.channels.push_back(channel(c, n));
      r.cells.push_back(n);
      c = n;
    }
    out.push_back(std::move(r));
  }
  return out;
}

// Routes for the pairs, channel-disjoint, by repair: every pair starts on a random route;
// while some channel carries two, a random pair on such a channel moves to the route
// meeting the fewest busy channels (ties at random). nullopt when `rounds` repairs do not
// clear every collision.
std::optional<std::vector<Route>> repair_routes(const std::vector<std::pair<Cell, Cell>>& pairs,
                                                std::mt19937_64& rng, int rounds) {
  std::vector<std::vector<Route>> cand;
  for (const auto& [a, b] : pairs) cand.push_back(bent_routes(a, b));
  std::vector<std::size_t> choice(pairs.size());
  std::vector<int> use(static_cast<std::size_t>(kSide) * kSide * 4, 0);
  auto place = [&](std::size_t i, int d) {
    for (const int ch : cand[i][choice[i]].channels) use[static_cast<std::size_t>(ch)] += d;
  };
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    choice[i] = rng() % cand[i].size();
    place(i, 1);
  }
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::size_t> bad;
    for (std::size_t i = 0; i < pairs.size(); ++i)
      for (const int ch : cand[i][choice[i]].channels)
        if (use[static_cast<std::size_t>(ch)] > 1) {
          bad.push_back(i);
          break;
        }
    if (bad.empty()) {
      std::vector<Route> out;
      for (std::size_t i = 0; i < pairs.size(); ++i) out.push_back(cand[i][choice[i]]);
      return out;
    }
    const std::size_t i = bad[rng() % bad.size()];
    place(i, -1);
    std::size_t best = 0;
    int best_busy = -1;
    std::uint64_t best_tie = 0;
    for (std::size_t k = 0; k < cand[i].size(); ++k) {
      int busy = 0;
      for (const int ch : cand[i][k].channels) busy += use[static_cast<std::size_t>(ch)] > 0;
      const std::uint64_t tie = rng();
      if (best_busy < 0 || busy < best_busy || (busy == best_busy && tie < best_tie)) {
        best = k;
        best_busy = busy;
        best_tie = tie;
      }
    }
    choice[i] = best;
    place(i, 1);
  }
  return std::nullopt;
}

// repair_routes from `restarts` random starts (a repair can stall in a local minimum: on
// the leaders' second round about half the starts clear every collision in 2,000 repairs).
std::optional<std::vector<Route>> disjoint_routes(const std::vector<std::pair<Cell, Cell>>& pairs,
                                                  std::mt19937_64& rng, int restarts) {
  for (int r = 0; r < restarts; ++r)
    if (auto routes = repair_routes(pairs, rng, 2000)) return routes;
  return std::nullopt;
}

// A tiling of the block at `lo` by T-tetrominoes (a centre and three of its four
// neighbours) with a tile centred on `leader`: (centre, arms) per tile, the leader's
// first; empty when there is none. Backtracking over the first free cell in row order.
using Tile = std::pair<Cell, std::array<Cell, 3>>;

bool tile_rest(Cell lo, std::vector<char>& taken, std::vector<Tile>& tiles) {
  auto idx = [&](Cell c) { return static_cast<std::size_t>((c.y - lo.y) * kBlock + (c.x - lo.x)); };
  auto inside = [&](Cell c) {
    return c.x >= lo.x && c.x < lo.x + kBlock && c.y >= lo.y && c.y < lo.y + kBlock;
  };
  std::size_t first = 0;
  while (first < taken.size() && taken[first] != 0) ++first;
  if (first == taken.size()) return true;
  const Cell f{lo.x + static_cast<int>(first % kBlock), lo.y + static_cast<int>(first / kBlock)};
  constexpr std::array<Cell, 4> dirs = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
  for (int miss = 0; miss < 4; ++miss) {
    std::array<Cell, 3> arms{};
    int n = 0;
    for (int d = 0; d < 4; ++d)
      if (d != miss) arms[static_cast<std::size_t>(n++)] = dirs[static_cast<std::size_t>(d)];
    // f as the centre (role -1) or as one of the arms.
    for (int role = -1; role < 3; ++role) {
      const Cell centre = role < 0 ? f
                                   : Cell{f.x - arms[static_cast<std::size_t>(role)].x,
                                          f.y - arms[static_cast<std::size_t>(role)].y};
      std::array<Cell, 4> cells{centre, Cell{}, Cell{}, Cell{}};
      for (std::size_t a = 0; a < 3; ++a) cells[a + 1] = {centre.x + arms[a].x, centre.y + arms[a].y};
      bool fits = true;
      for (const Cell& c : cells) fits = fits && inside(c) && taken[idx(c)] == 0;
      if (!fits) continue;
      for (const Cell& c : cells) taken[idx(c)] = 1;
      tiles.push_back({centre, {cells[1], cells[2], cells[3]}});
      if (tile_rest(lo, taken, tiles)) return true;
      tiles.pop_back();
      for (const Cell& c : cells) taken[idx(c)] = 0;
    }
  }
  return false;
}

std::vector<Tile> t_tiling(Cell lo, Cell leader) {
  constexpr std::array<Cell, 4> dirs = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
  for (int miss = 0; miss < 4; ++miss) {
    std::vector<char> taken(static_cast<std::size_t>(kBlock) * kBlock, 0);
    std::vector<Tile> tiles;
    Tile t{leader, {}};
    bool fits = true;
    int n = 0;
    for (int d = 0; d < 4; ++d) {
      if (d == miss) continue;
      const Cell c{leader.x + dirs[static_cast<std::size_t>(d)].x,
                   leader.y + dirs[static_cast<std::size_t>(d)].y};
      fits = fits && c.x >= lo.x && c.x < lo.x + kBlock && c.y >= lo.y && c.y < lo.y + kBlock;
      t.second[static_cast<std::size_t>(n++)] = c;
    }
    if (!fits) continue;
    taken[static_cast<std::size_t>((leader.y - lo.y) * kBlock + leader.x - lo.x)] = 1;
    for (const Cell& c : t.second) taken[static_cast<std::size_t>((c.y - lo.y) * kBlock + c.x - lo.x)] = 1;
    tiles.push_back(t);
    if (tile_rest(lo, taken, tiles)) return tiles;
  }
  return {};
}

// One broadcast transfer of a cluster's tree.
struct Edge {
  int step = 0;  // 0..2
  Route route;
};

// The block's broadcast tree in 3 steps (see the header): the T-tiling's centres informed
// in steps 1 and 2 (random trials: each informed cell takes up to 4 uninformed centres
// whose routes are free), the arms in step 3.
std::optional<std::vector<Edge>> block_tree(Cell lo, Cell leader, std::mt19937_64& rng) {
  const std::vector<Tile> tiles = t_tiling(lo, leader);
  if (tiles.empty()) return std::nullopt;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<Edge> edges;
    std::vector<Cell> informed{leader};
    std::vector<Cell> rest;
    for (std::size_t t = 1; t < tiles.size(); ++t) rest.push_back(tiles[t].first);
    for (int step = 0; step < 2 && !rest.empty(); ++step) {
      std::vector<char> used(static_cast<std::size_t>(kSide) * kSide * 4, 0);
      std::vector<Cell> now = informed;
      std::shuffle(now.begin(), now.end(), rng);
      for (const Cell& u : now) {
        std::shuffle(rest.begin(), rest.end(), rng);
        int sent = 0;
        for (std::size_t i = 0; i < rest.size() && sent < 4;) {
          std::vector<Route> routes = bent_routes(u, rest[i]);
          std::shuffle(routes.begin(), routes.end(), rng);
          bool placed = false;
          for (Route& r : routes) {
            bool free = true;
            for (const int ch : r.channels) free = free && used[static_cast<std::size_t>(ch)] == 0;
            if (!free) continue;
            for (const int ch : r.channels) used[static_cast<std::size_t>(ch)] = 1;
            edges.push_back({step, std::move(r)});
            placed = true;
            break;
          }
          if (placed) {
            informed.push_back(rest[i]);
            rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
            ++sent;
          } else {
            ++i;
          }
        }
      }
    }
    if (!rest.empty()) continue;
    for (const Tile& t : tiles)
      for (const Cell& arm : t.second) edges.push_back({2, Route{{t.first, arm}, {channel(t.first, arm)}}});
    return edges;
  }
  return std::nullopt;
}

}  // namespace

void add_pinwheel_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (!wormhole_exchange_applies(p) || effective_ports(p) < 4) return;
  bool wrap = true;
  const std::vector<int> sides = grid_sides(p, wrap);
  if (wrap || sides != std::vector<int>{kSide, kSide}) return;
  // The leaders of B(0,0), B(1,0), B(0,1), B(1,1) and their quarter turns, by block.
  const std::array<Cell, 4> quadrant = {{{5, 3}, {13, 7}, {1, 12}, {9, 15}}};
  std::array<Cell, 16> leader{};
  std::array<bool, 16> taken{};
  for (Cell l : quadrant)
    for (int r = 0; r < 4; ++r, l = rotate(l)) {
      const std::size_t b = static_cast<std::size_t>(l.y / kBlock * 4 + l.x / kBlock);
      if (taken[b]) return;
      leader[b] = l;
      taken[b] = true;
    }
  auto at = [&](int i, int j) { return leader[static_cast<std::size_t>(j * 4 + i)]; };
  std::mt19937_64 rng(1);
  // The leaders' two rounds: groups of four, every ordered pair.
  std::array<std::vector<std::pair<Cell, Cell>>, 2> pairs;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      std::array<Cell, 4> quad{}, spread{};
      for (int e = 0; e < 2; ++e)
        for (int f = 0; f < 2; ++f) {
          quad[static_cast<std::size_t>(2 * e + f)] = at(2 * a + e, 2 * b + f);
          spread[static_cast<std::size_t>(2 * e + f)] = at(a + 2 * e, b + 2 * f);
        }
      for (std::size_t u = 0; u < 4; ++u)
        for (std::size_t v = 0; v < 4; ++v)
          if (u != v) {
            pairs[0].push_back({quad[u], quad[v]});
            pairs[1].push_back({spread[u], spread[v]});
          }
    }
  std::array<std::vector<Route>, 2> star;
  for (int r = 0; r < 2; ++r) {
    auto routes = disjoint_routes(pairs[static_cast<std::size_t>(r)], rng, 64);
    if (!routes) return;
    star[static_cast<std::size_t>(r)] = std::move(*routes);
  }
  std::vector<std::vector<Edge>> trees;
  for (int b = 0; b < 16; ++b) {
    auto tree = block_tree({b % 4 * kBlock, b / 4 * kBlock}, leader[static_cast<std::size_t>(b)], rng);
    if (!tree) return;
    trees.push_back(std::move(*tree));
  }
  const std::vector<int> blocks = all_blocks(c);
  std::vector<Transfer> transfers;
  bool ok = true;
  auto emit = [&](Step step, const std::vector<Cell>& cells, bool backwards, ReductionRecv recv) {
    std::vector<NodeId> path;
    for (const Cell& x : cells) path.push_back(node(x));
    if (backwards) std::reverse(path.begin(), path.end());
    ok = add_path_transfers(transfers, p, step, path, blocks, recv) && ok;  // a fault: step aside
  };
  for (const auto& tree : trees)
    for (const Edge& e : tree) {
      // Gather: broadcast step s (0..2) backwards in step 3 - s; broadcast in step 6 + s.
      emit(static_cast<Step>(3 - e.step), e.route.cells, true, ReductionRecv::reduce);
      emit(static_cast<Step>(6 + e.step), e.route.cells, false, ReductionRecv::copy);
    }
  for (std::size_t r = 0; r < 2; ++r)
    for (const Route& route : star[r]) emit(static_cast<Step>(4 + r), route.cells, false, ReductionRecv::reduce);
  if (!ok) return;
  out.push_back({"pinwheel exchange (mesh:32x32, blocks 8x8, radix-4 leaders)",
                 assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
