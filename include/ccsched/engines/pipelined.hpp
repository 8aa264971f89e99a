// Pipelined designs for reductions of several blocks (docs/ENGINES.md, "Several blocks"):
// every block gets its own reduction tree (and, for ALLREDUCE, its own broadcast tree of
// the sum), and one list scheduler packs the transfers of all blocks into steps, so that
// the blocks flow through the network one behind the other (a pipeline) and the channels
// stay busy. Tree families: shortest-path trees balanced over the channels, the same tree
// translated to every root on tori, rings and hypercubes (each direction equally loaded),
// and Rabenseifner's halving/doubling trees (binomial trees over positions). A one-block
// design (recursive doubling, Hillis-Steele, chain scan, ...) can also be pipelined as it
// stands: B copies, each keeping the order its accumulators need.
#pragma once

#include <string>
#include <vector>

#include "ccsched/engines/reduction.hpp"

namespace ccsched {

// The pipelined candidates that apply (REDUCE, ALLREDUCE, REDUCESCATTER, SCAN with at
// least two blocks, without combining); each passes verify_schedule (the caller checks).
// `one_block` are one-block schedules of the same problem (collective.blocks = 1) to be
// pipelined as they stand, named by their design. A design the budget cuts short is left
// out.
std::vector<ReductionCandidate> pipelined_designs(const Problem& problem, const PathSet& paths,
                                                  const std::vector<ReductionCandidate>& one_block,
                                                  const Budget& budget = Budget());

// The same problem with one block (REDUCESCATTER keeps its blocks: one per receiver; an
// AAB keeps the first message of each processor).
Problem with_one_block(const Problem& problem);

// The all-gather of several blocks (AAB with collective.blocks B ≥ 2, FORMATS.md "Several
// blocks"; docs/ENGINES.md "Several blocks"). Nothing for other problems; each schedule
// passes verify_schedule (the caller checks).
//
// allgather_trees: per message a broadcast tree over direct channels, balanced over the
// channels and packed by per-channel queues, or, on tori, rings and hypercubes, B trees
// from node 0 translated to every origin and run in lockstep.
std::vector<ReductionCandidate> allgather_trees(const Problem& problem,
                                                const Budget& budget = Budget());
// allgather_copies: B copies of each one-block AAB schedule of `one_block` (schedules of
// with_one_block(problem)), packed one behind the other.
std::vector<ReductionCandidate> allgather_copies(const Problem& problem, const PathSet& paths,
                                                 const std::vector<Schedule>& one_block,
                                                 const Budget& budget = Budget());

}  // namespace ccsched
