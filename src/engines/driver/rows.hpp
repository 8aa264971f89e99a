// The rows of the strategy table (strategy.hpp): for each technique, when it applies and
// how one run of it reads as an Attempt. The techniques themselves live in their own
// files (engines/*.hpp); these adapters only translate. message_rows.cpp holds the rows
// for message collectives, reduce_rows.cpp those for reductions.
#pragma once

#include "strategy.hpp"

namespace ccsched::driver {

// The direct gather design (all-to-one gathers; written before the parallel designs).
bool gather_applies(const Search& s);
Attempt gather_row(Search& s, const Budget& budget, int target);
// The hypercube broadcast (one-to-all on hypercube:n; written before the parallel designs).
bool hypercube_broadcast_row_applies(const Search& s);
Attempt hypercube_broadcast_row(Search& s, const Budget& budget, int target);
// Closed-form designs (parallel: they read only the problem).
bool constructive_applies(const Search& s);
Attempt constructive(Search& s, const Budget& budget, int target);
bool designs_apply(const Search& s);
Attempt region_broadcast_row(Search& s, const Budget& budget, int target);
Attempt gossip_row(Search& s, const Budget& budget, int target);
Attempt grid_design_row(Search& s, const Budget& budget, int target);
// An AAB of several blocks: the pipelined all-gather designs.
bool allgather_blocks_apply(const Search& s);
Attempt allgather_blocks_row(Search& s, const Budget& budget, int target);
// Scatters on other networks: relayed along levelled routes.
bool relay_shop_applies(const Search& s);
Attempt relay_shop_row(Search& s, const Budget& budget, int target);
// The greedy upper bound.
bool greedy_applies(const Search& s);
Attempt greedy_row(Search& s, const Budget& budget, int target);
// The evolutionary engines (seed 000 §4.3: upward from the floor).
bool evolution_applies(const Search& s);
Attempt evolution_row(Search& s, const Budget& budget, int target);
// Symmetric and fixed-tree SAT encodings (prove nothing).
bool symmetric_applies(const Search& s);
Attempt symmetric_row(Search& s, const Budget& budget, int target);
bool neighbour_trees_apply(const Search& s);
Attempt neighbour_trees_row(Search& s, const Budget& budget, int target);
// The descent below the best schedule, one target at a time.
bool best_trees_apply(const Search& s);
Attempt best_trees_row(Search& s, const Budget& budget, int target);
bool probe_applies(const Search& s);
Attempt probe_row(Search& s, const Budget& budget, int target);
bool window_applies(const Search& s);
Attempt window_row(Search& s, const Budget& budget, int target);
bool sat_applies(const Search& s);
Attempt sat_row(Search& s, const Budget& budget, int target);
// The relay encoding: a shorter scatter with relays, or the proof under the model.
bool relays_apply(const Search& s);
Attempt relays_row(Search& s, const Budget& budget, int target);

// Reductions (reduce_rows.cpp).
bool reduce_designs_apply(const Search& s);
Attempt reduce_designs_row(Search& s, const Budget& budget, int target);
bool volume_sat_applies(const Search& s);
Attempt volume_sat_row(Search& s, const Budget& budget, int target);
bool exact_reduction_first_applies(const Search& s);
bool exact_reduction_last_applies(const Search& s);
Attempt exact_reduction_row(Search& s, const Budget& budget, int target);
bool scan_dual_bound_applies(const Search& s);
Attempt scan_dual_bound_row(Search& s, const Budget& budget, int target);
bool reduce_dual_applies(const Search& s);
Attempt reduce_dual_row(Search& s, const Budget& budget, int target);

}  // namespace ccsched::driver
