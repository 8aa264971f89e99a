// The step-count search (docs/ENGINES.md, "The driver"). It starts from the best lower
// bound and a greedy upper bound, then walks down with the chosen engine: every feasible
// answer lowers the target to one step below the schedule found, an infeasible answer over
// an encoding that covers the whole model proves the last schedule optimal, and meeting the
// lower bound proves it without any search. Wormhole scatters are first searched with
// direct delivery (one transfer per message, the seeds' model); what that proves is
// optimality within direct delivery only, so a relay search follows (driver.hpp). Every
// schedule it returns has passed the verifier (a schedule the verifier rejects is an
// engine bug, never an answer).
#include "ccsched/engines/driver.hpp"

#include <algorithm>
#include <stdexcept>

#include "ccsched/core/error.hpp"
#include "ccsched/engines/constructive.hpp"
#include "ccsched/engines/gossip.hpp"
#include "ccsched/engines/greedy.hpp"
#include "ccsched/engines/grid_designs.hpp"
#include "ccsched/engines/lns.hpp"
#include "ccsched/engines/reduction.hpp"
#include "ccsched/engines/relay_shop.hpp"
#include "ccsched/engines/sat.hpp"
#include "ccsched/engines/spread.hpp"
#include "ccsched/engines/symmetric.hpp"
#include "ccsched/engines/tree_sat.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {
namespace {

void check_valid(const Schedule& s) {
  const auto violations = verify_schedule(s);
  if (!violations.empty())
    throw std::logic_error("engine " + (s.solver ? s.solver->engine : std::string("?")) +
                           " produced an invalid schedule: rule " +
                           std::to_string(violations.front().rule) + ": " +
                           violations.front().text);
}

// One transfer per message, from its origin to its target: inside the direct-delivery
// restriction that `floor` bounds.
bool delivers_directly(const Schedule& s) {
  if (s.transfers.size() != s.collective.messages.size()) return false;
  return std::all_of(s.transfers.begin(), s.transfers.end(), [&](const Transfer& t) {
    if (t.messages.size() != 1) return false;
    const Message& m = s.collective.messages[t.messages[0]];
    return m.targets.size() == 1 && t.path.front() == m.origin && t.path.back() == m.targets[0];
  });
}

}  // namespace

SolveOutcome solve_problem(const Problem& problem, const SolveRequest& request) {
  // Reductions have their own table of designs and the duality with broadcasts
  // (engines/reduction.hpp), which calls back into this driver on the reversed network.
  if (is_reduction(problem.collective)) return solve_reduction(problem, request);
  const auto start = Budget::Clock::now();
  const Budget budget(request.time_limit, request.interrupt);
  SolveOutcome out;
  // Path lists stop growing at the deadline or on Ctrl-C: a pair listed late keeps the
  // paths found so far, and the phase that asked notices the budget itself.
  PathLimits path_limits = request.path_limits;
  if (request.time_limit < 1e17)
    path_limits.deadline = start + std::chrono::duration_cast<Budget::Clock::duration>(
                                       std::chrono::duration<double>(request.time_limit));
  path_limits.stop = request.interrupt;
  const PathSet paths(problem.topology, problem.model, path_limits);
  // Wormhole scatter-type problems are searched with direct delivery first (each message
  // one transfer from origin to target), the model of the seeds and of the SAT engine's
  // direct encoding. The bounds that assume it are kept apart: they bound the direct
  // search (`floor`), never `lower_bound`.
  const bool direct = !is_broadcast(problem.collective) &&
                      problem.model.switching == Switching::wormhole;
  BoundOptions bound_options;
  bound_options.time_limit = (direct ? 0.25 : 0.5) * request.time_limit;  // bounds: half
  out.bounds = lower_bounds(problem, paths, bound_options);
  out.lower_bound = out.bounds.best;
  int floor = out.lower_bound;  // a bound on every schedule the main search can find
  if (direct) {
    bound_options.direct_scatter = true;
    out.direct_bounds = lower_bounds(problem, paths, bound_options);
    floor = std::max(floor, out.direct_bounds.best);
  }
  bool within_direct = false;  // proven optimal within direct delivery

  // Optimal under the model when the schedule meets `lower_bound`; within direct delivery
  // when it meets `floor` (every schedule here but the relay search's is direct).
  // A relayed schedule (a design or the relay search) is not inside that restriction: at
  // or below `floor` it only shows that direct delivery cannot do better.
  auto settle = [&](const std::string& otherwise) {
    const int steps = out.schedule->steps;
    if (steps <= out.lower_bound) {
      out.optimal = true;
      out.reason = "meets the lower bound";
    } else if (direct && steps <= floor && delivers_directly(*out.schedule)) {
      within_direct = true;
      out.reason = "meets the direct-delivery bound";
    } else if (direct && steps <= floor) {
      within_direct = false;
      out.reason = "relayed, at or below the direct-delivery bound " + std::to_string(floor);
    } else {
      out.reason = otherwise;
    }
    return steps <= floor;
  };
  // Scatters: a shorter schedule with relays, or the proof under the model (the SAT
  // engine's spreading encoding, where any processor may pass a message on), within
  // SolveRequest::relay_time_limit. Refused encodings and time-outs leave the claim
  // restricted, never false.
  auto relay_search = [&](std::optional<int> only) {
    if (!direct || out.optimal || budget.expired() || request.relay_time_limit <= 0 ||
        (request.engine != "auto" && request.engine != "sat"))
      return;
    EngineOptions options = request.options;
    constexpr double kRelayMemory = 2e9;  // the relay encoding grows fast; keep it modest
    options.max_memory = options.max_memory > 0 ? std::min(options.max_memory, kRelayMemory)
                                                : kRelayMemory;
    SatEngine relays(options, ScatterEncoding::relays);
    const Budget relay_budget = budget.sub(request.relay_time_limit);
    int target = only ? *only : out.schedule->steps - 1;
    while (target >= out.lower_bound) {
      EngineResult r = relays.solve(problem, paths, target, relay_budget);
      out.engine_seconds += r.seconds;
      if (r.status == SolveStatus::feasible) {
        out.schedule = std::move(r.schedule);
        out.status = SolveStatus::feasible;
        within_direct = false;
        settle("a schedule with relays, shorter than direct delivery allows");
        if (out.optimal || only) return;
        target = out.schedule->steps - 1;
      } else if (r.status == SolveStatus::infeasible && r.complete) {
        if (only) {
          out.status = SolveStatus::infeasible;
          out.reason = std::to_string(target) + " steps proven infeasible (relays included)";
          out.lower_bound = std::max(out.lower_bound, target + 1);
          return;
        }
        out.lower_bound = target + 1;
        out.optimal = true;
        out.reason = std::to_string(target) + " steps proven infeasible (relays included)";
        return;
      } else {
        if (out.schedule && !only)
          out.reason += "; relays not decided at " + std::to_string(target) + " steps (" +
                        (r.note.empty() ? std::string("no answer") : r.note) + ")";
        return;
      }
    }
  };

  auto finish = [&]() -> SolveOutcome {
    out.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
    if (direct && floor > out.lower_bound) out.direct_delivery_bound = floor;
    if (!out.optimal && within_direct) {
      out.optimal_within = "direct delivery";
      out.reason = "optimal within direct delivery: " + out.reason;
    }
    if (out.schedule) {
      check_valid(*out.schedule);
      out.status = SolveStatus::feasible;
      out.schedule->lower_bound = out.lower_bound;
      out.schedule->optimal = out.optimal;
      out.schedule->direct_delivery_bound = out.direct_delivery_bound;
      if (!out.optimal_within.empty()) out.schedule->optimal_within = out.optimal_within;
      if (out.schedule->solver) out.schedule->solver->seconds = out.seconds;
    }
    return std::move(out);
  };

  const std::string engine_name = request.engine == "auto" ? "sat" : request.engine;
  auto engine = make_engine(engine_name, request.options);

  if (request.steps) {
    // One question: does the problem fit in T steps?
    const int T = *request.steps;
    if (T < out.lower_bound) {
      out.status = SolveStatus::infeasible;
      out.reason = std::to_string(T) + " steps is below the lower bound " +
                   std::to_string(out.lower_bound);
      return finish();
    }
    EngineResult r = engine->solve(problem, paths, T, budget);
    out.engine_seconds += r.seconds;
    out.status = r.status;
    if (r.status == SolveStatus::feasible) {
      out.schedule = std::move(r.schedule);
      settle("not proven optimal (fixed --steps)");
      return finish();
    }
    if (r.status == SolveStatus::infeasible && r.complete) {
      out.reason = std::to_string(T) + " steps proven infeasible";
      out.lower_bound = std::max(out.lower_bound, T + 1);
      return finish();
    }
    if (r.status == SolveStatus::infeasible && !r.proof_within.empty())
      floor = std::max(floor, T + 1);
    out.status = SolveStatus::unknown;
    out.reason = r.status == SolveStatus::infeasible
                     ? "no schedule under the " + r.note + " (not a proof)"
                     : r.note;
    relay_search(T);
    return finish();
  }

  // A closed-form design, when the network's structure gives one, is usually the optimum
  // and spares the engine its hardest question (a perfect packing at the bound). When it
  // meets the bound the greedy schedule is not needed at all, which matters on large
  // networks (hypercube:10 AAS: greedy needs minutes, the design milliseconds).
  // Scatters with at least this many messages go to the relay job shop when no design
  // covers them; below it the window search polishes direct schedules further.
  constexpr std::size_t kRelayShopMessages = 30000;
  auto built = constructive_schedule(problem, paths);
  auto keep_shorter = [&](std::optional<Schedule> s) {
    if (s && (!built || s->steps < built->steps)) built = std::move(s);
  };
  if (engine_name == "sat" || engine_name == "greedy") {
    // Designs for large networks (issue 14), each nothing where it does not apply:
    // one-message broadcasts by regions (engines/spread.hpp), all-to-all broadcasts by
    // translation, gossip or ring pipelines (engines/gossip.hpp), all-to-all scatters by
    // dimension-wise relays on rings, meshes and tori (engines/grid_designs.hpp). They
    // meet or nearly meet the bound where the searches below cost gigabytes.
    const Budget design_budget = budget.sub(std::min(10.0, 0.2 * budget.remaining()));
    keep_shorter(region_broadcast(problem, paths, request.options.seed, design_budget));
    keep_shorter(gossip_schedule(problem, request.options.seed, design_budget));
    keep_shorter(grid_aas_schedule(problem));
    // Scatters on other direct networks (Kautz, faulty tori, ...): relayed along levelled
    // routes (engines/relay_shop.hpp). Kept when no direct schedule can match it (at or
    // below the direct-delivery floor: kautz:3,3 AAS 32 = the weighted-load bound, where
    // direct delivery needs 34; kautz:3,4 AAS 131 in 1 s, where greedy and the window
    // search reached 148 in 60 s and 2.8 GB), or on large problems.
    // With relay_time_limit 0 (the seeds' model, direct delivery) only where no direct
    // search answers in time.
    const std::size_t count = problem.collective.messages.size();
    if ((!built || built->steps > floor) &&
        (request.relay_time_limit > 0 || count >= kRelayShopMessages)) {
      // Most of the time when nothing else answers a large problem (greedy would not
      // finish there: a faulty torus:32x32 AAS).
      const double share = !built && count >= kRelayShopMessages
                               ? 0.8 * budget.remaining()
                               : std::min(20.0, 0.4 * budget.remaining());
      auto relayed = relay_scatter(problem, paths, request.options.seed, budget.sub(share));
      if (relayed && (count >= kRelayShopMessages || relayed->steps <= floor))
        keep_shorter(std::move(relayed));
    }
  }
  // Past kRelayShopMessages the greedy engine needs minutes and gigabytes (a million
  // messages on torus:32x32) to come out longer than a design within 5 % of the floor: such
  // a design stands. A design further off (the relay job shop under one port) still races it.
  const bool near_floor = built && built->steps <= floor + floor / 20;
  if (built && (built->steps <= floor ||
                (near_floor && problem.collective.messages.size() >= kRelayShopMessages))) {
    out.schedule = std::move(built);
  } else if (built) {
    // The greedy schedule rarely beats a design; on large networks it may not even finish
    // in its share of the time, which then leaves the design in place.
    try {
      auto greedy = greedy_schedule(problem, paths, request.options.seed,
                                    budget.sub(std::min(30.0, 0.3 * budget.remaining())));
      out.schedule = greedy.steps <= built->steps ? std::move(greedy) : std::move(*built);
    } catch (const Unsupported&) {
      out.schedule = std::move(built);
    }
  } else {
    out.schedule = greedy_schedule(problem, paths, request.options.seed, budget);
  }
  if (settle("not proven optimal")) {
    relay_search(std::nullopt);
    return finish();
  }
  if (engine_name == "greedy") {
    out.reason = "greedy upper bound, not proven optimal";
    return finish();
  }
  if (engine_name == "umda" || engine_name == "hgsa") {
    // The evolutionary engines prove nothing, so they search upward: the lower bound
    // first, one step more each time a run gives up (seed 000 §4.3: "if it does not do so
    // in a reasonable time, the prescribed number of steps must be increased"). A run
    // that ends because the budget ran out stops the search; the decision comes from the
    // engine's result, never from this process's clock alone, so every island of an MPI
    // run takes the same path.
    for (int target = floor; target < out.schedule->steps; ++target) {
      EngineResult r = engine->solve(problem, paths, target, budget);
      out.engine_seconds += r.seconds;
      if (r.status == SolveStatus::feasible) {
        out.schedule = std::move(r.schedule);
        settle("not proven optimal (" + engine_name + " gave up on " +
               std::to_string(target - 1) + " steps)");
        return finish();
      }
      if (r.budget_exhausted) {
        out.reason = "time limit reached while trying " + std::to_string(target) +
                     " steps; greedy upper bound, not proven optimal";
        return finish();
      }
    }
    out.reason = "greedy upper bound; " + engine_name + " found nothing shorter";
    return finish();
  }
  int target = out.schedule->steps - 1;
  out.reason = "not proven optimal";
  // A better schedule: the next target is one step fewer; true when it meets the floor.
  auto improved = [&]() {
    target = out.schedule->steps - 1;
    return settle("not proven optimal");
  };
  // Symmetric schedules (engines/symmetric.hpp) first: on symmetric networks the optimum
  // is usually symmetric, and the encoding is the symmetry group's order times smaller. It
  // proves nothing. Broadcasts aim at the lower bound and then one step more at a time;
  // scatters only at the floor and on a shorter slice, since the window search below
  // closes the steps above it quickly (trying each of them here cost B-Tree 32 AAS 30 s
  // for nothing).
  // Past kSymmetricMessages the symmetry search alone (images of every message under every
  // automorphism) outlasts any time limit (torus:32x32 AAS: a million messages), and an
  // encoding of that size could not be solved anyway.
  constexpr std::size_t kSymmetricMessages = 50000;
  if (engine_name == "sat" && problem.collective.messages.size() <= kSymmetricMessages) {
    const auto symmetries = problem_symmetries(problem, budget);
    const bool broadcast = is_broadcast(problem.collective);
    const double cap = broadcast ? 30.0 : 4.0;
    const int last = broadcast ? out.schedule->steps - 1 : floor;
    for (int steps = floor;
         !symmetries.empty() && steps <= last && steps < out.schedule->steps && !budget.expired();
         ++steps) {
      EngineResult r = symmetric_schedule(
          problem, paths, symmetries, steps,
          budget.sub(std::min(0.2 * budget.remaining(), cap)), request.options.seed,
          request.options.max_memory);
      out.engine_seconds += r.seconds;
      if (r.status == SolveStatus::feasible) {
        out.schedule = std::move(r.schedule);
        break;
      }
    }
    if (improved()) {
      relay_search(std::nullopt);
      return finish();
    }
  }
  // Broadcasts: first the fixed-tree encoding (engines/tree_sat.hpp), which only chooses
  // steps for given trees and is far smaller than the spreading encoding: neighbour trees
  // aimed straight at the lower bound, then at each target the trees of the best schedule
  // so far. It proves nothing; the loop below still does.
  const bool trees_apply = engine_name == "sat" && is_broadcast(problem.collective) &&
                           !problem.model.combining;
  std::optional<std::vector<TreeEdge>> near_trees;
  if (trees_apply) near_trees = neighbour_trees(problem, paths);
  auto try_trees = [&](const std::vector<TreeEdge>& trees, int steps, double seconds) {
    EngineResult r = schedule_trees(problem, paths, trees, steps,
                                    budget.sub(std::min(seconds, budget.remaining())),
                                    request.options.seed, request.options.max_memory);
    out.engine_seconds += r.seconds;
    if (r.status == SolveStatus::feasible && r.schedule->steps < out.schedule->steps) {
      out.schedule = std::move(r.schedule);
      return true;
    }
    return false;
  };
  if (near_trees) {
    for (int steps = out.lower_bound; steps < out.schedule->steps && !budget.expired(); ++steps)
      if (try_trees(*near_trees, steps, std::min(0.25 * budget.remaining(), 10.0))) break;
    if (improved()) return finish();
  }
  while (target >= floor) {
    if (trees_apply && !budget.expired() &&
        try_trees(trees_of(problem, *out.schedule), target,
                  std::min(0.15 * budget.remaining(), 20.0))) {
      if (improved()) break;
      continue;
    }
    if (budget.expired()) {
      out.reason = (budget.interrupted() ? "interrupted before " : "time limit reached before ") +
                   std::to_string(target) + " steps was decided";
      break;
    }
    // Direct-delivery scatter and broadcasts: the SAT engine and the window search share
    // the attempt (below); only the SAT engine can prove.
    std::optional<EngineResult> first;
    if (engine_name == "sat" && lns_applies(problem)) {
      // The SAT engine goes first. Broadcasts give it most of the budget (its radius
      // stages usually answer within seconds); scatters a second at most, which decides
      // small problems at once — the window search can never prove T infeasible, and used to
      // spend up to 120 s before the SAT engine's instant proof (kautz:3,2 OAS with the
      // link 10-02 faulty, 4 steps).
      const bool broadcast = is_broadcast(problem.collective);
      first = engine->solve(problem, paths, target,
                            budget.sub(broadcast ? 0.7 * budget.remaining()
                                                 : std::min(0.05 * budget.remaining(), 1.0)));
      out.engine_seconds += first->seconds;
      const bool decided =
          first->status == SolveStatus::feasible ||
          (first->status == SolveStatus::infeasible &&
           (first->complete || !first->proof_within.empty() || broadcast));
      if (!decided && !budget.expired()) {
        const auto lns_start = Budget::Clock::now();
        auto squeezed = lns_squeeze(
            problem, paths, *out.schedule, target,
            broadcast ? budget : budget.sub(std::min(0.3 * budget.remaining(), 120.0)),
            request.options.seed, request.options.progress);
        out.engine_seconds +=
            std::chrono::duration<double>(Budget::Clock::now() - lns_start).count();
        if (squeezed) {
          out.schedule = std::move(squeezed);
          if (improved()) break;
          continue;
        }
        if (!broadcast) first.reset();  // the SAT engine goes on with the rest
      }
    }
    EngineResult r = first ? std::move(*first) : engine->solve(problem, paths, target, budget);
    if (!first) out.engine_seconds += r.seconds;
    if (r.status == SolveStatus::feasible) {
      out.schedule = std::move(r.schedule);
      if (improved()) break;
    } else if (r.status == SolveStatus::infeasible && r.complete) {
      out.lower_bound = target + 1;
      out.optimal = true;
      out.reason = std::to_string(target) + " steps proven infeasible";
      break;
    } else if (r.status == SolveStatus::infeasible && !r.proof_within.empty()) {
      // Proven within direct delivery only: the relay search below decides the rest.
      floor = target + 1;
      within_direct = true;
      out.reason = std::to_string(target) + " steps proven infeasible with " + r.proof_within;
      break;
    } else {
      out.reason = r.status == SolveStatus::infeasible
                       ? "no schedule of " + std::to_string(target) + " steps under the " +
                             r.note + " (not a proof)"
                       : r.note + " while trying " + std::to_string(target) + " steps";
      break;
    }
  }
  relay_search(std::nullopt);
  return finish();
}

}  // namespace ccsched
