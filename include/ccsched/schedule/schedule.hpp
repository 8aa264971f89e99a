// The `Schedule` value: a self-contained ccsched-schedule/1 document (FORMATS.md) — the
// network, the collective with its messages, the model, and the transfers step by step.
// A reduction schedule (is_reduction(collective)) has no messages; its transfers say
// which blocks they carry and how the receiver combines them (FORMATS.md "Reductions").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

// Reductions (FORMATS.md "Reductions"): what a transfer carries and what its receiver
// does with it. Each processor v holds one accumulator acc[v][b] per block b, the set of
// senders whose inputs it sums.
enum class ReductionSend {
  input,  // the sender's own input block ({u}); u must be a sender
  acc,    // acc[u][b] as it stood at the start of the step (must not be empty)
};
enum class ReductionRecv {
  reduce,  // add the value into acc[v][b] (it must be disjoint from what is there: R2)
  copy,    // replace acc[v][b] by the value (the only transfer into acc[v][b] that step)
};

constexpr std::string_view to_string(ReductionSend s) {
  return s == ReductionSend::input ? "input" : "acc";
}
constexpr std::string_view to_string(ReductionRecv r) {
  return r == ReductionRecv::reduce ? "reduce" : "copy";
}

struct Transfer {
  Step step = 1;
  std::vector<NodeId> path;          // sender .. receiver
  std::vector<MessageId> messages;   // one unless the model combines; empty for reductions
  // Reductions only (`messages` empty): the block ids carried (one unless the model
  // combines), what the sender sends and what the receiver does with each block. Ignored,
  // and not written, when the collective is not a reduction.
  std::vector<int> blocks{};
  ReductionSend send = ReductionSend::input;
  ReductionRecv recv = ReductionRecv::reduce;
};

struct SolverInfo {
  std::string engine;
  std::uint64_t seed = 0;
  double seconds = 0.0;
  // The wall clock (not the work allowances) ended some search: the same request on a
  // less busy machine may give another schedule (docs/ARCHITECTURE.md, "Budgets").
  bool clock_cut = false;
};

struct Schedule {
  Topology topology;
  Collective collective;
  Model model;
  int steps = 0;
  std::vector<Transfer> transfers;
  // A bound under the model exactly as written (relays through processors included):
  // FORMATS.md "Schedule". `optimal` is true only with a proof under that model.
  std::optional<int> lower_bound;
  bool optimal = false;
  std::optional<SolverInfo> solver;
  // A proof that holds only inside a restriction ("direct delivery", "a pruned path set",
  // "a fixed tree"): the restriction's name; `optimal` is then false.
  std::optional<std::string> optimal_within;
  // A bound that holds only when every scatter message is one transfer from its origin to
  // its target (the seeds' model); reported beside `lower_bound`, never as it.
  std::optional<int> direct_delivery_bound;
};

}  // namespace ccsched
