// The star factorisations of the star exchange on hypercubes (docs/ENGINES.md,
// "Reductions: star exchange"; src/engines/reduce/cube.cpp), for the tests.
#pragma once

#include <vector>

namespace ccsched {

// Step t adds, at every node x of hypercube:n, the accumulators of x XOR v for the v of the
// t-th list (pairwise disjoint supports, at most `ports` of them); empty when n < 1.
std::vector<std::vector<unsigned>> star_factorisation(int n, int ports);

}  // namespace ccsched
