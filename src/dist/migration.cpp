// Emigrant selection and immigrant replacement (see migration.hpp): "best leave, they
// replace the worst if not worse" — the policies pagmo calls select_best and
// fair_replace, which keep an island from ever losing its best member to migration.
#include "ccsched/dist/migration.hpp"

#include <algorithm>
#include <numeric>

namespace ccsched::dist {
namespace {

std::vector<std::size_t> ranked(std::span<const std::int64_t> fitness) {
  std::vector<std::size_t> order(fitness.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return fitness[a] < fitness[b]; });
  return order;
}

}  // namespace

std::vector<std::size_t> select_emigrants(std::span<const std::int64_t> fitness,
                                          std::size_t count) {
  auto order = ranked(fitness);
  order.resize(std::min(count, order.size()));
  return order;
}

std::vector<std::pair<std::size_t, std::size_t>> choose_replacements(
    std::span<const std::int64_t> members, std::span<const std::int64_t> immigrants) {
  const auto members_best_first = ranked(members);
  const auto arrivals = ranked(immigrants);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t k = 0; k < arrivals.size() && k < members_best_first.size(); ++k) {
    const std::size_t victim = members_best_first[members_best_first.size() - 1 - k];
    if (immigrants[arrivals[k]] <= members[victim]) out.emplace_back(victim, arrivals[k]);
  }
  return out;
}

}  // namespace ccsched::dist
