// "Solve and verify" for the tests, in one place: a problem as `ccsched solve` builds it
// from a spec and a kind, the verifier's findings as text for failure messages, a
// schedule's fingerprint for "same seed, same schedule", and the driver's answer checked
// for what every answer must satisfy (the schedule verifies, the bound is at most its
// steps, `optimal` only at the bound, the document's claims equal the outcome's).
// Library ccsched_solve_check; it links the engines, so only suites that test solving use it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ccsched/engines/driver.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched::testing_support {

// `spec` with the `faults` removed (texts as --fault takes them), `kind` over every
// processor, the default model with `ports` (nullopt: the default of the network).
Problem make_problem(const std::string& spec, CollectiveKind kind,
                     std::optional<int> ports = std::nullopt,
                     const std::vector<std::string>& faults = {});

// Every violation, one "rule N: text" line each; "" for a valid schedule.
std::string violations_text(const Schedule& s);

// The schedule as JSON without the run time, for "same seed, same schedule".
std::string fingerprint(Schedule s);

// Checks an outcome of the driver (gtest failures naming `what`): a schedule was found,
// it passes the verifier, lower_bound <= steps, optimal only with steps == lower_bound,
// and the schedule document carries the same claims as the outcome.
void expect_honest(const SolveOutcome& out, const std::string& what);

// The driver on `p`, its outcome checked by expect_honest.
SolveOutcome solve_checked(const Problem& p, const SolveRequest& request = {},
                           const std::string& what = {});

// The schedule the driver designs for `kind` on `spec` under the default model within
// `seconds`, checked as above; a failed check still returns what was found (or throws
// std::runtime_error when nothing was, so that the caller's test stops).
Schedule solve_verified(const std::string& spec, CollectiveKind kind, double seconds = 60.0);

}  // namespace ccsched::testing_support
