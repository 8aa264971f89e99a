// The `Schedule` value: a self-contained ccsched-schedule/1 document (FORMATS.md) — the
// network, the collective with its messages, the model, and the transfers step by step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

struct Transfer {
  Step step = 1;
  std::vector<NodeId> path;          // sender .. receiver
  std::vector<MessageId> messages;   // one unless the model combines
};

struct SolverInfo {
  std::string engine;
  std::uint64_t seed = 0;
  double seconds = 0.0;
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
  // A proof that holds only inside a restriction ("direct delivery", "a pruned path set",
  // "a fixed tree"): the restriction's name; `optimal` is then false.
  std::optional<std::string> optimal_within;
  // A bound that holds only when every scatter message is one transfer from its origin to
  // its target (the seeds' model); reported beside `lower_bound`, never as it.
  std::optional<int> direct_delivery_bound;
  std::optional<SolverInfo> solver;
};

}  // namespace ccsched
