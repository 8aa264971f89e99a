// Hypercube broadcast (include/ccsched/engines/hypercube_broadcast.hpp; docs/ENGINES.md
// "Hypercube broadcast"). Nodes of hypercube:n are the vectors of Z_2^n, channels join x
// and x XOR e_b. After step j the informed set is r XOR S_j, r the root, S_j a linear
// subspace; a step is a list of walks, each a sequence of distinct labels (bits)
// l_1..l_L, and every informed x sends to x XOR v (v = e_l1 + ... + e_lL) along the path
// that flips l_1, then l_2, ...: each bit once, so a shortest path.
//
// Why a step is channel-disjoint. Let s be the quotient map Z_2^n -> Z_2^n / S. Hop t of
// walk w from sender x uses the channel (x + p_t, l_t), p_t = e_l1 + ... + e_l(t-1). Two
// hops (x, w, t) and (x', w', t') on one channel have l_t = l'_t' and x + p_t = x' + p'_t',
// so s(p_t) = s(p'_t') because x + x' lies in S. Hence if the *quotient edges*
// (s(p_t), l_t) of all hops of all walks are pairwise distinct, the two hops belong to the
// same walk and hop, so x = x': no channel carries two worms, whatever the size of S. The
// receivers x + v are distinct and uninformed when the s(v) are distinct and nonzero; a
// sender's first hops are quotient edges at 0, so distinct labels (out-channels), at most
// 2^m - 1 <= k of them; each receiver receives once. When {0} and the s(v) form a subspace
// of dimension m, the next informed set is r XOR (S + span of the v) again. So the whole
// check of a step is on the quotient (2^(n - dim S) nodes, n labels), not on the P senders.
//
// Finding the walks: a step's targets are the nonzero elements of an m-dimensional
// subspace of the quotient, spanned by the images of small random sets of bits; each
// target in turn gets a shortest walk from 0 over the quotient edges not yet used (a
// breadth-first search), refused if it repeats a label; a step is retried with other
// draws, the whole chain with another. The last step is made one hop long: every earlier
// vector is taken inside the code C = ker H whose check matrix H has, as the columns of
// the n bits, every nonzero vector of Z_2^m (the Hamming code's checks, repeated); then the
// last quotient is Z_2^n / C = Z_2^m and each nonzero coset is one label away from 0.
//
// Steps: m = floor(log2(k + 1)) bits a step (k = the ports, n under all ports), the first
// step taking the remainder: ceil(n / m) steps. One port gives n steps (the binomial tree).
#include "ccsched/engines/hypercube_broadcast.hpp"

#include <algorithm>
#include <bit>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using Bits = std::uint64_t;
constexpr int kMaxDimension = 24;     // 16.8 million processors: the schedule limits first
constexpr int kChainAttempts = 64;    // whole chains tried (n <= 18 needs one)
constexpr int kStepAttempts = 200;    // draws of one step's targets and walks

Bits unit(int b) { return Bits{1} << b; }

// A subspace of Z_2^n in reduced echelon form: each basis vector owns its pivot (lowest)
// bit, which no other basis vector has, so reduce() is the quotient map's canonical form.
struct Subspace {
  std::vector<Bits> basis;
  Bits reduce(Bits x) const {
    for (const Bits b : basis)
      if (x & (b & -b)) x ^= b;
    return x;
  }
  // Adds x when independent; false otherwise.
  bool add(Bits x) {
    x = reduce(x);
    if (!x) return false;
    const Bits pivot = x & -x;
    for (Bits& b : basis)
      if (b & pivot) b ^= x;
    basis.push_back(x);
    return true;
  }
};

using Walk = std::vector<int>;  // labels (bits) in the order the path flips them

struct Plan {
  int n = 0;
  std::vector<int> sizes;        // m of each step
  std::vector<Bits> check;       // H's column per bit (the last step's syndromes)
};

Bits syndrome(const Plan& plan, Bits x) {
  Bits z = 0;
  for (int b = 0; b < plan.n; ++b)
    if (x & unit(b)) z ^= plan.check[b];
  return z;
}

// The walks of one step from the informed subspace S: 2^m - 1 walks whose quotient edges
// are pairwise distinct and whose ends, with 0, form an m-dimensional subspace of the
// quotient; inside C when `in_code`. Nothing when this draw fails.
std::optional<std::vector<Walk>> step_walks(const Plan& plan, const Subspace& S, int m,
                                            bool in_code, std::mt19937_64& rng) {
  const int n = plan.n;
  std::vector<Bits> image(n);
  for (int b = 0; b < n; ++b) image[b] = S.reduce(unit(b));
  // The step's targets: span of m images of random small sets of bits (each moved into C
  // by toggling the bit whose check column is its syndrome).
  std::vector<int> labels(n);
  for (int b = 0; b < n; ++b) labels[b] = b;
  std::shuffle(labels.begin(), labels.end(), rng);
  const int block = std::max(1, n / m);
  std::uniform_int_distribution<int> size(1, block);
  Subspace chosen;
  std::vector<Bits> basis;
  for (int k = 0; k < m; ++k) {
    Bits g = 0;
    const int s = size(rng);
    for (int i = 0; i < s; ++i) g ^= unit(labels[(k * block + i) % n]);
    if (in_code)
      if (const Bits z = syndrome(plan, g))
        for (int b = 0; b < n; ++b)
          if (plan.check[b] == z) {
            g ^= unit(b);
            break;
          }
    g = S.reduce(g);
    if (!chosen.add(g)) return std::nullopt;
    basis.push_back(g);
  }
  std::vector<Bits> targets;
  for (Bits w = 1; w < (Bits{1} << m); ++w) {
    Bits t = 0;
    for (int k = 0; k < m; ++k)
      if (w & unit(k)) t ^= basis[k];
    targets.push_back(t);
  }
  std::shuffle(targets.begin(), targets.end(), rng);
  // Each target a shortest walk over the free quotient edges (key: node * 64 + label).
  std::unordered_set<Bits> used;
  std::unordered_map<Bits, std::pair<Bits, int>> came;  // node -> (previous node, label)
  std::vector<Bits> layer, next;
  std::vector<int> order(n);
  for (int b = 0; b < n; ++b) order[b] = b;
  std::vector<Walk> walks;
  for (const Bits target : targets) {
    came.clear();
    came.emplace(0, std::pair<Bits, int>{0, -1});
    layer.assign(1, 0);
    bool found = false;
    for (int depth = 0; depth < n && !found && !layer.empty(); ++depth) {
      next.clear();
      std::shuffle(order.begin(), order.end(), rng);
      for (const Bits y : layer)
        for (const int b : order) {
          if (used.count(y * 64 + b)) continue;
          const Bits z = y ^ image[b];
          if (!came.emplace(z, std::pair<Bits, int>{y, b}).second) continue;
          next.push_back(z);
          found = found || z == target;
        }
      layer.swap(next);
    }
    if (!found) return std::nullopt;
    Walk walk;
    for (Bits y = target; y != 0;) {
      const auto [from, b] = came.at(y);
      walk.push_back(b);
      y = from;
    }
    std::reverse(walk.begin(), walk.end());
    Bits seen = 0;
    for (const int b : walk) {
      if (seen & unit(b)) return std::nullopt;  // a repeated bit: not a shortest path
      seen |= unit(b);
    }
    Bits y = 0;
    for (const int b : walk) {
      used.insert(y * 64 + b);
      y ^= image[b];
    }
    walks.push_back(std::move(walk));
  }
  return walks;
}

// The walks of every step, or nothing when no chain was found within the attempts.
std::optional<std::vector<std::vector<Walk>>> plan_walks(Plan& plan, std::uint64_t seed,
                                                         const Budget& budget) {
  const int n = plan.n;
  const int q = (1 << plan.sizes.back()) - 1;
  for (int attempt = 0; attempt < kChainAttempts && !budget.expired(); ++attempt) {
    std::mt19937_64 rng(seed + static_cast<std::uint64_t>(attempt));
    std::vector<int> perm(n);
    for (int b = 0; b < n; ++b) perm[b] = b;
    std::shuffle(perm.begin(), perm.end(), rng);
    plan.check.assign(n, 0);
    for (int j = 0; j < n; ++j) plan.check[perm[j]] = static_cast<Bits>(j % q + 1);
    Subspace S;
    std::vector<std::vector<Walk>> steps;
    for (std::size_t j = 0; j < plan.sizes.size(); ++j) {
      const bool in_code = j + 1 < plan.sizes.size();
      std::optional<std::vector<Walk>> walks;
      for (int tries = 0; tries < kStepAttempts && !walks; ++tries)
        walks = step_walks(plan, S, plan.sizes[j], in_code, rng);
      if (!walks) break;
      for (const Walk& w : *walks) {
        Bits v = 0;
        for (const int b : w) v ^= unit(b);
        S.add(v);
      }
      steps.push_back(std::move(*walks));
    }
    if (steps.size() == plan.sizes.size() && static_cast<int>(S.basis.size()) == n) return steps;
  }
  return std::nullopt;
}

// The channels are exactly those of hypercube:n: every node has n out-channels, to x XOR
// e_b for distinct b. O(P n), where regenerating the network to compare (is_generated)
// built a second copy of its million channels, seconds at 65,536 processors.
bool exact_hypercube(const Topology& t, int n) {
  if (t.node_count() != (1 << n)) return false;
  for (NodeId x = 0; x < t.node_count(); ++x) {
    const auto out = t.out_channels(x);
    if (static_cast<int>(out.size()) != n) return false;
    Bits seen = 0;
    for (const ChannelId c : out) {
      const Bits d = static_cast<Bits>(t.channel(c).to ^ x);
      if (!std::has_single_bit(d) || d >= (Bits{1} << n) || (seen & d)) return false;
      seen |= d;
    }
  }
  return true;
}

}  // namespace

bool hypercube_broadcast_applies(const Problem& problem) {
  const Collective& c = problem.collective;
  const Topology& t = problem.topology;
  if (is_reduction(c) || !is_broadcast(c) || c.messages.size() != 1 || problem.model.combining ||
      problem.model.switching != Switching::wormhole)
    return false;
  const auto family = family_of(t);
  if (!family || family->name != "hypercube" || !t.fault_records().empty()) return false;
  const int p = t.processor_count();
  if (p < 2 || !std::has_single_bit(static_cast<unsigned>(p)) || t.node_count() != p ||
      std::countr_zero(static_cast<unsigned>(p)) > kMaxDimension)
    return false;
  return c.messages.front().targets.size() + 1 == static_cast<std::size_t>(p);
}

std::optional<Schedule> hypercube_broadcast(const Problem& problem, std::uint64_t seed,
                                            const Budget& budget) {
  if (!hypercube_broadcast_applies(problem)) return std::nullopt;
  const int p = problem.topology.processor_count();
  Plan plan;
  plan.n = std::countr_zero(static_cast<unsigned>(p));
  if (!exact_hypercube(problem.topology, plan.n)) return std::nullopt;
  const int k = std::min(plan.n, problem.model.ports.value_or(plan.n));
  int m = 0;
  while ((1 << (m + 1)) - 1 <= k) ++m;
  const int steps = (plan.n + m - 1) / m;
  plan.sizes.assign(steps, m);
  plan.sizes.front() = plan.n - m * (steps - 1);
  const auto walks = plan_walks(plan, seed, budget);
  if (!walks) return std::nullopt;
  // Lift: in step j every node of r XOR S_(j-1) sends along each walk. The senders are
  // listed by a Gray code over S's basis, so each is one XOR from the one before.
  const Message& message = problem.collective.messages.front();
  const Bits root = static_cast<Bits>(message.origin);
  std::vector<Transfer> transfers;
  transfers.reserve(static_cast<std::size_t>(p) - 1);
  Subspace S;
  for (std::size_t j = 0; j < walks->size(); ++j) {
    const Step step = static_cast<Step>(j + 1);
    const std::vector<Bits> basis = S.basis;
    const std::uint64_t senders = std::uint64_t{1} << basis.size();
    Bits x = root;
    for (std::uint64_t i = 0; i < senders; ++i) {
      if (i != 0) x ^= basis[std::countr_zero(i)];
      if (i % 4096 == 4095 && budget.expired()) return std::nullopt;
      for (const Walk& w : (*walks)[j]) {
        std::vector<NodeId> path{static_cast<NodeId>(x)};
        Bits y = x;
        for (const int b : w) {
          y ^= unit(b);
          path.push_back(static_cast<NodeId>(y));
        }
        transfers.push_back({step, std::move(path), {message.id}});
      }
    }
    for (const Walk& w : (*walks)[j]) {
      Bits v = 0;
      for (const int b : w) v ^= unit(b);
      S.add(v);
    }
  }
  return assemble_schedule(problem, std::move(transfers), "hypercube broadcast", seed);
}

}  // namespace ccsched
