// Choosing by message size (by_size.hpp; docs/COST.md, "Choosing by message size").
#include "by_size.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/units.hpp"
#include "classical.hpp"
#include "resource_options.hpp"

namespace ccsched::cli {

void add_time_model_options(CLI::App* cmd, TimeModelOptions& o) {
  const char* group = "Choosing by message size (docs/COST.md)";
  cmd->add_option("--bytes", o.bytes,
                  "minimise the estimated time for this message size instead of the steps "
                  "(a reduction: the input vector; tries block counts): 64, 4KiB, 1GiB")
      ->group(group);
  cmd->add_option("--t0", o.t0, "with --bytes: start-up time per step (1us)")->group(group);
  cmd->add_option("--t1", o.t1, "with --bytes: time per byte (1ns) or a bandwidth (1GBps)")
      ->group(group);
  cmd->add_option("--tc", o.tc, "with --bytes, reductions: time to add one byte (default 0)")
      ->group(group);
}

std::optional<TimeModel> parse_time_model(const TimeModelOptions& o) {
  if (o.bytes.empty() && o.t0.empty() && o.t1.empty() && o.tc.empty()) return std::nullopt;
  if (o.bytes.empty())
    throw InvalidParameter("--t0, --t1 and --tc estimate a time only with --bytes M", "--bytes");
  if (o.t0.empty()) throw InvalidParameter("--bytes needs the start-up time --t0", "--t0");
  if (o.t1.empty()) throw InvalidParameter("--bytes needs the time per byte --t1", "--t1");
  TimeModel tm;
  tm.bytes = parse_bytes(o.bytes, "--bytes");
  if (tm.bytes < 1) throw InvalidParameter("the message size must be at least 1 byte", "--bytes");
  tm.model.t0 = parse_time(o.t0, "--t0");
  tm.model.t1 = parse_time_per_byte(o.t1, "--t1");
  if (!o.tc.empty()) {
    tm.model.tc = parse_time_per_byte(o.tc, "--tc");
    tm.with_tc = true;
  }
  return tm;
}

std::vector<int> block_counts(const Problem& base, const TimeModel& tm, bool blocks_given) {
  const Collective& c = base.collective;
  if (!is_reduction(c) || blocks_given || c.kind == CollectiveKind::REDUCESCATTER ||
      base.model.combining)
    return {c.blocks};
  const long long p = static_cast<long long>(c.senders.size());
  // At most 4p blocks, and no more than `--blocks` accepts.
  const long long cap =
      std::min<long long>({4 * p, tm.bytes, largest_block_count(c.senders.size())});
  std::vector<int> out;
  for (long long b = 1; b <= cap; b *= 2)
    if (tm.bytes % b == 0) out.push_back(static_cast<int>(b));
  const long long r = static_cast<long long>(c.receivers.size());
  if (r <= cap && tm.bytes % r == 0) out.push_back(static_cast<int>(r));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::pair<ClassicalAlgorithm, int>> classical_candidates(const Problem& base,
                                                                    const TimeModel& tm,
                                                                    bool blocks_given) {
  std::vector<std::pair<ClassicalAlgorithm, int>> out;
  const Collective& c = base.collective;
  for (ClassicalAlgorithm a : classical_algorithms()) {
    if (!classical_applies(a, c.kind)) continue;
    std::vector<int> counts{c.blocks};
    if (c.kind == CollectiveKind::ALLREDUCE && !blocks_given && !base.model.combining) {
      counts = {classical_default_blocks(a, c)};
      // Swing and Bine: the latency variant (one block) and the bandwidth one (p blocks).
      if (a == ClassicalAlgorithm::swing || a == ClassicalAlgorithm::bine)
        counts.push_back(static_cast<int>(c.senders.size()));
    }
    // Each count dividing M, and no more than `--blocks` accepts (as ccsched's own).
    for (int b : counts)
      if (!is_reduction(c) || (tm.bytes % b == 0 && b <= largest_block_count(c.senders.size())))
        out.emplace_back(a, b);
  }
  return out;
}

ByTimeOutcome solve_by_time(const ProblemOptions& po, const Problem& base,
                            const SolveRequest& request, const TimeModel& tm, double limit,
                            std::int64_t max_transfers) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const std::vector<int> counts = block_counts(base, tm, po.blocks.has_value());
  const auto classical = classical_candidates(base, tm, po.blocks.has_value());
  // A quarter of the limit is kept for the classical candidates (closed forms: seconds at
  // 1,024 processors), so that a search using its whole share cannot crowd them out.
  const double own_limit = classical.empty() ? limit : 0.75 * limit;
  ByTimeOutcome result{base, {}, {}, -1};
  double best = 0, previous = -1;
  int rising = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (request.interrupt != nullptr && request.interrupt->load()) break;
    const double spent = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = own_limit - spent;
    if (i > 0 && left <= 0) break;
    ProblemOptions with = po;
    if (counts.size() > 1) with.blocks = counts[i];
    Problem problem = counts.size() > 1 ? build_problem(with) : base;
    SolveRequest r = request;
    r.time_limit = std::max(0.5, left / static_cast<double>(counts.size() - i));
    SolveOutcome out = solve_problem(problem, r);
    BlockTrial trial;
    trial.blocks = problem.collective.blocks;
    if (out.schedule) {
      trial.steps = out.schedule->steps;
      trial.engine = out.schedule->solver ? out.schedule->solver->engine : "";
      trial.seconds = linear_cost(*out.schedule, tm.model, tm.bytes).total_seconds;
    }
    result.trials.push_back(trial);
    if (trial.steps < 0) {
      if (result.chosen < 0) result.outcome = std::move(out);  // says why, if nothing else does
      continue;
    }
    if (result.chosen < 0 || trial.seconds < best) {
      best = trial.seconds;
      result.chosen = static_cast<int>(result.trials.size()) - 1;
      result.problem = std::move(problem);
      result.outcome = std::move(out);
    }
    // Stop when the time grows twice in a row with the block count (more blocks only add
    // steps), measured against the previous count, not the best: a pipelined design can
    // start far above one block and still fall below it at 32 blocks (mesh:32x32 REDUCE at
    // 1 GiB: 1 block 10.7 s, 2 and 4 blocks slower, 32 blocks 3.8 s).
    rising = previous >= 0 && trial.seconds >= previous ? rising + 1 : 0;
    previous = trial.seconds;
    if (rising >= 2) break;
  }
  // The classical algorithms are schedules of the same problem under the same model: the
  // time chosen is never above theirs (docs/COST.md, "Choosing by message size"). Ties go
  // to ccsched's own schedule, tried first.
  for (const auto& [algorithm, blocks] : classical) {
    if (request.interrupt != nullptr && request.interrupt->load()) break;
    const double left = limit - std::chrono::duration<double>(Clock::now() - start).count();
    if (left <= 0) break;
    BlockTrial trial;
    trial.blocks = blocks;
    trial.engine = "classical:" + std::string(to_string(algorithm));
    Problem problem = base;
    SolveOutcome out;
    try {
      if (blocks != base.collective.blocks) {
        ProblemOptions with = po;
        with.blocks = blocks;
        problem = build_problem(with, base.collective.kind);
      }
      ClassicalRequest cr;
      cr.algorithm = algorithm;
      cr.ranks = rank_order(po, problem);
      cr.seed = request.options.seed;
      cr.max_transfers = max_transfers;
      cr.lower_bound = false;  // the bound of ccsched's own solve stands for the problem
      out = solve_classical(problem, cr, Budget(left, request.interrupt));
    } catch (const Error&) {
      continue;  // not for this network or model (store-and-forward partners, size)
    }
    if (!out.schedule) continue;
    trial.steps = out.schedule->steps;
    trial.seconds = linear_cost(*out.schedule, tm.model, tm.bytes).total_seconds;
    result.trials.push_back(trial);
    if (result.chosen < 0 || trial.seconds < best) {
      best = trial.seconds;
      result.chosen = static_cast<int>(result.trials.size()) - 1;
      out.lower_bound = std::max(out.lower_bound, result.outcome.lower_bound);
      out.bounds = result.outcome.bounds;
      result.problem = std::move(problem);
      result.outcome = std::move(out);
    }
  }
  return result;
}

}  // namespace ccsched::cli
