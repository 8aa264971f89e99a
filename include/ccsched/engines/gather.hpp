// Direct gather designs (docs/ENGINES.md "Gather designs"): an all-to-one gather without
// combining (AOG) delivers every message straight from its origin to the root, at most one
// message per step through each of the root's in-channels, so it meets the reception bound
// ceil((P - 1) / min(k, in-channels of the root)) (docs/BOUNDS.md §port) whenever the
// messages can be split evenly over those channels.
//
//   if (auto s = gather_schedule(problem)) use(*s);   // s passes verify_schedule
//
// Each message gets a direction (the in-channel it arrives through) and a shortest path
// ending on it, chosen so that messages of different directions never share a channel:
// - 1-D and 2-D tori and meshes (the generated network its name says): the message from
//   direction (dimension j, sign s) travels along the other dimension first, into the
//   root's line of dimension j, then along that line; see gather.cpp for the argument.
// - binary hypercubes: the message arriving through dimension i corrects the differing
//   bits in the cyclic order i+1, ..., d-1, 0, ..., i.
// - any other network: a shortest-path tree into the root (breadth-first search on the
//   reversed channels); the subtrees under the root's in-neighbours are node-disjoint.
// Origins that could use several directions are split by a maximum flow (per-direction
// load at most the step count S); the messages, grouped by direction, are then dealt to the
// steps in turn (McNaughton's wrap-around), so no step gets two of one direction nor more
// than min(k, directions). O(P x diameter) time and memory: the transfers are the output.
#pragma once

#include <optional>

#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// A schedule for `problem` when its messages all have the one target (the root) and
// distinct origins, the model is wormhole (minimal or nonminimal routing: every path is a
// shortest one), and the budget has not run out. Nothing otherwise. Not verified here;
// the driver's Claims checks every candidate, and the tests check every case.
std::optional<Schedule> gather_schedule(const Problem& problem, const Budget& budget = Budget());

}  // namespace ccsched
