// Generators: sizes and classic invariants of every named network, the structure of the
// multistage networks (unique Omega/Butterfly paths, m Clos paths), and spec errors.
#include "ccsched/topology/generators.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/invariants.hpp"

namespace ccsched {
namespace {

// "name:a,b" without `"literal" + std::string` (GCC 12 warns falsely on it).
template <typename... Ints>
std::string spec_of(const char* name, Ints... values) {
  std::ostringstream out;
  out << name;
  char sep = ':';
  ((out << sep << values, sep = ','), ...);
  return out.str();
}

InvariantOptions no_bisection() {
  InvariantOptions o;
  o.compute_bisection = false;
  return o;
}

struct Expect {
  const char* spec;
  int processors, switches, channels, diameter, girth, min_degree, max_degree;
};

TEST(Generators, ClassicGraphs) {
  // Sizes, diameters and girths of the graphs of seed 000, section 2 (links = channels/2).
  const Expect cases[] = {
      {"petersen", 10, 0, 30, 2, 5, 3, 3},
      {"heawood", 14, 0, 42, 3, 6, 3, 3},
      {"levi", 30, 0, 90, 4, 8, 3, 3},
      {"hoffman-singleton", 50, 0, 350, 2, 5, 7, 7},
      {"utility", 6, 0, 18, 2, 4, 3, 3},
      // Kautz digraphs: out-degree d, (d+1)d^(D-1) nodes, diameter D. Their underlying
      // graph has 2-cycles (01 <-> 10) that merge into one edge, and triangles.
      {"kautz:3,2", 12, 0, 36, 2, 3, 3, 3},
      {"kautz:3,3", 36, 0, 108, 3, 3, 3, 3},
      {"octagon", 8, 0, 24, 2, 4, 3, 3},
      {"ngon:16", 16, 0, 48, 4, 4, 3, 3},
      {"ring:8", 8, 0, 16, 4, 8, 2, 2},
      {"uring:8", 8, 0, 8, 7, 8, 1, 1},
      {"hypercube:5", 32, 0, 160, 5, 4, 5, 5},
      {"complete:6", 6, 0, 30, 1, 3, 5, 5},
      {"mesh:3x4", 12, 0, 34, 5, 4, 2, 4},
      {"mesh:2x3x4", 24, 0, 92, 6, 4, 3, 5},
      {"torus:4x4", 16, 0, 64, 4, 4, 4, 4},
      {"torus:3x3x3", 27, 0, 162, 3, 3, 6, 6},
      {"debruijn:2,3", 8, 0, 14, 3, 3, 1, 2},
      {"fbtree:7", 7, 0, 12, 4, 0, 1, 3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.spec);
    const auto t = make_topology(c.spec);
    const auto inv = compute_invariants(t, no_bisection());
    EXPECT_EQ(t.name(), c.spec);
    EXPECT_EQ(inv.processors, c.processors);
    EXPECT_EQ(inv.switches, c.switches);
    EXPECT_EQ(inv.channels, c.channels);
    EXPECT_EQ(inv.diameter, c.diameter);
    EXPECT_EQ(inv.girth, c.girth);
    EXPECT_EQ(inv.min_out_degree, c.min_degree);
    EXPECT_EQ(inv.max_out_degree, c.max_degree);
    EXPECT_TRUE(inv.strongly_connected);
  }
}

TEST(Generators, SigmaOfSeedExamples) {
  // Σ over ordered pairs: hypercube Q_n has n 2^(n-1) ... = 2^n * n 2^(n-1) / ... computed
  // directly here from the distance distribution: a node of Q_5 has C(5,k) nodes at
  // distance k, so Σ = 32 * sum k C(5,k) = 32 * 80 = 2560.
  EXPECT_EQ(compute_invariants(make_topology("hypercube:5"), no_bisection()).sigma, 2560);
  // Octagon: from each node 3 at distance 1 and 4 at distance 2: 8 * 11 = 88.
  EXPECT_EQ(compute_invariants(make_topology("octagon"), no_bisection()).sigma, 88);
}

TEST(Generators, KautzLabelsAndChannels) {
  const auto t = make_topology("kautz:3,2");
  // Words of length 2 over {0..3} with different consecutive letters, lexicographic.
  const std::vector<std::string> words = {"01", "02", "03", "10", "12", "13",
                                          "20", "21", "23", "30", "31", "32"};
  ASSERT_EQ(t.node_count(), 12);
  for (NodeId v = 0; v < 12; ++v) EXPECT_EQ(t.label(v), words[static_cast<std::size_t>(v)]);
  // a1 a2 -> a2 x for every x != a2.
  for (NodeId u = 0; u < 12; ++u)
    for (NodeId v = 0; v < 12; ++v) {
      const auto& a = words[static_cast<std::size_t>(u)];
      const auto& b = words[static_cast<std::size_t>(v)];
      EXPECT_EQ(t.has_channel(u, v), a[1] == b[0]) << a << " -> " << b;
    }
}

// Number of processor-to-processor paths from `from` to `to` that pass only through
// switches (the networks tested are acyclic between processors), by length.
std::vector<long long> switch_paths(const Topology& t, NodeId from, NodeId to) {
  std::vector<long long> by_length(static_cast<std::size_t>(t.node_count()) + 2, 0);
  std::function<void(NodeId, int)> walk = [&](NodeId u, int length) {
    for (const auto c : t.out_channels(u)) {
      const NodeId v = t.channel(c).to;
      if (v == to)
        ++by_length[static_cast<std::size_t>(length + 1)];
      else if (!t.is_processor(v))
        walk(v, length + 1);
    }
  };
  walk(from, 0);
  return by_length;
}

TEST(Generators, OmegaAndButterflyHaveUniquePaths) {
  for (const char* family : {"omega", "butterfly"})
    for (const int n : {2, 4, 8, 16, 32}) {
      const auto spec = spec_of(family, n);
      SCOPED_TRACE(spec);
      const auto t = make_topology(spec);
      int stages = 0;
      while ((1 << stages) < n) ++stages;
      EXPECT_EQ(t.processor_count(), n);
      EXPECT_EQ(t.switch_count(), n / 2 * stages);
      EXPECT_EQ(t.channel_count(), n * (stages + 1));
      for (NodeId p = 0; p < n; ++p) {
        EXPECT_EQ(t.out_channels(p).size(), 1u);
        EXPECT_EQ(t.in_channels(p).size(), 1u);
      }
      for (NodeId a = 0; a < n; ++a)
        for (NodeId b = 0; b < n; ++b) {
          const auto paths = switch_paths(t, a, b);
          long long total = 0;
          for (const auto x : paths) total += x;
          ASSERT_EQ(total, 1) << a << " -> " << b;
          ASSERT_EQ(paths[static_cast<std::size_t>(stages + 1)], 1) << a << " -> " << b;
        }
    }
}

TEST(Generators, ClosHasMPathsBetweenTerminals) {
  for (const auto& [n, m, r] : {std::tuple{3, 3, 4}, {2, 4, 3}, {4, 5, 2}}) {
    const auto spec = spec_of("clos", n, m, r);
    SCOPED_TRACE(spec);
    const auto t = make_topology(spec);
    EXPECT_EQ(t.processor_count(), n * r);
    EXPECT_EQ(t.switch_count(), 2 * r + m);
    EXPECT_EQ(t.channel_count(), 2 * n * r + 2 * r * m);
    for (NodeId a = 0; a < n * r; ++a)
      for (NodeId b = 0; b < n * r; ++b) {
        const auto paths = switch_paths(t, a, b);
        ASSERT_EQ(paths[4], m);  // terminal -> input -> middle -> output -> terminal
        long long total = 0;
        for (const auto x : paths) total += x;
        ASSERT_EQ(total, m);
      }
  }
}

TEST(Generators, Trees) {
  for (const int n : {2, 4, 8, 16, 32}) {
    SCOPED_TRACE(n);
    int levels = 0;
    while ((1 << levels) < n) ++levels;
    const auto b = make_topology(spec_of("btree", n));
    EXPECT_EQ(b.processor_count(), n);
    EXPECT_EQ(b.switch_count(), n - 1);
    EXPECT_EQ(b.channel_count(), 2 * (2 * n - 2));  // a tree on 2n - 1 nodes
    const auto bi = compute_invariants(b, no_bisection());
    EXPECT_EQ(bi.girth, 0);
    EXPECT_EQ(bi.diameter, 2 * levels);
    // Fat tree = 2-ary n-tree: n levels of N/2 switches, N links per level.
    const auto f = make_topology(spec_of("fattree", n));
    EXPECT_EQ(f.processor_count(), n);
    EXPECT_EQ(f.switch_count(), n / 2 * levels);
    EXPECT_EQ(f.channel_count(), 2 * n * levels);
    const auto fi = compute_invariants(f, no_bisection());
    EXPECT_EQ(fi.diameter, 2 * levels);
    EXPECT_FALSE(fi.directed);
    // Every switch below the top has 2 links down and 2 up; the top ones 2 down.
    for (NodeId v = n; v < f.node_count(); ++v) {
      std::ostringstream top_prefix;
      top_prefix << 's' << levels - 1 << '.';
      const bool top = f.label(v).starts_with(top_prefix.str());
      EXPECT_EQ(f.out_channels(v).size(), top ? 2u : 4u) << f.label(v);
    }
  }
  const auto fb = make_topology("fbtree:15");
  EXPECT_EQ(fb.processor_count(), 15);
  EXPECT_EQ(fb.channel_count(), 28);
}

TEST(Generators, FatOctagon) {
  const auto t = make_topology("fat:octagon,2");
  EXPECT_EQ(t.name(), "fat:octagon,2");
  EXPECT_EQ(t.processor_count(), 16);
  EXPECT_EQ(t.switch_count(), 8);
  EXPECT_EQ(t.channel_count(), 24 + 2 * 16);
  for (const auto p : t.processors()) {
    ASSERT_EQ(t.out_channels(p).size(), 1u);
    EXPECT_FALSE(t.is_processor(t.channel(t.out_channels(p)[0]).to));
  }
  // Directed inner networks stay directed; the attachment links are full duplex.
  const auto k = make_topology("fat:kautz:3,2,3");
  EXPECT_EQ(k.processor_count(), 36);
  EXPECT_EQ(k.channel_count(), 36 + 72);
  EXPECT_TRUE(k.directed());
}

TEST(Generators, CanonicalNames) {
  EXPECT_EQ(make_topology(" Kautz:3, 2 ").name(), "kautz:3,2");
  EXPECT_EQ(make_topology("MESH:4X4").name(), "mesh:4x4");
  EXPECT_EQ(make_topology("ring:08").name(), "ring:8");
  EXPECT_EQ(make_topology("fat:Octagon,2").name(), "fat:octagon,2");
  EXPECT_EQ(make_topology("mesh:2x3").label(4), "(1,1)");
  EXPECT_EQ(make_topology("omega:8").label(8), "s0.0");
}

TEST(Generators, EverySpecOfTheCatalogueBuilds) {
  const std::vector<std::string> examples = {
      "ring:5",  "uring:5",   "mesh:2x2",     "torus:2x2x2", "hypercube:3", "complete:3",
      "octagon", "ngon:10",   "petersen",     "heawood",     "levi",        "hoffman-singleton",
      "utility", "kautz:2,2", "debruijn:3,2", "omega:4",     "butterfly:4", "clos:2,2,2",
      "btree:4", "fattree:4", "fbtree:3",     "fat:ring:4,3"};
  ASSERT_EQ(examples.size(), spec_catalogue().size());
  for (std::size_t i = 0; i < examples.size(); ++i) {
    SCOPED_TRACE(examples[i]);
    EXPECT_TRUE(examples[i].starts_with(spec_catalogue()[i].name));
    const auto t = load_topology(examples[i]);
    EXPECT_GE(t.processor_count(), 2);
  }
}

TEST(Generators, BadSpecsThrowInvalidParameterNamingTheSpec) {
  for (const std::string spec : {"kautz:0,2",   "kautz:3",
                                 "kautz:3,0",   "mesh:0x4",
                                 "mesh:4",      "mesh:2x2x2x2",
                                 "omega:12",    "omega:1",
                                 "butterfly:6", "ngon:7",
                                 "ngon:2",      "foo",
                                 "foo:3",       "",
                                 "ring:",       "ring:x",
                                 "ring:1",      "ring:-3",
                                 "ring:3:4",    "ring:3,4",
                                 "ring:3 4",    "kautz:3 ,2 2",
                                 "petersen:3",  "octagon:8",
                                 "hypercube:0", "hypercube:64",
                                 "clos:0,2,2",  "btree:6",
                                 "fattree:12",  "fbtree:8",
                                 "fat:octagon", "fat:octagon,0",
                                 "fat:foo,2",   "fat:kautz:0,2,2",
                                 "complete:1",  "debruijn:1,3",
                                 "torus:3x",    "ring:99999999999",
                                 "kautz:3,99"}) {
    SCOPED_TRACE(spec);
    try {
      make_topology(spec);
      ADD_FAILURE() << "no exception";
    } catch (const InvalidParameter& e) {
      EXPECT_EQ(e.where(), spec);
      EXPECT_FALSE(e.problem().empty());
    }
  }
}

}  // namespace
}  // namespace ccsched
