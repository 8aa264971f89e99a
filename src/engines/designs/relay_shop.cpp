// Relay job shop (relay_shop.hpp). Two passes: routes, then steps.
// Routes: the better of two routings by their busiest channel: shortest routes taking the
// least loaded next channel, and least-weight routes under levelled channel weights
// (routing/congestion.hpp), which leave the shortest paths where those crowd a channel;
// then detours of at most kDetour hops off the busiest channels (level_loads).
// Steps, when every node may use all its channels at once: list scheduling of the job
// shop. A message's next hop is ready one step after the previous one (the relay holds it
// from then on, FORMATS.md rule 5); each step every channel, in a seeded order, serves its
// ready hop with the most hops left, provided the sender and receiver still have a free
// port. With fewer ports than channels under wormhole: legs through routers, first fit
// (LegShop below). Memory: one entry per hop (the transfers are the output anyway); a
// problem whose hops exceed kMaxHops goes in legs (wormhole) or is left to other engines.
#include "ccsched/engines/relay_shop.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <thread>

#include "ccsched/routing/congestion.hpp"

namespace ccsched {
namespace {

constexpr std::size_t kMaxHops = 6'000'000;  // about 1 GB of transfers, one per hop
constexpr std::size_t kMaxLegHops = 40'000'000;  // routes in legs: 160 MB of channel ids

struct Ready {
  int left;             // hops of the message still to go, this one included
  std::uint32_t tie;    // seeded tie-break
  std::uint32_t message;
  bool operator<(const Ready& o) const {
    return left != o.left ? left < o.left : tie < o.tie;
  }
};

constexpr int kMaxVisits = 4096;        // nodes one route search may visit
constexpr int kDetour = 3;               // hops a relayed route may add to the shortest
constexpr double kLevellingShare = 0.3;  // of the remaining time, for levelling the loads
constexpr long long kLevellingWork = 60'000'000;  // channel relaxations for the weights
constexpr long long kLevellingVisits = 50'000'000;  // route visits for levelling the loads

// Levelling: while a channel carries the largest load, move messages off it onto routes at
// most kDetour hops longer whose busiest channel stays below that load. Relays make such
// routes legal (each hop is a transfer of its own, a shortest path between its ends), and
// on networks whose shortest paths crowd some channels (Kautz digraphs) the largest load
// drops towards the average, which the schedule follows. Stops when a busiest channel
// cannot be relieved, or at the budget.
void level_loads(const Problem& problem, const PathSet& paths,
                 std::vector<std::vector<ChannelId>>& route, std::vector<long long>& load,
                 const Budget& budget) {
  const auto& t = problem.topology;
  const auto& messages = problem.collective.messages;
  std::vector<std::vector<std::uint32_t>> users(t.channel_count());
  for (std::uint32_t m = 0; m < route.size(); ++m)
    for (const ChannelId ch : route[m]) users[ch].push_back(m);
  std::vector<ChannelId> trail, found;
  // Depth-first over routes of at most `hops` hops to `target` whose channels all carry
  // less than `ceiling`; the first found, shortest lengths tried first.
  long long visits = 0;  // per search: near-shortest routes can be astronomically many
  auto search = [&](auto&& self, NodeId x, NodeId target, int hops, long long ceiling) -> bool {
    if (++visits > kMaxVisits) return false;
    if (x == target) {
      found = trail;
      return true;
    }
    if (hops == 0 || paths.distance(x, target) > hops) return false;
    for (const ChannelId ch : t.out_channels(x)) {
      if (load[ch] + 1 >= ceiling) continue;
      const NodeId y = t.channel(ch).to;
      if (!t.is_processor(y)) continue;
      if (std::any_of(trail.begin(), trail.end(),
                      [&](ChannelId u) { return t.channel(u).from == y; }))
        continue;  // simple routes only (the origin is the first channel's tail)
      trail.push_back(ch);
      if (self(self, y, target, hops - 1, ceiling)) return true;
      trail.pop_back();
    }
    return false;
  };
  // All rounds together stop after kLevellingVisits route visits (work, so the result is
  // the same on a busy machine; the time share is only the outer cap).
  long long spent = 0;
  for (int round = 0; !budget.expired() && spent < kLevellingVisits; ++round) {
    const long long top = *std::max_element(load.begin(), load.end());
    bool relieved_all = true;
    for (ChannelId busiest = 0; busiest < t.channel_count() && !budget.expired(); ++busiest) {
      if (load[busiest] != top) continue;
      auto& list = users[busiest];
      for (std::size_t i = 0; i < list.size() && load[busiest] >= top;) {
        const std::uint32_t m = list[i];
        for (const ChannelId ch : route[m]) --load[ch];
        const NodeId origin = messages[m].origin, target = messages[m].targets[0];
        const int shortest = paths.distance(origin, target);
        bool moved = false;
        for (int hops = shortest; hops <= shortest + kDetour && !moved; ++hops) {
          trail.clear();
          visits = 0;
          moved = search(search, origin, target, hops, top);
          spent += visits;
        }
        if (moved) {
          for (const ChannelId ch : route[m])
            if (ch != busiest) std::erase(users[ch], m);
          route[m] = found;
          for (const ChannelId ch : route[m]) {
            ++load[ch];
            users[ch].push_back(m);
          }
          list[i] = list.back();
          list.pop_back();
        } else {
          for (const ChannelId ch : route[m]) ++load[ch];
          ++i;
        }
      }
      if (load[busiest] >= top) relieved_all = false;
    }
    if (!relieved_all) return;
  }
}

// The job shop, one hop per transfer (relay_shop.cpp, top). Empty past the budget.
std::optional<std::vector<Transfer>> hop_by_hop(const Problem& problem,
                                                const std::vector<std::vector<ChannelId>>& route,
                                                int ports, std::mt19937_64& rng,
                                                const Budget& budget) {
  const auto& t = problem.topology;
  const auto& c = problem.collective;
  const std::size_t M = route.size();
  std::size_t total = 0;
  for (const auto& r : route) total += r.size();
  std::vector<std::priority_queue<Ready>> queue(t.channel_count());
  std::vector<std::size_t> next(M, 0);
  for (std::uint32_t m = 0; m < M; ++m)
    if (!route[m].empty())
      queue[route[m][0]].push(
          {static_cast<int>(route[m].size()), static_cast<std::uint32_t>(rng()), m});
  std::vector<ChannelId> channels(t.channel_count());
  std::iota(channels.begin(), channels.end(), 0);
  std::vector<int> sends(t.node_count(), 0), receives(t.node_count(), 0);
  std::vector<std::uint32_t> moved;
  std::vector<Transfer> transfers;
  transfers.reserve(total);
  std::size_t done = 0;
  for (Step s = 1; done < total; ++s) {
    if (budget.expired()) return std::nullopt;
    std::shuffle(channels.begin(), channels.end(), rng);
    std::fill(sends.begin(), sends.end(), 0);
    std::fill(receives.begin(), receives.end(), 0);
    moved.clear();
    for (const ChannelId ch : channels) {
      auto& q = queue[ch];
      if (q.empty()) continue;
      const Channel& link = t.channel(ch);
      if (sends[link.from] >= ports || receives[link.to] >= ports) continue;
      const std::uint32_t m = q.top().message;
      q.pop();
      ++sends[link.from];
      ++receives[link.to];
      transfers.push_back({s, {link.from, link.to}, {c.messages[m].id}});
      ++done;
      if (++next[m] < route[m].size()) moved.push_back(m);
    }
    // Hops that moved this step: the next one is ready from the next step on.
    for (const std::uint32_t m : moved)
      queue[route[m][next[m]]].push(
          {static_cast<int>(route[m].size() - next[m]), static_cast<std::uint32_t>(rng()), m});
  }
  return transfers;
}

// Steps for wormhole with fewer ports than channels (one port on kautz:3,5: hop by hop
// every node would start about 1,480 transfers). A route is cut into legs, the fewest
// stretches that are shortest paths between their ends: one transfer each, through the
// routers in between, with a relay at each cut; where the cuts can move, the relays go to
// the nodes with the fewest sends so far (else they crowd a few nodes' ports: kautz:3,5
// one-port AAS 571 steps, against 556). Messages, longer routes first and then by the
// busiest channel they cross (seeded ties), put each leg into the first step after the
// previous leg's where its channels and both ports are free: first fit, as the greedy
// engine, with per channel and port the first step still free so the scan starts late.
// (Tried on kautz:3,5 and left out: choosing per message between the levelled and a
// shortest route, 565; step-by-step list scheduling by remaining channel load, 576 and
// more; squeaky-wheel reordering, no gain; relaying part of a waiting leg early, 571.)
class LegShop {
 public:
  LegShop(const Problem& problem, const PathSet& paths,
          const std::vector<std::vector<ChannelId>>& route)
      : problem_(problem), t_(problem.topology), route_(route), ports_(effective_ports(problem)),
        C_(static_cast<std::size_t>(t_.channel_count())),
        N_(static_cast<std::size_t>(t_.node_count())) {
    ends_.resize(route.size());
    reach_.resize(route.size());
    placed_.resize(route.size());
    std::vector<long long> sends(N_, 0);
    for (std::size_t m = 0; m < route.size(); ++m) {
      if (route[m].empty()) continue;
      ends_[m] = cut_legs(paths, route[m], sends, reach_[m]);
      ++sends[t_.channel(route[m].front()).from];
      for (std::size_t e = 0; e + 1 < ends_[m].size(); ++e)
        ++sends[t_.channel(route[m][ends_[m][e] - 1]).to];
    }
  }

  // First fit of every message in `order` on its cut legs. False when the budget ran out.
  bool schedule(const std::vector<std::uint32_t>& order, const Budget& budget) {
    std::size_t done = 0;
    for (const std::uint32_t m : order) {
      if (++done % 4096 == 0 && budget.expired()) return false;
      if (!route_[m].empty()) take_all(m, fixed(m));
    }
    return true;
  }

  // Tail repair: the messages that end last are taken out and put back, each on its cut
  // legs or cut wherever a piece of its route fits earlier (a relay at every cut),
  // whichever ends first. A round is kept when the schedule gets shorter or its last step
  // holds fewer transfers, else undone; after kTries orders (longest routes first, then
  // shuffled) the next round takes a tail twice as wide, up to kMaxTail steps. On
  // kautz:3,5 one-port AAS: 562 steps to 525. (Taking out random messages from anywhere as
  // well, ruin and recreate, gained nothing there in 40 s.)
  void repair(std::mt19937_64& rng, const Budget& budget) {
    std::vector<std::uint32_t> out;
    std::vector<std::vector<Leg>> saved;
    int tries = 0;
    for (Step width = 1; width <= kMaxTail && !budget.expired();) {
      const Step end = makespan();
      const long long crowd = legs_in(end - 1);
      out.clear();
      for (std::uint32_t m = 0; m < placed_.size(); ++m)
        if (!placed_[m].empty() && placed_[m].back().step + width >= end) out.push_back(m);
      if (tries == 0) {
        std::sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
          return route_[a].size() != route_[b].size() ? route_[a].size() > route_[b].size()
                                                      : a < b;
        });
      } else {
        std::shuffle(out.begin(), out.end(), rng);
      }
      saved.clear();
      for (const std::uint32_t m : out) {
        saved.push_back(placed_[m]);
        drop(m);
      }
      for (const std::uint32_t m : out) {
        auto a = fixed(m), b = flexible(m);
        take_all(m, b.back().step < a.back().step ? b : a);
      }
      if (makespan() < end || (makespan() == end && legs_in(end - 1) < crowd)) {
        width = 1;
        tries = 0;
        continue;
      }
      for (const std::uint32_t m : out) drop(m);
      for (std::size_t k = 0; k < out.size(); ++k) take_all(out[k], saved[k]);
      if (++tries >= kTries) {
        tries = 0;
        width *= 2;
      }
    }
  }

  std::vector<Transfer> transfers() const {
    std::vector<Transfer> out;
    for (std::uint32_t m = 0; m < placed_.size(); ++m)
      for (const Leg& l : placed_[m]) {
        Transfer tr{l.step + 1, {t_.channel(route_[m][l.from]).from},
                    {problem_.collective.messages[m].id}};
        for (std::size_t k = l.from; k < l.to; ++k) tr.path.push_back(t_.channel(route_[m][k]).to);
        out.push_back(std::move(tr));
      }
    std::stable_sort(out.begin(), out.end(),
                     [](const Transfer& a, const Transfer& b) { return a.step < b.step; });
    return out;
  }

 private:
  static constexpr Step kMaxTail = 64;
  static constexpr int kTries = 4;  // orders per tail width: longest first, then shuffled

  struct Leg {
    Step step;  // 0-based
    std::uint16_t from, to;  // route positions [from, to)
  };

  // Transfers in step s (0-based).
  long long legs_in(Step s) const {
    long long n = 0;
    const auto base = static_cast<std::size_t>(s) * N_;
    for (std::size_t v = 0; v < N_ && base + v < sends_.size(); ++v) n += sends_[base + v];
    return n;
  }

  Step makespan() const {
    Step end = 0;
    for (const auto& legs : placed_)
      if (!legs.empty()) end = std::max(end, legs.back().step + 1);
    return end;
  }

  // Leg ends of route r: dynamic programming over the cut positions, fewest legs first,
  // then the fewest sends so far at the relays. `reach[i]`: the furthest position a leg
  // from position i may end (the route stays a shortest path up to there).
  std::vector<std::uint16_t> cut_legs(const PathSet& paths, const std::vector<ChannelId>& r,
                                      const std::vector<long long>& sends,
                                      std::vector<std::uint16_t>& reach) const {
    const std::size_t L = r.size();
    auto node = [&](std::size_t k) {
      return k == 0 ? t_.channel(r[0]).from : t_.channel(r[k - 1]).to;
    };
    reach.assign(L, 0);
    for (std::size_t i = 0; i < L; ++i) {
      std::size_t j = i + 1;
      while (j < L && paths.distance(node(i), node(j + 1)) == static_cast<int>(j + 1 - i)) ++j;
      reach[i] = static_cast<std::uint16_t>(j);
    }
    constexpr int kNone = std::numeric_limits<int>::max();
    std::vector<int> legs(L + 1, kNone);      // fewest legs covering r[0..k)
    std::vector<std::size_t> back(L + 1, 0);  // where the last of them starts
    std::vector<long long> crowd(L + 1, 0);   // sends so far at their relays
    legs[0] = 0;
    for (std::size_t i = 0; i < L; ++i) {
      if (legs[i] == kNone) continue;
      const long long here = crowd[i] + (i == 0 ? 0 : sends[node(i)]);
      for (std::size_t j = i + 1; j <= reach[i]; ++j)
        if (legs[i] + 1 < legs[j] || (legs[i] + 1 == legs[j] && here < crowd[j])) {
          legs[j] = legs[i] + 1;
          back[j] = i;
          crowd[j] = here;
        }
    }
    std::vector<std::uint16_t> ends;
    for (std::size_t k = L; k > 0; k = back[k]) ends.push_back(static_cast<std::uint16_t>(k));
    std::reverse(ends.begin(), ends.end());
    return ends;
  }

  // Where message m's cut legs go, first fit (nothing taken).
  std::vector<Leg> fixed(std::uint32_t m) {
    const auto& r = route_[m];
    std::vector<Leg> legs;
    Step after = 0;
    std::size_t i = 0;
    for (const std::size_t j : ends_[m]) {
      const NodeId from = t_.channel(r[i]).from, to = t_.channel(r[j - 1]).to;
      Step s = std::max({after, send_free_[from], receive_free_[to]});
      for (std::size_t k = i; k < j; ++k) s = std::max(s, channel_free_[r[k]]);
      while (!fits(s, from, to, r, i, j)) ++s;
      legs.push_back({s, static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(j)});
      after = s + 1;
      i = j;
    }
    return legs;
  }

  // Message m cut wherever the longest piece of its route fits at the earliest step, one
  // piece after another (nothing taken).
  std::vector<Leg> flexible(std::uint32_t m) {
    const auto& r = route_[m];
    std::vector<Leg> legs;
    Step after = 0;
    for (std::size_t i = 0; i < r.size();) {
      const NodeId from = t_.channel(r[i]).from;
      for (Step s = std::max({after, send_free_[from], channel_free_[r[i]]});; ++s) {
        std::size_t best = i;
        for (std::size_t k = i + 1; k <= reach_[m][i]; ++k) {
          if (!fits(s, from, t_.channel(r[k - 1]).to, r, i, k)) {
            if (!channel_ok(s, r[k - 1])) break;  // longer pieces need this channel too
            continue;
          }
          best = k;
        }
        if (best > i) {
          legs.push_back({s, static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(best)});
          after = s + 1;
          i = best;
          break;
        }
      }
    }
    return legs;
  }

  bool channel_ok(Step s, ChannelId c) {
    grow(static_cast<std::size_t>(s));
    return !used_[static_cast<std::size_t>(s) * C_ + c];
  }

  bool fits(Step s, NodeId from, NodeId to, const std::vector<ChannelId>& r, std::size_t i,
            std::size_t j) {
    const auto base = static_cast<std::size_t>(s);
    grow(base);
    if (sends_[base * N_ + from] >= ports_ || receives_[base * N_ + to] >= ports_) return false;
    for (std::size_t k = i; k < j; ++k)
      if (used_[base * C_ + r[k]]) return false;
    return true;
  }

  void grow(std::size_t s) {
    if ((s + 1) * C_ > used_.size()) {
      used_.resize((s + 1) * C_, 0);
      sends_.resize((s + 1) * N_, 0);
      receives_.resize((s + 1) * N_, 0);
    }
  }

  void take_all(std::uint32_t m, const std::vector<Leg>& legs) {
    const auto& r = route_[m];
    for (const Leg& l : legs) {
      const auto base = static_cast<std::size_t>(l.step);
      const NodeId from = t_.channel(r[l.from]).from, to = t_.channel(r[l.to - 1]).to;
      grow(base);
      for (std::size_t k = l.from; k < l.to; ++k) {
        used_[base * C_ + r[k]] = 1;
        advance(channel_free_[r[k]], used_, C_, r[k], 1);
      }
      ++sends_[base * N_ + from];
      ++receives_[base * N_ + to];
      advance(send_free_[from], sends_, N_, from, ports_);
      advance(receive_free_[to], receives_, N_, to, ports_);
    }
    placed_[m] = legs;
  }

  void drop(std::uint32_t m) {
    const auto& r = route_[m];
    for (const Leg& l : placed_[m]) {
      const auto base = static_cast<std::size_t>(l.step);
      const NodeId from = t_.channel(r[l.from]).from, to = t_.channel(r[l.to - 1]).to;
      for (std::size_t k = l.from; k < l.to; ++k) {
        used_[base * C_ + r[k]] = 0;
        channel_free_[r[k]] = std::min(channel_free_[r[k]], l.step);
      }
      --sends_[base * N_ + from];
      --receives_[base * N_ + to];
      send_free_[from] = std::min(send_free_[from], l.step);
      receive_free_[to] = std::min(receive_free_[to], l.step);
    }
    placed_[m].clear();
  }

  // Moves a first-free pointer past the steps where `what` is full.
  template <class T>
  static void advance(Step& f, const std::vector<T>& count, std::size_t width, std::size_t what,
                      int full) {
    while (static_cast<std::size_t>(f + 1) * width <= count.size() &&
           count[static_cast<std::size_t>(f) * width + what] >= full)
      ++f;
  }

  const Problem& problem_;
  const Topology& t_;
  const std::vector<std::vector<ChannelId>>& route_;
  const int ports_;
  const std::size_t C_, N_;
  std::vector<std::vector<std::uint16_t>> ends_;   // per message: where its legs stop
  std::vector<std::vector<std::uint16_t>> reach_;  // per message and position: see cut_legs
  std::vector<std::vector<Leg>> placed_;           // per message: its legs as placed
  std::vector<char> used_;                         // [step * C + channel]
  std::vector<std::uint16_t> sends_, receives_;    // [step * N + node]
  std::vector<Step> channel_free_ = std::vector<Step>(C_, 0);
  std::vector<Step> send_free_ = std::vector<Step>(N_, 0);
  std::vector<Step> receive_free_ = std::vector<Step>(N_, 0);
};

// Two first-fit orders, each followed by the tail repair, run at once on their own copies
// of the shop (std::jthread; the legs are cut once, before, because PathSet's caches are
// not shared between threads), and the shorter schedule is kept (ties: the first order):
//  - longer routes first, then by the busiest channel they cross (seeded ties);
//  - by the step at which the all-port job shop would send the message's first hop: a
//    time order in which the channels were all busy (kautz:3,5 one port, 523 against 525).
std::optional<std::vector<Transfer>> schedule_legs(const Problem& problem, const PathSet& paths,
                                                   const std::vector<std::vector<ChannelId>>& route,
                                                   const std::vector<long long>& load,
                                                   std::mt19937_64& rng, const Budget& budget) {
  struct Key {
    std::size_t length;
    long long busiest;
    std::uint32_t tie, message;
  };
  std::vector<Key> keys;
  keys.reserve(route.size());
  for (std::uint32_t m = 0; m < route.size(); ++m) {
    long long busiest = 0;
    for (const ChannelId ch : route[m]) busiest = std::max(busiest, load[ch]);
    keys.push_back({route[m].size(), busiest, static_cast<std::uint32_t>(rng()), m});
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return a.length != b.length   ? a.length > b.length
           : a.busiest != b.busiest ? a.busiest > b.busiest
                                    : a.tie < b.tie;
  });
  std::vector<std::vector<std::uint32_t>> orders(1);
  for (const auto& k : keys) orders[0].push_back(k.message);
  {
    std::mt19937_64 own(rng());
    constexpr int kAllPorts = 1 << 20;
    if (auto hops = hop_by_hop(problem, route, kAllPorts, own, budget)) {
      MessageId top = 0;
      for (const auto& msg : problem.collective.messages) top = std::max(top, msg.id);
      std::vector<std::uint32_t> index(static_cast<std::size_t>(top) + 1, 0);
      for (std::uint32_t m = 0; m < route.size(); ++m)
        index[static_cast<std::size_t>(problem.collective.messages[m].id)] = m;
      std::vector<Step> first(route.size(), std::numeric_limits<Step>::max());
      for (const auto& tr : *hops) {
        const auto m = index[static_cast<std::size_t>(tr.messages[0])];
        first[m] = std::min(first[m], tr.step);
      }
      orders.push_back(orders[0]);
      std::stable_sort(orders[1].begin(), orders[1].end(),
                       [&](std::uint32_t a, std::uint32_t b) { return first[a] < first[b]; });
    }
  }
  const LegShop shop(problem, paths, route);
  std::vector<std::optional<std::vector<Transfer>>> found(orders.size());
  std::vector<std::uint64_t> seeds;
  for (std::size_t k = 0; k < orders.size(); ++k) seeds.push_back(rng());
  auto run = [&](std::size_t k) {
    LegShop mine = shop;
    std::mt19937_64 own(seeds[k]);
    if (!mine.schedule(orders[k], budget)) return;
    mine.repair(own, budget);
    found[k] = mine.transfers();
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (cores > 1) {
    std::vector<std::jthread> workers;
    for (std::size_t k = 1; k < orders.size(); ++k) workers.emplace_back(run, k);
    run(0);
  } else {
    for (std::size_t k = 0; k < orders.size(); ++k) run(k);
  }
  std::optional<std::vector<Transfer>> best;
  for (auto& f : found)
    if (f && (!best || f->back().step < best->back().step)) best = std::move(f);
  return best;
}

// Shortest routes, messages in a seeded order, each taking at every node the next channel
// with the least load so far (ties by the seeded generator). Empty past the budget.
std::optional<std::vector<std::vector<ChannelId>>> least_load_routes(const Problem& problem,
                                                                     const PathSet& paths,
                                                                     std::mt19937_64& rng,
                                                                     const Budget& budget) {
  const auto& t = problem.topology;
  const auto& messages = problem.collective.messages;
  std::vector<std::uint32_t> order(messages.size());
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<long long> load(t.channel_count(), 0);
  std::vector<std::vector<ChannelId>> route(messages.size());
  std::vector<ChannelId> best;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i % 4096 == 4095 && budget.expired()) return std::nullopt;
    const std::uint32_t m = order[i];
    const NodeId target = messages[m].targets[0];
    for (NodeId x = messages[m].origin; x != target;) {
      const int d = paths.distance(x, target);
      best.clear();
      long long least = 0;
      for (const ChannelId ch : t.out_channels(x)) {
        if (paths.distance(t.channel(ch).to, target) != d - 1) continue;
        if (best.empty() || load[ch] < least) {
          best.assign(1, ch);
          least = load[ch];
        } else if (load[ch] == least) {
          best.push_back(ch);
        }
      }
      const ChannelId ch = best[best.size() == 1 ? 0 : rng() % best.size()];
      route[m].push_back(ch);
      ++load[ch];
      x = t.channel(ch).to;
    }
  }
  return route;
}

}  // namespace

std::optional<Schedule> relay_scatter(const Problem& problem, const PathSet& paths,
                                      std::uint64_t seed, const Budget& budget) {
  const auto& t = problem.topology;
  const auto& c = problem.collective;
  if (is_reduction(c) || is_broadcast(c) || problem.model.combining || t.switch_count() > 0 ||
      c.messages.empty())
    return std::nullopt;
  for (const auto& m : c.messages)
    if (m.targets.size() != 1) return std::nullopt;
  std::size_t total = 0;
  for (const auto& m : c.messages) {
    const int d = paths.distance(m.origin, m.targets[0]);
    if (d == kUnreachable) return std::nullopt;  // the greedy engine reports it
    total += static_cast<std::size_t>(d);
  }
  // Past kMaxHops one transfer per hop would not fit in memory; wormhole legs still do.
  const bool wormhole = problem.model.switching == Switching::wormhole;
  if (total > (wormhole ? kMaxLegHops : kMaxHops)) return std::nullopt;

  std::mt19937_64 rng(seed);
  const std::size_t M = c.messages.size();
  // Two routings, the one with the less loaded busiest channel kept: shortest routes that
  // take the least loaded next channel (levels networks with many shortest routes, like
  // hypercubes), and least-weight routes under levelled channel weights
  // (routing/congestion.hpp; levels networks whose shortest routes are unique and crowd
  // some channels, like Kautz digraphs, by longer routes with relays).
  auto route = least_load_routes(problem, paths, rng, budget);
  if (!route) return std::nullopt;
  std::vector<long long> load(t.channel_count(), 0);
  for (const auto& r : *route)
    for (const ChannelId ch : r) ++load[ch];
  // Levelled weights only where the least-load routes (shortest: `total` hops) leave a
  // channel well above the average load (Kautz digraphs; tori and hypercubes are level).
  const long long busiest = *std::max_element(load.begin(), load.end());
  const auto average = static_cast<long long>((total + t.channel_count() - 1) / t.channel_count());
  std::optional<CongestionResult> levelled;
  if (busiest * 50 > 51 * average) {
    std::vector<CongestionDemand> demands(M);
    for (std::size_t m = 0; m < M; ++m)
      demands[m] = {c.messages[m].origin, c.messages[m].targets[0], 1};
    const std::vector<char> usable(t.channel_count(), 1);
    CongestionOptions levelling;
    levelling.keep_routes = true;
    levelling.work = kLevellingWork;
    levelling.stop = [&budget] { return budget.expired(); };
    levelled = level_congestion({t, usable, true, demands}, levelling);
  }
  if (budget.expired()) return std::nullopt;
  if (levelled && levelled->weight > 0 && levelled->max_load < busiest) {
    std::fill(load.begin(), load.end(), 0);
    for (std::size_t m = 0; m < M; ++m) {
      (*route)[m] = levelled->route(m);
      for (const ChannelId ch : (*route)[m]) ++load[ch];
    }
  }
  level_loads(problem, paths, *route, load, budget.sub(kLevellingShare * budget.remaining()));
  total = 0;
  for (const auto& r : *route) total += r.size();

  const int ports = effective_ports(problem);
  int degree = 0;
  for (NodeId v = 0; v < t.node_count(); ++v)
    degree = std::max({degree, static_cast<int>(t.out_channels(v).size()),
                       static_cast<int>(t.in_channels(v).size())});
  if (wormhole && (ports < degree || total > kMaxHops)) {
    auto legs = schedule_legs(problem, paths, *route, load, rng, budget);
    if (!legs) return std::nullopt;
    return assemble_schedule(problem, std::move(*legs), "relay job shop", seed);
  }
  auto transfers = hop_by_hop(problem, *route, ports, rng, budget);
  if (!transfers) return std::nullopt;
  return assemble_schedule(problem, std::move(*transfers), "relay job shop", seed);
}

}  // namespace ccsched
