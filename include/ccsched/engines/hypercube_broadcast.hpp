// Hypercube broadcast (docs/ENGINES.md "Hypercube broadcast"): a one-to-all broadcast on
// the binary n-cube under wormhole switching and k ports (all-port: k = n), written
// directly as transfers. The informed set after each step is the root plus a linear
// subspace S of Z_2^n; in step j every informed node x sends to x XOR v for the 2^m - 1
// vectors v of one step, m = floor(log2(k + 1)), so the informed set grows 2^m-fold a
// step: ceil(n / m) steps, at the informed-set bound ceil(n / log2(k + 1)) for every
// n <= 16 under all ports except n = 5, 10, 13, 14 (one step more).
//
//   if (auto s = hypercube_broadcast(problem, seed)) use(*s);   // passes verify_schedule
//
// The vectors of a step and the order in which each path flips its bits come from a
// small search in the quotient Z_2^n / S (at most 2^n nodes, n labels, no processor
// lists); the schedule is then O(P) transfers. Why channel-disjointness in the quotient
// is channel-disjointness in the cube: hypercube_broadcast.cpp.
#pragma once

#include <cstdint>
#include <optional>

#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// Whether the design may apply (cheap: names and counts): one message from one root to
// every other processor of a fault-free hypercube:n (n <= 24), wormhole switching, no
// combining. hypercube_broadcast then checks the channels themselves.
bool hypercube_broadcast_applies(const Problem& problem);

// The broadcast, or nothing when the design does not apply (also when the channels are
// not exactly those of hypercube:n), its search finds no vectors
// for some step (not seen for n <= 18), or the budget ends first. The same seed gives
// the same schedule. Not verified here; the driver verifies whatever it keeps.
std::optional<Schedule> hypercube_broadcast(const Problem& problem, std::uint64_t seed,
                                            const Budget& budget = Budget());

}  // namespace ccsched
