// lower_bounds: runs every family of bounds that applies to the problem and collects them
// (docs/BOUNDS.md has one section per bound, with its proof and its source).
#include "ccsched/bounds/bounds.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "context.hpp"

namespace ccsched {

BoundReport lower_bounds(const Problem& problem, const PathSet& paths) {
  return lower_bounds(problem, paths, BoundOptions{});
}

BoundReport lower_bounds(const Problem& problem, const PathSet& paths,
                         const BoundOptions& options) {
  if (is_reduction(problem.collective)) return reduction_lower_bounds(problem, paths);
  using namespace bounds_detail;
  const BoundContext ctx(problem, options.direct_scatter);
#ifndef NDEBUG
  // The bounds keep their own distances (no path-count limits); they must never be shorter
  // than the routing module's.
  for (const auto& d : ctx.demands())
    if (!d.walk && &paths.topology() == &problem.topology)
      assert(ctx.transfer_dist_to(d.targets.front())[d.origin] >=
             paths.distance(d.origin, d.targets.front()));
#else
  (void)paths;
#endif
  BoundReport report;
  // The families run cheapest first; past the time limit (or on Ctrl-C) the one running
  // stops and the rest are skipped, so the report holds the bounds found so far (each
  // valid on its own).
  const auto start = std::chrono::steady_clock::now();
  BoundOptions opts = options;
  opts.stop = [&, caller = options.stop] {
    const bool over =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
            options.time_limit ||
        (options.interrupt != nullptr && options.interrupt->load()) || (caller && caller());
    if (over) report.complete = false;
    return over;
  };
  auto in_time = [&] { return !opts.stop(); };
  add_step_bounds(ctx, report.bounds);
  add_tree_bounds(ctx, report.bounds);
  std::vector<std::vector<char>> cuts;
  if (in_time()) add_load_bounds(ctx, opts, report.bounds);
  if (in_time()) add_bisection_bounds(ctx, opts, report.bounds, cuts);
  if (in_time()) add_mn_bounds(ctx, report.bounds, cuts);
  if (in_time()) add_cut_bounds(ctx, opts, cuts, report.bounds);
  if (in_time()) add_informed_cut_bounds(ctx, opts, cuts, report.bounds);
  for (const auto& b : report.bounds) report.best = std::max(report.best, b.value);
  return report;
}

}  // namespace ccsched
