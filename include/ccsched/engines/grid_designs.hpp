// Closed-form all-to-all scatter (AAS) schedules on rings, meshes and tori of one to three
// dimensions, built in time linear in the number of transfers: a thousand-processor
// torus gets its two million transfers in seconds, where a search engine would not finish.
//
//   if (auto s = grid_aas_schedule(problem)) use(*s);   // s passes verify_schedule
//
// Every message travels dimension by dimension (relayed by the processor at each corner,
// FORMATS.md rule 5), each segment a shortest path within one ring or line. Each ring or
// line gets a 1-D template: its segments grouped by offset class and packed into rounds
// of channel-disjoint segments (on a ring of even k a perfect tiling, so the template
// meets the channel-load bound ceil(k^2/8)); the rounds of all dimensions are then
// pipelined as a flow shop whose jobs are tuples of offset classes, in Johnson's order
// (two dimensions: a job shop, some jobs routed Y first, by Jackson's rule).
// Under a k-port model (k smaller than the degree) the all-port schedule's segments are
// list-scheduled, in order, into the first step where their channels and ports are free.
// docs/ENGINES.md "Grid all-to-all designs" gives the construction and its argument.
#pragma once

#include <optional>

#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// A schedule for `problem` when its network is exactly the ring:N, mesh:AxB[xC] or
// torus:AxB[xC] that its name says (regenerated and compared: a faulty or relabelled
// network gets nothing), its messages are one per ordered pair of processors (AAS, or any
// collective with exactly that pattern), and the model is wormhole. Nothing otherwise.
// The result has passed no verifier here; callers that need a guarantee check it (the
// tests check every case). Cost: about 250 bytes per transfer at the peak, the Schedule
// itself included (torus:32x32: 2 M transfers, 0.5 GB, 2 s all-port, 4 s one port).
std::optional<Schedule> grid_aas_schedule(const Problem& problem);

}  // namespace ccsched
