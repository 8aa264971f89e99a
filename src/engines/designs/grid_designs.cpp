// Grid all-to-all scatter designs (docs/ENGINES.md "Grid all-to-all designs"): 1-D
// templates of channel-disjoint rounds, stacked over the lines of a ring, mesh or torus
// and pipelined across dimensions as a flow shop; a list-scheduling repair for k-port
// models. Plain vectors throughout: the 32x32 torus has about two million segments.
#include "ccsched/engines/grid_designs.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// Largest grid (processors) on which the k-port design also tries direct delivery: its
// first fit scans steps per message, fine for a few hundred processors.
constexpr int kDirectUpTo = 400;
// Largest mesh on which it tries a second message order.
constexpr int kDirectTwiceUpTo = 100;

// Largest odd ring whose leftover lengths are packed by first fit (which tries every
// round for every arc); longer rings put them into bins of rotations.
constexpr int kFirstFitPairsUpTo = 64;

struct GridShape {
  std::vector<int> dims;  // row-major, last coordinate fastest (generators.cpp make_grid)
  bool wrap = false;
};

// The grid the network's name promises, when regenerating that name gives exactly this
// network; a faulty copy, a file with another wiring or other labels gets nothing.
std::optional<GridShape> recognise_grid(const Topology& t) {
  const auto family = family_of(t);
  if (!family || (family->name != "torus" && family->name != "mesh" && family->name != "ring"))
    return std::nullopt;
  if (!is_generated(t)) return std::nullopt;
  return GridShape{family->sides, family->name != "mesh"};
}

// One segment of a 1-D template: from coordinate `start`, `delta` hops (signed) along the
// line or ring.
struct Arc {
  int start = 0;
  int delta = 0;
};

// A set of cyclic offsets c (target - origin mod n) and rounds of channel-disjoint arcs
// that hold, for every start s and every c of the set, exactly one arc from s to s + c.
struct OffsetClass {
  std::vector<int> offsets;
  std::vector<std::vector<Arc>> rounds;
};

// Which way the arc from s with cyclic offset c goes: the shorter way round a ring (the
// only way on a line). The tie c = n/2 on a ring pairs s with s + n/2 and sends pair p =
// s mod n/2 clockwise when p is even: two clockwise arcs of a pair tile the ring, and so
// do two counter-clockwise ones.
int arc_delta(int n, bool wrap, int s, int c) {
  if (!wrap) return (s + c) % n - s;
  if (2 * c < n) return c;
  if (2 * c > n) return c - n;
  return (s % (n / 2)) % 2 == 0 ? c : -c;
}

// First-fit colouring of a class's arcs into rounds, in start order, each arc into the
// first round where its channels are free (the clockwise and counter-clockwise channels
// of one link are different channels). On a line this is the left-endpoint order that
// colours an interval graph optimally; the ring tilings below do better than first fit.
std::vector<std::vector<Arc>> first_fit_rounds(int n, bool wrap, const std::vector<int>& offsets) {
  std::vector<Arc> arcs;
  for (int s = 0; s < n; ++s)
    for (const int c : offsets) arcs.push_back({s, arc_delta(n, wrap, s, c)});
  std::stable_sort(arcs.begin(), arcs.end(), [](const Arc& a, const Arc& b) {
    return a.start != b.start ? a.start < b.start : std::abs(a.delta) > std::abs(b.delta);
  });
  // Busy channels of each round as bits: bit dir * n + v is the channel leaving v
  // clockwise (dir 0) or counter-clockwise (dir 1). An arc's channels are one circular
  // range of those bits, checked a word at a time (long rings have long arcs).
  const std::size_t words = (2 * static_cast<std::size_t>(n) + 63) / 64;
  std::vector<std::vector<Arc>> rounds;
  std::vector<std::vector<std::uint64_t>> busy;
  auto each_word = [&](const Arc& a, auto&& visit) {  // visit(word, mask) until false
    const int len = std::abs(a.delta);
    const int dir = a.delta > 0 ? 0 : 1;
    const int lo = a.delta > 0 ? a.start : ((a.start - len + 1) % n + n) % n;
    for (const auto& [from, count] : {std::pair<int, int>{lo, std::min(len, n - lo)},
                                     std::pair<int, int>{0, len - std::min(len, n - lo)}}) {
      std::size_t bit = static_cast<std::size_t>(dir) * n + from, left = count;
      while (left > 0) {
        const std::size_t take = std::min<std::size_t>(left, 64 - bit % 64);
        const std::uint64_t mask =
            (take == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << take) - 1)) << (bit % 64);
        if (!visit(bit / 64, mask)) return false;
        bit += take;
        left -= take;
      }
    }
    return true;
  };
  for (const Arc& a : arcs) {
    std::size_t r = 0;
    while (r < rounds.size() &&
           !each_word(a, [&](std::size_t w, std::uint64_t m) { return !(busy[r][w] & m); }))
      ++r;
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back(words, 0);
    }
    each_word(a, [&](std::size_t w, std::uint64_t m) { return (busy[r][w] |= m, true); });
    rounds[r].push_back(a);
  }
  return rounds;
}

// The 1-D template of a ring or line of n processors: class {0} (no rounds) first, then
// classes covering every nonzero cyclic offset once.
//
// Candidate templates of an odd ring, n = 2m + 1 (class {0} first in each), for the
// flow shop to choose from: no choice is best for every grid (big classes pack better,
// small ones pipeline better).
//  - Groups of distinct lengths (at most four) summing to n tile the ring in one round
//    each way; n rotations give every start every length once, in n rounds that use every
//    channel. The lengths no group takes are packed by first fit, one class per length
//    or all in one class, or put into bins of total length at most n, each bin laid end
//    to end in n rotations (the only candidate past kFirstFitPairsUpTo).
//  - Pairs {d, m - d} packed by first fit.
std::vector<std::vector<OffsetClass>> odd_ring_templates(int n) {
  auto mod = [n](int x) { return ((x % n) + n) % n; };
  const int m = n / 2;
  std::vector<OffsetClass> grouped{{{0}, {}}};
  std::vector<bool> used(m + 1, false);
  // Distinct unused lengths below `below` summing to `rest`, at most `more` of them.
  std::vector<int> pick;
  auto complete = [&](auto&& self, int rest, int below, int more) -> bool {
    if (rest > more * (below - 1)) return false;  // even the largest lengths fall short
    for (int b = std::min(rest, below - 1); b >= 1; --b) {
      if (used[b]) continue;
      pick.push_back(b);
      if (b == rest || (more > 1 && self(self, rest - b, b, more - 1))) return true;
      pick.pop_back();
    }
    return false;
  };
  // Lengths summing to at most n, laid end to end from s clockwise and from s + j
  // counter-clockwise, in the n rotations s: every start gets every length once.
  auto rotation_class = [&](const std::vector<int>& lengths) {
    OffsetClass g;
    for (const int x : lengths) {
      g.offsets.push_back(x);
      g.offsets.push_back(n - x);
    }
    // The clockwise tiling from s has its processors at the partial sums; the
    // counter-clockwise one starts at s + j, j chosen so that the two share the fewest
    // processors (none, when one port is to suffice).
    std::vector<int> cw{0}, ccw{0};
    for (std::size_t i = 0; i + 1 < lengths.size(); ++i) {
      cw.push_back(cw.back() + lengths[i]);
      ccw.push_back(ccw.back() - lengths[i]);
    }
    int best_j = 0, best_shared = n + 1;
    for (int j = 0; j < n && best_shared > 0; ++j) {
      int shared = 0;
      for (const int c : ccw)
        shared += static_cast<int>(std::count(cw.begin(), cw.end(), mod(j + c)));
      if (shared < best_shared) {
        best_shared = shared;
        best_j = j;
      }
    }
    for (int s0 = 0; s0 < n; ++s0) {
      std::vector<Arc> round;
      for (std::size_t i = 0; i < lengths.size(); ++i) {
        round.push_back({mod(s0 + cw[i]), lengths[i]});
        round.push_back({mod(s0 + best_j + ccw[i]), -lengths[i]});
      }
      g.rounds.push_back(std::move(round));
    }
    return g;
  };
  for (int len = m; len >= 1; --len) {
    if (used[len]) continue;
    pick = {len};
    if (!complete(complete, n - len, len, 3)) continue;
    for (const int x : pick) used[x] = true;
    grouped.push_back(rotation_class(pick));
  }
  // The leftover lengths into bins of total length at most n (first fit decreasing), a
  // rotation class each; the only candidate on long rings, where first fit would try
  // every round for every arc.
  std::vector<OffsetClass> binned = grouped;
  {
    std::vector<std::vector<int>> bins;
    std::vector<int> room;
    for (int len = m; len >= 1; --len) {
      if (used[len]) continue;
      std::size_t b = 0;
      while (b < bins.size() && room[b] < len) ++b;
      if (b == bins.size()) {
        bins.emplace_back();
        room.push_back(n);
      }
      bins[b].push_back(len);
      room[b] -= len;
    }
    for (const auto& bin : bins) binned.push_back(rotation_class(bin));
  }
  if (n > kFirstFitPairsUpTo) return {binned};
  std::vector<OffsetClass> singles = grouped, lumped = grouped;
  std::vector<int> rest;
  for (int len = 1; len <= m; ++len) {
    if (used[len]) continue;
    singles.push_back({{len, n - len}, first_fit_rounds(n, true, {len, n - len})});
    rest.push_back(len);
    rest.push_back(n - len);
  }
  if (!rest.empty()) lumped.push_back({rest, first_fit_rounds(n, true, rest)});

  std::vector<OffsetClass> pairs{{{0}, {}}};
  std::fill(used.begin(), used.end(), false);
  for (int d = 1; d <= m; ++d) {
    if (used[d]) continue;
    std::vector<int> offsets{d, n - d};
    used[d] = true;
    if (const int e = m - d; e >= 1 && !used[e]) {
      offsets.push_back(e);
      offsets.push_back(n - e);
      used[e] = true;
    }
    pairs.push_back({offsets, first_fit_rounds(n, true, offsets)});
  }
  return {singles, lumped, pairs, binned};
}

// Even ring, n = 2h (the tiling of docs/ENGINES.md): offsets {d, h-d} and their
// negatives for 1 <= d < h/2 in h rounds (round s: clockwise arcs from s, s+d, s+h,
// s+h+d of lengths d, h-d, d, h-d tile the ring; a counter-clockwise tiling of the same
// lengths, shifted so that no processor is in both), {h/2, -h/2} in h/2 rounds when h is
// even (four arcs tile the ring each way), {h} in ceil(h/2) rounds (one pair of arcs each
// way). Every round but the last of {h} (h odd) uses every channel, so the template takes
// ceil(n^2/8) rounds, the ring's channel-load bound.
//
// Odd rings: odd_ring_templates above. A line takes one class per offset c (clockwise
// intervals of length c, counter-clockwise of length n-c), min(c, n-c) rounds each,
// floor(n^2/4) in all: the load of its middle link.
std::vector<OffsetClass> line_template(int n, bool wrap) {
  std::vector<OffsetClass> classes;
  classes.push_back({{0}, {}});
  if (n < 2) return classes;
  auto mod = [n](int x) { return ((x % n) + n) % n; };
  if (wrap && n % 2 == 0 && n >= 4) {
    const int h = n / 2;
    for (int d = 1; 2 * d < h; ++d) {
      OffsetClass g{{d, h - d, n - d, h + d}, {}};
      // The counter-clockwise tiling starts j after the clockwise one, so that its
      // processors {s + j, s + j - d} (mod n/2) miss the clockwise {s, s + d}: j avoids
      // 0, d and 2d (j = 2d + 1 when that is below n/2). Then no processor sends or
      // receives twice in a round, and one port is enough.
      int j = 2 * d + 1;
      if (j >= h) {
        j = 1;
        while (j < h && (j == d || j == (2 * d) % h)) ++j;
      }
      for (int s = 0; s < h; ++s) {
        std::vector<Arc> round;
        for (const int base : {s, s + h}) {
          round.push_back({mod(base), d});
          round.push_back({mod(base + d), h - d});
          round.push_back({mod(base + j), -d});
          round.push_back({mod(base + j - d), -(h - d)});
        }
        g.rounds.push_back(std::move(round));
      }
      classes.push_back(std::move(g));
    }
    if (h % 2 == 0) {
      const int q = h / 2;
      OffsetClass quarter{{q, n - q}, {}};
      for (int s = 0; s < q; ++s) {
        std::vector<Arc> round;
        for (int i = 0; i < 4; ++i) {
          round.push_back({mod(s + i * q), q});
          round.push_back({mod(s + 1 + i * q), -q});  // one port apart when n/4 > 1
        }
        quarter.rounds.push_back(std::move(round));
      }
      classes.push_back(std::move(quarter));
    }
    // Offset n/2: the pairs {p, p + n/2} go clockwise for even p (arc_delta), one pair
    // each way per round.
    OffsetClass half{{h}, {}};
    for (int p = 0; p < h; p += 2) {
      std::vector<Arc> round;
      for (const int start : {p, p + 1})
        if (start < h)
          for (const int at : {start, start + h}) round.push_back({at, arc_delta(n, true, at, h)});
      half.rounds.push_back(std::move(round));
    }
    classes.push_back(std::move(half));
    return classes;
  }
  if (wrap && n == 2) {
    classes.push_back({{1}, first_fit_rounds(n, wrap, {1})});
    return classes;
  }
  if (wrap) return odd_ring_templates(n).front();
  // Line: what first fit in left-end order gives, in closed form (first fit itself costs
  // n^4 over all classes): clockwise intervals of length c from s go to round s mod c,
  // counter-clockwise ones of length L = n - c from s (s >= L) to round (s - L) mod L;
  // intervals of one round are at least their length apart, and min(c, n - c) rounds
  // are used either way.
  for (int c = 1; c < n; ++c) {
    const int len = n - c;
    OffsetClass g{{c}, std::vector<std::vector<Arc>>(std::min(c, len))};
    for (int st = 0; st + c < n; ++st) g.rounds[st % c].push_back({st, c});
    for (int st = len; st < n; ++st) g.rounds[(st - len) % len].push_back({st, -len});
    classes.push_back(std::move(g));
  }
  return classes;
}

std::vector<std::vector<OffsetClass>> line_templates(int n, bool wrap) {
  if (wrap && n % 2 == 1 && n >= 3) return odd_ring_templates(n);
  return {line_template(n, wrap)};
}

// One transfer of the design before its step is final.
struct Segment {
  MessageId message = 0;
  NodeId from = 0;
  std::int32_t step = 0;
  std::int16_t delta = 0;
  std::int8_t dim = 0;
};

struct Layout {
  std::vector<int> dims;
  std::vector<int> stride;
  int nodes = 1;
  NodeId node(const std::vector<int>& coord) const {
    NodeId id = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) id += coord[i] * stride[i];
    return id;
  }
  // The node `hops` steps from `at` along dimension `dim` (hops of one sign).
  NodeId move(NodeId at, int dim, int hops) const {
    const int c = at / stride[dim] % dims[dim];
    const int to = ((c + hops) % dims[dim] + dims[dim]) % dims[dim];
    return at + (to - c) * stride[dim];
  }
};

// Johnson's rule on two machines with times a and b: jobs with a < b first by a
// ascending, then the rest by b descending (optimal for two machines).
std::vector<std::size_t> johnson_order(const std::vector<std::pair<long long, long long>>& ab) {
  std::vector<std::size_t> first, last;
  for (std::size_t j = 0; j < ab.size(); ++j)
    (ab[j].first < ab[j].second ? first : last).push_back(j);
  std::stable_sort(first.begin(), first.end(),
                   [&](std::size_t x, std::size_t y) { return ab[x].first < ab[y].first; });
  std::stable_sort(last.begin(), last.end(),
                   [&](std::size_t x, std::size_t y) { return ab[x].second > ab[y].second; });
  first.insert(first.end(), last.begin(), last.end());
  return first;
}

// The all-port design: every segment with its step.
// The jobs of one choice of templates and when each of their phases starts.
struct JobPlan {
  std::vector<std::vector<int>> jobs;             // one class index per dimension
  std::vector<std::vector<long long>> work;       // rounds per phase
  std::vector<std::size_t> order;                 // the job order
  std::vector<std::vector<long long>> first_step; // first step of each phase
  std::vector<bool> reversed;                     // 2-D: the job routes Y before X
  long long makespan = 0;
};

// Two dimensions as a job shop (Jackson's rule): a job may route its messages Y first
// (each segment is still a shortest path), so that both machines start busy. Machine X
// runs the X-first jobs (Johnson's order), then the reversed ones; machine Y the
// reversed jobs (Johnson's order with the machines swapped), then the X-first ones; a
// second phase waits for its first. Returns the makespan and fills first_step.
long long job_shop(const std::vector<std::vector<long long>>& work,
                   const std::vector<bool>& reversed,
                   std::vector<std::vector<long long>>& first_step) {
  std::vector<std::pair<long long, long long>> ab(work.size());
  for (std::size_t j = 0; j < work.size(); ++j)
    ab[j] = reversed[j] ? std::pair{work[j][1], work[j][0]} : std::pair{work[j][0], work[j][1]};
  const auto order = johnson_order(ab);
  first_step.assign(work.size(), std::vector<long long>(2, 0));
  std::vector<long long> free{1, 1};
  long long makespan = 0;
  // First phases on their machines, then second phases (which wait for the first).
  for (const bool second : {false, true})
    for (const int machine : {0, 1})
      for (const std::size_t j : order) {
        const int first_machine = reversed[j] ? 1 : 0;
        if ((machine == first_machine) == second || work[j][machine] == 0) continue;
        long long start = free[machine];
        const int other = 1 - machine;
        if (second && work[j][other] > 0)
          start = std::max(start, first_step[j][other] + work[j][other]);
        first_step[j][machine] = start;
        free[machine] = start + work[j][machine];
        makespan = std::max(makespan, free[machine] - 1);
      }
  return makespan;
}

JobPlan plan_jobs(const std::vector<std::vector<OffsetClass>>& templ) {
  const int dims = static_cast<int>(templ.size());
  JobPlan plan;
  // Jobs: one class per dimension (not all {0}). Phase p of a job is its rounds in
  // dimension p: every round of its class there, once per copy, a copy being a choice of
  // one offset from each other dimension's class.
  std::vector<int> pick(dims, 0);
  while (true) {
    if (std::any_of(pick.begin(), pick.end(), [](int x) { return x != 0; }))
      plan.jobs.push_back(pick);
    int i = dims - 1;
    while (i >= 0 && ++pick[i] == static_cast<int>(templ[i].size())) pick[i--] = 0;
    if (i < 0) break;
  }
  plan.work.assign(plan.jobs.size(), std::vector<long long>(dims));
  for (std::size_t j = 0; j < plan.jobs.size(); ++j)
    for (int p = 0; p < dims; ++p) {
      long long copies = 1;
      for (int o = 0; o < dims; ++o)
        if (o != p) copies *= static_cast<long long>(templ[o][plan.jobs[j][o]].offsets.size());
      plan.work[j][p] = copies * static_cast<long long>(templ[p][plan.jobs[j][p]].rounds.size());
    }
  // Job orders: Johnson's rule on the first and last machine's sums over k machines
  // (Campbell, Dudek and Smith: k = 1 .. dims - 1; for two machines, Johnson alone).
  std::vector<std::vector<std::size_t>> orders;
  for (int k = 1; k < std::max(dims, 2); ++k) {
    std::vector<std::pair<long long, long long>> ab;
    for (const auto& w : plan.work) {
      long long a = 0, b = 0;
      for (int i = 0; i < k && i < dims; ++i) {
        a += dims == 1 ? 0 : w[i];
        b += w[dims - 1 - i];
      }
      ab.emplace_back(a, b);
    }
    orders.push_back(johnson_order(ab));
  }
  // Phase p of a job waits for its machine (dimension p) and for the job's latest
  // nonempty earlier phase.
  for (auto& order : orders) {
    std::vector<std::vector<long long>> first_step(plan.jobs.size(),
                                                   std::vector<long long>(dims, 0));
    std::vector<long long> machine_free(dims, 1);
    long long makespan = 0;
    for (const std::size_t j : order) {
      long long previous_end = 0;
      for (int p = 0; p < dims; ++p) {
        if (plan.work[j][p] == 0) continue;
        first_step[j][p] = std::max(machine_free[p], previous_end + 1);
        machine_free[p] = first_step[j][p] + plan.work[j][p];
        previous_end = machine_free[p] - 1;
        makespan = std::max(makespan, previous_end);
      }
    }
    if (plan.order.empty() || makespan < plan.makespan) {
      plan.order = std::move(order);
      plan.first_step = std::move(first_step);
      plan.makespan = makespan;
    }
  }
  plan.reversed.assign(plan.jobs.size(), false);
  if (dims == 2) {
    // Flip jobs to Y-first one at a time, largest first, while the job shop gets shorter.
    std::vector<std::size_t> by_size(plan.jobs.size());
    std::iota(by_size.begin(), by_size.end(), std::size_t{0});
    std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t x, std::size_t y) {
      return plan.work[x][0] + plan.work[x][1] > plan.work[y][0] + plan.work[y][1];
    });
    std::vector<bool> reversed(plan.jobs.size(), false);
    std::vector<std::vector<long long>> first_step;
    long long best = job_shop(plan.work, reversed, first_step);
    for (const std::size_t j : by_size) {
      if (plan.work[j][0] == 0 || plan.work[j][1] == 0) continue;
      reversed[j] = true;
      if (const long long t = job_shop(plan.work, reversed, first_step); t < best)
        best = t;
      else
        reversed[j] = false;
    }
    if (best < plan.makespan) {
      job_shop(plan.work, reversed, plan.first_step);
      plan.reversed = reversed;
      plan.makespan = best;
      // Emit (and search port offsets) in order of the jobs' first steps.
      std::stable_sort(plan.order.begin(), plan.order.end(), [&](std::size_t x, std::size_t y) {
        auto first = [&](std::size_t j) {
          long long f = std::numeric_limits<long long>::max();
          for (int p = 0; p < 2; ++p)
            if (plan.work[j][p] > 0) f = std::min(f, plan.first_step[j][p]);
          return f;
        };
        return first(x) < first(y);
      });
    }
  }
  return plan;
}

std::vector<Segment> flow_shop_design(const GridShape& shape, const Layout& lay,
                                      const std::vector<MessageId>& message_of, int ports) {
  const int dims = static_cast<int>(shape.dims.size());
  // Every combination of the dimensions' candidate templates; the shortest plan wins.
  std::vector<std::vector<std::vector<OffsetClass>>> candidates;
  for (const int n : shape.dims) candidates.push_back(line_templates(n, shape.wrap));
  std::vector<std::vector<OffsetClass>> templ;
  JobPlan plan;
  std::vector<std::size_t> choice(dims, 0);
  while (true) {
    std::vector<std::vector<OffsetClass>> trial;
    for (int p = 0; p < dims; ++p) trial.push_back(candidates[p][choice[p]]);
    JobPlan trial_plan = plan_jobs(trial);
    if (templ.empty() || trial_plan.makespan < plan.makespan) {
      templ = std::move(trial);
      plan = std::move(trial_plan);
    }
    int i = dims - 1;
    while (i >= 0 && ++choice[i] == candidates[i].size()) choice[i--] = 0;
    if (i < 0) break;
  }
  const auto& jobs = plan.jobs;
  const auto& work = plan.work;
  const auto& order = plan.order;
  const auto& first_step = plan.first_step;
  const long long makespan = plan.makespan;

  // The lines of each dimension (their first node) and a key that staggers them: line
  // `base` runs the rounds of a copy cyclically from round (key + offset) mod R (forwards
  // in even dimensions, backwards in odd ones), so the processors busy in one dimension
  // lie on diagonals rather than on whole lines, the diagonals of two dimensions move
  // together, and an offset can be chosen that keeps them apart (on a 2h-ring the busy
  // processors of a round of {d, h-d} are s + {0, d, d+1, 2d+1} mod h when 2d+1 < h, a
  // set symmetric about its centre, so two dimensions clash in a fixed pattern that one
  // offset removes whenever the sets are at most half of Z_h).
  std::vector<std::vector<std::pair<NodeId, int>>> lines(dims);
  for (NodeId base = 0; base < lay.nodes; ++base)
    for (int p = 0; p < dims; ++p) {
      if (base / lay.stride[p] % lay.dims[p] != 0) continue;
      int key = 0;
      for (int o = 0; o < dims; ++o) key += base / lay.stride[o] % lay.dims[o];
      lines[p].emplace_back(base, key);
    }
  // Ports in use per step and processor, kept only under a k-port model.
  const bool count_ports = ports < std::numeric_limits<int>::max();
  std::vector<std::uint8_t> sends, receives;
  if (count_ports) {
    sends.assign(static_cast<std::size_t>(makespan + 1) * lay.nodes, 0);
    receives.assign(sends.size(), 0);
  }

  std::vector<Segment> segments;
  const auto messages = static_cast<std::size_t>(lay.nodes) * (lay.nodes - 1);
  segments.reserve(messages * 2);
  for (const std::size_t j : order) {
    for (int pi = 0; pi < dims; ++pi) {
      // The job's dimension order: 0, 1, .. or, for a reversed 2-D job, 1, 0.
      const int p = plan.reversed[j] ? dims - 1 - pi : pi;
      std::vector<bool> done(dims, false);
      for (int qi = 0; qi < pi; ++qi) done[plan.reversed[j] ? dims - 1 - qi : qi] = true;
      if (work[j][p] == 0) continue;
      const auto& cls = templ[p][jobs[j][p]];
      const int rounds = static_cast<int>(cls.rounds.size());
      const int n = lay.dims[p];
      // Every copy: one offset from each other dimension's class.
      std::vector<std::vector<int>> copies{std::vector<int>(dims, 0)};
      for (int o = 0; o < dims; ++o) {
        if (o == p) continue;
        std::vector<std::vector<int>> more;
        for (const auto& c : copies)
          for (const int off : templ[o][jobs[j][o]].offsets) {
            more.push_back(c);
            more.back()[o] = off;
          }
        copies = std::move(more);
      }
      // Walks the phase with a given offset: counts port clashes with what is placed,
      // or places it.
      auto walk = [&](int offset, bool place) {
        long long clashes = 0;
        for (std::size_t ci = 0; ci < copies.size(); ++ci)
          for (int i = 0; i < rounds; ++i) {
            const long long step = first_step[j][p] + static_cast<long long>(ci) * rounds + i;
            const std::size_t row = static_cast<std::size_t>(step) * lay.nodes;
            for (const auto& [base, key] : lines[p]) {
              // Odd dimensions run the cycle backwards: the busy diagonals of two
              // dimensions then move the same way and an offset keeps them apart.
              const int at = p % 2 == 0 ? i : rounds - 1 - i;
              const auto& round = cls.rounds[(at + key + offset) % rounds];
              for (const Arc& a : round) {
                const NodeId from = base + a.start * lay.stride[p];
                const int end = ((a.start + a.delta) % n + n) % n;
                const NodeId to = base + end * lay.stride[p];
                if (!place) {
                  clashes += (sends[row + from] >= ports) + (receives[row + to] >= ports);
                  continue;
                }
                if (count_ports) {
                  ++sends[row + from];
                  ++receives[row + to];
                }
                // Dimensions done before p are at the target, the others at the origin.
                NodeId origin = 0, target = 0;
                for (int o = 0; o < dims; ++o) {
                  const int m = lay.dims[o];
                  const int c = base / lay.stride[o] % m;
                  int oc = c, tc = c;
                  if (done[o]) oc = (c - copies[ci][o] + m) % m;
                  if (!done[o] && o != p) tc = (c + copies[ci][o]) % m;
                  if (o == p) {
                    oc = a.start;
                    tc = end;
                  }
                  origin += oc * lay.stride[o];
                  target += tc * lay.stride[o];
                }
                Segment sg;
                sg.message = message_of[static_cast<std::size_t>(origin) * lay.nodes + target];
                sg.from = from;
                sg.step = static_cast<std::int32_t>(step);
                sg.delta = static_cast<std::int16_t>(a.delta);
                sg.dim = static_cast<std::int8_t>(p);
                segments.push_back(sg);
              }
            }
          }
        return clashes;
      };
      int best = 0;
      if (count_ports) {
        long long fewest = std::numeric_limits<long long>::max();
        for (int offset = 0; offset < rounds && fewest > 0; ++offset)
          if (const long long c = walk(offset, false); c < fewest) {
            fewest = c;
            best = offset;
          }
      }
      walk(best, true);
    }
  }
  return segments;
}

// The channels a segment uses, in path order.
// Calls visit(node) for every node a segment reaches after its first, in order; one
// division per segment, not per hop (a ring:1000 schedule has 250 M hops).
template <typename Visit>
void walk_segment(const Segment& s, const Layout& lay, Visit&& visit) {
  const int n = lay.dims[s.dim], stride = lay.stride[s.dim];
  int c = s.from / stride % n;
  const NodeId base = s.from - c * stride;
  const int step = s.delta > 0 ? 1 : n - 1;
  for (int i = 0; i < std::abs(s.delta); ++i) {
    c += step;
    if (c >= n) c -= n;
    visit(base + c * stride);
  }
}

void segment_channels(const Segment& s, const Layout& lay, const std::vector<ChannelId>& link,
                      std::vector<ChannelId>& out) {
  out.clear();
  const auto dims = static_cast<std::size_t>(lay.dims.size());
  const int dir = s.delta > 0 ? 0 : 1;
  NodeId at = s.from;
  walk_segment(s, lay, [&](NodeId next) {
    out.push_back(link[(static_cast<std::size_t>(at) * dims + s.dim) * 2 + dir]);
    at = next;
  });
}

// Channels and ports in use, step by step, for the first-fit placements below; rows are
// added as later steps are reached.
class Occupancy {
 public:
  Occupancy(int channels, int nodes, int ports)
      : channels_(channels), nodes_(nodes), ports_(ports) {}

  // The first step from `t` on where `path` is free and `from` can send and `to` receive;
  // takes it.
  std::size_t place(std::size_t t, NodeId from, NodeId to, const std::vector<ChannelId>& path) {
    while (!fits(t, from, to, path)) ++t;
    for (const ChannelId c : path) busy_[t * channels_ + c] = 1;
    ++sends_[t * nodes_ + from];
    ++receives_[t * nodes_ + to];
    return t;
  }
  bool can_send(std::size_t t, NodeId v) {
    row(t);
    return sends_[t * nodes_ + v] < ports_;
  }
  bool can_receive(std::size_t t, NodeId v) {
    row(t);
    return receives_[t * nodes_ + v] < ports_;
  }

 private:
  void row(std::size_t t) {
    if (t < capacity_) return;
    capacity_ = std::max(t + 1, capacity_ * 2);
    busy_.resize(capacity_ * channels_, 0);
    sends_.resize(capacity_ * nodes_, 0);
    receives_.resize(capacity_ * nodes_, 0);
  }
  bool fits(std::size_t t, NodeId from, NodeId to, const std::vector<ChannelId>& path) {
    if (!can_send(t, from) || !can_receive(t, to)) return false;
    for (const ChannelId c : path)
      if (busy_[t * channels_ + c]) return false;
    return true;
  }

  int channels_, nodes_, ports_;
  std::size_t capacity_ = 0;
  std::vector<std::uint8_t> busy_, sends_, receives_;  // [step][channel], [step][node]
};

// k-port repair: the segments in the all-port order, each into the first step where its
// channels are free and its two end processors have a port left, from `slack` steps
// before its all-port step (holes left by earlier displacements get filled; a wider
// window gains little and scans much longer) and after its message's previous segment.
void list_schedule(std::vector<Segment>& segments, const Layout& lay, int ports,
                   int channels, const std::vector<ChannelId>& link,
                   std::size_t message_count) {
  constexpr std::int32_t slack = 16;
  std::stable_sort(segments.begin(), segments.end(),
                   [](const Segment& a, const Segment& b) { return a.step < b.step; });
  std::vector<std::int32_t> last(message_count, 0);
  Occupancy used(channels, lay.nodes, ports);
  std::vector<ChannelId> path;
  for (Segment& s : segments) {
    segment_channels(s, lay, link, path);
    const auto from = static_cast<std::size_t>(std::max(last[s.message] + 1, s.step - slack));
    s.step = static_cast<std::int32_t>(
        used.place(from, s.from, lay.move(s.from, s.dim, s.delta), path));
    last[s.message] = s.step;
  }
}

// Direct delivery under k ports: every message one transfer along its dimension-ordered
// route (the segments of arc_delta, joined; a shortest path), first fit in the given
// message order. On small grids the relays of the flow-shop design cost more than they
// save: a relayed message is received twice, and under one port the receptions, not the
// channels, bound the schedule (2 (k-1) + (k-1)^2 per processor on a k x k torus).
std::vector<Segment> direct_schedule(const GridShape& shape, const Layout& lay,
                                     const std::vector<std::pair<NodeId, NodeId>>& pairs,
                                     const std::vector<MessageId>& ids, int ports,
                                     int channels, const std::vector<ChannelId>& link) {
  const int dims = static_cast<int>(lay.dims.size());
  std::vector<Segment> segments;
  segments.reserve(pairs.size() * dims);
  Occupancy used(channels, lay.nodes, ports);
  // The first step at which a processor may still send (receive): they only grow.
  std::vector<std::size_t> send_from(lay.nodes, 1), receive_from(lay.nodes, 1);
  std::vector<ChannelId> path, part;
  std::vector<Segment> parts;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto [origin, target] = pairs[i];
    path.clear();
    parts.clear();
    NodeId at = origin;
    for (int p = 0; p < dims; ++p) {
      const int n = lay.dims[p];
      const int oc = at / lay.stride[p] % n, tc = target / lay.stride[p] % n;
      if (oc == tc) continue;
      Segment sg;
      sg.message = ids[i];
      sg.from = at;
      sg.delta = static_cast<std::int16_t>(arc_delta(n, shape.wrap, oc, (tc - oc + n) % n));
      sg.dim = static_cast<std::int8_t>(p);
      segment_channels(sg, lay, link, part);
      path.insert(path.end(), part.begin(), part.end());
      parts.push_back(sg);
      at = lay.move(at, p, sg.delta);
    }
    while (!used.can_send(send_from[origin], origin)) ++send_from[origin];
    while (!used.can_receive(receive_from[target], target)) ++receive_from[target];
    const std::size_t t =
        used.place(std::max(send_from[origin], receive_from[target]), origin, target, path);
    for (Segment sg : parts) {
      sg.step = static_cast<std::int32_t>(t);
      segments.push_back(sg);
    }
  }
  return segments;
}

// True when some processor is the first (or last) node of more than `ports` segments of
// one step.
bool exceeds_ports(const std::vector<Segment>& segments, const Layout& lay, int ports) {
  std::int32_t steps = 0;
  for (const auto& s : segments) steps = std::max(steps, s.step);
  std::vector<std::uint8_t> sends(static_cast<std::size_t>(steps + 1) * lay.nodes, 0);
  std::vector<std::uint8_t> receives(sends.size(), 0);
  for (const auto& s : segments) {
    const std::size_t row = static_cast<std::size_t>(s.step) * lay.nodes;
    if (++sends[row + s.from] > ports) return true;
    if (++receives[row + lay.move(s.from, s.dim, s.delta)] > ports) return true;
  }
  return false;
}

}  // namespace

std::optional<Schedule> grid_aas_schedule(const Problem& problem) {
  const auto& model = problem.model;
  if (model.switching != Switching::wormhole || is_reduction(problem.collective) ||
      (model.ports && *model.ports < 1))
    return std::nullopt;
  const auto shape = recognise_grid(problem.topology);
  if (!shape) return std::nullopt;
  Layout lay;
  lay.dims = shape->dims;
  lay.stride.assign(lay.dims.size(), 1);
  for (std::size_t i = lay.dims.size() - 1; i-- > 0;)
    lay.stride[i] = lay.stride[i + 1] * lay.dims[i + 1];
  for (const int d : lay.dims) lay.nodes *= d;
  if (lay.nodes != problem.topology.node_count()) return std::nullopt;
  for (const int d : lay.dims)
    if (d > 32767) return std::nullopt;  // deltas are stored in 16 bits

  // The pattern: one single-target message per ordered pair of processors.
  const auto& messages = problem.collective.messages;
  const std::size_t p = static_cast<std::size_t>(lay.nodes);
  if (messages.size() != p * (p - 1)) return std::nullopt;
  std::vector<MessageId> message_of(p * p, -1);
  for (const auto& m : messages) {
    if (m.targets.size() != 1 || m.origin < 0 || m.origin >= lay.nodes) return std::nullopt;
    const NodeId t = m.targets.front();
    if (t < 0 || t >= lay.nodes || t == m.origin) return std::nullopt;
    auto& slot = message_of[static_cast<std::size_t>(m.origin) * p + t];
    if (slot != -1) return std::nullopt;
    slot = m.id;
  }

  auto segments = flow_shop_design(*shape, lay, message_of,
                                   model.ports ? *model.ports : std::numeric_limits<int>::max());

  // Channel of each (node, dimension, direction), for the repair and the paths.
  const int dims = static_cast<int>(lay.dims.size());
  std::vector<ChannelId> link(p * dims * 2, kNoChannel);
  for (NodeId v = 0; v < lay.nodes; ++v)
    for (int d = 0; d < dims; ++d)
      for (int dir = 0; dir < 2; ++dir) {
        const NodeId w = lay.move(v, d, dir == 0 ? 1 : -1);
        if (w == v) continue;
        if (const auto c = problem.topology.find_channel(v, w))
          link[(static_cast<std::size_t>(v) * dims + d) * 2 + dir] = *c;
      }
  const int channels = problem.topology.channel_count();
  if (model.ports && exceeds_ports(segments, lay, *model.ports))
    list_schedule(segments, lay, *model.ports, channels, link, messages.size());
  if (model.ports && lay.nodes <= kDirectUpTo) {
    // Message orders for the first fit: longest routes first (the hardest to fit), and on
    // small meshes, where a second try is cheap, largest cyclic offsets (target - origin
    // mod n, summed over dimensions) first, which measured better there; ties by message
    // id. The shortest schedule wins.
    auto key = [&](const Message& m, bool cyclic) {
      int h = 0;
      for (std::size_t d = 0; d < lay.dims.size(); ++d) {
        const int n = lay.dims[d];
        const int oc = m.origin / lay.stride[d] % n;
        const int tc = m.targets.front() / lay.stride[d] % n;
        const int c = (tc - oc + n) % n;
        h += cyclic ? std::abs(arc_delta(n, shape->wrap, 0, c))
                    : std::abs(arc_delta(n, shape->wrap, oc, c));
      }
      return h;
    };
    auto last_step = [](const std::vector<Segment>& v) {
      std::int32_t most = 0;
      for (const auto& sg : v) most = std::max(most, sg.step);
      return most;
    };
    for (const bool cyclic : {false, true}) {
      // On a torus both keys are the route length.
      if (cyclic && (shape->wrap || lay.nodes > kDirectTwiceUpTo)) continue;
      std::vector<std::pair<int, MessageId>> order;
      for (const auto& m : messages) order.emplace_back(key(m, cyclic), m.id);
      std::stable_sort(order.begin(), order.end(),
                       [](const auto& x, const auto& y) { return x.first > y.first; });
      std::vector<std::pair<NodeId, NodeId>> pairs;
      std::vector<MessageId> ids;
      for (const auto& [k, id] : order) {
        pairs.emplace_back(messages[id].origin, messages[id].targets.front());
        ids.push_back(id);
      }
      auto direct = direct_schedule(*shape, lay, pairs, ids, *model.ports, channels, link);
      if (last_step(direct) < last_step(segments)) segments = std::move(direct);
    }
  }

  // Transfers in step order, steps renumbered densely (a dimension may idle between
  // jobs; dropping an empty step keeps every rule, as in assemble_schedule, whose
  // stable sort would need a second copy of two million transfers). Consecutive segments
  // of one message in one step are one transfer (direct delivery), in dimension order.
  std::sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
    if (a.step != b.step) return a.step < b.step;
    return a.message != b.message ? a.message < b.message : a.dim < b.dim;
  });
  Schedule schedule;
  auto& transfers = schedule.transfers;
  transfers.reserve(segments.size());
  Step previous = 0;
  for (std::size_t i = 0; i < segments.size();) {
    std::size_t end = i + 1;
    std::size_t hops = std::abs(segments[i].delta);
    while (end < segments.size() && segments[end].message == segments[i].message &&
           segments[end].step == segments[i].step)
      hops += std::abs(segments[end++].delta);
    if (segments[i].step != previous) {
      previous = segments[i].step;
      ++schedule.steps;
    }
    Transfer t;
    t.step = schedule.steps;
    t.messages.push_back(segments[i].message);
    t.path.reserve(hops + 1);
    t.path.push_back(segments[i].from);
    for (; i < end; ++i)
      walk_segment(segments[i], lay, [&](NodeId next) { t.path.push_back(next); });
    transfers.push_back(std::move(t));
  }
  segments.clear();
  segments.shrink_to_fit();
  schedule.topology = problem.topology;
  schedule.collective = problem.collective;
  schedule.model = problem.model;
  schedule.solver = SolverInfo{"grid-design", 0, 0.0};
  return schedule;
}

}  // namespace ccsched
