// `ccsched bounds SPEC --cc KIND [--ports K|all] [--root N] [--senders L --receivers L]
// [--fault U-V] [--routing R] [--switching S] [--combining] [--direct] [--json]`: every
// lower bound on the number of steps that holds for the problem, with its argument and
// source, and the best of them. --direct restricts to schedules that deliver each scatter
// message in one transfer (the seeds' model). With --json: {"network", "collective",
// "model", "best", "bounds": [{name, value, argument, source}]}.
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/routing/path_set.hpp"
#include "commands.hpp"
#include "problem_options.hpp"

namespace ccsched::cli {
namespace {

struct BoundsOptions {
  ProblemOptions problem;
  bool direct = false;
  bool json = false;
};

std::string ports_text(const Model& m) {
  return m.ports ? fmt::format("{}-port", *m.ports) : std::string("all-port");
}

std::string routing_text(const Model& m) {
  return m.routing == Routing::minimal
             ? "minimal routing"
             : fmt::format("nonminimal routing (up to {} extra hops)", m.extra_hops);
}

nlohmann::ordered_json to_json(const Problem& p, const BoundReport& report, bool direct) {
  const auto& t = p.topology;
  nlohmann::ordered_json doc;
  auto& net = doc["network"];
  net["name"] = t.name();
  net["processors"] = t.processor_count();
  net["switches"] = t.switch_count();
  net["channels"] = t.channel_count();
  net["faults"] = nlohmann::ordered_json::array();
  for (const auto& c : t.fault_records()) net["faults"].push_back({c.from, c.to});
  auto& cc = doc["collective"];
  cc["kind"] = std::string(to_string(p.collective.kind));
  cc["senders"] = p.collective.senders;
  cc["receivers"] = p.collective.receivers;
  cc["messages"] = p.collective.messages.size();
  auto& model = doc["model"];
  model["ports"] =
      p.model.ports ? nlohmann::ordered_json(*p.model.ports) : nlohmann::ordered_json("all");
  model["switching"] = std::string(to_string(p.model.switching));
  model["routing"] = std::string(to_string(p.model.routing));
  if (p.model.routing == Routing::nonminimal) model["extra_hops"] = p.model.extra_hops;
  model["combining"] = p.model.combining;
  model["direct_scatter"] = direct;
  doc["best"] = report.best;
  doc["bounds"] = nlohmann::ordered_json::array();
  for (const auto& b : report.bounds)
    doc["bounds"].push_back(
        {{"name", b.name}, {"value", b.value}, {"argument", b.argument}, {"source", b.source}});
  return doc;
}

void print_text(const Problem& p, const BoundReport& report, bool direct) {
  const auto& t = p.topology;
  fmt::print("network:    {} ({}, {}, {}{})\n",
             t.name().empty() ? std::string("(unnamed)") : t.name(),
             plural(t.processor_count(), "processor"), plural(t.switch_count(), "switch"),
             plural(t.channel_count(), "channel"),
             t.fault_records().empty()
                 ? std::string()
                 : fmt::format(", {} removed", plural(t.fault_records().size(), "faulty channel")));
  fmt::print("collective: {}, {}, {}, {}\n", to_string(p.collective.kind),
             plural(p.collective.senders.size(), "sender"),
             plural(p.collective.receivers.size(), "receiver"),
             plural(p.collective.messages.size(), "message"));
  fmt::print("model:      {}, {}, {}{}\n", ports_text(p.model), to_string(p.model.switching),
             routing_text(p.model), p.model.combining ? ", combining" : "");
  fmt::print("delivery:   {}\n\n",
             direct ? "direct: each scatter message is one transfer from origin to target"
                    : "any valid schedule (processors may relay messages, FORMATS.md rule 5)");
  std::size_t width = 0;
  for (const auto& b : report.bounds) width = std::max(width, b.name.size());
  for (const auto& b : report.bounds) {
    fmt::print("{} {:<{}} {:>4}  {}\n", b.value == report.best ? '*' : ' ', b.name, width, b.value,
               b.argument);
    fmt::print("  {:<{}}       source: {}\n", "", width, b.source);
  }
  fmt::print("\nbest lower bound: {}\n", plural(report.best, "step"));
}

void run_bounds(const BoundsOptions& o) {
  const Problem problem = build_problem(o.problem);
  const PathSet paths(problem.topology, problem.model);
  BoundOptions options;
  options.direct_scatter = o.direct;
  const BoundReport report = lower_bounds(problem, paths, options);
  if (o.json) {
    fmt::print("{}\n", to_json(problem, report, o.direct).dump(2));
  } else {
    print_text(problem, report, o.direct);
  }
}

}  // namespace

void add_bounds_command(CLI::App& app) {
  auto options = std::make_shared<BoundsOptions>();
  auto* cmd = app.add_subcommand(
      "bounds", "lower bounds on the number of steps of a collective (docs/BOUNDS.md)");
  add_problem_options(cmd, options->problem);
  cmd->add_flag("--direct", options->direct,
                "assume each scatter message is one transfer from origin to target (the seeds' "
                "model): stronger bounds, valid only for such schedules");
  cmd->add_flag("--json", options->json,
                "print {\"best\": N, \"bounds\": [{name, value, argument, source}], ...}");
  cmd->callback([options] { run_bounds(*options); });
}

}  // namespace ccsched::cli
