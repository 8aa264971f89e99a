// The driver's phases around the table walk (phases.hpp).
#include "phases.hpp"

#include <algorithm>

#include "ccsched/core/text.hpp"
#include "rows.hpp"

namespace ccsched::driver {

PathLimits path_limits(const SolveRequest& request, double limit,
                       Budget::Clock::time_point start) {
  PathLimits limits = request.path_limits;
  if (limit < 1e17)
    limits.deadline = start + std::chrono::duration_cast<Budget::Clock::duration>(
                                  std::chrono::duration<double>(limit));
  limits.stop = request.interrupt;
  return limits;
}

Claims initial_claims(const Problem& problem, const PathSet& paths, const SolveRequest& request,
                      double limit) {
  // Wormhole scatter-type problems are searched with direct delivery first (each message
  // one transfer from origin to target), the model of the seeds and of the SAT engine's
  // direct encoding. The bounds that assume it are kept apart: they bound the direct
  // search (the floor), never `lower_bound`.
  const bool direct = !is_broadcast(problem.collective) && !is_reduction(problem.collective) &&
                      problem.model.switching == Switching::wormhole;
  BoundOptions options;
  options.time_limit = (direct ? 0.5 : 1.0) * request.params.bounds_share * limit;
  options.interrupt = request.interrupt;
  BoundReport bounds = lower_bounds(problem, paths, options);
  if (!direct) return Claims(std::move(bounds), std::nullopt);
  options.direct_scatter = true;
  return Claims(std::move(bounds), lower_bounds(problem, paths, options));
}

SolveOutcome answer_fixed_steps(Search& s, Claims& claims, int steps) {
  if (steps < claims.lower_bound()) {
    SolveOutcome out = claims.finish(false);
    out.status = SolveStatus::infeasible;
    out.reason = plural(steps, "step") + " is below the lower bound " +
                 std::to_string(out.lower_bound);
    return out;
  }
  const Budget budget = s.budget.with_work(s.params.sat_conflicts);
  EngineResult r = s.engine_for_search().solve(s.problem, s.paths, steps, budget);
  claims.add_seconds(r.seconds);
  if (budget.clock_expired()) claims.clock_cut();
  bool proven = false;
  if (r.status == SolveStatus::feasible) {
    claims.offer({std::move(*r.schedule), ""});
    claims.note("not proven optimal (fixed --steps)");
  } else if (r.status == SolveStatus::infeasible && r.complete) {
    claims.prove_infeasible(steps, "", plural(steps, "step") + " proven infeasible");
    proven = true;
  } else {
    if (r.status == SolveStatus::infeasible && !r.proof_within.empty())
      claims.prove_infeasible(steps, r.proof_within,
                              plural(steps, "step") + " proven infeasible with " +
                                  r.proof_within);
    claims.note(r.status == SolveStatus::infeasible
                    ? "no schedule under the " + r.note + " (not a proof)"
                    : r.note);
    // The relay encoding for this T alone.
    if (s.direct && s.request.relay_time_limit > 0 && s.engine == "sat") {
      Attempt a = relays_row(s, s.budget.with_work(s.params.relay_conflicts), steps);
      for (auto& c : a.schedules) claims.offer(std::move(c));
      if (a.infeasible) {
        claims.prove_infeasible(*a.infeasible, "", a.proof);
        proven = true;
      }
    }
  }
  SolveOutcome out = claims.finish(false);
  if (!out.schedule) {
    out.status = proven ? SolveStatus::infeasible : SolveStatus::unknown;
    if (proven) out.reason = plural(steps, "step") + " proven infeasible" +
                             (s.direct ? " (relays included)" : "");
  }
  return out;
}

void hold_to_steps(SolveOutcome& out, int steps) {
  if (!out.schedule || out.schedule->steps <= steps) return;
  out.schedule.reset();
  const bool below = steps < out.lower_bound;
  out.status = below ? SolveStatus::infeasible : SolveStatus::unknown;
  out.optimal = false;
  out.optimal_within.clear();
  out.reason = below ? plural(steps, "step") + " is below the lower bound " +
                           std::to_string(out.lower_bound)
                     : "no design fits in " + plural(steps, "step");
}

}  // namespace ccsched::driver
