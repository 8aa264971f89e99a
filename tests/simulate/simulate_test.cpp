// SimGrid replay tests: a contention-free schedule shows every step at the single-message
// time t0 + m/B (+ hops * th), equal to the linear model (seed 001, eq. (1)); schedules
// that break the channel rule show the slowdown max-min sharing predicts, computed here
// by hand; the two directions of a full-duplex link do not disturb each other; repeated
// calls are independent. Reduction schedules (tests/support/reduction_schedules.hpp) replay
// their adds after each step's transfers, at the linear model's figure. The `simulate`
// command: text and --json output, the warning for conflicting schedules, one-line errors
// with exit status 2.
#include "ccsched/simulate/simulate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/cli_harness.hpp"
#include "../support/reduction_schedules.hpp"
#include "../support/solve_check.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

using testing_support::solve_verified;

// A one-to-all scatter on a ring of 4 from processor 0, every transfer placed by hand.
Schedule ring4_scatter(const std::vector<Transfer>& transfers, int steps) {
  Schedule s;
  s.topology = make_topology("ring:4");
  CollectiveRequest request;
  request.kind = CollectiveKind::OAS;
  s.collective = make_collective(s.topology, request);
  s.model = default_model(s.topology);
  s.steps = steps;
  s.transfers = transfers;
  for (Transfer& t : s.transfers)
    for (const Message& m : s.collective.messages)
      if (m.targets.front() == t.path.back()) t.messages = {m.id};
  return s;
}

constexpr double kBandwidth = 2e9, kLatency = 1e-6;
constexpr std::int64_t kBytes = 1024;

TEST(Simulate, ContentionFreeStepsTakeTheSingleMessageTime) {
  const SimulationParameters p{
      .bandwidth = kBandwidth, .latency = kLatency, .hop_latency = 0.0, .message_bytes = kBytes};
  for (const auto& [spec, kind] :
       {std::pair{"kautz:3,2", CollectiveKind::AAS}, std::pair{"omega:8", CollectiveKind::AAB},
        std::pair{"petersen", CollectiveKind::OAB}}) {
    const Schedule s = solve_verified(spec, kind);
    ASSERT_TRUE(verify_schedule(s).empty());
    const Simulation r = simulate_schedule(s, p);
    ASSERT_EQ(static_cast<int>(r.steps.size()), s.steps);
    const double single = kLatency + static_cast<double>(kBytes) / kBandwidth;  // 1.512 us
    for (const SimulatedStep& st : r.steps) {
      EXPECT_NEAR(st.seconds, single, 1e-12) << spec << " step " << st.step;
      EXPECT_NEAR(st.model_seconds, single, 1e-12) << spec;
    }
    EXPECT_NEAR(r.total_seconds, s.steps * single, 1e-11) << spec;
    EXPECT_NEAR(r.model_seconds, r.total_seconds, 1e-11) << spec;
  }
}

TEST(Simulate, HopLatencyAddsPerHopOfTheSlowestTransfer) {
  const Schedule s = solve_verified("omega:8", CollectiveKind::AAS);  // every path: 4 channels
  const SimulationParameters p{
      .bandwidth = kBandwidth, .latency = kLatency, .hop_latency = 1e-7, .message_bytes = kBytes};
  const Simulation r = simulate_schedule(s, p);
  for (const SimulatedStep& st : r.steps) {
    EXPECT_NEAR(st.seconds, 1.512e-6 + 4 * 1e-7, 1e-12);
    EXPECT_NEAR(st.seconds, st.model_seconds, 1e-12);
  }
}

TEST(Simulate, ConflictsCostWhatSharingPredicts) {
  // 0->1 and 0->1->2 in one step share channel 0->1: each gets half the bandwidth, both
  // finish after t0 + 2m/B; the verifier flags the same conflict.
  const Schedule shared = ring4_scatter({{1, {0, 1}, {}}, {1, {0, 1, 2}, {}}, {2, {0, 3}, {}}}, 2);
  const auto violations = verify_schedule(shared);
  ASSERT_FALSE(violations.empty());
  EXPECT_EQ(violations.front().rule, 3);
  const SimulationParameters p{
      .bandwidth = kBandwidth, .latency = kLatency, .hop_latency = 0.0, .message_bytes = kBytes};
  const Simulation r = simulate_schedule(shared, p);
  EXPECT_NEAR(r.steps[0].seconds, kLatency + 2.0 * kBytes / kBandwidth, 1e-12);  // 2.024 us
  EXPECT_NEAR(r.steps[0].model_seconds, 1.512e-6, 1e-12);
  EXPECT_NEAR(r.steps[1].seconds, 1.512e-6, 1e-12);
  EXPECT_GT(r.total_seconds, r.model_seconds * 1.15);

  // The contention-free version of the same transfers, one per step, is exact.
  const Schedule apart = ring4_scatter({{1, {0, 1}, {}}, {2, {0, 1, 2}, {}}, {3, {0, 3}, {}}}, 3);
  ASSERT_TRUE(verify_schedule(apart).empty());
  const Simulation a = simulate_schedule(apart, p);
  EXPECT_NEAR(a.total_seconds, 3 * 1.512e-6, 1e-12);

  // Transfers that leave processor 0 on different links share nothing: no slowdown.
  const Schedule split = ring4_scatter({{1, {0, 1}, {}}, {1, {0, 3, 2}, {}}, {2, {0, 3}, {}}}, 2);
  const Simulation d = simulate_schedule(split, p);
  EXPECT_NEAR(d.steps[0].seconds, 1.512e-6, 1e-12);
}

TEST(Simulate, DuplexDirectionsAreIndependent) {
  // Two transfers in one step on the two channels of link 0-1 (an all-to-all scatter
  // fragment): full duplex, so no slowdown.
  Schedule s;
  s.topology = make_topology("ring:4");
  CollectiveRequest request;
  request.kind = CollectiveKind::AAS;
  s.collective = make_collective(s.topology, request);
  s.model = default_model(s.topology);
  s.steps = 1;
  for (const Message& m : s.collective.messages) {
    if (m.origin == 0 && m.targets.front() == 1) s.transfers.push_back({1, {0, 1}, {m.id}});
    if (m.origin == 1 && m.targets.front() == 0) s.transfers.push_back({1, {1, 0}, {m.id}});
  }
  ASSERT_EQ(s.transfers.size(), 2u);
  const Simulation r = simulate_schedule(
      s,
      {.bandwidth = kBandwidth, .latency = kLatency, .hop_latency = 0.0, .message_bytes = kBytes});
  EXPECT_NEAR(r.steps[0].seconds, 1.512e-6, 1e-12);
}

TEST(Simulate, BadParametersAndPaths) {
  const Schedule s = ring4_scatter({{1, {0, 1}, {}}, {2, {0, 1, 2}, {}}, {3, {0, 3}, {}}}, 3);
  EXPECT_THROW(simulate_schedule(
                   s, {.bandwidth = 0.0, .latency = 0.0, .hop_latency = 0.0, .message_bytes = 1}),
               InvalidParameter);
  Schedule broken = s;
  broken.transfers[1].path = {0, 2};  // not a channel of the ring
  EXPECT_THROW(simulate_schedule(broken, {}), InvalidInput);
}

// --- reductions -----------------------------------------------------------------------

// 2 GB/s, 1 us start-up, 1024 B vectors, 0.25 ns per byte added.
const SimulationParameters kReductionParameters{.bandwidth = kBandwidth,
                                                .latency = kLatency,
                                                .hop_latency = 0.0,
                                                .message_bytes = kBytes,
                                                .add_time = 0.25e-9};

TEST(SimulateReduction, RingAllReduceAddsAfterEachReduceScatterStep) {
  // Blocks of 256 B: a transfer takes 1 + 256/2000 = 1.128 us; in the reduce-scatter steps
  // every processor then adds 256 B, 0.064 us, on its own host at the same time.
  const Schedule s = read_schedule_json(testing::ring4_allreduce_ring(), "ring");
  ASSERT_TRUE(verify_schedule(s).empty());
  const Simulation r = simulate_schedule(s, kReductionParameters);
  ASSERT_EQ(r.steps.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const double adds = i < 3 ? 0.064e-6 : 0.0;
    EXPECT_NEAR(r.steps[i].compute_seconds, adds, 1e-12) << "step " << i + 1;
    EXPECT_NEAR(r.steps[i].seconds, 1.128e-6 + adds, 1e-12) << "step " << i + 1;
    EXPECT_NEAR(r.steps[i].seconds, r.steps[i].model_seconds, 1e-12) << "step " << i + 1;
  }
  EXPECT_NEAR(r.total_seconds, 6.96e-6, 1e-11);

  // Without an add time the replay is the transfers alone.
  SimulationParameters no_adds = kReductionParameters;
  no_adds.add_time = 0.0;
  EXPECT_NEAR(simulate_schedule(s, no_adds).total_seconds, 6 * 1.128e-6, 1e-11);
}

TEST(SimulateReduction, OnlyProcessorsThatCombineValuesAdd) {
  // Step 1 stores 1's input in 0's empty accumulator: no add. Step 2: 0 adds two vectors,
  // 2048 * 0.25 ns = 0.512 us, after its slowest transfer 2 -> 1 -> 0 (1 + 0.2 + 0.512 us
  // with 0.1 us per hop).
  const Schedule s = read_schedule_json(testing::ring4_reduce_into_empty_root(), "reduce");
  ASSERT_TRUE(verify_schedule(s).empty());
  SimulationParameters p = kReductionParameters;
  p.hop_latency = 1e-7;
  const Simulation r = simulate_schedule(s, p);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].compute_seconds, 0.0);
  EXPECT_NEAR(r.steps[0].seconds, 1.612e-6, 1e-12);
  EXPECT_NEAR(r.steps[1].compute_seconds, 0.512e-6, 1e-12);
  EXPECT_NEAR(r.steps[1].seconds, 1.712e-6 + 0.512e-6, 1e-12);
  EXPECT_NEAR(r.total_seconds, r.model_seconds, 1e-12);

  SimulationParameters negative = kReductionParameters;
  negative.add_time = -1e-9;
  EXPECT_THROW(simulate_schedule(s, negative), InvalidParameter);
  SimulationParameters uneven = kReductionParameters;
  uneven.message_bytes = 1001;  // the ring all-reduce's 4 blocks need a multiple of 4
  EXPECT_THROW(
      simulate_schedule(read_schedule_json(testing::ring4_allreduce_ring(), "ring"), uneven),
      InvalidParameter);
}

// --- the command ---------------------------------------------------------------------

using test::CliRun;

class SimulateCli : public test::CliTest {
 protected:
  SimulateCli() : CliTest("ccsched_simulate_cli_") {}
  std::string write(const Schedule& s, const std::string& name) const {
    return CliTest::write(name, write_schedule_json(s));
  }
};

TEST_F(SimulateCli, JsonReportsStepsTotalAndModel) {
  const std::string file = write(solve_verified("kautz:3,2", CollectiveKind::AAS), "kautz.json");
  const CliRun r =
      run_line("simulate " + file + " --bandwidth 2GBps --latency 1us --bytes 1024 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["step_seconds"].is_array());
  EXPECT_EQ(j["step_seconds"].size(), 7u);
  for (const auto& v : j["step_seconds"]) EXPECT_NEAR(v.get<double>(), 1.512e-6, 1e-12);
  EXPECT_NEAR(j["total_seconds"].get<double>(), 7 * 1.512e-6, 1e-11);
  EXPECT_NEAR(j["model_seconds"].get<double>(), 7 * 1.512e-6, 1e-11);
  EXPECT_EQ(r.err.find("ccsched:"), std::string::npos) << r.err;  // no warning, no error

  const CliRun text =
      run_line("simulate " + file + " --bandwidth 2GBps --latency 1us --bytes 1024");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("10.584"), std::string::npos) << text.out;  // 7 x 1.512 us
}

TEST_F(SimulateCli, ConflictingScheduleWarnsAndShowsTheSlowdown) {
  const std::string file =
      write(ring4_scatter({{1, {0, 1}, {}}, {1, {0, 1, 2}, {}}, {2, {0, 3}, {}}}, 2), "clash.json");
  const CliRun r =
      run_line("simulate " + file + " --bandwidth 2GBps --latency 1us --bytes 1024 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos);
  EXPECT_NE(r.err.find("rule 3"), std::string::npos);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["step_seconds"][0].get<double>(), 2.024e-6, 1e-12);
  EXPECT_GT(j["total_seconds"].get<double>(), j["model_seconds"].get<double>());
}

TEST_F(SimulateCli, ReductionReportsTheAdds) {
  const auto path = CliTest::write("allreduce.json", testing::ring4_allreduce_ring());
  const CliRun r = run_line("simulate " + path +
                            " --bandwidth 2GBps --latency 1us --bytes 1024 --tc 0.25ns --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["blocks"], 4);
  ASSERT_EQ(j["step_compute_seconds"].size(), 6u);
  EXPECT_NEAR(j["step_compute_seconds"][0].get<double>(), 0.064e-6, 1e-12);
  EXPECT_EQ(j["step_compute_seconds"][5].get<double>(), 0.0);
  EXPECT_NEAR(j["total_seconds"].get<double>(), 6.96e-6, 1e-11);
  EXPECT_NEAR(j["model_seconds"].get<double>(), 6.96e-6, 1e-11);

  const CliRun text =
      run_line("simulate " + path + " --bandwidth 2GBps --latency 1us --bytes 1024 --tc 0.25ns");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("adds (us)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("6.96"), std::string::npos) << text.out;

  // --tc on a schedule that adds nothing is a mistake, said in one line.
  const std::string scatter =
      write(ring4_scatter({{1, {0, 1}, {}}, {2, {0, 1, 2}, {}}, {3, {0, 3}, {}}}, 3), "s.json");
  const CliRun bad =
      run_line("simulate " + scatter + " --bandwidth 2GBps --latency 1us --bytes 1024 --tc 1ns");
  test::expect_one_line_error(bad, "--tc");
}

// Several schedules side by side: the ring all-reduce in 4 blocks and recursive doubling
// on ring:4, by the replay at every size (doubling) and at one size, each replay equal to
// the model's figure; schedules of another collective are refused in one line.
TEST_F(SimulateCli, SideBySide) {
  const auto ring = CliTest::write("ring.json", testing::ring4_allreduce_ring());
  const auto doubling = CliTest::write("doubling.json", testing::ring4_allreduce_doubling());
  const CliRun r = run_line("simulate " + ring + " " + doubling +
                            " --bandwidth 2GBps --latency 1us --tc 0.25ns --crossover --from 2 "
                            "--to 1MiB --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["schedules"].size(), 2u);
  EXPECT_EQ(j["schedules"][0]["blocks"], 4);
  ASSERT_EQ(j["sizes"].size(), 20u);  // 2 B .. 1 MiB
  EXPECT_TRUE(j["sizes"][0]["seconds"][0].is_null());  // 2 B: fewer bytes than blocks
  EXPECT_EQ(j["sizes"][0]["best"], 1);
  for (const auto& row : j["sizes"])
    for (std::size_t k = 0; k < 2; ++k)
      if (!row["seconds"][k].is_null()) {
        EXPECT_NEAR(row["seconds"][k].get<double>(), row["model_seconds"][k].get<double>(),
                    1e-9 * row["model_seconds"][k].get<double>());
      }
  // 1024 B as in ReductionReportsTheAdds: the ring 6.96 us.
  EXPECT_EQ(j["sizes"][9]["bytes"], 1024);
  EXPECT_NEAR(j["sizes"][9]["seconds"][0].get<double>(), 6.96e-6, 1e-11);
  EXPECT_EQ(j["sizes"].back()["best"], 0);  // the ring wins at 1 MiB
  EXPECT_NEAR(j["slowdown"].get<double>(), 1.0, 1e-9);

  const CliRun one = run_line("simulate " + ring + " " + doubling +
                              " --bandwidth 2GBps --latency 1us --tc 0.25ns --bytes 1024");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_NE(one.out.find("6.96"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("1 KiB"), std::string::npos) << one.out;

  const std::string scatter =
      write(ring4_scatter({{1, {0, 1}, {}}, {2, {0, 1, 2}, {}}, {3, {0, 3}, {}}}, 3), "s.json");
  expect_refused("simulate " + ring + " " + scatter + " --bandwidth 2GBps --latency 1us --bytes 1024",
                 "one collective on one network");
  expect_refused("simulate " + ring + " " + doubling +
                     " --bandwidth 2GBps --latency 1us --crossover --bytes 1024",
                 "--bytes");
}

TEST_F(SimulateCli, BadInputIsOneLineAndExitTwo) {
  const std::string good =
      write(ring4_scatter({{1, {0, 1}, {}}, {2, {0, 1, 2}, {}}, {3, {0, 3}, {}}}, 3), "good.json");
  // Not a conflict but a missing delivery: no meaningful replay.
  const std::string missing = write(ring4_scatter({{1, {0, 1}, {}}, {2, {0, 3}, {}}}, 2), "m.json");
  for (const auto& [args, needle] :
       {std::pair{"simulate " + missing + " --bandwidth 2GBps --latency 1us --bytes 1024",
                  std::string("not a valid schedule")},
        std::pair{"simulate " + good + " --bandwidth 2GHz --latency 1us --bytes 1024",
                  std::string("--bandwidth")},
        std::pair{"simulate " + good + " --bandwidth 2GBps --latency 1 --bytes 1024",
                  std::string("--latency")}}) {
    expect_refused(args, needle);
  }
}

}  // namespace
}  // namespace ccsched
