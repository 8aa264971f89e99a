// Randomised cross-check against the oracle (docs/ARCHITECTURE.md, "Conventions" 10): every claim the tool makes
// about a small problem is compared with the exact optimum of an exhaustive search written
// apart from the engines, the routing module and the bounds (tests/support/oracle.hpp:
// relays through processors, routes through any node's router, FORMATS.md rules 1-10).
//
// The sample (tests/support/random_problems.hpp, fixed seed): rings, tori, meshes,
// complete graphs, Kautz(2,2) and (2,3), de Bruijn(2,3), Petersen, the octagon, Omega and
// Butterfly 4 and 8, Clos, binary and fat trees, fbtree:7, random networks with and
// without switches; a faulty link one time in four; every message collective kind with
// about 1-6 messages; 1, 2 or all ports;
// minimal, nonminimal:1, :2 and :4 routing; wormhole and store-and-forward.
//
// Per problem, with T* the oracle's optimum (and D* its optimum under direct delivery,
// each scatter message one transfer, on wormhole problems with scatter messages):
//   * the driver (engine "sat") returns a schedule that verifies, with steps >= T*;
//     `optimal` only when steps == T*; lower_bound <= T*; every bound of the report <= T*;
//   * direct-delivery claims: the schedule's direct_delivery_bound and every bound under
//     BoundOptions::direct_scatter <= D*; optimal_within "direct delivery" only when
//     steps == D*;
//   * lower_bounds() on its own: every bound <= T*;
//   * the greedy schedule verifies and has steps >= T*; on every fifth problem UMDA, HGSA and MBOA
//     at T* too (verify, never below T*, same seed same schedule);
//   * the tool refuses ("cannot reach") only where the oracle finds no route either, and
//     never schedules what the oracle calls unreachable.
// Each disagreement is printed with the problem and a `ccsched solve` command that rebuilds
// it (the files it needs are written to CCSCHED_CROSSCHECK_DIR, default the test temp dir).
//
// CCSCHED_CROSSCHECK_PROBLEMS (default 250; 60 under the sanitizers) and
// CCSCHED_CROSSCHECK_SEED (default 20261124) choose the sample; bench/crosscheck.sh runs
// the long form.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/greedy.hpp"
#include "ccsched/schedule/verify.hpp"
#include "../support/oracle.hpp"
#include "../support/random_problems.hpp"
#include "../support/slowdown.hpp"

namespace ccsched {
namespace {

using testing_support::RandomProblem;

long long env_number(const char* name, long long fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::atoll(text) : fallback;
}

std::string first_violation(const Schedule& s) {
  const auto v = verify_schedule(s);
  return v.empty() ? "" : "rule " + std::to_string(v[0].rule) + ": " + v[0].text;
}

struct Tally {
  int problems = 0, solved = 0, unreachable = 0, unknown = 0;
  int optimal_claims = 0, tool_refusals = 0, direct_checked = 0, evolutionary_runs = 0;
  int with_switches = 0, with_fault = 0, store_and_forward = 0, nonminimal = 0;
  std::map<std::string, int> kinds;
  std::vector<std::string> disagreements;  // one entry per problem, all its findings
};

// The checks of the header for one problem; findings are appended to `found`. Returns the
// oracle's optimum, or 0 when it has none.
int check(const RandomProblem& rp, int index, Tally& tally, std::vector<std::string>& found) {
  const Problem& p = rp.problem;
  auto say = [&](const std::string& what) { found.push_back(what); };
  oracle::Options oracle_options;
  oracle_options.max_work = env_number("CCSCHED_CROSSCHECK_ORACLE_WORK", 3'000'000);
  const oracle::Result truth = oracle::minimum_steps(p, oracle_options);
  const bool solved = truth.status == oracle::Status::solved;
  switch (truth.status) {
    case oracle::Status::solved:
      ++tally.solved;
      if (const auto bad = first_violation(*truth.witness); !bad.empty())
        say("the oracle's own witness is invalid (" + bad + ")");
      break;
    case oracle::Status::unreachable:
      ++tally.unreachable;
      break;
    case oracle::Status::unknown:
      ++tally.unknown;
      break;
  }
  const int best = truth.steps;
  const std::string optimum = "the oracle's optimum " + std::to_string(best);

  // The direct-delivery optimum, computed only when the tool claims something about it.
  std::optional<oracle::Result> direct;
  auto direct_optimum = [&]() -> std::optional<int> {
    if (!direct) {
      oracle::Options o = oracle_options;
      o.direct_scatter = true;
      direct = oracle::minimum_steps(p, o);
      ++tally.direct_checked;
    }
    if (direct->status != oracle::Status::solved) return std::nullopt;
    return direct->steps;
  };

  const PathSet paths(p.topology, p.model);
  // lower_bounds on its own.
  try {
    const BoundReport report = lower_bounds(p, paths);
    if (truth.status == oracle::Status::unreachable) {
      // Not an error in itself (a bound may not look at reachability), but worth knowing.
    } else if (solved) {
      for (const auto& b : report.bounds)
        if (b.value > best)
          say("lower_bounds: " + b.name + " = " + std::to_string(b.value) + " above " + optimum +
              " (" + b.argument + ")");
    }
  } catch (const Error& e) {
    if (truth.status != oracle::Status::unreachable)
      say(std::string("lower_bounds refused (") + e.what() +
          ") but the oracle reaches every target");
  }

  // The driver with the SAT engine.
  SolveRequest request;
  request.engine = "sat";
  request.time_limit = 2.0 * testing::kSlow;
  request.options.seed = static_cast<std::uint64_t>(index) + 1;
  std::optional<SolveOutcome> out;
  try {
    out = solve_problem(p, request);
  } catch (const Error& e) {
    ++tally.tool_refusals;
    if (truth.status != oracle::Status::unreachable)
      say(std::string("solve refused (") + e.what() + ") but the oracle " +
          (solved ? "finds " + std::to_string(best) + " steps" : "reaches every target"));
  }
  if (out && out->schedule) {
    const Schedule& s = *out->schedule;
    if (const auto bad = first_violation(s); !bad.empty())
      say("solve: invalid schedule (" + bad + ")");
    if (truth.status == oracle::Status::unreachable)
      say("solve scheduled a problem the oracle calls unreachable (" + truth.note + ")");
    if (out->optimal) ++tally.optimal_claims;
    if (solved) {
      if (s.steps < best) say("solve: " + std::to_string(s.steps) + " steps, below " + optimum);
      if (out->optimal && s.steps != best)
        say("solve claims " + std::to_string(s.steps) + " steps optimal (" + out->reason + "), " +
            optimum);
      if (s.optimal && s.steps != best)
        say("schedule says optimal at " + std::to_string(s.steps) + " steps, " + optimum);
      if (out->lower_bound > best)
        say("solve: lower_bound " + std::to_string(out->lower_bound) + " above " + optimum);
      if (s.lower_bound && *s.lower_bound > best)
        say("schedule: lower_bound " + std::to_string(*s.lower_bound) + " above " + optimum);
      for (const auto& b : out->bounds.bounds)
        if (b.value > best)
          say("solve's bound " + b.name + " = " + std::to_string(b.value) + " above " + optimum +
              " (" + b.argument + ")");
    }
    // Direct-delivery claims (the schedule's direct_delivery_bound and optimal_within, and
    // the bounds computed under BoundOptions::direct_scatter) hold against the optimum
    // under direct delivery.
    const bool direct_eligible =
        p.model.switching == Switching::wormhole && !p.model.combining &&
        std::any_of(p.collective.messages.begin(), p.collective.messages.end(),
                    [](const Message& m) { return m.targets.size() == 1; });
    if ((direct_eligible || s.direct_delivery_bound || s.optimal_within) &&
        truth.status != oracle::Status::unreachable) {
      if (const auto d = direct_optimum()) {
        const std::string dopt = "the direct-delivery optimum " + std::to_string(*d);
        if (s.direct_delivery_bound && *s.direct_delivery_bound > *d)
          say("schedule: direct_delivery_bound " + std::to_string(*s.direct_delivery_bound) +
              " above " + dopt);
        if (s.optimal_within == "direct delivery" && s.steps != *d)
          say("optimal within direct delivery at " + std::to_string(s.steps) + " steps, " + dopt);
        BoundOptions direct_options;
        direct_options.direct_scatter = true;
        try {
          for (const auto& b : lower_bounds(p, paths, direct_options).bounds)
            if (b.value > *d)
              say("direct bound " + b.name + " = " + std::to_string(b.value) + " above " + dopt +
                  " (" + b.argument + ")");
        } catch (const Error& e) {
          say(std::string("direct bounds refused (") + e.what() + ") but " + dopt);
        }
      }
    }
  } else if (out) {
    if (solved) say("solve returned no schedule (" + out->reason + "), " + optimum);
  }

  // The greedy engine.
  if (truth.status != oracle::Status::unreachable) {
    try {
      const Schedule g = greedy_schedule(p, paths, static_cast<std::uint64_t>(index));
      if (const auto bad = first_violation(g); !bad.empty())
        say("greedy: invalid schedule (" + bad + ")");
      if (solved && g.steps < best)
        say("greedy: " + std::to_string(g.steps) + " steps, below " + optimum);
    } catch (const Error& e) {
      say(std::string("greedy refused (") + e.what() + ")");
    }
  }

  // The evolutionary engines on a subsample, asked for T*.
  if (solved && index % 5 == 0) {
    for (const std::string name : {"umda", "hgsa", "mboa"}) {
      EngineOptions options;
      options.seed = static_cast<std::uint64_t>(index) + 1;
      options.params = {{"generations", name == "hgsa" ? 40.0 : 100.0}};
      EngineResult first, second;
      try {
        first = make_engine(name, options)->solve(p, paths, best, Budget(3.0 * testing::kSlow));
        second = make_engine(name, options)->solve(p, paths, best, Budget(3.0 * testing::kSlow));
      } catch (const Unsupported&) {
        continue;  // e.g. evolutionary scatter under store-and-forward
      } catch (const Error& e) {
        say(name + " refused (" + e.what() + ") but " + optimum);
        continue;
      }
      ++tally.evolutionary_runs;
      if (first.status == SolveStatus::feasible && first.schedule) {
        if (const auto bad = first_violation(*first.schedule); !bad.empty())
          say(name + ": invalid schedule (" + bad + ")");
        if (first.schedule->steps < best)
          say(name + ": " + std::to_string(first.schedule->steps) + " steps, below " + optimum);
      }
      if (first.status == SolveStatus::infeasible && first.complete)
        say(name + " claims " + std::to_string(best) + " steps infeasible, " + optimum);
      if (!first.budget_exhausted && !second.budget_exhausted && first.schedule &&
          second.schedule && first_violation(*first.schedule).empty() &&
          first.schedule->transfers.size() != second.schedule->transfers.size())
        say(name + ": same seed, different schedules");
    }
  }
  return solved ? best : 0;
}

TEST(CrossCheck, EveryClaimAgainstTheOracle) {
#if defined(__SANITIZE_ADDRESS__)
  const long long fallback = 60;  // several times slower under the sanitizers; same checks
#else
  const long long fallback = 250;
#endif
  const int count = static_cast<int>(env_number("CCSCHED_CROSSCHECK_PROBLEMS", fallback));
  const auto seed = static_cast<std::uint64_t>(env_number("CCSCHED_CROSSCHECK_SEED", 20261124));
  std::string dir;
  if (const char* d = std::getenv("CCSCHED_CROSSCHECK_DIR"); d != nullptr && *d != '\0')
    dir = d;
  else
    dir = ::testing::TempDir() + "ccsched-crosscheck";
  std::filesystem::create_directories(dir);

  const auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int i = 0; i < count; ++i) {
    const RandomProblem rp = testing_support::random_problem(rng, i);
    const Problem& p = rp.problem;
    ++tally.problems;
    ++tally.kinds[std::string(to_string(p.collective.kind))];
    tally.with_switches += p.topology.switch_count() > 0;
    tally.with_fault += !p.topology.fault_records().empty();
    tally.store_and_forward += p.model.switching == Switching::store_and_forward;
    tally.nonminimal += p.model.routing == Routing::nonminimal;
    std::vector<std::string> found;
    int optimum = 0;
    try {
      optimum = check(rp, i, tally, found);
    } catch (const std::exception& e) {
      found.push_back(std::string("exception escaped the checks: ") + e.what());
    }
    if (found.empty()) continue;
    rp.write_files(dir);
    std::ostringstream text;
    text << rp.name << ": " << rp.description << "\n";
    for (const auto& f : found) text << "    " << f << "\n";
    text << "    reproduce: " << rp.command(dir) << " --engine sat\n";
    // Findings of another engine: that engine alone, asked for the oracle's optimum.
    for (const std::string engine : {"greedy", "umda", "hgsa", "mboa"})
      for (const auto& f : found)
        if (f.rfind(engine, 0) == 0) {
          text << "    reproduce (" << engine << "): " << rp.command(dir) << " --engine " << engine
               << (optimum > 0 ? " --steps " + std::to_string(optimum) : "") << "\n";
          break;
        }
    tally.disagreements.push_back(text.str());
    ADD_FAILURE() << text.str();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "crosscheck (seed %llu): %d problems (%d with switches, %d with a fault, %d "
      "store-and-forward, %d nonminimal); oracle: %d solved, %d unreachable, %d unknown (work "
      "cap); %d optimal claims, %d direct-delivery checks, %d refusals, %d evolutionary runs; "
      "%zu problems with disagreements; %.1f s\n",
      static_cast<unsigned long long>(seed), tally.problems, tally.with_switches, tally.with_fault,
      tally.store_and_forward, tally.nonminimal, tally.solved, tally.unreachable, tally.unknown,
      tally.optimal_claims, tally.direct_checked, tally.tool_refusals, tally.evolutionary_runs,
      tally.disagreements.size(), seconds);
  std::printf("kinds:");
  for (const auto& [kind, n] : tally.kinds) std::printf(" %s %d", kind.c_str(), n);
  std::printf("\n");
  if (const char* summary = std::getenv("CCSCHED_CROSSCHECK_SUMMARY"); summary && *summary) {
    if (FILE* f = std::fopen(summary, "w")) {
      std::fprintf(f,
                   "problems %d\nsolved %d\nunreachable %d\nunknown %d\noptimal_claims %d\n"
                   "disagreements %zu\nseconds %.1f\n",
                   tally.problems, tally.solved, tally.unreachable, tally.unknown,
                   tally.optimal_claims, tally.disagreements.size(), seconds);
      for (const auto& d : tally.disagreements) std::fprintf(f, "\n%s", d.c_str());
      std::fclose(f);
    }
  }
  // The sample must stay meaningful: the oracle decides nearly every problem, and the
  // sample reaches networks with switches, faults, store-and-forward and nonminimal routing.
  EXPECT_GE(tally.solved + tally.unreachable, count * 85 / 100);
  EXPECT_GT(tally.with_switches, count / 10);
  EXPECT_GT(tally.with_fault, count / 20);
  EXPECT_GT(tally.store_and_forward, count / 10);
  EXPECT_GT(tally.nonminimal, count / 5);
  EXPECT_GE(tally.kinds.size(), 9u);
}

}  // namespace
}  // namespace ccsched
