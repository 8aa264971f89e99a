// The verifier's seal (verified.hpp): the only place a VerifiedSchedule is made.
#include "ccsched/schedule/verified.hpp"

#include <chrono>

namespace ccsched {
namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

VerifiedSchedule verified(Schedule s, std::vector<Violation>* violations) {
  const auto start = std::chrono::steady_clock::now();
  auto found = verify_schedule(s);
  if (!found.empty()) {
    if (violations) *violations = std::move(found);
    return {};
  }
  const VerifierReport report{s.steps, s.transfers.size(), since(start)};
  return VerifiedSchedule(std::move(s), report);
}

VerifiedSchedule verified(Schedule s, const std::function<bool()>& stop) {
  const auto start = std::chrono::steady_clock::now();
  const auto found = verify_schedule(s, stop);
  if (!found || !found->empty()) return {};
  const VerifierReport report{s.steps, s.transfers.size(), since(start)};
  return VerifiedSchedule(std::move(s), report);
}

}  // namespace ccsched
