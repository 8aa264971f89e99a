// The verifier's seal (schedule/verified.hpp): only a valid schedule is sealed, the seal
// records what the verifier saw, and releasing the schedule leaves nothing sealed behind.
#include "ccsched/schedule/verified.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#include "support.hpp"

namespace ccsched {
namespace {

using test::ring4_aas;
using test::ring4_oab;

// Nothing outside verified() can make a sealed schedule from a Schedule.
static_assert(!std::is_constructible_v<VerifiedSchedule, Schedule>);
static_assert(!std::is_convertible_v<Schedule, VerifiedSchedule>);
// What the verifier judged is read-only through the seal.
static_assert(std::is_same_v<decltype(*std::declval<VerifiedSchedule&>()), const Schedule&>);

TEST(Verified, SealsAValidSchedule) {
  const Schedule s = ring4_aas();
  std::vector<Violation> violations;
  const VerifiedSchedule v = verified(s, &violations);
  ASSERT_TRUE(v);
  EXPECT_TRUE(violations.empty());
  EXPECT_EQ(v->steps, s.steps);
  EXPECT_EQ(v->transfers.size(), s.transfers.size());
  EXPECT_EQ(v.report().steps, s.steps);
  EXPECT_EQ(v.report().transfers, s.transfers.size());
  EXPECT_GE(v.report().seconds, 0.0);
}

TEST(Verified, RefusesABrokenScheduleAndSaysWhy) {
  Schedule s = ring4_oab();
  s.transfers.pop_back();  // someone is never informed
  std::vector<Violation> violations;
  EXPECT_FALSE(verified(s, &violations));
  EXPECT_FALSE(violations.empty());
  EXPECT_EQ(test::rules_of(violations), test::rules_of(verify_schedule(s)));
}

TEST(Verified, StopsWhenAskedAndSealsNothing) {
  EXPECT_FALSE(verified(ring4_aas(), [] { return true; }));
  EXPECT_TRUE(verified(ring4_aas(), [] { return false; }));
}

TEST(Verified, ReleaseUnsealsAndTheClaimsStayWritable) {
  VerifiedSchedule v = verified(ring4_oab());
  ASSERT_TRUE(v);
  v.set_claims(v->steps, true, std::nullopt, std::nullopt);
  v.solver() = SolverInfo{"test", 7, 0.0};
  EXPECT_TRUE(v->optimal);
  EXPECT_EQ(v->lower_bound, v->steps);
  EXPECT_TRUE(verify_claims(*v).empty());
  Schedule s = std::move(v).release();
  EXPECT_FALSE(v);
  EXPECT_EQ(s.solver->engine, "test");
  // Changed after the release, it must be checked again to be sealed.
  s.transfers.pop_back();
  EXPECT_FALSE(verified(std::move(s)));
}

}  // namespace
}  // namespace ccsched
