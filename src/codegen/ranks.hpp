// Rank numbering shared by the code generators (private to codegen): rank r is the r-th
// processor in id order; switches have no rank.
#pragma once

#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched::codegen_detail {

class RankMap {
 public:
  explicit RankMap(const Topology& t) : rank_(static_cast<std::size_t>(t.node_count()), -1) {
    for (const NodeId p : t.processors()) {
      rank_[p] = static_cast<int>(nodes_.size());
      nodes_.push_back(p);
    }
  }
  int size() const { return static_cast<int>(nodes_.size()); }
  NodeId node(int rank) const { return nodes_[rank]; }
  // The rank of a processor; throws InvalidInput naming `where` for switches and ids
  // outside the network (an unverified schedule).
  int rank(NodeId n, const char* where) const {
    if (n < 0 || n >= static_cast<NodeId>(rank_.size()) || rank_[n] < 0)
      throw InvalidInput("node " + std::to_string(n) + " is not a processor", where);
    return rank_[n];
  }

 private:
  std::vector<int> rank_;
  std::vector<NodeId> nodes_;
};

}  // namespace ccsched::codegen_detail
