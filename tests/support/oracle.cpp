// The oracle's search (oracle.hpp). Iterative deepening on the step count T over states,
// where a state is, per message, the set of processors holding it.
//
// Why the state is all that matters: holding is monotone (FORMATS.md rule 5: a processor
// holds a message from the step after it received it, for ever), and channels and ports
// are free again at the start of every step (rules 3 and 4 count within one step). So
// which schedules can still finish in r steps depends only on who holds what.
//
// Why exploring only some transfer sets per step loses no optimum:
//  * Maximal sets. If a step's transfer set S can be extended by a transfer t (channels
//    free, ports free), the state after S+t holds everything the state after S holds and
//    more. Any continuation from the smaller state is also valid from the larger one after
//    dropping the transfers that now deliver to a processor already holding the message:
//    senders still hold what they send (holding only grew), and dropping transfers frees
//    channels and ports. So only non-extendable ("maximal") sets need exploring.
//  * Dominated states. By the same argument a state that holds a subset of what another
//    state of the same step holds can be skipped (children of one state are filtered so).
//  * Useful transfers only: a transfer to a processor that already holds the message, or
//    of a message whose targets all hold it, changes nothing that matters; a message is
//    never delivered twice to one processor in one step.
//  * The last step needs only deliveries to targets, and all of them at once.
//  * Lower bounds used for pruning (each proven where it is computed) never cut a branch
//    that could finish in time.
// Paths: simple paths suffice. A path that visits a node twice contains a cycle; cutting
// the cycle out leaves a path between the same two processors that uses a subset of the
// channels (rule 3 still holds), has fewer hops but never fewer than the distance (rule 9
// still holds), and repeats no channel (rule 1). So replacing every path of a valid
// schedule by its shortcut gives a valid schedule of the same length.
#include "oracle.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <unordered_map>
#include <utility>

namespace ccsched::oracle {
namespace {

using Mask = std::uint64_t;
using State = std::vector<Mask>;  // per message: bit v set when processor v holds it
constexpr Mask kDone = ~Mask{0};  // canonical holder set of a message whose targets all hold it
constexpr int kAllPorts = std::numeric_limits<int>::max() / 4;

Mask bit(int v) { return Mask{1} << v; }

struct StateHash {
  std::size_t operator()(const State& s) const {
    std::uint64_t h = 1469598103934665603ull;
    for (const Mask m : s) {
      h ^= m + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 1099511628211ull;
    }
    return static_cast<std::size_t>(h);
  }
};

// One transfer of a step: the messages it carries (bit i = message index i), its ends and
// its route.
struct Move {
  Mask carried = 0;
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  const Route* route = nullptr;
};
using StepMoves = std::vector<Move>;

struct Child {
  State state;
  StepMoves moves;
  int estimate = 0;
  int held = 0;
};

struct OutOfWork {};

class Search {
 public:
  Search(const Problem& p, const Options& o) : p_(p), o_(o) {}

  Result run() {
    Result r;
    const auto& t = p_.topology;
    const auto& msgs = p_.collective.messages;
    n_ = t.node_count();
    m_ = static_cast<int>(msgs.size());
    if (n_ > 64 || m_ > 64) {
      r.note = "beyond the oracle's size (64 nodes, 64 messages)";
      return r;
    }
    if (m_ == 0) {
      r.note = "no messages (a reduction or an empty collective)";
      return r;
    }
    k_ = p_.model.ports ? *p_.model.ports : kAllPorts;
    combining_ = p_.model.combining;
    for (const NodeId v : t.processors()) procs_.push_back(v);
    hops_ = all_pair_hops(t);
    routes_.assign(static_cast<std::size_t>(n_) * n_, {});
    for (const NodeId u : procs_)
      for (const NodeId v : procs_) routes_[u * n_ + v] = allowed_routes(t, p_.model, hops_, u, v);
    for (int v = 0; v < n_; ++v) {
      in_capacity_.push_back(std::min<int>(k_, static_cast<int>(t.in_channels(v).size())));
      out_capacity_.push_back(std::min<int>(k_, static_cast<int>(t.out_channels(v).size())));
    }
    for (const NodeId u : procs_) max_out_ = std::max(max_out_, out_capacity_[u]);
    for (const auto& m : msgs) {
      Mask g = 0;
      for (const NodeId v : m.targets) g |= bit(v);
      goal_.push_back(g);
      origin_.push_back(m.origin);
      direct_.push_back(o_.direct_scatter && m.targets.size() == 1 && !combining_ &&
                        p_.model.switching == Switching::wormhole);
    }
    if (const auto why = unreachable()) {
      r.status = Status::unreachable;
      r.note = *why;
      return r;
    }
    State start(m_);
    for (int i = 0; i < m_; ++i) start[i] = bit(origin_[i]);
    canonical(start);
    try {
      for (int T = std::max(1, estimate(start)); T <= o_.max_steps; ++T) {
        trail_.clear();
        if (dfs(start, T)) {
          r.status = Status::solved;
          r.steps = static_cast<int>(trail_.size());
          r.witness = witness();
          r.work = work_;
          return r;
        }
      }
      r.note = "no schedule within " + std::to_string(o_.max_steps) + " steps (the step cap)";
    } catch (const OutOfWork&) {
      r.note = "work cap of " + std::to_string(o_.max_work) + " search nodes reached";
    }
    r.work = work_;
    return r;
  }

 private:
  void charge(long long amount = 1) {
    work_ += amount;
    if (work_ > o_.max_work) throw OutOfWork{};
  }
  const std::vector<Route>& routes(NodeId u, NodeId v) const { return routes_[u * n_ + v]; }
  bool complete(const State& s, int i) const { return s[i] == kDone; }
  void canonical(State& s) const {
    for (int i = 0; i < m_; ++i)
      if ((s[i] & goal_[i]) == goal_[i]) s[i] = kDone;
  }
  bool is_goal(const State& s) const {
    for (int i = 0; i < m_; ++i)
      if (!complete(s, i)) return false;
    return true;
  }

  // Some target that no chain of allowed routes reaches from its origin (or, for a direct
  // message, no single route): then no schedule exists at all.
  std::optional<std::string> unreachable() const {
    for (int i = 0; i < m_; ++i) {
      Mask seen = bit(origin_[i]);
      if (direct_[i]) {
        seen |= goal_[i] & (routes(origin_[i], std::countr_zero(goal_[i])).empty() ? 0 : kDone);
      } else {
        for (bool grew = true; grew;) {
          grew = false;
          for (const NodeId u : procs_)
            for (const NodeId v : procs_)
              if ((seen & bit(u)) && !(seen & bit(v)) && !routes(u, v).empty()) {
                seen |= bit(v);
                grew = true;
              }
        }
      }
      if ((seen & goal_[i]) != goal_[i])
        return "message " + std::to_string(i) + " cannot reach processor " +
               std::to_string(std::countr_zero(goal_[i] & ~seen)) + " from " +
               std::to_string(origin_[i]);
    }
    return std::nullopt;
  }

  // A lower bound on the steps still needed from `s`, the largest of three counts:
  //  (a) receptions: processor v still misses x messages it is a target of; each step it
  //      is the last node of at most min(k, in-degree) transfers (rule 4; rule 3: each
  //      ends on its own in-channel), each carrying one message unless combining;
  //  (b) channel-steps (no combining): message i still needs transfers covering at least
  //      d_i channel-steps, d_i = max(missing targets: each is entered by its own
  //      transfer; max over missing targets of the distance from the nearest holder: the
  //      chain of transfers that brings the message there walks at least that far); a step
  //      offers one transfer per channel (rule 3), so sum d_i <= channels * r;
  //  (c) spreading: a step multiplies the holders of a message by at most 1 + s, where s
  //      is the most transfers a processor can start (min(k, out-degree)), and the holders
  //      must grow to include every missing target.
  int estimate(const State& s) const {
    int best = 0;
    long long channel_steps = 0;
    for (const NodeId v : procs_) {
      int missing = 0;
      for (int i = 0; i < m_; ++i)
        if (!complete(s, i) && (goal_[i] & bit(v)) && !(s[i] & bit(v))) ++missing;
      if (missing == 0) continue;
      const int cap = combining_ ? 1 : in_capacity_[v];
      if (cap == 0) return kAllPorts;
      best = std::max(best, combining_ ? 1 : (missing + cap - 1) / cap);
    }
    for (int i = 0; i < m_; ++i) {
      if (complete(s, i)) continue;
      const Mask missing = goal_[i] & ~s[i];
      const int count = std::popcount(missing);
      int farthest = 0;
      for (Mask rest = missing; rest; rest &= rest - 1) {
        const int tgt = std::countr_zero(rest);
        int nearest = kUnreachable;
        for (Mask h = s[i]; h; h &= h - 1)
          nearest = std::min(nearest, hops_[std::countr_zero(h)][tgt]);
        farthest = std::max(farthest, nearest);
      }
      channel_steps += std::max(count, farthest);
      const long long holders = std::popcount(s[i]);
      long long reach = holders;
      int steps = 0;
      while (reach < holders + count && max_out_ > 0) {
        reach *= 1 + max_out_;
        ++steps;
      }
      best = std::max(best, steps);
    }
    const long long channels = p_.topology.channel_count();
    if (!combining_ && channels > 0)
      best = std::max<long long>(best, (channel_steps + channels - 1) / channels);
    return best;
  }

  bool dfs(const State& s, int remaining) {
    charge();
    if (estimate(s) > remaining) return false;
    if (const auto it = failed_.find(s); it != failed_.end() && it->second >= remaining)
      return false;
    const bool found = remaining == 1 ? last_step(s) : try_children(s, remaining);
    if (!found) {
      int& known = failed_[s];
      known = std::max(known, remaining);
    }
    return found;
  }

  bool try_children(const State& s, int remaining) {
    auto kids = children(s);
    for (auto& kid : kids) {
      if (is_goal(kid.state)) {
        trail_.push_back(std::move(kid.moves));
        return true;
      }
    }
    for (auto& kid : kids) {
      if (kid.estimate > remaining - 1) continue;
      trail_.push_back(kid.moves);
      if (dfs(kid.state, remaining - 1)) return true;
      trail_.pop_back();
    }
    return false;
  }

  // --- one step: every maximal set of useful transfers ---------------------------------

  struct Candidate {
    Move move;
    int key = 0;  // rule-out key: (message, receiver), or (sender, receiver) when combining
    int last_blocker = 0;  // largest candidate index that can block this one (itself if none)
  };

  std::vector<Candidate> candidates(const State& s) const {
    std::vector<Candidate> out;
    if (!combining_) {
      for (int i = 0; i < m_; ++i) {
        if (complete(s, i)) continue;
        for (const NodeId v : procs_) {
          if (s[i] & bit(v)) continue;
          if (direct_[i] && !(goal_[i] & bit(v))) continue;
          for (const NodeId u : procs_) {
            if (!(s[i] & bit(u)) || (direct_[i] && u != origin_[i])) continue;
            for (const Route& r : routes(u, v)) out.push_back({{bit(i), u, v, &r}, i * n_ + v, 0});
          }
        }
      }
    } else {
      for (const NodeId v : procs_)
        for (const NodeId u : procs_) {
          Mask carried = 0;
          for (int i = 0; i < m_; ++i)
            if (!complete(s, i) && (s[i] & bit(u)) && !(s[i] & bit(v))) carried |= bit(i);
          if (carried == 0) continue;
          for (const Route& r : routes(u, v)) out.push_back({{carried, u, v, &r}, u * n_ + v, 0});
        }
    }
    return out;
  }

  // The state of one step being built: channels, ports and rule-out keys in use.
  struct StepUse {
    std::vector<char> channel;
    std::vector<int> sends, receives;
    std::vector<char> key;
  };

  bool fits(const StepUse& use, const Candidate& c) const {
    if (use.key[c.key] || use.sends[c.move.from] >= k_ || use.receives[c.move.to] >= k_)
      return false;
    for (const ChannelId ch : c.move.route->channels)
      if (use.channel[ch]) return false;
    return true;
  }
  void take(StepUse& use, const Candidate& c, int delta) const {
    use.key[c.key] = static_cast<char>(delta > 0);
    use.sends[c.move.from] += delta;
    use.receives[c.move.to] += delta;
    for (const ChannelId ch : c.move.route->channels)
      use.channel[ch] = static_cast<char>(delta > 0);
  }
  StepUse fresh_use() const {
    return {std::vector<char>(p_.topology.channel_count(), 0), std::vector<int>(n_, 0),
            std::vector<int>(n_, 0),
            std::vector<char>(static_cast<std::size_t>(n_) * std::max(n_, m_), 0)};
  }

  std::vector<Child> children(const State& s) {
    auto cand = candidates(s);
    const int count = static_cast<int>(cand.size());
    charge(count);
    // Which later candidate could block each one: a shared channel, the same rule-out
    // key, or (k ports) the same sender or receiver.
    {
      std::vector<int> by_channel(p_.topology.channel_count(), -1),
          by_key(n_ * std::max(n_, m_), -1), by_sender(n_, -1), by_receiver(n_, -1);
      for (int j = 0; j < count; ++j) {
        for (const ChannelId ch : cand[j].move.route->channels) by_channel[ch] = j;
        by_key[cand[j].key] = j;
        by_sender[cand[j].move.from] = j;
        by_receiver[cand[j].move.to] = j;
      }
      for (int j = 0; j < count; ++j) {
        int last = by_key[cand[j].key];
        for (const ChannelId ch : cand[j].move.route->channels)
          last = std::max(last, by_channel[ch]);
        if (k_ < kAllPorts)
          last = std::max({last, by_sender[cand[j].move.from], by_receiver[cand[j].move.to]});
        cand[j].last_blocker = last;
      }
    }
    StepUse use = fresh_use();
    std::vector<int> chosen;
    // open[j]: candidates left out while they fitted whose last possible blocker is j; if
    // one still fits once j is passed, the set can no longer become maximal.
    std::vector<std::vector<int>> open(count + 1);
    std::unordered_map<State, StepMoves, StateHash> found;
    std::function<void(int)> extend = [&](int j) {
      charge();
      if (j > 0)
        for (const int x : open[j - 1])
          if (fits(use, cand[x])) return;
      if (j == count) {
        if (chosen.empty()) return;
        State next = s;
        for (const int c : chosen)
          for (Mask carried = cand[c].move.carried; carried; carried &= carried - 1)
            next[std::countr_zero(carried)] |= bit(cand[c].move.to);
        canonical(next);
        if (!found.count(next)) {
          StepMoves moves;
          for (const int c : chosen) moves.push_back(cand[c].move);
          found.emplace(std::move(next), std::move(moves));
        }
        return;
      }
      const Candidate& c = cand[j];
      if (!fits(use, c)) {
        extend(j + 1);
        return;
      }
      take(use, c, +1);
      chosen.push_back(j);
      extend(j + 1);
      chosen.pop_back();
      take(use, c, -1);
      if (c.last_blocker > j) {  // leaving it out only pays if something later blocks it
        open[c.last_blocker].push_back(j);
        extend(j + 1);
        open[c.last_blocker].pop_back();
      }
    };
    extend(0);
    // Keep only children that no other child dominates.
    std::vector<Child> all;
    for (auto& [state, moves] : found) {
      Child kid{state, std::move(moves), 0, 0};
      for (const Mask m : kid.state) kid.held += std::popcount(m);
      all.push_back(std::move(kid));
    }
    std::sort(all.begin(), all.end(), [](const Child& a, const Child& b) {
      return a.held != b.held ? a.held > b.held : a.state < b.state;
    });
    // The pairwise filter is quadratic; past a few thousand children it would cost more
    // than it saves, and it is only a pruning (dropping it loses nothing).
    const bool filter = all.size() <= 3000;
    std::vector<Child> kept;
    for (auto& kid : all) {
      if (filter) charge(static_cast<long long>(kept.size()));
      const bool dominated =
          filter && std::any_of(kept.begin(), kept.end(), [&](const Child& other) {
            for (int i = 0; i < m_; ++i)
              if (kid.state[i] & ~other.state[i]) return false;
            return true;
          });
      if (!dominated) {
        kid.estimate = estimate(kid.state);
        kept.push_back(std::move(kid));
      }
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Child& a, const Child& b) { return a.estimate < b.estimate; });
    return kept;
  }

  // --- the last step: every missing delivery at once -----------------------------------

  bool last_step(const State& s) {
    std::vector<std::pair<int, NodeId>> missing;  // (message, target)
    for (int i = 0; i < m_; ++i)
      if (!complete(s, i))
        for (Mask rest = goal_[i] & ~s[i]; rest; rest &= rest - 1)
          missing.emplace_back(i, std::countr_zero(rest));
    StepUse use = fresh_use();
    StepMoves moves;
    std::function<bool(std::size_t)> cover = [&](std::size_t j) -> bool {
      charge();
      if (j == missing.size()) return true;
      const auto [i, tgt] = missing[j];
      if (combining_)
        for (const Move& mv : moves)
          if (mv.to == tgt && (s[i] & bit(mv.from))) return cover(j + 1);
      for (const NodeId u : procs_) {
        if (!(s[i] & bit(u)) || (direct_[i] && u != origin_[i])) continue;
        for (const Route& r : routes(u, tgt)) {
          Candidate c;
          c.move = {bit(i), u, tgt, &r};
          c.key = combining_ ? u * n_ + tgt : i * n_ + tgt;
          if (!fits(use, c)) continue;
          if (combining_)
            for (int x = 0; x < m_; ++x)
              if (!complete(s, x) && (s[x] & bit(u)) && !(s[x] & bit(tgt)))
                c.move.carried |= bit(x);
          take(use, c, +1);
          moves.push_back(c.move);
          if (cover(j + 1)) return true;
          moves.pop_back();
          take(use, c, -1);
        }
      }
      return false;
    };
    if (!cover(0)) return false;
    trail_.push_back(moves);
    return true;
  }

  Schedule witness() const {
    Schedule w;
    w.topology = p_.topology;
    w.collective = p_.collective;
    w.model = p_.model;
    w.steps = static_cast<int>(trail_.size());
    for (std::size_t step = 0; step < trail_.size(); ++step)
      for (const Move& mv : trail_[step]) {
        Transfer tr;
        tr.step = static_cast<Step>(step + 1);
        tr.path = mv.route->nodes;
        for (Mask c = mv.carried; c; c &= c - 1)
          tr.messages.push_back(p_.collective.messages[std::countr_zero(c)].id);
        w.transfers.push_back(std::move(tr));
      }
    w.solver = SolverInfo{"oracle", 0, 0.0};
    return w;
  }

  const Problem& p_;
  Options o_;
  int n_ = 0, m_ = 0, k_ = kAllPorts, max_out_ = 0;
  bool combining_ = false;
  std::vector<NodeId> procs_;
  std::vector<std::vector<int>> hops_;
  std::vector<std::vector<Route>> routes_;
  std::vector<int> in_capacity_, out_capacity_;
  std::vector<Mask> goal_;
  std::vector<NodeId> origin_;
  std::vector<bool> direct_;
  std::unordered_map<State, int, StateHash> failed_;  // most steps known not to suffice
  std::vector<StepMoves> trail_;
  long long work_ = 0;
};

}  // namespace

std::vector<std::vector<int>> all_pair_hops(const Topology& t) {
  const int n = t.node_count();
  std::vector<std::vector<int>> hops(n, std::vector<int>(n, kUnreachable));
  for (NodeId s = 0; s < n; ++s) {
    std::vector<NodeId> queue{s};
    hops[s][s] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeId x = queue[head];
      for (const ChannelId c : t.out_channels(x)) {
        const NodeId y = t.channel(c).to;
        if (hops[s][y] == kUnreachable) {
          hops[s][y] = hops[s][x] + 1;
          queue.push_back(y);
        }
      }
    }
  }
  return hops;
}

std::vector<Route> allowed_routes(const Topology& t, const Model& model,
                                  const std::vector<std::vector<int>>& hops, NodeId from,
                                  NodeId to) {
  std::vector<Route> out;
  if (from == to || !t.is_processor(from) || !t.is_processor(to)) return out;
  if (hops[from][to] == kUnreachable) return out;
  if (model.switching == Switching::store_and_forward) {
    if (const auto c = t.find_channel(from, to)) out.push_back({{from, to}, {*c}});
    return out;
  }
  const int longest =
      hops[from][to] + (model.routing == Routing::nonminimal ? model.extra_hops : 0);
  Route current{{from}, {}};
  std::vector<char> on_path(t.node_count(), 0);
  on_path[from] = 1;
  // Depth-first over simple paths; a branch ends when even the shortest way on from its
  // node would exceed `longest`.
  std::function<void(NodeId)> walk = [&](NodeId at) {
    if (at == to) {
      out.push_back(current);
      return;
    }
    for (const ChannelId c : t.out_channels(at)) {
      const NodeId next = t.channel(c).to;
      if (on_path[next] || hops[next][to] == kUnreachable ||
          static_cast<int>(current.channels.size()) + 1 + hops[next][to] > longest)
        continue;
      on_path[next] = 1;
      current.nodes.push_back(next);
      current.channels.push_back(c);
      walk(next);
      current.nodes.pop_back();
      current.channels.pop_back();
      on_path[next] = 0;
    }
  };
  walk(from);
  std::sort(out.begin(), out.end());
  return out;
}

std::string_view to_string(Status s) {
  switch (s) {
    case Status::solved:
      return "solved";
    case Status::unreachable:
      return "unreachable";
    case Status::unknown:
      return "unknown";
  }
  return "?";
}

Result minimum_steps(const Problem& problem, const Options& options) {
  return Search(problem, options).run();
}

}  // namespace ccsched::oracle
