// Region broadcast (spread.hpp): the one-to-all broadcast for networks too large for the
// spreading encoding. Step s: every uninformed target belongs to its nearest holder; each
// holder, largest region first, picks up to k new holders from its region one at a time,
// each the sampled candidate that leaves the largest cell (the nodes nearer to one centre
// than to the others) smallest, and routes it on a path that is still free in step s. What
// ports and channels remain then serve the farthest leftover targets from any holder.
#include "ccsched/engines/spread.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>

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

// All-port broadcast on a 2-D mesh by splitting rectangles (docs/ENGINES.md, "Quadrant
// broadcast"): every holder owns a rectangle of the mesh; in each step it cuts its
// rectangle across the rows, across the columns or both, and hands each part to a node
// near the part's centre (itself when it already lies there), sent on a path of two legs,
// one along each dimension (a shortest path on a mesh), inside the rectangle. A holder's
// paths are checked pairwise to share no channel; paths of different rectangles cannot
// meet; every node receives at most once and sends at most four times a step (so at most
// its ports: fewer parts when it has fewer). Among the cuts and the nodes near each part's
// centre, each holder takes the split whose largest part needs the fewest further steps
// by the estimate of rect_steps: a holder on its part's border can leave by fewer
// directions, so targets are drawn inward. Four-fold growth a step: 4^7 = 16,384, so
// mesh:128x128 needs 7 steps from a central holder (the informed-set bound is 7), one more
// from a root on the border, which first hands the message to the centre (the root then
// stands in for the target that lands on it). Rectangles that cannot split are left to the
// region attempt that completes the prefix.
struct Rect {
  long long r0, r1, c0, c1;  // rows [r0, r1), columns [c0, c1)
  long long hr, hc;          // the holder
  long long area() const { return (r1 - r0) * (c1 - c0); }
};

// Further steps a rectangle needs with its holder where it is, estimated: one step at the
// holder's own pace (1 + the directions it can leave by, at most four parts), then
// four-fold.
double rect_steps(const Rect& q, int ports) {
  if (q.area() <= 1) return 0.0;
  // A direction counts when the holder has a quarter of its part's extent (at least one
  // node) that way: the parts' centres it must reach lie there.
  const long long dr = std::max(1LL, (q.r1 - q.r0) / 4), dc = std::max(1LL, (q.c1 - q.c0) / 4);
  const int free = (q.hr - q.r0 >= dr) + (q.r1 - 1 - q.hr >= dr) + (q.hc - q.c0 >= dc) +
                   (q.c1 - 1 - q.hc >= dc);
  const int grow = std::min({4, 1 + free, 1 + ports});
  if (grow <= 1) return 1e9;
  return 1.0 + (std::log(static_cast<double>(q.area())) - std::log(grow)) /
                   std::log(std::min(4.0, 1.0 + ports));
}

// One leg of a path along one dimension: along a column (`vertical`) or a row, on line
// `line`, from position `from` to `to`.
struct Leg {
  bool vertical;
  long long line, from, to;
};

bool legs_share(const Leg& a, const Leg& b) {
  if (a.vertical != b.vertical || a.line != b.line || a.from == a.to || b.from == b.to) return false;
  if ((a.to > a.from) != (b.to > b.from)) return false;  // opposite directions: other channels
  return std::max(std::min(a.from, a.to), std::min(b.from, b.to)) <
         std::min(std::max(a.from, a.to), std::max(b.from, b.to));
}

// The two legs from (hr, hc) to (x, y), along the column first when `vertical_first`.
std::array<Leg, 2> l_path(long long hr, long long hc, long long x, long long y, bool vertical_first) {
  if (vertical_first) return {Leg{true, hc, hr, x}, Leg{false, x, hc, y}};
  return {Leg{false, hr, hc, y}, Leg{true, y, hr, x}};
}

std::optional<std::vector<Transfer>> quadrant_broadcast(const Problem& problem, const Grid& g,
                                                        bool from_centre, const Budget& budget) {
  if (g.side.size() != 2 || g.wrap) return std::nullopt;
  const int ports = std::min(4, effective_ports(problem));
  if (ports < 1) return std::nullopt;
  const long long rows = g.side[0], cols = g.side[1];
  const Message& message = problem.collective.messages.front();
  std::vector<char> informed(static_cast<std::size_t>(rows * cols), 0);
  informed[message.origin] = 1;
  std::vector<Transfer> transfers;
  const auto send = [&](Step s, long long hr, long long hc, const std::array<Leg, 2>& legs) {
    std::vector<NodeId> nodes{static_cast<NodeId>(hr * cols + hc)};
    for (const Leg& leg : legs)
      for (long long at = leg.from; at != leg.to;) {
        at += leg.to > leg.from ? 1 : -1;
        nodes.push_back(static_cast<NodeId>(leg.vertical ? at * cols + leg.line : leg.line * cols + at));
      }
    informed[nodes.back()] = 1;
    transfers.push_back({s, std::move(nodes), {message.id}});
  };
  std::vector<Rect> rects{{0, rows, 0, cols, message.origin / cols, message.origin % cols}};
  Step first = 1;
  const long long mr = (rows - 1) / 2, mc = (cols - 1) / 2;
  if (from_centre && (rects[0].hr != mr || rects[0].hc != mc)) {
    send(1, rects[0].hr, rects[0].hc, l_path(rects[0].hr, rects[0].hc, mr, mc, true));
    rects[0].hr = mr, rects[0].hc = mc;
    first = 2;
  }
  struct Candidate {
    long long x, y;
    std::array<Leg, 2> path;
    double steps;
    bool moves;  // a transfer (not the holder keeping its own part)
  };
  std::vector<std::vector<Candidate>> candidates;
  std::vector<int> pick;
  for (Step s = first; !rects.empty(); ++s) {
    if (budget.expired()) return std::nullopt;
    std::vector<Rect> next;
    for (const Rect& q : rects) {
      double best_worst = 1e18, best_total = 1e18;
      std::vector<Rect> best_parts;
      std::vector<Candidate> best_picks;
      const long long height = q.r1 - q.r0, width = q.c1 - q.c0;
      // Cuts: none, or after the first half (two sizes when odd) of each dimension.
      std::vector<long long> row_cuts{-1}, col_cuts{-1};
      for (const long long a : {q.r0 + height / 2, q.r0 + (height + 1) / 2})
        if (a > q.r0 && a < q.r1 && row_cuts.back() != a) row_cuts.push_back(a);
      for (const long long b : {q.c0 + width / 2, q.c0 + (width + 1) / 2})
        if (b > q.c0 && b < q.c1 && col_cuts.back() != b) col_cuts.push_back(b);
      for (const long long a : row_cuts)
        for (const long long b : col_cuts) {
          if (a < 0 && b < 0) continue;
          std::vector<Rect> parts;
          for (const auto& [x0, x1] : a < 0 ? std::vector<std::pair<long long, long long>>{{q.r0, q.r1}}
                                            : std::vector<std::pair<long long, long long>>{{q.r0, a}, {a, q.r1}})
            for (const auto& [y0, y1] : b < 0 ? std::vector<std::pair<long long, long long>>{{q.c0, q.c1}}
                                              : std::vector<std::pair<long long, long long>>{{q.c0, b}, {b, q.c1}})
              parts.push_back({x0, x1, y0, y1, -1, -1});
          // Candidates per part: nodes near its centre by either leg order (and the holder
          // itself in its own part), best estimate first.
          candidates.assign(parts.size(), {});
          for (std::size_t k = 0; k < parts.size(); ++k) {
            Rect placed = parts[k];
            if (q.hr >= placed.r0 && q.hr < placed.r1 && q.hc >= placed.c0 && q.hc < placed.c1) {
              placed.hr = q.hr, placed.hc = q.hc;
              candidates[k].push_back({q.hr, q.hc, l_path(q.hr, q.hc, q.hr, q.hc, true),
                                       rect_steps(placed, ports), false});
            }
            const long long cx = (placed.r0 + placed.r1 - 1) / 2, cy = (placed.c0 + placed.c1 - 1) / 2;
            for (long long x = std::max(placed.r0, cx - 1); x <= std::min(placed.r1 - 1, cx + 2); ++x)
              for (long long y = std::max(placed.c0, cy - 1); y <= std::min(placed.c1 - 1, cy + 2); ++y) {
                if (x == q.hr && y == q.hc) continue;
                placed.hr = x, placed.hc = y;
                const double steps = rect_steps(placed, ports);
                for (const bool vertical_first : {true, false})
                  candidates[k].push_back({x, y, l_path(q.hr, q.hc, x, y, vertical_first), steps, true});
              }
            std::stable_sort(candidates[k].begin(), candidates[k].end(),
                             [](const Candidate& l, const Candidate& r) { return l.steps < r.steps; });
          }
          // The first combination, best first, within the ports and sharing no channel.
          pick.assign(parts.size(), 0);
          const auto fits = [&](std::size_t k, int sends) {
            if (sends > ports) return false;
            for (std::size_t j = 0; j < k; ++j)
              for (const Leg& l : candidates[j][pick[j]].path)
                for (const Leg& m : candidates[k][pick[k]].path)
                  if (legs_share(l, m)) return false;
            return true;
          };
          const auto search = [&](auto&& self, std::size_t k, int sends) -> bool {
            if (k == parts.size()) return true;
            for (pick[k] = 0; pick[k] < static_cast<int>(candidates[k].size()); ++pick[k]) {
              const int now = sends + (candidates[k][pick[k]].moves ? 1 : 0);
              if (fits(k, now) && self(self, k + 1, now)) return true;
            }
            return false;
          };
          if (!search(search, 0, 0)) continue;
          double worst = 0.0, total = 0.0;
          for (std::size_t k = 0; k < parts.size(); ++k) {
            worst = std::max(worst, candidates[k][pick[k]].steps);
            total += candidates[k][pick[k]].steps;
          }
          if (std::tie(worst, total) >= std::tie(best_worst, best_total)) continue;
          best_worst = worst, best_total = total;
          best_parts = parts;
          best_picks.clear();
          for (std::size_t k = 0; k < parts.size(); ++k) best_picks.push_back(candidates[k][pick[k]]);
        }
      if (best_parts.empty()) return transfers;  // stuck: the region attempt completes
      for (std::size_t k = 0; k < best_parts.size(); ++k) {
        const Candidate& c = best_picks[k];
        // A target already informed (the root, after the hand-over) keeps the part itself.
        if (c.moves && !informed[c.x * cols + c.y]) send(s, q.hr, q.hc, c.path);
        best_parts[k].hr = c.x, best_parts[k].hc = c.y;
        if (best_parts[k].area() > 1) next.push_back(best_parts[k]);
      }
    }
    rects.swap(next);
  }
  return transfers;
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
  // A 2-D mesh: the quadrant broadcast, four-fold growth per step.
  if (all_targets)
    if (const auto g = grid_of(problem.topology))
      for (const bool from_centre : {false, true})
        if (auto quadrants = quadrant_broadcast(problem, *g, from_centre, budget))
          if (auto done = one_attempt(problem, paths, seed, budget, kept_steps - 1,
                                      std::move(*quadrants))) {
            int steps = 0;
            for (const auto& tr : *done) steps = std::max(steps, static_cast<int>(tr.step));
            if (steps < kept_steps) kept = std::move(done), kept_steps = steps;
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
  // (effective_ports scans every processor under all ports: taken once, not per processor.)
  int fanout = 0;
  const int ports = effective_ports(problem);
  for (const NodeId v : problem.topology.processors())
    fanout = std::max(fanout, std::min(ports,
                                       static_cast<int>(problem.topology.out_channels(v).size())));
  int informed_bound = 0;
  for (long long reach = 1; reach < problem.topology.processor_count(); reach *= fanout + 1)
    ++informed_bound;
  if (fanout == 0 || kept_steps <= informed_bound) attempts = 0;
  // Above 4,096 processors an attempt costs seconds, and the attempts spent the designs'
  // whole share on mesh:128x128 without going below the quadrant broadcast's 8 (bound 7):
  // a design within one step of the bound is kept there.
  if (problem.topology.processor_count() > 4096 && kept_steps <= informed_bound + 1) attempts = 0;
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
