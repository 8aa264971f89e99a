// ALLREDUCE on a Kautz digraph K(d, D) or a de Bruijn digraph B(d, D) by its words
// (docs/ENGINES.md, "Reductions": Kautz exchange), written as transfers on fixed paths, no
// path sets. Below for Kautz; de Bruijn differs only in its words (all strings over 0..d-1,
// make_debruijn, the constant words' loops dropped), so m = d^L leaders and a digit of d
// for every round.
//
// kautz:d,D (generators.cpp, make_kautz): the nodes are the words a1..aD over the letters
// 0..d with a_i != a_(i+1), numbered in lexicographic order; a channel shifts a letter in,
// a1..aD -> a2..aD x (x != aD; seed 000, section 2). The one shortest path from u to v
// shifts in v's letters after the longest suffix of u that is a prefix of v, so minimal
// routing leaves no choice. For a depth g (1 <= g < D) and L = D - g:
//   - leaders: a perfect matching of the L-letter strings as prefixes to the same strings
//     as suffixes, each matched pair one word (the two overlap in 2L - D letters, or free
//     letters join them when 2L < D): m = (d + 1) d^(L-1) leaders. Every word's last L
//     letters are some leader's first L, so it reaches that leader in g channels, and every
//     word is reached from the leader whose last L letters are its first L;
//   - gather, g steps: every other word sends its accumulator over one channel to an
//     out-neighbour one channel nearer the leaders, the farthest first. A word sends once,
//     so the channels of a step differ; it receives at most its in-degree d;
//   - exchange: the leaders as a mixed-radix array (a digit of d + 1, L - 1 digits of d);
//     in round s each sends its sum to the leaders that differ from it only in digit s,
//     along the shortest paths (the generalised recursive doubling of exchange.cpp: the
//     sums a group adds are over disjoint sets of words, so after the last round every
//     leader holds the total);
//   - broadcast, g steps: the total copied down a forest of channels out of the leaders.
// That is 2g + L = D + g steps when each exchange round fits one step, which depends on the
// matching, the free letters and the leaders' places in the array: a local search over
// those (seeded, bounded in moves) minimises the channels two transfers of a round share;
// a round that still collides is packed first-fit by groups into more steps. Depths are
// tried from D - 1 down until one does not beat the deeper ones. kautz:3,5: g = 3, 12
// leaders, 3 + 2 + 3 = 8 steps (the composition of a gather and a broadcast: 10); at g = 2
// the 36 leaders' rounds load half the channels and the search leaves about 90 collisions.
//
// The tree exchange, for k ports with k < d: a word may take only k transfers a step, so
// the forests do not apply. Instead m = (k + 1)^j leaders, any words, form an array of j
// digits of k + 1 (one port: round r pairs places i and i ^ 2^r, recursive doubling; a
// local search over the words and their places clears the rounds' collisions), and two
// trees are grown from them, up to k new words per holder a step, each over its one
// shortest path however many hops it has (wormhole), the channels of a step used once: the
// gather (read backwards: a new word sends to its holder) and the broadcast. With
// t = ceil(log_(k+1)(n / m)), t + j + t steps when the growth keeps pace; kautz:3,5
// one-port: 64 leaders, 3 + 6 + 3 = 12 (the composition: 18). With d ports the same
// design over arrays of mixed radices (mixed_design), its trees by a SAT question where
// the growth falls short: kautz:3,5 all-port 27 leaders, 2 + 3 + 2 = 7 (the exchange: 8).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cadical.hpp>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "cnf.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

using Word = std::vector<int>;

// Words of a given length in lexicographic order: over 0..d with no letter next to itself
// (Kautz, make_kautz's numbering for length D), or over 0..d-1 freely (de Bruijn,
// make_debruijn's: the word as a number in base d).
struct PathTable;

struct Words {
  int d = 0, length = 0;
  bool kautz = true;
  // Every pair's shortest path, built once by the first search that asks (path_table).
  mutable std::shared_ptr<const PathTable> table;
  int letters() const { return kautz ? d + 1 : d; }
  // Whether letter b may follow letter a.
  bool fits(int a, int b) const { return !kautz || a != b; }
  long long count() const {
    long long c = letters();
    for (int i = 1; i < length; ++i) c *= d;
    return c;
  }
  long long rank(const Word& w) const {
    long long r = w[0];
    for (int i = 1; i < length; ++i) r = r * d + (w[i] - (kautz && w[i] > w[i - 1] ? 1 : 0));
    return r;
  }
  Word unrank(long long r) const {
    Word w(static_cast<std::size_t>(length));
    for (int i = length - 1; i >= 1; --i) {
      w[static_cast<std::size_t>(i)] = static_cast<int>(r % d);
      r /= d;
    }
    w[0] = static_cast<int>(r);
    if (kautz)
      for (int i = 1; i < length; ++i)
        if (w[static_cast<std::size_t>(i)] >= w[static_cast<std::size_t>(i - 1)])
          ++w[static_cast<std::size_t>(i)];
    return w;
  }
};

// The longest k <= D with u's last k letters equal to v's first k.
int overlap(const Word& u, const Word& v) {
  const int D = static_cast<int>(u.size());
  for (int k = D; k > 0; --k)
    if (std::equal(u.end() - k, u.end(), v.begin())) return k;
  return 0;
}

// The shortest path u -> v: its nodes (`nodes`, ids) and channels (`arcs`: tail id times
// the number of letters, plus the letter shifted in).
void shortest_path(const Words& kw, const Word& u, const Word& v, std::vector<NodeId>* nodes,
                   std::vector<long long>& arcs) {
  const int D = kw.length;
  // The rank after a shift, from the rank before (D >= 2): drop the first letter's digit
  // (and, for Kautz, the second's, which depended on the first), shift, add the new
  // letter's (Kautz: the second letter's digit becomes the letter itself).
  long long top = 1;  // d^(D-1)
  for (int i = 1; i < D; ++i) top *= kw.d;
  auto digit = [&](int prev, int x) { return x - (kw.kautz && x > prev ? 1 : 0); };
  long long id = kw.rank(u);
  arcs.clear();
  if (nodes) nodes->assign(1, static_cast<NodeId>(id));
  const int k = overlap(u, v);
  // The word after t shifts is u[t..D-1] v[k..k+t-1]; `at(t, i)` its i-th letter.
  auto at = [&](int t, int i) {
    return t + i < D ? u[static_cast<std::size_t>(t + i)]
                     : v[static_cast<std::size_t>(k + t + i - D)];
  };
  for (int t = 0; t < D - k; ++t) {
    const int x = v[static_cast<std::size_t>(k + t)];
    arcs.push_back(id * kw.letters() + x);
    const int first = at(t, 0), second = at(t, 1), last = at(t, D - 1);
    if (kw.kautz)
      id = (id - first * top - digit(first, second) * (top / kw.d)) * kw.d + second * top +
           digit(last, x);
    else
      id = (id - first * top) * kw.d + x;
    if (nodes) nodes->push_back(static_cast<NodeId>(id));
  }
}

// Every pair's path on a small digraph, for the leaders' searches' inner loop: the
// channels of u -> v at arcs[(u n + v) D ..], length[u n + v] of them.
struct PathTable {
  std::vector<long long> arcs;
  std::vector<unsigned char> length;
};

// The table of kw's paths (built on the first call), or null above kPathTableWords words.
constexpr long long kPathTableWords = 1024;  // kautz:3,5: 105,000 paths, 5 MB

const PathTable* path_table(const Words& kw) {
  const long long n = kw.count();
  if (n > kPathTableWords) return nullptr;
  if (!kw.table) {
    auto table = std::make_shared<PathTable>();
    table->arcs.resize(static_cast<std::size_t>(n * n * kw.length));
    table->length.resize(static_cast<std::size_t>(n * n));
    std::vector<long long> arcs;
    for (long long u = 0; u < n; ++u)
      for (long long v = 0; v < n; ++v) {
        shortest_path(kw, kw.unrank(u), kw.unrank(v), nullptr, arcs);
        const auto at = static_cast<std::size_t>(u * n + v);
        table->length[at] = static_cast<unsigned char>(arcs.size());
        std::copy(arcs.begin(), arcs.end(),
                  table->arcs.begin() + static_cast<std::ptrdiff_t>(at) * kw.length);
      }
    kw.table = std::move(table);
  }
  return kw.table.get();
}

// One depth's design: the leaders in array order and each exchange round's steps.
struct Design {
  int g = 0;
  std::vector<Word> leaders;           // leaders[i]: the word at array place i
  std::vector<int> radix;              // the digits, lowest first
  std::vector<std::vector<int>> slot;  // slot[s][i]: the step of the group of place i, round s
  int exchange_steps = 0;
};

// The places of the group of place i in a round of radix r over places `stride` apart
// (i included): those that differ from i only in that round's digit.
std::vector<int> group_places(int i, int r, int stride) {
  const int base = i - ((i / stride) % r) * stride;
  std::vector<int> out;
  for (int e = 0; e < r; ++e) out.push_back(base + e * stride);
  return out;
}

// Simulated annealing's schedule for the searches below: the temperature falls geometrically
// from 1.5 to 0.05 over the moves (`tick` after each); a move that adds `delta` collisions
// is taken when it adds none, or by chance.
class Cooling {
 public:
  explicit Cooling(long long moves)
      : cool_(moves > 0 ? std::pow(0.05 / 1.5, 1.0 / static_cast<double>(moves)) : 1) {}
  bool accept(long long delta, std::mt19937_64& rng) const {
    return delta <= 0 || std::uniform_real_distribution<double>(0, 1)(rng) <
                             std::exp(-static_cast<double>(delta) / temp_);
  }
  void tick() { temp_ *= cool_; }

 private:
  double cool_, temp_ = 1.5;
};

// Simulated annealing until the cost is 0, `moves` proposals are spent or the budget ends:
// `propose(&delta)` makes a move and adds its change of the cost into delta (false: it made
// none), `undo()` takes back the last move made when the cooling refuses it.
template <class Propose, class Undo>
void anneal(long long moves, long long& cost, std::mt19937_64& rng, Propose propose, Undo undo) {
  Cooling cooling(moves);
  for (long long it = 0; it < moves && cost > 0; ++it, cooling.tick()) {
    if ((it & 1023) == 0 && t_budget != nullptr && t_budget->expired()) break;
    long long delta = 0;
    if (!propose(&delta)) continue;
    if (cooling.accept(delta, rng))
      cost += delta;
    else
      undo();
  }
}

// Transfers beyond the first on each channel, over all rounds.
long long shared_channels(const std::vector<std::vector<int>>& use) {
  long long c = 0;
  for (const auto& u : use)
    for (const int x : u) c += std::max(0, x - 1);
  return c;
}

// Adds (+1) or removes (-1) one transfer's channels in a round's counts, counting the
// collisions made or undone into `delta`.
void tally(std::vector<int>& use, std::span<const long long> arcs, int sign, long long* delta) {
  for (const long long arc : arcs) {
    int& c = use[static_cast<std::size_t>(arc)];
    if (sign > 0) {
      if (delta && c >= 1) ++*delta;
      ++c;
    } else {
      if (delta && c >= 2) --*delta;
      --c;
    }
  }
}

// Packs one group's channels first-fit into the steps of a round (`busy[s][channel]`, a
// step added when none is free): the step taken, or -1 when the group itself uses a
// channel twice (no step takes it).
int first_fit(std::vector<std::vector<char>>& busy, std::size_t channels,
              const std::vector<long long>& arcs) {
  std::vector<long long> sorted = arcs;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return -1;
  std::size_t s = 0;
  for (;; ++s) {
    if (s == busy.size()) busy.emplace_back(channels, 0);
    bool free = true;
    for (const long long a : arcs) free = free && !busy[s][static_cast<std::size_t>(a)];
    if (free) break;
  }
  for (const long long a : arcs) busy[s][static_cast<std::size_t>(a)] = 1;
  return static_cast<int>(s);
}

class ExchangeSearch {
 public:
  ExchangeSearch(const Words& kw, int g, std::mt19937_64& rng) : kw_(kw), g_(g), rng_(rng) {
    L_ = kw.length - g;
    ov_ = 2 * L_ - kw.length;
    part_ = Words{kw.d, L_, kw.kautz, {}};
    radix_.push_back(kw.letters());
    for (int i = 1; i < L_; ++i) radix_.push_back(kw.d);
    m_ = static_cast<int>(part_.count());
    int stride = 1;
    for (const int r : radix_) {
      stride_.push_back(stride);
      stride *= r;
    }
    use_.assign(radix_.size(),
                std::vector<int>(static_cast<std::size_t>(kw.count() * kw.letters()), 0));
  }

  // The matching and the local search; false when no matching was found.
  bool run(long long moves) {
    if (!initial()) return false;
    for (int i = 0; i < m_; ++i) touch(i, +1, nullptr);
    cost_ = shared_channels(use_);
    std::uniform_real_distribution<double> unit(0, 1);
    std::uniform_int_distribution<int> place(0, m_ - 1);
    int i = 0, j = 0;
    Word before[2];
    auto propose = [&](long long* delta) {
      const double kind = unit(rng_);
      i = place(rng_);
      j = place(rng_);
      if (i == j) return false;
      before[0] = leader_[static_cast<std::size_t>(i)];
      before[1] = leader_[static_cast<std::size_t>(j)];
      Word wi = before[0], wj = before[1];
      if (kind < 0.6) {
        std::swap(wi, wj);
      } else if (kind < 0.8 && ov_ < 0) {
        wi = join(prefix(wi), suffix(wi));
      } else {
        auto a = join(prefix(wi), suffix(wj)), b = join(prefix(wj), suffix(wi));
        if (a.empty() || b.empty()) return false;
        wi = std::move(a);
        wj = std::move(b);
      }
      touch_pair(i, j, -1, delta);
      leader_[static_cast<std::size_t>(i)] = std::move(wi);
      leader_[static_cast<std::size_t>(j)] = std::move(wj);
      touch_pair(i, j, +1, delta);
      return true;
    };
    auto undo = [&] {
      touch_pair(i, j, -1, nullptr);
      leader_[static_cast<std::size_t>(i)] = before[0];
      leader_[static_cast<std::size_t>(j)] = before[1];
      touch_pair(i, j, +1, nullptr);
    };
    anneal(moves, cost_, rng_, propose, undo);
    return true;
  }

  // The rounds packed first-fit by groups into steps.
  Design pack() const {
    Design out;
    out.g = g_;
    out.leaders = leader_;
    out.radix = radix_;
    std::vector<long long> arcs;
    for (std::size_t s = 0; s < radix_.size(); ++s) {
      std::vector<std::vector<char>> busy;
      std::vector<int> slot(static_cast<std::size_t>(m_), -1);
      for (int i = 0; i < m_; ++i) {
        if (slot[static_cast<std::size_t>(i)] >= 0) continue;
        const std::vector<int> group = members(i, s);
        std::vector<long long> all;
        for (const int a : group)
          for (const int b : group)
            if (a != b) {
              shortest_path(kw_, leader_[static_cast<std::size_t>(a)],
                            leader_[static_cast<std::size_t>(b)], nullptr, arcs);
              all.insert(all.end(), arcs.begin(), arcs.end());
            }
        const int k = first_fit(busy, use_[0].size(), all);
        if (k < 0) return {};
        for (const int a : group) slot[static_cast<std::size_t>(a)] = k;
      }
      out.slot.push_back(slot);
      out.exchange_steps += static_cast<int>(busy.size());
    }
    return out;
  }

  long long collisions() const { return cost_; }
  int leaders() const { return m_; }

 private:
  Word prefix(const Word& w) const { return Word(w.begin(), w.begin() + L_); }
  Word suffix(const Word& w) const { return Word(w.end() - L_, w.end()); }

  // The word with prefix x and suffix y (free letters drawn when 2L < D); empty when the
  // two do not fit.
  Word join(const Word& x, const Word& y) {
    Word w = x;
    if (ov_ >= 0) {
      if (!std::equal(x.end() - ov_, x.end(), y.begin())) return {};
      w.insert(w.end(), y.begin() + ov_, y.end());
    } else {
      for (int k = 0; k < -ov_; ++k) {
        std::vector<int> ok;
        for (int c = 0; c < kw_.letters(); ++c)
          if (kw_.fits(w.back(), c) && (k + 1 < -ov_ || kw_.fits(c, y[0]))) ok.push_back(c);
        w.push_back(ok[std::uniform_int_distribution<std::size_t>(0, ok.size() - 1)(rng_)]);
      }
      w.insert(w.end(), y.begin(), y.end());
    }
    for (std::size_t k = 1; k < w.size(); ++k)
      if (!kw_.fits(w[k - 1], w[k])) return {};
    return w;
  }

  // A perfect matching of prefixes to suffixes (Kuhn's augmenting paths, candidates in a
  // random order), the leaders placed in a random order.
  bool initial() {
    const long long n = part_.count();
    std::vector<long long> owner(static_cast<std::size_t>(n), -1);
    if (ov_ < 0) {
      // Free letters join any two strings (d >= 2): a random permutation.
      for (long long y = 0; y < n; ++y) owner[static_cast<std::size_t>(y)] = y;
      std::shuffle(owner.begin(), owner.end(), rng_);
      return place(owner);
    }
    std::vector<Word> words;
    for (long long x = 0; x < n; ++x) words.push_back(part_.unrank(x));
    std::vector<std::vector<long long>> cand(static_cast<std::size_t>(n));
    for (long long x = 0; x < n; ++x) {
      const Word& wx = words[static_cast<std::size_t>(x)];
      for (long long y = 0; y < n; ++y) {
        const Word& wy = words[static_cast<std::size_t>(y)];
        const bool fits = ov_ > 0 ? std::equal(wx.end() - ov_, wx.end(), wy.begin())
                                  : kw_.fits(wx.back(), wy.front());
        if (fits) cand[static_cast<std::size_t>(x)].push_back(y);
      }
      std::shuffle(cand[static_cast<std::size_t>(x)].begin(),
                   cand[static_cast<std::size_t>(x)].end(), rng_);
    }
    std::vector<char> seen;
    auto augment = [&](auto&& self, long long x) -> bool {
      for (const long long y : cand[static_cast<std::size_t>(x)]) {
        if (seen[static_cast<std::size_t>(y)]) continue;
        seen[static_cast<std::size_t>(y)] = 1;
        if (owner[static_cast<std::size_t>(y)] < 0 ||
            self(self, owner[static_cast<std::size_t>(y)])) {
          owner[static_cast<std::size_t>(y)] = x;
          return true;
        }
      }
      return false;
    };
    for (long long x = 0; x < n; ++x) {
      seen.assign(static_cast<std::size_t>(n), 0);
      if (!augment(augment, x)) return false;
    }
    return place(owner);
  }

  // The leaders of a matching (owner[y]: the prefix matched to suffix y), placed in a
  // random order.
  bool place(const std::vector<long long>& owner) {
    for (std::size_t y = 0; y < owner.size(); ++y) {
      Word w = join(part_.unrank(owner[y]), part_.unrank(static_cast<long long>(y)));
      if (w.empty()) return false;
      leader_.push_back(std::move(w));
    }
    std::shuffle(leader_.begin(), leader_.end(), rng_);
    return true;
  }

  // Places of the group of place i in round s (i included).
  std::vector<int> members(int i, std::size_t s) const {
    return group_places(i, radix_[s], stride_[s]);
  }

  // Adds (+1) or removes (-1) the transfer a -> b of round s.
  void count(std::size_t s, int a, int b, int sign, long long* delta) {
    shortest_path(kw_, leader_[static_cast<std::size_t>(a)], leader_[static_cast<std::size_t>(b)],
                  nullptr, scratch_);
    tally(use_[s], scratch_, sign, delta);
  }

  // Every transfer into or out of place i (once each).
  void touch(int i, int sign, long long* delta) {
    for (std::size_t s = 0; s < radix_.size(); ++s)
      for (const int j : members(i, s))
        if (j != i) {
          if (sign > 0 && j < i) continue;  // the first pass adds each pair once
          count(s, i, j, sign, delta);
          count(s, j, i, sign, delta);
        }
  }
  void touch_pair(int i, int j, int sign, long long* delta) {
    for (std::size_t s = 0; s < radix_.size(); ++s) {
      std::vector<std::pair<int, int>> pairs;
      for (const int a : {i, j})
        for (const int b : members(a, s))
          if (b != a) pairs.push_back({std::min(a, b), std::max(a, b)});
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
      for (const auto& [a, b] : pairs) {
        count(s, a, b, sign, delta);
        count(s, b, a, sign, delta);
      }
    }
  }

  const Words& kw_;
  int g_, L_ = 0, ov_ = 0, m_ = 0;
  Words part_;
  std::mt19937_64& rng_;
  std::vector<int> radix_, stride_;
  std::vector<Word> leader_;
  std::vector<std::vector<int>> use_;  // per round: transfers on each channel
  std::vector<long long> scratch_;
  long long cost_ = 0;
};

// Distances to (`towards`) or from the leaders over the channels, and each other word's
// parent: a neighbour one nearer.
void forest(const Words& kw, const std::vector<Word>& leaders, bool towards, std::vector<int>& dist,
            std::vector<long long>& parent) {
  const long long n = kw.count();
  dist.assign(static_cast<std::size_t>(n), -1);
  parent.assign(static_cast<std::size_t>(n), -1);
  std::vector<long long> queue;
  for (const Word& w : leaders) {
    const long long id = kw.rank(w);
    dist[static_cast<std::size_t>(id)] = 0;
    queue.push_back(id);
  }
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const long long v = queue[q];
    const Word w = kw.unrank(v);
    for (int x = 0; x < kw.letters(); ++x) {
      // towards: the in-neighbours x w1..w(D-1); else the out-neighbours w2..wD x (a de
      // Bruijn constant word's loop is no channel).
      Word u;
      if (towards) {
        if (!kw.fits(x, w.front())) continue;
        u.push_back(x);
        u.insert(u.end(), w.begin(), w.end() - 1);
      } else {
        if (!kw.fits(w.back(), x)) continue;
        u.assign(w.begin() + 1, w.end());
        u.push_back(x);
      }
      if (u == w) continue;
      const long long id = kw.rank(u);
      if (dist[static_cast<std::size_t>(id)] >= 0) continue;
      dist[static_cast<std::size_t>(id)] = dist[static_cast<std::size_t>(v)] + 1;
      parent[static_cast<std::size_t>(id)] = v;
      queue.push_back(id);
    }
  }
}

// The transfers of a design; nullopt when a channel is missing (a faulty copy).
std::optional<std::vector<Transfer>> write(const Problem& p, const Words& kw, const Design& d) {
  const std::vector<int> blocks = all_blocks(p.collective);
  std::vector<int> din, dout;
  std::vector<long long> pin, pout;
  forest(kw, d.leaders, true, din, pin);
  forest(kw, d.leaders, false, dout, pout);
  const int gin = *std::max_element(din.begin(), din.end());
  if (std::min(*std::min_element(din.begin(), din.end()),
               *std::min_element(dout.begin(), dout.end())) < 0)
    return std::nullopt;
  std::vector<Transfer> out;
  auto put = [&](Step step, const std::vector<NodeId>& path, ReductionRecv recv) {
    return add_path_transfers(out, p, step, path, blocks, recv);
  };
  for (long long v = 0; v < kw.count(); ++v)
    if (din[static_cast<std::size_t>(v)] > 0 &&
        !put(static_cast<Step>(gin - din[static_cast<std::size_t>(v)] + 1),
             {static_cast<NodeId>(v), static_cast<NodeId>(pin[static_cast<std::size_t>(v)])},
             ReductionRecv::reduce))
      return std::nullopt;
  Step base = static_cast<Step>(gin);
  const int m = static_cast<int>(d.leaders.size());
  std::vector<NodeId> nodes;
  std::vector<long long> arcs;
  int stride = 1;
  for (std::size_t s = 0; s < d.radix.size(); ++s) {
    const int r = d.radix[s];
    int steps = 0;
    for (int i = 0; i < m; ++i) {
      const int slot = d.slot[s][static_cast<std::size_t>(i)];
      steps = std::max(steps, slot + 1);
      for (const int j : group_places(i, r, stride)) {
        if (j == i) continue;
        shortest_path(kw, d.leaders[static_cast<std::size_t>(j)],
                      d.leaders[static_cast<std::size_t>(i)], &nodes, arcs);
        if (!put(base + 1 + slot, nodes, ReductionRecv::reduce)) return std::nullopt;
      }
    }
    base += steps;
    stride *= r;
  }
  for (long long v = 0; v < kw.count(); ++v)
    if (dout[static_cast<std::size_t>(v)] > 0 &&
        !put(base + dout[static_cast<std::size_t>(v)],
             {static_cast<NodeId>(pout[static_cast<std::size_t>(v)]), static_cast<NodeId>(v)},
             ReductionRecv::copy))
      return std::nullopt;
  return out;
}

// --- the tree exchange: free leaders in an array, trees over multi-hop paths -------------

// A tree grown from roots: step[v] is the step of v's one transfer (0 for a root), parent[v]
// the word it is paired with.
struct Tree {
  std::vector<int> step;
  std::vector<long long> parent;
  int depth = 0;
};

// Grows a tree from `roots`, every holder taking at most one new word a step over the one
// shortest path (towards: from the new word to the holder, the gather read backwards; else
// from the holder), no channel twice in a step, the nearest free words first (a random one
// among equals); nullopt when `max_steps` steps do not reach every word.
std::optional<Tree> grow(const Words& kw, const std::vector<Word>& roots, bool towards,
                         int max_steps, int fanout, std::mt19937_64& rng) {
  const long long n = kw.count();
  const int D = kw.length, letters = kw.letters();
  Tree tree;
  tree.step.assign(static_cast<std::size_t>(n), -1);
  tree.parent.assign(static_cast<std::size_t>(n), -1);
  std::vector<long long> holders;
  for (const Word& w : roots) {
    const long long id = kw.rank(w);
    tree.step[static_cast<std::size_t>(id)] = 0;
    holders.push_back(id);
  }
  long long reached = static_cast<long long>(holders.size());
  std::vector<int> stamp(static_cast<std::size_t>(n * letters), 0);
  std::vector<long long> arcs;
  for (int t = 1; t <= max_steps && reached < n; ++t) {
    std::shuffle(holders.begin(), holders.end(), rng);
    const std::size_t before = holders.size();
    for (std::size_t hi = 0; hi < before; ++hi) {
      const Word h = kw.unrank(holders[hi]);
      // Candidates at distance j: h's last D - j letters then j free ones (towards: j free
      // letters then h's first D - j), the free letters as a number from a random start.
      for (int taken = 0; taken < fanout; ++taken) {
        bool done = false;
        for (int j = 1; j <= D && !done; ++j) {
          long long codes = 1;
          for (int i = 0; i < j; ++i) codes *= letters;
          const long long start = std::uniform_int_distribution<long long>(0, codes - 1)(rng);
          for (long long c = 0; c < codes && !done; ++c) {
            long long code = (start + c) % codes;
            Word v(static_cast<std::size_t>(D));
            const int fixed = D - j, at = towards ? j : 0, from = towards ? 0 : j;
            for (int i = 0; i < fixed; ++i)
              v[static_cast<std::size_t>(at + i)] = h[static_cast<std::size_t>(from + i)];
            for (int i = 0; i < j; ++i, code /= letters)
              v[static_cast<std::size_t>(towards ? i : fixed + i)] =
                  static_cast<int>(code % letters);
            bool ok = true;
            for (int i = 1; i < D && ok; ++i)
              ok = kw.fits(v[static_cast<std::size_t>(i - 1)], v[static_cast<std::size_t>(i)]);
            if (!ok) continue;
            const long long id = kw.rank(v);
            if (tree.step[static_cast<std::size_t>(id)] >= 0) continue;
            if ((towards ? overlap(v, h) : overlap(h, v)) != fixed) continue;  // nearer: seen
            shortest_path(kw, towards ? v : h, towards ? h : v, nullptr, arcs);
            bool free = true;
            for (const long long a : arcs) free = free && stamp[static_cast<std::size_t>(a)] != t;
            if (!free) continue;
            for (const long long a : arcs) stamp[static_cast<std::size_t>(a)] = t;
            tree.step[static_cast<std::size_t>(id)] = t;
            tree.parent[static_cast<std::size_t>(id)] = holders[hi];
            holders.push_back(id);
            ++reached;
            done = true;
          }
        }
        if (!done) break;
      }
    }
    tree.depth = t;
  }
  if (reached < n) return std::nullopt;
  return tree;
}

// Trees of exactly `depth` steps from `roots` found by CaDiCaL, where the greedy growth
// above runs out of room (kautz:3,5 all-port, 27 leaders: the growth needs 3 steps, two
// exist). Every other word picks one parent at most kMaxHops channels away (towards: the
// word's path to the parent, else the parent's path to the word) and one growth step t;
// a parent that is not a root must have been reached at a step before t; the paths of a
// step share no channel, and a parent takes at most `fanout` words a step. Nullopt when
// CaDiCaL answers no, or stops at its conflict limit (fixed: the same answer however busy
// the machine is) or the budget.
constexpr int kMaxHops = 3;
constexpr int kTreeConflicts = 200'000;
// The digraphs and depths the SAT question is asked for: kautz:3,5 (324 words) at depth 2
// answers in about a second; kautz:3,6 (972) spent the run's budget on it.
constexpr long long kSatTreeWords = 512;
constexpr int kSatTreeDepth = 3;
// mixed_design's effort: the arrays tried, and one search of this many moves for each
// (kautz:3,5, 27 leaders: searches of 4 million moves leave 0 to 7 collisions, one seed in
// seven clearing them; 12 million from the first seed clear them, about 15 s).
constexpr std::size_t kMixedArrays = 1;
constexpr long long kMixedMoves = 12'000'000;

std::optional<Tree> sat_tree(const Words& kw, const std::vector<Word>& roots, bool towards,
                             int depth, int fanout) {
  const long long n = kw.count();
  const int D = kw.length, letters = kw.letters(), hops = std::min(kMaxHops, D);
  std::vector<char> root(static_cast<std::size_t>(n), 0);
  for (const Word& w : roots) root[static_cast<std::size_t>(kw.rank(w))] = 1;
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);
  sat::Cnf cnf(&solver);
  struct Choice {
    long long v, parent;
    int step, var;
  };
  std::vector<Choice> choices;
  // reached[v * depth + t - 1]: v is reached at step t (words that are not roots).
  std::vector<int> reached(static_cast<std::size_t>(n * depth), 0);
  for (long long v = 0; v < n; ++v)
    if (!root[static_cast<std::size_t>(v)])
      for (int t = 1; t <= depth; ++t) reached[static_cast<std::size_t>(v * depth + t - 1)] =
                                           cnf.new_var();
  std::vector<std::vector<int>> users(static_cast<std::size_t>(n * letters * depth));
  std::vector<std::vector<int>> taken(static_cast<std::size_t>(n * depth));
  std::vector<std::vector<std::size_t>> of_word(static_cast<std::size_t>(n));  // choices
  std::vector<long long> arcs;
  for (long long v = 0; v < n; ++v) {
    if (root[static_cast<std::size_t>(v)]) continue;
    if ((v & 63) == 0 && t_budget != nullptr && t_budget->expired()) return std::nullopt;
    const Word w = kw.unrank(v);
    // The parents j channels away: w's last D - j letters then j free ones (towards), or j
    // free letters then w's first D - j, with no longer overlap.
    for (int j = 1; j <= hops; ++j) {
      long long codes = 1;
      for (int i = 0; i < j; ++i) codes *= letters;
      for (long long c = 0; c < codes; ++c) {
        Word h(static_cast<std::size_t>(D));
        const int fixed = D - j;
        long long code = c;
        for (int i = 0; i < fixed; ++i)
          h[static_cast<std::size_t>(towards ? i : j + i)] =
              w[static_cast<std::size_t>(towards ? j + i : i)];
        for (int i = 0; i < j; ++i, code /= letters)
          h[static_cast<std::size_t>(towards ? fixed + i : i)] = static_cast<int>(code % letters);
        bool ok = true;
        for (int i = 1; i < D && ok; ++i)
          ok = kw.fits(h[static_cast<std::size_t>(i - 1)], h[static_cast<std::size_t>(i)]);
        if (!ok || (towards ? overlap(w, h) : overlap(h, w)) != fixed) continue;
        const long long parent = kw.rank(h);
        shortest_path(kw, towards ? w : h, towards ? h : w, nullptr, arcs);
        for (int t = 1; t <= depth; ++t) {
          if (!root[static_cast<std::size_t>(parent)] && t == 1) continue;
          const int x = cnf.new_var();
          of_word[static_cast<std::size_t>(v)].push_back(choices.size());
          choices.push_back({v, parent, t, x});
          cnf.add({-x, reached[static_cast<std::size_t>(v * depth + t - 1)]});
          taken[static_cast<std::size_t>(parent * depth + t - 1)].push_back(x);
          for (const long long a : arcs)
            users[static_cast<std::size_t>(a * depth + t - 1)].push_back(x);
          if (!root[static_cast<std::size_t>(parent)]) {
            std::vector<int> before{-x};
            for (int e = 1; e < t; ++e)
              before.push_back(reached[static_cast<std::size_t>(parent * depth + e - 1)]);
            cnf.add(before);
          }
        }
      }
    }
  }
  for (long long v = 0; v < n; ++v) {
    if (root[static_cast<std::size_t>(v)]) continue;
    std::vector<int> xs;
    for (const std::size_t i : of_word[static_cast<std::size_t>(v)]) xs.push_back(choices[i].var);
    if (xs.empty()) return std::nullopt;
    cnf.add(xs);
    cnf.at_most_one(xs);
    for (int t = 1; t <= depth; ++t) {  // reached at t only by a choice of step t
      std::vector<int> by{-reached[static_cast<std::size_t>(v * depth + t - 1)]};
      for (const std::size_t i : of_word[static_cast<std::size_t>(v)])
        if (choices[i].step == t) by.push_back(choices[i].var);
      cnf.add(by);
    }
  }
  for (const auto& u : users) cnf.at_most_one(u);
  for (const auto& u : taken) cnf.at_most_k(u, fanout);
  solver.limit("conflicts", kTreeConflicts);
  const int answer = t_budget != nullptr ? sat::solve_within(solver, *t_budget) : solver.solve();
  if (answer != 10) return std::nullopt;
  Tree tree;
  tree.step.assign(static_cast<std::size_t>(n), -1);
  tree.parent.assign(static_cast<std::size_t>(n), -1);
  for (long long v = 0; v < n; ++v)
    if (root[static_cast<std::size_t>(v)]) tree.step[static_cast<std::size_t>(v)] = 0;
  for (const Choice& c : choices)
    if (solver.val(c.var) > 0) {
      tree.step[static_cast<std::size_t>(c.v)] = c.step;
      tree.parent[static_cast<std::size_t>(c.v)] = c.parent;
    }
  tree.depth = depth;
  return tree;
}

// The leaders of a mixed-radix array (round r: the places that differ only in digit r
// exchange, the generalised recursive doubling; radix 2 pairs i and i ^ 2^r), any distinct
// words: a local search over the words and their places minimises the channels two
// transfers of a round share.
class ArraySearch {
 public:
  ArraySearch(const Words& kw, std::vector<int> radix, std::mt19937_64& rng)
      : kw_(kw), radix_(std::move(radix)), rng_(rng) {
    for (const int r : radix_) {
      stride_.push_back(m_);
      m_ *= r;
    }
    use_.assign(radix_.size(),
                std::vector<int>(static_cast<std::size_t>(kw.count() * kw.letters()), 0));
    leader_.assign(static_cast<std::size_t>(kw.count()), 0);
  }

  void run(long long moves) {
    const long long n = kw_.count();
    std::uniform_int_distribution<long long> any(0, n - 1);
    while (static_cast<int>(place_.size()) < m_) {
      const long long w = any(rng_);
      if (leader_[static_cast<std::size_t>(w)]) continue;
      leader_[static_cast<std::size_t>(w)] = 1;
      place_.push_back(w);
    }
    for (std::size_t r = 0; r < radix_.size(); ++r)
      for (int i = 0; i < m_; ++i)
        for (const int j : members(i, r))
          if (j != i) count(r, j, i, +1, nullptr);
    cost_ = shared_channels(use_);
    std::uniform_real_distribution<double> unit(0, 1);
    std::uniform_int_distribution<int> place(0, m_ - 1);
    int i = 0, j = 0;
    long long wi = 0, wj = 0, ni = 0;
    auto propose = [&](long long* delta) {
      // A new word at place i, or a swap of two places.
      i = place(rng_);
      const bool fresh = unit(rng_) < 0.5;
      j = fresh ? i : place(rng_);
      if (!fresh && j == i) return false;
      wi = place_[static_cast<std::size_t>(i)];
      wj = place_[static_cast<std::size_t>(j)];
      ni = fresh ? any(rng_) : wj;
      if (fresh && leader_[static_cast<std::size_t>(ni)]) return false;
      touch2(i, j, -1, delta);
      set(i, ni);
      if (j != i) set(j, wi);
      touch2(i, j, +1, delta);
      if (fresh) {
        leader_[static_cast<std::size_t>(wi)] = 0;
        leader_[static_cast<std::size_t>(ni)] = 1;
      }
      return true;
    };
    auto undo = [&] {
      touch2(i, j, -1, nullptr);
      set(i, wi);
      set(j, wj);
      touch2(i, j, +1, nullptr);
      if (j == i) {
        leader_[static_cast<std::size_t>(ni)] = 0;
        leader_[static_cast<std::size_t>(wi)] = 1;
      }
    };
    anneal(moves, cost_, rng_, propose, undo);
  }

  // Each round's groups packed first-fit into steps (slot[r][i]); the steps, or nullopt
  // when the transfers of a group share a channel.
  std::optional<int> pack(std::vector<std::vector<int>>& slot) const {
    slot.assign(radix_.size(), std::vector<int>(static_cast<std::size_t>(m_), -1));
    int steps = 0;
    std::vector<long long> arcs, all;
    for (std::size_t r = 0; r < radix_.size(); ++r) {
      std::vector<std::vector<char>> busy;
      for (int i = 0; i < m_; ++i) {
        if (slot[r][static_cast<std::size_t>(i)] >= 0) continue;
        const std::vector<int> group = members(i, r);
        all.clear();
        for (const int a : group)
          for (const int b : group)
            if (a != b) {
              shortest_path(kw_, word(a), word(b), nullptr, arcs);
              all.insert(all.end(), arcs.begin(), arcs.end());
            }
        const int s = first_fit(busy, use_[0].size(), all);
        if (s < 0) return std::nullopt;
        for (const int a : group) slot[r][static_cast<std::size_t>(a)] = s;
      }
      steps += static_cast<int>(busy.size());
    }
    return steps;
  }

  Word word(int i) const { return kw_.unrank(place_[static_cast<std::size_t>(i)]); }
  std::vector<Word> leaders() const {
    std::vector<Word> out;
    for (int i = 0; i < m_; ++i) out.push_back(word(i));
    return out;
  }
  long long collisions() const { return cost_; }

 private:
  void set(int i, long long w) {
    place_[static_cast<std::size_t>(i)] = w;
  }
  std::vector<int> members(int i, std::size_t r) const {
    return group_places(i, radix_[r], stride_[r]);
  }
  // Adds (+1) or removes (-1) the transfer a -> b of round r.
  void count(std::size_t r, int a, int b, int sign, long long* delta) {
    tally(use_[r], arcs(a, b), sign, delta);
  }
  // The channels of the path from the word at place a to the word at place b: from the
  // path table on small digraphs, else computed.
  std::span<const long long> arcs(int a, int b) {
    const long long u = place_[static_cast<std::size_t>(a)], v = place_[static_cast<std::size_t>(b)];
    if (table_ == nullptr) {
      shortest_path(kw_, word(a), word(b), nullptr, scratch_);
      return scratch_;
    }
    const auto at = static_cast<std::size_t>(u * kw_.count() + v);
    return {table_->arcs.data() + at * static_cast<std::size_t>(kw_.length), table_->length[at]};
  }
  // The transfers of the groups of places i and j (each group once).
  void touch2(int i, int j, int sign, long long* delta) {
    for (std::size_t r = 0; r < radix_.size(); ++r) {
      const int bi = base(i, r), bj = base(j, r);
      touch(r, bi, sign, delta);
      if (bj != bi) touch(r, bj, sign, delta);
    }
  }
  // The first place of place i's group in round r, and the transfers of the group there.
  int base(int i, std::size_t r) const { return i - ((i / stride_[r]) % radix_[r]) * stride_[r]; }
  void touch(std::size_t r, int b, int sign, long long* delta) {
    for (int e = 0; e < radix_[r]; ++e)
      for (int f = 0; f < radix_[r]; ++f)
        if (e != f) count(r, b + e * stride_[r], b + f * stride_[r], sign, delta);
  }

  const Words& kw_;
  std::vector<int> radix_, stride_;
  int m_ = 1;
  std::mt19937_64& rng_;
  std::vector<long long> place_;  // the word at each place
  std::vector<char> leader_;
  std::vector<std::vector<int>> use_;
  std::vector<long long> scratch_;
  const PathTable* table_ = path_table(kw_);
  long long cost_ = 0;
};

struct TreeDesign {
  std::vector<Word> leaders;
  std::vector<int> radix;
  std::vector<std::vector<int>> slot;
  Tree in, out;
  int exchange_steps = 0;
  int steps() const { return in.depth + exchange_steps + out.depth; }
};

// One array of leaders with the given radices and its trees, each holder taking up to
// `fanout` new words a step; nullopt when it cannot take fewer than `beat` steps. The
// leaders' search first (seeded by `seed`; one search of `moves` moves, or with 0 a short
// one and a longer one when it leaves a few collisions), then the trees at the fewest steps
// the greedy growth or, failing it and with `ask_sat`, the SAT question reaches (asked for
// the mixed arrays only: on the k-port arrays it found nothing the growth did not, and cost
// the tests 47 s).
std::optional<TreeDesign> array_design(const Words& kw, const std::vector<int>& radix,
                                          int fanout, int beat, unsigned long long seed,
                                          long long moves = 0, bool ask_sat = false) {
  const long long n = kw.count();
  long long m = 1;
  for (const int r : radix) m *= r;
  int tree = 0;  // steps for m holders to reach n words, each taking `fanout` a step
  for (long long reach = m; reach < n; reach *= fanout + 1) ++tree;
  if (2 * tree + static_cast<int>(radix.size()) >= beat) return std::nullopt;
  std::mt19937_64 rng(seed);
  // A short search first (fewer moves for a small array); when it leaves a few collisions,
  // a second one ten times longer (kautz:3,5 one-port at 64 leaders: 2 collisions after
  // 200,000 moves, none after 2 million).
  std::unique_ptr<ArraySearch> search;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto next = std::make_unique<ArraySearch>(kw, radix, rng);
    if (moves > 0) {
      // A probe of a twelfth of the moves first (its own seed): far from none (above m / 4,
      // as below), the long search does not clear them either (kautz:2,8, 18 leaders: the
      // probe leaves 9, 12 million moves 4, 27 s spent; kautz:3,5, 27 leaders: 4, then 0).
      std::mt19937_64 probe_rng(seed ^ 0x9e3779b97f4a7c15ULL);
      ArraySearch probe(kw, radix, probe_rng);
      probe.run(moves / 12);
      if (probe.collisions() > m / 4) return std::nullopt;
      next->run(moves);
      search = std::move(next);
      break;
    }
    next->run(std::min(200'000LL, 4000 * m) * (attempt == 1 ? 10 : 1));
    if (!search || next->collisions() < search->collisions()) search = std::move(next);
    if (search->collisions() == 0 || search->collisions() > m / 4) break;
  }
  TreeDesign d;
  d.radix = radix;
  const auto steps = search->pack(d.slot);
  if (!steps) return std::nullopt;
  d.exchange_steps = *steps;
  d.leaders = search->leaders();
  const int limit = beat - 1 - d.exchange_steps;
  auto build = [&](bool towards) -> std::optional<Tree> {
    for (int depth = tree; depth <= std::min(limit - tree, tree + 2); ++depth) {
      for (int attempt = 0; attempt < 4; ++attempt)
        if (auto t = grow(kw, d.leaders, towards, depth, fanout, rng)) return t;
      if (ask_sat && kw.count() <= kSatTreeWords && depth <= kSatTreeDepth)
        if (auto t = sat_tree(kw, d.leaders, towards, depth, fanout)) return t;
    }
    return std::nullopt;
  };
  std::optional<Tree> in = build(true);
  if (!in) return std::nullopt;
  d.in = std::move(*in);
  std::optional<Tree> out = build(false);
  if (!out) return std::nullopt;
  d.out = std::move(*out);
  if (d.steps() >= beat) return std::nullopt;
  return d;
}

// The best design over the arrays of (fanout + 1)^k leaders, k from 1 up: each leader
// takes `fanout` transfers a round, each holder `fanout` new words a tree step.
std::optional<TreeDesign> tree_design(const Words& kw, int fanout) {
  const long long n = kw.count();
  const int r = fanout + 1;
  std::optional<TreeDesign> best;
  for (long long m = r, k = 1; 2 * m <= n; m *= r, ++k) {
    if (t_budget != nullptr && t_budget->expired()) break;
    // A round puts m (r - 1) transfers of up to D channels on the n d channels: past half
    // of them (kautz:3,5 at 128 one-port leaders: about 300 collisions) the search cannot
    // clear it.
    if (m * fanout * kw.length > n * kw.d / 2) break;
    const int beat = best ? best->steps() : std::numeric_limits<int>::max();
    if (auto d = array_design(kw, std::vector<int>(static_cast<std::size_t>(k), r), fanout, beat,
                              7000 + 100 * static_cast<unsigned long long>(fanout) +
                                  static_cast<unsigned long long>(k)))
      best = std::move(d);
  }
  return best;
}

// With as many ports as in-channels: arrays of mixed radices (each digit at most
// fanout + 1) that could beat `beat` steps. Trees of g steps reach at most (fanout + 1)^g
// words a leader, so the array needs at least n / (fanout + 1)^g places, and a round may
// load at most half the channels (as in tree_design); the fewest steps first, then the
// lightest rounds, then the fewest leaders. kautz:3,5 all-port: 2 + 3 + 2
// = 7 over 27 leaders (3, 3, 3) against the Kautz exchange's 8 (24 leaders, (4, 3, 2), load
// their rounds more and leave the trees little room: no two-step trees found in 10 minutes).
std::optional<TreeDesign> mixed_design(const Words& kw, int fanout, int beat) {
  const long long n = kw.count();
  struct Candidate {
    int steps;
    long long load, m;  // load: the transfers a leader sends in the heaviest round, m times
    std::vector<int> radix;
  };
  std::vector<Candidate> candidates;
  for (int g = 1; g < kw.length && 2 * g + 1 < beat; ++g) {
    long long reach = 1;
    for (int i = 0; i < g; ++i) reach *= fanout + 1;
    const long long least = (n + reach - 1) / reach;
    for (int rounds = 1; 2 * g + rounds < beat && (1LL << rounds) <= n; ++rounds) {
      // The radices in non-increasing order, each from 2 to fanout + 1.
      std::vector<int> radix(static_cast<std::size_t>(rounds), fanout + 1);
      for (;;) {
        long long m = 1;
        for (const int r : radix) m *= r;
        if (m >= least && 2 * m <= n && m * (radix[0] - 1) * kw.length <= n * kw.d / 2)
          candidates.push_back({2 * g + rounds, m * (radix[0] - 1), m, radix});
        int i = rounds - 1;  // the next vector: lower the last digit above 2, reset the rest
        while (i >= 0 && radix[static_cast<std::size_t>(i)] == 2) --i;
        if (i < 0) break;
        const int r = --radix[static_cast<std::size_t>(i)];
        for (int j = i + 1; j < rounds; ++j) radix[static_cast<std::size_t>(j)] = r;
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.steps, a.load, a.m) < std::tie(b.steps, b.load, b.m);
  });
  std::optional<TreeDesign> best;
  for (std::size_t i = 0; i < candidates.size() && i < kMixedArrays; ++i) {
    if (t_budget != nullptr && t_budget->expired()) break;
    const Candidate& c = candidates[i];
    if (best && best->steps() <= c.steps) break;
    if (auto d = array_design(kw, c.radix, fanout, best ? best->steps() : beat,
                              9000 + 100 * static_cast<unsigned long long>(c.m), kMixedMoves,
                              true))
      best = std::move(d);
  }
  return best;
}

std::optional<std::vector<Transfer>> write_tree(const Problem& p, const Words& kw,
                                                    const TreeDesign& d) {
  const std::vector<int> blocks = all_blocks(p.collective);
  std::vector<Transfer> out;
  std::vector<NodeId> nodes;
  std::vector<long long> arcs;
  const long long n = kw.count();
  for (long long v = 0; v < n; ++v) {
    const int s = d.in.step[static_cast<std::size_t>(v)];
    if (s <= 0) continue;
    shortest_path(kw, kw.unrank(v), kw.unrank(d.in.parent[static_cast<std::size_t>(v)]), &nodes,
                  arcs);
    if (!add_path_transfers(out, p, static_cast<Step>(d.in.depth - s + 1), nodes, blocks,
                            ReductionRecv::reduce))
      return std::nullopt;
  }
  Step base = static_cast<Step>(d.in.depth);
  const int m = static_cast<int>(d.leaders.size());
  int stride = 1;
  for (std::size_t r = 0; r < d.slot.size(); ++r) {
    int steps = 0;
    for (int i = 0; i < m; ++i) {
      const int slot = d.slot[r][static_cast<std::size_t>(i)];
      steps = std::max(steps, slot + 1);
      for (const int j : group_places(i, d.radix[r], stride)) {
        if (j == i) continue;
        shortest_path(kw, d.leaders[static_cast<std::size_t>(j)],
                      d.leaders[static_cast<std::size_t>(i)], &nodes, arcs);
        if (!add_path_transfers(out, p, base + 1 + slot, nodes, blocks, ReductionRecv::reduce))
          return std::nullopt;
      }
    }
    base += steps;
    stride *= d.radix[r];
  }
  for (long long v = 0; v < n; ++v) {
    const int s = d.out.step[static_cast<std::size_t>(v)];
    if (s <= 0) continue;
    shortest_path(kw, kw.unrank(d.out.parent[static_cast<std::size_t>(v)]), kw.unrank(v), &nodes,
                  arcs);
    if (!add_path_transfers(out, p, base + s, nodes, blocks, ReductionRecv::copy))
      return std::nullopt;
  }
  return out;
}

}  // namespace

void add_kautz_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (!wormhole_exchange_applies(p)) return;
  const Topology& t = p.topology;
  const std::string& name = t.name();
  const bool kautz = name.starts_with("kautz:");
  if (!kautz && !name.starts_with("debruijn:")) return;
  const std::string family = kautz ? "kautz" : "debruijn";
  int d = 0, big_d = 0;
  if (std::sscanf(name.c_str() + family.size(), ":%d,%d", &d, &big_d) != 2 || d < 2 || big_d < 2)
    return;
  if (name != family + ":" + std::to_string(d) + "," + std::to_string(big_d)) return;
  // Up to 65,536 words: the search keeps a count per channel and round (counted with the
  // cap, so a file's name cannot overflow it).
  const Words kw{d, big_d, kautz, {}};
  if (d > 65536) return;
  for (long long words = kw.letters(), i = 1; i < big_d; ++i)
    if ((words *= d) > 65536) return;
  const long long n = kw.count();
  if (t.node_count() != n || static_cast<long long>(c.senders.size()) != n) return;
  for (long long v = 0; v < n; ++v) {
    if (!t.is_processor(static_cast<NodeId>(v))) return;
    const Word w = kw.unrank(v);
    std::string label;
    for (const int x : w) label.push_back(word_letter(x));
    if (t.label(static_cast<NodeId>(v)) != label) return;
  }
  // From the deepest level down (the fewest leaders, the lightest exchange): each level
  // saves a step when its exchange rounds fit a step each. At each level the restarts keep
  // the layout with the fewest collisions, packed into steps; the search stops at the first
  // level that does not beat the best so far.
  const std::string family_name = kautz ? "kautz" : "de Bruijn";
  // Fewer ports than the degree: the tree exchange (up to 4,096 words: the trees' search
  // looks at the words near each holder), each leader and holder taking as many transfers a
  // step as it has ports. (With d ports these uniform arrays were never shorter than the
  // exchange below, kautz:2,8 and debruijn:2,10 measured; the mixed arrays after it can be.)
  const auto offer_tree = [&](const std::optional<TreeDesign>& design) {
    if (!design) return;
    if (auto transfers = write_tree(p, kw, *design)) {
      std::string engine = family_name + " tree exchange (";
      engine += std::to_string(design->leaders.size()) + " leaders, ";
      engine += std::to_string(design->in.depth) + " + " + std::to_string(design->exchange_steps);
      engine += " + " + std::to_string(design->out.depth) + ")";
      out.push_back({std::move(engine), assemble_schedule(p, std::move(*transfers), "", 0)});
    }
  };
  if (effective_ports(p) < d && n <= 4096) offer_tree(tree_design(kw, effective_ports(p)));
  // The forests put up to d transfers into a node in a step.
  if (effective_ports(p) < d) return;
  std::optional<Design> best;
  auto total = [](const Design& x) { return 2 * x.g + x.exchange_steps; };
  for (int g = big_d - 1; g >= 1; --g) {
    if (t_budget != nullptr && t_budget->expired()) break;
    std::optional<Design> found;
    long long fewest = -1;
    for (int attempt = 0; attempt < 8 && fewest != 0; ++attempt) {
      // A fixed seed: the design is the same whatever --seed is, like the other closed forms.
      std::mt19937_64 rng(static_cast<unsigned long long>(1000 * g + attempt));
      ExchangeSearch search(kw, g, rng);
      if (!search.run(50'000)) continue;
      // Far from none (kautz:3,5 at g = 2: about 100 over 36 leaders): restarts will not
      // clear them.
      const bool far = search.collisions() > search.leaders() / 4;
      if (fewest < 0 || search.collisions() < fewest) {
        Design design = search.pack();
        if (!design.leaders.empty()) {
          fewest = search.collisions();
          found = std::move(design);
        }
      }
      if (far) break;
    }
    if (!found || (best && total(*found) >= total(*best))) break;
    best = std::move(found);
  }
  // Mixed radices over free leaders can beat it (kautz:3,5: 7 against 8), where the trees
  // can be asked of CaDiCaL.
  if (n <= kSatTreeWords)
    offer_tree(mixed_design(kw, d, best ? total(*best) : std::numeric_limits<int>::max()));
  if (!best) return;
  auto transfers = write(p, kw, *best);
  if (!transfers) return;
  const int m = static_cast<int>(best->leaders.size());
  std::string engine = family_name + " exchange (" + std::to_string(m) + " leaders, " +
                       std::to_string(best->g) + " + ";
  engine += std::to_string(best->exchange_steps) + " + " + std::to_string(best->g) + ")";
  out.push_back({std::move(engine), assemble_schedule(p, std::move(*transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
