// First individuals and evaluation. A random individual draws every gene component
// uniformly; the broadcast "step-0 building blocks" of seed 000 §4.4 start every gene at
// the first step instead, so that restoration — which postpones a target until an
// informed sender with a free port exists — grows each tree wave by wave, a near-valid
// broadcast from the start. evaluate() is the repair-then-count of seed 000 §4.3–4.4.
#include "operators.hpp"

namespace ccsched::evo {

void randomize(const Instance& inst, Genome& genome, Rng& rng, bool step0) {
  genome.resize(inst);
  for (std::size_t g = 0; g < inst.gene_count(); ++g) {
    genome.source[g] = rng.below(inst.candidate_count(g));
    genome.path[g] = rng.below(inst.route(g, genome.source[g]).count);
    genome.step[g] = step0 ? 1 : 1 + rng.below(inst.steps());
  }
  genome.fitness = -1;
}

std::int64_t evaluate(const Instance& inst, Genome& genome, Workspace& ws, Rng& rng,
                      const Heuristics& h, bool construct) {
  ws.conflicts.reset();
  ws.journal.clear();
  if (inst.broadcast()) {
    ws.occ.clear();
    for (int r = 0; r < inst.row_count(); ++r)
      restore_row(inst, genome, r, rng, h.directed, construct, ws);
    genome.fitness = ws.occ.conflicts();
  } else {
    if (h.acceleration) accelerate(inst, genome, rng, ws);
    genome.fitness = ws.occ.place_all(genome);
  }
  return genome.fitness;
}

}  // namespace ccsched::evo
