// `ccsched faults`: the degradation table of seed 000 Table 5 — for every single faulty
// link (and every pair with --double) the best lower bound and the steps of a re-designed
// schedule for each collective, degraded entries marked with '*'.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/faults/sweep.hpp"
#include "ccsched/render/html.hpp"
#include "ccsched/topology/generators.hpp"
#include "commands.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "problem_options.hpp"
#include "resource_options.hpp"

namespace ccsched::cli {
namespace {

std::atomic<bool> g_interrupted{false};

// The first Ctrl-C ends the sweep (the table so far is printed); a second one kills.
extern "C" void on_faults_sigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

struct FaultsOptions {
  ProblemOptions problem;
  ResourceOptions resources;
  std::vector<std::string> kinds;
  std::vector<std::string> links;
  bool double_faults = false;
  bool json = false;
  std::string engine = "auto";
  double cell_time_limit = 60.0;
  // Per cell: the relay search of scatter cells (docs/ENGINES.md); short, since a sweep
  // has many cells and the seeds' Table 5 is a direct-delivery table.
  double relay_time_limit = 2.0;
  double time_limit = 0.0;
  std::uint64_t seed = 1;
  std::string html;  // --html FILE: the table as a self-contained HTML page too
};

std::string cell_text(const FaultCell& c) {
  if (c.steps < 0) return c.note.empty() ? "-" : "-";
  // 'd': proven optimal with direct delivery only (the seeds' model), not with relays.
  return fmt::format("{}{}{}", c.steps,
                     c.optimal                    ? ""
                     : !c.optimal_within.empty() ? "d"
                                                 : "?",
                     c.degraded ? "*" : "");
}

// A row the sweep computed: some cell has a result, or the fault cut the network apart.
// Rows past the time limit are listed with empty cells and are not counted as swept.
bool swept(const FaultRow& row) {
  return !row.connected || std::any_of(row.cells.begin(), row.cells.end(), [](const FaultCell& c) {
    return c.steps >= 0 || c.lower_bound > 0;
  });
}

// What the sweep covered: the faults swept and the faults asked for.
struct Swept {
  std::size_t singles = 0, pairs = 0;  // rows computed
  std::size_t links = 0, all_pairs = 0;
  bool double_faults = false;

  // For the headers: "18 single-link faults and 153 pairs", or "5 of 18 single-link
  // faults" when the time limit cut it short.
  std::string text() const {
    const auto of = [](std::size_t done, std::size_t total) {
      return done == total ? std::string() : fmt::format("{} of ", done);
    };
    std::string t = of(singles, links) + plural(links, "single-link fault");
    if (double_faults) t += " and " + of(pairs, all_pairs) + plural(all_pairs, "pair");
    return t;
  }
};

Swept swept_faults(const FaultSweep& sweep, std::size_t links, bool double_faults) {
  Swept out{.links = links,
            .all_pairs = double_faults ? links * (links - (links > 0 ? 1 : 0)) / 2 : 0,
            .double_faults = double_faults};
  for (const auto& row : sweep.rows) {
    if (!swept(row)) continue;
    if (row.faults.size() == 1) ++out.singles;
    if (row.faults.size() == 2) ++out.pairs;
  }
  return out;
}

// The degradation table as a page of the render module (same style as `render`'s report).
void write_faults_html(const std::string& path, const Topology& t, const FaultSweep& sweep,
                       const std::string& faults) {
  TableReport report;
  report.title = fmt::format("Link faults on {}", t.name().empty() ? "a network" : t.name());
  report.summary = {{"network", t.name()},
                    {"collectives", fmt::format("{}", fmt::join(sweep.kinds, ", "))},
                    {"faults", faults},
                    {"fault diameter", std::to_string(sweep.fault_diameter)},
                    {"complete", sweep.complete ? "yes" : "no: the time limit cut the sweep"}};
  report.header = {"link", "diameter"};
  for (const auto& k : sweep.kinds) report.header.push_back(k + " lb/steps");
  for (const auto& row : sweep.rows) {
    std::vector<ReportCell> cells{{row.name, "", ""},
                                  {row.connected ? std::to_string(row.diameter) : "disc", "", ""}};
    for (const auto& c : row.cells)
      cells.push_back({fmt::format("{}/{}", c.lower_bound, cell_text(c)),
                       c.steps < 0      ? "none"
                       : c.degraded     ? "degraded"
                       : !c.optimal     ? "unproven"
                                        : "",
                       c.note});
    report.rows.push_back(std::move(cells));
  }
  report.notes = {"'*' degraded (more steps than without faults), '?' not proven optimal, "
                  "'d' proven optimal with direct delivery only (relays not decided), "
                  "'-' none found (seed 000 Table 5 layout)."};
  write_output(path, render_table_html(report));
}

void run_faults(const FaultsOptions& o) {
  if (!o.html.empty() && !o.html.ends_with(".html") && !o.html.ends_with(".htm"))
    throw InvalidParameter("the HTML table goes to a .html file", "--html");
  // Before the sweep: a table that cannot be written would be lost.
  check_output(o.html);
  const Topology t = apply_faults(load_topology(o.problem.network), split_list(o.problem.faults));
  FaultSweepRequest request;
  for (const auto& k : split_list(o.kinds)) request.kinds.push_back(parse_collective_kind(k));
  if (request.kinds.empty()) throw InvalidParameter("no collective given", "--cc");
  if (!o.problem.root.empty()) request.collective.root = o.problem.root;
  request.collective.senders = split_list(o.problem.senders);
  request.collective.receivers = split_list(o.problem.receivers);
  if (o.problem.shift) {
    if (std::find(request.kinds.begin(), request.kinds.end(), CollectiveKind::PERM) ==
        request.kinds.end())
      throw InvalidParameter("only PERM takes a shift, and --cc has no PERM", "--shift");
    request.collective.shift = *o.problem.shift;
  }
  apply_model_options(o.problem, t, request.model);
  const auto links = split_list(o.links);
  if (!(links.empty() || (links.size() == 1 && links[0] == "all")))
    for (const auto& text : links) request.links.push_back({parse_fault(t, text), text});
  for (const auto kind : request.kinds) refuse_combining(request.model, kind);
  request.double_faults = o.double_faults;
  request.solve.engine = o.engine;
  request.solve.time_limit = o.cell_time_limit;
  request.solve.relay_time_limit = o.relay_time_limit;
  request.solve.options.seed = o.seed;
  if (o.time_limit > 0) request.time_limit = o.time_limit;
  if (stderr_is_terminal())
    request.on_row = [start = std::chrono::steady_clock::now(), limit = o.time_limit](
                         const FaultRow& row, std::size_t done, std::size_t total) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::string line = fmt::format("faults: {} of {} done, last {}; {:.1f} s elapsed", done,
                                     plural(total, "row"), row.name, elapsed);
      if (limit > 0) line += fmt::format(", {:.1f} s left", std::max(0.0, limit - elapsed));
      fmt::print(stderr, "\r\033[K{}", line);
      if (done == total) fmt::print(stderr, "\r\033[K");
    };
  // Plan the paths and the memory limit on the fault-free network for the first kind
  // (the SAT engine re-checks every encoding on the damaged networks).
  {
    const Problem base{t, make_collective(t, [&] {
                         CollectiveRequest cr = request.collective;
                         cr.kind = request.kinds.front();
                         return cr;
                       }()),
                       request.model};
    plan_resources(base, memory_limit(o.resources), request.solve);
  }
  g_interrupted.store(false);
  request.solve.interrupt = &g_interrupted;
  auto previous = std::signal(SIGINT, on_faults_sigint);
  FaultSweep sweep;
  try {
    sweep = sweep_faults(t, request);
  } catch (...) {
    std::signal(SIGINT, previous);
    throw;
  }
  std::signal(SIGINT, previous);
  const Swept covered =
      swept_faults(sweep, request.links.empty() ? network_links(t).size() : request.links.size(),
                   o.double_faults);
  const std::string faults = covered.text();
  if (!o.html.empty()) write_faults_html(o.html, t, sweep, faults);

  if (o.json) {
    nlohmann::json j;
    j["network"] = t.name();
    j["collectives"] = sweep.kinds;
    j["fault_diameter"] = sweep.fault_diameter;
    j["complete"] = sweep.complete;
    j["faults_swept"] = {{"single", covered.singles}, {"single_asked", covered.links}};
    if (o.double_faults) {
      j["faults_swept"]["pairs"] = covered.pairs;
      j["faults_swept"]["pairs_asked"] = covered.all_pairs;
    }
    for (const auto& row : sweep.rows) {
      nlohmann::json r{{"link", row.name}, {"connected", row.connected}, {"diameter", row.diameter}};
      for (std::size_t k = 0; k < sweep.kinds.size(); ++k) {
        const auto& c = row.cells[k];
        r["cells"][sweep.kinds[k]] = {{"lower_bound", c.lower_bound},
                                      {"steps", c.steps},
                                      {"optimal", c.optimal},
                                      {"optimal_within", c.optimal_within},
                                      {"degraded", c.degraded},
                                      {"note", c.note}};
      }
      j["rows"].push_back(r);
    }
    fmt::print("{}\n", j.dump(2));
    if (g_interrupted.load()) throw ExitStatus{130};
    return;
  }
  fmt::print("network {}: {}; fault diameter {}\n", t.name(), faults, sweep.fault_diameter);
  std::size_t width = 8;
  for (const auto& row : sweep.rows) width = std::max(width, row.name.size() + 2);
  fmt::print("{:<{}}{:>5}", "link", width, "diam");
  for (const auto& k : sweep.kinds) fmt::print("{:>12}", k + " lb/st");
  fmt::print("\n");
  for (const auto& row : sweep.rows) {
    fmt::print("{:<{}}{:>5}", row.name, width, row.connected ? std::to_string(row.diameter) : "disc");
    for (const auto& c : row.cells)
      fmt::print("{:>12}", fmt::format("{}/{}", c.lower_bound, cell_text(c)));
    fmt::print("\n");
  }
  fmt::print("'*' degraded (more steps than without faults), '?' not proven optimal, "
             "'d' proven optimal with direct delivery only (relays not decided), '-' none found\n");
  if (!sweep.complete)
    fmt::print("{}: later cells were not computed\n",
               g_interrupted.load() ? "interrupted" : "time limit reached");
  if (g_interrupted.load()) throw ExitStatus{130};
}

}  // namespace

void add_faults_command(CLI::App& app) {
  auto options = std::make_shared<FaultsOptions>();
  auto* cmd = app.add_subcommand("faults", "re-design collectives under every single (or double) link fault");
  add_problem_options(cmd, options->problem, /*with_cc=*/false);
  add_resource_options(cmd, options->resources);
  cmd->add_option("--cc", options->kinds, "collectives, comma list (e.g. OAB,AAB,OAS,AAS)")->required();
  cmd->add_option("--links", options->links,
                  "all (default) or a comma list of links U-V (labels with commas, such as "
                  "\"(7,0)-(7,7)\", stay whole)");
  cmd->add_flag("--double", options->double_faults, "also every pair of faulty links");
  cmd->add_flag("--json", options->json, "print the table as JSON");
  cmd->add_option("--engine", options->engine, "auto | sat | greedy")->capture_default_str();
  cmd->add_option("--cell-time-limit", options->cell_time_limit, "seconds per cell")
      ->check(seconds_check(false))
      ->capture_default_str();
  cmd->add_option("--relay-time-limit", options->relay_time_limit,
                  "seconds per scatter cell for the relay search (0: direct delivery only)")
      ->check(seconds_check(true))
      ->capture_default_str();
  cmd->add_option("--time-limit", options->time_limit, "seconds for the whole sweep")
      ->check(seconds_check(false));
  cmd->add_option("--seed", options->seed, "random seed")
      ->check(seed_check())
      ->capture_default_str();
  cmd->add_option("--html", options->html, "also write the table as a self-contained HTML page")
      ->check(CLI::Validator(
          [](std::string& text) {
            return text.empty() ? std::string("expected a file name, got an empty one")
                                : std::string();
          },
          "FILE"));
  cmd->callback([options] { run_faults(*options); });
}

}  // namespace ccsched::cli
