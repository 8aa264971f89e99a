// Large-neighbourhood search over step windows (include/ccsched/engines/lns.hpp).
//
// State: every message either sits in a step with one of its paths, or is pending. The
// search starts from a valid schedule with its lightest steps emptied (their messages
// pending) and ends when nothing is pending. One move: pick w steps, free the messages in
// them, and ask CaDiCaL to place all of those and at least one pending message into the
// same w steps (one path and step each; at most one message per channel and step; k-port
// limits). Messages outside the window keep their places, and since a direct-delivery
// step never depends on another step, the window question is exact. An unsatisfiable
// window widens the next one, a window that hits its conflict limit narrows it; every
// fifth fruitless window re-packs without the "one more" demand, to move sideways.
#include "ccsched/engines/lns.hpp"

#include <algorithm>
#include <limits>
#include <cadical.hpp>
#include <numeric>
#include <random>
#include <unordered_map>

#include "cnf.hpp"

namespace ccsched {
namespace {

constexpr int kUnplaced = 0;

// How a squeezer's windows move (both classes below): a window of `size` steps, wider
// (up to `widest`) after an unsatisfiable question, narrower after an undecided one; every
// fifth fruitless move goes sideways (any placement accepted, to leave a plateau).
struct WindowControl {
  int size;
  int widest;
  int fruitless = 0;
  std::int64_t moves = 0;

  bool sideways() const { return fruitless > 0 && fruitless % 5 == 0; }
  // A question answered without a placement (CaDiCaL: 20 unsatisfiable, 0 undecided).
  void unplaced(int answer, int steps) {
    size = answer == 20 ? std::min(size + 1, std::min(steps, widest)) : std::max(size - 1, 2);
    ++fruitless;
  }
  bool placed(bool better) {
    fruitless = better ? 0 : fruitless + 1;
    return better;
  }
};

class Squeezer {
 public:
  Squeezer(const Problem& problem, const PathSet& paths, int steps, std::uint64_t seed)
      : problem_(problem), paths_(paths), steps_(steps), rng_(seed) {
    const auto& messages = problem.collective.messages;
    step_.assign(messages.size(), kUnplaced);
    path_.assign(messages.size(), 0);
  }

  // Takes the start schedule; false when it is not a direct-delivery schedule over paths
  // of the PathSet.
  bool load(const Schedule& start) {
    const auto& messages = problem_.collective.messages;
    std::vector<int> load(start.steps + 1, 0);
    for (const auto& t : start.transfers) {
      // Listing paths fills the path set's cache (torus:32x32 REDUCE --blocks 8: a
      // gigabyte): past the memory ceiling the squeeze is skipped.
      if (memory_over()) return false;
      if (t.messages.size() != 1 || t.messages[0] < 0 ||
          static_cast<std::size_t>(t.messages[0]) >= messages.size())
        return false;
      const auto& m = messages[t.messages[0]];
      if (t.path.front() != m.origin || t.path.back() != m.targets[0]) return false;
      const auto& candidates = paths_.paths(m.origin, m.targets[0]);
      const auto it = std::find_if(candidates.begin(), candidates.end(),
                                   [&](const Path& p) { return p.nodes == t.path; });
      if (it == candidates.end()) return false;
      step_[m.id] = t.step;
      path_[m.id] = static_cast<int>(it - candidates.begin());
      ++load[t.step];
    }
    for (std::size_t i = 0; i < step_.size(); ++i)
      if (step_[i] == kUnplaced) return false;
    // Empty the lightest steps until `steps_` remain, renumbering the others 1..steps_.
    std::vector<Step> order(start.steps);
    std::iota(order.begin(), order.end(), 1);
    std::stable_sort(order.begin(), order.end(),
                     [&](Step a, Step b) { return load[a] > load[b]; });
    std::vector<Step> renumber(start.steps + 1, kUnplaced);
    for (int i = 0; i < std::min<int>(steps_, start.steps); ++i) renumber[order[i]] = i + 1;
    for (std::size_t i = 0; i < step_.size(); ++i) {
      step_[i] = renumber[step_[i]];
      if (step_[i] == kUnplaced) pending_.push_back(static_cast<MessageId>(i));
    }
    return true;
  }

  std::size_t pending() const { return pending_.size(); }

  // One window move; true when it placed at least one pending message.
  bool move(const Budget& budget) {
    const int w = std::min(window_.size, steps_);
    const std::vector<Step> window = choose_window(w);
    std::vector<int> slot(steps_ + 1, -1);
    for (int j = 0; j < w; ++j) slot[window[j]] = j;

    std::vector<MessageId> fixed_free, candidates;
    for (std::size_t i = 0; i < step_.size(); ++i)
      if (step_[i] != kUnplaced && slot[step_[i]] >= 0) fixed_free.push_back(static_cast<MessageId>(i));
    candidates = pending_;
    std::shuffle(candidates.begin(), candidates.end(), rng_);
    if (candidates.size() > 64) candidates.resize(64);
    const bool sideways = window_.sideways();

    auto owned = std::make_unique<CaDiCaL::Solver>();
    CaDiCaL::Solver& solver = *owned;
    solver.set("quiet", 1);
    solver.set("seed", static_cast<int>(rng_() % 2147483647u));
    sat::Cnf cnf(&solver);
    // Cut by the clock while encoding or solving: nothing changes, and a large window's
    // solver is freed off the main path once the run is over.
    const auto cut = [&] {
      free_later(std::move(owned), budget);
      return false;
    };
    const int channels = problem_.topology.channel_count();
    const int nodes = problem_.topology.node_count();
    std::vector<std::vector<int>> users(static_cast<std::size_t>(w) * channels);
    std::vector<std::vector<int>> sends(static_cast<std::size_t>(w) * nodes),
        receives(static_cast<std::size_t>(w) * nodes);
    struct Var {
      int lit;
      MessageId message;
      int slot;
      int path;
    };
    std::vector<Var> vars;
    std::vector<int> placed_any;
    auto encode = [&](MessageId id, bool must) {
      const auto& m = problem_.collective.messages[id];
      const auto& candidates_paths = paths_.paths(m.origin, m.targets[0]);
      std::vector<int> mine;
      for (int j = 0; j < w; ++j)
        for (int p = 0; p < static_cast<int>(candidates_paths.size()); ++p) {
          const int y = cnf.new_var();
          mine.push_back(y);
          vars.push_back({y, id, j, p});
          for (const ChannelId c : candidates_paths[p].channels)
            users[static_cast<std::size_t>(j) * channels + c].push_back(y);
          sends[static_cast<std::size_t>(j) * nodes + m.origin].push_back(y);
          receives[static_cast<std::size_t>(j) * nodes + m.targets[0]].push_back(y);
        }
      cnf.at_most_one(mine);
      if (must) {
        cnf.add(mine);
      } else {
        const int placed = cnf.new_var();
        mine.insert(mine.begin(), -placed);
        cnf.add(mine);
        placed_any.push_back(placed);
      }
    };
    for (const MessageId id : fixed_free) {
      if (budget.expired() || memory_over()) return cut();
      encode(id, true);
    }
    for (const MessageId id : candidates) encode(id, false);
    if (!sideways && !placed_any.empty()) cnf.add(placed_any);
    if (!cnf.transfer_limits(users, sends, receives, problem_.model.ports, budget)) return cut();
    solver.limit("conflicts", conflict_limit_);
    const int answer = sat::solve_detachable(owned, solver, budget);
    if (!owned) return false;  // abandoned to its thread past the limit
    if (answer == 0 && budget.expired()) return cut();
    ++window_.moves;
    if (answer != 10) {
      // Unsatisfiable: this window has no room; look wider. Undecided: look narrower.
      window_.unplaced(answer, steps_);
      return false;
    }
    for (const MessageId id : fixed_free) step_[id] = kUnplaced;
    for (const MessageId id : candidates) step_[id] = kUnplaced;
    for (const Var& v : vars)
      if (solver.val(v.lit) > 0) {
        step_[v.message] = window[v.slot];
        path_[v.message] = v.path;
      }
    const std::size_t before = pending_.size();
    pending_.clear();
    for (std::size_t i = 0; i < step_.size(); ++i)
      if (step_[i] == kUnplaced) pending_.push_back(static_cast<MessageId>(i));
    return window_.placed(pending_.size() < before);
  }

  // Half the time a random window; otherwise the steps where a random pending message
  // meets the fewest busy channels on its best path (ties broken at random): the steps
  // most likely to make room for it.
  std::vector<Step> choose_window(int w) {
    std::vector<Step> all(steps_);
    std::iota(all.begin(), all.end(), 1);
    std::shuffle(all.begin(), all.end(), rng_);
    if (pending_.empty() || rng_() % 2 == 0) return {all.begin(), all.begin() + w};
    const auto channels_busy = busy_channels();
    const auto& m = problem_.collective.messages[pending_[rng_() % pending_.size()]];
    const auto& candidates = paths_.paths(m.origin, m.targets[0]);
    std::vector<int> score(steps_ + 1, 0);
    for (const Step s : all) {
      int best = std::numeric_limits<int>::max();
      for (const Path& p : candidates) {
        int busy = 0;
        for (const ChannelId c : p.channels) busy += channels_busy[index(s, c)];
        best = std::min(best, busy);
      }
      score[s] = best;
    }
    std::stable_sort(all.begin(), all.end(), [&](Step a, Step b) { return score[a] < score[b]; });
    return {all.begin(), all.begin() + w};
  }

  std::size_t index(Step s, ChannelId c) const {
    return static_cast<std::size_t>(s) * problem_.topology.channel_count() + c;
  }

  // busy[index(s, c)]: 1 when a placed message uses channel c in step s.
  std::vector<char> busy_channels() const {
    std::vector<char> busy(static_cast<std::size_t>(steps_ + 1) * problem_.topology.channel_count(), 0);
    const auto& messages = problem_.collective.messages;
    for (std::size_t i = 0; i < step_.size(); ++i) {
      if (step_[i] == kUnplaced) continue;
      const auto& m = messages[i];
      for (const ChannelId c : paths_.paths(m.origin, m.targets[0])[path_[i]].channels)
        busy[index(step_[i], c)] = 1;
    }
    return busy;
  }

  Schedule schedule(std::uint64_t seed) const {
    std::vector<Transfer> transfers;
    const auto& messages = problem_.collective.messages;
    for (std::size_t i = 0; i < step_.size(); ++i) {
      const auto& m = messages[i];
      transfers.push_back({step_[i], paths_.paths(m.origin, m.targets[0])[path_[i]].nodes,
                           {static_cast<MessageId>(i)}});
    }
    return assemble_schedule(problem_, std::move(transfers), "lns", seed);
  }

  std::int64_t moves() const { return window_.moves; }

 private:
  const Problem& problem_;
  const PathSet& paths_;
  int steps_;
  std::mt19937_64 rng_;
  std::vector<Step> step_;
  std::vector<int> path_;
  std::vector<MessageId> pending_;
  WindowControl window_{4, 12};
  std::int64_t conflict_limit_ = 20000;
};

// Broadcast windows. A reception (message m reaches node v in step s from sender u over
// path p) is the unit; the holding rule (FORMATS.md rule 5) ties receptions together.
// Every reception in the window's steps is freed; a freed or pending reception (m, v) may
// only be placed before its deadline, the first step outside the window in which v
// forwards m, so every fixed transfer keeps its holder. Senders in the window are the
// fixed holders (origin, or received outside the window before the step) and the freed
// or pending receptions placed earlier in the window.
class BroadcastSqueezer {
 public:
  BroadcastSqueezer(const Problem& problem, const PathSet& paths, int steps, std::uint64_t seed)
      : problem_(problem), paths_(paths), steps_(steps), rng_(seed),
        n_(problem.topology.node_count()) {
    const auto& messages = problem.collective.messages;
    rec_.assign(messages.size() * n_, Reception{});
    near_.assign(n_, 0);
    for (const NodeId v : problem.topology.processors()) {
      int nearest = std::numeric_limits<int>::max();
      for (const NodeId u : problem.topology.processors())
        if (u != v) nearest = std::min(nearest, paths.distance(u, v));
      near_[v] = nearest + 1;
    }
  }

  bool load(const Schedule& start) {
    const auto& messages = problem_.collective.messages;
    std::vector<int> load(start.steps + 1, 0);
    for (const auto& t : start.transfers) {
      // Listing paths fills the path set's cache (torus:32x32 REDUCE --blocks 8: a
      // gigabyte): past the memory ceiling the squeeze is skipped.
      if (memory_over()) return false;
      if (t.messages.size() != 1 || t.messages[0] < 0 ||
          static_cast<std::size_t>(t.messages[0]) >= messages.size() || t.path.size() < 2)
        return false;
      const MessageId m = t.messages[0];
      const NodeId u = t.path.front(), v = t.path.back();
      if (v == messages[m].origin) continue;
      const auto& candidates = paths_.paths(u, v);
      const auto it = std::find_if(candidates.begin(), candidates.end(),
                                   [&](const Path& p) { return p.nodes == t.path; });
      if (it == candidates.end()) return false;
      Reception& r = at(m, v);
      if (r.step == kUnplaced || t.step < r.step) {
        r = {t.step, u, static_cast<int>(it - candidates.begin())};
      }
    }
    for (const auto& t : start.transfers) ++load[t.step];
    std::vector<Step> order(start.steps);
    std::iota(order.begin(), order.end(), 1);
    // Keep the heaviest steps; among equal loads drop the later ones (fewer forwards
    // depend on them).
    std::stable_sort(order.begin(), order.end(),
                     [&](Step a, Step b) { return load[a] != load[b] ? load[a] > load[b] : a < b; });
    std::vector<Step> renumber(start.steps + 1, kUnplaced);
    std::vector<Step> kept(order.begin(), order.begin() + std::min<int>(steps_, start.steps));
    std::sort(kept.begin(), kept.end());
    for (std::size_t i = 0; i < kept.size(); ++i) renumber[kept[i]] = static_cast<Step>(i + 1);
    for (auto& r : rec_)
      if (r.step != kUnplaced) r.step = renumber[r.step];
    refresh_pending();
    return true;
  }

  std::size_t pending() const { return pending_.size(); }
  std::int64_t moves() const { return window_.moves; }

  bool move(const Budget& budget) {
    const int w = std::min(window_.size, steps_);
    std::vector<Step> window;
    const int mode = static_cast<int>(rng_() % 3);
    if (mode == 2 && !pending_.empty()) {
      // Aimed at a pending reception: consecutive steps before its deadline.
      const auto [pm, pv] = pending_[rng_() % pending_.size()];
      Step due = static_cast<Step>(steps_ + 1);
      for (NodeId x = 0; x < n_; ++x)
        if (at(pm, x).step != kUnplaced && at(pm, x).sender == pv) due = std::min(due, at(pm, x).step);
      const int last = std::max(w, static_cast<int>(due) - 1);
      const Step first = static_cast<Step>(1 + rng_() % (last - w + 1));
      for (int j = 0; j < w; ++j) window.push_back(first + j);
    } else if (mode == 0) {
      const Step first = static_cast<Step>(1 + rng_() % (steps_ - w + 1));
      for (int j = 0; j < w; ++j) window.push_back(first + j);
    } else {
      std::vector<Step> all(steps_);
      std::iota(all.begin(), all.end(), 1);
      std::shuffle(all.begin(), all.end(), rng_);
      window.assign(all.begin(), all.begin() + w);
      std::sort(window.begin(), window.end());
    }
    std::vector<int> slot(steps_ + 2, -1);
    for (int j = 0; j < w; ++j) slot[window[j]] = j;

    const auto& messages = problem_.collective.messages;
    // The pairs to place: every reception in the window (must) and some pending ones.
    std::vector<std::pair<MessageId, NodeId>> freed, candidates;
    for (std::size_t m = 0; m < messages.size(); ++m)
      for (NodeId v = 0; v < n_; ++v) {
        const Reception& r = at(static_cast<MessageId>(m), v);
        if (r.step != kUnplaced && slot[r.step] >= 0) freed.emplace_back(static_cast<MessageId>(m), v);
      }
    candidates = pending_;
    std::shuffle(candidates.begin(), candidates.end(), rng_);
    if (candidates.size() > 48) candidates.resize(48);
    const bool sideways = window_.sideways();

    // Deadlines with the window's receptions freed: the first fixed forward of (m, v).
    auto deadline = [&](MessageId m, NodeId v) {
      Step first = static_cast<Step>(steps_ + 1);
      for (NodeId x = 0; x < n_; ++x) {
        const Reception& r = at(m, x);
        if (r.step != kUnplaced && r.sender == v && slot[r.step] < 0) first = std::min(first, r.step);
      }
      return first;
    };

    auto owned = std::make_unique<CaDiCaL::Solver>();
    CaDiCaL::Solver& solver = *owned;
    solver.set("quiet", 1);
    solver.set("seed", static_cast<int>(rng_() % 2147483647u));
    sat::Cnf cnf(&solver);
    const auto cut = [&] {  // as in the scatter window
      free_later(std::move(owned), budget);
      return false;
    };
    const int channels = problem_.topology.channel_count();
    std::vector<std::vector<int>> users(static_cast<std::size_t>(w) * channels);
    std::vector<std::vector<int>> sends(static_cast<std::size_t>(w) * n_),
        receives(static_cast<std::size_t>(w) * n_);
    // recv[(m, v)][j]: the pair is placed in window step j (0 when not allowed).
    std::unordered_map<std::int64_t, std::vector<int>> recv;
    auto key = [&](MessageId m, NodeId v) { return static_cast<std::int64_t>(m) * n_ + v; };
    std::vector<std::pair<MessageId, NodeId>> all_pairs = freed;
    all_pairs.insert(all_pairs.end(), candidates.begin(), candidates.end());
    for (const auto& [m, v] : all_pairs) {
      const Step limit = deadline(m, v);
      std::vector<int> lits(w, 0);
      for (int j = 0; j < w; ++j)
        if (window[j] < limit) lits[j] = cnf.new_var();
      recv.emplace(key(m, v), std::move(lits));
    }
    struct Var {
      int lit;
      MessageId message;
      NodeId sender, receiver;
      int slot;
      int path;
    };
    std::vector<Var> vars;
    std::vector<int> placed_any;
    auto encode = [&](MessageId m, NodeId v, bool must) {
      const auto& lits = recv.at(key(m, v));
      std::vector<int> some;
      for (int j = 0; j < w; ++j) {
        if (lits[j] == 0) continue;
        some.push_back(lits[j]);
        receives[static_cast<std::size_t>(j) * n_ + v].push_back(lits[j]);
        std::vector<int> ways{-lits[j]};
        for (const NodeId u : problem_.topology.processors()) {
          if (u == v) continue;
          // Near senders only (one hop past the nearest processor), and the current one:
          // the window stays small, and the present schedule stays representable.
          if (paths_.distance(u, v) > near_[v] && u != at(m, v).sender) continue;
          const auto& candidates_paths = paths_.paths(u, v);
          if (candidates_paths.empty()) continue;
          // Does u hold m before window step j? Fixed: yes or no; variable: some earlier
          // window placement of (m, u).
          std::vector<int> holds;
          bool fixed_holder = u == messages[m].origin;
          if (!fixed_holder) {
            const Reception& r = at(m, u);
            const auto it = recv.find(key(m, u));
            if (it != recv.end()) {
              for (int jj = 0; jj < j; ++jj)
                if (it->second[jj] != 0) holds.push_back(it->second[jj]);
              if (holds.empty()) continue;
            } else if (r.step != kUnplaced && r.step < window[j]) {
              fixed_holder = true;
            } else {
              continue;
            }
          }
          for (int p = 0; p < static_cast<int>(candidates_paths.size()) && p < 8; ++p) {
            const int x = cnf.new_var();
            ways.push_back(x);
            vars.push_back({x, m, u, v, j, p});
            cnf.add({-x, lits[j]});
            if (!fixed_holder) {
              std::vector<int> clause{-x};
              clause.insert(clause.end(), holds.begin(), holds.end());
              cnf.add(clause);
            }
            for (const ChannelId c : candidates_paths[p].channels)
              users[static_cast<std::size_t>(j) * channels + c].push_back(x);
            sends[static_cast<std::size_t>(j) * n_ + u].push_back(x);
          }
        }
        cnf.add(ways);  // placed in step j => by some transfer
      }
      cnf.at_most_one(some);
      if (must) {
        cnf.add(some);
      } else {
        const int placed = cnf.new_var();
        some.insert(some.begin(), -placed);
        cnf.add(some);
        placed_any.push_back(placed);
      }
    };
    // A pair's clauses cover every near sender in every window step: on butterfly:128 AAB
    // one move took 8 s, so the clock is polled between pairs.
    for (const auto& [m, v] : freed) {
      if (budget.expired() || memory_over()) return cut();
      encode(m, v, true);
    }
    for (const auto& [m, v] : candidates) {
      if (budget.expired() || memory_over()) return cut();
      encode(m, v, false);
    }
    if (!sideways && !placed_any.empty()) cnf.add(placed_any);
    if (!cnf.transfer_limits(users, sends, receives, problem_.model.ports, budget)) return cut();
    solver.limit("conflicts", 20000);
    const int answer = sat::solve_detachable(owned, solver, budget);
    if (!owned) return false;  // abandoned to its thread past the limit
    if (answer == 0 && budget.expired()) return cut();
    ++window_.moves;
    if (answer != 10) {
      window_.unplaced(answer, steps_);
      return false;
    }
    for (const auto& [m, v] : all_pairs) at(m, v).step = kUnplaced;
    // One transfer per placed pair: the first way the model chose.
    for (const Var& x : vars) {
      if (solver.val(x.lit) <= 0) continue;
      Reception& r = at(x.message, x.receiver);
      const Step s = window[x.slot];
      if (r.step != kUnplaced) continue;
      const auto& lits = recv.at(key(x.message, x.receiver));
      if (solver.val(lits[x.slot]) <= 0) continue;
      r = {s, x.sender, x.path};
    }
    const std::size_t before = pending_.size();
    refresh_pending();
    return window_.placed(pending_.size() < before);
  }

  Schedule schedule(std::uint64_t seed) const {
    std::vector<Transfer> transfers;
    const auto& messages = problem_.collective.messages;
    for (std::size_t m = 0; m < messages.size(); ++m)
      for (NodeId v = 0; v < n_; ++v) {
        const Reception& r = rec_[m * n_ + v];
        if (r.step == kUnplaced) continue;
        transfers.push_back({r.step, paths_.paths(r.sender, v)[r.path].nodes,
                             {static_cast<MessageId>(m)}});
      }
    return assemble_schedule(problem_, std::move(transfers), "lns", seed);
  }

 private:
  struct Reception {
    Step step = kUnplaced;
    NodeId sender = kNoNode;
    int path = 0;
  };
  Reception& at(MessageId m, NodeId v) { return rec_[static_cast<std::size_t>(m) * n_ + v]; }

  // Pending: the targets without a reception, and relays whose reception was dropped
  // while a kept transfer still forwards from them.
  void refresh_pending() {
    pending_.clear();
    const auto& messages = problem_.collective.messages;
    for (std::size_t mi = 0; mi < messages.size(); ++mi) {
      const auto m = static_cast<MessageId>(mi);
      std::vector<char> needed(n_, 0);
      for (const NodeId v : messages[m].targets) needed[v] = 1;
      for (NodeId x = 0; x < n_; ++x)
        if (at(m, x).step != kUnplaced && at(m, x).sender != messages[m].origin)
          needed[at(m, x).sender] = 1;
      for (NodeId v = 0; v < n_; ++v)
        if (needed[v] && v != messages[m].origin && at(m, v).step == kUnplaced)
          pending_.emplace_back(m, v);
    }
  }

  const Problem& problem_;
  const PathSet& paths_;
  int steps_;
  std::mt19937_64 rng_;
  int n_;
  std::vector<Reception> rec_;
  std::vector<int> near_;  // [v]: senders of v at most this many hops away
  std::vector<std::pair<MessageId, NodeId>> pending_;
  WindowControl window_{3, 8};
};

template <typename S>
std::optional<Schedule> squeeze(S&& squeezer, const Schedule& start, int steps,
                                const Budget& budget, std::uint64_t seed,
                                const ProgressFn& progress) {
  if (!squeezer.load(start)) return std::nullopt;
  const auto begin = Budget::Clock::now();
  // Moves are the work unit (each a window re-solved under a fixed conflict limit), so the
  // squeeze stops at the same move on every machine; the clock only caps it.
  while (squeezer.pending() > 0) {
    // Past the memory ceiling every window would be cut at once after its encoding was
    // built (a gigabyte on torus:32x32 REDUCE --blocks 8): stop instead.
    if (budget.expired() || memory_over() || squeezer.moves() >= budget.work())
      return std::nullopt;
    squeezer.move(budget);
    if (progress)
      progress({"lns", steps, squeezer.moves(), static_cast<std::int64_t>(squeezer.pending()),
                std::chrono::duration<double>(Budget::Clock::now() - begin).count()});
  }
  return squeezer.schedule(seed);
}

}  // namespace

bool lns_applies(const Problem& problem) {
  if (is_reduction(problem.collective)) return false;  // no messages to move
  if (problem.model.combining) return false;
  if (is_broadcast(problem.collective)) return true;
  if (problem.model.switching != Switching::wormhole) return false;
  return std::all_of(problem.collective.messages.begin(), problem.collective.messages.end(),
                     [](const Message& m) { return m.targets.size() == 1; });
}

std::optional<Schedule> lns_squeeze(const Problem& problem, const PathSet& paths,
                                    const Schedule& start, int steps, const Budget& budget,
                                    std::uint64_t seed, const ProgressFn& progress) {
  if (!lns_applies(problem) || steps < 1) return std::nullopt;
  if (is_broadcast(problem.collective) ||
      problem.model.switching != Switching::wormhole)
    return squeeze(BroadcastSqueezer(problem, paths, steps, seed), start, steps, budget, seed,
                   progress);
  return squeeze(Squeezer(problem, paths, steps, seed), start, steps, budget, seed, progress);
}

}  // namespace ccsched
