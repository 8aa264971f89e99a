// best_size_range (size_range.hpp): the schedule's time and each ring algorithm's time as
// lines a + b*m, and the interval of m where the schedule's line is lowest.
#include "ccsched/cost/size_range.hpp"

#include <fmt/core.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/analytic.hpp"
#include "ccsched/cost/reduction.hpp"

namespace ccsched {
namespace {

struct Line {
  double intercept = 0.0;  // seconds at m = 0
  double slope = 0.0;      // seconds per byte of m
};

// A size at which the slopes are measured: a whole number of blocks of every reduction.
constexpr std::int64_t kProbeBytes = std::int64_t{1} << 30;

Line schedule_line(const Schedule& s, const LinearModel& model) {
  const std::int64_t probe = kProbeBytes * std::max(1, s.collective.blocks);
  const double at_zero = linear_cost(s, model, 0).total_seconds;
  const double at_probe = linear_cost(s, model, probe).total_seconds;
  return {at_zero, (at_probe - at_zero) / static_cast<double>(probe)};
}

std::optional<Operation> message_operation(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::OAB:
      return Operation::one_to_all_broadcast;
    case CollectiveKind::AAB:
      return Operation::all_to_all_broadcast;
    case CollectiveKind::OAS:
    case CollectiveKind::AOG:  // a gather is a scatter run backwards: the same time
      return Operation::scatter;
    case CollectiveKind::AAS:
      return Operation::total_exchange;
    default:
      return std::nullopt;
  }
}

std::optional<ReductionOp> reduction_operation(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::REDUCE:
      return ReductionOp::reduce;
    case CollectiveKind::ALLREDUCE:
      return ReductionOp::allreduce;
    case CollectiveKind::REDUCESCATTER:
      return ReductionOp::reducescatter;
    default:
      return std::nullopt;
  }
}

}  // namespace

SizeRange best_size_range(const Schedule& s, const LinearModel& model) {
  const std::int64_t p = s.topology.processor_count();
  if (p < 2) throw Unsupported("needs at least two processors", "size range");
  std::vector<Line> rings;
  SizeRange range;
  // Store-and-forward ring formulas: ring neighbours exchange whole messages, as the
  // runtimes' rings do, and the formulas need no power of two.
  if (const auto op = message_operation(s.collective.kind)) {
    AnalyticParams a{.p = p, .ts = model.t0, .tb = model.t1, .th = model.th, .bytes = 0};
    const double at_zero =
        analytic_time(NetworkShape::ring, *op, RoutingMethod::store_and_forward, a).seconds;
    a.bytes = kProbeBytes;
    const double at_probe =
        analytic_time(NetworkShape::ring, *op, RoutingMethod::store_and_forward, a).seconds;
    rings.push_back({at_zero, (at_probe - at_zero) / static_cast<double>(kProbeBytes)});
    range.baseline = fmt::format("the ring {} of seed 003 (docs/COST.md §3)", display_name(*op));
  } else if (const auto rop = reduction_operation(s.collective.kind)) {
    const ReductionParams a{.p = p, .ts = model.t0, .tb = model.t1, .th = model.th,
                            .tc = model.tc, .bytes = 0};
    const ReductionEstimate e =
        reduction_time(NetworkShape::ring, *rop, RoutingMethod::store_and_forward, a);
    for (const auto& algorithm : e.algorithms)
      rings.push_back({algorithm.terms.intercept(a), algorithm.terms.slope(a)});
    range.baseline = fmt::format("the ring {} algorithms of docs/COST.md §4", display_name(*rop));
  } else {
    throw Unsupported(fmt::format("{} has no ring algorithm to compare with",
                                  to_string(s.collective.kind)),
                      "size range");
  }
  const Line mine = schedule_line(s, model);
  // a + b*m <= alpha + beta*m for every ring line: each holds on a half-line of m >= 0.
  double lo = 0.0;
  double hi = std::numeric_limits<double>::infinity();
  // Tolerance for equal times: the probes round at about 1e-16 relative.
  const double eps = 1e-12 * std::max(1e-9, mine.intercept);
  for (const Line& ring : rings) {
    const double gap = ring.intercept - mine.intercept;  // ring slower at m = 0 when > 0
    const double rate = mine.slope - ring.slope;         // the schedule's extra time per byte
    if (std::abs(rate) < 1e-24) {
      if (gap < -eps) range.empty = true;
    } else if (rate > 0) {
      hi = std::min(hi, gap / rate);
    } else {
      lo = std::max(lo, gap / rate);
    }
  }
  if (range.empty || hi < lo || hi < 0) {
    range.empty = true;
    return range;
  }
  range.min_bytes = static_cast<std::int64_t>(std::ceil(lo));
  if (std::isfinite(hi)) {
    if (hi >= 9e18) return range;
    range.max_bytes = static_cast<std::int64_t>(std::floor(hi));
    if (*range.max_bytes < range.min_bytes) range.empty = true;
  }
  return range;
}

}  // namespace ccsched
