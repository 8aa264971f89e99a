// The conflict-counting fitness of seed 000 §4.3, kept incrementally: per step, the load
// of every channel and the sends and receives of every node. Adding or removing one
// transfer changes the count by exactly the conflicts it takes part in, so a move that
// relocates one message costs the length of its paths, never a recount of the schedule.
//
// fitness = Σ over (step, channel) of C(load, 2)      two transfers sharing a channel in
//                                                       one step (seed 000 §4.3, Fig. 6)
//         + Σ over (step, node) of max(0, sends − k)   k-port model (FORMATS.md rule 4;
//           + max(0, receives − k)                      only under a k-port model)
//         + number of transfers after step T            the penalty of seed 000 §4.4
// Zero means the transfers form a valid schedule of at most T steps.
#pragma once

#include <cstdint>
#include <vector>

#include "genome.hpp"
#include "instance.hpp"

namespace ccsched::evo {

class Occupancy {
 public:
  explicit Occupancy(const Instance& inst);

  void clear();
  void add(const Placement& p);
  void remove(const Placement& p);
  std::int64_t conflicts() const { return conflicts_; }

  // What adding `p` would add to conflicts() (the occupancy itself unchanged).
  std::int64_t cost(const Placement& p) const;
  // True when the placed transfer `p` takes part in at least one conflict.
  bool conflicted(const Placement& p) const;

  bool send_free(int step, NodeId node) const {
    return !inst_->port_limited() || step > inst_->steps() ||
           sends_[index_node(step, node)] < static_cast<std::uint32_t>(inst_->ports());
  }
  bool receive_free(int step, NodeId node) const {
    return !inst_->port_limited() || step > inst_->steps() ||
           receives_[index_node(step, node)] < static_cast<std::uint32_t>(inst_->ports());
  }
  int sends(int step, NodeId node) const {
    return static_cast<int>(sends_[index_node(step, node)]);
  }

  // Places every gene of `genome` after clear(); returns the fitness.
  std::int64_t place_all(const Genome& genome);

 private:
  std::size_t index_channel(int step, ChannelId c) const {
    return static_cast<std::size_t>(step) * channels_ + static_cast<std::size_t>(c);
  }
  std::size_t index_node(int step, NodeId n) const {
    return static_cast<std::size_t>(step) * nodes_ + static_cast<std::size_t>(n);
  }

  const Instance* inst_;
  std::size_t channels_;
  std::size_t nodes_;
  std::vector<std::uint32_t> load_;      // [step][channel], steps 1..T
  std::vector<std::uint32_t> sends_;     // [step][node]
  std::vector<std::uint32_t> receives_;  // [step][node]
  std::int64_t conflicts_ = 0;
};

}  // namespace ccsched::evo
