// The automorphism search against the known group orders of the seeds' symmetric networks
// (Petersen 120, Heawood 336, Levi / Tutte-Coxeter 1440, the 3-cube 48, the 8-cycle 16),
// and every map it lists checked independently: a bijection that maps channels onto
// channels and keeps node kinds.
#include <gtest/gtest.h>

#include <set>

#include "ccsched/topology/automorphisms.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

void expect_automorphism(const Topology& t, const std::vector<NodeId>& sigma) {
  ASSERT_EQ(static_cast<int>(sigma.size()), t.node_count());
  EXPECT_EQ(std::set<NodeId>(sigma.begin(), sigma.end()).size(), sigma.size());
  for (NodeId v = 0; v < t.node_count(); ++v) EXPECT_EQ(t.kind(v), t.kind(sigma[v]));
  for (const auto& c : t.channels())
    EXPECT_TRUE(t.has_channel(sigma[c.from], sigma[c.to])) << c.from << "->" << c.to;
}

struct GroupCase {
  const char* spec;
  std::size_t order;
};

class KnownGroups : public ::testing::TestWithParam<GroupCase> {};

TEST_P(KnownGroups, AllAutomorphismsAndNothingElse) {
  const Topology t = make_topology(GetParam().spec);
  const auto group = find_automorphisms(t);
  EXPECT_TRUE(group.complete);
  ASSERT_EQ(group.maps.size(), GetParam().order);
  std::set<std::vector<NodeId>> distinct(group.maps.begin(), group.maps.end());
  EXPECT_EQ(distinct.size(), group.maps.size());
  for (NodeId v = 0; v < t.node_count(); ++v) EXPECT_EQ(group.maps[0][v], v);  // identity
  for (const auto& sigma : group.maps) expect_automorphism(t, sigma);
}

INSTANTIATE_TEST_SUITE_P(Seeds, KnownGroups,
                         ::testing::Values(GroupCase{"petersen", 120}, GroupCase{"heawood", 336},
                                           GroupCase{"levi", 1440},
                                           GroupCase{"hypercube:3", 48},
                                           GroupCase{"ring:8", 16}, GroupCase{"uring:8", 8}));

TEST(Automorphisms, TheLimitCutsTheListAndSaysSo) {
  const auto group = find_automorphisms(make_topology("levi"), {.limit = 100});
  EXPECT_EQ(group.maps.size(), 100u);
  EXPECT_FALSE(group.complete);
}

TEST(Automorphisms, AFaultBreaksTheSymmetry) {
  Topology t = make_topology("ring:6");
  const Channel cut{0, 1};
  const Topology damaged = t.without_channels(std::span<const Channel>(&cut, 1));
  // Only the reflection that swaps 0 and 1 (and maps the channel 0->1 onto 1->0 — which
  // exists) fails too: what is left are maps that keep the single missing channel.
  const auto group = find_automorphisms(damaged);
  for (const auto& sigma : group.maps) expect_automorphism(damaged, sigma);
  EXPECT_LT(group.maps.size(), find_automorphisms(t).maps.size());
}

TEST(Automorphisms, OrderOfAPermutation) {
  EXPECT_EQ(permutation_order({0, 1, 2}), 1);
  EXPECT_EQ(permutation_order({1, 2, 0, 4, 3}), 6);
}

}  // namespace
}  // namespace ccsched
