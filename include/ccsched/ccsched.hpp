// ccsched in one header: design a contention-free schedule for a collective communication
// on a network, with its lower bound and whether it is proven optimal.
//
//   #include <ccsched/ccsched.hpp>
//
//   ccsched::Outcome out = ccsched::solve("kautz:3,2", ccsched::CollectiveKind::AAS);
//   // out.steps == 7, out.lower_bound == 7, out.optimal == true,
//   // *out.schedule passes ccsched::verify_schedule and ccsched::write_schedule_json writes it.
//
//   ccsched::SolveOptions o;
//   o.ports = 1;                     // 1-port model
//   o.root = "0";                    // OAB/OAS/AOG/REDUCE root (id or label)
//   o.time_limit = 10;               // seconds; the best schedule so far is returned
//   auto r = ccsched::solve("hypercube:4", ccsched::CollectiveKind::OAB, o);
//
// Contract: bad input (an unknown spec, a root that is not a processor, a fault that names
// no link) throws a ccsched::Error subclass (core/error.hpp) whose what() is the line the
// command prints after "ccsched: error: ". A search that finds nothing is not an error:
// `schedule` is empty and `status` says why. Every schedule returned passes the verifier.
//
// The whole library stays available beneath this header (topology, problem, bounds,
// engines, schedule, cost); find_package(ccsched) and ccsched::ccsched link all of it.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/schedule.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/io.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

// `SolveOptions::ports` value for the all-port model.
inline constexpr int kAllPorts = 0;

// The problem and the search, as the command line's `solve` options say them
// (README.md "Usage"); every field has the command's default.
struct SolveOptions {
  // --- the problem ---
  // k of the k-port model, kAllPorts for all-port; nullopt: the network's default (all-port
  // on direct networks, one port on multistage networks; problem.hpp default_model).
  std::optional<int> ports;
  std::string root;                    // OAB, OAS, AOG, REDUCE (id or label; "": first processor)
  std::vector<std::string> senders;    // MNB, MNS, reductions (ids or labels)
  std::vector<std::string> receivers;  // MNB, MNS, ALLREDUCE, REDUCESCATTER
  std::optional<int> blocks;           // reductions: blocks per input
  int shift = 1;                       // PERM: circular shift
  std::string messages_file;           // CUSTOM / PERM: message list file
  std::vector<std::string> faults;     // "U-V" (a link) or "U->V" (a channel)
  Switching switching = Switching::wormhole;
  Routing routing = Routing::minimal;
  int extra_hops = 2;  // nonminimal routing: paths up to this many hops above shortest
  bool combining = false;
  // --- the search ---
  std::string engine = "auto";  // auto | sat | greedy | umda | hgsa
  std::optional<int> steps;     // answer for exactly this step count
  double time_limit = 0.0;      // seconds; 0: the default (300 s up to 256 processors, 45 s above)
  double relay_time_limit = 60.0;
  std::uint64_t seed = 1;
  // Set to true from another thread (a signal handler, a watcher) to stop the search; the
  // best schedule found so far is returned.
  const std::atomic<bool>* interrupt = nullptr;
};

// What a solve found: the schedule with the fewest steps, its bound and its claim.
struct Outcome {
  SolveStatus status = SolveStatus::unknown;  // feasible when `schedule` is set
  std::optional<Schedule> schedule;
  int steps = -1;  // schedule->steps, or -1 without a schedule
  int lower_bound = 0;
  bool optimal = false;           // proven under the model as the schedule states it
  std::string optimal_within;     // "direct delivery" when proven only there
  std::optional<int> direct_delivery_bound;
  std::string reason;             // why optimal, or why not proven
  BoundReport bounds;             // every lower bound, with its argument
  double seconds = 0.0;
};

// The network of a spec string ("kautz:3,2", `ccsched topo list`) or a topology file
// (.json — ccsched-topology/1 or NetworkX node-link —, .dot, .gv, .edges, .anynet).
Topology topology(std::string_view spec_or_path);

// The problem `solve` and `bounds` work on: faults removed, the collective expanded, the
// model fixed. Throws InvalidParameter naming the option at fault.
Problem make_problem(const Topology& network, CollectiveKind kind, const SolveOptions& options);

Outcome solve(std::string_view spec_or_path, CollectiveKind kind);
Outcome solve(std::string_view spec_or_path, CollectiveKind kind, const SolveOptions& options);
Outcome solve(const Topology& network, CollectiveKind kind, const SolveOptions& options);
Outcome solve(const Problem& problem, const SolveOptions& options);

// Every lower bound valid under the problem's model (docs/BOUNDS.md); `direct` assumes
// each scatter message is one transfer, the seeds' model (stronger, valid only there).
BoundReport bounds(const Problem& problem, bool direct = false);

}  // namespace ccsched
