// The one-header facade (include/ccsched/ccsched.hpp): the common path from a network and
// a collective to a verified schedule, for programs that link ccsched::ccsched and for the
// Python module. It only assembles the modules' public calls.
#include "ccsched/ccsched.hpp"

#include "ccsched/routing/path_set.hpp"

namespace ccsched {

Topology topology(std::string_view spec_or_path) { return load_topology(spec_or_path); }

Problem make_problem(const Topology& network, CollectiveKind kind, const SolveOptions& options) {
  Problem p{apply_faults(network, options.faults), {}, {}};
  CollectiveRequest request;
  request.kind = kind;
  if (!options.root.empty()) request.root = options.root;
  request.senders = options.senders;
  request.receivers = options.receivers;
  request.shift = options.shift;
  request.blocks = options.blocks;
  if (!options.messages_file.empty()) request.custom_file = options.messages_file;
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  if (options.ports) {
    if (*options.ports < 0)
      throw InvalidParameter("expected a positive integer or all, got " +
                                 std::to_string(*options.ports),
                             "ports");
    if (*options.ports == kAllPorts)
      p.model.ports.reset();
    else
      p.model.ports = *options.ports;
  }
  p.model.switching = options.switching;
  p.model.routing = options.routing;
  if (options.extra_hops < 1) throw InvalidParameter("must be at least 1", "extra_hops");
  p.model.extra_hops = options.extra_hops;
  p.model.combining = options.combining;
  return p;
}

Outcome solve(const Problem& problem, const SolveOptions& options) {
  SolveRequest request;
  request.engine = options.engine;
  request.steps = options.steps;
  if (options.time_limit > 0) request.time_limit = options.time_limit;
  if (options.relay_time_limit < 0)
    throw InvalidParameter("expected a number of seconds, 0 or more", "relay_time_limit");
  request.relay_time_limit = options.relay_time_limit;
  request.interrupt = options.interrupt;
  request.options.seed = options.seed;
  SolveOutcome found = solve_problem(problem, request);
  Outcome out;
  out.status = found.status;
  out.steps = found.schedule ? found.schedule->steps : -1;
  if (found.schedule) out.schedule = std::move(found.schedule).release();
  out.lower_bound = found.lower_bound;
  out.optimal = found.optimal;
  out.optimal_within = std::move(found.optimal_within);
  out.direct_delivery_bound = found.direct_delivery_bound;
  out.reason = std::move(found.reason);
  out.bounds = std::move(found.bounds);
  out.seconds = found.seconds;
  return out;
}

Outcome solve(const Topology& network, CollectiveKind kind, const SolveOptions& options) {
  return solve(make_problem(network, kind, options), options);
}

Outcome solve(std::string_view spec_or_path, CollectiveKind kind, const SolveOptions& options) {
  return solve(topology(spec_or_path), kind, options);
}

Outcome solve(std::string_view spec_or_path, CollectiveKind kind) {
  return solve(spec_or_path, kind, SolveOptions{});
}

BoundReport bounds(const Problem& problem, bool direct) {
  const PathSet paths(problem.topology, problem.model);
  BoundOptions options;
  options.direct_scatter = direct;
  return lower_bounds(problem, paths, options);
}

}  // namespace ccsched
