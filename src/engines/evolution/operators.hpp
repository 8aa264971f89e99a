// The operators the evolutionary engines share, each in its own file:
//   seeding.cpp       random first individuals, step-0 building blocks (seed 000 §4.4),
//                     and evaluate() = repair + conflict count
//   acceleration.cpp  the k-port injection heuristic for scatter (seed 000 §4.4)
//   restoration.cpp   broadcast-tree restoration step by step, with the receiver radius
//                     and postponement past full ports (seed 000 §4.4)
//   mutation.cpp      the mutation and climbing moves of a new UMDA or MBOA chromosome
//   moves.cpp         mutation / Metropolis moves: path changes, the time-slot swap that
//                     replaces mutation for scatter (seed 000 §4.4), source and step
//                     changes for broadcast — all evaluated incrementally, with undo
// A Workspace holds the mutable state one thread needs (occupancy, scratch, journal).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "genome.hpp"
#include "instance.hpp"
#include "occupancy.hpp"
#include "rng.hpp"

namespace ccsched::evo {

struct Heuristics {
  bool acceleration = true;  // scatter: enforce the k-port injection limit before evaluation
  bool directed = true;      // moves and restoration keep the least-conflict alternative
  double path_move = 0.5;    // scatter: share of moves that change a path (else time slots)
  double step_move = 0.2;    // broadcast: share of moves that change a step (else the source)
};

// Genes whose transfer is in conflict, sampled without a full scan on every call: the
// list is rebuilt only when every remembered gene has become conflict-free.
class ConflictSampler {
 public:
  void reset() { list_.clear(); }
  // Once only: a duplicate would make the gene a more likely pick each time it moves, and
  // a gene that cannot fix its conflict by itself would then starve its partner.
  void remember(int gene) {
    if (std::find(list_.begin(), list_.end(), gene) == list_.end()) list_.push_back(gene);
  }
  // A random conflicted gene, or -1 when there is none.
  int pick(const Instance& inst, const Genome& genome, const Occupancy& occ, Rng& rng);

 private:
  std::vector<int> list_;
};

struct JournalEntry {
  int gene;
  std::int32_t source, path, step;
};

struct Workspace {
  explicit Workspace(const Instance& inst) : occ(inst) {}
  Occupancy occ;
  ConflictSampler conflicts;
  std::vector<JournalEntry> journal;
  // restoration / acceleration scratch
  std::vector<int> order, current, carry, informed, count, free_steps;
};

// A uniformly random individual (paths, steps and sources); with `step0` every gene
// starts at step 1, the building block of seed 000 §4.4 that lets restoration grow
// broadcast trees wave by wave.
void randomize(const Instance& inst, Genome& genome, Rng& rng, bool step0);

// Repairs `genome` (acceleration for scatter, restoration for broadcast), places every
// transfer into ws.occ and sets genome.fitness. ws.occ then matches the genome, ready for
// incremental moves. `construct`: a first individual, whose broadcast trees are built
// with hard port limits (see restoration.cpp).
std::int64_t evaluate(const Instance& inst, Genome& genome, Workspace& ws, Rng& rng,
                      const Heuristics& h, bool construct = false);

// Scatter: no sender injects more than k messages in one step (seed 000 §4.4).
void accelerate(const Instance& inst, Genome& genome, Rng& rng, Workspace& ws);

// Broadcast: rebuilds the tree of row `row` step by step. The row's transfers must not be
// in ws.occ; they are added as they are decided. `hard_ports`: postpone past full ports.
void restore_row(const Instance& inst, Genome& genome, int row, Rng& rng, bool directed,
                 bool hard_ports, Workspace& ws);

// One move on the evaluated `genome` (ws.occ matching it). Journals what it changes so
// that undo() can revert it; commit() forgets the journal. Returns false when no move
// was possible (nothing to change).
bool move(const Instance& inst, Genome& genome, Workspace& ws, Rng& rng, const Heuristics& h,
          bool directed);
void undo(const Instance& inst, Genome& genome, Workspace& ws);
inline void commit(Workspace& ws) { ws.journal.clear(); }

// A new chromosome's mutation (UMDA, MBOA): `moves` moves kept whatever they do (uniformly
// random for a walker, else directed as `h` says), then up to `climb` moves, each undone
// if it adds conflicts. `child` must be evaluated in ws.occ; sets child.fitness.
void mutate(const Instance& inst, Genome& child, Workspace& ws, Rng& rng, const Heuristics& h,
            int moves, int climb, bool walker);

}  // namespace ccsched::evo
