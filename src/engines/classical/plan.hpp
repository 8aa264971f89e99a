// The classical algorithms in rank space (algorithms.cpp) and their split into steps on the
// network (packing.cpp). Private to the classical module.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "ccsched/engines/classical.hpp"
#include "ccsched/routing/path_set.hpp"

namespace ccsched::classical_detail {

// One point-to-point transfer of an algorithm, between ranks.
struct Op {
  int from = 0;
  int to = 0;
  std::vector<int> blocks;  // reductions: the blocks carried (one unless combining)
  ReductionSend send = ReductionSend::acc;
  ReductionRecv recv = ReductionRecv::reduce;
  MessageId message = -1;   // message collectives (AAB, OAB): the one message carried
};
// Ops that must share one step: the two halves of an exchange of partial sums of the same
// block (each side sends what it held at the start of the step).
using Group = std::vector<Op>;
// A round of the algorithm: its groups depend only on earlier rounds, never on each other,
// so any split of a round into steps keeps the algorithm's meaning.
struct Round {
  std::vector<Group> groups;
};

// The rounds of an algorithm and what the outcome reports about them.
struct Plan {
  std::vector<Round> rounds;
  std::string variant;
};

// What the rank-space builders need to know about the collective.
struct Ranks {
  std::vector<NodeId> node;        // rank -> processor
  int root = 0;                    // REDUCE, OAB: the root's rank
  std::vector<int> owner_block;    // REDUCESCATTER: rank -> the block it ends with
  std::vector<MessageId> message;  // AAB: rank -> its message; OAB: message 0 for all
  int blocks = 1;
  bool combining = false;
  CollectiveKind kind = CollectiveKind::ALLREDUCE;
  int size() const { return static_cast<int>(node.size()); }
};

// The algorithm's rounds over the ranks (throws Unsupported for a collective it does not
// write).
Plan build_plan(ClassicalAlgorithm algorithm, const Ranks& ranks);

// The rounds split into steps, one round after the other: each round packed first-fit
// into the fewest contention-free steps found (several group orders tried), every op on
// the first free minimal route. nullopt when the budget ran out.
std::optional<std::vector<Transfer>> pack_plan(const Problem& problem, const PathSet& minimal,
                                               const Ranks& ranks, const Plan& plan,
                                               const ClassicalRequest& request,
                                               const Budget& budget);

}  // namespace ccsched::classical_detail
