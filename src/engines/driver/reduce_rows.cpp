// The rows for reductions (rows.hpp): the closed-form designs (engines/reduction.hpp), the
// exact one-block search (engines/reduction_sat.hpp), the search at the volume bound for
// several blocks (engines/volume_sat.hpp), the dual broadcast and the ALLREDUCE
// composition (reduce_dual.hpp), and the SCAN's dual bound on large networks. Why each
// applies where it does: docs/ENGINES.md, "Reductions".
#include <algorithm>

#include "reduce_dual.hpp"
#include "ccsched/engines/pipelined.hpp"
#include "ccsched/engines/prune.hpp"
#include "ccsched/engines/reduction.hpp"
#include "ccsched/engines/reduction_sat.hpp"
#include "ccsched/engines/volume_sat.hpp"
#include "ccsched/core/text.hpp"
#include "rows.hpp"

namespace ccsched::driver {
namespace {

bool reduction(const Search& s) { return is_reduction(s.problem.collective); }

// The exact search decides one block of ALLREDUCE and SCAN on small networks, where
// neither duality nor composition is exact.
bool exact_applies(const Search& s) {
  const Collective& c = s.problem.collective;
  return reduction(s) && !s.exact_ran && c.blocks == 1 &&
         (c.kind == CollectiveKind::ALLREDUCE || c.kind == CollectiveKind::SCAN) &&
         s.engine == "sat" && reduction_sat_refusal(s.problem, s.paths, 1, s.request.options).empty();
}

LowerBound dual_bound(int value, const std::string& from) {
  return {"reduce-dual", value,
          "the sums gathered into their owners are a broadcast on the reversed network run "
          "backwards: its lower bound (" + from + ")",
          "ccsched (docs/ENGINES.md, Reductions: duality)"};
}

// owners[b]: where block b is gathered (REDUCE: the root; REDUCESCATTER: receiver b;
// ALLREDUCE: a central processor for one block, receivers round robin otherwise; SCAN:
// the last sender, for its bound only).
std::vector<NodeId> owners_of(const Search& s) {
  const Collective& c = s.problem.collective;
  std::vector<NodeId> owners;
  if (c.kind == CollectiveKind::REDUCE) {
    owners.assign(c.blocks, c.receivers.front());
  } else if (c.kind == CollectiveKind::REDUCESCATTER) {
    owners = c.receivers;
  } else if (c.kind == CollectiveKind::ALLREDUCE) {
    for (int b = 0; b < c.blocks; ++b)
      owners.push_back(c.blocks == 1 ? central_processor(s.problem, s.paths, c.receivers)
                                     : c.receivers[b % c.receivers.size()]);
  } else {
    owners.assign(c.blocks, c.senders.back());
  }
  return owners;
}

// Every reduction schedule a row offers is made minimal first (engines/prune.hpp): no
// transfer can be deleted from it without breaking it. Deleting can only empty steps, so
// the pass never lengthens a schedule, and a proof of its step count still holds. The pass
// is bounded by its work allowance, not by the row's clock: a row that used its time must
// still return a minimal schedule.
// A sealed schedule is unsealed first: once pruned, it is verified again when it is kept.
Attempt minimal(Attempt a) {
  for (Candidate& c : a.schedules) {
    if (c.sealed) c.schedule = std::move(c.sealed).release();
    prune_reduction(c.schedule);
  }
  return a;
}

}  // namespace

bool reduce_designs_apply(const Search& s) { return reduction(s); }
Attempt reduce_designs_row(Search& s, const Budget& budget, int) {
  Attempt a;
  for (auto& d : reduction_designs(s.problem, s.paths, budget))
    a.schedules.push_back({std::move(d.schedule), d.design});
  // Several blocks: the pipelined designs, among them the one-block designs pipelined as
  // they stand (docs/ENGINES.md, "Several blocks").
  if (s.problem.collective.blocks > 1 && !s.problem.model.combining) {
    std::vector<ReductionCandidate> one;
    if (s.problem.collective.kind != CollectiveKind::REDUCESCATTER)
      one = reduction_designs(with_one_block(s.problem), s.paths, budget);
    for (auto& d : pipelined_designs(s.problem, s.paths, one, budget))
      a.schedules.push_back({std::move(d.schedule), d.design});
  }
  return minimal(std::move(a));
}

// An ALLREDUCE of several blocks at its lower bound T, in the shape every schedule at the
// volume bound has (engines/volume_sat.hpp). Where T leaves no spare reception, "no" proves
// T infeasible under the model (docs/BOUNDS.md, "reduce-volume, met exactly"), and the
// same search then looks for T + 1 (a schedule there is optimal).
bool volume_sat_applies(const Search& s) {
  return reduction(s) && !s.claims.optimal() && s.problem.collective.blocks > 1 &&
         s.claims.best_steps() > s.claims.lower_bound() &&
         volume_sat_refusal(s.problem, s.claims.lower_bound(), s.request.options.max_memory)
             .empty();
}
Attempt volume_sat_row(Search& s, const Budget& budget, int) {
  Attempt a;
  const int bound = s.claims.lower_bound();
  for (int T = bound; T <= bound + 1 && T < s.claims.best_steps() && !budget.expired(); ++T) {
    EngineResult r = volume_sat(s.problem, T, budget);
    a.seconds += r.seconds;
    if (r.status == SolveStatus::feasible) {
      a.schedules.push_back({std::move(*r.schedule), "volume-sat"});
      break;
    }
    if (r.status != SolveStatus::infeasible || !r.complete) break;
    a.infeasible = T;
    a.proof = plural(T, "step") + " proven infeasible at the volume bound (every schedule " +
              "there is a tree into one processor per block and one completing transfer " +
              "per other processor; none fits)";
    a.bounds.push_back({"reduce-volume-exact", T + 1,
                        "no schedule of the shape every schedule at the volume bound has fits "
                        "in " + plural(T, "step"),
                        "ccsched (docs/BOUNDS.md, reduce-volume, met exactly)"});
  }
  return minimal(std::move(a));
}

// Before the dual when a design gave a starting point (the dual is then skipped if the
// search proves the optimum); after it, from the bound upwards, when no design applies.
bool exact_reduction_first_applies(const Search& s) {
  return exact_applies(s) && s.claims.best() && !s.claims.optimal();
}
bool exact_reduction_last_applies(const Search& s) {
  return exact_applies(s) && !s.claims.optimal();
}
// Walks up from the lower bound ("the right lower bound first", docs/ENGINES.md
// "Reductions: exact search"): each infeasible T raises the bound to T + 1 (under the
// model, or inside the encoding's restriction), and the first T with a schedule is the
// optimum. Most of these problems meet their bound, where one satisfiable question
// answers everything, and an infeasible question below the optimum is usually quick; a
// walk down from the designs' schedule asked the larger, harder questions first. It stops
// below the best schedule so far (which is then proven when every T below it is
// infeasible), or 2p steps above the bound when there is none.
namespace {
Attempt exact_reduction(Search& s, const Budget& budget) {
  s.exact_ran = true;
  ReductionSatEngine engine(s.request.options);
  Attempt a;
  const int floor = std::max(1, s.claims.lower_bound());
  int last = s.claims.best() ? s.claims.best_steps() - 1
                             : floor + 2 * s.problem.topology.processor_count();
  if (s.request.steps) last = std::min(last, *s.request.steps);
  for (int T = floor; T <= last && !budget.expired(); ++T) {
    EngineResult r = engine.solve(s.problem, s.paths, T, budget);
    a.seconds += r.seconds;
    if (r.status == SolveStatus::feasible) {
      a.schedules.push_back({std::move(*r.schedule), "reduction-sat"});
      break;
    }
    // Undecided (work or clock), or a truncated path set, which proves nothing.
    if (r.status != SolveStatus::infeasible || (!r.complete && r.proof_within.empty())) break;
    a.infeasible = T;
    a.within = r.complete ? "" : r.proof_within;
    a.proof = r.complete ? "the exact reduction search proved " + plural(T, "step") + " infeasible"
                         : plural(T, "step") + " proven infeasible with " + r.proof_within +
                               " (the exact reduction search)";
  }
  if (a.infeasible && a.within.empty())
    a.bounds.push_back({"reduction-sat", *a.infeasible + 1,
                        "the exact search over accumulator states proved " +
                            plural(*a.infeasible, "step") + " infeasible",
                        "ccsched (docs/ENGINES.md, Reductions: exact search)"});
  return a;
}

}  // namespace
Attempt exact_reduction_row(Search& s, const Budget& budget, int) {
  return minimal(exact_reduction(s, budget));
}

// A SCAN uses the dual gather into its last sender for the bound only. Past
// scan_dual_processors the broadcast search cannot prove anything above the broadcast's
// own bounds (its exact engines refuse such sizes), so those bounds are taken without it.
bool scan_dual_bound_applies(const Search& s) {
  return reduction(s) && s.problem.collective.kind == CollectiveKind::SCAN &&
         !s.claims.optimal() &&
         s.problem.topology.processor_count() > s.params.scan_dual_processors;
}
Attempt scan_dual_bound_row(Search& s, const Budget&, int) {
  if (s.owners.empty()) s.owners = owners_of(s);
  Attempt a;
  std::vector<int> message_block;
  const Problem rev = dual_problem(s.problem, s.owners, message_block);
  if (rev.collective.messages.empty()) return a;
  PathLimits limits = s.request.path_limits;
  limits.stop = s.request.interrupt;
  const PathSet rev_paths(rev.topology, rev.model, limits);
  const BoundReport b = lower_bounds(rev, rev_paths);
  const auto top = std::max_element(
      b.bounds.begin(), b.bounds.end(),
      [](const LowerBound& x, const LowerBound& y) { return x.value < y.value; });
  if (b.best > s.claims.lower_bound())
    a.bounds.push_back(dual_bound(b.best, top == b.bounds.end() ? "?" : top->name));
  return a;
}

// The dual broadcast (REDUCE, REDUCESCATTER: exact, its claims carry over), the ALLREDUCE
// composition (gather, then a broadcast of the sums) and the SCAN's dual bound. Skipped
// where it cannot win: an ALLREDUCE under one port, or from 4,096 processors under any
// ports, whose design is already within twice the reduce-information bound (each phase
// of the composition needs that bound: the root's accumulator, and the informed set of the
// broadcast, grow at most (k + 1)-fold a step), an
// ALLREDUCE of several blocks past composition_processors (its broadcasts are CUSTOM sets
// no design covers), and a large SCAN (above).
bool reduce_dual_applies(const Search& s) {
  if (!reduction(s) || s.claims.optimal()) return false;
  const Collective& c = s.problem.collective;
  const bool designs = s.claims.best() != nullptr;
  if (c.kind == CollectiveKind::ALLREDUCE && c.blocks == 1 && designs &&
      (s.problem.model.ports == 1 || s.problem.topology.processor_count() >= 4096))
    for (const LowerBound& b : s.claims.bounds().bounds)
      if (b.name == "reduce-information" && s.claims.best_steps() <= 2 * b.value) return false;
  if (c.kind == CollectiveKind::ALLREDUCE && c.blocks != 1 && designs &&
      s.problem.topology.processor_count() > s.params.composition_processors)
    return false;
  return !(c.kind == CollectiveKind::SCAN &&
           s.problem.topology.processor_count() > s.params.scan_dual_processors);
}
namespace {
Attempt reduce_dual(Search& s, const Budget& budget) {
  // The owners only here and in the SCAN's bound: the central processor of a one-block
  // ALLREDUCE compares every pair of processors (4.3 billion distances on hypercube:16).
  if (s.owners.empty()) s.owners = owners_of(s);
  const Collective& c = s.problem.collective;
  const bool exact_dual =
      c.kind == CollectiveKind::REDUCE || c.kind == CollectiveKind::REDUCESCATTER;
  // The broadcast sub-searches share what is left; `--steps` is for the reduction, not
  // for them. Half of it stays for the exact search when it is still to run.
  SolveRequest sub = s.request;
  sub.steps.reset();
  const double share = exact_applies(s) ? 0.5 : 1.0;
  auto seconds = [&](double part) {
    const double left = budget.remaining();
    return left > 1e17 ? 1e18 : std::max(1e-3, part * share * left);
  };
  sub.time_limit = seconds(exact_dual ? 1.0 : 0.5);
  Attempt a;
  auto g = gather_dual(s.problem, s.owners, sub);
  if (!g) return a;
  a.clock_cut = g->outcome.clock_cut;
  // Every valid schedule of this problem is also a valid gather of block b into owners[b]
  // (its R3 names those accumulators too, R1/R2 are the same rules), and the gather is the
  // reversed broadcast: the broadcast's bound holds.
  if (g->outcome.lower_bound > s.claims.lower_bound())
    a.bounds.push_back(dual_bound(g->outcome.lower_bound, g->outcome.reason));
  if (exact_dual) {
    Candidate d{assemble_schedule(s.problem, std::move(g->transfers), "", 0),
                "reduce-dual(" + g->engine + ")"};
    // The dual broadcast is optimal under the same model on the reversed network, and the
    // reversal maps schedules both ways with the same step count: the reduction is too.
    d.optimal = g->outcome.optimal;
    d.optimal_within = g->outcome.optimal_within;
    d.proof = d.optimal ? "the reversed broadcast is optimal (" + g->outcome.reason + ")"
                        : "the reversed broadcast: " + g->outcome.reason;
    a.schedules.push_back(std::move(d));
  } else if (c.kind == CollectiveKind::ALLREDUCE && !budget.expired()) {
    sub.time_limit = seconds(1.0);
    if (auto sp = spread(s.problem, s.owners, sub, g->steps)) {
      auto transfers = std::move(g->transfers);
      for (auto& t : sp->transfers) transfers.push_back(std::move(t));
      a.schedules.push_back({assemble_schedule(s.problem, std::move(transfers), "", 0),
                             "reduce-dual(" + g->engine + ")+broadcast(" + sp->engine + ")"});
    }
  }
  return a;
}

}  // namespace
Attempt reduce_dual_row(Search& s, const Budget& budget, int) {
  return minimal(reduce_dual(s, budget));
}

}  // namespace ccsched::driver
