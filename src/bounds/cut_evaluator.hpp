// Internal to the bounds module: the value of one cut (S, V∖S) of the nodes.
//
// A message must cross from S to V∖S at least c times when every route it may take does
// (docs/BOUNDS.md §cut): a message that may be relayed (broadcast, store-and-forward, or
// any scatter message unless direct delivery is assumed), the largest over its targets of
// the fewest over any walk; a direct scatter message on shortest transfers, the fewest
// S→S̄ channels over its shortest-path DAG; a direct scatter message on longer transfers,
// the fewest over any transfer-graph path. A step uses each of the |δ+(S)| channels once,
// so the crossings need ⌈Σc / |δ+(S)|⌉ steps. A message leaving S also needs one transfer
// that starts in S and ends outside it, so port limits give two more ceilings.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "context.hpp"

namespace ccsched::bounds_detail {

struct CutValue {
  long long demand = 0;        // channel crossings S→S̄ the messages need
  long long channels = 0;      // channels S→S̄
  long long leaving = 0;       // messages with their origin in S and a target outside
  long long out_capacity = 0;  // Σ over processors in S of transfers started per step
  long long in_capacity = 0;   // Σ over processors outside S of transfers ended per step
  long long value = 0;         // the bound: max of the three ceilings
  double ratio = 0;            // the same before rounding up (for search)
  int binding = 0;             // 0: channels, 1: ports of S, 2: ports of V∖S
};

class CutEvaluator {
 public:
  // `both_directions`: count crossings in either direction (seed 000's B_C, Δ) instead of
  // S→S̄ only.
  explicit CutEvaluator(const BoundContext& ctx, bool both_directions = false);

  CutValue evaluate(const std::vector<char>& side) const;
  // Per-message crossing counts for `side` in demand order (for arguments and Δ).
  std::vector<long long> crossings(const std::vector<char>& side) const;
  // Channel visits one evaluation costs (search budget).
  long long cost() const { return cost_; }
  // One line for an argument: "S = {...}: 16 crossings needed over 2 channels: ⌈16/2⌉ = 8".
  std::string explain(const std::vector<char>& side, const CutValue& v) const;

 private:
  struct DagTarget {
    NodeId target;
    std::vector<NodeId> order;  // nodes by increasing distance to target (finite only)
    std::vector<std::pair<std::size_t, NodeId>> origins;  // (demand index, origin)
  };
  struct WalkOrigin {
    NodeId origin;
    bool transfer;  // transfer graph (terminals rule) instead of walk graph
    std::vector<std::size_t> demands;
  };

  int weight(const std::vector<char>& side, ChannelId c) const;
  void run_dag(const std::vector<char>& side, const DagTarget& d,
               std::vector<long long>& per) const;
  void run_walk(const std::vector<char>& side, const WalkOrigin& w,
                std::vector<long long>& per) const;

  const BoundContext& ctx_;
  bool both_;
  std::vector<DagTarget> dag_;
  std::vector<WalkOrigin> walk_;
  long long cost_ = 0;
  mutable std::vector<int> label_;
  mutable std::deque<NodeId> deque_;
};

}  // namespace ccsched::bounds_detail
