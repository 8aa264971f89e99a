// Constructive schedules: closed-form designs for networks whose structure gives an
// optimal schedule outright, so the driver starts from the optimum instead of asking the
// SAT engine to find a perfect packing (the hardest case for CDCL). Each construction
// checks that the problem really has the structure it needs and returns nothing otherwise;
// whatever it returns passes verify_schedule (the driver re-checks).
//
//   if (auto s = constructive_schedule(problem, paths)) use(*s);
//
// Constructions:
// - Hypercube XOR masks (scatter-type problems whose messages all go u -> u XOR m on a
//   binary hypercube, wormhole, dimension-ordered routes). For AAS with k >= 2 ports this
//   gives 2^(d-1) steps, the AAS bisection bound (P^2/2)/B_C of seed 000 §3; with one
//   port 2^d - 1 steps, the reception bound (P - 1 messages into each node). See docs/ENGINES.md "Constructive schedules".
#pragma once

#include <optional>
#include <vector>

#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/schedule.hpp"
#include "ccsched/schedule/verified.hpp"

namespace ccsched {

// The dimension d when processor ids 0..2^d-1 form a binary hypercube (u and u XOR 2^i
// joined both ways for every bit i, nothing else), else nothing.
std::optional<int> hypercube_dimension(const Topology& t);

// Groups of nonzero d-bit masks that can share a step: pairwise disjoint bit sets and at
// most `ports` masks a group. Every mask of `masks` appears in exactly one group. The
// grouping pairs each mask with its complement when both are present, which is optimal for
// the full set (2^(d-1) groups).
std::vector<std::vector<unsigned>> group_disjoint_masks(std::vector<unsigned> masks, int d,
                                                        int ports);

// The rounds design (k-port wormhole, all-to-all patterns such as AAS and AAB): processors
// numbered 0..P-1, round c delivers i -> i XOR c (or i -> i + c mod P) directly from the
// origin, k rounds per step when they route together (a one-step routing question for
// CaDiCaL), the better of the two families. Nothing when it does not apply.
VerifiedSchedule rounds_schedule(const Problem& problem, const PathSet& paths,
                                 const Budget& budget = Budget());

// The best closed-form schedule ccsched knows for this problem, or nothing when no
// construction applies. Never returns an invalid schedule: it comes sealed by the verifier.
// Nothing when the budget (time limit, Ctrl-C) ends it first: a design is all or nothing.
VerifiedSchedule constructive_schedule(const Problem& problem, const PathSet& paths,
                                       const Budget& budget = Budget());

}  // namespace ccsched
