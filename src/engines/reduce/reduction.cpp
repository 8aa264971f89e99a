// Reductions in the driver (engines/reduction.hpp, docs/ENGINES.md "Reductions"). One
// table of candidates, each verified, the shortest kept:
//   - duality: REDUCE / REDUCESCATTER = a broadcast on the reversed network run backwards
//     in time, solved by solve_problem itself (SAT, trees, greedy, ...);
//   - composition: ALLREDUCE = that gather into owners + a broadcast of the sums (copies);
//   - closed forms: recursive doubling (power-of-two participant sets), ring reduce-scatter
//     and all-gather over a Hamiltonian cycle, Hillis-Steele scan.
// Closed forms are written as logical rounds of point-to-point hops; a round whose paths
// collide on a channel or a port is spread over several steps (pack_rounds), keeping the
// order that the accumulator semantics need.
#include "ccsched/engines/reduction.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "rounds.hpp"

namespace ccsched {

Topology reversed_topology(const Topology& t) {
  Topology r(t.name() + " (reversed)");
  for (NodeId v = 0; v < t.node_count(); ++v) r.add_node(t.kind(v), t.label(v));
  for (const Channel& c : t.channels()) r.add_channel(c.to, c.from);
  return r;
}

Topology dual_network(const Topology& t) {
  Topology r = reversed_topology(t);
  // Where every channel has its reverse (tori, meshes, hypercubes, fat trees, undirected
  // networks) G^R is G itself: keep G, name and all, so that the broadcast designs that
  // recognise a network by regenerating its name (the one-port halving on grids,
  // spread.cpp grid_of; the gossip and grid designs) apply to the dual. On a torus:32x32
  // one-port REDUCE the renamed copy missed the 10-step halving, and the greedy broadcast
  // took 46 s and 2.9 GB for 11 steps.
  return r.same_network(t) ? t : r;
}

namespace reduce_detail {


// Steps for one round: every hop takes the first allowed path (in list order, or from a
// random first path on when `shuffle_paths` is given)
// whose channels are free in the earliest step that also has the ports. nullopt when some
// hop has no path (e.g. a two-hop pair under store-and-forward) or a group cannot fit even
// in an empty step.
std::optional<std::vector<Transfer>> pack_round(const Problem& p, const PathSet& paths,
                                                const Round& round,
                                                const std::vector<int>& group_order,
                                                std::mt19937_64* shuffle_paths, int& slots_used) {
  const int ports = effective_ports(p);
  const int n = p.topology.node_count();
  struct Slot {
    std::vector<char> used;
    std::vector<int> sends, recvs;
    int hops = 0;
  };
  std::vector<Slot> slots;
  std::vector<int> sent_at(n, -1);  // the slot of the hop out of a node, this round
  std::vector<Transfer> out;
  // A group is tried in a slot by marking its channels and ports there and undoing the
  // marks when it does not fit: copying the slot per group instead cost O(channels) per
  // hop, hours for the 1,023 rounds of a ring on 1,024 processors.
  std::vector<const Path*> taken;
  for (int gi : group_order) {
    const auto& group = round.groups[gi];
    int lower = 0;
    if (round.ordered)
      for (const Hop& h : group)
        if (sent_at[h.to] >= 0) lower = std::max(lower, sent_at[h.to]);
    bool placed = false;
    for (int s = lower; !placed && s <= static_cast<int>(slots.size()); ++s) {
      if (s == static_cast<int>(slots.size()))
        slots.push_back({std::vector<char>(p.topology.channel_count(), 0), std::vector<int>(n, 0),
                         std::vector<int>(n, 0), 0});
      Slot& slot = slots[s];
      taken.clear();
      bool ok = true;
      for (const Hop& h : group) {
        if (slot.sends[h.from] >= ports || slot.recvs[h.to] >= ports) {
          ok = false;
          break;
        }
        const auto& list = paths.paths(h.from, h.to);
        if (list.empty()) return std::nullopt;
        // A random preference is a random first path, the list taken cyclically from
        // there: shuffling the whole list per hop cost seconds where pairs have thousands
        // of minimal paths (Hillis-Steele's strides across the rows of a mesh:16x17).
        const std::size_t size = list.size();
        const std::size_t first = shuffle_paths != nullptr ? (*shuffle_paths)() % size : 0;
        const Path* free = nullptr;
        for (std::size_t k = 0; k < size; ++k) {
          const Path& candidate = list[(first + k) % size];
          if (std::none_of(candidate.channels.begin(), candidate.channels.end(),
                           [&](ChannelId c) { return slot.used[c] != 0; })) {
            free = &candidate;
            break;
          }
        }
        if (free == nullptr) {
          ok = false;
          break;
        }
        for (ChannelId c : free->channels) slot.used[c] = 1;
        ++slot.sends[h.from];
        ++slot.recvs[h.to];
        taken.push_back(free);
      }
      if (!ok) {
        for (std::size_t i = 0; i < taken.size(); ++i) {
          for (ChannelId c : taken[i]->channels) slot.used[c] = 0;
          --slot.sends[group[i].from];
          --slot.recvs[group[i].to];
        }
        if (slot.hops == 0) return std::nullopt;  // does not fit even in an empty step
        continue;
      }
      slot.hops += static_cast<int>(group.size());
      for (std::size_t i = 0; i < group.size(); ++i) {
        const Hop& h = group[i];
        Transfer t;
        t.step = s + 1;
        t.path = taken[i]->nodes;
        t.blocks = h.blocks;
        t.send = h.send;
        t.recv = h.recv;
        out.push_back(std::move(t));
        sent_at[h.from] = std::max(sent_at[h.from], s);
      }
      placed = true;
    }
    if (!placed) return std::nullopt;
  }
  slots_used = static_cast<int>(slots.size());
  return out;
}

// Steps for the rounds, one after the other. A round is packed first-fit in the given
// order, then again with random path preferences (and, when the round is not ordered,
// random group orders) a few times; the packing with the fewest steps is kept. A
// first-fit choice can block a pair that another route would let through (a 4-ring's two
// diagonal exchanges fit in one step only with opposite turns).
// The budget of the reduction_designs call running on this thread (nullptr: none). The
// designs are written as nested helpers; the packing, where their time goes (a faulty
// mesh:32x32 REDUCESCATTER spent minutes in it), polls it and gives up the design.
thread_local const Budget* t_budget = nullptr;

std::optional<std::vector<Transfer>> pack_rounds(const Problem& p, const PathSet& paths,
                                                 const std::vector<Round>& rounds) {
  std::vector<Transfer> out;
  Step base = 0;
  std::mt19937_64 rng(1);
  try {
    for (const Round& round : rounds) {
      if (t_budget != nullptr && t_budget->expired()) return std::nullopt;
      std::vector<int> order(round.groups.size());
      for (int i = 0; i < static_cast<int>(order.size()); ++i) order[i] = i;
      std::size_t hops = 1;
      for (const auto& g : round.groups) hops += g.size();
      const int attempts = static_cast<int>(std::min<std::size_t>(40, 200'000 / hops));
      int best_slots = 0;
      auto best = pack_round(p, paths, round, order, nullptr, best_slots);
      if (!best) return std::nullopt;
      // A round needs at least as many steps as its busiest sender or receiver has hops
      // over the ports: stop early there.
      for (int a = 0; a < attempts && best_slots > 1; ++a) {
        if (!round.ordered) std::shuffle(order.begin(), order.end(), rng);
        int slots = 0;
        auto trial = pack_round(p, paths, round, order, &rng, slots);
        if (trial && slots < best_slots) {
          best = std::move(trial);
          best_slots = slots;
        }
      }
      for (auto& t : *best) {
        t.step += base;
        out.push_back(std::move(t));
      }
      base += best_slots;
    }
  } catch (const Unsupported&) {
    return std::nullopt;  // a path list the routing module refuses to build
  }
  return out;
}

std::vector<int> all_blocks(const Collective& c) {
  std::vector<int> b(c.blocks);
  for (int i = 0; i < c.blocks; ++i) b[i] = i;
  return b;
}

// Hops carrying `blocks`: one hop with every block under combining, else one per block.
bool add_path_transfers(std::vector<Transfer>& out, const Problem& p, Step step,
                        const std::vector<NodeId>& path, const std::vector<int>& blocks,
                        ReductionRecv recv) {
  bool ok = true;
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    ok = ok && p.topology.has_channel(path[i], path[i + 1]);
  std::vector<Hop> hops;
  add_hops(hops, p, path.front(), path.back(), blocks, ReductionSend::acc, recv);
  for (const Hop& h : hops) {
    Transfer t;
    t.step = step;
    t.path = path;
    t.blocks = h.blocks;
    t.send = h.send;
    t.recv = h.recv;
    out.push_back(std::move(t));
  }
  return ok;
}

std::optional<std::vector<Transfer>> reduce_transfers(
    const Problem& p, const std::vector<std::pair<int, std::vector<NodeId>>>& placed) {
  const std::vector<int> blocks = all_blocks(p.collective);
  std::vector<Transfer> out;
  for (const auto& [t, path] : placed)
    if (!add_path_transfers(out, p, static_cast<Step>(t), path, blocks, ReductionRecv::reduce))
      return std::nullopt;
  return out;
}

void add_hops(std::vector<Hop>& group, const Problem& p, NodeId from, NodeId to,
              const std::vector<int>& blocks, ReductionSend send, ReductionRecv recv) {
  if (p.model.combining) {
    group.push_back({from, to, blocks, send, recv});
  } else {
    for (int b : blocks) group.push_back({from, to, {b}, send, recv});
  }
}

}  // namespace reduce_detail

namespace {

using namespace reduce_detail;

// Recursive doubling (ALLREDUCE over a power-of-two participant set, senders ==
// receivers): in round j every participant i exchanges its accumulator with participant
// i XOR 2^j and adds what it gets; after round j each holds the sum over its aligned
// group of 2^{j+1}. One block, or every block in one transfer under combining.
// `order` names participant i (a permutation of the senders).
std::optional<Schedule> recursive_doubling(const Problem& p, const PathSet& paths,
                                           const std::vector<NodeId>& order, bool high_first) {
  const Collective& c = p.collective;
  const int n = static_cast<int>(c.senders.size());
  if (c.kind != CollectiveKind::ALLREDUCE || c.senders != c.receivers ||
      !std::has_single_bit(static_cast<unsigned>(n)) || (c.blocks != 1 && !p.model.combining))
    return std::nullopt;
  std::vector<NodeId> at = order;  // participant -> node
  if (at.size() != c.senders.size()) return std::nullopt;
  const int d = std::countr_zero(static_cast<unsigned>(n));
  std::vector<Round> rounds;
  for (int k = 0; k < d; ++k) {
    const int bit = 1 << (high_first ? d - 1 - k : k);
    Round r;
    for (int i = 0; i < n; ++i) {
      if ((i & bit) != 0) continue;
      std::vector<Hop> g;
      add_hops(g, p, at[i], at[i | bit], all_blocks(c), ReductionSend::acc,
               ReductionRecv::reduce);
      add_hops(g, p, at[i | bit], at[i], all_blocks(c), ReductionSend::acc,
               ReductionRecv::reduce);
      r.groups.push_back(std::move(g));
    }
    rounds.push_back(std::move(r));
  }
  auto transfers = pack_rounds(p, paths, rounds);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "recursive-doubling", 0);
}


// The cycle of a 2-D mesh (or torus) R x C with R even, ids row-major: along row 0, then
// rows 1..R-1 in a snake over columns 1..C-1, and up column 0 back to the start; with R
// odd and C even the same with rows and columns swapped. Every hop joins neighbours, so a
// ring round over it uses each channel once. nullopt when the topology is not such a
// grid over exactly `nodes` or both sides are odd (a mesh then has no Hamiltonian cycle:
// it is bipartite with an odd number of nodes).
std::optional<std::vector<NodeId>> grid_cycle(const Topology& t, const std::vector<NodeId>& nodes) {
  bool wrap = false;
  const std::vector<int> sides = grid_sides(t, wrap);
  if (sides.size() != 2 || sides[0] < 2 || sides[1] < 2) return std::nullopt;
  if (static_cast<long long>(nodes.size()) != t.node_count()) return std::nullopt;
  const bool rows_even = sides[0] % 2 == 0;
  if (!rows_even && sides[1] % 2 != 0) return std::nullopt;
  const int R = rows_even ? sides[0] : sides[1];
  const int C = rows_even ? sides[1] : sides[0];
  auto id = [&](int r, int c) {
    return static_cast<NodeId>(rows_even ? r * sides[1] + c : c * sides[1] + r);
  };
  std::vector<NodeId> cycle;
  for (int c = 0; c < C; ++c) cycle.push_back(id(0, c));
  for (int r = 1; r < R; ++r)
    for (int k = 1; k < C; ++k) cycle.push_back(id(r, r % 2 == 1 ? C - k : k));
  for (int r = R - 1; r >= 1; --r) cycle.push_back(id(r, 0));
  for (std::size_t i = 0; i < cycle.size(); ++i)
    if (!t.has_channel(cycle[i], cycle[(i + 1) % cycle.size()])) return std::nullopt;
  return cycle;
}

// A Hamiltonian cycle of `nodes` using direct channels: the snake on a 2-D grid, else a
// budgeted depth-first search that tries the neighbour with the fewest onward choices
// first (it fails on a mesh:32x32 within its budget), or nullopt.
std::optional<std::vector<NodeId>> hamiltonian_cycle(const Topology& t,
                                                     const std::vector<NodeId>& nodes) {
  const int n = static_cast<int>(nodes.size());
  if (n < 3) return std::nullopt;
  if (auto g = grid_cycle(t, nodes)) return g;
  if (n > 1024) return std::nullopt;
  std::map<NodeId, int> index;
  for (int i = 0; i < n; ++i) index[nodes[i]] = i;
  std::vector<std::vector<int>> next(n);
  for (int i = 0; i < n; ++i)
    for (ChannelId ch : t.out_channels(nodes[i])) {
      auto it = index.find(t.channel(ch).to);
      if (it != index.end()) next[i].push_back(it->second);
    }
  std::vector<int> order{0};
  std::vector<char> seen(n, 0);
  seen[0] = 1;
  long budget = 200'000;
  std::function<bool()> extend = [&]() -> bool {
    if (--budget < 0) return false;
    const int u = order.back();
    if (static_cast<int>(order.size()) == n)
      return std::find(next[u].begin(), next[u].end(), 0) != next[u].end();
    std::vector<std::pair<int, int>> options;
    for (int v : next[u])
      if (!seen[v]) {
        int onward = 0;
        for (int w : next[v]) onward += seen[w] ? 0 : 1;
        options.push_back({onward, v});
      }
    std::sort(options.begin(), options.end());
    for (const auto& [onward, v] : options) {
      seen[v] = 1;
      order.push_back(v);
      if (extend()) return true;
      order.pop_back();
      seen[v] = 0;
    }
    return false;
  };
  if (!extend()) return std::nullopt;
  std::vector<NodeId> cycle;
  for (int i : order) cycle.push_back(nodes[i]);
  return cycle;
}

// Ring reduce-scatter (and all-gather for ALLREDUCE) over a cycle of the participants:
// block q travels q+1 -> q+2 -> ... -> q (positions on the cycle), summed on the way, in
// p-1 rounds; then, for ALLREDUCE, its sum travels on in p-1 more rounds as copies.
// Needs senders == receivers and blocks == p (block j ends at receiver j).
std::optional<Schedule> ring(const Problem& p, const PathSet& paths) {
  const Collective& c = p.collective;
  const int n = static_cast<int>(c.receivers.size());
  if ((c.kind != CollectiveKind::ALLREDUCE && c.kind != CollectiveKind::REDUCESCATTER) ||
      c.senders != c.receivers || c.blocks != n || n < 2)
    return std::nullopt;
  std::vector<NodeId> cycle = c.receivers;  // id order when no cycle of channels is found
  if (auto h = hamiltonian_cycle(p.topology, c.receivers)) cycle = *h;
  std::map<NodeId, int> block_of;  // receiver j owns block j
  for (int j = 0; j < n; ++j) block_of[c.receivers[j]] = j;
  std::vector<Round> rounds;
  auto pos = [&](int i) { return cycle[((i % n) + n) % n]; };
  for (int s = 1; s < n; ++s) {
    Round r;
    for (int q = 0; q < n; ++q) {  // the block owned by position q is at q+s, sent on
      std::vector<Hop> g;
      g.push_back({pos(q + s), pos(q + s + 1), {block_of[pos(q)]}, ReductionSend::acc,
                   ReductionRecv::reduce});
      r.groups.push_back(std::move(g));
    }
    rounds.push_back(std::move(r));
  }
  if (c.kind == CollectiveKind::ALLREDUCE)
    for (int s = 1; s < n; ++s) {
      Round r;
      for (int q = 0; q < n; ++q) {
        std::vector<Hop> g;
        g.push_back({pos(q + s - 1), pos(q + s), {block_of[pos(q)]}, ReductionSend::acc,
                     ReductionRecv::copy});
        r.groups.push_back(std::move(g));
      }
      rounds.push_back(std::move(r));
    }
  auto transfers = pack_rounds(p, paths, rounds);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "ring", 0);
}

// Hillis-Steele inclusive scan: in round j every sender at position i sends its
// accumulator (positions i-2^j+1..i) to position i+2^j, which adds it to its own
// (i+1..i+2^j): disjoint, and the union is the next round's window. Hops are listed from
// the highest position down so that a node's send is never placed after its receive.
std::optional<Schedule> hillis_steele(const Problem& p, const PathSet& paths) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::SCAN) return std::nullopt;
  const int n = static_cast<int>(c.senders.size());
  std::vector<Round> rounds;
  for (int stride = 1; stride < n; stride *= 2) {
    const std::vector<std::vector<int>> block_sets =
        p.model.combining ? std::vector<std::vector<int>>{all_blocks(c)}
                          : [&] {
                              std::vector<std::vector<int>> v;
                              for (int b = 0; b < c.blocks; ++b) v.push_back({b});
                              return v;
                            }();
    for (const auto& blocks : block_sets) {
      Round r;
      r.ordered = true;
      for (int i = n - 1 - stride; i >= 0; --i)
        r.groups.push_back(
            {{c.senders[i], c.senders[i + stride], blocks, ReductionSend::acc,
              ReductionRecv::reduce}});
      rounds.push_back(std::move(r));
    }
  }
  auto transfers = pack_rounds(p, paths, rounds);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "hillis-steele", 0);
}

// Linear scan: sender i passes its prefix (senders 0..i) to sender i+1, which adds it, in
// p-1 steps. Slower than Hillis-Steele, but every hop joins neighbours in the prefix
// order, so it also works under store-and-forward when that order is a path.
std::optional<Schedule> chain_scan(const Problem& p, const PathSet& paths) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::SCAN) return std::nullopt;
  std::vector<Round> rounds;
  for (int i = 0; i + 1 < static_cast<int>(c.senders.size()); ++i) {
    Round r;
    std::vector<Hop> g;
    add_hops(g, p, c.senders[i], c.senders[i + 1], all_blocks(c), ReductionSend::acc,
             ReductionRecv::reduce);
    for (auto& h : g) r.groups.push_back({h});
    rounds.push_back(std::move(r));
  }
  auto transfers = pack_rounds(p, paths, rounds);
  if (!transfers) return std::nullopt;
  return assemble_schedule(p, std::move(*transfers), "chain-scan", 0);
}

// ---- dimension-wise exchanges on tori and meshes ----------------------------------------

}  // namespace

namespace reduce_detail {

// The sides of a torus:AxB[xC] or mesh:AxB[xC] whose nodes are all processors numbered
// row-major as make_grid numbers them (topology/generators.cpp); empty otherwise. `wrap`
// tells torus from mesh. The name is trusted for the numbering only: callers route over
// the channels that exist.
std::vector<int> grid_sides(const Topology& t, bool& wrap) {
  const auto family = family_of(t);
  if (!family || (family->name != "torus" && family->name != "mesh")) return {};
  wrap = family->name == "torus";
  long long n = 1;
  for (const int side : family->sides) n *= side;
  if (n != t.node_count() || t.processor_count() != n) return {};
  return family->sides;
}
// The same, and empty unless every processor takes part in the collective.
std::vector<int> grid_sides(const Problem& p, bool& wrap) {
  std::vector<int> sides = grid_sides(p.topology, wrap);
  if (static_cast<long long>(p.collective.senders.size()) != p.topology.node_count()) return {};
  return sides;
}

}  // namespace reduce_detail

namespace {

// Peer of coordinate c in step s of one dimension of side L (a power of two), both
// involutions: recursive doubling pairs c with c XOR 2^s; Swing (De Sensi et al., "Swing:
// Short-cutting Rings for Higher Bandwidth Allreduce", NSDI 2024, eq. 1) pairs even c with
// c + rho(s) and odd c with c - rho(s), rho(s) = (1 - (-2)^(s+1)) / 3 = 1, -1, 3, -5, 11, ...
// taken mod L: the distances grow about half as fast as 2^s, so hops stay short on a ring.
int dimension_peer(bool swing, int L, int s, int c) {
  if (!swing) return c ^ (1 << s);
  long long pow = 1;
  for (int i = 0; i <= s; ++i) pow *= -2;
  const long long rho = (1 - pow) / 3;
  const long long q = (c % 2 == 0) ? c + rho : c - rho;
  return static_cast<int>(((q % L) + L) % L);
}

// Dimension-wise all-reduce of one block (or every block under combining) on a torus or
// mesh with power-of-two sides: recursive doubling within each dimension in turn, the peers
// of `swing` ? Swing : XOR. Node x's accumulator after some steps is the product over the
// dimensions of the coordinate sets its steps in that dimension have gathered, so an
// exchange is valid when both ends have made the same progress in every dimension (their
// sets then differ only in the exchanged dimension, where Swing / XOR makes them disjoint
// and their union the next set). Two packings:
//   - in turn (`overlap` false): the logical rounds dimension after dimension, each
//     spread by pack_rounds into the fewest channel-disjoint steps it finds;
//   - overlapped: a step takes, greedily, every exchange whose ends are free, have equal
//     progress vectors and whose paths are free, so a node idle in a long, spread round of
//     one dimension runs its step in another dimension meanwhile (the dimensions use
//     disjoint channels). Priority goes to the node with the most hops still to travel,
//     the critical resource. nullopt when no exchange fits while work remains.
std::optional<Schedule> dimension_wise(const Problem& p, const PathSet& paths, bool swing,
                                       bool overlap) {
  const Collective& c = p.collective;
  if (c.kind != CollectiveKind::ALLREDUCE || c.senders != c.receivers ||
      (c.blocks != 1 && !p.model.combining))
    return std::nullopt;
  bool wrap = false;
  const std::vector<int> sides = grid_sides(p, wrap);
  if (sides.empty()) return std::nullopt;
  const int dims = static_cast<int>(sides.size());
  std::vector<int> levels(dims, 0), stride(dims, 1);
  for (int d = 0; d < dims; ++d) {
    if (!std::has_single_bit(static_cast<unsigned>(sides[d]))) return std::nullopt;
    levels[d] = std::countr_zero(static_cast<unsigned>(sides[d]));
  }
  for (int d = dims - 1; d-- > 0;) stride[d] = stride[d + 1] * sides[d + 1];
  const int n = p.topology.node_count();
  auto coord = [&](int v, int d) { return v / stride[d] % sides[d]; };
  auto peer = [&](int v, int d, int s) {
    const int x = coord(v, d);
    return v + (dimension_peer(swing, sides[d], s, x) - x) * stride[d];
  };
  const std::vector<int> blocks = all_blocks(c);
  if (!overlap) {
    std::vector<Round> rounds;
    for (int d = 0; d < dims; ++d)
      for (int s = 0; s < levels[d]; ++s) {
        // Pairs listed by their even end's position over 2, mod ceil(distance / 2): on a
        // ring the exchanges of one class start 2 ceil(distance / 2) >= distance apart, so
        // first fit puts each class in its own step (the ceil(distance / 2) steps that the
        // channel load, distance / 2 per channel, needs) where the classes close up.
        std::vector<std::pair<int, int>> listed;  // (class, v)
        for (int v = 0; v < n; ++v) {
          const int w = peer(v, d, s);
          if (w <= v) continue;
          const int even = coord(v, d) % 2 == 0 ? v : w;
          // A faulty copy may have no route (kUnreachable): the packing then fails
          // the pair, and the class is immaterial.
          const int distance = paths.distance(v, w);
          const int m = distance == kUnreachable ? 1 : std::max(1, (distance + 1) / 2);
          listed.push_back({coord(even, d) / 2 % m, v});
        }
        std::stable_sort(listed.begin(), listed.end());
        Round r;
        for (const auto& [cls, v] : listed) {
          const int w = peer(v, d, s);
          std::vector<Hop> g;
          add_hops(g, p, v, w, blocks, ReductionSend::acc, ReductionRecv::reduce);
          add_hops(g, p, w, v, blocks, ReductionSend::acc, ReductionRecv::reduce);
          r.groups.push_back(std::move(g));
        }
        rounds.push_back(std::move(r));
      }
    auto transfers = pack_rounds(p, paths, rounds);
    if (!transfers) return std::nullopt;
    return assemble_schedule(p, std::move(*transfers), "", 0);
  }
  std::vector<std::vector<int>> progress(n, std::vector<int>(dims, 0));
  // Hops still to travel from each node: its remaining rounds' distances.
  std::vector<long> remaining(n, 0);
  try {
    for (int v = 0; v < n; ++v)
      for (int d = 0; d < dims; ++d)
        for (int s = 0; s < levels[d]; ++s) remaining[v] += paths.distance(v, peer(v, d, s));
    std::vector<Transfer> out;
    std::vector<char> finished(n, 0);
    int done = 0;
    for (int v = 0; v < n; ++v)
      if (progress[v] == levels) {
        finished[v] = 1;
        ++done;
      }
    std::vector<int> order(n);
    for (int step = 1; done < n; ++step) {
      std::vector<char> used(p.topology.channel_count(), 0), busy(n, 0);
      for (int v = 0; v < n; ++v) order[v] = v;
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return remaining[a] > remaining[b]; });
      bool placed = false;
      for (int v : order) {
        if (busy[v] || finished[v]) continue;
        // this node's dimensions, the longest next hop first
        std::vector<std::pair<int, int>> options;  // (-distance, dimension)
        for (int d = 0; d < dims; ++d) {
          if (progress[v][d] >= levels[d]) continue;
          const int w = peer(v, d, progress[v][d]);
          if (busy[w] || progress[w] != progress[v]) continue;
          options.push_back({-paths.distance(v, w), d});
        }
        std::sort(options.begin(), options.end());
        for (const auto& [hops, d] : options) {
          const int w = peer(v, d, progress[v][d]);
          const Path* there = nullptr;
          const Path* back = nullptr;
          for (const Path& path : paths.paths(v, w))
            if (std::none_of(path.channels.begin(), path.channels.end(),
                             [&](ChannelId ch) { return used[ch] != 0; })) {
              there = &path;
              break;
            }
          if (there == nullptr) continue;
          for (ChannelId ch : there->channels) used[ch] = 1;
          for (const Path& path : paths.paths(w, v))
            if (std::none_of(path.channels.begin(), path.channels.end(),
                             [&](ChannelId ch) { return used[ch] != 0; })) {
              back = &path;
              break;
            }
          if (back == nullptr) {
            for (ChannelId ch : there->channels) used[ch] = 0;
            continue;
          }
          for (ChannelId ch : back->channels) used[ch] = 1;
          busy[v] = busy[w] = 1;
          for (const Path* path : {there, back}) {
            Transfer t;
            t.step = step;
            t.path = path->nodes;
            t.blocks = blocks;
            t.send = ReductionSend::acc;
            t.recv = ReductionRecv::reduce;
            out.push_back(std::move(t));
          }
          for (int x : {v, w}) {
            remaining[x] -= paths.distance(x, x == v ? w : v);
            ++progress[x][d];
            if (progress[x] == levels) {
              finished[x] = 1;
              ++done;
            }
          }
          placed = true;
          break;
        }
      }
      if (!placed) return std::nullopt;
    }
    return assemble_schedule(p, std::move(out), "", 0);
  } catch (const Unsupported&) {
    return std::nullopt;
  }
}

// ---- duality -------------------------------------------------------------------------

}  // namespace

std::vector<ReductionCandidate> reduction_designs(const Problem& problem, const PathSet& paths,
                                                  const Budget& budget) {
  struct Guard {
    explicit Guard(const Budget* b) { t_budget = b; }
    ~Guard() { t_budget = nullptr; }
  } guard(&budget);
  std::vector<ReductionCandidate> out;
  auto add = [&](std::optional<Schedule> s, std::string name) {
    if (s) out.push_back({std::move(name), std::move(*s)});
  };
  const Collective& c = problem.collective;
  // Recursive doubling over the ids, and over a Hamiltonian cycle in Gray-code positions
  // (participant i at cycle position gray(i): i and i XOR 1 are neighbours on the cycle,
  // so the low dimensions stay short; on a 4-cycle every exchange is one channel).
  // On a torus or mesh the id order is row-major, so recursive doubling over the ids pairs
  // exactly what the dimension-wise XOR design below pairs (bit j of the id is a bit of one
  // coordinate); that design routes its rounds within rows, where the generic packing
  // shuffles the many minimal paths of 2-D pairs (minutes on a torus:32x32), and the Gray
  // order on a cycle never won there (torus:16x16: 31 steps against 13). Past 256
  // processors both are left to the dimension-wise designs.
  // From kDirectDesignProcessors on the exchanges written directly (star, lattice and
  // staircase exchanges, exchange.cpp) come first, and when one applies the packed designs
  // of log2 p rounds or more are skipped: on torus:128x128 the dimension-wise ones took
  // 80 s for 73 steps, the staircase exchange 10 steps in a second.
  const bool direct_first = problem.topology.processor_count() >= kDirectDesignProcessors;
  if (direct_first) add_exchange_designs(problem, paths, out);
  const bool packed = out.empty();
  bool grid_wrap = false;
  const bool grid = !grid_sides(problem, grid_wrap).empty() &&
                    problem.topology.processor_count() > 256;
  std::vector<std::vector<NodeId>> orders;
  if (!grid && packed) orders.push_back(c.senders);
  if (!grid && packed && c.kind == CollectiveKind::ALLREDUCE &&
      std::has_single_bit(c.senders.size()))
    if (auto cycle = hamiltonian_cycle(problem.topology, c.senders)) {
      std::vector<NodeId> gray(cycle->size());
      for (std::size_t i = 0; i < gray.size(); ++i) gray[i] = (*cycle)[i ^ (i >> 1)];
      orders.push_back(std::move(gray));
    }
  for (std::size_t o = 0; o < orders.size(); ++o)
    for (bool high : {false, true})
      add(recursive_doubling(problem, paths, orders[o], high),
          std::string("recursive-doubling") + (o == 0 ? "" : " (Gray order on a cycle)") +
              (high ? " (high bit first)" : ""));
  // From there on a grid the dimension-wise designs are left out as well: on mesh:128x128,
  // where no direct exchange applies, they took 85 s for 106 steps and left the
  // composition no time (docs/BENCHMARKS.md, "Beyond 1,024: meshes and fat trees at
  // 16,384").
  const bool run_dimension_wise = packed && !(grid && direct_first);
  for (bool swing : {true, false})
    for (bool overlap : {false, true})
      if (run_dimension_wise)
        add(dimension_wise(problem, paths, swing, overlap),
            std::string("dimension-wise ") + (swing ? "swing" : "recursive-doubling") +
                (overlap ? " (dimensions overlapped)" : " (dimensions in turn)"));
  if (!direct_first) add_exchange_designs(problem, paths, out);
  // A SCAN from there on takes the prefix networks written directly when they apply
  // (scan.cpp); the packed ones list paths there until the time limit (torus:128x128: the
  // packed Hillis-Steele's 222 steps in 58 s, the direct Brent-Kung's 27 in a second).
  const std::size_t before = out.size();
  add_direct_scan_designs(problem, out);
  add_band_scan_designs(problem, out);
  add_hypercube_scan_designs(problem, out);
  const bool scan_packed = !(direct_first && out.size() > before);
  if (scan_packed) add_prefix_designs(problem, paths, out);
  add(ring(problem, paths), "ring");
  if (scan_packed) add(hillis_steele(problem, paths), "hillis-steele");
  if (scan_packed) add(chain_scan(problem, paths), "chain-scan");
  // Last, so that on a tie the designs above keep the cell.
  add_placed_scan_designs(problem, paths, out);
  return out;
}

}  // namespace ccsched
