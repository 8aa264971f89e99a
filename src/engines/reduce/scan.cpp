// Prefix networks for SCAN written directly as transfers, for networks of any size whose
// family gives a minimal path between two processors in closed form (docs/ENGINES.md,
// "Reductions: direct prefix networks"). prefix.cpp and reduction.cpp pack the same networks
// through path lists, whose cost grows with the network (torus:128x128 was left to the
// packed Hillis-Steele, 222 steps); here every transfer gets one fixed path, O(p) transfers
// for Brent-Kung, and a round is placed first-fit into channel-disjoint steps.
//   - Brent-Kung, radix 2 (Brent and Kung, IEEE Trans. Computers C-31, 1982; prefix.cpp):
//     the values of a round are disjoint intervals [from, to] of the sender order, and no
//     position both sends and receives in a round (senders are at -1 mod 2s, receivers at
//     s - 1 and 2s - 1 mod 2s). On a 2-D torus or mesh with row-major ids the path goes along
//     the sender's row, then down the receiver's column: disjoint intervals give disjoint
//     paths. On the fat tree (the 2-ary n-tree of docs/TOPOLOGIES.md) a transfer that leaves
//     an aligned block of 2^(l+1) processors crosses its block's right end, so at most one
//     does a round, and the up-channels of the block's level-l switches carry at most that
//     one (down-channels likewise): every round fits one step whatever the up-links chosen.
//     2 ceil(log2 p) - 1 steps; written where Hillis-Steele's rounds do not fit.
//   - Hillis-Steele (reduction.cpp), log2 p steps: round j sends i's window to i + 2^j.
//     On the hypercube along the path that flips the differing bits from the lowest up:
//     i + 2^j differs from i in bits j..j+c (a carry of c), so the hop across dimension d
//     leaves the node u with bits j..d-1 cleared, from the one sender i = u with those bits
//     set. On the fat tree with destination-based up-links: the up-channel above level l
//     is named by (a >> (l+1), b mod 2^(l+1)), which for b = a + 2^j fixes a, and a
//     down-channel by b alone. Every channel once a round, one step a round.
#include <bit>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

// One minimal path between two processors (node sequence), in the family's closed form;
// place() finds a channel the network lacks (a faulty copy keeping the family's name) and
// the design steps aside.
using Router = std::function<std::vector<NodeId>(NodeId, NodeId)>;
// A logical round: (from, to) positions in the sender order.
using Pairs = std::vector<std::pair<int, int>>;

// The router of a 2-D torus or mesh with row-major ids: along the sender's row, then along
// the receiver's column, each the shorter way round on a torus (the sum of two ring
// distances is the torus distance, so the path is minimal).
Router grid_router(int rows, int cols, bool wrap) {
  return [=](NodeId a, NodeId b) {
    std::vector<NodeId> path{a};
    int y = a / cols, x = a % cols;
    const int yb = b / cols, xb = b % cols;
    auto walk = [&](int& coord, int target, int side) {
      const int diff = target - coord;
      int dir = diff > 0 ? 1 : -1;
      if (wrap && 2 * std::abs(diff) > side) dir = -dir;
      while (coord != target) {
        coord = ((coord + dir) % side + side) % side;
        path.push_back(static_cast<NodeId>(y * cols + x));
      }
    };
    walk(x, xb, cols);
    walk(y, yb, rows);
    return path;
  };
}

// The hypercube's router: the differing bits flipped from the lowest up.
std::vector<NodeId> cube_path(NodeId a, NodeId b) {
  std::vector<NodeId> path{a};
  unsigned u = static_cast<unsigned>(a);
  for (unsigned x = u ^ static_cast<unsigned>(b); x != 0; x &= x - 1) {
    u ^= x & (~x + 1);
    path.push_back(static_cast<NodeId>(u));
  }
  return path;
}

// The fat tree's router (docs/TOPOLOGIES.md, "Fat tree": processors 0..N-1, then the
// switches s<l>.<w> level by level, N/2 a level, s0.w holding processors 2w and 2w+1; s<l>.w
// and s<l+1>.w' are linked when w' agrees with w except in bit l): up to level h, the
// highest bit in which the processors differ, each move up from level l setting bit l of
// the word to bit l of the receiver (destination-based, as D-mod-k routing), then down
// setting bits h-1..0 to the receiver's word. The switch of level l on the way up is then
// (a >> (l+1), b mod 2^l), on the way down all of b.
Router fattree_router(long long n) {
  const long long half = n / 2;
  return [=](NodeId a, NodeId b) {
    auto sw = [&](int level, long long word) {
      return static_cast<NodeId>(n + level * half + word);
    };
    const unsigned diff = static_cast<unsigned>(a) ^ static_cast<unsigned>(b);
    const int h = std::bit_width(diff) - 1;
    long long w = a / 2;
    const long long wb = b / 2;
    std::vector<NodeId> path{a, sw(0, w)};
    for (int l = 0; l < h; ++l) {
      w = (w & ~(1LL << l)) | (static_cast<long long>(b) & (1LL << l));
      path.push_back(sw(l + 1, w));
    }
    for (int l = h - 1; l >= 0; --l) {
      w = (w & ~(1LL << l)) | (wb & (1LL << l));
      path.push_back(sw(l, w));
    }
    path.push_back(b);
    return path;
  };
}

// Brent-Kung, radix 2 (prefix.cpp's network with r = 2).
std::vector<Pairs> brent_kung_rounds(int n) {
  std::vector<Pairs> rounds = brent_kung_up(n);
  for (Pairs& round : brent_kung_down(n))
    if (!round.empty()) rounds.push_back(std::move(round));
  return rounds;
}

std::vector<Pairs> hillis_steele_rounds(int n) {
  std::vector<Pairs> rounds;
  for (long long w = 1; w < n; w *= 2) {
    Pairs round;
    for (long long i = w; i < n; ++i)
      round.push_back({static_cast<int>(i - w), static_cast<int>(i)});
    rounds.push_back(std::move(round));
  }
  return rounds;
}

// The rounds one after the other, each placed first-fit (in its pairs' order) into the
// fewest steps after the previous round's in which its fixed paths share no channel and
// the ports hold. `whole`: a round must fit one step (its positions send and receive in
// it, so spreading it could send a value after it changed), else nullopt.
std::optional<std::vector<Transfer>> place(const Problem& p, const Router& route,
                                           const std::vector<Pairs>& rounds, bool whole) {
  const Collective& c = p.collective;
  const std::vector<int> blocks = all_blocks(c);
  const int ports = effective_ports(p);
  std::vector<Transfer> out;
  Step base = 0;
  for (const Pairs& round : rounds) {
    if (t_budget != nullptr && t_budget->expired()) return std::nullopt;
    struct Slot {
      std::unordered_set<ChannelId> channels;
      std::unordered_map<NodeId, int> sends, receives;
    };
    std::vector<Slot> slots;
    for (const auto& [from, to] : round) {
      const NodeId a = c.senders[static_cast<std::size_t>(from)];
      const NodeId b = c.senders[static_cast<std::size_t>(to)];
      const std::vector<NodeId> path = route(a, b);
      std::vector<ChannelId> chans;
      for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const auto ch = p.topology.find_channel(path[i], path[i + 1]);
        if (!ch) return std::nullopt;
        chans.push_back(*ch);
      }
      if (chans.empty()) return std::nullopt;
      std::size_t s = 0;
      for (;; ++s) {
        if (s == slots.size()) slots.emplace_back();
        Slot& slot = slots[s];
        bool fits = slot.sends[a] < ports && slot.receives[b] < ports;
        for (std::size_t i = 0; fits && i < chans.size(); ++i)
          fits = !slot.channels.contains(chans[i]);
        if (fits) break;
        if (whole) return std::nullopt;
      }
      Slot& slot = slots[s];
      ++slot.sends[a];
      ++slot.receives[b];
      slot.channels.insert(chans.begin(), chans.end());
      if (!add_path_transfers(out, p, base + static_cast<Step>(s) + 1, path, blocks,
                              ReductionRecv::reduce))
        return std::nullopt;
    }
    base += static_cast<Step>(slots.size());
  }
  return out;
}

}  // namespace

std::vector<std::vector<std::vector<std::pair<int, int>>>> brent_kung_sweep(
    int n, const std::vector<int>& radices, bool up) {
  std::vector<long long> sizes;  // the block size of each level
  std::vector<int> radix;        // and its radix
  for (long long s = 1; s < n; s *= radix.back()) {
    radix.push_back(radices[std::min(sizes.size(), radices.size() - 1)]);
    sizes.push_back(s);
  }
  std::vector<std::vector<Pairs>> rounds;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const std::size_t level = up ? k : sizes.size() - 1 - k;
    const long long size = sizes[level];
    const long long group = size * radix[level];
    std::vector<Pairs> round;
    for (long long start = 0; start < n; start += group) {
      const long long last = std::min<long long>(start + group, n) - 1;
      Pairs pairs;
      if (up) {
        for (long long b = start + size - 1; b < last; b += size)
          pairs.push_back({static_cast<int>(b), static_cast<int>(last)});
      } else {
        // Block m's end, m from the youngest that is not the group's last position down.
        long long blocks = 0;
        while (blocks < radix[level] - 1 && start + (blocks + 1) * size - 1 < last) ++blocks;
        for (long long m = blocks; m-- > 0;) {
          const auto to = static_cast<int>(start + (m + 1) * size - 1);
          if (start > 0) pairs.push_back({static_cast<int>(start - 1), to});
          for (long long e = 0; e < m; ++e)
            pairs.push_back({static_cast<int>(start + (e + 1) * size - 1), to});
        }
      }
      if (!pairs.empty()) round.push_back(std::move(pairs));
    }
    rounds.push_back(std::move(round));
  }
  return rounds;
}

namespace {

std::vector<Pairs> flatten(const std::vector<std::vector<Pairs>>& rounds) {
  std::vector<Pairs> out;
  for (const auto& round : rounds) {
    out.emplace_back();
    for (const Pairs& group : round) out.back().insert(out.back().end(), group.begin(), group.end());
  }
  return out;
}

}  // namespace

std::vector<std::vector<std::pair<int, int>>> brent_kung_by_receiver(
    int n, const std::vector<int>& radices) {
  std::vector<Pairs> out;
  for (const bool up : {true, false})
    for (Pairs& round : flatten(brent_kung_sweep(n, radices, up))) {
      if (round.empty()) continue;
      std::stable_sort(round.begin(), round.end(),
                       [](const auto& x, const auto& y) { return x.second > y.second; });
      out.push_back(std::move(round));
    }
  return out;
}

std::vector<std::vector<std::pair<int, int>>> brent_kung_up(int n) {
  return flatten(brent_kung_sweep(n, {2}, true));
}

std::vector<std::vector<std::pair<int, int>>> brent_kung_down(int n) {
  return flatten(brent_kung_sweep(n, {2}, false));
}

void add_direct_scan_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::SCAN || c.senders.size() < 2 ||
      (c.blocks != 1 && !p.model.combining) || p.model.switching != Switching::wormhole ||
      static_cast<long long>(c.senders.size()) != p.topology.processor_count())
    return;
  const int n = static_cast<int>(c.senders.size());
  Router route;
  std::string where;
  bool shifts = false;  // Hillis-Steele's rounds fit their steps (the hypercube, the fat tree)
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p, wrap);
  const auto family = family_of(p.topology);
  const std::string& name = p.topology.name();
  if (sides.size() == 2) {
    route = grid_router(sides[0], sides[1], wrap);
    where = wrap ? "torus" : "mesh";
  } else if (family && family->name == "hypercube" && p.topology.node_count() == n) {
    route = cube_path;
    where = "hypercube";
    shifts = true;
  } else if (name.starts_with("fattree:") && std::has_single_bit(static_cast<unsigned>(n)) &&
             name == "fattree:" + std::to_string(n) &&
             p.topology.node_count() == n + n / 2 * std::countr_zero(static_cast<unsigned>(n))) {
    route = fattree_router(n);
    where = "fat tree";
    shifts = true;
  } else {
    return;
  }
  try {
    // There Hillis-Steele's log2 p steps beat Brent-Kung's 2 log2 p - 1; Brent-Kung is
    // written only when a round does not fit its step (a faulty copy).
    if (shifts)
      if (auto t = place(p, route, hillis_steele_rounds(n), true)) {
        out.push_back({"hillis-steele (direct, " + where + " paths)",
                       assemble_schedule(p, std::move(*t), "", 0)});
        return;
      }
    if (auto t = place(p, route, brent_kung_rounds(n), false))
      out.push_back(
          {"brent-kung (direct, " + where + " paths)", assemble_schedule(p, std::move(*t), "", 0)});
  } catch (const Unsupported&) {
  }
}

}  // namespace ccsched::reduce_detail
