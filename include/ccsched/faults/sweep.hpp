// Link-fault sweeps (seed 000 §5, Table 5): for every single faulty link — and every pair
// with `double_faults` — re-design each collective on the damaged network and report its
// best lower bound and steps next to the fault-free figures, marking degraded entries.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ccsched/engines/driver.hpp"

namespace ccsched {

// A link of the network as a fault removes it: both channels of an undirected network's
// link; in a digraph, one channel.
struct Link {
  std::vector<Channel> channels;
  std::string name;  // "01-10" (labels when the network has them)
};

// Every link of the network: an undirected network's node pairs once each; every channel
// of a digraph.
std::vector<Link> network_links(const Topology& t);

struct FaultCell {
  int lower_bound = 0;
  int steps = -1;          // -1: no schedule found (or the collective became impossible)
  bool optimal = false;     // proven under the model (relays included)
  std::string optimal_within;  // proven only inside this restriction ("direct delivery")
  bool degraded = false;   // more steps than without faults
  std::string note;
};

struct FaultRow {
  std::string name;        // "none" for the fault-free row
  std::vector<Link> faults;
  bool connected = true;   // processors still strongly connected
  int diameter = 0;        // processor diameter of the damaged network
  std::vector<FaultCell> cells;  // one per kind
};

struct FaultSweepRequest {
  std::vector<CollectiveKind> kinds;
  CollectiveRequest collective;  // root, senders, ... (kind is overwritten per column)
  Model model;
  std::vector<Link> links;       // the links to fail; empty = all
  bool double_faults = false;
  SolveRequest solve;            // engine, per-problem time limit, seed
  double time_limit = 1e18;      // whole sweep; cells after it are left unknown
  // Called after each row (for progress output): the row, rows done, rows in all.
  std::function<void(const FaultRow&, std::size_t, std::size_t)> on_row;
};

struct FaultSweep {
  std::vector<std::string> kinds;
  std::vector<FaultRow> rows;    // rows[0] is the fault-free network
  int fault_diameter = 0;        // max processor diameter over single faults that keep the
                                 // processors connected
  bool complete = true;          // false when the time limit cut the sweep short
};

FaultSweep sweep_faults(const Topology& t, const FaultSweepRequest& request);

}  // namespace ccsched
