// HGSA engine tests: the seeds' known optima on small networks for the four
// collectives, every schedule verifies, a seed and worker count fix the schedule (the
// thread count does not change it), bad parameters throw, the budget is honoured.
#include "ccsched/engines/hgsa.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "ccsched/engines/driver.hpp"
#include "evolution_support.hpp"

namespace ccsched {
namespace {

using testing_support::fingerprint;
using testing_support::Known;
using testing_support::make_problem;
using testing_support::violations_text;

EngineResult run_hgsa(const Problem& p, int steps, std::uint64_t seed, ParamValues params = {},
                      double seconds = 30) {
  return testing_support::run_engine<HgsaEngine>(p, steps, seed, std::move(params), seconds);
}

class HgsaKnownOptimum : public ::testing::TestWithParam<Known> {};

TEST_P(HgsaKnownOptimum, ReachesItWithAValidSchedule) {
  const Known& k = GetParam();
  const Problem p = make_problem(k.spec, k.kind, k.ports);
  const EngineResult r = run_hgsa(p, k.optimum, 1);
  ASSERT_EQ(r.status, SolveStatus::feasible) << r.note;
  EXPECT_EQ(violations_text(*r.schedule), "");
  EXPECT_EQ(r.schedule->steps, k.optimum);
  EXPECT_EQ(r.schedule->solver->engine, "hgsa");
}

INSTANTIATE_TEST_SUITE_P(Seeds, HgsaKnownOptimum,
                         ::testing::ValuesIn(testing_support::known_optima()),
                         testing_support::known_name);

TEST(Hgsa, SameSeedSameSchedule) {
  for (const auto& [spec, kind, steps] : {std::tuple{"kautz:3,2", CollectiveKind::AAS, 7},
                                          std::tuple{"petersen", CollectiveKind::AAB, 3}}) {
    const Problem p = make_problem(spec, kind);
    const EngineResult a = run_hgsa(p, steps, 5, {{"threads", 2}});
    const EngineResult b = run_hgsa(p, steps, 5, {{"threads", 2}});
    ASSERT_TRUE(a.schedule && b.schedule) << spec;
    EXPECT_EQ(fingerprint(*a.schedule), fingerprint(*b.schedule)) << spec;
    // Synchronous epochs: three workers give the same schedule on one thread or three.
    const EngineResult c = run_hgsa(p, steps, 5, {{"workers", 3}, {"threads", 1}});
    const EngineResult d = run_hgsa(p, steps, 5, {{"workers", 3}, {"threads", 3}});
    ASSERT_TRUE(c.schedule && d.schedule) << spec;
    EXPECT_EQ(fingerprint(*c.schedule), fingerprint(*d.schedule)) << spec;
  }
}

TEST(Hgsa, DefaultsAndBadParameters) {
  const HgsaParams p;
  EXPECT_EQ(p.epoch, 100);  // seed 002 §5: "after 100 or so iterations"
  EngineOptions options;
  options.params = {{"epoch", 0}};
  EXPECT_THROW(HgsaEngine{options}, InvalidParameter);
  options.params = {{"population", 60}};  // a UMDA parameter
  EXPECT_THROW(HgsaEngine{options}, InvalidParameter);
  options.params = {{"cooling", 2}};
  EXPECT_THROW(HgsaEngine{options}, InvalidParameter);
}

TEST(Hgsa, GivesUpAndHonoursTheTimeLimit) {
  const Problem p = make_problem("petersen", CollectiveKind::AAS);
  const EngineResult r = run_hgsa(p, 4, 3, {{"generations", 20}});
  EXPECT_EQ(r.status, SolveStatus::unknown);
  EXPECT_FALSE(r.budget_exhausted);
  const auto start = std::chrono::steady_clock::now();
  const EngineResult t = run_hgsa(p, 4, 3, {{"stall", 0}}, 0.3);
  EXPECT_TRUE(t.budget_exhausted);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(Hgsa, DriverFindsTheOptimum) {
  const Problem p = make_problem("kautz:3,2", CollectiveKind::OAS);
  SolveRequest request;
  request.engine = "hgsa";
  const SolveOutcome out = solve_problem(p, request);
  ASSERT_TRUE(out.schedule);
  EXPECT_EQ(violations_text(*out.schedule), "");
  EXPECT_TRUE(out.optimal) << out.reason;
}

}  // namespace
}  // namespace ccsched
