// Lattice exchange for ALLREDUCE on torus:32x32 (docs/ENGINES.md, "Reductions: lattice
// exchange"). A clustered exchange (exchange.cpp) whose leaders form a lattice and whose
// every phase is invariant under its translations, so that contention-freedom is a count
// over channel classes instead of a packing. Coordinates (x, y) = (column, row); E is
// x + 1, N is y + 1, all modulo 32.
//   - Leaders: L = {(x, y) : x - y = 0 mod 16}, two per row, 64 in all. A channel's class
//     is (x - y mod 16 at its tail, its direction): transfers that are translates of each
//     other by L collide only when two of the translated shapes use one class.
//   - Clusters: leader l with the 16 nodes l + pos[k], k = -7..8, on the staircase pos[0] =
//     (0, 0), pos[k] = pos[k-1] + (E if k odd else S) for k > 0, pos[k] = pos[k+1] + (N if
//     k odd else W) for k < 0. x - y of pos[k] is k, so the clusters tile the torus (one
//     node of each class mod L). On classes a cluster is a line -7..8 whose links k -> k+1
//     have two channels (E and S types; N and W backwards).
//   - Broadcast down a cluster in 2 steps (the gather is the same backwards, each path
//     reversed): step 1, 0 -> 5 along the staircase and 0 -> 8 along the staircase's
//     opposite types (S, E, S, ...: it meets the staircase every second node and uses the
//     other channel of each link), 0 -> -5 along the staircase; step 2, each of -5, 0, 5
//     sends to c +- 1 (one hop on the staircase) and c +- 2 (the other type first, then the
//     staircase's). The windows c-2..c+2 are disjoint and no link carries two paths of one
//     type: every class is used once per step.
//   - The 64 leaders all-reduce by three stars (cube.cpp): in step t every leader x sends
//     to x + v for the three v of F_t, which add what they get; the sum F_1 + F_2 + F_3 is
//     direct and covers L mod 32, so after three steps every leader holds all 64 clusters:
//       F_1 = {(0,16): N^16, (16,0): E^16, (-16,-16): W S^16 W^15}
//       F_2 = {(1,1): E N, (2,2): N N E E, (3,-13): S E E E S^12}
//       F_3 = {(4,4): E^4 N^4, (8,8): N^8 E^8, (-4,-4): W S^4 W^3}
//     with these paths (minimal on the torus), which use every channel class at most once
//     per star (found by an exhaustive search over the stars of the lattices of index 16,
//     paths with at most two turns; no lattice of the form {x = 0 mod a, ...} with blocks
//     as clusters has one). Every leader sends and receives three transfers a step.
// 2 + 3 + 2 = 7 steps all-port (reduce-information bound: 5). Needs 4 ports.
#include <array>
#include <optional>
#include <string>
#include <utility>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

constexpr int kSide = 32;

struct Move {
  int dx, dy;
};
constexpr Move kE{1, 0}, kW{-1, 0}, kN{0, 1}, kS{0, -1};

Move move_of(char c) {
  switch (c) {
    case 'E': return kE;
    case 'W': return kW;
    case 'N': return kN;
    default: return kS;
  }
}

// "N16" style run-length strings to moves: "W S16 W15".
std::vector<Move> moves(const std::string& text) {
  std::vector<Move> out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i++];
    if (c == ' ') continue;
    int count = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') count = count * 10 + (text[i++] - '0');
    out.insert(out.end(), count == 0 ? 1 : count, move_of(c));
  }
  return out;
}

NodeId node(int x, int y) {
  return static_cast<NodeId>(((y % kSide + kSide) % kSide) * kSide + (x % kSide + kSide) % kSide);
}

// The node path from (x, y) along `ms`.
std::vector<NodeId> walk(int x, int y, const std::vector<Move>& ms) {
  std::vector<NodeId> path{node(x, y)};
  for (const Move& m : ms) {
    x += m.dx;
    y += m.dy;
    path.push_back(node(x, y));
  }
  return path;
}

Move reverse(Move m) { return {-m.dx, -m.dy}; }

}  // namespace

void add_lattice_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (!wormhole_exchange_applies(p) || effective_ports(p) < 4) return;
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p, wrap);
  if (!wrap || sides != std::vector<int>{kSide, kSide}) return;
  // The staircase: pos[k + 7] for k = -7..8, and the moves from pos[k] towards k + 1 on it.
  std::array<std::pair<int, int>, 16> pos{};
  auto at = [&](int k) -> std::pair<int, int>& { return pos[k + 7]; };
  at(0) = {0, 0};
  for (int k = 1; k <= 8; ++k) {
    const Move m = k % 2 != 0 ? kE : kS;
    at(k) = {at(k - 1).first + m.dx, at(k - 1).second + m.dy};
  }
  for (int k = -1; k >= -7; --k) {
    const Move m = k % 2 != 0 ? kN : kW;
    at(k) = {at(k + 1).first + m.dx, at(k + 1).second + m.dy};
  }
  // Staircase move from k to k + d (d = +-1), and its other type.
  auto stair = [](int k, int d) {
    if (d > 0) return (k + 1) % 2 != 0 ? kE : kS;
    return (k - 1) % 2 != 0 ? kN : kW;
  };
  auto other = [](Move m) {
    if (m.dx == 1) return kS;
    if (m.dy == -1) return kE;
    if (m.dy == 1) return kW;
    return kN;
  };
  // Broadcast edges of one cluster as (from k, to k, moves), per step.
  struct Edge {
    int from, to;
    std::vector<Move> ms;
  };
  std::vector<std::vector<Edge>> down(2);
  auto along = [&](int from, int to, bool opposite) {
    std::vector<Move> ms;
    const int d = to > from ? 1 : -1;
    for (int k = from; k != to; k += d) ms.push_back(opposite ? other(stair(k, d)) : stair(k, d));
    return ms;
  };
  down[0].push_back({0, 5, along(0, 5, false)});
  down[0].push_back({0, 8, along(0, 8, true)});
  down[0].push_back({0, -5, along(0, -5, false)});
  for (const int centre : {-5, 0, 5})
    for (const int d : {1, -1}) {
      if (centre + d >= -7 && centre + d <= 8) down[1].push_back({centre, centre + d, {stair(centre, d)}});
      if (centre + 2 * d >= -7 && centre + 2 * d <= 8)
        down[1].push_back({centre, centre + 2 * d,
                           {other(stair(centre, d)), stair(centre, d)}});
    }
  const std::array<std::vector<std::string>, 3> stars = {{
      {"N16", "E16", "W S16 W15"},
      {"E N", "N2 E2", "S E3 S12"},
      {"E4 N4", "N8 E8", "W S4 W3"},
  }};
  std::vector<std::pair<int, int>> leaders;
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x)
      if (((x - y) % 16 + 16) % 16 == 0) leaders.push_back({x, y});
  // The clusters must tile the torus.
  std::vector<char> seen(static_cast<std::size_t>(kSide) * kSide, 0);
  for (const auto& [lx, ly] : leaders)
    for (const auto& [dx, dy] : pos) {
      char& s = seen[node(lx + dx, ly + dy)];
      if (s != 0) return;
      s = 1;
    }
  const std::vector<int> blocks = all_blocks(c);
  std::vector<Transfer> transfers;
  bool ok = true;
  auto emit = [&](Step step, const std::vector<NodeId>& path, ReductionRecv recv) {
    ok = add_path_transfers(transfers, p, step, path, blocks, recv) && ok;  // a fault: step aside
  };
  for (const auto& [lx, ly] : leaders) {
    // Gather: the broadcast's steps backwards, each path reversed (steps 1 and 2).
    for (int s = 0; s < 2; ++s)
      for (const Edge& e : down[1 - s]) {
        std::vector<Move> back;
        for (auto it = e.ms.rbegin(); it != e.ms.rend(); ++it) back.push_back(reverse(*it));
        emit(static_cast<Step>(s + 1), walk(lx + at(e.to).first, ly + at(e.to).second, back),
             ReductionRecv::reduce);
      }
    // The leaders' stars (steps 3..5).
    for (int t = 0; t < 3; ++t)
      for (const std::string& text : stars[t])
        emit(static_cast<Step>(3 + t), walk(lx, ly, moves(text)), ReductionRecv::reduce);
    // Broadcast (steps 6 and 7), as copies.
    for (int s = 0; s < 2; ++s)
      for (const Edge& e : down[s])
        emit(static_cast<Step>(6 + s), walk(lx + at(e.from).first, ly + at(e.from).second, e.ms),
             ReductionRecv::copy);
  }
  if (!ok) return;
  out.push_back({"lattice exchange (torus:32x32, leaders x - y = 0 mod 16)",
                 assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
