// Direct gather designs (include/ccsched/engines/gather.hpp): every schedule passes the
// verifier; on rings, 2-D tori and meshes, hypercubes and fat trees it meets the reception
// bound ceil((P - 1) / min(k, in-channels of the root)) under every port count and for
// several roots; other networks get the balanced in-tree (valid, not always at the bound);
// the driver answers an AOG with it, proven optimal.
#include "ccsched/engines/gather.hpp"

#include <gtest/gtest.h>

#include <string>

#include "../support/solve_check.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using testing_support::violations_text;

Problem gather_problem(const std::string& spec, std::optional<int> ports, NodeId root) {
  Problem p{make_topology(spec), {}, {}};
  CollectiveRequest request;
  request.kind = CollectiveKind::AOG;
  request.root = std::to_string(root);
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  if (ports) p.model.ports = *ports;
  return p;
}

// The reception bound, computed here from the root's in-channels (not by the design).
int reception_bound(const Problem& p, NodeId root) {
  const int in = static_cast<int>(p.topology.in_channels(root).size());
  const int k = p.model.ports ? std::min(*p.model.ports, in) : in;
  const int n = static_cast<int>(p.collective.messages.size());
  return (n + k - 1) / k;
}

struct Case {
  std::string spec;
  bool at_bound;  // the design meets the bound for every root tried
};

class Gather : public ::testing::TestWithParam<Case> {};

TEST_P(Gather, ValidAndAtTheBound) {
  const auto& [spec, at_bound] = GetParam();
  const int p = make_topology(spec).processor_count();
  for (const std::optional<int> ports :
       {std::optional<int>{}, std::optional<int>{1}, std::optional<int>{2},
        std::optional<int>{3}}) {
    for (const NodeId root : {NodeId{0}, static_cast<NodeId>(p / 2 + 1), static_cast<NodeId>(p - 1)}) {
      const std::string what = spec + " root " + std::to_string(root) + " ports " +
                               (ports ? std::to_string(*ports) : std::string("all"));
      const Problem problem = gather_problem(spec, ports, root);
      const auto s = gather_schedule(problem);
      ASSERT_TRUE(s.has_value()) << what;
      EXPECT_EQ(violations_text(*s), "") << what;
      const int bound = reception_bound(problem, root);
      EXPECT_GE(s->steps, bound) << what;
      if (at_bound) {
        EXPECT_EQ(s->steps, bound) << what;
        // The bound the tool claims optimality against is the same.
        const PathSet paths(problem.topology, problem.model);
        EXPECT_EQ(lower_bounds(problem, paths).best, s->steps) << what;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Networks, Gather,
    ::testing::Values(Case{"ring:7", true}, Case{"ring:8", true}, Case{"torus:4x4", true},
                      Case{"torus:5x5", true}, Case{"torus:3x6", true}, Case{"torus:6x4", true},
                      Case{"mesh:5x5", false}, Case{"mesh:4x6", false},
                      Case{"hypercube:3", true}, Case{"hypercube:4", true},
                      Case{"hypercube:5", true}, Case{"fattree:16", true},
                      Case{"kautz:2,3", false}, Case{"torus:3x3x3", false},
                      Case{"petersen", false}));

// A mesh root at a corner or in the centre splits its origins evenly; one next to a corner
// cannot (one in-channel sees a single column): still valid, with at least the bound.
TEST(Gather, MeshCornersAndCentreAtTheBound) {
  for (const NodeId root : {0, 4, 12, 20, 24}) {
    for (const std::optional<int> ports : {std::optional<int>{}, std::optional<int>{2}}) {
      const Problem problem = gather_problem("mesh:5x5", ports, root);
      const auto s = gather_schedule(problem);
      ASSERT_TRUE(s.has_value()) << root;
      EXPECT_EQ(violations_text(*s), "") << root;
      EXPECT_EQ(s->steps, reception_bound(problem, root)) << root;
    }
  }
  const Problem problem = gather_problem("mesh:6x6", std::nullopt, 7);
  const auto s = gather_schedule(problem);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(violations_text(*s), "");
  EXPECT_GT(s->steps, reception_bound(problem, 7));  // column 0 alone arrives from the left
}

TEST(Gather, DeclinesOtherCollectives) {
  for (const auto kind : {CollectiveKind::OAS, CollectiveKind::AAS, CollectiveKind::OAB}) {
    const Problem p = testing_support::make_problem("torus:4x4", kind);
    EXPECT_FALSE(gather_schedule(p).has_value()) << to_string(kind);
  }
}

// Faults: the grid and cube designs decline the changed network; the in-tree routes
// around the fault.
TEST(Gather, FaultyNetworksGetTheInTree) {
  for (const std::string spec : {"torus:5x5", "hypercube:4"}) {
    const Problem p = testing_support::make_problem(spec, CollectiveKind::AOG, std::nullopt, {"0-1"});
    const auto s = gather_schedule(p);
    ASSERT_TRUE(s.has_value()) << spec;
    EXPECT_EQ(violations_text(*s), "") << spec;
  }
}

// The driver answers with the design, at the bound and so proven optimal.
TEST(Gather, DriverProvesTorusGatherOptimal) {
  const Problem p = testing_support::make_problem("torus:8x8", CollectiveKind::AOG);
  SolveRequest request;
  request.time_limit = 30;
  const SolveOutcome out = testing_support::solve_checked(p, request, "torus:8x8 AOG");
  ASSERT_TRUE(out.schedule.has_value());
  EXPECT_EQ(out.schedule->steps, 16);  // ceil(63 / 4)
  EXPECT_TRUE(out.optimal) << out.reason;
  ASSERT_TRUE(out.schedule->solver.has_value());
  EXPECT_EQ(out.schedule->solver->engine, "gather");
}

}  // namespace
}  // namespace ccsched
