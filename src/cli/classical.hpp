// `solve --algorithm NAME` (docs/ENGINES.md, "Classical algorithms"): the classical
// algorithms' schedules on the user's network, without the search. Shared by the solve
// command and by `solve --bytes`, which weighs them against ccsched's own schedules.
#pragma once

#include <string>
#include <vector>

#include "ccsched/engines/classical.hpp"
#include "ccsched/engines/driver.hpp"
#include "problem_options.hpp"

namespace ccsched::cli {

// The problem the algorithm runs on: `base`, or for an ALLREDUCE without --blocks the
// algorithm's own block count (classical_default_blocks: p for ring and rabenseifner).
Problem classical_problem(const ProblemOptions& po, const Problem& base, ClassicalAlgorithm a);

// Rank r's processor: the --senders order when given, else empty (the collective's order).
std::vector<NodeId> rank_order(const ProblemOptions& po, const Problem& problem);

// The algorithm's schedule, verified (a schedule that fails verify is a bug: logic_error),
// as a SolveOutcome the summary printers take; status unknown and no schedule when the
// budget ran out. `max_transfers` caps the schedule's size (docs/RELIABILITY.md,
// "Limits"): past it one InvalidParameter line names --blocks.
SolveOutcome solve_classical(const Problem& problem, const ClassicalRequest& request,
                             const Budget& budget);

}  // namespace ccsched::cli
