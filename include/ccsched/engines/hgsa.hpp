// The HGSA engine: hybrid parallel genetic simulated annealing (seed 002 §5). Simulated
// annealing workers make Metropolis moves over the same encodings and fitness as UMDA;
// every `epoch` iterations each sends its solution to a master, which makes children by
// crossover and mutation, keeps one by roulette wheel and sends the others back out.
//
//   HgsaParams params;
//   params.threads = 2;                  // workers run on two threads
//   HgsaEngine engine(options, params);
//   EngineResult r = engine.solve(problem, paths, /*steps=*/7, budget);
//
// Determinism: epochs are synchronous (all workers finish their epoch, then the master
// acts), every worker draws from its own random stream, and the result depends on the
// number of workers, never on thread timing. Workers default to one per thread, so the
// same seed and thread count give the same schedule.
#pragma once

#include <span>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/params.hpp"

namespace ccsched {

struct HgsaParams {
  int workers = 0;               // SA processes; 0: one per thread (seed 002 §5 "slaves")
  int threads = 1;               // threads running the workers
  int epoch = 100;               // Metropolis iterations between reports (seed 002 §5)
  double crossover = 0.7;        // a pair of solutions is crossed with this probability (ours)
  double mutation = 0.2;         // a crossed child is mutated with this probability; a child
                                 // copied from its parent always is (seed 002 §5)
  int mutation_moves = 1;        // random moves per mutation (ours)
  double temperature = 1.0;      // initial SA temperature, in conflicts (ours)
  double cooling = 0.98;         // temperature factor per epoch (ours)
  double min_temperature = 0.1;  // the temperature never drops below this (ours)
  int restart = 100;             // every solution is drawn afresh after max(this, the epochs
                                 // the attempt took to reach its best) epochs without
                                 // improvement (ours, evolution/control.hpp); 0: never
  double directed = 0.5;         // share of proposals that are the least-conflict alternative
                                 // of a conflicting gene (min-conflicts); the rest are
                                 // uniformly random alternatives (ours)
  double path_move = 0.5;        // a scatter move changes a path, else swaps time slots
  double step_move = 0.2;        // a broadcast move changes a step, else a source/path
  bool acceleration = true;      // k-port injection heuristic for scatter (seed 000 §4.4)
  double step0 = 0.5;            // broadcast: share of first solutions starting at step 1
  bool auto_radius = true;       // AAB on a regular direct network: radius 1 (seed 000 §4.4)
  int generations = 0;           // give up after this many epochs per run; 0: no limit
  int stall = 5000;              // give up after this many epochs without improvement
};

std::span<const ParamSpec<HgsaParams>> hgsa_param_table();

class HgsaEngine final : public Engine {
 public:
  explicit HgsaEngine(EngineOptions options, HgsaParams params = {});
  std::string_view name() const override { return "hgsa"; }
  EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                     const Budget& budget) override;
  const HgsaParams& params() const { return params_; }

 private:
  EngineOptions options_;
  HgsaParams params_;
};

}  // namespace ccsched
