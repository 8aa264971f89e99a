// Claims (claims.hpp): the rules that turn schedules and proofs into the outcome's claims.
// A claim is only as strong as its proof: `optimal` needs a schedule at a bound valid under
// the model (or a proof under the model that one step fewer is impossible, which raises
// the bound), and a proof inside a restriction gives `optimal_within` and nothing more.
#include "claims.hpp"

#include <algorithm>
#include <stdexcept>

#include "ccsched/schedule/verified.hpp"

namespace ccsched::driver {
namespace {

// One transfer per message, from its origin to its target: inside the direct-delivery
// restriction that the floor bounds.
bool delivers_directly(const Schedule& s) {
  if (s.transfers.size() != s.collective.messages.size()) return false;
  return std::all_of(s.transfers.begin(), s.transfers.end(), [&](const Transfer& t) {
    if (t.messages.size() != 1) return false;
    const Message& m = s.collective.messages[t.messages[0]];
    return m.targets.size() == 1 && t.path.front() == m.origin && t.path.back() == m.targets[0];
  });
}

}  // namespace

Claims::Claims(BoundReport bounds, std::optional<BoundReport> direct_bounds)
    : bounds_(std::move(bounds)), direct_bounds_(std::move(direct_bounds)) {
  lower_bound_ = bounds_.best;
  floor_ = std::max(lower_bound_, direct_bounds_ ? direct_bounds_->best : 0);
}

bool Claims::optimal() const {
  return best_ && (best_->sealed->steps <= lower_bound_ || best_->optimal);
}

void Claims::offer(Candidate c) {
  ++candidates_;
  // Only a schedule that is kept is verified (every schedule the driver returns is): a
  // million transfers take a second, and a loser's check would only delay the answer.
  if (best_ && c.read().steps >= best_->sealed->steps) return;
  if (!c.sealed) {
    const std::string who =
        c.name.empty() && c.schedule.solver ? c.schedule.solver->engine : c.name;
    std::vector<Violation> violations;
    c.sealed = verified(std::move(c.schedule), &violations);
    if (!c.sealed)
      throw std::logic_error("strategy " + who + " produced an invalid schedule: rule " +
                             std::to_string(violations.front().rule) + ": " +
                             violations.front().text);
  }
  if (!c.name.empty() && c.sealed.solver()) c.sealed.solver()->engine = c.name;
  best_ = std::move(c);
}

void Claims::prove_infeasible(int steps, const std::string& within, std::string wording) {
  if (within.empty()) {
    if (steps + 1 >= lower_bound_) {
      lower_bound_ = steps + 1;
      bound_proof_ = std::move(wording);
    }
    floor_ = std::max(floor_, lower_bound_);
  } else if (steps + 1 > floor_) {
    floor_ = steps + 1;
    floor_within_ = within;
    floor_proof_ = std::move(wording);
  }
}

void Claims::raise_bound(const LowerBound& b) {
  bounds_.bounds.push_back(b);
  bounds_.best = std::max(bounds_.best, b.value);
  if (b.value > lower_bound_) {
    lower_bound_ = b.value;
    bound_proof_.clear();
  }
  floor_ = std::max(floor_, lower_bound_);
}

SolveOutcome Claims::finish(bool reduction) {
  SolveOutcome out;
  out.bounds = std::move(bounds_);
  if (direct_bounds_) out.direct_bounds = std::move(*direct_bounds_);
  out.lower_bound = lower_bound_;
  out.clock_cut = clock_cut_;
  out.engine_seconds = engine_seconds_;
  if (direct() && floor_ > lower_bound_) out.direct_delivery_bound = floor_;
  if (!best_) {
    out.status = SolveStatus::unknown;
    out.reason = note_.empty() ? "no strategy found a schedule" : note_;
    return out;
  }
  const Schedule& s = *best_->sealed;
  const int steps = s.steps;
  std::string within;
  if (steps <= lower_bound_) {
    out.optimal = true;
    out.reason = bound_proof_.empty() ? "meets the lower bound" : bound_proof_;
  } else if (best_->optimal) {
    // An equivalence (the reversed broadcast) proved it: its steps are a bound.
    out.optimal = true;
    out.lower_bound = steps;
    out.reason = best_->proof;
  } else if (steps <= floor_ && !floor_within_.empty() && steps == floor_) {
    within = floor_within_;
    out.reason = floor_proof_;
  } else if (direct() && steps <= floor_ && delivers_directly(s)) {
    within = "direct delivery";
    out.reason = "meets the direct-delivery bound";
  } else if (direct() && steps <= floor_) {
    out.reason = "relayed, at or below the direct-delivery bound " + std::to_string(floor_);
  } else if (!best_->optimal_within.empty()) {
    within = best_->optimal_within;
    out.reason = best_->proof;
  } else if (reduction) {
    const std::string name = s.solver ? s.solver->engine : std::string("?");
    out.reason = "not proven optimal (" + name +
                 (candidates_ == 1 ? ", the only design that applies)"
                                   : ", the best of " + std::to_string(candidates_) + " designs)");
  } else {
    out.reason = note_.empty() ? "not proven optimal" : note_;
  }
  if (!out.optimal) out.reason += tail_;
  if (!out.optimal && !within.empty()) {
    out.optimal_within = within;
    out.reason = "optimal within " + within + ": " + out.reason;
  }
  out.status = SolveStatus::feasible;
  best_->sealed.set_claims(out.lower_bound, out.optimal, out.direct_delivery_bound,
                           out.optimal_within.empty() ? s.optimal_within
                                                      : std::optional(out.optimal_within));
  out.schedule = std::move(best_->sealed);
  best_.reset();
  return out;
}

}  // namespace ccsched::driver
