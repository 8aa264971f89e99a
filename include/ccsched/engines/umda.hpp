// The UMDA engine: the seeds' evolutionary algorithm (seed 000 §4, seed 001 §4), a
// univariate marginal distribution algorithm over the direct (scatter) or indirect
// (broadcast) encoding, with the conflict-counting fitness and the acceleration,
// time-slot swap, restoration, step-0 and radius heuristics. docs/EVOLUTIONARY.md
// describes every piece and where the seeds say it.
//
//   UmdaParams params;                  // the seeds' defaults: population 60, ...
//   params.threads = 2;
//   UmdaEngine engine(options, params);
//   EngineResult r = engine.solve(problem, paths, /*steps=*/7, budget);
//
// Contract: a feasible result's schedule passes verify_schedule; "infeasible" is never
// answered (an evolutionary search proves nothing); the same seed, thread count and
// parameters give the same schedule (threads only evaluate children in parallel, each
// child with its own random stream).
#pragma once

#include <span>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/params.hpp"

namespace ccsched {

struct UmdaParams {
  int population = 60;       // seed 000 §4.5, seed 001 §4.5
  int tournament = 2;        // binary tournament selects the parents (seed 000 §4.5)
  double offspring = 0.5;    // new chromosomes replace the worse half (seed 000 §4.5)
  double mutation = 0.9;     // a new chromosome is mutated with this probability (§4.5)
  int mutation_moves = 1;    // moves per mutation (ours; the seeds mutate once)
  int climb_moves = 64;      // when the search stalls, a mutation adds up to this many
                             // moves that are undone if they add conflicts (ours)
  int elite_walk = 4;        // while climbing, this many new chromosomes are walkers:
                             // local-search chains from the best members that go on
                             // from their own last state (ours)
  int climb_stall = 20;      // generations without improvement before those moves double
  bool whole_genes = true;   // the model's variables are whole genes (source, path, step
                             // drawn together); 0: each component on its own
  double path_move = 0.5;    // a scatter move changes a path, else swaps time slots (ours)
  double step_move = 0.2;    // a broadcast move changes a step, else a source/path (ours)
  bool directed = true;      // moves test every alternative and keep the least-conflict
                             // one, the seeds' "testing possible paths" (§4.5); 0: random
  bool acceleration = true;  // k-port injection heuristic for scatter (seed 000 §4.4)
  double step0 = 1.0;        // broadcast: share of the first population whose genes all
                             // start at the first step (seed 000 §4.4 building blocks)
  double hard_ports = 0.5;   // broadcast, k-port: share of new chromosomes restored with
                             // hard port limits, as the first population is (ours)
  bool auto_radius = true;   // AAB on a regular direct network: radius 1 unless --radius
                             // (seed 000 §4.4: r = 1 for symmetric networks)
  int restart = 300;         // restart from a fresh population after max(this, the
                             // generations the attempt took to reach its best) without
                             // improvement (ours, evolution/control.hpp); 0: never
  int generations = 0;       // give up after this many generations per run; 0: no limit
  int stall = 20000;         // give up after this many generations without improvement
  int threads = 1;           // threads evaluating the children of a generation
};

std::span<const ParamSpec<UmdaParams>> umda_param_table();

class UmdaEngine final : public Engine {
 public:
  // Applies options.params (names from umda_param_table) over `params`; throws
  // InvalidParameter for an unknown name or a value out of range.
  explicit UmdaEngine(EngineOptions options, UmdaParams params = {});
  std::string_view name() const override { return "umda"; }
  EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                     const Budget& budget) override;
  const UmdaParams& params() const { return params_; }

 private:
  EngineOptions options_;
  UmdaParams params_;
};

}  // namespace ccsched
