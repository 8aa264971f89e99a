// The reduction algorithms and their times (include/ccsched/cost/reduction.hpp), all in
// one table: shape, operation, routing method, algorithm, the formula as text, where it
// comes from, and its coefficients as functions of p. Seed 003 prints one of these
// formulas (all-reduce on the hypercube, for m = 1 and without the adds); every other row
// prices an algorithm of the chapter run in reverse or combined with the adds, or a
// classical algorithm built from the chapter's own pieces (its ring and torus all-to-all
// broadcasts, its scatters, its Gray-code ring on the hypercube). docs/COST.md section 4
// derives each row.
//
// Conventions shared by all rows: the adds of a step follow its transfer (no overlap), so
// a step costs ts + b*tb (+ th per hop under CT) + a*tc with b the longest transfer and a
// the most bytes any processor adds in it; copies cost nothing.
#include "ccsched/cost/reduction.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"

namespace ccsched {
namespace {

// Functions of p a formula may use.
struct Sizes {
  double p;
  double d;  // sqrt(p) (torus only)
  double L;  // log2 p (exact where the row needs a power of two)
  double f;  // (p - 1)/p: the fraction of the vector a processor does not keep
  double half_ring;   // ceil(p/2): the chapter's SF ring broadcast
  double half_side;   // ceil(sqrt(p)/2): its SF broadcast along a torus row or column
};

// What p must satisfy beyond the shape (ReductionFormulaInfo::requirement).
constexpr std::string_view kAny = "";
constexpr std::string_view kPowerOfTwo = "p a power of two";
constexpr std::string_view kSideIsPowerOfTwo = "sqrt(p) a power of two";

enum class Blocks { one, p };

struct Entry {
  ReductionFormulaInfo info;
  Blocks blocks;
  ReductionTerms (*terms)(const Sizes&);
};

using NS = NetworkShape;
using Op = ReductionOp;
using T = ReductionTerms;
constexpr RoutingMethod SF = RoutingMethod::store_and_forward;
constexpr RoutingMethod CT = RoutingMethod::cut_through;

// --- sources --------------------------------------------------------------------------------
constexpr std::string_view kReversedSf =
    "derived: seed 003 'One-to-All Broadcast (store-and-forward routing)' run in reverse (the "
    "chapter: single-node accumulation is the broadcast's reverse), each receiver adding what "
    "it gets; on the ring the shorter arm finishes one step early so the root adds one vector "
    "per step";
constexpr std::string_view kReversedCt =
    "derived: seed 003 'One-to-All Broadcast (cut-through routing)' (logical hypercube) run in "
    "reverse, each receiver adding what it gets";
constexpr std::string_view kReversedHcCt =
    "derived: the hypercube broadcast of seed 003 run in reverse, each one-hop stage priced by "
    "the CT time (COST.md D1), each receiver adding what it gets";
constexpr std::string_view kRsGather =
    "derived: reduce-scatter (ring; rows then columns on the torus; recursive halving on the "
    "hypercube: Rabenseifner's reduce), then the gather of the p blocks of m/p to the root, the "
    "reverse of seed 003's scatter (COST.md D3, D4; the chapter's hypercube formula) with m/p";
constexpr std::string_view kRecursiveDoubling =
    "seed 003, 'All-to-All Broadcast (reduction)': (ts + tb)*log2(p) for m = 1; here m bytes "
    "per stage and the adds";
constexpr std::string_view kRecursiveDoublingCt =
    "derived: the recursive doubling of seed 003 'All-to-All Broadcast (reduction)', each "
    "one-hop stage priced by the CT time";
constexpr std::string_view kReduceBroadcast =
    "derived: the second way of seed 003 'All-to-All Broadcast (reduction)': single-node "
    "accumulation (the broadcast in reverse), then the chapter's one-to-all broadcast of the sum";
constexpr std::string_view kRabenseifner =
    "derived: recursive halving reduce-scatter (stage i exchanges and adds m/2^i), then the "
    "recursive doubling all-gather of seed 003 'All-to-All Broadcast' (hypercube) with m/p, "
    "priced by its algorithm (COST.md F6)";
constexpr std::string_view kRingAllreduce =
    "derived: reduce-scatter around the ring (p - 1 steps of m/p, added), then seed 003's ring "
    "'All-to-All Broadcast' with m/p; on the hypercube around the chapter's Gray-code ring "
    "('Presentation of the Ring Topology as a Hypercube', neighbours one hop apart)";
constexpr std::string_view kRowsColumnsAllreduce =
    "derived: ring reduce-scatter along the rows (blocks of m/sqrt(p)), then along the columns "
    "(m/p), then seed 003's torus 'All-to-All Broadcast' with m/p (columns, then rows)";
constexpr std::string_view kRingRs =
    "derived: reduce-scatter around the ring (the first half of the ring all-reduce): p - 1 "
    "steps of m/p, each added; on the hypercube around the chapter's Gray-code ring";
constexpr std::string_view kRowsColumnsRs =
    "derived: ring reduce-scatter along the rows (m/sqrt(p) per step), then along the columns "
    "(m/p per step)";
constexpr std::string_view kRecursiveHalving =
    "derived: recursive halving on the hypercube, the reverse of seed 003's hypercube "
    "scatter: stage i exchanges and adds m/2^i";
constexpr std::string_view kReduceThenScatter =
    "derived: single-node accumulation (seed 003's CT broadcast in reverse), then the scatter "
    "of the p result blocks by recursive halving (COST.md D4) with m/p";
constexpr std::string_view kChain =
    "derived: the prefix sum of seed 003 (a processor adds only what lower-numbered ones send) "
    "along the ring's path 0 -> 1 -> ... -> p-1: p - 1 steps, each adding m";
constexpr std::string_view kPipelinedChain =
    "derived: the chain with the vector in p blocks of m/p, pipelined: the last block reaches "
    "processor p-1 after 2(p - 1) steps, each adding m/p";
constexpr std::string_view kPipelinedChainTorus =
    "derived: the pipelined chain in the chapter's row-major numbering; a row's last processor "
    "reaches the next row's first through the row's wrap-around link and one relay (one extra "
    "step per row change): 2p + sqrt(p) - 3 steps of m/p";
constexpr std::string_view kRowsColumnsScan =
    "derived: row-major prefix sum (the chapter's row-wise numbering): chains along the rows "
    "(sqrt(p) - 1 steps), a chain of row totals down the last column (sqrt(p) - 1 steps), the "
    "row offset broadcast along each row (seed 003 ring broadcast, ceil(sqrt(p)/2) steps) and "
    "added";
constexpr std::string_view kScanHypercube =
    "derived: the prefix sum of seed 003 'All-to-All Broadcast': recursive doubling, each "
    "stage adding the received sum into the running total and, from a lower-numbered partner, "
    "into the prefix (two adds; one in the first stage, where both are the same, and one in the "
    "last, where the total is no longer needed)";

// Shared coefficient sets (the same algorithm priced on several shapes).
T ring_rs_ag(const Sizes& s) { return {2 * (s.p - 1), 0, 2 * s.f, s.f}; }
T ring_rs_ag_ct(const Sizes& s) { return {2 * (s.p - 1), 2 * (s.p - 1), 2 * s.f, s.f}; }
T ring_rs(const Sizes& s) { return {s.p - 1, 0, s.f, s.f}; }
T ring_rs_ct(const Sizes& s) { return {s.p - 1, s.p - 1, s.f, s.f}; }
T hypercube_stages(const Sizes& s) { return {s.L, 0, s.L, s.L}; }
T hypercube_stages_ct(const Sizes& s) { return {s.L, s.L, s.L, s.L}; }
T halving_doubling(const Sizes& s) { return {2 * s.L, 0, 2 * s.f, s.f}; }
T halving_doubling_ct(const Sizes& s) { return {2 * s.L, 2 * s.L, 2 * s.f, s.f}; }
T rows_columns_rs_ag(const Sizes& s) { return {4 * (s.d - 1), 0, 2 * s.f, s.f}; }
T rows_columns_rs_ag_ct(const Sizes& s) { return {4 * (s.d - 1), 4 * (s.d - 1), 2 * s.f, s.f}; }
double scan_hypercube_adds(const Sizes& s) { return std::max(1.0, 2 * s.L - 2); }
double scan_rows_columns_steps(const Sizes& s) { return 2 * (s.d - 1) + s.half_side; }
double scan_chain_torus_steps(const Sizes& s) { return 2 * s.p + s.d - 3; }

// clang-format off
const std::array<Entry, 48> kTable{{
  // --- reduce (single-node accumulation) -------------------------------------------------
  {{NS::ring, Op::reduce, SF, "reversed-broadcast", "(ts + m*tb + m*tc)*ceil(p/2)", kReversedSf,
   false, kAny}, Blocks::one,
   [](const Sizes& s) { return T{s.half_ring, 0, s.half_ring, s.half_ring}; }},
  {{NS::ring, Op::reduce, SF, "reduce-scatter-gather",
   "2*(p - 1)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRsGather, false, kAny}, Blocks::p,
   ring_rs_ag},
  // Sum over the reversed stages i = 1..log2 p of (ts + m*tb + th*p/2^i + m*tc).
  {{NS::ring, Op::reduce, CT, "reversed-broadcast", "(ts + m*tb + m*tc)*log2(p) + th*(p - 1)",
   kReversedCt, false, kPowerOfTwo}, Blocks::one,
   [](const Sizes& s) { return T{s.L, s.p - 1, s.L, s.L}; }},
  // Ring RS: (p - 1)*(ts + th + m/p*(tb + tc)); gather: ts*log2 p + m/p*tb*(p - 1) + th*(p - 1).
  {{NS::ring, Op::reduce, CT, "reduce-scatter-gather",
   "(p - 1 + log2(p))*ts + 2*(p - 1)*th + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRsGather, false,
   kPowerOfTwo}, Blocks::p,
   [](const Sizes& s) { return T{s.p - 1 + s.L, 2 * (s.p - 1), 2 * s.f, s.f}; }},
  // Columns into the root's row, then that row into the root: two ring reductions.
  {{NS::torus, Op::reduce, SF, "reversed-broadcast", "2*(ts + m*tb + m*tc)*ceil(sqrt(p)/2)",
   kReversedSf, false, kAny}, Blocks::one,
   [](const Sizes& s) { return T{2 * s.half_side, 0, 2 * s.half_side, 2 * s.half_side}; }},
  // RS rows (d - 1)*(ts + m/d*(tb + tc)), RS columns (d - 1)*(ts + m/p*(tb + tc)); gather
  // (D3 with m/p) 2*ts*(d - 1) + m/p*tb*(p - 1).
  {{NS::torus, Op::reduce, SF, "reduce-scatter-gather",
   "4*(sqrt(p) - 1)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRsGather, false, kAny},
   Blocks::p, rows_columns_rs_ag},
  {{NS::torus, Op::reduce, CT, "reversed-broadcast",
   "(ts + m*tb + m*tc)*log2(p) + 2*th*(sqrt(p) - 1)", kReversedCt, false,
   kSideIsPowerOfTwo}, Blocks::one,
   [](const Sizes& s) { return T{s.L, 2 * (s.d - 1), s.L, s.L}; }},
  // RS rows and columns 2*(d - 1)*(ts + th) + (p - 1)/p*m*(tb + tc); gather (D4 with m/p)
  // ts*log2 p + m/p*tb*(p - 1) + 2*th*(d - 1).
  {{NS::torus, Op::reduce, CT, "reduce-scatter-gather",
   "(2*(sqrt(p) - 1) + log2(p))*ts + 4*(sqrt(p) - 1)*th + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc",
   kRsGather, false, kSideIsPowerOfTwo}, Blocks::p,
   [](const Sizes& s) { return T{2 * (s.d - 1) + s.L, 4 * (s.d - 1), 2 * s.f, s.f}; }},
  {{NS::hypercube, Op::reduce, SF, "reversed-broadcast", "(ts + m*tb + m*tc)*log2(p)",
   kReversedSf, false, kAny}, Blocks::one, hypercube_stages},
  // Recursive halving ts*log2 p + (p - 1)/p*m*(tb + tc); gather ts*log2 p + m/p*tb*(p - 1).
  {{NS::hypercube, Op::reduce, SF, "reduce-scatter-gather",
   "2*log2(p)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRsGather, false, kAny}, Blocks::p,
   halving_doubling},
  {{NS::hypercube, Op::reduce, CT, "reversed-broadcast", "(ts + th + m*tb + m*tc)*log2(p)",
   kReversedHcCt, false, kAny}, Blocks::one, hypercube_stages_ct},
  {{NS::hypercube, Op::reduce, CT, "reduce-scatter-gather",
   "2*log2(p)*(ts + th) + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRsGather, false, kAny},
   Blocks::p, halving_doubling_ct},

  // --- all-reduce (the chapter's "reduction") -----------------------------------------------
  {{NS::ring, Op::allreduce, SF, "reduce-broadcast", "2*(ts + m*tb)*ceil(p/2) + m*tc*ceil(p/2)",
   kReduceBroadcast, false, kAny}, Blocks::one,
   [](const Sizes& s) { return T{2 * s.half_ring, 0, 2 * s.half_ring, s.half_ring}; }},
  {{NS::ring, Op::allreduce, SF, "ring", "2*(p - 1)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc",
   kRingAllreduce, false, kAny}, Blocks::p, ring_rs_ag},
  {{NS::ring, Op::allreduce, CT, "reduce-broadcast",
   "2*(ts + m*tb)*log2(p) + m*tc*log2(p) + 2*th*(p - 1)", kReduceBroadcast, false,
   kPowerOfTwo}, Blocks::one,
   [](const Sizes& s) { return T{2 * s.L, 2 * (s.p - 1), 2 * s.L, s.L}; }},
  {{NS::ring, Op::allreduce, CT, "ring",
   "2*(p - 1)*(ts + th) + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRingAllreduce, false,
   kAny}, Blocks::p, ring_rs_ag_ct},
  {{NS::torus, Op::allreduce, SF, "reduce-broadcast",
   "4*(ts + m*tb)*ceil(sqrt(p)/2) + 2*m*tc*ceil(sqrt(p)/2)", kReduceBroadcast, false,
   kAny}, Blocks::one,
   [](const Sizes& s) { return T{4 * s.half_side, 0, 4 * s.half_side, 2 * s.half_side}; }},
  {{NS::torus, Op::allreduce, SF, "rows-columns",
   "4*(sqrt(p) - 1)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRowsColumnsAllreduce, false,
   kAny}, Blocks::p, rows_columns_rs_ag},
  {{NS::torus, Op::allreduce, CT, "reduce-broadcast",
   "2*(ts + m*tb)*log2(p) + m*tc*log2(p) + 4*th*(sqrt(p) - 1)", kReduceBroadcast, false,
   kSideIsPowerOfTwo}, Blocks::one,
   [](const Sizes& s) { return T{2 * s.L, 4 * (s.d - 1), 2 * s.L, s.L}; }},
  {{NS::torus, Op::allreduce, CT, "rows-columns",
   "4*(sqrt(p) - 1)*(ts + th) + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRowsColumnsAllreduce,
   false, kAny}, Blocks::p, rows_columns_rs_ag_ct},
  {{NS::hypercube, Op::allreduce, SF, "recursive-doubling", "(ts + m*tb + m*tc)*log2(p)",
   kRecursiveDoubling, true, kAny}, Blocks::one, hypercube_stages},
  {{NS::hypercube, Op::allreduce, SF, "rabenseifner",
   "2*log2(p)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRabenseifner, false, kAny},
   Blocks::p, halving_doubling},
  {{NS::hypercube, Op::allreduce, SF, "ring", "2*(p - 1)*ts + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc",
   kRingAllreduce, false, kAny}, Blocks::p, ring_rs_ag},
  {{NS::hypercube, Op::allreduce, SF, "reduce-broadcast", "2*(ts + m*tb)*log2(p) + m*tc*log2(p)",
   kReduceBroadcast, false, kAny}, Blocks::one,
   [](const Sizes& s) { return T{2 * s.L, 0, 2 * s.L, s.L}; }},
  {{NS::hypercube, Op::allreduce, CT, "recursive-doubling", "(ts + th + m*tb + m*tc)*log2(p)",
   kRecursiveDoublingCt, false, kAny}, Blocks::one, hypercube_stages_ct},
  {{NS::hypercube, Op::allreduce, CT, "rabenseifner",
   "2*log2(p)*(ts + th) + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRabenseifner, false, kAny},
   Blocks::p, halving_doubling_ct},
  {{NS::hypercube, Op::allreduce, CT, "ring",
   "2*(p - 1)*(ts + th) + 2*(p - 1)/p*m*tb + (p - 1)/p*m*tc", kRingAllreduce, false,
   kAny}, Blocks::p, ring_rs_ag_ct},
  {{NS::hypercube, Op::allreduce, CT, "reduce-broadcast",
   "2*(ts + th + m*tb)*log2(p) + m*tc*log2(p)", kReduceBroadcast, false, kAny},
   Blocks::one, [](const Sizes& s) { return T{2 * s.L, 2 * s.L, 2 * s.L, s.L}; }},

  // --- reduce-scatter (m: the whole input vector; each processor keeps m/p) --------------
  {{NS::ring, Op::reducescatter, SF, "ring", "(p - 1)*ts + (p - 1)/p*m*(tb + tc)", kRingRs,
   false, kAny}, Blocks::p, ring_rs},
  {{NS::ring, Op::reducescatter, CT, "ring", "(p - 1)*(ts + th) + (p - 1)/p*m*(tb + tc)",
   kRingRs, false, kAny}, Blocks::p, ring_rs_ct},
  // Reduce {log2 p, p - 1, log2 p, log2 p} plus scatter of m/p {log2 p, p - 1, (p - 1)/p, 0}.
  {{NS::ring, Op::reducescatter, CT, "reduce-then-scatter",
   "2*log2(p)*ts + 2*(p - 1)*th + (log2(p) + (p - 1)/p)*m*tb + log2(p)*m*tc",
   kReduceThenScatter, false, kPowerOfTwo}, Blocks::p,
   [](const Sizes& s) { return T{2 * s.L, 2 * (s.p - 1), s.L + s.f, s.L}; }},
  // Rows (d - 1)*(ts + m/d*(tb + tc)), columns (d - 1)*(ts + m/p*(tb + tc)).
  {{NS::torus, Op::reducescatter, SF, "rows-columns",
   "2*(sqrt(p) - 1)*ts + (p - 1)/p*m*(tb + tc)", kRowsColumnsRs, false, kAny}, Blocks::p,
   [](const Sizes& s) { return T{2 * (s.d - 1), 0, s.f, s.f}; }},
  {{NS::torus, Op::reducescatter, CT, "rows-columns",
   "2*(sqrt(p) - 1)*(ts + th) + (p - 1)/p*m*(tb + tc)", kRowsColumnsRs, false, kAny},
   Blocks::p, [](const Sizes& s) { return T{2 * (s.d - 1), 2 * (s.d - 1), s.f, s.f}; }},
  {{NS::torus, Op::reducescatter, CT, "reduce-then-scatter",
   "2*log2(p)*ts + 4*(sqrt(p) - 1)*th + (log2(p) + (p - 1)/p)*m*tb + log2(p)*m*tc",
   kReduceThenScatter, false, kSideIsPowerOfTwo}, Blocks::p,
   [](const Sizes& s) { return T{2 * s.L, 4 * (s.d - 1), s.L + s.f, s.L}; }},
  {{NS::hypercube, Op::reducescatter, SF, "recursive-halving",
   "log2(p)*ts + (p - 1)/p*m*(tb + tc)", kRecursiveHalving, false, kAny}, Blocks::p,
   [](const Sizes& s) { return T{s.L, 0, s.f, s.f}; }},
  {{NS::hypercube, Op::reducescatter, SF, "ring", "(p - 1)*ts + (p - 1)/p*m*(tb + tc)", kRingRs,
   false, kAny}, Blocks::p, ring_rs},
  {{NS::hypercube, Op::reducescatter, CT, "recursive-halving",
   "log2(p)*(ts + th) + (p - 1)/p*m*(tb + tc)", kRecursiveHalving, false, kAny}, Blocks::p,
   [](const Sizes& s) { return T{s.L, s.L, s.f, s.f}; }},
  {{NS::hypercube, Op::reducescatter, CT, "ring", "(p - 1)*(ts + th) + (p - 1)/p*m*(tb + tc)",
   kRingRs, false, kAny}, Blocks::p, ring_rs_ct},

  // --- scan (the chapter's prefix sum) ----------------------------------------------------
  {{NS::ring, Op::scan, SF, "chain", "(ts + m*tb + m*tc)*(p - 1)", kChain, false, kAny},
   Blocks::one, [](const Sizes& s) { return T{s.p - 1, 0, s.p - 1, s.p - 1}; }},
  {{NS::ring, Op::scan, SF, "pipelined-chain", "2*(p - 1)*(ts + m/p*(tb + tc))", kPipelinedChain,
   false, kAny}, Blocks::p,
   [](const Sizes& s) { return T{2 * (s.p - 1), 0, 2 * s.f, 2 * s.f}; }},
  {{NS::ring, Op::scan, CT, "chain", "(ts + th + m*tb + m*tc)*(p - 1)", kChain, false, kAny},
   Blocks::one, [](const Sizes& s) { return T{s.p - 1, s.p - 1, s.p - 1, s.p - 1}; }},
  {{NS::ring, Op::scan, CT, "pipelined-chain", "2*(p - 1)*(ts + th + m/p*(tb + tc))",
   kPipelinedChain, false, kAny}, Blocks::p,
   [](const Sizes& s) { return T{2 * (s.p - 1), 2 * (s.p - 1), 2 * s.f, 2 * s.f}; }},
  {{NS::torus, Op::scan, SF, "rows-columns",
   "(ts + m*tb)*(2*(sqrt(p) - 1) + ceil(sqrt(p)/2)) + 2*(sqrt(p) - 1)*m*tc", kRowsColumnsScan,
   false, kAny}, Blocks::one,
   [](const Sizes& s) {
     const double k = scan_rows_columns_steps(s);
     return T{k, 0, k, 2 * (s.d - 1)};
   }},
  {{NS::torus, Op::scan, SF, "pipelined-chain", "(2*p + sqrt(p) - 3)*(ts + m/p*(tb + tc))",
   kPipelinedChainTorus, false, kAny}, Blocks::p,
   [](const Sizes& s) {
     const double n = scan_chain_torus_steps(s);
     return T{n, 0, n / s.p, n / s.p};
   }},
  {{NS::torus, Op::scan, CT, "rows-columns",
   "(ts + th + m*tb)*(2*(sqrt(p) - 1) + ceil(sqrt(p)/2)) + 2*(sqrt(p) - 1)*m*tc",
   kRowsColumnsScan, false, kAny}, Blocks::one,
   [](const Sizes& s) {
     const double k = scan_rows_columns_steps(s);
     return T{k, k, k, 2 * (s.d - 1)};
   }},
  {{NS::torus, Op::scan, CT, "pipelined-chain", "(2*p + sqrt(p) - 3)*(ts + th + m/p*(tb + tc))",
   kPipelinedChainTorus, false, kAny}, Blocks::p,
   [](const Sizes& s) {
     const double n = scan_chain_torus_steps(s);
     return T{n, n, n / s.p, n / s.p};
   }},
  {{NS::hypercube, Op::scan, SF, "recursive-doubling",
   "(ts + m*tb)*log2(p) + m*tc*max(1, 2*log2(p) - 2)", kScanHypercube, false, kAny},
   Blocks::one, [](const Sizes& s) { return T{s.L, 0, s.L, scan_hypercube_adds(s)}; }},
  {{NS::hypercube, Op::scan, CT, "recursive-doubling",
   "(ts + th + m*tb)*log2(p) + m*tc*max(1, 2*log2(p) - 2)", kScanHypercube, false, kAny},
   Blocks::one, [](const Sizes& s) { return T{s.L, s.L, s.L, scan_hypercube_adds(s)}; }},
}};
// clang-format on

bool is_power_of_two(std::int64_t x) {
  return x > 0 && std::has_single_bit(static_cast<std::uint64_t>(x));
}

// p processors, d = sqrt(p) on a torus.
bool requirement_met(std::string_view requirement, std::int64_t p, std::int64_t d) {
  if (requirement == kPowerOfTwo) return is_power_of_two(p);
  if (requirement == kSideIsPowerOfTwo) return is_power_of_two(d);
  return true;
}

// The lower envelope of the lines t_i(m) = A_i + B_i*m over m >= 0: start with the
// smallest A (ties: the smallest B, then table order), then repeatedly move to the line of
// smaller slope that crosses the current one first.
void lower_envelope(ReductionEstimate& e, const ReductionParams& a) {
  const auto& algs = e.algorithms;
  std::size_t cur = 0;
  for (std::size_t i = 1; i < algs.size(); ++i) {
    const double ai = algs[i].terms.intercept(a), ac = algs[cur].terms.intercept(a);
    if (ai < ac || (ai == ac && algs[i].terms.slope(a) < algs[cur].terms.slope(a))) cur = i;
  }
  e.fastest_at_zero = cur;
  double at = 0.0;
  for (;;) {
    std::size_t next = algs.size();
    double next_at = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < algs.size(); ++j) {
      const double bj = algs[j].terms.slope(a), bc = algs[cur].terms.slope(a);
      if (!(bj < bc)) continue;
      double x = (algs[j].terms.intercept(a) - algs[cur].terms.intercept(a)) / (bc - bj);
      x = std::max(x, at);  // rounding: cur is the fastest at `at`
      if (x < next_at || (x == next_at && bj < algs[next].terms.slope(a))) {
        next = j;
        next_at = x;
      }
    }
    if (next == algs.size()) return;
    e.crossovers.push_back({next_at, algs[cur].terms.seconds(a, next_at), algs[cur].name,
                            algs[next].name});
    cur = next;
    at = next_at;
  }
}

}  // namespace

std::optional<ReductionOp> reduction_op_named(std::string_view original) {
  const std::string text = ascii_lower(original);
  if (text == "reduce") return ReductionOp::reduce;
  if (text == "allreduce" || text == "all-reduce") return ReductionOp::allreduce;
  if (text == "reducescatter" || text == "reduce-scatter") return ReductionOp::reducescatter;
  if (text == "scan" || text == "prefix-sum") return ReductionOp::scan;
  return std::nullopt;
}

ReductionOp parse_reduction_op(std::string_view text, std::string_view option) {
  if (const auto op = reduction_op_named(text)) return *op;
  throw InvalidParameter(
      fmt::format("'{}': unknown reduction (use reduce, allreduce, reducescatter, scan)", text),
      std::string(option));
}

std::string_view to_string(ReductionOp op) {
  switch (op) {
    case ReductionOp::reduce:
      return "reduce";
    case ReductionOp::allreduce:
      return "allreduce";
    case ReductionOp::reducescatter:
      return "reducescatter";
    case ReductionOp::scan:
      return "scan";
  }
  return "?";
}

std::string_view display_name(ReductionOp op) {
  switch (op) {
    case ReductionOp::reduce:
      return "reduce (single-node accumulation)";
    case ReductionOp::allreduce:
      return "all-reduce";
    case ReductionOp::reducescatter:
      return "reduce-scatter";
    case ReductionOp::scan:
      return "scan (prefix sum)";
  }
  return "?";
}

std::optional<double> crossover_bytes(const ReductionTerms& a, const ReductionTerms& b,
                                      const ReductionParams& params) {
  const double slope_gap = a.slope(params) - b.slope(params);
  if (slope_gap == 0.0) return std::nullopt;
  const double m = (b.intercept(params) - a.intercept(params)) / slope_gap;
  if (!(m > 0.0) || !std::isfinite(m)) return std::nullopt;
  return m;
}

ReductionEstimate reduction_time(NetworkShape shape, ReductionOp op, RoutingMethod method,
                                 const ReductionParams& a) {
  const std::int64_t d = check_processor_count(shape, a.p);
  if (a.bytes < 0) throw InvalidParameter("must not be negative", "--bytes");
  if (a.ts < 0 || a.tb < 0 || a.th < 0 || a.tc < 0)
    throw InvalidParameter("times must not be negative", a.ts < 0   ? "--ts"
                                                         : a.tb < 0 ? "--tb"
                                                         : a.th < 0 ? "--th"
                                                                    : "--tc");
  Sizes s{};
  s.p = static_cast<double>(a.p);
  s.d = static_cast<double>(d);
  s.L = std::log2(s.p);
  s.f = (s.p - 1) / s.p;
  s.half_ring = std::ceil(s.p / 2);
  s.half_side = std::ceil(s.d / 2);

  ReductionEstimate e;
  e.uses_th = method == RoutingMethod::cut_through;
  for (const Entry& row : kTable) {
    const ReductionFormulaInfo& info = row.info;
    if (info.shape != shape || info.op != op || info.method != method) continue;
    if (!requirement_met(info.requirement, a.p, d)) {
      e.not_applicable.push_back({info.name, info.requirement});
      continue;
    }
    ReductionAlgorithmEstimate alg;
    alg.name = info.name;
    alg.formula = info.formula;
    alg.source = info.source;
    alg.from_chapter = info.from_chapter;
    alg.blocks = row.blocks == Blocks::one ? 1 : a.p;
    alg.terms = row.terms(s);
    alg.seconds = alg.terms.seconds(a, static_cast<double>(a.bytes));
    e.algorithms.push_back(alg);
  }
  if (e.algorithms.empty()) {
    assert(!e.not_applicable.empty());
    throw InvalidParameter(
        fmt::format("{}: every {} algorithm on a {} under {} needs {}", a.p, display_name(op),
                    to_string(shape), to_string(method), e.not_applicable.front().requirement),
        "--p");
  }
  for (std::size_t i = 1; i < e.algorithms.size(); ++i)
    if (e.algorithms[i].seconds < e.algorithms[e.best].seconds) e.best = i;
  lower_envelope(e, a);
  return e;
}

std::span<const ReductionFormulaInfo> reduction_formulas() {
  static const std::vector<ReductionFormulaInfo> infos = [] {
    std::vector<ReductionFormulaInfo> v;
    for (const Entry& e : kTable) v.push_back(e.info);
    return v;
  }();
  return infos;
}

}  // namespace ccsched
