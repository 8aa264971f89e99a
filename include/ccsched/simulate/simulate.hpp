// Replay of a schedule on SimGrid (S4U): an independent check of the verifier and of the
// linear time model, because SimGrid shares bandwidth between flows that meet on a link
// instead of trusting that they do not.
//
// The platform is built from the topology: one SimGrid link per channel pair (a
// split-duplex link for a full-duplex pair, whose two directions are independent, a plain
// link for a lone channel), with the given bandwidth and a per-hop latency. Each transfer
// is one SimGrid communication whose route is exactly its path through those links, plus
// a private start-up link carrying the start-up latency t0 (the seeds' t0: software and
// DMA set-up in the end nodes). Each step's transfers start together; the next step starts
// when the last one has finished. So a transfer that has its channels to itself takes
//
//   t0 + h * t_hop + c * m / bandwidth          (seed 001, eq. (1), with th per hop)
//
// for h hops and c messages of m bytes, and a contention-free step takes its slowest
// transfer's time — the linear model's figure. Transfers that share a channel share its
// bandwidth (max-min fairness), so a schedule that breaks the channel rule shows the
// slowdown.
//
//   SimulationParameters p{.bandwidth = 2e9, .latency = 1e-6, .message_bytes = 1024};
//   Simulation r = simulate_schedule(schedule, p);   // r.steps[i].seconds, r.total_seconds
//
// Reductions (FORMATS.md "Reductions"): a transfer of c blocks carries c * bytes/blocks
// bytes, and after a step's transfers every processor that adds (a `reduce` receive into a
// filled accumulator; cost/linear.hpp reduction_adds) runs one SimGrid execution of its
// added bytes on a host that adds 1/tc bytes per second; the step ends when the last add
// has finished. So an uncontended reduction step takes the linear model's slowest
// transfer plus a_i * tc.
//
// SimGrid keeps global state that cannot be reset, so every call runs the simulation in
// a child process (fork) and reads the figures back; calls are independent.
//
// Replay by classes, for schedules past `full_replay_limit` transfers (16.8 million
// transfers of an all-to-all broadcast on 4,096 processors would need hundreds of GB of
// SimGrid platform and hours): in a step whose transfers hold disjoint channels no flow
// shares a link with another (hosts have no limit of their own), so max-min sharing gives
// every flow exactly what it gets alone, which depends only on its hops and bytes, and the
// step lasts as long as its slowest flow; its adds, on hosts of their own, likewise. Such
// steps are replayed as their distinct (hops, bytes) flows and distinct added amounts, each
// once for the whole schedule; a step in which two transfers share a channel is replayed
// whole, as in the full replay. The figures are the full replay's (a test compares both).
//
// Routing detail: SimGrid routes are fixed per pair of hosts, while a schedule may move
// data between the same two processors along different paths in different steps. Each
// step is therefore its own SimGrid zone in which every processor of the step is a host
// (a second host for a pair that occurs twice in one step), and all zones route over the
// same channel links. Switches carry no host: they are the links' meeting points.
#pragma once

#include <cstdint>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct SimulationParameters {
  double bandwidth = 2e9;             // bytes per second, every channel
  double latency = 1e-6;              // start-up per transfer, seconds (t0)
  double hop_latency = 0.0;           // per channel, seconds (th; 0 as in the seeds)
  std::int64_t message_bytes = 1024;  // bytes per message; a reduction: per input vector
  double add_time = 0.0;              // reductions: seconds to add one byte (tc)
  // Past this many transfers (0: never) the replay goes by classes (below).
  std::int64_t full_replay_limit = 0;
};

struct SimulatedStep {
  Step step = 1;
  int transfers = 0;
  double seconds = 0.0;          // simulated
  double compute_seconds = 0.0;  // of `seconds`: the adds after the transfers (reductions)
  double model_seconds = 0.0;    // linear model: the slowest transfer's time alone (and adds)
};

struct Simulation {
  std::vector<SimulatedStep> steps;  // 1..Schedule::steps
  double total_seconds = 0.0;
  double model_seconds = 0.0;
  bool by_class = false;          // replayed by classes (past full_replay_limit)
  std::size_t replayed_runs = 0;  // SimGrid runs: the steps, or the classes and conflicting steps
};

// Throws InvalidParameter for a bandwidth <= 0, negative latencies, add time or bytes, or a
// reduction vector that does not split into its blocks; InvalidInput when a transfer's
// path is not a sequence of channels or its step lies outside 1..steps; Unsupported when
// the simulation itself fails. Breaking the channel or port
// rule is not an error: that is what the replay measures.
Simulation simulate_schedule(const Schedule& s, const SimulationParameters& p);

}  // namespace ccsched
