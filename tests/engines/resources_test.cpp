// Resource estimates and limits (docs/RELIABILITY.md): the path census counts exactly the paths
// PathSet enumerates (minimal routing) or bounds them (non-minimal); the SAT estimate is
// never below the exact size of the encoding and not far above it; truncated path lists
// keep exactly the cap; the SAT engine refuses an encoding over its memory limit with a
// clear note instead of building it.
#include "ccsched/engines/resources.hpp"

#include <gtest/gtest.h>

#include <random>

#include "../support/solve_check.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/sat.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using testing_support::make_problem;

TEST(PathCensus, CountsEqualEnumerationUnderMinimalRouting) {
  for (const std::string spec : {"hypercube:4", "torus:4x4", "mesh:3x4", "kautz:2,3", "fattree:8",
                                 "ring:7"}) {
    SCOPED_TRACE(spec);
    const Topology t = make_topology(spec);
    const Model m = default_model(t);
    const PathCensus census(t, m);
    const PathSet paths(t, m);
    double most = 0;
    for (const NodeId u : t.processors())
      for (const NodeId v : t.processors()) {
        if (u == v) continue;
        ASSERT_EQ(census.count(u, v), static_cast<double>(paths.paths(u, v).size()))
            << u << "->" << v;
        ASSERT_EQ(census.distance(u, v), paths.distance(u, v));
        most = std::max(most, census.count(u, v));
      }
    EXPECT_EQ(census.max_count(), most);
  }
}

TEST(PathCensus, BoundsNonMinimalAndStoreAndForward) {
  const Topology t = make_topology("torus:3x3");
  Model m = default_model(t);
  m.routing = Routing::nonminimal;
  m.extra_hops = 2;
  const PathCensus census(t, m);
  const PathSet paths(t, m);
  double enumerated = 0;
  for (const NodeId u : t.processors())
    for (const NodeId v : t.processors())
      if (u != v) {
        EXPECT_GE(census.count(u, v), static_cast<double>(paths.paths(u, v).size()));
        enumerated += static_cast<double>(paths.paths(u, v).size());
      }
  EXPECT_GE(census.total(1e300), enumerated);
  m.switching = Switching::store_and_forward;
  const PathCensus hops(t, m);
  EXPECT_EQ(hops.total(1e300), static_cast<double>(t.channel_count()));
}

TEST(PathCensus, HugeCountsWithoutEnumerating) {
  // torus:32x32 has C(32,16) shortest paths between antipodes: far beyond any list.
  const Topology t = make_topology("torus:32x32");
  const PathCensus census(t, default_model(t));
  EXPECT_GT(census.max_count(), 1e8);
  EXPECT_EQ(census.total(1.0), 1024.0 * 1023.0);  // one path per pair when capped at 1
}

TEST(PathSetLimits, TruncateKeepsTheCap) {
  const Topology t = make_topology("hypercube:5");
  Model m = default_model(t);
  PathSet strict(t, m, PathLimits{10, false});
  EXPECT_THROW(strict.paths(0, 31), Unsupported);  // 5! = 120 shortest paths
  PathSet cut(t, m, PathLimits{10, true});
  EXPECT_EQ(cut.paths(0, 1).size(), 1u);
  EXPECT_FALSE(cut.truncated());
  EXPECT_EQ(cut.paths(0, 31).size(), 10u);
  EXPECT_TRUE(cut.truncated());
}

TEST(SatEstimate, NeverBelowTheExactEncodingAndNotFarAbove) {
  struct Case {
    std::string spec;
    CollectiveKind kind;
    std::optional<int> ports;
    int steps;
  };
  const Case cases[] = {{"hypercube:3", CollectiveKind::AAS, std::nullopt, 7},
                        {"hypercube:3", CollectiveKind::AAS, 1, 7},
                        {"torus:3x3", CollectiveKind::OAS, std::nullopt, 4},
                        {"hypercube:3", CollectiveKind::OAB, 1, 3},
                        {"torus:3x3", CollectiveKind::AAB, std::nullopt, 3},
                        {"kautz:2,2", CollectiveKind::AAB, 1, 4},
                        {"fattree:8", CollectiveKind::AAS, std::nullopt, 7}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.spec + " " + std::string(to_string(c.kind)));
    const Problem p = make_problem(c.spec, c.kind, c.ports);
    const PathSet paths(p.topology, p.model);
    const PathCensus census(p.topology, p.model);
    const SatStats exact = estimate_sat_size(p, paths, c.steps);
    const ResourceEstimate e = estimate_sat(p, census, c.steps, std::nullopt, 1e300);
    EXPECT_GE(e.variables, static_cast<double>(exact.variables));
    EXPECT_GE(e.clauses, static_cast<double>(exact.clauses));
    EXPECT_LE(e.variables, 4.0 * static_cast<double>(exact.variables));
    EXPECT_LE(e.clauses, 4.0 * static_cast<double>(exact.clauses));
    EXPECT_GT(e.bytes, 0.0);
    // More steps, more of everything.
    EXPECT_GT(estimate_sat(p, census, c.steps + 2, std::nullopt, 1e300).bytes, e.bytes);
    // A radius or a path cap shrinks it.
    EXPECT_LE(estimate_sat(p, census, c.steps, 1, 1.0).bytes, e.bytes);
  }
}

TEST(SatEstimate, EngineRefusesOverTheLimit) {
  const Problem p = make_problem("hypercube:4", CollectiveKind::AAS);
  const PathSet paths(p.topology, p.model);
  EngineOptions options;
  options.max_memory = 64.0 * 1024;  // 64 KiB: far too small for 16·15 messages
  SatEngine engine(options);
  const EngineResult r = engine.solve(p, paths, 8, Budget(30));
  EXPECT_EQ(r.status, SolveStatus::unknown);
  EXPECT_NE(r.note.find("--max-memory"), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("greedy"), std::string::npos) << r.note;
  EXPECT_FALSE(engine.stats().clauses > 0);  // nothing was built

  // The driver falls back to the greedy schedule and says why it stopped.
  SolveRequest request;
  request.engine = "sat";
  request.options.max_memory = options.max_memory;
  request.time_limit = 30;
  const SolveOutcome out = solve_problem(p, request);
  ASSERT_TRUE(out.schedule.has_value());
  if (!out.optimal) {
    EXPECT_NE(out.reason.find("--max-memory"), std::string::npos) << out.reason;
  }
}

TEST(PopulationEstimate, GrowsWithPopulationAndRadius) {
  const Problem p = make_problem("torus:4x4", CollectiveKind::AAB);
  const PathCensus census(p.topology, p.model);
  const auto small = estimate_population(p, census, 4, 1, 1e300, 10);
  const auto big = estimate_population(p, census, 4, 1, 1e300, 1000);
  const auto wide = estimate_population(p, census, 4, std::nullopt, 1e300, 10);
  EXPECT_EQ(small.genes, 16.0 * 15.0);
  EXPECT_GT(big.bytes, small.bytes);
  EXPECT_GT(wide.bytes, small.bytes);
}

// The schedule's own memory: a delivery each, and on a closed-form network a scatter's
// path hops (torus:8x8 AAS: from each node the distances sum to 8·16 per dimension, the
// ring of 8 contributing 0+1+2+3+4+3+2+1 = 16 for each value of the other coordinate); a
// broadcast has single-hop transfers, so its estimate has no hops and is below the
// scatter's for the same deliveries.
TEST(ScheduleEstimate, CountsDeliveriesMessagesAndScatterPaths) {
  const Problem aas = make_problem("torus:8x8", CollectiveKind::AAS);
  const Problem aab = make_problem("torus:8x8", CollectiveKind::AAB);
  const auto scatter = estimate_schedule(aas);
  const auto broadcast = estimate_schedule(aab);
  EXPECT_EQ(scatter.pairs, 64.0 * 63.0);
  EXPECT_EQ(broadcast.pairs, 64.0 * 63.0);
  EXPECT_EQ(scatter.hops, 64.0 * 2.0 * 8.0 * 16.0);
  EXPECT_EQ(broadcast.hops, 0.0);
  EXPECT_GT(scatter.bytes, broadcast.bytes);
  // At that cost a delivery, torus:64x64 AAB's 16.8 million (3.0-4.0 GB measured, docs/
  // BENCHMARKS.md "The default memory limit") are estimated within 4 GiB; a scatter's are
  // not.
  const double gib4 = 4.0 * 1024 * 1024 * 1024, deliveries = 4096.0 * 4095.0;
  EXPECT_LT(broadcast.bytes / broadcast.pairs * deliveries, gib4);
  EXPECT_GT(scatter.bytes / scatter.pairs * deliveries, gib4);
  // The lazy strategy's estimate is the schedule's and no less.
  EXPECT_GE(estimate_lazy(aas).bytes, scatter.bytes);
}

TEST(MemoryRefusal, OneLineWithAdvice) {
  ResourceEstimate e;
  e.variables = 2e9;
  e.clauses = 7e9;
  e.bytes = 600.0 * 1024 * 1024 * 1024;
  const auto text = memory_refusal("the SAT encoding for 9 steps", e, 4.0 * 1024 * 1024 * 1024,
                                   "try --engine greedy");
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_NE(text.find("600.0 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("4.0 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("try --engine greedy"), std::string::npos) << text;
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
}

}  // namespace
}  // namespace ccsched
