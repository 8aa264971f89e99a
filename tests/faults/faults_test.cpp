// Fault sweeps: seed 000 Table 5 (Kautz(3,2), root 01, one faulty link) on a few links,
// each cell re-designed and proven; link enumeration for digraphs and undirected networks.
#include <gtest/gtest.h>

#include "ccsched/faults/sweep.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

TEST(NetworkLinks, DigraphChannelsAreLinksOfTheirOwn) {
  const Topology kautz = make_topology("kautz:3,2");
  EXPECT_EQ(network_links(kautz).size(), 36u);  // 01-10 and 10-01 are two links
  const Topology petersen = make_topology("petersen");
  const auto links = network_links(petersen);
  ASSERT_EQ(links.size(), 15u);
  for (const auto& l : links) EXPECT_EQ(l.channels.size(), 2u);
}

// Seed 000 Table 5 rows for four links: every cell is proven optimal and equals the
// paper's figure (the paper's figures here are EA results; ours are proofs).
TEST(FaultSweep, Kautz12TableFiveRows) {
  const Topology t = make_topology("kautz:3,2");
  FaultSweepRequest request;
  request.kinds = {CollectiveKind::OAB, CollectiveKind::AAB, CollectiveKind::OAS,
                   CollectiveKind::AAS};
  request.collective.root = "01";
  request.model = default_model(t);
  for (const char* link : {"01-10", "02-20", "10-02", "10-01"})
    request.links.push_back({parse_fault(t, link), link});
  request.solve.time_limit = 60;
  const FaultSweep sweep = sweep_faults(t, request);
  ASSERT_EQ(sweep.rows.size(), 5u);
  const int expected[5][4] = {
      {2, 4, 4, 7},  // no fault
      {3, 6, 6, 9},  // 01-10
      {2, 6, 4, 9},  // 02-20
      {2, 6, 5, 9},  // 10-02
      {2, 6, 4, 9},  // 10-01 ("all other")
  };
  for (std::size_t r = 0; r < sweep.rows.size(); ++r) {
    const auto& row = sweep.rows[r];
    ASSERT_TRUE(row.connected) << row.name;
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(row.cells[k].steps, expected[r][k]) << row.name << " " << sweep.kinds[k];
      EXPECT_TRUE(row.cells[k].optimal) << row.name << " " << sweep.kinds[k] << ": "
                                        << row.cells[k].note;
      EXPECT_LE(row.cells[k].lower_bound, row.cells[k].steps);
      EXPECT_EQ(row.cells[k].degraded, r > 0 && expected[r][k] > expected[0][k]);
    }
  }
  EXPECT_EQ(sweep.rows[1].diameter, 3);
}

TEST(FaultSweep, DisconnectingFaultIsReported) {
  const Topology t = make_topology("ring:4");
  FaultSweepRequest request;
  request.kinds = {CollectiveKind::OAB};
  request.model = default_model(t);
  request.double_faults = true;
  const FaultSweep sweep = sweep_faults(t, request);
  // 1 fault-free row, 4 single faults, 6 pairs; a pair of links cuts the ring apart.
  ASSERT_EQ(sweep.rows.size(), 11u);
  int disconnected = 0;
  for (const auto& row : sweep.rows)
    if (!row.connected) {
      ++disconnected;
      EXPECT_EQ(row.cells[0].steps, -1);
    }
  EXPECT_EQ(disconnected, 6);
  EXPECT_EQ(sweep.fault_diameter, 3);  // a ring of 4 with one link gone is a path
}

}  // namespace
}  // namespace ccsched
