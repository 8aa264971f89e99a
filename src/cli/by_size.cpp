// Choosing by message size (by_size.hpp; docs/COST.md, "Choosing by message size").
#include "by_size.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/units.hpp"

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
  const long long cap = std::min<long long>(4 * p, tm.bytes);
  std::vector<int> out;
  for (long long b = 1; b <= cap; b *= 2)
    if (tm.bytes % b == 0) out.push_back(static_cast<int>(b));
  const long long r = static_cast<long long>(c.receivers.size());
  if (r <= cap && tm.bytes % r == 0) out.push_back(static_cast<int>(r));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ByTimeOutcome solve_by_time(const ProblemOptions& po, const Problem& base,
                            const SolveRequest& request, const TimeModel& tm, double limit) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const std::vector<int> counts = block_counts(base, tm, po.blocks.has_value());
  ByTimeOutcome result{base, {}, {}, -1};
  double best = 0;
  int worse = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (request.interrupt != nullptr && request.interrupt->load()) break;
    const double spent = std::chrono::duration<double>(Clock::now() - start).count();
    const double left = limit - spent;
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
      worse = 0;
    } else if (++worse >= 2) {
      break;  // the time grows again with the block count: more blocks only add steps
    }
  }
  return result;
}

}  // namespace ccsched::cli
