// The one small interface every engine implements (docs/ARCHITECTURE.md): given a problem,
// its allowed paths and a step count T, find a schedule of at most T steps, prove that
// none exists, or give up within the budget. Outcomes are a status value, never an
// exception (docs/ARCHITECTURE.md, "Conventions" 7); bad input still throws.
//
//   auto engine = make_engine("sat", options);
//   EngineResult r = engine->solve(problem, paths, /*steps=*/7, budget);
//   if (r.status == SolveStatus::feasible) use(*r.schedule);   // passes verify_schedule
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "ccsched/engines/params.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

class IslandLink;  // engines/island.hpp

enum class SolveStatus { feasible, infeasible, unknown };
std::string_view to_string(SolveStatus s);

// What an engine reports while it works (the CLI prints it on a terminal).
struct ProgressInfo {
  std::string_view engine;
  int steps = 0;                // T being tried
  std::int64_t conflicts = 0;   // SAT conflicts so far, or generations for evolutionary engines
  std::int64_t best = -1;       // best fitness (conflicts) so far, evolutionary engines
  double elapsed = 0.0;         // seconds since the engine started
  int best_steps = -1;          // steps of the best schedule the solve holds; -1: none yet
};
using ProgressFn = std::function<void(const ProgressInfo&)>;

// What a search may spend. Two limits: deterministic work (SAT conflicts, window moves,
// rounds: each engine names its unit), which decides where a search stops on every
// machine alike, and the wall clock with Ctrl-C, an outer cap only (docs/ENGINES.md,
// "Budgets"). A search stopped by the clock may give another answer on a busier machine;
// clock_expired() says that happened, and the schedule's JSON records it.
class Budget {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::int64_t kUnlimitedWork = std::numeric_limits<std::int64_t>::max();
  explicit Budget(double seconds = 1e18, const std::atomic<bool>* interrupt = nullptr)
      : deadline_(seconds >= 1e17 ? Clock::time_point::max()
                                  : Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                       std::chrono::duration<double>(seconds))),
        outer_(deadline_),
        interrupt_(interrupt) {}
  bool expired() const {
    return (interrupt_ != nullptr && interrupt_->load()) || Clock::now() >= deadline_;
  }
  bool interrupted() const { return interrupt_ != nullptr && interrupt_->load(); }
  // The deadline has passed (not an interrupt).
  bool clock_expired() const { return Clock::now() >= deadline_; }
  // The whole run is over: Ctrl-C, or the deadline of the outermost budget this one was
  // cut from has passed. What is left is to answer, so work that only tidies up (freeing
  // a solver of a gigabyte) may go to another thread (free_later, docs/RELIABILITY.md).
  bool run_over() const { return interrupted() || Clock::now() >= outer_; }
  double remaining() const;
  // A budget ending at the earlier of this one's deadline and `seconds` from now, with the
  // same work allowance.
  Budget sub(double seconds) const;
  // The same deadline with `units` of work (at most this one's).
  Budget with_work(std::int64_t units) const {
    Budget b = *this;
    b.work_ = std::min(work_, std::max<std::int64_t>(0, units));
    return b;
  }
  std::int64_t work() const { return work_; }
  bool work_limited() const { return work_ != kUnlimitedWork; }

 private:
  Budget(Clock::time_point deadline, Clock::time_point outer, const std::atomic<bool>* interrupt)
      : deadline_(deadline), outer_(outer), interrupt_(interrupt) {}
  Clock::time_point deadline_;
  Clock::time_point outer_;  // the outermost budget's deadline (run_over)
  const std::atomic<bool>* interrupt_;
  std::int64_t work_ = kUnlimitedWork;
};

// A ceiling on the process's resident memory for the SAT searches (docs/RELIABILITY.md,
// "Resource limits"): the estimates made before a search cannot foresee CaDiCaL's learned
// clauses (a window of the window search on torus:32x32 REDUCE --blocks 8 grew to 4.7 GB
// under --max-memory 4G), so every CaDiCaL call polls memory_over() beside its budget and
// stops, undecided, once the resident set is past the ceiling. `solve` and `faults` set it
// to --max-memory; 0 (the default): none. Not under AddressSanitizer, whose shadow memory
// and quarantine make the resident set say nothing of the program's own.
void set_memory_ceiling(double bytes);
// The resident set (/proc/self/statm) is past the ceiling; read at most every 10 ms.
bool memory_over();

// Frees `p` on a thread of its own when the run is over (Budget::run_over), here and now
// otherwise. CaDiCaL frees a large encoding clause by clause, which took seconds past
// --time-limit (docs/RELIABILITY.md, "Limits"); the answer should not wait for it. The
// thread is detached: the process may end before it does.
template <class T>
void free_later(std::unique_ptr<T> p, const Budget& budget) {
  if (!p || !budget.run_over()) return;
  try {
    std::thread([q = std::move(p)]() mutable { q.reset(); }).detach();
  } catch (const std::system_error&) {
    // no thread to be had: the lambda, and with it the object, is freed here
  }
}

// Options common to all engines; engine-specific ones live in the engine's own struct.
struct EngineOptions {
  std::uint64_t seed = 1;
  // Broadcasts: a node may only be informed by a holder at most this many hops away
  // (seed 000 §4.4 "radius restriction"). Restricts the search: an infeasible answer
  // under a radius proves nothing.
  std::optional<int> radius;
  ProgressFn progress;
  std::int64_t max_clauses = 150'000'000;  // refuse encodings larger than this
  // Bytes an encoding may take (--max-memory; engines/resources.hpp estimates it before
  // building anything); 0 = no limit.
  double max_memory = 0.0;
  // Engine-specific parameters by name (the engine's table, e.g. umda_param_table());
  // a name the chosen engine does not know is an InvalidParameter.
  ParamValues params;
  // Evolutionary engines: the island model they take part in (dist module), or none.
  std::shared_ptr<IslandLink> island;
};

struct EngineResult {
  SolveStatus status = SolveStatus::unknown;
  std::optional<Schedule> schedule;  // when feasible
  // True only when the engine searched every schedule the model allows (FORMATS.md, relays
  // through processors included), so that "infeasible" is a proof. Every engine sets it
  // explicitly; the default is "not a proof", so that a forgotten assignment cannot turn
  // into a false claim.
  bool complete = false;
  // When not complete: the restriction inside which an "infeasible" answer is still a
  // proof (the SAT engine's direct encoding: "direct delivery"), or empty when it proves
  // nothing at all (a pruned path set, a radius, a fixed tree, a heuristic).
  std::string proof_within;
  std::string note;       // why unknown, or what was restricted
  std::int64_t conflicts = 0;
  double seconds = 0.0;
  bool budget_exhausted = false;  // the run ended because the budget (time, interrupt) ran out
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;
  // Find a schedule with at most `steps` steps.
  virtual EngineResult solve(const Problem& problem, const PathSet& paths, int steps,
                             const Budget& budget) = 0;
};

// "greedy" | "sat"; throws InvalidParameter for an unknown name.
std::unique_ptr<Engine> make_engine(std::string_view name, const EngineOptions& options);
const std::vector<std::string>& engine_names();

// Builds a Schedule from transfers: fills topology, collective and model from the
// problem, drops empty steps (renumbering the rest in order) and sets `steps`.
Schedule assemble_schedule(const Problem& problem, std::vector<Transfer> transfers,
                           std::string_view engine, std::uint64_t seed);

}  // namespace ccsched
