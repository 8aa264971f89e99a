// Pictures of reduction schedules (FORMATS.md "Reductions"): the hand-made ring:4
// schedules of tests/support and a solved ring:8 ALLREDUCE render as well-formed SVG with
// one panel per step; every transfer's arrow is labelled with its block and the inputs its
// value sums (checked against sets worked out by hand below), copies are dashed, and each
// processor's annotation after the last step shows the complete sum wherever
// reduction_targets asks for one. The HTML report of a reduction has the steps table and
// the panels.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../support/reduction_schedules_more.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/render/html.hpp"
#include "ccsched/render/svg.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/tables.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "render_checks.hpp"

namespace ccsched {
namespace {

using testing::count;
using testing::solve;
using testing::well_formed;

// What one step's panel says: the label of each transfer (by its index among the step's
// transfers, in document order) and each processor's annotation.
struct PanelText {
  std::map<int, std::string> carried;
  std::map<NodeId, std::string> sums;
  std::size_t copies = 0;  // dashed paths
  std::size_t paths = 0;
};

std::vector<PanelText> read_panels(const std::string& svg) {
  std::vector<PanelText> panels;
  const std::string marker = "<g class=\"step-panel\"";
  for (auto at = svg.find(marker); at != std::string::npos;) {
    const auto next = svg.find(marker, at + 1);
    const std::string part = svg.substr(at, next == std::string::npos ? std::string::npos : next - at);
    PanelText p;
    const std::regex carry(R"re(<text class="carry" data-transfer="(\d+)"[^>]*>([^<]*)</text>)re");
    for (auto it = std::sregex_iterator(part.begin(), part.end(), carry);
         it != std::sregex_iterator(); ++it)
      p.carried[std::stoi((*it)[1].str())] = (*it)[2].str();
    const std::regex acc(R"re(<text class="acc[^"]*" data-node="(\d+)"[^>]*>([^<]*)</text>)re");
    for (auto it = std::sregex_iterator(part.begin(), part.end(), acc);
         it != std::sregex_iterator(); ++it)
      p.sums[std::stoi((*it)[1].str())] = (*it)[2].str();
    p.copies = count(part, "class=\"transfer copy\"");
    p.paths = count(part, "<path class=\"transfer");
    panels.push_back(p);
    at = next;
  }
  return panels;
}

// "1,4,3,2/4" -> {1,4,3,2}
std::vector<int> counts_of(const std::string& annotation) {
  std::vector<int> out;
  const std::string head = annotation.substr(0, annotation.find('/'));
  std::size_t start = 0;
  while (start <= head.size()) {
    const auto comma = head.find(',', start);
    out.push_back(std::stoi(head.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Schedule parse(const std::string& doc) {
  Schedule s = read_schedule_json(doc, "test");
  EXPECT_TRUE(verify_schedule(s).empty());
  return s;
}

// The checks every reduction picture must pass, whatever the schedule.
void check_reduction_picture(const Schedule& s, const std::string& name) {
  const std::string svg = render_steps_svg(s);
  std::string error;
  EXPECT_TRUE(well_formed(svg, &error)) << name << ": " << error;
  const auto panels = read_panels(svg);
  ASSERT_EQ(static_cast<int>(panels.size()), s.steps) << name;
  const int p = static_cast<int>(s.collective.senders.size());
  for (Step st = 1; st <= s.steps; ++st) {
    const PanelText& panel = panels[static_cast<std::size_t>(st - 1)];
    std::size_t in_step = 0, copies = 0;
    for (const Transfer& tr : s.transfers)
      if (tr.step == st) {
        ++in_step;
        copies += tr.recv == ReductionRecv::copy;
      }
    EXPECT_EQ(panel.paths, in_step) << name << " step " << st;
    EXPECT_EQ(panel.carried.size(), in_step) << name << " step " << st;
    EXPECT_EQ(panel.copies, copies) << name << " step " << st;
    EXPECT_EQ(static_cast<int>(panel.sums.size()), s.topology.processor_count()) << name;
    for (const auto& [node, text] : panel.sums)
      EXPECT_NE(text.find(fmt::format("/{}", p)), std::string::npos) << name << ": " << text;
  }
  // After the last step every accumulator the kind names holds its required sum.
  const PanelText& last = panels.back();
  for (const ReductionTarget& target : reduction_targets(s.collective)) {
    ASSERT_TRUE(last.sums.count(target.node)) << name << ": node " << target.node;
    const auto counts = counts_of(last.sums.at(target.node));
    ASSERT_LT(static_cast<std::size_t>(target.block), counts.size()) << name;
    EXPECT_EQ(counts[static_cast<std::size_t>(target.block)],
              static_cast<int>(target.senders.size()))
        << name << ": node " << target.node << " block " << target.block;
    if (s.collective.kind == CollectiveKind::ALLREDUCE ||
        s.collective.kind == CollectiveKind::REDUCE) {
      if (s.collective.blocks == 1) {
        EXPECT_EQ(last.sums.at(target.node), fmt::format("{}/{}", p, p)) << name;
      }
    }
  }
}

TEST(RenderReduction, HandMadeSchedulesDrawEveryStep) {
  using namespace ccsched::testing;
  const std::vector<std::pair<std::string, std::string>> docs = {
      {"ring allreduce", ring4_allreduce_ring()},
      {"doubling allreduce", ring4_allreduce_doubling()},
      {"reduce into empty root", ring4_reduce_into_empty_root()},
      {"reduce-scatter", ring4_reduce_scatter()},
      {"scan", ring4_scan()},
      {"binomial reduce", ring4_binomial_reduce()}};
  for (const auto& [name, doc] : docs) check_reduction_picture(parse(doc), name);
}

TEST(RenderReduction, RingAllreduceLabelsWorkedOutByHand) {
  const Schedule s = parse(testing::ring4_allreduce_ring());
  const auto panels = read_panels(render_steps_svg(s));
  ASSERT_EQ(panels.size(), 6u);
  // By hand, acc[v][b] after each step (everyone starts with {v} in every block):
  //   step 1 (inputs): 0->1 b0, 1->2 b1, 2->3 b2, 3->0 b3 leave acc[1][0] = {0,1},
  //     acc[2][1] = {1,2}, acc[3][2] = {2,3}, acc[0][3] = {0,3};
  //   step 2 sends those: 0->1 b3 {0,3}, 1->2 b0 {0,1}, 2->3 b1 {1,2}, 3->0 b2 {2,3},
  //     leaving acc[1][3] = {0,1,3}, acc[2][0] = {0,1,2}, acc[3][1] = {1,2,3},
  //     acc[0][2] = {0,2,3};
  //   step 3 sends those (the values as they stood at its start): 0->1 b2 {0,2,3},
  //     1->2 b3 {0,1,3}, 2->3 b0 {0,1,2} = {0..2}, 3->0 b1 {1,2,3} = {1..3}.
  const PanelText& step3 = panels[2];
  EXPECT_EQ(step3.carried.at(0), "b2 {0,2,3}");
  EXPECT_EQ(step3.carried.at(1), "b3 {0,1,3}");
  EXPECT_EQ(step3.carried.at(2), "b0 {0..2}");
  EXPECT_EQ(step3.carried.at(3), "b1 {1..3}");
  // After step 3, node 0: b0 {0}, b1 {0,1,2,3}, b2 {0,2,3}, b3 {0,3}; node 1: b0 {0,1},
  // b1 {1}, b2 {0,1,2,3}, b3 {0,1,3}.
  EXPECT_EQ(step3.sums.at(0), "1,4,3,2/4");
  EXPECT_EQ(step3.sums.at(1), "2,1,4,3/4");
  // Step 1's values are single inputs; step 4 copies the complete block i+1 from i.
  EXPECT_EQ(panels[0].carried.at(0), "b0 {0}");
  EXPECT_EQ(panels[3].copies, 4u);
  EXPECT_EQ(panels[3].carried.at(0), "b1 {0..3}");
  for (NodeId v = 0; v < 4; ++v) EXPECT_EQ(panels[5].sums.at(v), "4,4,4,4/4");
}

TEST(RenderReduction, ReduceIntoEmptyRootCountsFromZero) {
  // Senders 1, 2, 3; root 0 has no input: 0/3 at the start, {1} after step 1, and
  // {1} + {3} + {2} after step 2. The input relayed 2 -> 1 -> 0 is 2's own.
  const Schedule s = parse(testing::ring4_reduce_into_empty_root());
  const auto panels = read_panels(render_steps_svg(s));
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[0].sums.at(0), "1/3");
  EXPECT_EQ(panels[1].sums.at(0), "3/3");
  EXPECT_EQ(panels[1].sums.at(1), "1/3");
  EXPECT_EQ(panels[1].carried.at(1), "b0 {2}");
}

TEST(RenderReduction, DoublingReadsValuesAtTheStartOfTheStep) {
  // Step 2 exchanges 1 <-> 2 and 3 <-> 0 in both directions at once; each side sends the
  // pair sum it had after step 1 (1: {0,1}, 2: {2,3}), not what it receives in step 2.
  const Schedule s = parse(testing::ring4_allreduce_doubling());
  const auto panels = read_panels(render_steps_svg(s));
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[0].sums.at(0), "2/4");
  EXPECT_EQ(panels[1].carried.at(0), "b0 {0,1}");  // 1 -> 2
  EXPECT_EQ(panels[1].carried.at(1), "b0 {2,3}");  // 2 -> 1
  EXPECT_EQ(panels[1].carried.at(2), "b0 {2,3}");  // 3 -> 0
  EXPECT_EQ(panels[1].carried.at(3), "b0 {0,1}");  // 0 -> 3
  EXPECT_EQ(panels[1].copies, 0u);
}

TEST(RenderReduction, SolvedRing8Allreduce) {
  const Schedule s = solve("ring:8", CollectiveKind::ALLREDUCE);  // solve_problem, as the CLI
  check_reduction_picture(s, "ring:8 ALLREDUCE");

  const auto panels = read_panels(render_steps_svg(s));
  for (const auto& [node, text] : panels.back().sums) EXPECT_EQ(text, "8/8") << node;
  // In step 1 every value is one input (accumulators hold only their own at the start),
  // so a processor's count after it is 1 plus the reduces into it (a copy leaves 1).
  std::map<NodeId, int> expected;
  for (NodeId v = 0; v < 8; ++v) expected[v] = 1;
  int index = 0;
  for (const Transfer& tr : s.transfers) {
    if (tr.step != 1) continue;
    EXPECT_EQ(panels[0].carried.at(index++), fmt::format("b0 {{{}}}", tr.path.front()));
    if (tr.recv == ReductionRecv::reduce) ++expected[tr.path.back()];
  }
  for (const auto& [node, k] : expected) EXPECT_EQ(panels[0].sums.at(node), fmt::format("{}/8", k));
}

TEST(RenderReduction, HtmlReportHasStepsTableAndPanels) {
  const Schedule s = parse(testing::ring4_allreduce_ring());
  const std::string html = render_report_html(s);
  EXPECT_EQ(count(html, "<div class=\"step-panel\""), 6u);
  EXPECT_EQ(count(html, "<svg "), 6u);
  EXPECT_NE(html.find("<pre>"), std::string::npos);
  // The table is tables.hpp's steps layout, whole, with its arrows escaped.
  std::string table;
  for (const char c : format_schedule_table(s, TableLayout::steps)) {
    if (c == '>') table += "&gt;";
    else if (c == '<') table += "&lt;";
    else if (c == '&') table += "&amp;";
    else table += c;
  }
  EXPECT_NE(html.find("<pre>" + table + "</pre>"), std::string::npos) << table;
  EXPECT_NE(html.find("REDUCE"), std::string::npos);
  EXPECT_NE(html.find("class=\"carry\""), std::string::npos);
  EXPECT_NE(html.find("dashed ones (copy)"), std::string::npos);
}

}  // namespace
}  // namespace ccsched
