// Broadcasts over fixed trees: every message's spanning tree (who informs whom) is chosen
// in advance, and CaDiCaL only chooses the step (and, where several exist, the path) of
// each transfer. Far smaller than the spreading encoding of the SAT engine, which builds
// the trees too: one variable per (transfer, step) instead of one per (message, sender,
// receiver, path, step). An answer is about the given trees only, never a proof for the
// problem.
//
//   auto trees = neighbour_trees(problem, paths);            // or trees_of(problem, paths, best)
//   auto r = schedule_trees(problem, paths, *trees, T, budget, seed);
//   if (r.status == SolveStatus::feasible) use(*r.schedule);  // passes verify_schedule
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

// One edge of a message's tree: `sender` informs `receiver`. The sender is the origin or
// the receiver of another edge of the same message (FORMATS.md rule 5).
struct TreeEdge {
  MessageId message = 0;
  NodeId sender = kNoNode;
  NodeId receiver = kNoNode;
};

// Trees whose edges are single channels between processors, breadth first from each
// origin (so every transfer is as short as it can be and the channel load is the
// channel-load bound's); among equally near parents the least loaded channel so far.
// Nothing when some processor reaches another only through a switch.
std::optional<std::vector<TreeEdge>> neighbour_trees(const Problem& problem, const PathSet& paths);

// The trees of a valid schedule: for every (message, receiver) its first reception, and
// only the receptions that lead to a target.
std::vector<TreeEdge> trees_of(const Problem& problem, const Schedule& schedule);

// Steps (and paths among the allowed ones) for the given trees in at most `steps` steps
// under the channel and port rules. `infeasible` only means "not with these trees"
// (EngineResult::complete is false). An encoding estimated above `max_bytes` (0: no
// limit) is not built (unknown).
EngineResult schedule_trees(const Problem& problem, const PathSet& paths,
                            const std::vector<TreeEdge>& trees, int steps, const Budget& budget,
                            std::uint64_t seed, double max_bytes = 0);

}  // namespace ccsched
