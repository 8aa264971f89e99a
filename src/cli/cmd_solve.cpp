// `ccsched solve`: designs a schedule. Builds the problem from the shared options, runs
// the driver (lower bound, greedy upper bound, SAT search or evolutionary search), prints
// a short summary — and with --table the seeds' table layout — and writes the schedule
// JSON with -o. `--runs R` repeats the search with seeds seed..seed+R-1 and reports the
// success rate and mean time of the successful runs (seed 001 Table 5, seed 000 Table 7).
// Under `mpirun` the evolutionary engines run one island per rank (dist module).
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/cost/units.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/hgsa.hpp"
#include "ccsched/engines/mboa.hpp"
#include "ccsched/engines/umda.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/tables.hpp"
#include "by_size.hpp"
#include "classical.hpp"
#include "commands.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "problem_options.hpp"
#include "resource_options.hpp"
#ifdef CCSCHED_HAVE_DIST
#include "ccsched/dist/islands.hpp"
#endif

namespace ccsched::cli {
namespace {

std::atomic<bool> g_interrupted{false};

// The first Ctrl-C asks the search to stop and report; a second one kills at once.
extern "C" void on_sigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

struct SolveOptions {
  ProblemOptions problem;
  ResourceOptions resources;
  TimeModelOptions time_model;
  std::string engine = "auto";
  std::string algorithm;  // --algorithm: a classical algorithm instead of the search
  int steps = 0;
  double time_limit = 0.0;
  double relay_time_limit = 60.0;
  std::uint64_t seed = 1;
  int radius = 0;
  std::string output;
  bool table = false;
  bool json = false;
  bool progress = false;
  bool quiet = false;
  int runs = 1;
  // Evolutionary and island parameters by table name; only those given are passed on.
  std::map<std::string, double> values;
  std::map<std::string, CLI::Option*> given;
  std::set<std::string> island_names;
};

bool is_evolutionary(const std::string& engine) {
  return engine == "umda" || engine == "hgsa" || engine == "mboa";
}

// One --<name> option per entry of the UMDA and HGSA tables (docs/ARCHITECTURE.md, "Conventions" 5: the tables
// feed --help); a name both engines know gets one option whose help names both.
void add_engine_parameters(CLI::App* cmd, SolveOptions& o) {
  struct Entry {
    std::vector<std::pair<std::string, std::string>> helps;  // (engines, text)
    bool integer = true;
  };
  std::map<std::string, Entry> entries;
  std::vector<std::string> order;
  auto collect = [&](std::string_view engine, const auto& table) {
    for (const auto& spec : table) {
      const std::string name(spec.name);
      if (!entries.count(name)) order.push_back(name);
      auto& entry = entries[name];
      entry.integer = entry.integer && is_integer(spec);
      const std::string text =
          fmt::format("{} [default {}]", spec.help, format_param(default_value(spec)));
      bool merged = false;
      for (auto& [engines, existing] : entry.helps)
        if (existing == text) {
          engines += ", " + std::string(engine);
          merged = true;
        }
      if (!merged) entry.helps.emplace_back(std::string(engine), text);
    }
  };
  collect("umda", umda_param_table());
  collect("hgsa", hgsa_param_table());
  collect("mboa", mboa_param_table());
  for (const auto& name : order) {
    std::string help;
    for (const auto& [engines, text] : entries[name].helps)
      help += (help.empty() ? "" : "; ") + engines + ": " + text;
    o.values[name] = 0;
    o.given[name] = cmd->add_option("--" + name, o.values[name], help)
                        ->type_name(entries[name].integer ? "INT" : "NUM")
                        ->group("Evolutionary engines (umda, hgsa, mboa)");
  }
#ifdef CCSCHED_HAVE_DIST
  for (const auto& spec : dist::dist_param_table()) {
    const std::string name(spec.name);
    o.values[name] = 0;
    o.island_names.insert(name);
    o.given[name] = cmd->add_option("--" + name, o.values[name],
                                    fmt::format("{} [default {}]", spec.help,
                                                format_param(default_value(spec))))
                        ->type_name("INT")
                        ->group("Islands under mpirun (umda, hgsa, mboa)");
  }
#endif
}

// The parameters the user gave, split into engine and island ones.
void collect_parameters(const SolveOptions& o, ParamValues& engine, ParamValues& islands,
                        DriverParams& driver) {
  for (const auto& [name, option] : o.given) {
    if (option->count() == 0) continue;
    // --threads also sets the cores of the driver's parallel rows (the designs), for every
    // engine; an evolutionary engine uses it for its own workers as well.
    if (name == "threads") {
      const double n = o.values.at(name);
      if (!(n >= 1 && n <= 256) || n != std::floor(n))
        throw InvalidParameter("must be an integer in [1, 256], got " + format_param(n),
                               "--threads");
      driver.threads = static_cast<int>(n);
    }
    if (name == "threads" && !is_evolutionary(o.engine)) continue;
    if (!is_evolutionary(o.engine))
      throw InvalidParameter("applies only to --engine umda, hgsa or mboa", "--" + name);
    (o.island_names.count(name) ? islands : engine)[name] = o.values.at(name);
  }
}

std::string describe_model(const Model& m) {
  return fmt::format("{}, {}, {} routing{}{}",
                     m.ports ? fmt::format("{}-port", *m.ports) : std::string("all-port"),
                     to_string(m.switching), to_string(m.routing),
                     m.routing == Routing::nonminimal ? fmt::format(" (+{} hops)", m.extra_hops)
                                                      : std::string(),
                     m.combining ? ", combining" : "");
}

struct RunRecord {
  std::uint64_t seed = 0;
  SolveOutcome outcome;
};

// The block counts tried by --bytes and their estimates (docs/COST.md, "Choosing by
// message size"): the JSON summary's "estimate" object.
nlohmann::ordered_json estimate_json(const TimeModel& tm, const ByTimeOutcome& by) {
  nlohmann::ordered_json e;
  e["bytes"] = tm.bytes;
  e["t0_us"] = tm.model.t0 * 1e6;
  e["t1_us_per_byte"] = tm.model.t1 * 1e6;
  e["tc_us_per_byte"] = tm.model.tc * 1e6;
  if (by.chosen >= 0) {
    if (is_reduction(by.problem.collective)) e["blocks"] = by.trials[by.chosen].blocks;
    e["engine"] = by.trials[by.chosen].engine;
    e["total_us"] = rounded_us(by.trials[by.chosen].seconds);
  }
  e["tried"] = nlohmann::ordered_json::array();
  for (const BlockTrial& t : by.trials) {
    nlohmann::ordered_json j;
    j["blocks"] = t.blocks;
    j["steps"] = t.steps;
    j["engine"] = t.engine;
    if (t.steps >= 0) j["total_us"] = rounded_us(t.seconds);
    e["tried"].push_back(std::move(j));
  }
  return e;
}

void print_estimate(const TimeModel& tm, const ByTimeOutcome& by) {
  fmt::print("time model   t0 = {} us, t1 = {:.6g} us/B{}, {} B per {}\n", format_us(tm.model.t0),
             tm.model.t1 * 1e6,
             tm.with_tc ? fmt::format(", tc = {:.6g} us/B", tm.model.tc * 1e6) : std::string(),
             tm.bytes, is_reduction(by.problem.collective) ? "input vector" : "message");
  if (by.trials.size() > 1) {
    fmt::print("{:>8}  {:>6}  {:>14}  {}\n", "blocks", "steps", "estimate (us)", "engine");
    for (std::size_t i = 0; i < by.trials.size(); ++i) {
      const BlockTrial& t = by.trials[i];
      fmt::print("{:>8}  {:>6}  {:>14}  {}{}\n", t.blocks, t.steps >= 0 ? std::to_string(t.steps) : "-",
                 t.steps >= 0 ? format_us(t.seconds) : "-", t.engine,
                 static_cast<int>(i) == by.chosen ? "  <- fastest" : "");
    }
  }
  if (by.chosen >= 0 && !is_reduction(by.problem.collective))
    fmt::print("estimate     {} us\n", format_us(by.trials[by.chosen].seconds));
  else if (by.chosen >= 0)
    fmt::print("estimate     {} us with {} ({})\n", format_us(by.trials[by.chosen].seconds),
               plural(by.trials[by.chosen].blocks, "block"),
               by.trials.size() > 1 ? fmt::format("the fastest of {} schedules tried", by.trials.size())
                                    : std::string("the block count given"));
}

void print_summary(const SolveOptions& o, const Problem& problem, const SolveOutcome& out,
                   std::uint64_t seed, const nlohmann::ordered_json* estimate = nullptr) {
  const auto& t = problem.topology;
  if (o.json) {
    nlohmann::ordered_json j;
    j["network"] = {{"name", t.name()},
                    {"processors", t.processor_count()},
                    {"switches", t.switch_count()},
                    {"channels", t.channel_count()}};
    const Collective& c = problem.collective;
    j["collective"] = {{"kind", to_string(c.kind)}};
    if (is_reduction(c)) {
      j["collective"]["senders"] = c.senders.size();
      j["collective"]["receivers"] = c.receivers.size();
      j["collective"]["blocks"] = c.blocks;
    } else {
      j["collective"]["messages"] = c.messages.size();
    }
    const Model& m = problem.model;
    j["model"] = {{"ports", m.ports ? nlohmann::ordered_json(*m.ports) : "all"},
                  {"switching", to_string(m.switching)},
                  {"routing", to_string(m.routing)}};
    if (m.routing == Routing::nonminimal) j["model"]["extra_hops"] = m.extra_hops;
    j["model"]["combining"] = m.combining;
    j["engine"] = out.schedule && out.schedule->solver ? out.schedule->solver->engine : o.engine;
    j["seed"] = seed;
    j["status"] = to_string(out.status);
    j["steps"] = out.schedule ? out.schedule->steps : -1;
    j["lower_bound"] = out.lower_bound;
    j["optimal"] = out.optimal;
    if (!out.optimal_within.empty()) j["optimal_within"] = out.optimal_within;
    if (out.direct_delivery_bound) j["direct_delivery_bound"] = *out.direct_delivery_bound;
    j["reason"] = out.reason;
    j["seconds"] = std::round(out.seconds * 1000.0) / 1000.0;
    j["engine_seconds"] = std::round(out.engine_seconds * 1000.0) / 1000.0;
    if (estimate != nullptr) j["estimate"] = *estimate;
    fmt::print("{}\n", j.dump());
    return;
  }
  fmt::print("network      {} ({}, {}, {})\n", t.name(), plural(t.processor_count(), "processor"),
             plural(t.switch_count(), "switch"), plural(t.channel_count(), "channel"));
  if (is_reduction(problem.collective))
    fmt::print("collective   {}, {}, {}, {}\n", to_string(problem.collective.kind),
               plural(problem.collective.senders.size(), "sender"),
               plural(problem.collective.receivers.size(), "receiver"),
               plural(problem.collective.blocks, "block"));
  else
    fmt::print("collective   {}, {}\n", to_string(problem.collective.kind),
               plural(problem.collective.messages.size(), "message"));
  fmt::print("model        {}\n", describe_model(problem.model));
  const auto best = std::find_if(out.bounds.bounds.begin(), out.bounds.bounds.end(),
                                 [&](const LowerBound& b) { return b.value == out.bounds.best; });
  fmt::print("lower bound  {}{}\n", out.lower_bound,
             out.lower_bound > out.bounds.best
                 ? fmt::format(" (raised from {} by the infeasibility proof)", out.bounds.best)
             : best != out.bounds.bounds.end() ? fmt::format(" ({})", best->name)
                                               : std::string());
  if (out.direct_delivery_bound)
    fmt::print("direct bound {} (holds only with direct delivery: one transfer per message)\n",
               *out.direct_delivery_bound);
  if (out.schedule)
    fmt::print("steps        {} ({})\n", out.schedule->steps,
               out.optimal ? "optimal: " + out.reason
               : out.optimal_within.empty()
                   ? out.reason
                   : "not proven optimal under the model; " + out.reason);
  else
    fmt::print("steps        none found ({}: {})\n", to_string(out.status), out.reason);
  fmt::print("engine       {}, seed {}, {:.2f} s\n",
             out.schedule && out.schedule->solver ? out.schedule->solver->engine : o.engine, seed,
             out.seconds);
  if (o.table && out.schedule)
    fmt::print("\n{}", format_table_or_overview(*out.schedule, TableLayout::automatic,
                                                kTableMaxTransfers,
                                                "`ccsched show` on the -o file with "
                                                "--max-transfers 0"));
}

// --runs: a success is a schedule of at most --steps steps (without --steps: one that
// meets the lower bound), as the seeds count "an optimal schedule" (seed 001 Table 5).
void print_runs(const SolveOptions& o, const std::vector<RunRecord>& runs) {
  auto success = [&](const SolveOutcome& out) {
    return out.schedule && (o.steps > 0 ? out.schedule->steps <= o.steps : out.optimal);
  };
  int successes = 0;
  double total = 0.0;
  for (const auto& r : runs)
    if (success(r.outcome)) {
      ++successes;
      total += r.outcome.seconds;
    }
  const double mean = successes > 0 ? total / successes : 0.0;
  const double rate = 100.0 * successes / static_cast<double>(runs.size());
  if (o.json) {
    std::string list;
    for (const auto& r : runs)
      list += fmt::format(
          "{}{{\"seed\": {}, \"steps\": {}, \"success\": {}, \"seconds\": {:.3f}, "
          "\"engine_seconds\": {:.3f}}}",
          list.empty() ? "" : ", ", r.seed, r.outcome.schedule ? r.outcome.schedule->steps : -1,
          success(r.outcome), r.outcome.seconds, r.outcome.engine_seconds);
    fmt::print("{{\"runs\": [{}], \"successes\": {}, \"success_rate\": {:.1f}, "
               "\"mean_seconds\": {:.3f}, \"lower_bound\": {}}}\n",
               list, successes, rate, mean, runs.front().outcome.lower_bound);
    return;
  }
  for (const auto& r : runs)
    fmt::print("run seed {:<6} {:>5} {:<5}  {:>9.3f} s  {}\n", r.seed,
               r.outcome.schedule ? std::to_string(r.outcome.schedule->steps) : "-",
               r.outcome.schedule ? noun_for(r.outcome.schedule->steps, "step") : "steps",
               r.outcome.seconds, success(r.outcome) ? "success" : "failure");
  fmt::print(
      "success      {}/{} ({:.0f} %) reached {}; mean time of successful runs "
      "{:.3f} s\n",
      successes, plural(runs.size(), "run"), rate,
      o.steps > 0 ? plural(o.steps, "step") : std::string("the lower bound"), mean);
}

// Bytes a written transfer takes while the schedule is held, verified and written (its
// path, blocks and JSON text): the memory limit over this caps --algorithm's schedules.
constexpr double kBytesPerTransfer = 512.0;

// `solve --algorithm NAME`: the classical algorithm's schedule, no search (docs/ENGINES.md,
// "Classical algorithms"). --bytes adds its estimate.
void run_algorithm(const SolveOptions& o, const std::optional<TimeModel>& time_model) {
  const ClassicalAlgorithm algorithm = parse_classical_algorithm(o.algorithm);
  const char* alone = "--algorithm writes a classical algorithm's schedule without a search";
  if (o.engine != "auto") throw InvalidParameter(std::string(alone) + ": give --engine or --algorithm", "--engine");
  if (o.steps > 0) throw InvalidParameter(std::string(alone) + "; it does not go with --steps", "--steps");
  if (o.runs > 1) throw InvalidParameter(std::string(alone) + "; it does not go with --runs", "--runs");
  if (o.radius > 0) throw InvalidParameter(std::string(alone) + "; it does not go with --radius", "--radius");
  for (const auto& [name, option] : o.given)
    if (option->count() > 0)
      throw InvalidParameter(std::string(alone) + "; it takes no engine parameters", "--" + name);
  const Problem base = build_problem(o.problem);
  const Problem problem = classical_problem(o.problem, base, algorithm);
  if (time_model && time_model->with_tc && !is_reduction(problem.collective))
    throw InvalidParameter("--tc is the time to add a byte: only reductions add", "--tc");
  check_output(o.output);
  ClassicalRequest request;
  request.algorithm = algorithm;
  request.ranks = rank_order(o.problem, problem);
  request.seed = o.seed;
  request.max_transfers = static_cast<std::int64_t>(memory_limit(o.resources) / kBytesPerTransfer);
  g_interrupted.store(false);
  auto previous = std::signal(SIGINT, on_sigint);
  const Budget budget(o.time_limit > 0 ? 0.95 * o.time_limit : 1e18, &g_interrupted);
  SolveOutcome out;
  try {
    out = solve_classical(problem, request, budget);
  } catch (...) {
    std::signal(SIGINT, previous);
    throw;
  }
  std::signal(SIGINT, previous);
  if (time_model && out.schedule) {
    ByTimeOutcome by{problem, {}, {}, 0};
    BlockTrial trial;
    trial.blocks = problem.collective.blocks;
    trial.steps = out.schedule->steps;
    trial.engine = out.schedule->solver ? out.schedule->solver->engine : "";
    trial.seconds = linear_cost(*out.schedule, time_model->model, time_model->bytes).total_seconds;
    by.trials.push_back(trial);
    const nlohmann::ordered_json e = estimate_json(*time_model, by);
    print_summary(o, problem, out, o.seed, &e);
    if (!o.json) print_estimate(*time_model, by);
  } else {
    print_summary(o, problem, out, o.seed);
  }
  if (!o.output.empty() && out.schedule)
    write_output(o.output, [&](std::ostream& os) { write_schedule_json(*out.schedule, os); });
  if (g_interrupted.load()) throw ExitStatus{130};
  if (!out.schedule) throw ExitStatus{1};
}

void run_solve(const SolveOptions& o) {
  using Clock = std::chrono::steady_clock;
  // When the run began: the command's start for the first run (loading the network and
  // the plan count against the user's limit too), the previous run's end for the others.
  Clock::time_point run_start = Clock::now();
  const std::optional<TimeModel> time_model = parse_time_model(o.time_model);
  if (!o.algorithm.empty()) return run_algorithm(o, time_model);
  if (time_model && o.runs > 1)
    throw InvalidParameter("--bytes chooses one schedule; it does not go with --runs", "--runs");
  if (time_model && o.steps > 0)
    throw InvalidParameter("--bytes minimises the time, --steps fixes the steps: give one", "--steps");
  const Problem problem = build_problem(o.problem);
  if (time_model && time_model->with_tc && !is_reduction(problem.collective))
    throw InvalidParameter("--tc is the time to add a byte: only reductions add", "--tc");
  // Before the search: a result that cannot be written would be lost.
  check_output(o.output);
  SolveRequest request;
  request.engine = o.engine;
  if (o.steps > 0) request.steps = o.steps;
  // 0: the library's default (DriverParams: 45 s above 256 processors, 300 s up to 256). The
  // search gets 95 % of the limit: the rest is for verifying and writing the schedule
  // (a million transfers take seconds), so that the whole command ends within the limit
  // plus its allowed slack (docs/RELIABILITY.md, "Time limits and Ctrl-C").
  if (o.time_limit > 0) request.time_limit = 0.95 * o.time_limit;
  request.relay_time_limit = o.relay_time_limit;
  request.interrupt = &g_interrupted;
  if (o.radius > 0) request.options.radius = o.radius;
  ParamValues island_values;
  collect_parameters(o, request.options.params, island_values, request.params);
  plan_resources(problem, memory_limit(o.resources), request);  // refuses what cannot fit

#ifdef CCSCHED_HAVE_DIST
  std::unique_ptr<dist::MpiSession> session;
  dist::DistParams island_params;
  if (dist::launched_by_mpirun()) {
    if (!is_evolutionary(o.engine))
      throw Unsupported("under mpirun only --engine umda, hgsa or mboa run as islands", "--engine");
    apply_params(island_params, dist::dist_param_table(), island_values, "islands");
    session = std::make_unique<dist::MpiSession>();
  }
  const bool speaker = !session || session->rank() == 0;
#else
  const bool speaker = true;
#endif

  const bool show_progress = speaker && !o.quiet && (o.progress || stderr_is_terminal());
  if (show_progress)
    request.options.progress = [&run_start, limit = effective_time_limit(problem, request)](const ProgressInfo& p) {
      // Rows of the portfolio report from their own threads: one line at a time.
      static std::mutex printing;
      const std::lock_guard<std::mutex> hold(printing);
      // The whole run's clock, not the engine's: the user's limit covers all of it.
      const double total = std::chrono::duration<double>(Clock::now() - run_start).count();
      std::string line;
      if (p.steps <= 0)  // a row of the strategy table starting (docs/ENGINES.md)
        line = fmt::format("{}: running", p.engine);
      else if (p.best >= 0)
        line = fmt::format("{}: trying {}, {} {}, fewest conflicts {}", p.engine,
                           plural(p.steps, "step"), p.engine == "hgsa" ? "epoch" : "generation",
                           p.conflicts, p.best);
      else
        line = fmt::format("{}: trying {}, {}", p.engine, plural(p.steps, "step"),
                           plural(p.conflicts, "conflict"));
      line += fmt::format("; {:.1f} s elapsed", total);
      if (limit < 1e17) line += fmt::format(", {:.1f} s left", std::max(0.0, limit - total));
      if (p.best_steps >= 0) line += fmt::format("; best so far {}", plural(p.best_steps, "step"));
      fmt::print(stderr, "\r\033[K{}", line);
      std::fflush(stderr);
    };
  g_interrupted.store(false);
  auto previous = std::signal(SIGINT, on_sigint);
  if (time_model && speaker) {
    // Without --time-limit the block counts share 60 s (docs/COST.md).
    const double limit = o.time_limit > 0 ? 0.95 * o.time_limit : 60.0;
    ByTimeOutcome by = solve_by_time(
        o.problem, problem, request, *time_model, limit,
        static_cast<std::int64_t>(memory_limit(o.resources) / kBytesPerTransfer));
    std::signal(SIGINT, previous);
    if (show_progress) fmt::print(stderr, "\r\033[K");
    if (by.outcome.schedule && by.outcome.schedule->solver)
      by.outcome.schedule.solver()->seed = request.options.seed;
    const nlohmann::ordered_json e = estimate_json(*time_model, by);
    print_summary(o, by.problem, by.outcome, request.options.seed, &e);
    if (!o.json) print_estimate(*time_model, by);
    if (!o.output.empty() && by.outcome.schedule)
      write_output(o.output, [&](std::ostream& out) { write_schedule_json(*by.outcome.schedule, out); });
    if (g_interrupted.load()) throw ExitStatus{130};
    if (!by.outcome.schedule) throw ExitStatus{1};
    return;
  }
  std::vector<RunRecord> runs;
  for (int run = 0; run < o.runs && !g_interrupted.load(); ++run) {
    request.options.seed = o.seed + static_cast<std::uint64_t>(run);
    if (run > 0) run_start = Clock::now();
    SolveOutcome out;
    try {
#ifdef CCSCHED_HAVE_DIST
      out = session ? dist::solve_islands(problem, request, island_params, *session)
                    : solve_problem(problem, request);
#else
      out = solve_problem(problem, request);
#endif
    } catch (const Unsupported&) {
      // Ctrl-C before any schedule existed (e.g. during the greedy phase): stop quietly.
      if (!g_interrupted.load()) throw;
      break;
    }
    // The document names the seed of the run, also when a design that draws no random
    // number made the schedule and recorded none (the HTML report and `show` print it).
    if (out.schedule && out.schedule->solver) out.schedule.solver()->seed = request.options.seed;
    runs.push_back({request.options.seed, std::move(out)});
  }
  std::signal(SIGINT, previous);
  if (show_progress) fmt::print(stderr, "\r\033[K");
  if (runs.empty()) {
    fmt::print(stderr, "ccsched: interrupted before any schedule was found\n");
    throw ExitStatus{130};
  }

  // The schedule reported and written: the first run's, or with --runs the first success.
  const RunRecord* shown = &runs.front();
  for (const auto& r : runs)
    if (r.outcome.schedule &&
        (o.steps > 0 ? r.outcome.schedule->steps <= o.steps : r.outcome.optimal)) {
      shown = &r;
      break;
    }
  if (speaker) {
    if (o.runs > 1)
      print_runs(o, runs);
    else
      print_summary(o, problem, shown->outcome, shown->seed);
    // Said here, whatever reason the driver gave: the search did not end on its own.
    if (g_interrupted.load() && !o.json)
      fmt::print("interrupted  by Ctrl-C; {}\n",
                 shown->outcome.schedule ? "the schedule is the best found so far"
                                         : "no schedule was found");
    if (!o.output.empty() && shown->outcome.schedule)
      write_output(o.output, [&](std::ostream& out) {
        write_schedule_json(*shown->outcome.schedule, out);
      });
  }
  if (g_interrupted.load()) throw ExitStatus{130};
  if (!shown->outcome.schedule) throw ExitStatus{1};
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto options = std::make_shared<SolveOptions>();
  auto* cmd = app.add_subcommand("solve", "design a schedule with the fewest steps");
  add_problem_options(cmd, options->problem);
  add_resource_options(cmd, options->resources);
  add_time_model_options(cmd, options->time_model);
  cmd->add_option("--engine", options->engine, "auto | sat | greedy | umda | hgsa | mboa")
      ->capture_default_str();
  cmd->add_option("--algorithm", options->algorithm,
                  "write a classical algorithm's schedule instead of searching: ring | "
                  "recursive-doubling | rabenseifner | swing | bine | binomial (docs/ENGINES.md, "
                  "\"Classical algorithms\")");
  cmd->add_option("--steps", options->steps, "answer for exactly this step count T")
      ->check(integer_check(1, kMaxInt));
  cmd->add_option("--time-limit", options->time_limit,
                  "seconds; the best schedule so far is returned (default: 45 s above 256 "
                  "processors, so that large networks answer within a minute, and 300 s up to "
                  "256, an outer cap the work allowances rarely reach)")
      ->check(seconds_check(false));
  cmd->add_option("--relay-time-limit", options->relay_time_limit,
                  "scatters: seconds for the search with relays after the direct one (0: skip it; "
                  "the claim then stays 'optimal within direct delivery')")
      ->check(seconds_check(true))
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "random seed (same seed, same schedule)")
      ->check(seed_check())
      ->capture_default_str();
  cmd->add_option("--radius", options->radius,
                  "broadcasts: inform a node only from holders within this many hops "
                  "(seed 000 §4.4; restricts the search, so no optimality proof by it)")
      ->check(integer_check(1, kMaxInt));
  add_output_option(cmd, options->output, "write the schedule JSON here");
  auto* table = cmd->add_flag("--table", options->table,
                              "print the schedule in the seeds' table layout (not with --json)");
  cmd->add_flag("--json", options->json,
                "print the summary as JSON: the network, collective, model, engine and seed, "
                "and the claims")
      ->excludes(table);
  cmd->add_flag("--progress", options->progress, "show progress on stderr even when not a terminal");
  cmd->add_flag("--quiet", options->quiet, "no progress output");
  cmd->add_option("--runs", options->runs,
                  "repeat with seeds seed..seed+R-1 and report the success rate and the mean "
                  "time of successful runs (evolutionary engines)")
      ->check(integer_check(1, kMaxInt))
      ->capture_default_str();
  add_engine_parameters(cmd, *options);
  cmd->callback([options] { run_solve(*options); });
}

}  // namespace ccsched::cli
