// The `ccsched` command: registers the subcommands and turns every input error into one
// line on stderr with exit status 2 (docs/ARCHITECTURE.md, "Budgets"; docs/RELIABILITY.md).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "ccsched/core/error.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // At most two malloc arenas: what a design frees on a worker thread of the driver's
  // parallel batch is reused by the main thread rather than kept in a third arena
  // (torus:64x64 AAB, 16.8 million transfers: peak 3.98 -> 3.06 GB, the same time;
  // docs/BENCHMARKS.md, "Verifying once").
  mallopt(M_ARENA_MAX, 2);
#endif
  CLI::App app{"ccsched: contention-free schedules for collective communications"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ccsched 0.1.0");
  ccsched::cli::add_topo_command(app);
  ccsched::cli::add_bounds_command(app);
  ccsched::cli::add_verify_command(app);
  ccsched::cli::add_show_command(app);
  ccsched::cli::add_cost_command(app);
  ccsched::cli::add_estimate_command(app);
  ccsched::cli::add_solve_command(app);
  ccsched::cli::add_faults_command(app);
  ccsched::cli::add_render_command(app);
  ccsched::cli::add_codegen_command(app);
  ccsched::cli::add_simulate_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "ccsched: error: {}\n", e.what());
    return 2;
  } catch (const ccsched::cli::ExitStatus& e) {
    return e.code;
  } catch (const ccsched::Error& e) {
    fmt::print(stderr, "ccsched: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "ccsched: internal error: {}\n", e.what());
    return 3;
  }
  return 0;
}
