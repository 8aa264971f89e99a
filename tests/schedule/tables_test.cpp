// The text layouts of tables.hpp on small hand-made schedules: the grid (seed 000 Table 3),
// the broadcast trees (seed 000 Table 4) with their 'x' convention, the notes for what an
// invalid schedule cannot place, the utilisation lines and the `show` header.
#include "ccsched/schedule/tables.hpp"

#include <gtest/gtest.h>

#include "ccsched/core/error.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Tables, GridOfRingAas) {
  // A cell lists its destinations by node id, whatever the order of the transfers (the
  // schedule sends 1 -> 2 before 1 -> 0).
  const auto s = test::ring4_aas();
  const auto text = format_schedule_table(s);
  EXPECT_EQ(text,
            "src  1    2\n"
            "0    1,3  2\n"
            "1    0,2  3\n"
            "2    1,3  0\n"
            "3    0,2  1\n");
}

TEST(Tables, GridMarksForwardedMessagesAndLeavesEmptyCells) {
  auto s = test::ring4_oab();
  const auto text = format_schedule_table(s, TableLayout::grid);
  EXPECT_EQ(text,
            "src  1    2\n"
            "0    1,3  -\n"
            "1    -    2(m0)\n");
}

TEST(Tables, GridListsWhatItCannotPlace) {
  auto s = test::ring4_aas();
  s.transfers[0].step = 0;
  s.transfers[1].path.clear();
  const auto text = format_schedule_table(s);
  EXPECT_TRUE(contains(text, "not in the table:\n")) << text;
  EXPECT_TRUE(contains(text, "transfer 0 (0 -> 1) is in step 0")) << text;
  EXPECT_TRUE(contains(text, "transfer 1 (step 1) has an empty path")) << text;
}

TEST(Tables, TreesUseXForWaitingSteps) {
  // OAB from 0 on ring:6: 0->1 (1), 0->5 (1), 1->2 (2), 5->4 (3), 2->3 (4).
  Schedule s;
  s.topology = test::ring(6);
  s.collective = test::oab(s.topology, 0);
  s.steps = 4;
  s.transfers = {
      {1, {0, 1}, {0}}, {1, {0, 5}, {0}}, {2, {1, 2}, {0}}, {3, {5, 4}, {0}}, {4, {2, 3}, {0}}};
  const auto text = format_schedule_table(s);
  EXPECT_EQ(text,
            "src | subtree 1 | subtree 2\n"
            "0   | 0-1-2-x-3 | 0-5-x-4\n"
            "(position i after the source = step i; x = the message does not move in that "
            "step;\n"
            " (a) = the transfer passes through processor a without delivering to it)\n");
}

TEST(Tables, TreesShowProcessorsAWormPassesThrough) {
  // OAB from 0 on ring:6 with wormhole paths: 0->(1)2 in step 1, 0->(5)4 in step 1,
  // 0->1 in step 2, 2->3 in step 2, 0->5 in step 3.
  Schedule s;
  s.topology = test::ring(6);
  s.collective = test::oab(s.topology, 0);
  s.steps = 3;
  s.transfers = {{1, {0, 1, 2}, {0}},
                 {1, {0, 5, 4}, {0}},
                 {2, {0, 1}, {0}},
                 {2, {2, 3}, {0}},
                 {3, {0, 5}, {0}}};
  const auto text = format_schedule_table(s);
  EXPECT_TRUE(contains(text, "0   | 0-(1)2-3  | 0-(5)4    | 0-x-1     | 0-x-x-5\n")) << text;
}

TEST(Tables, TreesNoteUnheldSendsAndMissedTargets) {
  auto s = test::ring4_oab();
  s.transfers[2] = {1, {1, 2}, {0}};  // 1 forwards in the step it receives: not attachable
  const auto text = format_schedule_table(s);
  EXPECT_TRUE(contains(text, "m0: 1 -> 2 in step 1 (transfer 2): 1 does not hold the message yet"))
      << text;
  EXPECT_TRUE(contains(text, "m0: never reaches 2")) << text;
}

TEST(Tables, TreesShowLabelsAndIds) {
  auto s = test::ring4_oab();
  for (NodeId n = 0; n < 4; ++n)
    s.topology.set_label(n, std::string(1, static_cast<char>('a' + n)));
  const auto text = format_schedule_table(s);
  EXPECT_TRUE(contains(text, "a=0 | a-b-c ")) << text;
  EXPECT_TRUE(contains(text, " | a-d\n")) << text;
}

TEST(Tables, LayoutSelection) {
  EXPECT_EQ(resolve_layout(test::ring4_aas(), TableLayout::automatic), TableLayout::grid);
  EXPECT_EQ(resolve_layout(test::ring4_oab(), TableLayout::automatic), TableLayout::trees);
  EXPECT_EQ(resolve_layout(test::ring4_oab(), TableLayout::grid), TableLayout::grid);
  EXPECT_EQ(parse_table_layout("trees"), TableLayout::trees);
  EXPECT_EQ(parse_table_layout("steps"), TableLayout::steps);
  EXPECT_THROW(parse_table_layout("pie"), InvalidParameter);
  const auto rs = test::ring4_reduce_scatter();
  EXPECT_EQ(resolve_layout(rs, TableLayout::automatic), TableLayout::steps);
  EXPECT_EQ(resolve_layout(rs, TableLayout::grid), TableLayout::grid);
  EXPECT_THROW(resolve_layout(rs, TableLayout::trees), InvalidParameter);
  EXPECT_THROW(resolve_layout(test::ring4_aas(), TableLayout::steps), InvalidParameter);
}

// Binomial reduce to 0 on ring:4: 1 -> 0 and 3 -> 2 add their inputs, then 2 sends the
// partial sum {2,3} to 0 through 1.
Schedule ring4_binomial_reduce() {
  Schedule s;
  s.topology = test::ring(4);
  s.collective.kind = CollectiveKind::REDUCE;
  s.collective.senders = {0, 1, 2, 3};
  s.collective.receivers = {0};
  s.steps = 2;
  s.transfers = {test::reduction_transfer(1, {1, 0}, {0}, ReductionSend::input),
                 test::reduction_transfer(1, {3, 2}, {0}, ReductionSend::input),
                 test::reduction_transfer(2, {2, 1, 0}, {0}, ReductionSend::acc)};
  return s;
}

TEST(Tables, ReductionStepsSayWhoAddsWhatIntoWhom) {
  EXPECT_EQ(format_schedule_table(ring4_binomial_reduce()),
            "step 1:  1 -> 0        input{1}  (block 0)  reduce\n"
            "         3 -> 2        input{3}  (block 0)  reduce\n"
            "step 2:  2 -> 0 via 1  acc{2,3}  (block 0)  reduce\n"
            "final accumulators:\n"
            "  0  block 0:  {0,1,2,3}  complete\n");
}

TEST(Tables, ReductionValuesAreReadAtTheStartOfTheStep) {
  // Ring reduce-scatter, block 3: 0 sends its input to 1 in step 1, 1 sends {0,1} on in
  // step 2, 2 sends {0,1,2} in step 3. In step 2, 1 also receives block 2 from 0; that
  // lands at the end of the step and does not change what 1 sends.
  const auto text = format_schedule_table(test::ring4_reduce_scatter());
  EXPECT_TRUE(contains(text, "         1 -> 2  acc{0,1}    (block 3)  reduce\n")) << text;
  EXPECT_TRUE(contains(text, "         2 -> 3  acc{0,1,2}  (block 3)  reduce\n")) << text;
  // Receiver j holds block j only; nothing else is summarised.
  EXPECT_TRUE(contains(text, "final accumulators:\n"
                             "  0  block 0:  {0,1,2,3}  complete\n"
                             "  1  block 1:  {0,1,2,3}  complete\n")) << text;
}

TEST(Tables, ReductionFinalsShowWhatIsMissingAndRunBlocksTogether) {
  auto s = ring4_binomial_reduce();
  s.collective.kind = CollectiveKind::ALLREDUCE;
  s.collective.receivers = {0, 2};
  s.collective.blocks = 5;
  s.transfers[1].blocks = {3};  // 3 -> 2 now adds into block 3; 2 -> 0 still sends block 0
  const auto text = format_schedule_table(s);
  EXPECT_TRUE(contains(text, "step 2:  2 -> 0 via 1  acc{2}    (block 0)  reduce\n")) << text;
  EXPECT_TRUE(contains(text,
                       "final accumulators:\n"
                       "  0  block 0:     {0,1,2}  missing {3}\n"
                       "  0  blocks 1-4:  {0}      missing {1,2,3}\n"
                       "  2  blocks 0-2:  {2}      missing {0,1,3}\n"
                       "  2  block 3:     {2,3}    missing {0,1}\n"
                       "  2  block 4:     {2}      missing {0,1,3}\n"))
      << text;
}

TEST(Tables, ReductionGridAndNotes) {
  auto s = ring4_binomial_reduce();
  EXPECT_EQ(format_schedule_table(s, TableLayout::grid),
            "src  1      2\n"
            "0    -      -\n"
            "1    0(b0)  -\n"
            "2    -      0(b0)\n"
            "3    2(b0)  -\n");
  s.transfers[1].step = 0;
  s.transfers[2].blocks.clear();
  const auto text = format_schedule_table(s);
  EXPECT_TRUE(contains(text, "not in the table:\n  transfer 1 (3 -> 2) is in step 0\n"
                             "  transfer 2 (2 -> 0 via 1, step 2) carries no block\n"))
      << text;
}

TEST(Tables, ReductionSummaryAndProofFields) {
  auto s = ring4_binomial_reduce();
  s.lower_bound = 2;
  s.optimal_within = "direct delivery";
  s.direct_delivery_bound = 3;
  const auto text = format_schedule_summary(s);
  EXPECT_TRUE(contains(text, "collective:  REDUCE, root 0, 4 senders, 1 block\n")) << text;
  EXPECT_TRUE(contains(text, "lower bound: 2 (direct delivery only: 3)\n")) << text;
  EXPECT_TRUE(contains(text, "optimal:     no (proven optimal within direct delivery)\n"))
      << text;
  s.collective.kind = CollectiveKind::SCAN;
  s.collective.senders = {3, 1, 2, 0};
  s.collective.blocks = 2;
  EXPECT_TRUE(contains(format_schedule_summary(s),
                       "collective:  SCAN, 4 senders in prefix order 3,1,2,0, 2 blocks\n"));
}

TEST(Tables, Utilisation) {
  const auto s = test::ring4_aas();
  const auto u = channel_utilisation(s);
  ASSERT_EQ(u.size(), 2U);
  EXPECT_EQ(u[0].channels_used, 8);
  EXPECT_EQ(u[1].channels_used, 8);
  EXPECT_EQ(u[0].channels_available, 8);
  EXPECT_EQ(format_utilisation(test::ring4_oab()),
            "step 1: 2/8 channels (25.0 %)\n"
            "step 2: 1/8 channels (12.5 %)\n"
            "total: 3/16 channel-steps (18.8 %)\n");
}

TEST(Tables, UtilisationSkipsGarbage) {
  auto s = test::ring4_aas();
  s.transfers[0].path = {0, 77};
  s.transfers[1].step = 9;
  const auto u = channel_utilisation(s);
  ASSERT_EQ(u.size(), 2U);
  EXPECT_EQ(u[0].channels_used, 6);
}

TEST(Tables, Summary) {
  auto s = test::ring4_aas();
  s.lower_bound = 2;
  s.optimal = true;
  s.solver = SolverInfo{"sat", 3, 0.5};
  s.model.ports = 2;
  EXPECT_EQ(format_schedule_summary(s),
            "network:     ring:4 (4 processors, 0 switches, 8 channels)\n"
            "collective:  AAS, 4 senders, 4 receivers, 12 messages\n"
            "model:       2-port, wormhole, minimal routing, no combining\n"
            "steps:       2\n"
            "lower bound: 2\n"
            "optimal:     yes\n"
            "solver:      sat (seed 3, 0.500 s)\n");
  const auto oab = format_schedule_summary(test::ring4_oab());
  EXPECT_TRUE(contains(oab, "collective:  OAB, root 0, 1 message\n")) << oab;
  EXPECT_TRUE(contains(oab, "lower bound: -\n")) << oab;
  EXPECT_TRUE(contains(oab, "solver:      -\n")) << oab;
}

}  // namespace
}  // namespace ccsched
