// The referee of the test suite: an exhaustive search for the fewest steps of a message
// collective on a tiny network, under the model exactly as FORMATS.md states it (validity
// rules 1-10: relays through processors, paths through any node's router, k ports, faults
// as missing channels), with one schedule that achieves it.
//
// It is written apart from the tool on purpose: it links only the topology, problem and
// schedule modules (the data types), never src/routing, src/engines or src/bounds, so a
// wrong path list, encoding or bound in the tool cannot hide in the reference. It has its
// own breadth-first distances, its own path enumeration and its own search.
//
//   oracle::Result r = oracle::minimum_steps(problem);          // tiny problems only
//   if (r.status == oracle::Status::solved) check(r.steps, *r.witness);
//
// Contract: `solved` means r.steps is the minimum over every valid schedule and r.witness
// is one of them (it passes verify_schedule); `unreachable` means no valid schedule exists
// because some target cannot be reached from its origin even through relays; `unknown`
// means the work cap (Options::max_work) or the step cap ran out first. Reductions (no
// messages) are out of scope and answer `unknown`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/schedule.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched::oracle {

// One allowed route: nodes from sender to receiver and the channels between them.
struct Route {
  std::vector<NodeId> nodes;
  std::vector<ChannelId> channels;
  friend auto operator<=>(const Route&, const Route&) = default;
};

// hops[a][b]: fewest channels from a to b through any nodes (kUnreachable if none).
std::vector<std::vector<int>> all_pair_hops(const Topology& t);

// Every route FORMATS.md allows from processor `from` to processor `to` under `model`,
// sorted: store-and-forward, the one channel from->to if it exists (rule 8); wormhole,
// every simple path through any nodes whose hop count is the distance (minimal) or at most
// the distance plus model.extra_hops (nonminimal; rule 9). Empty when from == to, either
// end is a switch, or nothing qualifies. `hops` is all_pair_hops(t).
std::vector<Route> allowed_routes(const Topology& t, const Model& model,
                                  const std::vector<std::vector<int>>& hops, NodeId from,
                                  NodeId to);

enum class Status { solved, unreachable, unknown };
std::string_view to_string(Status s);

struct Options {
  // Search nodes (transfer-set extensions and state expansions) before giving up.
  long long max_work = 20'000'000;
  int max_steps = 16;
  // Restriction: every single-target message under wormhole switching without combining
  // is one transfer from its origin to its target (the seeds' "direct delivery"). Off:
  // the model exactly as FORMATS.md states it.
  bool direct_scatter = false;
};

struct Result {
  Status status = Status::unknown;
  int steps = 0;                    // when solved
  std::optional<Schedule> witness;  // when solved: a schedule of `steps` steps
  long long work = 0;
  std::string note;  // why unknown or unreachable
};

Result minimum_steps(const Problem& problem, const Options& options = {});

}  // namespace ccsched::oracle
