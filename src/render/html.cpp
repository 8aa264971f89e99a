// HTML reports (html.hpp). Everything the page needs is inline; the script is plain ES5 so
// that any browser runs it, and it reports that it ran (and any error) in the DOM.
#include "ccsched/render/html.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "ccsched/cost/units.hpp"
#include "ccsched/schedule/tables.hpp"
#include "text.hpp"

namespace ccsched {
namespace {

using render_detail::node_name;
using render_detail::xml_escape;

constexpr const char* kPageStyle = R"(
body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:24px;color:#222;background:#fafafa}
h1{font-size:20px;margin:0 0 12px}
h2{font-size:16px;margin:24px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;background:#fff}
td,th{border:1px solid #d4d4d4;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f2f5}
table.summary th{width:11em}
table.grid td,table.grid th{text-align:center;font-family:"DejaVu Sans Mono",monospace}
table.grid td.src{font-weight:bold}
table.numbers td{text-align:right;font-family:"DejaVu Sans Mono",monospace}
pre{background:#fff;border:1px solid #d4d4d4;padding:8px;overflow-x:auto}
.controls{margin:8px 0;display:flex;gap:8px;align-items:center}
.controls button{font-size:14px;padding:4px 12px;cursor:pointer}
#step-label{font-weight:bold;min-width:8em}
.step-panel{background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px;margin:0 0 12px;
  display:inline-block;vertical-align:top}
.step-panel svg{max-width:100%;height:auto}
.panels.one .step-panel{display:none}
.panels.one .step-panel.current{display:block;max-width:900px}
.panels.one .step-panel.current svg{width:100%}
a.step-link{color:inherit}
td.degraded{background:#fde2e1;font-weight:bold}
td.unproven{background:#fff4d6}
td.none{color:#999}
.note{color:#555;font-size:13px}
#ccsched-status,#ccsched-errors{font-size:12px;color:#777;margin-top:24px}
@media print{.controls{display:none}.panels.one .step-panel{display:inline-block}}
)";

// Registered first, so that errors in any later script are counted.
constexpr const char* kErrorScript = R"(<div id="ccsched-errors" data-count="0"></div>
<script>
window.onerror = function (message, source, line) {
  var box = document.getElementById('ccsched-errors');
  var n = parseInt(box.getAttribute('data-count'), 10) + 1;
  box.setAttribute('data-count', String(n));
  box.appendChild(document.createTextNode('script error: ' + message + ' (line ' + line + ') '));
  return false;
};
</script>
)";

// Step-through for the panels, then the status marker.
constexpr const char* kPanelScript = R"(<script>
(function () {
  var panels = document.querySelectorAll('.step-panel');
  var box = document.getElementById('panels');
  var label = document.getElementById('step-label');
  var current = 0;
  function show(i) {
    if (panels.length === 0) { return; }
    current = (i + panels.length) % panels.length;
    for (var k = 0; k < panels.length; ++k) {
      panels[k].className = panels[k].className.replace(/ ?current/g, '') +
        (k === current ? ' current' : '');
    }
    if (box) { box.className = 'panels one'; }
    if (label) { label.textContent = 'step ' + (current + 1) + ' of ' + panels.length; }
  }
  function all() {
    if (box) { box.className = 'panels all'; }
    if (label) { label.textContent = 'all ' + panels.length + ' steps'; }
  }
  function on(id, f) {
    var b = document.getElementById(id);
    if (b) { b.addEventListener('click', f); }
  }
  on('prev', function () { show(current - 1); });
  on('next', function () { show(current + 1); });
  on('all', all);
  var links = document.querySelectorAll('a.step-link');
  for (var k = 0; k < links.length; ++k) {
    links[k].addEventListener('click', function (e) {
      e.preventDefault();
      show(parseInt(this.getAttribute('data-step'), 10) - 1);
      document.getElementById('pictures').scrollIntoView();
    });
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') { show(current + 1); }
    if (e.key === 'ArrowLeft') { show(current - 1); }
  });
  if (panels.length > 0) { show(0); }
  var status = document.getElementById('ccsched-status');
  status.setAttribute('data-panels', String(panels.length));
  status.setAttribute('data-ready', 'yes');
  status.textContent = 'rendered ' + panels.length + ' step panels';
})();
</script>
)";

constexpr const char* kStatusScript = R"(<script>
(function () {
  var status = document.getElementById('ccsched-status');
  var rows = document.querySelectorAll('table.report tbody tr');
  status.setAttribute('data-rows', String(rows.length));
  status.setAttribute('data-panels', '0');
  status.setAttribute('data-ready', 'yes');
  status.textContent = 'rendered ' + rows.length + ' table rows';
})();
</script>
)";

std::string page_head(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"ccsched 0.1.0\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n{}",
      xml_escape(title), kPageStyle, kErrorScript);
}

std::string summary_table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string out = "<table class=\"summary\">\n";
  for (const auto& [name, value] : rows)
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", xml_escape(name), value);
  return out + "</table>\n";
}

// "name:   value" lines of format_schedule_summary -> (name, escaped value) rows, so the
// report says exactly what `ccsched show` says.
std::vector<std::pair<std::string, std::string>> summary_rows(const Schedule& s) {
  std::vector<std::pair<std::string, std::string>> rows;
  const std::string text = format_schedule_summary(s);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    rows.emplace_back(line.substr(0, colon), xml_escape(value));
  }
  return rows;
}

std::string step_link(Step step) {
  return fmt::format("<a class=\"step-link\" href=\"#step-{0}\" data-step=\"{0}\">{0}</a>", step);
}

// Seed 000 Table 3: a row per sending processor, a column per step, the destinations of
// its transfers in the cells (tables.hpp, grid layout).
std::string grid_table(const Schedule& s) {
  const Topology& t = s.topology;
  std::set<NodeId> senders(s.collective.senders.begin(), s.collective.senders.end());
  for (const Transfer& tr : s.transfers)
    if (!tr.path.empty()) senders.insert(tr.path.front());
  std::map<NodeId, std::vector<std::vector<std::string>>> cells;
  for (const NodeId n : senders) cells[n].resize(static_cast<std::size_t>(std::max(s.steps, 0)));
  for (const Transfer& tr : s.transfers) {
    if (tr.path.empty() || tr.step < 1 || tr.step > s.steps) continue;
    std::string entry = node_name(t, tr.path.back());
    const std::string text = render_detail::transfer_text(s, tr);
    if (const auto m = text.find(" m"); m != std::string::npos) {
      std::string ids = text.substr(m + 1);
      entry += "(" + ids + ")";
    }
    cells[tr.path.front()][static_cast<std::size_t>(tr.step - 1)].push_back(entry);
  }
  std::string out = "<table class=\"grid\">\n<thead><tr><th>src \\ step</th>";
  for (Step st = 1; st <= s.steps; ++st) out += "<th>" + step_link(st) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& [node, by_step] : cells) {
    out += fmt::format("<tr><td class=\"src\">{}</td>", xml_escape(node_name(t, node)));
    for (const auto& entries : by_step)
      out += fmt::format(
          "<td>{}</td>",
          entries.empty() ? "-" : xml_escape(fmt::format("{}", fmt::join(entries, ","))));
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace

std::string render_report_html(const Schedule& s, const ReportOptions& options) {
  const bool reduction = is_reduction(s.collective);
  const NetworkLayout layout = layout_network(s.topology, options.render.layout);
  const ScheduleCost cost = linear_cost(s, options.cost, options.message_bytes);
  const auto utilisation = channel_utilisation(s);
  const std::string title = render_detail::schedule_title(s);

  std::string out = page_head("ccsched: " + title);
  out +=
      fmt::format("<h1>{}: {} step{}</h1>\n", xml_escape(title), s.steps, s.steps == 1 ? "" : "s");

  auto rows = summary_rows(s);
  if (!options.source.empty()) rows.insert(rows.begin(), {"schedule", xml_escape(options.source)});
  rows.emplace_back(
      "time estimate",
      fmt::format("{} &micro;s by the linear model t = &Sigma;<sub>i</sub> (t<sub>0</sub> + "
                  "m<sub>i</sub> t<sub>1</sub>) (seed 001, eq. (1)), with t<sub>0</sub> = {} "
                  "&micro;s, t<sub>1</sub> = {} ns/B, m = {} B per {}{}",
                  format_us(cost.total_seconds),
                  format_us(options.cost.t0), fmt::format("{:g}", options.cost.t1 * 1e9),
                  options.message_bytes,
                  reduction ? "input vector, split into its blocks" : "message",
                  options.cost.th > 0 ? fmt::format(", t<sub>h</sub> = {} &micro;s per hop",
                                                    format_us(options.cost.th))
                                      : std::string()));
  rows.emplace_back("layout", fmt::format("Graphviz {}{}", to_string(layout.engine),
                                          layout.unfolded ? ", processors drawn as senders (left) "
                                                            "and receivers (right)"
                                                          : ""));
  out += "<h2>Summary</h2>\n" + summary_table(rows);

  out += "<h2>Schedule</h2>\n";
  if (reduction) {
    // tables.hpp "steps": per step, who adds (reduce) or copies what into whom.
    out +=
        "<p class=\"note\">Per step, each transfer's blocks and what its receiver does with "
        "them (FORMATS.md \"Reductions\"): <i>reduce</i> adds the value into the receiver's "
        "accumulator, <i>copy</i> replaces it.</p>\n";
    out += "<pre>" + xml_escape(format_schedule_table(s, TableLayout::steps)) + "</pre>\n";
  } else if (resolve_layout(s, TableLayout::automatic) == TableLayout::grid) {
    out +=
        "<p class=\"note\">Seed 000 Table 3 layout: a row per sending processor, a column "
        "per step, the destinations of its transfers in the cells (m<i>k</i>: a forwarded "
        "or combined message).</p>\n";
    out += grid_table(s);
  } else {
    out +=
        "<p class=\"note\">Seed 000 Table 4 layout: per message source, its subtrees as "
        "root-to-leaf paths; position <i>i</i> after the source is step <i>i</i>, x marks a "
        "step in which the message does not move.</p>\n";
    out += "<pre>" + xml_escape(format_schedule_table(s, TableLayout::trees)) + "</pre>\n";
  }

  out +=
      "<h2>Steps</h2>\n<table class=\"numbers\">\n<thead><tr><th>step</th><th>transfers</th>"
      "<th>channels busy</th><th>longest message (B)</th><th>time (&micro;s)</th></tr>"
      "</thead>\n<tbody>\n";
  for (Step st = 1; st <= s.steps; ++st) {
    const auto& u = utilisation[static_cast<std::size_t>(st - 1)];
    const auto& c = cost.steps[static_cast<std::size_t>(st - 1)];
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}/{} ({:.1f} %)</td><td>{}</td><td>{}</td></tr>\n",
        step_link(st), c.transfers, u.channels_used, u.channels_available, u.percent(), c.bytes,
        format_us(c.seconds));
  }
  out += fmt::format("<tr><th>total</th><td></td><td></td><td></td><td>{}</td></tr>\n",
                     format_us(cost.total_seconds));
  out += "</tbody>\n</table>\n";

  out +=
      "<h2 id=\"pictures\">Pictures</h2>\n<div class=\"controls\">"
      "<button id=\"prev\" type=\"button\">&#9664; previous</button>"
      "<span id=\"step-label\"></span>"
      "<button id=\"next\" type=\"button\">next &#9654;</button>"
      "<button id=\"all\" type=\"button\">all steps</button></div>\n"
      "<p class=\"note\">Each transfer of the step is a coloured path with an arrow at its "
      "receiver; grey channels are idle; circles are processors, squares switches. Arrow "
      "keys step through.";
  if (reduction)
    out +=
        " A reduction's arrows are labelled with the block and the inputs its value sums "
        "(as it stood at the start of the step); solid arrows add into the receiver's sum, "
        "dashed ones (copy) replace it; beside each processor, how many of the inputs its "
        "accumulator holds after the step (one count per block, green when complete).";
  out += "</p>\n<div id=\"panels\" class=\"panels all\">\n";
  for (Step st = 1; st <= s.steps; ++st)
    out += fmt::format("<div class=\"step-panel\" id=\"step-{}\" data-step=\"{}\">\n{}</div>\n", st,
                       st, render_step_panel(s, layout, st, options.render));
  out += "</div>\n<div id=\"ccsched-status\" data-ready=\"no\" data-panels=\"0\"></div>\n";
  out += kPanelScript;
  out += "</body>\n</html>\n";
  return out;
}

std::string render_table_html(const TableReport& report) {
  std::string out = page_head("ccsched: " + report.title);
  out += fmt::format("<h1>{}</h1>\n", xml_escape(report.title));
  if (!report.summary.empty()) {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& [name, value] : report.summary) rows.emplace_back(name, xml_escape(value));
    out += "<h2>Summary</h2>\n" + summary_table(rows);
  }
  out += "<h2>Table</h2>\n<table class=\"report grid\">\n<thead><tr>";
  for (const auto& h : report.header) out += "<th>" + xml_escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : report.rows) {
    out += "<tr>";
    for (const auto& cell : row) {
      std::string attrs;
      if (!cell.css_class.empty())
        attrs += fmt::format(" class=\"{}\"", xml_escape(cell.css_class));
      if (!cell.title.empty()) attrs += fmt::format(" title=\"{}\"", xml_escape(cell.title));
      out += fmt::format("<td{}>{}</td>", attrs, xml_escape(cell.text));
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>\n";
  for (const auto& note : report.notes)
    out += fmt::format("<p class=\"note\">{}</p>\n", xml_escape(note));
  out += "<div id=\"ccsched-status\" data-ready=\"no\" data-panels=\"0\"></div>\n";
  out += kStatusScript;
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace ccsched
