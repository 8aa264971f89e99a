// PathSet (docs/RELIABILITY.md, large networks): first_free_path() finds exactly the path a
// first-fit scan of paths() would take (same order, same per-pair limit or its own search
// cap, same refusal), path_count() equals the list's length, list() equals paths(), and
// enumeration stops at the deadline or on the stop flag with the paths found so far.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <optional>
#include <random>

#include "../support/slowdown.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using Clock = std::chrono::steady_clock;
using ccsched::testing::kSlow;

// The first path of the list whose channels are all free, as the old greedy scan took it.
std::optional<Path> scan(const std::vector<Path>& list, const std::vector<char>& used) {
  for (const Path& p : list) {
    bool free = true;
    for (const ChannelId c : p.channels) free = free && !used[c];
    if (free) return p;
  }
  return std::nullopt;
}

// `listed_limits`: the list scanned, when the lazy search's differ (its own search cap).
void expect_same_as_scan(const std::string& spec, PathLimits limits, double density,
                         std::optional<PathLimits> listed_limits = std::nullopt) {
  SCOPED_TRACE(spec + " density " + std::to_string(density));
  const Topology t = make_topology(spec);
  const Model m = default_model(t);
  const PathSet lazy(t, m, limits), listed(t, m, listed_limits.value_or(limits));
  ASSERT_TRUE(lazy.searches_lazily());
  std::mt19937_64 rng(42);
  std::bernoulli_distribution taken(density);
  int found = 0, none = 0;
  for (const NodeId u : t.processors())
    for (const NodeId v : t.processors()) {
      if (u == v) continue;
      const auto& list = listed.paths(u, v);
      if (!limits.truncate) {
        ASSERT_EQ(lazy.path_count(u, v), static_cast<double>(list.size()));
      }
      for (int round = 0; round < 3; ++round) {
        std::vector<char> used(t.channel_count());
        for (auto& c : used) c = taken(rng) ? 1 : 0;
        const auto expected = scan(list, used);
        const auto got = lazy.first_free_path(u, v, used);
        ASSERT_EQ(got.has_value(), expected.has_value()) << u << "->" << v;
        if (got) {
          ASSERT_EQ(got->nodes, expected->nodes) << u << "->" << v;
          ASSERT_EQ(got->channels, expected->channels) << u << "->" << v;
          ++found;
        } else {
          ++none;
        }
      }
    }
  // Both outcomes occur, so the comparison means something.
  EXPECT_GT(found, 0);
  EXPECT_GT(none, 0);
}

TEST(FirstFreePath, MatchesTheFirstFitScanOfTheList) {
  for (const std::string spec : {"hypercube:4", "torus:5x4", "mesh:3x4", "kautz:2,3",
                                 "fattree:8", "fat:ring:4,2"})
    for (const double density : {0.15, 0.4})
      expect_same_as_scan(spec, PathLimits{}, density);
}

TEST(FirstFreePath, KeepsTheTruncatedListsLimit) {
  // Pairs of hypercube:5 have up to 120 shortest paths; the list keeps 7. A free path
  // beyond the 7th is not taken (the list-based engines would not know it).
  PathLimits limits;
  limits.max_paths_per_pair = 7;
  limits.truncate = true;
  expect_same_as_scan("hypercube:5", limits, 0.3);
}

TEST(FirstFreePath, SearchCapOverridesTheListsCap) {
  // The lists cut to 7 paths a pair by the memory limit, the search kept at 60
  // (PathLimits::searched_paths_per_pair, as plan_resources sets it): the search takes
  // the first free path of a list of 60, beyond the 7th where that is the first free one.
  PathLimits limits;
  limits.max_paths_per_pair = 7;
  limits.truncate = true;
  limits.searched_paths_per_pair = 60;
  PathLimits listed = limits;
  listed.max_paths_per_pair = 60;
  listed.searched_paths_per_pair = 0;
  expect_same_as_scan("hypercube:5", limits, 0.3, listed);
  expect_same_as_scan("hypercube:5", limits, 0.6, listed);
}

TEST(FirstFreePath, UncappedSearchSkipsNoPath) {
  // No cap on the list (the classical algorithms' routes): the search counts no subtrees
  // and still takes the first free path of the full list.
  PathLimits limits;
  limits.max_paths_per_pair = std::numeric_limits<std::size_t>::max();
  limits.truncate = true;
  for (const std::string spec : {"torus:5x4", "hypercube:4", "fattree:8"})
    expect_same_as_scan(spec, limits, 0.3);
}

TEST(FirstFreePath, RefusesLikeTheListWhenOverTheLimit) {
  const Topology t = make_topology("hypercube:5");
  PathLimits limits;
  limits.max_paths_per_pair = 10;  // the antipodal pair has 5! = 120
  const PathSet paths(t, default_model(t), limits);
  const std::vector<char> used(t.channel_count(), 0);
  EXPECT_THROW(paths.paths(0, 31), Unsupported);
  EXPECT_THROW(paths.first_free_path(0, 31, used), Unsupported);
  EXPECT_TRUE(paths.first_free_path(0, 1, used).has_value());
}

TEST(PathSet, ListEqualsTheCachedPaths) {
  const Topology t = make_topology("torus:4x4");
  Model m = default_model(t);
  m.routing = Routing::nonminimal;
  m.extra_hops = 2;
  const PathSet paths(t, m);
  for (const NodeId v : {1, 5, 10}) {
    const auto fresh = paths.list(0, v);
    const auto& cached = paths.paths(0, v);
    ASSERT_EQ(fresh.size(), cached.size());
    for (std::size_t i = 0; i < fresh.size(); ++i) EXPECT_EQ(fresh[i].nodes, cached[i].nodes);
  }
  EXPECT_FALSE(paths.searches_lazily());
}

// hypercube:10's antipodal pair has 10! = 3 628 800 shortest paths: listing a million of
// them takes seconds and hundreds of megabytes. Past the deadline (or with the stop flag
// set) the list ends early, still with a path, and the PathSet says so.
TEST(PathSet, EnumerationStopsAtTheDeadline) {
  const Topology t = make_topology("hypercube:10");
  PathLimits limits;
  limits.max_paths_per_pair = 1'000'000;
  limits.truncate = true;
  limits.deadline = Clock::now() + std::chrono::milliseconds(100);
  const PathSet paths(t, default_model(t), limits);
  const auto start = Clock::now();
  const auto& list = paths.paths(0, 1023);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_GE(list.size(), 1u);
  EXPECT_LT(list.size(), 1'000'000u);
  EXPECT_LT(seconds, 1.0 * kSlow);
  EXPECT_TRUE(paths.deadline_reached());
  EXPECT_TRUE(paths.truncated());
  // A short list is not affected by a deadline that has not passed.
  PathLimits later = limits;
  later.deadline = Clock::now() + std::chrono::hours(1);
  const PathSet fresh(t, default_model(t), later);
  EXPECT_EQ(fresh.paths(0, 7).size(), 6u);  // distance 3: 3! paths
  EXPECT_FALSE(fresh.deadline_reached());
}

TEST(PathSet, EnumerationStopsOnTheStopFlag) {
  const Topology t = make_topology("hypercube:10");
  std::atomic<bool> stop{true};
  PathLimits limits;
  limits.max_paths_per_pair = 1'000'000;
  limits.truncate = true;
  limits.stop = &stop;
  const PathSet paths(t, default_model(t), limits);
  const auto list = paths.list(0, 1023);
  EXPECT_GE(list.size(), 1u);
  EXPECT_LT(list.size(), 10'000u);
  EXPECT_TRUE(paths.deadline_reached());
}

}  // namespace
}  // namespace ccsched
