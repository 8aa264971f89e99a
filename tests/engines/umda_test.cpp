// UMDA engine tests: it reaches the seeds' known optima on small networks for the four
// collectives, every schedule verifies, a seed fixes the schedule (whatever the thread
// count), bad parameters throw, giving up is never "infeasible", the budget is honoured,
// and the island hook works. White-box checks of the shared operators: incremental
// evaluation always equals a full recount, undo restores it, restored broadcast trees
// hold the message before sending it.
#include "ccsched/engines/umda.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/island.hpp"
#include "evolution/control.hpp"
#include "evolution/operators.hpp"
#include "evolution_support.hpp"

namespace ccsched {
namespace {

using testing_support::fingerprint;
using testing_support::Known;
using testing_support::make_problem;
using testing_support::violations_text;

EngineResult run_umda(const Problem& p, int steps, std::uint64_t seed, ParamValues params = {},
                      double seconds = 30) {
  return testing_support::run_engine<UmdaEngine>(p, steps, seed, std::move(params), seconds);
}

class UmdaKnownOptimum : public ::testing::TestWithParam<Known> {};

TEST_P(UmdaKnownOptimum, ReachesItWithAValidSchedule) {
  const Known& k = GetParam();
  const Problem p = make_problem(k.spec, k.kind, k.ports);
  const EngineResult r = run_umda(p, k.optimum, 1);
  ASSERT_EQ(r.status, SolveStatus::feasible) << r.note;
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(violations_text(*r.schedule), "");
  EXPECT_EQ(r.schedule->steps, k.optimum);
  EXPECT_EQ(r.schedule->solver->engine, "umda");
}

INSTANTIATE_TEST_SUITE_P(Seeds, UmdaKnownOptimum,
                         ::testing::ValuesIn(testing_support::known_optima()),
                         testing_support::known_name);

TEST(Umda, SameSeedSameScheduleWhateverTheThreads) {
  // ring 8 1-port AAB stalls before it succeeds: walkers and climbing moves take part.
  for (const auto& [spec, kind, steps, ports] :
       {std::tuple{"petersen", CollectiveKind::AAS, 5, 0},
        std::tuple{"kautz:3,2", CollectiveKind::AAB, 4, 0},
        std::tuple{"ring:8", CollectiveKind::AAB, 7, 1}}) {
    const Problem p =
        make_problem(spec, kind, ports > 0 ? std::optional<int>(ports) : std::nullopt);
    const EngineResult a = run_umda(p, steps, 11);
    const EngineResult b = run_umda(p, steps, 11);
    const EngineResult c = run_umda(p, steps, 11, {{"threads", 2}});
    ASSERT_TRUE(a.schedule && b.schedule && c.schedule) << spec;
    EXPECT_EQ(fingerprint(*a.schedule), fingerprint(*b.schedule)) << spec;
    // Threads only evaluate children, each from its own random stream.
    EXPECT_EQ(fingerprint(*a.schedule), fingerprint(*c.schedule)) << spec;
  }
}

TEST(Umda, DefaultsAreTheSeedsValues) {
  const UmdaParams p;
  EXPECT_EQ(p.population, 60);         // seed 000 §4.5
  EXPECT_EQ(p.tournament, 2);          // binary tournament
  EXPECT_DOUBLE_EQ(p.offspring, 0.5);  // the worse half is replaced
  EXPECT_DOUBLE_EQ(p.mutation, 0.9);
  // Every table entry names a real field and reports its default.
  for (const auto& spec : umda_param_table()) EXPECT_FALSE(spec.help.empty()) << spec.name;
  EXPECT_EQ(default_value(umda_param_table()[0]), 60.0);
}

TEST(Umda, BadParametersThrow) {
  EngineOptions options;
  options.params = {{"population", 1}};
  EXPECT_THROW(UmdaEngine{options}, InvalidParameter);
  options.params = {{"mutation", 1.5}};
  EXPECT_THROW(UmdaEngine{options}, InvalidParameter);
  options.params = {{"threads", 1.5}};
  EXPECT_THROW(UmdaEngine{options}, InvalidParameter);
  options.params = {{"workers", 2}};  // an HGSA parameter
  EXPECT_THROW(UmdaEngine{options}, InvalidParameter);
  options.params = {{"population", 10}, {"mutation", 0.5}};
  EXPECT_EQ(UmdaEngine{options}.params().population, 10);
}

TEST(Umda, GivingUpIsNotInfeasible) {
  // Petersen AAS needs 5 steps (the lower bound); 4 is impossible.
  const Problem p = make_problem("petersen", CollectiveKind::AAS);
  const EngineResult r = run_umda(p, 4, 3, {{"generations", 30}});
  EXPECT_EQ(r.status, SolveStatus::unknown);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.budget_exhausted);
  EXPECT_EQ(r.conflicts, 30);  // generations run
}

TEST(Umda, HonoursTheTimeLimit) {
  const Problem p = make_problem("kautz:3,3", CollectiveKind::AAS);
  const auto start = std::chrono::steady_clock::now();
  const EngineResult r = run_umda(p, 20, 3, {{"stall", 0}}, 0.3);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, SolveStatus::unknown);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_LT(seconds, 5.0);
}

TEST(Umda, ScatterUnderStoreAndForwardIsUnsupported) {
  Problem p = make_problem("ring:6", CollectiveKind::OAS);
  p.model.switching = Switching::store_and_forward;
  EXPECT_THROW(run_umda(p, 3, 1), Unsupported);
}

TEST(Umda, StoreAndForwardBroadcastIsHopByHop) {
  Problem p = make_problem("petersen", CollectiveKind::OAB);
  p.model.switching = Switching::store_and_forward;
  const EngineResult r = run_umda(p, 2, 1);
  ASSERT_EQ(r.status, SolveStatus::feasible) << r.note;
  EXPECT_EQ(violations_text(*r.schedule), "");
}

// The driver asks evolutionary engines for the lower bound first, then one step more
// each time a run gives up; every answer verifies.
TEST(Umda, DriverSearchesUpwardFromTheLowerBound) {
  const Problem p = make_problem("octagon", CollectiveKind::AAS);
  SolveRequest request;
  request.engine = "umda";
  const SolveOutcome out = solve_problem(p, request);
  ASSERT_TRUE(out.schedule);
  EXPECT_TRUE(out.optimal) << out.reason;
  EXPECT_EQ(out.schedule->steps, 4);
  // A run that gives up at once moves the target up; the answer is still valid and never
  // below the lower bound.
  const Problem hard = make_problem("kautz:3,2", CollectiveKind::AAS);
  request.options.params = {{"generations", 1}};
  const SolveOutcome up = solve_problem(hard, request);
  ASSERT_TRUE(up.schedule);
  EXPECT_EQ(violations_text(*up.schedule), "");
  EXPECT_GE(up.schedule->steps, up.lower_bound);
}

TEST(Umda, IslandLinkMeetsEveryIntervalAndStopsWithTheWinner) {
  const Problem p = make_problem("petersen", CollectiveKind::AAS);
  const PathSet paths(p.topology, p.model);
  EngineOptions options;
  auto link = std::make_shared<testing_support::RecordingLink>(3, 0, -1);
  options.island = link;
  UmdaEngine engine(options);
  const EngineResult r = engine.solve(p, paths, 5, Budget(30));
  ASSERT_EQ(r.status, SolveStatus::feasible) << r.note;
  EXPECT_EQ(violations_text(*r.schedule), "");
  EXPECT_GE(link->meetings, 1);
  EXPECT_EQ(r.conflicts % 3, 0);  // it stopped at a meeting
}

// White box: after any sequence of moves, kept or undone, the incremental conflict count
// equals a full recount, and broadcast trees stay valid (senders informed earlier).
TEST(EvolutionOperators, IncrementalEvaluationMatchesARecount) {
  for (const auto& [spec, kind, steps, ports] : {std::tuple{"kautz:3,2", CollectiveKind::AAS, 7, 0},
                                                 std::tuple{"ring:8", CollectiveKind::AAS, 9, 1},
                                                 std::tuple{"petersen", CollectiveKind::AAB, 3, 0},
                                                 std::tuple{"fattree:8", CollectiveKind::AAB, 7, 0},
                                                 std::tuple{"ring:8", CollectiveKind::OAB, 3, 1},
                                                 std::tuple{"ring:8", CollectiveKind::AAB, 7, 1}}) {
    const Problem p =
        make_problem(spec, kind, ports > 0 ? std::optional<int>(ports) : std::nullopt);
    const PathSet paths(p.topology, p.model);
    const evo::Instance inst(p, paths, steps, evo::effective_radius(p, EngineOptions{}, true));
    evo::Workspace ws(inst);
    evo::Occupancy fresh(inst);
    evo::Rng rng(5);
    for (const bool directed : {true, false}) {
      evo::Genome g;
      evo::randomize(inst, g, rng, false);
      const evo::Heuristics h{true, directed, 0.5, 0.3};
      evo::evaluate(inst, g, ws, rng, h);
      ASSERT_EQ(g.fitness, fresh.place_all(g)) << spec;
      for (int i = 0; i < 400 && ws.occ.conflicts() > 0; ++i) {
        evo::move(inst, g, ws, rng, h, directed);
        if (rng.chance(0.5))
          evo::undo(inst, g, ws);
        else
          evo::commit(ws);
        ASSERT_EQ(ws.occ.conflicts(), fresh.place_all(g)) << spec << " move " << i;
        if (inst.broadcast()) {
          for (std::size_t x = 0; x < inst.gene_count(); ++x) {
            const int cg = inst.candidate_gene(x, g.source[x]);
            const int informed = cg < 0 ? 0 : g.step[static_cast<std::size_t>(cg)];
            ASSERT_LT(informed, g.step[x]) << spec << " gene " << x;
          }
        }
      }
    }
  }
}

// The restart rule (ours): never while the search improves; after a stall as long as
// max(base, the generations the attempt needed to reach its best); then a fresh attempt.
TEST(EvolutionOperators, RestartRuleWaitsAsLongAsTheProgressTook) {
  evo::RestartRule never(0);
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(never.due(5));
  evo::RestartRule rule(10);
  // Improves every generation for 30 generations: no restart.
  for (int i = 0; i < 30; ++i) ASSERT_FALSE(rule.due(100 - i)) << i;
  // Best reached at generation 30: the stall must last 30 generations, not 10.
  for (int i = 1; i < 30; ++i) ASSERT_FALSE(rule.due(71)) << i;
  EXPECT_TRUE(rule.due(71));
  EXPECT_EQ(rule.restarts(), 1);
  // The new attempt reaches its best at once: the base of 10 applies.
  EXPECT_FALSE(rule.due(90));
  for (int i = 1; i < 10; ++i) ASSERT_FALSE(rule.due(90)) << i;
  EXPECT_TRUE(rule.due(90));
}

// The acceleration heuristic leaves no sender with more than k messages in a step.
TEST(EvolutionOperators, AccelerationEnforcesTheInjectionLimit) {
  const Problem p = make_problem("kautz:3,2", CollectiveKind::AAS);
  const PathSet paths(p.topology, p.model);
  const evo::Instance inst(p, paths, 4, std::nullopt);
  evo::Workspace ws(inst);
  evo::Rng rng(9);
  evo::Genome g;
  evo::randomize(inst, g, rng, false);
  evo::accelerate(inst, g, rng, ws);
  for (int r = 0; r < inst.row_count(); ++r) {
    std::vector<int> count(5, 0);
    for (int x = inst.row_begin(r); x < inst.row_begin(r + 1); ++x)
      ++count[static_cast<std::size_t>(g.step[static_cast<std::size_t>(x)])];
    for (int s = 1; s <= 4; ++s)
      EXPECT_LE(count[static_cast<std::size_t>(s)], inst.ports()) << "row " << r;
  }
}

}  // namespace
}  // namespace ccsched
