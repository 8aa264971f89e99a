// How the driver runs its rows (driver.cpp): one row under its budget, the parallel rows as
// one batch on the cores, the descending rows as one descent.
#pragma once

#include "strategy.hpp"

namespace ccsched::driver {

// The row's budget: the run's cap, the row's safety share of the time left, its work.
Budget row_budget(const Search& s, const Strategy& row);
// Hands what a row found to Claims, and notes a cut by the clock.
void absorb(Claims& claims, Attempt a, const Budget& used);
// Progress (when asked for): the row that starts, its target steps (0: none) and the best
// so far. A row with a search of its own goes on to report its steps and conflicts.
void announce(const Search& s, const Strategy& row, int target = 0);
// The parallel rows that apply, at once on DriverParams::threads, each thread with its own
// path cache; merged in table order. Exceptions are rethrown in table order.
void run_parallel(Search& s, Claims& claims, std::span<const Strategy> rows);

// After the walk: when the clock cut every row before one answered, greedy runs once
// more past the limit, for DriverParams::last_resort_share of it, for a first answer.
void last_resort(Search& s, Claims& claims, double limit);
// The descending rows: at each target below the best, in order, until one decides it; a
// target no row decides ends the descent.
void descend(Search& s, Claims& claims, std::span<const Strategy> rows);

}  // namespace ccsched::driver
