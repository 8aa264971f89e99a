// Randomised cross-check on tiny networks (STYLE.md rule 10): random connected graphs and
// digraphs of 4-8 processors, random collectives and port counts. For each: the greedy and
// SAT schedules pass the verifier; the SAT engine never goes below a lower bound; greedy
// never beats SAT's proven optimum; when SAT proves T-1 infeasible, greedy needs >= T.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/greedy.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/invariants.hpp"
#include "ccsched/topology/generators.hpp"

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

// Every engine against every other (issue 7, "Cross-checking harness"): random connected
// graphs and digraphs of 4-10 processors, random collectives, port counts, switching and
// link faults, fixed seeds. For each problem: the driver's SAT answer; then greedy, UMDA
// and HGSA (small generation budgets) asked for the proven optimum T* and for T* - 1.
// Checked: every schedule passes the verifier; none beats a proven optimum; every lower
// bound is at most it; SAT's "T* - 1 infeasible" agrees with every engine failing at
// T* - 1; the same seed gives the same schedule. CCSCHED_CROSSCHECK_ROUNDS sets the count
// (quick CI default 150, 40 under the sanitizers; bench/crosscheck.sh runs the long version).
bool same_transfers(const Schedule& a, const Schedule& b) {
  if (a.transfers.size() != b.transfers.size()) return false;
  for (std::size_t i = 0; i < a.transfers.size(); ++i)
    if (a.transfers[i].step != b.transfers[i].step || a.transfers[i].path != b.transfers[i].path ||
        a.transfers[i].messages != b.transfers[i].messages)
      return false;
  return true;
}

int crosscheck_rounds() {
  if (const char* env = std::getenv("CCSCHED_CROSSCHECK_ROUNDS")) return std::atoi(env);
#if defined(__SANITIZE_ADDRESS__)
  return 40;  // several times slower under the sanitizers; same checks
#else
  return 150;
#endif
}

Topology random_faulty_network(std::mt19937_64& rng, bool directed, bool fault) {
  Topology t = random_network(rng, directed);
  std::uniform_int_distribution<int> size(0, 2);
  // Grow to 4-10 processors: random_network makes 4-8; add up to two more on a cycle.
  for (int extra = size(rng); extra > 0; --extra) {
    const NodeId v = t.add_node(NodeKind::processor);
    const NodeId a = static_cast<NodeId>(rng() % v), b = static_cast<NodeId>(rng() % v);
    if (directed) {
      t.add_channel(a, v);
      t.add_channel(v, b == a ? (a + 1) % v : b);
    } else {
      t.add_link(a, v);
    }
  }
  if (!fault) return t;
  // Fail one random link if the processors stay strongly connected.
  const auto& c = t.channel(static_cast<ChannelId>(rng() % t.channel_count()));
  std::vector<Channel> removed{c};
  if (!directed) removed.push_back({c.to, c.from});
  Topology damaged = t.without_channels(removed);
  for (const NodeId p : damaged.processors())
    for (const int d : distances_from(damaged, p))
      if (d == kUnreachable) return t;
  return damaged;
}

TEST(CrossCheck, AllEnginesAgree) {
  std::mt19937_64 rng(7);
  const CollectiveKind kinds[] = {CollectiveKind::OAB, CollectiveKind::AAB, CollectiveKind::OAS,
                                  CollectiveKind::AAS, CollectiveKind::AOG};
  const int rounds = crosscheck_rounds();
  int problems = 0, proven = 0, engine_runs = 0, not_applicable = 0, disagreements = 0;
  for (int round = 0; round < rounds; ++round) {
    const bool directed = rng() % 3 == 0;
    Topology t = random_faulty_network(rng, directed, rng() % 4 == 0);
    CollectiveRequest request;
    request.kind = kinds[rng() % 5];
    const auto& procs = t.processors();
    request.root = std::to_string(procs[rng() % procs.size()]);
    Problem p{t, make_collective(t, request), default_model(t)};
    const int port_choice = static_cast<int>(rng() % 3);
    if (port_choice > 0) p.model.ports = port_choice;
    if (rng() % 6 == 0) p.model.switching = Switching::store_and_forward;
    SCOPED_TRACE("round " + std::to_string(round) + " " + std::string(to_string(request.kind)) +
                 " n=" + std::to_string(t.node_count()) + (directed ? " directed" : ""));
    ++problems;
    SolveRequest solve;
    solve.engine = "sat";
    solve.time_limit = 20;
    solve.options.seed = static_cast<std::uint64_t>(round);
    const SolveOutcome out = solve_problem(p, solve);
    ASSERT_TRUE(out.schedule.has_value()) << out.reason;
    EXPECT_EQ(first_violation(*out.schedule), "");
    const PathSet paths(p.topology, p.model);
    const BoundReport bounds = lower_bounds(p, paths);
    const int best = out.schedule->steps;
    if (out.optimal) {
      ++proven;
      for (const auto& b : bounds.bounds) {
        EXPECT_LE(b.value, best) << b.name << " above the proven optimum";
        disagreements += b.value > best;
      }
    }
    for (const std::string name : {"greedy", "umda", "hgsa"}) {
      EngineOptions options;
      options.seed = static_cast<std::uint64_t>(round) + 1;
      if (name != "greedy") options.params = {{"generations", name == "umda" ? 150.0 : 60.0}};
      for (const int T : {best, best - 1}) {
        if (T < 1 || (T < best && !out.optimal)) continue;
        EngineResult first, second;
        try {
          first = make_engine(name, options)->solve(p, paths, T, Budget(5));
          second = make_engine(name, options)->solve(p, paths, T, Budget(5));
        } catch (const Unsupported&) {
          ++not_applicable;  // e.g. evolutionary scatter under store-and-forward
          break;
        }
        ++engine_runs;
        SCOPED_TRACE(name + " at T=" + std::to_string(T));
        if (first.status == SolveStatus::feasible) {
          ASSERT_TRUE(first.schedule.has_value());
          EXPECT_EQ(first_violation(*first.schedule), "");
          EXPECT_LE(first.schedule->steps, T);
          if (out.optimal) {
            EXPECT_GE(first.schedule->steps, best) << "beat a proven optimum";
            disagreements += first.schedule->steps < best;
          }
        }
        // Same seed, same answer (runs that ended on the clock may legitimately differ).
        if (!first.budget_exhausted && !second.budget_exhausted) {
          EXPECT_EQ(first.status, second.status);
          if (first.schedule && second.schedule) {
            EXPECT_TRUE(same_transfers(*first.schedule, *second.schedule))
                << "same seed, different schedule";
          }
        }
      }
    }
  }
  std::printf("crosscheck: %d problems, %d proven optimal, %d engine runs (greedy, umda, hgsa "
              "x 2 step counts x 2 seeds-equal runs), %d not applicable, %d disagreements\n",
              problems, proven, engine_runs, not_applicable, disagreements);
  EXPECT_EQ(disagreements, 0);
  EXPECT_EQ(problems, rounds);
  EXPECT_GT(proven, rounds * 8 / 10);
}

}  // namespace
}  // namespace ccsched
