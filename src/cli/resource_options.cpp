// --max-memory: parsing, the default limit, and the plan that fits a solve request to it
// (engines/resources.hpp gives the estimates; docs/RELIABILITY.md their calibration).
#include "resource_options.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/engines/hgsa.hpp"
#include "ccsched/engines/mboa.hpp"
#include "ccsched/engines/resources.hpp"
#include "ccsched/engines/umda.hpp"
#include "ccsched/topology/family_metric.hpp"

namespace ccsched::cli {

void add_resource_options(CLI::App* cmd, ResourceOptions& o) {
  cmd->add_option("--max-memory", o.max_memory,
                  "memory the search may use, e.g. 4G or 512M [default: half of the "
                  "machine's memory]; larger encodings or populations are refused before "
                  "they are built");
}

double parse_size(std::string_view text) {
  const std::string s(text);
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(s, &used);
  } catch (const std::exception&) {
    throw InvalidParameter("expected a size such as 4G or 512M, got '" + s + "'", "--max-memory");
  }
  std::string unit;
  for (std::size_t i = used; i < s.size(); ++i)
    unit += static_cast<char>(std::toupper(static_cast<unsigned char>(s[i])));
  if (unit.ends_with("IB")) unit.resize(unit.size() - 2);
  else if (unit.size() > 1 && unit.ends_with("B")) unit.pop_back();
  double scale = 0.0;
  if (unit.empty() || unit == "B") scale = 1.0;
  else if (unit == "K") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024.0;
  else if (unit == "G") scale = 1024.0 * 1024.0 * 1024.0;
  else if (unit == "T") scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
  if (scale == 0.0 || !(value > 0.0) || !std::isfinite(value))
    throw InvalidParameter("expected a positive size such as 4G or 512M, got '" + s + "'",
                           "--max-memory");
  return value * scale;
}

double default_memory_limit() {
  // At most 4 GiB: every command answers within a few GB unless told otherwise (a cache
  // or a search grows into whatever it is given: torus:32x32 REDUCE --blocks 8 took 9.1 GB
  // under 11.8 GiB and 3.6 GB under 4 GiB, for the same 12 steps, docs/BENCHMARKS.md "The
  // default memory limit"). On a smaller machine half of it: the rest is for the system,
  // the other users of the machine, and the error of the estimates.
  constexpr double kCap = 4.0 * 1024 * 1024 * 1024;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return kCap;
  return std::min(kCap, 0.5 * static_cast<double>(pages) * static_cast<double>(page));
}

double memory_limit(const ResourceOptions& o) {
  return o.max_memory.empty() ? default_memory_limit() : parse_size(o.max_memory);
}

namespace {

// A direct network whose processors all have the same out-degree: the evolutionary
// engines' automatic radius 1 for broadcasts applies (UmdaParams/HgsaParams::auto_radius).
bool regular_direct(const Topology& t) {
  if (t.switch_count() > 0 || t.processor_count() == 0) return false;
  const auto degree = t.out_channels(t.processors().front()).size();
  for (const NodeId p : t.processors())
    if (t.out_channels(p).size() != degree) return false;
  return true;
}

}  // namespace

long long largest_block_count(std::size_t senders) {
  if (senders < 2) return std::numeric_limits<long long>::max();
  return static_cast<long long>(kMaxBlockTransfers) / static_cast<long long>(senders - 1);
}

void refuse_oversized_reduction(const Problem& problem) {
  const Collective& c = problem.collective;
  if (!is_reduction(c) || c.blocks <= largest_block_count(c.senders.size())) return;
  // Every block's sum combines all the senders' inputs, one add per transfer of that block
  // (R2: no input twice), so any schedule holds at least blocks * (senders - 1) block
  // transfers, one block each without combining (FORMATS.md "Reductions").
  const double needed = static_cast<double>(c.blocks) * static_cast<double>(c.senders.size() - 1);
  throw InvalidParameter(
      fmt::format("{} blocks, each summed over {} inputs, need at least {} one-block "
                  "transfers, more than the {} a schedule is sized for (docs/RELIABILITY.md "
                  "\"Limits\"); give at most {} blocks",
                  c.blocks, c.senders.size(), static_cast<long long>(needed),
                  static_cast<long long>(kMaxBlockTransfers),
                  largest_block_count(c.senders.size())),
      "--blocks");
}

void plan_resources(const Problem& problem, double limit, SolveRequest& request) {
  refuse_oversized_reduction(problem);
  request.options.max_memory = limit;
  // What the estimates cannot see (CaDiCaL's learned clauses, its arrays doubling): the
  // searches stop at 80 % of the limit, which leaves room for the growth between two polls
  // of the resident set (torus:32x32 REDUCE --blocks 8 under 2G: 2.46 GB peak with the
  // ceiling at the limit itself).
  set_memory_ceiling(0.8 * limit);
  // The schedule itself, whatever finds it: refused at once when it cannot be held, checked
  // and written within the limit (an all-to-all scatter on 4,096 processors has 16.8
  // million deliveries over paths of 32 hops on average on torus:64x64).
  if (const auto schedule = estimate_schedule(problem); schedule.bytes > limit)
    throw Unsupported(
        fmt::format("a schedule of {:.0f} deliveries ({} messages) on {} processors would need "
                    "about {}, more than --max-memory {}; use a smaller network or raise "
                    "--max-memory",
                    schedule.pairs, problem.collective.messages.size(),
                    problem.topology.processor_count(), format_bytes(schedule.bytes),
                    format_bytes(limit)),
        "--max-memory");
  const double processors = problem.topology.processor_count();
  // Under minimal wormhole routing the automatic and greedy engines find paths lazily
  // (PathSet::first_free_path) and the SAT engine estimates each encoding before building
  // it, so a network too large for any path list is still answered (docs/BENCHMARKS.md,
  // "Scale" and "Beyond 1,024"); the other engines list paths and are refused below.
  const bool lazy = problem.model.switching == Switching::wormhole &&
                    problem.model.routing == Routing::minimal &&
                    (request.engine == "auto" || request.engine == "greedy");
  // The census itself: a count and a distance per ordered processor pair.
  const double census_bytes = 12.0 * processors * processors;
  if (census_bytes > 0.25 * limit) {
    if (!lazy)
      throw Unsupported("a network of " + std::to_string(problem.topology.processor_count()) +
                            " processors is too large to plan a search with --engine " +
                            request.engine + " within --max-memory " + format_bytes(limit) +
                            " (its pair table alone needs " + format_bytes(census_bytes) +
                            "); use --engine auto or greedy with minimal wormhole routing, or "
                            "raise --max-memory",
                        "--max-memory");
    // What the lazy strategy builds instead (docs/RELIABILITY.md, "Resource limits").
    const auto need = estimate_lazy(problem);
    if (need.bytes > limit)
      throw Unsupported(fmt::format("a schedule of {:.0f} deliveries on {} processors would need "
                                    "about {}, more than --max-memory {}; use a smaller network "
                                    "or raise --max-memory",
                                    need.pairs, problem.topology.processor_count(),
                                    format_bytes(need.bytes), format_bytes(limit)),
                        "--max-memory");
    // Paths are found one at a time and never listed; with the closed form they cost no
    // table either, so the search may pass over more of them (kLazyPathsClosedForm) where it
    // needs a free one. Without it, the first path of each pair only.
    constexpr std::size_t kLazyPathsClosedForm = 64;
    request.path_limits.max_paths_per_pair =
        FamilyMetric::of(problem.topology) ? kLazyPathsClosedForm : 1;
    request.path_limits.truncate = true;
    return;
  }
  const PathCensus census(problem.topology, problem.model);

  // Path lists: all of them when they fit in a quarter of the limit (and PathSet's
  // per-pair ceiling); else the first `cap` per pair, the largest cap that fits.
  const double paths_share = 0.25 * limit;
  const std::optional<int> radius = request.options.radius;
  const double ceiling = static_cast<double>(PathLimits{}.max_paths_per_pair);
  if (census.max_count() > ceiling ||
      estimate_paths(problem, census, 1e300, radius).bytes > paths_share) {
    double cap = 0.0;
    for (const double c : {ceiling, 10000.0, 1000.0, 100.0, 32.0, 8.0, 2.0, 1.0})
      if (estimate_paths(problem, census, c, radius).bytes <= paths_share) {
        cap = c;
        break;
      }
    if (cap == 0.0 && lazy) cap = 1.0;
    if (cap == 0.0)
      throw Unsupported(memory_refusal("even one path per processor pair (path lists may take a quarter of --max-memory)",
                                       estimate_paths(problem, census, 1.0, radius), limit,
                                       "use a smaller network, a --radius, or raise "
                                       "--max-memory"),
                        "--max-memory");
    // The designs and greedy that find paths one at a time (first_free_path) list
    // nothing: their search keeps the cap the lists would have without the limit.
    request.path_limits.searched_paths_per_pair = PathLimits{}.max_paths_per_pair;
    request.path_limits.max_paths_per_pair = static_cast<std::size_t>(cap);
    request.path_limits.truncate = true;
  }
  const double cap = request.path_limits.truncate
                         ? static_cast<double>(request.path_limits.max_paths_per_pair)
                         : 1e300;
  const int steps = request.steps.value_or(1);
  if (request.engine == "sat") {
    const auto need = estimate_sat(problem, census, steps, radius, cap);
    if (need.bytes > limit)
      throw Unsupported(
          memory_refusal("the SAT encoding for " + plural(steps, "step"), need, limit,
                         "try minimal routing, a --radius, an evolutionary engine (--engine "
                         "umda, hgsa or mboa), --engine greedy, or a larger --max-memory"),
          "--max-memory");
  } else if (request.engine == "umda" || request.engine == "hgsa" || request.engine == "mboa") {
    // UMDA keeps a population; HGSA one current and one candidate solution per worker;
    // MBOA its population, up to as many new chromosomes and the model's coded data (less
    // than a third of a chromosome per selected one): twice its population.
    auto param = [&](const char* name, double fallback) {
      const auto it = request.options.params.find(name);
      return it != request.options.params.end() ? it->second : fallback;
    };
    const auto workers = static_cast<int>(std::max(param("workers", 0), param("threads", 1)));
    const int population =
        request.engine == "umda"
            ? static_cast<int>(param("population", UmdaParams{}.population))
        : request.engine == "mboa"
            ? 2 * static_cast<int>(param("population", MboaParams{}.population))
            : 2 * std::max(1, workers);
    std::optional<int> evo_radius = radius;
    // As evo::effective_radius: the automatic radius 1 applies to all-to-all broadcasts
    // only; a single broadcast's genes have every processor as a candidate.
    if (!evo_radius && is_broadcast(problem.collective) &&
        problem.collective.messages.size() > 1 && regular_direct(problem.topology) &&
        !request.options.params.count("auto-radius"))
      evo_radius = 1;
    const auto need = estimate_population(problem, census, steps, evo_radius, cap, population);
    if (need.bytes > limit)
      throw Unsupported(memory_refusal("the " + request.engine + " search (" +
                                           std::to_string(population) + " individuals)",
                                       need, limit,
                                       "try a smaller --population, a --radius, --engine "
                                       "greedy, or a larger --max-memory"),
                        "--max-memory");
  }
}

}  // namespace ccsched::cli
