// The duality between reductions and broadcasts (docs/ENGINES.md, "Reductions: duality"),
// private to the engines: the gather of block b into owners[b] is a broadcast on the
// reversed network run backwards in time, and the ALLREDUCE composition follows it with a
// broadcast of the sums. Both phases are solved by solve_problem itself; reduction.cpp
// holds the code, the driver's reduction rows (driver/reduce_rows.cpp) call it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ccsched/engines/driver.hpp"

namespace ccsched {

// One phase of a composed reduction: the broadcast's transfers rewritten as reduction
// transfers on the original network, steps 1..steps.
struct Phase {
  std::vector<Transfer> transfers;
  int steps = 0;
  SolveOutcome outcome;  // of the broadcast (schedule moved out)
  std::string engine;
};

// The broadcast whose reversal gathers block b into owners[b] from every sender;
// message_block[m] is the block of message m.
Problem dual_problem(const Problem& p, const std::vector<NodeId>& owners,
                     std::vector<int>& message_block);
// The gather as a reversed broadcast, or nothing when the broadcast found no schedule.
std::optional<Phase> gather_dual(const Problem& p, const std::vector<NodeId>& owners,
                                 const SolveRequest& request);
// The finished sums spread from owners[b] to every receiver, `offset` steps later.
std::optional<Phase> spread(const Problem& p, const std::vector<NodeId>& owners,
                            const SolveRequest& request, int offset);
// The processor with the smallest eccentricity among `among`: the composed all-reduce's
// root, where both phases are short.
NodeId central_processor(const Problem& p, const PathSet& paths, const std::vector<NodeId>& among);

}  // namespace ccsched
