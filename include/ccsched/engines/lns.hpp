// Large-neighbourhood search for direct-delivery scatter (wormhole AAS, OAS, MNS, PERM,
// single-target CUSTOM): squeezes a valid T-step schedule into fewer steps. It empties the
// lightest step, then repeatedly picks a few steps, frees every message in them and asks
// CaDiCaL to re-pack those messages plus at least one of the pending ones into the same
// steps. Under direct delivery the steps are independent (no holding rule), so each such
// question is exact for its window and small, where the whole problem at a tight T is a
// perfect packing that defeats CDCL.
//
//   if (auto s = lns_squeeze(problem, paths, best, best.steps - 1, budget, seed)) best = *s;
//
// It proves nothing: no answer means "not found", never "infeasible".
#pragma once

#include <cstdint>
#include <optional>

#include "ccsched/engines/engine.hpp"

namespace ccsched {

// True for the problems lns_squeeze handles.
bool lns_applies(const Problem& problem);

// A valid schedule of at most `steps` steps made from `start` (valid, direct delivery), or
// nothing when the budget ran out first. Deterministic for a seed up to the budget.
std::optional<Schedule> lns_squeeze(const Problem& problem, const PathSet& paths,
                                    const Schedule& start, int steps, const Budget& budget,
                                    std::uint64_t seed, const ProgressFn& progress = {});

}  // namespace ccsched
