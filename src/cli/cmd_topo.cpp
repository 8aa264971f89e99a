// `ccsched topo`: list the spec strings, print a network's invariants, export a network
// to a file format. A thin client of the topology module.
#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <string>

#include "ccsched/core/text.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/invariants.hpp"
#include "ccsched/topology/io.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace ccsched::cli {
namespace {

void run_list() {
  std::size_t width = 0;
  for (const auto& s : spec_catalogue()) width = std::max(width, s.syntax.size());
  std::string out;
  for (const auto& s : spec_catalogue())
    out += fmt::format("{:<{}}  {}\n", s.syntax, width, s.description);
  out += fmt::format("{:<{}}  {}\n", "FILE", width,
                     "a topology file: .json (ccsched or NetworkX node-link), .dot, .gv, .edges "
                     "or .anynet");
  write_output("", out);
}

// How the diameter and Σ were found, as the JSON names it.
const char* distances_method(const Invariants& inv) {
  switch (inv.distances) {
    case Invariants::Distances::closed_form:
      return "closed form";
    case Invariants::Distances::searched:
      return "BFS from every processor";
    case Invariants::Distances::not_computed:
      break;
  }
  return "not computed";
}

void run_info(const std::string& network, bool as_json, int exact_limit) {
  const Topology t = load_topology(network);
  InvariantOptions options;
  if (exact_limit >= 0) options.exact_bisection_limit = exact_limit;
  options.exact_bisection_node_limit = std::max(options.exact_bisection_node_limit, exact_limit);
  const Invariants inv = compute_invariants(t, options);
  if (as_json) {
    nlohmann::ordered_json j;
    j["name"] = t.name();
    j["nodes"] = t.node_count();
    j["processors"] = inv.processors;
    j["switches"] = inv.switches;
    j["channels"] = inv.channels;
    j["directed"] = inv.directed;
    j["min_degree"] = inv.min_out_degree;
    j["max_degree"] = inv.max_out_degree;
    j["min_in_degree"] = inv.min_in_degree;
    j["max_in_degree"] = inv.max_in_degree;
    const bool known = inv.distances != Invariants::Distances::not_computed;
    j["diameter"] = known ? nlohmann::ordered_json(inv.diameter) : nlohmann::ordered_json();
    j["sigma"] = known ? nlohmann::ordered_json(inv.sigma) : nlohmann::ordered_json();
    j["distances"] = distances_method(inv);
    j["girth"] = inv.girth;
    j["strongly_connected"] = inv.strongly_connected;
    j["bisection_width"] = inv.bisection_width;
    j["bisection_exact"] = inv.bisection_exact;
    j["bisection_side"] = inv.bisection_side;
    write_output("", j.dump(2) + "\n");
    return;
  }
  std::string out;
  out += fmt::format("network        {}\n", t.name());
  out += fmt::format("nodes          {} ({}, {})\n", t.node_count(),
                     plural(inv.processors, "processor"), plural(inv.switches, "switch"));
  out += fmt::format("channels       {} ({})\n", inv.channels,
                     inv.directed ? "directed" : "undirected: every channel has its reverse");
  out += fmt::format("out-degree     {}..{}\n", inv.min_out_degree, inv.max_out_degree);
  out += fmt::format("in-degree      {}..{}\n", inv.min_in_degree, inv.max_in_degree);
  if (inv.distances == Invariants::Distances::not_computed && inv.strongly_connected) {
    const std::string why = fmt::format(
        "not computed: no closed form, and a BFS from each of the {} processors is over "
        "the limit",
        inv.processors);
    out += fmt::format("diameter       {}\n", why);
    out += fmt::format("sigma          {}\n", why);
  } else {
    out += fmt::format("diameter       {}  (between processors)\n", inv.diameter);
    out += fmt::format("sigma          {}  (sum of distances over ordered processor pairs)\n",
                       inv.sigma);
  }
  out += fmt::format("girth          {}\n",
                     inv.girth == 0 ? std::string("- (acyclic)") : std::to_string(inv.girth));
  out += fmt::format("bisection B_C  {} channels ({})\n", inv.bisection_width,
                     inv.bisection_exact ? "exact minimum" : "best found, not proven minimal");
  write_output("", out);
}

void run_export(const std::string& network, const std::string& format, const std::string& path) {
  const auto f = parse_topology_format(format);
  const Topology t = load_topology(network);
  write_output(path, write_topology(t, f));
}

}  // namespace

void add_topo_command(CLI::App& app) {
  auto* topo = app.add_subcommand("topo", "list, inspect and export networks");
  topo->require_subcommand(1);

  auto* list = topo->add_subcommand("list", "list the topology spec strings");
  list->callback([] { run_list(); });

  struct InfoArgs {
    std::string network;
    bool json = false;
    int exact_limit = -1;
  };
  auto info_args = std::make_shared<InfoArgs>();
  auto* info = topo->add_subcommand("info", "print the invariants of a network");
  info->add_option("network", info_args->network, "spec string or topology file")->required();
  info->add_flag("--json", info_args->json, "print a JSON object");
  info->add_option("--exact-bisection", info_args->exact_limit,
                   "largest processor count for which B_C is proven exact (default 64)")
      ->check(CLI::NonNegativeNumber);
  info->callback(
      [info_args] { run_info(info_args->network, info_args->json, info_args->exact_limit); });

  struct ExportArgs {
    std::string network, format, output;
  };
  auto export_args = std::make_shared<ExportArgs>();
  auto* exp = topo->add_subcommand("export",
                                   "write a network as json, dot, edges, anynet or node-link");
  exp->add_option("network", export_args->network, "spec string or topology file")->required();
  exp->add_option("--format", export_args->format,
                  "json | dot | edges | anynet | node-link (NetworkX)")
      ->required();
  add_output_option(exp, export_args->output, "output file (default: stdout)");
  exp->callback([export_args] {
    run_export(export_args->network, export_args->format, export_args->output);
  });
}

}  // namespace ccsched::cli
