// The "solve and verify" helpers of the tests (solve_check.hpp).
#include "solve_check.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched::testing_support {

Problem make_problem(const std::string& spec, CollectiveKind kind, std::optional<int> ports,
                     const std::vector<std::string>& faults) {
  Problem p{apply_faults(make_topology(spec), faults), {}, {}};
  CollectiveRequest request;
  request.kind = kind;
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  if (ports) p.model.ports = *ports;
  return p;
}

std::string violations_text(const Schedule& s) {
  std::string text;
  for (const auto& v : verify_schedule(s))
    text += "rule " + rule_label(v.rule) + ": " + v.text + "\n";
  return text;
}

std::string fingerprint(Schedule s) {
  if (s.solver) s.solver->seconds = 0;
  return write_schedule_json(s);
}

void expect_honest(const SolveOutcome& out, const std::string& what) {
  ASSERT_TRUE(out.schedule.has_value()) << what << ": " << out.reason;
  EXPECT_EQ(violations_text(*out.schedule), "") << what;
  EXPECT_LE(out.lower_bound, out.schedule->steps) << what;
  if (out.optimal) {
    EXPECT_EQ(out.lower_bound, out.schedule->steps) << what << ": " << out.reason;
  }
  EXPECT_EQ(out.schedule->optimal, out.optimal) << what;
  EXPECT_TRUE(verify_claims(*out.schedule).empty()) << what;
}

SolveOutcome solve_checked(const Problem& p, const SolveRequest& request, const std::string& what) {
  SolveOutcome out = solve_problem(p, request);
  expect_honest(out, what.empty() ? p.topology.name() : what);
  return out;
}

Schedule solve_verified(const std::string& spec, CollectiveKind kind, double seconds) {
  SolveRequest request;
  request.time_limit = seconds;
  const std::string what = spec + " " + std::string(to_string(kind));
  SolveOutcome out = solve_checked(make_problem(spec, kind), request, what);
  if (!out.schedule) throw std::runtime_error(what + ": no schedule: " + out.reason);
  return std::move(*out.schedule);
}

}  // namespace ccsched::testing_support
