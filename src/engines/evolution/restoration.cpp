// Broadcast-tree restoration (seed 000 §4.4, seed 001 §4.4). The indirect encoding can
// say "node v receives from u in step s" while u itself is informed only later; the
// restoration walks the steps in order and, for every target whose sender is not yet
// informed, draws a new sender among the informed ones and a new path between them.
//
// With the receiver radius (seed 000 §4.4) the candidates are only holders within r hops
// (Instance), so it "can happen that there is no node that can inform a selected node in
// a given communication step"; the transfer is then postponed to the next step, possibly
// past T, where the step-limit penalty counts it. We apply the same postponement when
// every informed candidate has used its k injection ports in that step, or the target
// its k reception ports: the broadcast counterpart of the scatter acceleration heuristic,
// so restored trees always respect the k-port model.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "operators.hpp"

namespace ccsched::evo {
namespace {

struct RowRestorer {
  const Instance& inst;
  Genome& genome;
  Workspace& ws;
  Rng& rng;
  bool directed;
  int begin;

  bool informed_before(std::size_t g, int c, int s) const {
    const int cg = inst.candidate_gene(g, c);
    return cg < 0 || ws.informed[static_cast<std::size_t>(cg - begin)] < s;
  }

  // Decides gene g in step s; false when it must wait for a later step.
  bool place(int gi, int s) {
    const auto g = static_cast<std::size_t>(gi);
    const NodeId v = inst.gene(g).target;
    const bool last = s >= inst.max_step();
    if (!last && !ws.occ.receive_free(s, v)) return false;
    int chosen = -1;
    std::int32_t path = genome.path[g];
    const int c0 = genome.source[g];
    if (informed_before(g, c0, s) && ws.occ.send_free(s, inst.candidate(g, c0))) {
      chosen = c0;
    } else {
      // A new informed sender with a free port, and a path from it (seed 000 §4.4).
      std::int64_t best = INT64_MAX;
      int ties = 0;
      for (int c = 0; c < inst.candidate_count(g); ++c) {
        if (!informed_before(g, c, s) || !ws.occ.send_free(s, inst.candidate(g, c))) continue;
        const Route& route = inst.route(g, c);
        if (!directed) {
          if (rng.below(++ties) == 0) {
            chosen = c;
            path = rng.below(route.count);
          }
          continue;
        }
        for (std::int32_t p = 0; p < route.count; ++p) {
          const std::int64_t cost =
              ws.occ.cost({s, inst.candidate(g, c), v, route.first + p});
          if (cost < best) {
            best = cost;
            ties = 1;
            chosen = c;
            path = p;
          } else if (cost == best && rng.below(++ties) == 0) {
            chosen = c;
            path = p;
          }
        }
      }
      if (chosen < 0) {
        if (!last) return false;
        // Unreachable by construction (Instance keeps every target reachable); keeping
        // the old sender past T still costs the penalty, so it is never taken as valid.
        chosen = c0;
      }
    }
    genome.source[g] = chosen;
    genome.path[g] = path;
    genome.step[g] = s;
    ws.informed[static_cast<std::size_t>(gi - begin)] = s;
    ws.occ.add(placement(inst, genome, g));
    return true;
  }
};

}  // namespace

void restore_row(const Instance& inst, Genome& genome, int row, Rng& rng, bool directed,
                 Workspace& ws) {
  const int begin = inst.row_begin(row), end = inst.row_begin(row + 1);
  const auto n = static_cast<std::size_t>(end - begin);
  ws.informed.assign(n, INT_MAX);
  auto& order = ws.order;
  order.clear();
  for (int g = begin; g < end; ++g) order.push_back(g);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return genome.step[a] != genome.step[b] ? genome.step[a] < genome.step[b] : a < b;
  });
  RowRestorer restorer{inst, genome, ws, rng, directed, begin};
  auto& current = ws.current;
  auto& carry = ws.carry;
  carry.clear();
  std::size_t pos = 0;
  for (int s = 1; pos < n || !carry.empty(); ++s) {
    current.swap(carry);  // the postponed go first: they were due earlier
    carry.clear();
    while (pos < n && genome.step[order[pos]] <= s) current.push_back(order[pos++]);
    for (const int g : current)
      if (!restorer.place(g, std::min(s, inst.max_step()))) carry.push_back(g);
  }
}

}  // namespace ccsched::evo
