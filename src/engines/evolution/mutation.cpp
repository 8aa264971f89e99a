// The mutation of a new UMDA or MBOA chromosome (seed 000 §4.5: "this operator is
// responsible for testing and changing possible source-destination paths"), followed,
// while the search stalls, by the climbing moves (ours, docs/EVOLUTIONARY.md): a short
// downhill or sideways walk that the marginal or Bayesian model alone cannot make.
#include "operators.hpp"

namespace ccsched::evo {

void mutate(const Instance& inst, Genome& child, Workspace& ws, Rng& rng, const Heuristics& h,
            int moves, int climb, bool walker) {
  // The conflict list describes the workspace's previous chromosome: start afresh.
  ws.conflicts.reset();
  // The seeds' mutation: moves kept whatever they do. A walker's is a uniformly random
  // move: a directed one would be undone by the climb that follows (the way back is as
  // good), and the walk would go round in a circle.
  for (int m = 0; m < moves && ws.occ.conflicts() > 0; ++m)
    move(inst, child, ws, rng, h, h.directed && !walker);
  commit(ws);
  for (int m = 0; m < climb && ws.occ.conflicts() > 0; ++m) {
    const std::int64_t before = ws.occ.conflicts();
    move(inst, child, ws, rng, h, h.directed);
    if (ws.occ.conflicts() > before)
      undo(inst, child, ws);
    else
      commit(ws);
  }
  child.fitness = ws.occ.conflicts();
}

}  // namespace ccsched::evo
