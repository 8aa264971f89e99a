// The island model's separate pieces: the ring migration topology, emigrant selection
// (the best leave) and immigrant replacement (they replace the worst, never for worse).
#include "ccsched/dist/migration.hpp"

#include <gtest/gtest.h>

#include <array>

#include "ccsched/dist/islands.hpp"
#include "ccsched/dist/ring.hpp"

namespace ccsched::dist {
namespace {

TEST(Ring, NextAndPreviousWrapAround) {
  const RingTopology ring(3);
  EXPECT_EQ(ring.next(0), 1);
  EXPECT_EQ(ring.next(2), 0);
  EXPECT_EQ(ring.previous(0), 2);
  EXPECT_EQ(ring.previous(1), 0);
  const RingTopology alone(1);
  EXPECT_EQ(alone.next(0), 0);
  EXPECT_EQ(alone.previous(0), 0);
}

TEST(Migration, TheBestEmigrateTiesByIndex) {
  const std::array<std::int64_t, 5> fitness{7, 3, 9, 3, 0};
  EXPECT_EQ(select_emigrants(fitness, 3), (std::vector<std::size_t>{4, 1, 3}));
  EXPECT_EQ(select_emigrants(fitness, 9).size(), 5u);
  EXPECT_TRUE(select_emigrants(fitness, 0).empty());
}

TEST(Migration, ImmigrantsReplaceTheWorstOnlyIfNotWorse) {
  const std::array<std::int64_t, 4> members{5, 12, 2, 8};
  const std::array<std::int64_t, 3> arrivals{10, 1, 20};
  // Best arrival (1, index 1) replaces the worst member (12, index 1); the next (10)
  // would replace 8 but is worse, so it stays out, and so does 20.
  const auto r = choose_replacements(members, arrivals);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (std::pair<std::size_t, std::size_t>{1, 1}));
}

TEST(Islands, ParametersHaveDefaultsAndRanges) {
  DistParams p;
  EXPECT_EQ(p.interval, 10);
  apply_params(p, dist_param_table(), {{"migrants", 3}}, "islands");
  EXPECT_EQ(p.migrants, 3);
  EXPECT_THROW(apply_params(p, dist_param_table(), {{"migration-interval", 0}}, "islands"),
               InvalidParameter);
}

}  // namespace
}  // namespace ccsched::dist
