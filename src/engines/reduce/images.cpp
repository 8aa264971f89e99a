// ALLREDUCE of B blocks as G images of a schedule for B / G blocks under automorphisms of
// the network, merged (docs/ENGINES.md, "Several blocks": merged images). The disjoint
// trees (branchings.cpp) pipeline every block through one root, so on a mesh the channels
// near the root carry every block while those far from it idle: mesh:8x8 with 64 blocks
// took 64 steps against a reduce-volume bound of 36. Here the trees' schedule for B / G
// blocks is mapped by G automorphisms chosen to spread the channels' load (the mesh's
// quarter turns, which move the root and turn the trees), copy g carrying blocks
// g B / G .. (g + 1) B / G - 1, and the copies are merged by a list schedule: the
// transfers in the order of their original steps, each placed in the earliest step, not
// before its original one, that keeps the order of its block's accumulators (a send after
// every earlier reception into the sender's accumulator of that block, a reception not
// before the sends of that accumulator that came before it or in its step, a copy alone in
// its step) and finds its channels and ports free. Blocks are independent accumulators, so
// each block sees its own transfers in their original order and values: the merge is
// valid when the image is (the driver verifies it). mesh:8x8 --blocks 64: 54 steps (four
// images of the 16-block trees; 64 before), mesh:16x16 --blocks 256: 198 (255).
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "ccsched/topology/automorphisms.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

// Automorphisms looked at when choosing the images (a mesh has 8, a torus 8 p: the first 64
// listed; listing thousands took seconds on torus:32x32).
constexpr std::size_t kImageCandidates = 64;
// Networks and schedules up to these sizes (the automorphism search and the merge's
// per-step tables grow with them).
constexpr long long kImageProcessors = 1024;
constexpr std::size_t kImageTransfers = 4'000'000;
// Hops mapped and channels counted while choosing one image (mesh:32x32, 128 blocks: the
// eight maps of the square at about 10^6 each).
constexpr long long kImageWork = 50'000'000;

// Up to g automorphisms (the identity first), each next the one that keeps the most
// loaded channel of the images so far lowest (ties: the first listed).
std::vector<const std::vector<NodeId>*> spread_images(const Topology& t, const Schedule& base,
                                                      const Automorphisms& group, int g,
                                                      const Budget& budget) {
  std::vector<long long> load(static_cast<std::size_t>(t.channel_count()), 0);
  std::vector<std::pair<NodeId, NodeId>> hops;  // every hop of the base schedule
  for (const Transfer& x : base.transfers)
    for (std::size_t k = 0; k + 1 < x.path.size(); ++k) hops.push_back({x.path[k], x.path[k + 1]});
  std::vector<const std::vector<NodeId>*> chosen;
  // The channels of sigma's image of the hops (false: some hop has no channel there).
  std::vector<ChannelId> image;
  auto map = [&](const std::vector<NodeId>& sigma) {
    image.clear();
    for (const auto& [a, b] : hops) {
      const auto c = t.find_channel(sigma[static_cast<std::size_t>(a)],
                                    sigma[static_cast<std::size_t>(b)]);
      if (!c) return false;
      image.push_back(*c);
    }
    return true;
  };
  long long peak = 0;  // of load
  auto add = [&] {
    for (const ChannelId c : image) peak = std::max(peak, ++load[static_cast<std::size_t>(c)]);
  };
  map(group.maps[0]);
  add();
  chosen.push_back(&group.maps[0]);
  std::vector<long long> extra(load.size(), 0);  // a candidate's own load, reset after it
  while (static_cast<int>(chosen.size()) < g) {
    const std::vector<NodeId>* best = nullptr;
    long long best_peak = std::numeric_limits<long long>::max();
    // Candidates within a work allowance (a hop mapped or a channel is a unit), the first
    // listed first, so that the choice does not depend on the clock.
    long long work = 0;
    const auto unit = static_cast<long long>(hops.size() + load.size());
    for (std::size_t k = 1; k < group.maps.size() && work < kImageWork; ++k, work += unit) {
      if (budget.expired()) return chosen;
      const auto* sigma = &group.maps[k];
      if (std::find(chosen.begin(), chosen.end(), sigma) != chosen.end()) continue;
      if (!map(*sigma)) continue;
      long long trial = peak;  // the peak with sigma's image added
      for (const ChannelId c : image)
        trial = std::max(trial, load[static_cast<std::size_t>(c)] +
                                    ++extra[static_cast<std::size_t>(c)]);
      for (const ChannelId c : image) extra[static_cast<std::size_t>(c)] = 0;
      if (trial < best_peak) {
        best_peak = trial;
        best = sigma;
      }
    }
    if (best == nullptr) break;
    map(*best);
    add();
    chosen.push_back(best);
  }
  return chosen;
}

// The images merged (the header comment); nullopt when the budget ends or a step's
// transfers of one block depend on each other both ways (an exchange: not placed apart).
std::optional<std::vector<Transfer>> merge_images(
    const Problem& p, const Schedule& base, const std::vector<const std::vector<NodeId>*>& maps,
    int blocks_per_image, const Budget& budget) {
  const Topology& t = p.topology;
  const int ports = effective_ports(p);
  const auto nodes = static_cast<std::size_t>(t.node_count());
  // Transfers of the base by step.
  std::vector<std::vector<const Transfer*>> by_step(static_cast<std::size_t>(base.steps) + 1);
  for (const Transfer& x : base.transfers) by_step[static_cast<std::size_t>(x.step)].push_back(&x);
  std::vector<std::vector<char>> busy;  // per placed step: channels in use
  std::vector<std::vector<int>> sends, receives;
  auto grow = [&](std::size_t s) {
    while (busy.size() <= s) {
      busy.emplace_back(static_cast<std::size_t>(t.channel_count()), 0);
      sends.emplace_back(nodes, 0);
      receives.emplace_back(nodes, 0);
    }
  };
  // Per (node, block): the last placed reception (and whether a copy) and send.
  struct Mark {
    int recv = 0, send = 0;
    bool copy = false;
  };
  const std::size_t all_blocks = static_cast<std::size_t>(blocks_per_image) * maps.size();
  std::vector<Mark> marks(nodes * all_blocks);  // marks[node * all_blocks + block]
  auto mark = [&](NodeId w, int b) -> Mark& {
    return marks[static_cast<std::size_t>(w) * all_blocks + static_cast<std::size_t>(b)];
  };
  std::vector<Transfer> out;
  std::vector<ChannelId> channels;
  for (std::size_t s = 1; s < by_step.size(); ++s) {
    if (budget.expired()) return std::nullopt;
    for (std::size_t g = 0; g < maps.size(); ++g) {
      const std::vector<NodeId>& sigma = *maps[g];
      // A step's transfers with the sends of each accumulator before its receptions:
      // transfer a goes before b when a sends from the accumulator b receives into.
      const auto& step = by_step[s];
      std::vector<int> before(step.size(), 0);
      std::vector<std::vector<std::size_t>> after(step.size());
      for (std::size_t a = 0; a < step.size(); ++a)
        for (std::size_t b = 0; b < step.size(); ++b)
          if (a != b && step[a]->path.front() == step[b]->path.back() &&
              step[a]->blocks == step[b]->blocks) {
            after[a].push_back(b);
            ++before[b];
          }
      std::vector<std::size_t> ready, order;
      for (std::size_t a = 0; a < step.size(); ++a)
        if (before[a] == 0) ready.push_back(a);
      while (!ready.empty()) {
        const std::size_t a = ready.front();
        ready.erase(ready.begin());
        order.push_back(a);
        for (const std::size_t b : after[a])
          if (--before[b] == 0) ready.push_back(b);
      }
      if (order.size() != step.size()) return std::nullopt;
      for (const std::size_t a : order) {
        const Transfer& x = *step[a];
        Transfer y = x;
        for (NodeId& v : y.path) v = sigma[static_cast<std::size_t>(v)];
        for (int& b : y.blocks) b += static_cast<int>(g) * blocks_per_image;
        const NodeId u = y.path.front(), v = y.path.back();
        const bool copy = y.recv == ReductionRecv::copy;
        int lo = static_cast<int>(s);
        for (const int b : y.blocks) {
          if (const Mark& from = mark(u, b); from.recv > 0) lo = std::max(lo, from.recv + 1);
          const Mark& to = mark(v, b);
          lo = std::max(lo, to.send);
          if (to.recv > 0) lo = std::max(lo, to.recv + (copy || to.copy ? 1 : 0));
        }
        channels.clear();
        for (std::size_t k = 0; k + 1 < y.path.size(); ++k) {
          const auto ch = t.find_channel(y.path[k], y.path[k + 1]);
          if (!ch) return std::nullopt;
          channels.push_back(*ch);
        }
        for (;; ++lo) {
          grow(static_cast<std::size_t>(lo));
          const auto at = static_cast<std::size_t>(lo);
          if (sends[at][static_cast<std::size_t>(u)] >= ports ||
              receives[at][static_cast<std::size_t>(v)] >= ports)
            continue;
          if (std::none_of(channels.begin(), channels.end(),
                           [&](ChannelId c) { return busy[at][static_cast<std::size_t>(c)] != 0; }))
            break;
        }
        const auto at = static_cast<std::size_t>(lo);
        for (const ChannelId c : channels) busy[at][static_cast<std::size_t>(c)] = 1;
        ++sends[at][static_cast<std::size_t>(u)];
        ++receives[at][static_cast<std::size_t>(v)];
        for (const int b : y.blocks) {
          Mark& from = mark(u, b);
          from.send = std::max(from.send, lo);
          Mark& to = mark(v, b);
          if (lo >= to.recv) {
            to.copy = lo == to.recv ? (to.copy || copy) : copy;
            to.recv = lo;
          }
        }
        y.step = lo;
        out.push_back(std::move(y));
      }
    }
  }
  return out;
}

}  // namespace

void add_image_designs(const Problem& p, const Budget& budget,
                       std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  const Topology& t = p.topology;
  if (c.kind != CollectiveKind::ALLREDUCE || c.blocks < 4 || p.model.combining ||
      t.processor_count() > kImageProcessors)
    return;
  Automorphisms group;
  bool searched = false;
  for (const int g : {8, 4, 2}) {
    if (c.blocks % g != 0 || c.blocks / g < 2 || budget.expired()) continue;
    Problem sub = p;
    sub.collective.blocks = c.blocks / g;
    std::vector<ReductionCandidate> bases;
    add_branching_designs(sub, budget, bases);
    if (bases.empty()) return;  // the trees do not apply here
    const Schedule& base = bases.front().schedule;
    if (base.transfers.size() * static_cast<std::size_t>(g) > kImageTransfers) continue;
    if (!searched) {
      group = find_automorphisms(t, {.limit = kImageCandidates});
      searched = true;
    }
    if (group.maps.size() < 2) return;
    const auto maps = spread_images(t, base, group, g, budget);
    if (static_cast<int>(maps.size()) < g) continue;
    auto transfers = merge_images(p, base, maps, sub.collective.blocks, budget);
    if (!transfers) continue;
    out.push_back({"merged images (" + std::to_string(g) + " x " + bases.front().design + ")",
                   assemble_schedule(p, std::move(*transfers), "", 0)});
  }
}

}  // namespace ccsched::reduce_detail
