// Invariants: Σ and B_C of the seed networks against seed 000 Table 8, B_C of the branch
// and bound against exhaustive enumeration on small networks, witnesses, and the
// heuristic fallback above the exact limit.
#include "ccsched/topology/invariants.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// Channels crossing the cut given by `side` (1 = on the side), both directions.
int crossing(const Topology& t, const std::vector<char>& side) {
  int cut = 0;
  for (const auto& c : t.channels()) cut += side[c.from] != side[c.to];
  return cut;
}

// Exhaustive B_C: every subset of nodes (processors and switches) with a balanced
// processor split. Only for tiny networks.
int brute_force_bisection(const Topology& t) {
  const int n = t.node_count(), p = t.processor_count();
  int best = 1 << 30;
  std::vector<char> side(n);
  for (std::uint32_t mask = 0; mask < (1u << (n - 1)); ++mask) {  // node n-1 on side 0
    int ones = 0;
    for (int v = 0; v < n; ++v) {
      side[v] = static_cast<char>((mask >> v) & 1);
      if (side[v] && t.is_processor(v)) ++ones;
    }
    if (ones != p / 2 && ones != p - p / 2) continue;
    best = std::min(best, crossing(t, side));
  }
  return best;
}

void expect_valid_witness(const Topology& t, const Invariants& inv) {
  // The reported side of processors is balanced; some placement of the switches then
  // achieves the width: check it for direct networks, where there are none to place.
  const int p = t.processor_count();
  const auto k = static_cast<int>(inv.bisection_side.size());
  EXPECT_TRUE(k == p / 2 || k == p - p / 2) << k;
  if (t.switch_count() == 0) {
    std::vector<char> side(t.node_count(), 0);
    for (const auto v : inv.bisection_side) side[v] = 1;
    EXPECT_EQ(crossing(t, side), inv.bisection_width);
  }
}

TEST(Invariants, BisectionMatchesExhaustiveSearchOnSmallNetworks) {
  for (const char* spec :
       {"ring:8",     "uring:8",  "octagon",      "petersen",      "kautz:3,2",  "heawood",
        "utility",    "omega:8",  "butterfly:8",  "btree:8",       "fattree:8",  "fbtree:7",
        "fbtree:15",  "mesh:3x4", "torus:3x4",    "debruijn:2,4",  "kautz:2,3",  "complete:7",
        "clos:2,2,3", "ring:11",  "fat:ring:5,2", "fat:uring:4,3", "hypercube:4"}) {
    SCOPED_TRACE(spec);
    const auto t = make_topology(spec);
    ASSERT_LE(t.node_count(), 24);
    const auto inv = compute_invariants(t);
    EXPECT_TRUE(inv.bisection_exact);
    EXPECT_EQ(inv.bisection_width, brute_force_bisection(t));
    expect_valid_witness(t, inv);
  }
}

TEST(Invariants, BisectionMatchesExhaustiveSearchOnRandomNetworks) {
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    const int n = 6 + static_cast<int>(rng() % 12);
    Topology t("random");
    for (int v = 0; v < n; ++v)
      t.add_node(rng() % 4 == 0 && v > 1 ? NodeKind::switch_node : NodeKind::processor);
    for (int v = 1; v < n; ++v) t.add_link(v, static_cast<NodeId>(rng() % v));  // a tree
    for (int extra = 0; extra < n; ++extra) {
      const auto a = static_cast<NodeId>(rng() % n), b = static_cast<NodeId>(rng() % n);
      if (a != b && !t.has_channel(a, b)) t.add_channel(a, b);  // some one-way channels
    }
    SCOPED_TRACE(round);
    const auto inv = compute_invariants(t);
    EXPECT_TRUE(inv.bisection_exact);
    EXPECT_EQ(inv.bisection_width, brute_force_bisection(t));
    expect_valid_witness(t, inv);
  }
}

TEST(Invariants, ExactBisectionOfTheLargerSeedNetworks) {
  // Too big for enumeration; the branch and bound proves them. Hypercube Q_n has
  // bisection width 2^(n-1) links (a classical result): 16 links = 32 channels.
  const auto q5 = compute_invariants(make_topology("hypercube:5"));
  EXPECT_TRUE(q5.bisection_exact);
  EXPECT_EQ(q5.bisection_width, 32);
  expect_valid_witness(make_topology("hypercube:5"), q5);
  // Levi and Kautz(3,3): values found by this branch and bound (docs/TOPOLOGIES.md); the
  // witnesses are checked, and both are below the paper's particular bisections.
  for (const auto& [spec, width] : {std::pair{"levi", 18}, {"kautz:3,3", 28}}) {
    SCOPED_TRACE(spec);
    const auto t = make_topology(spec);
    const auto inv = compute_invariants(t);
    EXPECT_TRUE(inv.bisection_exact);
    EXPECT_EQ(inv.bisection_width, width);
    expect_valid_witness(t, inv);
  }
}

TEST(Invariants, AboveTheLimitTheBestFoundIsLabelled) {
  const auto t = make_topology("hoffman-singleton");
  InvariantOptions o;
  o.exact_bisection_limit = 36;
  const auto inv = compute_invariants(t, o);
  EXPECT_FALSE(inv.bisection_exact);
  EXPECT_EQ(inv.bisection_search_nodes, 0);
  expect_valid_witness(t, inv);
  // A tiny budget also stops the proof, but the cut is still a real one.
  InvariantOptions tiny;
  tiny.exact_bisection_node_budget = 10;
  const auto k = make_topology("kautz:3,3");
  const auto partial = compute_invariants(k, tiny);
  EXPECT_FALSE(partial.bisection_exact);
  EXPECT_GE(partial.bisection_width, 28);
  expect_valid_witness(k, partial);
}

TEST(Invariants, SeedTable8SigmaAndBisection) {
  std::ifstream in(CCSCHED_TEST_DATA_DIR "/seed_tables.json");
  ASSERT_TRUE(in) << "seed_tables.json not found";
  const auto doc = nlohmann::json::parse(in);
  // Σ: the paper's value except where exact computation disagrees (docs/TOPOLOGIES.md):
  //   levi: the paper prints 2520; every cubic graph of girth 8 on 30 nodes has, from each
  //   node, 3, 6, 12 and 8 nodes at distances 1..4 (the ball of radius 3 is a tree), so
  //   Σ = 30 (3 + 12 + 36 + 32) = 2490.
  const std::map<std::string, long long> sigma_fix = {{"levi", 2490}};
  // B_C: ours is the minimum, so never above the paper's (which takes one particular
  // bisection) — except the 1-port ring:8 row, whose Bc = 2 is that of the
  // unidirectional ring uring:8 while its Σ = 128 is the bidirectional ring's.
  const std::map<std::string, int> exact_bc = {
      {"ring:8", 4},  {"octagon", 8}, {"petersen", 10},    {"kautz:3,2", 12}, {"heawood", 14},
      {"ngon:16", 8}, {"levi", 18},   {"hypercube:5", 32}, {"kautz:3,3", 28}};
  const auto& rows = doc.at("ddn_table8_aas_bounds").at("rows");
  ASSERT_EQ(rows.size(), 10u);
  for (const auto& row : rows) {
    const auto spec = row.at("spec").get<std::string>();
    SCOPED_TRACE(spec + " ports " + row.at("ports").dump());
    const auto t = make_topology(spec);
    const auto inv = compute_invariants(t);
    const auto paper_sigma = row.at("sigma").get<long long>();
    EXPECT_EQ(inv.sigma, sigma_fix.contains(spec) ? sigma_fix.at(spec) : paper_sigma);
    EXPECT_TRUE(inv.bisection_exact);
    EXPECT_EQ(inv.bisection_width, exact_bc.at(spec));
    const int paper_bc = row.at("Bc").get<int>();
    if (spec == "ring:8" && row.at("ports") == 1) {
      EXPECT_EQ(paper_bc, 2);
      const auto u = compute_invariants(make_topology("uring:8"));
      EXPECT_EQ(u.bisection_width, paper_bc);  // the unidirectional ring's B_C...
      EXPECT_NE(u.sigma, paper_sigma);         // ...but not its Σ (224)
    } else {
      EXPECT_LE(inv.bisection_width, paper_bc);
    }
  }
}

TEST(Invariants, DistancesDiameterAndConnectivity) {
  const auto t = make_topology("uring:5");
  const auto d = distances_from(t, 0);
  EXPECT_EQ(d, (std::vector<int>{0, 1, 2, 3, 4}));
  const auto inv = compute_invariants(t);
  EXPECT_EQ(inv.diameter, 4);
  EXPECT_EQ(inv.sigma, 5 * (1 + 2 + 3 + 4));
  EXPECT_TRUE(inv.directed);
  // Not strongly connected: reported, diameter and Σ undefined (-1).
  Topology broken("broken");
  for (int i = 0; i < 3; ++i) broken.add_node(NodeKind::processor);
  broken.add_link(0, 1);
  broken.add_channel(2, 0);
  const auto b = compute_invariants(broken);
  EXPECT_FALSE(b.strongly_connected);
  EXPECT_EQ(b.diameter, -1);
  EXPECT_EQ(distances_from(broken, 0)[2], kUnreachable);
}

// The closed forms of the generated families (family_metric.hpp) against the BFS from
// every processor on the same network under a name that has none.
TEST(Invariants, ClosedFormDistancesMatchTheSearch) {
  InvariantOptions o;
  o.compute_bisection = false;
  for (const char* spec : {"torus:3x5", "torus:4x6", "torus:2x3x4", "mesh:4x7", "mesh:3x3x5",
                           "ring:7", "ring:8", "uring:6", "hypercube:4", "hypercube:1",
                           "fattree:16", "fattree:2", "mesh:1x6"}) {
    const auto t = make_topology(spec);
    const auto closed = compute_invariants(t, o);
    EXPECT_EQ(closed.distances, Invariants::Distances::closed_form) << spec;
    auto renamed = t;
    renamed.set_name("a file");
    const auto searched = compute_invariants(renamed, o);
    EXPECT_EQ(searched.distances, Invariants::Distances::searched) << spec;
    EXPECT_EQ(closed.diameter, searched.diameter) << spec;
    EXPECT_EQ(closed.sigma, searched.sigma) << spec;
    EXPECT_EQ(closed.girth, searched.girth) << spec;
  }
}

// At 65,536 processors the generated networks answer at once, and a network without a
// closed form says that its distances were not computed instead of running for minutes.
TEST(Invariants, LargeNetworksAnswerWithoutAllPairs) {
  InvariantOptions o;
  o.compute_bisection = false;
  const auto cube = make_topology("hypercube:16");
  const auto closed = compute_invariants(cube, o);
  EXPECT_EQ(closed.diameter, 16);
  EXPECT_EQ(closed.sigma, 16LL * 65536 * 65536 / 2);
  EXPECT_EQ(closed.girth, 4);
  auto renamed = cube;
  renamed.set_name("a file");
  const auto skipped = compute_invariants(renamed, o);
  EXPECT_EQ(skipped.distances, Invariants::Distances::not_computed);
  EXPECT_EQ(skipped.diameter, -1);
  EXPECT_TRUE(skipped.strongly_connected);
  EXPECT_EQ(skipped.girth, 4);
  // A tree: girth 0 from the edge count, no search per node.
  EXPECT_EQ(compute_invariants(make_topology("btree:65536"), o).girth, 0);
}

}  // namespace
}  // namespace ccsched
