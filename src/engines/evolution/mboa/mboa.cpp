// The MBOA engine (seed 002 §5: "MNB and MNS schedules were obtained with the aid of MBOA
// algorithm"; Očenášek & Schwarz 2002). One generation:
//   1. tournaments select half the population (tournament selection as in hBOA);
//   2. the selected chromosomes are the data of a Bayesian network over the genes: each
//      gene's value is its whole (source, path, step), coded per gene among the values the
//      selected chromosomes hold; a random order fixes acyclicity, and one binary decision
//      tree per gene is grown on the threads (model.hpp; Pelikan's BOA/hBOA with decision
//      graphs, the parallel BOA of Očenášek & Schwarz 2000);
//   3. new chromosomes are sampled gene by gene in the topological order, repaired
//      (acceleration or restoration, seed 000 §4.4), evaluated (seed 000 §4.3) and mutated
//      with the moves UMDA and HGSA use, each from its own random stream;
//   4. restricted tournament replacement lets them in (replacement.hpp).
// The trees may split only on genes that can interact with theirs (linkage.hpp).
//
// Ours, as UMDA's (docs/EVOLUTIONARY.md): climbing moves when the best stalls, restarts.
#include "ccsched/engines/mboa.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>

#include "../control.hpp"
#include "../operators.hpp"
#include "../parallel.hpp"
#include "../param_rows.hpp"
#include "ccsched/engines/island.hpp"
#include "linkage.hpp"
#include "model.hpp"
#include "replacement.hpp"
#include "selection.hpp"

namespace ccsched {
namespace {

using P = MboaParams;

const std::vector<ParamSpec<P>> kTable = evo::param_table<P>(
    {
        {"population", &P::population, 8, 1e6, "population size (as umda, seed 000 §4.5: 60)"},
        {"tournament", &P::tournament, 1, 64,
         "tournament size of the selection (tournament selection as in Pelikan's hBOA; 8 is ours, "
         "measured on seed 002 Table 2)"},
        {"selection", &P::selection, 0.01, 1,
         "share of the population selected by tournament as the model's data"},
        {"offspring", &P::offspring, 0.01, 1,
         "share of the population sampled from the model each generation and offered to the "
         "restricted tournament replacement (ours: half, as UMDA renews the worse half)"},
        {"window", &P::window, 0, 1e6,
         "restricted tournament replacement window: members a new chromosome meets, the most "
         "similar of which it may replace (Harik 1995; 0: min(genes, population/20), hBOA's rule)"},
        {"metric", &P::metric, 0, 1,
         "score of a decision-tree split: 0 Bayesian-Dirichlet (K2 prior, as BOA/hBOA), 1 BIC"},
        {"penalty", &P::penalty, 0, 1e9,
         "complexity penalty per added tree leaf, in units of 0.5 ln N (N selected; hBOA's "
         "2^(-0.5 log2(N) leaves) prior is 1; BIC multiplies it by values - 1)"},
        {"candidates", &P::candidates, 0, 1e6,
         "genes a gene's tree may split on: those sharing the most channels, ports or messages "
         "with it (ours); 0: every gene"},
    },
    {
        {"threads", &P::threads, 1, 256,
         "threads growing the decision trees and evaluating the new chromosomes"},
    });

// A gene's value as one number: (source, path, step) packed.
std::int64_t gene_key(const evo::Genome& g, std::size_t i) {
  return (static_cast<std::int64_t>(g.source[i]) << 42) |
         (static_cast<std::int64_t>(g.path[i]) << 21) | static_cast<std::int64_t>(g.step[i]);
}
void set_gene(evo::Genome& g, std::size_t i, std::int64_t key) {
  constexpr std::int64_t kMask = (std::int64_t{1} << 21) - 1;
  g.source[i] = static_cast<std::int32_t>(key >> 42);
  g.path[i] = static_cast<std::int32_t>((key >> 21) & kMask);
  g.step[i] = static_cast<std::int32_t>(key & kMask);
}

std::int64_t distance(const evo::Genome& a, const evo::Genome& b) {
  std::int64_t d = 0;
  for (std::size_t i = 0; i < a.step.size(); ++i)
    d += a.step[i] != b.step[i] || a.path[i] != b.path[i] || a.source[i] != b.source[i];
  return d;
}

}  // namespace

std::span<const ParamSpec<MboaParams>> mboa_param_table() { return kTable; }

MboaEngine::MboaEngine(EngineOptions options, MboaParams params)
    : options_(std::move(options)), params_(params) {
  apply_params(params_, mboa_param_table(), options_.params, "mboa");
}

EngineResult MboaEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                               const Budget& budget) {
  const auto built = evo::open_instance("mboa", "the MBOA engine", problem, paths, steps,
                                        params_.auto_radius, budget, options_);
  if (!built) return evo::result_build_stopped("mboa", budget);
  const evo::Instance& inst = *built;
  const evo::Heuristics h{params_.acceleration, params_.directed, params_.path_move,
                          params_.step_move};
  evo::RunControl control("mboa", steps, budget, options_, params_.generations, params_.stall);
  const std::uint64_t seed = control.seed();
  const int n = params_.population;
  const auto genes = static_cast<int>(inst.gene_count());
  const int n_selected = std::max(1, static_cast<int>(std::lround(params_.selection * n)));
  const int n_children = std::clamp(static_cast<int>(std::lround(params_.offspring * n)), 1, n);
  const int window =
      params_.window > 0 ? params_.window : std::clamp(std::min(genes, n / 20), 2, n);

  evo::ThreadPool pool(params_.threads);
  std::vector<evo::Workspace> spaces;
  for (int t = 0; t < pool.size(); ++t) spaces.emplace_back(inst);
  const auto candidates = params_.candidates > 0
                              ? mboa::interacting_genes(inst, params_.candidates, pool,
                                                        options_.island ? nullptr : &budget)
                              : std::vector<std::vector<int>>{};
  const mboa::ModelSettings settings{static_cast<mboa::Metric>(params_.metric), params_.penalty,
                                     params_.candidates > 0 ? &candidates : nullptr};

  std::vector<evo::Genome> population(static_cast<std::size_t>(n));
  const int step0 = inst.broadcast() ? static_cast<int>(std::lround(params_.step0 * n)) : 0;
  evo::BudgetCut out_of_budget(budget, options_);
  auto first_population = [&](std::uint64_t attempt) {
    pool.run(n, [&](int i, int w) {
      if (out_of_budget()) return;
      evo::Rng rng(seed, {0, static_cast<std::uint64_t>(i), attempt});
      auto& genome = population[static_cast<std::size_t>(i)];
      evo::randomize(inst, genome, rng, i < step0);
      evo::evaluate(inst, genome, spaces[static_cast<std::size_t>(w)], rng, h, true);
    });
  };
  first_population(0);
  if (out_of_budget.cut()) return control.result_unknown(true);
  evo::RestartRule restart(params_.restart);
  auto best_member = [&] {
    std::size_t best = 0;
    for (std::size_t i = 1; i < population.size(); ++i)
      if (population[i].fitness < population[best].fitness) best = i;
    return best;
  };

  std::vector<evo::Genome> children(static_cast<std::size_t>(n_children));
  std::vector<std::vector<std::int32_t>> codes(static_cast<std::size_t>(n_children));
  std::vector<std::vector<std::int64_t>> values(static_cast<std::size_t>(genes));  // code -> key
  mboa::Data data;
  data.rows = n_selected;
  data.arity.assign(static_cast<std::size_t>(genes), 1);
  data.columns.assign(static_cast<std::size_t>(genes),
                      std::vector<std::int32_t>(static_cast<std::size_t>(n_selected)));
  int climb = 0;
  // Walkers (ours, as UMDA's --elite-walk): while the search stalls, the first new
  // chromosomes are not sampled but continue local-search chains from the best members.
  std::vector<evo::Genome> walkers;
  std::int64_t best_seen = INT64_MAX;
  long best_generation = 0;
  for (;;) {
    const std::size_t best = best_member();
    control.record(population[best].fitness);
    if (population[best].fitness < best_seen) {
      best_seen = population[best].fitness;
      best_generation = control.generation();
      climb = 0;
    } else if ((control.generation() - best_generation) % params_.climb_stall == 0) {
      climb = std::min(params_.climb_moves, std::max(1, 2 * climb));
    }
    const auto generation = static_cast<std::uint64_t>(control.generation());
    const bool found = population[best].fitness == 0;
    const bool expired = control.expired();
    if (control.link() == nullptr) {
      if (found)
        return control.result_feasible(
            evo::decode(problem, inst, population[best], "mboa", options_.seed));
      if (expired) return control.result_unknown(true);
      if (control.gave_up()) return control.result_unknown(false);
    } else if (control.meeting_due()) {
      if (auto stopped = control.meet(problem, inst, population,
                                      found ? std::optional<std::size_t>(best) : std::nullopt,
                                      expired, spaces[0], h))
        return std::move(*stopped);
    }
    if (found || expired) continue;  // on an island: wait for the next meeting
    if (restart.due(population[best_member()].fitness)) {
      first_population(static_cast<std::uint64_t>(restart.restarts()));
      if (out_of_budget.cut()) return control.result_unknown(true);
      climb = 0;
      walkers.clear();
      best_seen = INT64_MAX;
      best_generation = control.generation();
      continue;
    }

    // 1. Selection, and the selected chromosomes coded gene by gene.
    evo::Rng rng(seed, {generation, 0x5e1ec7ULL});
    const auto selected = mboa::tournament_select(
        n, n_selected, params_.tournament,
        [&](int m) { return population[static_cast<std::size_t>(m)].fitness; }, rng);
    pool.run(genes, [&](int g, int) {
      const auto i = static_cast<std::size_t>(g);
      auto& keys = values[i];
      keys.clear();
      for (const int m : selected)
        keys.push_back(gene_key(population[static_cast<std::size_t>(m)], i));
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      data.arity[i] = static_cast<std::int32_t>(keys.size());
      for (int r = 0; r < n_selected; ++r)
        data.columns[i][static_cast<std::size_t>(r)] = static_cast<std::int32_t>(
            std::lower_bound(
                keys.begin(), keys.end(),
                gene_key(
                    population[static_cast<std::size_t>(selected[static_cast<std::size_t>(r)])],
                    i)) -
            keys.begin());
    });
    // 2. The network: a random topological order, one tree per gene.
    std::vector<int> order(static_cast<std::size_t>(genes));
    std::iota(order.begin(), order.end(), 0);
    for (int k = genes - 1; k > 0; --k)
      std::swap(order[static_cast<std::size_t>(k)],
                order[static_cast<std::size_t>(rng.below(k + 1))]);
    const mboa::Model model = mboa::Model::learn(data, std::move(order), settings, pool);

    if (climb == 0) {
      walkers.clear();
    } else if (walkers.empty()) {
      std::vector<std::size_t> rank(population.size());
      std::iota(rank.begin(), rank.end(), std::size_t{0});
      std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) {
        return population[a].fitness < population[b].fitness;
      });
      for (int k = 0; k < std::min(params_.elite_walk, n_children); ++k)
        walkers.push_back(population[rank[static_cast<std::size_t>(k)]]);
    }

    // 3. New chromosomes, each from its own stream.
    pool.run(n_children, [&](int c, int w) {
      if (out_of_budget()) return;
      evo::Rng child_rng(seed, {generation, static_cast<std::uint64_t>(c) + 1});
      auto& ws = spaces[static_cast<std::size_t>(w)];
      auto& child = children[static_cast<std::size_t>(c)];
      const bool walk = c < static_cast<int>(walkers.size());
      if (walk) {
        child = walkers[static_cast<std::size_t>(c)];
      } else {
        auto& code = codes[static_cast<std::size_t>(c)];
        code.assign(static_cast<std::size_t>(genes), 0);
        model.sample(code, child_rng);
        child.resize(inst);
        for (std::size_t i = 0; i < code.size(); ++i)
          set_gene(child, i, values[i][static_cast<std::size_t>(code[i])]);
      }
      const bool hard = child_rng.chance(params_.hard_ports);
      evo::evaluate(inst, child, ws, child_rng, h, hard && !walk);
      if (child.fitness > 0 && (walk || child_rng.chance(params_.mutation)))
        evo::mutate(inst, child, ws, child_rng, h, params_.mutation_moves, climb, walk);
    });
    if (out_of_budget.cut()) return control.result_unknown(true);
    for (std::size_t c = 0; c < walkers.size(); ++c) walkers[c] = children[c];

    // 4. Restricted tournament replacement, on this thread, from the generation's stream.
    mboa::restricted_tournament(
        n_children, n, window,
        [&](int c, int m) {
          return distance(children[static_cast<std::size_t>(c)],
                          population[static_cast<std::size_t>(m)]);
        },
        [&](int c, int m) {
          return children[static_cast<std::size_t>(c)].fitness <=
                 population[static_cast<std::size_t>(m)].fitness;
        },
        [&](int c, int m) {
          std::swap(children[static_cast<std::size_t>(c)], population[static_cast<std::size_t>(m)]);
        },
        rng);
  }
}

}  // namespace ccsched
