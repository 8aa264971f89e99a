// Pictures of a schedule too large for step panels (docs/RENDER.md, "Large schedules"):
// past a few thousand transfers or a thousand processors a panel per step is a blur and
// Graphviz's layout takes minutes, so `render` draws what still reads at that size:
//   - transfers per step (bars; past 1,024 steps, the sums of consecutive steps);
//   - channels in use per step, as a share of the network's channels;
//   - the channel load histogram: how many channels carry 0, 1, 2, ... transfers over the
//     whole schedule (binned past 40 distinct loads);
// and, in the HTML form, the summary and the per-step overview of `ccsched show`
// (tables.hpp) and the first transfers. Time and memory grow with the transfers only (a
// few arrays by step, node and channel); no layout of the network is computed.
//
//   std::string svg = render_summary_svg(schedule);
//   std::string html = render_summary_html(schedule, report_options, 100);
#pragma once

#include <string>

#include "ccsched/render/html.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// One SVG document with the three charts under a title naming the network, the collective
// and why it is a summary (`reason`, e.g. "16,773,120 transfers, more than --max-transfers
// 20000").
std::string render_summary_svg(const Schedule& s, const std::string& reason = {});

// A self-contained HTML page: summary, the SVG above, the per-step overview and the first
// `first_transfers` transfers; it carries the markers of render_report_html (html.hpp)
// with data-panels="0".
std::string render_summary_html(const Schedule& s, const ReportOptions& options,
                                const std::string& reason = {}, int first_transfers = 100);

}  // namespace ccsched
