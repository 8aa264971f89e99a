// Every analytic formula of seed 003 (and every derived one) on a hand-computed case, plus
// the floor/ceil cases of odd sizes and the input checks.
//
// Parameters of all cases: ts = 10 us, tb = 10 ns/B, th = 1 us, m = 100 B, so m*tb = 1 us
// and ts + m*tb = 11 us. p = 16: log2 p = 4, sqrt(p) = 4. Shifts use q = 6 (gamma(6) = 1,
// min(q, p - q) = 6). Each expected value below is worked out from the chapter's formula
// (quoted in the comment), not taken from the code.
#include "ccsched/cost/analytic.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

using NS = NetworkShape;
using Op = Operation;
constexpr RoutingMethod SF = RoutingMethod::store_and_forward;
constexpr RoutingMethod CT = RoutingMethod::cut_through;

struct Case {
  NS shape;
  Op op;
  RoutingMethod method;
  std::int64_t p;
  std::int64_t q;
  double expected_us;
};

AnalyticParams params(std::int64_t p, std::int64_t q) {
  return AnalyticParams{.p = p, .ts = 10e-6, .tb = 10e-9, .th = 1e-6, .bytes = 100, .q = q};
}

// clang-format off
const Case kCases[] = {
  // p2p. SF: ts + m*tb*l; CT: ts + m*tb + th*l; l = floor(p/2), 2*floor(sqrt(p)/2), log2 p.
  {NS::ring,      Op::p2p, SF, 16, 1, 18},   // 10 + 1*8
  {NS::torus,     Op::p2p, SF, 16, 1, 14},   // 10 + 2*1*2
  {NS::hypercube, Op::p2p, SF, 16, 1, 14},   // 10 + 1*4
  {NS::ring,      Op::p2p, CT, 16, 1, 19},   // 10 + 1 + 1*8
  {NS::torus,     Op::p2p, CT, 16, 1, 15},   // 10 + 1 + 2*1*2
  {NS::hypercube, Op::p2p, CT, 16, 1, 15},   // 10 + 1 + 1*4
  {NS::ring,      Op::p2p, SF, 7, 1, 13},    // odd: 10 + 1*floor(3.5) = 13
  {NS::torus,     Op::p2p, SF, 9, 1, 12},    // 10 + 2*1*floor(1.5) = 12

  // One-to-all broadcast.
  {NS::ring,      Op::one_to_all_broadcast, SF, 16, 1, 88},  // (ts+m tb)*ceil(p/2) = 11*8
  {NS::torus,     Op::one_to_all_broadcast, SF, 16, 1, 44},  // 2*11*ceil(4/2) = 44
  {NS::hypercube, Op::one_to_all_broadcast, SF, 16, 1, 44},  // 11*log2 16 = 44
  {NS::ring,      Op::one_to_all_broadcast, CT, 16, 1, 59},  // 11*4 + 1*(16-1) = 59
  {NS::torus,     Op::one_to_all_broadcast, CT, 16, 1, 50},  // 11*4 + 2*1*(4-1) = 50
  {NS::hypercube, Op::one_to_all_broadcast, CT, 16, 1, 48},  // derived: (11+1)*4 = 48
  {NS::ring,      Op::one_to_all_broadcast, SF, 7, 1, 44},   // 11*ceil(3.5) = 44
  {NS::torus,     Op::one_to_all_broadcast, SF, 9, 1, 44},   // 2*11*ceil(1.5) = 44

  // All-to-all broadcast.
  {NS::ring,      Op::all_to_all_broadcast, SF, 16, 1, 165}, // 11*(16-1)
  {NS::torus,     Op::all_to_all_broadcast, SF, 16, 1, 75},  // 2*10*(4-1) + 1*(16-1) = 60+15
  {NS::hypercube, Op::all_to_all_broadcast, SF, 16, 1, 72},  // (10 + 100*16*0.01/2)*4 = 18*4
  {NS::ring,      Op::all_to_all_broadcast, CT, 16, 1, 180}, // derived: (11+1)*15
  {NS::torus,     Op::all_to_all_broadcast, CT, 16, 1, 81},  // derived: 2*(10+1)*3 + 15
  {NS::hypercube, Op::all_to_all_broadcast, CT, 16, 1, 76},  // derived: (10+1+8)*4

  // Scatter (one-to-all personalized).
  {NS::ring,      Op::scatter, SF, 16, 1, 165},  // derived: 11*(16-1)
  {NS::torus,     Op::scatter, SF, 16, 1, 75},   // derived: 2*10*3 + 1*15
  {NS::hypercube, Op::scatter, SF, 16, 1, 55},   // ts log2 p + m tb (p-1) = 40 + 15
  {NS::ring,      Op::scatter, CT, 16, 1, 70},   // derived: 40 + 15 + 1*15
  {NS::torus,     Op::scatter, CT, 16, 1, 61},   // derived: 40 + 15 + 2*1*3
  {NS::hypercube, Op::scatter, CT, 16, 1, 59},   // derived: (10+1)*4 + 15

  // Total exchange.
  {NS::ring,      Op::total_exchange, SF, 16, 1, 270},  // (ts + m p tb/2)(p-1) = 18*15
  {NS::torus,     Op::total_exchange, SF, 16, 1, 108},  // (2 ts + m p tb)(sqrt p - 1) = 36*3
  {NS::hypercube, Op::total_exchange, SF, 16, 1, 72},   // (ts + m p tb/2) log2 p = 18*4
  {NS::ring,      Op::total_exchange, CT, 16, 1, 285},  // derived: (10+1+8)*15
  {NS::torus,     Op::total_exchange, CT, 16, 1, 114},  // derived: (20+2+16)*3
  {NS::hypercube, Op::total_exchange, CT, 16, 1, 197},  // 11*15 + 1*16*4/2 = 165 + 32

  // Circular q-shift, q = 6.
  {NS::ring,      Op::shift, SF, 16, 6, 66},   // derived: 11*min(6, 10)
  {NS::torus,     Op::shift, SF, 16, 6, 55},   // 11*(2*floor(4/2) + 1) = 11*5
  {NS::hypercube, Op::shift, SF, 16, 6, 77},   // 11*(2*4 - 1)
  {NS::ring,      Op::shift, CT, 16, 6, 72},   // derived: (11+1)*6
  {NS::torus,     Op::shift, CT, 16, 6, 60},   // derived: (11+1)*5
  {NS::hypercube, Op::shift, CT, 16, 6, 14},   // ts + m tb + th(log2 p - gamma(6)) = 11 + 3
  {NS::hypercube, Op::shift, CT, 16, 8, 12},   // gamma(8) = 3: 11 + 1*(4-3)
  {NS::ring,      Op::shift, SF, 7, 5, 22},    // the short way: 11*min(5, 2)
  {NS::torus,     Op::shift, SF, 9, 4, 33},    // 11*(2*floor(1.5) + 1)
};
// clang-format on

TEST(Analytic, HandComputedCases) {
  for (const Case& c : kCases) {
    const auto e = analytic_time(c.shape, c.op, c.method, params(c.p, c.q));
    EXPECT_NEAR(e.seconds * 1e6, c.expected_us, 1e-9)
        << to_string(c.shape) << " " << to_string(c.op) << " " << to_string(c.method)
        << " p=" << c.p << " q=" << c.q << ": " << e.formula;
    EXPECT_FALSE(e.formula.empty());
    EXPECT_FALSE(e.source.empty());
  }
}

TEST(Analytic, EveryFormulaIsCoveredOnceAndTested) {
  const auto table = analytic_formulas();
  EXPECT_EQ(table.size(), 36u);
  std::set<std::tuple<NS, Op, RoutingMethod>> rows, tested;
  for (const auto& f : table) rows.insert({f.shape, f.op, f.method});
  EXPECT_EQ(rows.size(), 36u);  // no duplicates: 3 shapes x 6 operations x 2 methods
  for (const Case& c : kCases) tested.insert({c.shape, c.op, c.method});
  EXPECT_EQ(tested, rows);
}

TEST(Analytic, StoreAndForwardIgnoresTh) {
  auto a = params(16, 1);
  const double with = analytic_time(NS::ring, Op::one_to_all_broadcast, SF, a).seconds;
  a.th = 50e-6;
  EXPECT_EQ(analytic_time(NS::ring, Op::one_to_all_broadcast, SF, a).seconds, with);
  EXPECT_FALSE(analytic_time(NS::ring, Op::one_to_all_broadcast, SF, a).uses_th);
  EXPECT_TRUE(analytic_time(NS::ring, Op::one_to_all_broadcast, CT, a).uses_th);
}

TEST(Analytic, ChapterAndDerivedAreMarked) {
  const auto a = params(16, 1);
  EXPECT_TRUE(analytic_time(NS::hypercube, Op::scatter, SF, a).from_chapter);
  EXPECT_FALSE(analytic_time(NS::ring, Op::scatter, SF, a).from_chapter);
  EXPECT_TRUE(analytic_time(NS::hypercube, Op::shift, SF, params(16, 3)).upper_estimate);
}

void expect_bad(NS shape, Op op, RoutingMethod m, std::int64_t p, std::int64_t q,
                const std::string& where) {
  try {
    analytic_time(shape, op, m, params(p, q));
    ADD_FAILURE() << to_string(shape) << " p=" << p << " q=" << q << " accepted";
  } catch (const InvalidParameter& e) {
    EXPECT_EQ(e.where(), where) << e.what();
  }
}

TEST(Analytic, InputChecks) {
  expect_bad(NS::hypercube, Op::p2p, SF, 12, 1, "--p");  // not a power of two
  expect_bad(NS::torus, Op::p2p, SF, 8, 1, "--p");       // not a square
  expect_bad(NS::torus, Op::p2p, SF, 1, 1, "--p");       // 1 = 1^2, but d must be >= 2
  expect_bad(NS::ring, Op::p2p, SF, 1, 1, "--p");
  expect_bad(NS::ring, Op::p2p, SF, 0, 1, "--p");
  expect_bad(NS::ring, Op::one_to_all_broadcast, CT, 12, 1, "--p");  // recursive halving
  expect_bad(NS::ring, Op::scatter, CT, 12, 1, "--p");
  expect_bad(NS::torus, Op::one_to_all_broadcast, CT, 36, 1, "--p");  // sqrt 6
  expect_bad(NS::torus, Op::scatter, CT, 9, 1, "--p");                // sqrt 3
  expect_bad(NS::ring, Op::shift, SF, 16, 0, "--q");
  expect_bad(NS::ring, Op::shift, SF, 16, 16, "--q");
  expect_bad(NS::hypercube, Op::shift, CT, 16, -1, "--q");
  // The same sizes are fine where the algorithm does not need them.
  EXPECT_NO_THROW(analytic_time(NS::ring, Op::one_to_all_broadcast, SF, params(12, 1)));
  EXPECT_NO_THROW(analytic_time(NS::torus, Op::one_to_all_broadcast, SF, params(36, 1)));
  auto negative = params(16, 1);
  negative.tb = -1e-9;
  EXPECT_THROW(analytic_time(NS::ring, Op::p2p, SF, negative), InvalidParameter);
}

TEST(Analytic, Parsing) {
  EXPECT_EQ(parse_network_shape("torus", "--topology"), NS::torus);
  EXPECT_EQ(parse_operation("total-exchange", "--op"), Op::total_exchange);
  EXPECT_EQ(parse_operation("aas", "--op"), Op::total_exchange);
  EXPECT_EQ(parse_operation("oas", "--op"), Op::scatter);
  EXPECT_EQ(parse_routing_method("ct", "--switching"), CT);
  EXPECT_EQ(parse_routing_method("store-and-forward", "--switching"), SF);
  EXPECT_THROW(parse_network_shape("mesh", "--topology"), InvalidParameter);
  EXPECT_THROW(parse_operation("gather", "--op"), InvalidParameter);
  EXPECT_THROW(parse_routing_method("vct", "--switching"), InvalidParameter);
  for (Op op : {Op::p2p, Op::one_to_all_broadcast, Op::all_to_all_broadcast, Op::scatter,
                Op::total_exchange, Op::shift})
    EXPECT_EQ(parse_operation(to_string(op), "--op"), op);
}

}  // namespace
}  // namespace ccsched
