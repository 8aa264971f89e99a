// Step pictures of a schedule as SVG: one panel per step, drawn on one Graphviz layout of
// the network (layout.hpp), the way the seeds draw theirs (seed 000 Figs. 2 and 4, seed
// 001 Figs. 9 and 10):
//   - every transfer of the step is a coloured path with an arrow at its receiver, one
//     colour per transfer; both directions of a full-duplex link run side by side, so
//     two transfers on a link's two channels stay apart;
//   - channels no transfer of the step holds are grey (one-way channels carry a small grey
//     arrow);
//   - processors are circles, switches squares, labelled with the node's label (Kautz
//     words, "s1.2") or its id;
//   - a title with the step, its transfers and its channel utilisation, and a legend
//     listing the transfers ("01→10→02", processors only; "m4" when the transfer does
//     not carry its sender's own message to one of its targets, as in tables.hpp).
// A reduction (FORMATS.md "Reductions") is drawn with its partial sums, replayed as the
// format says (values as at the start of the step, receives landing at its end): each
// arrow labelled with its block and the inputs its value sums ("b0 {0..3}"), copies
// dashed, and beside every processor how many inputs its accumulator holds after the step
// ("3/8", one count per block up to 4 blocks, docs/RENDER.md).
//
//   std::string svg = render_steps_svg(schedule);            // every step, one document
//
// The pictures draw what the schedule says; they do not judge it (verify first).
#pragma once

#include <string>

#include "ccsched/core/ids.hpp"
#include "ccsched/render/layout.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct RenderOptions {
  LayoutEngine layout = LayoutEngine::automatic;
  int columns = 0;     // panels per row of the SVG document; 0 = chosen by the width
  bool legend = true;  // list the transfers under each panel
};

// One step's panel as a standalone <svg> element (no XML declaration), for embedding in
// HTML. `step` in 1..s.steps.
std::string render_step_panel(const Schedule& s, const NetworkLayout& layout, Step step,
                              const RenderOptions& options = {});

// Every step's panel in one SVG document, in rows of `columns`, under a title naming the
// network and the collective.
std::string render_steps_svg(const Schedule& s, const RenderOptions& options = {});

// The colour of the i-th transfer of a step ("#1f77b4", ...): ten well separated colours,
// then hues spaced by the golden angle. Never grey (grey means idle).
std::string transfer_colour(int index);

}  // namespace ccsched
