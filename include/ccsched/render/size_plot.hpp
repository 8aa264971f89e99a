// Time against message size, log-log: the picture of `ccsched cost --crossover --plot`
// (docs/COST.md, "Choosing a schedule by message size"; docs/RENDER.md, "Time by message
// size"), drawn the way the Swing (NSDI 2024) and TACOS (MICRO 2024) papers compare
// collective algorithms: one line with markers per schedule, the message size on the x
// axis (ticks at powers of 2: 8 B, 1 KiB, 1 MiB, 1 GiB), the time on the y axis (ticks at
// powers of 10: 1 µs, 10 ms, 1 s), and a legend naming each line.
//
//   SizePlot plot{.title = "ALLREDUCE on torus:4x4", .subtitle = "t0 = 1 us, t1 = 1 ns/B"};
//   plot.series.push_back({.name = "A  recursive-doubling, 1 block", .points = {{8, 4e-6}, ...}});
//   std::string svg = render_size_plot_svg(plot);
//
// A series' points are drawn in order of size (the writer sorts them); a size where a
// schedule does not apply (a vector smaller than its block count) is simply absent. The
// picture depends only on its input: same figures, same file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ccsched {

struct SizePoint {
  std::int64_t bytes = 0;  // > 0
  double seconds = 0.0;    // > 0
};

struct SizeSeries {
  std::string name;
  std::vector<SizePoint> points;
};

struct SizePlot {
  std::string title;
  std::string subtitle;  // the model's parameters, under the title
  std::vector<SizeSeries> series;
};

// One SVG document (with the XML declaration). Throws InvalidParameter when no series has a
// point, or a point has a size or time that is not positive (a log axis cannot show it).
std::string render_size_plot_svg(const SizePlot& plot);

// A time axis label: "1 ns", "100 µs", "10 ms", "1 s" (3 significant digits). Size
// labels are format_bytes's ("8 B", "4 KiB", "1 GiB"; cost/crossover.hpp).
std::string time_label(double seconds);

}  // namespace ccsched
