// Region broadcast: a one-to-all broadcast built step by step for large networks (docs/BENCHMARKS.md, "Scale"),
// where the spreading SAT encoding and the window search cost gigabytes. Each step every
// holder owns the uninformed targets nearer to it than to any other holder (its region) and
// sends to up to k of them, chosen so that the region splits into k + 1 cells of nearly
// equal size: a holder's region of n nodes needs at least ceil(log_{k+1} n) more steps
// (the informed-set argument of seed 000 §3, applied per region), so balanced cells keep
// every region on that pace. Paths are found lazily (PathSet::first_free_path), so memory
// follows the transfers made, not the paths that exist.
//
//   if (auto s = region_broadcast(problem, paths, seed, budget)) use(*s);
#pragma once

#include <cstdint>
#include <optional>

#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// A broadcast of one message under wormhole switching, or nothing when the problem is of
// another kind (several messages, store-and-forward, combining, reductions) or the budget
// ends first. `attempts` seeded variants are tried (seed, seed+1, ...) and the shortest
// kept. The schedule has not been verified; the driver verifies whatever it keeps.
std::optional<Schedule> region_broadcast(const Problem& problem, const PathSet& paths,
                                         std::uint64_t seed, const Budget& budget,
                                         int attempts = 16);

}  // namespace ccsched
