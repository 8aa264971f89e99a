// MBOA tests. The model: on concatenated deceptive traps (a problem whose variables are
// linked in blocks) MBOA finds the optimum over 20 seeds at a population where the same
// algorithm with the univariate model (no splits: UMDA's model, seed 000 §4.5) fails;
// learned trees are valid conditional distributions of the data, acyclic, and sampled
// in order. The engine: it reaches known optima with schedules that verify, a seed fixes
// the schedule whatever the thread count, bad parameters throw, giving up is never
// "infeasible", the budget is honoured, the island hook works, the driver uses it.
#include "ccsched/engines/mboa.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <numeric>

#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/island.hpp"
#include "evolution_support.hpp"
#include "evolution/mboa/categorical.hpp"
#include "evolution/mboa/model.hpp"

namespace ccsched {
namespace {

using testing_support::fingerprint;
using testing_support::make_problem;
using testing_support::violations_text;

// ---------------------------------------------------------------------------------------
// The model on its own.

// Concatenated deceptive traps of order k (Deb & Goldberg 1993; the linkage test of BOA
// and hBOA): each block of k bits scores k when all are 1, else k - 1 - (ones). Every
// block's univariate statistics point to all zeros, so a model that does not learn the
// blocks converges to the deceptive peak. Cost = sum of (k - score): 0 is the optimum.
mboa::CategoricalProblem traps(int blocks, int order) {
  mboa::CategoricalProblem p;
  p.arity.assign(static_cast<std::size_t>(blocks * order), 2);
  p.cost = [order](std::span<const std::int32_t> x) {
    std::int64_t cost = 0;
    for (std::size_t b = 0; b < x.size(); b += static_cast<std::size_t>(order)) {
      const int ones = std::accumulate(x.begin() + static_cast<std::ptrdiff_t>(b),
                                       x.begin() + static_cast<std::ptrdiff_t>(b) + order, 0);
      cost += ones == order ? 0 : ones + 1;
    }
    return cost;
  };
  return p;
}

MboaParams trap_params(bool univariate) {
  MboaParams params;
  params.population = 400;
  params.tournament = 2;  // binary, as hBOA on traps (the engine's 8 is tuned for schedules)
  params.generations = 60;
  params.stall = 15;
  // No split can pay a penalty this large: every tree is one leaf, the univariate
  // marginal model of UMDA.
  if (univariate) params.penalty = 1e9;
  return params;
}

TEST(MboaModel, LearnsTheTrapsWhereTheUnivariateModelFails) {
  const auto problem = traps(5, 4);
  int mboa_found = 0, umda_found = 0;
  constexpr int kSeeds = 20;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const auto m = mboa::minimize(problem, trap_params(false), seed, 0);
    const auto u = mboa::minimize(problem, trap_params(true), seed, 0);
    mboa_found += m.reached;
    umda_found += u.reached;
    EXPECT_EQ(u.splits, 0);
  }
  EXPECT_EQ(mboa_found, kSeeds);
  EXPECT_EQ(umda_found, 0);
}

// Data whose variable 1 copies variable 0, variable 2 is x0 and x3, and variable 4 is
// uniform noise over three values; rows enumerate x0, x3 and the noise evenly.
mboa::Data linked_data() {
  mboa::Data d;
  d.rows = 240;
  d.arity = {2, 2, 2, 2, 3};
  d.columns.assign(5, std::vector<std::int32_t>(240));
  for (int r = 0; r < 240; ++r) {
    const int x0 = r % 2, x3 = (r / 2) % 2, noise = (r / 4) % 3;
    d.columns[0][static_cast<std::size_t>(r)] = x0;
    d.columns[1][static_cast<std::size_t>(r)] = x0;
    d.columns[2][static_cast<std::size_t>(r)] = x0 & x3;
    d.columns[3][static_cast<std::size_t>(r)] = x3;
    d.columns[4][static_cast<std::size_t>(r)] = noise;
  }
  return d;
}

// The conditional distribution each leaf states must be the data's: for every row, the
// leaf it reaches counts its value; leaves partition the rows.
void expect_valid_model(const mboa::Model& model, const mboa::Data& data) {
  std::vector<int> position(static_cast<std::size_t>(model.variables()));
  for (int k = 0; k < model.variables(); ++k)
    position[static_cast<std::size_t>(model.order()[static_cast<std::size_t>(k)])] = k;
  for (int v = 0; v < model.variables(); ++v) {
    const mboa::DecisionTree& tree = model.tree(v);
    std::map<int, std::map<std::int32_t, std::int32_t>> reached;  // leaf -> value -> rows
    for (int r = 0; r < data.rows; ++r) {
      std::vector<std::int32_t> row;
      for (const auto& column : data.columns) row.push_back(column[static_cast<std::size_t>(r)]);
      ++reached[tree.leaf_for(row)][row[static_cast<std::size_t>(v)]];
    }
    std::int32_t rows = 0;
    for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
      const mboa::TreeNode& node = tree.nodes[n];
      if (!node.leaf()) {
        // Acyclic: a split variable comes earlier in the topological order.
        EXPECT_LT(position[static_cast<std::size_t>(node.variable)],
                  position[static_cast<std::size_t>(v)]);
        EXPECT_TRUE(node.equal > 0 && node.other > 0);
        continue;
      }
      double sum = 0.0;
      std::int32_t counted = 0;
      for (const auto& [value, count] : node.counts) {
        const double probability = static_cast<double>(count) / node.total;
        EXPECT_GT(probability, 0.0);
        EXPECT_LE(probability, 1.0);
        EXPECT_TRUE(value >= 0 && value < data.arity[static_cast<std::size_t>(v)]);
        sum += probability;
        counted += count;
      }
      EXPECT_NEAR(sum, 1.0, 1e-12) << "variable " << v << " leaf " << n;
      EXPECT_EQ(counted, node.total);
      std::map<std::int32_t, std::int32_t> stated(node.counts.begin(), node.counts.end());
      EXPECT_EQ(stated, reached[static_cast<int>(n)]) << "variable " << v << " leaf " << n;
      rows += node.total;
    }
    EXPECT_EQ(rows, data.rows);
  }
}

TEST(MboaModel, TreesAreValidConditionalDistributions) {
  const mboa::Data data = linked_data();
  evo::ThreadPool pool(1);
  for (const auto metric : {mboa::Metric::bd, mboa::Metric::bic}) {
    const mboa::ModelSettings settings{metric, 1.0, nullptr};
    for (const auto& order : {std::vector<int>{0, 3, 1, 2, 4}, std::vector<int>{4, 2, 1, 3, 0},
                              std::vector<int>{2, 4, 0, 1, 3}}) {
      const mboa::Model model = mboa::Model::learn(data, order, settings, pool);
      expect_valid_model(model, data);
    }
  }
  // With x0 and x3 first, x1's tree asks about x0 and x2's tree about both; the noise
  // gains nothing from any split and x0, x3 have nothing earlier to split on.
  const mboa::Model model = mboa::Model::learn(data, {0, 3, 1, 2, 4}, {}, pool);
  EXPECT_EQ(model.tree(1).nodes.size(), 3u);
  EXPECT_EQ(model.tree(1).nodes[0].variable, 0);
  EXPECT_EQ(model.tree(2).leaf_count(), 3);  // x0 = 0 decides; else x3 does
  EXPECT_EQ(model.tree(4).leaf_count(), 1);
  EXPECT_EQ(model.splits(), 3);
  // Sampling in topological order reproduces the dependencies exactly and the noise's
  // marginal approximately.
  evo::Rng rng(7);
  std::vector<int> noise(3, 0);
  for (int s = 0; s < 3000; ++s) {
    std::vector<std::int32_t> x(5, -1);
    model.sample(x, rng);
    EXPECT_EQ(x[1], x[0]);
    EXPECT_EQ(x[2], x[0] & x[3]);
    ++noise[static_cast<std::size_t>(x[4])];
  }
  for (const int count : noise) EXPECT_NEAR(count, 1000, 150);
  // The penalty stops the trees: at a prohibitive one there are no splits.
  const mboa::Model flat = mboa::Model::learn(data, {0, 3, 1, 2, 4}, {mboa::Metric::bd, 1e9}, pool);
  EXPECT_EQ(flat.splits(), 0);
}

TEST(MboaModel, TreesDoNotDependOnTheThreads) {
  const mboa::Data data = linked_data();
  evo::ThreadPool one(1), three(3);
  const std::vector<int> order{3, 0, 4, 2, 1};
  const mboa::Model a = mboa::Model::learn(data, order, {}, one);
  const mboa::Model b = mboa::Model::learn(data, order, {}, three);
  for (int v = 0; v < 5; ++v) {
    ASSERT_EQ(a.tree(v).nodes.size(), b.tree(v).nodes.size());
    for (std::size_t n = 0; n < a.tree(v).nodes.size(); ++n) {
      EXPECT_EQ(a.tree(v).nodes[n].variable, b.tree(v).nodes[n].variable);
      EXPECT_EQ(a.tree(v).nodes[n].counts, b.tree(v).nodes[n].counts);
    }
  }
}

// ---------------------------------------------------------------------------------------
// The engine.

EngineResult run_mboa(const Problem& p, int steps, std::uint64_t seed, ParamValues params = {},
                      double seconds = 30) {
  return testing_support::run_engine<MboaEngine>(p, steps, seed, std::move(params), seconds);
}

struct Cell {
  const char* spec;
  std::optional<int> ports;
  CollectiveKind kind;
  int steps;
};

TEST(Mboa, ReachesKnownOptimaWithValidSchedules) {
  // Seed 000 Table 6 cells: scatter and broadcast, all-port and 1-port, with and
  // without switches.
  for (const Cell& c :
       {Cell{"kautz:3,2", {}, CollectiveKind::AAS, 7}, Cell{"petersen", {}, CollectiveKind::AAB, 3},
        Cell{"ring:8", 1, CollectiveKind::OAB, 3}, Cell{"ring:8", 2, CollectiveKind::OAS, 4},
        Cell{"omega:8", {}, CollectiveKind::AAS, 7}}) {
    const Problem p = make_problem(c.spec, c.kind, c.ports);
    const EngineResult r = run_mboa(p, c.steps, 1);
    ASSERT_EQ(r.status, SolveStatus::feasible) << c.spec << ": " << r.note;
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(violations_text(*r.schedule), "") << c.spec;
    EXPECT_EQ(r.schedule->steps, c.steps) << c.spec;
    EXPECT_EQ(r.schedule->solver->engine, "mboa");
  }
}

TEST(Mboa, SameSeedSameScheduleWhateverTheThreads) {
  for (const auto& [spec, kind, steps] : {std::tuple{"petersen", CollectiveKind::AAS, 5},
                                          std::tuple{"kautz:3,2", CollectiveKind::AAB, 4}}) {
    const Problem p = make_problem(spec, kind);
    const EngineResult a = run_mboa(p, steps, 11);
    const EngineResult b = run_mboa(p, steps, 11);
    const EngineResult c = run_mboa(p, steps, 11, {{"threads", 2}});
    const EngineResult d = run_mboa(p, steps, 11, {{"threads", 3}});
    ASSERT_TRUE(a.schedule && b.schedule && c.schedule && d.schedule) << spec;
    EXPECT_EQ(fingerprint(*a.schedule), fingerprint(*b.schedule)) << spec;
    EXPECT_EQ(fingerprint(*a.schedule), fingerprint(*c.schedule)) << spec;
    EXPECT_EQ(fingerprint(*a.schedule), fingerprint(*d.schedule)) << spec;
    EXPECT_EQ(a.conflicts, d.conflicts) << spec;  // the same number of generations
  }
}

TEST(Mboa, ParameterTableAndBadParameters) {
  for (const auto& spec : mboa_param_table()) EXPECT_FALSE(spec.help.empty()) << spec.name;
  EXPECT_EQ(default_value(mboa_param_table()[0]), MboaParams{}.population);
  EngineOptions options;
  for (const ParamValues& bad :
       {ParamValues{{"population", 2}}, ParamValues{{"metric", 2}}, ParamValues{{"penalty", -1}},
        ParamValues{{"window", 0.5}}, ParamValues{{"selection", 0}},
        ParamValues{{"offspring", 1.5}}, ParamValues{{"threads", 0}},
        ParamValues{{"workers", 2}} /* an HGSA parameter */}) {
    options.params = bad;
    EXPECT_THROW(MboaEngine{options}, InvalidParameter) << bad.begin()->first;
  }
  options.params = {{"population", 40}, {"metric", 1}, {"window", 5}};
  const MboaEngine engine(options);
  EXPECT_EQ(engine.params().population, 40);
  EXPECT_EQ(engine.params().metric, 1);
  EXPECT_EQ(make_engine("mboa", EngineOptions{})->name(), "mboa");
}

TEST(Mboa, GivingUpIsNotInfeasibleAndTheTimeLimitHolds) {
  // Petersen AAS needs 5 steps (the lower bound); 4 is impossible.
  const Problem p = make_problem("petersen", CollectiveKind::AAS);
  const EngineResult r = run_mboa(p, 4, 3, {{"generations", 10}});
  EXPECT_EQ(r.status, SolveStatus::unknown);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.budget_exhausted);
  EXPECT_EQ(r.conflicts, 10);  // generations run
  const auto start = std::chrono::steady_clock::now();
  const EngineResult t = run_mboa(p, 4, 3, {{"stall", 0}, {"restart", 0}}, 0.3);
  EXPECT_TRUE(t.budget_exhausted);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  // Ctrl-C: the interrupt flag ends the run at once.
  const std::atomic<bool> interrupt{true};
  const PathSet paths(p.topology, p.model);
  const EngineResult i = MboaEngine(EngineOptions{}).solve(p, paths, 4, Budget(1e18, &interrupt));
  EXPECT_TRUE(i.budget_exhausted);
}

TEST(Mboa, IslandLinkAndDriver) {
  const Problem p = make_problem("petersen", CollectiveKind::AAS);
  const PathSet paths(p.topology, p.model);
  EngineOptions options;
  auto link = std::make_shared<testing_support::RecordingLink>(2, 1, 0);
  options.island = link;
  const EngineResult r = MboaEngine(options).solve(p, paths, 5, Budget(30));
  ASSERT_EQ(r.status, SolveStatus::feasible) << r.note;
  EXPECT_EQ(violations_text(*r.schedule), "");
  EXPECT_GE(link->meetings, 1);
  EXPECT_EQ(r.conflicts % 2, 0);  // it stopped at a meeting

  SolveRequest request;
  request.engine = "mboa";
  const SolveOutcome out = solve_problem(make_problem("octagon", CollectiveKind::AAS), request);
  ASSERT_TRUE(out.schedule);
  EXPECT_EQ(violations_text(*out.schedule), "");
  EXPECT_TRUE(out.optimal) << out.reason;
}

}  // namespace
}  // namespace ccsched
