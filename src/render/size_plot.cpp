// Time against message size, log-log (size_plot.hpp). Geometry in SVG user units (px): the
// plotting area, the axes' labels around it, the legend below.
#include "ccsched/render/size_plot.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/crossover.hpp"
#include "ccsched/render/svg.hpp"
#include "text.hpp"

namespace ccsched {
namespace {

using render_detail::xml_escape;

constexpr double kLeft = 84.0;  // room for the time labels
constexpr double kTop = 58.0;   // title and subtitle
constexpr double kPlotWidth = 700.0;
constexpr double kPlotHeight = 400.0;
constexpr double kRight = 36.0;
constexpr double kLegendTop = 62.0;  // below the plotting area: size labels, axis name
constexpr double kLegendLine = 19.0;

std::string num(double v) { return fmt::format("{:.1f}", v); }

// The labelled ticks: every `step`-th of the integers lo..hi, `step` the smallest of
// 1, 2, 3, 5, 10, ... that leaves at most `most` labels.
int label_step(int lo, int hi, int most) {
  for (const int step : {1, 2, 3, 5, 10, 20})
    if ((hi - lo) / step + 1 <= most) return step;
  return 50;
}

// A marker of shape k % 4 (circle, square, triangle, diamond) centred on (x, y), so that
// lines stay apart in grey print and where they overlap.
std::string marker(int k, double x, double y, const std::string& colour) {
  switch (k % 4) {
    case 0:
      return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3.6\" fill=\"{}\"/>", num(x), num(y),
                         colour);
    case 1:
      return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"6.6\" height=\"6.6\" fill=\"{}\"/>",
                         num(x - 3.3), num(y - 3.3), colour);
    case 2:
      return fmt::format("<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{}\"/>", num(x), num(y - 4.4),
                         num(x + 4.2), num(y + 3.2), num(x - 4.2), num(y + 3.2), colour);
    default:
      return fmt::format("<path d=\"M{} {}L{} {}L{} {}L{} {}Z\" fill=\"{}\"/>", num(x),
                         num(y - 4.6), num(x + 4.0), num(y), num(x), num(y + 4.6), num(x - 4.0),
                         num(y), colour);
  }
}

constexpr const char* kStyle =
    "text{font-family:sans-serif;font-size:12px;fill:#222}"
    ".title{font-size:15px;font-weight:bold}"
    ".subtitle{fill:#555}"
    ".frame{fill:none;stroke:#444;stroke-width:1}"
    ".grid{stroke:#ddd;stroke-width:1}"
    ".tick{stroke:#444;stroke-width:1}"
    ".xlabel{text-anchor:middle}"
    ".ylabel{text-anchor:end}"
    ".axis{text-anchor:middle;fill:#444}"
    ".series{fill:none;stroke-width:2;stroke-linejoin:round}";

}  // namespace

std::string time_label(double seconds) {
  const double a = std::abs(seconds);
  if (a == 0.0) return "0 s";
  if (a < 1e-6) return fmt::format("{:.3g} ns", seconds * 1e9);
  if (a < 1e-3) return fmt::format("{:.3g} µs", seconds * 1e6);
  if (a < 1.0) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.{}g} s", seconds, a < 1000.0 ? 3 : 7);  // "1000 s", not "1e+03 s"
}

std::string render_size_plot_svg(const SizePlot& plot) {
  // The ranges, in whole powers of 2 (sizes) and of 10 (times).
  double bmin = 0, bmax = 0, tmin = 0, tmax = 0;
  bool any = false;
  for (const SizeSeries& s : plot.series)
    for (const SizePoint& p : s.points) {
      if (p.bytes <= 0 || !(p.seconds > 0.0) || !std::isfinite(p.seconds))
        throw InvalidParameter(
            fmt::format("{}: a log-log plot needs positive sizes and times ({} B, {} s)", s.name,
                        p.bytes, p.seconds),
            "plot");
      const double b = static_cast<double>(p.bytes);
      bmin = any ? std::min(bmin, b) : b;
      bmax = any ? std::max(bmax, b) : b;
      tmin = any ? std::min(tmin, p.seconds) : p.seconds;
      tmax = any ? std::max(tmax, p.seconds) : p.seconds;
      any = true;
    }
  if (!any) throw InvalidParameter("nothing to plot: no schedule applies at any size", "plot");
  const int x_lo = static_cast<int>(std::floor(std::log2(bmin) + 1e-9));
  int x_hi = static_cast<int>(std::ceil(std::log2(bmax) - 1e-9));
  if (x_hi <= x_lo) x_hi = x_lo + 1;
  const int y_lo = static_cast<int>(std::floor(std::log10(tmin) + 1e-9));
  int y_hi = static_cast<int>(std::ceil(std::log10(tmax) - 1e-9));
  if (y_hi <= y_lo) y_hi = y_lo + 1;
  const auto x_of = [&](double bytes) {
    return kLeft + (std::log2(bytes) - x_lo) / (x_hi - x_lo) * kPlotWidth;
  };
  const auto y_of = [&](double seconds) {
    return kTop + kPlotHeight - (std::log10(seconds) - y_lo) / (y_hi - y_lo) * kPlotHeight;
  };

  const double width = kLeft + kPlotWidth + kRight;
  const double height =
      kTop + kPlotHeight + kLegendTop + kLegendLine * static_cast<double>(plot.series.size()) + 12.0;
  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"size-plot\" viewBox=\"0 0 {0} {1}\" "
      "width=\"{0}\" height=\"{1}\">\n<style>{2}</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
      num(width), num(height), kStyle);
  out += fmt::format("<text class=\"title\" x=\"{}\" y=\"22\">{}</text>\n", num(kLeft),
                     xml_escape(plot.title));
  if (!plot.subtitle.empty())
    out += fmt::format("<text class=\"subtitle\" x=\"{}\" y=\"41\">{}</text>\n", num(kLeft),
                       xml_escape(plot.subtitle));

  // Grid and ticks: every power of 2 (sizes) and of 10 (times) gets a tick, the labelled
  // ones a grid line too.
  const double bottom = kTop + kPlotHeight;
  const int x_step = label_step(x_lo, x_hi, 11);
  for (int k = x_lo; k <= x_hi; ++k) {
    const double x = x_of(std::ldexp(1.0, k));
    const bool labelled = k % x_step == 0;
    if (labelled) {
      out += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", num(x),
                         num(kTop), num(bottom));
      out += fmt::format("<text class=\"xlabel\" x=\"{}\" y=\"{}\">{}</text>", num(x),
                         num(bottom + 18), xml_escape(format_bytes(std::int64_t{1} << k)));
    }
    out += fmt::format("<line class=\"tick\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n",
                       num(x), num(bottom), num(bottom + (labelled ? 6 : 3)));
  }
  const int y_step = label_step(y_lo, y_hi, 12);
  for (int k = y_lo; k <= y_hi; ++k) {
    const double y = y_of(std::pow(10.0, k));
    const bool labelled = k % y_step == 0;
    if (labelled) {
      out += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>",
                         num(kLeft), num(kLeft + kPlotWidth), num(y));
      out += fmt::format("<text class=\"ylabel\" x=\"{}\" y=\"{}\">{}</text>", num(kLeft - 9),
                         num(y + 4), xml_escape(time_label(std::pow(10.0, k))));
    }
    out += fmt::format("<line class=\"tick\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>\n",
                       num(kLeft - (labelled ? 6 : 3)), num(kLeft), num(y));
  }
  out += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                     num(kLeft), num(kTop), num(kPlotWidth), num(kPlotHeight));
  out += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\">message size</text>\n",
                     num(kLeft + kPlotWidth / 2), num(bottom + 38));
  out += fmt::format(
      "<text class=\"axis\" transform=\"translate(16 {}) rotate(-90)\">estimated time</text>\n",
      num(kTop + kPlotHeight / 2));

  // The series: a line through the points in order of size, a marker on each.
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const SizeSeries& s = plot.series[k];
    const std::string colour = transfer_colour(static_cast<int>(k));
    std::vector<SizePoint> points = s.points;
    std::stable_sort(points.begin(), points.end(),
                     [](const SizePoint& a, const SizePoint& b) { return a.bytes < b.bytes; });
    std::string coords, marks;
    for (const SizePoint& p : points) {
      const double x = x_of(static_cast<double>(p.bytes)), y = y_of(p.seconds);
      if (!coords.empty()) coords += ' ';
      coords += fmt::format("{:.1f},{:.1f}", x, y);
      marks += marker(static_cast<int>(k), x, y, colour);
    }
    out += fmt::format("<g data-series=\"{}\"><title>{}</title>\n", k, xml_escape(s.name));
    if (!points.empty())
      out += fmt::format("<polyline class=\"series\" stroke=\"{}\" points=\"{}\"/>\n{}\n", colour,
                         coords, marks);
    out += "</g>\n";
    // The legend: a short line with the marker, then the name.
    const double ly = bottom + kLegendTop + kLegendLine * static_cast<double>(k);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\"/>{4}"
        "<text x=\"{5}\" y=\"{6}\">{7}</text>\n",
        num(kLeft), num(kLeft + 30), num(ly), colour, marker(static_cast<int>(k), kLeft + 15, ly, colour),
        num(kLeft + 40), num(ly + 4), xml_escape(s.name));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace ccsched
