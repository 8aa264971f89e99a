// Link-fault sweeps (seed 000 §5, Table 5). Each damaged network is a new problem: the
// collective is expanded again (the processors are unchanged), the lower bounds are
// recomputed on the damaged topology, and the driver re-designs the schedule. A fault
// that disconnects the processors makes every collective impossible; the row says so.
#include "ccsched/faults/sweep.hpp"

#include <algorithm>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/invariants.hpp"

namespace ccsched {
namespace {

int processor_diameter(const Topology& t, bool& connected) {
  int diameter = 0;
  connected = true;
  for (const NodeId p : t.processors()) {
    const auto dist = distances_from(t, p);
    for (const NodeId q : t.processors()) {
      if (dist[q] == kUnreachable) {
        connected = false;
        return 0;
      }
      diameter = std::max(diameter, dist[q]);
    }
  }
  return diameter;
}

FaultRow evaluate(const Topology& base, const std::vector<Link>& faults,
                  const FaultSweepRequest& request, const Budget& sweep_budget,
                  const FaultRow* baseline) {
  FaultRow row;
  std::vector<Channel> removed;
  for (const auto& link : faults) {
    row.name += (row.name.empty() ? "" : " + ") + link.name;
    removed.insert(removed.end(), link.channels.begin(), link.channels.end());
  }
  if (row.name.empty()) row.name = "none";
  row.faults = faults;
  Topology damaged = base.without_channels(removed);
  row.diameter = processor_diameter(damaged, row.connected);
  const std::string stopped = sweep_budget.interrupted() ? "interrupted" : "time limit";
  for (std::size_t k = 0; k < request.kinds.size(); ++k) {
    FaultCell cell;
    if (!row.connected) {
      cell.note = "processors disconnected";
      row.cells.push_back(cell);
      continue;
    }
    if (sweep_budget.expired()) {
      cell.note = stopped;
      row.cells.push_back(cell);
      continue;
    }
    CollectiveRequest cr = request.collective;
    cr.kind = request.kinds[k];
    Problem problem{damaged, make_collective(damaged, cr), request.model};
    SolveRequest solve = request.solve;
    solve.time_limit = std::min(effective_time_limit(problem, solve), sweep_budget.remaining());
    SolveOutcome out;
    try {
      out = solve_problem(problem, solve);
    } catch (const Unsupported& e) {
      // One cell the engines cannot handle (out of time in the greedy phase, over the
      // memory limit, interrupted) leaves the rest of the table intact.
      cell.note = e.what();
      row.cells.push_back(cell);
      continue;
    }
    cell.lower_bound = out.lower_bound;
    cell.optimal = out.optimal;
    cell.optimal_within = out.optimal_within;
    if (out.schedule) cell.steps = out.schedule->steps;
    cell.note = out.reason;
    if (baseline != nullptr && baseline->cells[k].steps > 0)
      cell.degraded = cell.steps < 0 || cell.steps > baseline->cells[k].steps;
    row.cells.push_back(cell);
  }
  return row;
}

}  // namespace

std::vector<Link> network_links(const Topology& t) {
  // In a digraph (Kautz, de Bruijn, MINs) every channel is a unidirectional link of its
  // own, as seed 000 Table 5 lists 01-10 and 10-01 apart; in an undirected network a link
  // is the pair of channels between two nodes, listed once.
  const bool directed = t.directed();
  std::vector<Link> links;
  for (const auto& c : t.channels()) {
    if (!directed && c.from > c.to) continue;
    Link link;
    link.channels.push_back(c);
    if (!directed) link.channels.push_back({c.to, c.from});
    link.name = t.display_name(c.from) + "-" + t.display_name(c.to);
    links.push_back(std::move(link));
  }
  return links;
}

FaultSweep sweep_faults(const Topology& t, const FaultSweepRequest& request) {
  const Budget budget(request.time_limit, request.solve.interrupt);
  FaultSweep sweep;
  for (const auto kind : request.kinds) sweep.kinds.emplace_back(to_string(kind));
  const auto links = request.links.empty() ? network_links(t) : request.links;
  const std::size_t total =
      1 + links.size() + (request.double_faults ? links.size() * (links.size() - 1) / 2 : 0);
  auto add = [&](FaultRow row) {
    sweep.rows.push_back(std::move(row));
    if (request.on_row) request.on_row(sweep.rows.back(), sweep.rows.size(), total);
  };
  add(evaluate(t, {}, request, budget, nullptr));
  const FaultRow baseline = sweep.rows.front();
  // Past the time limit (or Ctrl-C) no further rows are added: on large networks even
  // the diameter of every damaged network takes minutes.
  for (std::size_t i = 0; i < links.size() && !budget.expired(); ++i) {
    add(evaluate(t, {links[i]}, request, budget, &baseline));
    const auto& row = sweep.rows.back();
    if (row.connected) sweep.fault_diameter = std::max(sweep.fault_diameter, row.diameter);
  }
  if (request.double_faults)
    for (std::size_t i = 0; i < links.size() && !budget.expired(); ++i)
      for (std::size_t j = i + 1; j < links.size() && !budget.expired(); ++j)
        add(evaluate(t, {links[i], links[j]}, request, budget, &baseline));
  sweep.complete = !budget.expired() && sweep.rows.size() == total;
  return sweep;
}

}  // namespace ccsched
