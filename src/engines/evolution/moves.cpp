// Moves: the mutation operator of UMDA (seed 000 §4.5, "testing and changing possible
// source-destination paths") and the Metropolis moves of HGSA (seed 002 §5). Each move
// takes a gene in conflict and changes one thing about its transfer:
//   scatter    its path, or its time slot — swapped with another message of the same
//              sender (the time-slot swap that replaces mutation, seed 000 §4.4), or moved
//              to a step where the sender still has a free injection port;
//   broadcast  its sender and path within the same step (the tree stays valid), its step,
//              or its step swapped with another transfer from the same sender; after a
//              step change the messages' trees are restored (seed 000 §4.4).
// A directed move tests every alternative and keeps the one with the fewest conflicts
// (ties at random); an undirected one picks uniformly. Every change goes through the
// occupancy, so a move costs the paths it touches, not a recount (incremental
// evaluation), and is journaled so that Metropolis can undo it.
#include <cstdint>

#include "operators.hpp"

namespace ccsched::evo {
namespace {

struct Mover {
  const Instance& inst;
  Genome& genome;
  Workspace& ws;
  Rng& rng;
  const Heuristics& h;
  bool directed;

  Placement at(int g) const { return placement(inst, genome, static_cast<std::size_t>(g)); }

  // Journaled change of one gene, keeping the occupancy in step.
  void set_gene(int g, std::int32_t source, std::int32_t path, std::int32_t step) {
    const auto i = static_cast<std::size_t>(g);
    ws.journal.push_back({g, genome.source[i], genome.path[i], genome.step[i]});
    ws.occ.remove(at(g));
    genome.source[i] = source;
    genome.path[i] = path;
    genome.step[i] = step;
    ws.occ.add(at(g));
  }
  // Unjournaled change, for trying an alternative and taking it back.
  void try_gene(int g, std::int32_t path, std::int32_t step) {
    ws.occ.remove(at(g));
    genome.path[static_cast<std::size_t>(g)] = path;
    genome.step[static_cast<std::size_t>(g)] = step;
    ws.occ.add(at(g));
  }

  // Reservoir choice among equally good options: true when option number `ties` wins.
  bool keep_tie(int& ties) { return rng.below(++ties) == 0; }

  bool scatter_path(int g) {
    const auto i = static_cast<std::size_t>(g);
    const Route& route = inst.route(i, 0);
    if (route.count < 2) return false;
    const std::int32_t current = genome.path[i];
    std::int32_t chosen = -1;
    if (directed) {
      ws.occ.remove(at(g));
      std::int64_t best = INT64_MAX;
      int ties = 0;
      for (std::int32_t p = 0; p < route.count; ++p) {
        if (p == current) continue;
        const std::int64_t cost = ws.occ.cost(
            {genome.step[i], inst.candidate(i, 0), inst.gene(i).target, route.first + p});
        if (cost < best) {
          best = cost;
          ties = 1;
          chosen = p;
        } else if (cost == best && keep_tie(ties)) {
          chosen = p;
        }
      }
      ws.occ.add(at(g));
    } else {
      chosen = rng.below(route.count - 1);
      if (chosen >= current) ++chosen;
    }
    set_gene(g, 0, chosen, genome.step[i]);
    return true;
  }

  // The time-slot swap (seed 000 §4.4) with a partner of the same row, or a shift to a
  // step where the sender has a free injection port.
  bool scatter_time(int g) {
    const auto i = static_cast<std::size_t>(g);
    const GeneSpec& spec = inst.gene(i);
    const int begin = inst.row_begin(spec.row), end = inst.row_begin(spec.row + 1);
    const int s = genome.step[i];
    const NodeId sender = inst.candidate(i, 0);
    // Options: partner gene (>= 0) or -step (a shift).
    int chosen = 0;
    std::int64_t best = INT64_MAX;
    int ties = 0;
    auto consider = [&](int option, std::int64_t value) {
      if (value < best) {
        best = value;
        ties = 1;
        chosen = option;
      } else if (value == best && keep_tie(ties)) {
        chosen = option;
      }
    };
    for (int other = begin; other < end; ++other) {
      const int t = genome.step[static_cast<std::size_t>(other)];
      if (other == g || t == s) continue;
      if (!directed) {
        consider(other, 0);
        continue;
      }
      const std::int32_t po = genome.path[static_cast<std::size_t>(other)];
      try_gene(g, genome.path[i], t);
      try_gene(other, po, s);
      consider(other, ws.occ.conflicts());
      try_gene(other, po, t);
      try_gene(g, genome.path[i], s);
    }
    for (int t = 1; t <= inst.steps(); ++t) {
      if (t == s || ws.occ.sends(t, sender) >= inst.ports()) continue;
      if (!directed) {
        consider(-t, 0);
        continue;
      }
      try_gene(g, genome.path[i], t);
      consider(-t, ws.occ.conflicts());
      try_gene(g, genome.path[i], s);
    }
    if (ties == 0) return false;
    if (chosen < 0) {
      set_gene(g, 0, genome.path[i], -chosen);
    } else {
      const int t = genome.step[static_cast<std::size_t>(chosen)];
      set_gene(g, 0, genome.path[i], t);
      set_gene(chosen, 0, genome.path[static_cast<std::size_t>(chosen)], s);
    }
    return true;
  }

  int informed_step(std::size_t g, int c) const {
    const int cg = inst.candidate_gene(g, c);
    return cg < 0 ? 0 : genome.step[static_cast<std::size_t>(cg)];
  }

  // A new sender and path for a broadcast transfer in its own step: the tree stays valid
  // because the target is still informed in the same step.
  bool broadcast_source(int g) {
    const auto i = static_cast<std::size_t>(g);
    const int s = genome.step[i];
    const NodeId v = inst.gene(i).target;
    ws.occ.remove(at(g));
    int chosen = -1;
    std::int32_t path = 0;
    std::int64_t best = INT64_MAX;
    int ties = 0;
    for (int c = 0; c < inst.candidate_count(i); ++c) {
      if (informed_step(i, c) >= s) continue;
      const Route& route = inst.route(i, c);
      for (std::int32_t p = 0; p < route.count; ++p) {
        if (c == genome.source[i] && p == genome.path[i]) continue;
        const std::int64_t cost =
            directed ? ws.occ.cost({s, inst.candidate(i, c), v, route.first + p}) : 0;
        if (cost < best) {
          best = cost;
          ties = 1;
          chosen = c;
          path = p;
        } else if (cost == best && keep_tie(ties)) {
          chosen = c;
          path = p;
        }
      }
    }
    ws.occ.add(at(g));
    if (chosen < 0) return false;
    set_gene(g, chosen, path, s);
    return true;
  }

  // Journals rows a and b (possibly the same), takes their transfers out, applies
  // `change`, and restores the rows' trees (soft ports, see restoration.cpp).
  template <class Change>
  void rebuild_rows(int a, int b, Change change) {
    auto take_out = [&](int row) {
      for (int r = inst.row_begin(row); r < inst.row_begin(row + 1); ++r) {
        const auto ri = static_cast<std::size_t>(r);
        ws.journal.push_back({r, genome.source[ri], genome.path[ri], genome.step[ri]});
        ws.occ.remove(at(r));
      }
    };
    take_out(a);
    if (b != a) take_out(b);
    change();
    restore_row(inst, genome, a, rng, h.directed, false, ws);
    if (b != a) restore_row(inst, genome, b, rng, h.directed, false, ws);
  }

  // A new step for a broadcast transfer, then restoration of its message's tree. A
  // directed move takes the step where the transfer (from its best informed sender)
  // meets the fewest conflicts.
  bool broadcast_step(int g) {
    const auto i = static_cast<std::size_t>(g);
    const int s = genome.step[i];
    const int T = inst.steps();
    const NodeId v = inst.gene(i).target;
    int chosen_step = -1, chosen_source = genome.source[i];
    std::int32_t chosen_path = genome.path[i];
    if (directed) {
      ws.occ.remove(at(g));
      std::int64_t best = INT64_MAX;
      int ties = 0;
      for (int t = 1; t <= T; ++t) {
        if (t == s) continue;
        for (int c = 0; c < inst.candidate_count(i); ++c) {
          if (informed_step(i, c) >= t) continue;
          const Route& route = inst.route(i, c);
          for (std::int32_t p = 0; p < route.count; ++p) {
            const std::int64_t cost = ws.occ.cost({t, inst.candidate(i, c), v, route.first + p});
            if (cost < best) {
              best = cost;
              ties = 1;
              chosen_step = t;
              chosen_source = c;
              chosen_path = p;
            } else if (cost == best && keep_tie(ties)) {
              chosen_step = t;
              chosen_source = c;
              chosen_path = p;
            }
          }
        }
      }
      ws.occ.add(at(g));
    } else if (T > 1 || s > T) {
      chosen_step = 1 + rng.below(T);
      if (chosen_step == s) chosen_step = chosen_step % T + 1;
    }
    if (chosen_step < 0) return false;
    const int row = inst.gene(i).row;
    rebuild_rows(row, row, [&] {
      genome.source[i] = chosen_source;
      genome.path[i] = chosen_path;
      genome.step[i] = chosen_step;
    });
    return true;
  }

  // The time-slot swap for broadcast: two transfers from the same sender, or (ours) to
  // the same receiver, exchange steps (that node's injections or receptions per step stay
  // as they were, as in the scatter swap of seed 000 §4.4), then the trees of both
  // messages are restored. The receiver side matters where reception ports are the
  // bottleneck (k-port all-to-all broadcast: every receiver busy in every step).
  bool broadcast_swap(int g) {
    const auto i = static_cast<std::size_t>(g);
    const NodeId sender = inst.candidate(i, genome.source[i]);
    const NodeId receiver = inst.gene(i).target;
    const int s = genome.step[i];
    int chosen = -1;
    std::int64_t best = INT64_MAX;
    int ties = 0;
    for (std::size_t o = 0; o < inst.gene_count(); ++o) {
      const int t = genome.step[o];
      if (o == i || t == s || t > inst.steps() ||
          (inst.candidate(o, genome.source[o]) != sender && inst.gene(o).target != receiver))
        continue;
      const int other = static_cast<int>(o);
      std::int64_t value = 0;
      if (directed) {
        // The two transfers' conflicts after the exchange, tree repairs aside.
        const std::int32_t pg = genome.path[i], po = genome.path[o];
        try_gene(g, pg, t);
        try_gene(other, po, s);
        value = ws.occ.conflicts();
        try_gene(other, po, t);
        try_gene(g, pg, s);
      }
      if (value < best) {
        best = value;
        ties = 1;
        chosen = other;
      } else if (value == best && keep_tie(ties)) {
        chosen = other;
      }
    }
    if (chosen < 0) return false;
    const auto o = static_cast<std::size_t>(chosen);
    rebuild_rows(inst.gene(i).row, inst.gene(o).row,
                 [&] { std::swap(genome.step[i], genome.step[o]); });
    return true;
  }
};

}  // namespace

int ConflictSampler::pick(const Instance& inst, const Genome& genome, const Occupancy& occ,
                          Rng& rng) {
  while (!list_.empty()) {
    const auto k = static_cast<std::size_t>(rng.below(static_cast<int>(list_.size())));
    const int g = list_[k];
    if (occ.conflicted(placement(inst, genome, static_cast<std::size_t>(g)))) return g;
    list_[k] = list_.back();
    list_.pop_back();
  }
  for (std::size_t g = 0; g < inst.gene_count(); ++g)
    if (occ.conflicted(placement(inst, genome, g))) list_.push_back(static_cast<int>(g));
  if (list_.empty()) return -1;
  return list_[static_cast<std::size_t>(rng.below(static_cast<int>(list_.size())))];
}

bool move(const Instance& inst, Genome& genome, Workspace& ws, Rng& rng, const Heuristics& h,
          bool directed) {
  int g = ws.conflicts.pick(inst, genome, ws.occ, rng);
  if (g < 0) g = rng.below(static_cast<int>(inst.gene_count()));
  Mover mover{inst, genome, ws, rng, h, directed};
  bool moved = false;
  if (inst.broadcast()) {
    const bool overdue = genome.step[static_cast<std::size_t>(g)] > inst.steps();
    if (overdue) {
      moved = mover.broadcast_step(g);
    } else if (rng.chance(h.step_move)) {
      moved = rng.chance(0.5) ? mover.broadcast_swap(g) : mover.broadcast_step(g);
      if (!moved) moved = mover.broadcast_step(g);
    }
    if (!moved) moved = mover.broadcast_source(g);
    if (!moved && !overdue) moved = mover.broadcast_step(g);
  } else {
    const bool path_first = rng.chance(h.path_move);
    moved = path_first ? mover.scatter_path(g) : mover.scatter_time(g);
    if (!moved) moved = path_first ? mover.scatter_time(g) : mover.scatter_path(g);
  }
  // The moved gene may still be in conflict: remember it for the next pick.
  if (moved) ws.conflicts.remember(g);
  return moved;
}

void undo(const Instance& inst, Genome& genome, Workspace& ws) {
  for (auto it = ws.journal.rbegin(); it != ws.journal.rend(); ++it) {
    const auto i = static_cast<std::size_t>(it->gene);
    ws.occ.remove(placement(inst, genome, i));
    genome.source[i] = it->source;
    genome.path[i] = it->path;
    genome.step[i] = it->step;
    ws.occ.add(placement(inst, genome, i));
  }
  ws.journal.clear();
}

}  // namespace ccsched::evo
