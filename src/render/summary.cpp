// Summary pictures of large schedules (summary.hpp).
#include "ccsched/render/summary.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ccsched/core/text.hpp"
#include "ccsched/schedule/tables.hpp"

namespace ccsched {
namespace {

// The figures the charts draw, in one pass over the transfers.
struct Figures {
  std::vector<long long> transfers;  // per step 1..steps (index step - 1)
  std::vector<long long> channels;   // distinct channels in use per step
  std::vector<long long> load;       // per channel: transfers holding it, all steps
};

Figures figures_of(const Schedule& s) {
  const Topology& t = s.topology;
  const auto steps = static_cast<std::size_t>(std::max(s.steps, 0));
  Figures f{.transfers = std::vector<long long>(steps, 0),
            .channels = std::vector<long long>(steps, 0),
            .load = std::vector<long long>(static_cast<std::size_t>(t.channel_count()), 0)};
  std::vector<Step> stamp(f.load.size(), 0);  // the last step a channel was counted in
  // Channels per step are counted with stamps, so the transfers are visited by step.
  std::vector<std::size_t> start(steps + 1, 0);
  for (const Transfer& tr : s.transfers)
    if (tr.step >= 1 && static_cast<std::size_t>(tr.step) <= steps) ++start[tr.step];
  for (std::size_t i = 0; i < steps; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> order(start.back()), next(start.begin(), start.end() - 1);
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Step st = s.transfers[k].step;
    if (st >= 1 && static_cast<std::size_t>(st) <= steps) order[next[st - 1]++] = k;
  }
  const auto valid = [&](NodeId v) { return v >= 0 && v < t.node_count(); };
  for (const std::size_t k : order) {
    const Transfer& tr = s.transfers[k];
    ++f.transfers[tr.step - 1];
    for (std::size_t j = 0; j + 1 < tr.path.size(); ++j) {
      if (!valid(tr.path[j]) || !valid(tr.path[j + 1])) continue;
      const auto c = t.find_channel(tr.path[j], tr.path[j + 1]);
      if (!c) continue;
      ++f.load[*c];
      if (stamp[*c] == tr.step) continue;
      stamp[*c] = tr.step;
      ++f.channels[tr.step - 1];
    }
  }
  return f;
}

std::string escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

constexpr int kWidth = 900;  // of a chart's plotting area
constexpr int kHeight = 160;
constexpr int kLeft = 70;          // room for the axis labels
constexpr int kChartHeight = 230;  // plotting area, title and axis labels
constexpr std::size_t kMaxBars = 1024;

// A bar chart at vertical offset `top`: `values[i]` for the x labels `first` + i * `group`
// (the values already summed or maximised over groups), y up to `top_value`.
std::string bar_chart(int top, const std::string& title, const std::string& x_label,
                      const std::vector<double>& values, double top_value,
                      const std::string& y_top_label, const std::string& colour, long long first_x,
                      long long last_x) {
  std::string out = fmt::format(
      "<g transform=\"translate({},{})\">\n<text x=\"0\" y=\"-10\" font-size=\"14\" "
      "font-weight=\"bold\">{}</text>\n",
      kLeft, top + 30, escape(title));
  out += fmt::format(
      "<line x1=\"0\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#444\"/>\n<line x1=\"0\" "
      "y1=\"0\" x2=\"0\" y2=\"{0}\" stroke=\"#444\"/>\n",
      kHeight, kWidth);
  out += fmt::format(
      "<text x=\"-6\" y=\"10\" font-size=\"11\" text-anchor=\"end\">{}</text>\n<text x=\"-6\" "
      "y=\"{}\" font-size=\"11\" text-anchor=\"end\">0</text>\n",
      escape(y_top_label), kHeight);
  out += fmt::format(
      "<text x=\"0\" y=\"{0}\" font-size=\"11\">{1}</text>\n<text x=\"{2}\" y=\"{0}\" "
      "font-size=\"11\" text-anchor=\"end\">{3}</text>\n<text x=\"{4}\" y=\"{0}\" "
      "font-size=\"11\" text-anchor=\"middle\">{5}</text>\n",
      kHeight + 16, first_x, kWidth, last_x, kWidth / 2, escape(x_label));
  const double bar = values.empty() ? 0.0 : static_cast<double>(kWidth) / values.size();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] <= 0 || top_value <= 0) continue;
    const double h = kHeight * std::min(1.0, values[i] / top_value);
    out += fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\"/>\n",
        i * bar, kHeight - h, std::max(bar * 0.85, 0.5), h, colour);
  }
  return out + "</g>\n";
}

}  // namespace

std::string render_summary_svg(const Schedule& s, const std::string& reason) {
  const Figures f = figures_of(s);
  const Topology& t = s.topology;
  // Past kMaxBars steps, consecutive steps share a bar: sums of transfers, the most
  // channels of one step.
  const std::size_t steps = f.transfers.size();
  const std::size_t group = std::max<std::size_t>(1, (steps + kMaxBars - 1) / kMaxBars);
  std::vector<double> transfers, channels;
  for (std::size_t i = 0; i < steps; i += group) {
    double sum = 0, most = 0;
    for (std::size_t j = i; j < std::min(steps, i + group); ++j) {
      sum += static_cast<double>(f.transfers[j]);
      most = std::max(most, static_cast<double>(f.channels[j]));
    }
    transfers.push_back(sum);
    channels.push_back(most);
  }
  const double most_transfers =
      transfers.empty() ? 0.0 : *std::max_element(transfers.begin(), transfers.end());
  // The load histogram: channels by the transfers they carry, binned past 40 loads.
  const long long max_load = f.load.empty() ? 0 : *std::max_element(f.load.begin(), f.load.end());
  const long long bin = std::max<long long>(1, (max_load + 40) / 40);
  std::vector<double> histogram(static_cast<std::size_t>(max_load / bin + 1), 0.0);
  for (const long long l : f.load) histogram[static_cast<std::size_t>(l / bin)] += 1;
  const double most_channels =
      histogram.empty() ? 0.0 : *std::max_element(histogram.begin(), histogram.end());

  const int height = 60 + 3 * kChartHeight;
  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{}\" height=\"{}\" font-family=\"sans-serif\">\n<rect width=\"100%\" "
      "height=\"100%\" fill=\"white\"/>\n",
      kLeft + kWidth + 30, height);
  const std::string group_text = group > 1 ? fmt::format(" ({} steps a bar)", group) : "";
  out += fmt::format(
      "<text x=\"{}\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{} on {}: {} in {} "
      "(summary{}{})</text>\n",
      kLeft, to_string(s.collective.kind), escape(t.name().empty() ? "(unnamed)" : t.name()),
      plural(s.transfers.size(), "transfer"), plural(s.steps, "step"), reason.empty() ? "" : ": ",
      escape(reason));
  out += bar_chart(40, "transfers per step" + group_text, "step", transfers, most_transfers,
                   fmt::format("{}", static_cast<long long>(most_transfers)), "#1f77b4", 1,
                   static_cast<long long>(steps));
  out += bar_chart(40 + kChartHeight,
                   fmt::format("channels in use per step, of {}{}", t.channel_count(),
                               group > 1 ? " (the most in a bar's steps)" : ""),
                   "step", channels, t.channel_count(), "100 %", "#2ca02c", 1,
                   static_cast<long long>(steps));
  out += bar_chart(40 + 2 * kChartHeight,
                   fmt::format("channel load: channels by the transfers they carry{}",
                               bin > 1 ? fmt::format(" ({} loads a bar)", bin) : ""),
                   "transfers carried over the whole schedule", histogram, most_channels,
                   fmt::format("{} channels", static_cast<long long>(most_channels)), "#ff7f0e", 0,
                   max_load);
  return out + "</svg>\n";
}

std::string render_summary_html(const Schedule& s, const ReportOptions& options,
                                const std::string& reason, int first_transfers) {
  std::string svg = render_summary_svg(s, reason);
  svg.erase(0, svg.find("<svg"));  // inline: no XML declaration
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>ccsched: summary of " +
      escape(options.source.empty() ? s.topology.name() : options.source) +
      "</title>\n<style>body{font-family:sans-serif;margin:2em}pre{background:#f6f6f6;"
      "padding:1em;overflow:auto}</style></head><body>\n";
  out += "<h1>" + escape(options.source.empty() ? "schedule" : options.source) + "</h1>\n";
  if (!reason.empty())
    out += "<p>" + escape(reason) + ": a summary instead of the step pictures.</p>\n";
  out += "<pre>" + escape(format_schedule_summary(s)) + "</pre>\n" + svg;
  out += "<h2>Steps</h2>\n<pre>" + escape(format_schedule_overview(s)) + "</pre>\n";
  const std::size_t shown =
      std::min(s.transfers.size(), static_cast<std::size_t>(std::max(first_transfers, 0)));
  out += fmt::format("<h2>The first {} of {}</h2>\n<pre>", shown,
                     plural(s.transfers.size(), "transfer"));
  for (std::size_t k = 0; k < shown; ++k) {
    const Transfer& tr = s.transfers[k];
    std::string path, carried;
    for (const NodeId v : tr.path) {
      if (!path.empty()) path += '-';
      path += std::to_string(v);
    }
    for (const MessageId m : tr.messages) {
      carried += carried.empty() ? " m" : ",m";
      carried += std::to_string(m);
    }
    for (const int b : tr.blocks) {
      carried += carried.empty() ? " b" : ",b";
      carried += std::to_string(b);
    }
    out += fmt::format("step {}: {}{}\n", tr.step, path, carried);
  }
  out += "</pre>\n";
  out +=
      "<div id=\"ccsched-errors\" data-count=\"0\"></div>\n<div id=\"ccsched-status\" "
      "data-ready=\"no\" data-panels=\"0\"></div>\n<script>\nwindow.onerror=function(){var "
      "e=document.getElementById('ccsched-errors');e.dataset.count=String(+e.dataset.count+1);};"
      "\ndocument.getElementById('ccsched-status').dataset.ready='yes';\n</script>\n"
      "</body></html>\n";
  return out;
}

}  // namespace ccsched
