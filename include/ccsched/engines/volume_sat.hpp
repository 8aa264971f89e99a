// The exact search for an ALLREDUCE of several blocks at its bandwidth bound (docs/ENGINES.md
// "Several blocks: at the volume bound"; docs/BOUNDS.md "reduce-volume, met exactly"). When
// T steps leave no spare reception (T · Σ_v in-channels(v) = B · 2(p − 1), every processor
// taking part, all ports), every schedule of T steps has one shape: each block is a tree of
// p − 1 one-hop reduce transfers into one processor x, in strictly rising steps along every
// branch, then one reception per other processor that completes it (a copy from a
// processor that holds the whole sum, or x's partial sum reduced into the child whose
// subtree arrives last, in that same step). This engine asks CaDiCaL for B such blocks
// sharing the channels; "no" is then a proof that T steps are impossible under the model
// (relays and copies included). With spare receptions it still finds such schedules, and
// a "no" proves nothing.
//
//   EngineResult r = volume_sat(problem, /*steps=*/3, budget);
//   if (r.status == SolveStatus::infeasible && r.complete) { /* 3 steps are impossible */ }
#pragma once

#include <cstdint>
#include <string>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

// Σ_v in-channels(v) · steps == blocks · 2(p − 1): a "no" of volume_sat at `steps` is a
// proof under the model.
bool volume_exact(const Problem& problem, int steps);

// The largest encoding built: blocks x channels x steps (hypercube:3 with 8 blocks at 5
// steps is 960; hypercube:6 with 64 blocks at 21, 516,096, would take 3.4 GB and more
// conflicts than a solve can give it).
inline constexpr std::int64_t kVolumeSatMaxSize = 150'000;

// Why the problem is outside the search (not an ALLREDUCE of several blocks with every
// processor sending and receiving, combining, switches, fewer ports than some processor's
// channels, an encoding above kVolumeSatMaxSize or, when `max_memory` > 0, above that many
// bytes), or empty when it applies.
std::string volume_sat_refusal(const Problem& problem, int steps, double max_memory = 0);

// A schedule of `steps` steps of the shape above (verify_schedule passes), a proof that
// none exists (`complete` when volume_exact, else no proof at all), or unknown when the
// budget (its work in conflicts, the clock, Ctrl-C) ran out first.
EngineResult volume_sat(const Problem& problem, int steps, const Budget& budget);

}  // namespace ccsched
