// Prefix networks for SCAN (docs/ENGINES.md, "Reductions: prefix networks"). Hillis-Steele
// (Kogge-Stone) sends from every position in every round, a shift by 2^j that puts up to
// 2^j paths on a channel of a grid. The Brent-Kung network (Brent and Kung, "A Regular
// Layout for Parallel Adders", IEEE Trans. Computers 1982) sends from p/2^(j+1) positions in
// round j, over disjoint intervals of the sender order: on a torus or mesh in row-major
// order its rounds are straight, disjoint segments (within a row, or within a column once
// the stride is a multiple of the row), so each round fits one step under one port. Its
// radix-r form (the up-sweep adds r - 1 block sums per round, the down-sweep hands each
// block its prefix from r - 1 senders at once) trades ports for rounds:
//   up-sweep, level j (blocks of r^j positions, groups of r blocks): the last position of
//     each group adds the sums held by the last positions of the group's other blocks;
//   down-sweep, level j from the top down: the last position of block m < r - 1 of a group
//     adds the full prefix held by the position just before the group (when there is one)
//     and the sums of blocks 0..m-1 of the group, held by their last positions since the
//     up-sweep. All these values are disjoint intervals of the sender order, so R2 holds,
//     and every position ends holding its prefix.
// ceil(log_r p) up-sweep rounds and one fewer down-sweep rounds; a position receives at most
// r - 1 values and sends at most r - 1 per round (radix 2: one and one).
#include <algorithm>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

std::optional<Schedule> brent_kung(const Problem& p, const PathSet& paths, int radix) {
  const Collective& c = p.collective;
  const int n = static_cast<int>(c.senders.size());
  const std::vector<int> blocks = all_blocks(c);
  auto at = [&](int i) { return c.senders[i]; };
  std::vector<Round> rounds;
  // A hop per block, or one with every block under combining; each hop its own group. A
  // down-sweep position may both send (its block's sum, to later blocks) and receive in
  // one round: the round is ordered, its hops listed by receiver from the last position
  // down, so that every send out of a position is placed no later than its receives.
  for (const auto& pairs : brent_kung_by_receiver(n, {radix})) {
    Round round;
    round.ordered = true;
    for (const auto& [from, to] : pairs) {
      std::vector<Hop> g;
      add_hops(g, p, at(from), at(to), blocks, ReductionSend::acc, ReductionRecv::reduce);
      for (auto& h : g) round.groups.push_back({h});
    }
    if (!round.groups.empty()) rounds.push_back(std::move(round));
  }
  auto transfers = pack_rounds(p, paths, rounds);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "", 0);
}

}  // namespace

void add_prefix_designs(const Problem& p, const PathSet& paths,
                        std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::SCAN || c.senders.size() < 2) return;
  const int most = std::min(effective_ports(p) + 1, 8);
  for (int radix = 2; radix <= most; ++radix) {
    if (t_budget != nullptr && t_budget->expired()) return;
    if (auto s = brent_kung(p, paths, radix))
      out.push_back({radix == 2 ? std::string("brent-kung")
                                : "brent-kung (radix " + std::to_string(radix) + ")",
                     std::move(*s)});
  }
}

}  // namespace ccsched::reduce_detail
