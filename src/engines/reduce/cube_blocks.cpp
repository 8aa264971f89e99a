// ALLREDUCE of 2^n blocks on hypercube:n at the volume bound, n = 5, 6 and 7 (13, 21 and
// 37 steps; docs/ENGINES.md, "Block templates on hypercubes"). Template A is a
// one-block ALLREDUCE of one-hop transfers: a reduce tree into node 0 in steps 1..tau
// (every other node sends its accumulator once, after its children) and a broadcast tree
// from node 0 in steps tau+1..T (every other node takes the sum once, by copy, and sends
// it on only after). Template B is A backwards in time: A's u -> v in step t is B's v -> u
// in step T + 1 - t, again such an ALLREDUCE (a broadcast tree reversed is a reduce tree,
// and the other way round). A channel u -> u xor e_i is in class (i, parity of u); moving a
// transfer by the 2^(n-1) vectors h of even weight (node u as u xor h) uses every channel
// of its class once. Block b of even weight runs A moved by b, block b of odd weight B
// moved by b xor 1 (even weight). The templates (bench/cube_blocks_sat.py, a SAT search)
// use each of the 2n classes at most once a step over A and B together, so the moved
// copies never share a channel: T = ceil(2 (p - 1) B / (p n)) steps, the reduce-volume
// bound (docs/BOUNDS.md), so the schedule is optimal (on hypercube:6 every channel carries
// a transfer in every step: 64 x 126 = 21 x 384). The driver verifies it like any design's.
#include <algorithm>
#include <bit>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

struct Move {
  int step;  // 1..steps; a merge (reduce) up to tau, a copy after
  int from;  // the sender in template A
  int dim;   // the receiver is from xor 2^dim
};

// A template A for hypercube:dims with 2^dims blocks.
struct Template {
  int dims, steps, tau;
  std::span<const Move> moves;
};

// From `FLIP=0 MASK=31 python3 bench/cube_blocks_sat.py 5 13 6`: 13 steps, the bound
// ceil(2 * 31 * 32 / 160) (a spare class in some steps).
constexpr Move kCube5[] = {
    {1, 5, 3},   {1, 11, 1},  {1, 14, 4},  {1, 23, 2},  {1, 26, 0},  {1, 29, 0},  {1, 31, 2},
    {2, 3, 1},   {2, 15, 3},  {2, 19, 1},  {2, 21, 2},  {3, 7, 0},   {3, 12, 0},  {3, 27, 1},
    {3, 28, 3},  {3, 30, 3},  {4, 10, 3},  {4, 13, 2},  {4, 20, 4},  {4, 22, 4},  {4, 25, 0},
    {5, 6, 2},   {5, 9, 3},   {5, 17, 0},  {5, 18, 1},  {5, 24, 4},  {6, 1, 0},   {6, 2, 1},
    {6, 4, 2},   {6, 8, 3},   {6, 16, 4},  {7, 0, 0},   {7, 0, 1},   {7, 0, 2},   {7, 0, 3},
    {7, 0, 4},   {8, 1, 1},   {8, 1, 3},   {8, 2, 4},   {8, 4, 0},   {8, 16, 2},  {9, 9, 1},
    {9, 9, 4},   {9, 18, 3},  {10, 5, 3},  {10, 8, 1},  {10, 25, 0}, {10, 26, 2}, {11, 3, 2},
    {11, 11, 2}, {11, 11, 4}, {11, 20, 1}, {11, 30, 4}, {12, 3, 4},  {12, 8, 2},  {12, 13, 4},
    {12, 20, 0}, {12, 20, 3}, {12, 22, 0}, {13, 19, 1}, {13, 22, 4}, {13, 23, 3},
};
// From `FLIP=0 MASK=63 python3 bench/cube_blocks_sat.py 6 21 9`: 21 steps, every class
// busy every step.
constexpr Move kCube6[] = {
    {1, 1, 2},   {1, 10, 2},  {1, 38, 3},  {1, 55, 0},  {1, 58, 0},  {1, 63, 4},  {2, 9, 4},
    {2, 21, 0},  {2, 28, 4},  {2, 31, 2},  {2, 43, 0},  {2, 46, 1},  {2, 47, 3},  {2, 54, 5},
    {2, 62, 5},  {3, 11, 4},  {3, 15, 3},  {3, 23, 2},  {3, 42, 3},  {3, 45, 0},  {3, 51, 4},
    {3, 59, 5},  {3, 61, 2},  {4, 27, 0},  {4, 35, 5},  {4, 41, 0},  {4, 44, 4},  {4, 53, 2},
    {4, 57, 5},  {5, 14, 3},  {5, 19, 0},  {5, 25, 2},  {5, 30, 2},  {5, 39, 5},  {5, 50, 4},
    {5, 60, 3},  {6, 3, 2},   {6, 6, 1},   {6, 12, 0},  {6, 17, 5},  {6, 22, 1},  {6, 26, 3},
    {6, 29, 4},  {6, 37, 0},  {6, 52, 2},  {6, 56, 4},  {7, 2, 5},   {7, 7, 1},   {7, 13, 3},
    {7, 18, 1},  {7, 24, 4},  {7, 33, 0},  {7, 36, 5},  {7, 49, 0},  {8, 5, 0},   {8, 20, 4},
    {8, 34, 1},  {8, 40, 3},  {8, 48, 5},  {9, 4, 2},   {9, 8, 3},   {9, 16, 4},  {9, 32, 5},
    {10, 0, 0},  {10, 0, 1},  {10, 0, 3},  {10, 0, 4},  {11, 1, 1},  {11, 1, 2},  {11, 2, 3},
    {11, 2, 4},  {11, 8, 0},  {11, 16, 5}, {12, 2, 5},  {12, 5, 4},  {12, 8, 2},  {12, 9, 1},
    {12, 9, 5},  {12, 18, 3}, {12, 48, 0}, {12, 48, 2}, {13, 12, 0}, {13, 12, 1}, {13, 21, 1},
    {13, 21, 3}, {13, 26, 0}, {13, 26, 5}, {13, 41, 4}, {13, 49, 2}, {14, 0, 2},  {14, 0, 5},
    {14, 12, 4}, {14, 26, 2}, {14, 34, 0}, {14, 58, 1}, {14, 58, 3}, {15, 32, 3}, {15, 53, 4},
    {15, 56, 2}, {15, 58, 2}, {16, 28, 3}, {16, 29, 5}, {17, 5, 1},  {17, 27, 5}, {17, 32, 0},
    {17, 37, 1}, {17, 62, 4}, {18, 7, 3},  {18, 8, 4},  {18, 27, 1}, {18, 34, 2}, {18, 39, 3},
    {18, 41, 1}, {19, 18, 0}, {19, 47, 1}, {19, 49, 5}, {19, 53, 1}, {20, 32, 2}, {20, 46, 1},
    {20, 62, 3}, {21, 29, 1}, {21, 38, 5}, {21, 54, 5}, {21, 58, 4}, {21, 59, 3}, {21, 61, 1},
};

// From `FLIP=0 MASK=127 python3 bench/cube_blocks_sat.py 7 37 18` (15 s): 37 steps, the
// bound ceil(2 * 127 * 128 / 896).
constexpr Move kCube7[] = {
    {1, 18, 2},   {1, 47, 1},   {1, 53, 4},   {1, 60, 5},   {1, 63, 0},   {1, 67, 6},
    {1, 124, 0},  {2, 7, 1},    {2, 10, 6},   {2, 19, 6},   {2, 27, 0},   {2, 29, 5},
    {2, 33, 1},   {2, 39, 2},   {2, 51, 3},   {2, 56, 4},   {2, 71, 4},   {2, 91, 0},
    {3, 55, 6},   {3, 77, 0},   {3, 116, 1},  {3, 117, 4},  {4, 15, 1},   {4, 23, 3},
    {4, 65, 0},   {4, 81, 3},   {4, 93, 1},   {4, 103, 4},  {5, 3, 5},    {5, 9, 3},
    {5, 34, 2},   {5, 85, 6},   {5, 86, 1},   {6, 26, 2},   {7, 11, 6},   {7, 13, 5},
    {7, 79, 0},   {7, 90, 2},   {7, 122, 2},  {8, 38, 5},   {8, 41, 2},   {8, 61, 6},
    {8, 127, 1},  {9, 62, 2},   {9, 111, 2},  {10, 25, 3},  {10, 42, 4},  {10, 45, 3},
    {10, 108, 5}, {10, 109, 2}, {10, 118, 6}, {10, 125, 2}, {11, 14, 5},  {11, 17, 2},
    {11, 35, 3},  {11, 58, 0},  {11, 75, 1},  {11, 76, 2},  {11, 104, 0}, {11, 106, 3},
    {11, 110, 6}, {11, 119, 5}, {12, 12, 2},  {12, 22, 4},  {12, 31, 6},  {12, 37, 0},
    {12, 43, 6},  {12, 59, 1},  {12, 69, 5},  {12, 83, 0},  {12, 87, 3},  {12, 89, 5},
    {12, 97, 2},  {12, 105, 4}, {13, 6, 2},   {13, 21, 4},  {13, 24, 4},  {13, 50, 1},
    {13, 54, 1},  {13, 73, 0},  {13, 82, 5},  {13, 84, 2},  {13, 95, 0},  {13, 121, 6},
    {13, 123, 3}, {13, 126, 5}, {14, 46, 1},  {14, 57, 3},  {14, 92, 6},  {14, 94, 6},
    {14, 101, 0}, {14, 102, 2}, {14, 107, 3}, {14, 114, 4}, {14, 115, 4}, {14, 120, 5},
    {15, 30, 1},  {15, 40, 5},  {15, 44, 3},  {15, 52, 2},  {15, 74, 1},  {15, 78, 3},
    {15, 88, 4},  {15, 96, 4},  {15, 99, 0},  {15, 100, 5}, {15, 113, 6}, {16, 5, 0},
    {16, 28, 3},  {16, 36, 2},  {16, 49, 0},  {16, 70, 2},  {16, 72, 3},  {16, 80, 4},
    {16, 98, 5},  {16, 112, 6}, {17, 20, 2},  {17, 48, 4},  {17, 66, 1},  {17, 68, 6},
    {18, 1, 0},   {18, 2, 1},   {18, 4, 2},   {18, 8, 3},   {18, 16, 4},  {18, 32, 5},
    {18, 64, 6},  {19, 0, 0},   {19, 0, 1},   {19, 0, 2},   {19, 0, 3},   {19, 0, 4},
    {19, 0, 5},   {19, 0, 6},   {20, 4, 1},   {20, 8, 0},   {20, 8, 4},   {20, 16, 6},
    {20, 64, 2},  {20, 64, 3},  {20, 64, 5},  {21, 4, 3},   {21, 8, 5},   {21, 9, 5},
    {21, 9, 6},   {21, 24, 2},  {21, 64, 0},  {21, 68, 0},  {21, 68, 1},  {21, 68, 4},
    {21, 80, 3},  {22, 16, 1},  {22, 40, 1},  {22, 40, 4},  {22, 41, 6},  {22, 84, 5},
    {23, 42, 2},  {23, 116, 6}, {24, 18, 2},  {24, 18, 5},  {24, 65, 1},  {25, 56, 6},
    {25, 68, 3},  {26, 50, 3},  {26, 69, 1},  {27, 4, 4},   {27, 69, 6},  {27, 96, 4},
    {28, 1, 4},   {28, 2, 6},   {28, 32, 1},  {28, 71, 5},  {28, 76, 0},  {29, 1, 5},
    {29, 5, 5},   {29, 28, 0},  {29, 46, 6},  {29, 52, 3},  {29, 52, 4},  {29, 71, 3},
    {29, 71, 4},  {29, 103, 1}, {29, 103, 6}, {29, 116, 0}, {29, 116, 1}, {30, 22, 5},
    {30, 33, 4},  {30, 34, 0},  {30, 36, 3},  {30, 73, 4},  {30, 87, 2},  {30, 88, 1},
    {30, 110, 3}, {30, 112, 0}, {30, 117, 6}, {31, 2, 0},   {31, 69, 4},  {31, 73, 1},
    {31, 79, 6},  {31, 84, 3},  {31, 89, 3},  {31, 105, 1}, {31, 113, 4}, {31, 118, 5},
    {32, 15, 5},  {32, 44, 6},  {32, 60, 6},  {32, 76, 1},  {32, 79, 4},  {32, 79, 5},
    {32, 90, 3},  {32, 92, 1},  {32, 107, 0}, {32, 118, 2}, {32, 118, 3}, {32, 120, 0},
    {32, 120, 4}, {33, 42, 0},  {33, 58, 5},  {33, 78, 2},  {33, 85, 6},  {33, 102, 1},
    {33, 107, 4}, {33, 108, 0}, {33, 111, 4}, {33, 114, 3}, {34, 26, 2},  {34, 29, 2},
    {34, 29, 5},  {34, 29, 6},  {34, 47, 4},  {34, 54, 0},  {34, 87, 5},  {34, 87, 6},
    {35, 2, 3},   {35, 15, 0},  {35, 23, 2},  {35, 25, 5},  {35, 30, 5},  {35, 35, 4},
    {35, 41, 2},  {35, 61, 6},  {35, 106, 3}, {35, 113, 1}, {36, 6, 5},   {36, 51, 3},
    {36, 95, 2},  {37, 15, 2},  {37, 23, 3},  {37, 25, 1},  {37, 29, 4},  {37, 39, 5},
    {37, 107, 3}, {37, 112, 6},
};

constexpr Template kTemplates[] = {{5, 13, 6, kCube5}, {6, 21, 9, kCube6}, {7, 37, 18, kCube7}};

}  // namespace

void add_cube_block_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::ALLREDUCE || p.model.combining || !is_generated(p.topology)) return;
  const auto tmpl =
      std::find_if(std::begin(kTemplates), std::end(kTemplates), [&](const Template& t) {
        return p.topology.name() == "hypercube:" + std::to_string(t.dims);
      });
  if (tmpl == std::end(kTemplates)) return;
  const int n = 1 << tmpl->dims;
  if (c.blocks != n || effective_ports(p) < tmpl->dims || static_cast<int>(c.senders.size()) != n ||
      c.senders != c.receivers || tmpl->moves.size() != static_cast<std::size_t>(2 * (n - 1)))
    return;
  for (int i = 0; i < n; ++i)
    if (c.senders[static_cast<std::size_t>(i)] != i) return;
  std::vector<Transfer> transfers;
  transfers.reserve(static_cast<std::size_t>(n) * tmpl->moves.size());
  for (int b = 0; b < n; ++b) {
    const bool even = std::popcount(static_cast<unsigned>(b)) % 2 == 0;
    const int shift = even ? b : b ^ 1;
    for (const Move& m : tmpl->moves) {
      const NodeId u = m.from ^ shift, v = m.from ^ (1 << m.dim) ^ shift;
      Transfer t;
      t.blocks = {b};
      t.send = ReductionSend::acc;
      if (even) {
        t.step = m.step;
        t.path = {u, v};
        t.recv = m.step <= tmpl->tau ? ReductionRecv::reduce : ReductionRecv::copy;
      } else {
        t.step = tmpl->steps + 1 - m.step;
        t.path = {v, u};
        t.recv = t.step <= tmpl->steps - tmpl->tau ? ReductionRecv::reduce : ReductionRecv::copy;
      }
      if (!p.topology.has_channel(t.path[0], t.path[1])) return;  // a faulty copy
      transfers.push_back(std::move(t));
    }
  }
  out.push_back(
      {"block templates (hypercube:" + std::to_string(tmpl->dims) + ", A and A backwards)",
       assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
