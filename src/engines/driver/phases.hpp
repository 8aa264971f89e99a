// The driver's phases around the table walk (driver.cpp): the path limits and the bounds
// it starts from, the single question of --steps, and holding a reduction to it.
#pragma once

#include "strategy.hpp"

namespace ccsched::driver {

// The request's path limits, cut at the run's deadline and on Ctrl-C: a pair listed late
// keeps the paths found so far, and the phase that asked notices the budget itself.
PathLimits path_limits(const SolveRequest& request, double limit, Budget::Clock::time_point start);

// The lower bounds under the model and, for wormhole scatters, under direct delivery (the
// floor of the direct searches), within DriverParams::bounds_share of the limit.
Claims initial_claims(const Problem& problem, const PathSet& paths, const SolveRequest& request,
                      double limit);

// --steps T for message collectives: does the problem fit in T steps? The chosen engine
// answers, then the relay encoding for T alone when direct delivery could not.
SolveOutcome answer_fixed_steps(Search& s, Claims& claims, int steps);

// --steps T for reductions: the table's best schedule, kept only when it fits.
void hold_to_steps(SolveOutcome& out, int steps);

}  // namespace ccsched::driver
