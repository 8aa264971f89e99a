// Shared loop machinery of the evolutionary engines (see control.hpp).
#include "control.hpp"

#include <algorithm>
#include <string>

namespace ccsched::evo {

namespace {

// Every processor with the same in- and out-degree: our stand-in for the seeds'
// "symmetric interconnection networks" (rings, Kautz, Petersen, hypercubes, ...), which
// excludes trees, meshes and networks with switches.
bool regular(const Topology& t) {
  if (t.switch_count() > 0 || t.processor_count() == 0) return false;
  const NodeId first = t.processors().front();
  const auto out = t.out_channels(first).size(), in = t.in_channels(first).size();
  for (const NodeId v : t.processors())
    if (t.out_channels(v).size() != out || t.in_channels(v).size() != in) return false;
  return true;
}

}  // namespace

std::optional<int> effective_radius(const Problem& problem, const EngineOptions& options,
                                    bool auto_radius) {
  if (options.radius) return options.radius;
  if (auto_radius && is_broadcast(problem.collective) && problem.collective.messages.size() > 1 &&
      regular(problem.topology))
    return 1;
  return std::nullopt;
}

BuildLimits instance_limits(std::string_view engine, const Budget& budget,
                            const EngineOptions& options) {
  BuildLimits limits;
  limits.stop = options.island ? nullptr : &budget;
  limits.max_bytes = 0.5 * options.max_memory;
  limits.engine = engine;
  return limits;
}

EngineResult result_build_stopped(std::string_view engine, const Budget& budget) {
  EngineResult r;
  r.status = SolveStatus::unknown;
  r.complete = false;
  r.budget_exhausted = true;
  r.note = std::string(budget.interrupted() ? "interrupted" : "time limit reached") +
           " while " + std::string(engine) + " built its instance (candidate senders and routes)";
  return r;
}

std::optional<Instance> open_instance(std::string_view engine, std::string_view title,
                                      const Problem& problem, const PathSet& paths, int steps,
                                      bool auto_radius, const Budget& budget,
                                      const EngineOptions& options) {
  refuse_reductions(problem.collective, title, engine);
  return build_instance(problem, paths, steps, effective_radius(problem, options, auto_radius),
                        instance_limits(engine, budget, options));
}

Schedule decode(const Problem& problem, const Instance& inst, const Genome& genome,
                std::string_view engine, std::uint64_t seed) {
  std::vector<Transfer> transfers;
  transfers.reserve(inst.gene_count());
  for (std::size_t g = 0; g < inst.gene_count(); ++g) {
    const Placement p = placement(inst, genome, g);
    const auto nodes = inst.path_nodes(p.path);
    transfers.push_back(
        {p.step, std::vector<NodeId>(nodes.begin(), nodes.end()), {inst.gene(g).message}});
  }
  return assemble_schedule(problem, std::move(transfers), engine, seed);
}

RunControl::RunControl(std::string_view engine, int steps, const Budget& budget,
                       const EngineOptions& options, int generation_limit, int stall_limit)
    : engine_(engine),
      steps_(steps),
      budget_(budget),
      options_(options),
      generation_limit_(generation_limit),
      stall_limit_(stall_limit),
      start_(Budget::Clock::now()),
      last_report_(start_) {}

void RunControl::record(std::int64_t best) {
  ++generation_;
  if (best_ < 0 || best < best_) {
    best_ = best;
    last_improvement_ = generation_;
  }
  if (!options_.progress) return;
  const auto now = Budget::Clock::now();
  if (now - last_report_ < std::chrono::milliseconds(500)) return;
  last_report_ = now;
  options_.progress({engine_, steps_, generation_, best_, elapsed()});
}

bool RunControl::gave_up() const {
  return (generation_limit_ > 0 && generation_ >= generation_limit_) ||
         (stall_limit_ > 0 && generation_ - last_improvement_ >= stall_limit_);
}

double RunControl::elapsed() const {
  return std::chrono::duration<double>(Budget::Clock::now() - start_).count();
}

std::uint64_t RunControl::seed() const {
  const IslandLink* l = link();
  return options_.seed + (l ? 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(l->island()) : 0);
}

std::optional<EngineResult> RunControl::meet(const Problem& problem, const Instance& inst,
                                             std::vector<Genome>& population,
                                             std::optional<std::size_t> found, bool expired,
                                             Workspace& ws, const Heuristics& h) const {
  PopulationView view;
  for (const auto& g : population) view.fitness.push_back(g.fitness);
  view.genes = [&](std::size_t i) { return population[i].flatten(inst); };
  const Meeting meeting = link()->meet(view, {found, gave_up(), expired});
  if (meeting.stop) {
    if (!meeting.winner) return result_unknown(meeting.budget_exhausted);
    Genome winner;
    winner.unflatten(inst, *meeting.winner);
    return result_feasible(decode(problem, inst, winner, engine_, options_.seed));
  }
  for (const auto& [index, migrant] : meeting.immigrants) {
    Rng rng(seed(), {static_cast<std::uint64_t>(generation_), 0xfffffffULL, index});
    population[index].unflatten(inst, migrant.genes);
    evaluate(inst, population[index], ws, rng, h);
  }
  return std::nullopt;
}

EngineResult RunControl::result_feasible(Schedule schedule) const {
  EngineResult r;
  r.status = SolveStatus::feasible;
  r.schedule = std::move(schedule);
  r.complete = false;
  r.conflicts = generation_;
  r.seconds = elapsed();
  return r;
}

EngineResult RunControl::result_unknown(bool budget_exhausted) const {
  EngineResult r;
  r.status = SolveStatus::unknown;
  r.complete = false;
  r.budget_exhausted = budget_exhausted;
  r.conflicts = generation_;
  r.seconds = elapsed();
  r.note = std::string(budget_exhausted ? "time limit reached" : "gave up") + " after " +
           std::to_string(generation_) + (engine_ == "hgsa" ? " epochs" : " generations") +
           (best_ >= 0 ? " (best " + std::to_string(best_) + " conflicts)"
                       : std::string(" (before the first population was evaluated)"));
  return r;
}

}  // namespace ccsched::evo
