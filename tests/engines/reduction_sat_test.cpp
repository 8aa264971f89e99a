// The exact reduction search (engines/reduction_sat.hpp) against an independent
// breadth-first search over accumulator states written here: on tiny networks, 1-port and
// all-port, wormhole and store-and-forward, the optimum the SAT engine proves (schedule at
// T, infeasible at T-1) must equal the fewest steps the search needs, and every schedule it
// returns must pass verify_schedule, and every lower bound must stay at or below that
// optimum. The search shares nothing with the engine beyond the
// topology: its own paths (every minimal path, or every channel under store-and-forward),
// its own reading of R2 (send input or acc, receive reduce or copy) and its own targets.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <tuple>

#include "../support/reduction_problems.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/reduction.hpp"
#include "ccsched/engines/reduction_sat.hpp"
#include "ccsched/engines/volume_sat.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/io.hpp"

namespace ccsched {
namespace {

// Switching before blocks: these tests vary the switching more often than the blocks.
Problem make_problem(const std::string& spec, CollectiveKind kind, std::optional<int> ports,
                     Switching switching = Switching::wormhole,
                     std::optional<int> blocks = std::nullopt) {
  return testing::make_reduction_problem(spec, kind, ports, blocks, switching);
}

// ---- the independent search ------------------------------------------------------------

struct Candidate {  // one transfer the search may choose: ends, channels, kind, block
  int from = 0, to = 0;  // processor positions
  std::vector<int> channels;
  bool send_input = false, copy = false;
  int block = 0;
};

// Every transfer of one step between processors: all minimal paths (hop count = the BFS
// distance, found here by depth-first search) under wormhole, single channels under
// store-and-forward; each with the four kinds (input only from a sender), for every block.
std::vector<Candidate> candidates(const Problem& p, const std::vector<int>& sender_of) {
  const Topology& t = p.topology;
  const int n = t.node_count();
  std::vector<NodeId> procs(t.processors().begin(), t.processors().end());
  std::vector<int> pos(n, -1);
  for (int k = 0; k < static_cast<int>(procs.size()); ++k) pos[procs[k]] = k;
  auto dist_from = [&](NodeId s) {
    std::vector<int> d(n, -1);
    std::vector<NodeId> queue{s};
    d[s] = 0;
    for (std::size_t q = 0; q < queue.size(); ++q)
      for (ChannelId c : t.out_channels(queue[q])) {
        const NodeId w = t.channel(c).to;
        if (d[w] < 0) {
          d[w] = d[queue[q]] + 1;
          queue.push_back(w);
        }
      }
    return d;
  };
  std::vector<Candidate> out;
  for (NodeId u : procs) {
    const auto d = dist_from(u);
    std::vector<std::vector<int>> found;  // channel lists, per end
    std::vector<NodeId> ends;
    std::vector<int> chans;
    std::function<void(NodeId)> walk = [&](NodeId x) {
      if (x != u && t.is_processor(x)) {
        found.push_back(chans);
        ends.push_back(x);
      }
      if (p.model.switching == Switching::store_and_forward && x != u) return;
      for (ChannelId c : t.out_channels(x)) {
        const NodeId w = t.channel(c).to;
        if (d[w] != d[x] + 1) continue;  // minimal: every hop one further from u
        chans.push_back(c);
        walk(w);
        chans.pop_back();
      }
    };
    walk(u);
    for (std::size_t j = 0; j < found.size(); ++j)
      for (bool input : {false, true})
        for (bool copy : {false, true})
          for (int b = 0; b < p.collective.blocks; ++b) {
            if (input && sender_of[u] < 0) continue;
            out.push_back({pos[u], pos[ends[j]], found[j], input, copy, b});
          }
  }
  return out;
}

// Fewest steps to reach the targets, or -1 beyond `limit`. A state is one bit mask of
// sender positions per accumulator (processor, block); a step is any set of candidates
// with distinct channels, at most k out of and into each processor, R2 as FORMATS.md
// words it (per accumulator).
int exact_steps(const Problem& p, int limit) {
  const Topology& t = p.topology;
  std::vector<NodeId> procs(t.processors().begin(), t.processors().end());
  const int P = static_cast<int>(procs.size());
  std::vector<int> sender_of(t.node_count(), -1), pos(t.node_count(), -1);
  for (int k = 0; k < P; ++k) pos[procs[k]] = k;
  const auto& senders = p.collective.senders;
  for (int i = 0; i < static_cast<int>(senders.size()); ++i) sender_of[senders[i]] = i;
  const int B = p.collective.blocks;
  auto slot = [B](int k, int b) { return k * B + b; };
  // The goal, read from the kind (not from reduction_targets): ALLREDUCE / REDUCE every
  // receiver holds all senders in every block; REDUCESCATTER the j-th receiver in block
  // j; SCAN the j-th sender holds senders 0..j.
  std::vector<std::pair<int, unsigned>> goal;
  const unsigned all = (1U << senders.size()) - 1;
  if (p.collective.kind == CollectiveKind::SCAN) {
    for (int j = 0; j < static_cast<int>(senders.size()); ++j)
      for (int b = 0; b < B; ++b) goal.push_back({slot(pos[senders[j]], b), (2U << j) - 1});
  } else if (p.collective.kind == CollectiveKind::REDUCESCATTER) {
    for (int j = 0; j < static_cast<int>(p.collective.receivers.size()); ++j)
      goal.push_back({slot(pos[p.collective.receivers[j]], j), all});
  } else {
    for (NodeId r : p.collective.receivers)
      for (int b = 0; b < B; ++b) goal.push_back({slot(pos[r], b), all});
  }
  const auto cands = candidates(p, sender_of);
  const int ports = p.model.ports.value_or(1 << 20);
  using State = std::vector<unsigned>;
  State start(P * B, 0);
  for (int k = 0; k < P; ++k)
    for (int b = 0; b < B; ++b)
      if (sender_of[procs[k]] >= 0) start[slot(k, b)] = 1U << sender_of[procs[k]];
  auto done = [&](const State& s) {
    return std::all_of(goal.begin(), goal.end(), [&](auto g) { return s[g.first] == g.second; });
  };
  if (done(start)) return 0;
  std::set<State> frontier{start}, seen{start};
  bool reached = false;
  for (int step = 0; step < limit; ++step) {
    std::set<State> next;
    for (const State& s : frontier) {
      std::vector<char> used(t.channel_count(), 0);
      std::vector<int> outs(P, 0), ins(P, 0), into(P * B, 0);
      std::vector<char> copied(P * B, 0);
      std::vector<unsigned> added(P * B, 0), copy_value(P * B, 0);
      // Candidates that can change the outcome in state s: an acc send needs a non-empty
      // accumulator; an input that equals the accumulator ({u}) does what the acc send
      // does; a reduce must be disjoint from acc[v]; a copy into an empty accumulator does
      // what the reduce of the same value does (which may also share the step).
      std::vector<const Candidate*> useful;
      for (const Candidate& c : cands) {
        const unsigned own = 1U << std::max(0, sender_of[procs[c.from]]);
        const unsigned held = s[slot(c.from, c.block)], there = s[slot(c.to, c.block)];
        const unsigned value = c.send_input ? own : held;
        if (value == 0 || (c.send_input && held == own)) continue;
        if (c.copy ? there == 0 : (value & there) != 0) continue;
        useful.push_back(&c);
      }
      std::function<void(std::size_t)> choose = [&](std::size_t j) {
        if (reached) return;  // the next level holds a goal state: step + 1 is the answer
        if (j == useful.size()) {
          State ns(P * B);
          for (int a = 0; a < P * B; ++a) ns[a] = copied[a] ? copy_value[a] : (s[a] | added[a]);
          if (seen.insert(ns).second) next.insert(ns);
          reached = reached || done(ns);
          return;
        }
        choose(j + 1);  // without candidate j
        const Candidate& c = *useful[j];
        const int to = slot(c.to, c.block);
        const unsigned value =
            c.send_input ? 1U << sender_of[procs[c.from]] : s[slot(c.from, c.block)];
        if (value == 0 || outs[c.from] >= ports || ins[c.to] >= ports || copied[to]) return;
        for (int ch : c.channels)
          if (used[ch]) return;
        if (c.copy) {
          if (into[to] > 0) return;  // a copy must be the only transfer into acc[v][b]
        } else if ((value & (s[to] | added[to])) != 0) {
          return;  // R2: the value would count an input twice
        }
        for (int ch : c.channels) used[ch] = 1;
        ++outs[c.from];
        ++ins[c.to];
        ++into[to];
        if (c.copy) {
          copied[to] = 1;
          copy_value[to] = value;
        } else {
          added[to] |= value;
        }
        choose(j + 1);
        for (int ch : c.channels) used[ch] = 0;
        --outs[c.from];
        --ins[c.to];
        --into[to];
        if (c.copy) {
          copied[to] = 0;
        } else {
          added[to] &= ~value;
        }
      };
      choose(0);
      if (reached) return step + 1;
    }
    frontier = std::move(next);
  }
  return -1;
}

// The optimum the engine proves: the shortest T it finds a schedule for, walking down from
// `from`, with T-1 answered infeasible (and complete). -1 when it does not prove one.
int sat_optimum(const Problem& p, int from, std::string& trace) {
  const PathSet paths(p.topology, p.model);
  ReductionSatEngine engine({});
  const Budget budget(60.0);
  int best = -1;
  for (int T = from; T >= 1; --T) {
    const EngineResult r = engine.solve(p, paths, T, budget);
    if (r.status == SolveStatus::feasible) {
      const auto v = verify_schedule(*r.schedule);
      if (!v.empty()) {
        trace += " T=" + std::to_string(T) + ": " + v.front().text;
        return -1;
      }
      EXPECT_LE(r.schedule->steps, T);
      best = r.schedule->steps;
      T = best;  // the loop decrements
      continue;
    }
    if (r.status == SolveStatus::infeasible && r.complete) return best;
    trace += " T=" + std::to_string(T) + ": " + std::string(to_string(r.status)) + " " + r.note;
    return -1;
  }
  return best;
}

struct OracleCase {
  std::string net;
  CollectiveKind kind;
  std::optional<int> ports;
  Switching switching = Switching::wormhole;
};

// Each case: the oracle's fewest steps, the engine's proven optimum, the driver's answer
// (designs, duals, the exact search walking up from the bound: the same optimum, proven)
// and every reduction bound at or below it. Returns the optima seen.
std::set<int> cross_check(const std::vector<OracleCase>& cases) {
  std::set<int> optima;
  for (const OracleCase& c : cases) {
    const Problem p = make_problem(c.net, c.kind, c.ports, c.switching);
    const std::string what = c.net + " " + std::string(to_string(c.kind)) +
                             (c.ports ? " 1-port" : " all-port") +
                             (c.switching == Switching::wormhole ? "" : " sf");
    const int exact = exact_steps(p, 6);
    EXPECT_GT(exact, 0) << what;
    if (exact <= 0) continue;
    std::string trace;
    if (p.collective.blocks == 1) {
      EXPECT_EQ(sat_optimum(p, exact + 1, trace), exact) << what << trace;
    }
    SolveRequest request;
    request.time_limit = 60.0;
    const SolveOutcome out = solve_problem(p, request);
    EXPECT_TRUE(out.schedule) << what;
    EXPECT_EQ(out.schedule ? out.schedule->steps : -1, exact) << what << ": " << out.reason;
    EXPECT_TRUE(out.optimal) << what << ": " << out.reason;
    // Every reduction bound (docs/BOUNDS.md) must hold at the exact optimum.
    const PathSet paths(p.topology, p.model);
    for (const LowerBound& b : lower_bounds(p, paths).bounds)
      EXPECT_LE(b.value, exact) << what << ": bound " << b.name << " " << b.argument;
    optima.insert(exact);
  }
  return optima;
}

TEST(ReductionSat, ProvenOptimaMatchTheStateSearchOnTinyNetworks) {
  std::vector<OracleCase> cases;
  for (const std::string net : {"ring:3", "ring:4", "mesh:2x2", "complete:4", "uring:4"})
    for (auto kind : {CollectiveKind::ALLREDUCE, CollectiveKind::SCAN, CollectiveKind::REDUCE})
      for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()})
        cases.push_back({net, kind, ports});
  cases.push_back({"ring:4", CollectiveKind::ALLREDUCE, 1, Switching::store_and_forward});
  // The cases differ: 1, 2 and 3 steps occur.
  EXPECT_EQ(cross_check(cases), (std::set<int>{1, 2, 3}));
}

// The search at the volume bound (engines/volume_sat.hpp) against the state search, which
// has every path, relay, copy and input send: where T steps leave no spare reception the
// search's "no" must mean the state search needs more than T, and its "yes" a schedule
// that verifies (docs/BOUNDS.md, "reduce-volume, met exactly"). Then the driver: the
// optimum, proven, where the volume search decides it.
TEST(ReductionSat, VolumeSearchMatchesTheStateSearchWithBlocks) {
  // "No": mesh:1x3 with 2 blocks in 2 steps (8 receptions, 4 channels). The state search's
  // optimum is 3, so 2 is infeasible under the model, and the driver proves 3.
  const Problem line = make_problem("mesh:1x3", CollectiveKind::ALLREDUCE, std::nullopt,
                                    Switching::wormhole, 2);
  ASSERT_TRUE(volume_exact(line, 2));
  const EngineResult no = volume_sat(line, 2, Budget(60.0));
  EXPECT_EQ(no.status, SolveStatus::infeasible) << no.note;
  EXPECT_TRUE(no.complete);
  EXPECT_EQ(exact_steps(line, 3), 3);
  SolveRequest request;
  request.time_limit = 60.0;
  const SolveOutcome out = solve_problem(line, request);
  ASSERT_TRUE(out.schedule) << out.reason;
  EXPECT_EQ(out.schedule->steps, 3);
  EXPECT_TRUE(out.optimal) << out.reason;
  EXPECT_TRUE(verify_schedule(*out.schedule).empty());
  // "Yes" at the bound: a verified schedule of that many steps needs no oracle.
  for (const auto& [net, blocks, steps] :
       std::vector<std::tuple<std::string, int, int>>{{"ring:3", 3, 2}, {"hypercube:2", 4, 3}}) {
    const Problem p = make_problem(net, CollectiveKind::ALLREDUCE, std::nullopt,
                                   Switching::wormhole, blocks);
    EXPECT_TRUE(volume_exact(p, steps)) << net;
    const EngineResult r = volume_sat(p, steps, Budget(60.0));
    ASSERT_EQ(r.status, SolveStatus::feasible) << net << ": " << r.note;
    EXPECT_TRUE(verify_schedule(*r.schedule).empty()) << net;
    EXPECT_EQ(r.schedule->steps, steps) << net;
  }
  // Outside the search: one port under two channels, switches, one block.
  EXPECT_NE(volume_sat_refusal(make_problem("ring:4", CollectiveKind::ALLREDUCE, 1,
                                            Switching::wormhole, 4), 3), "");
  EXPECT_NE(volume_sat_refusal(make_problem("omega:4", CollectiveKind::ALLREDUCE,
                                            std::nullopt, Switching::wormhole, 4), 3), "");
  EXPECT_NE(volume_sat_refusal(make_problem("ring:4", CollectiveKind::ALLREDUCE, std::nullopt),
                               3), "");
}

// REDUCESCATTER (one block per receiver), decided by the driver through the reversed
// all-to-all broadcast, against the state search with its blocks.
TEST(ReductionSat, ReduceScatterOptimaMatchTheStateSearch) {
  std::vector<OracleCase> cases;
  for (const std::string net : {"ring:3", "uring:3", "fbtree:3", "complete:3"})
    for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()})
      cases.push_back({net, CollectiveKind::REDUCESCATTER, ports});
  EXPECT_GE(cross_check(cases).size(), 2U);
}

// Networks with switches (routes through routers; the MINs are directed) and paths.
TEST(ReductionSat, ProvenOptimaMatchTheStateSearchThroughSwitches) {
  std::vector<OracleCase> cases;
  for (const std::string net : {"fbtree:3", "uring:3", "omega:4", "butterfly:4", "btree:4"})
    for (auto kind : {CollectiveKind::ALLREDUCE, CollectiveKind::SCAN, CollectiveKind::REDUCE})
      for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()})
        // The larger all-reduce state spaces of the two 4-leaf trees cost seconds each.
        if (kind != CollectiveKind::ALLREDUCE || (net != "butterfly:4" && net != "btree:4"))
          cases.push_back({net, kind, ports});
  EXPECT_GE(cross_check(cases).size(), 2U);
}

// The driver uses the search: ring:8 ALLREDUCE 1-port (designs: 4 or 5 steps, information
// bound 3) ends proven optimal, and so does a scan on a small torus.
TEST(ReductionSat, DriverProvesSmallAllreduceAndScan) {
  for (const auto& [net, kind] : std::vector<std::pair<std::string, CollectiveKind>>{
           {"ring:8", CollectiveKind::ALLREDUCE}, {"ring:6", CollectiveKind::SCAN},
           {"ring:6", CollectiveKind::ALLREDUCE}}) {
    const Problem p = make_problem(net, kind, 1);
    SolveRequest request;
    request.time_limit = 60.0;
    const SolveOutcome out = solve_problem(p, request);
    ASSERT_TRUE(out.schedule) << net << ": " << out.reason;
    EXPECT_TRUE(verify_schedule(*out.schedule).empty()) << net;
    EXPECT_TRUE(out.optimal) << net << ": " << out.reason;
    EXPECT_EQ(out.lower_bound, out.schedule->steps) << net;
  }
}

// A network named by its spec and the same network read back from an exported file get
// the same answer: same steps, same claim, both proven (docs/ENGINES.md "Reductions:
// exact search"). The JSON file keeps the spec as its name; the edge list is read back
// under another name (as a file without one, or an anynet file, is), so that no design
// that recognises a network by its name applies; the exact search decides both.
TEST(ReductionSat, ExportedNetworksGetTheSameAnswerAsTheirSpec) {
  for (const std::string net : {"ring:5", "mesh:2x3", "hypercube:2", "uring:4"})
    for (auto format : {TopologyFormat::json, TopologyFormat::edges})
      for (auto kind : {CollectiveKind::REDUCE, CollectiveKind::ALLREDUCE,
                        CollectiveKind::REDUCESCATTER, CollectiveKind::SCAN})
        for (std::optional<int> ports : {std::optional<int>(1), std::optional<int>()}) {
          const Problem named = make_problem(net, kind, ports);
          Topology read = read_topology(write_topology(named.topology, format), format, "exported");
          if (format == TopologyFormat::edges) read.set_name("exported.edges");
          Problem exported{read, {}, named.model};
          CollectiveRequest request;
          request.kind = kind;
          exported.collective = make_collective(read, request);
          const std::string what = net + " " + std::string(to_string(kind)) +
                                   (ports ? " 1-port" : " all-port") + " as " + read.name();
          SolveRequest solve;
          solve.time_limit = 60.0;
          const SolveOutcome a = solve_problem(named, solve);
          const SolveOutcome b = solve_problem(exported, solve);
          ASSERT_TRUE(a.schedule && b.schedule) << what;
          EXPECT_TRUE(verify_schedule(*b.schedule).empty()) << what;
          EXPECT_EQ(a.schedule->steps, b.schedule->steps) << what << ": " << b.reason;
          EXPECT_TRUE(a.optimal) << what << ": " << a.reason;
          EXPECT_TRUE(b.optimal) << what << ": " << b.reason;
        }
}

// No design applies to a scan under store-and-forward on a mesh (every design needs routes
// longer than one hop); the exact search then walks up from the bound and answers.
TEST(ReductionSat, DriverAnswersWhereNoDesignApplies) {
  const Problem p =
      make_problem("mesh:3x3", CollectiveKind::SCAN, std::nullopt, Switching::store_and_forward);
  SolveRequest request;
  request.time_limit = 60.0;
  const SolveOutcome out = solve_problem(p, request);
  ASSERT_TRUE(out.schedule) << out.reason;
  EXPECT_TRUE(verify_schedule(*out.schedule).empty());
  EXPECT_EQ(out.schedule->solver->engine, "reduction-sat");
  EXPECT_LE(out.lower_bound, out.schedule->steps);
}

// reduce-cut (docs/BOUNDS.md) against exact optima the search proves: ring:8 ALLREDUCE
// all-port needs 3 steps (the information bound says 2: two ports, log3 8), and the cut
// bound is 3; under one port the cut bound must stay at or below the proven optimum 3.
TEST(ReductionSat, CutBoundMeetsTheProvenOptimumOnRing8) {
  for (std::optional<int> ports : {std::optional<int>(), std::optional<int>(1)}) {
    const Problem p = make_problem("ring:8", CollectiveKind::ALLREDUCE, ports);
    const PathSet paths(p.topology, p.model);
    int cut = 0, information = 0;
    for (const LowerBound& b : lower_bounds(p, paths).bounds) {
      if (b.name == "reduce-cut") cut = b.value;
      if (b.name == "reduce-information") information = b.value;
    }
    ReductionSatEngine engine({});
    const Budget budget(60.0);
    const auto at3 = engine.solve(p, paths, 3, budget);
    ASSERT_EQ(at3.status, SolveStatus::feasible) << at3.note;
    EXPECT_TRUE(verify_schedule(*at3.schedule).empty());
    const auto at2 = engine.solve(p, paths, 2, budget);
    EXPECT_EQ(at2.status, SolveStatus::infeasible) << at2.note;
    EXPECT_TRUE(at2.complete);
    EXPECT_EQ(cut, 3);
    EXPECT_EQ(information, ports ? 3 : 2);
  }
}

// Outside its reach the engine says so without building anything, and claims nothing.
TEST(ReductionSat, RefusesLargeOrMultiBlockProblems) {
  const Problem blocks = make_problem("ring:4", CollectiveKind::ALLREDUCE, 1,
                                      Switching::wormhole, 4);
  const PathSet paths4(blocks.topology, blocks.model);
  EXPECT_FALSE(reduction_sat_refusal(blocks, paths4, 3, {}).empty());
  ReductionSatEngine engine({});
  const auto r = engine.solve(blocks, paths4, 3, Budget(10.0));
  EXPECT_EQ(r.status, SolveStatus::unknown);
  EXPECT_FALSE(r.complete);
  const Problem big = make_problem("torus:8x8", CollectiveKind::ALLREDUCE, 1);
  const PathSet paths64(big.topology, big.model);
  EXPECT_NE(reduction_sat_refusal(big, paths64, 6, {}).find("processors"), std::string::npos);
}

// Nonminimal routing: the model allows a path from a processor around a cycle back to
// itself, which the encoding leaves out, so an "infeasible" is a proof within that
// restriction only.
TEST(ReductionSat, NonminimalRoutingProvesWithinARestriction) {
  Problem p = make_problem("ring:4", CollectiveKind::ALLREDUCE, 1);
  p.model.routing = Routing::nonminimal;
  p.model.extra_hops = 2;
  const PathSet paths(p.topology, p.model);
  ReductionSatEngine engine({});
  const auto r = engine.solve(p, paths, 1, Budget(10.0));
  EXPECT_EQ(r.status, SolveStatus::infeasible);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.proof_within, "transfers between distinct processors");
}

}  // namespace
}  // namespace ccsched
