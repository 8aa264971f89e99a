// The rows for message collectives (rows.hpp): designs, greedy, the evolutionary engines,
// the symmetric and fixed-tree encodings, the descent (SAT engine and window search) and
// the relay encoding. Each adapter says when its technique applies and translates one run
// into an Attempt; docs/ENGINES.md, "The driver", gives the reasons for the order.
#include <algorithm>

#include "ccsched/engines/constructive.hpp"
#include "ccsched/engines/gather.hpp"
#include "ccsched/engines/gossip.hpp"
#include "ccsched/engines/greedy.hpp"
#include "ccsched/engines/hypercube_broadcast.hpp"
#include "ccsched/engines/grid_designs.hpp"
#include "ccsched/engines/lns.hpp"
#include "ccsched/engines/pipelined.hpp"
#include "ccsched/engines/relay_shop.hpp"
#include "ccsched/engines/sat.hpp"
#include "ccsched/engines/spread.hpp"
#include "ccsched/engines/symmetric.hpp"
#include "ccsched/engines/tree_sat.hpp"
#include "ccsched/core/text.hpp"
#include "rows.hpp"

namespace ccsched::driver {
namespace {

bool messages(const Search& s) { return !is_reduction(s.problem.collective); }
bool broadcast(const Search& s) { return is_broadcast(s.problem.collective); }
// The best schedule so far is above the floor: a search may still shorten it.
bool open(const Search& s) { return s.claims.best() != nullptr && !s.claims.at_floor(); }
bool evolutionary(const std::string& engine) {
  return engine == "umda" || engine == "hgsa" || engine == "mboa";
}

// The user's progress callback with the best schedule so far added to each line; empty
// when the user asked for none.
ProgressFn progress(const Search& s) {
  if (!s.request.options.progress) return {};
  return [&s, user = s.request.options.progress](const ProgressInfo& p) {
    ProgressInfo q = p;
    if (s.claims.best()) q.best_steps = s.claims.best_steps();
    user(q);
  };
}

Attempt found(std::optional<Schedule> schedule) {
  Attempt a;
  if (schedule) a.schedules.push_back({std::move(*schedule), ""});
  return a;
}
// A design that verified its schedule hands it over sealed: Claims keeps it unchecked.
Attempt found(VerifiedSchedule schedule) {
  Attempt a;
  if (schedule) a.schedules.push_back({std::move(schedule), ""});
  return a;
}

// One answer of an engine at `target` steps, as the descent reads it.
Attempt read_result(EngineResult r, int target) {
  Attempt a;
  a.seconds = r.seconds;
  if (r.status == SolveStatus::feasible) {
    a.schedules.push_back({std::move(*r.schedule), ""});
    a.decided = true;
  } else if (r.status == SolveStatus::infeasible && r.complete) {
    a.infeasible = target;
    a.proof = plural(target, "step") + " proven infeasible";
    a.stop = true;
  } else if (r.status == SolveStatus::infeasible && !r.proof_within.empty()) {
    a.infeasible = target;
    a.within = r.proof_within;
    a.proof = plural(target, "step") + " proven infeasible with " + r.proof_within;
    a.stop = true;
  } else {
    a.note = r.status == SolveStatus::infeasible
                 ? "no schedule of " + plural(target, "step") + " under the " + r.note +
                       " (not a proof)"
                 : r.note + " while trying " + plural(target, "step");
    a.stop = true;
  }
  return a;
}

}  // namespace

Engine& Search::engine_for_search() {
  if (!chosen) chosen = make_engine(engine, request.options);
  return *chosen;
}

// --- Designs -------------------------------------------------------------------------

// The designs for large networks answer for the SAT and greedy engines; the evolutionary
// engines are run for themselves (seed 000's method) and start from greedy alone.
bool designs_apply(const Search& s) {
  return messages(s) && (s.engine == "sat" || s.engine == "greedy");
}

// Every message to one root, from distinct origins (AOG, or a CUSTOM list of that shape).
bool gather_applies(const Search& s) {
  const auto& ms = s.problem.collective.messages;
  if (!designs_apply(s) || ms.empty() || ms.front().targets.size() != 1) return false;
  const NodeId root = ms.front().targets.front();
  return std::all_of(ms.begin(), ms.end(), [root](const Message& m) {
    return m.targets.size() == 1 && m.targets.front() == root;
  });
}
Attempt gather_row(Search& s, const Budget& budget, int) {
  return found(gather_schedule(s.problem, budget));
}

bool hypercube_broadcast_row_applies(const Search& s) {
  return designs_apply(s) && hypercube_broadcast_applies(s.problem);
}
Attempt hypercube_broadcast_row(Search& s, const Budget& budget, int) {
  return found(hypercube_broadcast(s.problem, s.request.options.seed, budget));
}

bool constructive_applies(const Search& s) { return messages(s); }
// On a large all-to-all broadcast whose gossip translation meets the reception bound, the
// constructive designs cannot be shorter, and building their schedule beside the gossip's
// doubles the memory of the run (DriverParams::constructive_aab_processors).
Attempt constructive(Search& s, const Budget& budget, int) {
  if (designs_apply(s) &&
      s.problem.topology.processor_count() > s.params.constructive_aab_processors &&
      gossip_meets_reception_bound(s.problem, s.request.options.seed))
    return {};
  return found(constructive_schedule(s.problem, s.paths, budget));
}
// Above region_after_design_processors a region attempt costs seconds and does not beat a
// design within one step of the bound (docs/ENGINES.md, "Quadrant broadcast"); the
// hypercube broadcast, written before this row, is such a design (hypercube:14: 5 against
// 4, where the region broadcast's halving is 14 and its attempts took the designs' whole
// share).
Attempt region_broadcast_row(Search& s, const Budget& budget, int) {
  if (s.claims.best() &&
      s.problem.topology.processor_count() > s.params.region_after_design_processors &&
      s.claims.best_steps() <= s.claims.lower_bound() + 1)
    return {};
  return found(region_broadcast(s.problem, s.paths, s.request.options.seed, budget));
}
Attempt gossip_row(Search& s, const Budget& budget, int) {
  return found(gossip_schedule(s.problem, s.request.options.seed, budget));
}
Attempt grid_design_row(Search& s, const Budget&, int) {
  return found(grid_aas_schedule(s.problem));
}

// An AAB of several blocks (FORMATS.md "Several blocks"): the pipelined all-gather trees
// and the one-block AAB designs pipelined (engines/pipelined.hpp).
bool allgather_blocks_apply(const Search& s) {
  const Collective& c = s.problem.collective;
  return designs_apply(s) && c.kind == CollectiveKind::AAB && c.blocks > 1;
}
Attempt allgather_blocks_row(Search& s, const Budget& budget, int) {
  Attempt a;
  int best = -1;
  for (auto& d : allgather_trees(s.problem, budget)) {
    best = best < 0 ? d.schedule.steps : std::min(best, d.schedule.steps);
    a.schedules.push_back({std::move(d.schedule), d.design});
  }
  // The one-block designs pipelined, unless the trees already meet the floor (on
  // torus:32x32 the one-block designs and their copies took a minute more).
  if (best >= 0 && best <= s.claims.floor()) return a;
  const Problem one = with_one_block(s.problem);
  std::vector<Schedule> singles;
  if (auto g = gossip_schedule(one, s.request.options.seed, budget))
    singles.push_back(std::move(g).release());
  if (auto c = constructive_schedule(one, s.paths, budget))
    singles.push_back(std::move(c).release());
  for (auto& d : allgather_copies(s.problem, s.paths, singles, budget))
    a.schedules.push_back({std::move(d.schedule), d.design});
  return a;
}

// Kept when no direct schedule can match it (at or below the direct-delivery floor), or
// on problems so large that nothing else answers; with relay_time_limit 0 (the seeds'
// model, direct delivery) only there.
bool relay_shop_applies(const Search& s) {
  const std::size_t count = s.problem.collective.messages.size();
  return designs_apply(s) && (!s.claims.best() || !s.claims.at_floor()) &&
         (s.request.relay_time_limit > 0 || count >= s.params.relay_shop_messages);
}
Attempt relay_shop_row(Search& s, const Budget& budget, int) {
  const std::size_t count = s.problem.collective.messages.size();
  const bool alone = !s.claims.best() && count >= s.params.relay_shop_messages;
  const double share = alone ? s.params.relay_shop_alone_share : s.params.relay_shop_time_share;
  auto relayed = relay_scatter(s.problem, s.paths, s.request.options.seed,
                               budget.sub(share * budget.remaining()));
  if (relayed && (count >= s.params.relay_shop_messages || relayed->steps <= s.claims.floor()))
    return found(std::move(relayed));
  return {};
}

// --- Greedy --------------------------------------------------------------------------

// The upper bound every search starts from; not needed when a design meets the floor, nor
// (past relay_shop_messages, where greedy needs minutes and gigabytes) when one is within
// near_floor of it.
bool greedy_applies(const Search& s) {
  if (!messages(s)) return false;
  const Schedule* best = s.claims.best();
  if (!best) return true;
  const int floor = s.claims.floor();
  const bool near = best->steps <= floor + static_cast<int>(s.params.near_floor * floor);
  return !(best->steps <= floor ||
           (near && s.problem.collective.messages.size() >= s.params.relay_shop_messages));
}
Attempt greedy_row(Search& s, const Budget& budget, int) {
  const Budget cap = s.claims.best() ? budget.sub(s.params.greedy_time_share * budget.remaining())
                                     : budget;
  std::string why;
  Attempt a = found(try_greedy_schedule(s.problem, s.paths, s.request.options.seed, cap, &why));
  if (a.schedules.empty() && !s.claims.best()) a.note = why;
  if (s.engine == "greedy") a.note = "greedy upper bound, not proven optimal";
  return a;
}

// --- Evolutionary engines --------------------------------------------------------------

bool evolution_applies(const Search& s) { return evolutionary(s.engine) && open(s); }
// Upward from the floor, one step more each time a run gives up (seed 000 §4.3: "if it
// does not do so in a reasonable time, the prescribed number of steps must be increased").
// A run that ends because the budget ran out stops the search; the decision comes from the
// engine's result, never from this process's clock alone, so every island of an MPI run
// takes the same path.
Attempt evolution_row(Search& s, const Budget& budget, int) {
  Attempt a;
  Engine& engine = s.engine_for_search();
  for (int target = s.claims.floor(); target < s.claims.best_steps(); ++target) {
    EngineResult r = engine.solve(s.problem, s.paths, target, budget);
    a.seconds += r.seconds;
    if (r.status == SolveStatus::feasible) {
      a.schedules.push_back({std::move(*r.schedule), ""});
      a.note = "not proven optimal (" + s.engine + " gave up on " + plural(target - 1, "step") +
               ")";
      return a;
    }
    if (r.budget_exhausted) {
      a.note = "time limit reached while trying " + plural(target, "step") +
               "; greedy upper bound, not proven optimal";
      return a;
    }
  }
  a.note = "greedy upper bound; " + s.engine + " found nothing shorter";
  return a;
}

// --- Symmetric and fixed-tree encodings -------------------------------------------------

// On symmetric networks the optimum is usually symmetric, and the encoding is the
// symmetry group's order times smaller. Past symmetric_messages the symmetry search alone
// (images of every message under every automorphism) costs more than any limit.
bool symmetric_applies(const Search& s) {
  return messages(s) && s.engine == "sat" && open(s) &&
         s.problem.collective.messages.size() <= s.params.symmetric_messages;
}
// The memory each symmetric encoding may take: --max-memory, at most the driver's cap.
double symmetric_bytes(const Search& s) {
  const double cap = s.params.symmetric_encoding_bytes;
  const double user = s.request.options.max_memory;
  return user > 0 ? std::min(user, cap) : cap;
}
// Broadcasts aim at the floor and then one step more at a time; scatters only at the
// floor, since the window search closes the steps above it quickly.
Attempt symmetric_row(Search& s, const Budget& budget, int) {
  if (!s.symmetries) s.symmetries = problem_symmetries(s.problem, budget);
  Attempt a;
  const int last = broadcast(s) ? s.claims.best_steps() - 1 : s.claims.floor();
  for (int steps = s.claims.floor();
       !s.symmetries->empty() && steps <= last && steps < s.claims.best_steps() &&
       !budget.expired();
       ++steps) {
    EngineResult r =
        symmetric_schedule(s.problem, s.paths, *s.symmetries, steps, budget,
                           s.request.options.seed, symmetric_bytes(s), progress(s));
    a.seconds += r.seconds;
    if (r.status == SolveStatus::feasible) {
      a.schedules.push_back({std::move(*r.schedule), ""});
      break;
    }
  }
  return a;
}

// Not past tree_search_processors: a tree of 16,383 edges on torus:128x128 listed their
// paths and built a 2.5 GB encoding that answered nothing within the limit.
bool trees_fit(const Search& s) {
  return s.problem.topology.processor_count() <= s.params.tree_search_processors;
}
bool neighbour_trees_apply(const Search& s) {
  return messages(s) && s.engine == "sat" && broadcast(s) && !s.problem.model.combining &&
         trees_fit(s) && s.claims.best() && s.claims.best_steps() > s.claims.lower_bound();
}
// Neighbour trees aimed straight at the lower bound, then one step more at a time. The
// fixed-tree encoding only chooses steps for given trees: far smaller than the spreading
// encoding, and it proves nothing.
Attempt neighbour_trees_row(Search& s, const Budget& budget, int) {
  if (!s.near_trees) s.near_trees = neighbour_trees(s.problem, s.paths);
  Attempt a;
  if (!*s.near_trees) return a;
  for (int steps = s.claims.lower_bound(); steps < s.claims.best_steps() && !budget.expired();
       ++steps) {
    EngineResult r = schedule_trees(s.problem, s.paths, **s.near_trees, steps, budget,
                                    s.request.options.seed, s.request.options.max_memory);
    a.seconds += r.seconds;
    if (r.status == SolveStatus::feasible && r.schedule->steps < s.claims.best_steps()) {
      a.schedules.push_back({std::move(*r.schedule), ""});
      break;
    }
  }
  return a;
}

// --- The descent ------------------------------------------------------------------------

// At each target, first the trees of the best schedule so far (broadcasts).
bool best_trees_apply(const Search& s) {
  return messages(s) && s.engine == "sat" && broadcast(s) && !s.problem.model.combining &&
         trees_fit(s);
}
Attempt best_trees_row(Search& s, const Budget& budget, int target) {
  EngineResult r = schedule_trees(s.problem, s.paths, trees_of(s.problem, *s.claims.best()),
                                  target, budget, s.request.options.seed,
                                  s.request.options.max_memory);
  Attempt a;
  a.seconds = r.seconds;
  if (r.status == SolveStatus::feasible && r.schedule->steps < s.claims.best_steps()) {
    a.schedules.push_back({std::move(*r.schedule), ""});
    a.decided = true;
  }
  return a;
}

// Then the SAT engine's first look: a broadcast's whole attempt (its radius stages usually
// answer at once), a scatter's small probe, which decides small problems at once (the
// window search can never prove a step count infeasible).
bool probe_applies(const Search& s) { return s.engine == "sat" && lns_applies(s.problem); }
Attempt probe_row(Search& s, const Budget& budget, int target) {
  const Budget work =
      budget.with_work(broadcast(s) ? s.params.sat_conflicts : s.params.probe_conflicts);
  EngineResult r = s.engine_for_search().solve(s.problem, s.paths, target, work);
  const bool decided = r.status == SolveStatus::feasible ||
                       (r.status == SolveStatus::infeasible &&
                        (r.complete || !r.proof_within.empty() || broadcast(s)));
  s.probe_decided = decided;
  if (decided) return read_result(std::move(r), target);
  Attempt a;
  a.seconds = r.seconds;
  if (broadcast(s)) s.probe = std::move(r);  // the answer, should the window search fail
  return a;
}

// Then the window search (engines/lns.hpp) from the best schedule.
// Not past window_processors: its setup finds every processor's nearest neighbour over
// all pairs (torus:256x256 OAB: two minutes past a 45 s limit).
bool window_applies(const Search& s) {
  return s.engine == "sat" && lns_applies(s.problem) &&
         s.problem.topology.processor_count() <= s.params.window_processors;
}
Attempt window_row(Search& s, const Budget& budget, int target) {
  const auto start = Budget::Clock::now();
  const Budget cap =
      broadcast(s) ? budget : budget.sub(s.params.window_time_share * budget.remaining());
  auto squeezed = lns_squeeze(s.problem, s.paths, *s.claims.best(), target, cap,
                              s.request.options.seed, progress(s));
  Attempt a = found(std::move(squeezed));
  a.decided = !a.schedules.empty();
  a.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
  return a;
}

// Last the engine with the rest of its allowance; only it can prove.
bool sat_applies(const Search& s) {
  return messages(s) && s.engine == "sat";
}
Attempt sat_row(Search& s, const Budget& budget, int target) {
  if (s.probe) {  // a broadcast's probe was its whole attempt
    EngineResult r = std::move(*s.probe);
    s.probe.reset();
    Attempt a = read_result(std::move(r), target);
    a.seconds = 0;
    return a;
  }
  return read_result(s.engine_for_search().solve(s.problem, s.paths, target, budget), target);
}

// --- Relays -------------------------------------------------------------------------------

bool relays_apply(const Search& s) {
  return s.direct && !s.claims.optimal() && s.request.relay_time_limit > 0 && s.engine == "sat" &&
         s.claims.best() != nullptr;
}
// Refused encodings and undecided step counts leave the claim restricted, never false.
// From one step below the best down to the bound, or at `only` steps alone (--steps).
Attempt relays_row(Search& s, const Budget& budget, int only) {
  EngineOptions options = s.request.options;
  options.max_memory = options.max_memory > 0
                           ? std::min(options.max_memory, s.params.relay_encoding_bytes)
                           : s.params.relay_encoding_bytes;
  SatEngine relays(options, ScatterEncoding::relays);
  const Budget cap = budget.sub(s.request.relay_time_limit);
  Attempt a;
  int best = only > 0 ? only + 1 : s.claims.best_steps();
  for (int target = best - 1; target >= s.claims.lower_bound(); target = best - 1) {
    EngineResult r = relays.solve(s.problem, s.paths, target, cap);
    a.seconds += r.seconds;
    if (r.status == SolveStatus::feasible) {
      best = r.schedule->steps;
      a.schedules.push_back({std::move(*r.schedule), ""});
      a.note = "a schedule with relays, shorter than direct delivery allows";
      if (only > 0) return a;
    } else if (r.status == SolveStatus::infeasible && r.complete) {
      a.infeasible = target;
      a.proof = plural(target, "step") + " proven infeasible (relays included)";
      return a;
    } else {
      a.tail = "; relays not decided at " + plural(target, "step") + " (" +
                (r.note.empty() ? std::string("no answer") : r.note) + ")";
      return a;
    }
  }
  return a;
}

}  // namespace ccsched::driver
