// SCAN on a 2-D torus or mesh with row-major ids, written directly (docs/ENGINES.md,
// "Reductions": direct prefix networks, the band scan). Brent-Kung over the whole order
// (scan.cpp) spends 2 log2 C - 1 steps on the row levels and 2 log2 R - 1 on the column
// levels, whose block sums all sit in the last column and so reach a receiver through its
// one channel from the north. Here:
//   - the order is cut into R bands, band b ending at e_b = (b, C - 1 + off(b)), off <= 0
//     (the last at p - 1): a band is the tail of row b - 1 after e_{b-1} and the head of
//     row b up to e_b, each a segment with a Brent-Kung of its own;
//   - U: the segments' up-sweeps; the tail's sum, at (b - 1, C - 1), goes to e_b, which
//     then holds the band's sum;
//   - S: radix-4 Brent-Kung over the spine e_0..e_{R-2}: a block end takes its three
//     sub-block ends' sums in one step, and in the down-sweep the sub-block ends take the
//     prefix before the block (from the previous block's end) and their elder siblings'
//     sums in one step. off() puts the sub-block ends of a level in columns x1 < x3 < x2
//     (digit 1, 2, 3 of b + 1 in base 4) with every end of a higher level strictly between
//     x1 and x3: then the three transfers into a block end arrive from the west, the north
//     (row first) and the east, and so do those into the third sub-block end, and the
//     previous block's end leaves by the east, the west and the south. The span of the
//     offsets grows by 3 a level. e_{R-1} = p - 1 takes e_{R-2}'s prefix after S;
//   - D: the head's positions 2^k - 1 (which hold the head's prefix after U): the first
//     needed takes e_{b-1}'s prefix and the tail's sum, the tail's last position takes the
//     prefix in the same step and then serves the rest of them; e_{b-1} serves the tail's;
//     then the segments' down-sweeps.
// Every transfer (j, i) adds j's accumulator to i's. The transfers are placed as a list
// schedule: each in the earliest step after the step that made the sender's value and
// not before the receiver's previous reception, no later than the sender's next
// reception (so the value it sends is the one meant), along the first minimal L-shaped
// path (row first or column first; a side of exactly half the ring either way) whose
// channels are free in that step and within the ports; a level of S is placed as a group
// in one step when a step near the earliest takes all its routes together. The prefix
// network makes every accumulator end as its prefix; the placement only keeps the order,
// so the schedule is valid by construction (and verified in the tests). O(p log C)
// transfers; torus:32x32 15 steps (Brent-Kung 19), torus:128x128 21 (27).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

using Pair = std::pair<int, int>;  // (sender, receiver), processor ids

// The list schedule of the transfers (the header comment). Channels are named
// 4 * node + direction (0 east, 1 west, 2 south, 3 north).
class Placer {
 public:
  Placer(int rows, int cols, bool wrap, int ports)
      : rows_(rows),
        cols_(cols),
        wrap_(wrap),
        ports_(ports),
        made_(static_cast<std::size_t>(rows) * cols, std::vector<int>{0}),
        last_send_(static_cast<std::size_t>(rows) * cols, std::vector<int>{0}) {}

  void add(int j, int i) { place({{j, i}}, false); }
  // All in one step when some step within a few of the earliest takes them all (the
  // values are those at the start of the step); else one by one, in the given order.
  void add_group(const std::vector<Pair>& pairs) {
    if (!place(pairs, true))
      for (const Pair& pr : pairs) place({pr}, false);
  }
  int steps() const { return static_cast<int>(busy_.size()); }
  // (step, node path) of every transfer placed.
  const std::vector<std::pair<int, std::vector<NodeId>>>& placed() const { return placed_; }

 private:
  struct Route {
    std::vector<int> channels;
    std::vector<NodeId> nodes;
  };

  // The signed displacements along a side that are shortest (both at half a ring).
  std::vector<int> displacements(int from, int to, int side) const {
    const int d = to - from;
    if (!wrap_) return {d};
    const int m = ((d % side) + side) % side;
    if (2 * m < side) return {m};
    if (2 * m > side) return {m - side};
    return {m, m - side};
  }

  std::vector<Route> routes(int a, int b) const {
    const int ya = a / cols_, xa = a % cols_, yb = b / cols_, xb = b % cols_;
    std::vector<Route> out;
    for (const int dx : displacements(xa, xb, cols_))
      for (const int dy : displacements(ya, yb, rows_))
        for (int order = 0; order < 2; ++order) {
          Route r;
          int y = ya, x = xa;
          r.nodes.push_back(static_cast<NodeId>(a));
          // Along the row (axis 0) or the column (axis 1) by the signed displacement d.
          auto move = [&](int axis, int d) {
            int& coord = axis == 0 ? x : y;
            const int side = axis == 0 ? cols_ : rows_;
            const int step = d > 0 ? 1 : -1;
            for (int k = 0; k < std::abs(d); ++k) {
              r.channels.push_back(4 * (y * cols_ + x) + 2 * axis + (step > 0 ? 0 : 1));
              coord = ((coord + step) % side + side) % side;
              r.nodes.push_back(static_cast<NodeId>(y * cols_ + x));
            }
          };
          move(order, order == 0 ? dx : dy);
          move(1 - order, order == 0 ? dy : dx);
          out.push_back(std::move(r));
          if (dx == 0 || dy == 0) break;
        }
    return out;
  }

  void grow(int t) {
    const std::size_t p = made_.size();
    while (steps() < t) {
      busy_.emplace_back(4 * p, 0);
      sends_.emplace_back(p, 0);
      receives_.emplace_back(p, 0);
    }
  }

  // The route's channels are free in step t, also of the group's routes chosen so far.
  bool free(int t, const Route& r) const {
    const auto& busy = busy_[static_cast<std::size_t>(t - 1)];
    for (const int ch : r.channels)
      if (busy[static_cast<std::size_t>(ch)] || taken_[static_cast<std::size_t>(ch)]) return false;
    return true;
  }

  // Places `pairs` in one step, trying every combination of their routes in each step
  // from the earliest; `group`: give up (false) after a few steps, else search on.
  bool place(const std::vector<Pair>& pairs, bool group) {
    int lo = 1;
    std::vector<std::vector<Route>> options;
    std::vector<int> state;  // the sender's value: its state index
    for (const auto& [j, i] : pairs) {
      const auto& mj = made_[static_cast<std::size_t>(j)];
      const auto& mi = made_[static_cast<std::size_t>(i)];
      const auto& si = last_send_[static_cast<std::size_t>(i)];
      lo = std::max({lo, mj.back() + 1, mi.back(), si.back()});
      state.push_back(static_cast<int>(mj.size()) - 1);
      options.push_back(routes(j, i));
    }
    std::size_t combos = 1;
    for (const auto& o : options) combos *= o.size();
    if (group && combos > 4096) return false;
    if (taken_.size() < 4 * made_.size()) taken_.assign(4 * made_.size(), 0);
    for (int t = lo;; ++t) {
      if (group && t > lo + 3) return false;
      grow(t);
      auto& sends = sends_[static_cast<std::size_t>(t - 1)];
      auto& receives = receives_[static_cast<std::size_t>(t - 1)];
      bool ports_ok = true;  // counted over the group as a whole
      for (std::size_t u = 0; u < pairs.size(); ++u) {
        int cs = sends[static_cast<std::size_t>(pairs[u].first)];
        int cr = receives[static_cast<std::size_t>(pairs[u].second)];
        for (std::size_t w = 0; w < u; ++w) {
          cs += pairs[w].first == pairs[u].first;
          cr += pairs[w].second == pairs[u].second;
        }
        ports_ok = ports_ok && cs < ports_ && cr < ports_;
      }
      if (!ports_ok) continue;
      std::vector<std::size_t> pick(pairs.size(), 0);
      for (std::size_t c = 0; c < combos; ++c) {
        std::size_t rest = c, k = 0;
        bool ok = true;
        for (; k < pairs.size(); ++k) {
          pick[k] = rest % options[k].size();
          rest /= options[k].size();
          const Route& r = options[k][pick[k]];
          if (!free(t, r)) {
            ok = false;
            break;
          }
          for (const int ch : r.channels) taken_[static_cast<std::size_t>(ch)] = 1;
        }
        for (std::size_t u = 0; u < k; ++u)
          for (const int ch : options[u][pick[u]].channels)
            taken_[static_cast<std::size_t>(ch)] = 0;
        if (!ok) continue;
        auto& busy = busy_[static_cast<std::size_t>(t - 1)];
        for (std::size_t u = 0; u < pairs.size(); ++u) {
          const auto& [j, i] = pairs[u];
          const Route& r = options[u][pick[u]];
          for (const int ch : r.channels) busy[static_cast<std::size_t>(ch)] = 1;
          ++sends[static_cast<std::size_t>(j)];
          ++receives[static_cast<std::size_t>(i)];
          int& last = last_send_[static_cast<std::size_t>(j)][static_cast<std::size_t>(state[u])];
          last = std::max(last, t);
          placed_.push_back({t, r.nodes});
        }
        for (const auto& [j, i] : pairs) {
          made_[static_cast<std::size_t>(i)].push_back(t);
          last_send_[static_cast<std::size_t>(i)].push_back(0);
        }
        return true;
      }
    }
  }

  int rows_, cols_;
  bool wrap_;
  int ports_;
  std::vector<std::vector<int>> made_;       // per node: the step that made each state
  std::vector<std::vector<int>> last_send_;  // per node and state: its last send
  std::vector<std::vector<char>> busy_;      // per step: channels in use
  std::vector<std::vector<int>> sends_, receives_;
  std::vector<std::pair<int, std::vector<NodeId>>> placed_;
  std::vector<char> taken_;  // the channels of the group's routes chosen so far
};

// The offsets of the band ends for radix 4 over `bands` ends (the header comment): the
// sub-block ends of level l (digit 1, 2, 3 of b + 1 in base 4 at place l, lower places
// 0) sit in columns x1 < x3 < x2 with every end of a higher level strictly between x1 and
// x3, so x1 = lo - 1, x3 = hi + 1, x2 = hi + 2 for the span [lo, hi] of the levels above
// (the top one: the last band end alone, at 0); `mirror`: x2 < x3 < x1, x1 = hi + 1,
// x3 = lo - 1, x2 = lo - 2. Then all shifted so that the largest is 0 (every band end in
// its row). Empty when the span does not fit a row.
std::vector<int> nested_offsets(int bands, int cols, bool mirror) {
  const int spine = bands - 1;  // the last band end, p - 1, is left out of the spine
  int levels = 0;
  for (long long s = 1; s < spine; s *= 4) ++levels;
  std::vector<std::array<int, 4>> column(static_cast<std::size_t>(levels));
  int lo = 0, hi = 0;
  for (int l = levels - 1; l >= 0; --l) {
    if (mirror) {
      column[static_cast<std::size_t>(l)] = {0, hi + 1, lo - 2, lo - 1};
      lo -= 2;
      hi += 1;
    } else {
      column[static_cast<std::size_t>(l)] = {0, lo - 1, hi + 2, hi + 1};
      lo -= 1;
      hi += 2;
    }
  }
  if (hi - lo >= cols - 1) return {};
  std::vector<int> off(static_cast<std::size_t>(bands), 0);
  for (int b = 0; b + 1 < spine; ++b) {
    int m = b + 1, l = 0;
    while (m % 4 == 0) {
      m /= 4;
      ++l;
    }
    off[static_cast<std::size_t>(b)] =
        column[static_cast<std::size_t>(l)][static_cast<std::size_t>(m % 4)] - hi;
  }
  off[static_cast<std::size_t>(spine - 1)] = -hi;
  return off;
}

// The band design with band b ending at row b's end plus off[b], Brent-Kung of `radix`
// over the first `spine` band ends (a band end past them takes its prefix from the one
// before); nullopt when a path lacks a channel.
std::optional<std::vector<Transfer>> band_scan(const Problem& p, int rows, int cols, bool wrap,
                                               const std::vector<int>& off, int radix, int spine) {
  const int n = rows * cols;
  std::vector<int> ends(static_cast<std::size_t>(rows)), starts(static_cast<std::size_t>(rows));
  for (int b = 0; b < rows; ++b) {
    ends[static_cast<std::size_t>(b)] = b * cols + cols - 1 + off[static_cast<std::size_t>(b)];
    starts[static_cast<std::size_t>(b)] = b == 0 ? 0 : ends[static_cast<std::size_t>(b - 1)] + 1;
    if (ends[static_cast<std::size_t>(b)] < starts[static_cast<std::size_t>(b)])
      return std::nullopt;
  }
  if (ends.back() != n - 1) return std::nullopt;
  Placer placer(rows, cols, wrap, effective_ports(p));
  // Every band in two segments, each a Brent-Kung of its own: the tail of row b - 1 after
  // e_{b-1} (empty when e_{b-1} ends its row) and the head of row b up to e_b.
  struct Segment {
    int start, length;
  };
  std::vector<Segment> tail(static_cast<std::size_t>(rows)), head(static_cast<std::size_t>(rows));
  std::vector<Segment> segments;
  for (int b = 0; b < rows; ++b) {
    const int row_start = b * cols;
    tail[static_cast<std::size_t>(b)] = {starts[static_cast<std::size_t>(b)],
                                         row_start - starts[static_cast<std::size_t>(b)]};
    head[static_cast<std::size_t>(b)] = {row_start,
                                         ends[static_cast<std::size_t>(b)] - row_start + 1};
    if (tail[static_cast<std::size_t>(b)].length < 0 ||
        head[static_cast<std::size_t>(b)].length < 1)
      return std::nullopt;
    for (const Segment& sg : {tail[static_cast<std::size_t>(b)], head[static_cast<std::size_t>(b)]})
      if (sg.length > 0) segments.push_back(sg);
  }
  // Brent-Kung's rounds of every segment, level by level.
  auto sweep = [&](bool up) {
    std::vector<std::vector<std::vector<Pair>>> rounds;
    std::size_t most = 0;
    for (const Segment& sg : segments) {
      rounds.push_back(up ? brent_kung_up(sg.length) : brent_kung_down(sg.length));
      most = std::max(most, rounds.back().size());
    }
    for (std::size_t l = 0; l < most; ++l)
      for (std::size_t k = 0; k < segments.size(); ++k)
        if (l < rounds[k].size())
          for (const auto& [f, t] : rounds[k][l])
            placer.add(segments[k].start + f, segments[k].start + t);
  };
  // U: the up-sweeps; then the tail's sum (at its last position, row b - 1's end) to e_b.
  sweep(true);
  for (int b = 1; b < rows; ++b)
    if (tail[static_cast<std::size_t>(b)].length > 0)
      placer.add(b * cols - 1, ends[static_cast<std::size_t>(b)]);
  // S: radix-`radix` Brent-Kung over the band ends.
  // (The down-sweep's groups by receiver from the youngest sub-block end down: each elder
  // sends its sum before receiving.)
  auto end_of = [&](int b) { return ends[static_cast<std::size_t>(b)]; };
  for (const bool up : {true, false})
    for (const auto& groups : brent_kung_sweep(spine, {radix}, up))
      for (const auto& group : groups) {
        std::vector<Pair> ids;
        for (const auto& [from, to] : group) ids.push_back({end_of(from), end_of(to)});
        placer.add_group(ids);
      }
  // D: the previous band end's prefix to the positions 2^k - 1, then the down-sweep
  // inside every band.
  // The positions v = 2^k - 1 short of a segment's last, which hold the segment's prefix
  // after U, in the order the down-sweep needs them: v first sends at the level of size
  // min(2^(k-1), the largest power of two below length - 2^k), the largest level first.
  auto chain = [](int length) {
    std::vector<std::pair<long long, int>> order;  // (-first level, v)
    for (int v = 0; v < length - 1; v = 2 * v + 1) {
      long long first = 0;
      for (long long s = 1; s <= (v + 1) / 2 && v + s < length - 1; s *= 2) first = s;
      order.push_back({-first, v});
    }
    std::sort(order.begin(), order.end());
    return order;
  };
  // In three passes over the bands, the most needed first: the head's first position
  // takes the prefix before the band from e_{b-1} and the tail's sum from the tail's last
  // position, which takes the prefix in the same step; then that position, complete,
  // serves the rest of the head's chain alone; then e_{b-1} serves the tail's chain.
  for (int pass = 0; pass < 3; ++pass)
    for (int b = 1; b < rows; ++b) {
      const int o = ends[static_cast<std::size_t>(b - 1)];
      const Segment& tl = tail[static_cast<std::size_t>(b)];
      const Segment& hd = head[static_cast<std::size_t>(b)];
      const int tail_end = b * cols - 1;
      const bool has_tail = tl.length > 0;
      const auto head_chain = chain(hd.length);
      if (pass == 0) {
        if (b >= spine) placer.add(o, ends[static_cast<std::size_t>(b)]);  // off the spine
        if (!head_chain.empty()) {
          placer.add(o, hd.start + head_chain[0].second);
          if (has_tail) placer.add(tail_end, hd.start + head_chain[0].second);
        }
        if (has_tail) placer.add(o, tail_end);
      } else if (pass == 1) {
        for (std::size_t k = 1; k < head_chain.size(); ++k)
          placer.add(has_tail ? tail_end : o, hd.start + head_chain[k].second);
      } else {
        for (const auto& [level, v] : chain(tl.length)) placer.add(o, tl.start + v);
      }
    }
  sweep(false);
  return reduce_transfers(p, placer.placed());
}

}  // namespace

void add_band_scan_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::SCAN || (c.blocks != 1 && !p.model.combining) ||
      p.model.switching != Switching::wormhole || !is_generated(p.topology))
    return;
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p, wrap);
  if (sides.size() != 2 || sides[0] < 4 || sides[1] < 4) return;
  const int rows = sides[0], cols = sides[1];
  const int n = rows * cols;
  if (static_cast<int>(c.senders.size()) != n) return;
  for (int i = 0; i < n; ++i)
    if (c.senders[static_cast<std::size_t>(i)] != i) return;
  // The offsets and their mirror image (x2 < x3 < x1, the higher levels between x3 and
  // x1): the placement is greedy and the order runs one way along a row, so the two can
  // differ (torus:32x32: 16 and 15); the fewer steps offered.
  std::optional<std::vector<Transfer>> best;
  Step best_steps = 0;
  for (const bool mirror : {false, true}) {
    const std::vector<int> off = nested_offsets(rows, cols, mirror);
    if (off.empty() || (t_budget != nullptr && t_budget->expired())) continue;
    auto transfers = band_scan(p, rows, cols, wrap, off, 4, rows - 1);
    if (!transfers) continue;
    Step steps = 0;
    for (const Transfer& t : *transfers) steps = std::max(steps, t.step);
    if (!best || steps < best_steps) {
      best = std::move(transfers);
      best_steps = steps;
    }
  }
  if (!best) return;
  out.push_back({std::string("band scan (direct, ") + (wrap ? "torus" : "mesh") +
                     ", radix-4 band ends)",
                 assemble_schedule(p, std::move(*best), "", 0)});
}

}  // namespace ccsched::reduce_detail
