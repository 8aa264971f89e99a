// The exact engine: encodes "this problem fits in T steps" as CNF and asks CaDiCaL.
// SAT gives a schedule; UNSAT (over the unrestricted path set) proves that T steps are
// not enough. The encoding is kept and reused (activation literals per step) so that the
// driver can ask for smaller T incrementally.
#pragma once

#include <memory>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

struct SatStats {
  std::int64_t variables = 0;
  std::int64_t clauses = 0;
};

// Which part of the search space an encoding covers. Either restriction makes an
// "infeasible" answer meaningless as a proof (EngineResult::complete = false).
struct SatRestriction {
  std::optional<int> radius;             // spreading: informers within this many hops
  std::optional<int> paths_per_message;  // direct: this many paths per message
  bool balanced = true;  // those paths chosen to balance channel load (else: the first ones)
};

// How the engine encodes scatter-type problems (every message one target) under wormhole
// switching. Broadcasts and store-and-forward always use the spreading encoding.
enum class ScatterEncoding {
  // Each message is one transfer from its origin to its target (the seeds' model): small
  // and fast, but it cannot see schedules that relay a message through other processors,
  // so its "infeasible" is a proof within direct delivery only (EngineResult::complete is
  // false, the note says "direct delivery").
  direct,
  // The spreading encoding: any processor may receive the message and pass it on in a
  // later step (FORMATS.md rule 5). Larger; its answers are proofs under the model.
  relays,
};

class SatEngine final : public Engine {
 public:
  explicit SatEngine(EngineOptions options, ScatterEncoding scatter = ScatterEncoding::direct);
  ~SatEngine() override;
  std::string_view name() const override { return "sat"; }
  EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                     const Budget& budget) override;
  // Size of the last encoding built.
  SatStats stats() const;
  // True when the problem gets the spreading (holding) encoding rather than direct paths.
  bool uses_spreading(const Problem& problem) const;

 private:
  struct State;
  struct Census;
  // False (and the reason in `why`) when the encoding's estimated size exceeds
  // EngineOptions::max_memory (engines/resources.hpp).
  bool fits_memory(const Problem& problem, const PathSet& paths, int steps,
                   const SatRestriction& restriction, std::string* why = nullptr);
  EngineResult run(State& state, const Problem& problem, const PathSet& paths, int steps,
                   const Budget& budget, const SatRestriction& restriction);
  EngineOptions options_;
  ScatterEncoding scatter_;
  std::unique_ptr<State> state_;
  std::unique_ptr<Census> census_;
};

// Rough size of the encoding for T steps (for refusing early: docs/RELIABILITY.md).
SatStats estimate_sat_size(const Problem& problem, const PathSet& paths, int steps,
                           ScatterEncoding scatter = ScatterEncoding::direct);

}  // namespace ccsched
