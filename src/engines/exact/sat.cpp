// The SAT engine (issue "exact engine"): "does the problem fit in T steps?" as CNF for
// CaDiCaL. Two encodings:
//
// * direct — wormhole scatter-type problems (every message has one target and travels
//   origin -> target in one transfer, as in all the seeds). A restriction: FORMATS.md lets
//   a processor receive a message and pass it on (rule 5), which can need fewer steps
//   (ring:8, circular shift 3: 4 steps direct, 3 with relays), so its "infeasible" proves
//   nothing under the model (complete = false). y[m][p][s] chooses path p and
//   step s for message m; at least one choice per message; at most one transfer per
//   channel and step; at most k messages sent and k received per processor and step.
//   Steps are interchangeable here, so the i-th message may use steps 1..i+1 only
//   (value-precedence symmetry breaking; any schedule can be relabelled to satisfy it).
//
// * spreading — broadcasts, every problem under store-and-forward, and scatters asked for
//   with ScatterEncoding::relays: x[m][u][v][p][s]
//   sends message m from u to v along p in step s; r[m][v][s] says v receives m in step
//   s, hold[m][u][s] that u holds m before step s (origin, or received earlier: FORMATS.md
//   rule 5). Trees are built by the solver, not fixed in advance. Every processor may
//   relay, so the encoding is complete for the model.
//
// Every step has an activation literal; asking for T' <= T assumes the later ones false,
// so the driver walks down the step count on one encoding, keeping learnt clauses.
#include "ccsched/engines/sat.hpp"

#include <algorithm>
#include <cadical.hpp>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/engines/resources.hpp"
#include "cnf.hpp"

namespace ccsched {
namespace {

using sat::Cnf;

struct Choice {
  int var = 0;
  MessageId message = 0;
  const Path* path = nullptr;
  Step step = 0;
};

// The variables an encoding produced, enough to decode a model.
struct Encoding {
  int steps = 0;
  std::vector<int> activation;  // [s], s = 1..steps (index 0 unused)
  std::vector<Choice> choices;
  bool complete = false;  // set by the encoder when it covers every schedule of the model
  std::string proof_within;  // EngineResult::proof_within
  std::string note;
};

// Thrown inside the encoder when the budget runs out while the clauses are still being
// written; the engine turns it into an "unknown" answer.
struct EncodingAborted {};

class Encoder {
 public:
  Encoder(const Problem& problem, const PathSet& paths, const EngineOptions& options,
          SatRestriction restriction, bool spreading, const Budget* budget, Cnf& cnf)
      : problem_(problem),
        spreading_(spreading),
        paths_(paths),
        options_(options),
        radius_(restriction.radius),
        paths_per_message_(restriction.paths_per_message),
        balanced_(restriction.balanced),
        budget_(budget),
        cnf_(cnf) {}

  Encoding encode(int steps) {
    enc_.steps = steps;
    enc_.activation.assign(steps + 1, 0);
    for (Step s = 1; s <= steps; ++s) enc_.activation[s] = cnf_.new_var();
    channel_users_.assign(static_cast<std::size_t>(steps + 1) * problem_.topology.channel_count(), {});
    enc_.complete = true;  // until a restriction below says otherwise
    if (spreading_)
      encode_spreading();
    else
      encode_direct();
    for (auto& users : channel_users_) {
      cnf_.at_most_one(users);
      check_size();
    }
    return std::move(enc_);
  }

 private:
  std::vector<int>& users(ChannelId c, Step s) {
    return channel_users_[static_cast<std::size_t>(s) * problem_.topology.channel_count() + c];
  }
  void check_size() {
    if ((budget_ != nullptr && budget_->expired()) || memory_over()) throw EncodingAborted{};
    if (cnf_.clauses() > options_.max_clauses)
      throw Unsupported("the SAT encoding exceeds " + std::to_string(options_.max_clauses) +
                            " clauses; try fewer steps, minimal routing, a --radius, or the "
                            "greedy engine",
                        "sat");
  }
  int ports() const { return problem_.model.ports.value_or(0); }  // 0 = all-port

  void encode_direct() {
    enc_.complete = false;
    enc_.note = enc_.proof_within = "direct delivery";
    const auto& messages = problem_.collective.messages;
    const int n = problem_.topology.node_count();
    const int T = enc_.steps;
    // sent[s][u] / received[s][u]: the z literals of messages leaving / entering u.
    std::vector<std::vector<std::vector<int>>> sent(T + 1, std::vector<std::vector<int>>(n)),
        received(T + 1, std::vector<std::vector<int>>(n));
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const auto& m = messages[i];
      const auto& candidates = paths_.paths(m.origin, m.targets[0]);
      if (candidates.empty())
        throw InvalidInput("no allowed path from " + std::to_string(m.origin) + " to " +
                               std::to_string(m.targets[0]),
                           "routing");
      const auto allowed = choose_paths(candidates);
      const int last = static_cast<int>(std::min<std::size_t>(T, i + 1));
      std::vector<int> any;
      for (Step s = 1; s <= last; ++s) {
        const int z = cnf_.new_var();
        cnf_.add({-z, enc_.activation[s]});
        sent[s][m.origin].push_back(z);
        received[s][m.targets[0]].push_back(z);
        for (const Path* pp : allowed) {
          const Path& p = *pp;
          const int y = cnf_.new_var();
          cnf_.add({-y, z});
          any.push_back(y);
          enc_.choices.push_back({y, m.id, &p, s});
          for (const ChannelId c : p.channels) users(c, s).push_back(y);
        }
      }
      cnf_.add(any);
      check_size();
    }
    if (ports() > 0)
      for (Step s = 1; s <= T; ++s)
        for (NodeId u = 0; u < n; ++u) {
          cnf_.at_most_k(sent[s][u], ports());
          cnf_.at_most_k(received[s][u], ports());
        }
  }

  // All candidates, or (restricted) the few that load the channels least so far: a
  // balanced routing, so that a tight step count has a chance under the restriction.
  std::vector<const Path*> choose_paths(const std::vector<Path>& candidates) {
    std::vector<const Path*> all;
    for (const Path& p : candidates) all.push_back(&p);
    if (!paths_per_message_ || static_cast<int>(all.size()) <= *paths_per_message_) return all;
    enc_.proof_within.clear();
    enc_.note = "direct delivery, " + plural(*paths_per_message_, "path") + " per message";
    if (!balanced_) {
      // The first paths of the enumeration follow the lowest-numbered channel at every
      // hop: dimension-ordered routing on hypercubes, meshes and tori.
      all.resize(*paths_per_message_);
      return all;
    }
    if (load_.empty()) load_.assign(problem_.topology.channel_count(), 0);
    auto cost = [&](const Path* p) {
      int worst = 0, sum = 0;
      for (const ChannelId c : p->channels) {
        worst = std::max(worst, load_[c]);
        sum += load_[c];
      }
      return std::pair(worst, sum);
    };
    std::stable_sort(all.begin(), all.end(),
                     [&](const Path* a, const Path* b) { return cost(a) < cost(b); });
    all.resize(*paths_per_message_);
    for (const ChannelId c : all.front()->channels) ++load_[c];
    return all;
  }

  void encode_spreading() {
    const auto& t = problem_.topology;
    const auto& messages = problem_.collective.messages;
    const int n = t.node_count();
    const int T = enc_.steps;
    const auto processors = t.processors();
    std::vector<std::vector<std::vector<int>>> sent(T + 1, std::vector<std::vector<int>>(n)),
        received(T + 1, std::vector<std::vector<int>>(n));
    if (radius_) {
      enc_.complete = false;
      enc_.note = "radius " + std::to_string(*radius_) + " restriction";
    }
    for (const auto& m : messages) {
      // r[v][s] and hold[v][s] for every processor v != origin.
      std::vector<std::vector<int>> r(n), hold(n);
      std::vector<std::vector<std::vector<int>>> into(n);  // into[v][s]: x literals
      for (const NodeId v : processors) {
        if (v == m.origin) continue;
        r[v].assign(T + 1, 0);
        hold[v].assign(T + 1, 0);
        into[v].assign(T + 1, {});
        for (Step s = 1; s <= T; ++s) r[v][s] = cnf_.new_var();
        for (Step s = 2; s <= T; ++s) {
          hold[v][s] = cnf_.new_var();
          if (s == 2)
            cnf_.add({-hold[v][s], r[v][1]});
          else
            cnf_.add({-hold[v][s], hold[v][s - 1], r[v][s - 1]});
        }
        cnf_.at_most_one(std::span<const int>(r[v]).subspan(1));
      }
      for (const NodeId u : processors) {
        for (const NodeId v : processors) {
          if (u == v || v == m.origin) continue;
          if (radius_ && paths_.distance(u, v) > *radius_) continue;
          const auto& candidates = paths_.paths(u, v);
          for (Step s = (u == m.origin ? 1 : 2); s <= T; ++s) {
            for (const Path& p : candidates) {
              const int x = cnf_.new_var();
              cnf_.add({-x, enc_.activation[s]});
              cnf_.add({-x, r[v][s]});
              if (u != m.origin) cnf_.add({-x, hold[u][s]});
              into[v][s].push_back(x);
              sent[s][u].push_back(x);
              enc_.choices.push_back({x, m.id, &p, s});
              for (const ChannelId c : p.channels) users(c, s).push_back(x);
            }
          }
        }
        check_size();
      }
      for (const NodeId v : processors) {
        if (v == m.origin) continue;
        for (Step s = 1; s <= T; ++s) {
          std::vector<int> clause{-r[v][s]};
          clause.insert(clause.end(), into[v][s].begin(), into[v][s].end());
          cnf_.add(clause);
          received[s][v].push_back(r[v][s]);
        }
      }
      for (const NodeId target : m.targets) {
        std::vector<int> clause(r[target].begin() + 1, r[target].end());
        cnf_.add(clause);
      }
    }
    if (ports() > 0)
      for (Step s = 1; s <= T; ++s)
        for (NodeId u = 0; u < n; ++u) {
          cnf_.at_most_k(sent[s][u], ports());
          cnf_.at_most_k(received[s][u], ports());
        }
    add_tightness(sent, received);
  }

  // Implied clauses for a step count at which a counting bound is met with equality
  // (docs/BOUNDS.md): nothing may then be idle, which CDCL would otherwise learn slowly.
  // - port-accept: v needs R_v distinct messages, receives each at most once and at most
  //   one per step (1-port); R_v = T means v receives in every step;
  // - sends: every reception is one transfer, so when the receptions needed equal the
  //   send capacity (1 per processor and step) every processor sends in every step;
  // - channel-load (generalising seed 000, eq. (6)): every delivery to v uses at least
  //   d_v channels (d_v: the distance from v's nearest processor); when the sum equals
  //   channels x T every channel is busy in every step.
  // Each clause holds for schedules of exactly T steps, so it is guarded by act[T]: asking
  // for fewer steps (act[T] assumed false) switches them off. Only under 1 port for the
  // first two (at least k of n would need a counter; the cells that need them are 1-port).
  void add_tightness(const std::vector<std::vector<std::vector<int>>>& sent,
                     const std::vector<std::vector<std::vector<int>>>& received) {
    if (radius_) return;  // a radius drops transfers: the counts below may not hold
    const auto& t = problem_.topology;
    const int T = enc_.steps;
    const int guard = -enc_.activation[T];
    const auto processors = t.processors();
    std::vector<long long> need(t.node_count(), 0);
    long long total = 0, channel_steps = 0;
    for (const auto& m : problem_.collective.messages)
      for (const NodeId v : m.targets) {
        ++need[v];
        ++total;
        int nearest = std::numeric_limits<int>::max();
        for (const NodeId u : processors)
          if (u != v) nearest = std::min(nearest, paths_.distance(u, v));
        channel_steps += nearest;
      }
    auto at_least_one = [&](const std::vector<int>& lits) {
      std::vector<int> clause{guard};
      clause.insert(clause.end(), lits.begin(), lits.end());
      cnf_.add(clause);
    };
    if (ports() == 1 && problem_.model.switching == Switching::wormhole) {
      for (const NodeId v : processors)
        if (need[v] == T)
          for (Step s = 1; s <= T; ++s) at_least_one(received[s][v]);
      if (total == static_cast<long long>(T) * static_cast<long long>(processors.size()))
        for (const NodeId u : processors)
          for (Step s = 1; s <= T; ++s) at_least_one(sent[s][u]);
    }
    if (problem_.model.switching == Switching::wormhole &&
        channel_steps == static_cast<long long>(T) * t.channel_count())
      for (Step s = 1; s <= T; ++s)
        for (ChannelId c = 0; c < t.channel_count(); ++c) at_least_one(users(c, s));
  }

  const Problem& problem_;
  bool spreading_;
  const PathSet& paths_;
  const EngineOptions& options_;
  std::optional<int> radius_;
  std::optional<int> paths_per_message_;
  bool balanced_;
  const Budget* budget_;
  std::vector<int> load_;  // channel loads of the paths chosen so far (restricted routing)
  Cnf& cnf_;
  Encoding enc_;
  std::vector<std::vector<int>> channel_users_;
};

// The radius and path-count stages of SatEngine::solve: each gets a quarter of the work
// allowance, at least enough to settle the small encodings these stages are (most answer
// within a few thousand conflicts), at most what about a minute took on the machines of
// docs/BENCHMARKS.md.
constexpr std::int64_t kStageConflictsMin = 20'000;
constexpr std::int64_t kStageConflictsMax = 400'000;

// Stops CaDiCaL when the budget runs out and reports progress twice a second.
class Watch final : public CaDiCaL::Terminator, public CaDiCaL::Learner {
 public:
  Watch(const Budget& budget, const ProgressFn& progress, int steps)
      : budget_(budget), progress_(progress), steps_(steps), start_(Budget::Clock::now()),
        last_report_(start_) {}
  bool terminate() override {
    if (budget_.expired()) return true;
    if (progress_) {
      const auto now = Budget::Clock::now();
      if (now - last_report_ > std::chrono::milliseconds(500)) {
        last_report_ = now;
        progress_({"sat", steps_, conflicts_, -1,
                   std::chrono::duration<double>(now - start_).count()});
      }
    }
    return false;
  }
  bool learning(int) override {
    ++conflicts_;
    return false;
  }
  void learn(int) override {}
  std::int64_t conflicts() const { return conflicts_; }

 private:
  const Budget& budget_;
  const ProgressFn& progress_;
  int steps_;
  std::int64_t conflicts_ = 0;
  Budget::Clock::time_point start_, last_report_;
};

}  // namespace

struct SatEngine::Census {
  const Problem* problem = nullptr;
  std::unique_ptr<PathCensus> census;
};

struct SatEngine::State {
  const Problem* problem = nullptr;
  const PathSet* paths = nullptr;
  std::unique_ptr<CaDiCaL::Solver> solver;
  Encoding encoding;
  SatStats stats;
};

SatEngine::SatEngine(EngineOptions options, ScatterEncoding scatter)
    : options_(std::move(options)), scatter_(scatter) {}
SatEngine::~SatEngine() = default;

SatStats SatEngine::stats() const { return state_ ? state_->stats : SatStats{}; }

SatStats estimate_sat_size(const Problem& problem, const PathSet& paths, int steps,
                           ScatterEncoding scatter) {
  Cnf counter(nullptr);
  EngineOptions options;
  options.max_clauses = std::numeric_limits<std::int64_t>::max();
  const bool spreading = SatEngine(options, scatter).uses_spreading(problem);
  Encoder(problem, paths, options, {options.radius, std::nullopt}, spreading, nullptr, counter)
      .encode(steps);
  return {counter.vars(), counter.clauses()};
}

bool SatEngine::uses_spreading(const Problem& problem) const {
  return is_broadcast(problem.collective) ||
         problem.model.switching == Switching::store_and_forward ||
         scatter_ == ScatterEncoding::relays;
}

EngineResult SatEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                              const Budget& budget) {
  refuse_reductions(problem.collective, "the sat engine", "sat");
  if (problem.model.combining)
    throw Unsupported("combining is not supported by the sat engine yet", "--combining");
  const auto start = Budget::Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Budget::Clock::now() - start).count(); };
  if (steps < 1) {
    EngineResult result;
    result.status = problem.collective.messages.empty() ? SolveStatus::feasible
                                                        : SolveStatus::infeasible;
    if (result.status == SolveStatus::feasible)
      result.schedule = assemble_schedule(problem, {}, "sat", options_.seed);
    return result;
  }
  // Broadcasts at a tight step count almost always use short transfers, and the encoding
  // that only lets a node be informed by holders within r hops (seed 000 §4.4) is far
  // smaller and easier. So try r = 1, 2, ... first, each on a slice of the budget: a
  // schedule found there is as valid as any; "none" proves nothing and we move on, ending
  // with the unrestricted encoding, whose answers are proofs.
  // Scatter-type problems get the same treatment with restricted routing: first one
  // load-balanced path per message, then 2, then 4, then all of them.
  std::int64_t conflicts = 0;
  std::vector<SatRestriction> stages;
  if (uses_spreading(problem)) {
    if (!options_.radius) {
      // The diameter over the processors; past 4,096 processors (all pairs: 4.3e9
      // distances on torus:256x256, minutes) the farthest any origin is from a processor,
      // which is the diameter on the vertex-transitive families met at that size.
      int farthest = 0;
      const auto processors = problem.topology.processors();
      std::vector<NodeId> from;
      if (processors.size() > 4096)
        for (const auto& m : problem.collective.messages) from.push_back(m.origin);
      else
        from.assign(processors.begin(), processors.end());
      std::sort(from.begin(), from.end());
      from.erase(std::unique(from.begin(), from.end()), from.end());
      for (std::size_t i = 0; i < from.size(); ++i) {
        if ((i & 63) == 63 && budget.expired()) break;
        for (const NodeId v : processors)
          if (from[i] != v) farthest = std::max(farthest, paths.distance(from[i], v));
      }
      for (int r = 1; r < farthest; ++r) stages.push_back({r, std::nullopt});
    }
  } else {
    std::size_t most = 0;
    std::size_t listed = 0;  // a million pairs' path lists take seconds: poll the budget
    for (const auto& m : problem.collective.messages) {
      if (++listed % 1024 == 0 && budget.expired()) break;
      most = std::max(most, paths.paths(m.origin, m.targets[0]).size());
    }
    // The first path everywhere is dimension-ordered routing on hypercubes, meshes and
    // tori; balanced choices suit fat trees and Clos networks, where the first paths
    // would all climb to the same top switch.
    if (most > 1) stages.push_back({std::nullopt, 1, false});
    for (int k = 1; static_cast<std::size_t>(k) < most && k <= 4; k *= 2)
      stages.push_back({std::nullopt, k, true});
  }
  for (const auto& stage : stages) {
    if (budget.expired()) break;
    if (!fits_memory(problem, paths, steps, stage)) continue;  // a smaller stage may still fit
    // A quarter of the work allowance per stage, within fixed bounds: conflicts, not
    // seconds, so that the stage that answers is the same on every machine.
    const std::int64_t slice = std::clamp<std::int64_t>(budget.work() / 4, kStageConflictsMin,
                                                        kStageConflictsMax);
    auto staged = std::make_unique<State>();
    EngineResult res = run(*staged, problem, paths, steps, budget.with_work(slice), stage);
    free_later(std::move(staged), budget);
    conflicts += res.conflicts;
    if (res.status == SolveStatus::feasible) {
      res.conflicts = conflicts;
      res.seconds = elapsed();
      return res;
    }
  }
  // The unrestricted (or user-restricted) encoding is kept: the driver asks for fewer
  // steps next, which only adds assumptions.
  if (!state_ || state_->problem != &problem || state_->paths != &paths ||
      state_->encoding.steps < steps) {
    free_later(std::move(state_), budget);  // free the old encoding before estimating or building the new one
    if (std::string why; !fits_memory(problem, paths, steps, {options_.radius, std::nullopt}, &why)) {
      EngineResult res;
      res.status = SolveStatus::unknown;
      res.note = why;
      res.conflicts = conflicts;
      res.seconds = elapsed();
      return res;
    }
    state_ = std::make_unique<State>();
  }
  EngineResult res = run(*state_, problem, paths, steps, budget, {options_.radius, std::nullopt});
  res.conflicts += conflicts;
  free_later(std::move(state_), budget);  // no further step count will be asked for
  res.seconds = elapsed();
  return res;
}

bool SatEngine::fits_memory(const Problem& problem, const PathSet& paths, int steps,
                            const SatRestriction& restriction, std::string* why) {
  if (options_.max_memory <= 0) return true;
  // The census that sizes the encoding holds 12 bytes per ordered processor pair; where
  // that alone is past a quarter of the limit, so is every encoding over those pairs
  // (docs/RELIABILITY.md, "Resource limits"), and the census is not built.
  const double processors = problem.topology.processor_count();
  if (12.0 * processors * processors > 0.25 * options_.max_memory) {
    if (why != nullptr)
      *why = "the SAT encoding's pair census on " + std::to_string(problem.topology.processor_count()) +
             " processors would need " + format_bytes(12.0 * processors * processors) +
             ", more than a quarter of --max-memory " + format_bytes(options_.max_memory);
    return false;
  }
  if (!census_ || census_->problem != &problem) {
    census_ = std::make_unique<Census>();
    census_->problem = &problem;
    census_->census = std::make_unique<PathCensus>(problem.topology, problem.model);
  }
  double cap = paths.limits().truncate ? static_cast<double>(paths.limits().max_paths_per_pair)
                                       : 1e300;
  if (restriction.paths_per_message) cap = std::min<double>(cap, *restriction.paths_per_message);
  const auto need = estimate_sat(problem, *census_->census, steps, restriction.radius, cap,
                                 uses_spreading(problem));
  if (need.bytes <= options_.max_memory) return true;
  if (why != nullptr)
    *why = memory_refusal("the SAT encoding for " + std::to_string(steps) + " steps", need,
                          options_.max_memory,
                          "try fewer steps, minimal routing, a --radius, an evolutionary "
                          "engine (umda, hgsa) or --engine greedy");
  return false;
}

EngineResult SatEngine::run(State& st, const Problem& problem, const PathSet& paths, int steps,
                            const Budget& budget, const SatRestriction& restriction) {
  EngineResult result;
  if (!st.solver) {
    st.problem = &problem;
    st.paths = &paths;
    st.solver = std::make_unique<CaDiCaL::Solver>();
    st.solver->set("quiet", 1);
    st.solver->set("seed", static_cast<int>(options_.seed % 2147483647u));
    Cnf cnf(st.solver.get());
    try {
      st.encoding = Encoder(problem, paths, options_, restriction, uses_spreading(problem),
                            &budget, cnf)
                        .encode(steps);
    } catch (const EncodingAborted&) {
      // A half-built encoding is useless: it is built again next time.
      free_later(std::move(st.solver), budget);
      result.status = SolveStatus::unknown;
      result.note = budget.interrupted()     ? "interrupted"
                    : budget.clock_expired() ? "the time limit cut the encoding"
                                             : "the memory ceiling (--max-memory) cut the encoding";
      return result;
    }
    st.stats = {cnf.vars(), cnf.clauses()};
  }
  for (Step s = steps + 1; s <= st.encoding.steps; ++s) st.solver->assume(-st.encoding.activation[s]);
  sat::limit_conflicts(*st.solver, budget);
  Watch watch(budget, options_.progress, steps);
  // An abandoned solver (past the limit) is gone: the encoding is built again if asked.
  const int answer = sat::solve_detachable(st.solver, *st.solver, budget, &watch, &watch);
  result.conflicts = watch.conflicts();
  result.complete = st.encoding.complete;
  result.note = st.encoding.note;
  result.proof_within = st.encoding.proof_within;
  if (paths.truncated()) {
    // Some pair had more paths than the path limit kept: the search was restricted.
    result.complete = false;
    result.proof_within.clear();
    result.note = (result.note.empty() ? "" : result.note + ", ") + "at most " +
                  plural(paths.limits().max_paths_per_pair, "path") + " per pair";
  }
  if (answer == 10) {
    // Per (message, receiver) keep the earliest chosen transfer: duplicates add nothing,
    // and the earliest keeps every later forward's holding condition (rule 5).
    std::unordered_map<std::uint64_t, const Choice*> chosen;
    for (const Choice& c : st.encoding.choices) {
      if (st.solver->val(c.var) <= 0) continue;
      const auto key = (static_cast<std::uint64_t>(c.message) << 32) |
                       static_cast<std::uint32_t>(c.path->nodes.back());
      auto [it, fresh] = chosen.emplace(key, &c);
      if (!fresh && c.step < it->second->step) it->second = &c;
    }
    std::vector<Transfer> transfers;
    transfers.reserve(chosen.size());
    for (const auto& [key, c] : chosen) transfers.push_back({c->step, c->path->nodes, {c->message}});
    std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
      return std::tie(a.step, a.messages, a.path) < std::tie(b.step, b.messages, b.path);
    });
    result.status = SolveStatus::feasible;
    result.schedule = assemble_schedule(problem, std::move(transfers), "sat", options_.seed);
  } else if (answer == 20) {
    result.status = SolveStatus::infeasible;
  } else {
    result.status = SolveStatus::unknown;
    result.budget_exhausted = true;
    result.note = budget.interrupted()      ? "interrupted"
                  : budget.clock_expired() ? "time limit reached"
                  : memory_over()          ? "memory ceiling (--max-memory) reached"
                                           : "conflict limit reached";
  }
  return result;
}

}  // namespace ccsched
