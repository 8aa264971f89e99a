// `solve ... --bytes M --t0 T --t1 T [--tc T]`: choose by message size (docs/COST.md,
// "Choosing by message size"). Under the linear time model of `ccsched cost`
// (cost/linear.hpp) solve minimises the estimated time instead of the steps: for a
// reduction it solves the problem for several block counts (powers of two and p, each
// dividing M), estimates each schedule's time and keeps the fastest; for another collective
// it only adds the estimate.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/cost/linear.hpp"
#include "ccsched/engines/classical.hpp"
#include "ccsched/engines/driver.hpp"
#include "problem_options.hpp"

namespace ccsched::cli {

struct TimeModelOptions {
  std::string bytes, t0, t1, tc;
};
void add_time_model_options(CLI::App* cmd, TimeModelOptions& o);

struct TimeModel {
  LinearModel model;
  std::int64_t bytes = 0;
  bool with_tc = false;
};
// nullopt when none of the options is given; InvalidParameter (one line, exit 2) when some
// are given without --bytes, --t0 and --t1, or a value does not parse.
std::optional<TimeModel> parse_time_model(const TimeModelOptions& o);

struct BlockTrial {
  int blocks = 0;
  int steps = -1;  // -1: no schedule
  std::string engine;
  double seconds = 0.0;  // estimated time
};
struct ByTimeOutcome {
  Problem problem;  // with the chosen block count
  SolveOutcome outcome;
  std::vector<BlockTrial> trials;  // in the order tried
  int chosen = -1;                 // index into trials
};

// The block counts tried for `base` (a reduction other than REDUCESCATTER, no --blocks):
// 1, 2, 4, ... and the number of receivers, each dividing M, at most 4p, M and the count
// `--blocks` accepts (refuse_oversized_reduction); in increasing order. One count (the problem's own) otherwise.
std::vector<int> block_counts(const Problem& base, const TimeModel& tm, bool blocks_given);

// The classical algorithms weighed too (algorithm, block count): each that writes the
// collective, at its own block count (ALLREDUCE without --blocks: classical_default_blocks,
// and p blocks as well for Swing and Bine), each dividing M.
std::vector<std::pair<ClassicalAlgorithm, int>> classical_candidates(const Problem& base,
                                                                    const TimeModel& tm,
                                                                    bool blocks_given);

// Solves for each count (each solve gets an equal share of what is left of the time
// limit), estimates the time of each schedule and keeps the fastest (ties: fewer blocks).
// Stops early after two counts in a row slower than the best. Then writes each classical
// candidate (at most `max_transfers` transfers each, within what is left of the limit)
// and keeps it when it is faster still, so that the time chosen is never above a classical
// algorithm's (ties: ccsched's own schedule).
ByTimeOutcome solve_by_time(const ProblemOptions& po, const Problem& base,
                            const SolveRequest& request, const TimeModel& tm, double limit,
                            std::int64_t max_transfers);

}  // namespace ccsched::cli
