// The seeds' table layouts of a schedule, as plain text for `ccsched show`:
//
//   - the grid of seed 000 Table 3 (and seed 001 Tables 2 and 4): a row per sending
//     processor, a column per step, the destinations of that processor's transfers in the
//     cells, comma-separated;
//   - the broadcast trees of seed 000 Table 4: per message source, its subtrees (one per
//     child of the source), each written as root-to-leaf paths "0-4-x-x-9" where position
//     i after the source is step i and 'x' marks a step in which the message does not move;
//   - for a reduction (FORMATS.md "Reductions"), the steps: per step one line per block a
//     transfer carries, "3 -> 1  acc{2,3} (block 0) reduce" (who adds what into whom),
//     then the final value of every accumulator the collective names;
//   - a per-step channel utilisation line (channels used / channels available, %).
//
// Nodes are written by label when the topology has labels (Kautz words), else by id.
// The tables describe what the schedule says; they do not judge it (that is verify.hpp),
// so an invalid schedule still prints, with anything that cannot be placed listed apart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

enum class TableLayout {
  automatic,  // steps for reductions, grid for scatter-type collectives, trees for broadcasts
  grid,       // seed 000 Table 3 / seed 001 Table 2
  trees,      // seed 000 Table 4
  steps,      // reductions: per step, who adds what into whom
};

// "auto" | "grid" | "trees" | "steps"; throws InvalidParameter naming the text.
TableLayout parse_table_layout(std::string_view text);

// The layout `automatic` resolves to for this schedule: steps for a reduction, trees when
// some message has more than one target (OAB, AAB, MNB, multi-target CUSTOM), else grid.
// A reduction has no message trees, and a message collective no accumulators: asking for
// trees of the one or steps of the other throws InvalidParameter naming --layout.
TableLayout resolve_layout(const Schedule& s, TableLayout requested);

// The table in the requested layout, lines ending in '\n', columns aligned with spaces.
std::string format_schedule_table(const Schedule& s, TableLayout layout = TableLayout::automatic);

struct StepUtilisation {
  Step step = 0;
  int channels_used = 0;       // distinct channels held by some transfer of this step
  int channels_available = 0;  // channels of the topology (faulty ones are not channels)
  double percent() const {
    return channels_available == 0 ? 0.0 : 100.0 * channels_used / channels_available;
  }
};

// One entry per step 1..s.steps (transfers outside that range are not counted; node ids
// that name no channel are skipped).
std::vector<StepUtilisation> channel_utilisation(const Schedule& s);

// The header of `ccsched show`: network, collective, model, steps, lower bound (with the
// direct-delivery bound when the schedule has one), optimal (with the restriction a proof
// holds within, `optimal_within`, when it has one), solver; one "name: value" line each.
std::string format_schedule_summary(const Schedule& s);

// "step 1: 30/36 channels (83.3 %)" per step, then "total: .../... (.. %)".
std::string format_utilisation(const Schedule& s);

// Scale (docs/RELIABILITY.md "Limits"): a table grows with transfers x steps (an AAS on
// 1,000 processors would print megabytes of grid), so above a limit `show` and
// `solve --table` print the overview below instead, which grows with the steps only.
inline constexpr long long kTableMaxTransfers = 20000;

// Whether the table is printed under `max_transfers` (0: no limit): at most that many
// transfers and at most that many steps (the grid has a column per step).
bool table_within(const Schedule& s, long long max_transfers);

// Per step in use: transfers, channels used / available (%), the busiest sender and
// receiver (transfers one processor starts / ends) and the longest path in hops; past
// 1,024 steps in use, consecutive steps are grouped into at most 1,024 rows (sums
// of transfers, maxima of the rest). Then a total line. Steps outside 1..steps count too.
std::string format_schedule_overview(const Schedule& s);

// The table (format_schedule_table) when table_within(s, max_transfers), else one line
// saying why it is left out and how to get it (`how_to_print`), then the
// overview.
std::string format_table_or_overview(const Schedule& s, TableLayout layout, long long max_transfers,
                                     std::string_view how_to_print);

}  // namespace ccsched
