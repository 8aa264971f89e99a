// The exact search for one-block reductions (engines/reduction_sat.hpp; docs/ENGINES.md
// "Reductions: exact search"). The CNF follows FORMATS.md "Reductions" rule by rule, so
// that its models are exactly the valid schedules of at most T steps:
//
//   a[v][i][t]   processor v's accumulator holds input i after step t (t = 0: {v} for a
//                sender, empty otherwise). Every processor has one: any may relay.
//   x            one transfer u -> v in step t, per (send, recv) kind: acc or input (u a
//                sender) x reduce or copy. Two transfers of the same kind between the same
//                ends in one step would reduce one value twice or copy twice, which R2
//                forbids, so one variable per kind covers every valid schedule.
//   y            x's path, one of the allowed paths u -> v (through any router); at most
//                one transfer per channel and step (rule 3), at most k transfers out of and
//                into a processor per step (rule 4).
//   carry        x reduces a value holding input i (acc: x and a[u][i][t-1]).
//
// R2 per (v, i, t): at most one of a[v][i][t-1] and the carries of i into v (disjointness
// of the reduced values from the accumulator and from each other); a copy excludes every
// other transfer into v; an `acc` send needs a non-empty accumulator. The update: with a
// copy, a[v][.][t] is the copied value; otherwise it is a[v][.][t-1] plus the carries.
// R3 fixes a[r][.][T] for every target the kind names (reduction_targets).
//
// Each step has an activation literal, as in the SAT engine (sat.cpp): with act[s] false
// nothing moves in step s, the accumulators stand still, so the R3 clauses on the last
// step hold for the fewer steps too, and one encoding answers every T' <= T.
#include "ccsched/engines/reduction_sat.hpp"

#include <algorithm>
#include <cadical.hpp>
#include <chrono>

#include "ccsched/core/error.hpp"
#include "cnf.hpp"

namespace ccsched {
namespace {

using sat::Cnf;

// One possible transfer: ends, step, kind, and its path choices.
struct Move {
  int var = 0;
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  Step step = 0;
  ReductionSend send = ReductionSend::acc;
  ReductionRecv recv = ReductionRecv::reduce;
  std::vector<std::pair<int, const Path*>> paths;  // (y, path)
};

struct Encoding {
  int steps = 0;
  std::vector<int> activation;  // [s], s = 1..steps
  std::vector<Move> moves;
};

struct EncodingAborted {};

class Encoder {
 public:
  Encoder(const Problem& problem, const PathSet& paths, const Budget* budget, Cnf& cnf)
      : p_(problem), paths_(paths), budget_(budget), cnf_(cnf) {}

  Encoding encode(int T) {
    const Topology& topo = p_.topology;
    procs_.assign(topo.processors().begin(), topo.processors().end());
    const int P = static_cast<int>(procs_.size());
    S_ = static_cast<int>(p_.collective.senders.size());
    index_.assign(topo.node_count(), -1);
    sender_.assign(topo.node_count(), -1);
    for (int k = 0; k < P; ++k) index_[procs_[k]] = k;
    for (int i = 0; i < S_; ++i) sender_[p_.collective.senders[i]] = i;
    top_ = cnf_.new_var();
    cnf_.add({top_});
    Encoding enc;
    enc.steps = T;
    enc.activation.assign(T + 1, 0);
    for (Step s = 1; s <= T; ++s) enc.activation[s] = cnf_.new_var();
    acc_.assign(static_cast<std::size_t>(T + 1) * P * S_, 0);
    for (int t = 1; t <= T; ++t)
      for (int k = 0; k < P; ++k)
        for (int i = 0; i < S_; ++i) acc_[slot(k, i, t)] = cnf_.new_var();
    const std::optional<int> ports = p_.model.ports;
    for (Step t = 1; t <= T; ++t) {
      std::vector<std::vector<int>> users(topo.channel_count());
      std::vector<std::vector<int>> out(P), in(P);
      std::vector<std::vector<const Move*>> into(P);
      const std::size_t first = enc.moves.size();
      for (int ku = 0; ku < P; ++ku) {
        const NodeId u = procs_[ku];
        for (int kv = 0; kv < P; ++kv) {
          const NodeId v = procs_[kv];
          if (u == v) continue;
          const auto& list = paths_.paths(u, v);
          if (list.empty()) continue;
          for (ReductionSend send : {ReductionSend::acc, ReductionSend::input}) {
            if (send == ReductionSend::input && sender_[u] < 0) continue;
            for (ReductionRecv recv : {ReductionRecv::reduce, ReductionRecv::copy}) {
              Move m{cnf_.new_var(), u, v, t, send, recv, {}};
              cnf_.add({-m.var, enc.activation[t]});
              std::vector<int> some{-m.var};
              for (const Path& path : list) {
                const int y = cnf_.new_var();
                cnf_.add({-y, m.var});
                some.push_back(y);
                for (ChannelId c : path.channels) users[c].push_back(y);
                m.paths.push_back({y, &path});
              }
              cnf_.add(some);
              if (send == ReductionSend::acc) {  // R2: acc must not be empty
                std::vector<int> nonempty{-m.var};
                for (int i = 0; i < S_; ++i) nonempty.push_back(a(ku, i, t - 1));
                cnf_.add(nonempty);
              }
              out[ku].push_back(m.var);
              in[kv].push_back(m.var);
              enc.moves.push_back(std::move(m));
            }
          }
        }
        check();
      }
      for (std::size_t j = first; j < enc.moves.size(); ++j)
        into[index_[enc.moves[j].to]].push_back(&enc.moves[j]);
      for (const auto& u : users) cnf_.at_most_one(u);
      if (ports)
        for (int k = 0; k < P; ++k) {
          cnf_.at_most_k(out[k], *ports);
          cnf_.at_most_k(in[k], *ports);
        }
      for (int kv = 0; kv < P; ++kv) receive(kv, t, into[kv]);
      check();
    }
    // R3: the named accumulators hold exactly their sets after the last step.
    for (const ReductionTarget& target : reduction_targets(p_.collective)) {
      std::vector<char> want(S_, 0);
      for (int i : target.senders) want[i] = 1;
      for (int i = 0; i < S_; ++i)
        cnf_.add({want[i] ? a(index_[target.node], i, T) : -a(index_[target.node], i, T)});
    }
    return enc;
  }

 private:
  std::size_t slot(int k, int i, int t) const {
    return (static_cast<std::size_t>(t) * procs_.size() + k) * S_ + i;
  }
  // a[v][i][t] as a literal; at t = 0 the constant the start fixes.
  int a(int k, int i, int t) const {
    if (t == 0) return sender_[procs_[k]] == i ? top_ : -top_;
    return acc_[slot(k, i, t)];
  }
  void check() const {
    if (budget_ != nullptr && budget_->expired()) throw EncodingAborted{};
  }

  // R2 and the update for everything that arrives at processor kv in step t.
  void receive(int kv, int t, const std::vector<const Move*>& moves) {
    std::vector<int> copies, reduces;
    for (const Move* m : moves) (m->recv == ReductionRecv::copy ? copies : reduces).push_back(m->var);
    const int copied = cnf_.new_var();  // some copy arrives
    {
      std::vector<int> some{-copied};
      some.insert(some.end(), copies.begin(), copies.end());
      cnf_.add(some);
      for (int c : copies) cnf_.add({-c, copied});
    }
    const int reduced = cnf_.new_var();  // some reduce arrives
    for (int r : reduces) cnf_.add({-r, reduced});
    std::vector<int> exclusive = copies;  // a copy is the only transfer into acc[v]
    exclusive.push_back(reduced);
    cnf_.at_most_one(exclusive);
    for (int i = 0; i < S_; ++i) {
      const int before = a(kv, i, t - 1);
      const int after = a(kv, i, t);
      std::vector<int> carries;
      for (const Move* m : moves) {
        const int ku = index_[m->from];
        if (m->recv == ReductionRecv::copy) {
          if (m->send == ReductionSend::acc) {
            cnf_.add({-m->var, -a(ku, i, t - 1), after});
            cnf_.add({-m->var, a(ku, i, t - 1), -after});
          } else {
            cnf_.add({-m->var, sender_[m->from] == i ? after : -after});
          }
          continue;
        }
        if (m->send == ReductionSend::input) {
          if (sender_[m->from] == i) carries.push_back(m->var);
          continue;
        }
        const int source = a(ku, i, t - 1);
        if (source == -top_) continue;  // nothing to carry
        const int c = cnf_.new_var();
        cnf_.add({-c, m->var});
        cnf_.add({-c, source});
        cnf_.add({-m->var, -source, c});
        carries.push_back(c);
      }
      std::vector<int> once{before};  // R2: each input reaches acc[v] at most once
      once.insert(once.end(), carries.begin(), carries.end());
      cnf_.at_most_one(once);
      for (int c : carries) cnf_.add({-c, after});
      cnf_.add({copied, -before, after});
      std::vector<int> support{copied, before, -after};
      support.insert(support.end(), carries.begin(), carries.end());
      cnf_.add(support);
    }
  }

  const Problem& p_;
  const PathSet& paths_;
  const Budget* budget_;
  Cnf& cnf_;
  std::vector<NodeId> procs_;
  std::vector<int> index_, sender_;
  std::vector<int> acc_;
  int S_ = 0;
  int top_ = 0;
};

// Why the model as written may allow schedules the encoding does not see, or empty.
std::string restriction(const Problem& p, const PathSet& paths) {
  // A path from a processor back to itself is never minimal (its ends are at distance 0),
  // but nonminimal routing may allow a cycle, and the encoding has no u -> u transfers.
  if (p.model.routing != Routing::minimal) return "transfers between distinct processors";
  return paths.truncated() ? "truncated" : "";
}

}  // namespace

struct ReductionSatEngine::State {
  const Problem* problem = nullptr;
  const PathSet* paths = nullptr;
  std::unique_ptr<CaDiCaL::Solver> solver;
  Encoding encoding;
};

ReductionSatEngine::ReductionSatEngine(EngineOptions options) : options_(std::move(options)) {}
ReductionSatEngine::~ReductionSatEngine() = default;

ReductionSatSize estimate_reduction_sat(const Problem& problem, const PathSet& paths, int steps) {
  const auto procs = problem.topology.processors();
  const std::int64_t S = static_cast<std::int64_t>(problem.collective.senders.size());
  const std::int64_t P = static_cast<std::int64_t>(procs.size());
  std::vector<char> sender(problem.topology.node_count(), 0);
  for (NodeId v : problem.collective.senders) sender[v] = 1;
  std::int64_t moves = 0, ys = 0, hops = 0;
  for (NodeId u : procs)
    for (NodeId v : procs) {
      if (u == v) continue;
      const auto& list = paths.paths(u, v);
      if (list.empty()) continue;
      const std::int64_t kinds = sender[u] ? 4 : 2;
      moves += kinds;
      ys += kinds * static_cast<std::int64_t>(list.size());
      for (const Path& path : list) hops += kinds * static_cast<std::int64_t>(path.channels.size());
    }
  // Per step: a move costs its activation and path clauses, S carries of 7 literals and
  // their counter entries; a path 3 literals and ~4 per channel in the channel counters;
  // each accumulator bit ~10 literals of update clauses.
  ReductionSatSize size;
  size.variables = steps * (moves * (1 + S) + ys + 3 * P * S + 2 * P);
  size.literals = steps * (moves * (10 + 12 * S) + 3 * ys + 4 * hops + 10 * P * S);
  return size;
}

std::string reduction_sat_refusal(const Problem& problem, const PathSet& paths, int steps,
                                  const EngineOptions& options) {
  const Collective& c = problem.collective;
  if (!is_reduction(c)) return "not a reduction";
  if (c.blocks != 1) return "the exact reduction search handles one block only";
  const int procs = problem.topology.processor_count();
  if (procs > ReductionSatEngine::kMaxProcessors)
    return "the exact reduction search is for at most " +
           std::to_string(ReductionSatEngine::kMaxProcessors) + " processors (this network has " +
           std::to_string(procs) + ")";
  const auto size = estimate_reduction_sat(problem, paths, steps);
  if (size.literals > ReductionSatEngine::kMaxLiterals)
    return "the exact reduction search for " + std::to_string(steps) + " steps would need about " +
           std::to_string(size.literals / 1'000'000) + " million literals";
  if (options.max_memory > 0 &&
      sat::encoding_bytes(static_cast<double>(size.variables), static_cast<double>(size.literals)) >
          options.max_memory)
    return "the exact reduction search for " + std::to_string(steps) +
           " steps would exceed the memory limit";
  return {};
}

EngineResult ReductionSatEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                                       const Budget& budget) {
  const auto start = Budget::Clock::now();
  EngineResult result;
  auto finish = [&](EngineResult& r) -> EngineResult& {
    r.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
    return r;
  };
  if (steps < 1) {
    // Nothing moves: only a goal that already holds (never, with two or more senders).
    result.status = SolveStatus::unknown;
    result.note = "no steps";
    return finish(result);
  }
  if (!state_ || state_->problem != &problem || state_->paths != &paths ||
      state_->encoding.steps < steps) {
    state_.reset();
    if (std::string why = reduction_sat_refusal(problem, paths, steps, options_); !why.empty()) {
      result.note = why;
      return finish(result);
    }
    auto st = std::make_unique<State>();
    st->problem = &problem;
    st->paths = &paths;
    st->solver = std::make_unique<CaDiCaL::Solver>();
    st->solver->set("quiet", 1);
    st->solver->set("seed", static_cast<int>(options_.seed % 2147483647u));
    Cnf cnf(st->solver.get());
    try {
      st->encoding = Encoder(problem, paths, &budget, cnf).encode(steps);
    } catch (const EncodingAborted&) {
      result.note = budget.interrupted() ? "interrupted" : "the time limit cut the encoding";
      result.budget_exhausted = true;
      return finish(result);
    }
    state_ = std::move(st);
  }
  State& st = *state_;
  for (Step s = steps + 1; s <= st.encoding.steps; ++s) st.solver->assume(-st.encoding.activation[s]);
  sat::limit_conflicts(*st.solver, budget);
  const int answer = sat::solve_within(*st.solver, budget);
  const std::string within = restriction(problem, paths);
  result.complete = within.empty();
  result.proof_within = within == "truncated" ? "" : within;
  if (!within.empty())
    result.note = within == "truncated" ? "a truncated path set" : within;
  if (answer == 10) {
    std::vector<Transfer> transfers;
    for (const Move& m : st.encoding.moves) {
      if (m.step > steps || st.solver->val(m.var) <= 0) continue;
      const auto chosen = std::find_if(m.paths.begin(), m.paths.end(), [&](const auto& y) {
        return st.solver->val(y.first) > 0;
      });
      if (chosen == m.paths.end()) continue;  // cannot happen: x implies one of its paths
      Transfer t;
      t.step = m.step;
      t.path = chosen->second->nodes;
      t.blocks = {0};
      t.send = m.send;
      t.recv = m.recv;
      transfers.push_back(std::move(t));
    }
    result.status = SolveStatus::feasible;
    result.schedule = assemble_schedule(problem, std::move(transfers), name(), options_.seed);
  } else if (answer == 20) {
    result.status = SolveStatus::infeasible;
  } else {
    result.status = SolveStatus::unknown;
    result.budget_exhausted = true;
    result.note = budget.interrupted() ? "interrupted" : "time limit reached";
  }
  return finish(result);
}

}  // namespace ccsched
