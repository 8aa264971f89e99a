// Render library tests: the Graphviz layout (engine per network, every channel mapped to a
// drawn line, MINs unfolded with senders left and receivers right, trees with the
// processors as the bottom row, meshes on their grid, determinism), the SVG pictures (one
// panel per step, one coloured path and arrow per transfer, distinct colours within a
// step, processors as circles and switches as squares, labels, well-formed XML) and the
// HTML report (self-contained, one panel per step, the seeds' table, the time estimate).
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "ccsched/cost/linear.hpp"
#include "ccsched/cost/units.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/render/html.hpp"
#include "ccsched/render/layout.hpp"
#include "ccsched/render/svg.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "render_checks.hpp"

namespace ccsched {
namespace {

using testing::count;
using testing::solve;
using testing::well_formed;

// The parts of a document between consecutive occurrences of `marker` (the first part,
// before the first marker, dropped).
std::vector<std::string> split_at(const std::string& text, const std::string& marker) {
  std::vector<std::string> parts;
  auto at = text.find(marker);
  while (at != std::string::npos) {
    const auto next = text.find(marker, at + 1);
    parts.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  return parts;
}

TEST(Layout, EnginePerNetwork) {
  EXPECT_EQ(choose_layout_engine(make_topology("ring:8")), LayoutEngine::circo);
  EXPECT_EQ(choose_layout_engine(make_topology("kautz:3,2")), LayoutEngine::circo);
  // circo takes minutes on large dense digraphs (Kautz(3,5) hung the render command): only
  // rings stay circular at any size.
  EXPECT_EQ(choose_layout_engine(make_topology("kautz:3,5")), LayoutEngine::neato);
  EXPECT_EQ(choose_layout_engine(make_topology("complete:64")), LayoutEngine::neato);
  EXPECT_EQ(choose_layout_engine(make_topology("ring:256")), LayoutEngine::circo);
  EXPECT_EQ(choose_layout_engine(make_topology("petersen")), LayoutEngine::neato);
  EXPECT_EQ(choose_layout_engine(make_topology("hypercube:3")), LayoutEngine::neato);
  for (const char* spec : {"omega:8", "butterfly:8", "clos:2,2,2", "btree:8", "fattree:8"}) {
    EXPECT_TRUE(is_layered(make_topology(spec))) << spec;
    EXPECT_EQ(choose_layout_engine(make_topology(spec)), LayoutEngine::dot) << spec;
  }
  // Routers joined to routers: switches, but no layers.
  EXPECT_FALSE(is_layered(make_topology("fat:octagon,2")));
  EXPECT_EQ(choose_layout_engine(make_topology("fat:octagon,2")), LayoutEngine::neato);
  EXPECT_EQ(parse_layout_engine("dot"), LayoutEngine::dot);
  EXPECT_THROW(parse_layout_engine("spring"), InvalidParameter);
}

TEST(Layout, EveryChannelIsDrawnBetweenItsEnds) {
  for (const char* spec : {"ring:6", "kautz:2,3", "omega:8", "fattree:8", "fat:octagon,2"}) {
    const Topology t = make_topology(spec);
    const NetworkLayout l = layout_network(t);
    ASSERT_EQ(static_cast<int>(l.channel_from.size()), t.channel_count()) << spec;
    for (ChannelId c = 0; c < t.channel_count(); ++c) {
      EXPECT_EQ(l.vertices[l.channel_from[c]].node, t.channel(c).from) << spec;
      EXPECT_EQ(l.vertices[l.channel_to[c]].node, t.channel(c).to) << spec;
      const LayoutLink& link = l.links[l.channel_link[c]];
      EXPECT_TRUE(link.forward == c || link.backward == c) << spec;
    }
    for (const LayoutLink& link : l.links) {
      if (link.forward != kNoChannel) {
        EXPECT_EQ(l.channel_from[link.forward], link.a);
      }
      if (link.backward != kNoChannel) {
        EXPECT_EQ(l.channel_from[link.backward], link.b);
      }
      if (!t.directed()) {
        EXPECT_TRUE(link.both_ways()) << spec;
      }
    }
    // Distinct vertices sit apart (no two drawn on top of each other).
    for (std::size_t a = 0; a < l.vertices.size(); ++a)
      for (std::size_t b = a + 1; b < l.vertices.size(); ++b)
        EXPECT_GT(std::hypot(l.vertices[a].x - l.vertices[b].x, l.vertices[a].y - l.vertices[b].y),
                  20.0)
            << spec << ": vertices " << a << " and " << b;
  }
}

TEST(Layout, UnidirectionalMinIsUnfoldedLeftToRight) {
  const Topology t = make_topology("omega:8");
  const NetworkLayout l = layout_network(t);
  EXPECT_TRUE(l.unfolded);
  ASSERT_EQ(static_cast<int>(l.vertices.size()), t.node_count() + t.processor_count());
  double senders_right = -1e9, switches_left = 1e9, switches_right = -1e9, receivers_left = 1e9;
  for (const LayoutVertex& v : l.vertices) {
    if (!t.is_processor(v.node)) {
      switches_left = std::min(switches_left, v.x);
      switches_right = std::max(switches_right, v.x);
    } else if (v.receiver_copy) {
      receivers_left = std::min(receivers_left, v.x);
    } else {
      senders_right = std::max(senders_right, v.x);
    }
  }
  EXPECT_LT(senders_right, switches_left);
  EXPECT_LT(switches_right, receivers_left);
  // A processor's channel into the first stage leaves its sender copy, the one from the
  // last stage enters its receiver copy.
  for (ChannelId c = 0; c < t.channel_count(); ++c) {
    if (t.is_processor(t.channel(c).from)) {
      EXPECT_FALSE(l.vertices[l.channel_from[c]].receiver_copy);
    }
    if (t.is_processor(t.channel(c).to)) {
      EXPECT_TRUE(l.vertices[l.channel_to[c]].receiver_copy);
    }
  }
}

TEST(Layout, TreesHaveTheProcessorsAsBottomRow) {
  for (const char* spec : {"btree:8", "fattree:8"}) {
    const Topology t = make_topology(spec);
    const NetworkLayout l = layout_network(t);
    EXPECT_FALSE(l.unfolded) << spec;
    std::set<long> processor_rows;
    double lowest_switch = -1e9;
    for (const LayoutVertex& v : l.vertices) {
      if (t.is_processor(v.node))
        processor_rows.insert(std::lround(v.y));
      else
        lowest_switch = std::max(lowest_switch, v.y);
    }
    ASSERT_EQ(processor_rows.size(), 1u) << spec;
    EXPECT_GT(static_cast<double>(*processor_rows.begin()), lowest_switch) << spec;
  }
}

// Graphviz 2.42's circo keeps attribute symbols of the last root graph in statics, keyed by
// the graph's address; before layout_network kept the last circo graph open, a new graph
// allocated at the freed one's address crashed in agxget about one time in twenty
// (docs/RELIABILITY.md). Many layouts in a row, alternating with neato, make that reuse
// near certain if the guard were gone.
TEST(Layout, RepeatedCircoLayoutsDoNotReuseFreedGraphs) {
  const Topology ring = make_topology("kautz:3,2");
  const Topology mesh = make_topology("mesh:3x4");
  for (int i = 0; i < 150; ++i) {
    const NetworkLayout l = layout_network(ring);
    ASSERT_EQ(l.engine, LayoutEngine::circo);
    ASSERT_EQ(l.vertices.size(), 12u);
    (void)layout_network(mesh);
  }
}

TEST(Layout, MeshesKeepTheirGridAndLayoutsRepeat) {
  const Topology t = make_topology("mesh:3x4");
  const NetworkLayout l = layout_network(t);
  // Label (i,j): row i shares one y, column j one x.
  for (NodeId a = 0; a < t.node_count(); ++a)
    for (NodeId b = 0; b < t.node_count(); ++b) {
      if (a / 4 == b / 4) {
        EXPECT_NEAR(l.vertices[a].y, l.vertices[b].y, 0.5);
      }
      if (a % 4 == b % 4) {
        EXPECT_NEAR(l.vertices[a].x, l.vertices[b].x, 0.5);
      }
    }
  for (const char* spec : {"petersen", "kautz:3,2", "omega:8"}) {
    const NetworkLayout one = layout_network(make_topology(spec));
    const NetworkLayout two = layout_network(make_topology(spec));
    for (std::size_t v = 0; v < one.vertices.size(); ++v) {
      EXPECT_DOUBLE_EQ(one.vertices[v].x, two.vertices[v].x) << spec;
      EXPECT_DOUBLE_EQ(one.vertices[v].y, two.vertices[v].y) << spec;
    }
  }
}

TEST(Svg, OnePanelPerStepOnePathPerTransfer) {
  const Schedule s = solve("ring:8", CollectiveKind::OAS);  // seed 000 Fig. 2: 4 steps
  ASSERT_EQ(s.steps, 4);
  const std::string svg = render_steps_svg(s);
  std::string error;
  EXPECT_TRUE(well_formed(svg, &error)) << error;
  const auto panels = split_at(svg, "<g class=\"step-panel\"");
  ASSERT_EQ(static_cast<int>(panels.size()), s.steps);
  for (int i = 0; i < s.steps; ++i) {
    const std::string& panel = panels[static_cast<std::size_t>(i)];
    const auto in_step = std::count_if(s.transfers.begin(), s.transfers.end(),
                                       [&](const Transfer& t) { return t.step == i + 1; });
    EXPECT_EQ(count(panel, "class=\"transfer\""), static_cast<std::size_t>(in_step));
    EXPECT_EQ(count(panel, "class=\"arrow\""), static_cast<std::size_t>(in_step));
    EXPECT_EQ(count(panel, "class=\"processor\""), 8u);
    EXPECT_EQ(count(panel, "class=\"switch\""), 0u);
    EXPECT_NE(panel.find(fmt::format("step {} of 4", i + 1)), std::string::npos);
    // Colours differ within the step.
    std::set<std::string> colours;
    const std::regex stroke(R"re(class="transfer" d="[^"]*" stroke="([^"]+)")re");
    for (auto it = std::sregex_iterator(panel.begin(), panel.end(), stroke);
         it != std::sregex_iterator(); ++it)
      colours.insert((*it)[1]);
    EXPECT_EQ(colours.size(), static_cast<std::size_t>(in_step));
  }
}

TEST(Svg, SwitchesAreSquaresAndLabelsAreTheSeeds) {
  const Schedule omega = solve("omega:8", CollectiveKind::AAB);
  const std::string svg = render_steps_svg(omega);
  const auto panels = split_at(svg, "<g class=\"step-panel\"");
  ASSERT_EQ(static_cast<int>(panels.size()), omega.steps);
  EXPECT_EQ(count(panels[0], "class=\"switch\""), 12u);
  EXPECT_EQ(count(panels[0], "class=\"processor\""), 16u);  // senders and receivers
  EXPECT_NE(svg.find(">s1.2</text>"), std::string::npos);

  const Schedule kautz = solve("kautz:3,2", CollectiveKind::AAB);
  const std::string k = render_steps_svg(kautz);
  for (const char* word : {"01", "02", "03", "10", "12", "13", "20", "21", "23", "30", "31", "32"})
    EXPECT_NE(k.find(fmt::format(">{}</text>", word)), std::string::npos) << word;
  // Forwarded broadcast messages carry their id in the legend ("01→10→02" are plain,
  // relays say "m4").
  EXPECT_NE(k.find(" m"), std::string::npos);
  for (int i = 0; i < 64; ++i)
    for (int j = i + 1; j < 64; ++j) EXPECT_NE(transfer_colour(i), transfer_colour(j));
}

TEST(Html, SelfContainedReportWithTablePanelsAndEstimate) {
  const Schedule s = solve("kautz:3,2", CollectiveKind::AAS);
  ReportOptions options;
  const std::string html = render_report_html(s, options);
  EXPECT_EQ(count(html, "<div class=\"step-panel\""), static_cast<std::size_t>(s.steps));
  EXPECT_EQ(count(html, "<svg "), static_cast<std::size_t>(s.steps));
  // Nothing is fetched: no external scripts, styles, images or fonts.
  for (const char* external : {"src=", "<link", "@import", "url(", "https:"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  std::string rest = html;
  for (auto at = rest.find("http://"); at != std::string::npos; at = rest.find("http://", at + 1))
    EXPECT_EQ(rest.compare(at, 26, "http://www.w3.org/2000/svg"), 0);
  // The seeds' grid: a row per sender (12) in the table body.
  const auto body = html.substr(html.find("<table class=\"grid\">"));
  EXPECT_EQ(count(body.substr(0, body.find("</table>")), "<td class=\"src\">"), 12u);
  // The linear model's total (seed 001, eq. (1)).
  const ScheduleCost cost = linear_cost(s, options.cost, options.message_bytes);
  EXPECT_NE(html.find(format_us(cost.total_seconds) + " &micro;s by the linear model"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"ccsched-status\" data-ready=\"no\""), std::string::npos);
  EXPECT_NE(html.find("window.onerror"), std::string::npos);

  // Broadcasts get the trees of seed 000 Table 4.
  const std::string b = render_report_html(solve("petersen", CollectiveKind::OAB));
  EXPECT_NE(b.find("subtree 1"), std::string::npos);
  EXPECT_EQ(count(b, "<div class=\"step-panel\""), 2u);
}

// The pictures and the report state the claims as the schedule does: a proof inside a
// restriction is not shown as "optimal" (docs/RELIABILITY.md).
TEST(Html, ClaimsAsTheScheduleStatesThem) {
  Schedule s = solve("ring:8", CollectiveKind::OAS);
  ASSERT_TRUE(s.optimal);
  EXPECT_NE(render_steps_svg(s).find("(optimal)"), std::string::npos);
  s.optimal = false;
  s.optimal_within = "direct delivery";
  s.direct_delivery_bound = *s.lower_bound + 1;
  const std::string svg = render_steps_svg(s);
  EXPECT_EQ(svg.find("(optimal)"), std::string::npos);
  EXPECT_NE(svg.find("(optimal within direct delivery)"), std::string::npos);
  const std::string html = render_report_html(s, ReportOptions{});
  EXPECT_NE(html.find("proven optimal within direct delivery"), std::string::npos);
  EXPECT_NE(html.find("direct delivery only: " + std::to_string(*s.direct_delivery_bound)),
            std::string::npos);
}

TEST(Html, TableReport) {
  TableReport r;
  r.title = "faults <&>";
  r.summary = {{"network", "ring:4"}};
  r.header = {"link", "OAB"};
  r.rows = {{{"none", "", ""}, {"1/2", "", ""}}, {{"0-1", "", ""}, {"1/3*", "degraded", "x"}}};
  const std::string html = render_table_html(r);
  EXPECT_NE(html.find("faults &lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(count(html, "<tr><td"), 2u);
  EXPECT_NE(html.find("<td class=\"degraded\" title=\"x\">1/3*</td>"), std::string::npos);
}

}  // namespace
}  // namespace ccsched
