// The greedy engine: list scheduling into the first step where a path is free
// (docs/ENGINES.md). It gives the driver a fast upper bound and every other engine a fallback
// for inputs too large to encode. Wormhole scatter messages go straight from origin to
// target; broadcasts (and every message under store-and-forward) spread step by step
// from the holders, so the holding rule (FORMATS.md rule 5) holds by construction.
// Under minimal wormhole routing it never lists a pair's paths: PathSet::first_free_path
// finds the path the first-fit scan of the list would take (docs/RELIABILITY.md: hypercube:10 AAS has
// a million pairs with up to 10! paths each).
#include "ccsched/engines/greedy.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <span>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"

namespace ccsched {
namespace {

// Per-step occupation of channels and ports, grown as steps are opened. It also keeps,
// per channel and per port, the first step where it is still free: occupation only
// grows, so these only move forward, and no path can fit before the latest of them on
// its route. The direct scheduler starts its step scan there instead of at step 1 (the
// same first fit, found without rescanning the full steps; docs/RELIABILITY.md, hypercube:10 AAS).
class Occupancy {
 public:
  Occupancy(const Topology& t, int ports)
      : t_(t),
        ports_(ports),
        channel_free_(t.channel_count(), 1),
        send_free_(t.node_count(), 1),
        receive_free_(t.node_count(), 1) {}

  bool fits(Step s, const Path& p) {
    ensure(s);
    const auto& used = channels_[s];
    if (sends_[s][p.nodes.front()] >= ports_ || receives_[s][p.nodes.back()] >= ports_)
      return false;
    return std::none_of(p.channels.begin(), p.channels.end(), [&](ChannelId c) { return used[c]; });
  }
  void take(Step s, const Path& p) {
    for (const ChannelId c : p.channels) {
      channels_[s][c] = 1;
      skip_[s][c] = s + 1;
    }
    ++sends_[s][p.nodes.front()];
    ++receives_[s][p.nodes.back()];
    for (const ChannelId c : p.channels)
      while (channel_free_[c] < steps() && channels_[channel_free_[c]][c]) ++channel_free_[c];
    advance(send_free_[p.nodes.front()], sends_, p.nodes.front());
    advance(receive_free_[p.nodes.back()], receives_, p.nodes.back());
  }
  // The path-independent part of fits(): a free send port at `from`, a free receive port
  // at `to`; and the channels taken in step s (fits() == ports_free() and no channel of
  // the path in used()).
  bool ports_free(Step s, NodeId from, NodeId to) {
    ensure(s);
    return sends_[s][from] < ports_ && receives_[s][to] < ports_;
  }
  // Some path may still end at `to` in step s: a free receive port and a free in-channel.
  bool can_receive(Step s, NodeId to) {
    ensure(s);
    if (receives_[s][to] >= ports_) return false;
    const auto in = t_.in_channels(to);
    return std::any_of(in.begin(), in.end(), [&](ChannelId c) { return !channels_[s][c]; });
  }
  std::span<const char> used(Step s) {
    ensure(s);
    return channels_[s];
  }
  // The first step >= s where channel c is free: used steps are skipped by links
  // compressed as they are followed (union-find over steps), so long busy runs cost
  // nearly nothing on later queries.
  Step next_free(ChannelId c, Step s) {
    Step r = s;
    while (r < steps() && channels_[r][c]) r = skip_[r][c];
    while (s < steps() && channels_[s][c] && skip_[s][c] != r) {
      const Step next = skip_[s][c];
      skip_[s][c] = r;
      s = next;
    }
    return r;
  }
  // No step before these can take a path from `from` to `to`, or `p`.
  Step earliest(NodeId from, NodeId to) const {
    return std::max(send_free_[from], receive_free_[to]);
  }
  Step earliest(const Path& p) const {
    Step s = std::max(send_free_[p.nodes.front()], receive_free_[p.nodes.back()]);
    for (const ChannelId c : p.channels) s = std::max(s, channel_free_[c]);
    return s;
  }

 private:
  Step steps() const { return static_cast<Step>(channels_.size()); }
  void advance(Step& first, const std::vector<std::vector<int>>& count, NodeId v) const {
    while (first < steps() && count[first][v] >= ports_) ++first;
  }
  void ensure(Step s) {
    while (static_cast<Step>(channels_.size()) <= s) {
      channels_.emplace_back(t_.channel_count(), 0);
      skip_.emplace_back(t_.channel_count(), 0);
      sends_.emplace_back(t_.node_count(), 0);
      receives_.emplace_back(t_.node_count(), 0);
    }
  }
  const Topology& t_;
  int ports_;
  std::vector<std::vector<char>> channels_;
  std::vector<std::vector<Step>> skip_;  // [s][c], where channels_[s][c]: a later step to try
  std::vector<std::vector<int>> sends_, receives_;
  std::vector<Step> channel_free_, send_free_, receive_free_;  // first free step (>= 1)
};

// The budget ran out before the schedule was complete: unwinds the list scheduler to
// try_greedy_schedule, which turns it into "no schedule" (never seen outside this file).
struct OutOfBudget {};
[[noreturn]] void out_of_time(const Budget&) { throw OutOfBudget{}; }

std::vector<Transfer> schedule_direct(const Problem& problem, const PathSet& paths,
                                      std::mt19937_64& rng, const Budget& budget) {
  const auto& messages = problem.collective.messages;
  std::vector<MessageId> order(messages.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  // Longest messages first: they are the hardest to fit once channels fill up.
  std::vector<int> length(messages.size());
  for (std::size_t m = 0; m < messages.size(); ++m)
    length[m] = paths.distance(messages[m].origin, messages[m].targets[0]);
  std::stable_sort(order.begin(), order.end(),
                   [&](MessageId a, MessageId b) { return length[a] > length[b]; });
  Occupancy occupancy(problem.topology, effective_ports(problem));
  std::vector<Transfer> transfers;
  std::size_t done = 0;
  for (const MessageId m : order) {
    if (++done % 64 == 0 && budget.expired()) out_of_time(budget);
    const NodeId from = messages[m].origin, to = messages[m].targets[0];
    if (paths.searches_lazily()) {
      // The same first fit as the scan below, without listing the pair's paths (docs/RELIABILITY.md:
      // hypercube:10 AAS has a million pairs).
      if (paths.path_count(from, to) == 0.0)
        throw InvalidInput("no allowed path from " + std::to_string(from) + " to " +
                               std::to_string(to),
                           "routing");
      // Every allowed path starts with one of `first` and ends with one of `last`: steps
      // where all of either are taken are skipped without a search.
      const auto& t = problem.topology;
      const int d = paths.distance(from, to);
      std::vector<ChannelId> first, last;
      for (const ChannelId c : t.out_channels(from)) {
        const NodeId next = t.channel(c).to;
        if (paths.distance(next, to) == d - 1) first.push_back(c);
      }
      for (const ChannelId c : t.in_channels(to)) {
        const NodeId prev = t.channel(c).from;
        if (paths.distance(from, prev) == d - 1) last.push_back(c);
      }
      auto open_after = [&](const std::vector<ChannelId>& hops, Step s) {
        Step best = std::numeric_limits<Step>::max();
        for (const ChannelId c : hops) best = std::min(best, occupancy.next_free(c, s));
        return best;
      };
      for (Step s = occupancy.earliest(from, to);; ++s) {
        for (Step moved = -1; moved != s;) {
          moved = s;
          s = std::max(s, open_after(first, s));
          s = std::max(s, open_after(last, s));
        }
        if (!occupancy.ports_free(s, from, to)) continue;
        if (auto p = paths.first_free_path(from, to, occupancy.used(s))) {
          occupancy.take(s, *p);
          transfers.push_back({s, std::move(p->nodes), {m}});
          break;
        }
      }
      continue;
    }
    const auto& candidates = paths.paths(from, to);
    if (candidates.empty())
      throw InvalidInput("no allowed path from " + std::to_string(from) + " to " +
                             std::to_string(to),
                         "routing");
    Step first = std::numeric_limits<Step>::max();
    for (const Path& p : candidates) first = std::min(first, occupancy.earliest(p));
    for (Step s = first;; ++s) {
      const auto it = std::find_if(candidates.begin(), candidates.end(),
                                   [&](const Path& p) { return occupancy.fits(s, p); });
      if (it != candidates.end()) {
        occupancy.take(s, *it);
        transfers.push_back({s, it->nodes, {m}});
        break;
      }
    }
  }
  return transfers;
}

// Step by step: every pending (message, target) pair, farthest from its holders first,
// is sent from the nearest holder along a free path. Under store-and-forward a transfer
// is one hop towards the target, and the intermediate node becomes a holder.
std::vector<Transfer> schedule_spreading(const Problem& problem, const PathSet& paths,
                                         std::mt19937_64& rng, const Budget& budget) {
  const auto& t = problem.topology;
  const auto& messages = problem.collective.messages;
  const bool hop_by_hop = problem.model.switching == Switching::store_and_forward;
  const bool lazy = !hop_by_hop && paths.searches_lazily();
  Occupancy occupancy(t, effective_ports(problem));
  std::vector<std::vector<char>> holds(messages.size(), std::vector<char>(t.node_count(), 0));
  std::vector<std::vector<NodeId>> holders(messages.size());
  struct Pending {
    MessageId message;
    NodeId target;
    int nearest;  // distance from the nearest holder, kept up to date as holders are added
  };
  std::vector<Pending> pending;
  for (const auto& m : messages) {
    holds[m.id][m.origin] = 1;
    holders[m.id].push_back(m.origin);
    for (const NodeId target : m.targets) pending.push_back({m.id, target, kUnreachable});
  }
  std::shuffle(pending.begin(), pending.end(), rng);
  // Holders of each message already folded into Pending::nearest (docs/RELIABILITY.md: recomputing
  // the minimum over every holder each step was quadratic on hypercube:10 AAB).
  std::vector<std::size_t> counted(messages.size(), 0);
  std::vector<Transfer> transfers;
  for (Step s = 1; !pending.empty(); ++s) {
    if (budget.expired()) out_of_time(budget);
    std::vector<std::pair<int, std::size_t>> order;
    for (std::size_t i = 0; i < pending.size(); ++i) {
      if (i % 4096 == 4095 && budget.expired()) out_of_time(budget);
      Pending& p = pending[i];
      const auto& hs = holders[p.message];
      for (std::size_t k = counted[p.message]; k < hs.size(); ++k)
        p.nearest = std::min(p.nearest, paths.distance(hs[k], p.target));
      order.push_back({p.nearest, i});
    }
    for (std::size_t m = 0; m < messages.size(); ++m) counted[m] = holders[m].size();
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::pair<MessageId, NodeId>> informed;  // become holders after step s
    std::vector<char> done(pending.size(), 0);
    bool progress = false;
    std::size_t visited = 0;
    for (const auto& [distance, index] : order) {
      if (++visited % 256 == 0 && budget.expired()) out_of_time(budget);
      const MessageId m = pending[index].message;
      const NodeId target = pending[index].target;
      if (distance == kUnreachable)
        throw InvalidInput("processor " + std::to_string(target) + " cannot be reached", "routing");
      // Holders in order of distance to the target (ties in the order they became
      // holders): the nearest free one sends. Taken level by level from the nearest
      // distance rather than by sorting every holder list (docs/RELIABILITY.md); unreachable holders
      // can never send. A wormhole transfer needs the target's receive port and one of
      // its in-channels: without them no holder can send, so none is tried.
      bool sent = false;
      if (!hop_by_hop && !occupancy.can_receive(s, target)) continue;
      int farthest = distance;
      for (int level = distance; level <= farthest && !sent; ++level) {
        for (const NodeId h : holders[m]) {
          const int hd = paths.distance(h, target);
          if (hd != kUnreachable) farthest = std::max(farthest, hd);
          if (hd != level) continue;
          if (hop_by_hop) {
            for (const ChannelId c : t.out_channels(h)) {
              const NodeId next = t.channel(c).to;
              if (!t.is_processor(next) || holds[m][next] ||
                  paths.distance(next, target) + 1 != paths.distance(h, target))
                continue;
              const Path hop{{h, next}, {c}};
              if (!occupancy.fits(s, hop)) continue;
              occupancy.take(s, hop);
              transfers.push_back({s, hop.nodes, {m}});
              informed.push_back({m, next});
              if (next == target) done[index] = 1;
              sent = true;
              break;
            }
          } else {
            if (lazy) {
              // As the scan below, without listing the paths.
              if (!occupancy.ports_free(s, h, target)) continue;
              auto p = paths.first_free_path(h, target, occupancy.used(s));
              if (!p) continue;
              occupancy.take(s, *p);
              transfers.push_back({s, std::move(p->nodes), {m}});
              informed.push_back({m, target});
              done[index] = 1;
              sent = true;
              break;
            }
            for (const Path& p : paths.paths(h, target)) {
              if (!occupancy.fits(s, p)) continue;
              occupancy.take(s, p);
              transfers.push_back({s, p.nodes, {m}});
              informed.push_back({m, target});
              done[index] = 1;
              sent = true;
              break;
            }
          }
          if (sent) break;
        }
      }
      progress = progress || sent;
    }
    if (!progress) throw InvalidInput("no transfer can make progress", "routing");
    for (const auto& [m, node] : informed)
      if (!holds[m][node]) {
        holds[m][node] = 1;
        holders[m].push_back(node);
      }
    std::vector<Pending> still;
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (!done[i] && !holds[pending[i].message][pending[i].target]) still.push_back(pending[i]);
    pending = std::move(still);
  }
  return transfers;
}

}  // namespace

std::optional<Schedule> try_greedy_schedule(const Problem& problem, const PathSet& paths,
                                            std::uint64_t seed, const Budget& budget,
                                            std::string* why) {
  if (problem.model.combining)
    throw Unsupported("combining is not supported by the greedy engine yet", "--combining");
  std::mt19937_64 rng(seed);
  const bool direct = !is_broadcast(problem.collective) &&
                      problem.model.switching == Switching::wormhole;
  try {
    auto transfers = direct ? schedule_direct(problem, paths, rng, budget)
                            : schedule_spreading(problem, paths, rng, budget);
    return assemble_schedule(problem, std::move(transfers), "greedy", seed);
  } catch (const OutOfBudget&) {
    if (why != nullptr)
      *why = budget.interrupted()
                 ? "interrupted before the greedy schedule was complete"
                 : "time limit reached before the greedy schedule (the upper bound every search "
                   "starts from) was complete; raise --time-limit";
    return std::nullopt;
  }
}

Schedule greedy_schedule(const Problem& problem, const PathSet& paths, std::uint64_t seed,
                         const Budget& budget) {
  std::string why;
  auto s = try_greedy_schedule(problem, paths, seed, budget, &why);
  if (!s) throw Unsupported(why, "greedy");
  return std::move(*s);
}

EngineResult GreedyEngine::solve(const Problem& problem, const PathSet& paths, int steps,
                                 const Budget& budget) {
  refuse_reductions(problem.collective, "the greedy engine", "greedy");
  const auto start = Budget::Clock::now();
  EngineResult result;
  auto found = try_greedy_schedule(problem, paths, options_.seed, budget, &result.note);
  result.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
  result.complete = false;
  if (!found) {
    result.status = SolveStatus::unknown;
    result.budget_exhausted = true;
    return result;
  }
  Schedule& s = *found;
  if (s.steps <= steps) {
    result.status = SolveStatus::feasible;
    result.schedule = std::move(s);
  } else {
    result.status = SolveStatus::unknown;
    result.note = "greedy needs " + plural(s.steps, "step");
  }
  result.complete = false;
  return result;
}

}  // namespace ccsched
