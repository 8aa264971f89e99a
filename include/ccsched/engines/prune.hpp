// Minimal reduction schedules (docs/ENGINES.md, "Reductions: pruning"): a design built from
// logical rounds, a composition of two phases or a SAT model can carry transfers whose
// deletion leaves the schedule valid (a copy of a sum the receiver already holds, a partial
// sum nobody reads again). They cost time on a real network and flow into the MPI and MSCCL
// programs and the pictures, so every reduction schedule the driver returns goes through
// this pass first.
#pragma once

#include <cstdint>

#include "ccsched/engines/engine.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct PruneResult {
  int removed = 0;        // transfers deleted
  bool complete = false;  // every transfer left was tried after the last deletion
};

// Deletes, one at a time, every transfer of the valid reduction schedule `s` whose
// deletion keeps it valid under FORMATS.md "Reductions" (R1-R3; rules 1-4, 8 and 9 cannot
// break by deleting), until no single deletion does; then drops the steps left empty,
// renumbering the rest in order. Transfers are tried from the last to the first, in
// passes until a pass deletes nothing, so the answer is deterministic. Rules are checked
// by following how each deletion changes the accumulators downstream (the values differ
// only where the deleted transfer's effect reaches), so a pass costs about the schedule's
// size times the reach. `work` caps the accumulator words the pass may touch (the same on
// every machine); when it runs out, or `budget` expires, the transfers deleted so far stay
// deleted and `complete` is false. A schedule that is not a reduction, or that does not
// fit in memory (more than `max_words` words of accumulator values), is left as it is.
PruneResult prune_reduction(Schedule& s, const Budget& budget = Budget(),
                            std::int64_t work = 30'000'000, std::int64_t max_words = 8'000'000);

}  // namespace ccsched
