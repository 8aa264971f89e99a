// `ccsched solve`: designs a schedule. Builds the problem from the shared options, runs
// the driver (lower bound, greedy upper bound, SAT search), prints a short summary — and
// with --table the seeds' table layout — and writes the schedule JSON with -o.
#include <fmt/core.h>

#include <atomic>
#include <csignal>
#include <cstdio>

#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/tables.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "problem_options.hpp"

namespace ccsched::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) { g_interrupted.store(true); }

struct SolveOptions {
  ProblemOptions problem;
  std::string engine = "auto";
  int steps = 0;
  double time_limit = 0.0;
  std::uint64_t seed = 1;
  int radius = 0;
  std::string output;
  bool table = false;
  bool json = false;
  bool progress = false;
  bool quiet = false;
};

std::string describe_model(const Model& m) {
  return fmt::format("{}, {}, {} routing{}{}",
                     m.ports ? fmt::format("{}-port", *m.ports) : std::string("all-port"),
                     to_string(m.switching), to_string(m.routing),
                     m.routing == Routing::nonminimal ? fmt::format(" (+{} hops)", m.extra_hops)
                                                      : std::string(),
                     m.combining ? ", combining" : "");
}

void run_solve(const SolveOptions& o) {
  const Problem problem = build_problem(o.problem);
  SolveRequest request;
  request.engine = o.engine;
  if (o.steps > 0) request.steps = o.steps;
  if (o.time_limit > 0) request.time_limit = o.time_limit;
  request.interrupt = &g_interrupted;
  request.options.seed = o.seed;
  if (o.radius > 0) request.options.radius = o.radius;
  const bool show_progress = !o.quiet && (o.progress || stderr_is_terminal());
  if (show_progress)
    request.options.progress = [](const ProgressInfo& p) {
      fmt::print(stderr, "\r{}: T={} conflicts={} elapsed={:.1f}s   ", p.engine, p.steps,
                 p.conflicts, p.elapsed);
      std::fflush(stderr);
    };
  g_interrupted.store(false);
  auto previous = std::signal(SIGINT, on_sigint);
  SolveOutcome out = solve_problem(problem, request);
  std::signal(SIGINT, previous);
  if (show_progress) fmt::print(stderr, "\r\033[K");

  const auto& t = problem.topology;
  if (o.json) {
    fmt::print("{{\"status\": \"{}\", \"steps\": {}, \"lower_bound\": {}, \"optimal\": {}, "
               "\"reason\": \"{}\", \"seconds\": {:.3f}}}\n",
               to_string(out.status), out.schedule ? out.schedule->steps : -1, out.lower_bound,
               out.optimal, out.reason, out.seconds);
  } else {
    fmt::print("network      {} ({} processors, {} switches, {} channels)\n", t.name(),
               t.processor_count(), t.switch_count(), t.channel_count());
    fmt::print("collective   {}, {} messages\n", to_string(problem.collective.kind),
               problem.collective.messages.size());
    fmt::print("model        {}\n", describe_model(problem.model));
    const auto best = std::find_if(out.bounds.bounds.begin(), out.bounds.bounds.end(),
                                   [&](const LowerBound& b) { return b.value == out.bounds.best; });
    fmt::print("lower bound  {}{}\n", out.lower_bound,
               out.lower_bound > out.bounds.best
                   ? fmt::format(" (raised from {} by the infeasibility proof)", out.bounds.best)
                   : best != out.bounds.bounds.end() ? fmt::format(" ({})", best->name)
                                                     : std::string());
    if (out.schedule)
      fmt::print("steps        {} ({})\n", out.schedule->steps,
                 out.optimal ? "optimal: " + out.reason : out.reason);
    else
      fmt::print("steps        none found ({}: {})\n", to_string(out.status), out.reason);
    fmt::print("engine       {}, seed {}, {:.2f} s\n",
               out.schedule && out.schedule->solver ? out.schedule->solver->engine : o.engine,
               o.seed, out.seconds);
    if (o.table && out.schedule) fmt::print("\n{}", format_schedule_table(*out.schedule));
  }
  if (!o.output.empty() && out.schedule)
    write_output(o.output, write_schedule_json(*out.schedule));
  if (g_interrupted.load()) throw ExitStatus{130};
  if (!out.schedule) throw ExitStatus{1};
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto options = std::make_shared<SolveOptions>();
  auto* cmd = app.add_subcommand("solve", "design a schedule with the fewest steps");
  add_problem_options(cmd, options->problem);
  cmd->add_option("--engine", options->engine, "auto | sat | greedy")->capture_default_str();
  cmd->add_option("--steps", options->steps, "answer for exactly this step count T");
  cmd->add_option("--time-limit", options->time_limit, "seconds; the best schedule so far is returned");
  cmd->add_option("--seed", options->seed, "random seed (same seed, same schedule)")->capture_default_str();
  cmd->add_option("--radius", options->radius,
                  "broadcasts: inform a node only from holders within this many hops "
                  "(seed 000 §4.4; restricts the search, so no optimality proof by it)");
  cmd->add_option("-o,--output", options->output, "write the schedule JSON here");
  cmd->add_flag("--table", options->table, "print the schedule in the seeds' table layout");
  cmd->add_flag("--json", options->json, "print the summary as JSON");
  cmd->add_flag("--progress", options->progress, "show progress on stderr even when not a terminal");
  cmd->add_flag("--quiet", options->quiet, "no progress output");
  cmd->callback([options] { run_solve(*options); });
}

}  // namespace ccsched::cli
