// Claims: the one place that decides `lower_bound`, `optimal`, `optimal_within` and the
// reason, for messages and reductions alike (docs/RELIABILITY.md, "What optimal and
// lower_bound promise"). The rows only report what they found — schedules, infeasible
// step counts with the restriction they hold in, bounds — and Claims keeps the best
// schedule (fewest steps; ties go to the row earlier in the table) and what is proven.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/verified.hpp"

namespace ccsched::driver {

// A schedule a row offers, with what an equivalence proves about it: the reversed
// broadcast of a REDUCE is optimal, or optimal within a restriction, exactly when the
// broadcast is (docs/ENGINES.md, "Reductions: duality"). A design that verified its
// schedule offers it sealed (`sealed`), and Claims does not check it again; otherwise the
// schedule is `schedule`, checked when it is kept.
struct Candidate {
  Candidate(Schedule s, std::string n = "") : schedule(std::move(s)), name(std::move(n)) {}
  Candidate(VerifiedSchedule s, std::string n = "") : sealed(std::move(s)), name(std::move(n)) {}
  const Schedule& read() const { return sealed ? *sealed : schedule; }
  Schedule schedule;              // not verified yet (empty when `sealed` holds it)
  VerifiedSchedule sealed;
  std::string name;              // solver.engine of the schedule ("" keeps the engine's own)
  bool optimal = false;          // proven optimal under the model by `proof`
  std::string optimal_within;    // or proven optimal inside this restriction
  std::string proof;             // the wording of either
};

class Claims {
 public:
  // `direct`: a wormhole scatter, whose direct-delivery bounds (`direct_bounds`) bound the
  // direct searches only.
  Claims(BoundReport bounds, std::optional<BoundReport> direct_bounds);

  int lower_bound() const { return lower_bound_; }
  // A bound on every schedule the direct searches can find (= lower_bound() otherwise).
  int floor() const { return floor_; }
  bool direct() const { return direct_bounds_.has_value(); }
  const Schedule* best() const { return best_ ? &*best_->sealed : nullptr; }
  int best_steps() const { return best_ ? best_->sealed->steps : 1 << 30; }
  // The best schedule meets the lower bound, or an equivalence proved it optimal.
  bool optimal() const;
  // The best schedule is at or below the floor: the direct searches cannot do better.
  bool at_floor() const { return best_ && best_->sealed->steps <= floor_; }
  int candidates() const { return candidates_; }
  const BoundReport& bounds() const { return bounds_; }

  // Keeps `c` when it is shorter than the best so far, verifying it first unless it comes
  // sealed (a schedule the verifier rejects is an engine bug: std::logic_error). The best
  // is always sealed.
  void offer(Candidate c);
  // `steps` proven infeasible: under the model (`within` empty) or inside `within`.
  void prove_infeasible(int steps, const std::string& within, std::string wording);
  void raise_bound(const LowerBound& b);
  // Why the search stopped short of a proof (shown when nothing is proven).
  void note(std::string why) { note_ = std::move(why); }
  void append_note(const std::string& more) { tail_ += more; }
  const std::string& current_note() const { return note_; }
  void clock_cut() { clock_cut_ = true; }
  void add_seconds(double seconds) { engine_seconds_ += seconds; }

  // The outcome: the best schedule with its claims written into it.
  SolveOutcome finish(bool reduction);

 private:
  BoundReport bounds_;
  std::optional<BoundReport> direct_bounds_;
  int lower_bound_ = 0;
  int floor_ = 0;
  std::string bound_proof_;  // the proof that raised lower_bound_, if any
  std::string floor_within_, floor_proof_;
  std::optional<Candidate> best_;
  int candidates_ = 0;
  std::string note_, tail_;
  bool clock_cut_ = false;
  double engine_seconds_ = 0.0;
};

}  // namespace ccsched::driver
