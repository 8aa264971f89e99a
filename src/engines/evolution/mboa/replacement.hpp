// Restricted tournament replacement (Harik 1995, "Finding multimodal solutions using
// restricted tournament selection"; the replacement of Pelikan's hBOA and of
// MBOA, Očenášek & Schwarz 2002): each new individual in turn meets `window` members
// drawn at random from the population and competes with the one most like it (fewest
// differing variables); it takes that member's place when it is not worse. A new
// individual thus displaces its own kind, so distinct partial solutions (a deceptive
// trap's two peaks, two ways to route a pair of messages) survive side by side, where
// replacing the worst members would let one of them take over.
//
// Taking the place on equal fitness (ours; Harik and Pelikan replace only when better):
// the conflict landscape has wide plateaus, and a population that cannot move along them
// stalls (docs/EVOLUTIONARY.md, UMDA's "children ranked before equal members").
#pragma once

#include <cstdint>

#include "../rng.hpp"

namespace ccsched::mboa {

// For child c = 0 .. children-1 in order: Distance(c, member) -> int, NotWorse(c, member)
// -> bool, Replace(c, member). Later children see the members earlier ones replaced.
// Returns how many children entered the population.
template <class Distance, class NotWorse, class Replace>
int restricted_tournament(int children, int population, int window, const Distance& distance,
                          const NotWorse& not_worse, const Replace& replace, evo::Rng& rng) {
  int entered = 0;
  for (int c = 0; c < children; ++c) {
    int closest = -1;
    std::int64_t nearest = INT64_MAX;
    for (int k = 0; k < window; ++k) {
      const int member = rng.below(population);
      const std::int64_t d = distance(c, member);
      if (d < nearest) {
        nearest = d;
        closest = member;
      }
    }
    if (closest >= 0 && not_worse(c, closest)) {
      replace(c, closest);
      ++entered;
    }
  }
  return entered;
}

}  // namespace ccsched::mboa
