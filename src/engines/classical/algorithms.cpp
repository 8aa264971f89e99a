// The classical algorithms as rounds over ranks (plan.hpp; docs/ENGINES.md, "Classical
// algorithms"). Each follows its paper; where p is not a power of two the butterflies use
// the fold of MPICH (Thakur, Rabenseifner & Gropp, "Optimization of collective
// communication operations in MPICH", IJHPCA 2005): the first 2*rem ranks pair up
// (2i, 2i+1), rem = p - 2^floor(log2 p); rank 2i+1 hands its input to rank 2i in a first
// round and gets the result back in a last one, and the 2^floor(log2 p) survivors run the
// power-of-two algorithm. (MPICH lets the even rank step aside; here the odd one does, so
// that rank 0, the root of REDUCE and OAB, always takes part.)
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

#include "ccsched/core/error.hpp"
#include "plan.hpp"

namespace ccsched::classical_detail {
namespace {

// A plan under construction: rounds of ops in rank space.
class Builder {
 public:
  explicit Builder(const Ranks& r) : r_(r) {}
  Round& round() { return plan.rounds.emplace_back(); }
  // A one-way transfer of `blocks`: one op per block, or one op for all under combining.
  void send(Round& round, int from, int to, const std::vector<int>& blocks, ReductionSend s,
            ReductionRecv recv) {
    if (blocks.empty() || from == to) return;
    if (r_.combining) {
      round.groups.push_back({Op{from, to, blocks, s, recv, -1}});
      return;
    }
    for (int b : blocks) round.groups.push_back({Op{from, to, {b}, s, recv, -1}});
  }
  // Both sides send their partial sums of `blocks` and add what they get: each block's two
  // halves share a step, since each must send what it held before the other's arrived.
  void exchange(Round& round, int a, int b, const std::vector<int>& blocks) {
    const auto acc = ReductionSend::acc;
    const auto reduce = ReductionRecv::reduce;
    if (r_.combining) {
      round.groups.push_back({Op{a, b, blocks, acc, reduce, -1}, Op{b, a, blocks, acc, reduce, -1}});
      return;
    }
    for (int k : blocks)
      round.groups.push_back({Op{a, b, {k}, acc, reduce, -1}, Op{b, a, {k}, acc, reduce, -1}});
  }
  void message(Round& round, int from, int to, MessageId m) {
    round.groups.push_back({Op{from, to, {}, ReductionSend::acc, ReductionRecv::reduce, m}});
  }
  std::vector<int> all_blocks() const {
    std::vector<int> b(r_.blocks);
    for (int i = 0; i < r_.blocks; ++i) b[i] = i;
    return b;
  }
  Plan plan;

 private:
  const Ranks& r_;
};

// The fold to a power of two (top of the file), over ranks 0..p-1 counted from `root`:
// new rank i stands for old ranks represents[i]; old_of[i] is the one that takes part.
struct Fold {
  int p = 0, q = 0, root = 0;
  std::vector<int> old_of;
  std::vector<std::vector<int>> represents;
  std::vector<std::pair<int, int>> pairs;  // (the rank that steps aside, its survivor)
  int rank(int relative) const { return (relative + root) % p; }
  int old(int fresh) const { return rank(old_of[fresh]); }
  int log() const { return std::countr_zero(static_cast<unsigned>(q)); }
};

Fold make_fold(int p, int root = 0) {
  Fold f;
  f.p = p;
  f.root = root;
  f.q = static_cast<int>(std::bit_floor(static_cast<unsigned>(p)));
  const int rem = p - f.q;
  for (int i = 0; i < rem; ++i) {
    f.old_of.push_back(2 * i);
    f.represents.push_back({2 * i, 2 * i + 1});
    f.pairs.emplace_back(2 * i + 1, 2 * i);
  }
  for (int r = 2 * rem; r < p; ++r) {
    f.old_of.push_back(r);
    f.represents.push_back({r});
  }
  return f;
}

// A step of a butterfly over q ranks: rank -> partner (an involution).
using Matching = std::vector<int>;

Matching xor_matching(int q, int bit) {
  Matching m(q);
  for (int x = 0; x < q; ++x) m[x] = x ^ (1 << bit);
  return m;
}

// Swing (De Sensi, Bonato, Saam & Hoefler, "Swing: Short-cutting Rings for Higher
// Bandwidth Allreduce", NSDI'24, section 3): at step s rank r talks to r + rho(s) when r
// is even and r - rho(s) when r is odd (mod q), rho(s) = sum_{i=0..s} (-2)^i = 1, -1, 3,
// -5, 11, ... The Bine butterflies (De Sensi et al., "Bine Trees", SC'25) have the same
// peers: the negabinary number of s+1 ones is rho(s).
Matching swing_matching(int q, int s) {
  std::int64_t rho = 0, term = 1;
  for (int i = 0; i <= s; ++i, term *= -2) rho += term;
  Matching m(q);
  for (int x = 0; x < q; ++x) {
    const std::int64_t y = x % 2 == 0 ? x + rho : x - rho;
    m[x] = static_cast<int>(((y % q) + q) % q);
  }
  return m;
}

std::vector<Matching> xor_steps(int q, bool doubling) {
  std::vector<Matching> out;
  const int l = std::countr_zero(static_cast<unsigned>(q));
  for (int i = 0; i < l; ++i) out.push_back(xor_matching(q, doubling ? i : l - 1 - i));
  return out;
}

std::vector<Matching> swing_steps(int q, bool doubling) {
  std::vector<Matching> out;
  const int l = std::countr_zero(static_cast<unsigned>(q));
  for (int i = 0; i < l; ++i) out.push_back(swing_matching(q, doubling ? i : l - 1 - i));
  return out;
}

// Blocks [jB/parts, (j+1)B/parts): part j of B blocks cut into `parts` nearly equal parts
// (some empty when B < parts).
std::vector<int> part_blocks(int j, int parts, int blocks) {
  std::vector<int> out;
  const auto lo = static_cast<std::int64_t>(j) * blocks / parts;
  const auto hi = static_cast<std::int64_t>(j + 1) * blocks / parts;
  for (auto b = lo; b < hi; ++b) out.push_back(static_cast<int>(b));
  return out;
}

// The blocks rank r ends up owning after a reduce-scatter: its block for REDUCESCATTER,
// its part of the vector for ALLREDUCE.
std::vector<int> owned_blocks(const Ranks& r, int rank) {
  if (r.kind == CollectiveKind::REDUCESCATTER) return {r.owner_block[rank]};
  return part_blocks(rank, r.size(), r.blocks);
}

// The first round of the fold: every rank that steps aside hands over its input (or, for
// AAB, its message).
void fold_in(Builder& b, const Ranks& r, const Fold& f) {
  if (f.pairs.empty()) return;
  Round& round = b.round();
  for (auto [extra, survivor] : f.pairs) {
    if (r.kind == CollectiveKind::AAB)
      b.message(round, f.rank(extra), f.rank(survivor), r.message[f.rank(extra)]);
    else
      b.send(round, f.rank(extra), f.rank(survivor), b.all_blocks(), ReductionSend::acc,
             ReductionRecv::reduce);
  }
}

// The last round of the fold: every survivor hands the result to its partner (ALLREDUCE:
// the vector; REDUCESCATTER: the partner's block; AAB: every message but the partner's
// own; OAB: the message).
void fold_out(Builder& b, const Ranks& r, const Fold& f) {
  if (f.pairs.empty()) return;
  Round& round = b.round();
  for (auto [extra, survivor] : f.pairs) {
    const int to = f.rank(extra), from = f.rank(survivor);
    switch (r.kind) {
      case CollectiveKind::ALLREDUCE:
        b.send(round, from, to, b.all_blocks(), ReductionSend::acc, ReductionRecv::copy);
        break;
      case CollectiveKind::REDUCESCATTER:
        b.send(round, from, to, {r.owner_block[to]}, ReductionSend::acc, ReductionRecv::copy);
        break;
      case CollectiveKind::AAB:
        for (int k = 0; k < r.size(); ++k)
          if (k != to) b.message(round, from, to, r.message[k]);
        break;
      default:  // OAB
        b.message(round, from, to, r.message[0]);
    }
  }
}

// The blocks the new ranks in `set` own (the union over the old ranks they stand for).
std::vector<int> blocks_of(const Ranks& r, const Fold& f, const std::vector<int>& set) {
  std::vector<int> out;
  for (int x : set)
    for (int old : f.represents[x]) {
      const auto own = owned_blocks(r, f.rank(old));
      out.insert(out.end(), own.begin(), own.end());
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> merged(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// A reduce-scatter over the butterfly `steps` (the rounds of Rabenseifner's recursive
// halving, or Swing's and Bine's): at step i rank x sends to y = steps[i][x] its partial
// sums of every block that y's side of the rest of the butterfly ends up owning, R(y, i+1),
// with R(x, L) = {x} and R(x, i) = R(x, i+1) + R(steps[i][x], i+1); the halves are
// disjoint, so each input is added exactly once.
void reduce_scatter(Builder& b, const Ranks& r, const Fold& f, const std::vector<Matching>& steps) {
  const int q = f.q, l = static_cast<int>(steps.size());
  std::vector<std::vector<std::vector<int>>> rest(l + 1, std::vector<std::vector<int>>(q));
  for (int x = 0; x < q; ++x) rest[l][x] = {x};
  for (int i = l - 1; i >= 0; --i)
    for (int x = 0; x < q; ++x) rest[i][x] = merged(rest[i + 1][x], rest[i + 1][steps[i][x]]);
  for (int i = 0; i < l; ++i) {
    Round& round = b.round();
    for (int x = 0; x < q; ++x) {
      const int y = steps[i][x];
      b.send(round, f.old(x), f.old(y), blocks_of(r, f, rest[i + 1][y]), ReductionSend::acc,
             ReductionRecv::reduce);
    }
  }
}

// An all-gather over the butterfly `steps`: at step j rank x sends to y = steps[j][x]
// everything it has gathered so far, G(x, j), with G(x, 0) = {x} and G(x, j+1) = G(x, j) +
// G(y, j): the summed blocks they own (reductions, copied) or their messages (AAB).
void all_gather(Builder& b, const Ranks& r, const Fold& f, const std::vector<Matching>& steps) {
  const int q = f.q;
  std::vector<std::vector<int>> held(q);
  for (int x = 0; x < q; ++x) held[x] = {x};
  for (const Matching& m : steps) {
    Round& round = b.round();
    for (int x = 0; x < q; ++x) {
      if (r.kind == CollectiveKind::AAB) {
        for (int k : held[x])
          for (int old : f.represents[k]) b.message(round, f.old(x), f.old(m[x]), r.message[f.rank(old)]);
      } else {
        b.send(round, f.old(x), f.old(m[x]), blocks_of(r, f, held[x]), ReductionSend::acc,
               ReductionRecv::copy);
      }
    }
    std::vector<std::vector<int>> next(q);
    for (int x = 0; x < q; ++x) next[x] = merged(held[x], held[m[x]]);
    held = std::move(next);
  }
}

// Recursive doubling's, Swing's and Bine's latency all-reduce: the whole vector exchanged
// and added at every step of the butterfly.
void exchange_all(Builder& b, const Fold& f, const std::vector<Matching>& steps) {
  for (const Matching& m : steps) {
    Round& round = b.round();
    for (int x = 0; x < f.q; ++x)
      if (x < m[x]) b.exchange(round, f.old(x), f.old(m[x]), b.all_blocks());
  }
}

// A tree as (round, child, parent) edges over ranks counted from the root.
struct Edge {
  int round, child, parent;
};

// The binomial tree over p ranks (any p): the rank with lowest set bit k sends to the rank
// 2^k below it in round k (MPICH's binomial reduce; its broadcast runs it backwards).
std::vector<Edge> binomial_tree(int p) {
  std::vector<Edge> out;
  for (int v = 1; v < p; ++v) {
    const int k = std::countr_zero(static_cast<unsigned>(v));
    out.push_back({k, v, v - (1 << k)});
  }
  return out;
}

// The Bine tree over q = 2^L ranks (De Sensi et al., "Bine Trees: Enhancing Collective
// Operations by Optimizing Communication Locality", SC'25, section 3; the reduce of the
// authors' bine-trees code): with nb(v) the negabinary digits of v, in round k rank v
// talks to nb^-1(nb(v) xor (2^(k+1) - 1)) mod q, and sends (then stops) unless the lowest
// k+2 digits of nb(v) are all equal, or in the last round when it is not the root.
std::vector<Edge> bine_tree(int q) {
  const int l = std::countr_zero(static_cast<unsigned>(q));
  auto to_nb = [](std::uint32_t v) { return (0xAAAAAAAAu + v) ^ 0xAAAAAAAAu; };
  auto from_nb = [](std::uint32_t n) {
    return static_cast<std::int64_t>(static_cast<std::int32_t>((0xAAAAAAAAu ^ n) - 0xAAAAAAAAu));
  };
  std::vector<Edge> out;
  for (int v = 1; v < q; ++v) {
    const std::uint32_t nb = to_nb(static_cast<std::uint32_t>(v));
    for (int k = 0; k < l; ++k) {
      const std::uint32_t flip = (2u << k) - 1;
      const std::int64_t partner = ((from_nb(nb ^ flip) % q) + q) % q;
      const std::uint32_t low = (4u << k) - 1;
      const bool equal = (nb & low) == 0 || (nb & low) == low;
      if (!equal || k == l - 1) {
        out.push_back({k, v, static_cast<int>(partner)});
        break;
      }
    }
  }
  return out;
}

// Reduce along a tree (children send their partial sums up), over the new ranks of `f`.
void tree_reduce(Builder& b, const Fold& f, const std::vector<Edge>& tree) {
  int rounds = 0;
  for (const Edge& e : tree) rounds = std::max(rounds, e.round + 1);
  for (int k = 0; k < rounds; ++k) {
    Round& round = b.round();
    for (const Edge& e : tree)
      if (e.round == k)
        b.send(round, f.old(e.child), f.old(e.parent), b.all_blocks(), ReductionSend::acc,
               ReductionRecv::reduce);
  }
}

// Broadcast along a tree run backwards (parents send down): the sum copied (reductions) or
// the message.
void tree_broadcast(Builder& b, const Ranks& r, const Fold& f, const std::vector<Edge>& tree) {
  int rounds = 0;
  for (const Edge& e : tree) rounds = std::max(rounds, e.round + 1);
  for (int k = rounds - 1; k >= 0; --k) {
    Round& round = b.round();
    for (const Edge& e : tree) {
      if (e.round != k) continue;
      if (r.kind == CollectiveKind::OAB)
        b.message(round, f.old(e.parent), f.old(e.child), r.message[0]);
      else
        b.send(round, f.old(e.parent), f.old(e.child), b.all_blocks(), ReductionSend::acc,
               ReductionRecv::copy);
    }
  }
}

// Fold without anyone stepping aside (the binomial tree takes any p).
Fold identity_fold(int p, int root) {
  Fold f;
  f.p = f.q = p;
  f.root = root;
  for (int r = 0; r < p; ++r) {
    f.old_of.push_back(r);
    f.represents.push_back({r});
  }
  return f;
}

// The ring (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations", JPDC 2009): rank r sends to r+1. Reduce-scatter: in round k rank r sends
// its partial sum of part r-1-k, so that part s is last added into rank s. All-gather: in
// round k rank r passes on part r-k (AAB: the message of rank r-k).
void ring(Builder& b, const Ranks& r) {
  const int p = r.size();
  auto mod = [p](int x) { return ((x % p) + p) % p; };
  if (r.kind != CollectiveKind::AAB)
    for (int k = 0; k + 1 < p; ++k) {
      Round& round = b.round();
      for (int x = 0; x < p; ++x)
        b.send(round, x, mod(x + 1), owned_blocks(r, mod(x - 1 - k)), ReductionSend::acc,
               ReductionRecv::reduce);
    }
  if (r.kind == CollectiveKind::REDUCESCATTER) return;
  for (int k = 0; k + 1 < p; ++k) {
    Round& round = b.round();
    for (int x = 0; x < p; ++x) {
      if (r.kind == CollectiveKind::AAB)
        b.message(round, x, mod(x + 1), r.message[mod(x - k)]);
      else
        b.send(round, x, mod(x + 1), owned_blocks(r, mod(x - k)), ReductionSend::acc,
               ReductionRecv::copy);
    }
  }
}

}  // namespace

Plan build_plan(ClassicalAlgorithm algorithm, const Ranks& r) {
  if (!classical_applies(algorithm, r.kind))
    throw Unsupported(std::string(to_string(algorithm)) + " does not write " +
                          std::string(to_string(r.kind)),
                      "--algorithm");
  Builder b(r);
  const int p = r.size();
  const CollectiveKind kind = r.kind;
  const bool rooted = kind == CollectiveKind::REDUCE || kind == CollectiveKind::OAB;
  const Fold f = make_fold(p, rooted ? r.root : 0);
  // The bandwidth variants of Swing and Bine scatter the vector; one block is the latency
  // variant (ALLREDUCE only: REDUCESCATTER scatters by definition).
  const bool bandwidth = kind != CollectiveKind::ALLREDUCE || r.blocks > 1;
  if (algorithm == ClassicalAlgorithm::bine && rooted) {
    // REDUCE: fold in, then the Bine tree; OAB: the Bine tree backwards, then fold out.
    const auto tree = bine_tree(f.q);
    if (kind == CollectiveKind::REDUCE) {
      fold_in(b, r, f);
      tree_reduce(b, f, tree);
    } else {
      tree_broadcast(b, r, f, tree);
      fold_out(b, r, f);
    }
    return std::move(b.plan);
  }
  switch (algorithm) {
    case ClassicalAlgorithm::ring:
      ring(b, r);
      b.plan.variant = "reduce-scatter + all-gather";
      break;
    case ClassicalAlgorithm::recursive_doubling:
      // Thakur, Rabenseifner & Gropp 2005, section 4: log p exchanges of the whole vector
      // (ALLREDUCE) or of everything gathered so far (AAB), partner r xor 2^k.
      fold_in(b, r, f);
      if (kind == CollectiveKind::AAB)
        all_gather(b, r, f, xor_steps(f.q, true));
      else
        exchange_all(b, f, xor_steps(f.q, true));
      fold_out(b, r, f);
      break;
    case ClassicalAlgorithm::rabenseifner:
      // Same paper, section 4: reduce-scatter by recursive halving (partner r xor p/2
      // first, half the vector each time), then all-gather by recursive doubling.
      fold_in(b, r, f);
      reduce_scatter(b, r, f, xor_steps(f.q, false));
      if (kind == CollectiveKind::ALLREDUCE) all_gather(b, r, f, xor_steps(f.q, true));
      fold_out(b, r, f);
      b.plan.variant = "recursive halving + doubling";
      break;
    case ClassicalAlgorithm::swing:
    case ClassicalAlgorithm::bine: {
      // Swing (NSDI'24): distances 1, 1, 3, 5, ... growing (doubling) in the latency
      // all-reduce and the reduce-scatter, shrinking in the all-gather. Bine (SC'25; the
      // bine-trees code): the same peers; its latency all-reduce and its all-gather take
      // them in distance-halving order, its reduce-scatter in distance-doubling order.
      const bool swing = algorithm == ClassicalAlgorithm::swing;
      fold_in(b, r, f);
      if (kind == CollectiveKind::AAB) {
        all_gather(b, r, f, swing_steps(f.q, false));
      } else if (!bandwidth) {
        exchange_all(b, f, swing_steps(f.q, swing));
      } else {
        reduce_scatter(b, r, f, swing_steps(f.q, true));
        if (kind == CollectiveKind::ALLREDUCE) all_gather(b, r, f, swing_steps(f.q, false));
      }
      fold_out(b, r, f);
      b.plan.variant = kind == CollectiveKind::ALLREDUCE ? (bandwidth ? "bandwidth" : "latency") : "";
      break;
    }
    case ClassicalAlgorithm::binomial: {
      const Fold all = identity_fold(p, rooted ? r.root : 0);
      const auto tree = binomial_tree(p);
      if (kind != CollectiveKind::OAB) tree_reduce(b, all, tree);
      if (kind != CollectiveKind::REDUCE) tree_broadcast(b, r, all, tree);
      break;
    }
  }
  return std::move(b.plan);
}

}  // namespace ccsched::classical_detail
