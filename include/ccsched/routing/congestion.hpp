// Congestion levelling: channel weights by multiplicative weights, the linear-programming
// dual of "route every message so that the busiest channel carries as little as possible".
//
// For any weights w >= 0 on the channels, every routing has
//     max load  >=  Σ_m count_m · dist_w(m)  /  Σ_c w_c
// (Σ_c w_c · load_c is at least the weighted length of every route, and at most the max
// load times Σ w). With w = 1 this is the channel-load bound (seed 000, eq. (6)); weights
// that grow on the channels the shortest routes crowd (Kautz digraphs) make it stronger.
// The same rounds route every message on a least-weight route, and the routing with the
// smallest max load is kept: a good start for schedules that relay (relay_shop.hpp).
// Proof and use: docs/BOUNDS.md §weighted-load.
//
//   CongestionInput in{topology, usable, /*pass_through=*/true, demands};
//   const auto r = level_congestion(in, {});
//   long long steps_at_least = (r.length + r.weight - 1) / r.weight;
//   for (ChannelId c : r.route(i)) ...   // demand i's route, origin to target
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

struct CongestionDemand {
  NodeId origin = kNoNode;
  NodeId target = kNoNode;
  long long count = 1;  // identical messages
};

struct CongestionInput {
  const Topology& topology;
  std::span<const char> usable;  // per channel: may a route use it
  bool pass_through = true;      // may a route pass intermediate nodes (else one channel)
  std::span<const CongestionDemand> demands;
};

struct CongestionOptions {
  long long work = 30'000'000;  // channel relaxations over all rounds
  int max_rounds = 300;
  double step = 0.05;        // multiplicative-weights rate
  bool keep_routes = false;  // keep the least-max-load routing (route())
  // Polled before every Dijkstra after the first round: true ends the levelling with the
  // certificate and routing of the rounds finished (the time limit and Ctrl-C; an
  // unfinished round is dropped, so the result is exact whenever it stops).
  std::function<bool()> stop;
};

class CongestionResult {
 public:
  // The best certificate: Σ count · least-weight route length and Σ weights, integers,
  // for the same weights. length / weight is a lower bound on the max channel load of
  // every routing of the demands through usable channels. weight == 0: no answer (some
  // target unreachable, or nothing to route).
  long long length = 0;
  long long weight = 0;
  std::vector<long long> weights;  // per channel, the certificate's (0 on unusable ones)
  int rounds = 0;
  long long max_load = 0;  // of the kept routing (keep_routes), else of the last round

  // Demand i's route in the kept routing (keep_routes): channels from origin to target.
  std::vector<ChannelId> route(std::size_t demand) const;

 private:
  friend CongestionResult level_congestion(const CongestionInput&, const CongestionOptions&);
  const Topology* topology_ = nullptr;
  std::vector<CongestionDemand> demands_;
  std::vector<std::int32_t> slot_;               // origin -> row of parent_, or -1
  std::vector<std::vector<ChannelId>> parent_;   // per origin: channel into each node
};

CongestionResult level_congestion(const CongestionInput& input, const CongestionOptions& options);

}  // namespace ccsched
