// Staircase exchange for ALLREDUCE on torus:NxN, N a power of two from 8 (docs/ENGINES.md,
// "Reductions: staircase exchange"). The lattice exchange of torus:32x32 (lattice.cpp) for
// every such side: the same leaders' lattice and staircase clusters, index M = N/2 or N
// instead of 16, the cluster broadcast a 5-ary tree of any depth and the leaders' stars in
// closed form. M = N/2 is described below; with M = N the leaders are a(1, 1), one a row,
// and only the digit stars are needed (no half-turn, no second leader in a row).
// Coordinates (x, y) = (column, row); E is x + 1, N is y + 1, all modulo N.
//   - Leaders: L = {(x, y) : x - y = 0 mod M}, two per row, 2N in all. A channel's class is
//     (x - y mod M at its tail, its direction); translates by L of one shape of transfers
//     collide only when the shape uses a class twice (L acts freely and transitively on the
//     nodes of one value of x - y mod M, because the clusters below tile the torus).
//   - Clusters: leader l with the M nodes l + pos[k], k = -(M/2 - 1)..M/2, on the staircase
//     pos[0] = (0, 0), pos[k] = pos[k-1] + (E if k odd else S) for k > 0, pos[k] = pos[k+1]
//     + (N if k odd else W) for k < 0: x - y of pos[k] is k, one node of each class. On
//     classes a cluster is a line whose links k -> k+1 carry two channels, the staircase's
//     type and the other (E and S; N and W backwards). A path of the other type from pos[c]
//     meets the staircase every second node (two consecutive moves are one E and one S
//     either way), so it ends on pos[c + d] for even d.
//   - Broadcast down a cluster in S = ceil(log_5 (M + 1)) steps, a 5-ary tree on the line:
//     a node c with t steps left covers [c - u, c + v] with u, v <= R_t = (5^t - 1) / 2; in
//     the step it keeps [c - R, c + R] (R = R_{t-1}) and on each side hands the windows
//     centred at c +- d and c +- 2d (d = 5^(t-1) = 2R + 1), cut to its interval, to a child
//     each: the window's centre when it is inside, else a point of the cut window at most R
//     from both ends. Of a side's two children one goes along the staircase and one along
//     the other type, which needs an even distance: the far child's full window has its
//     centre at 2d, and a cut window (length at most 2R) has two adjacent valid points. A
//     node's interval holds every path it sends in the step, the intervals of one step are
//     disjoint, and each side's two paths use different types: every class once a step.
//   - The gather is the broadcast backwards (paths reversed; a reversal maps the channels
//     of a link's one direction onto the other's one to one); the broadcast carries copies.
//   - The leaders all-reduce by stars (cube.cpp): in step t every leader x adds what x + v
//     sends for the v of F_t. Leaders are a(1, 1) + b(M, 0), a mod 2M, b mod 2. F_1 =
//     {(0, M): N^M, (M, 0): E^M, (-M, -M): W S^M W^(M-1)} (a in {0, M}, b in {0, 1}), each
//     direction's M classes once; then the digits of a mod M, for d = 1, 4, 16, ... with 4d
//     <= M the star {(d, d): E^d N^d, (2d, 2d): N^2d E^2d, (-d, -d): W S^d W^(d-1)}, classes
//     E 0..d-1 and -2d..-1, N d..1 and 0..-(2d-1), W 0..d-1, S -1..d-2 (disjoint since 3d <=
//     M), and {0, 1, 2, -1} is a full set of residues mod 4; when M = 2 * 4^j a last star
//     {(M/2, M/2): E^(M/2) N^(M/2)}. The sum is direct and covers L mod N, so after
//     1 + ceil(log_4 M) steps every leader holds all clusters. All paths are minimal.
// 2 S + 1 + ceil(log_4 M) steps all-port for M = N/2, 2 S + ceil(log_4 N) for M = N, the
// fewer taken: torus:8x8 4, torus:16x16 6 (M = N), torus:32x32 7, torus:64x64 9 (M = N),
// torus:128x128 10, torus:256x256 12 (M = N; 13 with M = N/2). Needs 4 ports. No pair
// tables: the transfers are written directly, O(p) of them.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

struct Step2 {
  int dx = 0, dy = 0;
};
constexpr Step2 kEast{1, 0}, kWest{-1, 0}, kNorth{0, 1}, kSouth{0, -1};

Step2 backwards(Step2 m) { return {-m.dx, -m.dy}; }

// The staircase's move from position k towards k + side (side = +-1), and the other type.
Step2 stair_move(int k, int side) {
  if (side > 0) return (k + 1) % 2 != 0 ? kEast : kSouth;
  return (k - 1) % 2 != 0 ? kNorth : kWest;
}
Step2 other_move(Step2 m) {
  if (m.dx == 1) return kSouth;
  if (m.dy == -1) return kEast;
  if (m.dy == 1) return kWest;
  return kNorth;
}

// One transfer of a leader's shape: from `from` (relative to the leader) along `moves`.
struct Shape {
  int step;
  Step2 from;
  std::vector<Step2> moves;
  ReductionRecv recv;
};

struct Planner {
  std::vector<Step2> pos;  // pos[k - lo]
  int lo = 0, steps = 0;
  std::vector<std::pair<int, std::vector<Step2>>> sends;  // (broadcast step, from k, moves)
  std::vector<int> send_from;

  Step2 at(int k) const { return pos[static_cast<std::size_t>(k - lo)]; }

  void add(int step, int from, int to, bool other) {
    const int side = to > from ? 1 : -1;
    std::vector<Step2> ms;
    for (int k = from; k != to; k += side)
      ms.push_back(other ? other_move(stair_move(k, side)) : stair_move(k, side));
    sends.push_back({step, std::move(ms)});
    send_from.push_back(from);
  }

  // Node c covers [a, b] in its last t steps (c - a, b - c <= (5^t - 1) / 2).
  void plan(int c, int a, int b, int t) {
    if (t == 0 || a == b) return;
    int d = 1;
    for (int i = 1; i < t; ++i) d *= 5;
    const int r = (d - 1) / 2;
    const int step = steps - t + 1;
    for (const int side : {1, -1}) {
      std::vector<std::pair<int, std::pair<int, int>>> kids;  // (child, window)
      for (int j = 1; j <= 2; ++j) {
        const int centre = c + side * j * d;
        const int wa = std::max(a, centre - r), wb = std::min(b, centre + r);
        if (wa > wb) continue;
        int child = std::min(std::max(centre, wa), wb);
        if (child - wa > r || wb - child > r) child = wa + (wb - wa) / 2;
        kids.push_back({child, {wa, wb}});
      }
      if (kids.size() == 2 && (kids[0].first - c) % 2 != 0 && (kids[1].first - c) % 2 != 0) {
        // The far window is cut (a full one has its centre at 2d): move its child by one.
        auto& [child, w] = kids[1];
        const int moved = child + 1 <= w.second && child + 1 - w.first <= r ? child + 1 : child - 1;
        child = moved;
      }
      for (std::size_t i = 0; i < kids.size(); ++i) {
        const int dist = kids[i].first - c;
        const bool other = kids.size() == 2 && dist % 2 == 0 &&
                           (i == 1 || (kids[1].first - c) % 2 != 0);
        add(step, c, kids[i].first, other);
        plan(kids[i].first, kids[i].second.first, kids[i].second.second, t - 1);
      }
    }
    plan(c, std::max(a, c - r), std::min(b, c + r), t - 1);
  }
};

std::vector<Step2> run(std::vector<Step2> out, int count, Step2 m) {
  out.insert(out.end(), static_cast<std::size_t>(count), m);
  return out;
}

}  // namespace

void add_staircase_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (!wormhole_exchange_applies(p) || effective_ports(p) < 4) return;
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p, wrap);
  if (!wrap || sides.size() != 2 || sides[0] != sides[1] || sides[0] < 8 ||
      !std::has_single_bit(static_cast<unsigned>(sides[0])))
    return;
  const int n = sides[0];
  // The leaders' index m: n / 2 (a first star for the half-turn and the two leaders of a
  // row) or n (one leader a row, clusters twice as long, digit stars only), the fewer steps.
  const auto steps_for = [n](int index) {
    int cluster = 0, stars = index == n ? 0 : 1, d = 1;
    for (long long reach = 1; reach < index + 1; reach *= 5) ++cluster;
    for (; 4 * d <= index; d *= 4) ++stars;
    return 2 * cluster + stars + (d < index ? 1 : 0);
  };
  const int m = steps_for(n) < steps_for(n / 2) ? n : n / 2;
  Planner plan;
  plan.lo = -(m / 2 - 1);
  plan.pos.resize(static_cast<std::size_t>(m));
  for (int k = 1; k <= m / 2; ++k) {
    const Step2 prev = plan.at(k - 1), mv = stair_move(k - 1, 1);
    plan.pos[static_cast<std::size_t>(k - plan.lo)] = {prev.dx + mv.dx, prev.dy + mv.dy};
  }
  for (int k = -1; k >= plan.lo; --k) {
    const Step2 prev = plan.at(k + 1), mv = stair_move(k + 1, -1);
    plan.pos[static_cast<std::size_t>(k - plan.lo)] = {prev.dx + mv.dx, prev.dy + mv.dy};
  }
  for (long long reach = 1; reach < m + 1; reach *= 5) ++plan.steps;
  plan.plan(0, plan.lo, m / 2, plan.steps);
  const int cluster_steps = plan.steps;

  // The leaders' stars.
  std::vector<std::vector<std::vector<Step2>>> stars;
  if (m < n)
    stars.push_back({run({}, m, kNorth), run({}, m, kEast),
                     run(run({kWest}, m, kSouth), m - 1, kWest)});
  int d = 1;
  for (; 4 * d <= m; d *= 4)
    stars.push_back({run(run({}, d, kEast), d, kNorth), run(run({}, 2 * d, kNorth), 2 * d, kEast),
                     run(run({kWest}, d, kSouth), d - 1, kWest)});
  if (d < m) stars.push_back({run(run({}, m / 2, kEast), m / 2, kNorth)});

  std::vector<Shape> shape;
  for (std::size_t i = 0; i < plan.sends.size(); ++i) {
    const auto& [bstep, ms] = plan.sends[i];
    const Step2 from = plan.at(plan.send_from[i]);
    // Broadcast: after the gather and the stars, as copies.
    shape.push_back({cluster_steps + static_cast<int>(stars.size()) + bstep, from, ms,
                     ReductionRecv::copy});
    // Gather: that send backwards, from its target, in the mirrored step.
    Step2 to = from;
    std::vector<Step2> back;
    for (auto it = ms.rbegin(); it != ms.rend(); ++it) {
      back.push_back(backwards(*it));
      to = {to.dx + it->dx, to.dy + it->dy};
    }
    shape.push_back({cluster_steps - bstep + 1, to, std::move(back), ReductionRecv::reduce});
  }
  for (std::size_t t = 0; t < stars.size(); ++t)
    for (const auto& ms : stars[t])
      shape.push_back({cluster_steps + static_cast<int>(t) + 1, {0, 0}, ms, ReductionRecv::reduce});

  auto node = [n](int x, int y) {
    return static_cast<NodeId>(((y % n + n) % n) * n + (x % n + n) % n);
  };
  const std::vector<int> blocks = all_blocks(c);
  std::vector<Transfer> transfers;
  for (int ly = 0; ly < n; ++ly)
    for (int lx = ly % m; lx < n; lx += m)
      for (const Shape& s : shape) {
        int x = lx + s.from.dx, y = ly + s.from.dy;
        std::vector<NodeId> path{node(x, y)};
        for (const Step2& mv : s.moves) {
          x += mv.dx;
          y += mv.dy;
          path.push_back(node(x, y));
          if (!p.topology.has_channel(path[path.size() - 2], path.back())) return;  // a fault
        }
        std::vector<Hop> hops;
        add_hops(hops, p, path.front(), path.back(), blocks, ReductionSend::acc, s.recv);
        for (const Hop& h : hops) {
          Transfer tr;
          tr.step = static_cast<Step>(s.step);
          tr.path = path;
          tr.blocks = h.blocks;
          tr.send = h.send;
          tr.recv = h.recv;
          transfers.push_back(std::move(tr));
        }
      }
  out.push_back({"staircase exchange (torus:" + std::to_string(n) + "x" + std::to_string(n) +
                     ", leaders x - y = 0 mod " + std::to_string(m) + ")",
                 assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
