// Recursive doubling on fat trees for ALLREDUCE (docs/ENGINES.md, "Reductions: recursive
// doubling on fat trees"), written as transfers on fixed paths, no path sets.
//
// fattree:N (generators.cpp, make_fattree): N = 2^n processors, switch s<l>.<w> (node
// N + l N/2 + w, w an (n-1)-bit word) linked to s<l+1>.<w'> for the two w' that differ from
// w at most in bit l; processor a hangs from s0.<a >> 1>. Let drop(a, l) be a with bit l
// removed (bits below l kept, bits above moved down one). The *up-path* of processor a is
// a, s0.drop(a, 0), s1.drop(a, 1), ..., the switch of level l being drop(a, l): consecutive
// words agree except in bit l, so each is a link, and it "keeps bits 0..l-1 of the sender"
// on the way up. The channel s<l>.drop(a, l) -> s<l+1>.drop(a, l+1) names every bit of a
// (the first word all but bit l, the second's bit l is a's bit l), so the up-paths of
// distinct processors share no channel; likewise the reversed up-paths (down-paths).
// Partners a and b = a XOR 2^j meet at level j (drop(a, j) = drop(b, j)): a climbs its
// up-path to level j and descends b's down-path, 2j + 2 hops, a shortest path. In round j
// every processor sends to its partner along that path: the up channels name their sender and the down
// channels their receiver, so the round is channel-disjoint, one send and one receive a
// processor. After round j a processor holds the sum of its aligned group of 2^(j+1), so
// n rounds all-reduce; a processor has one link, so the reduce-information bound is
// ceil(log2 N) = n (docs/BOUNDS.md, "reduce-information"): the schedule meets it.
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/engines/reduction.hpp"
#include "rounds.hpp"

namespace ccsched::reduce_detail {
namespace {

// a with bit l removed.
long long drop_bit(long long a, int l) {
  const long long low = a & ((1LL << l) - 1);
  return low | ((a >> (l + 1)) << l);
}

}  // namespace

void add_fattree_designs(const Problem& p, std::vector<ReductionCandidate>& out) {
  const Collective& c = p.collective;
  if (!wormhole_exchange_applies(p)) return;
  const Topology& t = p.topology;
  const std::string& name = t.name();
  if (!name.starts_with("fattree:")) return;
  const long long procs = t.processor_count();
  if (procs < 2 || !std::has_single_bit(static_cast<unsigned long long>(procs)) ||
      name != "fattree:" + std::to_string(procs) ||
      static_cast<long long>(c.senders.size()) != procs)
    return;
  const int n = std::countr_zero(static_cast<unsigned long long>(procs));
  const long long half = procs / 2;
  if (t.node_count() != procs + half * n) return;
  for (long long a = 0; a < procs; ++a)
    if (!t.is_processor(static_cast<NodeId>(a)) || c.senders[a] != a) return;
  auto sw = [&](int level, long long word) {
    return static_cast<NodeId>(procs + level * half + word);
  };
  const std::vector<int> blocks = all_blocks(c);
  std::vector<Transfer> transfers;
  std::vector<NodeId> path;
  for (int j = 0; j < n; ++j)
    for (long long a = 0; a < procs; ++a) {
      const long long b = a ^ (1LL << j);
      path.clear();
      path.push_back(static_cast<NodeId>(a));
      for (int l = 0; l <= j; ++l) path.push_back(sw(l, drop_bit(a, l)));
      for (int l = j - 1; l >= 0; --l) path.push_back(sw(l, drop_bit(b, l)));
      path.push_back(static_cast<NodeId>(b));
      // A missing link (a faulty copy keeps the name): the design steps aside.
      if (!add_path_transfers(transfers, p, static_cast<Step>(j + 1), path, blocks,
                              ReductionRecv::reduce))
        return;
    }
  out.push_back({"recursive doubling (fat tree, up-paths keep the sender's low bits)",
                 assemble_schedule(p, std::move(transfers), "", 0)});
}

}  // namespace ccsched::reduce_detail
