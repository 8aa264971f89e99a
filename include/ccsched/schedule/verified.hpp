// A schedule sealed by the verifier (docs/ARCHITECTURE.md, "How a solve flows"): the one
// value a solve returns and the CLI writes, so that "every schedule written passes verify"
// is a property of the types rather than of each caller's care, and a schedule is checked
// once on its way out (a million transfers take the verifier a second or more).
//
//   VerifiedSchedule v = verified(std::move(s), &violations);
//   if (v) write_schedule_json(*v, out);   // *v passed verify_schedule
//
// Only verified() makes a non-empty one. What the verifier judged (network, collective,
// model, steps, transfers) is read-only; to change it, take the schedule out with
// release() and verify the result again (the reduction pruning pass does). The claims and
// the solver's record, which validity does not read (verify_claims checks the claims
// apart), stay writable.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/schedule/schedule.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {

// What the verifier saw when it passed the schedule.
struct VerifierReport {
  int steps = 0;
  std::size_t transfers = 0;
  double seconds = 0.0;  // the check's wall-clock time
};

class VerifiedSchedule {
 public:
  VerifiedSchedule() = default;  // holds no schedule

  explicit operator bool() const { return schedule_.has_value(); }
  bool has_value() const { return schedule_.has_value(); }
  // The calls below need a schedule (as std::optional's do).
  const Schedule& operator*() const { return *schedule_; }
  const Schedule* operator->() const { return &*schedule_; }
  const VerifierReport& report() const { return report_; }

  // The fields validity does not read.
  std::optional<SolverInfo>& solver() { return schedule_->solver; }
  void set_claims(std::optional<int> lower_bound, bool optimal,
                  std::optional<int> direct_delivery_bound,
                  std::optional<std::string> optimal_within) {
    schedule_->lower_bound = lower_bound;
    schedule_->optimal = optimal;
    schedule_->direct_delivery_bound = direct_delivery_bound;
    schedule_->optimal_within = std::move(optimal_within);
  }

  // The schedule, no longer sealed (this holds none afterwards).
  Schedule release() && {
    Schedule s = std::move(*schedule_);
    reset();
    return s;
  }
  void reset() { schedule_.reset(); }

 private:
  friend VerifiedSchedule verified(Schedule, std::vector<Violation>*);
  friend VerifiedSchedule verified(Schedule, const std::function<bool()>&);
  VerifiedSchedule(Schedule s, VerifierReport r) : schedule_(std::move(s)), report_(r) {}
  std::optional<Schedule> schedule_;
  VerifierReport report_;
};

// `s` sealed when verify_schedule finds nothing wrong with it; empty otherwise, with the
// violations in `violations` when it is given.
VerifiedSchedule verified(Schedule s, std::vector<Violation>* violations = nullptr);
// The same, stopping early when `stop()` answers true (empty then): for a design that
// checks a candidate of a million transfers while Ctrl-C or the clock may end the run.
VerifiedSchedule verified(Schedule s, const std::function<bool()>& stop);

}  // namespace ccsched
