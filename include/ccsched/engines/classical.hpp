// The classical collective algorithms as schedules on the user's network (docs/ENGINES.md,
// "Classical algorithms"): ring, recursive doubling, Rabenseifner, Swing, Bine and binomial
// trees, written as the rounds their papers give over ranks (rank r = ranks[r]) and each
// round split into the fewest contention-free steps found on the network's minimal routes
// under the problem's model. They prove nothing (`optimal` false): they are the baselines
// that ccsched's own schedules are compared with (`solve --algorithm`, `solve --bytes`).
//
//   ClassicalRequest request{.algorithm = ClassicalAlgorithm::swing};
//   std::optional<ClassicalOutcome> out = classical_schedule(problem, request);
//   if (out) write(out->schedule);   // engine "classical:swing"; the caller verifies it
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/engine.hpp"

namespace ccsched {

enum class ClassicalAlgorithm { ring, recursive_doubling, rabenseifner, swing, bine, binomial };

// "ring", "recursive-doubling", "rabenseifner", "swing", "bine", "binomial".
std::string_view to_string(ClassicalAlgorithm a);
// Throws InvalidParameter (option "--algorithm") naming the known names.
ClassicalAlgorithm parse_classical_algorithm(std::string_view name);
// Every algorithm, in the order above.
const std::vector<ClassicalAlgorithm>& classical_algorithms();

// Whether the algorithm writes this collective:
//   ALLREDUCE      every algorithm
//   REDUCESCATTER  ring, rabenseifner, swing, bine
//   AAB            ring, recursive-doubling, swing, bine
//   REDUCE, OAB    binomial, bine
bool classical_applies(ClassicalAlgorithm a, CollectiveKind kind);

// The block count an ALLREDUCE runs with when the user gives none: p (the number of ranks)
// for ring and rabenseifner, which scatter the vector over the ranks, 1 for the others
// (swing and bine then write their latency variants). Other kinds: their own count.
int classical_default_blocks(ClassicalAlgorithm a, const Collective& c);

struct ClassicalRequest {
  ClassicalAlgorithm algorithm = ClassicalAlgorithm::ring;
  // Rank r is processor ranks[r]; empty: the collective's processors in id order (for OAB
  // the root and its targets). Otherwise a permutation of them.
  std::vector<NodeId> ranks;
  std::uint64_t seed = 1;  // the group orders tried when a round is split into steps
  // Work: packings tried per round (first fit in the algorithm's order, then orders drawn
  // from the seed); fewer on large rounds, so that a round costs at most about
  // `packing_work` hop placements.
  int attempts = 8;
  std::int64_t packing_work = 400'000;
  // Compute the usual lower bounds for the JSON's lower_bound, when blocks x processors is
  // at most `bound_cells` (past it the bounds take longer than the schedule: 2.8 s and
  // 0.6 GB of the 6.6 s for the ring on hypercube:9 with 512 blocks); else none.
  bool lower_bound = true;
  std::int64_t bound_cells = 1 << 16;
  // The most transfers the schedule may have (0: no cap); past it InvalidParameter naming
  // --blocks, before any step is packed.
  std::int64_t max_transfers = 0;
};

struct ClassicalOutcome {
  Schedule schedule;    // engine "classical:<name>", optimal false; not yet verified
  std::string variant;  // "latency" or "bandwidth" (swing, bine), else the algorithm's own
  int rounds = 0;       // the algorithm's rounds; schedule.steps >= rounds
  BoundReport bounds;   // the bounds behind schedule.lower_bound (empty when not computed)
};

// The algorithm's schedule for the problem. Throws Unsupported (one line naming the
// algorithm) for a collective it does not write, a reduction whose senders differ from
// its receivers (ALLREDUCE, REDUCESCATTER), a REDUCE root that is not a sender, or, under
// store-and-forward, partners more than one channel apart; InvalidParameter for `ranks`
// that are not a permutation of the collective's processors. nullopt when the budget
// (time limit, Ctrl-C) ran out first.
std::optional<ClassicalOutcome> classical_schedule(const Problem& problem,
                                                   const ClassicalRequest& request,
                                                   const Budget& budget = Budget());

}  // namespace ccsched
