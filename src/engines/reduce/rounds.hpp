// The logical rounds the closed-form reduction designs are written in (reduction.cpp,
// exchange.cpp, prefix.cpp) and their packing into contention-free steps. Private to the
// reduce module.
#pragma once

#include <optional>
#include <vector>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/reduction.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched::reduce_detail {

// From this many processors on, a design written directly (the exchanges of exchange.cpp,
// the prefix networks of scan.cpp) replaces, when it applies, the packed designs, which
// list paths pair by pair: at 4,096 they cost gigabytes and never won (hypercube:12 SCAN:
// 6.1 GB for Hillis-Steele's 12 steps, which the direct one writes in 0.2 GB), and past it
// minutes (docs/ENGINES.md, "Reductions").
inline constexpr int kDirectDesignProcessors = 4096;

// What the exchanges written directly (cube, fattree, lattice, pinwheel, staircase, tilted)
// schedule: an ALLREDUCE in which every participant sends and receives, of one block or of
// blocks combined into one transfer, under wormhole switching.
inline bool wormhole_exchange_applies(const Problem& p) {
  const Collective& c = p.collective;
  return c.kind == CollectiveKind::ALLREDUCE && c.senders == c.receivers &&
         (c.blocks == 1 || p.model.combining) && p.model.switching == Switching::wormhole;
}

// One logical point-to-point exchange of a closed-form design.
struct Hop {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  std::vector<int> blocks;
  ReductionSend send = ReductionSend::acc;
  ReductionRecv recv = ReductionRecv::reduce;
};
// A round: groups of hops; a group shares one step (an exchange u<->v must, since both
// send the value they held at the start of the round).
struct Round {
  std::vector<std::vector<Hop>> groups;
  // When true, a hop out of u never lands in a later step than the hops into u placed
  // before it (groups are given so that those come first): u must send the value it held
  // at the start of the round (Hillis-Steele).
  bool ordered = false;
};

// The budget of the reduction_designs call running on this thread (nullptr: none); the
// packing polls it.
extern thread_local const Budget* t_budget;

// Steps for the rounds, one after the other: each round packed first-fit into the fewest
// contention-free steps found (a few random path preferences and group orders tried);
// nullopt when a hop has no path or the budget expired.
std::optional<std::vector<Transfer>> pack_rounds(const Problem& p, const PathSet& paths,
                                                 const std::vector<Round>& rounds);

// Brent-Kung's network on positions 0..n-1 (Brent and Kung, "A Regular Layout for Parallel
// Adders", 1982; docs/ENGINES.md, "Reductions") with radix radices[l] at level l from the
// finest (the last one repeated): the rounds of its up-sweep (`up`, from the finest level)
// or of its down-sweep (from the coarsest), each a list of groups of (sender, receiver)
// pairs. Up-sweep, level j (blocks of size s, groups of r blocks): a group's block ends
// into its last position. Down-sweep: the ends of a group's blocks m < r - 1 take the prefix
// before the group and their elder siblings' sums; a group's pairs go by receiver from the
// last position down, so that a sub-block end sends its sum before it takes its prefix.
// Every value is a disjoint interval. A round may be empty where n is not a power of r.
// scan.cpp.
std::vector<std::vector<std::vector<std::pair<int, int>>>> brent_kung_sweep(
    int n, const std::vector<int>& radices, bool up);
// Both sweeps' rounds (up, then down), each round's pairs in one list by receiver from the
// last position down (stable), so that every send out of a position comes no later than
// its receptions; empty rounds dropped.
std::vector<std::vector<std::pair<int, int>>> brent_kung_by_receiver(
    int n, const std::vector<int>& radices);
// The radix-2 rounds of either sweep, each round's groups in one list.
std::vector<std::vector<std::pair<int, int>>> brent_kung_up(int n);
std::vector<std::vector<std::pair<int, int>>> brent_kung_down(int n);

// 0..blocks-1.
std::vector<int> all_blocks(const Collective& c);

// Hops carrying `blocks`: one hop with every block under combining, else one per block.
void add_hops(std::vector<Hop>& group, const Problem& p, NodeId from, NodeId to,
              const std::vector<int>& blocks, ReductionSend send, ReductionRecv recv);

// The transfers of `blocks` from path.front() to path.back() along the fixed `path` in
// `step` (add_hops, each hop on the whole path), appended to `out`; false when a channel
// of the path is missing (a faulty copy: the design steps aside).
bool add_path_transfers(std::vector<Transfer>& out, const Problem& p, Step step,
                        const std::vector<NodeId>& path, const std::vector<int>& blocks,
                        ReductionRecv recv);

// The transfers of a list schedule's (step, node path) pairs, each adding the sender's
// accumulator of every block into the receiver's (add_path_transfers); nullopt when a path
// lacks a channel.
std::optional<std::vector<Transfer>> reduce_transfers(
    const Problem& p, const std::vector<std::pair<int, std::vector<NodeId>>>& placed);

// The sides of a torus or mesh whose nodes are all processors numbered row-major (empty
// otherwise); `wrap` tells torus from mesh. The Problem form also needs every processor
// to take part in the collective.
std::vector<int> grid_sides(const Topology& t, bool& wrap);
std::vector<int> grid_sides(const Problem& p, bool& wrap);

// The clustered exchange for ALLREDUCE (exchange.cpp) and the prefix networks for SCAN
// (prefix.cpp): each design that applies, packed, appended to `out`.
void add_exchange_designs(const Problem& p, const PathSet& paths,
                          std::vector<ReductionCandidate>& out);
void add_prefix_designs(const Problem& p, const PathSet& paths,
                        std::vector<ReductionCandidate>& out);
// The star exchanges for ALLREDUCE on a hypercube (cube.cpp), appended to `out`.
void add_cube_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The lattice exchange for ALLREDUCE on torus:32x32 (lattice.cpp), appended to `out`.
void add_lattice_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The pinwheel exchange for ALLREDUCE on mesh:32x32 (pinwheel.cpp), appended to `out`.
void add_pinwheel_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The tilted exchange for ALLREDUCE on mesh:NxN, N = B b with B = 2^k <= b and b a
// multiple of 4 (tilted.cpp), appended to `out`.
void add_tilted_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The staircase exchange for ALLREDUCE on torus:NxN, N a power of two from 8
// (staircase.cpp), appended to `out`.
void add_staircase_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// Recursive doubling on fattree:N with fixed up- and down-paths (fattree.cpp), appended
// to `out`.
void add_fattree_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The Kautz exchange for ALLREDUCE on kautz:d,D and debruijn:d,D (kautz.cpp), appended to
// `out`.
void add_kautz_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The prefix networks for SCAN written directly on 2-D tori and meshes, hypercubes and fat
// trees (scan.cpp), appended to `out`.
void add_direct_scan_designs(const Problem& p, std::vector<ReductionCandidate>& out);
// The band design for SCAN on 2-D tori and meshes with row-major ids: Brent-Kung inside
// bands of about a row, radix-4 Brent-Kung over the band ends (scan2d.cpp), appended to
// `out`.
void add_band_scan_designs(const Problem& p, std::vector<ReductionCandidate>& out);

// A REDUCE or ALLREDUCE of several blocks pipelined over arc-disjoint spanning trees into
// one root on a torus (four trees), mesh (two) or hypercube:n (n) (branchings.cpp),
// appended to `out`; `budget` caps the trees' lowering (an outer cap: it is bounded by
// work).
void add_branching_designs(const Problem& p, const Budget& budget,
                           std::vector<ReductionCandidate>& out);

// Brent-Kung for SCAN as a list schedule on any network up to kDirectDesignProcessors,
// each transfer in the earliest step with a free path (placed_scan.cpp), appended to `out`.
void add_placed_scan_designs(const Problem& p, const PathSet& paths,
                             std::vector<ReductionCandidate>& out);

// ALLREDUCE of 64 blocks on hypercube:6 in 21 steps, the volume bound: a one-block
// template and its time reversal moved over the even-weight translations (cube_blocks.cpp),
// appended to `out`.
void add_cube_block_designs(const Problem& p, std::vector<ReductionCandidate>& out);

// ALLREDUCE of B blocks as images of the disjoint trees' schedule for B / G blocks under
// automorphisms of the network, merged by a list schedule (images.cpp), appended to `out`.
void add_image_designs(const Problem& p, const Budget& budget,
                       std::vector<ReductionCandidate>& out);

// SCAN on hypercube:n by levels of block programs, fewer than n steps with enough ports
// (hscan.cpp), appended to `out`.
void add_hypercube_scan_designs(const Problem& p, std::vector<ReductionCandidate>& out);

}  // namespace ccsched::reduce_detail
