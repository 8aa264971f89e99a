// Pipelined designs for several blocks (engines/pipelined.hpp, docs/ENGINES.md "Several
// blocks"): every design verifies on several networks and kinds; the translated trees meet
// the reduce-volume bound where docs/BENCHMARKS.md says they do; the driver proves the
// documented targets optimal through the new bounds.
#include "ccsched/engines/pipelined.hpp"

#include <gtest/gtest.h>

#include "../support/oracle.hpp"
#include "../support/reduction_problems.hpp"
#include "../support/solve_check.hpp"
#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/constructive.hpp"
#include "ccsched/engines/gossip.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {
namespace {

using testing::make_reduction_problem;

std::vector<ReductionCandidate> designs_for(const Problem& p, const PathSet& paths) {
  std::vector<ReductionCandidate> one;
  if (p.collective.kind != CollectiveKind::REDUCESCATTER)
    one = reduction_designs(with_one_block(p), paths);
  return pipelined_designs(p, paths, one);
}

// The driver answers `p` with `steps`, proven optimal, within 30 s.
void expect_driver_proves(const Problem& p, int steps, const std::string& what) {
  SolveRequest request;
  request.time_limit = 30;
  const SolveOutcome out = testing_support::solve_checked(p, request, what);
  ASSERT_TRUE(out.schedule) << what;
  EXPECT_EQ(out.schedule->steps, steps) << what;
  EXPECT_TRUE(out.optimal) << what;
}

TEST(PipelinedDesigns, EveryDesignVerifies) {
  struct Case {
    const char* net;
    CollectiveKind kind;
    std::optional<int> ports;
    std::optional<int> blocks;
  };
  const Case cases[] = {
      {"ring:8", CollectiveKind::ALLREDUCE, 1, 8},
      {"ring:8", CollectiveKind::ALLREDUCE, std::nullopt, 3},
      {"ring:6", CollectiveKind::REDUCE, 1, 4},
      {"ring:8", CollectiveKind::SCAN, 1, 2},
      {"torus:4x4", CollectiveKind::ALLREDUCE, std::nullopt, 16},
      {"torus:4x4", CollectiveKind::REDUCESCATTER, 1, std::nullopt},
      {"mesh:3x3", CollectiveKind::ALLREDUCE, 1, 5},
      {"hypercube:3", CollectiveKind::ALLREDUCE, std::nullopt, 8},
      {"hypercube:3", CollectiveKind::SCAN, std::nullopt, 3},
      {"kautz:2,2", CollectiveKind::ALLREDUCE, std::nullopt, 6},
      {"kautz:2,2", CollectiveKind::REDUCE, 1, 3},
      {"petersen", CollectiveKind::REDUCESCATTER, std::nullopt, std::nullopt},
  };
  int checked = 0;
  for (const Case& c : cases) {
    const Problem p = make_reduction_problem(c.net, c.kind, c.ports, c.blocks);
    const PathSet paths(p.topology, p.model);
    const auto designs = designs_for(p, paths);
    EXPECT_FALSE(designs.empty()) << c.net << " " << to_string(c.kind);
    for (const auto& d : designs) {
      ++checked;
      EXPECT_EQ(testing_support::violations_text(d.schedule), "")
          << c.net << " " << to_string(c.kind) << " " << d.design;
    }
  }
  EXPECT_GE(checked, 25);
}

int best_steps(const Problem& p, const std::string& prefix = "") {
  const PathSet paths(p.topology, p.model);
  int best = -1;
  for (const auto& d : designs_for(p, paths))
    if (d.design.rfind(prefix, 0) == 0 && (best < 0 || d.schedule.steps < best))
      best = d.schedule.steps;
  return best;
}

// The translated trees in lockstep on a torus: 64 blocks of a torus:8x8 all-port in 32
// steps, the reduce-volume bound ⌈64·126/256⌉ (the composition also has 32 there, so the
// design is checked here on its own).
TEST(PipelinedDesigns, TranslatedTreesMeetTheVolumeBoundOnATorus) {
  const Problem p =
      make_reduction_problem("torus:8x8", CollectiveKind::ALLREDUCE, std::nullopt, 64);
  const PathSet paths(p.topology, p.model);
  EXPECT_EQ(lower_bounds(p, paths).best, 32);
  EXPECT_EQ(best_steps(p, "pipelined trees, translated (lockstep)"), 32);
}

// hypercube:n with 2^n blocks, n = 5, 6, 7 (engines/reduce/cube_blocks.cpp): a one-block
// template and its time reversal moved over the even-weight translations meet the
// reduce-volume bound ceil(2 (p - 1) B / (p n)), 13, 21 and 37 steps (on hypercube:6 every
// channel busy every step); the driver proves them optimal. The schedules verify; a faulty
// copy, another block count or too few ports get nothing from it.
TEST(PipelinedDesigns, BlockTemplatesMeetTheVolumeBoundOnHypercubes) {
  auto templates = [](const Problem& q) {
    const PathSet paths(q.topology, q.model);
    std::vector<Schedule> found;
    for (auto& d : pipelined_designs(q, paths, {}))
      if (d.design.rfind("block templates", 0) == 0) found.push_back(std::move(d.schedule));
    return found;
  };
  for (const auto& [dims, steps] : {std::pair{5, 13}, std::pair{6, 21}, std::pair{7, 37}}) {
    const std::string net = "hypercube:" + std::to_string(dims);
    const Problem p =
        make_reduction_problem(net, CollectiveKind::ALLREDUCE, std::nullopt, 1 << dims);
    const PathSet paths(p.topology, p.model);
    EXPECT_EQ(lower_bounds(p, paths).best, steps) << net;
    const auto direct = templates(p);
    ASSERT_EQ(direct.size(), 1u) << net;
    EXPECT_EQ(direct[0].steps, steps) << net;
    EXPECT_TRUE(verify_schedule(direct[0]).empty()) << net;
    if (dims == 6) {
      EXPECT_EQ(direct[0].transfers.size(), 21u * 384u);  // every channel, every step
    }
    if (dims != 7) expect_driver_proves(p, steps, net + " blocks");
  }
  // Not offered on a faulty copy, for another block count, or under one port.
  Problem faulty =
      make_reduction_problem("hypercube:6", CollectiveKind::ALLREDUCE, std::nullopt, 64);
  const std::vector<Channel> broken{Channel{0, 1}};
  faulty.topology = faulty.topology.without_channels(broken);
  EXPECT_TRUE(templates(faulty).empty());
  EXPECT_TRUE(templates(make_reduction_problem("hypercube:6", CollectiveKind::ALLREDUCE,
                                               std::nullopt, 32))
                  .empty());
  EXPECT_TRUE(
      templates(make_reduction_problem("hypercube:6", CollectiveKind::ALLREDUCE, 1, 64)).empty());
}

// REDUCE over arc-disjoint trees (docs/ENGINES.md, "Several blocks"): on a torus four
// trees, on a mesh two, on hypercube:n n, each a block a step: ceil(B / m) - 1 + h steps,
// h the trees' height. As built, h is (R - 1) + (C - 1) on a torus whatever the root and on
// a mesh rooted at a corner; on mesh:6x5 rooted at (2, 3) the farthest node is (5, 0), 3 + 3
// hops in either tree (the root's row and column take a detour of one: 5); n + 1 on a
// hypercube (set the tree's bit, clear the n - 1 others, clear it). The local moves may
// lower the grids' trees, never below the root's eccentricity (a tree reaches every node),
// and do on torus:8x8 (14 -> 11). Every schedule verifies; a faulty copy, too few ports,
// SCAN or a Kautz digraph get nothing from it. The ALLREDUCE runs the sums back down the
// same trees reversed.
TEST(PipelinedDesigns, DisjointTreesPipelineReduceAndAllreduce) {
  struct Case {
    const char* net;
    int trees, blocks, built, eccentricity;
    NodeId root;
  };
  const Case cases[] = {{"torus:8x8", 4, 64, 14, 8, 0},  {"torus:5x7", 4, 30, 10, 5, 17},
                        {"mesh:8x8", 2, 64, 14, 14, 0},  {"mesh:8x8", 2, 5, 14, 14, 63},
                        {"mesh:6x5", 2, 9, 6, 6, 13},    {"torus:3x3", 4, 2, 4, 2, 4},
                        {"hypercube:4", 4, 8, 5, 4, 0},  {"hypercube:5", 5, 23, 6, 5, 21}};
  for (const Case& c : cases) {
    Problem p = make_reduction_problem(c.net, CollectiveKind::REDUCE, std::nullopt, c.blocks);
    p.collective.receivers = {c.root};
    const PathSet paths(p.topology, p.model);
    const Schedule* found = nullptr;
    const auto designs = designs_for(p, paths);
    for (const auto& d : designs)
      if (d.design.rfind("disjoint trees", 0) == 0) found = &d.schedule;
    ASSERT_NE(found, nullptr) << c.net;
    EXPECT_EQ(testing_support::violations_text(*found), "") << c.net;
    const int pipeline = (c.blocks + c.trees - 1) / c.trees - 1;
    EXPECT_LE(found->steps, pipeline + c.built) << c.net;
    EXPECT_GE(found->steps, pipeline + c.eccentricity) << c.net;
    if (std::string(c.net).starts_with("hypercube")) {
      EXPECT_EQ(found->steps, pipeline + c.built) << c.net;
    }
    if (std::string(c.net) == "torus:8x8") {
      EXPECT_LT(found->steps, pipeline + c.built);
    }
    EXPECT_GE(found->steps, lower_bounds(p, paths).best) << c.net;
  }
  // ALLREDUCE: the same trees up, then down reversed (copies), the copies of a channel
  // after its last reduction: verified, at most twice the REDUCE's steps plus one.
  for (const Case& c : cases) {
    const Problem p =
        make_reduction_problem(c.net, CollectiveKind::ALLREDUCE, std::nullopt, c.blocks);
    const PathSet paths(p.topology, p.model);
    bool seen = false;
    for (const auto& d : designs_for(p, paths)) {
      if (d.design.rfind("disjoint trees", 0) != 0) continue;
      seen = true;
      EXPECT_EQ(testing_support::violations_text(d.schedule), "") << c.net;
      EXPECT_GE(d.schedule.steps, lower_bounds(p, paths).best) << c.net;
    }
    EXPECT_TRUE(seen) << c.net;
  }
  auto offered = [](const Problem& p) {
    const PathSet paths(p.topology, p.model);
    for (const auto& d : designs_for(p, paths))
      if (d.design.rfind("disjoint trees", 0) == 0) return true;
    return false;
  };
  Problem faulty = make_reduction_problem("torus:8x8", CollectiveKind::REDUCE, std::nullopt, 8);
  const std::vector<Channel> broken{{9, 10}};
  faulty.topology = faulty.topology.without_channels(broken);
  EXPECT_FALSE(offered(faulty));
  EXPECT_FALSE(offered(make_reduction_problem("torus:8x8", CollectiveKind::REDUCE, 2, 8)));
  EXPECT_FALSE(offered(make_reduction_problem("torus:8x8", CollectiveKind::SCAN, {}, 8)));
  EXPECT_FALSE(offered(make_reduction_problem("torus:8x8", CollectiveKind::ALLREDUCE, 1, 8)));
  EXPECT_FALSE(offered(make_reduction_problem("kautz:2,3", CollectiveKind::REDUCE, {}, 8)));
}

// Merged images (engines/reduce/images.cpp): the disjoint trees' schedule for B / G blocks
// under G automorphisms chosen to spread the channels' load, merged by a list schedule. On
// a mesh, whose trees crowd the channels near their one root, it beats the trees of all B
// blocks (mesh:8x8 with 64 blocks: 54 against 72; the driver's best before was 64). Every
// schedule verifies (each block's sum everywhere), never below the bound; not offered for
// REDUCE, under combining, on a Kautz digraph (no trees) or a faulty mesh without the
// automorphisms the images need.
TEST(PipelinedDesigns, MergedImagesSpreadTheTreesOnMeshes) {
  const std::pair<const char*, int> cases[] = {
      {"mesh:8x8", 64}, {"mesh:6x6", 16}, {"mesh:5x3", 12}, {"torus:4x4", 8}, {"hypercube:4", 8}};
  for (const auto& [net, blocks] : cases) {
    const Problem p = make_reduction_problem(net, CollectiveKind::ALLREDUCE, std::nullopt, blocks);
    const PathSet paths(p.topology, p.model);
    const auto designs = designs_for(p, paths);
    const Schedule* merged = nullptr;
    const Schedule* trees = nullptr;
    for (const auto& d : designs) {
      if (d.design.rfind("merged images", 0) == 0 && (!merged || d.schedule.steps < merged->steps))
        merged = &d.schedule;
      if (d.design.rfind("disjoint trees", 0) == 0) trees = &d.schedule;
    }
    ASSERT_NE(merged, nullptr) << net;
    EXPECT_EQ(testing_support::violations_text(*merged), "") << net;
    EXPECT_EQ(merged->collective.blocks, blocks) << net;
    EXPECT_GE(merged->steps, lower_bounds(p, paths).best) << net;
    if (std::string(net) == "mesh:8x8") {
      ASSERT_NE(trees, nullptr);
      EXPECT_EQ(trees->steps, 72);
      EXPECT_LE(merged->steps, 54);
    }
  }
  auto offered = [](const Problem& p) {
    const PathSet paths(p.topology, p.model);
    for (const auto& d : designs_for(p, paths))
      if (d.design.rfind("merged images", 0) == 0) return true;
    return false;
  };
  EXPECT_FALSE(
      offered(make_reduction_problem("mesh:6x6", CollectiveKind::REDUCE, std::nullopt, 16)));
  Problem combining =
      make_reduction_problem("mesh:6x6", CollectiveKind::ALLREDUCE, std::nullopt, 16);
  combining.model.combining = true;
  EXPECT_FALSE(offered(combining));
  EXPECT_FALSE(offered(make_reduction_problem("kautz:2,3", CollectiveKind::ALLREDUCE, {}, 8)));
  Problem faulty = make_reduction_problem("mesh:6x6", CollectiveKind::ALLREDUCE, std::nullopt, 16);
  const std::vector<Channel> broken{{0, 1}};
  faulty.topology = faulty.topology.without_channels(broken);
  EXPECT_FALSE(offered(faulty));
}

// The driver: ring:8 1-port, 8 blocks: 14 steps, proven by reduce-volume.
TEST(PipelinedDesigns, DriverProvesRingOfEightBlocksOnePort) {
  const Problem p = make_reduction_problem("ring:8", CollectiveKind::ALLREDUCE, 1, 8);
  expect_driver_proves(p, 14, "ring:8 blocks 8");
}

// Pipelined SCAN: two blocks of ring:8 under one port overlap (8 steps; one block takes
// 4, the chain 7), and the interval search mixes them into 6 (the target docs/BENCHMARKS.md
// "Several blocks and message sizes" lists; the bound is 4, docs/ENGINES.md "Several blocks").
TEST(PipelinedDesigns, TwoBlockScanOnRingOfEightOverlaps) {
  const Problem p = make_reduction_problem("ring:8", CollectiveKind::SCAN, 1, 2);
  const int steps = best_steps(p, "pipelined");
  EXPECT_GT(steps, 0);
  EXPECT_LE(steps, 8);
  EXPECT_EQ(best_steps(p, "interval search"), 6);
}

// --- AAB of several blocks (FORMATS.md "Several blocks") ------------------------------

std::vector<Schedule> one_block_aab(const Problem& p, const PathSet& paths) {
  const Problem one = with_one_block(p);
  std::vector<Schedule> out;
  if (auto g = gossip_schedule(one, 1, Budget())) out.push_back(std::move(*g));
  if (auto c = constructive_schedule(one, paths)) out.push_back(std::move(*c));
  return out;
}

std::vector<ReductionCandidate> gather_designs(const Problem& p, const PathSet& paths) {
  auto out = allgather_trees(p);
  for (auto& d : allgather_copies(p, paths, one_block_aab(p, paths))) out.push_back(std::move(d));
  return out;
}

int best_gather(const Problem& p, const std::string& prefix = "") {
  const PathSet paths(p.topology, p.model);
  int best = -1;
  for (const auto& d : gather_designs(p, paths))
    if (d.design.rfind(prefix, 0) == 0 && (best < 0 || d.schedule.steps < best))
      best = d.schedule.steps;
  return best;
}

TEST(PipelinedAllGather, EveryDesignVerifies) {
  struct Case {
    const char* net;
    std::optional<int> ports;
    int blocks;
  };
  const Case cases[] = {{"ring:8", std::nullopt, 2}, {"ring:8", 1, 3},
                        {"ring:7", std::nullopt, 4}, {"torus:4x4", std::nullopt, 4},
                        {"torus:3x5", 2, 2},         {"mesh:3x3", std::nullopt, 3},
                        {"hypercube:3", 1, 2},       {"hypercube:4", std::nullopt, 4},
                        {"kautz:2,2", std::nullopt, 3}, {"fattree:8", std::nullopt, 2}};
  int checked = 0;
  for (const Case& c : cases) {
    const Problem p = make_reduction_problem(c.net, CollectiveKind::AAB, c.ports, c.blocks);
    ASSERT_EQ(p.collective.blocks, c.blocks);
    ASSERT_EQ(p.collective.messages.size(),
              static_cast<std::size_t>(p.topology.processor_count() * c.blocks));
    const PathSet paths(p.topology, p.model);
    const auto designs = gather_designs(p, paths);
    EXPECT_FALSE(designs.empty()) << c.net;
    for (const auto& d : designs) {
      ++checked;
      EXPECT_EQ(testing_support::violations_text(d.schedule), "") << c.net << " " << d.design;
    }
  }
  EXPECT_GE(checked, 15);
}

// The receive-volume bound ⌈B(p−1)/k_in⌉ is met by the lockstep trees on rings, tori and
// hypercubes, all-port and one-port, and by the balanced trees on the bidirectional ring
// read from a file (no translation there).
TEST(PipelinedAllGather, TreesMeetTheReceiveBound) {
  struct Case {
    const char* net;
    std::optional<int> ports;
    int blocks, steps;
  };
  const Case cases[] = {{"ring:8", std::nullopt, 2, 7},  {"ring:8", std::nullopt, 3, 11},
                        {"ring:8", 1, 2, 14},            {"torus:4x4", std::nullopt, 4, 15},
                        {"torus:8x8", std::nullopt, 4, 63}, {"hypercube:3", std::nullopt, 3, 7},
                        {"hypercube:6", std::nullopt, 2, 21}};
  for (const Case& c : cases) {
    const Problem p = make_reduction_problem(c.net, CollectiveKind::AAB, c.ports, c.blocks);
    const PathSet paths(p.topology, p.model);
    EXPECT_EQ(lower_bounds(p, paths).best, c.steps) << c.net;
    EXPECT_EQ(best_gather(p, "pipelined all-gather trees"), c.steps) << c.net;
  }
}

// The driver proves a blocked AAB through the bounds, and the schedule's JSON keeps the
// blocks (id = origin · B + block).
TEST(PipelinedAllGather, DriverProvesAndJsonKeepsBlocks) {
  const Problem p = make_reduction_problem("torus:4x4", CollectiveKind::AAB, std::nullopt, 4);
  SolveRequest request;
  request.time_limit = 30;
  const SolveOutcome out = testing_support::solve_checked(p, request, "torus:4x4 AAB blocks 4");
  ASSERT_TRUE(out.schedule);
  EXPECT_EQ(out.schedule->steps, 15);
  EXPECT_TRUE(out.optimal);
  const Schedule back = read_schedule_json(write_schedule_json(*out.schedule), "aab.json");
  EXPECT_EQ(back.collective.blocks, 4);
  EXPECT_EQ(write_schedule_json(back), write_schedule_json(*out.schedule));
  EXPECT_EQ(p.collective.messages[4 * 3 + 2].origin, p.topology.processors()[3]);
}

// A blocked AAB short of one message per block fails rule 10.
TEST(PipelinedAllGather, VerifierCountsTheBlocks) {
  const Problem p = make_reduction_problem("ring:4", CollectiveKind::AAB, std::nullopt, 2);
  const PathSet paths(p.topology, p.model);
  const auto designs = gather_designs(p, paths);
  ASSERT_FALSE(designs.empty());
  Schedule s = designs.front().schedule;
  s.collective.blocks = 3;
  EXPECT_NE(testing_support::violations_text(s).find("rule 10"), std::string::npos);
}

// The bound against the exhaustive oracle (tests/support/oracle.hpp) on tiny networks: the
// oracle's minimum is never below ccsched's bound, and the driver's answer equals it.
TEST(PipelinedAllGather, BoundAndDriverAgreeWithTheOracle) {
  struct Case {
    const char* net;
    std::optional<int> ports;
    int blocks;
  };
  const Case cases[] = {{"ring:3", std::nullopt, 2}, {"ring:4", std::nullopt, 2},
                        {"ring:4", 1, 2},           {"uring:4", std::nullopt, 2}};
  for (const Case& c : cases) {
    const Problem p = make_reduction_problem(c.net, CollectiveKind::AAB, c.ports, c.blocks);
    const PathSet paths(p.topology, p.model);
    const oracle::Result r = oracle::minimum_steps(p);
    ASSERT_EQ(r.status, oracle::Status::solved) << c.net << " " << r.note;
    EXPECT_LE(lower_bounds(p, paths).best, r.steps) << c.net;
    SolveRequest request;
    request.time_limit = 30;
    const SolveOutcome out = testing_support::solve_checked(p, request, c.net);
    ASSERT_TRUE(out.schedule);
    EXPECT_EQ(out.schedule->steps, r.steps) << c.net;
  }
}

}  // namespace
}  // namespace ccsched
