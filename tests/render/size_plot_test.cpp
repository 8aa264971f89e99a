// The time-by-message-size plot (render/size_plot.hpp): well-formed XML, one polyline per
// series with its points in increasing size, ticks labelled at powers of 2 and 10 in
// readable units, the legend, and refusals of what a log axis cannot show.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/render/size_plot.hpp"
#include "render_checks.hpp"

namespace ccsched {
namespace {

using testing::count;
using testing::well_formed;

// The x coordinates of every polyline's points, one vector per polyline.
std::vector<std::vector<double>> polyline_xs(const std::string& svg) {
  std::vector<std::vector<double>> out;
  const std::regex line(R"re(<polyline[^>]*points="([^"]*)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator();
       ++it) {
    std::vector<double> xs;
    const std::string points = (*it)[1];
    const std::regex pair(R"re(([0-9.]+),([0-9.]+))re");
    for (auto p = std::sregex_iterator(points.begin(), points.end(), pair);
         p != std::sregex_iterator(); ++p)
      xs.push_back(std::stod((*p)[1]));
    out.push_back(xs);
  }
  return out;
}

SizePlot two_lines() {
  SizePlot plot{.title = "ALLREDUCE on torus:4x4 <test>", .subtitle = "t0 = 1 us", .series = {}};
  SizeSeries rd{.name = "A  recursive-doubling, 1 block", .points = {}};
  SizeSeries ring{.name = "B  ring, 16 blocks", .points = {}};
  // Given out of order on purpose: the plot draws them by size.
  for (std::int64_t m = std::int64_t{1} << 30; m >= 8; m /= 2) {
    rd.points.push_back({m, 4 * (1e-6 + static_cast<double>(m) * 1e-9)});
    if (m >= 16) ring.points.push_back({m, 30 * (1e-6 + static_cast<double>(m) / 16 * 1e-9)});
  }
  plot.series = {rd, ring};
  return plot;
}

TEST(SizePlot, OnePolylinePerSeriesMonotoneInSize) {
  const std::string svg = render_size_plot_svg(two_lines());
  std::string error;
  EXPECT_TRUE(well_formed(svg, &error)) << error;
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  const auto xs = polyline_xs(svg);
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_EQ(xs[0].size(), 28u);  // 8 B .. 1 GiB
  EXPECT_EQ(xs[1].size(), 27u);  // the ring from 16 B
  for (const auto& line : xs)
    for (std::size_t i = 1; i < line.size(); ++i) EXPECT_LT(line[i - 1], line[i]);
  // The legend names each line; the title is escaped.
  EXPECT_EQ(count(svg, "recursive-doubling, 1 block"), 2u);  // legend and tooltip
  EXPECT_EQ(count(svg, "ring, 16 blocks"), 2u);
  EXPECT_EQ(count(svg, "&lt;test&gt;"), 1u);
}

TEST(SizePlot, TicksAtPowersWithReadableLabels) {
  const std::string svg = render_size_plot_svg(two_lines());
  // 8 B .. 1 GiB: every third power of 2 labelled.
  for (const char* label : {">8 B<", ">64 B<", ">512 B<", ">4 KiB<", ">1 MiB<" /* absent */,
                            ">2 MiB<", ">1 GiB<"}) {
    if (std::string(label) == ">1 MiB<")
      EXPECT_EQ(count(svg, label), 0u);
    else
      EXPECT_EQ(count(svg, label), 1u) << label;
  }
  // Times from 4 us to 2 s: decades 1 us .. 10 s.
  for (const char* label : {">1 µs<", ">10 µs<", ">100 µs<", ">1 ms<", ">100 ms<", ">1 s<", ">10 s<"})
    EXPECT_EQ(count(svg, label), 1u) << label;
  EXPECT_EQ(time_label(1e-9), "1 ns");
  EXPECT_EQ(time_label(1e-5), "10 µs");
  EXPECT_EQ(time_label(0.25), "250 ms");
  EXPECT_EQ(time_label(3.0), "3 s");
  EXPECT_EQ(time_label(1000.0), "1000 s");
  // The same figures give the same file.
  EXPECT_EQ(svg, render_size_plot_svg(two_lines()));
}

TEST(SizePlot, RefusesWhatALogAxisCannotShow) {
  EXPECT_THROW(render_size_plot_svg(SizePlot{}), InvalidParameter);
  SizePlot zero{.title = "t", .subtitle = "", .series = {{.name = "A", .points = {{8, 0.0}}}}};
  EXPECT_THROW(render_size_plot_svg(zero), InvalidParameter);
  SizePlot one{.title = "t", .subtitle = "", .series = {{.name = "A", .points = {{8, 1e-6}}}}};
  std::string error;
  EXPECT_TRUE(well_formed(render_size_plot_svg(one), &error)) << error;  // one point: still a plot
}

}  // namespace
}  // namespace ccsched
