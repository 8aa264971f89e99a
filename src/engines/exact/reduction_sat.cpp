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
//
// Two dominance rules cut schedules that another schedule of the same length does the
// same as (docs/ENGINES.md "Reductions: exact search"): an `input` send while acc[u] =
// {u} is the `acc` send of the same value, and a `copy` into an empty accumulator is a
// `reduce` (R2 already made it the only transfer into it).
//
// Narrowed searches (assumptions, so one solver serves all): the literal `inputs` is
// implied by every `input` send, `copies` by every `copy`, and per automorphism sigma of
// the problem a literal ties every variable to its image (tie()). Assumed, they confine
// the search to acc-and-reduce schedules, or schedules without `input` sends, or
// schedules invariant under sigma: far smaller spaces where most optima lie (hypercube:3
// ALLREDUCE all-port, 2 steps: 0.01 s instead of minutes; uring:8, 5 steps, needs copies).
// A model there is a valid schedule; only the whole model's "no" is a proof.
#include "ccsched/engines/reduction_sat.hpp"

#include <algorithm>
#include <cadical.hpp>
#include <chrono>
#include <map>
#include <set>
#include <tuple>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/automorphisms.hpp"
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
  int inputs = 0;                // implied by every `input` send
  int copies = 0;                // implied by every `copy`
  std::vector<int> symmetric;    // per symmetry: the schedule is invariant under it
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
    enc.inputs = cnf_.new_var();
    enc.copies = cnf_.new_var();
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
              if (send == ReductionSend::input) cnf_.add({-m.var, enc.inputs});
              if (recv == ReductionRecv::copy) cnf_.add({-m.var, enc.copies});
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
                cnf_.add(nonempty(ku, t - 1, -m.var));
              } else {
                // Dominance: while acc[u] = {u} the `acc` send carries the same value.
                std::vector<int> other{-m.var, -a(ku, sender_[u], t - 1)};
                for (int i = 0; i < S_; ++i)
                  if (i != sender_[u]) other.push_back(a(ku, i, t - 1));
                cnf_.add(other);
              }
              // Dominance: a copy into an empty accumulator is a reduce.
              if (recv == ReductionRecv::copy) cnf_.add(nonempty(kv, t - 1, -m.var));
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

  // Clauses "symmetric -> x implies x's image" for every move, path and accumulator bit
  // under sigma (an automorphism mapping senders onto senders and the targets onto
  // targets); around each cycle of sigma they make the images equal. Any model is still
  // a valid schedule: the ties only narrow the search.
  void tie(Encoding& enc, const std::vector<NodeId>& sigma) {
    const int lit = cnf_.new_var();
    enc.symmetric.push_back(lit);
    const int P = static_cast<int>(procs_.size());
    std::vector<int> image_of_sender(S_);
    for (int i = 0; i < S_; ++i) image_of_sender[i] = sender_[sigma[p_.collective.senders[i]]];
    for (int t = 1; t <= enc.steps; ++t)
      for (int k = 0; k < P; ++k)
        for (int i = 0; i < S_; ++i)
          cnf_.add({-lit, -a(k, i, t), a(index_[sigma[procs_[k]]], image_of_sender[i], t)});
    std::map<std::tuple<NodeId, NodeId, Step, int>, const Move*> by_ends;
    auto key = [](NodeId u, NodeId v, Step t, const Move& m) {
      return std::tuple(u, v, t, 2 * static_cast<int>(m.send) + static_cast<int>(m.recv));
    };
    for (const Move& m : enc.moves) by_ends[key(m.from, m.to, m.step, m)] = &m;
    for (const Move& m : enc.moves) {
      const auto it = by_ends.find(key(sigma[m.from], sigma[m.to], m.step, m));
      if (it == by_ends.end()) continue;
      const Move& image = *it->second;
      cnf_.add({-lit, -m.var, image.var});
      for (const auto& [y, path] : m.paths) {
        std::vector<NodeId> mapped;
        for (NodeId w : path->nodes) mapped.push_back(sigma[w]);
        for (const auto& [z, other] : image.paths)
          if (other->nodes == mapped) cnf_.add({-lit, -y, z});
      }
    }
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
  // The clause "lit, or acc[k] is not empty after step t".
  std::vector<int> nonempty(int k, int t, int lit) const {
    std::vector<int> clause{lit};
    for (int i = 0; i < S_; ++i) clause.push_back(a(k, i, t));
    return clause;
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

// Automorphisms under which the problem is invariant (senders onto senders, each R3
// target onto a target), fixed-point-free on the processors: per order, largest first, the
// first one whose cycles on the processors have equal length, else the first (at most
// `count`). The enumeration stops at a fixed number of maps (deterministic).
std::vector<std::vector<NodeId>> reduction_symmetries(const Problem& p, std::size_t count) {
  const Collective& c = p.collective;
  const auto targets = reduction_targets(c);
  std::set<std::pair<NodeId, std::vector<NodeId>>> wanted;
  auto as_nodes = [&](const ReductionTarget& r, const std::vector<NodeId>* sigma) {
    std::vector<NodeId> nodes;
    for (int i : r.senders) nodes.push_back(sigma ? (*sigma)[c.senders[i]] : c.senders[i]);
    std::sort(nodes.begin(), nodes.end());
    return std::pair(sigma ? (*sigma)[r.node] : r.node, nodes);
  };
  for (const ReductionTarget& r : targets) wanted.insert(as_nodes(r, nullptr));
  std::vector<char> sender(p.topology.node_count(), 0);
  for (NodeId v : c.senders) sender[v] = 1;
  AutomorphismLimits limits;
  limits.limit = 2000;
  std::map<long long, std::pair<bool, const std::vector<NodeId>*>, std::greater<>> best;
  const auto group = find_automorphisms(p.topology, limits);
  for (const auto& sigma : group.maps) {
    bool fits = true;
    for (NodeId v : p.topology.processors()) fits = fits && sigma[v] != v;
    for (NodeId v : c.senders) fits = fits && sender[sigma[v]];
    for (const ReductionTarget& r : targets) fits = fits && wanted.count(as_nodes(r, &sigma));
    if (!fits) continue;
    const long long order = permutation_order(sigma);
    bool regular = true;
    for (NodeId v : p.topology.processors()) {
      long long length = 1;
      for (NodeId w = sigma[v]; w != v; w = sigma[w]) ++length;
      regular = regular && length == order;
    }
    auto [it, fresh] = best.emplace(order, std::pair(regular, &sigma));
    if (!fresh && regular && !it->second.first) it->second = {regular, &sigma};
  }
  std::vector<std::vector<NodeId>> out;
  for (const auto& [order, choice] : best)
    if (out.size() < count) out.push_back(*choice.second);
  return out;
}

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
    free_later(std::move(state_), budget);
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
      Encoder encoder(problem, paths, &budget, cnf);
      st->encoding = encoder.encode(steps);
      for (const auto& sigma : reduction_symmetries(problem, kSymmetries))
        encoder.tie(st->encoding, sigma);
    } catch (const EncodingAborted&) {
      free_later(std::move(st), budget);
      result.note = budget.interrupted() ? "interrupted" : "the time limit cut the encoding";
      result.budget_exhausted = true;
      return finish(result);
    }
    state_ = std::move(st);
  }
  State& st = *state_;
  // The narrowed searches first: acc-and-reduce only, invariant under each symmetry and
  // not; then with copies too; then the whole model. Each gets a slice of conflicts
  // in turn, the slices doubling, until one answers (a narrowed one only with a schedule:
  // its "no" closes it), the budget's work is spent or the clock runs out. CaDiCaL keeps
  // what it learnt between the slices.
  std::vector<std::vector<int>> tiers;
  const int inputs = st.encoding.inputs, copies = st.encoding.copies;
  for (int sym : st.encoding.symmetric) tiers.push_back({sym, -inputs, -copies});
  tiers.push_back({-inputs, -copies});
  for (int sym : st.encoding.symmetric) tiers.push_back({sym, -inputs});
  tiers.push_back({-inputs});
  tiers.push_back({});
  std::vector<char> open(tiers.size(), 1);
  const std::int64_t work = budget.work_limited() ? budget.work() : std::int64_t{1} << 40;
  std::int64_t spent = 0, slice = kNarrowConflicts;
  int answer = 0;
  while (answer == 0 && spent < work && !budget.expired()) {
    for (std::size_t k = 0; k < tiers.size() && answer == 0; ++k) {
      if (!open[k] || spent >= work || budget.expired()) continue;
      const std::int64_t n = std::min({slice, work - spent, std::int64_t{1'000'000'000}});
      for (Step s = steps + 1; s <= st.encoding.steps; ++s)
        st.solver->assume(-st.encoding.activation[s]);
      for (int lit : tiers[k]) st.solver->assume(lit);
      st.solver->limit("conflicts", static_cast<int>(n));
      // Past the limit the state may be abandoned to the solver's thread (cnf.hpp).
      const int a = sat::solve_detachable(state_, *st.solver, budget);
      if (!state_) break;
      spent += n;
      const bool whole = tiers[k].empty();
      if (a == 10 || (a == 20 && whole)) answer = a;
      if (a == 20) open[k] = 0;
    }
    slice *= 2;
  }
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
