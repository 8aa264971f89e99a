// SCAN on hypercube:n by levels of block programs, written directly as transfers
// (docs/ENGINES.md, "Reductions: hypercube SCAN by levels").
//
// With S the shift of the processor order (v -> v + 1, nothing below 0), the inclusive
// prefix is 1 + S + ... + S^(p-1) = prod over the dimension groups [lo, lo + k) of
// W(lo, k) = 1 + S^(2^lo) + ... + S^((2^k - 1) 2^lo): a sliding window of 2^k values at
// stride 2^lo. These operators are lower-triangular Toeplitz, so they commute, every one
// is at least the identity and their product has 0/1 entries: applied one after the other
// in any order, every partial product has 0/1 entries, which is R2's "exactly once"
// (docs/FORMATS.md, "Reductions"). Hillis-Steele is the grouping into single dimensions.
//
// A level applies one W(lo, k) with a fixed block program over T steps. The column (bits
// below lo) is fixed; bits lo..lo+k-1 are the position l in a block of 2^k (a k-subcube);
// the bits above are the block index h. Node (h, l) must end with its own block's values
// 0..l plus the previous block's l+1..2^k-1. A move of the program is (step, input or acc,
// from, to, flips): the digits flip block dimensions in order; a '^' marks a move from
// block h - 1 into block h, taking there the high path from h - 1 to h at the block
// position x reached so far: with t = tz(h), flip bit t of the block index, then bits
// t - 1 down to 0. The channel leaving g across bit i of that path is used by the one h
// that g determines (for i = t the bits below t of g are ones and bit t zero; for i < t
// bits 0..i of g are ones), so the high paths of all h are channel-disjoint, and a
// program with at most one cross move a step at each x is channel-disjoint on the whole
// cube when its moves are channel-disjoint inside one block (the hops before '^' run in
// the sender's block, those after it in the receiver's, all blocks running the same
// program). The top level (no bits above) may take a plain prefix program, with no cross
// moves. An `input` move after the level's first step sends the processor's own input, so
// such a program runs as the first level.
//
// The programs were found by a SAT search over one block (bench/scan_block_sat.py; the
// tests run them on hypercube:2..8 and verify every schedule):
//   W1 in 1 step: Hillis-Steele's round (0 -> 1 inside the block, 1 -> 0 from the
//     previous block).
//   P8, a prefix of 8 in 2 steps (hypercube:3's optimum, as the exact search finds it).
//   P32, a prefix of 32 in 3 steps (hypercube:5; its reduce-information bound is 2).
// The search finds no window program that gains (W(lo, 3) in 2 steps, W(lo, 4) in 2
// steps), nor a plain prefix of 16 in 2 steps without copies: the top level gains, the
// levels below take one dimension a step.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

struct Move {
  int step;     // 1..steps of the program
  bool input;   // the sender's value at the level's start (its input on the first level)
  int from, to; // positions in the block
  const char* flips;  // block dimensions flipped in order; '^' the high path (a cross move)
};

struct Program {
  const char* name;
  int k;       // block dimensions
  int steps;
  bool top;    // a plain prefix: only as the top level
  std::vector<Move> moves;
};

const std::vector<Program>& programs() {
  static const std::vector<Program> all = {
      {"W1", 1, 1, false, {{1, true, 0, 1, "0"}, {1, true, 1, 0, "^0"}}},
      {"P8", 3, 2, true,
       {{1, true, 0, 1, "0"},   {1, true, 0, 2, "1"},    {1, true, 1, 2, "10"},
        {1, true, 2, 3, "0"},   {1, true, 1, 4, "02"},   {1, true, 2, 4, "21"},
        {1, true, 3, 4, "120"}, {1, true, 3, 5, "21"},   {1, true, 4, 5, "0"},
        {1, true, 5, 7, "1"},   {1, true, 6, 7, "0"},    {2, false, 1, 3, "1"},
        {2, false, 0, 4, "2"},  {2, false, 2, 5, "102"}, {2, false, 2, 6, "2"},
        {2, false, 5, 6, "01"}, {2, false, 0, 7, "102"}, {2, false, 4, 7, "01"}}},
      {"P32", 5, 3, true,
       {
        {1, true, 0, 1, "0"}, {1, true, 0, 2, "1"}, {1, true, 1, 2, "10"}, {1, true, 2, 3, "0"},
        {1, true, 0, 4, "2"}, {1, true, 1, 4, "20"}, {1, true, 3, 5, "21"},
        {1, true, 4, 5, "0"}, {1, true, 4, 6, "1"}, {1, true, 5, 6, "10"},
        {1, true, 6, 8, "231"}, {1, true, 3, 9, "13"}, {1, true, 4, 9, "230"},
        {1, true, 5, 9, "32"}, {1, true, 6, 10, "32"}, {1, true, 7, 10, "230"},
        {1, true, 8, 10, "1"}, {1, true, 7, 11, "32"}, {1, true, 10, 11, "0"},
        {1, true, 9, 12, "02"}, {1, true, 12, 13, "0"}, {1, true, 13, 14, "10"},
        {1, true, 11, 15, "2"}, {1, true, 14, 15, "0"}, {1, true, 0, 16, "4"},
        {1, true, 1, 16, "40"}, {1, true, 2, 16, "41"}, {1, true, 17, 19, "1"},
        {1, true, 18, 19, "0"}, {1, true, 15, 22, "340"}, {1, true, 16, 22, "12"},
        {1, true, 21, 22, "01"}, {1, true, 20, 23, "01"}, {1, true, 22, 23, "0"},
        {1, true, 9, 25, "4"}, {1, true, 12, 25, "240"}, {1, true, 13, 25, "42"},
        {1, true, 14, 26, "42"}, {1, true, 23, 26, "230"}, {1, true, 21, 27, "231"},
        {1, true, 26, 27, "0"}, {1, true, 13, 28, "04"}, {1, true, 25, 28, "02"},
        {1, true, 27, 28, "120"}, {1, true, 28, 29, "0"}, {1, true, 22, 30, "3"},
        {1, true, 23, 30, "30"}, {1, true, 24, 30, "12"}, {2, false, 1, 3, "1"},
        {2, false, 3, 4, "120"}, {2, false, 3, 7, "2"}, {2, false, 2, 8, "31"},
        {2, false, 7, 8, "0123"}, {2, false, 9, 10, "10"}, {2, false, 2, 11, "03"},
        {2, false, 8, 11, "10"}, {2, false, 2, 12, "123"}, {2, false, 8, 12, "2"},
        {2, false, 11, 12, "120"}, {2, false, 13, 15, "1"}, {2, false, 9, 16, "034"},
        {2, false, 10, 16, "341"}, {2, false, 13, 17, "342"}, {2, false, 15, 17, "1234"},
        {2, false, 16, 17, "0"}, {2, false, 16, 19, "10"}, {2, false, 15, 20, "0134"},
        {2, false, 19, 20, "120"}, {2, false, 5, 22, "140"}, {2, false, 19, 22, "02"},
        {2, false, 20, 22, "1"}, {2, false, 19, 23, "2"}, {2, false, 21, 23, "1"},
        {2, false, 10, 24, "41"}, {2, false, 16, 24, "3"}, {2, false, 5, 25, "234"},
        {2, false, 15, 25, "241"}, {2, false, 24, 26, "1"}, {2, false, 25, 26, "10"},
        {2, false, 19, 27, "3"}, {2, false, 23, 27, "32"}, {2, false, 24, 28, "2"},
        {2, false, 26, 28, "21"}, {2, false, 5, 29, "34"}, {2, false, 15, 29, "41"},
        {2, false, 25, 29, "2"}, {2, false, 10, 30, "24"}, {2, false, 20, 30, "31"},
        {2, false, 27, 30, "20"}, {3, false, 2, 5, "120"}, {3, false, 3, 6, "02"},
        {3, false, 1, 7, "21"}, {3, false, 6, 7, "0"}, {3, false, 5, 8, "230"},
        {3, false, 8, 9, "0"}, {3, false, 2, 10, "3"}, {3, false, 9, 11, "1"},
        {3, false, 5, 12, "30"}, {3, false, 9, 13, "2"}, {3, false, 11, 13, "21"},
        {3, false, 5, 14, "013"}, {3, false, 12, 14, "1"}, {3, false, 2, 15, "023"},
        {3, false, 10, 15, "20"}, {3, false, 15, 16, "01234"}, {3, false, 10, 17, "0134"},
        {3, false, 10, 18, "43"}, {3, false, 17, 18, "10"}, {3, false, 10, 19, "340"},
        {3, false, 15, 19, "342"}, {3, false, 13, 20, "340"}, {3, false, 16, 20, "2"},
        {3, false, 13, 21, "43"}, {3, false, 16, 21, "02"}, {3, false, 20, 21, "0"},
        {3, false, 12, 22, "341"}, {3, false, 14, 22, "43"}, {3, false, 15, 23, "43"},
        {3, false, 16, 23, "120"}, {3, false, 9, 24, "40"}, {3, false, 15, 24, "2014"},
        {3, false, 23, 24, "0123"}, {3, false, 23, 25, "123"}, {3, false, 24, 25, "0"},
        {3, false, 11, 26, "40"}, {3, false, 22, 26, "23"}, {3, false, 24, 27, "10"},
        {3, false, 25, 27, "1"}, {3, false, 12, 28, "4"}, {3, false, 22, 28, "31"},
        {3, false, 24, 29, "20"}, {3, false, 27, 29, "12"}, {3, false, 19, 30, "230"},
        {3, false, 29, 30, "01"}, {3, false, 19, 31, "32"}, {3, false, 29, 31, "1"},
        {3, false, 30, 31, "0"}}},
  };
  return all;
}

bool is_cross(const Move& m) { return std::string(m.flips).find('^') != std::string::npos; }

// A program's most sends and receives of one node in one step (a cross move sends from
// the position `from` of every block and lands on `to`).
int degree(const Program& pr) {
  int most = 0;
  for (int s = 1; s <= pr.steps; ++s) {
    std::vector<int> out(std::size_t{1} << pr.k), in(std::size_t{1} << pr.k);
    for (const Move& m : pr.moves)
      if (m.step == s) {
        most = std::max({most, ++out[static_cast<std::size_t>(m.from)],
                         ++in[static_cast<std::size_t>(m.to)]});
      }
  }
  return most;
}

bool late_input(const Program& pr) {
  return std::any_of(pr.moves.begin(), pr.moves.end(),
                     [](const Move& m) { return m.input && m.step > 1; });
}

struct Level {
  const Program* program;
  int lo;
};

// The fewest steps: a top level (a plain prefix program or none) and the dimensions below
// it cut into window programs (a dynamic programme over the dimension count); only
// programs within `ports`.
std::vector<Level> plan(int n, int ports) {
  std::vector<const Program*> windows;
  for (const Program& pr : programs())
    if (!pr.top && degree(pr) <= ports) windows.push_back(&pr);
  std::vector<int> best(static_cast<std::size_t>(n) + 1, 1 << 20);
  std::vector<const Program*> last(static_cast<std::size_t>(n) + 1, nullptr);
  best[0] = 0;
  for (int d = 1; d <= n; ++d)
    for (const Program* pr : windows)
      if (pr->k <= d && best[static_cast<std::size_t>(d - pr->k)] + pr->steps <
                            best[static_cast<std::size_t>(d)]) {
        best[static_cast<std::size_t>(d)] = best[static_cast<std::size_t>(d - pr->k)] + pr->steps;
        last[static_cast<std::size_t>(d)] = pr;
      }
  const Program* top = nullptr;
  int total = best[static_cast<std::size_t>(n)];
  for (const Program& pr : programs())
    if (pr.top && pr.k <= n && degree(pr) <= ports &&
        best[static_cast<std::size_t>(n - pr.k)] + pr.steps < total) {
      total = best[static_cast<std::size_t>(n - pr.k)] + pr.steps;
      top = &pr;
    }
  std::vector<Level> levels;
  int d = n - (top ? top->k : 0);
  if (top) levels.push_back({top, d});
  while (d > 0) {
    const Program* pr = last[static_cast<std::size_t>(d)];
    if (pr == nullptr) return {};
    d -= pr->k;
    levels.push_back({pr, d});
  }
  // A program sending inputs after its first step runs first; at most one may.
  std::stable_partition(levels.begin(), levels.end(),
                        [](const Level& l) { return late_input(*l.program); });
  if (levels.size() > 1 && late_input(*levels[1].program)) return {};
  return levels;
}

}  // namespace

void add_hypercube_scan_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  const auto count = static_cast<long long>(c.senders.size());
  if (c.kind != CollectiveKind::SCAN || count < 2 || (c.blocks != 1 && !p.model.combining) ||
      p.model.switching != Switching::wormhole || count != p.topology.processor_count() ||
      count != p.topology.node_count() || !std::has_single_bit(static_cast<unsigned long long>(count)))
    return;
  const auto family = family_of(p.topology);
  if (!family || family->name != "hypercube" || !is_generated(p.topology)) return;
  for (long long i = 0; i < count; ++i)
    if (c.senders[static_cast<std::size_t>(i)] != static_cast<NodeId>(i)) return;
  const int n = std::countr_zero(static_cast<unsigned long long>(count));
  const std::vector<Level> levels = plan(n, effective_ports(p));
  int steps = 0;
  for (const Level& l : levels) steps += l.program->steps;
  if (levels.empty() || steps >= n) return;  // Hillis-Steele's n steps are scan.cpp's
  const std::vector<int> blocks = all_blocks(c);
  std::vector<Transfer> transfers;
  Step base = 0;
  std::string name;
  for (std::size_t li = 0; li < levels.size(); ++li) {
    if (t_budget != nullptr && t_budget->expired()) return;
    const Program& pr = *levels[li].program;
    const int lo = levels[li].lo, hb = lo + pr.k;
    const long long columns = 1LL << lo, heights = 1LL << (n - hb);
    for (const Move& m : pr.moves) {
      ReductionSend send = ReductionSend::acc;
      if (m.input && li == 0) send = ReductionSend::input;
      const bool cross = is_cross(m);
      for (long long h = cross ? 1 : 0; h < heights; ++h)
        for (long long col = 0; col < columns; ++col) {
          unsigned long long u = static_cast<unsigned long long>(col) |
                                 (static_cast<unsigned long long>(m.from) << lo) |
                                 (static_cast<unsigned long long>(cross ? h - 1 : h) << hb);
          Transfer t;
          t.step = base + m.step;
          t.blocks = blocks;
          t.send = send;
          t.recv = ReductionRecv::reduce;
          t.path.push_back(static_cast<NodeId>(u));
          for (const char* f = m.flips; *f != 0; ++f) {
            if (*f == '^') {
              const int tz = std::countr_zero(static_cast<unsigned long long>(h));
              for (int b = tz; b >= 0; --b) {
                u ^= 1ULL << (hb + b);
                t.path.push_back(static_cast<NodeId>(u));
              }
            } else {
              u ^= 1ULL << (lo + (*f - '0'));
              t.path.push_back(static_cast<NodeId>(u));
            }
          }
          transfers.push_back(std::move(t));
        }
    }
    base += pr.steps;
    if (!name.empty()) name += ' ';
    name += pr.name;
    name += '@';
    name += std::to_string(lo);
  }
  out.push_back({"hypercube scan by levels (" + name + ")",
                 assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
