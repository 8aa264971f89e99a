// One individual of the evolutionary engines: the genes of a candidate schedule in the
// direct (scatter) or indirect (broadcast) encoding of seed 000 §4.2, with its fitness.
// Stored as three parallel arrays so that the univariate marginal model can sample each
// gene component (source, path, step) on its own (seed 000 §4.5).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "instance.hpp"

namespace ccsched::evo {

struct Genome {
  std::vector<std::int32_t> source;  // broadcast: index into the gene's candidates; scatter: 0
  std::vector<std::int32_t> path;    // index into the route of (source, target)
  std::vector<std::int32_t> step;    // 1..T (broadcast: up to max_step after postponement)
  std::int64_t fitness = -1;         // conflicts + step-limit penalty; -1: not evaluated

  void resize(const Instance& inst) {
    source.assign(inst.gene_count(), 0);
    path.assign(inst.gene_count(), 0);
    step.assign(inst.gene_count(), 1);
  }

  // Flattened for migration: (path, step) per gene for scatter, (source, path, step) for
  // broadcast.
  std::vector<std::int32_t> flatten(const Instance& inst) const {
    std::vector<std::int32_t> out;
    out.reserve(inst.flat_size());
    for (std::size_t g = 0; g < path.size(); ++g) {
      if (inst.broadcast()) out.push_back(source[g]);
      out.push_back(path[g]);
      out.push_back(step[g]);
    }
    return out;
  }
  // The inverse of flatten; values are clamped into range so that a damaged migrant can
  // never index outside the tables.
  void unflatten(const Instance& inst, std::span<const std::int32_t> flat) {
    resize(inst);
    const std::size_t width = inst.broadcast() ? 3 : 2;
    for (std::size_t g = 0; g < path.size() && (g + 1) * width <= flat.size(); ++g) {
      const std::int32_t* f = flat.data() + g * width;
      const int candidates = inst.candidate_count(g);
      source[g] = inst.broadcast() ? std::clamp(f[0], 0, candidates - 1) : 0;
      const int paths = inst.route(g, source[g]).count;
      path[g] = std::clamp(f[width - 2], 0, paths - 1);
      step[g] = std::clamp(f[width - 1], 1, inst.max_step());
    }
    fitness = -1;
  }
};

// Where gene g's transfer goes: its step, sender, receiver and global path id.
struct Placement {
  int step = 1;
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  std::int32_t path = 0;
};

inline Placement placement(const Instance& inst, const Genome& genome, std::size_t g) {
  const int c = genome.source[g];
  return {genome.step[g], inst.candidate(g, c), inst.gene(g).target,
          inst.route(g, c).first + genome.path[g]};
}

}  // namespace ccsched::evo
