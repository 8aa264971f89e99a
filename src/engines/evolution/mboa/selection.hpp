// Tournament selection of the individuals MBOA learns its model from (as in Pelikan's
// hBOA, which selects by tournament): each selected index is the best of
// `size` members drawn uniformly with replacement. Ties keep the first drawn.
#pragma once

#include <cstdint>
#include <vector>

#include "../rng.hpp"

namespace ccsched::mboa {

template <class Fitness>  // Fitness(int member) -> comparable, lower is better
std::vector<int> tournament_select(int population, int count, int size, const Fitness& fitness,
                                   evo::Rng& rng) {
  std::vector<int> chosen(static_cast<std::size_t>(count));
  for (auto& c : chosen) {
    c = rng.below(population);
    for (int k = 1; k < size; ++k) {
      const int other = rng.below(population);
      if (fitness(other) < fitness(c)) c = other;
    }
  }
  return chosen;
}

}  // namespace ccsched::mboa
