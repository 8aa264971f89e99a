// The solve driver (docs/ENGINES.md, "The driver"; docs/ARCHITECTURE.md): one table of
// strategies — closed-form designs, the greedy upper bound, the searches that close the
// gap, the exact encodings, the reduction designs and duals — walked in order. Each row
// says when it applies, what it can prove and what work it may spend; one Claims object
// turns what the rows found into `lower_bound`, `optimal` and `optimal_within`.
//
//   SolveRequest request;                  // defaults: DriverParams, the seed 1
//   SolveOutcome out = solve_problem(problem, request);
//   if (out.schedule) use(*out.schedule);  // has passed verify_schedule
//
// Claims (docs/RELIABILITY.md, "What optimal and lower_bound promise"): `lower_bound` and
// `optimal` hold under the model exactly as the schedule states it, relays through other
// processors included. Wormhole scatters are searched with direct delivery first (the
// seeds' model: small encodings); a bound or a proof that holds only there is reported as
// `direct_delivery_bound` / `optimal_within`, and a relay search (the SAT engine's
// spreading encoding) then looks for a shorter schedule or the proof under the model.
//
// Determinism: every search is budgeted in work (SAT conflicts, window moves, attempts)
// from DriverParams, so the same problem, seed and parameters give the same schedule on
// any machine; the time limit only caps the run, and `clock_cut` says when it did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/engine.hpp"
#include "ccsched/schedule/verified.hpp"

namespace ccsched {

// Every threshold, share and work allowance of the driver's strategies, in one place; each
// is documented with its reason in docs/ENGINES.md, "Driver parameters".
struct DriverParams {
  // Time: the default limit when the caller gives none (0): `small_network_seconds` up to
  // this many processors, `large_network_seconds` above, so that large networks answer
  // within a minute. The small networks' limit is only an outer cap: their searches stop
  // by their work allowances far sooner, except on encodings of millions of clauses.
  int large_network_processors = 256;
  double large_network_seconds = 45.0;
  double small_network_seconds = 300.0;
  // Lower bounds may take at most this share of the limit (direct-delivery scatters run
  // the bounds twice, each with half of it).
  double bounds_share = 0.5;
  // Safety caps, as shares of the time left when a row starts: a row that hits one is cut
  // by the clock (SolveOutcome::clock_cut). They never bite on problems the work
  // allowances below settle; they keep one slow row from starving the rest.
  double design_time_share = 0.2;   // each closed-form design
  double relay_shop_time_share = 0.4;
  double relay_shop_alone_share = 0.8;  // the relay shop when nothing else can answer
  double greedy_time_share = 0.3;   // greedy racing a design
  double last_resort_share = 0.05;  // greedy past the limit when nothing answered in it
  double window_time_share = 0.3;   // the window search on a scatter
  // The check of the schedule kept (verify_schedule) comes after the rows: they end this
  // many seconds per transfer the collective needs before the limit, at most
  // check_reserve_share of it (a million-transfer reduction took 1.5-2.7 s to check).
  double check_seconds_per_transfer = 2e-6;
  double check_reserve_share = 0.3;
  double exact_reduction_time_share = 0.6;  // the exact reduction search before the duals
  // Sizes.
  std::size_t relay_shop_messages = 30000;  // from here the relay shop answers scatters alone
  std::size_t symmetric_messages = 50000;   // past this the symmetry search is skipped
  double near_floor = 0.05;       // a design this close to the floor stands on large problems
  double relay_encoding_bytes = 2e9;  // cap on the relay encoding's memory
  double symmetric_encoding_bytes = 5e8;  // cap on each symmetric encoding's estimate
  int composition_processors = 512;   // several-block ALLREDUCE: no composition above
  int scan_dual_processors = 256;     // SCAN: the dual's bounds without its search above
  int window_processors = 4096;       // no window search above (its setup is over all pairs)
  int tree_search_processors = 4096;  // no fixed-tree search above (gigabytes of paths)
  int region_after_design_processors = 4096;  // above, no region attempt after a near design
  // Above this many processors the constructive row leaves an all-to-all broadcast to the
  // gossip design when its translation meets the reception bound (the ring all-gather's
  // 16.8 million transfers beside the gossip's held 5 GB at 4,096 processors).
  int constructive_aab_processors = 1024;
  // Work allowances (deterministic; docs/ENGINES.md, "Budgets").
  std::int64_t symmetric_conflicts = 2'000'000;    // per step count, all symmetries together
  std::int64_t tree_conflicts = 200'000;        // per fixed-tree encoding
  std::int64_t probe_conflicts = 10'000;        // the SAT engine's first look at a scatter
  std::int64_t window_moves = 4'000;            // window-search moves per step count
  std::int64_t sat_conflicts = 4'000'000;       // the SAT engine per step count
  std::int64_t relay_conflicts = 2'000'000;     // the relay encoding per step count
  std::int64_t reduction_conflicts = 1'000'000; // the exact reduction search per step count
  std::int64_t volume_conflicts = 200'000;      // the search at the volume bound, per step count
  // Threads for the rows that may run at once (the closed-form designs); 0: every core.
  int threads = 0;
};

struct SolveRequest {
  std::string engine = "auto";    // auto | sat | greedy | umda | hgsa | mboa
  std::optional<int> steps;       // answer for this T alone
  // Seconds; 0: the library's default (DriverParams: 300 s up to 256 processors, 45 s
  // above). Only a cap: the work allowances decide where searches stop.
  double time_limit = 0.0;
  // Wormhole scatters: seconds the relay search (driver.hpp, top) may take at most, within
  // `time_limit`; 0 skips it (the claim then stays "optimal within direct delivery").
  double relay_time_limit = 60.0;
  const std::atomic<bool>* interrupt = nullptr;
  EngineOptions options;
  DriverParams params;
  // How many paths per pair the engines may see (the CLI truncates them on networks whose
  // path lists would not fit in --max-memory; docs/RELIABILITY.md).
  PathLimits path_limits;
};

// The time limit a request runs under: its own, or the default for the problem's size
// (1e18: none).
double effective_time_limit(const Problem& problem, const SolveRequest& request);

struct SolveOutcome {
  SolveStatus status = SolveStatus::unknown;  // feasible when a schedule was found
  VerifiedSchedule schedule;   // sealed by the verifier (schedule/verified.hpp)
  BoundReport bounds;          // valid under the model as written
  int lower_bound = 0;         // best lower bound, raised by infeasibility proofs
  bool optimal = false;        // proven under the model as written
  // Wormhole scatters: the bounds that assume direct delivery (each message one transfer,
  // the seeds' model), and their best, raised by direct-delivery infeasibility proofs;
  // set only when it exceeds `lower_bound`.
  BoundReport direct_bounds;
  std::optional<int> direct_delivery_bound;
  // Not optimal, but proven optimal inside this restriction ("direct delivery").
  std::string optimal_within;
  std::string reason;          // why optimal, or why not proven
  // The wall clock (not the work allowances) ended some search: the same request on a
  // less busy machine may give a different schedule.
  bool clock_cut = false;
  double seconds = 0.0;
  double engine_seconds = 0.0;  // time inside the strategies' runs (without the bounds)
};

SolveOutcome solve_problem(const Problem& problem, const SolveRequest& request);

}  // namespace ccsched
