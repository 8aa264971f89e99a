// The HGSA engine (seed 002 §5): "sequential SA processes running in parallel. After 100
// or so iterations of Metropolis algorithm, each process sends its solution to a master.
// The master uses the genetic crossover to produce new solutions: two children solutions
// are generated from two parents by means of a genetic crossover. Then the mutation is
// performed (always in case of the parent solution, otherwise only with a predefined
// probability). Based on the roulette wheel, master selects randomly one solution from
// the new generation for itself and other solutions that it sends to slaves (one per
// slave)."
//
// Our reading, where the seed leaves room (docs/EVOLUTIONARY.md):
// - the parents are the master's solution and every worker's; they are paired at random;
//   a pair is crossed (two-point, over the gene vector, whose rows are the OAS/OAB
//   chromosomes) with probability `crossover`; a pair that is not crossed yields copies
//   of the parents, which are always mutated; crossed children are mutated with
//   probability `mutation`;
// - the "new generation" is parents and children together; the roulette wheel (weight
//   1 / (1 + f − f_best)) draws without replacement one solution for the master and one
//   per worker, so a good parent can survive;
// - epochs are synchronous: every worker finishes its `epoch` iterations, then the
//   master acts. Workers draw from their own random streams, so a fixed seed and worker
//   count give the same schedule whatever the threads do.
#include "ccsched/engines/hgsa.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>

#include "control.hpp"
#include "operators.hpp"
#include "parallel.hpp"
#include "ccsched/engines/island.hpp"

namespace ccsched {
namespace {

using P = HgsaParams;
constexpr double kMaxCount = 2e9;

const std::array<ParamSpec<P>, 18> kTable{{
    {"workers", &P::workers, 0, 4096,
     "simulated-annealing workers (seed 002 §5 'slaves'); 0: one per thread"},
    {"threads", &P::threads, 1, 256, "threads running the workers"},
    {"epoch", &P::epoch, 1, 1e9,
     "Metropolis iterations between reports to the master (seed 002 §5: '100 or so')"},
    {"crossover", &P::crossover, 0, 1, "probability that a pair of solutions is crossed (ours)"},
    {"mutation", &P::mutation, 0, 1,
     "probability that a crossed child is mutated; uncrossed copies always are (seed 002 §5)"},
    {"mutation-moves", &P::mutation_moves, 1, 1e6, "random moves per mutation (ours)"},
    {"temperature", &P::temperature, 0, 1e6, "initial temperature, in conflicts (ours)"},
    {"cooling", &P::cooling, 0, 1, "temperature factor per epoch (ours)"},
    {"min-temperature", &P::min_temperature, 0, 1e6, "the temperature's floor (ours)"},
    {"restart", &P::restart, 0, kMaxCount,
     "start over from fresh solutions after max(this, the epochs the attempt took to reach "
     "its best) epochs without improvement (ours); 0: never"},
    {"directed", &P::directed, 0, 1,
     "share of Metropolis proposals that are the least-conflict alternative of a "
     "conflicting gene (min-conflicts); the others are uniformly random (ours)"},
    {"path-move", &P::path_move, 0, 1,
     "scatter: share of moves that change a path rather than a time slot (ours)"},
    {"step-move", &P::step_move, 0, 1,
     "broadcast: share of moves that change a step rather than a sender (ours)"},
    {"acceleration", &P::acceleration, 0, 1,
     "scatter: enforce the k-port injection limit before evaluation (seed 000 §4.4)"},
    {"step0", &P::step0, 0, 1,
     "broadcast: share of first solutions whose genes all start at step 1 (seed 000 §4.4)"},
    {"auto-radius", &P::auto_radius, 0, 1,
     "AAB on a regular direct network: receivers within radius 1 unless --radius (seed 000 "
     "§4.4: r = 1 for symmetric networks)"},
    {"generations", &P::generations, 0, kMaxCount,
     "give up a step count after this many epochs; 0: no limit"},
    {"stall", &P::stall, 0, kMaxCount,
     "give up a step count after this many epochs without improvement; 0: never"},
}};

struct Worker {
  explicit Worker(const evo::Instance& inst) : ws(inst) {}
  evo::Genome genome;
  evo::Workspace ws;
  double temperature = 1.0;
};

// Two-point crossover over the gene vector: the children swap the genes in [a, b).
void crossover(const evo::Genome& x, const evo::Genome& y, evo::Genome& c1, evo::Genome& c2,
               evo::Rng& rng) {
  const int n = static_cast<int>(x.step.size());
  int a = rng.below(n + 1), b = rng.below(n + 1);
  if (a > b) std::swap(a, b);
  c1 = x;
  c2 = y;
  for (int g = a; g < b; ++g) {
    const auto i = static_cast<std::size_t>(g);
    std::swap(c1.source[i], c2.source[i]);
    std::swap(c1.path[i], c2.path[i]);
    std::swap(c1.step[i], c2.step[i]);
  }
}

}  // namespace

std::span<const ParamSpec<HgsaParams>> hgsa_param_table() { return kTable; }

HgsaEngine::HgsaEngine(EngineOptions options, HgsaParams params)
    : options_(std::move(options)), params_(params) {
  apply_params(params_, hgsa_param_table(), options_.params, "hgsa");
}

EngineResult HgsaEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                               const Budget& budget) {
  const auto built = evo::open_instance("hgsa", "the HGSA engine", problem, paths, steps,
                                        params_.auto_radius, budget, options_);
  if (!built) return evo::result_build_stopped("hgsa", budget);
  const evo::Instance& inst = *built;
  // Restoration keeps its least-conflict choice of a new sender; the proposals of the
  // Metropolis moves follow `directed`.
  const evo::Heuristics h{params_.acceleration, true, params_.path_move, params_.step_move};
  evo::RunControl control("hgsa", steps, budget, options_, params_.generations, params_.stall);
  const std::uint64_t seed = control.seed();
  const int w_count = params_.workers > 0 ? params_.workers : params_.threads;
  evo::ThreadPool pool(std::min(params_.threads, w_count));

  std::vector<Worker> workers;
  for (int i = 0; i < w_count; ++i) workers.emplace_back(inst);
  std::vector<evo::Rng> streams;
  for (int i = 0; i < w_count; ++i)
    streams.emplace_back(seed,
                         std::initializer_list<std::uint64_t>{1, static_cast<std::uint64_t>(i)});
  evo::Rng master_rng(seed, {2});
  Worker master(inst);
  const int step0 =
      inst.broadcast() ? static_cast<int>(std::lround(params_.step0 * (w_count + 1))) : 0;
  evo::BudgetCut out_of_budget(budget, options_);
  auto start_solutions = [&]() {
    pool.run(w_count, [&](int i, int) {
      if (out_of_budget()) return;
      auto& w = workers[static_cast<std::size_t>(i)];
      auto& rng = streams[static_cast<std::size_t>(i)];
      evo::randomize(inst, w.genome, rng, i < step0);
      evo::evaluate(inst, w.genome, w.ws, rng, h, true);
      w.temperature = params_.temperature;
    });
    if (out_of_budget()) return;
    evo::randomize(inst, master.genome, master_rng, w_count < step0);
    evo::evaluate(inst, master.genome, master.ws, master_rng, h, true);
  };
  start_solutions();
  if (out_of_budget.cut()) return control.result_unknown(true);

  // The master's genetic step (seed 002 §5), see the file comment.
  auto master_step = [&]() {
    std::vector<evo::Genome> generation;
    generation.push_back(master.genome);
    for (const auto& w : workers) generation.push_back(w.genome);
    const std::size_t parents = generation.size();
    std::vector<std::size_t> order(parents);
    for (std::size_t i = 0; i < parents; ++i) order[i] = i;
    for (std::size_t i = parents; i > 1; --i)
      std::swap(order[i - 1],
                order[static_cast<std::size_t>(master_rng.below(static_cast<int>(i)))]);
    auto mutate = [&](evo::Genome& child, bool always) {
      evo::evaluate(inst, child, master.ws, master_rng, h);
      if (child.fitness == 0 || !(always || master_rng.chance(params_.mutation))) return;
      for (int m = 0; m < params_.mutation_moves && master.ws.occ.conflicts() > 0; ++m)
        evo::move(inst, child, master.ws, master_rng, h, false);
      evo::commit(master.ws);
      child.fitness = master.ws.occ.conflicts();
    };
    for (std::size_t k = 0; k < parents; k += 2) {
      evo::Genome c1, c2;
      if (k + 1 < parents && master_rng.chance(params_.crossover)) {
        crossover(generation[order[k]], generation[order[k + 1]], c1, c2, master_rng);
        mutate(c1, false);
        mutate(c2, false);
        generation.push_back(std::move(c1));
        generation.push_back(std::move(c2));
      } else {
        for (std::size_t j = k; j < std::min(k + 2, parents); ++j) {
          c1 = generation[order[j]];
          mutate(c1, true);
          generation.push_back(std::move(c1));
        }
      }
    }
    // Roulette wheel without replacement: the master's solution first, then one per worker.
    std::int64_t best = generation.front().fitness;
    for (const auto& g : generation) best = std::min(best, g.fitness);
    std::vector<double> weight;
    for (const auto& g : generation)
      weight.push_back(1.0 / (1.0 + static_cast<double>(g.fitness - best)));
    auto draw = [&]() {
      double total = 0;
      for (const double x : weight) total += x;
      double r = master_rng.uniform() * total;
      std::size_t pick = 0;
      for (; pick + 1 < weight.size(); ++pick) {
        if (r < weight[pick]) break;
        r -= weight[pick];
      }
      while (weight[pick] == 0.0) pick = (pick + 1) % weight.size();
      weight[pick] = 0.0;
      return pick;
    };
    master.genome = std::move(generation[draw()]);
    master.ws.occ.place_all(master.genome);
    for (auto& w : workers) w.genome = std::move(generation[draw()]);
  };

  // One epoch of Metropolis iterations for worker i.
  auto anneal = [&](int i, int) {
    auto& w = workers[static_cast<std::size_t>(i)];
    auto& rng = streams[static_cast<std::size_t>(i)];
    w.genome.fitness = w.ws.occ.place_all(w.genome);
    w.ws.conflicts.reset();
    for (int it = 0; it < params_.epoch && w.ws.occ.conflicts() > 0; ++it) {
      const std::int64_t before = w.ws.occ.conflicts();
      if (!evo::move(inst, w.genome, w.ws, rng, h, rng.chance(params_.directed))) {
        evo::commit(w.ws);
        continue;
      }
      const std::int64_t delta = w.ws.occ.conflicts() - before;
      if (delta <= 0 || (w.temperature > 0 &&
                         rng.uniform() < std::exp(-static_cast<double>(delta) / w.temperature)))
        evo::commit(w.ws);
      else
        evo::undo(inst, w.genome, w.ws);
    }
    w.genome.fitness = w.ws.occ.conflicts();
    w.temperature = std::max(params_.min_temperature, w.temperature * params_.cooling);
  };

  evo::RestartRule restart(params_.restart);
  for (;;) {
    std::int64_t best = master.genome.fitness;
    std::optional<std::size_t> found;
    if (master.genome.fitness == 0) found = 0;
    for (std::size_t i = 0; i < workers.size(); ++i) {
      best = std::min(best, workers[i].genome.fitness);
      if (!found && workers[i].genome.fitness == 0) found = i + 1;
    }
    control.record(best);
    const bool expired = control.expired();
    auto member = [&](std::size_t i) -> evo::Genome& {
      return i == 0 ? master.genome : workers[i - 1].genome;
    };
    if (control.link() == nullptr) {
      if (found)
        return control.result_feasible(
            evo::decode(problem, inst, member(*found), "hgsa", options_.seed));
      if (expired) return control.result_unknown(true);
      if (control.gave_up()) return control.result_unknown(false);
    } else if (control.meeting_due()) {
      PopulationView view;
      for (std::size_t i = 0; i <= workers.size(); ++i) view.fitness.push_back(member(i).fitness);
      view.genes = [&](std::size_t i) { return member(i).flatten(inst); };
      const Meeting meeting = control.link()->meet(view, {found, control.gave_up(), expired});
      if (meeting.stop) {
        if (!meeting.winner) return control.result_unknown(meeting.budget_exhausted);
        evo::Genome winner;
        winner.unflatten(inst, *meeting.winner);
        return control.result_feasible(evo::decode(problem, inst, winner, "hgsa", options_.seed));
      }
      for (const auto& [index, migrant] : meeting.immigrants) {
        member(index).unflatten(inst, migrant.genes);
        evo::evaluate(inst, member(index), master.ws, master_rng, h);
      }
      master.ws.occ.place_all(master.genome);
    }
    if (found || expired) continue;  // on an island: wait for the next meeting
    if (restart.due(best)) {
      // A stalled search starts over from new first solutions (its streams go on).
      start_solutions();
      if (out_of_budget.cut()) return control.result_unknown(true);
      continue;
    }
    if (control.generation() > 1) master_step();
    pool.run(w_count, anneal);
  }
}

}  // namespace ccsched
