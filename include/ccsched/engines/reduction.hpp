// Reductions in the solve driver (docs/ENGINES.md, "Reductions"): REDUCE, ALLREDUCE,
// REDUCESCATTER and SCAN (FORMATS.md "Reductions") are solved here, in one place, from a
// table of candidate designs — duality with broadcasts on the reversed network, the
// composition gather + broadcast, and closed-form designs (recursive doubling, ring
// reduce-scatter/all-gather over a Hamiltonian cycle, Hillis-Steele scan). Every candidate
// passes verify_schedule in the driver's table (driver.hpp); the best is kept and reported with its bound and what is proven.
//
// Duality (the argument is in docs/ENGINES.md): a reduce of block b into node r on G and a
// broadcast of message b from r on the reversed network G^R are the same problem run
// backwards in time, so REDUCE and REDUCESCATTER inherit the broadcast engines' schedules,
// bounds and proofs unchanged (`optimal`, `optimal_within`).
#pragma once

#include <string>
#include <vector>

#include "ccsched/engines/driver.hpp"

namespace ccsched {

// G with every channel reversed (same nodes, kinds and labels).
Topology reversed_topology(const Topology& t);

// The network the dual broadcasts run on: G itself (its name, faults and all) when G^R is
// the same network, so that designs recognising G by name apply; reversed_topology(G)
// otherwise (Kautz, de Bruijn, one-way faults).
Topology dual_network(const Topology& t);

// The closed-form candidates that apply to the problem (no search), each named, each
// checked by the caller (tests) or by the driver with verify_schedule.
struct ReductionCandidate {
  std::string design;  // "recursive-doubling", "ring", "hillis-steele", ...
  Schedule schedule;
};
// A design the budget (time limit, Ctrl-C) cuts short is left out.
std::vector<ReductionCandidate> reduction_designs(const Problem& problem, const PathSet& paths,
                                                  const Budget& budget = Budget());


}  // namespace ccsched
