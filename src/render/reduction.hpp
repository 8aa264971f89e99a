// How partial sums grow in a reduction schedule, for the pictures (private to the render
// module). Replays the accumulators exactly as FORMATS.md "Reductions" says: acc[v][b]
// starts as {v} for a sender and empty otherwise; a transfer's value is {u} for `input`
// and acc[u][b] as it stood at the start of the step for `acc`; receives land at the end
// of the step, the copies first (the last by index wins), the reduced values added after.
// Inputs are named by their sender's node id (not its position in `senders`), because
// the pictures name processors by node.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched::render_detail {

using InputSet = std::set<NodeId>;

struct ReductionReplay {
  // Per index into Schedule::transfers: the value carried for each of its blocks, in the
  // order of Transfer::blocks (empty for a transfer with no value, which verify rejects).
  std::vector<std::vector<std::pair<int, InputSet>>> carried;
  // Per step 1..steps (index step-1): per processor, the size of each block's accumulator
  // after the step (index = block id).
  std::vector<std::map<NodeId, std::vector<int>>> counts_after;
  int inputs = 0;  // number of senders: the size of a complete sum
};

// Only for reductions (is_reduction(s.collective)); `blocks` is clamped to at least 1.
ReductionReplay replay_reduction(const Schedule& s);

// "{0,1}", "{0..3}" (a run of three or more consecutive node ids), "{}" when empty; node
// labels (Kautz words) are listed one by one.
std::string input_set_text(const Topology& t, const InputSet& inputs);

// "b0 {0,1}; b2 {3}": what one transfer carries.
std::string carried_text(const Topology& t, const std::vector<std::pair<int, InputSet>>& carried);

// A processor's annotation after a step: "3/8" with one block; with up to 4 blocks each
// block's count, "4,1,1,1/4"; with more, the range "1..4/4" (fewest..most).
std::string count_text(const std::vector<int>& counts, int inputs);

}  // namespace ccsched::render_detail
