// Shortest hop counts and shortest-path counts in closed form on the generated families
// whose structure is a formula (torus, mesh, ring, uring, hypercube, fat tree), so that
// routing and bounds need no table over pairs of processors (docs/ENGINES.md, "Beyond
// 1,024"). A network that is not exactly the generated one (faults, a file, another
// family) has no closed form; callers then search the graph.
//
//   if (const auto m = FamilyMetric::of(topology))
//     int d = m->distance(u, v);   // v a processor; O(dimensions), no memory
#pragma once

#include <optional>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

class FamilyMetric {
 public:
  // The closed form of `t` when its name is a torus, mesh, ring, uring, hypercube or
  // fattree spec and its nodes and channels are exactly those of that network (checked
  // channel by channel in O(channels), without building the network again); nothing
  // otherwise.
  static std::optional<FamilyMetric> of(const Topology& t);

  // Hops of a shortest path from any node `from` to the processor `to`.
  int distance(NodeId from, NodeId to) const;
  // The number of shortest paths from `from` to the processor `to` (1 when from == to), the
  // count PathSet's minimal routing lists (a double: it overflows 64 bits on large tori).
  double ways(NodeId from, NodeId to) const;
  // True when `to` is a processor, the nodes distance() and ways() answer for.
  bool answers_for(NodeId to) const { return to >= 0 && to < processors_; }

  // The diameter and Σ over ordered pairs of distinct processors (the invariants of
  // docs/TOPOLOGIES.md), in closed form: O(dimensions), for any size.
  struct PairSums {
    int diameter = 0;
    long long sigma = 0;
  };
  PairSums pair_sums() const;

  // The balanced cuts across one dimension of a torus, mesh, ring or hypercube of even
  // side (coordinate below half the side on side 0): the natural bisections, which the
  // general local search misses on large grids. A side (0/1) per node; none for others.
  std::vector<std::vector<char>> halving_cuts() const;

 private:
  enum class Kind { grid, uring, fattree };
  bool adjacent(NodeId a, NodeId b) const;
  // Fat tree: whether `from` is a processor, the level of its switch (a processor's: 0),
  // and the word bits from that level up in which the switch and `to`'s switch differ.
  struct Climb {
    bool processor;
    long long level;
    long long differ;
  };
  Climb climb(NodeId from, NodeId to) const;
  long long expected_channels() const;

  Kind kind_ = Kind::grid;
  int processors_ = 0;
  // Grids (a hypercube is the mesh 2x...x2 with the bits as coordinates, a ring the 1-D
  // torus): sides and strides per dimension, and whether they wrap.
  std::vector<int> side_;
  std::vector<long long> stride_;
  bool wrap_ = false;
  int levels_ = 0;  // fat tree: switch levels (processors = 2^levels)
};

}  // namespace ccsched
