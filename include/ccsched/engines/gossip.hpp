// Gossip all-to-all broadcast: AAB schedules for networks of hundreds to thousands of
// processors, built step by step in milliseconds to seconds, near the reception bound
// ceil((P-1)/min(k, in-degree)) (seed 000 §3). Where the SAT and evolutionary engines need
// gigabytes for one step count, these designs need a bitset per processor.
//
//   if (auto s = gossip_schedule(problem, seed, budget)) use(*s);   // passes verify_schedule
//
// Designs, the best kept (docs/ENGINES.md "Gossip all-to-all broadcast"):
// - Translation schedules on Cayley graphs of abelian groups (tori, rings, hypercubes):
//   every processor v receives in step t over channel v-g -> v the message of origin v-o,
//   for offsets o labelled with (step, generator g); one offset per generator per step.
//   ceil((P-1)/min(k, degree)) steps when every step's labelling is full.
// - Neighbour gossip on other direct networks (meshes, Kautz, de Bruijn, ...): each step a
//   matching per processor between its in-channels and the messages its in-neighbours hold
//   and it lacks, urgent (only one in-neighbour holds it) and rare messages first.
// - Ring pipelines under few ports: a Hamiltonian cycle of processors (a snake on 2-D
//   meshes, an Eulerian circuit of the underlying digraph for line digraphs such as Kautz)
//   along which every processor forwards what it received last step: P-1 steps (one
//   port), ceil((P-1)/2) on two ports when the reverse cycle exists.
// - Networks with switches (fat trees, multistage): the constructive ring design.
// All transfers of the first three designs are single hops, so they hold under
// store-and-forward and every routing rule.
#pragma once

#include <cstdint>
#include <optional>

#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/schedule.hpp"
#include "ccsched/schedule/verified.hpp"

namespace ccsched {

// A schedule for an all-to-all broadcast (AAB, or MNB / CUSTOM whose messages are one per
// processor, each to every other processor), or nothing when the problem is not one, no
// design applies, or the budget ran out first. Deterministic given the seed. Whatever it
// returns is sealed by the verifier.
VerifiedSchedule gossip_schedule(const Problem& problem, std::uint64_t seed,
                                 const Budget& budget);

// True when gossip_schedule(problem, seed, ...) answers with a translation schedule at the
// reception bound ceil((P-1)/min(k, in-degree)), a lower bound under the model: no other
// design can be shorter. Decided from the labelling alone (tenths of a second at 4,096
// processors), without building a transfer.
bool gossip_meets_reception_bound(const Problem& problem, std::uint64_t seed);

}  // namespace ccsched
