// FamilyMetric (topology/family_metric.hpp) and PathSet on top of it: the closed-form hops
// and shortest-path counts equal a breadth-first search and a count down its DAG, written
// here apart from the library, on small networks of every family it covers; a faulty or
// rewired copy has no closed form, and PathSet's answers there still equal the search.
#include <gtest/gtest.h>

#include <algorithm>

#include "ccsched/routing/path_set.hpp"
#include "ccsched/topology/family_metric.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// Hops from every node to `to` and the number of shortest paths from every node to `to`.
void tabulate(const Topology& t, NodeId to, std::vector<int>& dist, std::vector<double>& ways) {
  dist.assign(t.node_count(), kUnreachable);
  ways.assign(t.node_count(), 0.0);
  std::vector<NodeId> order{to};
  dist[to] = 0;
  ways[to] = 1.0;
  for (std::size_t head = 0; head < order.size(); ++head)
    for (const ChannelId c : t.in_channels(order[head])) {
      const NodeId u = t.channel(c).from;
      if (dist[u] == kUnreachable) {
        dist[u] = dist[order[head]] + 1;
        order.push_back(u);
      }
    }
  for (const NodeId u : order)
    for (const ChannelId c : t.out_channels(u))
      if (u != to && dist[t.channel(c).to] == dist[u] - 1) ways[u] += ways[t.channel(c).to];
}

const char* const kSpecs[] = {
    "torus:3x4", "torus:4x4",   "torus:2x5",  "torus:2x2x3", "torus:4x6", "torus:5x1",
    "mesh:3x4",  "mesh:1x5",    "mesh:2x3x2", "ring:2",      "ring:5",    "ring:6",
    "uring:2",   "uring:5",     "hypercube:1", "hypercube:3", "hypercube:5",
    "fattree:2", "fattree:4",   "fattree:8",  "fattree:32"};

TEST(FamilyMetric, EqualsTheSearchOnEveryFamily) {
  for (const char* spec : kSpecs) {
    SCOPED_TRACE(spec);
    const Topology t = make_topology(spec);
    const auto metric = FamilyMetric::of(t);
    ASSERT_TRUE(metric.has_value());
    std::vector<int> dist;
    std::vector<double> ways;
    for (const NodeId to : t.processors()) {
      ASSERT_TRUE(metric->answers_for(to));
      tabulate(t, to, dist, ways);
      for (NodeId from = 0; from < t.node_count(); ++from) {
        ASSERT_EQ(metric->distance(from, to), dist[from]) << from << " -> " << to;
        ASSERT_EQ(metric->ways(from, to), ways[from]) << from << " -> " << to;
      }
    }
  }
}

TEST(FamilyMetric, PathSetAnswersAsTheListsDo) {
  for (const char* spec : {"torus:4x6", "mesh:3x4", "hypercube:4", "fattree:16"}) {
    SCOPED_TRACE(spec);
    const Topology t = make_topology(spec);
    const PathSet paths(t, default_model(t));
    ASSERT_TRUE(paths.closed_form());
    for (const NodeId a : t.processors())
      for (const NodeId b : t.processors()) {
        const auto& list = paths.paths(a, b);
        ASSERT_EQ(paths.path_count(a, b), static_cast<double>(list.size()));
        if (a != b) {
          ASSERT_EQ(paths.distance(a, b), static_cast<int>(list.front().channels.size()));
        }
      }
  }
}

TEST(FamilyMetric, NoClosedFormForFaultsRewiringOrOtherFamilies) {
  const Topology torus = make_topology("torus:4x4");
  const Topology faulty = torus.without_channels(std::vector<Channel>{{0, 1}, {1, 0}});
  EXPECT_FALSE(FamilyMetric::of(faulty).has_value());
  // A network named like a torus but wired otherwise (a ring of 16 under the torus's name).
  Topology renamed = make_topology("ring:16");
  renamed.set_name("torus:4x4");
  EXPECT_FALSE(FamilyMetric::of(renamed).has_value());
  Topology fat = make_topology("fattree:8");
  fat.set_name("fattree:16");
  EXPECT_FALSE(FamilyMetric::of(fat).has_value());
  EXPECT_FALSE(FamilyMetric::of(make_topology("kautz:2,3")).has_value());
  // PathSet falls back to the search, whose answers the faulty network's own BFS gives.
  const PathSet paths(faulty, default_model(faulty));
  EXPECT_FALSE(paths.closed_form());
  std::vector<int> dist;
  std::vector<double> ways;
  for (const NodeId to : faulty.processors()) {
    tabulate(faulty, to, dist, ways);
    for (const NodeId from : faulty.processors()) {
      ASSERT_EQ(paths.distance(from, to), dist[from]);
      if (from != to) {
        ASSERT_EQ(paths.path_count(from, to), ways[from]);
      }
    }
  }
}

}  // namespace
}  // namespace ccsched
