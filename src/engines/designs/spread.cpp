// Region broadcast (spread.hpp): the one-to-all broadcast for networks too large for the
// spreading encoding. Step s: every uninformed target belongs to its nearest holder; each
// holder, largest region first, picks up to k new holders from its region one at a time,
// each the sampled candidate that leaves the largest cell (the nodes nearer to one centre
// than to the others) smallest, and routes it on a path that is still free in step s. What
// ports and channels remain then serve the farthest leftover targets from any holder.
#include "ccsched/engines/spread.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

constexpr int kCandidates = 24;  // sampled candidates per choice: enough to balance cells
constexpr int kLeftoverTries = 64; // holders tried per leftover target

class StepChannels {
 public:
  StepChannels(const Problem& problem, const PathSet& paths)
      : paths_(paths), used_(problem.topology.channel_count(), 0),
        sends_(problem.topology.node_count(), 0), receives_(problem.topology.node_count(), 0),
        ports_(effective_ports(problem)) {}

  void clear() {
    std::fill(used_.begin(), used_.end(), 0);
    std::fill(sends_.begin(), sends_.end(), 0);
    std::fill(receives_.begin(), receives_.end(), 0);
  }
  bool can_send(NodeId h) const { return sends_[h] < ports_; }
  // The given path (nodes from h to c), taken when its channels and both ports are free.
  bool take_exact(const std::vector<NodeId>& nodes) {
    const NodeId h = nodes.front(), c = nodes.back();
    if (sends_[h] >= ports_ || receives_[c] >= ports_) return false;
    std::vector<ChannelId> route;
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
      const auto ch = paths_.topology().find_channel(nodes[i], nodes[i + 1]);
      if (!ch || used_[*ch]) return false;
      route.push_back(*ch);
    }
    for (const ChannelId ch : route) used_[ch] = 1;
    ++sends_[h];
    ++receives_[c];
    return true;
  }
  // A free path from h to c in this step, taken; nothing when none is free.
  std::optional<std::vector<NodeId>> take(NodeId h, NodeId c) {
    if (sends_[h] >= ports_ || receives_[c] >= ports_) return std::nullopt;
    std::optional<Path> found;
    if (paths_.searches_lazily()) {
      found = paths_.first_free_path(h, c, used_);
    } else {
      for (const Path& p : paths_.paths(h, c))
        if (std::none_of(p.channels.begin(), p.channels.end(),
                         [&](ChannelId ch) { return used_[ch]; })) {
          found = p;
          break;
        }
    }
    if (!found) return std::nullopt;
    for (const ChannelId ch : found->channels) used_[ch] = 1;
    ++sends_[h];
    ++receives_[c];
    return std::move(found->nodes);
  }

 private:
  const PathSet& paths_;
  std::vector<char> used_;
  std::vector<int> sends_, receives_;
  int ports_;
};

// The grid a topology's name promises, when the topology is exactly that network: sides and
// strides of each dimension (ids row-major, last coordinate fastest; a hypercube as sides of
// 2 with the bits as coordinates) and whether the dimensions wrap.
struct Grid {
  std::vector<long long> side, stride;
  bool wrap = false;
};

std::optional<Grid> grid_of(const Topology& t) {
  const auto family = family_of(t);
  if (!family || !t.fault_records().empty() || family->name == "uring") return std::nullopt;
  if (!is_generated(t)) return std::nullopt;
  Grid g;
  g.wrap = family->name != "mesh";
  if (family->name == "hypercube") {
    for (long long bit = 1; bit < t.processor_count(); bit <<= 1) {
      g.side.push_back(2);
      g.stride.push_back(bit);
    }
    return g;
  }
  g.side.assign(family->sides.begin(), family->sides.end());
  g.stride.assign(g.side.size(), 1);
  for (std::size_t i = g.side.size() - 1; i-- > 0;) g.stride[i] = g.stride[i + 1] * g.side[i + 1];
  return g;
}

// One-port broadcast by halving, dimension after dimension: within a line segment whose
// holder sits at one end, the holder sends floor(n/2) positions along the segment, and the
// two halves (each with its holder at an end) go on in parallel; ceil(log2 n) steps for n
// positions, every path inside its own segment, so the segments of one step share no
// channel and every processor sends and receives at most once. A root inside a mesh line
// first informs its neighbour on the longer side. On a torus the first jump of a line is
// floor(n/2) hops, a shortest path. Dimension i starts when i-1 is done: every holder then
// covers its own line of dimension i, and lines are disjoint. torus:32x32: 5 + 5 = 10 steps,
// the informed-set bound log2 1024.
std::vector<Transfer> halving(const Problem& problem, const Grid& g) {
  const Message& message = problem.collective.messages.front();
  std::vector<Transfer> transfers;
  std::vector<NodeId> holders{message.origin};
  Step base = 0;  // steps used by the dimensions before
  for (std::size_t i = 0; i < g.side.size(); ++i) {
    const long long n = g.side[i], stride = g.stride[i];
    if (n < 2) continue;
    Step longest = 0;
    std::vector<NodeId> fresh;
    for (const NodeId h : holders) {
      const long long c = h / stride % n;
      const long long origin_line = h - c * stride;  // the line's node at coordinate 0
      auto node = [&](long long pos) {
        return static_cast<NodeId>(origin_line + ((pos % n + n) % n) * stride);
      };
      auto send = [&](long long from, long long to, Step step) {
        std::vector<NodeId> path;
        const long long dir = to > from ? 1 : -1;
        for (long long x = from;; x += dir) {
          path.push_back(node(x));
          if (x == to) break;
        }
        transfers.push_back({base + step, std::move(path), {message.id}});
        fresh.push_back(node(to));
        longest = std::max(longest, step);
      };
      // Segment [lo, hi) in positions (torus positions relative to the holder, unwrapped),
      // holder at lo (left) or hi-1 (right), first free step `step`.
      auto cover = [&](auto&& self, long long lo, long long hi, bool left, Step step) -> void {
        const long long len = hi - lo;
        if (len < 2) return;
        const long long jump = len / 2;
        if (left) {
          send(lo, lo + jump, step);
          self(self, lo, lo + jump, true, step + 1);
          self(self, lo + jump, hi, true, step + 1);
        } else {
          send(hi - 1, hi - 1 - jump, step);
          self(self, hi - jump, hi, false, step + 1);
          self(self, lo, hi - jump, false, step + 1);
        }
      };
      if (g.wrap) {
        cover(cover, c, c + n, true, 1);
      } else if (c == 0 || c == n - 1) {
        cover(cover, 0, n, c == 0, 1);
      } else {
        // Interior root of a mesh line: the longer side first gets a holder next door.
        const bool right_longer = n - 1 - c >= c;
        if (right_longer) {
          send(c, c + 1, 1);
          cover(cover, c + 1, n, true, 2);
          cover(cover, 0, c + 1, false, 2);
        } else {
          send(c, c - 1, 1);
          cover(cover, 0, c, false, 2);
          cover(cover, c, n, true, 2);
        }
      }
    }
    holders.insert(holders.end(), fresh.begin(), fresh.end());
    base += longest;
  }
  return transfers;
}

// One transfer per holder and step on a generated fat tree (one link per processor, so one
// port in effect): in step s every holder h sends to h XOR 2^(n-s) (processor ids, n the
// levels), each on a free shortest path of its step: the binomial tree, log2 p steps, the
// informed-set bound; a pair that finds no free path is left to the region steps after.
std::optional<std::vector<Transfer>> binomial_fattree(const Problem& problem,
                                                      const PathSet& paths,
                                                      const Budget& budget) {
  const Topology& t = problem.topology;
  if (!t.name().starts_with("fattree:") || !is_generated(t)) return std::nullopt;
  const Message& message = problem.collective.messages.front();
  const int p = t.processor_count();
  StepChannels channels(problem, paths);
  std::vector<Transfer> transfers;
  std::vector<char> informed(t.node_count(), 0);
  std::vector<NodeId> holders{message.origin};
  informed[message.origin] = 1;
  Step s = 0;
  for (int bit = p / 2; bit >= 1; bit /= 2) {
    if (budget.expired()) return std::nullopt;
    ++s;
    channels.clear();
    const std::size_t before = holders.size();
    for (std::size_t i = 0; i < before; ++i) {
      const NodeId v = holders[i] ^ bit;
      if (informed[v]) continue;
      auto path = channels.take(holders[i], v);
      if (!path) continue;
      transfers.push_back({s, std::move(*path), {message.id}});
      informed[v] = 1;
      holders.push_back(v);
    }
  }
  return transfers;
}

// Hops from the nearest holder to every node and which holder that is (the lowest index
// among the nearest): a breadth-first search from all holders, layer by layer, each node
// taking the lowest owner among its predecessors in the layer before (the nearest holders
// of a node are the union of those of its predecessors on shortest paths).
struct NearestHolder {
  std::vector<int> hops, owner;
  void search(const Topology& t, const std::vector<NodeId>& holders) {
    hops.assign(t.node_count(), kUnreachable);
    owner.assign(t.node_count(), -1);
    std::vector<NodeId> layer, next;
    for (std::size_t i = 0; i < holders.size(); ++i) {
      hops[holders[i]] = 0;
      owner[holders[i]] = static_cast<int>(i);
      layer.push_back(holders[i]);
    }
    while (!layer.empty()) {
      next.clear();
      for (const NodeId x : layer)
        for (const ChannelId c : t.out_channels(x)) {
          const NodeId y = t.channel(c).to;
          if (hops[y] == kUnreachable) {
            hops[y] = hops[x] + 1;
            owner[y] = owner[x];
            next.push_back(y);
          } else if (hops[y] == hops[x] + 1) {
            owner[y] = std::min(owner[y], owner[x]);
          }
        }
      layer.swap(next);
    }
  }
};

// All-port broadcast on a 2-D torus by the Gaussian integers (docs/ENGINES.md, "Lattice
// broadcast"): node (x, y) is x + yi modulo the sides. With u_s = (1+2i)^(K-s), every holder
// h sends in step s to h + d u_s for d in {1, i, -1, -i}. The sums Σ_s d_s u_s (d_s in
// {0, ±1, ±i}) are a complete set of residues modulo (1+2i)^K, whose norm is 5^K (each
// multiplication by 1+2i has index 5), so the informed set grows five-fold per step, the
// informed-set bound's pace under four ports. K is the least step count whose sums cover
// the torus (checked by running the spread on the node set); a delivery that finds no free
// shortest path in its step is left to the steps after, which one region attempt
// (one_attempt) completes from the holders the lattice made. Holders are the nodes
// already informed: a sum that lands on one (the torus folds the plane) is not sent.
// i^d (a + bi) for d = 0..3.
std::pair<long long, long long> turn(long long a, long long b, int d) {
  switch (d) {
    case 0: return {a, b};
    case 1: return {-b, a};
    case 2: return {-a, -b};
    default: return {b, -a};
  }
}

std::optional<std::vector<Transfer>> lattice_broadcast(const Problem& problem,
                                                       const PathSet& paths, const Grid& g,
                                                       const Budget& budget) {
  if (g.side.size() != 2 || !g.wrap || effective_ports(problem) < 4) return std::nullopt;
  const long long rows = g.side[0], cols = g.side[1];
  if (rows < 3 || cols < 3) return std::nullopt;
  const Message& message = problem.collective.messages.front();
  const auto node = [&](long long x, long long y) {
    return static_cast<NodeId>(((x % rows + rows) % rows) * cols + ((y % cols + cols) % cols));
  };
  const long long n = rows * cols;
  const long long ox = message.origin / cols, oy = message.origin % cols;
  // The least K whose spread covers the torus, sent from the origin.
  int K = 0;
  for (long long reach = 1; reach < n; reach *= 5) ++K;
  for (;; ++K) {
    if (K > 25 || budget.expired()) return std::nullopt;  // 5^12.5: no overflow
    std::vector<long long> ua(K), ub(K);  // u_s = (1+2i)^(K-s) for s = 1..K
    long long a = 1, b = 0;
    for (int s = K; s >= 1; --s) {
      ua[s - 1] = a, ub[s - 1] = b;
      const long long na = a - 2 * b, nb = 2 * a + b;
      a = na, b = nb;
    }
    std::vector<char> informed(n, 0);
    std::vector<long long> hx{ox}, hy{oy};
    informed[node(ox, oy)] = 1;
    long long count = 1;
    for (int s = 1; s <= K; ++s) {
      const std::size_t before = hx.size();
      for (std::size_t h = 0; h < before; ++h)
        for (int d = 0; d < 4; ++d) {
          const auto [da, db] = turn(ua[s - 1], ub[s - 1], d);
          const NodeId v = node(hx[h] + da, hy[h] + db);
          if (informed[v]) continue;
          informed[v] = 1;
          ++count;
          hx.push_back(hx[h] + da);
          hy.push_back(hy[h] + db);
        }
    }
    if (count < n) continue;
    // Covered: now with channels. Deliveries that find no free path are left to the
    // region steps that complete the broadcast (one_attempt from this prefix).
    StepChannels channels(problem, paths);
    std::vector<Transfer> transfers;
    std::fill(informed.begin(), informed.end(), 0);
    std::vector<NodeId> holders{message.origin};
    informed[message.origin] = 1;
    std::vector<NodeId> fresh;
    for (int s = 1; s <= K; ++s) {
      if (budget.expired()) return std::nullopt;
      channels.clear();
      fresh.clear();
      for (const NodeId h : holders)
        for (int d = 0; d < 4; ++d) {
          const auto [da, db] = turn(ua[s - 1], ub[s - 1], d);
          const NodeId v = node(h / cols + da, h % cols + db);
          if (informed[v]) continue;
          // The turned legs in the same order for every holder (the first leg along d,
          // then along d·i: rows first for d even, columns first for d odd), each the
          // short way round; else any free shortest path.
          std::vector<NodeId> legs{h};
          long long x = h / cols, y = h % cols;
          auto walk = [&](bool along_rows) {
            const long long side = along_rows ? rows : cols;
            long long delta = ((along_rows ? v / cols - x : v % cols - y) % side + side) % side;
            if (2 * delta > side) delta -= side;
            for (const long long unit = delta > 0 ? 1 : -1; delta != 0; delta -= unit) {
              (along_rows ? x : y) += unit;
              legs.push_back(node(x, y));
            }
          };
          walk(d % 2 == 0);
          walk(d % 2 != 0);
          std::optional<std::vector<NodeId>> path;
          if (channels.take_exact(legs)) path = std::move(legs);
          else path = channels.take(h, v);
          if (!path) continue;
          transfers.push_back({s, std::move(*path), {message.id}});
          informed[v] = 1;
          fresh.push_back(v);
        }
      holders.insert(holders.end(), fresh.begin(), fresh.end());
    }
    return transfers;
  }
}

// `prefix`: transfers of the first steps already fixed (the lattice broadcast's), which
// the attempt completes; empty for a fresh attempt.
std::optional<std::vector<Transfer>> one_attempt(const Problem& problem, const PathSet& paths,
                                                 std::uint64_t seed, const Budget& budget,
                                                 int give_up_after,
                                                 std::vector<Transfer> prefix = {}) {
  const auto& t = problem.topology;
  const Message& message = problem.collective.messages.front();
  std::mt19937_64 rng(seed);
  std::vector<char> informed(t.node_count(), 0);
  informed[message.origin] = 1;
  std::vector<NodeId> holders{message.origin};
  Step first = 1;
  for (const Transfer& tr : prefix) {
    informed[tr.path.back()] = 1;
    holders.push_back(tr.path.back());
    first = std::max(first, tr.step + 1);
  }
  std::vector<NodeId> uninformed;
  for (const NodeId v : message.targets)
    if (!informed[v]) uninformed.push_back(v);
  std::shuffle(uninformed.begin(), uninformed.end(), rng);
  const int ports = effective_ports(problem);
  StepChannels channels(problem, paths);
  std::vector<Transfer> transfers = std::move(prefix);
  std::vector<int> cell(t.node_count(), 0), best(t.node_count(), 0);
  NearestHolder nearest;
  // The leftovers' backward searches: visit marks by epoch, depths, the ball.
  std::vector<std::uint32_t> seen(t.node_count(), 0);
  std::vector<int> depth(t.node_count(), 0);
  std::vector<NodeId> ball;
  std::uint32_t epoch = 0;

  for (Step s = first; !uninformed.empty(); ++s) {
    if (s > give_up_after || budget.expired()) return std::nullopt;
    channels.clear();
    // Regions: each uninformed target to its nearest holder (the first in holder order on
    // ties; the order carries the seed's shuffle), by one breadth-first search from all
    // holders at once: O(nodes + channels) a step, not holders x targets.
    nearest.search(t, holders);
    std::vector<std::vector<NodeId>> region(holders.size());
    for (const NodeId u : uninformed) {
      const int who = nearest.owner[u];
      if (who < 0) return std::nullopt;  // unreachable: the driver's greedy reports it
      region[who].push_back(u);
      best[u] = nearest.hops[u];
    }
    std::vector<std::size_t> order(holders.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return region[a].size() > region[b].size();
    });
    std::vector<NodeId> fresh;
    std::size_t served = 0;
    for (const std::size_t i : order) {
      if (++served % 1024 == 0 && budget.expired()) return std::nullopt;
      const NodeId h = holders[i];
      auto& r = region[i];
      if (r.empty()) continue;
      // Cells: centre 0 is h, centre j > 0 the j-th node chosen; cell[u] is u's centre.
      std::vector<int> size{static_cast<int>(r.size())};
      for (const NodeId u : r) cell[u] = 0;
      std::vector<char> taken(r.size(), 0);
      for (int j = 0; j < ports && channels.can_send(h); ++j) {
        // Sample candidates; score each by the largest cell it would leave.
        std::vector<std::size_t> pool;
        if (static_cast<int>(r.size()) <= kCandidates) {
          for (std::size_t k = 0; k < r.size(); ++k)
            if (!taken[k]) pool.push_back(k);
        } else {
          std::uniform_int_distribution<std::size_t> pick(0, r.size() - 1);
          for (int tries = 0; tries < 4 * kCandidates && static_cast<int>(pool.size()) < kCandidates;
               ++tries) {
            const std::size_t k = pick(rng);
            if (!taken[k] && std::find(pool.begin(), pool.end(), k) == pool.end()) pool.push_back(k);
          }
        }
        if (pool.empty()) break;
        std::vector<std::pair<long long, std::size_t>> scored;
        std::vector<int> moved(size.size(), 0);
        for (const std::size_t k : pool) {
          const NodeId c = r[k];
          std::fill(moved.begin(), moved.end(), 0);
          int mine = 0;
          for (const NodeId u : r)
            if (paths.distance(c, u) < best[u]) ++moved[cell[u]], ++mine;
          long long largest = mine, squares = 1LL * mine * mine;
          for (std::size_t j2 = 0; j2 < size.size(); ++j2) {
            const long long left = size[j2] - moved[j2];
            largest = std::max(largest, left);
            squares += left * left;
          }
          scored.push_back({largest * (1LL << 40) + squares, k});
        }
        std::stable_sort(scored.begin(), scored.end());
        bool sent = false;
        for (const auto& [score, k] : scored) {
          const NodeId c = r[k];
          auto path = channels.take(h, c);
          if (!path) continue;
          transfers.push_back({s, std::move(*path), {message.id}});
          fresh.push_back(c);
          informed[c] = 2;  // informed in this step
          taken[k] = 1;
          // The new centre takes the nodes nearer to it.
          const int centre = static_cast<int>(size.size());
          size.push_back(0);
          for (const NodeId u : r) {
            const int d = paths.distance(c, u);
            if (d < best[u]) {
              --size[cell[u]];
              cell[u] = centre;
              best[u] = d;
              ++size[centre];
            }
          }
          sent = true;
          break;
        }
        if (!sent) break;
      }
    }
    // Leftovers: the farthest remaining targets, from any holder with a free port and path.
    std::vector<NodeId> left;
    for (const NodeId u : uninformed)
      if (!informed[u]) left.push_back(u);
    std::stable_sort(left.begin(), left.end(), [&](NodeId a, NodeId b) { return best[a] > best[b]; });
    std::size_t polled = 0;
    for (const NodeId u : left) {
      if (++polled % 256 == 0 && budget.expired()) return std::nullopt;
      // The kLeftoverTries nearest holders with a free port (ties by node id): a search
      // backwards from u, layer by layer, until a layer completes that many; O(the ball),
      // not O(holders) per target.
      std::vector<std::pair<int, NodeId>> near;
      ball.clear();
      ball.push_back(u);
      seen[u] = ++epoch;
      depth[u] = 0;
      for (std::size_t head = 0, layer_end = 1; head < ball.size(); ++head) {
        if (head == layer_end) {
          if (near.size() >= static_cast<std::size_t>(kLeftoverTries)) break;
          layer_end = ball.size();
        }
        const NodeId x = ball[head];
        if (informed[x] == 1 && channels.can_send(x)) near.push_back({depth[x], x});
        for (const ChannelId c : t.in_channels(x)) {
          const NodeId y = t.channel(c).from;
          if (seen[y] == epoch) continue;
          seen[y] = epoch;
          depth[y] = depth[x] + 1;
          ball.push_back(y);
        }
      }
      const auto n = std::min<std::size_t>(near.size(), kLeftoverTries);
      std::partial_sort(near.begin(), near.begin() + n, near.end());
      for (std::size_t i = 0; i < n; ++i) {
        auto path = channels.take(near[i].second, u);
        if (!path) continue;
        transfers.push_back({s, std::move(*path), {message.id}});
        fresh.push_back(u);
        informed[u] = 2;
        break;
      }
    }
    if (fresh.empty()) return std::nullopt;
    for (const NodeId c : fresh) {
      informed[c] = 1;
      holders.push_back(c);
    }
    std::erase_if(uninformed, [&](NodeId u) { return informed[u] != 0; });
  }
  return transfers;
}

}  // namespace

std::optional<Schedule> region_broadcast(const Problem& problem, const PathSet& paths,
                                         std::uint64_t seed, const Budget& budget, int attempts) {
  const auto& c = problem.collective;
  if (is_reduction(c) || !is_broadcast(c) || c.messages.size() != 1 || problem.model.combining ||
      problem.model.switching != Switching::wormhole)
    return std::nullopt;
  std::optional<std::vector<Transfer>> kept;
  int kept_steps = std::numeric_limits<int>::max();
  // On a grid: halving, at the informed-set bound under one port when the sides are powers
  // of two; with more ports (valid too: one transfer in and out per processor and step) a
  // schedule at once, which the attempts below must beat (docs/BENCHMARKS.md, "Beyond
  // 1,024": mesh:128x128 had none within the designs' share of the time).
  const bool all_targets =
      c.messages.front().targets.size() + 1 == static_cast<std::size_t>(problem.topology.processor_count());
  if (all_targets)
    if (const auto g = grid_of(problem.topology)) {
      kept = halving(problem, *g);
      kept_steps = 0;
      for (const auto& tr : *kept) kept_steps = std::max(kept_steps, static_cast<int>(tr.step));
    }
  // A fat tree: the binomial tree, completed by one region attempt where a path was taken.
  if (all_targets)
    if (auto binomial = binomial_fattree(problem, paths, budget))
      if (auto done = one_attempt(problem, paths, seed, budget, kept_steps - 1,
                                  std::move(*binomial))) {
        int steps = 0;
        for (const auto& tr : *done) steps = std::max(steps, static_cast<int>(tr.step));
        kept = std::move(done), kept_steps = steps;
      }
  // Four ports or more on a 2-D torus: the lattice broadcast, five-fold growth per step.
  if (all_targets && effective_ports(problem) >= 4)
    if (const auto g = grid_of(problem.topology))
      if (auto lattice = lattice_broadcast(problem, paths, *g, budget))
        if (auto done = one_attempt(problem, paths, seed, budget, kept_steps - 1,
                                    std::move(*lattice))) {
          int steps = 0;
          for (const auto& tr : *done) steps = std::max(steps, static_cast<int>(tr.step));
          kept = std::move(done), kept_steps = steps;
        }
  // No attempt can beat the informed-set bound (holders grow at most (k+1)-fold a step, k
  // the ports a processor can use: seed 000 §3), so a design there is kept at once.
  int fanout = 0;
  for (const NodeId v : problem.topology.processors())
    fanout = std::max(fanout, std::min(effective_ports(problem),
                                       static_cast<int>(problem.topology.out_channels(v).size())));
  int informed_bound = 0;
  for (long long reach = 1; reach < problem.topology.processor_count(); reach *= fanout + 1)
    ++informed_bound;
  if (fanout == 0 || kept_steps <= informed_bound) attempts = 0;
  for (int a = 0; a < attempts && !budget.expired(); ++a) {
    auto transfers = one_attempt(problem, paths, seed + a, budget, kept_steps - 1);
    if (!transfers) continue;
    int steps = 0;
    for (const auto& tr : *transfers) steps = std::max(steps, static_cast<int>(tr.step));
    kept_steps = steps;
    kept = std::move(transfers);
  }
  if (!kept) return std::nullopt;
  return assemble_schedule(problem, std::move(*kept), "region broadcast", seed);
}

}  // namespace ccsched
