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
//
// Reductions (FORMATS.md "Reductions"): `message_bytes` is the size of each input vector,
// split into `collective.blocks` equal blocks, so a transfer of c blocks carries
// c * bytes/blocks bytes. Each step adds its receivers' work: a `reduce` receive adds the
// value into the accumulator, which takes `tc` per byte (the first value into an empty
// accumulator is only stored); a processor does its adds one after another, after the
// step's transfers, and processors add in parallel, so a step costs
//
//   slowest transfer + a_i * tc,   a_i the most bytes one processor adds in step i
//
// (the per-step form of the reduction times in reduction.hpp and docs/COST.md section 4).
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
  double tc = 0.0;  // reductions: time to add one byte into an accumulator, seconds
};

struct StepCost {
  Step step = 1;
  std::int64_t bytes = 0;  // longest transfer of the step (0 when the step is empty)
  int hops = 0;            // longest path of the step, in channels
  int transfers = 0;
  std::int64_t added_bytes = 0;  // reductions: the most bytes one processor adds
  double compute_seconds = 0.0;  // added_bytes * tc, part of `seconds`
  double seconds = 0.0;
};

struct ScheduleCost {
  std::vector<StepCost> steps;  // steps 1..Schedule::steps, in order
  double total_seconds = 0.0;
};

// Seed 000, eq. (4): (t0 + m * t1) * steps, every step carrying a message of m bytes.
double linear_time(const LinearModel& model, int steps, std::int64_t bytes);

// Seed 001, eq. (1) over a schedule, every message `message_bytes` long; for a reduction
// or a blocked AAB, every processor's vector (see above; FORMATS.md "Several blocks").
// Throws InvalidInput when a transfer's step lies outside 1..steps, a message id or block
// id is unknown, or a reduction's `blocks` is below 1; InvalidParameter ("--bytes") when a
// reduction's vector does not split into `blocks` whole blocks. The schedule is otherwise
// taken as given (verify it first).
ScheduleCost linear_cost(const Schedule& s, const LinearModel& model, std::int64_t message_bytes);

// The same with one size per message id (`message_bytes[id]`, size must cover every id
// the transfers carry). Not for reductions (Unsupported): they have no messages.
ScheduleCost linear_cost(const Schedule& s, const LinearModel& model,
                         std::span<const std::int64_t> message_bytes);

// --- pieces shared with the simulator (simulate.hpp) --------------------------------------

// Bytes per block (reductions, AAB): vector_bytes / collective.blocks, must be whole.
std::int64_t reduction_block_bytes(const Collective& c, std::int64_t vector_bytes);

// Bytes each transfer carries: the sizes of its messages (combining adds them up), or for
// a reduction its blocks times `reduction_block_bytes`. `vector_bytes` as in linear_cost.
std::vector<std::int64_t> transfer_bytes(const Schedule& s, std::int64_t vector_bytes);

// A reduction's adds, step by step: for steps 1..steps, the processors that add in that
// step and how many bytes each adds (sorted by node). Accumulators are tracked as filled
// or empty only: a sender's start filled, any receive fills one; the k reduce values into
// one accumulator in one step cost k additions of a block, or k - 1 into an empty one.
// Empty for a collective that is not a reduction.
struct ProcessorAdds {
  NodeId node = kNoNode;
  std::int64_t bytes = 0;
};
std::vector<std::vector<ProcessorAdds>> reduction_adds(const Schedule& s,
                                                       std::int64_t vector_bytes);

}  // namespace ccsched
