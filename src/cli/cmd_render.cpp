// `ccsched render FILE -o steps.svg|report.html`: pictures of a schedule, one panel per
// step (seed 000 Figs. 2 and 4, seed 001 Figs. 9 and 10), or a self-contained HTML report
// with the summary, the seeds' table, the pictures and step-through buttons. The output's
// extension picks the form; the schedule must pass `verify`. Past --max-transfers (20,000)
// or --max-processors (1,024) it draws a summary instead (summary.hpp): transfers and
// channels per step, the channel load histogram. docs/RENDER.md.
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/units.hpp"
#include "ccsched/render/html.hpp"
#include "ccsched/render/summary.hpp"
#include "ccsched/render/svg.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "verified_schedule.hpp"

namespace ccsched::cli {
namespace {

struct RenderCliOptions {
  std::string file;
  std::string output;
  std::string layout = "auto";
  int columns = 0;
  bool no_legend = false;
  std::string t0 = "1us";
  std::string t1 = "0.5ns";
  std::string bytes = "1024";
  SizeLimits limits;
};

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

void run_render(const RenderCliOptions& o) {
  const std::string ext = lower_extension(o.output);
  const bool html = ext == ".html" || ext == ".htm";
  if (!html && ext != ".svg")
    throw InvalidParameter(fmt::format("unknown output extension '{}' (use .svg for the step "
                                       "pictures or .html for the report)",
                                       ext),
                           o.output);
  if (o.columns < 0) throw InvalidParameter("must not be negative", "--columns");
  check_output(o.output);
  RenderOptions render;
  render.layout = parse_layout_engine(o.layout);
  render.columns = o.columns;
  render.legend = !o.no_legend;
  ReportOptions report;
  report.render = render;
  report.cost.t0 = parse_time(o.t0, "--t0");
  report.cost.t1 = parse_time_per_byte(o.t1, "--t1");
  report.message_bytes = parse_bytes(o.bytes, "--bytes");
  report.source = std::filesystem::path(o.file).filename().string();

  // Past the limits, a summary (summary.hpp) instead of the step panels.
  const Schedule s = read_verified_schedule(o.file);
  const std::string reason = over_limits(s, o.limits);
  if (!reason.empty())
    fmt::print(stderr,
               "ccsched: render: {}: drawing a summary (transfers and channels per step, "
               "channel load) instead of the step pictures (0 lifts the limit)\n",
               reason);
  if (!reason.empty())
    write_output(o.output,
                 html ? render_summary_html(s, report, reason) : render_summary_svg(s, reason));
  else
    write_output(o.output, html ? render_report_html(s, report) : render_steps_svg(s, render));
}

}  // namespace

void add_render_command(CLI::App& app) {
  auto options = std::make_shared<RenderCliOptions>();
  auto* cmd = app.add_subcommand(
      "render",
      "draw a schedule: one picture per step (.svg) or a self-contained HTML report "
      "(.html) with summary, table, pictures and step-through buttons");
  cmd->add_option("file", options->file, "schedule document (ccsched-schedule/1 JSON)")->required();
  add_output_option(cmd, options->output, "steps.svg or report.html")->required();
  cmd->add_option("--layout", options->layout,
                  "Graphviz engine: auto (circo for rings, neato for other direct networks, dot "
                  "for multistage networks and trees) | neato | circo | dot | fdp | twopi")
      ->capture_default_str();
  cmd->add_option("--columns", options->columns, "panels per row in the SVG (0: automatic)");
  cmd->add_flag("--no-legend", options->no_legend, "leave out the list of transfers under panels");
  cmd->add_option("--t0", options->t0, "report: start-up time per step for the time estimate")
      ->capture_default_str();
  cmd->add_option("--t1", options->t1, "report: time per byte or bandwidth for the estimate")
      ->capture_default_str();
  cmd->add_option("--bytes", options->bytes, "report: bytes per message for the estimate")
      ->capture_default_str();
  add_size_options(cmd, options->limits, true, "summarise");
  cmd->callback([options] { run_render(*options); });
}

}  // namespace ccsched::cli
