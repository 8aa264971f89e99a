// Symmetric schedules: schedules that an automorphism sigma of the network maps onto
// themselves (a transfer of message m along path p in step s comes with the transfer of
// sigma(m) along sigma(p) in step s). CaDiCaL then decides one transfer per orbit of
// <sigma> instead of one per message, so the encoding is |<sigma>| times smaller and the
// search space with it; on the seeds' vertex-transitive networks (Levi, Kautz, Heawood,
// hypercubes) the optimum is very often symmetric. An answer is about symmetric schedules
// only: "infeasible" proves nothing about the problem (EngineResult::complete is false).
//
//   auto symmetries = problem_symmetries(problem, budget);      // once per problem
//   auto r = symmetric_schedule(problem, paths, symmetries, T, budget, seed);
//   if (r.status == SolveStatus::feasible) use(*r.schedule);   // passes verify_schedule
//
// Scatter-type problems (direct delivery, wormhole): one (path, step) per message orbit;
// an orbit whose paths all meet their own images on a channel (they could never move in
// one step) is split into its messages, each with its own variables. Each symmetry is
// also tried with its images rotated through the steps (the j-th image j·T/gcd(r, T)
// steps later, r the order of sigma), which a scatter allows because it has no holding
// rule.
// Broadcasts: transfers between neighbouring processors only (the radius-1 restriction of
// seed 000 §4.4), one (channel, step) choice per orbit of (message, channel) pairs.
#pragma once

#include <cstdint>
#include <vector>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

// Automorphisms worth trying for this problem: fixed-point-free on the processors, mapping
// the collective's messages onto messages, one per distinct order, largest order first
// (at most `count`). Empty when the network has no such symmetry or the problem does not
// fit the encodings above (store-and-forward, combining).
std::vector<std::vector<NodeId>> problem_symmetries(const Problem& problem, const Budget& budget,
                                                    std::size_t count = 4);

// A schedule of at most `steps` steps invariant under <sigma>, for each sigma in turn with
// an equal share of the budget. An encoding estimated above `max_bytes` (0: no limit) is
// not built (unknown, "over --max-memory"). `progress`, if set, hears after each slice of
// conflicts.
EngineResult symmetric_schedule(const Problem& problem, const PathSet& paths,
                                const std::vector<std::vector<NodeId>>& symmetries, int steps,
                                const Budget& budget, std::uint64_t seed,
                                double max_bytes = 0, const ProgressFn& progress = {});

}  // namespace ccsched
