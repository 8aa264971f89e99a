// The strategy table: every technique the driver knows, in the order it walks them
// (docs/ENGINES.md, "The driver", gives the reason for each row and its parameters). A new
// technique is a file in engines/ and a row here. Ties between schedules of equal length
// go to the earlier row, so the order is also the tie-break of the parallel designs.
#include "rows.hpp"

namespace ccsched::driver {
namespace {

using P = DriverParams;
constexpr auto kOnce = Aim::once;
constexpr auto kDescend = Aim::descend;
constexpr auto kNothing = Proves::nothing;

constexpr Strategy kStrategies[] = {
    // name              proves   aim  parallel applies  run  time cap  work
    // All-to-one gathers: one message per in-channel of the root and step, in O(P) (at
    // 16,384 processors and more nothing else answers in time).
    {"gather", kNothing, kOnce, false, gather_applies, gather_row, nullptr, nullptr},
    // One-to-all on a hypercube: 2^m-fold growth a step in O(P); at the bound, the walk
    // ends here (hypercube:16 in a second, where the region broadcast took 39 s for 16).
    {"hypercube broadcast", kNothing, kOnce, false, hypercube_broadcast_row_applies,
     hypercube_broadcast_row, nullptr, nullptr},
    // Closed-form designs, at once on the cores (they read only the problem).
    {"constructive", kNothing, kOnce, true, constructive_applies, constructive,
     &P::design_time_share, nullptr},
    {"region broadcast", kNothing, kOnce, true, designs_apply, region_broadcast_row,
     &P::design_time_share, nullptr},
    {"gossip", kNothing, kOnce, true, designs_apply, gossip_row, &P::design_time_share, nullptr},
    {"grid-design", kNothing, kOnce, true, designs_apply, grid_design_row,
     &P::design_time_share, nullptr},
    {"all-gather blocks", kNothing, kOnce, false, allgather_blocks_apply, allgather_blocks_row,
     nullptr, nullptr},
    {"relay job shop", kNothing, kOnce, false, relay_shop_applies, relay_shop_row, nullptr,
     nullptr},
    // Reductions: designs, the exact search, the dual broadcast and composition.
    {"reduction designs", kNothing, kOnce, false, reduce_designs_apply, reduce_designs_row,
     nullptr, nullptr},
    {"reduction-sat", Proves::under_model, kOnce, false, exact_reduction_first_applies,
     exact_reduction_row, &P::exact_reduction_time_share, &P::reduction_conflicts},
    {"reduce-dual bound", Proves::under_model, kOnce, false, scan_dual_bound_applies,
     scan_dual_bound_row, nullptr, nullptr},
    {"reduce-dual", Proves::under_model, kOnce, false, reduce_dual_applies, reduce_dual_row,
     nullptr, nullptr},
    // Several blocks of ALLREDUCE still above the bound after the designs and the duals.
    {"volume-sat", Proves::under_model, kOnce, false, volume_sat_applies, volume_sat_row,
     &P::exact_reduction_time_share, &P::volume_conflicts},
    {"reduction-sat", Proves::under_model, kOnce, false, exact_reduction_last_applies,
     exact_reduction_row, nullptr, &P::reduction_conflicts},
    // The upper bound every search starts from.
    {"greedy", kNothing, kOnce, false, greedy_applies, greedy_row, nullptr, nullptr},
    // Searches below it.
    {"evolutionary", kNothing, kOnce, false, evolution_applies, evolution_row, nullptr, nullptr},
    {"sat-symmetric", kNothing, kOnce, false, symmetric_applies, symmetric_row, nullptr,
     &P::symmetric_conflicts},
    {"sat-trees", kNothing, kOnce, false, neighbour_trees_apply, neighbour_trees_row, nullptr,
     &P::tree_conflicts},
    {"sat-trees", kNothing, kDescend, false, best_trees_apply, best_trees_row, nullptr,
     &P::tree_conflicts},
    {"sat probe", Proves::within_restriction, kDescend, false, probe_applies, probe_row, nullptr,
     nullptr},
    {"lns", kNothing, kDescend, false, window_applies, window_row, nullptr, &P::window_moves},
    {"sat", Proves::within_restriction, kDescend, false, sat_applies, sat_row, nullptr,
     &P::sat_conflicts},
    // The proof under the model for direct-delivery scatters.
    {"sat-relays", Proves::under_model, kOnce, false, relays_apply, relays_row, nullptr,
     &P::relay_conflicts},
};

}  // namespace

std::span<const Strategy> strategies() { return kStrategies; }

}  // namespace ccsched::driver
