// ALLREDUCE of several blocks at the volume bound (volume_sat.hpp; docs/ENGINES.md "Several
// blocks: at the volume bound", the shape's proof in docs/BOUNDS.md "reduce-volume, met
// exactly").
//
// Variables, for block b, channel c = (u -> w) and step t:
//   up[b][c][t]    u sends its accumulator up its tree to w (reduce): u's one tree edge
//   down[b][c][t]  u, holding the whole sum, sends it to w (copy)
//   ex[b][c][t]    u is the root, w its last child (sending up in step t): u's partial
//                  sum, everything but w's subtree, reduced into w in the same step
// and for block b and processor v: root[b][v]; the ladders done[v][t] (every tree edge into
// v is in a step <= t), sent[v][t] (v's edge up is in a step <= t), got[v][t] (v received
// its completing transfer in a step <= t). `sent` is implied by the rest (the order comes
// from `done`) and kept for the solver: without it hypercube:3 with 8 blocks took 1.86 s
// instead of 1.5, mesh:2x3 with 6 blocks 0.23 s instead of 0.06.
#include "ccsched/engines/volume_sat.hpp"

#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <vector>

#include "cnf.hpp"

namespace ccsched {

bool volume_exact(const Problem& p, int steps) {
  const auto n = static_cast<std::int64_t>(p.topology.processor_count());
  return static_cast<std::int64_t>(steps) * p.topology.channel_count() ==
         static_cast<std::int64_t>(p.collective.blocks) * 2 * (n - 1);
}

std::string volume_sat_refusal(const Problem& p, int steps, double max_memory) {
  const Collective& c = p.collective;
  const Topology& t = p.topology;
  if (c.kind != CollectiveKind::ALLREDUCE || c.blocks < 2) return "not an ALLREDUCE of several blocks";
  if (p.model.combining) return "combining";
  if (t.switch_count() > 0) return "a network with switches";
  if (static_cast<int>(c.senders.size()) != t.processor_count() ||
      static_cast<int>(c.receivers.size()) != t.processor_count())
    return "not every processor sends and receives";
  if (p.model.ports)
    for (const NodeId v : t.processors())
      if (static_cast<int>(t.in_channels(v).size()) > *p.model.ports ||
          static_cast<int>(t.out_channels(v).size()) > *p.model.ports)
        return "fewer ports than channels";
  if (steps < 1) return "no steps";
  const std::int64_t size = static_cast<std::int64_t>(c.blocks) * t.channel_count() * steps;
  if (size > kVolumeSatMaxSize)
    return fmt::format("{} block-channel-steps, more than {}", size, kVolumeSatMaxSize);
  // Measured: hypercube:6 with 64 blocks at 21 steps (516,096 block-channel-steps) built
  // 19.5 million clauses and peaked at 3.4 GB, about 6,700 bytes each; 7,000 here.
  const double bytes = 7000.0 * c.blocks * static_cast<double>(t.channel_count()) * steps;
  if (max_memory > 0 && bytes > max_memory)
    return fmt::format("an encoding of about {:.0f} MB, more than --max-memory", bytes / 1e6);
  return {};
}

EngineResult volume_sat(const Problem& p, int steps, const Budget& budget) {
  const auto start = std::chrono::steady_clock::now();
  EngineResult result;
  const std::string refusal = volume_sat_refusal(p, steps);
  if (!refusal.empty()) {
    result.note = refusal;
    return result;
  }
  const Topology& topo = p.topology;
  const int B = p.collective.blocks, T = steps, C = topo.channel_count(), N = topo.node_count();
  const bool exact = volume_exact(p, steps);
  auto solver = std::make_unique<CaDiCaL::Solver>();
  sat::Cnf cnf(solver.get());

  // Variable tables: [b][c][t] with t in 1..T, [b][v][t] with t in 0..T.
  auto cell = [&](int b, int x, int t, int width) {
    return (static_cast<std::size_t>(b) * width + x) * (T + 1) + t;
  };
  std::vector<int> up(static_cast<std::size_t>(B) * C * (T + 1)), down(up.size()), ex(up.size());
  std::vector<int> done(static_cast<std::size_t>(B) * N * (T + 1)), sent(done.size()), got(done.size());
  std::vector<int> root(static_cast<std::size_t>(B) * N);
  for (int b = 0; b < B; ++b) {
    for (int c = 0; c < C; ++c)
      for (int t = 1; t <= T; ++t) {
        up[cell(b, c, t, C)] = cnf.new_var();
        down[cell(b, c, t, C)] = cnf.new_var();
        ex[cell(b, c, t, C)] = cnf.new_var();
      }
    for (int v = 0; v < N; ++v) {
      root[static_cast<std::size_t>(b) * N + v] = cnf.new_var();
      for (int t = 0; t <= T; ++t) {
        done[cell(b, v, t, N)] = cnf.new_var();
        sent[cell(b, v, t, N)] = cnf.new_var();
        got[cell(b, v, t, N)] = cnf.new_var();
      }
    }
  }
  std::vector<int> list;
  for (int b = 0; b < B; ++b) {
    if (budget.expired()) break;
    auto U = [&](int c, int t) { return up[cell(b, c, t, C)]; };
    auto D = [&](int c, int t) { return down[cell(b, c, t, C)]; };
    auto X = [&](int c, int t) { return ex[cell(b, c, t, C)]; };
    auto R = [&](int v) { return root[static_cast<std::size_t>(b) * N + v]; };
    auto done_ = [&](int v, int t) { return done[cell(b, v, t, N)]; };
    auto sent_ = [&](int v, int t) { return sent[cell(b, v, t, N)]; };
    auto got_ = [&](int v, int t) { return got[cell(b, v, t, N)]; };
    // One root.
    list.clear();
    for (int v = 0; v < N; ++v) list.push_back(R(v));
    cnf.add(list);
    cnf.at_most_one(list);
    for (int v = 0; v < N; ++v) {
      const auto outs = topo.out_channels(v);
      const auto ins = topo.in_channels(v);
      // Ladders only rise; `sent` and `got` start false (`done` at 0 is true for a leaf).
      cnf.add({-sent_(v, 0)});
      cnf.add({-got_(v, 0)});
      for (int t = 1; t <= T; ++t) {
        cnf.add({-done_(v, t - 1), done_(v, t)});
        cnf.add({-sent_(v, t - 1), sent_(v, t)});
        cnf.add({-got_(v, t - 1), got_(v, t)});
      }
      cnf.add({done_(v, T)});
      // One edge up unless v is the root; `sent` marks its step.
      list.clear();
      for (const ChannelId c : outs)
        for (int t = 1; t <= T; ++t) {
          list.push_back(U(c, t));
          cnf.add({-R(v), -U(c, t)});
          cnf.add({-U(c, t), sent_(v, t)});
          cnf.add({-U(c, t), -sent_(v, t - 1)});
          // Everything below v has arrived first.
          cnf.add({-U(c, t), done_(v, t - 1)});
        }
      list.push_back(R(v));
      cnf.add(list);
      cnf.at_most_one(list);
      for (int t = 1; t <= T; ++t) {
        list = {-sent_(v, t), sent_(v, t - 1)};
        for (const ChannelId c : outs) list.push_back(U(c, t));
        cnf.add(list);
      }
      // Edges into v in step t keep `done` false before t.
      for (const ChannelId c : ins)
        for (int t = 1; t <= T; ++t) cnf.add({-U(c, t), -done_(v, t - 1)});
      // One completing reception unless v is the root; `got` marks its step.
      list.clear();
      for (const ChannelId c : ins)
        for (int t = 1; t <= T; ++t) {
          for (const int x : {D(c, t), X(c, t)}) {
            list.push_back(x);
            cnf.add({-R(v), -x});
            cnf.add({-x, got_(v, t)});
          }
        }
      list.push_back(R(v));
      cnf.add(list);
      cnf.at_most_one(list);
      for (int t = 1; t <= T; ++t) {
        list = {-got_(v, t), got_(v, t - 1)};
        for (const ChannelId c : ins) {
          list.push_back(D(c, t));
          list.push_back(X(c, t));
        }
        cnf.add(list);
      }
      for (const ChannelId c : outs) {
        const NodeId w = topo.channel(c).to;
        const auto back = topo.find_channel(w, v);
        for (int t = 1; t <= T; ++t) {
          // A copy goes out only from a whole sum: the root once its tree is in, anyone
          // else once its completing transfer has arrived.
          cnf.add({-D(c, t), R(v), got_(v, t - 1)});
          cnf.add({-D(c, t), -R(v), done_(v, t - 1)});
          // The exchange: v is the root, w's edge up is the last into v, in this step.
          if (!back) {
            cnf.add({-X(c, t)});
            continue;
          }
          cnf.add({-X(c, t), R(v)});
          cnf.add({-X(c, t), U(*back, t)});
          cnf.add({-X(c, t), done_(v, t)});
          for (const ChannelId other : ins)
            if (other != *back) cnf.add({-X(c, t), -U(other, t)});
        }
      }
    }
  }
  // Each channel carries one transfer a step; at the bound, exactly one.
  for (int c = 0; c < C && !budget.expired(); ++c)
    for (int t = 1; t <= T; ++t) {
      list.clear();
      for (int b = 0; b < B; ++b)
        for (const int x : {up[cell(b, c, t, C)], down[cell(b, c, t, C)], ex[cell(b, c, t, C)]})
          list.push_back(x);
      cnf.at_most_one(list);
      if (exact) cnf.add(list);
    }
  if (budget.expired()) {
    result.note = "the budget ran out while encoding";
    result.budget_exhausted = true;
    return result;
  }
  sat::limit_conflicts(*solver, budget, sat::kReferenceClauses);
  CaDiCaL::Solver* raw = solver.get();
  const int answer = sat::solve_detachable(solver, *raw, budget);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (answer == 20) {
    result.status = SolveStatus::infeasible;
    result.complete = exact;
    if (!exact) result.note = "spare receptions: a schedule need not have this shape";
    return result;
  }
  if (answer != 10) {
    result.note = "undecided within the budget";
    result.budget_exhausted = budget.expired();
    return result;
  }
  std::vector<Transfer> transfers;
  for (int b = 0; b < B; ++b)
    for (int c = 0; c < C; ++c)
      for (int t = 1; t <= T; ++t) {
        const Channel& ch = topo.channel(c);
        auto add = [&](int var, ReductionRecv recv) {
          if (raw->val(var) > 0)
            transfers.push_back({t, {ch.from, ch.to}, {}, {b}, ReductionSend::acc, recv});
        };
        add(up[cell(b, c, t, C)], ReductionRecv::reduce);
        add(down[cell(b, c, t, C)], ReductionRecv::copy);
        add(ex[cell(b, c, t, C)], ReductionRecv::reduce);
      }
  result.status = SolveStatus::feasible;
  result.complete = exact;
  result.schedule = assemble_schedule(p, std::move(transfers), "volume-sat", 0);
  return result;
}

}  // namespace ccsched
