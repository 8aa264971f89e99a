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

#include "cnf.hpp"

namespace ccsched {
namespace {

constexpr int kUnplaced = 0;

// Stops CaDiCaL when the budget runs out.
class Stop final : public CaDiCaL::Terminator {
 public:
  explicit Stop(const Budget& budget) : budget_(budget) {}
  bool terminate() override { return budget_.expired(); }

 private:
  const Budget& budget_;
};

class Squeezer {
 public:
  Squeezer(const Problem& problem, const PathSet& paths, int steps, std::uint64_t seed)
      : problem_(problem), paths_(paths), steps_(steps), rng_(seed) {
    const auto& messages = problem.collective.messages;
    step_.assign(messages.size(), kUnplaced);
    path_.assign(messages.size(), 0);
    ports_ = problem.model.ports.value_or(0);
  }

  // Takes the start schedule; false when it is not a direct-delivery schedule over paths
  // of the PathSet.
  bool load(const Schedule& start) {
    const auto& messages = problem_.collective.messages;
    std::vector<int> load(start.steps + 1, 0);
    for (const auto& t : start.transfers) {
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
    const int w = std::min(window_, steps_);
    const std::vector<Step> window = choose_window(w);
    std::vector<int> slot(steps_ + 1, -1);
    for (int j = 0; j < w; ++j) slot[window[j]] = j;

    std::vector<MessageId> fixed_free, candidates;
    for (std::size_t i = 0; i < step_.size(); ++i)
      if (step_[i] != kUnplaced && slot[step_[i]] >= 0) fixed_free.push_back(static_cast<MessageId>(i));
    candidates = pending_;
    std::shuffle(candidates.begin(), candidates.end(), rng_);
    if (candidates.size() > 64) candidates.resize(64);
    const bool sideways = fruitless_ > 0 && fruitless_ % 5 == 0;

    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    solver.set("seed", static_cast<int>(rng_() % 2147483647u));
    sat::Cnf cnf(&solver);
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
    for (const MessageId id : fixed_free) encode(id, true);
    for (const MessageId id : candidates) encode(id, false);
    if (!sideways && !placed_any.empty()) cnf.add(placed_any);
    for (auto& u : users) cnf.at_most_one(u);
    if (ports_ > 0) {
      for (auto& s : sends) cnf.at_most_k(s, ports_);
      for (auto& r : receives) cnf.at_most_k(r, ports_);
    }
    Stop stop(budget);
    solver.connect_terminator(&stop);
    solver.limit("conflicts", conflict_limit_);
    const int answer = solver.solve();
    solver.disconnect_terminator();
    ++moves_;
    if (answer != 10) {
      // Unsatisfiable: this window has no room; look wider. Undecided: look narrower.
      if (answer == 20)
        window_ = std::min(window_ + 1, std::min(steps_, 12));
      else
        window_ = std::max(window_ - 1, 2);
      ++fruitless_;
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
    const bool better = pending_.size() < before;
    fruitless_ = better ? 0 : fruitless_ + 1;
    return better;
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

  std::int64_t moves() const { return moves_; }

 private:
  const Problem& problem_;
  const PathSet& paths_;
  int steps_;
  int ports_ = 0;
  std::mt19937_64 rng_;
  std::vector<Step> step_;
  std::vector<int> path_;
  std::vector<MessageId> pending_;
  int window_ = 4;
  int fruitless_ = 0;
  std::int64_t conflict_limit_ = 20000;
  std::int64_t moves_ = 0;
};

}  // namespace

bool lns_applies(const Problem& problem) {
  if (is_broadcast(problem.collective) || problem.model.switching != Switching::wormhole ||
      problem.model.combining)
    return false;
  return std::all_of(problem.collective.messages.begin(), problem.collective.messages.end(),
                     [](const Message& m) { return m.targets.size() == 1; });
}

std::optional<Schedule> lns_squeeze(const Problem& problem, const PathSet& paths,
                                    const Schedule& start, int steps, const Budget& budget,
                                    std::uint64_t seed, const ProgressFn& progress) {
  if (!lns_applies(problem) || steps < 1) return std::nullopt;
  Squeezer squeezer(problem, paths, steps, seed);
  if (!squeezer.load(start)) return std::nullopt;
  const auto begin = Budget::Clock::now();
  while (squeezer.pending() > 0) {
    if (budget.expired()) return std::nullopt;
    squeezer.move(budget);
    if (progress)
      progress({"lns", steps, squeezer.moves(), static_cast<std::int64_t>(squeezer.pending()),
                std::chrono::duration<double>(Budget::Clock::now() - begin).count()});
  }
  return squeezer.schedule(seed);
}

}  // namespace ccsched
