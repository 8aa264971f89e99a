// The subcommands of the `ccsched` command line. Each lives in its own cmd_*.cpp and is a
// thin client of the library: parse options, call the library, print.
#pragma once

#include <CLI/CLI.hpp>

namespace ccsched::cli {

// Thrown by a subcommand to end with a given exit status (e.g. verify: 1 = invalid).
struct ExitStatus {
  int code = 0;
};

void add_topo_command(CLI::App& app);
void add_bounds_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_show_command(CLI::App& app);
void add_cost_command(CLI::App& app);
void add_estimate_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_faults_command(CLI::App& app);
void add_render_command(CLI::App& app);
void add_codegen_command(CLI::App& app);
void add_simulate_command(CLI::App& app);

}  // namespace ccsched::cli
