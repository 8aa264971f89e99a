#include "problem_options.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/topology/generators.hpp"
#include "number_options.hpp"

namespace ccsched::cli {
namespace {

int parse_positive(const std::string& text, const std::string& option) {
  int value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1)
    throw InvalidParameter("expected a positive integer, got '" + text + "'", option);
  return value;
}

}  // namespace

std::vector<std::string> split_list(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    int depth = 0;  // inside (), [] or {}
    std::string piece;
    for (const char c : item) {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      if (c == ',' && depth == 0) {
        if (!piece.empty()) out.push_back(std::move(piece));
        piece.clear();
      } else {
        piece += c;
      }
    }
    if (!piece.empty()) out.push_back(std::move(piece));
  }
  return out;
}

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
                  "reductions and AAB: blocks each input is split into (default 1; "
                  "REDUCESCATTER: one per receiver; AAB: one message per block)")
      ->check(integer_check(1, kMaxInt));
  cmd->add_option("--fault", o.faults,
                  "faulty link U-V or one channel U->V; repeatable, or a comma list. On a "
                  "network with links both ways (ring, mesh, torus, hypercube, ...) U-V removes "
                  "both directions; on a one-way network (Kautz, de Bruijn, Omega, Butterfly, "
                  "...) every channel is a link of its own and U-V removes the one channel "
                  "U->V (or V->U when only that exists)");
  cmd->add_option("--routing", o.routing,
                  "minimal | nonminimal[:H] (paths up to H hops longer, default 2; H at most "
                  "the node count minus 2, the longest a simple path can add)");
  cmd->add_option("--switching", o.switching, "wormhole | store-and-forward");
  cmd->add_flag("--combining", o.combining, "allow one transfer to carry several messages");
  cmd->add_option("--shift", o.shift,
                  "PERM: circular shift q (processor i sends to i+q; default 1)")
      ->check(integer_check(-kMaxInt, kMaxInt));
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
      // A simple path has at most n - 1 hops and every pair is at least one apart: more
      // extra hops than n - 2 allow nothing new, and only cost the path count's time.
      const int most = std::max(1, t.node_count() - 2);
      if (model.extra_hops > most)
        throw InvalidParameter(fmt::format("nonminimal:{} allows more extra hops than a simple "
                                           "path on {} can have; give H from 1 to {}",
                                           model.extra_hops, plural(t.node_count(), "node"), most),
                               "--routing");
    }
  } else {
    throw InvalidParameter("expected minimal or nonminimal[:H], got '" + o.routing + "'", "--routing");
  }
  model.combining = o.combining;
}

void refuse_combining(const Model& model, CollectiveKind kind) {
  if (!model.combining || is_reduction(kind)) return;
  throw Unsupported(fmt::format("no engine combines messages yet; --combining applies to the "
                                "reductions (REDUCE, ALLREDUCE, REDUCESCATTER, SCAN), not to {}",
                                to_string(kind)),
                    "--combining");
}

Problem build_problem(const ProblemOptions& o, CollectiveKind kind) {
  Topology base = load_topology(o.network);
  Topology t = apply_faults(base, split_list(o.faults));
  CollectiveRequest request;
  request.kind = kind;
  if (!o.root.empty()) request.root = o.root;
  request.senders = split_list(o.senders);
  request.receivers = split_list(o.receivers);
  if (o.shift && kind != CollectiveKind::PERM)
    throw InvalidParameter(
        fmt::format("only PERM takes a shift ({} was asked for)", to_string(kind)), "--shift");
  request.shift = o.shift.value_or(1);
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
