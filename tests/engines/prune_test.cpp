// Minimal reduction schedules (engines/prune.hpp): the pass keeps schedules valid, never
// lengthens them, is deterministic, and the schedules the driver returns for reductions on
// small networks are minimal: deleting any one transfer breaks them (checked with the
// verifier, which shares no code with the pass).
#include "ccsched/engines/prune.hpp"

#include <gtest/gtest.h>

#include "../support/reduction_problems.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/reduction.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {
namespace {

using testing::make_reduction_problem;

// Indices of the transfers whose deletion leaves `s` valid (steps left as they are).
std::vector<std::size_t> deletable(const Schedule& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.transfers.size(); ++i) {
    Schedule t = s;
    t.transfers.erase(t.transfers.begin() + static_cast<std::ptrdiff_t>(i));
    int last = 0;
    for (const Transfer& x : t.transfers) last = std::max(last, x.step);
    t.steps = last;
    if (verify_schedule(t).empty()) out.push_back(i);
  }
  return out;
}

TEST(Prune, DesignsBecomeMinimalAndStayValid) {
  int designs = 0;
  for (const std::string net : {"ring:8", "torus:4x4", "hypercube:3", "kautz:2,2", "mesh:2x4"})
    for (auto kind : {CollectiveKind::ALLREDUCE, CollectiveKind::SCAN, CollectiveKind::REDUCE})
      for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
        Problem p = make_reduction_problem(net, kind, ports);
        const PathSet paths(p.topology, p.model);
        for (auto& d : reduction_designs(p, paths)) {
          Schedule s = d.schedule;
          const PruneResult r = prune_reduction(s);
          EXPECT_TRUE(r.complete);
          ++designs;
          EXPECT_LE(s.steps, d.schedule.steps);
          EXPECT_EQ(s.transfers.size() + r.removed, d.schedule.transfers.size());
          const auto v = verify_schedule(s);
          if (!v.empty()) ADD_FAILURE() << net << " " << d.design << ": " << v.front().text;
          EXPECT_TRUE(deletable(s).empty()) << net << " " << d.design;
          Schedule again = d.schedule;
          prune_reduction(again);
          EXPECT_EQ(again.transfers.size(), s.transfers.size()) << "not deterministic";
        }
      }
  EXPECT_GE(designs, 30);  // the designs do apply (not a vacuous loop)
}

TEST(Prune, DriverReturnsMinimalReductionSchedules) {
  struct Case {
    std::string net;
    CollectiveKind kind;
    std::optional<int> ports;
  };
  const std::vector<Case> cases = {
      {"ring:8", CollectiveKind::ALLREDUCE, {}},  {"ring:6", CollectiveKind::ALLREDUCE, {}},
      {"petersen", CollectiveKind::ALLREDUCE, {}}, {"ring:8", CollectiveKind::SCAN, 1},
      {"torus:4x4", CollectiveKind::ALLREDUCE, 1}, {"kautz:2,2", CollectiveKind::REDUCE, {}},
  };
  for (const Case& c : cases) {
    SolveRequest request;
    request.time_limit = 2;
    const SolveOutcome out =
        solve_problem(make_reduction_problem(c.net, c.kind, c.ports), request);
    ASSERT_TRUE(out.schedule) << c.net;
    EXPECT_TRUE(verify_schedule(*out.schedule).empty()) << c.net;
    EXPECT_TRUE(deletable(*out.schedule).empty()) << c.net << " " << to_string(c.kind);
  }
}

TEST(Prune, DeletesARedundantCopyAndEmptiedSteps) {
  // ring:4 ALLREDUCE by recursive doubling, plus a third step that copies a total into a
  // processor that already holds it: the copy goes, and its step with it.
  Problem p = make_reduction_problem("ring:4", CollectiveKind::ALLREDUCE, {});
  const PathSet paths(p.topology, p.model);
  auto designs = reduction_designs(p, paths);
  ASSERT_FALSE(designs.empty());
  Schedule s = designs.front().schedule;
  const int steps = s.steps;
  Transfer extra;
  extra.step = steps + 1;
  extra.path = {0, 1};
  extra.blocks = {0};
  extra.send = ReductionSend::acc;
  extra.recv = ReductionRecv::copy;
  s.transfers.push_back(extra);
  s.steps = steps + 1;
  ASSERT_TRUE(verify_schedule(s).empty());
  const auto before = s.transfers.size();
  const PruneResult r = prune_reduction(s);
  EXPECT_GE(r.removed, 1);
  EXPECT_EQ(s.steps, steps);
  EXPECT_LT(s.transfers.size(), before);
  EXPECT_TRUE(verify_schedule(s).empty());
}

}  // namespace
}  // namespace ccsched
