// ALLREDUCE of 64 blocks on hypercube:6 at the volume bound, 21 steps (docs/ENGINES.md,
// "Several blocks: block templates on hypercube:6"). Template A is a one-block ALLREDUCE of
// one-hop transfers: a reduce tree into node 0 in steps 1..kTau (every other node sends
// its accumulator once, after its children) and a broadcast tree from node 0 in steps
// kTau+1..21 (every other node takes the sum once, by copy, and sends it on only after).
// Template B is A backwards in time: A's u -> v in step t is B's v -> u in step 22 - t,
// again such an ALLREDUCE (a broadcast tree reversed is a reduce tree, and the other way
// round). A channel u -> u xor e_i is in class (i, parity of u); moving a transfer by the
// 32 vectors h of even weight (node u as u xor h) uses every channel of its class once.
// Block b of even weight runs A moved by b, block b of odd weight B moved by b xor 1 (even
// weight). The template (bench/cube_blocks_sat.py, a SAT search) uses each of the 12
// classes exactly once a step over A and B together, so the moved copies never share a
// channel and every channel carries one transfer every step: 64 blocks x 126 receptions =
// 21 steps x 384 channels, the reduce-volume bound 2 (p - 1) B / (p k) (docs/BOUNDS.md),
// so the schedule is optimal. The driver verifies it like any design's.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

constexpr int kDims = 6;
constexpr int kSteps = 21;
constexpr int kTau = 9;

struct Move {
  int step;  // 1..kSteps; a merge (reduce) up to kTau, a copy after
  int from;  // the sender in template A
  int dim;   // the receiver is from xor 2^dim
};

// Template A, from `FLIP=0 MASK=63 python3 bench/cube_blocks_sat.py 6 21 9` (about a
// second).
constexpr Move kTemplate[] = {
    {1, 1, 2}, {1, 10, 2}, {1, 38, 3}, {1, 55, 0}, {1, 58, 0}, {1, 63, 4},
    {2, 9, 4}, {2, 21, 0}, {2, 28, 4}, {2, 31, 2}, {2, 43, 0}, {2, 46, 1},
    {2, 47, 3}, {2, 54, 5}, {2, 62, 5}, {3, 11, 4}, {3, 15, 3}, {3, 23, 2},
    {3, 42, 3}, {3, 45, 0}, {3, 51, 4}, {3, 59, 5}, {3, 61, 2}, {4, 27, 0},
    {4, 35, 5}, {4, 41, 0}, {4, 44, 4}, {4, 53, 2}, {4, 57, 5}, {5, 14, 3},
    {5, 19, 0}, {5, 25, 2}, {5, 30, 2}, {5, 39, 5}, {5, 50, 4}, {5, 60, 3},
    {6, 3, 2}, {6, 6, 1}, {6, 12, 0}, {6, 17, 5}, {6, 22, 1}, {6, 26, 3},
    {6, 29, 4}, {6, 37, 0}, {6, 52, 2}, {6, 56, 4}, {7, 2, 5}, {7, 7, 1},
    {7, 13, 3}, {7, 18, 1}, {7, 24, 4}, {7, 33, 0}, {7, 36, 5}, {7, 49, 0},
    {8, 5, 0}, {8, 20, 4}, {8, 34, 1}, {8, 40, 3}, {8, 48, 5}, {9, 4, 2},
    {9, 8, 3}, {9, 16, 4}, {9, 32, 5}, {10, 0, 0}, {10, 0, 1}, {10, 0, 3},
    {10, 0, 4}, {11, 1, 1}, {11, 1, 2}, {11, 2, 3}, {11, 2, 4}, {11, 8, 0},
    {11, 16, 5}, {12, 2, 5}, {12, 5, 4}, {12, 8, 2}, {12, 9, 1}, {12, 9, 5},
    {12, 18, 3}, {12, 48, 0}, {12, 48, 2}, {13, 12, 0}, {13, 12, 1}, {13, 21, 1},
    {13, 21, 3}, {13, 26, 0}, {13, 26, 5}, {13, 41, 4}, {13, 49, 2}, {14, 0, 2},
    {14, 0, 5}, {14, 12, 4}, {14, 26, 2}, {14, 34, 0}, {14, 58, 1}, {14, 58, 3},
    {15, 32, 3}, {15, 53, 4}, {15, 56, 2}, {15, 58, 2}, {16, 28, 3}, {16, 29, 5},
    {17, 5, 1}, {17, 27, 5}, {17, 32, 0}, {17, 37, 1}, {17, 62, 4}, {18, 7, 3},
    {18, 8, 4}, {18, 27, 1}, {18, 34, 2}, {18, 39, 3}, {18, 41, 1}, {19, 18, 0},
    {19, 47, 1}, {19, 49, 5}, {19, 53, 1}, {20, 32, 2}, {20, 46, 1}, {20, 62, 3},
    {21, 29, 1}, {21, 38, 5}, {21, 54, 5}, {21, 58, 4}, {21, 59, 3}, {21, 61, 1},
};

}  // namespace

void add_cube_block_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  const int n = 1 << kDims;
  if (c.kind != CollectiveKind::ALLREDUCE || c.blocks != n || p.model.combining ||
      effective_ports(p) < kDims || !is_generated(p.topology) ||
      p.topology.name() != "hypercube:" + std::to_string(kDims) ||
      static_cast<int>(c.senders.size()) != n || c.senders != c.receivers ||
      std::size(kTemplate) != 2 * (n - 1))
    return;
  for (int i = 0; i < n; ++i)
    if (c.senders[static_cast<std::size_t>(i)] != i) return;
  std::vector<Transfer> transfers;
  transfers.reserve(static_cast<std::size_t>(n) * std::size(kTemplate));
  for (int b = 0; b < n; ++b) {
    const bool even = std::popcount(static_cast<unsigned>(b)) % 2 == 0;
    const int shift = even ? b : b ^ 1;
    for (const Move& m : kTemplate) {
      const NodeId u = m.from ^ shift, v = m.from ^ (1 << m.dim) ^ shift;
      Transfer t;
      t.blocks = {b};
      t.send = ReductionSend::acc;
      if (even) {
        t.step = m.step;
        t.path = {u, v};
        t.recv = m.step <= kTau ? ReductionRecv::reduce : ReductionRecv::copy;
      } else {
        t.step = kSteps + 1 - m.step;
        t.path = {v, u};
        t.recv = t.step <= kSteps - kTau ? ReductionRecv::reduce : ReductionRecv::copy;
      }
      if (!p.topology.has_channel(t.path[0], t.path[1])) return;  // a faulty copy
      transfers.push_back(std::move(t));
    }
  }
  out.push_back({"block templates (hypercube:6, A and A backwards)",
                 assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
