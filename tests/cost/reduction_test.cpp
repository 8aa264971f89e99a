// The reduction algorithms of cost/reduction.hpp on hand-computed cases, one per row of the
// table, and the choice by message size: the crossovers solved by hand and checked by
// evaluating both algorithms there, and the lower envelope checked against brute force.
//
// Parameters of all cases: ts = 10 us, th = 1 us, m = 1600 B, tb = 10 ns/B (m*tb = 16 us),
// tc = 5 ns/B (m*tc = 8 us). Ring and hypercube p = 8 (log2 p = 3; blocks of m/p = 200 B:
// 2 us to send, 1 us to add); torus p = 16 (sqrt(p) = 4, log2 p = 4; m/p = 100 B: 1 us and
// 0.5 us; m/sqrt(p) = 400 B: 4 us and 2 us). Each expected value is summed step by step
// from the algorithm in the comment, not from the formula the code uses.
#include "ccsched/cost/reduction.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

using NS = NetworkShape;
using Op = ReductionOp;
constexpr RoutingMethod SF = RoutingMethod::store_and_forward;
constexpr RoutingMethod CT = RoutingMethod::cut_through;

ReductionParams params(std::int64_t p, std::int64_t bytes = 1600) {
  return ReductionParams{
      .p = p, .ts = 10e-6, .tb = 10e-9, .th = 1e-6, .tc = 5e-9, .bytes = bytes};
}

struct Case {
  NS shape;
  Op op;
  RoutingMethod method;
  std::int64_t p;
  std::string_view algorithm;
  double expected_us;
};

// clang-format off
const Case kCases[] = {
  // --- reduce ---------------------------------------------------------------------------
  // Ring, the chapter's broadcast reversed: 4 steps of (ts + m tb + m tc) = 4 * 34.
  {NS::ring, Op::reduce, SF, 8, "reversed-broadcast", 136},
  // Ring RS: 7 * (10 + 2 + 1) = 91; gather of 200 B blocks, one per step: 7 * 12 = 84.
  {NS::ring, Op::reduce, SF, 8, "reduce-scatter-gather", 175},
  // Logical hypercube reversed: stages over 1, 2, 4 hops, each 10 + 16 + 8 + hops.
  {NS::ring, Op::reduce, CT, 8, "reversed-broadcast", 35 + 36 + 38},
  // RS 7 * (10 + 1 + 2 + 1) = 98; gather (D4 reversed): 800 B over 4 hops 10 + 8 + 4,
  // 400 B over 2 hops 10 + 4 + 2, 200 B over 1 hop 10 + 2 + 1: 22 + 16 + 13 = 51.
  {NS::ring, Op::reduce, CT, 8, "reduce-scatter-gather", 98 + 51},
  // Columns into the root row (2 steps of 34), then the row (2 steps of 34).
  {NS::torus, Op::reduce, SF, 16, "reversed-broadcast", 136},
  // RS rows 3 * (10 + 4 + 2) = 48, RS columns 3 * (10 + 1 + 0.5) = 34.5; gather along the
  // columns 3 * (10 + 1) = 33, then along the root row in bundles of 4 blocks 3 * 14 = 42.
  {NS::torus, Op::reduce, SF, 16, "reduce-scatter-gather", 48 + 34.5 + 33 + 42},
  // 4 reversed stages of 34 over 2, 1, 2, 1 hops.
  {NS::torus, Op::reduce, CT, 16, "reversed-broadcast", 4 * 34 + 6},
  // RS rows 3 * 17 = 51, columns 3 * 12.5 = 37.5; gather (D4 reversed) 800 B / 2 hops
  // 20, 400 B / 1 hop 15, 200 B / 2 hops 14, 100 B / 1 hop 12: 61.
  {NS::torus, Op::reduce, CT, 16, "reduce-scatter-gather", 51 + 37.5 + 61},
  // Binomial: 3 stages of 34.
  {NS::hypercube, Op::reduce, SF, 8, "reversed-broadcast", 102},
  // Halving 800, 400, 200 B (sent and added): 22 + 16 + 13; binomial gather 12 + 14 + 18.
  {NS::hypercube, Op::reduce, SF, 8, "reduce-scatter-gather", 51 + 44},
  {NS::hypercube, Op::reduce, CT, 8, "reversed-broadcast", 3 * 35},
  {NS::hypercube, Op::reduce, CT, 8, "reduce-scatter-gather", 51 + 44 + 6},

  // --- all-reduce -------------------------------------------------------------------------
  // Reduce 136, then the chapter's SF ring broadcast 4 * (10 + 16).
  {NS::ring, Op::allreduce, SF, 8, "reduce-broadcast", 136 + 104},
  // RS 91, then the ring all-to-all broadcast of 200 B blocks 7 * 12.
  {NS::ring, Op::allreduce, SF, 8, "ring", 91 + 84},
  // Reduce 109, then the CT ring broadcast (10 + 16) * 3 + 1 * 7 = 85.
  {NS::ring, Op::allreduce, CT, 8, "reduce-broadcast", 109 + 85},
  // RS 98, all-gather 7 * (10 + 1 + 2).
  {NS::ring, Op::allreduce, CT, 8, "ring", 98 + 91},
  // Reduce 136, then rows and columns broadcast 2 * 2 * 26.
  {NS::torus, Op::allreduce, SF, 16, "reduce-broadcast", 136 + 104},
  // RS 48 + 34.5; all-gather columns 3 * 11, rows 3 * 14.
  {NS::torus, Op::allreduce, SF, 16, "rows-columns", 82.5 + 33 + 42},
  // Reduce 142, then the chapter's CT torus broadcast 26 * 4 + 2 * 1 * 3 = 110.
  {NS::torus, Op::allreduce, CT, 16, "reduce-broadcast", 142 + 110},
  // RS 51 + 37.5; all-gather columns 3 * 12, rows 3 * 15.
  {NS::torus, Op::allreduce, CT, 16, "rows-columns", 88.5 + 36 + 45},
  // Seed 003: (ts + tb) log2 p for m = 1; with m and the adds 3 * (10 + 16 + 8).
  {NS::hypercube, Op::allreduce, SF, 8, "recursive-doubling", 102},
  // Halving 51, doubling all-gather 200, 400, 800 B: 12 + 14 + 18.
  {NS::hypercube, Op::allreduce, SF, 8, "rabenseifner", 95},
  // Gray-code ring: RS 7 * 13, all-gather 7 * 12.
  {NS::hypercube, Op::allreduce, SF, 8, "ring", 175},
  // Binomial reduce 102, broadcast 3 * 26.
  {NS::hypercube, Op::allreduce, SF, 8, "reduce-broadcast", 180},
  {NS::hypercube, Op::allreduce, CT, 8, "recursive-doubling", 105},
  {NS::hypercube, Op::allreduce, CT, 8, "rabenseifner", 101},
  {NS::hypercube, Op::allreduce, CT, 8, "ring", 175 + 14},
  {NS::hypercube, Op::allreduce, CT, 8, "reduce-broadcast", 105 + 81},

  // --- reduce-scatter ---------------------------------------------------------------------
  {NS::ring, Op::reducescatter, SF, 8, "ring", 91},
  {NS::ring, Op::reducescatter, CT, 8, "ring", 98},
  // CT reduce 109, then the scatter of 200 B blocks by recursive halving 51.
  {NS::ring, Op::reducescatter, CT, 8, "reduce-then-scatter", 109 + 51},
  {NS::torus, Op::reducescatter, SF, 16, "rows-columns", 82.5},
  {NS::torus, Op::reducescatter, CT, 16, "rows-columns", 88.5},
  // CT reduce 142, scatter 61.
  {NS::torus, Op::reducescatter, CT, 16, "reduce-then-scatter", 142 + 61},
  {NS::hypercube, Op::reducescatter, SF, 8, "recursive-halving", 51},
  {NS::hypercube, Op::reducescatter, SF, 8, "ring", 91},
  {NS::hypercube, Op::reducescatter, CT, 8, "recursive-halving", 54},
  {NS::hypercube, Op::reducescatter, CT, 8, "ring", 98},

  // --- scan -------------------------------------------------------------------------------
  {NS::ring, Op::scan, SF, 8, "chain", 7 * 34},
  // 8 blocks over 7 hops: 14 steps of 10 + 2 + 1.
  {NS::ring, Op::scan, SF, 8, "pipelined-chain", 14 * 13},
  {NS::ring, Op::scan, CT, 8, "chain", 7 * 35},
  {NS::ring, Op::scan, CT, 8, "pipelined-chain", 14 * 14},
  // Rows: 3 * 34; column chain: 2 * 34 + 26 (the last receiver adds nothing there); row
  // broadcast 2 * 26; the final add 8.
  {NS::torus, Op::scan, SF, 16, "rows-columns", 102 + 94 + 52 + 8},
  // 16 blocks over 15 chain hops + 3 relays: 18 + 15 = 33 steps of 10 + 1 + 0.5.
  {NS::torus, Op::scan, SF, 16, "pipelined-chain", 33 * 11.5},
  {NS::torus, Op::scan, CT, 16, "rows-columns", 256 + 8},
  {NS::torus, Op::scan, CT, 16, "pipelined-chain", 33 * 12.5},
  // Stage 1: one add (total = prefix); stage 2: two; stage 3: one (total unused).
  {NS::hypercube, Op::scan, SF, 8, "recursive-doubling", 34 + 42 + 34},
  {NS::hypercube, Op::scan, CT, 8, "recursive-doubling", 110 + 3},
  // p = 2: one stage, one add.
  {NS::hypercube, Op::scan, SF, 2, "recursive-doubling", 34},
  // Odd ring: 7 processors, the chapter's ceil(p/2) = 4 steps.
  {NS::ring, Op::reduce, SF, 7, "reversed-broadcast", 136},
};
// clang-format on

const ReductionAlgorithmEstimate* find(const ReductionEstimate& e, std::string_view name) {
  for (const auto& a : e.algorithms)
    if (a.name == name) return &a;
  return nullptr;
}

TEST(Reduction, HandComputedCases) {
  for (const Case& c : kCases) {
    const auto e = reduction_time(c.shape, c.op, c.method, params(c.p));
    const auto* a = find(e, c.algorithm);
    ASSERT_NE(a, nullptr) << to_string(c.shape) << " " << to_string(c.op) << " " << c.algorithm;
    EXPECT_NEAR(a->seconds * 1e6, c.expected_us, 1e-9)
        << to_string(c.shape) << " " << to_string(c.op) << " " << to_string(c.method) << " p="
        << c.p << " " << c.algorithm << ": " << a->formula;
    EXPECT_FALSE(a->source.empty());
  }
}

TEST(Reduction, EveryRowIsTested) {
  std::set<std::tuple<NS, Op, RoutingMethod, std::string_view>> rows, tested;
  for (const auto& f : reduction_formulas()) rows.insert({f.shape, f.op, f.method, f.name});
  EXPECT_EQ(rows.size(), reduction_formulas().size());  // no duplicate rows
  for (const Case& c : kCases) tested.insert({c.shape, c.op, c.method, c.algorithm});
  EXPECT_EQ(tested, rows);
  // Every (shape, op, method) has at least one algorithm.
  std::set<std::tuple<NS, Op, RoutingMethod>> combos;
  for (const auto& f : reduction_formulas()) combos.insert({f.shape, f.op, f.method});
  EXPECT_EQ(combos.size(), 3u * 4u * 2u);
}

TEST(Reduction, OnlyTheChaptersFormulaIsMarkedAsItsOwn) {
  for (const auto& f : reduction_formulas())
    EXPECT_EQ(f.from_chapter, f.shape == NS::hypercube && f.op == Op::allreduce &&
                                  f.method == SF && f.name == "recursive-doubling")
        << f.name;
  // The chapter's formula: (ts + tb) log2 p for m = 1 and no adds.
  auto a = params(8, 1);
  a.tc = 0;
  const auto e = reduction_time(NS::hypercube, Op::allreduce, SF, a);
  EXPECT_NEAR(find(e, "recursive-doubling")->seconds, (a.ts + a.tb) * 3, 1e-15);
}

TEST(Reduction, StepsAndBlocks) {
  const auto e = reduction_time(NS::hypercube, Op::allreduce, SF, params(8));
  EXPECT_EQ(find(e, "recursive-doubling")->blocks, 1);
  EXPECT_EQ(find(e, "recursive-doubling")->terms.startups, 3);
  EXPECT_EQ(find(e, "rabenseifner")->blocks, 8);
  EXPECT_EQ(find(e, "rabenseifner")->terms.startups, 6);
  EXPECT_EQ(find(e, "ring")->terms.startups, 14);
  // SF never charges th.
  for (const auto& alg : e.algorithms) EXPECT_EQ(alg.terms.hops, 0) << alg.name;
  EXPECT_FALSE(e.uses_th);
  EXPECT_TRUE(reduction_time(NS::hypercube, Op::allreduce, CT, params(8)).uses_th);
}

// Hypercube p = 8, SF, all-reduce. Recursive doubling: 3*ts + 3*m*(tb + tc) =
// 30 us + 0.045 us/B * m. Rabenseifner: 6*ts + 2*(7/8)*m*tb + (7/8)*m*tc = 60 us +
// 0.021875 us/B * m. Equal at m = 30 / 0.023125 = 1297.297... B.
TEST(Reduction, CrossoverSolvedByHand) {
  const auto e = reduction_time(NS::hypercube, Op::allreduce, SF, params(8));
  ASSERT_EQ(e.crossovers.size(), 1u);
  const ReductionCrossover& c = e.crossovers.front();
  EXPECT_EQ(c.below, "recursive-doubling");
  EXPECT_EQ(c.above, "rabenseifner");
  EXPECT_NEAR(c.bytes, 30.0 / 0.023125, 1e-6);
  EXPECT_EQ(e.algorithms[e.fastest_at_zero].name, "recursive-doubling");

  // Both sides at the crossover: the same time, and that is the reported one.
  const auto rd = find(e, "recursive-doubling")->terms;
  const auto rab = find(e, "rabenseifner")->terms;
  const auto a = params(8);
  EXPECT_NEAR(rd.seconds(a, c.bytes), rab.seconds(a, c.bytes), 1e-15);
  EXPECT_NEAR(c.seconds, 30e-6 + 0.045e-6 * (30.0 / 0.023125), 1e-12);
  const auto m = crossover_bytes(rd, rab, a);
  ASSERT_TRUE(m.has_value());
  EXPECT_NEAR(*m, c.bytes, 1e-9);

  // One byte either side, the estimate picks the other algorithm.
  const auto below = reduction_time(NS::hypercube, Op::allreduce, SF, params(8, 1297));
  const auto above = reduction_time(NS::hypercube, Op::allreduce, SF, params(8, 1298));
  EXPECT_EQ(below.algorithms[below.best].name, "recursive-doubling");
  EXPECT_EQ(above.algorithms[above.best].name, "rabenseifner");
}

// Ring p = 8, CT, all-reduce. Reduce-broadcast: 6*ts + 14*th + m*(6*tb + 3*tc) =
// 74 us + 0.075 us/B * m. Ring: 14*(ts + th) + m*(2*(7/8)*tb + (7/8)*tc) = 154 us +
// 0.021875 us/B * m. Equal at m = 80 / 0.053125 = 1505.88... B.
TEST(Reduction, RingCrossover) {
  const auto e = reduction_time(NS::ring, Op::allreduce, CT, params(8));
  ASSERT_EQ(e.crossovers.size(), 1u);
  EXPECT_EQ(e.crossovers[0].below, "reduce-broadcast");
  EXPECT_EQ(e.crossovers[0].above, "ring");
  EXPECT_NEAR(e.crossovers[0].bytes, 80.0 / 0.053125, 1e-6);
}

TEST(Reduction, NoCrossoverWhenOneAlgorithmDominates) {
  // Recursive halving: log2 p start-ups and the same bytes as the Gray-code ring.
  const auto e = reduction_time(NS::hypercube, Op::reducescatter, SF, params(8));
  EXPECT_TRUE(e.crossovers.empty());
  EXPECT_EQ(e.algorithms[e.fastest_at_zero].name, "recursive-halving");
  EXPECT_FALSE(crossover_bytes(find(e, "recursive-halving")->terms, find(e, "ring")->terms,
                               params(8))
                   .has_value());
}

// Whatever the parameters, the envelope names the algorithm that brute force finds
// fastest on every size between and around the crossovers.
TEST(Reduction, EnvelopeMatchesBruteForce) {
  const ReductionParams variants[] = {
      params(16), {.p = 64, .ts = 2e-6, .tb = 1e-9, .th = 0.5e-6, .tc = 0.2e-9, .bytes = 1},
      {.p = 256, .ts = 50e-6, .tb = 0.1e-9, .th = 0, .tc = 0, .bytes = 1}};
  for (const ReductionParams& base : variants)
    for (NS shape : {NS::ring, NS::torus, NS::hypercube})
      for (Op op : {Op::reduce, Op::allreduce, Op::reducescatter, Op::scan})
        for (RoutingMethod method : {SF, CT}) {
          const auto e = reduction_time(shape, op, method, base);
          std::vector<double> sizes{0.5, 1, 1e3, 1e6, 1e9};
          for (const auto& c : e.crossovers)
            for (double k : {0.9, 1.1}) sizes.push_back(c.bytes * k);
          for (double m : sizes) {
            std::size_t brute = 0;
            for (std::size_t i = 1; i < e.algorithms.size(); ++i)
              if (e.algorithms[i].terms.seconds(base, m) <
                  e.algorithms[brute].terms.seconds(base, m))
                brute = i;
            std::string_view envelope = e.algorithms[e.fastest_at_zero].name;
            for (const auto& c : e.crossovers)
              if (m > c.bytes) envelope = c.above;
            const double best = e.algorithms[brute].terms.seconds(base, m);
            const double chosen = find(e, envelope)->terms.seconds(base, m);
            EXPECT_NEAR(chosen, best, 1e-12 * best)
                << to_string(shape) << " " << to_string(op) << " " << to_string(method)
                << " p=" << base.p << " m=" << m << ": envelope " << envelope << ", brute "
                << e.algorithms[brute].name;
          }
        }
}

TEST(Reduction, InputChecks) {
  auto bad = [](NS shape, Op op, RoutingMethod method, ReductionParams a, std::string where) {
    try {
      reduction_time(shape, op, method, a);
      ADD_FAILURE() << to_string(shape) << " p=" << a.p << " accepted";
    } catch (const InvalidParameter& e) {
      EXPECT_EQ(e.where(), where) << e.what();
    }
  };
  bad(NS::hypercube, Op::allreduce, SF, params(12), "--p");
  bad(NS::torus, Op::allreduce, SF, params(8), "--p");
  bad(NS::ring, Op::allreduce, SF, params(1), "--p");
  auto negative = params(8);
  negative.tc = -1e-9;
  bad(NS::ring, Op::allreduce, SF, negative, "--tc");
  auto no_bytes = params(8);
  no_bytes.bytes = -1;
  bad(NS::ring, Op::scan, SF, no_bytes, "--bytes");

  // p = 12 on a CT ring: the logical-hypercube algorithms do not apply, the ring does.
  const auto e = reduction_time(NS::ring, Op::allreduce, CT, params(12));
  ASSERT_EQ(e.algorithms.size(), 1u);
  EXPECT_EQ(e.algorithms[0].name, "ring");
  ASSERT_EQ(e.not_applicable.size(), 1u);
  EXPECT_EQ(e.not_applicable[0].name, "reduce-broadcast");
  EXPECT_EQ(e.not_applicable[0].requirement, "p a power of two");
  // A CT torus reduce with sqrt(p) = 3: neither algorithm applies.
  bad(NS::torus, Op::reduce, CT, params(9), "--p");
}

TEST(Reduction, Parsing) {
  EXPECT_EQ(parse_reduction_op("all-reduce", "--op"), Op::allreduce);
  EXPECT_EQ(parse_reduction_op("reduce-scatter", "--op"), Op::reducescatter);
  EXPECT_EQ(parse_reduction_op("prefix-sum", "--op"), Op::scan);
  EXPECT_FALSE(reduction_op_named("oab").has_value());
  EXPECT_THROW(parse_reduction_op("gather", "--op"), InvalidParameter);
  for (Op op : {Op::reduce, Op::allreduce, Op::reducescatter, Op::scan})
    EXPECT_EQ(parse_reduction_op(to_string(op), "--op"), op);
}

}  // namespace
}  // namespace ccsched
