// Relay job shop: scatter-type collectives (AAS, OAS, PERM, MNS, ...) on direct networks,
// above all large ones where the direct-delivery searches do not finish, and Kautz
// digraphs, whose unique shortest routes crowd some channels so that relays beat every
// direct schedule (kautz:3,3 AAS: 32 steps, the weighted-load bound; direct delivery
// needs 34). Routes level the channel loads, leaving the shortest paths where needed, and
// a processor on the way holds and forwards the message (FORMATS.md rule 5). When every
// node may use all its channels at once, every message goes one hop per transfer: each
// channel is a machine serving one hop per step, a job shop whose jobs are the hop chains,
// and longest-remaining-chain-first ends close to the busiest channel's load. With fewer
// ports (wormhole), a route goes in legs that are shortest paths through the routers, one
// transfer each, packed first fit.
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

// A relayed schedule for a scatter-type problem on a network without switches (each relay
// must be a processor that can hold the message), or nothing when the problem is not one,
// the model combines messages, or the budget ends first. Deterministic given the seed.
std::optional<Schedule> relay_scatter(const Problem& problem, const PathSet& paths,
                                      std::uint64_t seed, const Budget& budget);

}  // namespace ccsched
