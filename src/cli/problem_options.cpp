#include "problem_options.hpp"

#include <charconv>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched::cli {
namespace {

std::vector<std::string> split_commas(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::size_t start = 0;
    while (start <= item.size()) {
      const auto comma = item.find(',', start);
      const auto end = comma == std::string::npos ? item.size() : comma;
      if (end > start) out.push_back(item.substr(start, end - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

int parse_positive(const std::string& text, const std::string& option) {
  int value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1)
    throw InvalidParameter("expected a positive integer, got '" + text + "'", option);
  return value;
}

}  // namespace

void add_problem_options(CLI::App* cmd, ProblemOptions& o, bool with_cc) {
  cmd->add_option("network", o.network, "topology spec string or file (see `ccsched topo list`)")
      ->required();
  if (with_cc)
    cmd->add_option("--cc", o.cc,
                    "collective: OAB AAB OAS AAS AOG MNB MNS PERM CUSTOM REDUCE ALLREDUCE "
                    "REDUCESCATTER SCAN")
        ->required();
  cmd->add_option("--ports", o.ports, "k-port model: K or 'all' (default: all-port for direct "
                                      "networks, 1 for multistage networks)");
  cmd->add_option("--root", o.root, "root processor of OAB/OAS/AOG/REDUCE (id or label)");
  cmd->add_option("--senders", o.senders,
                  "MNB/MNS and reduction sender processors (ids or labels, comma list; SCAN: "
                  "in prefix order)");
  cmd->add_option("--receivers", o.receivers, "MNB/MNS, ALLREDUCE/REDUCESCATTER receiver processors");
  cmd->add_option("--blocks", o.blocks,
                  "reductions: blocks each input is split into (default 1; REDUCESCATTER: one "
                  "per receiver)");
  cmd->add_option("--fault", o.faults, "faulty link U-V (both ways) or U->V (one channel); repeatable");
  cmd->add_option("--routing", o.routing, "minimal | nonminimal[:H] (paths up to H hops longer, default 2)");
  cmd->add_option("--switching", o.switching, "wormhole | store-and-forward");
  cmd->add_flag("--combining", o.combining, "allow one transfer to carry several messages");
  cmd->add_option("--shift", o.shift, "PERM: circular shift q (processor i sends to i+q)");
  cmd->add_option("--messages", o.messages_file, "CUSTOM/PERM: file with one 'origin target...' line per message");
}

void apply_model_options(const ProblemOptions& o, const Topology& t, Model& model) {
  model = default_model(t);
  if (!o.ports.empty()) {
    if (o.ports == "all")
      model.ports.reset();
    else
      model.ports = parse_positive(o.ports, "--ports");
  }
  if (o.switching == "wormhole" || o.switching == "cut-through") {
    model.switching = Switching::wormhole;
  } else if (o.switching == "store-and-forward" || o.switching == "sf") {
    model.switching = Switching::store_and_forward;
  } else {
    throw InvalidParameter("expected wormhole or store-and-forward, got '" + o.switching + "'",
                           "--switching");
  }
  if (o.routing == "minimal") {
    model.routing = Routing::minimal;
  } else if (o.routing.rfind("nonminimal", 0) == 0) {
    model.routing = Routing::nonminimal;
    const auto rest = o.routing.substr(10);
    if (!rest.empty()) {
      if (rest[0] != ':') throw InvalidParameter("expected nonminimal[:H], got '" + o.routing + "'", "--routing");
      model.extra_hops = parse_positive(rest.substr(1), "--routing");
    }
  } else {
    throw InvalidParameter("expected minimal or nonminimal[:H], got '" + o.routing + "'", "--routing");
  }
  model.combining = o.combining;
}

Problem build_problem(const ProblemOptions& o, CollectiveKind kind) {
  Topology base = load_topology(o.network);
  Topology t = apply_faults(base, split_commas(o.faults));
  CollectiveRequest request;
  request.kind = kind;
  if (!o.root.empty()) request.root = o.root;
  request.senders = split_commas(o.senders);
  request.receivers = split_commas(o.receivers);
  request.shift = o.shift;
  request.blocks = o.blocks;
  if (!o.messages_file.empty()) request.custom_file = o.messages_file;
  Problem p{t, {}, {}};
  p.collective = make_collective(p.topology, request);
  apply_model_options(o, p.topology, p.model);
  return p;
}

Problem build_problem(const ProblemOptions& o) {
  return build_problem(o, parse_collective_kind(o.cc));
}

}  // namespace ccsched::cli
