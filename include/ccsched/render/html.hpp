// Self-contained HTML reports: one file with inline CSS, inline SVG and inline script, no
// network access needed to open it.
//
// render_report_html — a schedule:
//   - a summary: network, collective, model, lower bound, steps, optimal or not, solver,
//     and the time the seeds' linear model gives (seed 001, eq. (1): the sum over steps
//     of t0 + m_i * t1, with t0 = 1 us, t1 = 0.5 ns/B, m = 1024 B by default — the
//     "typical cluster parameters" of seed 001 §4);
//   - the seeds' table layout: the grid of seed 000 Table 3 / seed 001 Tables 2 and 4 as
//     an HTML table for scatter-type collectives, the trees of seed 000 Table 4 for
//     broadcasts, the steps layout for reductions (tables.hpp);
//   - a per-step table (transfers, channels busy, time);
//   - one picture per step (svg.hpp), shown one at a time with previous / next / all
//     buttons (and the arrow keys), or all at once.
// render_table_html — any table with a summary, in the same style (the degradation table
// of `ccsched faults --html`).
//
// Both pages carry two markers a browser test can read from the DOM (docs/RENDER.md):
// <div id="ccsched-status" data-ready="yes" data-panels="N"> written by the page's script
// once it ran, and <div id="ccsched-errors" data-count="K"> counting script errors caught
// by window.onerror.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/cost/linear.hpp"
#include "ccsched/render/svg.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct ReportOptions {
  RenderOptions render;
  // Seed 001 §4: t0 = 1 us, t1 = 0.5 ns/B, messages of 1024 B (1.512 us per step).
  LinearModel cost{.t0 = 1e-6, .t1 = 0.5e-9, .th = 0.0};
  std::int64_t message_bytes = 1024;
  std::string source;  // where the schedule came from (a file name), shown in the summary
};

std::string render_report_html(const Schedule& s, const ReportOptions& options = {});

struct ReportCell {
  std::string text;
  std::string css_class;  // "degraded", "unproven", "none", "good" or empty
  std::string title;      // tooltip, optional
};

struct TableReport {
  std::string title;
  std::vector<std::pair<std::string, std::string>> summary;  // name, value
  std::vector<std::string> header;
  std::vector<std::vector<ReportCell>> rows;
  std::vector<std::string> notes;  // lines under the table (legend, caveats)
};

std::string render_table_html(const TableReport& report);

}  // namespace ccsched
