// Randomised cross-check on tiny networks (STYLE.md rule 10): random connected graphs and
// digraphs of 4-8 processors, random collectives and port counts. For each: the greedy and
// SAT schedules pass the verifier; the SAT engine never goes below a lower bound; greedy
// never beats SAT's proven optimum; when SAT proves T-1 infeasible, greedy needs >= T.
#include <gtest/gtest.h>

#include <random>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/greedy.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/invariants.hpp"

namespace ccsched {
namespace {

// A random strongly connected network: a random Hamiltonian cycle (both directions for an
// undirected network) plus random extra channels.
Topology random_network(std::mt19937_64& rng, bool directed) {
  std::uniform_int_distribution<int> size(4, 8);
  const int n = size(rng);
  Topology t(directed ? "random-digraph" : "random-graph");
  for (int i = 0; i < n; ++i) t.add_node(NodeKind::processor);
  std::vector<NodeId> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  auto connect = [&](NodeId a, NodeId b) {
    if (a == b || t.has_channel(a, b)) return;
    if (directed)
      t.add_channel(a, b);
    else if (!t.has_channel(b, a))
      t.add_link(a, b);
  };
  for (int i = 0; i < n; ++i) connect(order[i], order[(i + 1) % n]);
  std::uniform_int_distribution<int> node(0, n - 1);
  const int extra = std::uniform_int_distribution<int>(0, n)(rng);
  for (int i = 0; i < extra; ++i) connect(node(rng), node(rng));
  return t;
}

std::string first_violation(const Schedule& s) {
  const auto v = verify_schedule(s);
  return v.empty() ? "" : "rule " + std::to_string(v[0].rule) + ": " + v[0].text;
}

TEST(CrossCheck, RandomTinyProblems) {
  std::mt19937_64 rng(20261122);
  const CollectiveKind kinds[] = {CollectiveKind::OAB, CollectiveKind::AAB, CollectiveKind::OAS,
                                  CollectiveKind::AAS, CollectiveKind::AOG};
  int problems = 0, proven = 0;
  for (int round = 0; round < 200; ++round) {
    const bool directed = round % 3 == 0;
    Topology t = random_network(rng, directed);
    CollectiveRequest request;
    request.kind = kinds[round % 5];
    const auto& procs = t.processors();
    request.root = std::to_string(procs[rng() % procs.size()]);
    Problem p{t, make_collective(t, request), default_model(t)};
    if (round % 4 == 1) p.model.ports = 1;
    if (round % 7 == 3) p.model.switching = Switching::store_and_forward;
    SCOPED_TRACE("round " + std::to_string(round) + " " + std::string(to_string(request.kind)) +
                 " n=" + std::to_string(t.node_count()));
    const PathSet paths(p.topology, p.model);
    const BoundReport bounds = lower_bounds(p, paths);
    const Schedule greedy = greedy_schedule(p, paths, round);
    EXPECT_EQ(first_violation(greedy), "");
    EXPECT_GE(greedy.steps, bounds.best);

    SolveRequest solve;
    solve.engine = "sat";
    solve.time_limit = 20;
    solve.options.seed = round;
    const SolveOutcome out = solve_problem(p, solve);
    ASSERT_TRUE(out.schedule.has_value()) << out.reason;
    EXPECT_EQ(first_violation(*out.schedule), "");
    EXPECT_GE(out.schedule->steps, bounds.best) << "SAT below a lower bound";
    EXPECT_LE(out.schedule->steps, greedy.steps);
    if (out.optimal) {
      ++proven;
      EXPECT_GE(greedy.steps, out.schedule->steps) << "greedy beat a proven optimum";
      // An independent question to the engine: one step fewer must be infeasible.
      if (out.schedule->steps > 1) {
        SolveRequest below = solve;
        below.steps = out.schedule->steps - 1;
        EXPECT_NE(solve_problem(p, below).status, SolveStatus::feasible);
      }
    }
    ++problems;
  }
  EXPECT_EQ(problems, 200);
  EXPECT_GT(proven, 180);  // tiny problems: nearly all are proven within the budget
}

}  // namespace
}  // namespace ccsched
