// Step pictures (svg.hpp). Geometry is in Graphviz points (1/72 inch); a panel is the
// network layout plus a margin, a title above and the legend below. Paths are straight
// segments between the vertices, shifted to the right of the direction of travel when the
// link has both directions, so that the two channels of a full-duplex link are two lanes.
#include "ccsched/render/svg.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "reduction.hpp"
#include "text.hpp"

namespace ccsched {
namespace {

using render_detail::node_name;
using render_detail::transfer_text;
using render_detail::xml_escape;

constexpr double kMargin = 26.0;  // around the network
constexpr double kTitleHeight = 30.0;
constexpr double kLaneOffset = 3.6;  // half the distance between a link's two lanes
constexpr double kArrowLength = 9.0;
constexpr double kArrowHalfWidth = 4.2;
constexpr double kLegendLine = 15.0;
constexpr double kLegendCharWidth = 6.4;  // 11 px sans-serif, generous
constexpr double kSwitchHeight = 0.42 * 72.0;

struct Point {
  double x = 0.0, y = 0.0;
};
Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
Point operator*(Point a, double k) { return {a.x * k, a.y * k}; }

std::string num(double v) { return fmt::format("{:.1f}", v); }

// Half extent of a vertex drawn as in layout.cpp (circle of the label's width, or a box).
struct Shape {
  bool circle = true;
  double half_width = 15.0;
  double half_height = 15.0;
};

Shape vertex_shape(const Topology& t, NodeId n) {
  const double w = std::max(0.42, 0.11 * static_cast<double>(node_name(t, n).size()) + 0.16) * 72.0;
  if (t.is_processor(n)) return {true, w / 2, w / 2};
  return {false, w / 2, kSwitchHeight / 2};
}

// Distance from the centre to the border of a vertex along the unit direction d.
double border(const Shape& s, Point d) {
  if (s.circle) return s.half_width;
  const double ax = std::abs(d.x), ay = std::abs(d.y);
  const double tx = ax > 1e-9 ? s.half_width / ax : 1e300;
  const double ty = ay > 1e-9 ? s.half_height / ay : 1e300;
  return std::min(tx, ty);
}

struct Segment {
  Point start, end;
  Point direction;
};

// The lane of one channel: from the border of its tail vertex to the border of its head.
Segment lane(const Topology& t, const NetworkLayout& l, ChannelId c, Point origin) {
  const int a = l.channel_from[c], b = l.channel_to[c];
  const Point pa = origin + Point{l.vertices[a].x, l.vertices[a].y};
  const Point pb = origin + Point{l.vertices[b].x, l.vertices[b].y};
  Point d = pb - pa;
  const double len = std::hypot(d.x, d.y);
  d = len > 1e-9 ? d * (1.0 / len) : Point{1.0, 0.0};
  const Point normal{-d.y, d.x};
  const double shift = l.links[l.channel_link[c]].both_ways() ? kLaneOffset : 0.0;
  const double ra = border(vertex_shape(t, l.vertices[a].node), d);
  const double rb = border(vertex_shape(t, l.vertices[b].node), d);
  return {pa + d * ra + normal * shift, pb - d * rb + normal * shift, d};
}

std::string arrowhead(Point tip, Point d, const std::string& colour, const std::string& cls) {
  const Point base = tip - d * kArrowLength;
  const Point normal{-d.y, d.x};
  const Point left = base + normal * kArrowHalfWidth, right = base - normal * kArrowHalfWidth;
  return fmt::format("<polygon class=\"{}\" points=\"{},{} {},{} {},{}\" fill=\"{}\"/>", cls,
                     num(tip.x), num(tip.y), num(left.x), num(left.y), num(right.x), num(right.y),
                     colour);
}

struct Panel {
  std::string body;  // SVG elements, in panel coordinates
  double width = 0.0;
  double height = 0.0;
};

// `replay` is set for a reduction (reduction.hpp): the arrows then carry their blocks and
// input sets, copies are dashed, and every processor says how much its sums hold.
Panel draw_panel(const Schedule& s, const NetworkLayout& l, Step step, const RenderOptions& o,
                 const render_detail::ReductionReplay* replay) {
  const Topology& t = s.topology;
  std::vector<const Transfer*> transfers;
  for (const Transfer& tr : s.transfers)
    if (tr.step == step) transfers.push_back(&tr);

  double max_half = 15.0;
  for (const LayoutVertex& v : l.vertices) {
    const Shape sh = vertex_shape(t, v.node);
    max_half = std::max({max_half, sh.half_width, sh.half_height});
  }
  const Point origin{kMargin + max_half, kTitleHeight + kMargin / 2 + max_half};
  Panel p;
  p.width = std::max(l.width + 2 * (kMargin + max_half), 260.0);
  // Room for the title: "step 10 of 12: 36 transfers, 36/36 channels busy" at ~7.6 pt a
  // character in bold 13 px.
  p.width = std::max(p.width, kMargin + 7.6 * 50.0);
  const double network_bottom = origin.y + l.height + max_half + kMargin / 2;

  // Legend geometry: as many columns as fit.
  std::vector<std::string> entries;
  std::size_t longest = 0;
  std::vector<std::string> carried;  // reductions: "b0 {0,1}" per transfer
  for (const Transfer* tr : transfers) {
    entries.push_back(transfer_text(s, *tr));
    if (replay) {
      const auto index = static_cast<std::size_t>(tr - s.transfers.data());
      carried.push_back(render_detail::carried_text(t, replay->carried[index]));
      entries.back() += " " + carried.back() + (tr->recv == ReductionRecv::copy ? " copy" : "");
    }
    longest = std::max(longest, entries.back().size());
  }
  const double column_width = 26.0 + kLegendCharWidth * static_cast<double>(longest);
  const int columns =
      std::max(1, static_cast<int>((p.width - 2 * kMargin + 12.0) / (column_width + 12.0)));
  const int rows = o.legend ? static_cast<int>((entries.size() + columns - 1) / columns) : 0;
  p.height = network_bottom + (rows > 0 ? rows * kLegendLine + 10.0 : 0.0);

  // Title: step, transfers, channel utilisation.
  std::set<ChannelId> busy;
  for (const Transfer* tr : transfers)
    for (std::size_t i = 0; i + 1 < tr->path.size(); ++i) {
      const NodeId a = tr->path[i], b = tr->path[i + 1];
      if (a < 0 || b < 0 || a >= t.node_count() || b >= t.node_count()) continue;
      if (const auto c = t.find_channel(a, b)) busy.insert(*c);
    }
  const int used = static_cast<int>(busy.size());
  std::string& out = p.body;
  out += fmt::format(
      "<text class=\"title\" x=\"{}\" y=\"20\">step {} of {}: {} transfer{}, {}/{} channels "
      "busy</text>\n",
      num(kMargin / 2), step, s.steps, transfers.size(), transfers.size() == 1 ? "" : "s", used,
      t.channel_count());

  // Idle and busy channels: every link grey first; one-way links carry a grey arrow.
  out += "<g class=\"links\">\n";
  for (const LayoutLink& link : l.links) {
    const ChannelId c = link.forward != kNoChannel ? link.forward : link.backward;
    const Segment sg = lane(t, l, c, origin);
    if (link.both_ways()) {
      // Both lanes as one wider grey band.
      const Segment other = lane(t, l, link.backward, origin);
      const Point mid_start = (sg.start + other.end) * 0.5, mid_end = (sg.end + other.start) * 0.5;
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", num(mid_start.x),
                         num(mid_start.y), num(mid_end.x), num(mid_end.y));
    } else {
      const Point end = sg.end - sg.direction * (kArrowLength * 0.8);
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", num(sg.start.x),
                         num(sg.start.y), num(end.x), num(end.y));
      out += arrowhead(sg.end, sg.direction, "#b8b8b8", "idle-arrow") + "\n";
    }
  }
  out += "</g>\n";

  // Transfers: one coloured path each, an arrow at the receiver.
  out += "<g class=\"transfers\">\n";
  std::string labels;  // reductions: drawn after the paths so that no path covers them
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& tr = *transfers[i];
    const std::string colour = transfer_colour(static_cast<int>(i));
    std::string d;
    int at_vertex = -1;
    bool any = false;
    for (std::size_t h = 0; h + 1 < tr.path.size(); ++h) {
      const NodeId a = tr.path[h], b = tr.path[h + 1];
      if (a < 0 || b < 0 || a >= t.node_count() || b >= t.node_count()) continue;
      const auto c = t.find_channel(a, b);
      if (!c) continue;  // not a channel: nothing to draw (the verifier names it)
      const Segment sg = lane(t, l, *c, origin);
      const bool final_hop = h + 2 == tr.path.size();
      const Point end = final_hop ? sg.end - sg.direction * (kArrowLength - 1.0) : sg.end;
      d += fmt::format("{}{},{} L{},{} ", at_vertex == l.channel_from[*c] ? "L" : "M",
                       num(sg.start.x), num(sg.start.y), num(end.x), num(end.y));
      at_vertex = l.channel_to[*c];
      any = true;
      if (final_hop) {
        out += arrowhead(sg.end, sg.direction, colour, "arrow");
        if (replay) {
          // Beside the middle of the last hop, on the side of its lane.
          const Point mid = (sg.start + sg.end) * 0.5 + Point{-sg.direction.y, sg.direction.x} * 9.0;
          labels += fmt::format(
              "<text class=\"carry\" data-transfer=\"{}\" x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n",
              i, num(mid.x), num(mid.y + 3.5), colour, xml_escape(carried[i]));
        }
      }
    }
    if (!any) continue;
    // A copy replaces the receiver's sum, a reduce adds to it: dashed against solid.
    const bool copy = replay && tr.recv == ReductionRecv::copy;
    out += fmt::format(
        "<path class=\"transfer{}\" d=\"{}\" stroke=\"{}\"{}><title>{}</title></path>\n",
        copy ? " copy" : "", d.substr(0, d.size() - 1), colour,
        copy ? " stroke-dasharray=\"7 4\"" : "", xml_escape(entries[i]));
  }
  out += "</g>\n";
  if (replay) out += "<g class=\"carried\">\n" + labels + "</g>\n";

  // Vertices on top.
  out += "<g class=\"nodes\">\n";
  for (const LayoutVertex& v : l.vertices) {
    const Point c = origin + Point{v.x, v.y};
    const Shape sh = vertex_shape(t, v.node);
    const std::string label = xml_escape(node_name(t, v.node));
    if (sh.circle)
      out += fmt::format("<circle class=\"processor\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>", num(c.x),
                         num(c.y), num(sh.half_width));
    else
      out += fmt::format("<rect class=\"switch\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                         num(c.x - sh.half_width), num(c.y - sh.half_height),
                         num(2 * sh.half_width), num(2 * sh.half_height));
    out += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>\n", num(c.x),
                       num(c.y + 4.0), label);
  }
  out += "</g>\n";

  if (replay) {
    // How many inputs each processor's sums hold after the step, outside the node (away
    // from the middle of the drawing, where the links run).
    const auto& counts = replay->counts_after[static_cast<std::size_t>(step - 1)];
    const Point centre = origin + Point{l.width / 2, l.height / 2};
    out += "<g class=\"sums\">\n";
    for (const LayoutVertex& v : l.vertices) {
      if (!t.is_processor(v.node) || (l.unfolded && !v.receiver_copy)) continue;
      const auto it = counts.find(v.node);
      if (it == counts.end()) continue;
      const Point c = origin + Point{v.x, v.y};
      Point away = c - centre;
      const double len = std::hypot(away.x, away.y);
      away = len > 1e-6 ? away * (1.0 / len) : Point{0.0, -1.0};
      const Point at = c + away * (vertex_shape(t, v.node).half_width + 11.0);
      const bool full = std::all_of(it->second.begin(), it->second.end(),
                                    [&](int k) { return k == replay->inputs; });
      out += fmt::format("<text class=\"acc{}\" data-node=\"{}\" x=\"{}\" y=\"{}\">{}</text>\n",
                         full ? " full" : "", v.node, num(at.x), num(at.y + 4.0),
                         render_detail::count_text(it->second, replay->inputs));
    }
    out += "</g>\n";
  }

  if (o.legend && !entries.empty()) {
    out += "<g class=\"legend\">\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const int col = static_cast<int>(i) % columns, row = static_cast<int>(i) / columns;
      const double x = kMargin / 2 + col * (column_width + 12.0);
      const double y = network_bottom + row * kLegendLine + 8.0;
      out += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"{}/><text x=\"{}\" "
          "y=\"{}\">{}</text>\n",
          num(x), num(y), num(x + 18.0), num(y), transfer_colour(static_cast<int>(i)),
          replay && transfers[i]->recv == ReductionRecv::copy ? " stroke-dasharray=\"5 3\"" : "",
          num(x + 24.0), num(y + 4.0), xml_escape(entries[i]));
    }
    out += "</g>\n";
  }
  return p;
}

// Presentation, shared by every panel (inline, so a file stands alone).
constexpr const char* kStyle =
    "text{font-family:DejaVu Sans,Verdana,Arial,sans-serif;font-size:11px;fill:#222}"
    ".title{font-size:13px;font-weight:bold}"
    ".doc-title{font-size:16px;font-weight:bold}"
    ".links line{stroke:#c4c4c4;stroke-width:2.2}"
    ".transfer{fill:none;stroke-width:2.4;stroke-linejoin:round;stroke-linecap:round}"
    ".processor{fill:#fff;stroke:#333;stroke-width:1.4}"
    ".switch{fill:#eef1f5;stroke:#445;stroke-width:1.2}"
    ".label{text-anchor:middle;font-size:11px}"
    ".legend line{stroke-width:3}"
    ".carry{font-size:10px;text-anchor:middle;paint-order:stroke;stroke:#fff;stroke-width:3px}"
    ".acc{font-size:10px;text-anchor:middle;font-weight:bold;fill:#666}"
    ".acc.full{fill:#1a7f37}";

}  // namespace

std::string transfer_colour(int index) {
  static constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                             "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#0b3d91"};
  constexpr int n = static_cast<int>(std::size(kPalette));
  if (index >= 0 && index < n) return kPalette[index];
  const double hue = std::fmod(static_cast<double>(index - n) * 137.508 + 15.0, 360.0);
  return fmt::format("hsl({:.0f},68%,{}%)", hue, index % 2 ? 38 : 46);
}

std::string render_step_panel(const Schedule& s, const NetworkLayout& layout, Step step,
                              const RenderOptions& options) {
  std::optional<render_detail::ReductionReplay> replay;
  if (is_reduction(s.collective)) replay = render_detail::replay_reduction(s);
  const Panel p = draw_panel(s, layout, step, options, replay ? &*replay : nullptr);
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"step-picture\" viewBox=\"0 0 {} {}\" "
      "width=\"{}\" height=\"{}\"><style>{}</style>\n{}</svg>\n",
      num(p.width), num(p.height), num(p.width), num(p.height), kStyle, p.body);
}

std::string render_steps_svg(const Schedule& s, const RenderOptions& options) {
  const NetworkLayout layout = layout_network(s.topology, options.layout);
  std::optional<render_detail::ReductionReplay> replay;
  if (is_reduction(s.collective)) replay = render_detail::replay_reduction(s);
  std::vector<Panel> panels;
  double cell_w = 0.0, cell_h = 0.0;
  for (Step st = 1; st <= s.steps; ++st) {
    panels.push_back(draw_panel(s, layout, st, options, replay ? &*replay : nullptr));
    cell_w = std::max(cell_w, panels.back().width);
    cell_h = std::max(cell_h, panels.back().height);
  }
  int columns = options.columns;
  if (columns <= 0) columns = std::clamp(static_cast<int>(1500.0 / std::max(cell_w, 1.0)), 1, 4);
  columns = std::max(1, std::min(columns, static_cast<int>(panels.size())));
  const int rows = static_cast<int>((panels.size() + columns - 1) / columns);
  constexpr double kHeader = 34.0, kGap = 14.0;
  const double width = columns * cell_w + (columns - 1) * kGap + 2 * kGap;
  const double height = kHeader + rows * cell_h + (rows - 1) * kGap + kGap;
  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\">\n<style>{2}.panel-frame{{fill:#fff;stroke:#ddd}}</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n"
      "<text class=\"doc-title\" x=\"{3}\" y=\"23\">{4}: {5} step{6}{7}</text>\n",
      num(width), num(height), kStyle, num(kGap), xml_escape(render_detail::schedule_title(s)),
      s.steps, s.steps == 1 ? "" : "s",
      s.lower_bound
          ? fmt::format(", lower bound {}{}", *s.lower_bound,
                        s.optimal          ? " (optimal)"
                        : s.optimal_within ? " (optimal within " + *s.optimal_within + ")"
                                           : std::string())
          : std::string());
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const double x = kGap + static_cast<double>(i % columns) * (cell_w + kGap);
    const double y = kHeader + static_cast<double>(i / columns) * (cell_h + kGap);
    out += fmt::format(
        "<g class=\"step-panel\" id=\"step-{}\" transform=\"translate({},{})\">\n<rect "
        "class=\"panel-frame\" width=\"{}\" height=\"{}\" rx=\"6\"/>\n{}</g>\n",
        i + 1, num(x), num(y), num(cell_w), num(cell_h), panels[i].body);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace ccsched
