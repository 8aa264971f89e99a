// Seed 000's AAS bounds on the bisection: the old ⌈P²/(2B_C)⌉ (eq. (5)) and the corrected
// ⌈(P²/2 + 2Δ)/B_C⌉ (first term of eq. (6), as §3 states it; eq. (6) itself prints
// P²/(2+2Δ), a typesetting slip). B_C counts the channels crossing a minimum balanced
// processor cut in both directions; Δ is the number of ordered processor pairs on the same
// side whose every allowed route crosses the cut, and so crosses it at least twice.
// Proofs: docs/BOUNDS.md §bisection.
#include <fmt/core.h>

#include "ccsched/topology/invariants.hpp"
#include "context.hpp"
#include "cut_evaluator.hpp"
#include "min_cut.hpp"

namespace ccsched::bounds_detail {

void add_bisection_bounds(const BoundContext& ctx, const BoundOptions& options,
                          std::vector<LowerBound>& out, std::vector<std::vector<char>>& cuts) {
  const auto& t = ctx.topology();
  if (!options.use_invariants || ctx.combining() ||
      ctx.problem().collective.kind != CollectiveKind::AAS || t.processor_count() < 2)
    return;
  InvariantOptions io;
  io.exact_bisection_node_budget = options.bisection_node_budget;
  const Invariants inv = compute_invariants(t, io);
  if (inv.bisection_side.empty()) return;
  std::vector<char> side(ctx.nodes(), 0);
  for (const NodeId p : inv.bisection_side) side[p] = 1;
  place_switches_optimally(t, side);
  long long crossing_channels = 0;
  for (ChannelId c = 0; c < t.channel_count(); ++c) {
    const auto& ch = t.channel(c);
    if (ctx.transfer_channel(c) && side[ch.from] != side[ch.to]) ++crossing_channels;
  }
  if (crossing_channels == 0) return;
  long long a = 0;
  for (const NodeId p : t.processors()) a += side[p];
  const long long b = t.processor_count() - a;
  const long long across = 2 * a * b;  // P²/2 for even P: both directions

  const CutEvaluator both(ctx, true);
  const auto per = both.crossings(side);
  long long delta = 0;
  const auto& demands = ctx.demands();
  for (std::size_t i = 0; i < demands.size(); ++i)
    if (side[demands[i].origin] == side[demands[i].targets.front()] && per[i] > 0)
      delta += demands[i].count;

  const std::string halves = fmt::format(
      "bisection {}|{} processors, B_C = {} channels crossing ({})", a, b, crossing_channels,
      inv.bisection_exact ? "a proven minimum bisection"
                          : "best bisection found, not proven "
                            "minimum");
  out.push_back({"aas-bisection", static_cast<int>(ceil_div(across, crossing_channels)),
                 fmt::format("{}: 2·{}·{} = {} messages cross it: ⌈{}/{}⌉", halves, a, b, across,
                             across, crossing_channels),
                 "seed 000, eq. (5); seed 001 §3; seed 002 §2 (⌈P²/(2B_C)⌉)"});
  out.push_back(
      {"aas-bisection-delta", static_cast<int>(ceil_div(across + 2 * delta, crossing_channels)),
       fmt::format("{}: {} messages cross it once, Δ = {} same-side pairs have every route "
                   "cross it (twice): ⌈({} + 2·{})/{}⌉{}",
                   halves, across, delta, across, delta, crossing_channels, ctx.direct_note()),
       "seed 000 §3 and eq. (6), first term (⌈(P²/2 + 2Δ)/B_C⌉)"});
  cuts.push_back(side);
}

}  // namespace ccsched::bounds_detail
