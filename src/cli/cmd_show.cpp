// `ccsched show FILE [--layout auto|grid|trees|steps]`: a schedule document the way the
// seeds print theirs: a header (network, collective, model, steps, lower bound, optimal,
// solver, whether it verifies), the table (seed 000 Table 3 grid for scatters, Table 4
// trees for broadcasts, for a reduction its steps: who adds what into whom), and the
// per-step channel utilisation. Past --max-transfers transfers or steps (20,000) the table
// and the utilisation give way to a per-step overview (tables.hpp), so that a
// million-transfer schedule prints a thousand lines, not megabytes.
#include <fmt/core.h>

#include <memory>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/tables.hpp"
#include "ccsched/schedule/verify.hpp"
#include "commands.hpp"

namespace ccsched::cli {
namespace {

struct ShowOptions {
  std::string file;
  std::string layout = "auto";
  long long max_transfers = kTableMaxTransfers;
};

void run_show(const ShowOptions& o) {
  const TableLayout layout = parse_table_layout(o.layout);
  if (o.max_transfers < 0)
    throw InvalidParameter("must be 0 (no limit) or more", "--max-transfers");
  const Schedule s = read_schedule_file(o.file);
  std::size_t violations = 0;  // counted; `verify` prints them
  verify_schedule(s, 1, violations);
  fmt::print("{}", format_schedule_summary(s));
  if (violations == 0)
    fmt::print("valid:       yes\n");
  else
    fmt::print("valid:       NO, {} violation{} (see `ccsched verify`)\n", violations,
               violations == 1 ? "" : "s");
  if (!table_within(s, o.max_transfers)) {
    fmt::print("\n{}", format_table_or_overview(s, layout, o.max_transfers, "--max-transfers 0"));
    return;
  }
  fmt::print("\n{}\nchannel utilisation:\n{}", format_schedule_table(s, layout),
             format_utilisation(s));
}

}  // namespace

void add_show_command(CLI::App& app) {
  auto options = std::make_shared<ShowOptions>();
  auto* cmd = app.add_subcommand("show", "print a schedule in the seeds' table layout");
  cmd->add_option("file", options->file, "schedule document (ccsched-schedule/1 JSON)")->required();
  cmd->add_option("--layout", options->layout,
                  "auto (grid for scatters, trees for broadcasts, steps for reductions) | grid "
                  "(seed 000 Table 3) | trees (seed 000 Table 4) | steps (reductions)");
  cmd->add_option("--max-transfers", options->max_transfers,
                  "past this many transfers or steps print a per-step overview instead of the "
                  "table (0: no limit)")
      ->capture_default_str();
  cmd->callback([options] { run_show(*options); });
}

}  // namespace ccsched::cli
