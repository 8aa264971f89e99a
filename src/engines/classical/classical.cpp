// The classical algorithms (engines/classical.hpp; docs/ENGINES.md, "Classical
// algorithms"): names, which collectives each writes, the ranks, and the schedule.
#include "ccsched/engines/classical.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/error.hpp"
#include "plan.hpp"

namespace ccsched {
namespace {

using classical_detail::Ranks;

constexpr std::array<std::pair<ClassicalAlgorithm, std::string_view>, 6> kNames{{
    {ClassicalAlgorithm::ring, "ring"},
    {ClassicalAlgorithm::recursive_doubling, "recursive-doubling"},
    {ClassicalAlgorithm::rabenseifner, "rabenseifner"},
    {ClassicalAlgorithm::swing, "swing"},
    {ClassicalAlgorithm::bine, "bine"},
    {ClassicalAlgorithm::binomial, "binomial"},
}};

std::string describe(NodeId v, const Topology& t) {
  return t.label(v).empty() || t.label(v) == std::to_string(v)
             ? fmt::format("processor {}", v)
             : fmt::format("processor {} = {}", v, t.label(v));
}

// The ranks of the collective: its processors in id order (OAB: the root and its
// targets), or the caller's permutation of them.
Ranks make_ranks(const Problem& problem, const ClassicalRequest& request) {
  const Collective& c = problem.collective;
  const Topology& t = problem.topology;
  const std::string name(to_string(request.algorithm));
  Ranks r;
  r.kind = c.kind;
  r.blocks = c.blocks;
  r.combining = problem.model.combining;
  std::vector<NodeId> members;
  NodeId root = kNoNode;
  switch (c.kind) {
    case CollectiveKind::ALLREDUCE:
    case CollectiveKind::REDUCESCATTER:
      if (c.senders != c.receivers)
        throw Unsupported(name + " needs the same processors as senders and receivers", "--algorithm");
      members = c.senders;
      break;
    case CollectiveKind::REDUCE:
      root = c.receivers.front();
      if (std::find(c.senders.begin(), c.senders.end(), root) == c.senders.end())
        throw Unsupported(name + " reduces into a root that is one of the senders; " +
                              describe(root, t) + " is not",
                          "--algorithm");
      members = c.senders;
      break;
    case CollectiveKind::AAB:
      members = c.senders;
      break;
    case CollectiveKind::OAB:
      root = c.senders.front();
      members = c.messages.front().targets;
      members.push_back(root);
      std::sort(members.begin(), members.end());
      break;
    default:
      break;  // build_plan refuses it
  }
  std::vector<NodeId> sorted = members;
  std::sort(sorted.begin(), sorted.end());
  if (!request.ranks.empty()) {
    std::vector<NodeId> given = request.ranks;
    std::sort(given.begin(), given.end());
    if (given != sorted)
      throw InvalidParameter(fmt::format("the rank order must list each of the collective's {} "
                                         "processors once",
                                         sorted.size()),
                             "--senders");
    members = request.ranks;
  }
  r.node = members;
  const int p = r.size();
  if (root != kNoNode) r.root = static_cast<int>(std::find(members.begin(), members.end(), root) - members.begin());
  if (c.kind == CollectiveKind::REDUCESCATTER) {
    r.owner_block.resize(p);
    for (int k = 0; k < p; ++k)
      r.owner_block[k] = static_cast<int>(
          std::find(c.receivers.begin(), c.receivers.end(), members[k]) - c.receivers.begin());
  }
  if (c.kind == CollectiveKind::AAB) {
    r.message.assign(p, -1);
    std::vector<int> rank_of(t.node_count(), -1);
    for (int k = 0; k < p; ++k) rank_of[members[k]] = k;
    for (const Message& m : c.messages) r.message[rank_of[m.origin]] = m.id;
  }
  if (c.kind == CollectiveKind::OAB) r.message.assign(p, c.messages.front().id);
  return r;
}

// Minimal wormhole routes (valid under every model: a minimal path is allowed under
// nonminimal routing, and under store-and-forward every partner is checked to be one
// channel away), searched lazily with no cap on the path count.
PathSet minimal_routes(const Problem& problem) {
  Model m = problem.model;
  m.routing = Routing::minimal;
  m.switching = Switching::wormhole;
  PathLimits limits;
  limits.truncate = true;
  limits.max_paths_per_pair = std::numeric_limits<std::size_t>::max();
  return PathSet(problem.topology, m, limits);
}

void check_routes(const Problem& problem, const PathSet& minimal, const Ranks& ranks,
                  const classical_detail::Plan& plan, std::string_view name) {
  const Topology& t = problem.topology;
  const bool one_hop = problem.model.switching == Switching::store_and_forward;
  for (const auto& round : plan.rounds)
    for (const auto& group : round.groups)
      for (const auto& op : group) {
        const NodeId a = ranks.node[op.from], b = ranks.node[op.to];
        const int d = minimal.distance(a, b);
        if (d == kUnreachable)
          throw Unsupported(fmt::format("{} sends from rank {} ({}) to rank {} ({}), which it "
                                        "cannot reach",
                                        name, op.from, describe(a, t), op.to, describe(b, t)),
                            "--algorithm");
        if (one_hop && d > 1)
          throw Unsupported(fmt::format("under store-and-forward every transfer is one channel, "
                                        "but {} sends from rank {} ({}) to rank {} ({}), {} hops "
                                        "away; use --switching wormhole",
                                        name, op.from, describe(a, t), op.to, describe(b, t), d),
                            "--algorithm");
      }
}

// "ALLREDUCE, REDUCESCATTER and AAB": the collectives `a` writes.
std::string written(ClassicalAlgorithm a) {
  std::vector<std::string_view> kinds;
  for (CollectiveKind k : {CollectiveKind::ALLREDUCE, CollectiveKind::REDUCESCATTER,
                           CollectiveKind::AAB, CollectiveKind::REDUCE, CollectiveKind::OAB})
    if (classical_applies(a, k)) kinds.push_back(to_string(k));
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    out += (i == 0 ? "" : i + 1 == kinds.size() ? " and " : ", ") + std::string(kinds[i]);
  return out;
}

}  // namespace

std::string_view to_string(ClassicalAlgorithm a) {
  for (const auto& [value, name] : kNames)
    if (value == a) return name;
  return "?";
}

ClassicalAlgorithm parse_classical_algorithm(std::string_view name) {
  for (const auto& [value, known] : kNames)
    if (known == name) return value;
  throw InvalidParameter(fmt::format("unknown algorithm '{}' (ring, recursive-doubling, "
                                     "rabenseifner, swing, bine, binomial)",
                                     name),
                         "--algorithm");
}

const std::vector<ClassicalAlgorithm>& classical_algorithms() {
  static const std::vector<ClassicalAlgorithm> all = [] {
    std::vector<ClassicalAlgorithm> v;
    for (const auto& [value, name] : kNames) v.push_back(value);
    return v;
  }();
  return all;
}

bool classical_applies(ClassicalAlgorithm a, CollectiveKind kind) {
  using A = ClassicalAlgorithm;
  switch (kind) {
    case CollectiveKind::ALLREDUCE:
      return true;
    case CollectiveKind::REDUCESCATTER:
      return a == A::ring || a == A::rabenseifner || a == A::swing || a == A::bine;
    case CollectiveKind::AAB:
      return a == A::ring || a == A::recursive_doubling || a == A::swing || a == A::bine;
    case CollectiveKind::REDUCE:
    case CollectiveKind::OAB:
      return a == A::binomial || a == A::bine;
    default:
      return false;
  }
}

int classical_default_blocks(ClassicalAlgorithm a, const Collective& c) {
  if (c.kind != CollectiveKind::ALLREDUCE) return c.blocks;
  return a == ClassicalAlgorithm::ring || a == ClassicalAlgorithm::rabenseifner
             ? static_cast<int>(c.senders.size())
             : 1;
}

std::optional<ClassicalOutcome> classical_schedule(const Problem& problem,
                                                   const ClassicalRequest& request,
                                                   const Budget& budget) {
  const auto start = std::chrono::steady_clock::now();
  const std::string name(to_string(request.algorithm));
  if (!classical_applies(request.algorithm, problem.collective.kind))
    throw Unsupported(fmt::format("{} does not write {}; it writes {}", name,
                                  to_string(problem.collective.kind), written(request.algorithm)),
                      "--algorithm");
  const Ranks ranks = make_ranks(problem, request);
  const classical_detail::Plan plan = classical_detail::build_plan(request.algorithm, ranks);
  if (request.max_transfers > 0) {
    std::int64_t ops = 0;
    for (const auto& round : plan.rounds)
      for (const auto& group : round.groups) ops += static_cast<std::int64_t>(group.size());
    if (ops > request.max_transfers)
      throw InvalidParameter(fmt::format("{} with {} writes {} transfers, more than the {} a "
                                         "schedule is sized for (docs/RELIABILITY.md \"Limits\"); "
                                         "give fewer blocks",
                                         name, problem.collective.blocks == 1 ? std::string("1 block")
                                             : std::to_string(problem.collective.blocks) + " blocks",
                                         ops, request.max_transfers),
                             "--blocks");
  }
  const PathSet minimal = minimal_routes(problem);
  check_routes(problem, minimal, ranks, plan, name);
  auto transfers = classical_detail::pack_plan(problem, minimal, ranks, plan, request, budget);
  if (!transfers) return std::nullopt;
  ClassicalOutcome out;
  out.variant = plan.variant;
  for (const auto& round : plan.rounds) out.rounds += round.groups.empty() ? 0 : 1;
  out.schedule = assemble_schedule(problem, std::move(*transfers), "classical:" + name, request.seed);
  out.schedule.optimal = false;
  if (request.lower_bound && static_cast<std::int64_t>(problem.collective.blocks) *
                                   problem.topology.processor_count() <=
                               request.bound_cells) {
    // The usual bounds, for the JSON's lower_bound only; a quarter of the time left at most.
    try {
      BoundOptions options;
      options.time_limit = std::min(30.0, budget.remaining() / 4);
      const PathSet paths(problem.topology, problem.model);
      out.bounds = lower_bounds(problem, paths, options);
      out.schedule.lower_bound = out.bounds.best;
    } catch (const Unsupported&) {
      // No bound (a path list the routing module refuses to build): the field stays empty.
    }
  }
  if (out.schedule.solver)
    out.schedule.solver->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace ccsched
