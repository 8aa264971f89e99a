// The seeds' linear per-step time model over a Schedule (include/ccsched/cost/linear.hpp).
#include "ccsched/cost/linear.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"

namespace ccsched {

double linear_time(const LinearModel& model, int steps, std::int64_t bytes) {
  // Seed 000, eq. (4): t_CC = (t0 + m t1) x #steps.
  return (model.t0 + static_cast<double>(bytes) * model.t1) * steps;
}

ScheduleCost linear_cost(const Schedule& s, const LinearModel& model, std::int64_t message_bytes) {
  const std::vector<std::int64_t> sizes(s.collective.messages.size(), message_bytes);
  return linear_cost(s, model, sizes);
}

ScheduleCost linear_cost(const Schedule& s, const LinearModel& model,
                         std::span<const std::int64_t> message_bytes) {
  refuse_reductions(s.collective, "the linear cost model", "cost");
  if (s.steps < 0) throw InvalidInput("must not be negative", "steps");
  ScheduleCost cost;
  cost.steps.resize(static_cast<std::size_t>(s.steps));
  for (int i = 0; i < s.steps; ++i) cost.steps[static_cast<std::size_t>(i)].step = i + 1;

  // Slowest transfer per step. With th = 0 this is t0 + m_i t1 with m_i the longest
  // message of the step (seed 001, eq. (1)); th adds the router delay the seeds neglect.
  std::vector<double> slowest(cost.steps.size(), 0.0);
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    const std::string where = fmt::format("transfers[{}]", k);
    if (t.step < 1 || t.step > s.steps)
      throw InvalidInput(fmt::format("step {} outside 1..{}", t.step, s.steps), where);
    std::int64_t bytes = 0;
    for (MessageId id : t.messages) {
      if (id < 0 || static_cast<std::size_t>(id) >= message_bytes.size())
        throw InvalidInput(fmt::format("message {} has no size (messages are 0..{})", id,
                                       static_cast<long long>(message_bytes.size()) - 1),
                           where);
      bytes += message_bytes[static_cast<std::size_t>(id)];  // combining: sizes add up
    }
    const int hops = std::max(0, static_cast<int>(t.path.size()) - 1);
    const double seconds =
        model.t0 + static_cast<double>(bytes) * model.t1 + static_cast<double>(hops) * model.th;
    StepCost& step = cost.steps[static_cast<std::size_t>(t.step - 1)];
    step.bytes = std::max(step.bytes, bytes);
    step.hops = std::max(step.hops, hops);
    ++step.transfers;
    slowest[static_cast<std::size_t>(t.step - 1)] =
        std::max(slowest[static_cast<std::size_t>(t.step - 1)], seconds);
  }
  for (std::size_t i = 0; i < cost.steps.size(); ++i) {
    cost.steps[i].seconds = slowest[i];
    cost.total_seconds += slowest[i];
  }
  return cost;
}

}  // namespace ccsched
