// The linear time model of the seeds: a schedule of synchronized steps costs the sum over
// its steps of a start-up t0 plus the serialization of the longest message of the step,
//
//   t_CC = sum_i (t0 + m_i * t1)          seed 001, eq. (1); seed 000, eq. (4)
//
// with m_i the bytes of the longest transfer in step i. Wormhole (cut-through) switching
// makes the time distance-insensitive, so router delays along the path are neglected, as
// in the seeds; `th` (per hop, default 0) optionally adds them back: a transfer over h
// hops then costs t0 + bytes * t1 + h * th and a step costs its slowest transfer.
//
// Message sizes: one size for every message, or one size per message id. A transfer that
// carries c messages (only under combining) carries the sum of their sizes, so with one
// size m it carries c * m bytes.
//
//   LinearModel model{.t0 = 1e-6, .t1 = 0.5e-9};
//   ScheduleCost c = linear_cost(schedule, model, 1024);   // 1.512 us per busy step
//
// Steps without any transfer cost nothing (nothing is started up).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct LinearModel {
  double t0 = 0.0;  // start-up latency per step, seconds
  double t1 = 0.0;  // transfer time per byte, seconds
  double th = 0.0;  // per-hop router delay, seconds; 0 as in the seeds
};

struct StepCost {
  Step step = 1;
  std::int64_t bytes = 0;  // longest transfer of the step (0 when the step is empty)
  int hops = 0;            // longest path of the step, in channels
  int transfers = 0;
  double seconds = 0.0;
};

struct ScheduleCost {
  std::vector<StepCost> steps;  // steps 1..Schedule::steps, in order
  double total_seconds = 0.0;
};

// Seed 000, eq. (4): (t0 + m * t1) * steps, every step carrying a message of m bytes.
double linear_time(const LinearModel& model, int steps, std::int64_t bytes);

// Seed 001, eq. (1) over a schedule, every message `message_bytes` long.
// Throws InvalidInput when a transfer's step lies outside 1..steps or a message id is
// unknown; the schedule is otherwise taken as given (verify it first).
ScheduleCost linear_cost(const Schedule& s, const LinearModel& model, std::int64_t message_bytes);

// The same with one size per message id (`message_bytes[id]`, size must cover every id
// the transfers carry).
ScheduleCost linear_cost(const Schedule& s, const LinearModel& model,
                         std::span<const std::int64_t> message_bytes);

}  // namespace ccsched
