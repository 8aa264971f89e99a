// Broadcast-tree restoration (seed 000 §4.4, seed 001 §4.4). The indirect encoding can
// say "node v receives from u in step s" while u itself is informed only later; the
// restoration walks the steps in order and, for every target whose sender is not yet
// informed, draws a new sender among the informed ones and a new path between them.
//
// With the receiver radius (seed 000 §4.4) the candidates are only holders within r hops
// (Instance), so it "can happen that there is no node that can inform a selected node in
// a given communication step"; the transfer is then postponed to the next step, possibly
// past T, where the step-limit penalty counts it.
//
// Ports. When a first individual is constructed (`hard_ports`), a transfer is also
// postponed when every informed candidate has used its k injection ports in that step,
// or the target its k reception ports: the broadcast counterpart of the scatter
// acceleration heuristic, which turns the step-0 building blocks into port-respecting
// waves. Afterwards (new chromosomes, repairs after a move) ports are soft: a sender with
// a free port is preferred, a full port is counted by the fitness, and only a missing
// informed sender postpones — otherwise a nearly full schedule would cascade into
// postponements for every small change.
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
  bool hard_ports;
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
    if (hard_ports && !last && !ws.occ.receive_free(s, v)) return false;
    int chosen = -1;
    std::int32_t path = genome.path[g];
    const int c0 = genome.source[g];
    if (informed_before(g, c0, s) && (!hard_ports || ws.occ.send_free(s, inst.candidate(g, c0)))) {
      chosen = c0;
    } else {
      // A new informed sender and a path from it (seed 000 §4.4); a free port first.
      std::int64_t best = INT64_MAX;
      int ties = 0;
      bool free_seen = false;
      for (int c = 0; c < inst.candidate_count(g); ++c) {
        if (!informed_before(g, c, s)) continue;
        const bool free = ws.occ.send_free(s, inst.candidate(g, c));
        if (hard_ports && !free) continue;
        const Route& route = inst.route(g, c);
        if (!directed) {
          // Uniform among the free senders, or among all informed if none is free.
          if (free && !free_seen) {
            free_seen = true;
            ties = 0;
          }
          if (free == free_seen && rng.below(++ties) == 0) {
            chosen = c;
            path = rng.below(route.count);
          }
          continue;
        }
        for (std::int32_t p = 0; p < route.count; ++p) {
          const std::int64_t cost = ws.occ.cost({s, inst.candidate(g, c), v, route.first + p});
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
                 bool hard_ports, Workspace& ws) {
  const int begin = inst.row_begin(row), end = inst.row_begin(row + 1);
  const auto n = static_cast<std::size_t>(end - begin);
  ws.informed.assign(n, INT_MAX);
  auto& order = ws.order;
  order.clear();
  for (int g = begin; g < end; ++g) order.push_back(g);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return genome.step[a] != genome.step[b] ? genome.step[a] < genome.step[b] : a < b;
  });
  RowRestorer restorer{inst, genome, ws, rng, directed, hard_ports, begin};
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
