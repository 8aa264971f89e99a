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
  std::optional<int> lower_bound;
  bool optimal = false;
  std::optional<SolverInfo> solver;
};

}  // namespace ccsched
