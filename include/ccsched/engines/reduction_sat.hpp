// The exact search for one-block reductions (docs/ENGINES.md
// "Reductions: exact search"): "does this REDUCE, ALLREDUCE, REDUCESCATTER or SCAN with one
// block fit in T steps?" as CNF for CaDiCaL, over the accumulator model of FORMATS.md
// "Reductions" itself, so that UNSAT proves an optimum where composition (gather, then
// broadcast) and the closed forms leave a gap.
//
//   ReductionSatEngine engine(options);
//   EngineResult r = engine.solve(problem, paths, /*steps=*/4, budget);
//   if (r.status == SolveStatus::infeasible && r.complete) { /* 4 steps are impossible */ }
//
// The encoding is complete for the model (every processor may relay; every allowed path;
// send input or acc, receive reduce or copy) when the collective has one block, the path
// lists are not truncated and routing is minimal; otherwise `complete` is false and
// `proof_within` names the restriction. Narrowed searches (acc-and-reduce schedules, no
// `input` sends, schedules invariant under an automorphism) take turns with the whole
// model in slices of conflicts: they find most schedules far sooner, and only the whole
// model's "no" is a proof. Only small networks: solve() answers "unknown"
// with a note, without building anything, above reduction_sat_limits().
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

struct ReductionSatSize {
  std::int64_t variables = 0;  // estimated before building
  std::int64_t literals = 0;   // estimated literal occurrences in clauses and counters
};

// The encoding's size for `steps` steps, counted from the path lists without building it.
ReductionSatSize estimate_reduction_sat(const Problem& problem, const PathSet& paths, int steps);

// Why the problem is outside the engine (more than one block, not a reduction, more than
// kMaxProcessors processors, an estimate above kMaxLiterals or EngineOptions::max_memory),
// or empty when it applies.
std::string reduction_sat_refusal(const Problem& problem, const PathSet& paths, int steps,
                                  const EngineOptions& options);

class ReductionSatEngine final : public Engine {
 public:
  static constexpr int kMaxProcessors = 36;
  static constexpr std::int64_t kMaxLiterals = 40'000'000;
  // The first slice of conflicts at each step count, among acc-and-reduce schedules only
  // (docs/ENGINES.md "Reductions: exact search").
  static constexpr std::int64_t kNarrowConflicts = 10'000;
  // Automorphisms tried as narrowed searches (schedules invariant under one of them).
  static constexpr std::size_t kSymmetries = 2;

  explicit ReductionSatEngine(EngineOptions options);
  ~ReductionSatEngine() override;
  std::string_view name() const override { return "reduction-sat"; }
  // A schedule of at most `steps` steps (verify_schedule passes), a proof that none
  // exists (complete) or within a restriction (proof_within), or unknown (budget, size).
  // The encoding of the largest `steps` asked is kept: asking for fewer steps afterwards
  // only adds assumptions, as in the SAT engine.
  EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                     const Budget& budget) override;

 private:
  struct State;
  EngineOptions options_;
  std::unique_ptr<State> state_;
};

}  // namespace ccsched
