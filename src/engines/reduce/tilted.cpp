// Tilted exchange for ALLREDUCE on mesh:NxN (docs/ENGINES.md, "Reductions: tilted
// exchange"). The pinwheel exchange of mesh:32x32 (pinwheel.cpp) for larger meshes, with
// its leaders on a lattice instead of found by a search, so that every leaders' round is a
// translate of one pattern. Coordinates (x, y) = (column, row), node y * N + x; R is the
// quarter turn (x, y) -> (-y, x).
//   - Clusters: the B x B blocks of side b = N / B (B = 2^k <= min(b, 16), b a multiple
//     of 4).
//   - Leaders: block (i, j) is led by L(i, j) = (b i - j, b j + i) + (w + B - 1, w), the
//     lattice spanned by (b, 1) and (-1, b), a square grid turned by atan(1 / b); with w =
//     (min(b, 16) - B) / 2 every leader lies in its block, in a B x B window in the middle
//     of the block (of its first 16 x 16 square when b > 16, see leader_of).
//   - Leaders' rounds, t = 1..k, h = 2^(t-1): the leaders of the blocks (i, j) + h {0,
//     1}^2, i and j with bit t-1 clear, exchange (radix-4 recursive doubling over the
//     aligned squares of blocks, as in the pinwheel exchange). L is linear, so the four
//     are the corners P0..P3 of a turned square, P(q+1) = P(q) + R^q (b h, h), and each
//     corner q sends along R^q of three shapes: to P(q+1) E^(bh) N^h, to P(q-1) W^h N^(bh),
//     to P(q+2) N^a E^((b-1)h) N^((b+1)h-a). A corner leaves by E, W and N (turned by
//     R^q) and is entered from the W, E and N side: three sends and three receives on
//     distinct channels. Every group of a round is a translate of the others by L, and
//     the bend a is the first value for which the whole round is channel-disjoint
//     (checked here by marking; a = 2h on mesh:64x64 to :256x256 with B <= 8). When b = B
//     the middle cut is exactly full (B^2 transfers each way over N = B^2 rows) and these
//     shapes collide there: that B steps aside.
//   - Cluster trees (region_tree): the block tiled by T-tetrominoes (a 4 x 4 pattern
//     repeated); the leader informs every tile centre in D - 1 steps (paths inside the
//     block), and in step D each centre informs its three arms one hop each, on distinct
//     channels. D - 1 = ceil(log_5 (b^2 / 4)) (room 5^(D-1) for b^2 / 4 centres): D = 3
//     for b = 8, 4 for 16, 5 for 32. Minimal paths between cells of a block stay in it, so
//     the blocks never meet. The gather is the broadcast backwards.
// 2 D + k steps all-port: mesh:16x16 7 (B = 2), mesh:32x32 8 (B = 4), mesh:64x64 10 (B = 4;
// B = 8, 9 steps, is the full-cut case above), mesh:128x128 11 (B = 8), mesh:256x256 13
// (B = 8). Needs 4 ports. The transfers are written directly, O(p) of them; no path lists.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

struct Cell {
  int x = 0, y = 0;
};

struct Move {
  int dx = 0, dy = 0;
};
constexpr Move kEast{1, 0}, kNorth{0, 1}, kWest{-1, 0};

// R^q, R the quarter turn counterclockwise.
Move turn(Move m, int q) {
  for (; q > 0; --q) m = {-m.dy, m.dx};
  return m;
}

int distance(Cell a, Cell b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

// Channel a -> b (neighbours) of a side-n grid: the tail's index and the direction.
int channel(int n, Cell a, Cell b) {
  const int dir = b.x > a.x ? 0 : b.x < a.x ? 1 : b.y > a.y ? 2 : 3;
  return (a.y * n + a.x) * 4 + dir;
}

// The minimal paths a -> b with at most two turns (pinwheel.cpp's routes), by index:
// x^k y^|dy| x^(|dx|-k) for k = 0..|dx|, then y^k x^|dx| y^(|dy|-k) for k = 1..|dy|-1.
int bent_count(Cell a, Cell b) {
  const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
  return ax + 1 + std::max(0, ay - 1);
}
void bent_path(Cell a, Cell b, int index, std::vector<Cell>& cells) {
  const int sx = b.x >= a.x ? 1 : -1, sy = b.y >= a.y ? 1 : -1;
  const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
  const bool x_first = index <= ax;
  const int k = x_first ? index : index - ax;
  const std::array<std::pair<bool, int>, 3> runs = {
      {{x_first, k}, {!x_first, x_first ? ay : ax}, {x_first, x_first ? ax - k : ay - k}}};
  cells.assign(1, a);
  for (const auto& [in_x, count] : runs)
    for (int i = 0; i < count; ++i) {
      const Cell c = cells.back();
      cells.push_back(in_x ? Cell{c.x + sx, c.y} : Cell{c.x, c.y + sy});
    }
}

// One broadcast transfer of a cluster's tree.
struct Edge {
  int step = 0;  // 0..D-1
  std::vector<Cell> cells;
};

// The T-tetromino tiling of a 4 x 4 square: (centre, arms) per tile.
struct Tile {
  Cell centre;
  std::array<Cell, 3> arms;
};
constexpr std::array<Tile, 4> kTiles4 = {{{{1, 0}, {{{0, 0}, {2, 0}, {1, 1}}}},
                                          {{3, 1}, {{{3, 0}, {2, 1}, {3, 2}}}},
                                          {{0, 2}, {{{0, 1}, {0, 3}, {1, 2}}}},
                                          {{2, 3}, {{{1, 3}, {3, 3}, {2, 2}}}}}};

// The broadcast tree of the block [lo, lo + b)^2 from `leader` in `depth` steps (see the
// header): the tile centres in steps 0..depth-2, the arms in step depth-1. nullopt when
// `trials` random tries all leave a centre out.
std::optional<std::vector<Edge>> block_tree(Cell lo, int b, Cell leader, int depth,
                                            std::mt19937_64& rng, int trials) {
  std::vector<Tile> tiles;
  for (int i = 0; i < b; i += 4)
    for (int j = 0; j < b; j += 4)
      for (const Tile& t : kTiles4) {
        Tile s{{lo.x + i + t.centre.x, lo.y + j + t.centre.y}, {}};
        for (std::size_t a = 0; a < 3; ++a)
          s.arms[a] = {lo.x + i + t.arms[a].x, lo.y + j + t.arms[a].y};
        tiles.push_back(s);
      }
  // Channels indexed within the block (paths between its cells stay in it).
  std::vector<int> stamp(static_cast<std::size_t>(b) * b * 4, -1);
  int mark = 0;
  auto slot = [&](Cell u, Cell v) {
    return static_cast<std::size_t>(channel(b, {u.x - lo.x, u.y - lo.y}, {v.x - lo.x, v.y - lo.y}));
  };
  auto free_path = [&](const std::vector<Cell>& cells) {
    for (std::size_t i = 0; i + 1 < cells.size(); ++i)
      if (stamp[slot(cells[i], cells[i + 1])] == mark) return false;
    return true;
  };
  auto take_path = [&](const std::vector<Cell>& cells) {
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) stamp[slot(cells[i], cells[i + 1])] = mark;
  };
  std::uniform_real_distribution<double> noise(0.0, 1.0);
  std::vector<int> shape_order;
  std::vector<Cell> scratch;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<Edge> edges;
    std::vector<Cell> informed{leader};
    std::vector<Cell> rest;
    for (const Tile& t : tiles)
      if (t.centre.x != leader.x || t.centre.y != leader.y) rest.push_back(t.centre);
    // A free path u -> c in `step`, taken; false when every path meets a busy channel.
    auto send = [&](Cell u, Cell c, int step) {
      shape_order.resize(static_cast<std::size_t>(bent_count(u, c)));
      for (std::size_t i = 0; i < shape_order.size(); ++i) shape_order[i] = static_cast<int>(i);
      std::shuffle(shape_order.begin(), shape_order.end(), rng);
      for (const int index : shape_order) {
        bent_path(u, c, index, scratch);
        if (!free_path(scratch)) continue;
        take_path(scratch);
        edges.push_back({step, scratch});
        return true;
      }
      return false;
    };
    for (int step = 0; step + 1 < depth && !rest.empty(); ++step) {
      ++mark;
      const std::vector<Cell> now = informed;
      if (step + 2 < depth) {
        // Spread: each informed cell sends far, to centres not near an informed cell, so
        // that the later steps find their targets close by.
        const double apart = static_cast<double>(b) / (2.0 * (step + 1));
        std::vector<Cell> order = now;
        std::shuffle(order.begin(), order.end(), rng);
        for (const Cell u : order) {
          std::vector<std::pair<double, Cell>> far;
          for (const Cell c : rest) far.push_back({-(distance(u, c) + noise(rng) * b), c});
          std::sort(far.begin(), far.end(),
                    [](const auto& l, const auto& r) { return l.first < r.first; });
          int sent = 0, tried = 0;
          for (const auto& [key, c] : far) {
            if (sent == 4 || tried == 16) break;
            bool near = false;
            for (const Cell i : informed) near = near || distance(c, i) < apart;
            if (near) continue;
            ++tried;
            if (!send(u, c, step)) continue;
            informed.push_back(c);
            rest.erase(std::find_if(rest.begin(), rest.end(),
                                    [&](Cell r) { return r.x == c.x && r.y == c.y; }));
            ++sent;
          }
        }
      } else {
        // The last centre step: the centres nearest an informed cell first, each from the
        // nearest informed cell with a port and a path left.
        std::vector<std::pair<double, Cell>> order;
        for (const Cell c : rest) {
          int near = distance(c, now.front());
          for (const Cell i : now) near = std::min(near, distance(c, i));
          order.push_back({near + noise(rng), c});
        }
        std::sort(order.begin(), order.end(),
                  [](const auto& l, const auto& r) { return l.first < r.first; });
        std::vector<int> load(now.size(), 0);
        std::vector<Cell> left;
        for (const auto& [key, c] : order) {
          std::vector<std::pair<double, std::size_t>> from;
          for (std::size_t i = 0; i < now.size(); ++i)
            from.push_back({distance(c, now[i]) + noise(rng), i});
          std::sort(from.begin(), from.end(),
                    [](const auto& l, const auto& r) { return l.first < r.first; });
          bool placed = false;
          for (const auto& [d, i] : from) {
            if (load[i] >= 4 || !send(now[i], c, step)) continue;
            ++load[i];
            placed = true;
            break;
          }
          if (placed) {
            informed.push_back(c);
          } else {
            left.push_back(c);
          }
        }
        rest = std::move(left);
      }
    }
    if (!rest.empty()) continue;
    for (const Tile& t : tiles)
      for (const Cell arm : t.arms)
        if (arm.x != leader.x || arm.y != leader.y) edges.push_back({depth - 1, {t.centre, arm}});
    return edges;
  }
  return std::nullopt;
}

// Steps of a tree over b x b cells whose b^2 / 4 tile centres take ceil(log_5) steps.
int tree_depth(int b) {
  int depth = 1;
  for (long long room = 1; room < static_cast<long long>(b) * b / 4; room *= 5) ++depth;
  return depth;
}

// The side up to which block_tree searches a block whole; above it, in 200 tries it found
// no tree of 5 steps over 32 x 32 from the leaders tried.
constexpr int kWholeSide = 16;

// The broadcast tree of [lo, lo + b)^2 from `leader` in tree_depth(b) steps, its steps
// from `first` on, appended to `edges`. Up to kWholeSide by block_tree; above it by
// quadrants: in step `first` the leader informs one tile centre in each other quadrant
// (one of those nearest the leader's translate into that quadrant, so that the recursion
// meets it, as the leader, away from a corner; another of the six nearest when the three
// paths do not fit), and each quadrant continues from its informed
// cell in tree_depth(b / 2) = tree_depth(b) - 1 steps (for b a power of two from 16 to
// 128, ceil(log_5 (b^2 / 4)) grows by one when b doubles). False when a part fails.
bool region_tree(Cell lo, int b, Cell leader, int first, std::mt19937_64& rng,
                 std::vector<Edge>& edges) {
  if (b <= kWholeSide) {
    const auto tree = block_tree(lo, b, leader, tree_depth(b), rng, 200);
    if (!tree) return false;
    for (Edge e : *tree) {
      e.step += first;
      edges.push_back(std::move(e));
    }
    return true;
  }
  const int half = b / 2;
  const int own = (leader.x - lo.x) / half + 2 * ((leader.y - lo.y) / half);
  std::array<Cell, 4> sub{};
  sub[static_cast<std::size_t>(own)] = leader;
  // The six tile centres of each other quadrant nearest the leader's translate into it.
  std::vector<std::pair<int, std::vector<Cell>>> targets;  // (quadrant, candidates)
  for (int q = 0; q < 4; ++q) {
    if (q == own) continue;
    const Cell qlo{lo.x + q % 2 * half, lo.y + q / 2 * half};
    const Cell image{qlo.x + (leader.x - lo.x) % half, qlo.y + (leader.y - lo.y) % half};
    std::vector<std::pair<int, Cell>> near;
    for (int i = 0; i < half; i += 4)
      for (int j = 0; j < half; j += 4)
        for (const Tile& t : kTiles4) {
          const Cell c{qlo.x + i + t.centre.x, qlo.y + j + t.centre.y};
          near.push_back({distance(c, image), c});
        }
    std::stable_sort(near.begin(), near.end(),
                     [](const auto& l, const auto& r) { return l.first < r.first; });
    std::vector<Cell> cand;
    for (std::size_t k = 0; k < near.size() && k < 6; ++k) cand.push_back(near[k].second);
    targets.push_back({q, std::move(cand)});
  }
  // Depth-first over (target, path) per quadrant: the leader has three sends to place on
  // disjoint paths, and a first path taken at random often takes the channel another
  // needs (a target straight east leaves the leader by E unless it is a row lower).
  std::vector<int> busy(static_cast<std::size_t>(b) * b * 4, 0);
  auto slot = [&](Cell u, Cell v) {
    return static_cast<std::size_t>(channel(b, {u.x - lo.x, u.y - lo.y}, {v.x - lo.x, v.y - lo.y}));
  };
  std::vector<Edge> sends;
  long long visits = 0;
  std::function<bool(std::size_t)> place = [&](std::size_t k) {
    if (k == targets.size()) return true;
    for (const Cell target : targets[k].second) {
      const int count = bent_count(leader, target);
      for (int index = 0; index < count && ++visits < 200000; ++index) {
        std::vector<Cell> cells;
        bent_path(leader, target, index, cells);
        bool free = true;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i)
          free = free && busy[slot(cells[i], cells[i + 1])] == 0;
        if (!free) continue;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) ++busy[slot(cells[i], cells[i + 1])];
        sub[static_cast<std::size_t>(targets[k].first)] = target;
        sends.push_back({first, cells});
        if (place(k + 1)) return true;
        sends.pop_back();
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) --busy[slot(cells[i], cells[i + 1])];
      }
    }
    return false;
  };
  if (!place(0)) return false;
  edges.insert(edges.end(), sends.begin(), sends.end());
  for (int q = 0; q < 4; ++q)
    if (!region_tree({lo.x + q % 2 * half, lo.y + q / 2 * half}, half,
                     sub[static_cast<std::size_t>(q)], first + 1, rng, edges))
      return false;
  return true;
}

// The leader of block (i, j): L(i, j) = (b i - j + c0, b j + i + c1), in the block's
// B x B window at offset (w, w), w = (min(b, kWholeSide) - B) / 2: the middle of the block,
// or of its first kWholeSide square when region_tree splits it (so that the leader is
// never at a corner of the square it is searched in).
Cell leader_of(int b, int blocks, int i, int j) {
  const int w = (std::min(b, kWholeSide) - blocks) / 2;
  return {b * i - j + w + blocks - 1, b * j + i + w};
}

// The leaders' round t (h = 2^(t-1)) of the B x B blocks of side b on mesh:NxN, each
// transfer as its cells; nullopt when no bend a makes the round channel-disjoint.
std::optional<std::vector<std::vector<Cell>>> leaders_round(int n, int blocks, int b, int h) {
  auto leader = [&](int i, int j) { return leader_of(b, blocks, i, j); };
  std::vector<int> stamp(static_cast<std::size_t>(n) * n * 4, -1);
  for (int a = 1; a < (b + 1) * h; ++a) {
    const std::array<std::vector<Move>, 3> shapes = [&] {
      std::vector<Move> next(static_cast<std::size_t>(b * h), kEast),
          prev(static_cast<std::size_t>(h), kWest), opposite(static_cast<std::size_t>(a), kNorth);
      next.insert(next.end(), static_cast<std::size_t>(h), kNorth);
      prev.insert(prev.end(), static_cast<std::size_t>(b * h), kNorth);
      opposite.insert(opposite.end(), static_cast<std::size_t>((b - 1) * h), kEast);
      opposite.insert(opposite.end(), static_cast<std::size_t>((b + 1) * h - a), kNorth);
      return std::array<std::vector<Move>, 3>{next, prev, opposite};
    }();
    constexpr std::array<int, 3> kTo = {1, 3, 2};  // next, previous, opposite corner
    std::vector<std::vector<Cell>> out;
    bool clash = false;
    for (int i = 0; i < blocks && !clash; ++i)
      for (int j = 0; j < blocks && !clash; ++j) {
        if ((i & h) != 0 || (j & h) != 0) continue;
        const std::array<Cell, 4> corner = {leader(i, j), leader(i + h, j), leader(i + h, j + h),
                                            leader(i, j + h)};
        for (int q = 0; q < 4 && !clash; ++q)
          for (std::size_t s = 0; s < 3 && !clash; ++s) {
            std::vector<Cell> cells{corner[static_cast<std::size_t>(q)]};
            for (const Move m : shapes[s]) {
              const Move r = turn(m, q);
              const Cell c = cells.back(), d{c.x + r.dx, c.y + r.dy};
              if (d.x < 0 || d.y < 0 || d.x >= n || d.y >= n) {
                clash = true;
                break;
              }
              int& use = stamp[static_cast<std::size_t>(channel(n, c, d))];
              clash = clash || use == a;
              use = a;
              cells.push_back(d);
            }
            const Cell to = corner[static_cast<std::size_t>((q + kTo[s]) % 4)];
            clash = clash || cells.back().x != to.x || cells.back().y != to.y;
            out.push_back(std::move(cells));
          }
      }
    if (!clash) return out;
  }
  return std::nullopt;
}

// The whole design with B = `blocks`; nullopt when a round collides or a tree is not found.
std::optional<std::vector<Transfer>> tilted(const Problem& p, int n, int blocks) {
  const int b = n / blocks;
  std::vector<std::vector<std::vector<Cell>>> rounds;
  for (int h = 1; h < blocks; h *= 2) {
    auto round = leaders_round(n, blocks, b, h);
    if (!round) return std::nullopt;
    rounds.push_back(std::move(*round));
  }
  const int depth = tree_depth(b);
  std::mt19937_64 rng(1);
  const std::vector<int> all = all_blocks(p.collective);
  std::vector<Transfer> transfers;
  bool ok = true;
  auto emit = [&](Step step, const std::vector<Cell>& cells, bool backwards, ReductionRecv recv) {
    std::vector<NodeId> path;
    for (const Cell& c : cells) path.push_back(static_cast<NodeId>(c.y * n + c.x));
    if (backwards) std::reverse(path.begin(), path.end());
    ok = add_path_transfers(transfers, p, step, path, all, recv) && ok;  // a fault: step aside
  };
  const int k = static_cast<int>(rounds.size());
  for (int i = 0; i < blocks; ++i)
    for (int j = 0; j < blocks; ++j) {
      const Cell lo{b * i, b * j}, leader = leader_of(b, blocks, i, j);
      std::vector<Edge> tree;
      const bool found = region_tree(lo, b, leader, 0, rng, tree);
      if (!found) return std::nullopt;
      for (const Edge& e : tree) {
        // Gather: broadcast step s (0..D-1) backwards in step D - s; broadcast in D + k + 1 + s.
        emit(static_cast<Step>(depth - e.step), e.cells, true, ReductionRecv::reduce);
        emit(static_cast<Step>(depth + k + 1 + e.step), e.cells, false, ReductionRecv::copy);
      }
    }
  for (int t = 0; t < k; ++t)
    for (const auto& cells : rounds[static_cast<std::size_t>(t)])
      emit(static_cast<Step>(depth + 1 + t), cells, false, ReductionRecv::reduce);
  if (!ok) return std::nullopt;
  return transfers;
}

// 2 D + k: the trees there and back, k = log2 B leaders' rounds.
int tilted_exchange_steps(int side, int blocks) {
  int k = 0;
  while ((1 << k) < blocks) ++k;
  return 2 * tree_depth(side / blocks) + k;
}

}  // namespace

void add_tilted_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  if (!wormhole_exchange_applies(p) || effective_ports(p) < 4) return;
  bool wrap = true;
  const std::vector<int> sides = grid_sides(p, wrap);
  // The exact generated mesh: a faulty copy keeps the name but not every channel.
  if (wrap || sides.size() != 2 || sides[0] != sides[1] || !is_generated(p.topology)) return;
  const int n = sides[0];
  // Every B = 2^k >= 2 whose blocks fit (b a multiple of 4, b >= B), fewest steps first.
  std::vector<std::pair<int, int>> options;  // (steps, B)
  for (int blocks = 2; blocks * blocks <= n; blocks *= 2)
    if (n % blocks == 0 && (n / blocks) % 4 == 0 && std::min(n / blocks, kWholeSide) >= blocks)
      options.push_back({tilted_exchange_steps(n, blocks), -blocks});
  std::sort(options.begin(), options.end());
  for (const auto& [steps, minus_blocks] : options) {
    if (t_budget != nullptr && t_budget->expired()) return;
    auto transfers = tilted(p, n, -minus_blocks);
    if (!transfers) continue;
    const int blocks = -minus_blocks, b = n / blocks;
    out.push_back({"tilted exchange (mesh:" + std::to_string(n) + "x" + std::to_string(n) +
                       ", blocks " + std::to_string(b) + "x" + std::to_string(b) +
                       ", radix-4 leaders)",
                   assemble_schedule(p, std::move(*transfers), "", 0)});
    return;
  }
}

}  // namespace ccsched::reduce_detail
