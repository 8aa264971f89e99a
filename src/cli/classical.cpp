// `solve --algorithm` (classical.hpp).
#include "classical.hpp"

#include <fmt/core.h>

#include <chrono>
#include <stdexcept>

#include "ccsched/core/text.hpp"
#include "ccsched/schedule/verified.hpp"

namespace ccsched::cli {

Problem classical_problem(const ProblemOptions& po, const Problem& base, ClassicalAlgorithm a) {
  if (po.blocks || base.collective.kind != CollectiveKind::ALLREDUCE) return base;
  const int blocks = classical_default_blocks(a, base.collective);
  if (blocks == base.collective.blocks) return base;
  ProblemOptions with = po;
  with.blocks = blocks;
  return build_problem(with, base.collective.kind);
}

std::vector<NodeId> rank_order(const ProblemOptions& po, const Problem& problem) {
  const auto items = split_list(po.senders);
  if (items.empty() || !is_reduction(problem.collective)) return {};
  // SCAN keeps the senders in the order given (problem.hpp): the same reading of ids and
  // labels as --senders itself.
  CollectiveRequest request;
  request.kind = CollectiveKind::SCAN;
  request.senders = items;
  return make_collective(problem.topology, request).senders;
}

SolveOutcome solve_classical(const Problem& problem, const ClassicalRequest& request,
                             const Budget& budget) {
  const auto start = std::chrono::steady_clock::now();
  SolveOutcome out;
  std::optional<ClassicalOutcome> made = classical_schedule(problem, request, budget);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.engine_seconds = out.seconds;
  if (!made) {
    out.reason = "the time limit ended the packing before the last round";
    return out;
  }
  std::vector<Violation> violations;
  out.schedule = verified(std::move(made->schedule), &violations);
  if (!out.schedule)
    throw std::logic_error(fmt::format("classical:{} wrote an invalid schedule: {}",
                                       to_string(request.algorithm), violations.front().text));
  out.status = SolveStatus::feasible;
  out.lower_bound = out.schedule->lower_bound.value_or(0);
  out.bounds = std::move(made->bounds);
  out.reason = fmt::format("the {} algorithm{}: {} in {}; a classical algorithm proves nothing",
                           to_string(request.algorithm),
                           made->variant.empty() ? "" : " (" + made->variant + ")",
                           plural(made->rounds, "round"), plural(out.schedule->steps, "step"));
  return out;
}

}  // namespace ccsched::cli
