// MBOA's generation loop on categorical vectors (see categorical.hpp).
#include "categorical.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model.hpp"
#include "replacement.hpp"
#include "selection.hpp"

namespace ccsched::mboa {

CategoricalResult minimize(const CategoricalProblem& problem, const MboaParams& params,
                           std::uint64_t seed, std::int64_t target) {
  const int n = params.population;
  const auto variables = static_cast<int>(problem.arity.size());
  const int selected = std::max(1, static_cast<int>(std::lround(params.selection * n)));
  const int children = std::clamp(static_cast<int>(std::lround(params.offspring * n)), 1, n);
  const int window =
      params.window > 0 ? params.window : std::clamp(std::min(variables, n / 20), 2, n);
  const long limit = params.generations > 0 ? params.generations : 1000;
  evo::ThreadPool pool(params.threads);

  std::vector<std::vector<std::int32_t>> population(static_cast<std::size_t>(n));
  std::vector<std::int64_t> cost(static_cast<std::size_t>(n));
  pool.run(n, [&](int i, int) {
    evo::Rng rng(seed, {0, static_cast<std::uint64_t>(i)});
    auto& x = population[static_cast<std::size_t>(i)];
    x.resize(static_cast<std::size_t>(variables));
    for (int v = 0; v < variables; ++v)
      x[static_cast<std::size_t>(v)] = rng.below(problem.arity[static_cast<std::size_t>(v)]);
    cost[static_cast<std::size_t>(i)] = problem.cost(x);
  });
  CategoricalResult result;
  auto best_member = [&] {
    return static_cast<std::size_t>(std::min_element(cost.begin(), cost.end()) - cost.begin());
  };
  std::int64_t best_seen = cost[best_member()];
  long improved = 0;
  const ModelSettings settings{static_cast<Metric>(params.metric), params.penalty, nullptr};
  std::vector<std::vector<std::int32_t>> offspring(static_cast<std::size_t>(children));
  std::vector<std::int64_t> offspring_cost(static_cast<std::size_t>(children));
  for (result.generations = 0; result.generations < limit; ++result.generations) {
    const std::size_t b = best_member();
    if (cost[b] < best_seen) {
      best_seen = cost[b];
      improved = result.generations;
    }
    if (cost[b] <= target) break;
    if (params.stall > 0 && result.generations - improved >= params.stall) break;
    const auto generation = static_cast<std::uint64_t>(result.generations) + 1;
    evo::Rng rng(seed, {generation, 0x5e1ec7ULL});
    const auto parents = tournament_select(
        n, selected, params.tournament, [&](int m) { return cost[static_cast<std::size_t>(m)]; },
        rng);
    Data data;
    data.rows = selected;
    data.arity = problem.arity;
    data.columns.assign(static_cast<std::size_t>(variables),
                        std::vector<std::int32_t>(static_cast<std::size_t>(selected)));
    for (int r = 0; r < selected; ++r)
      for (int v = 0; v < variables; ++v)
        data.columns[static_cast<std::size_t>(v)][static_cast<std::size_t>(r)] =
            population[static_cast<std::size_t>(parents[static_cast<std::size_t>(r)])]
                      [static_cast<std::size_t>(v)];
    std::vector<int> order(static_cast<std::size_t>(variables));
    std::iota(order.begin(), order.end(), 0);
    for (int k = variables - 1; k > 0; --k)
      std::swap(order[static_cast<std::size_t>(k)],
                order[static_cast<std::size_t>(rng.below(k + 1))]);
    const Model model = Model::learn(data, std::move(order), settings, pool);
    result.splits = model.splits();
    pool.run(children, [&](int c, int) {
      evo::Rng child_rng(seed, {generation, static_cast<std::uint64_t>(c) + 1});
      auto& x = offspring[static_cast<std::size_t>(c)];
      x.assign(static_cast<std::size_t>(variables), 0);
      model.sample(x, child_rng);
      offspring_cost[static_cast<std::size_t>(c)] = problem.cost(x);
    });
    restricted_tournament(
        children, n, window,
        [&](int c, int m) {
          const auto& x = offspring[static_cast<std::size_t>(c)];
          const auto& y = population[static_cast<std::size_t>(m)];
          std::int64_t d = 0;
          for (std::size_t v = 0; v < x.size(); ++v) d += x[v] != y[v];
          return d;
        },
        [&](int c, int m) {
          return offspring_cost[static_cast<std::size_t>(c)] <= cost[static_cast<std::size_t>(m)];
        },
        [&](int c, int m) {
          population[static_cast<std::size_t>(m)] = offspring[static_cast<std::size_t>(c)];
          cost[static_cast<std::size_t>(m)] = offspring_cost[static_cast<std::size_t>(c)];
        },
        rng);
  }
  const std::size_t b = best_member();
  result.best = population[b];
  result.cost = cost[b];
  result.reached = result.cost <= target;
  return result;
}

}  // namespace ccsched::mboa
