// The UMDA engine (seed 000 §4.5, seed 001 §4.5): a population of 60 chromosomes; each
// generation a binary tournament picks the parent half, the univariate marginal model of
// the parents is sampled for new chromosomes, each new chromosome is repaired (the
// acceleration or restoration heuristic), evaluated, and mutated with probability 0.9,
// and the new chromosomes replace the worse half of the population.
//
// Sampling the univariate marginal model: every gene component (source, path, step) is
// an independent variable whose distribution is the frequency of its values among the
// parents. Drawing a value from that frequency table is the same as copying the value
// of a uniformly chosen parent, which is what sample_child() does — no table is built.
//
// Ours, on top (docs/EVOLUTIONARY.md): climbing moves, walkers and restarts when the
// best fitness stalls. While the search improves, a generation is the seeds' UMDA.
#include "ccsched/engines/umda.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "ccsched/engines/island.hpp"
#include "control.hpp"
#include "operators.hpp"
#include "parallel.hpp"
#include "param_rows.hpp"

namespace ccsched {
namespace {

using P = UmdaParams;

const std::vector<ParamSpec<P>> kTable = evo::param_table<P>(
    {
        {"population", &P::population, 4, 1e6,
         "population size (seed 000 §4.5, seed 001 §4.5: 60)"},
        {"tournament", &P::tournament, 1, 64,
         "tournament size for choosing each parent (seed 000 §4.5: binary tournament, 2)"},
        {"offspring", &P::offspring, 0.01, 0.99,
         "share of the population replaced by new chromosomes each generation (seed 000 §4.5: "
         "the worse half, 0.5)"},
        {"whole-genes", &P::whole_genes, 0, 1,
         "1: the marginal model's variables are whole genes, (source, path, step) drawn "
         "together; 0: every gene component is a variable of its own"},
    },
    {
        {"threads", &P::threads, 1, 256, "threads evaluating the new chromosomes of a generation"},
    });

void sort_by_fitness(std::vector<evo::Genome>& population) {
  std::stable_sort(
      population.begin(), population.end(),
      [](const evo::Genome& a, const evo::Genome& b) { return a.fitness < b.fitness; });
}

// One new chromosome from the univariate marginal model of the parents (see above).
void sample_child(const evo::Instance& inst, const std::vector<evo::Genome>& population,
                  const std::vector<int>& parents, bool whole_genes, evo::Genome& child,
                  evo::Rng& rng) {
  child.resize(inst);
  const int n = static_cast<int>(parents.size());
  auto parent = [&]() -> const evo::Genome& {
    return population[static_cast<std::size_t>(parents[static_cast<std::size_t>(rng.below(n))])];
  };
  for (std::size_t g = 0; g < inst.gene_count(); ++g) {
    if (whole_genes) {
      const evo::Genome& p = parent();
      child.source[g] = p.source[g];
      child.path[g] = p.path[g];
      child.step[g] = p.step[g];
      continue;
    }
    if (inst.broadcast()) child.source[g] = parent().source[g];
    // A path index means something only for its sender; out of range it wraps around.
    const int count = inst.route(g, child.source[g]).count;
    child.path[g] = parent().path[g] % count;
    child.step[g] = parent().step[g];
  }
  child.fitness = -1;
}

}  // namespace

std::span<const ParamSpec<UmdaParams>> umda_param_table() { return kTable; }

UmdaEngine::UmdaEngine(EngineOptions options, UmdaParams params)
    : options_(std::move(options)), params_(params) {
  apply_params(params_, umda_param_table(), options_.params, "umda");
}

EngineResult UmdaEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                               const Budget& budget) {
  const auto built = evo::open_instance("umda", "the UMDA engine", problem, paths, steps,
                                        params_.auto_radius, budget, options_);
  if (!built) return evo::result_build_stopped("umda", budget);
  const evo::Instance& inst = *built;
  const evo::Heuristics h{params_.acceleration, params_.directed, params_.path_move,
                          params_.step_move};
  evo::RunControl control("umda", steps, budget, options_, params_.generations, params_.stall);
  const std::uint64_t seed = control.seed();
  const int n = params_.population;
  const int n_children = std::clamp(static_cast<int>(std::lround(params_.offspring * n)), 1, n - 1);
  const int n_parents = n - n_children;

  evo::ThreadPool pool(params_.threads);
  std::vector<evo::Workspace> spaces;
  for (int t = 0; t < pool.size(); ++t) spaces.emplace_back(inst);

  std::vector<evo::Genome> population(static_cast<std::size_t>(n));
  const int step0 = inst.broadcast() ? static_cast<int>(std::lround(params_.step0 * n)) : 0;
  // The first population; after a restart (ours) the same with the restart's own streams.
  evo::BudgetCut out_of_budget(budget, options_);
  auto first_population = [&](std::uint64_t attempt) {
    pool.run(n, [&](int i, int w) {
      if (out_of_budget()) return;
      evo::Rng rng = attempt == 0 ? evo::Rng(seed, {0, static_cast<std::uint64_t>(i)})
                                  : evo::Rng(seed, {0, static_cast<std::uint64_t>(i), attempt});
      auto& genome = population[static_cast<std::size_t>(i)];
      evo::randomize(inst, genome, rng, i < step0);
      evo::evaluate(inst, genome, spaces[static_cast<std::size_t>(w)], rng, h, true);
    });
    sort_by_fitness(population);
  };
  first_population(0);
  if (out_of_budget.cut()) return control.result_unknown(true);
  evo::RestartRule restart(params_.restart);

  std::vector<evo::Genome> children(static_cast<std::size_t>(n_children));
  std::vector<int> parents(static_cast<std::size_t>(n_parents));
  int climb = 0;  // climbing moves per mutation, doubled while the search stalls
  // Walkers (ours, --elite-walk): while the search stalls, local-search chains that start
  // from the best members and go on from their own last state every generation, even
  // when it is worse than the population's best. The elitist replacement keeps a walk
  // that is one conflict up from ever continuing; a walker can cross such a ridge.
  std::vector<evo::Genome> walkers;
  std::int64_t best_seen = population.front().fitness;
  long best_generation = 0;
  for (;;) {
    control.record(population.front().fitness);
    if (population.front().fitness < best_seen) {
      best_seen = population.front().fitness;
      best_generation = control.generation();
      climb = 0;
    } else if ((control.generation() - best_generation) % params_.climb_stall == 0) {
      climb = std::min(params_.climb_moves, std::max(1, 2 * climb));
    }
    const auto generation = static_cast<std::uint64_t>(control.generation());
    const bool found = population.front().fitness == 0;
    const bool expired = control.expired();
    if (control.link() == nullptr) {
      if (found)
        return control.result_feasible(
            evo::decode(problem, inst, population.front(), "umda", options_.seed));
      if (expired) return control.result_unknown(true);
      if (control.gave_up()) return control.result_unknown(false);
    } else if (control.meeting_due()) {
      if (auto stopped = control.meet(problem, inst, population,
                                      found ? std::optional<std::size_t>(0) : std::nullopt, expired,
                                      spaces[0], h))
        return std::move(*stopped);
      sort_by_fitness(population);
    }
    if (found || expired) continue;  // on an island: wait for the next meeting
    if (restart.due(population.front().fitness)) {
      first_population(static_cast<std::uint64_t>(restart.restarts()));
      if (out_of_budget.cut()) return control.result_unknown(true);
      climb = 0;
      walkers.clear();
      best_seen = population.front().fitness;
      best_generation = control.generation();
      continue;
    }

    // Binary tournament: each parent is the better of `tournament` random members.
    evo::Rng select(seed, {generation, 0x5e1ec7ULL});
    for (auto& p : parents) {
      p = select.below(n);
      for (int k = 1; k < params_.tournament; ++k) {
        const int other = select.below(n);
        if (population[static_cast<std::size_t>(other)].fitness <
            population[static_cast<std::size_t>(p)].fitness)
          p = other;
      }
    }
    if (climb == 0) {
      walkers.clear();
    } else if (walkers.empty()) {
      const int count = std::min(params_.elite_walk, n_children);
      walkers.assign(population.begin(), population.begin() + count);
    }
    pool.run(n_children, [&](int c, int w) {
      if (out_of_budget()) return;
      evo::Rng rng(seed, {generation, static_cast<std::uint64_t>(c) + 1});
      auto& ws = spaces[static_cast<std::size_t>(w)];
      auto& child = children[static_cast<std::size_t>(c)];
      // Stalled: the first new chromosomes continue the walkers (ours, see above).
      const bool walk = c < static_cast<int>(walkers.size());
      if (walk) {
        child = walkers[static_cast<std::size_t>(c)];
      } else {
        sample_child(inst, population, parents, params_.whole_genes, child, rng);
      }
      const bool hard = rng.chance(params_.hard_ports);
      evo::evaluate(inst, child, ws, rng, h, hard && !walk);
      if (child.fitness > 0 && (walk || rng.chance(params_.mutation)))
        evo::mutate(inst, child, ws, rng, h, params_.mutation_moves, climb, walk);
    });
    if (out_of_budget.cut()) return control.result_unknown(true);
    for (std::size_t c = 0; c < walkers.size(); ++c) walkers[c] = children[c];
    // The new chromosomes replace the worse half (seed 000 §4.5). They are ranked before
    // older members of equal fitness, so that the population drifts across plateaus
    // instead of keeping the first member that reached a fitness level.
    for (int c = 0; c < n_children; ++c)
      std::swap(population[static_cast<std::size_t>(n_parents + c)],
                children[static_cast<std::size_t>(c)]);
    std::rotate(population.begin(), population.begin() + n_parents, population.end());
    sort_by_fitness(population);
  }
}

}  // namespace ccsched
