// The MBOA engine: the Mixed Bayesian Optimization Algorithm that seed 002 §5 used for its
// many-to-many broadcast and scatter schedules (Očenášek & Schwarz 2002; the parallel BOA,
// Očenášek & Schwarz 2000). Each generation learns a Bayesian network over the genes —
// one binary decision tree per gene, grown greedily under the Bayesian-Dirichlet or BIC
// metric with a complexity penalty, acyclic through a random topological order (as in
// Pelikan's BOA/hBOA with decision graphs) — samples new chromosomes in that order, repairs
// and evaluates them with the encodings, fitness, acceleration and restoration shared with
// UMDA and HGSA, and lets them in by restricted tournament replacement.
// docs/EVOLUTIONARY.md, "MBOA", says what is the seed's and what is ours.
//
//   MboaParams params;                  // population 60, BD metric, penalty 1, ...
//   params.threads = 2;                 // trees and children on two threads
//   MboaEngine engine(options, params);
//   EngineResult r = engine.solve(problem, paths, /*steps=*/7, budget);
//
// Contract: a feasible result's schedule passes verify_schedule; "infeasible" is never
// answered; the same seed and parameters give the same schedule whatever the thread count
// (trees are grown one per task without randomness, children each from their own random
// stream, replacement on one thread).
#pragma once

#include <span>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/params.hpp"

namespace ccsched {

struct MboaParams {
  int population = 60;       // individuals (as UMDA, seed 000 §4.5; the linkage test on
                             // deceptive traps needs more, the schedules do not)
  int tournament = 8;        // tournament size of the selection (tournament selection as in
                             // hBOA; 8 is ours, measured: docs/EVOLUTIONARY.md)
  double selection = 0.5;    // share of the population selected to learn the model from
  double offspring = 0.5;    // share of the population sampled anew each generation and
                             // offered to the replacement (ours: half, as UMDA)
  int window = 0;            // restricted tournament window; 0: min(genes, population / 20),
                             // Pelikan's hBOA rule
  int metric = 0;            // 0: Bayesian-Dirichlet (K2 prior), 1: BIC
  double penalty = 1.0;      // complexity penalty per added leaf, in units of 0.5 ln N
  int candidates = 64;       // genes a gene's tree may split on: those sharing the most
                             // channels and ports with it (ours; 0: every gene)
  double mutation = 0.9;     // a new chromosome is mutated with this probability (as UMDA,
                             // seed 000 §4.5)
  int mutation_moves = 1;    // moves per mutation
  int climb_moves = 64;      // when the search stalls, a mutation adds up to this many moves
                             // that are undone if they add conflicts (ours, as UMDA)
  int elite_walk = 4;        // while climbing, this many new chromosomes continue local-search
                             // chains from the best members (ours, as UMDA)
  int climb_stall = 20;      // generations without improvement before those moves double
  double path_move = 0.5;    // as UMDA
  double step_move = 0.2;    // as UMDA
  bool directed = true;      // as UMDA
  bool acceleration = true;  // as UMDA (seed 000 §4.4)
  double step0 = 1.0;        // as UMDA (seed 000 §4.4)
  double hard_ports = 0.5;   // as UMDA (ours)
  bool auto_radius = true;   // as UMDA (seed 000 §4.4)
  int restart = 300;         // as UMDA (ours); 0: never
  int generations = 0;       // give up after this many generations per run; 0: no limit
  int stall = 5000;          // give up after this many generations without improvement
  int threads = 1;           // threads growing the trees and evaluating the children
};

std::span<const ParamSpec<MboaParams>> mboa_param_table();

class MboaEngine final : public Engine {
 public:
  // Applies options.params (names from mboa_param_table) over `params`; throws
  // InvalidParameter for an unknown name or a value out of range.
  explicit MboaEngine(EngineOptions options, MboaParams params = {});
  std::string_view name() const override { return "mboa"; }
  EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                     const Budget& budget) override;
  const MboaParams& params() const { return params_; }

 private:
  EngineOptions options_;
  MboaParams params_;
};

}  // namespace ccsched
