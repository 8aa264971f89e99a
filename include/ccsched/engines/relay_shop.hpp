// Relay job shop: scatter-type collectives (AAS, OAS, PERM, MNS, ...) on direct networks of
// hundreds to thousands of processors, where the direct-delivery searches do not finish.
// Every message walks a shortest path one hop per transfer, relayed by the processors on
// its way (FORMATS.md rule 5), so each channel is a machine that serves one hop per step:
// a job shop whose jobs are the messages' hop chains. Paths are chosen to level the channel
// loads, and each step every channel serves the ready hop whose message has the most hops
// left (longest remaining chain first), so the schedule ends close to the busiest channel's
// load, the channel-load bound of seed 000 §3 when the loads are level.
//
//   if (auto s = relay_scatter(problem, paths, seed, budget)) use(*s);
#pragma once

#include <cstdint>
#include <optional>

#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// A schedule of one-hop transfers for a scatter-type problem on a network without switches
// (each relay must be a processor that can hold the message), or nothing when the problem
// is not one, the model combines messages, or the budget ends first. Deterministic given the
// seed. Under a k-port model each step serves at most k hops out of and into each node.
std::optional<Schedule> relay_scatter(const Problem& problem, const PathSet& paths,
                                      std::uint64_t seed, const Budget& budget);

}  // namespace ccsched
