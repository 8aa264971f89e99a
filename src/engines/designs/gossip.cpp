// Gossip all-to-all broadcast (engines/gossip.hpp; the argument of each design is in
// docs/ENGINES.md "Gossip all-to-all broadcast"). Every design here works on processor
// indices 0..P-1 and single-hop transfers ("hops"); holders are bitsets, one row of
// ceil(P/64) words per processor, so P = 1024 needs 128 KiB of state besides the
// schedule itself.
#include "ccsched/engines/gossip.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <map>
#include <numeric>
#include <string_view>
#include <utility>
#include <vector>

#include "ccsched/engines/constructive.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/verified.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// Work allowed to the neighbour gossip's restarts, in the units neighbour_gossip counts
// (in-channels times words of holder bits looked at, per step). 1.5e8 units took about
// 20 s on the 2-core reference machine (torus:32x32 AAB with a fault: 2.3e7 in 3.0 s),
// the clock cap these restarts had before they were counted in work.
constexpr std::int64_t kRestartWork = 150'000'000;

// splitmix64: the seeded tie-break hash of every design (docs/ARCHITECTURE.md, "Conventions" 8).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// One single-hop transfer of a design: processor indices, and the origin's index (the
// message is the one that starts there).
struct Hop {
  Step step;
  int from;
  int to;
  int origin;
};

struct Plan {
  int steps = 0;
  std::vector<Hop> hops;
};

// The problem read as an all-to-all broadcast over processor indices.
struct Layout {
  int P = 0;
  std::vector<NodeId> node;           // index -> node id
  std::vector<int> index;             // node id -> index, -1 for switches
  std::vector<MessageId> of;          // index -> the message that starts there
  int ports = 1;                      // effective_ports
  std::vector<std::vector<int>> in;   // index -> in-neighbours (processor indices)
  std::vector<std::vector<int>> out;  // index -> out-neighbours (processor indices)
};

// Nothing unless every processor originates exactly one message whose targets are all the
// other processors (AAB; MNB or CUSTOM of the same shape).
std::optional<Layout> aab_layout(const Problem& problem) {
  const auto& c = problem.collective;
  if (is_reduction(c) || !is_broadcast(c)) return std::nullopt;
  const auto& t = problem.topology;
  Layout l;
  const auto processors = t.processors();
  l.P = static_cast<int>(processors.size());
  // The schedule itself has P(P-1) transfers (about 250 bytes each with the verifier's
  // tables): 4,096 processors is 4 GB, the limit of the constructive ring as well.
  if (l.P < 2 || l.P > 4096 || static_cast<int>(c.messages.size()) != l.P) return std::nullopt;
  l.node.assign(processors.begin(), processors.end());
  l.index.assign(t.node_count(), -1);
  for (int i = 0; i < l.P; ++i) l.index[l.node[i]] = i;
  l.of.assign(l.P, -1);
  std::vector<int> seen(l.P, -1);
  for (const auto& m : c.messages) {
    if (m.origin < 0 || m.origin >= t.node_count()) return std::nullopt;
    const int o = l.index[m.origin];
    if (o < 0 || l.of[o] >= 0 || static_cast<int>(m.targets.size()) != l.P - 1) return std::nullopt;
    l.of[o] = m.id;
    seen[o] = m.id;
    for (const NodeId x : m.targets) {
      if (x < 0 || x >= t.node_count() || l.index[x] < 0 || seen[l.index[x]] == m.id)
        return std::nullopt;
      seen[l.index[x]] = m.id;
    }
  }
  l.ports = effective_ports(problem);
  l.in.resize(l.P);
  l.out.resize(l.P);
  for (int v = 0; v < l.P; ++v)
    for (const ChannelId ch : t.in_channels(l.node[v]))
      if (const int u = l.index[t.channel(ch).from]; u >= 0) {
        l.in[v].push_back(u);
        l.out[u].push_back(v);
      }
  return l;
}

// The reception bound of seed 000 §3 per processor: P-1 messages arrive over at most
// min(k, in-degree) transfers a step. Designs stop searching once they reach it.
int reception_target(const Layout& l) {
  int worst = 1;
  for (int v = 0; v < l.P; ++v) {
    const int per_step = std::min<int>(l.ports, static_cast<int>(l.in[v].size()));
    if (per_step == 0) return kUnreachable;
    worst = std::max(worst, (l.P - 1 + per_step - 1) / per_step);
  }
  return worst;
}

// Maximum bipartite matching by augmenting paths (Kuhn): left vertices in `order`, each
// with its right vertices (0..right-1) listed by preference, at most `cap` of them matched;
// earlier left vertices get their first choices unless an augmenting path moves them.
// Returns the right vertex of each left vertex, or -1.
class Matcher {
 public:
  explicit Matcher(int right) : owner_(right, -1), visit_(right, 0) {}

  template <class Lists, class RightOf>
  std::vector<int> run(const Lists& lists, const std::vector<int>& order, int cap,
                       RightOf right_of) {
    std::vector<int> match(lists.size(), -1);
    auto augment = [&](auto&& self, int i) -> bool {
      for (const auto& entry : lists[i]) {
        const int r = right_of(entry);
        if (visit_[r] == stamp_) continue;
        visit_[r] = stamp_;
        if (owner_[r] < 0 || self(self, owner_[r])) {
          owner_[r] = i;
          match[i] = r;
          return true;
        }
      }
      return false;
    };
    int matched = 0;
    for (const int i : order) {
      if (matched >= cap) break;
      ++stamp_;
      if (augment(augment, i)) ++matched;
    }
    for (const int r : match)
      if (r >= 0) owner_[r] = -1;
    return match;
  }

 private:
  std::vector<int> owner_;
  std::vector<int> visit_;
  int stamp_ = 0;
};

// ---------------------------------------------------------------------------------------
// Translation schedules on Cayley graphs of Z_{r_1} x ... x Z_{r_n}.

struct Cayley {
  std::vector<int> radix;  // most significant digit first (row-major, last fastest)
  std::vector<int> gens;   // g with a channel v -> v+g from every v
  std::vector<int> minus;  // [o * G + j]: o - gens[j]
};


// The dimensions a generator name promises (topology/generators.hpp, family_of); the
// callers check the channels themselves.
std::optional<std::pair<std::string, std::vector<int>>> grid_name(const Topology& t) {
  auto family = family_of(t);
  if (!family || (family->name == "hypercube" && family->sides.size() > 20)) return std::nullopt;
  return std::pair{family->name, std::move(family->sides)};
}

// The Cayley structure when the node ids, read in mixed radix, make every channel a
// translation u -> u+g by one of a fixed generator set (faults break it, and then the
// other designs apply).
std::optional<Cayley> cayley_structure(const Topology& t, const Layout& l) {
  if (t.switch_count() != 0) return std::nullopt;
  auto named = grid_name(t);
  if (!named || named->first == "mesh") return std::nullopt;
  Cayley cg;
  cg.radix = named->second;
  long long product = 1;
  for (const int r : cg.radix) product *= r;
  if (product != l.P) return std::nullopt;
  for (const ChannelId ch : t.out_channels(0)) cg.gens.push_back(t.channel(ch).to);
  std::sort(cg.gens.begin(), cg.gens.end());
  const int G = static_cast<int>(cg.gens.size());
  if (G == 0) return std::nullopt;
  for (int u = 0; u < l.P; ++u) {
    if (static_cast<int>(t.out_channels(u).size()) != G) return std::nullopt;
    for (const int g : cg.gens)
      if (!t.has_channel(u, group_op(cg.radix, u, g, +1))) return std::nullopt;
  }
  cg.minus.resize(static_cast<std::size_t>(l.P) * G);
  for (int o = 0; o < l.P; ++o)
    for (int j = 0; j < G; ++j)
      cg.minus[static_cast<std::size_t>(o) * G + j] = group_op(cg.radix, o, cg.gens[j], -1);
  return cg;
}

// Labels every nonzero offset o with a step and a generator g such that o - g was
// labelled in an earlier step (or is 0), at most one offset per generator and at most
// `cap` offsets per step: a bipartite matching per step between generators and the
// frontier, augmenting paths included. Returns the labels per step, or nothing when a step
// labels nothing (cannot happen on a connected Cayley graph) or the budget runs out.
// Priorities: attempt 0 takes offsets in BFS order; later attempts mix in seeded noise.
// Attempt 0 is bounded work (at most P-1 steps of G·P looks each, 0.1 s at 4,096
// processors) and is the design itself, so only Ctrl-C stops it, never the row's share of
// the clock (docs/ENGINES.md, "Beyond 1,024": a closed-form design that is known to finish
// gets the time it needs); the restarts are searches, and the clock caps them.
using Labels = std::vector<std::vector<std::pair<int, int>>>;

std::optional<Labels> translation_labels(
    const Cayley& cg, int P, int cap, std::uint64_t seed, int attempt, int step_limit,
    const Budget& budget) {
  const int G = static_cast<int>(cg.gens.size());
  std::vector<int> dist(P, -1);
  {
    std::vector<int> queue{0};
    dist[0] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (const int g : cg.gens) {
        const int w = group_op(cg.radix, queue[i], g, +1);
        if (dist[w] < 0) {
          dist[w] = dist[queue[i]] + 1;
          queue.push_back(w);
        }
      }
  }
  std::vector<std::uint64_t> key(P);
  for (int o = 0; o < P; ++o) {
    const std::uint64_t noise = mix(seed * 0x100000001b3ULL + attempt * 7919ULL + o) >> 40;
    const std::uint64_t d = static_cast<std::uint64_t>(dist[o]);
    key[o] = attempt == 0 ? (d << 32 | noise) : ((d * (attempt % 4 == 1 ? 0 : 1)) << 32 | noise);
  }
  std::vector<char> labelled(P, 0);
  labelled[0] = 1;
  int remaining = P - 1;
  std::vector<std::vector<std::pair<int, int>>> steps;
  std::vector<std::vector<int>> cand(G);
  Matcher matcher(P);
  std::vector<int> uses(G, 0);
  while (remaining > 0) {
    if (static_cast<int>(steps.size()) >= step_limit ||
        (attempt == 0 ? budget.interrupted() : budget.expired()))
      return std::nullopt;
    for (int j = 0; j < G; ++j) {
      cand[j].clear();
      for (int o = 1; o < P; ++o)
        if (!labelled[o] && labelled[cg.minus[static_cast<std::size_t>(o) * G + j]])
          cand[j].push_back(o);
      std::sort(cand[j].begin(), cand[j].end(), [&](int a, int b) { return key[a] < key[b]; });
    }
    std::vector<int> order(G);
    std::iota(order.begin(), order.end(), 0);
    // With fewer ports than generators, the least used generators go first: always taking
    // the ones with the fewest candidates grows the labelled set inside a subgroup (a
    // subcube of the hypercube) until only one offset is left there, and a step falls short.
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (cap < G && uses[a] != uses[b]) return uses[a] < uses[b];
      if (cand[a].size() != cand[b].size()) return cand[a].size() < cand[b].size();
      const std::uint64_t salt = seed + 31ULL * steps.size() + 1000003ULL * attempt;
      return mix(salt + a) < mix(salt + b);
    });
    const auto match = matcher.run(cand, order, cap, [](int o) { return o; });
    const int matched =
        static_cast<int>(std::count_if(match.begin(), match.end(), [](int o) { return o >= 0; }));
    if (matched == 0) return std::nullopt;
    auto& step = steps.emplace_back();
    for (int j = 0; j < G; ++j)
      if (match[j] >= 0) step.emplace_back(match[j], j);
    for (const auto& [o, j] : step) {
      labelled[o] = 1;
      ++uses[j];
    }
    remaining -= static_cast<int>(step.size());
  }
  return steps;
}

// Every processor v receives in step t, over channel v-g -> v, the message of origin v-o
// for each label (o, g) of step t; v-g holds it because (v-g) - (v-o) = o - g was labelled
// earlier. The transfers are written at once in step order, with no list of hops between
// (16.8 million of them at 4,096 processors).
Schedule translation_schedule(const Problem& problem, const Layout& l, const Cayley& cg,
                              const Labels& labels, std::uint64_t seed) {
  const int G = static_cast<int>(cg.gens.size());
  std::vector<Transfer> transfers;
  transfers.reserve(static_cast<std::size_t>(l.P) * (l.P - 1));
  for (std::size_t t = 0; t < labels.size(); ++t)
    for (const auto& [o, j] : labels[t])
      for (int v = 0; v < l.P; ++v)
        transfers.push_back({static_cast<Step>(t + 1),
                             {l.node[cg.minus[static_cast<std::size_t>(v) * G + j]], l.node[v]},
                             {l.of[group_op(cg.radix, v, o, -1)]}});
  return assemble_schedule(problem, std::move(transfers), "gossip", seed);
}

struct Translation {
  Cayley cg;
  Labels labels;
  int steps() const { return static_cast<int>(labels.size()); }
};

std::optional<Translation> translation_design(const Topology& t, const Layout& l,
                                              std::uint64_t seed, int target,
                                              const Budget& budget) {
  auto cg = cayley_structure(t, l);
  if (!cg) return std::nullopt;
  const int cap = std::min<int>(l.ports, static_cast<int>(cg->gens.size()));
  std::optional<Labels> best;
  for (int attempt = 0; attempt < 16 && (attempt == 0 || !budget.expired()); ++attempt) {
    const int limit = best ? static_cast<int>(best->size()) - 1 : l.P;
    auto labels = translation_labels(*cg, l.P, cap, seed, attempt, limit, budget);
    if (labels) best = std::move(labels);
    if (best && static_cast<int>(best->size()) <= target) break;
  }
  if (!best) return std::nullopt;
  return Translation{std::move(*cg), std::move(*best)};
}

// ---------------------------------------------------------------------------------------
// Neighbour gossip on any direct network.

class Holders {
 public:
  explicit Holders(int P) : W_((P + 63) / 64), bits_(static_cast<std::size_t>(P) * W_) {
    for (int v = 0; v < P; ++v) add(v, v);
  }
  int words() const { return W_; }
  const std::uint64_t* row(int v) const { return bits_.data() + static_cast<std::size_t>(v) * W_; }
  bool has(int v, int m) const { return (row(v)[m >> 6] >> (m & 63)) & 1U; }
  void add(int v, int m) { bits_[static_cast<std::size_t>(v) * W_ + (m >> 6)] |= 1ULL << (m & 63); }

 private:
  int W_;
  std::vector<std::uint64_t> bits_;
};

// Which messages a receiver takes first among equally urgent ones: those that many of its
// out-neighbours lack (it can pass them on next step: best on Kautz digraphs of degree 3
// and more) or those that few lack (best on degree 2, where the receiver's own in-flow is
// what runs short). The restarts alternate.
enum class Forwarding { many_first, few_first };

// Each step, every processor v matches its in-channels u -> v (processors u with a send
// port left) to distinct messages that u holds and v lacks. Candidates of a channel in
// priority order: first those no other in-neighbour of v holds (the channel is their only
// way in this step), then those two hold, then the rest; within a level by the forwarding
// preference, then the rarest messages (fewest holders, seeded ties) first. A maximum matching
// (augmenting paths over the first min(k, channels) candidates of each channel, which loses no
// cardinality) then fixes the step. Receptions take effect at the end of the step.
std::optional<Plan> neighbour_gossip(const Layout& l, Forwarding preference, std::uint64_t seed,
                                     int step_limit, const Budget& budget, std::int64_t& work,
                                     std::int64_t work_limit) {
  const int P = l.P;
  Holders holders(P);
  const int W = holders.words();
  std::int64_t channels = 0;
  for (const auto& in : l.in) channels += static_cast<std::int64_t>(in.size());
  // A step looks at every in-channel's words of holders, and sorts the processors.
  const std::int64_t step_work = channels * W + P;
  std::vector<int> count(P, 1), missing(P, P - 1), rank(P), order(P), send_used(P);
  std::vector<std::uint64_t> noise(P);
  int incomplete = P;
  Plan plan;
  const int max_in = [&] {
    int m = 0;
    for (const auto& in : l.in) m = std::max(m, static_cast<int>(in.size()));
    return m;
  }();
  const bool ports_bind = l.ports < max_in;
  std::vector<std::uint64_t> level(3 * static_cast<std::size_t>(W));
  std::vector<std::vector<std::pair<std::uint64_t, int>>> cand;
  std::vector<int> chans, receivers(P);
  Matcher matcher(P);
  std::vector<Hop> pending;
  for (int step = 1; incomplete > 0; ++step) {
    if (step > step_limit || work >= work_limit || budget.expired()) return std::nullopt;
    work += step_work;
    for (int m = 0; m < P; ++m) noise[m] = mix(seed ^ (static_cast<std::uint64_t>(step) << 32) ^ m);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return count[a] != count[b] ? count[a] < count[b] : noise[a] < noise[b];
    });
    for (int i = 0; i < P; ++i) rank[order[i]] = i;
    std::fill(send_used.begin(), send_used.end(), 0);
    std::iota(receivers.begin(), receivers.end(), 0);
    if (ports_bind)  // the most needy receivers claim the scarce send ports first
      std::sort(receivers.begin(), receivers.end(), [&](int a, int b) {
        return missing[a] != missing[b] ? missing[a] > missing[b] : noise[a] < noise[b];
      });
    pending.clear();
    for (const int v : receivers) {
      if (missing[v] == 0) continue;
      chans.clear();
      for (const int u : l.in[v])
        if (send_used[u] < l.ports) chans.push_back(u);
      if (chans.empty()) continue;
      const int limit = std::min<int>(l.ports, static_cast<int>(chans.size()));
      // Bit-sliced counters: level[0] = held by exactly one in-neighbour (and lacking at
      // v), level[1] = exactly two, level[2] = three or more.
      const std::uint64_t* mine = holders.row(v);
      for (int w = 0; w < W; ++w) {
        std::uint64_t c1 = 0, c2 = 0, c3 = 0;
        for (const int u : chans) {
          const std::uint64_t x = holders.row(u)[w] & ~mine[w];
          c3 |= c2 & x;
          c2 |= c1 & x;
          c1 |= x;
        }
        level[w] = c1 & ~c2;
        level[W + w] = c2 & ~c3;
        level[2 * W + w] = c3;
      }
      // (level, forwarding value, rarity): the forwarding value counts v's out-neighbours
      // that lack m, taken high first or low first as `preference` says. Only the rarest
      // `shortlist` candidates of a level get a forwarding value (it costs a look at every
      // out-neighbour), which keeps a step linear in the channels on large networks.
      auto forward_key = [&](int m) -> std::uint64_t {
        std::uint64_t lacking = 0;
        for (const int y : l.out[v]) lacking += holders.has(y, m) ? 0 : 1;
        return preference == Forwarding::many_first ? 0xffff - lacking : lacking;
      };
      const std::size_t shortlist = std::max<std::size_t>(64, 8 * static_cast<std::size_t>(limit));
      cand.assign(chans.size(), {});
      for (std::size_t i = 0; i < chans.size(); ++i) {
        const std::uint64_t* hu = holders.row(chans[i]);
        auto& list = cand[i];
        for (int lv = 0; lv < 3 && static_cast<int>(list.size()) < limit; ++lv) {
          const auto before = static_cast<std::ptrdiff_t>(list.size());
          for (int w = 0; w < W; ++w)
            for (std::uint64_t x = hu[w] & level[lv * W + w]; x != 0; x &= x - 1) {
              const int m = w * 64 + std::countr_zero(x);
              list.emplace_back(static_cast<std::uint64_t>(rank[m]), m);
            }
          if (list.size() - before > shortlist) {
            std::nth_element(list.begin() + before, list.begin() + before + shortlist, list.end());
            list.resize(before + shortlist);
          }
          for (auto it = list.begin() + before; it != list.end(); ++it)
            it->first |= static_cast<std::uint64_t>(lv) << 48 | forward_key(it->second) << 32;
          std::sort(list.begin() + before, list.end());
          if (static_cast<int>(list.size()) > limit) list.resize(limit);
        }
      }
      std::vector<int> chan_order(chans.size());
      std::iota(chan_order.begin(), chan_order.end(), 0);
      std::sort(chan_order.begin(), chan_order.end(), [&](int a, int b) {
        const auto ka = cand[a].empty() ? ~0ULL : cand[a][0].first;
        const auto kb = cand[b].empty() ? ~0ULL : cand[b][0].first;
        return ka < kb;
      });
      const auto match = matcher.run(
          cand, chan_order, limit, [](const std::pair<std::uint64_t, int>& c) { return c.second; });
      for (std::size_t i = 0; i < chans.size(); ++i)
        if (match[i] >= 0) {
          pending.push_back({static_cast<Step>(step), chans[i], v, match[i]});
          ++send_used[chans[i]];
        }
    }
    if (pending.empty()) return std::nullopt;  // nobody can learn anything: disconnected
    for (const Hop& h : pending) {
      holders.add(h.to, h.origin);
      ++count[h.origin];
      if (--missing[h.to] == 0) --incomplete;
      plan.hops.push_back(h);
    }
    plan.steps = step;
  }
  return plan;
}

// ---------------------------------------------------------------------------------------
// Ring pipelines along a Hamiltonian cycle of processors.

bool is_cycle(const Topology& t, const Layout& l, const std::vector<int>& cycle) {
  if (static_cast<int>(cycle.size()) != l.P) return false;
  std::vector<char> seen(l.P, 0);
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (cycle[i] < 0 || cycle[i] >= l.P || seen[cycle[i]]) return false;
    seen[cycle[i]] = 1;
    if (!t.has_channel(l.node[cycle[i]], l.node[cycle[(i + 1) % cycle.size()]])) return false;
  }
  return true;
}

// A mesh (2-D or 3-D) with an even side A: the other coordinates walked as a snake
// (reflected mixed-radix order: a coordinate runs backwards while the index of the higher
// coordinates is odd, so consecutive positions are neighbours) give B columns, and the
// A x B grid they span has a Hamiltonian cycle: along row 0, a snake over columns 1..B-1
// down to row A-1 (A even: it ends in column 1), and back up column 0.
std::vector<int> mesh_snake(const Topology& t, const Layout& l) {
  const auto named = grid_name(t);
  if (!named || named->first != "mesh" || named->second.size() < 2) return {};
  const auto& dims = named->second;
  const int n = static_cast<int>(dims.size());
  long long product = 1;
  for (const int d : dims) product *= d;
  if (product != l.P) return {};
  const auto even = std::find_if(dims.begin(), dims.end(), [](int d) { return d % 2 == 0; });
  if (even == dims.end()) return {};
  const int e = static_cast<int>(even - dims.begin());
  std::vector<int> stride(n, 1);
  for (int i = n - 1; i-- > 0;) stride[i] = stride[i + 1] * dims[i + 1];
  const int A = dims[e], B = l.P / A;
  if (B < 2) return {};
  auto id = [&](int a, int b) {
    int node = a * stride[e], prefix = 0, place = B;
    for (int i = 0; i < n; ++i) {
      if (i == e) continue;
      place /= dims[i];
      const int raw = b / place % dims[i];
      node += (prefix % 2 == 1 ? dims[i] - 1 - raw : raw) * stride[i];
      prefix = prefix * dims[i] + raw;
    }
    return node;
  };
  std::vector<int> cycle;
  for (int b = 0; b < B; ++b) cycle.push_back(id(0, b));
  for (int a = 1; a < A; ++a)
    for (int i = 0; i < B - 1; ++i) cycle.push_back(id(a, a % 2 == 1 ? B - 1 - i : 1 + i));
  for (int a = A - 1; a >= 1; --a) cycle.push_back(id(a, 0));
  return cycle;
}

// Line digraphs (Kautz, de Bruijn without loops removed): node y is an arc a -> b of an
// underlying digraph whose vertex b is y's out-neighbourhood; an Eulerian circuit of the
// underlying digraph (Hierholzer) is a Hamiltonian cycle of the line digraph.
std::vector<int> line_digraph_cycle(const Topology& t, const Layout& l) {
  const int P = l.P;
  std::map<std::vector<int>, int> head_of_set;
  std::vector<int> head(P), tail(P, -1);
  std::vector<int> outs;
  for (int x = 0; x < P; ++x) {
    outs.clear();
    for (const ChannelId ch : t.out_channels(l.node[x])) {
      const int y = l.index[t.channel(ch).to];
      if (y < 0) return {};
      outs.push_back(y);
    }
    std::sort(outs.begin(), outs.end());
    head[x] = head_of_set.emplace(outs, static_cast<int>(head_of_set.size())).first->second;
  }
  for (int y = 0; y < P; ++y) {
    if (l.in[y].empty()) return {};
    for (const int x : l.in[y]) {
      if (tail[y] >= 0 && tail[y] != head[x]) return {};
      tail[y] = head[x];
    }
  }
  // Every arc leaving vertex h must be an out-neighbour of every arc entering h.
  const int V = static_cast<int>(head_of_set.size());
  std::vector<std::vector<int>> arcs_from(V);
  for (int y = 0; y < P; ++y) arcs_from[tail[y]].push_back(y);
  for (int x = 0; x < P; ++x)
    if (t.out_channels(l.node[x]).size() != arcs_from[head[x]].size()) return {};
  // Hierholzer, iterative, over arcs; the circuit is read backwards at the end.
  std::vector<std::size_t> next(V, 0);
  std::vector<int> stack_v{tail[0]}, stack_arc{-1}, circuit;
  while (!stack_v.empty()) {
    const int v = stack_v.back();
    if (next[v] < arcs_from[v].size()) {
      const int y = arcs_from[v][next[v]++];
      stack_v.push_back(head[y]);
      stack_arc.push_back(y);
    } else {
      if (stack_arc.back() >= 0) circuit.push_back(stack_arc.back());
      stack_v.pop_back();
      stack_arc.pop_back();
    }
  }
  std::reverse(circuit.begin(), circuit.end());
  return circuit;
}

// Processor c_i sends to c_{i+1} in step s the message of c_{i-s+1} (forward); with two
// ports and the reverse cycle, c_i also sends to c_{i-1} the message of c_{i+s-1}, so that
// each direction carries half of the messages.
Plan ring_pipeline(const Layout& l, const std::vector<int>& cycle, bool both_ways) {
  const int P = l.P;
  const int backward = both_ways ? P / 2 : 0;
  const int forward = P - 1 - backward;
  Plan plan;
  plan.steps = std::max(forward, backward);
  plan.hops.reserve(static_cast<std::size_t>(P) * (P - 1));
  for (int i = 0; i < P; ++i) {
    for (int s = 1; s <= forward; ++s)
      plan.hops.push_back({s, cycle[i], cycle[(i + 1) % P], cycle[((i - s + 1) % P + P) % P]});
    for (int s = 1; s <= backward; ++s)
      plan.hops.push_back({s, cycle[i], cycle[(i + P - 1) % P], cycle[(i + s - 1) % P]});
  }
  return plan;
}

// Any other network: a depth-first search for a Hamiltonian cycle from processor 0 that
// tries the next processors by Warnsdorff's rule (fewest unvisited out-neighbours first,
// seeded ties) and backtracks, giving up after `max_work` moves (Petersen has no such
// cycle; on odd x odd meshes, bipartite with unequal sides, the search can only give up).
std::vector<int> warnsdorff_cycle(const Layout& l, std::uint64_t seed, long long max_work,
                                  const Budget& budget) {
  const int P = l.P;
  std::vector<char> on_path(P, 0);
  std::vector<int> path{0};
  on_path[0] = 1;
  std::vector<std::vector<int>> options(P);
  std::vector<std::size_t> next(P, 0);
  auto fill = [&](std::size_t depth) {
    auto& opts = options[depth];
    opts.clear();
    for (const int w : l.out[path[depth]])
      if (!on_path[w]) opts.push_back(w);
    auto onward = [&](int w) {
      int n = 0;
      for (const int x : l.out[w]) n += on_path[x] ? 0 : 1;
      return n;
    };
    std::vector<std::pair<std::uint64_t, int>> keyed;
    for (const int w : opts)
      keyed.emplace_back(static_cast<std::uint64_t>(onward(w)) << 32 | (mix(seed + w) >> 32), w);
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < keyed.size(); ++i) opts[i] = keyed[i].second;
    next[depth] = 0;
  };
  fill(0);
  for (long long work = 0; !path.empty(); ++work) {
    if (work > max_work || (work % 4096 == 0 && budget.expired())) return {};
    const std::size_t depth = path.size() - 1;
    if (static_cast<int>(path.size()) == P) {
      if (std::find(l.in[0].begin(), l.in[0].end(), path.back()) != l.in[0].end()) return path;
    } else if (next[depth] < options[depth].size()) {
      const int w = options[depth][next[depth]++];
      if (on_path[w]) continue;
      path.push_back(w);
      on_path[w] = 1;
      fill(depth + 1);
      continue;
    }
    on_path[path.back()] = 0;
    path.pop_back();
  }
  return {};
}

std::optional<Plan> pipeline_design(const Topology& t, const Layout& l, std::uint64_t seed,
                                    const Budget& budget) {
  std::vector<int> cycle = mesh_snake(t, l);
  if (!is_cycle(t, l, cycle)) cycle = line_digraph_cycle(t, l);
  // Restarts with other tie-breaks: a search trapped early rarely recovers by backtracking.
  for (int attempt = 0; attempt < 8 && !is_cycle(t, l, cycle); ++attempt)
    cycle = warnsdorff_cycle(l, mix(seed + attempt), 250'000, budget);
  if (!is_cycle(t, l, cycle)) return std::nullopt;
  bool reverse = l.ports >= 2;
  for (int i = 0; reverse && i < l.P; ++i)
    reverse = t.has_channel(l.node[cycle[(i + 1) % l.P]], l.node[cycle[i]]);
  return ring_pipeline(l, cycle, reverse);
}

Schedule to_schedule(const Problem& problem, const Layout& l, const Plan& plan,
                     std::uint64_t seed) {
  std::vector<Transfer> transfers;
  transfers.reserve(plan.hops.size());
  for (const Hop& h : plan.hops)
    transfers.push_back({h.step, {l.node[h.from], l.node[h.to]}, {l.of[h.origin]}});
  return assemble_schedule(problem, std::move(transfers), "gossip", seed);
}

// The best of the designs on a direct network (translation, pipeline, neighbour gossip),
// unchecked; their plans and tables are freed when it returns, before the check.
std::optional<Schedule> direct_network_gossip(const Problem& problem, const Layout& l,
                                              std::uint64_t seed, const Budget& budget) {
  const Topology& t = problem.topology;
  const int target = reception_target(l);
  if (target == kUnreachable) return std::nullopt;
  std::optional<Translation> translation = translation_design(t, l, seed, target, budget);
  std::optional<Plan> best;  // of the other designs, kept only when shorter
  auto best_steps = [&] {
    return best ? best->steps : translation ? translation->steps() : kUnreachable;
  };
  // A translation one step above the bound (1 < k < |G|) is left alone: the neighbour
  // gossip has never been seen to beat a translation, and on 1,000 processors its
  // restarts would spend their work allowance for nothing.
  const bool settled = translation && translation->steps() <= target + 1;
  auto consider = [&](std::optional<Plan> p) {
    if (p && p->steps < best_steps()) best = std::move(p);
  };
  if (best_steps() > target && l.ports <= 2) consider(pipeline_design(t, l, seed, budget));
  // Restarts with fresh seeds until the bound, kRestartWork units of work, 64 tries, or 16
  // tries in a row that found nothing shorter (each try stops once it reaches the best so
  // far). Work, not seconds, so that the same seed gives the same plan on any machine; the
  // budget's clock stays the outer cap.
  std::int64_t work = 0;
  for (int attempt = 0, stale = 0; !settled && attempt < 64 && stale < 16 &&
                                   best_steps() > target && work < kRestartWork &&
                                   !budget.expired();
       ++attempt) {
    const int limit = best_steps() < kUnreachable ? best_steps() - 1 : 4 * l.P;
    const auto preference = attempt % 2 == 0 ? Forwarding::many_first : Forwarding::few_first;
    auto plan = neighbour_gossip(l, preference, mix(seed + attempt), limit, budget, work,
                                 kRestartWork);
    stale = plan ? 0 : stale + 1;
    consider(std::move(plan));
  }
  if (!best && !translation) return std::nullopt;
  return best ? to_schedule(problem, l, *best, seed)
              : translation_schedule(problem, l, translation->cg, translation->labels, seed);
}

}  // namespace

VerifiedSchedule gossip_schedule(const Problem& problem, std::uint64_t seed,
                                 const Budget& budget) {
  const auto layout = aab_layout(problem);
  if (!layout) return {};
  const Layout& l = *layout;
  const Topology& t = problem.topology;
  if (t.switch_count() != 0) {
    // Processors are joined through switches only: the constructive ring of
    // engines/constructive.hpp routes the shift i -> i+1 channel-disjointly (fat trees).
    // When every processor has one channel out and one in, a step can never give one more
    // than one transfer either way, so k ports and all-port accept the same schedules;
    // asking under all-port skips the rounds design, which reaches the same P-1 steps at a
    // few times the time and memory.
    if (problem.model.switching != Switching::wormhole) return {};
    bool single_channel = true;
    for (const NodeId v : l.node)
      single_channel =
          single_channel && t.out_channels(v).size() <= 1 && t.in_channels(v).size() <= 1;
    const bool relaxed = single_channel && problem.model.ports.has_value();
    Problem asked = problem;
    if (relaxed) asked.model.ports.reset();
    const PathSet paths(t, asked.model);
    VerifiedSchedule s = constructive_schedule(asked, paths);
    if (!s) return {};
    s.solver() = SolverInfo{"gossip", seed, 0.0};
    if (!relaxed) return s;
    // Built under all-port: checked again under the ports asked for.
    Schedule under_ports = std::move(s).release();
    under_ports.model = problem.model;
    return verified(std::move(under_ports));
  }
  // Checked here, once: the driver keeps the sealed schedule without a second pass (one
  // over 16.8 million transfers costs tens of seconds and gigabytes at 4,096 processors;
  // docs/ENGINES.md, "Beyond 1,024").
  auto s = direct_network_gossip(problem, l, seed, budget);
  if (!s) return {};
  return verified(std::move(*s));
}

bool gossip_meets_reception_bound(const Problem& problem, std::uint64_t seed) {
  const auto layout = aab_layout(problem);
  if (!layout || problem.topology.switch_count() != 0) return false;
  const int target = reception_target(*layout);
  if (target == kUnreachable) return false;
  const auto cg = cayley_structure(problem.topology, *layout);
  if (!cg) return false;
  const int cap = std::min<int>(layout->ports, static_cast<int>(cg->gens.size()));
  const auto labels = translation_labels(*cg, layout->P, cap, seed, 0, layout->P, Budget());
  return labels && static_cast<int>(labels->size()) <= target;
}

}  // namespace ccsched
