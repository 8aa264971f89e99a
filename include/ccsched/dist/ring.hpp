// The migration topology of the island model: a directed ring, island i sends to
// (i + 1) mod n and receives from (i − 1) mod n (pagmo's "ring" topology). One island
// alone sends to itself, which keeps the code path the same for any island count.
#pragma once

namespace ccsched::dist {

class RingTopology {
 public:
  explicit RingTopology(int islands) : islands_(islands < 1 ? 1 : islands) {}
  int islands() const { return islands_; }
  int next(int island) const { return (island + 1) % islands_; }
  int previous(int island) const { return (island + islands_ - 1) % islands_; }

 private:
  int islands_;
};

}  // namespace ccsched::dist
